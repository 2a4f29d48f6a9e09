/* An instruction's `, name=value` attributes, each into the
 * HloInstructionProto field XLA keeps it in. One typed table, as XLA's
 * parser has (its AttrTy): a row names the attribute, the kind of its
 * value, and the field it fills; only values with a syntax of their own
 * have a function. An attribute hlo.proto has no field for is an error,
 * never dropped. */
#include "wp_hlo_text_internal.h"

#include "wp_hlo_opcodes.h"
#include "wp_hlo_text_common.h"
#include "wp_hlo_types.h"
#include "wp_pb.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef int (*attr_fn)(htp *p, wp_htp_instr *ins, size_t at);

/* What a row's value is. */
enum kind {
  K_INT64,  /* int64_t at off */
  K_INT32,  /* int32_t at off, range-checked */
  K_BOOL,   /* protobuf_c_boolean at off */
  K_INTS,   /* {1,2}: int64_t * at off, its count at off_n */
  K_STRING, /* "text" (UTF-8, no NUL): char * at off */
  K_BYTES,  /* "any bytes": ProtobufCBinaryData at off */
  K_JSON,   /* "any bytes" or a bare JSON object: ProtobufCBinaryData at off */
  K_SHAPE,  /* Xla__ShapeProto * at off */
  K_ENUM,   /* a name of tbl: its value, int32_t at off */
  K_WORD,   /* a name of tbl: the name itself, char * at off */
  K_COMP,   /* a computation name: wp_htp_ref at off (in wp_htp_instr) */
  K_ONE,    /* one(p, Xla__Opaque ** at off) reads it */
  K_MANY,   /* many(p, Xla__Opaque *** at off, count at off_n) reads it */
  K_FN,     /* fn reads it */
};

/* Where a row's field is: the instruction, the reader's state, or a view
 * message that several attributes fill and wp_htp_instr_finish packs. */
enum target { T_MSG, T_INS, T_DOT, T_GATHER, T_SCATTER, T_PRECISION, T_RAGGED, T_TRIANGULAR,
              T_CHOLESKY };

typedef struct attr_row {
  const char *name;
  unsigned char kind, target;
  size_t off, off_n;
  const wp_hlo_text_enum *tbl;
  attr_fn fn;
  int (*one)(htp *p, Xla__Opaque **out);
  int (*many)(htp *p, Xla__Opaque ***out, size_t *n);
} attr_row;

static const wp_hlo_text_enum k_directions[] = {
    {"EQ", 0}, {"NE", 1}, {"GE", 2}, {"GT", 3}, {"LE", 4}, {"LT", 5}, {NULL, 0}};
static const wp_hlo_text_enum k_comparison_types[] = {
    {"FLOAT", 0}, {"TOTALORDER", 1}, {"SIGNED", 2}, {"UNSIGNED", 3}, {NULL, 0}};
static const wp_hlo_text_enum k_fusion_kinds[] = {
    {"kLoop", 0}, {"kInput", 1}, {"kOutput", 2}, {"kCustom", 3}, {NULL, 0}};
static const wp_hlo_text_enum k_transposes[] = {
    {"TRANSPOSE_INVALID", 0}, {"NO_TRANSPOSE", 1}, {"TRANSPOSE", 2}, {"ADJOINT", 3}, {NULL, 0}};
/* HloConvolutionInstruction::ConvKind (XLA's parser also takes "unset") */
static const wp_hlo_text_enum k_conv_kinds[] = {
    {"unset", 0}, {"fprop", 1}, {"dgrad", 2}, {"wgrad", 3}, {NULL, 0}};
/* CollectiveOpGroupMode: XLA's parser reads a collective's mode= and
 * drops it (the attribute was rolled back), so it is checked, not kept */
static const wp_hlo_text_enum k_group_modes[] = {
    {"cross_replica", 0}, {"cross_partition", 1}, {"cross_replica_and_partition", 2},
    {"flattened_id", 3}, {NULL, 0}};

/* ---- values ---- */

