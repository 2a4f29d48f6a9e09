/* Ops that move data without arithmetic: broadcast, reshape, transpose,
 * concatenate, slice, dynamic-slice, dynamic-update-slice, reverse, pad,
 * iota, tuple and get-tuple-element, as XLA's ShapeInference and
 * ShapeVerifier check them. */
#include "wp_hlo_verify_internal.h"

#include "wp_hlo_types.h"

#include <stdio.h>
#include <string.h>

static int expect_array(wp_hv *v, const Xla__ShapeProto *s, const char *what) {
  if (wp_hv_is_array(s))
    return 0;
  return wp_hv_fail(v, "Expected array argument for %s, but got %s.", what,
                    wp_hv_str(v, s, false));
}

/* HLO's broadcast (ShapeVerifier::HandleBroadcast): operand dimension i
 * is output dimension dimensions[i], of the same size. */
static int check_broadcast(wp_hv *v, const wp_hv_ins *in) {
  if (wp_hv_operand_count(v, in, 1))
    return -1;
  const Xla__ShapeProto *s = in->ops[0]->shape, *out = in->shape;
  const Xla__HloInstructionProto *ins = in->ins;
  if (expect_array(v, s, "operand of broadcast") || expect_array(v, out, "broadcast"))
    return -1;
  if (!wp_hv_same_type(s->element_type, out->element_type, true))
    return wp_hv_fail(v, "Broadcast changes the element type: operand %s, result %s",
                      wp_hv_str(v, s, false), wp_hv_str(v, out, false));
  if (ins->n_dimensions != s->n_dimensions)
    return wp_hv_fail(v, "Size of broadcast_dimensions has to match operand's rank; operand "
                      "rank: %zu, size of broadcast_dimensions %zu.", s->n_dimensions,
                      ins->n_dimensions);
  for (size_t i = 0; i < s->n_dimensions; i++) {
    int64_t d = ins->dimensions[i];
    if (d < 0 || (uint64_t)d >= out->n_dimensions)
      return wp_hv_fail(v, "Broadcast dimension %lld is out of bound", (long long)d);
    if (s->dimensions[i] != out->dimensions[d])
      return wp_hv_fail(v, "Input dimension should be equal to the output dimension it is "
                        "broadcasting into; the %zuth operand dimension is %lld, the %lldth "
                        "output dimension is %lld.", i, (long long)s->dimensions[i],
                        (long long)d, (long long)out->dimensions[d]);
  }
  return 0;
}

/* ShapeVerifier::HandleReshape: same element type and element count. */
static int check_reshape(wp_hv *v, const wp_hv_ins *in) {
  if (wp_hv_operand_count(v, in, 1))
    return -1;
  const Xla__ShapeProto *s = in->ops[0]->shape, *out = in->shape;
  if (expect_array(v, s, "reshape") || expect_array(v, out, "reshape"))
    return -1;
  if (!wp_hv_same_type(s->element_type, out->element_type, true))
    return wp_hv_fail(v, "Reshape changes the element type: operand %s, result %s",
                      wp_hv_str(v, s, false), wp_hv_str(v, out, false));
  int64_t from = wp_hv_elements(s), to = wp_hv_elements(out);
  if (from >= 0 && to >= 0 && from != to)
    return wp_hv_fail(v, "Reshape operation has mismatched element counts: from=%lld (%s) "
                      "to=%lld (%s).", (long long)from, wp_hv_str(v, s, false), (long long)to,
                      wp_hv_str(v, out, false));
  return 0;
}

/* Is DIMS (N of them) a permutation of 0..N-1? */
static bool is_permutation(wp_hv *v, const int64_t *dims, size_t n) {
  bool *seen = wp_arena_alloc(v->scratch, n + 1);
  for (size_t i = 0; i < n; i++) {
    if (dims[i] < 0 || (uint64_t)dims[i] >= n || seen[dims[i]])
      return false;
    seen[dims[i]] = true;
  }
  return true;
}

