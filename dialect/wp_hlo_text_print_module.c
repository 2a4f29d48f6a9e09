/* HLO text printer: the `HloModule` line and the stack frame sections, in
 * the order and form of XLA's HloModule::Print (PrintConfig,
 * PrintStackFrameIndex). */
#include "wp_hlo_text_module.h"

#include "wp_pb.h"

#include <stdio.h>
#include <string.h>

static int alias_config(hpr *w, const Xla__Opaque *o) {
  Xla__InputOutputAliasView *v =
      wp_pb_convert(w->arena, &o->base, &xla__input_output_alias_view__descriptor);
  if (!v)
    return wp_hpr_fail(w, "input_output_alias does not read as HloInputOutputAliasProto");
  if (!v->n_entries)
    return 0;
  wp_hpr_puts(w, ", input_output_alias={ ");
  for (size_t i = 0; i < v->n_entries; i++) {
    const Xla__InputOutputAliasView__Entry *e = v->entries[i];
    if (i)
      wp_hpr_puts(w, ", ");
    wp_hpr_int_list(w, e->output_shape_index, e->n_output_shape_index);
    wp_hpr_printf(w, ": (%lld, ", (long long)e->parameter_number);
    wp_hpr_int_list(w, e->parameter_shape_index, e->n_parameter_shape_index);
    wp_hpr_printf(w, ", %s)", e->kind == 2 ? "must-alias" : "may-alias");
    if (e->kind != 1 && e->kind != 2)
      wp_hpr_warn(w, "an alias of kind %d is printed as may-alias", (int)e->kind);
  }
  wp_hpr_puts(w, " }");
  if (v->base.n_unknown_fields)
    wp_hpr_warn(w, "input_output_alias holds fields unknown to weightpack; not printed");
  return 0;
}

static int buffer_donor(hpr *w, const Xla__Opaque *o) {
  Xla__BufferDonorView *v = wp_pb_convert(w->arena, &o->base, &xla__buffer_donor_view__descriptor);
  if (!v)
    return wp_hpr_fail(w, "buffer_donor does not read as HloBufferDonorProto");
  if (v->base.n_unknown_fields)
    wp_hpr_warn(w, "buffer_donor holds fields unknown to weightpack; not printed");
  if (!v->n_entries)
    return 0;
  wp_hpr_puts(w, ", buffer_donor={ ");
  for (size_t i = 0; i < v->n_entries; i++) {
    if (i)
      wp_hpr_puts(w, ", ");
    wp_hpr_printf(w, "(%lld, ", (long long)v->entries[i]->parameter_number);
    wp_hpr_int_list(w, v->entries[i]->parameter_shape_index,
                    v->entries[i]->n_parameter_shape_index);
    wp_hpr_puts(w, ")");
  }
  wp_hpr_puts(w, " }");
  return 0;
}

static int layout(hpr *w, const Xla__ProgramShapeProto *ps) {
  wp_hpr_puts(w, ", entry_computation_layout={(");
  for (size_t i = 0; i < ps->n_parameters; i++) {
    if (i)
      wp_hpr_puts(w, ", ");
    if (wp_hpr_shape(w, ps->parameters[i], true))
      return -1;
  }
  wp_hpr_puts(w, ")->");
  if (!ps->result)
    return wp_hpr_fail(w, "host_program_shape has no result");
  if (wp_hpr_shape(w, ps->result, true))
    return -1;
  wp_hpr_puts(w, "}");
  return 0;
}

/* XLA prints a propagation list unless it is its default {false}. */
static bool list_printed(const protobuf_c_boolean *v, size_t n) { return n != 1 || v[0]; }

static void bool_list(hpr *w, const char *name, const protobuf_c_boolean *v, size_t n) {
  if (!list_printed(v, n))
    return;
  wp_hpr_printf(w, ", %s={", name);
  for (size_t i = 0; i < n; i++)
    wp_hpr_printf(w, "%s%s", i ? "," : "", v[i] ? "true" : "false");
  wp_hpr_puts(w, "}");
}

static Xla__StackFrameIndexView *frames(hpr *w, const Xla__HloModuleProto *m) {
  if (!m->stack_frame_index)
    return NULL;
  return wp_pb_convert(w->arena, &m->stack_frame_index->base,
                       &xla__stack_frame_index_view__descriptor);
}

bool wp_hpr_frames_printed(hpr *w, const Xla__HloModuleProto *m) {
  const Xla__StackFrameIndexView *f = frames(w, m);
  return f && f->n_file_names && !f->base.n_unknown_fields;
}