static int enum_value(htp *p, const wp_hlo_text_enum *tbl, const char *what, int *out) {
  wp_htp_skip(p);
  size_t at = p->pos, n = 0;
  while (p->pos + n < p->len && (p->src[p->pos + n] == '_' ||
                                 (p->src[p->pos + n] >= 'a' && p->src[p->pos + n] <= 'z') ||
                                 (p->src[p->pos + n] >= 'A' && p->src[p->pos + n] <= 'Z') ||
                                 (p->src[p->pos + n] >= '0' && p->src[p->pos + n] <= '9')))
    n++;
  if (wp_hlo_text_enum_value(tbl, p->src + at, n, out))
    return wp_htp_fail(p, at, "unknown %s '%.*s'", what, (int)n, p->src + at);
  p->pos += n;
  return 0;
}

static int comp_ref(htp *p, wp_htp_ref *r) {
  wp_htp_skip(p);
  r->at = p->pos;
  return wp_htp_name(p, &r->name);
}

static void *view(htp *p, void **slot, const ProtobufCMessageDescriptor *d) {
  if (!*slot)
    *slot = wp_pb_new(p->arena, d);
  return *slot;
}

/* The struct a row's offsets are relative to (a view made on first use). */
static char *base(htp *p, wp_htp_instr *ins, int target) {
  switch (target) {
  case T_INS: return (char *)ins;
  case T_DOT: return view(p, (void **)&ins->dot, &xla__dot_dimension_numbers_view__descriptor);
  case T_GATHER:
    return view(p, (void **)&ins->gather, &xla__gather_dimension_numbers_view__descriptor);
  case T_SCATTER:
    return view(p, (void **)&ins->scatter, &xla__scatter_dimension_numbers_view__descriptor);
  case T_PRECISION:
    return view(p, (void **)&ins->precision, &xla__precision_config_view__descriptor);
  case T_RAGGED:
    return view(p, (void **)&ins->ragged, &xla__ragged_dot_dimension_numbers_view__descriptor);
  case T_TRIANGULAR:
    return view(p, (void **)&ins->triangular, &xla__triangular_solve_options_view__descriptor);
  case T_CHOLESKY:
    return view(p, (void **)&ins->cholesky, &xla__cholesky_options_view__descriptor);
  default: return (char *)ins->msg;
  }
}

/* ---- the attributes that need more than their kind ---- */

#define M (ins->msg)

static int dims_once(htp *p, wp_htp_instr *ins, size_t at) {
  return M->n_dimensions ? wp_htp_fail(p, at, "dimensions given twice (dimensions=, "
                                           "iota_dimension=, inferred_dimension=)") : 0;
}

static int a_dimensions(htp *p, wp_htp_instr *ins, size_t at) {
  return dims_once(p, ins, at) || wp_htp_int_list(p, &M->dimensions, &M->n_dimensions) ? -1 : 0;
}

/* iota_dimension=, a reshape's inferred_dimension=: one dimension */
static int a_one_dimension(htp *p, wp_htp_instr *ins, size_t at) {
  int64_t v;
  if (dims_once(p, ins, at) || wp_htp_int(p, &v))
    return -1;
  M->dimensions = wp_arena_alloc(p->arena, sizeof(int64_t));
  M->dimensions[0] = v;
  M->n_dimensions = 1;
  return 0;
}

static int precision_item(htp *p, void *ctx) {
  int v;
  if (enum_value(p, wp_hlo_text_precisions, "precision", &v))
    return -1;
  int32_t v32 = v;
  wp_htp_vec_push(p, ctx, &v32);
  return 0;
}

static int a_operand_precision(htp *p, wp_htp_instr *ins, size_t at) {
  Xla__PrecisionConfigView *pc = (void *)base(p, ins, T_PRECISION);
  (void)at;
  wp_htp_vec v = {(void **)&pc->operand_precision, &pc->n_operand_precision, 0,
                  sizeof *pc->operand_precision};
  return wp_htp_list(p, "{", "}", ",", 0, precision_item, &v);
}