static int check_transpose(wp_hv *v, const wp_hv_ins *in) {
  if (wp_hv_operand_count(v, in, 1))
    return -1;
  const Xla__ShapeProto *s = in->ops[0]->shape;
  const Xla__HloInstructionProto *ins = in->ins;
  if (expect_array(v, s, "transpose"))
    return -1;
  if (ins->n_dimensions != s->n_dimensions ||
      !is_permutation(v, ins->dimensions, ins->n_dimensions))
    return wp_hv_fail(v, "Transpose dimensions [%s] are not a permutation of the operand "
                      "dimensions (operand shape is %s).",
                      wp_hv_list(v, ins->dimensions, ins->n_dimensions, ","),
                      wp_hv_str(v, s, false));
  Xla__ShapeProto *out = wp_hv_make(v, s->element_type, s->dimensions, s->n_dimensions);
  for (size_t i = 0; i < s->n_dimensions; i++)
    out->dimensions[i] = s->dimensions[ins->dimensions[i]];
  return wp_hv_check_shape(v, in, out, false);
}

/* ShapeInference::InferConcatOpShape. */
static int check_concatenate(wp_hv *v, const wp_hv_ins *in) {
  const Xla__HloInstructionProto *ins = in->ins;
  if (in->n_ops == 0)
    return wp_hv_fail(v, "Concatenate expects at least one argument.");
  if (ins->n_dimensions != 1)
    return wp_hv_fail(v, "Concatenate expects one dimension, got %zu", ins->n_dimensions);
  const Xla__ShapeProto *first = in->ops[0]->shape;
  int64_t dim = ins->dimensions[0];
  if (dim < 0 || (uint64_t)dim >= wp_hv_rank(first))
    return wp_hv_fail(v, "Concatenate dimension out of bounds: %lld.", (long long)dim);
  Xla__ShapeProto *out = wp_hv_make(v, first->element_type, first->dimensions,
                                    first->n_dimensions);
  for (size_t k = 0; k < in->n_ops; k++) {
    const Xla__ShapeProto *s = in->ops[k]->shape;
    if (expect_array(v, s, "operand of concatenation"))
      return -1;
    if (k == 0)
      continue;
    if (s->n_dimensions != first->n_dimensions)
      return wp_hv_fail(v, "Cannot concatenate arrays with different ranks: %zu (%s) vs %zu "
                        "(%s).", first->n_dimensions, wp_hv_str(v, first, false),
                        s->n_dimensions, wp_hv_str(v, s, false));
    if (!wp_hv_same_type(first->element_type, s->element_type, true))
      return wp_hv_fail(v, "Cannot concatenate arrays with different element types: %s vs %s.",
                        wp_hv_type_name(first->element_type), wp_hv_type_name(s->element_type));
    for (size_t d = 0; d < s->n_dimensions; d++)
      if (d != (size_t)dim && s->dimensions[d] != first->dimensions[d])
        return wp_hv_fail(v, "Cannot concatenate arrays that differ in dimensions other than "
                          "the one being concatenated. Dimension %zu in both shapes must be "
                          "equal: %s vs %s.", d, wp_hv_str(v, first, false),
                          wp_hv_str(v, s, false));
    out->dimensions[dim] = wp_hv_add(out->dimensions[dim], s->dimensions[dim]);
  }
  return wp_hv_check_shape(v, in, out, false);
}