/* XLA writes the sections only when there are file names. */
static void print_frames(hpr *w, const Xla__HloModuleProto *m) {
  const Xla__StackFrameIndexView *f = frames(w, m);
  if (!f || !f->n_file_names)
    return;
  wp_hpr_puts(w, "\n\nFileNames\n");
  for (size_t i = 0; i < f->n_file_names; i++) {
    wp_hpr_printf(w, "%zu ", i + 1);
    wp_hpr_string(w, f->file_names[i], strlen(f->file_names[i]));
    wp_hpr_puts(w, "\n");
  }
  wp_hpr_puts(w, "\nFunctionNames\n");
  for (size_t i = 0; i < f->n_function_names; i++) {
    wp_hpr_printf(w, "%zu ", i + 1);
    wp_hpr_string(w, f->function_names[i], strlen(f->function_names[i]));
    wp_hpr_puts(w, "\n");
  }
  wp_hpr_puts(w, "\nFileLocations\n");
  for (size_t i = 0; i < f->n_file_locations; i++) {
    const Xla__StackFrameIndexView__FileLocation *l = f->file_locations[i];
    wp_hpr_printf(w, "%zu {file_name_id=%d function_name_id=%d line=%d end_line=%d column=%d "
                  "end_column=%d}\n", i + 1, (int)l->file_name_id, (int)l->function_name_id,
                  (int)l->line, (int)l->end_line, (int)l->column, (int)l->end_column);
    if (l->base.n_unknown_fields)
      wp_hpr_warn(w, "a file location holds fields unknown to weightpack; not printed");
  }
  wp_hpr_puts(w, "\nStackFrames\n");
  for (size_t i = 0; i < f->n_stack_frames; i++) {
    const Xla__StackFrameIndexView__StackFrame *s = f->stack_frames[i];
    wp_hpr_printf(w, "%zu {file_location_id=%d parent_frame_id=%lld}\n", i + 1,
                  (int)s->file_location_id, (long long)s->parent_frame_id + 1);
    if (s->base.n_unknown_fields)
      wp_hpr_warn(w, "a stack frame holds fields unknown to weightpack; not printed");
  }
}

int wp_hpr_module_header(hpr *w, const Xla__HloModuleProto *m,
                         const Xla__HloModuleConfigView *cfg) {
  wp_hpr_puts(w, "HloModule ");
  wp_hpr_name(w, m->name[0] ? m->name : "_", false);
  if (m->schedule)
    wp_hpr_puts(w, ", is_scheduled=true");
  if (m->input_output_alias && alias_config(w, m->input_output_alias))
    return -1;
  if (m->buffer_donor && buffer_donor(w, m->buffer_donor))
    return -1;
  if (cfg && cfg->alias_passthrough_params)
    wp_hpr_puts(w, ", alias_passthrough_params=true");
  if (m->host_program_shape && layout(w, m->host_program_shape))
    return -1;
  if (cfg) {
    bool_list(w, "allow_spmd_sharding_propagation_to_parameters",
              cfg->allow_spmd_sharding_propagation_to_parameters,
              cfg->n_allow_spmd_sharding_propagation_to_parameters);
    bool_list(w, "allow_spmd_sharding_propagation_to_output",
              cfg->allow_spmd_sharding_propagation_to_output,
              cfg->n_allow_spmd_sharding_propagation_to_output);
    if (cfg->replica_count != 1)
      wp_hpr_printf(w, ", replica_count=%lld", (long long)cfg->replica_count);
    if (cfg->num_partitions != 1)
      wp_hpr_printf(w, ", num_partitions=%lld", (long long)cfg->num_partitions);
  }
  if (m->frontend_attributes && m->frontend_attributes->n_map) {
    wp_hpr_puts(w, ", frontend_attributes=");
    wp_hpr_frontend_attributes(w, m->frontend_attributes);
  }
  print_frames(w, m);
  wp_hpr_puts(w, "\n\n");
  return w->failed ? -1 : 0;
}

void wp_hpr_config_leftover(hpr *w, const Xla__HloModuleProto *m,
                            const Xla__HloModuleConfigView *cfg) {
  if (!cfg)
    return;
  Xla__HloModuleConfigView r = *cfg;
  (void)m; /* the layout is printed from the module's host program shape,
            * which export keeps equal to it */
  r.entry_computation_layout = NULL;
  r.replica_count = r.num_partitions = 0;
  r.alias_passthrough_params = false;
  if (r.use_spmd_partitioning == (cfg->num_partitions != 1)) /* the reader derives it */
    r.use_spmd_partitioning = false;
  r.n_allow_spmd_sharding_propagation_to_parameters = 0;
  r.n_allow_spmd_sharding_propagation_to_output = 0;
  wp_hpr_leftover(w, &r.base, "module config");
}
