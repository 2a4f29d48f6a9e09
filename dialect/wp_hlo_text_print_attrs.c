/* An instruction's attributes as XLA prints them, in XLA's order: one
 * table gives, per opcode, the order its PrintExtraAttributesImpl writes
 * them in; then every attribute still set, in a fixed order; then what
 * every instruction may have (called computations, sharding, frontend
 * attributes, control predecessors, statistics, result accuracy, origin,
 * metadata, backend config). Each printer clears the fields it wrote in
 * the instruction's REST copy (and those reading the text gives back by
 * itself), so whatever is left is a field the text cannot carry, which
 * the caller reports. */
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

static int window(hpr *w, const Xla__Opaque *o, bool print_empty) {
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
  if (!n && !print_empty) /* XLA prints a window without dimensions only on a custom call */
    return 0;
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

/* b01f: LETTERS at their dimensions, spatial dimension k as digit k, '?'
 * where no label stands (as XLA prints it). */
static int labels(hpr *w, int64_t first, int64_t second, const int64_t *spatial, size_t n,
                  const char *letters) {
  int64_t rank = first > second ? first : second;
  for (size_t i = 0; i < n; i++)
    rank = spatial[i] > rank ? spatial[i] : rank;
  rank++;
  if (n > 10 || first < 0 || second < 0 || first == second || rank > 64)
    return wp_hpr_fail(w, "convolution dimension numbers dim_labels cannot spell");
  char s[66];
  memset(s, 0, sizeof s);
  s[first] = letters[0];
  s[second] = letters[1];
  for (size_t i = 0; i < n; i++) {
    if (spatial[i] < 0 || s[spatial[i]])
      return wp_hpr_fail(w, "convolution dimension numbers dim_labels cannot spell");
    s[spatial[i]] = (char)('0' + i);
  }
  for (int64_t i = 0; i < rank; i++)
    if (!s[i])
      s[i] = '?';
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
  return wp_hpr_dot_numbers(w, r, d);
}

int wp_hpr_dot_numbers(hpr *w, Xla__HloInstructionProto *r, const Xla__DotDimensionNumbersView *d) {
  if (!d)
    return -1;
  bool any = false;
#define LIST(name, f)                                                          \
  if (d->n_##f) {                                                              \
    named_list(w, name, d->f, d->n_##f);                                       \
    any = true;                                                                \
  }
  /* XLA prints a dot's contracting dimensions even when empty */
  bool dot = IS("dot") || IS("scaled-dot") || IS("ragged-dot");
  LIST("lhs_batch_dims", lhs_batch_dimensions)
  if (dot && !d->n_lhs_contracting_dimensions)
    named_list(w, "lhs_contracting_dims", NULL, 0);
  LIST("lhs_contracting_dims", lhs_contracting_dimensions)
  LIST("rhs_batch_dims", rhs_batch_dimensions)
  if (dot && !d->n_rhs_contracting_dimensions)
    named_list(w, "rhs_contracting_dims", NULL, 0);
  LIST("rhs_contracting_dims", rhs_contracting_dimensions)
#undef LIST
  if (any || dot) /* a dot gets one back even when empty */
    r->dot_dimension_numbers = NULL;
  return 0;
}

static int precision(hpr *w, Xla__HloInstructionProto *r) {
  Xla__PrecisionConfigView *pc = wp_hpr_view(
      w, r->precision_config, &xla__precision_config_view__descriptor, "precision_config");
  if (!pc)
    return -1;
  bool two = IS("ragged-dot") || IS("scaled-dot"); /* only lhs and rhs have one */
  bool defaulted = IS("dot") || IS("convolution") || IS("custom-call") || two;
  size_t expected = two ? 2 : r->n_operand_ids;
  bool print = !defaulted || pc->n_operand_precision != expected;
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
  if (g->n_operand_batching_dims)
    named_list(w, "operand_batching_dims", g->operand_batching_dims, g->n_operand_batching_dims);
  if (g->n_start_indices_batching_dims)
    named_list(w, "start_indices_batching_dims", g->start_indices_batching_dims,
               g->n_start_indices_batching_dims);
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
  if (s->n_input_batching_dims)
    named_list(w, "input_batching_dims", s->input_batching_dims, s->n_input_batching_dims);
  if (s->n_scatter_indices_batching_dims)
    named_list(w, "scatter_indices_batching_dims", s->scatter_indices_batching_dims,
               s->n_scatter_indices_batching_dims);
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
                        IS("scatter") || IS("sort") || IS("topk") || IS("scan") ||
                        IS("collective-reduce"))) {
    wp_hpr_puts(w, ", to_apply=");
    rc = comp_name(w, ids[0]);
    if (IS("call") && r->is_composite) /* XLA prints it right after to_apply */
      wp_hpr_puts(w, ", is_composite=true");
    r->is_composite = false;
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

/* ---- one printer per attribute (or group XLA prints together) ---- */

static bool collective(const Xla__HloInstructionProto *r) {
  return IS("all-reduce") || IS("all-gather") || IS("all-to-all") || IS("reduce-scatter") ||
         IS("collective-broadcast") || IS("all-reduce-start") || IS("all-gather-start") ||
         IS("ragged-all-to-all") || IS("collective-reduce");
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

static void flag(hpr *w, const char *name, protobuf_c_boolean *v) {
  if (*v)
    wp_hpr_printf(w, ", %s=true", name);
  *v = false;
}

typedef int (*printer_fn)(hpr *w, const wp_hpr_comp *c, Xla__HloInstructionProto *r);

#define P(name) static int name(hpr *w, const wp_hpr_comp *c, Xla__HloInstructionProto *r)

P(p_dims) {
  (void)c;
  if (IS("iota") && r->n_dimensions == 1) {
    wp_hpr_printf(w, ", iota_dimension=%lld", (long long)r->dimensions[0]);
  } else if (IS("reshape") && r->n_dimensions == 1) {
    if (r->dimensions[0] != -1)
      wp_hpr_printf(w, ", inferred_dimension=%lld", (long long)r->dimensions[0]);
  } else if (r->n_dimensions || IS("broadcast") || IS("transpose") || IS("reduce") ||
             IS("reverse") || IS("concatenate") || IS("scan") || IS("sort")) {
    named_list(w, "dimensions", r->dimensions, r->n_dimensions);
  }
  r->n_dimensions = 0;
  return 0;
}
P(p_index) {
  (void)c;
  if (IS("get-tuple-element") || r->tuple_index)
    wp_hpr_printf(w, ", index=%lld", (long long)r->tuple_index);
  r->tuple_index = 0;
  return 0;
}
P(p_slice) {
  (void)c;
  return (r->n_slice_dimensions || IS("slice")) ? slices(w, r) : 0;
}
P(p_dynamic_slice_sizes) {
  (void)c;
  if (r->n_dynamic_slice_sizes || IS("dynamic-slice"))
    named_list(w, "dynamic_slice_sizes", r->dynamic_slice_sizes, r->n_dynamic_slice_sizes);
  r->n_dynamic_slice_sizes = 0;
  return 0;
}
P(p_padding) {
  (void)c;
  int rc = r->padding_config ? padding(w, r->padding_config) : 0;
  r->padding_config = NULL;
  return rc;
}
P(p_window) {
  (void)c;
  int rc = r->window ? window(w, r->window, IS("custom-call")) : 0;
  r->window = NULL;
  return rc;
}
P(p_dim_labels) {
  (void)c;
  int rc = r->convolution_dimension_numbers ? dim_labels(w, r->convolution_dimension_numbers) : 0;
  r->convolution_dimension_numbers = NULL;
  return rc;
}
P(p_group_counts) {
  (void)c;
  /* XLA keeps 1 on convolutions and custom calls (a custom call's 0, from
   * an old writer, is read as 1 too) */
  bool one = IS("convolution") || IS("custom-call");
  if (r->feature_group_count != (one ? 1 : 0) && !(IS("custom-call") && !r->feature_group_count))
    wp_hpr_printf(w, ", feature_group_count=%lld", (long long)r->feature_group_count);
  if (r->batch_group_count != (one ? 1 : 0) && !(IS("custom-call") && !r->batch_group_count))
    wp_hpr_printf(w, ", batch_group_count=%lld", (long long)r->batch_group_count);
  r->feature_group_count = r->batch_group_count = 0;
  return 0;
}
P(p_conv_kind) {
  (void)c;
  static const wp_hlo_text_enum kinds[] = {{"fprop", 1}, {"dgrad", 2}, {"wgrad", 3}, {NULL, 0}};
  if (r->conv_kind)
    enum_attr(w, "convolution_kind", kinds, r->conv_kind);
  r->conv_kind = 0;
  return 0;
}
P(p_dot) {
  (void)c;
  return r->dot_dimension_numbers ? dot(w, r) : 0;
}
P(p_precision) {
  (void)c;
  return r->precision_config ? precision(w, r) : 0;
}
P(p_gather) {
  (void)c;
  return r->gather_dimension_numbers ? gather(w, r) : 0;
}
P(p_scatter) {
  (void)c;
  return r->scatter_dimension_numbers ? scatter(w, r) : 0;
}
P(p_slice_sizes) {
  (void)c;
  if (r->n_gather_slice_sizes || IS("gather"))
    named_list(w, "slice_sizes", r->gather_slice_sizes, r->n_gather_slice_sizes);
  r->n_gather_slice_sizes = 0;
  return 0;
}
P(p_sorted) {
  (void)c;
  flag(w, "indices_are_sorted", &r->indices_are_sorted);
  return 0;
}
P(p_unique) {
  (void)c;
  flag(w, "unique_indices", &r->unique_indices);
  return 0;
}
P(p_compare) {
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
  return 0;
}
P(p_kind) {
  (void)c;
  if (r->fusion_kind[0])
    wp_hpr_printf(w, ", kind=%s", r->fusion_kind);
  r->fusion_kind = "";
  return 0;
}
P(p_padding_type) {
  (void)c;
  if (r->padding_type)
    enum_attr(w, "padding_type", wp_hlo_text_padding_types, r->padding_type);
  r->padding_type = 0;
  return 0;
}
P(p_target) {
  (void)c;
  if (r->custom_call_target[0] || IS("custom-call")) {
    wp_hpr_puts(w, ", custom_call_target=");
    wp_hpr_string(w, r->custom_call_target, strlen(r->custom_call_target));
  }
  r->custom_call_target = "";
  return 0;
}
P(p_layouts) {
  (void)c;
  if (!r->constrain_layout || !IS("custom-call"))
    return 0;
  wp_hpr_puts(w, ", operand_layout_constraints={");
  for (size_t i = 0; i < r->n_operand_shapes_with_layout; i++) {
    if (i)
      wp_hpr_puts(w, ", ");
    if (wp_hpr_shape(w, r->operand_shapes_with_layout[i], true))
      return -1;
  }
  wp_hpr_puts(w, "}");
  r->n_operand_shapes_with_layout = 0;
  r->constrain_layout = false;
  return 0;
}
P(p_side_effect) {
  (void)c;
  flag(w, "custom_call_has_side_effect", &r->custom_call_has_side_effect);
  return 0;
}
P(p_literal) {
  (void)c;
  if (!r->literal || IS("constant"))
    return 0;
  return wp_hpr_attr_literal(w, r);
}
P(p_aliasing) {
  (void)c;
  return r->n_output_operand_aliasing ? wp_hpr_operand_aliasing(w, r) : 0;
}
P(p_schedule) {
  (void)c;
  if (r->custom_call_schedule)
    enum_attr(w, "schedule", wp_hlo_text_schedules, r->custom_call_schedule);
  r->custom_call_schedule = 0;
  return 0;
}
P(p_api_version) {
  (void)c;
  if (r->custom_call_api_version != (IS("custom-call") ? 1 : 0))
    enum_attr(w, "api_version", wp_hlo_text_api_versions, r->custom_call_api_version);
  r->custom_call_api_version = 0;
  return 0;
}
P(p_channel_id) {
  (void)c;
  if (r->channel_id)
    wp_hpr_printf(w, ", channel_id=%lld", (long long)r->channel_id);
  r->channel_id = 0;
  return 0;
}
P(p_replica_groups) {
  (void)c;
  if (r->collective_device_list) {
    if (wp_hpr_replica_groups(w, r->collective_device_list))
      return -1;
    r->collective_device_list = NULL;
  } else if (wp_hpr_n_legacy_groups(r)) {
    return wp_hpr_legacy_replica_groups(w, r);
  } else if (collective(r)) {
    wp_hpr_puts(w, ", replica_groups={}");
  }
  return 0;
}
P(p_constrain_layout) {
  (void)c;
  if (!IS("custom-call"))
    flag(w, "constrain_layout", &r->constrain_layout);
  return 0;
}
P(p_global_ids) {
  (void)c;
  flag(w, "use_global_device_ids", &r->use_global_device_ids);
  return 0;
}
P(p_pairs) {
  (void)c;
  if (r->n_source_target_pairs || IS("collective-permute") || IS("collective-permute-start"))
    return wp_hpr_source_target_pairs(w, r);
  return 0;
}
P(p_bits) {
  (void)c;
  if (IS("reduce-precision") || r->exponent_bits)
    wp_hpr_printf(w, ", exponent_bits=%d", (int)r->exponent_bits);
  if (IS("reduce-precision") || r->mantissa_bits)
    wp_hpr_printf(w, ", mantissa_bits=%d", (int)r->mantissa_bits);
  r->exponent_bits = r->mantissa_bits = 0;
  return 0;
}
P(p_distribution) {
  (void)c;
  if (IS("rng") || r->distribution)
    enum_attr(w, "distribution", wp_hlo_text_distributions, r->distribution);
  r->distribution = 0;
  return 0;
}
P(p_rng_algorithm) {
  (void)c;
  if (IS("rng-bit-generator") || r->rng_algorithm)
    enum_attr(w, "algorithm", wp_hlo_text_rng_algorithms, r->rng_algorithm);
  r->rng_algorithm = 0;
  return 0;
}
P(p_fft) {
  (void)c;
  if (IS("fft") || r->fft_type)
    enum_attr(w, "fft_type", wp_hlo_text_fft_types, r->fft_type);
  if (r->n_fft_length || IS("fft"))
    named_list(w, "fft_length", r->fft_length, r->n_fft_length);
  r->fft_type = 0;
  r->n_fft_length = 0;
  return 0;
}
P(p_batch_norm) {
  (void)c;
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
  return 0;
}
P(p_is_stable) {
  (void)c;
  flag(w, "is_stable", &r->is_stable);
  return 0;
}
P(p_host_transfer) {
  (void)c;
  flag(w, "is_host_transfer", &r->is_host_transfer);
  return 0;
}
P(p_delta) {
  (void)c;
  if (r->delta || IS("rng-get-and-update-state"))
    wp_hpr_printf(w, ", delta=%lld", (long long)r->delta);
  r->delta = 0;
  return 0;
}
P(p_topk) {
  (void)c;
  if (r->k || IS("topk"))
    wp_hpr_printf(w, ", k=%lld", (long long)r->k);
  if (IS("topk"))
    wp_hpr_printf(w, ", largest=%s", r->largest ? "true" : "false");
  else
    flag(w, "largest", &r->largest);
  r->k = 0;
  r->largest = false;
  return 0;
}
P(p_feeds) {
  (void)c;
  if (r->infeed_config.len)
    bytes_attr(w, "infeed_config", &r->infeed_config, false);
  if (r->outfeed_shape) {
    wp_hpr_puts(w, ", outfeed_shape=");
    if (wp_hpr_shape(w, r->outfeed_shape, true))
      return -1;
    r->outfeed_shape = NULL;
  }
  if (r->outfeed_config.len)
    bytes_attr(w, "outfeed_config", &r->outfeed_config, false);
  return 0;
}
P(p_thread) {
  (void)c;
  if (r->async_execution_thread[0]) {
    wp_hpr_puts(w, ", async_execution_thread=");
    wp_hpr_string(w, r->async_execution_thread, strlen(r->async_execution_thread));
  }
  r->async_execution_thread = "";
  return 0;
}
P(p_prefetch) {
  (void)c;
  if (r->optional_cross_program_prefetch_index_case)
    wp_hpr_printf(w, ", cross_program_prefetch_index=%d", (int)r->cross_program_prefetch_index);
  r->optional_cross_program_prefetch_index_case = 0;
  return 0;
}
P(p_replication) {
  (void)c;
  if (!r->parameter_replication)
    return 0;
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
  return 0;
}
P(p_scan) {
  (void)c;
  if (r->num_carries || IS("scan"))
    wp_hpr_printf(w, ", num_carries=%lld", (long long)r->num_carries);
  flag(w, "is_reverse", &r->is_reverse);
  if (r->is_associative == 1 || r->is_associative == 2)
    wp_hpr_printf(w, ", is_associative=%s", r->is_associative == 1 ? "true" : "false");
  else if (r->is_associative)
    return wp_hpr_fail(w, "is_associative %d is not a TriState", (int)r->is_associative);
  r->num_carries = 0;
  r->is_associative = 0;
  return 0;
}
P(p_options) {
  (void)c;
  return wp_hpr_solver_options(w, r);
}
P(p_ragged) {
  (void)c;
  return r->ragged_dot_dimension_numbers ? wp_hpr_ragged_dot(w, r) : 0;
}
P(p_domain) {
  (void)c;
  return wp_hpr_domain(w, r);
}

#undef P

/* ---- the order ---- */

enum {
  A_DIMS, A_INDEX, A_SLICE, A_DSS, A_PADDING, A_WINDOW, A_DIM_LABELS, A_GROUPS, A_CONV_KIND,
  A_DOT, A_RAGGED, A_PRECISION, A_GATHER, A_SCATTER, A_SLICE_SIZES, A_SORTED, A_UNIQUE,
  A_COMPARE, A_KIND, A_PADDING_TYPE, A_TARGET, A_LAYOUTS, A_SIDE_EFFECT, A_LITERAL, A_ALIASING,
  A_SCHEDULE, A_API, A_CHANNEL, A_GROUPS_RG, A_CONSTRAIN, A_GLOBAL_IDS, A_PAIRS, A_BITS,
  A_DISTRIBUTION, A_RNG_ALG, A_FFT, A_BATCH_NORM, A_STABLE, A_HOST, A_DELTA, A_TOPK, A_FEEDS,
  A_THREAD, A_PREFETCH, A_REPLICATION, A_SCAN, A_OPTIONS, A_DOMAIN, A_N
};

/* Indexed by the A_ values. */
static const printer_fn k_printers[A_N] = {
    p_dims, p_index, p_slice, p_dynamic_slice_sizes, p_padding, p_window, p_dim_labels,
    p_group_counts, p_conv_kind, p_dot, p_ragged, p_precision, p_gather, p_scatter,
    p_slice_sizes, p_sorted, p_unique, p_compare, p_kind, p_padding_type, p_target, p_layouts,
    p_side_effect, p_literal, p_aliasing, p_schedule, p_api_version, p_channel_id,
    p_replica_groups, p_constrain_layout, p_global_ids, p_pairs, p_bits, p_distribution,
    p_rng_algorithm, p_fft, p_batch_norm, p_is_stable, p_host_transfer, p_delta, p_topk,
    p_feeds, p_thread, p_prefetch, p_replication, p_scan, p_options, p_domain};

#define END A_N
/* Per opcode, the order of XLA's PrintExtraAttributesImpl (hlo_instructions.cc). */
static const struct {
  const char *opcode;
  unsigned char order[16];
} k_orders[] = {
    {"all-gather", {A_CHANNEL, A_GROUPS_RG, A_CONSTRAIN, A_DIMS, A_GLOBAL_IDS, END}},
    {"all-gather-start", {A_CHANNEL, A_GROUPS_RG, A_CONSTRAIN, A_DIMS, A_GLOBAL_IDS, END}},
    {"all-reduce", {A_CHANNEL, A_GROUPS_RG, A_CONSTRAIN, A_GLOBAL_IDS, END}},
    {"all-reduce-start", {A_CHANNEL, A_GROUPS_RG, A_CONSTRAIN, A_GLOBAL_IDS, END}},
    {"all-to-all", {A_CHANNEL, A_GROUPS_RG, A_CONSTRAIN, A_DIMS, END}},
    {"async-start", {A_THREAD, A_ALIASING, END}},
    {"collective-broadcast", {A_CHANNEL, A_GROUPS_RG, A_CONSTRAIN, END}},
    {"collective-permute", {A_CHANNEL, A_PAIRS, END}},
    {"collective-permute-start", {A_CHANNEL, A_PAIRS, END}},
    {"collective-reduce", {A_CHANNEL, A_GROUPS_RG, A_CONSTRAIN, A_GLOBAL_IDS, END}},
    {"convolution", {A_WINDOW, A_DIM_LABELS, A_GROUPS, A_CONV_KIND, A_PRECISION, END}},
    {"custom-call", {A_WINDOW, A_DIM_LABELS, A_GROUPS, A_PRECISION, A_PADDING_TYPE, A_TARGET,
                     A_LAYOUTS, A_SIDE_EFFECT, A_LITERAL, A_ALIASING, A_SCHEDULE, A_API, END}},
    {"dot", {A_DOT, A_PRECISION, END}},
    {"fusion", {A_KIND, A_ALIASING, END}},
    {"gather", {A_GATHER, A_SLICE_SIZES, A_SORTED, END}},
    {"ragged-all-to-all", {A_CHANNEL, A_GROUPS_RG, A_CONSTRAIN, A_DIMS, END}},
    {"ragged-dot", {A_RAGGED, A_PRECISION, END}},
    {"recv", {A_CHANNEL, A_HOST, END}},
    {"recv-done", {A_CHANNEL, A_HOST, END}},
    {"reduce-scatter", {A_CHANNEL, A_GROUPS_RG, A_CONSTRAIN, A_GLOBAL_IDS, A_DIMS, END}},
    {"scaled-dot", {A_DOT, A_PRECISION, END}},
    {"scan", {A_DIMS, A_SCAN, END}},
    {"scatter", {A_SCATTER, A_SORTED, A_UNIQUE, END}},
    {"send", {A_CHANNEL, A_HOST, END}},
    {"send-done", {A_CHANNEL, A_HOST, END}},
    {"sort", {A_DIMS, A_STABLE, END}},
};

/* Everything else, and what an opcode's own order left set. */
static const unsigned char k_default_order[] = {
    A_DIMS, A_INDEX, A_SLICE, A_DSS, A_PADDING, A_WINDOW, A_DIM_LABELS, A_GROUPS, A_CONV_KIND,
    A_DOT, A_RAGGED, A_GATHER, A_SCATTER, A_SLICE_SIZES, A_SORTED, A_UNIQUE, A_PRECISION,
    A_COMPARE, A_KIND, A_TARGET, A_LAYOUTS, A_SIDE_EFFECT, A_LITERAL, A_ALIASING, A_SCHEDULE,
    A_API, A_PADDING_TYPE, A_CHANNEL, A_GROUPS_RG, A_CONSTRAIN, A_GLOBAL_IDS, A_PAIRS, A_BITS,
    A_DISTRIBUTION, A_RNG_ALG, A_FFT, A_BATCH_NORM, A_STABLE, A_HOST, A_DELTA, A_TOPK, A_FEEDS,
    A_THREAD, A_PREFETCH, A_REPLICATION, A_SCAN, A_OPTIONS, A_DOMAIN, END};

static int run(hpr *w, const wp_hpr_comp *c, Xla__HloInstructionProto *r,
               const unsigned char *order, bool *done) {
  for (size_t i = 0; order[i] != END; i++) {
    if (done[order[i]])
      continue;
    done[order[i]] = true;
    if (k_printers[order[i]](w, c, r))
      return -1;
  }
  return 0;
}

int wp_hpr_attrs(hpr *w, const wp_hpr_comp *c, Xla__HloInstructionProto *r) {
  bool done[A_N] = {false};
  for (size_t i = 0; i < sizeof k_orders / sizeof k_orders[0]; i++)
    if (IS(k_orders[i].opcode) && run(w, c, r, k_orders[i].order, done))
      return -1;
  if (run(w, c, r, k_default_order, done))
    return -1;
  /* what every instruction may have, in HloInstruction::PrintExtraAttributes' order */
  if (calls(w, c, r))
    return -1;
  r->n_called_computation_ids = 0;
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
  if (r->n_control_predecessor_ids && control_predecessors(w, c, r))
    return -1;
  if (r->is_composite) /* on an opcode other than call: printed where XLA would */
    wp_hpr_puts(w, ", is_composite=true");
  r->is_composite = false;
  if (wp_hpr_statistics(w, r) || wp_hpr_result_accuracy(w, r) || wp_hpr_origin(w, r))
    return -1;
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
  return w->failed ? -1 : 0;
}
