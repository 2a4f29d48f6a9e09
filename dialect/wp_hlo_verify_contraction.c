/* Ops that contract dimensions: dot, convolution and reduce, as XLA's
 * ShapeInference infers them (InferDotOpShape, InferConvolveShape,
 * InferReduceShape with VerifyReducerShape). */
#include "wp_hlo_verify_internal.h"

#include "wp_hlo_types.h"

#include <stdio.h>
#include <string.h>

/* ---- dot ---- */

static bool all_in_range(const int64_t *d, size_t n, size_t rank) {
  for (size_t i = 0; i < n; i++)
    if (d[i] < 0 || (uint64_t)d[i] >= rank)
      return false;
  return true;
}

static bool contains(const int64_t *d, size_t n, int64_t x) {
  for (size_t i = 0; i < n; i++)
    if (d[i] == x)
      return true;
  return false;
}

/* No dimension twice among A and B together. */
static bool all_unique(const int64_t *a, size_t na, const int64_t *b, size_t nb) {
  for (size_t i = 0; i < na; i++)
    if (contains(a, i, a[i]))
      return false;
  for (size_t i = 0; i < nb; i++)
    if (contains(b, i, b[i]) || contains(a, na, b[i]))
      return false;
  return true;
}

static const char *dot_dnums_str(wp_hv *v, const Xla__DotDimensionNumbersView *d) {
  const char *s[4] = {wp_hv_list(v, d->lhs_batch_dimensions, d->n_lhs_batch_dimensions, ","),
                      wp_hv_list(v, d->lhs_contracting_dimensions,
                                 d->n_lhs_contracting_dimensions, ","),
                      wp_hv_list(v, d->rhs_batch_dimensions, d->n_rhs_batch_dimensions, ","),
                      wp_hv_list(v, d->rhs_contracting_dimensions,
                                 d->n_rhs_contracting_dimensions, ",")};
  size_t n = 128;
  for (int i = 0; i < 4; i++)
    n += strlen(s[i]);
  char *out = wp_arena_alloc(v->scratch, n);
  snprintf(out, n, "lhs_batch_dims={%s}, lhs_contracting_dims={%s}, rhs_batch_dims={%s}, "
           "rhs_contracting_dims={%s}", s[0], s[1], s[2], s[3]);
  return out;
}

static int dot_fail(wp_hv *v, const Xla__ShapeProto *a, const Xla__ShapeProto *b,
                    const char *why) {
  return wp_hv_fail(v, "Cannot infer shape for dot operation: %s <dot> %s. %s",
                    wp_hv_str(v, a, false), wp_hv_str(v, b, false), why);
}

/* MaybeUpcast: the result's element type, which XLA takes as the
 * preferred one, may not be a narrower integer than the operands'. */
static int check_preferred_type(wp_hv *v, int from, int preferred) {
  if (from != preferred && !wp_hv_is_float(from) && wp_hv_is_array_type(preferred) &&
      wp_hv_bit_width(preferred) < wp_hv_bit_width(from))
    return wp_hv_fail(v, "`preferred_element_type` must not be narrower than the original "
                      "type.");
  return 0;
}

