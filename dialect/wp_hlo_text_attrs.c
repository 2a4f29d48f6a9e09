/* An instruction's `, name=value` attributes, each into the
 * HloInstructionProto field XLA keeps it in. An attribute hlo.proto has
 * no field for is an error, never dropped. */
#include "wp_hlo_text_internal.h"

#include "wp_hlo_opcodes.h"
#include "wp_hlo_text_common.h"
#include "wp_hlo_types.h"
#include "wp_pb.h"

#include <stdlib.h>
#include <string.h>

typedef int (*attr_fn)(htp *p, wp_htp_instr *ins, size_t at);

static int int32_value(htp *p, int32_t *out) {
  int64_t v;
  wp_htp_skip(p);
  size_t at = p->pos;
  if (wp_htp_int(p, &v))
    return -1;
  if (v < INT32_MIN || v > INT32_MAX)
    return wp_htp_fail(p, at, "value out of the range of int32");
  *out = (int32_t)v;
  return 0;
}

static int bool_value(htp *p, protobuf_c_boolean *out) {
  bool b;
  if (wp_htp_bool(p, &b))
    return -1;
  *out = b;
  return 0;
}

static int enum_value(htp *p, const wp_hlo_text_enum *tbl, const char *what, int32_t *out) {
  wp_htp_skip(p);
  size_t at = p->pos, n = 0;
  while (p->pos + n < p->len && (p->src[p->pos + n] == '_' ||
                                 (p->src[p->pos + n] >= 'a' && p->src[p->pos + n] <= 'z') ||
                                 (p->src[p->pos + n] >= 'A' && p->src[p->pos + n] <= 'Z') ||
                                 (p->src[p->pos + n] >= '0' && p->src[p->pos + n] <= '9')))
    n++;
  int v;
  if (wp_hlo_text_enum_value(tbl, p->src + at, n, &v))
    return wp_htp_fail(p, at, "unknown %s '%.*s'", what, (int)n, p->src + at);
  p->pos += n;
  *out = v;
  return 0;
}

static int comp_ref(htp *p, wp_htp_ref *r) {
  wp_htp_skip(p);
  r->at = p->pos;
  return wp_htp_name(p, &r->name);
}

/* ---- the attributes ---- */

#define M (ins->msg)

static int dims_once(htp *p, wp_htp_instr *ins, size_t at) {
  return M->n_dimensions ? wp_htp_fail(p, at, "dimensions given twice (dimensions=, "
                                           "iota_dimension=)") : 0;
}

static int a_dimensions(htp *p, wp_htp_instr *ins, size_t at) {
  return dims_once(p, ins, at) || wp_htp_int_list(p, &M->dimensions, &M->n_dimensions) ? -1 : 0;
}

static int a_iota_dimension(htp *p, wp_htp_instr *ins, size_t at) {
  int64_t v;
  if (dims_once(p, ins, at) || wp_htp_int(p, &v))
    return -1;
  M->dimensions = wp_arena_alloc(p->arena, sizeof(int64_t));
  M->dimensions[0] = v;
  M->n_dimensions = 1;
  return 0;
}

static int a_index(htp *p, wp_htp_instr *ins, size_t at) { return wp_htp_int(p, &M->tuple_index); }
static int a_slice(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_slice(p, &M->slice_dimensions, &M->n_slice_dimensions);
}
static int a_dynamic_slice_sizes(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_int_list(p, &M->dynamic_slice_sizes, &M->n_dynamic_slice_sizes);
}
static int a_window(htp *p, wp_htp_instr *ins, size_t at) { return wp_htp_window(p, &M->window); }
static int a_dim_labels(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_dim_labels(p, &M->convolution_dimension_numbers);
}
static int a_feature_group_count(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_int(p, &M->feature_group_count);
}
static int a_batch_group_count(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_int(p, &M->batch_group_count);
}
static int a_padding(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_padding(p, &M->padding_config);
}