/* algorithm= is a dot's precision algorithm or an rng-bit-generator's */
static int a_algorithm(htp *p, wp_htp_instr *ins, size_t at) {
  int v;
  (void)at;
  wp_htp_skip(p);
  if (p->len - p->pos >= 4 && !memcmp(p->src + p->pos, "rng_", 4)) {
    if (enum_value(p, wp_hlo_text_rng_algorithms, "rng algorithm", &v))
      return -1;
    M->rng_algorithm = v;
    return 0;
  }
  if (enum_value(p, wp_hlo_text_dot_algorithms, "dot algorithm", &v))
    return -1;
  ((Xla__PrecisionConfigView *)(void *)base(p, ins, T_PRECISION))->algorithm = v;
  return 0;
}

static int a_index_vector_dim(htp *p, wp_htp_instr *ins, size_t at) {
  (void)at;
  ins->has_index_vector_dim = true;
  return wp_htp_int(p, &ins->index_vector_dim);
}

static int ref_item(htp *p, void *ctx) {
  wp_htp_ref r;
  if (comp_ref(p, &r))
    return -1;
  wp_htp_vec_push(p, ctx, &r);
  return 0;
}

/* calls=%f, calls={%f, %g}, branch_computations={...}, called_computations={...} */
static int a_list(htp *p, wp_htp_instr *ins, size_t at) {
  if (ins->list_at)
    return wp_htp_fail(p, at, "called computations given twice");
  ins->list_at = at + 1;
  wp_htp_vec v = {(void **)&ins->list, &ins->n_list, 0, sizeof *ins->list};
  if (wp_htp_peek(p) != '{')
    return ref_item(p, &v);
  return wp_htp_list(p, "{", "}", ",", 0, ref_item, &v);
}

static int a_control_predecessors(htp *p, wp_htp_instr *ins, size_t at) {
  (void)at;
  wp_htp_vec v = {(void **)&ins->preds, &ins->n_preds, ins->cap_preds, sizeof *ins->preds};
  return wp_htp_list(p, "{", "}", ",", 0, ref_item, &v);
}

static int a_direction(htp *p, wp_htp_instr *ins, size_t at) {
  int v;
  (void)at;
  if (enum_value(p, k_directions, "comparison direction (EQ, NE, GE, GT, LE, LT)", &v))
    return -1;
  M->comparison_direction = (char *)k_directions[v].name;
  ins->has_direction = true;
  return 0;
}

static int a_type(htp *p, wp_htp_instr *ins, size_t at) {
  int v;
  (void)at;
  if (enum_value(p, k_comparison_types, "comparison type (FLOAT, TOTALORDER, SIGNED, UNSIGNED)",
                 &v))
    return -1;
  M->comparison_type = (char *)k_comparison_types[v].name;
  ins->has_type = true;
  return 0;
}

static int a_frontend_attributes(htp *p, wp_htp_instr *ins, size_t at) {
  (void)at;
  return wp_htp_frontend_attributes(p, &M->frontend_attributes);
}
static int a_origin(htp *p, wp_htp_instr *ins, size_t at) {
  (void)at;
  return wp_htp_original_value(p, M->shape, &M->original_value);
}
static int a_domain(htp *p, wp_htp_instr *ins, size_t at) {
  (void)at;
  return wp_htp_domain(p, &M->domain_exit_sharding, &M->domain_entry_sharding);
}
static int a_literal(htp *p, wp_htp_instr *ins, size_t at) {
  (void)at;
  return wp_htp_attr_literal(p, &M->literal);
}

static int shape_item(htp *p, void *ctx) {
  Xla__ShapeProto *s;
  if (wp_htp_shape(p, &s))
    return -1;
  wp_htp_vec_push(p, ctx, &s);
  return 0;
}

static int a_operand_layout_constraints(htp *p, wp_htp_instr *ins, size_t at) {
  (void)at;
  M->constrain_layout = true;
  wp_htp_vec v = {(void **)&M->operand_shapes_with_layout, &M->n_operand_shapes_with_layout, 0,
                  sizeof *M->operand_shapes_with_layout};
  return wp_htp_list(p, "{", "}", ",", 0, shape_item, &v);
}