static int check_dot(wp_hv *v, const wp_hv_ins *in) {
  if (in->ins->n_dot_sparsity == 0 && wp_hv_operand_count(v, in, 2))
    return -1;
  if (in->n_ops < 2)
    return 0;
  const Xla__ShapeProto *a = in->ops[0]->shape, *b = in->ops[1]->shape;
  if (!wp_hv_is_array(a))
    return wp_hv_fail(v, "Expected array argument for lhs of dot, but got %s.",
                      wp_hv_str(v, a, false));
  if (!wp_hv_is_array(b))
    return wp_hv_fail(v, "Expected array argument for rhs of dot, but got %s.",
                      wp_hv_str(v, b, false));
  Xla__DotDimensionNumbersView *d =
      wp_hv_view(v, in->ins->dot_dimension_numbers, &xla__dot_dimension_numbers_view__descriptor);
  if (!all_in_range(d->lhs_contracting_dimensions, d->n_lhs_contracting_dimensions,
                    a->n_dimensions) ||
      !all_in_range(d->lhs_batch_dimensions, d->n_lhs_batch_dimensions, a->n_dimensions) ||
      !all_in_range(d->rhs_contracting_dimensions, d->n_rhs_contracting_dimensions,
                    b->n_dimensions) ||
      !all_in_range(d->rhs_batch_dimensions, d->n_rhs_batch_dimensions, b->n_dimensions))
    return wp_hv_fail(v, "A dimension number is out of range in Dot: %s.", dot_dnums_str(v, d));
  if (!all_unique(d->lhs_contracting_dimensions, d->n_lhs_contracting_dimensions,
                  d->lhs_batch_dimensions, d->n_lhs_batch_dimensions) ||
      !all_unique(d->rhs_contracting_dimensions, d->n_rhs_contracting_dimensions,
                  d->rhs_batch_dimensions, d->n_rhs_batch_dimensions))
    return wp_hv_fail(v, "A dimension number is not unique in Dot: %s.", dot_dnums_str(v, d));
  if (d->n_lhs_contracting_dimensions != d->n_rhs_contracting_dimensions)
    return dot_fail(v, a, b, "Must specify the same number of contracting dimensions for lhs "
                    "and rhs.");
  for (size_t i = 0; i < d->n_lhs_contracting_dimensions; i++)
    if (a->dimensions[d->lhs_contracting_dimensions[i]] !=
        b->dimensions[d->rhs_contracting_dimensions[i]])
      return dot_fail(v, a, b, "Contracting dimension sizes do not match.");
  if (d->n_lhs_batch_dimensions != d->n_rhs_batch_dimensions)
    return dot_fail(v, a, b, "Must the same number of batch dimensions for lhs and rhs.");
  for (size_t i = 0; i < d->n_lhs_batch_dimensions; i++)
    if (a->dimensions[d->lhs_batch_dimensions[i]] != b->dimensions[d->rhs_batch_dimensions[i]])
      return dot_fail(v, a, b, "Batch dimension sizes must match for lhs/rhs.");
  int preferred = in->shape->element_type;
  if (check_preferred_type(v, a->element_type, preferred))
    return -1;
  Xla__ShapeProto *out = wp_hv_make(v, preferred, NULL, 0);
  out->dimensions = wp_arena_alloc(v->scratch, (a->n_dimensions + b->n_dimensions + 1) *
                                                   sizeof *out->dimensions);
  size_t r = 0;
  for (size_t i = 0; i < d->n_lhs_batch_dimensions; i++)
    out->dimensions[r++] = a->dimensions[d->lhs_batch_dimensions[i]];
  for (size_t i = 0; i < a->n_dimensions; i++)
    if (!contains(d->lhs_contracting_dimensions, d->n_lhs_contracting_dimensions, (int64_t)i) &&
        !contains(d->lhs_batch_dimensions, d->n_lhs_batch_dimensions, (int64_t)i))
      out->dimensions[r++] = a->dimensions[i];
  for (size_t i = 0; i < b->n_dimensions; i++)
    if (!contains(d->rhs_contracting_dimensions, d->n_rhs_contracting_dimensions, (int64_t)i) &&
        !contains(d->rhs_batch_dimensions, d->n_rhs_batch_dimensions, (int64_t)i))
      out->dimensions[r++] = b->dimensions[i];
  out->n_dimensions = r;
  return wp_hv_check_shape(v, in, out, false);
}

/* ---- convolution ---- */

/* XLA's text form of the dimension numbers ("b01f_01io->b01f"). */
static const char *conv_dnums_str(wp_hv *v, const Xla__ConvolutionDimensionNumbersView *d) {
  size_t ns = d->n_input_spatial_dimensions, rank = ns + 2;
  char *s = wp_arena_alloc(v->scratch, 3 * (rank + 1) + 8);
  char *in = s, *k = s + rank + 1, *out = k + rank + 1;
  memset(s, '?', 3 * (rank + 1));
  in[rank] = k[rank] = out[rank] = '\0';
#define SET(buf, idx, c) \
  do { \
    if ((idx) >= 0 && (uint64_t)(idx) < rank) \
      (buf)[idx] = (c); \
  } while (0)
  SET(in, d->input_batch_dimension, 'b');
  SET(in, d->input_feature_dimension, 'f');
  SET(k, d->kernel_input_feature_dimension, 'i');
  SET(k, d->kernel_output_feature_dimension, 'o');
  SET(out, d->output_batch_dimension, 'b');
  SET(out, d->output_feature_dimension, 'f');
  for (size_t i = 0; i < ns && i < 10; i++) {
    SET(in, d->input_spatial_dimensions[i], (char)('0' + i));
    if (i < d->n_kernel_spatial_dimensions)
      SET(k, d->kernel_spatial_dimensions[i], (char)('0' + i));
    if (i < d->n_output_spatial_dimensions)
      SET(out, d->output_spatial_dimensions[i], (char)('0' + i));
  }
#undef SET
  size_t n = 3 * (rank + 1) + 8;
  char *text = wp_arena_alloc(v->scratch, n);
  snprintf(text, n, "%s_%s->%s", in, k, out);
  return text;
}