/* ShapeInference::InferSliceShape. */
static int check_slice(wp_hv *v, const wp_hv_ins *in) {
  if (wp_hv_operand_count(v, in, 1))
    return -1;
  const Xla__ShapeProto *s = in->ops[0]->shape;
  if (expect_array(v, s, "operand of slice"))
    return -1;
  size_t n = in->ins->n_slice_dimensions;
  int64_t *start = wp_arena_alloc(v->scratch, 3 * (n + 1) * sizeof *start);
  int64_t *limit = start + n + 1, *stride = limit + n + 1;
  for (size_t i = 0; i < n; i++) {
    Xla__SliceDimensionsView *sd =
        wp_hv_view(v, in->ins->slice_dimensions[i], &xla__slice_dimensions_view__descriptor);
    start[i] = sd->start;
    limit[i] = sd->limit;
    stride[i] = sd->stride;
  }
  if (n != s->n_dimensions)
    return wp_hv_fail(v, "Slice index count does not match argument rank: %zu vs %zu.", n,
                      s->n_dimensions);
  Xla__ShapeProto *out = wp_hv_make(v, s->element_type, s->dimensions, n);
  for (size_t d = 0; d < n; d++) {
    const char *why = NULL;
    char buf[160];
    if (start[d] < 0)
      return wp_hv_fail(v, "Negative start index to slice: %lld.", (long long)start[d]);
    if (limit[d] > s->dimensions[d]) {
      snprintf(buf, sizeof buf, "limit index (%lld) must be less than or equal to dimension "
               "size (%lld)", (long long)limit[d], (long long)s->dimensions[d]);
      why = buf;
    } else if (start[d] > limit[d]) {
      snprintf(buf, sizeof buf, "limit index (%lld) must be greater or equal to start index "
               "(%lld) in slice with positive stride", (long long)limit[d], (long long)start[d]);
      why = buf;
    }
    if (why)
      return wp_hv_fail(v, "%s in slice operation; argument shape: %s; starts: {%s}; limits: "
                        "{%s}; strides: {%s}.", why, wp_hv_str(v, s, false),
                        wp_hv_list(v, start, n, ","), wp_hv_list(v, limit, n, ","),
                        wp_hv_list(v, stride, n, ","));
    if (stride[d] <= 0)
      return wp_hv_fail(v, "Stride (%lld) must be positive.", (long long)stride[d]);
    int64_t span = limit[d] - start[d]; /* no overflow: 0 <= start <= limit */
    out->dimensions[d] = span / stride[d] + (span % stride[d] != 0);
  }
  return wp_hv_check_shape(v, in, out, false);
}

/* The start indices of a dynamic slice (from operand FIRST on): one rank-1
 * array or one scalar per dimension, integral (InferDynamicSliceShape and
 * InferDynamicUpdateSliceShape; WHAT names the op in XLA's words). */
static int check_start_indices(wp_hv *v, const wp_hv_ins *in, size_t first,
                               const Xla__ShapeProto *operand, const char *what) {
  size_t n = in->n_ops - first, rank = operand->n_dimensions;
  if (n >= 1 && in->ops[first]->shape->n_dimensions == 1 && wp_hv_is_array(in->ops[first]->shape)) {
    const Xla__ShapeProto *idx = in->ops[first]->shape;
    if (n != 1)
      return wp_hv_fail(v, "%s should have exactly 1 index operand, has %zu.", what, n);
    if (!wp_hv_is_integral(idx->element_type))
      return wp_hv_fail(v, "%s start indices must be of integral type.", what);
    if ((uint64_t)idx->dimensions[0] != rank)
      return wp_hv_fail(v, "%s start number of dimensions %lld (%s) must match rank %zu of "
                        "slice input (%s).", what, (long long)idx->dimensions[0],
                        wp_hv_str(v, idx, false), rank, wp_hv_str(v, operand, false));
    return 0;
  }
  if (n != rank)
    return wp_hv_fail(v, "%s start number of dimensions %zu must match rank %zu of slice "
                      "input (%s).", what, n, rank, wp_hv_str(v, operand, false));
  for (size_t i = 0; i < n; i++) {
    const Xla__ShapeProto *idx = in->ops[first + i]->shape;
    if (i == 0 && !wp_hv_is_scalar(idx))
      return wp_hv_fail(v, "%s indices must be scalar, not %s.", what, wp_hv_str(v, idx, false));
    if (i == 0 && !wp_hv_is_integral(idx->element_type))
      return wp_hv_fail(v, "%s start indices must be of integral type.", what);
    if (!wp_hv_compatible(in->ops[first]->shape, idx, false))
      return wp_hv_fail(v, "%s start indices must all have the same shape, got mismatching "
                        "indices with shapes %s and %s.", what,
                        wp_hv_str(v, in->ops[first]->shape, false), wp_hv_str(v, idx, false));
  }
  return 0;
}