static int bool_item(htp *p, void *ctx) {
  bool b;
  if (wp_htp_bool(p, &b))
    return -1;
  protobuf_c_boolean v = b;
  wp_htp_vec_push(p, ctx, &v);
  return 0;
}

static int a_parameter_replication(htp *p, wp_htp_instr *ins, size_t at) {
  Xla__ParameterReplicationView pr = XLA__PARAMETER_REPLICATION_VIEW__INIT;
  (void)at;
  wp_htp_vec v = {(void **)&pr.replicated_at_leaf_buffers, &pr.n_replicated_at_leaf_buffers, 0,
                  sizeof *pr.replicated_at_leaf_buffers};
  if (wp_htp_list(p, "{", "}", ",", 0, bool_item, &v))
    return -1;
  M->parameter_replication = wp_htp_opaque(p, &pr.base);
  return 0;
}

static int a_epsilon(htp *p, wp_htp_instr *ins, size_t at) {
  char buf[128], *end;
  (void)at;
  wp_htp_skip(p);
  size_t vat = p->pos;
  if (wp_htp_number(p, buf, sizeof buf))
    return -1;
  M->epsilon = strtof(buf, &end);
  return *end ? wp_htp_fail(p, vat, "expected a number, found '%s'", buf) : 0;
}

static int a_cross_program_prefetch_index(htp *p, wp_htp_instr *ins, size_t at) {
  (void)at;
  M->optional_cross_program_prefetch_index_case =
      XLA__HLO_INSTRUCTION_PROTO__OPTIONAL_CROSS_PROGRAM_PREFETCH_INDEX_CROSS_PROGRAM_PREFETCH_INDEX;
  return wp_htp_int32(p, &M->cross_program_prefetch_index);
}

/* a scan's is_associative: XLA keeps a TriState (TRUE 1, FALSE 2) */
static int a_is_associative(htp *p, wp_htp_instr *ins, size_t at) {
  bool b;
  (void)at;
  if (wp_htp_bool(p, &b))
    return -1;
  M->is_associative = b ? 1 : 2;
  return 0;
}

static int a_mode(htp *p, wp_htp_instr *ins, size_t at) {
  int v;
  (void)ins;
  (void)at;
  return enum_value(p, k_group_modes, "collective op group mode", &v);
}

#undef M

/* ---- the table ---- */