/* The dimensions, in the order XLA lists them (batch, feature, spatial),
 * are each of 0..RANK-1 once. */
static bool is_permutation3(wp_hv *v, int64_t x, int64_t y, const int64_t *rest, size_t n,
                            size_t rank) {
  bool *seen = wp_arena_alloc(v->scratch, rank + 1);
  int64_t first[2] = {x, y};
  for (size_t i = 0; i < n + 2; i++) {
    int64_t d = i < 2 ? first[i] : rest[i - 2];
    if (d < 0 || (uint64_t)d >= rank || seen[d])
      return false;
    seen[d] = true;
  }
  return n + 2 == rank;
}

static int64_t dilated_bound(int64_t bound, int64_t dilation) {
  return bound <= 0 ? 0 : wp_hv_add(wp_hv_mul(bound - 1, dilation), 1);
}

/* InferWindowOutputShape over the spatial sizes. */
static int window_output(wp_hv *v, const Xla__WindowView *w, const int64_t *base, size_t n,
                         int64_t *out) {
  if (w->n_dimensions != n)
    return wp_hv_fail(v, "Window has dimension %zu but base shape has dimension %zu.",
                      w->n_dimensions, n);
  for (size_t i = 0; i < n; i++) {
    const Xla__WindowDimensionView *d = w->dimensions[i];
    if (d->size <= 0)
      return wp_hv_fail(v, "Window dimension %zu has a non-positive size %lld.", i,
                        (long long)d->size);
    if (d->stride <= 0)
      return wp_hv_fail(v, "Window dimension %zu has a non-positive stride %lld.", i,
                        (long long)d->stride);
    if (d->base_dilation < 1)
      return wp_hv_fail(v, "Window dimension %zu has a non-positive base area dilation factor.",
                        i);
    if (d->window_dilation < 1)
      return wp_hv_fail(v, "Window dimension %zu has a non-positive window dilation factor.", i);
    int64_t padded = wp_hv_add(wp_hv_add(d->padding_low, dilated_bound(base[i], d->base_dilation)),
                               d->padding_high);
    int64_t window = dilated_bound(d->size, d->window_dilation);
    out[i] = window > padded ? 0 : (padded - window) / d->stride + 1;
  }
  return 0;
}

static int conv_features(wp_hv *v, const wp_hv_ins *in, const Xla__ShapeProto *a,
                         const Xla__ShapeProto *b, const Xla__ConvolutionDimensionNumbersView *d) {
  int64_t fgc = in->ins->feature_group_count ? in->ins->feature_group_count : 1;
  int64_t bgc = in->ins->batch_group_count ? in->ins->batch_group_count : 1;
  int64_t in_features = a->dimensions[d->input_feature_dimension];
  int64_t batch = a->dimensions[d->input_batch_dimension];
  int64_t k_in = b->dimensions[d->kernel_input_feature_dimension];
  int64_t k_out = b->dimensions[d->kernel_output_feature_dimension];
  const char *sa = wp_hv_str(v, a, false), *sb = wp_hv_str(v, b, false);
  const char *dn = conv_dnums_str(v, d);
  if (k_out % bgc)
    return wp_hv_fail(v, "Expected output feature dimension size (value %lld) to be a multiple "
                      "of batch group count %lld; got <conv>(%s, %s) Dimension numbers: {%s}.",
                      (long long)k_out, (long long)bgc, sa, sb, dn);
  if (in_features % fgc || in_features / fgc != k_in)
    return wp_hv_fail(v, "Expected LHS feature dimension (value %lld) to be a multiple of "
                      "feature_group_count (value %lld), and LHS feature dimension / "
                      "feature_group_count = RHS feature dimension (value %lld); got "
                      "<conv>(%s, %s) Dimension numbers: {%s}.", (long long)in_features,
                      (long long)fgc, (long long)k_in, sa, sb, dn);
  if (k_out % fgc)
    return wp_hv_fail(v, "Expected output feature dimension (value %lld) to be divisible by "
                      "feature_group_count (value %lld); got <conv>(%s, %s) Dimension "
                      "numbers: {%s}.", (long long)k_out, (long long)fgc, sa, sb, dn);
  if (batch % bgc)
    return wp_hv_fail(v, "Expected input batch dimension (value %lld) to be divisible by "
                      "batch_group_count (value %lld); got <conv>(%s, %s) Dimension "
                      "numbers: {%s}.", (long long)batch, (long long)bgc, sa, sb, dn);
  return 0;
}