static int check_dynamic_slice(wp_hv *v, const wp_hv_ins *in) {
  if (in->n_ops < 1)
    return wp_hv_fail(v, "Expected at least one operand.");
  const Xla__ShapeProto *s = in->ops[0]->shape;
  const Xla__HloInstructionProto *ins = in->ins;
  if (expect_array(v, s, "operand of dynamic slice") ||
      check_start_indices(v, in, 1, s, "Dynamic slice"))
    return -1;
  if (ins->n_dynamic_slice_sizes != s->n_dimensions)
    return wp_hv_fail(v, "Dynamic slice index count does not match argument rank: %zu vs %zu.",
                      ins->n_dynamic_slice_sizes, s->n_dimensions);
  for (size_t d = 0; d < s->n_dimensions; d++) {
    int64_t size = ins->dynamic_slice_sizes[d];
    if (size < 0)
      return wp_hv_fail(v, "Negative size index to dynamic slice: %lld.", (long long)size);
    if (size > s->dimensions[d])
      return wp_hv_fail(v, "Slice dim size %lld greater than dynamic slice dimension: %lld.",
                        (long long)size, (long long)s->dimensions[d]);
  }
  return wp_hv_check_shape(v, in, wp_hv_make(v, s->element_type, ins->dynamic_slice_sizes,
                                             ins->n_dynamic_slice_sizes), false);
}

static int check_dynamic_update_slice(wp_hv *v, const wp_hv_ins *in) {
  if (in->n_ops < 2)
    return wp_hv_fail(v, "Expected at least two operands.");
  const Xla__ShapeProto *s = in->ops[0]->shape, *u = in->ops[1]->shape;
  if (expect_array(v, s, "operand of dynamic update slice") ||
      expect_array(v, u, "update of dynamic update slice") ||
      check_start_indices(v, in, 2, s, "Dynamic update slice"))
    return -1;
  if (u->n_dimensions != s->n_dimensions)
    return wp_hv_fail(v, "Dynamic update slice update rank does not match argument rank: %zu "
                      "vs %zu.", u->n_dimensions, s->n_dimensions);
  if (!wp_hv_same_type(s->element_type, u->element_type, true))
    return wp_hv_fail(v, "Dynamic update slice update element type does not match argument. "
                      "operand.element_type: %s vs update.element_type: %s.",
                      wp_hv_type_name(s->element_type), wp_hv_type_name(u->element_type));
  for (size_t d = 0; d < s->n_dimensions; d++)
    if (u->dimensions[d] > s->dimensions[d])
      return wp_hv_fail(v, "Update dim size %lld greater than dynamic slice dimension: %lld.",
                        (long long)u->dimensions[d], (long long)s->dimensions[d]);
  return wp_hv_check_shape(v, in, s, false);
}

static int check_reverse(wp_hv *v, const wp_hv_ins *in) {
  if (wp_hv_operand_count(v, in, 1))
    return -1;
  const Xla__ShapeProto *s = in->ops[0]->shape;
  const Xla__HloInstructionProto *ins = in->ins;
  if (expect_array(v, s, "operand of reverse"))
    return -1;
  for (size_t i = 0; i < ins->n_dimensions; i++) {
    for (size_t j = 0; j < i; j++)
      if (ins->dimensions[j] == ins->dimensions[i])
        return wp_hv_fail(v, "a dimension number is duplicated in reverse");
    if (ins->dimensions[i] < 0 || (uint64_t)ins->dimensions[i] >= s->n_dimensions)
      return wp_hv_fail(v, "One of the reverse dimensions (%lld) is out-of-bounds in shape %s.",
                        (long long)ins->dimensions[i], wp_hv_str(v, s, false));
  }
  return wp_hv_check_shape(v, in, s, false);
}

