/* An instruction's attributes as XLA prints them. Each printer clears
 * the fields it wrote in the instruction's REST copy (and those reading
 * the text gives back by itself), so whatever is left is a field the text
 * cannot carry, which the caller reports. */
#include "wp_hlo_text_print_internal.h"

#include "wp_hlo_text_common.h"
#include "wp_hlo_types.h"
#include "wp_pb.h"

#include <stdio.h>
#include <string.h>

#define IS(op) (!strcmp(r->opcode, op))

void *wp_hpr_view(hpr *w, const Xla__Opaque *o, const ProtobufCMessageDescriptor *d,
               const char *what) {
  void *v = wp_pb_convert(w->arena, &o->base, d);
  if (!v)
    wp_hpr_fail(w, "%s does not read as its message", what);
  else if (((ProtobufCMessage *)v)->n_unknown_fields)
    wp_hpr_warn(w, "%s holds fields unknown to weightpack; they are not printed", what);
  return v;
}

const Xla__HloInstructionProto *wp_hpr_instr(const wp_hpr_comp *c, int64_t id) {
  int64_t i;
  return wp_i64map_get(&c->by_id, id, &i) ? c->msg->instructions[i] : NULL;
}

static bool any_ne(const int64_t *v, size_t n, int64_t x) {
  for (size_t i = 0; i < n; i++)
    if (v[i] != x)
      return true;
  return false;
}

/* ---- dimension numbers, windows, padding ---- */

static int window(hpr *w, const Xla__Opaque *o) {
  Xla__WindowView *v = wp_hpr_view(w, o, &xla__window_view__descriptor, "window");
  if (!v)
    return -1;
  size_t n = v->n_dimensions;
  int64_t *a = wp_arena_alloc(w->arena, (n + 1) * 7 * sizeof *a);
  for (size_t i = 0; i < n; i++) {
    const Xla__WindowDimensionView *d = v->dimensions[i];
    a[i] = d->size;
    a[n + i] = d->stride;
    a[2 * n + i] = d->padding_low;
    a[3 * n + i] = d->padding_high;
    a[4 * n + i] = d->base_dilation;
    a[5 * n + i] = d->window_dilation;
    a[6 * n + i] = d->window_reversal;
    if (d->base.n_unknown_fields)
      wp_hpr_warn(w, "a window dimension holds fields unknown to weightpack");
  }
  static const char *const names[] = {"size", "stride", "pad", "pad", "lhs_dilate",
                                      "rhs_dilate", "rhs_reversal"};
  static const int64_t defaults[] = {-1, 1, 0, 0, 1, 1, 0};
  wp_hpr_puts(w, ", window={");
  bool first = true;
  for (int part = 0; part < 7 && n; part++) {
    if (part == 3)
      continue;
    bool print = part == 0 || any_ne(a + part * n, n, defaults[part]) ||
                 (part == 2 && any_ne(a + 3 * n, n, 0));
    if (!print)
      continue;
    wp_hpr_printf(w, "%s%s=", first ? "" : " ", names[part]);
    first = false;
    for (size_t i = 0; i < n; i++) {
      if (part == 2)
        wp_hpr_printf(w, "%s%lld_%lld", i ? "x" : "", (long long)a[2 * n + i],
                   (long long)a[3 * n + i]);
      else
        wp_hpr_printf(w, "%s%lld", i ? "x" : "", (long long)a[part * n + i]);
    }
  }
  wp_hpr_puts(w, "}");
  return 0;
}

/* b01f: LETTERS at their dimensions, spatial dimension k as digit k. */
static int labels(hpr *w, int64_t first, int64_t second, const int64_t *spatial, size_t n,
                  const char *letters) {
  size_t rank = n + 2;
  char *s = wp_arena_alloc(w->arena, rank + 1);
  if (n > 10 || first < 0 || (size_t)first >= rank || second < 0 || (size_t)second >= rank)
    return wp_hpr_fail(w, "convolution dimension numbers dim_labels cannot spell");
  s[first] = letters[0];
  s[second] = letters[1];
  for (size_t i = 0; i < n; i++) {
    if (spatial[i] < 0 || (size_t)spatial[i] >= rank || s[spatial[i]])
      return wp_hpr_fail(w, "convolution dimension numbers dim_labels cannot spell");
    s[spatial[i]] = (char)('0' + i);
  }
  for (size_t i = 0; i < rank; i++)
    if (!s[i])
      return wp_hpr_fail(w, "convolution dimension numbers dim_labels cannot spell");
  wp_hpr_puts(w, s);
  return 0;
}