static int conv_counts(wp_hv *v, const wp_hv_ins *in, const Xla__ShapeProto *a,
                       const Xla__ShapeProto *b, const Xla__ConvolutionDimensionNumbersView *d,
                       const Xla__WindowView *w) {
  int64_t fgc = in->ins->feature_group_count ? in->ins->feature_group_count : 1;
  int64_t bgc = in->ins->batch_group_count ? in->ins->batch_group_count : 1;
  size_t ns = d->n_input_spatial_dimensions, rank = ns + 2;
  if (fgc <= 0)
    return wp_hv_fail(v, "feature_group_count must be a positive number, got %lld",
                      (long long)fgc);
  if (bgc <= 0)
    return wp_hv_fail(v, "batch_group_count must be a positive number, got %lld",
                      (long long)bgc);
  if (bgc > 1 && fgc > 1)
    return wp_hv_fail(v, "both batch_group_count %lld and feature_group_count %lld cannot be "
                      "greater than 1", (long long)bgc, (long long)fgc);
  if (ns != d->n_kernel_spatial_dimensions)
    return wp_hv_fail(v, "Both arguments to convolution must have same number of dimensions. "
                      "Numbers: %s", conv_dnums_str(v, d));
  if (ns != d->n_output_spatial_dimensions)
    return wp_hv_fail(v, "Both input and output of convolution must have same number of "
                      "dimensions. Numbers: %s", conv_dnums_str(v, d));
  if (w->n_dimensions != ns)
    return wp_hv_fail(v, "Window must have same number of dimensions as dimension numbers. "
                      "Window has %zu, dimension numbers: %s.", w->n_dimensions,
                      conv_dnums_str(v, d));
  if (a->n_dimensions != rank)
    return wp_hv_fail(v, "The LHS argument to a convolution should have rank %zu; lhs: %s.",
                      rank, wp_hv_str(v, a, false));
  if (b->n_dimensions != rank)
    return wp_hv_fail(v, "The RHS argument to a convolution should have rank %zu; rhs: %s.",
                      rank, wp_hv_str(v, b, false));
  if (!is_permutation3(v, d->input_batch_dimension, d->input_feature_dimension,
                       d->input_spatial_dimensions, ns, rank))
    return wp_hv_fail(v, "Input dimensions of convolution must contain each dimension exactly "
                      "once: %s.", conv_dnums_str(v, d));
  if (!is_permutation3(v, d->kernel_input_feature_dimension, d->kernel_output_feature_dimension,
                       d->kernel_spatial_dimensions, ns, rank))
    return wp_hv_fail(v, "Window dimensions of convolution must contain each dimension exactly "
                      "once: %s.", conv_dnums_str(v, d));
  if (!is_permutation3(v, d->output_batch_dimension, d->output_feature_dimension,
                       d->output_spatial_dimensions, ns, rank))
    return wp_hv_fail(v, "Output dimensions of convolution must contain each dimension exactly "
                      "once: %s.", conv_dnums_str(v, d));
  return 0;
}