static Xla__DotDimensionNumbersView *dot(htp *p, wp_htp_instr *ins) {
  if (!ins->dot)
    ins->dot = wp_pb_new(p->arena, &xla__dot_dimension_numbers_view__descriptor);
  return ins->dot;
}
static int a_lhs_batch(htp *p, wp_htp_instr *ins, size_t at) {
  Xla__DotDimensionNumbersView *d = dot(p, ins);
  return wp_htp_int_list(p, &d->lhs_batch_dimensions, &d->n_lhs_batch_dimensions);
}
static int a_lhs_contracting(htp *p, wp_htp_instr *ins, size_t at) {
  Xla__DotDimensionNumbersView *d = dot(p, ins);
  return wp_htp_int_list(p, &d->lhs_contracting_dimensions, &d->n_lhs_contracting_dimensions);
}
static int a_rhs_batch(htp *p, wp_htp_instr *ins, size_t at) {
  Xla__DotDimensionNumbersView *d = dot(p, ins);
  return wp_htp_int_list(p, &d->rhs_batch_dimensions, &d->n_rhs_batch_dimensions);
}
static int a_rhs_contracting(htp *p, wp_htp_instr *ins, size_t at) {
  Xla__DotDimensionNumbersView *d = dot(p, ins);
  return wp_htp_int_list(p, &d->rhs_contracting_dimensions, &d->n_rhs_contracting_dimensions);
}

static Xla__PrecisionConfigView *precision(htp *p, wp_htp_instr *ins) {
  if (!ins->precision)
    ins->precision = wp_pb_new(p->arena, &xla__precision_config_view__descriptor);
  return ins->precision;
}
static int a_operand_precision(htp *p, wp_htp_instr *ins, size_t at) {
  Xla__PrecisionConfigView *pc = precision(p, ins);
  size_t cap = 0;
  if (wp_htp_expect(p, "{"))
    return -1;
  if (wp_htp_accept(p, "}"))
    return 0;
  do {
    int32_t v;
    if (enum_value(p, wp_hlo_text_precisions, "precision", &v))
      return -1;
    WP_HTP_PUSH(p, pc->operand_precision, pc->n_operand_precision, cap, v);
  } while (wp_htp_accept(p, ","));
  return wp_htp_expect(p, "}");
}

/* algorithm= is a dot's precision algorithm or an rng-bit-generator's */
static int a_algorithm(htp *p, wp_htp_instr *ins, size_t at) {
  wp_htp_skip(p);
  if (p->len - p->pos >= 4 && !memcmp(p->src + p->pos, "rng_", 4))
    return enum_value(p, wp_hlo_text_rng_algorithms, "rng algorithm", &M->rng_algorithm);
  return enum_value(p, wp_hlo_text_dot_algorithms, "dot algorithm", &precision(p, ins)->algorithm);
}