static int dim_labels(hpr *w, const Xla__Opaque *o) {
  Xla__ConvolutionDimensionNumbersView *d =
      wp_hpr_view(w, o, &xla__convolution_dimension_numbers_view__descriptor, "dim_labels");
  if (!d)
    return -1;
  wp_hpr_puts(w, ", dim_labels=");
  if (labels(w, d->input_batch_dimension, d->input_feature_dimension,
             d->input_spatial_dimensions, d->n_input_spatial_dimensions, "bf"))
    return -1;
  wp_hpr_puts(w, "_");
  if (labels(w, d->kernel_input_feature_dimension, d->kernel_output_feature_dimension,
             d->kernel_spatial_dimensions, d->n_kernel_spatial_dimensions, "io"))
    return -1;
  wp_hpr_puts(w, "->");
  return labels(w, d->output_batch_dimension, d->output_feature_dimension,
                d->output_spatial_dimensions, d->n_output_spatial_dimensions, "bf");
}

static int padding(hpr *w, const Xla__Opaque *o) {
  Xla__PaddingConfigView *v = wp_hpr_view(w, o, &xla__padding_config_view__descriptor, "padding");
  if (!v)
    return -1;
  bool interior = false;
  for (size_t i = 0; i < v->n_dimensions; i++)
    interior |= v->dimensions[i]->interior_padding != 0;
  wp_hpr_puts(w, ", padding=");
  for (size_t i = 0; i < v->n_dimensions; i++) {
    const Xla__PaddingConfigDimensionView *d = v->dimensions[i];
    wp_hpr_printf(w, "%s%lld_%lld", i ? "x" : "", (long long)d->edge_padding_low,
               (long long)d->edge_padding_high);
    if (interior)
      wp_hpr_printf(w, "_%lld", (long long)d->interior_padding);
  }
  return 0;
}

static void named_list(hpr *w, const char *name, const int64_t *v, size_t n) {
  wp_hpr_printf(w, ", %s=", name);
  wp_hpr_int_list(w, v, n);
}