static int check_convolution(wp_hv *v, const wp_hv_ins *in) {
  if (wp_hv_operand_count(v, in, 2))
    return -1;
  const Xla__ShapeProto *a = in->ops[0]->shape, *b = in->ops[1]->shape;
  if (!wp_hv_is_array(a))
    return wp_hv_fail(v, "Expected array argument for lhs of convolution, but got %s.",
                      wp_hv_str(v, a, false));
  if (!wp_hv_is_array(b))
    return wp_hv_fail(v, "Expected array argument for rhs of convolution, but got %s.",
                      wp_hv_str(v, b, false));
  Xla__ConvolutionDimensionNumbersView *d =
      wp_hv_view(v, in->ins->convolution_dimension_numbers,
                 &xla__convolution_dimension_numbers_view__descriptor);
  Xla__WindowView *w = wp_hv_view(v, in->ins->window, &xla__window_view__descriptor);
  if (conv_counts(v, in, a, b, d, w) || conv_features(v, in, a, b, d))
    return -1;
  size_t ns = d->n_input_spatial_dimensions;
  int64_t *base = wp_arena_alloc(v->scratch, 2 * (ns + 1) * sizeof *base), *spatial = base + ns + 1;
  for (size_t i = 0; i < ns; i++) {
    base[i] = a->dimensions[d->input_spatial_dimensions[i]];
    int64_t k = b->dimensions[d->kernel_spatial_dimensions[i]];
    if (k != w->dimensions[i]->size)
      return wp_hv_fail(v, "Window dimensions do not match RHS shape: RHS shape: %s, window "
                        "dimension %zu has size %lld, dimension numbers: {%s}.",
                        wp_hv_str(v, b, false), i, (long long)w->dimensions[i]->size,
                        conv_dnums_str(v, d));
  }
  if (window_output(v, w, base, ns, spatial) ||
      check_preferred_type(v, a->element_type, in->shape->element_type))
    return -1;
  int64_t bgc = in->ins->batch_group_count ? in->ins->batch_group_count : 1;
  Xla__ShapeProto *out = wp_hv_make(v, in->shape->element_type, a->dimensions, ns + 2);
  out->dimensions[d->output_batch_dimension] = a->dimensions[d->input_batch_dimension] / bgc;
  out->dimensions[d->output_feature_dimension] = b->dimensions[d->kernel_output_feature_dimension];
  for (size_t i = 0; i < ns; i++)
    out->dimensions[d->output_spatial_dimensions[i]] = spatial[i];
  return wp_hv_check_shape(v, in, out, false);
}

/* ---- reduce ---- */

/* VerifyReducerShape: TO_APPLY takes (accumulators..., inputs...) as
 * scalars and returns the accumulators; INITS are the init values. */
static int check_reducer(wp_hv *v, const wp_hv_sig *sig, const Xla__ShapeProto *const *inits,
                         const int *input_types, size_t n) {
  if (sig->n_params != 2 * n)
    return wp_hv_fail(v, "Reduction function must take %zu parameters, but takes %zu "
                      "parameter(s).", 2 * n, sig->n_params);
  const Xla__ShapeProto *acc = sig->root;
  if (!acc)
    return 0;
  const char *acc_str = wp_hv_str(v, acc, false);
  if (wp_hv_is_array(acc) && n != 1)
    return wp_hv_fail(v, "Reduction function must produce a tuple with %zu elements, but "
                      "produces a scalar", n);
  if (wp_hv_is_tuple(acc) && acc->n_tuple_shapes != n)
    return wp_hv_fail(v, "Reduction function must produce a tuple with %zu elements, but has "
                      "%zu elements", n, acc->n_tuple_shapes);
  if (!wp_hv_is_array(acc) && !wp_hv_is_tuple(acc))
    return wp_hv_fail(v, "Reduction function must produce a scalar or tuple of scalars, but has "
                      "shape: %s", acc_str);
  for (size_t i = 0; i < n; i++) {
    const Xla__ShapeProto *a = wp_hv_is_tuple(acc) ? acc->tuple_shapes[i] : acc;
    if (!wp_hv_is_scalar(a))
      return wp_hv_fail(v, "Reduction function must return a scalar or tuple of scalars but "
                        "returns shape: %s", acc_str);
  }
  for (size_t i = 0; i < n; i++) {
    const Xla__ShapeProto *a = wp_hv_is_tuple(acc) ? acc->tuple_shapes[i] : acc;
    const Xla__ShapeProto *p = sig->params[i], *q = sig->params[n + i];
    if (!p || !q)
      continue;
    if (!wp_hv_compatible(a, p, false))
      return wp_hv_fail(v, "Reduction function's %zu-th parameter shape differs from the result "
                        "shape: %s vs %s", i, wp_hv_str(v, p, false), wp_hv_str(v, a, false));
    if (!wp_hv_compatible(a, inits[i], true))
      return wp_hv_fail(v, "Reduction function's accumulator shape at index %zu differs from "
                        "the init_value shape: %s vs %s", i, wp_hv_str(v, a, false),
                        wp_hv_str(v, inits[i], false));
    const Xla__ShapeProto *elem = wp_hv_make(v, input_types[i], NULL, 0);
    if (!wp_hv_compatible(elem, q, true))
      return wp_hv_fail(v, "Reduction function's %zu-th parameter shape differs from the input "
                        "type element type: %s vs %s", n + i, wp_hv_str(v, q, false),
                        wp_hv_str(v, elem, false));
    if (!wp_hv_compatible(a, q, true))
      return wp_hv_fail(v, "Reduction function's %zu-th parameter shape must match the result "
                        "shape, but got %s vs %s.", n + i, wp_hv_str(v, q, false),
                        wp_hv_str(v, a, false));
  }
  return 0;
}