#define MSG(f) offsetof(Xla__HloInstructionProto, f)
#define INS(f) offsetof(wp_htp_instr, f)
#define SCALAR(name, kind, target, off) {name, kind, target, off, 0, NULL, NULL, NULL, NULL}
#define LIST(name, target, type, f)                                                        \
  {name, K_INTS, target, offsetof(type, f), offsetof(type, n_##f), NULL, NULL, NULL, NULL}
#define ENUM(name, kind, off, tbl) {name, kind, T_MSG, off, 0, tbl, NULL, NULL, NULL}
#define ONE(name, f, reader) {name, K_ONE, T_MSG, MSG(f), 0, NULL, NULL, reader, NULL}
#define MANY(name, f, reader)                                                                  \
  {name, K_MANY, T_MSG, MSG(f), MSG(n_##f), NULL, NULL, NULL, reader}
#define FN(name, fn) {name, K_FN, T_MSG, 0, 0, NULL, fn, NULL, NULL}

static const attr_row k_attrs[] = {
    FN("dimensions", a_dimensions),
    FN("iota_dimension", a_one_dimension),
    FN("inferred_dimension", a_one_dimension),
    SCALAR("index", K_INT64, T_MSG, MSG(tuple_index)),
    MANY("slice", slice_dimensions, wp_htp_slice),
    LIST("dynamic_slice_sizes", T_MSG, Xla__HloInstructionProto, dynamic_slice_sizes),
    ONE("window", window, wp_htp_window),
    ONE("dim_labels", convolution_dimension_numbers, wp_htp_dim_labels),
    SCALAR("feature_group_count", K_INT64, T_MSG, MSG(feature_group_count)),
    SCALAR("batch_group_count", K_INT64, T_MSG, MSG(batch_group_count)),
    ENUM("convolution_kind", K_ENUM, MSG(conv_kind), k_conv_kinds),
    ENUM("conv_kind", K_ENUM, MSG(conv_kind), k_conv_kinds),
    ONE("padding", padding_config, wp_htp_padding),
    LIST("lhs_batch_dims", T_DOT, Xla__DotDimensionNumbersView, lhs_batch_dimensions),
    LIST("lhs_contracting_dims", T_DOT, Xla__DotDimensionNumbersView, lhs_contracting_dimensions),
    LIST("rhs_batch_dims", T_DOT, Xla__DotDimensionNumbersView, rhs_batch_dimensions),
    LIST("rhs_contracting_dims", T_DOT, Xla__DotDimensionNumbersView, rhs_contracting_dimensions),
    LIST("lhs_ragged_dims", T_RAGGED, Xla__RaggedDotDimensionNumbersView, lhs_ragged_dimensions),
    LIST("rhs_group_dims", T_RAGGED, Xla__RaggedDotDimensionNumbersView, rhs_group_dimensions),
    FN("operand_precision", a_operand_precision),
    FN("algorithm", a_algorithm),
    LIST("offset_dims", T_GATHER, Xla__GatherDimensionNumbersView, offset_dims),
    LIST("collapsed_slice_dims", T_GATHER, Xla__GatherDimensionNumbersView, collapsed_slice_dims),
    LIST("start_index_map", T_GATHER, Xla__GatherDimensionNumbersView, start_index_map),
    LIST("operand_batching_dims", T_GATHER, Xla__GatherDimensionNumbersView,
         operand_batching_dims),
    LIST("start_indices_batching_dims", T_GATHER, Xla__GatherDimensionNumbersView,
         start_indices_batching_dims),
    LIST("update_window_dims", T_SCATTER, Xla__ScatterDimensionNumbersView, update_window_dims),
    LIST("inserted_window_dims", T_SCATTER, Xla__ScatterDimensionNumbersView,
         inserted_window_dims),
    LIST("scatter_dims_to_operand_dims", T_SCATTER, Xla__ScatterDimensionNumbersView,
         scatter_dims_to_operand_dims),
    LIST("input_batching_dims", T_SCATTER, Xla__ScatterDimensionNumbersView, input_batching_dims),
    LIST("scatter_indices_batching_dims", T_SCATTER, Xla__ScatterDimensionNumbersView,
         scatter_indices_batching_dims),
    FN("index_vector_dim", a_index_vector_dim),
    LIST("slice_sizes", T_MSG, Xla__HloInstructionProto, gather_slice_sizes),
    SCALAR("indices_are_sorted", K_BOOL, T_MSG, MSG(indices_are_sorted)),
    SCALAR("unique_indices", K_BOOL, T_MSG, MSG(unique_indices)),
    SCALAR("to_apply", K_COMP, T_INS, INS(to_apply)),
    SCALAR("condition", K_COMP, T_INS, INS(condition)),
    SCALAR("body", K_COMP, T_INS, INS(body)),
    SCALAR("true_computation", K_COMP, T_INS, INS(true_c)),
    SCALAR("false_computation", K_COMP, T_INS, INS(false_c)),
    SCALAR("select", K_COMP, T_INS, INS(select)),
    SCALAR("scatter", K_COMP, T_INS, INS(scatter_c)),
    FN("calls", a_list),
    FN("branch_computations", a_list),
    FN("called_computations", a_list),
    FN("control-predecessors", a_control_predecessors),
    FN("direction", a_direction),
    FN("type", a_type),
    ONE("metadata", metadata, wp_htp_metadata),
    ONE("sharding", sharding, wp_htp_sharding),
    FN("frontend_attributes", a_frontend_attributes),
    ONE("statistics", statistics_viz, wp_htp_statistics),
    FN("origin", a_origin),
    FN("domain", a_domain),
    ONE("result_accuracy", result_accuracy, wp_htp_result_accuracy),
    SCALAR("backend_config", K_JSON, T_MSG, MSG(backend_config)),
    SCALAR("infeed_config", K_BYTES, T_MSG, MSG(infeed_config)),
    SCALAR("outfeed_config", K_BYTES, T_MSG, MSG(outfeed_config)),
    SCALAR("outfeed_shape", K_SHAPE, T_MSG, MSG(outfeed_shape)),
    SCALAR("custom_call_target", K_STRING, T_MSG, MSG(custom_call_target)),
    ENUM("api_version", K_ENUM, MSG(custom_call_api_version), wp_hlo_text_api_versions),
    ENUM("schedule", K_ENUM, MSG(custom_call_schedule), wp_hlo_text_schedules),
    ENUM("padding_type", K_ENUM, MSG(padding_type), wp_hlo_text_padding_types),
    SCALAR("custom_call_has_side_effect", K_BOOL, T_MSG, MSG(custom_call_has_side_effect)),
    FN("operand_layout_constraints", a_operand_layout_constraints),
    FN("literal", a_literal),
    SCALAR("constrain_layout", K_BOOL, T_MSG, MSG(constrain_layout)),
    MANY("output_to_operand_aliasing", output_operand_aliasing, wp_htp_operand_aliasing),
    FN("parameter_replication", a_parameter_replication),
    ONE("replica_groups", collective_device_list, wp_htp_replica_groups),
    MANY("source_target_pairs", source_target_pairs, wp_htp_source_target_pairs),
    SCALAR("channel_id", K_INT64, T_MSG, MSG(channel_id)),
    SCALAR("use_global_device_ids", K_BOOL, T_MSG, MSG(use_global_device_ids)),
    FN("mode", a_mode),
    SCALAR("exponent_bits", K_INT32, T_MSG, MSG(exponent_bits)),
    SCALAR("mantissa_bits", K_INT32, T_MSG, MSG(mantissa_bits)),
    ENUM("distribution", K_ENUM, MSG(distribution), wp_hlo_text_distributions),
    ENUM("fft_type", K_ENUM, MSG(fft_type), wp_hlo_text_fft_types),
    LIST("fft_length", T_MSG, Xla__HloInstructionProto, fft_length),
    FN("epsilon", a_epsilon),
    SCALAR("feature_index", K_INT64, T_MSG, MSG(feature_index)),
    SCALAR("is_stable", K_BOOL, T_MSG, MSG(is_stable)),
    ENUM("kind", K_WORD, MSG(fusion_kind), k_fusion_kinds),
    SCALAR("is_host_transfer", K_BOOL, T_MSG, MSG(is_host_transfer)),
    SCALAR("delta", K_INT64, T_MSG, MSG(delta)),
    SCALAR("k", K_INT64, T_MSG, MSG(k)),
    SCALAR("largest", K_BOOL, T_MSG, MSG(largest)),
    SCALAR("async_execution_thread", K_STRING, T_MSG, MSG(async_execution_thread)),
    FN("cross_program_prefetch_index", a_cross_program_prefetch_index),
    SCALAR("is_composite", K_BOOL, T_MSG, MSG(is_composite)),
    SCALAR("num_carries", K_INT64, T_MSG, MSG(num_carries)),
    SCALAR("is_reverse", K_BOOL, T_MSG, MSG(is_reverse)),
    FN("is_associative", a_is_associative),
    SCALAR("left_side", K_BOOL, T_TRIANGULAR, offsetof(Xla__TriangularSolveOptionsView, left_side)),
    SCALAR("unit_diagonal", K_BOOL, T_TRIANGULAR,
           offsetof(Xla__TriangularSolveOptionsView, unit_diagonal)),
    {"transpose_a", K_ENUM, T_TRIANGULAR, offsetof(Xla__TriangularSolveOptionsView, transpose_a), 0,
     k_transposes, NULL, NULL, NULL},
    /* lower= is cholesky's or triangular-solve's: wp_htp_instr_finish moves it */
    SCALAR("lower", K_BOOL, T_CHOLESKY, offsetof(Xla__CholeskyOptionsView, lower)),
};

#define N_ATTRS (sizeof k_attrs / sizeof k_attrs[0])
_Static_assert(N_ATTRS <= 64 * 3, "wp_htp_instr.seen holds a bit per attribute");

static int read_value(htp *p, wp_htp_instr *ins, const attr_row *a, size_t at) {
  if (a->kind == K_FN)
    return a->fn(p, ins, at);
  char *field = base(p, ins, a->target) + a->off;
  switch (a->kind) {
  case K_INT64:
    return wp_htp_int(p, (int64_t *)(void *)field);
  case K_INT32:
    return wp_htp_int32(p, (int32_t *)(void *)field);
  case K_BOOL: {
    bool b;
    if (wp_htp_bool(p, &b))
      return -1;
    *(protobuf_c_boolean *)(void *)field = b;
    return 0;
  }
  case K_INTS:
    return wp_htp_int_list(p, (int64_t **)(void *)field,
                           (size_t *)(void *)(base(p, ins, a->target) + a->off_n));
  case K_STRING:
    return wp_htp_string(p, (char **)(void *)field, NULL, false);
  case K_BYTES:
  case K_JSON: {
    ProtobufCBinaryData *b = (void *)field;
    char *s;
    size_t n;
    if (a->kind == K_JSON && wp_htp_peek(p) == '{' ? wp_htp_json(p, &s, &n)
                                                   : wp_htp_string(p, &s, &n, true))
      return -1;
    b->data = (uint8_t *)s;
    b->len = n;
    return 0;
  }
  case K_ONE:
    return a->one(p, (Xla__Opaque **)(void *)field);
  case K_MANY:
    return a->many(p, (Xla__Opaque ***)(void *)field,
                   (size_t *)(void *)(base(p, ins, a->target) + a->off_n));
  case K_SHAPE:
    return wp_htp_shape(p, (Xla__ShapeProto **)(void *)field);
  case K_ENUM:
  case K_WORD: {
    int v;
    if (enum_value(p, a->tbl, a->name, &v))
      return -1;
    if (a->kind == K_ENUM)
      *(int32_t *)(void *)field = v;
    else
      *(char **)(void *)field = (char *)wp_hlo_text_enum_name(a->tbl, v);
    return 0;
  }
  default:
    return comp_ref(p, (wp_htp_ref *)(void *)field);
  }
}

static size_t attr_index(const char *name, size_t n) {
  for (size_t k = 0; k < N_ATTRS; k++)
    if (strlen(k_attrs[k].name) == n && !memcmp(k_attrs[k].name, name, n))
      return k;
  return N_ATTRS;
}

int wp_htp_attribute(htp *p, wp_htp_instr *ins) {
  wp_htp_skip(p);
  size_t at = p->pos;
  const char *w;
  size_t n = wp_htp_ident(p, &w), k = attr_index(w, n);
  if (!n)
    return wp_htp_fail(p, at, "expected an attribute name");
  if (k == N_ATTRS)
    return wp_htp_fail(p, at, "attribute '%.*s' is unknown or has no field in HloModuleProto "
                           "(see docs/hlo-text.md)", (int)n, w);
  if (ins->seen[k / 64] & (UINT64_C(1) << (k % 64)))
    return wp_htp_fail(p, at, "attribute '%s' given twice", k_attrs[k].name);
  ins->seen[k / 64] |= UINT64_C(1) << (k % 64);
  if (wp_htp_expect(p, "="))
    return -1;
  return read_value(p, ins, &k_attrs[k], at);
}

bool wp_htp_given(const wp_htp_instr *ins, const char *name) {
  size_t k = attr_index(name, strlen(name));
  return k < N_ATTRS && (ins->seen[k / 64] & (UINT64_C(1) << (k % 64)));
}