static int dot(hpr *w, Xla__HloInstructionProto *r) {
  Xla__DotDimensionNumbersView *d = wp_hpr_view(
      w, r->dot_dimension_numbers, &xla__dot_dimension_numbers_view__descriptor, "dot dims");
  if (!d)
    return -1;
  bool any = false;
#define LIST(name, f)                                                          \
  if (d->n_##f) {                                                              \
    named_list(w, name, d->f, d->n_##f);                                       \
    any = true;                                                                \
  }
  LIST("lhs_batch_dims", lhs_batch_dimensions)
  LIST("lhs_contracting_dims", lhs_contracting_dimensions)
  LIST("rhs_batch_dims", rhs_batch_dimensions)
  LIST("rhs_contracting_dims", rhs_contracting_dimensions)
#undef LIST
  if (any || IS("dot")) /* a dot gets one back even when empty */
    r->dot_dimension_numbers = NULL;
  return 0;
}

static int precision(hpr *w, Xla__HloInstructionProto *r) {
  Xla__PrecisionConfigView *pc = wp_hpr_view(
      w, r->precision_config, &xla__precision_config_view__descriptor, "precision_config");
  if (!pc)
    return -1;
  bool defaulted = IS("dot") || IS("convolution");
  bool print = !defaulted || pc->n_operand_precision != r->n_operand_ids;
  for (size_t i = 0; i < pc->n_operand_precision; i++)
    print |= pc->operand_precision[i] != 0;
  if (print) {
    wp_hpr_puts(w, ", operand_precision={");
    for (size_t i = 0; i < pc->n_operand_precision; i++) {
      const char *n = wp_hlo_text_enum_name(wp_hlo_text_precisions, pc->operand_precision[i]);
      if (!n)
        return wp_hpr_fail(w, "operand precision %d has no name", (int)pc->operand_precision[i]);
      wp_hpr_printf(w, "%s%s", i ? "," : "", n);
    }
    wp_hpr_puts(w, "}");
  }
  if (pc->algorithm) {
    const char *n = wp_hlo_text_enum_name(wp_hlo_text_dot_algorithms, pc->algorithm);
    if (!n)
      return wp_hpr_fail(w, "dot algorithm %d has no name", (int)pc->algorithm);
    wp_hpr_printf(w, ", algorithm=%s", n);
  }
  r->precision_config = NULL;
  return 0;
}

static int gather(hpr *w, Xla__HloInstructionProto *r) {
  Xla__GatherDimensionNumbersView *g = wp_hpr_view(w, r->gather_dimension_numbers,
                                            &xla__gather_dimension_numbers_view__descriptor,
                                            "gather dims");
  if (!g)
    return -1;
  named_list(w, "offset_dims", g->offset_dims, g->n_offset_dims);
  named_list(w, "collapsed_slice_dims", g->collapsed_slice_dims, g->n_collapsed_slice_dims);
  named_list(w, "start_index_map", g->start_index_map, g->n_start_index_map);
  if (g->n_operand_batching_dims || g->n_start_indices_batching_dims) {
    named_list(w, "operand_batching_dims", g->operand_batching_dims, g->n_operand_batching_dims);
    named_list(w, "start_indices_batching_dims", g->start_indices_batching_dims,
               g->n_start_indices_batching_dims);
  }
  wp_hpr_printf(w, ", index_vector_dim=%lld", (long long)g->index_vector_dim);
  r->gather_dimension_numbers = NULL;
  return 0;
}

static int scatter(hpr *w, Xla__HloInstructionProto *r) {
  Xla__ScatterDimensionNumbersView *s = wp_hpr_view(w, r->scatter_dimension_numbers,
                                             &xla__scatter_dimension_numbers_view__descriptor,
                                             "scatter dims");
  if (!s)
    return -1;
  named_list(w, "update_window_dims", s->update_window_dims, s->n_update_window_dims);
  named_list(w, "inserted_window_dims", s->inserted_window_dims, s->n_inserted_window_dims);
  named_list(w, "scatter_dims_to_operand_dims", s->scatter_dims_to_operand_dims,
             s->n_scatter_dims_to_operand_dims);
  if (s->n_input_batching_dims || s->n_scatter_indices_batching_dims) {
    named_list(w, "input_batching_dims", s->input_batching_dims, s->n_input_batching_dims);
    named_list(w, "scatter_indices_batching_dims", s->scatter_indices_batching_dims,
               s->n_scatter_indices_batching_dims);
  }
  wp_hpr_printf(w, ", index_vector_dim=%lld", (long long)s->index_vector_dim);
  r->scatter_dimension_numbers = NULL;
  return 0;
}

static int slices(hpr *w, Xla__HloInstructionProto *r) {
  wp_hpr_puts(w, ", slice={");
  for (size_t i = 0; i < r->n_slice_dimensions; i++) {
    Xla__SliceDimensionsView *s =
        wp_hpr_view(w, r->slice_dimensions[i], &xla__slice_dimensions_view__descriptor, "slice");
    if (!s)
      return -1;
    wp_hpr_printf(w, "%s[%lld:%lld", i ? ", " : "", (long long)s->start, (long long)s->limit);
    if (s->stride != 1)
      wp_hpr_printf(w, ":%lld", (long long)s->stride);
    wp_hpr_puts(w, "]");
  }
  wp_hpr_puts(w, "}");
  r->n_slice_dimensions = 0;
  return 0;
}

/* ---- called computations ---- */

static int comp_name(hpr *w, int64_t id) {
  int64_t i;
  if (!wp_i64map_get(&w->comp_index, id, &i))
    return wp_hpr_fail(w, "a call of computation id %lld, which the module does not have",
                    (long long)id);
  wp_hpr_name(w, w->mod->computations[i]->name, true);
  return 0;
}

static int calls(hpr *w, const wp_hpr_comp *c, Xla__HloInstructionProto *r) {
  size_t n = r->n_called_computation_ids;
  const int64_t *ids = r->called_computation_ids;
  if (!n)
    return 0;
  int rc = 0;
  if (IS("while") && n == 2) {
    wp_hpr_puts(w, ", condition=");
    rc = comp_name(w, ids[1]);
    wp_hpr_puts(w, ", body=");
    rc |= comp_name(w, ids[0]);
  } else if (IS("select-and-scatter") && n == 2) {
    wp_hpr_puts(w, ", select=");
    rc = comp_name(w, ids[0]);
    wp_hpr_puts(w, ", scatter=");
    rc |= comp_name(w, ids[1]);
  } else if (IS("conditional") && n == 2 && r->n_operand_ids &&
             wp_hpr_instr(c, r->operand_ids[0]) &&
             wp_hpr_instr(c, r->operand_ids[0])->shape->element_type == WP_PRED) {
    wp_hpr_puts(w, ", true_computation=");
    rc = comp_name(w, ids[0]);
    wp_hpr_puts(w, ", false_computation=");
    rc |= comp_name(w, ids[1]);
  } else if (n == 1 && (IS("call") || IS("map") || IS("reduce-window") || IS("reduce") ||
                        IS("all-reduce") || IS("reduce-scatter") || IS("all-reduce-start") ||
                        IS("scatter") || IS("sort") || IS("topk"))) {
    wp_hpr_puts(w, ", to_apply=");
    rc = comp_name(w, ids[0]);
  } else {
    const char *name = IS("conditional") ? "branch_computations"
                       : IS("custom-call") ? "called_computations" : "calls";
    wp_hpr_printf(w, ", %s=", name);
    if (n == 1 && !strcmp(name, "calls"))
      return comp_name(w, ids[0]);
    wp_hpr_puts(w, "{");
    for (size_t i = 0; i < n && !rc; i++) {
      if (i)
        wp_hpr_puts(w, ", ");
      rc = comp_name(w, ids[i]);
    }
    wp_hpr_puts(w, "}");
  }
  return rc ? -1 : 0;
}

static int control_predecessors(hpr *w, const wp_hpr_comp *c, Xla__HloInstructionProto *r) {
  wp_hpr_puts(w, ", control-predecessors={");
  for (size_t i = 0; i < r->n_control_predecessor_ids; i++) {
    const Xla__HloInstructionProto *p = wp_hpr_instr(c, r->control_predecessor_ids[i]);
    if (!p)
      return wp_hpr_fail(w, "control predecessor id %lld is not in computation '%s'",
                      (long long)r->control_predecessor_ids[i], c->msg->name);
    if (i)
      wp_hpr_puts(w, ", ");
    wp_hpr_name(w, p->name, true);
  }
  wp_hpr_puts(w, "}");
  r->n_control_predecessor_ids = 0;
  return 0;
}

/* ---- everything ---- */

static bool collective(const Xla__HloInstructionProto *r) {
  return IS("all-reduce") || IS("all-gather") || IS("all-to-all") || IS("reduce-scatter") ||
         IS("collective-broadcast") || IS("all-reduce-start") || IS("all-gather-start") ||
         IS("ragged-all-to-all");
}

static void enum_attr(hpr *w, const char *name, const wp_hlo_text_enum *tbl, int v) {
  const char *s = wp_hlo_text_enum_name(tbl, v);
  if (s)
    wp_hpr_printf(w, ", %s=%s", name, s);
  else
    wp_hpr_fail(w, "%s value %d has no name", name, v);
}

static void bytes_attr(hpr *w, const char *name, ProtobufCBinaryData *b, bool json) {
  wp_hpr_printf(w, ", %s=", name);
  if (json && wp_hpr_json_object((const char *)b->data, b->len))
    wp_hpr_putn(w, (const char *)b->data, b->len);
  else
    wp_hpr_string(w, (const char *)b->data, b->len);
  b->len = 0;
}

int wp_hpr_attrs(hpr *w, const wp_hpr_comp *c, Xla__HloInstructionProto *r) {
  /* dimensions and the like */
  if (IS("iota") && r->n_dimensions == 1) {
    wp_hpr_printf(w, ", iota_dimension=%lld", (long long)r->dimensions[0]);
    r->n_dimensions = 0;
  } else if (r->n_dimensions || IS("broadcast") || IS("transpose") || IS("reduce") ||
             IS("reverse") || IS("concatenate")) {
    named_list(w, "dimensions", r->dimensions, r->n_dimensions);
    r->n_dimensions = 0;
  }
  if (IS("get-tuple-element") || r->tuple_index) {
    wp_hpr_printf(w, ", index=%lld", (long long)r->tuple_index);
    r->tuple_index = 0;
  }
  if ((r->n_slice_dimensions || IS("slice")) && slices(w, r))
    return -1;
  if (r->n_dynamic_slice_sizes || IS("dynamic-slice")) {
    named_list(w, "dynamic_slice_sizes", r->dynamic_slice_sizes, r->n_dynamic_slice_sizes);
    r->n_dynamic_slice_sizes = 0;
  }
  if (r->padding_config) {
    if (padding(w, r->padding_config))
      return -1;
    r->padding_config = NULL;
  }
  if (r->window) {
    if (window(w, r->window))
      return -1;
    r->window = NULL;
  }
  if (r->convolution_dimension_numbers) {
    if (dim_labels(w, r->convolution_dimension_numbers))
      return -1;
    r->convolution_dimension_numbers = NULL;
  }
  int64_t groups_default = IS("convolution") ? 1 : 0;
  if (r->feature_group_count != groups_default)
    wp_hpr_printf(w, ", feature_group_count=%lld", (long long)r->feature_group_count);
  if (r->batch_group_count != groups_default)
    wp_hpr_printf(w, ", batch_group_count=%lld", (long long)r->batch_group_count);
  r->feature_group_count = r->batch_group_count = 0;
  if (r->dot_dimension_numbers && dot(w, r))
    return -1;
  if (r->gather_dimension_numbers && gather(w, r))
    return -1;
  if (r->scatter_dimension_numbers && scatter(w, r))
    return -1;
  if (r->n_gather_slice_sizes || IS("gather")) {
    named_list(w, "slice_sizes", r->gather_slice_sizes, r->n_gather_slice_sizes);
    r->n_gather_slice_sizes = 0;
  }
  if (r->indices_are_sorted)
    wp_hpr_puts(w, ", indices_are_sorted=true");
  if (r->unique_indices)
    wp_hpr_puts(w, ", unique_indices=true");
  r->indices_are_sorted = r->unique_indices = false;
  if (r->precision_config && precision(w, r))
    return -1;
  /* compare */
  if (r->comparison_direction[0])
    wp_hpr_printf(w, ", direction=%s", r->comparison_direction);
  if (r->comparison_type[0]) {
    const Xla__HloInstructionProto *lhs =
        r->n_operand_ids ? wp_hpr_instr(c, r->operand_ids[0]) : NULL;
    if (!IS("compare") || !lhs ||
        strcmp(r->comparison_type, wp_hlo_text_default_comparison_type(lhs->shape->element_type)))
      wp_hpr_printf(w, ", type=%s", r->comparison_type);
  }
  r->comparison_direction = r->comparison_type = "";
  /* fusion, custom-call */
  if (r->fusion_kind[0])
    wp_hpr_printf(w, ", kind=%s", r->fusion_kind);
  r->fusion_kind = "";
  if (r->custom_call_target[0] || IS("custom-call")) {
    wp_hpr_puts(w, ", custom_call_target=");
    wp_hpr_string(w, r->custom_call_target, strlen(r->custom_call_target));
    r->custom_call_target = "";
  }
  if (r->constrain_layout && IS("custom-call")) {
    wp_hpr_puts(w, ", operand_layout_constraints={");
    for (size_t i = 0; i < r->n_operand_shapes_with_layout; i++) {
      if (i)
        wp_hpr_puts(w, ", ");
      if (wp_hpr_shape(w, r->operand_shapes_with_layout[i], true))
        return -1;
    }
    wp_hpr_puts(w, "}");
    r->n_operand_shapes_with_layout = 0;
  } else if (r->constrain_layout) {
    wp_hpr_puts(w, ", constrain_layout=true");
  }
  r->constrain_layout = false;
  if (r->custom_call_has_side_effect)
    wp_hpr_puts(w, ", custom_call_has_side_effect=true");
  r->custom_call_has_side_effect = false;
  if (r->n_output_operand_aliasing && wp_hpr_operand_aliasing(w, r))
    return -1;
  if (r->custom_call_schedule)
    enum_attr(w, "schedule", wp_hlo_text_schedules, r->custom_call_schedule);
  if (r->custom_call_api_version != (IS("custom-call") ? 1 : 0))
    enum_attr(w, "api_version", wp_hlo_text_api_versions, r->custom_call_api_version);
  if (r->padding_type)
    enum_attr(w, "padding_type", wp_hlo_text_padding_types, r->padding_type);
  r->custom_call_schedule = r->custom_call_api_version = r->padding_type = 0;
  /* collectives */
  if (r->collective_device_list) {
    if (wp_hpr_replica_groups(w, r->collective_device_list))
      return -1;
    r->collective_device_list = NULL;
  } else if (wp_hpr_n_legacy_groups(r) && wp_hpr_legacy_replica_groups(w, r)) {
    return -1;
  } else if (collective(r)) {
    wp_hpr_puts(w, ", replica_groups={}");
  }
  if (r->channel_id)
    wp_hpr_printf(w, ", channel_id=%lld", (long long)r->channel_id);
  if (r->use_global_device_ids)
    wp_hpr_puts(w, ", use_global_device_ids=true");
  r->channel_id = 0;
  r->use_global_device_ids = false;
  if ((r->n_source_target_pairs || IS("collective-permute") || IS("collective-permute-start")) &&
      wp_hpr_source_target_pairs(w, r))
    return -1;
  /* the rest, by opcode or when set */
  if (IS("reduce-precision") || r->exponent_bits)
    wp_hpr_printf(w, ", exponent_bits=%d", (int)r->exponent_bits);
  if (IS("reduce-precision") || r->mantissa_bits)
    wp_hpr_printf(w, ", mantissa_bits=%d", (int)r->mantissa_bits);
  r->exponent_bits = r->mantissa_bits = 0;
  if (IS("rng") || r->distribution)
    enum_attr(w, "distribution", wp_hlo_text_distributions, r->distribution);
  if (IS("rng-bit-generator") || r->rng_algorithm)
    enum_attr(w, "algorithm", wp_hlo_text_rng_algorithms, r->rng_algorithm);
  r->distribution = r->rng_algorithm = 0;
  if (IS("fft") || r->fft_type)
    enum_attr(w, "fft_type", wp_hlo_text_fft_types, r->fft_type);
  if (r->n_fft_length || IS("fft"))
    named_list(w, "fft_length", r->fft_length, r->n_fft_length);
  r->fft_type = 0;
  r->n_fft_length = 0;
  bool batch_norm = !strncmp(r->opcode, "batch-norm-", 11);
  if (batch_norm || r->epsilon != 0) {
    char buf[64];
    uint32_t bits;
    memcpy(&bits, &r->epsilon, sizeof bits);
    wp_hlo_text_float_str(WP_F32, bits, buf, sizeof buf);
    wp_hpr_printf(w, ", epsilon=%s", buf);
  }
  if (batch_norm || r->feature_index)
    wp_hpr_printf(w, ", feature_index=%lld", (long long)r->feature_index);
  r->epsilon = 0;
  r->feature_index = 0;
  if (r->is_stable)
    wp_hpr_puts(w, ", is_stable=true");
  if (r->is_host_transfer)
    wp_hpr_puts(w, ", is_host_transfer=true");
  if (r->delta)
    wp_hpr_printf(w, ", delta=%lld", (long long)r->delta);
  if (r->k || IS("topk"))
    wp_hpr_printf(w, ", k=%lld", (long long)r->k);
  if (r->largest)
    wp_hpr_puts(w, ", largest=true");
  r->is_stable = r->is_host_transfer = r->largest = false;
  r->delta = r->k = 0;
  if (r->infeed_config.len)
    bytes_attr(w, "infeed_config", &r->infeed_config, false);
  if (r->outfeed_config.len)
    bytes_attr(w, "outfeed_config", &r->outfeed_config, false);
  if (r->outfeed_shape) {
    wp_hpr_puts(w, ", outfeed_shape=");
    if (wp_hpr_shape(w, r->outfeed_shape, true))
      return -1;
    r->outfeed_shape = NULL;
  }
  if (r->async_execution_thread[0]) {
    wp_hpr_puts(w, ", async_execution_thread=");
    wp_hpr_string(w, r->async_execution_thread, strlen(r->async_execution_thread));
    r->async_execution_thread = "";
  }
  if (r->optional_cross_program_prefetch_index_case) {
    wp_hpr_printf(w, ", cross_program_prefetch_index=%d", (int)r->cross_program_prefetch_index);
    r->optional_cross_program_prefetch_index_case = 0;
  }
  if (r->is_composite)
    wp_hpr_puts(w, ", is_composite=true");
  r->is_composite = false;
  if (r->parameter_replication) {
    Xla__ParameterReplicationView *pr = wp_hpr_view(w, r->parameter_replication,
                                             &xla__parameter_replication_view__descriptor,
                                             "parameter_replication");
    if (!pr)
      return -1;
    wp_hpr_puts(w, ", parameter_replication={");
    for (size_t i = 0; i < pr->n_replicated_at_leaf_buffers; i++)
      wp_hpr_printf(w, "%s%s", i ? "," : "", pr->replicated_at_leaf_buffers[i] ? "true" : "false");
    wp_hpr_puts(w, "}");
    r->parameter_replication = NULL;
  }
  /* what every instruction may have */
  if (calls(w, c, r))
    return -1;
  r->n_called_computation_ids = 0;
  if (r->n_control_predecessor_ids && control_predecessors(w, c, r))
    return -1;
  if (r->sharding) {
    Xla__OpShardingView *s =
        wp_hpr_view(w, r->sharding, &xla__op_sharding_view__descriptor, "sharding");
    if (!s)
      return -1;
    wp_hpr_puts(w, ", sharding=");
    if (wp_hpr_sharding(w, s, 0))
      return -1;
    r->sharding = NULL;
  }
  if (r->frontend_attributes) {
    if (r->frontend_attributes->n_map) {
      wp_hpr_puts(w, ", frontend_attributes=");
      wp_hpr_frontend_attributes(w, r->frontend_attributes);
    }
    if (r->frontend_attributes->base.n_unknown_fields)
      wp_hpr_warn(w, "instruction '%s': frontend_attributes hold unknown fields; not printed",
               r->name);
    r->frontend_attributes = NULL; /* reading gives an empty one back */
  }
  if (r->metadata) {
    char owner[300];
    snprintf(owner, sizeof owner, "instruction '%s'", r->name);
    size_t mark = w->len;
    wp_hpr_puts(w, ", metadata=");
    size_t body = w->len;
    wp_hpr_metadata(w, r->metadata, owner);
    if (w->len == body + 2) { /* {} : nothing to say */
      w->len = mark;
      w->buf[w->len] = 0;
    }
    r->metadata = NULL;
  }
  if (r->backend_config.len)
    bytes_attr(w, "backend_config", &r->backend_config, true);
  if (r->statistics_viz && !r->statistics_viz->base.n_unknown_fields)
    r->statistics_viz = NULL; /* XLA writes an empty one; reading does too */
  return w->failed ? -1 : 0;
}