static int check_reduce(wp_hv *v, const wp_hv_ins *in) {
  const Xla__HloInstructionProto *ins = in->ins;
  if (in->n_ops % 2 || in->n_ops == 0)
    return wp_hv_fail(v, "Expected an even number of operands for reduce instruction, has %zu",
                      in->n_ops);
  if (ins->n_called_computation_ids != 1)
    return 0;
  const wp_hv_sig *sig = v->callee(v, ins->called_computation_ids[0]);
  if (!sig)
    return 0;
  size_t n = in->n_ops / 2;
  const Xla__ShapeProto *arg = in->ops[0]->shape;
  const Xla__ShapeProto **inits = wp_arena_alloc(v->scratch, (n + 1) * sizeof *inits);
  int *types = wp_arena_alloc(v->scratch, (n + 1) * sizeof *types);
  for (size_t i = 0; i < n; i++) {
    const Xla__ShapeProto *s = in->ops[i]->shape;
    if (!wp_hv_is_array(s))
      return wp_hv_fail(v, "Expected array argument for operand of reduce, but got %s.",
                        wp_hv_str(v, s, false));
    if (!wp_hv_same_dims(arg, s))
      return wp_hv_fail(v, "All reduced tensors must have the same dimension. Tensor 0 has "
                        "shape %s, Tensor %zu has shape %s", wp_hv_str(v, arg, false), i,
                        wp_hv_str(v, s, false));
    inits[i] = in->ops[n + i]->shape;
    types[i] = s->element_type;
  }
  for (size_t i = 0; i < ins->n_dimensions; i++)
    if (ins->dimensions[i] < 0 || (uint64_t)ins->dimensions[i] >= arg->n_dimensions)
      return wp_hv_fail(v, "Reducing out-of-bounds dimension %lld in shape %s.",
                        (long long)ins->dimensions[i], wp_hv_str(v, arg, false));
  if (check_reducer(v, sig, inits, types, n))
    return -1;
  for (size_t i = 0; i < ins->n_dimensions; i++)
    if (contains(ins->dimensions, i, ins->dimensions[i]))
      return wp_hv_fail(v, "Duplicate reduction dimension: %lld", (long long)ins->dimensions[i]);
  if (!sig->root)
    return 0;
  int64_t *kept = wp_arena_alloc(v->scratch, (arg->n_dimensions + 1) * sizeof *kept);
  size_t r = 0;
  for (size_t i = 0; i < arg->n_dimensions; i++)
    if (!contains(ins->dimensions, ins->n_dimensions, (int64_t)i))
      kept[r++] = arg->dimensions[i];
  const Xla__ShapeProto *root = sig->root, *out;
  if (!wp_hv_is_tuple(root)) {
    out = wp_hv_make(v, root->element_type, kept, r);
  } else {
    const Xla__ShapeProto **elems = wp_arena_alloc(v->scratch, (n + 1) * sizeof *elems);
    for (size_t i = 0; i < n; i++)
      elems[i] = wp_hv_make(v, root->tuple_shapes[i]->element_type, kept, r);
    out = wp_hv_make_tuple(v, elems, n);
  }
  return wp_hv_check_shape(v, in, out, false);
}

int wp_hv_check_contraction(wp_hv *v, const wp_hv_ins *in, bool *handled) {
  const char *op = in->ins->opcode;
  int (*check)(wp_hv *, const wp_hv_ins *) = !strcmp(op, "dot")           ? check_dot
                                             : !strcmp(op, "convolution") ? check_convolution
                                             : !strcmp(op, "reduce")      ? check_reduce
                                                                          : NULL;
  if (!check)
    return 0;
  *handled = true;
  return check(v, in);
}