/* ShapeInference::InferPadShape. */
static int check_pad(wp_hv *v, const wp_hv_ins *in) {
  if (wp_hv_operand_count(v, in, 2))
    return -1;
  const Xla__ShapeProto *s = in->ops[0]->shape, *pv = in->ops[1]->shape;
  if (!wp_hv_is_array(s))
    return wp_hv_fail(v, "Pad operation does not support tuple-shape operands.");
  if (!wp_hv_is_scalar(pv))
    return wp_hv_fail(v, "Pad operation does not support non-scalar padding values.");
  Xla__PaddingConfigView *pc =
      wp_hv_view(v, in->ins->padding_config, &xla__padding_config_view__descriptor);
  if (pc->n_dimensions != s->n_dimensions)
    return wp_hv_fail(v, "The rank of the operand and the padding configuration do not match: "
                      "%s vs %zu dimensions.", wp_hv_str(v, s, false), pc->n_dimensions);
  if (!wp_hv_same_type(s->element_type, pv->element_type, true))
    return wp_hv_fail(v, "The element types of the operands to Pad do not match.");
  Xla__ShapeProto *out = wp_hv_make(v, s->element_type, s->dimensions, s->n_dimensions);
  for (size_t d = 0; d < s->n_dimensions; d++) {
    const Xla__PaddingConfigDimensionView *p = pc->dimensions[d];
    if (p->interior_padding < 0)
      return wp_hv_fail(v, "Interior padding cannot be negative.");
    int64_t n = s->dimensions[d];
    int64_t size = wp_hv_add(wp_hv_add(n, p->edge_padding_low),
                             wp_hv_add(p->edge_padding_high,
                                       wp_hv_mul(n > 1 ? n - 1 : 0, p->interior_padding)));
    if (size < 0)
      return wp_hv_fail(v, "Padding result in negative size for dimension %zu", d);
    out->dimensions[d] = size;
  }
  return wp_hv_check_shape(v, in, out, false);
}

static int check_iota(wp_hv *v, const wp_hv_ins *in) {
  const Xla__ShapeProto *s = in->shape;
  if (!wp_hv_is_array(s))
    return wp_hv_fail(v, "Iota does not support non-array result.");
  if (s->n_dimensions == 0)
    return wp_hv_fail(v, "Iota does not support scalars.");
  /* iota_dimension is the proto's dimensions[0] */
  int64_t d = in->ins->n_dimensions ? in->ins->dimensions[0] : 0;
  if (d < 0 || (uint64_t)d >= s->n_dimensions)
    return wp_hv_fail(v, "The iota dimension cannot go beyond the operation rank or be "
                      "negative.");
  int t = s->element_type;
  if (!wp_hv_is_integral(t) && !wp_hv_is_float(t) && !wp_hv_is_complex(t))
    return wp_hv_fail(v, "Only support iota of integral, floating point or complex primitive "
                      "types, got %s", wp_hv_type_name(t));
  return 0;
}

static int check_tuple(wp_hv *v, const wp_hv_ins *in) {
  const Xla__ShapeProto **elems = wp_arena_alloc(v->scratch, (in->n_ops + 1) * sizeof *elems);
  for (size_t i = 0; i < in->n_ops; i++)
    elems[i] = in->ops[i]->shape;
  return wp_hv_check_shape(v, in, wp_hv_make_tuple(v, elems, in->n_ops), true);
}

static int check_get_tuple_element(wp_hv *v, const wp_hv_ins *in) {
  if (wp_hv_operand_count(v, in, 1))
    return -1;
  const Xla__ShapeProto *s = in->ops[0]->shape;
  int64_t index = in->ins->tuple_index;
  if (!wp_hv_is_tuple(s))
    return wp_hv_fail(v, "Cannot infer shape: attempting to index into non-tuple: %s.",
                      wp_hv_str(v, s, false));
  if (index < 0 || (uint64_t)index >= s->n_tuple_shapes)
    return wp_hv_fail(v, "Cannot infer shape: attempt to index out of tuple bounds: %lld >= %zu "
                      "in shape %s.", (long long)index, s->n_tuple_shapes,
                      wp_hv_str(v, s, false));
  return wp_hv_check_shape(v, in, s->tuple_shapes[index], true);
}

int wp_hv_check_data_movement(wp_hv *v, const wp_hv_ins *in, bool *handled) {
  static const struct {
    const char *opcode;
    int (*check)(wp_hv *, const wp_hv_ins *);
  } ops[] = {
      {"broadcast", check_broadcast},
      {"reshape", check_reshape},
      {"transpose", check_transpose},
      {"concatenate", check_concatenate},
      {"slice", check_slice},
      {"dynamic-slice", check_dynamic_slice},
      {"dynamic-update-slice", check_dynamic_update_slice},
      {"reverse", check_reverse},
      {"pad", check_pad},
      {"iota", check_iota},
      {"tuple", check_tuple},
      {"get-tuple-element", check_get_tuple_element},
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (wp_hv_opcode_is(in->ins->opcode, ops[i].opcode)) {
      *handled = true;
      return ops[i].check(v, in);
    }
  return 0;
}