static Xla__GatherDimensionNumbersView *gather(htp *p, wp_htp_instr *ins) {
  if (!ins->gather)
    ins->gather = wp_pb_new(p->arena, &xla__gather_dimension_numbers_view__descriptor);
  return ins->gather;
}
static Xla__ScatterDimensionNumbersView *scatter(htp *p, wp_htp_instr *ins) {
  if (!ins->scatter)
    ins->scatter = wp_pb_new(p->arena, &xla__scatter_dimension_numbers_view__descriptor);
  return ins->scatter;
}
#define GATHER_LIST(fn, field)                                                 \
  static int fn(htp *p, wp_htp_instr *ins, size_t at) {                           \
    Xla__GatherDimensionNumbersView *g = gather(p, ins);                       \
    return wp_htp_int_list(p, &g->field, &g->n_##field);                          \
  }
#define SCATTER_LIST(fn, field)                                                \
  static int fn(htp *p, wp_htp_instr *ins, size_t at) {                           \
    Xla__ScatterDimensionNumbersView *s = scatter(p, ins);                     \
    return wp_htp_int_list(p, &s->field, &s->n_##field);                          \
  }
GATHER_LIST(a_offset_dims, offset_dims)
GATHER_LIST(a_collapsed_slice_dims, collapsed_slice_dims)
GATHER_LIST(a_start_index_map, start_index_map)
GATHER_LIST(a_operand_batching_dims, operand_batching_dims)
GATHER_LIST(a_start_indices_batching_dims, start_indices_batching_dims)
SCATTER_LIST(a_update_window_dims, update_window_dims)
SCATTER_LIST(a_inserted_window_dims, inserted_window_dims)
SCATTER_LIST(a_scatter_dims_to_operand_dims, scatter_dims_to_operand_dims)
SCATTER_LIST(a_input_batching_dims, input_batching_dims)
SCATTER_LIST(a_scatter_indices_batching_dims, scatter_indices_batching_dims)

static int a_index_vector_dim(htp *p, wp_htp_instr *ins, size_t at) {
  ins->has_index_vector_dim = true;
  return wp_htp_int(p, &ins->index_vector_dim);
}
static int a_slice_sizes(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_int_list(p, &M->gather_slice_sizes, &M->n_gather_slice_sizes);
}
static int a_indices_are_sorted(htp *p, wp_htp_instr *ins, size_t at) {
  return bool_value(p, &M->indices_are_sorted);
}
static int a_unique_indices(htp *p, wp_htp_instr *ins, size_t at) {
  return bool_value(p, &M->unique_indices);
}

/* ---- called computations ---- */

static int a_to_apply(htp *p, wp_htp_instr *ins, size_t at) { return comp_ref(p, &ins->to_apply); }
static int a_condition(htp *p, wp_htp_instr *ins, size_t at) {
  return comp_ref(p, &ins->condition);
}
static int a_body(htp *p, wp_htp_instr *ins, size_t at) { return comp_ref(p, &ins->body); }
static int a_true(htp *p, wp_htp_instr *ins, size_t at) { return comp_ref(p, &ins->true_c); }
static int a_false(htp *p, wp_htp_instr *ins, size_t at) { return comp_ref(p, &ins->false_c); }
static int a_select(htp *p, wp_htp_instr *ins, size_t at) { return comp_ref(p, &ins->select); }
static int a_scatter(htp *p, wp_htp_instr *ins, size_t at) { return comp_ref(p, &ins->scatter_c); }

/* calls=%f, calls={%f, %g}, branch_computations={...}, called_computations={...} */
static int a_list(htp *p, wp_htp_instr *ins, size_t at) {
  size_t cap = 0;
  if (ins->list_at)
    return wp_htp_fail(p, at, "called computations given twice");
  ins->list_at = at + 1;
  if (!wp_htp_accept(p, "{")) {
    wp_htp_ref r;
    if (comp_ref(p, &r))
      return -1;
    WP_HTP_PUSH(p, ins->list, ins->n_list, cap, r);
    return 0;
  }
  if (wp_htp_accept(p, "}"))
    return 0;
  do {
    wp_htp_ref r;
    if (comp_ref(p, &r))
      return -1;
    WP_HTP_PUSH(p, ins->list, ins->n_list, cap, r);
  } while (wp_htp_accept(p, ","));
  return wp_htp_expect(p, "}");
}

static int a_control_predecessors(htp *p, wp_htp_instr *ins, size_t at) {
  if (wp_htp_expect(p, "{"))
    return -1;
  if (wp_htp_accept(p, "}"))
    return 0;
  do {
    wp_htp_ref r;
    if (comp_ref(p, &r))
      return -1;
    WP_HTP_PUSH(p, ins->preds, ins->n_preds, ins->cap_preds, r);
  } while (wp_htp_accept(p, ","));
  return wp_htp_expect(p, "}");
}

/* ---- compare ---- */

static int a_direction(htp *p, wp_htp_instr *ins, size_t at) {
  static const char *const dirs[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};
  wp_htp_skip(p);
  for (size_t i = 0; i < 6; i++)
    if (wp_htp_accept_word(p, dirs[i])) {
      M->comparison_direction = (char *)dirs[i];
      ins->has_direction = true;
      return 0;
    }
  return wp_htp_fail(p, p->pos, "expected a comparison direction (EQ, NE, GE, GT, LE, LT)");
}

static int a_type(htp *p, wp_htp_instr *ins, size_t at) {
  static const char *const types[] = {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"};
  wp_htp_skip(p);
  for (size_t i = 0; i < 4; i++)
    if (wp_htp_accept_word(p, types[i])) {
      M->comparison_type = (char *)types[i];
      ins->has_type = true;
      return 0;
    }
  return wp_htp_fail(p, p->pos, "expected a comparison type (FLOAT, TOTALORDER, SIGNED, UNSIGNED)");
}

/* ---- everything else ---- */

static int a_metadata(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_metadata(p, &M->metadata);
}
static int a_sharding(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_sharding(p, &M->sharding);
}
static int a_frontend_attributes(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_frontend_attributes(p, &M->frontend_attributes);
}

/* bytes fields: a string (any bytes) or, for backend_config, JSON */
static int bytes_value(htp *p, ProtobufCBinaryData *out, bool json) {
  char *s;
  size_t n;
  if (json && wp_htp_peek(p) == '{' ? wp_htp_json(p, &s, &n) : wp_htp_string(p, &s, &n, true))
    return -1;
  out->data = (uint8_t *)s;
  out->len = n;
  return 0;
}
static int a_backend_config(htp *p, wp_htp_instr *ins, size_t at) {
  return bytes_value(p, &M->backend_config, true);
}
static int a_infeed_config(htp *p, wp_htp_instr *ins, size_t at) {
  return bytes_value(p, &M->infeed_config, false);
}
static int a_outfeed_config(htp *p, wp_htp_instr *ins, size_t at) {
  return bytes_value(p, &M->outfeed_config, false);
}
static int a_outfeed_shape(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_shape(p, &M->outfeed_shape);
}
static int a_custom_call_target(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_string(p, &M->custom_call_target, NULL, false);
}
static int a_api_version(htp *p, wp_htp_instr *ins, size_t at) {
  return enum_value(p, wp_hlo_text_api_versions, "api_version", &M->custom_call_api_version);
}
static int a_schedule(htp *p, wp_htp_instr *ins, size_t at) {
  return enum_value(p, wp_hlo_text_schedules, "schedule", &M->custom_call_schedule);
}
static int a_padding_type(htp *p, wp_htp_instr *ins, size_t at) {
  return enum_value(p, wp_hlo_text_padding_types, "padding_type", &M->padding_type);
}
static int a_side_effect(htp *p, wp_htp_instr *ins, size_t at) {
  return bool_value(p, &M->custom_call_has_side_effect);
}
static int a_operand_layout_constraints(htp *p, wp_htp_instr *ins, size_t at) {
  size_t cap = 0;
  M->constrain_layout = true;
  if (wp_htp_expect(p, "{"))
    return -1;
  if (wp_htp_accept(p, "}"))
    return 0;
  do {
    Xla__ShapeProto *s;
    if (wp_htp_shape(p, &s))
      return -1;
    WP_HTP_PUSH(p, M->operand_shapes_with_layout, M->n_operand_shapes_with_layout, cap, s);
  } while (wp_htp_accept(p, ","));
  return wp_htp_expect(p, "}");
}
static int a_constrain_layout(htp *p, wp_htp_instr *ins, size_t at) {
  return bool_value(p, &M->constrain_layout);
}
static int a_output_to_operand_aliasing(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_operand_aliasing(p, &M->output_operand_aliasing, &M->n_output_operand_aliasing);
}
static int a_parameter_replication(htp *p, wp_htp_instr *ins, size_t at) {
  Xla__ParameterReplicationView pr = XLA__PARAMETER_REPLICATION_VIEW__INIT;
  size_t cap = 0;
  if (wp_htp_expect(p, "{"))
    return -1;
  if (!wp_htp_accept(p, "}")) {
    do {
      bool b;
      if (wp_htp_bool(p, &b))
        return -1;
      WP_HTP_PUSH(p, pr.replicated_at_leaf_buffers, pr.n_replicated_at_leaf_buffers, cap,
               (protobuf_c_boolean)b);
    } while (wp_htp_accept(p, ","));
    if (wp_htp_expect(p, "}"))
      return -1;
  }
  M->parameter_replication = wp_htp_opaque(p, &pr.base);
  return 0;
}
static int a_replica_groups(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_replica_groups(p, &M->collective_device_list);
}
static int a_source_target_pairs(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_source_target_pairs(p, &M->source_target_pairs, &M->n_source_target_pairs);
}
static int a_channel_id(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_int(p, &M->channel_id);
}
static int a_use_global_device_ids(htp *p, wp_htp_instr *ins, size_t at) {
  return bool_value(p, &M->use_global_device_ids);
}
static int a_exponent_bits(htp *p, wp_htp_instr *ins, size_t at) {
  return int32_value(p, &M->exponent_bits);
}
static int a_mantissa_bits(htp *p, wp_htp_instr *ins, size_t at) {
  return int32_value(p, &M->mantissa_bits);
}
static int a_distribution(htp *p, wp_htp_instr *ins, size_t at) {
  return enum_value(p, wp_hlo_text_distributions, "distribution", &M->distribution);
}
static int a_fft_type(htp *p, wp_htp_instr *ins, size_t at) {
  return enum_value(p, wp_hlo_text_fft_types, "fft_type", &M->fft_type);
}
static int a_fft_length(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_int_list(p, &M->fft_length, &M->n_fft_length);
}
static int a_epsilon(htp *p, wp_htp_instr *ins, size_t at) {
  char buf[128], *end;
  wp_htp_skip(p);
  size_t vat = p->pos;
  if (wp_htp_number(p, buf, sizeof buf))
    return -1;
  M->epsilon = strtof(buf, &end);
  return *end ? wp_htp_fail(p, vat, "expected a number, found '%s'", buf) : 0;
}
static int a_feature_index(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_int(p, &M->feature_index);
}
static int a_is_stable(htp *p, wp_htp_instr *ins, size_t at) {
  return bool_value(p, &M->is_stable);
}
static int a_kind(htp *p, wp_htp_instr *ins, size_t at) {
  static const char *const kinds[] = {"kLoop", "kInput", "kOutput", "kCustom"};
  wp_htp_skip(p);
  for (size_t i = 0; i < 4; i++)
    if (wp_htp_accept_word(p, kinds[i])) {
      M->fusion_kind = (char *)kinds[i];
      return 0;
    }
  return wp_htp_fail(p, p->pos, "expected a fusion kind (kLoop, kInput, kOutput, kCustom)");
}
static int a_is_host_transfer(htp *p, wp_htp_instr *ins, size_t at) {
  return bool_value(p, &M->is_host_transfer);
}
static int a_delta(htp *p, wp_htp_instr *ins, size_t at) { return wp_htp_int(p, &M->delta); }
static int a_k(htp *p, wp_htp_instr *ins, size_t at) { return wp_htp_int(p, &M->k); }
static int a_largest(htp *p, wp_htp_instr *ins, size_t at) { return bool_value(p, &M->largest); }
static int a_async_execution_thread(htp *p, wp_htp_instr *ins, size_t at) {
  return wp_htp_string(p, &M->async_execution_thread, NULL, false);
}
static int a_cross_program_prefetch_index(htp *p, wp_htp_instr *ins, size_t at) {
  M->optional_cross_program_prefetch_index_case =
      XLA__HLO_INSTRUCTION_PROTO__OPTIONAL_CROSS_PROGRAM_PREFETCH_INDEX_CROSS_PROGRAM_PREFETCH_INDEX;
  return int32_value(p, &M->cross_program_prefetch_index);
}
static int a_is_composite(htp *p, wp_htp_instr *ins, size_t at) {
  return bool_value(p, &M->is_composite);
}

#undef M

static const struct {
  const char *name;
  attr_fn fn;
} k_attrs[] = {
    {"dimensions", a_dimensions},
    {"iota_dimension", a_iota_dimension},
    {"index", a_index},
    {"slice", a_slice},
    {"dynamic_slice_sizes", a_dynamic_slice_sizes},
    {"window", a_window},
    {"dim_labels", a_dim_labels},
    {"feature_group_count", a_feature_group_count},
    {"batch_group_count", a_batch_group_count},
    {"padding", a_padding},
    {"lhs_batch_dims", a_lhs_batch},
    {"lhs_contracting_dims", a_lhs_contracting},
    {"rhs_batch_dims", a_rhs_batch},
    {"rhs_contracting_dims", a_rhs_contracting},
    {"operand_precision", a_operand_precision},
    {"algorithm", a_algorithm},
    {"offset_dims", a_offset_dims},
    {"collapsed_slice_dims", a_collapsed_slice_dims},
    {"start_index_map", a_start_index_map},
    {"operand_batching_dims", a_operand_batching_dims},
    {"start_indices_batching_dims", a_start_indices_batching_dims},
    {"update_window_dims", a_update_window_dims},
    {"inserted_window_dims", a_inserted_window_dims},
    {"scatter_dims_to_operand_dims", a_scatter_dims_to_operand_dims},
    {"input_batching_dims", a_input_batching_dims},
    {"scatter_indices_batching_dims", a_scatter_indices_batching_dims},
    {"index_vector_dim", a_index_vector_dim},
    {"slice_sizes", a_slice_sizes},
    {"indices_are_sorted", a_indices_are_sorted},
    {"unique_indices", a_unique_indices},
    {"to_apply", a_to_apply},
    {"condition", a_condition},
    {"body", a_body},
    {"true_computation", a_true},
    {"false_computation", a_false},
    {"select", a_select},
    {"scatter", a_scatter},
    {"calls", a_list},
    {"branch_computations", a_list},
    {"called_computations", a_list},
    {"control-predecessors", a_control_predecessors},
    {"direction", a_direction},
    {"type", a_type},
    {"metadata", a_metadata},
    {"sharding", a_sharding},
    {"frontend_attributes", a_frontend_attributes},
    {"backend_config", a_backend_config},
    {"infeed_config", a_infeed_config},
    {"outfeed_config", a_outfeed_config},
    {"outfeed_shape", a_outfeed_shape},
    {"custom_call_target", a_custom_call_target},
    {"api_version", a_api_version},
    {"schedule", a_schedule},
    {"padding_type", a_padding_type},
    {"custom_call_has_side_effect", a_side_effect},
    {"operand_layout_constraints", a_operand_layout_constraints},
    {"constrain_layout", a_constrain_layout},
    {"output_to_operand_aliasing", a_output_to_operand_aliasing},
    {"parameter_replication", a_parameter_replication},
    {"replica_groups", a_replica_groups},
    {"source_target_pairs", a_source_target_pairs},
    {"channel_id", a_channel_id},
    {"use_global_device_ids", a_use_global_device_ids},
    {"exponent_bits", a_exponent_bits},
    {"mantissa_bits", a_mantissa_bits},
    {"distribution", a_distribution},
    {"fft_type", a_fft_type},
    {"fft_length", a_fft_length},
    {"epsilon", a_epsilon},
    {"feature_index", a_feature_index},
    {"is_stable", a_is_stable},
    {"kind", a_kind},
    {"is_host_transfer", a_is_host_transfer},
    {"delta", a_delta},
    {"k", a_k},
    {"largest", a_largest},
    {"async_execution_thread", a_async_execution_thread},
    {"cross_program_prefetch_index", a_cross_program_prefetch_index},
    {"is_composite", a_is_composite},
};

int wp_htp_attribute(htp *p, wp_htp_instr *ins) {
  wp_htp_skip(p);
  size_t at = p->pos;
  const char *w;
  size_t n = wp_htp_ident(p, &w), k;
  if (!n)
    return wp_htp_fail(p, at, "expected an attribute name");
  for (k = 0; k < sizeof k_attrs / sizeof k_attrs[0]; k++)
    if (strlen(k_attrs[k].name) == n && !memcmp(k_attrs[k].name, w, n))
      break;
  if (k == sizeof k_attrs / sizeof k_attrs[0])
    return wp_htp_fail(p, at, "attribute '%.*s' is unknown or has no field in HloModuleProto "
                           "(see docs/hlo-text.md)", (int)n, w);
  if (ins->seen[k / 64] & (UINT64_C(1) << (k % 64)))
    return wp_htp_fail(p, at, "attribute '%s' given twice", k_attrs[k].name);
  ins->seen[k / 64] |= UINT64_C(1) << (k % 64);
  if (wp_htp_expect(p, "="))
    return -1;
  return k_attrs[k].fn(p, ins, at);
}

/* ---- after the attributes ---- */

static bool given(const wp_htp_instr *ins, const char *name) {
  for (size_t k = 0; k < sizeof k_attrs / sizeof k_attrs[0]; k++)
    if (!strcmp(k_attrs[k].name, name))
      return ins->seen[k / 64] & (UINT64_C(1) << (k % 64));
  return false;
}

static bool is(const wp_htp_instr *ins, const char *opcode) {
  return !strcmp(ins->msg->opcode, opcode);
}

static bool collective(const wp_htp_instr *ins) {
  static const char *const ops[] = {"all-reduce", "all-gather", "all-to-all", "reduce-scatter",
                                    "collective-broadcast", "all-reduce-start",
                                    "all-gather-start", "ragged-all-to-all"};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (is(ins, ops[i]))
      return true;
  return false;
}

/* The called computations in the order XLA stores them. */
static int order_calls(htp *p, wp_htp_instr *ins) {
  const wp_htp_ref *single[] = {&ins->to_apply, &ins->body, &ins->condition, &ins->true_c,
                             &ins->false_c, &ins->select, &ins->scatter_c};
  size_t groups = (ins->to_apply.name != NULL) + (ins->body.name || ins->condition.name) +
                  (ins->true_c.name || ins->false_c.name) +
                  (ins->select.name || ins->scatter_c.name) + (ins->list_at != 0);
  if (groups > 1)
    return wp_htp_fail(p, ins->at, "instruction names its called computations in two ways");
  const struct { const wp_htp_ref *a, *b; const char *what; } pairs[] = {
      {&ins->body, &ins->condition, "body= and condition="},
      {&ins->true_c, &ins->false_c, "true_computation= and false_computation="},
      {&ins->select, &ins->scatter_c, "select= and scatter="}};
  for (size_t i = 0; i < 3; i++)
    if (!pairs[i].a->name != !pairs[i].b->name)
      return wp_htp_fail(p, ins->at, "%s go together", pairs[i].what);
  size_t n = ins->n_list, k = 0;
  for (size_t i = 0; i < sizeof single / sizeof single[0]; i++)
    n += single[i]->name != NULL;
  ins->called = wp_arena_alloc(p->arena, (n + 1) * sizeof *ins->called);
  for (size_t i = 0; i < sizeof single / sizeof single[0]; i++)
    if (single[i]->name)
      ins->called[k++] = *single[i];
  for (size_t i = 0; i < ins->n_list; i++)
    ins->called[k++] = ins->list[i];
  ins->n_called = n;
  return 0;
}

int wp_htp_instr_finish(htp *p, wp_htp_instr *ins) {
  Xla__HloInstructionProto *m = ins->msg;
  if (order_calls(p, ins))
    return -1;
  /* XLA's HloInstruction::ToProto writes these three always */
  if (!m->metadata)
    m->metadata = wp_pb_new(p->arena, &xla__opaque__descriptor);
  if (!m->frontend_attributes)
    m->frontend_attributes = wp_pb_new(p->arena, &xla__frontend_attributes__descriptor);
  m->statistics_viz = wp_pb_new(p->arena, &xla__opaque__descriptor);
  if (is(ins, "convolution")) {
    if (!m->convolution_dimension_numbers)
      return wp_htp_fail(p, ins->at, "convolution needs dim_labels=");
    if (!given(ins, "feature_group_count"))
      m->feature_group_count = 1;
    if (!given(ins, "batch_group_count"))
      m->batch_group_count = 1;
    if (!m->window)
      m->window = wp_pb_new(p->arena, &xla__opaque__descriptor);
  }
  if (is(ins, "dot") && !ins->dot)
    ins->dot = wp_pb_new(p->arena, &xla__dot_dimension_numbers_view__descriptor);
  if ((is(ins, "dot") || is(ins, "convolution")) && !ins->precision) {
    Xla__PrecisionConfigView *pc = precision(p, ins);
    pc->n_operand_precision = ins->n_operands; /* DEFAULT for each */
    pc->operand_precision = wp_arena_alloc(p->arena, (ins->n_operands + 1) * sizeof(int32_t));
  }
  if (ins->gather && ins->scatter)
    return wp_htp_fail(p, ins->at, "gather and scatter dimension numbers on one instruction");
  if (ins->has_index_vector_dim) { /* the dimension numbers it belongs to */
    if (ins->scatter || is(ins, "scatter"))
      scatter(p, ins)->index_vector_dim = ins->index_vector_dim;
    else
      gather(p, ins)->index_vector_dim = ins->index_vector_dim;
  }
  if (is(ins, "gather") && !ins->gather)
    return wp_htp_fail(p, ins->at, "gather needs offset_dims=, collapsed_slice_dims=, "
                                "start_index_map= and index_vector_dim=");
  if (is(ins, "scatter") && !ins->scatter)
    return wp_htp_fail(p, ins->at, "scatter needs update_window_dims=, inserted_window_dims=, "
                                "scatter_dims_to_operand_dims= and index_vector_dim=");
  if ((is(ins, "reduce-window") || is(ins, "select-and-scatter")) && !m->window)
    m->window = wp_pb_new(p->arena, &xla__opaque__descriptor);
  if (is(ins, "custom-call") && !given(ins, "api_version"))
    m->custom_call_api_version = 1; /* API_VERSION_ORIGINAL, XLA's default */
  if (collective(ins) && !m->collective_device_list)
    m->collective_device_list = wp_pb_new(p->arena, &xla__opaque__descriptor);
  if (is(ins, "fusion") && !m->fusion_kind[0])
    return wp_htp_fail(p, ins->at, "fusion needs kind=");
  if (is(ins, "compare") && !ins->has_direction)
    return wp_htp_fail(p, ins->at, "compare needs direction=");
  if (ins->dot)
    m->dot_dimension_numbers = wp_htp_opaque(p, &ins->dot->base);
  if (ins->gather)
    m->gather_dimension_numbers = wp_htp_opaque(p, &ins->gather->base);
  if (ins->scatter)
    m->scatter_dimension_numbers = wp_htp_opaque(p, &ins->scatter->base);
  if (ins->precision)
    m->precision_config = wp_htp_opaque(p, &ins->precision->base);
  return 0;
}
