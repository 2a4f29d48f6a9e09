/* HLO text reader: the `HloModule` line (name, settings) and the stack
 * frame sections XLA writes after it. The settings HloModuleProto has no
 * field for (replica_count, num_partitions, alias_passthrough_params, the
 * SPMD propagation lists) become an HloModuleConfigProto, as XLA's parser
 * puts them in the module's HloModuleConfig. */
#include "wp_hlo_text_module.h"

#include "wp_pb.h"

#include <string.h>

/* ---- aliasing and donors ---- */

/* {output index}: (parameter, {parameter index}[, may-alias|must-alias]) */
static int alias_item(htp *p, void *ctx) {
  Xla__InputOutputAliasView__Entry *e =
      wp_pb_new(p->arena, &xla__input_output_alias_view__entry__descriptor);
  if (wp_htp_shape_index(p, &e->output_shape_index, &e->n_output_shape_index) ||
      wp_htp_expect(p, ":") || wp_htp_expect(p, "(") || wp_htp_int(p, &e->parameter_number) ||
      wp_htp_expect(p, ",") ||
      wp_htp_shape_index(p, &e->parameter_shape_index, &e->n_parameter_shape_index))
    return -1;
  e->kind = 1; /* may-alias when not written, as XLA */
  if (wp_htp_accept(p, ",")) {
    if (wp_htp_accept_word(p, "must-alias"))
      e->kind = 2;
    else if (!wp_htp_accept_word(p, "may-alias"))
      return wp_htp_fail(p, p->pos, "expected may-alias or must-alias");
  }
  if (wp_htp_expect(p, ")"))
    return -1;
  wp_htp_vec_push(p, ctx, &e);
  return 0;
}

/* (parameter, {parameter index}) */
static int donor_item(htp *p, void *ctx) {
  Xla__BufferDonorView__Entry *e = wp_pb_new(p->arena, &xla__buffer_donor_view__entry__descriptor);
  if (wp_htp_expect(p, "(") || wp_htp_int(p, &e->parameter_number) || wp_htp_expect(p, ",") ||
      wp_htp_shape_index(p, &e->parameter_shape_index, &e->n_parameter_shape_index) ||
      wp_htp_expect(p, ")"))
    return -1;
  wp_htp_vec_push(p, ctx, &e);
  return 0;
}

/* input_output_alias={...} or buffer_donor={...} (DONORS): a list of
 * entries, kept as the module's view message. */
static int aliasing(htp *p, wp_htp_module *mod, bool donors) {
  Xla__InputOutputAliasView alias = XLA__INPUT_OUTPUT_ALIAS_VIEW__INIT;
  Xla__BufferDonorView donor = XLA__BUFFER_DONOR_VIEW__INIT;
  wp_htp_vec entries =
      donors ? (wp_htp_vec){(void **)&donor.entries, &donor.n_entries, 0, sizeof *donor.entries}
             : (wp_htp_vec){(void **)&alias.entries, &alias.n_entries, 0, sizeof *alias.entries};
  if (wp_htp_list(p, "{", "}", ",", 0, donors ? donor_item : alias_item, &entries))
    return -1;
  if (donors)
    mod->msg->buffer_donor = wp_htp_opaque(p, &donor.base);
  else
    mod->msg->input_output_alias = wp_htp_opaque(p, &alias.base);
  return 0;
}

static int bool_item(htp *p, void *ctx) {
  bool b;
  if (wp_htp_bool(p, &b))
    return -1;
  wp_htp_vec_push(p, ctx, &b);
  return 0;
}

/* `{true,false}` (possibly empty) or one bare `true`/`false`, as XLA's
 * kBracedBoolListOrBool. */
static int bool_list(htp *p, bool **out, size_t *n) {
  *n = 0;
  wp_htp_vec v = {(void **)out, n, 0, sizeof **out};
  if (wp_htp_peek(p) != '{')
    return bool_item(p, &v);
  return wp_htp_list(p, "{", "}", ",", 0, bool_item, &v);
}

/* ---- the settings ---- */

enum header_attr {
  H_SCHEDULED, H_LAYOUT, H_ALIAS, H_DONOR, H_PASSTHROUGH, H_TO_PARAMETERS, H_TO_OUTPUT,
  H_REPLICAS, H_PARTITIONS, H_FRONTEND, H_COUNT
};

static const char *const header_names[H_COUNT] = {
    "is_scheduled", "entry_computation_layout", "input_output_alias", "buffer_donor",
    "alias_passthrough_params", "allow_spmd_sharding_propagation_to_parameters",
    "allow_spmd_sharding_propagation_to_output", "replica_count", "num_partitions",
    "frontend_attributes"};

/* A name of NAMES (N of them, at most 32) not in *SEEN, which it joins:
 * its index in *K and where it starts in *AT. WHAT names them in errors. */
static int name_once(htp *p, const char *const *names, size_t n_names, const char *what,
                     unsigned *seen, size_t *k, size_t *at) {
  wp_htp_skip(p);
  *at = p->pos;
  const char *w;
  size_t n = wp_htp_ident(p, &w);
  for (*k = 0; *k < n_names; ++*k)
    if (strlen(names[*k]) == n && !memcmp(names[*k], w, n))
      break;
  if (*k == n_names)
    return wp_htp_fail(p, *at, "unexpected %s '%.*s'", what, (int)n, w);
  if (*seen & (1u << *k))
    return wp_htp_fail(p, *at, "attribute %s already exists", names[*k]);
  *seen |= 1u << *k;
  return 0;
}

static int header_attribute(htp *p, wp_htp_module *mod, unsigned *seen) {
  size_t k, at;
  if (name_once(p, header_names, H_COUNT, "module attribute", seen, &k, &at) ||
      wp_htp_expect(p, "="))
    return -1;
  wp_htp_settings *s = &mod->settings;
  switch ((enum header_attr)k) {
  case H_SCHEDULED:
    return wp_htp_bool(p, &mod->scheduled);
  case H_LAYOUT:
    mod->layout_at = at;
    return wp_htp_expect(p, "{") || wp_htp_program_shape(p, &mod->layout) || wp_htp_expect(p, "}")
               ? -1
               : 0;
  case H_ALIAS:
  case H_DONOR:
    return aliasing(p, mod, k == H_DONOR);
  case H_PASSTHROUGH:
    return wp_htp_bool(p, &s->alias_passthrough);
  case H_TO_PARAMETERS:
    return bool_list(p, &s->to_parameters, &s->n_to_parameters);
  case H_TO_OUTPUT:
    return bool_list(p, &s->to_output, &s->n_to_output);
  case H_REPLICAS:
    return wp_htp_int(p, &s->replica_count);
  case H_PARTITIONS:
    return wp_htp_int(p, &s->num_partitions);
  default:
    return wp_htp_frontend_attributes(p, &mod->msg->frontend_attributes);
  }
}

/* A list XLA's printer writes: anything but its default {false}. */
static bool list_printed(const bool *v, size_t n) { return n != 1 || v[0]; }

static void default_list(htp *p, protobuf_c_boolean **v, size_t *n, const bool *written,
                         size_t n_written) {
  *n = n_written ? n_written : 1;
  *v = wp_arena_alloc(p->arena, *n * sizeof **v);
  for (size_t i = 0; i < *n; i++)
    (*v)[i] = n_written ? written[i] : 0;
}

Xla__HloModuleConfigView *wp_htp_module_config(htp *p, const wp_htp_module *mod) {
  const wp_htp_settings *s = &mod->settings;
  bool to_params = s->n_to_parameters && list_printed(s->to_parameters, s->n_to_parameters);
  bool to_output = s->n_to_output && list_printed(s->to_output, s->n_to_output);
  if (!s->alias_passthrough && s->replica_count == 1 && s->num_partitions == 1 && !to_params &&
      !to_output)
    return NULL;
  /* what HloModuleConfig::ToProto writes for these (its lists default to
   * {false}), the layout being the module's */
  Xla__HloModuleConfigView *c = wp_pb_new(p->arena, &xla__hlo_module_config_view__descriptor);
  c->entry_computation_layout = mod->msg->host_program_shape;
  c->replica_count = s->replica_count;
  c->num_partitions = s->num_partitions;
  c->use_spmd_partitioning = s->num_partitions != 1; /* as XLA's parser sets it */
  c->alias_passthrough_params = s->alias_passthrough;
  default_list(p, &c->allow_spmd_sharding_propagation_to_parameters,
               &c->n_allow_spmd_sharding_propagation_to_parameters, s->to_parameters,
               s->n_to_parameters);
  default_list(p, &c->allow_spmd_sharding_propagation_to_output,
               &c->n_allow_spmd_sharding_propagation_to_output, s->to_output, s->n_to_output);
  return c;
}

/* ---- stack frames ---- */

/* Lines `N item` while a number comes next: the numbers are positions,
 * which XLA does not check. */
static int numbered_lines(htp *p, wp_htp_item_fn item, void *ctx) {
  int64_t index;
  while (wp_htp_peek(p) >= '0' && wp_htp_peek(p) <= '9')
    if (wp_htp_int(p, &index) || item(p, ctx))
      return -1;
  return 0;
}

static int name_item(htp *p, void *ctx) {
  char *s;
  if (wp_htp_string(p, &s, NULL, false))
    return -1;
  wp_htp_vec_push(p, ctx, &s);
  return 0;
}

/* `N "text"` lines. */
static int name_list(htp *p, char ***names, size_t *n) {
  wp_htp_vec v = {(void **)names, n, 0, sizeof **names};
  return numbered_lines(p, name_item, &v);
}

/* `{name=int ...}` (commas optional), each of NAMES exactly once, into
 * VALS as int32. */
static int int32_fields(htp *p, const char *const *names, size_t n_names, int32_t *vals) {
  unsigned seen = 0;
  size_t open = p->pos;
  if (wp_htp_expect(p, "{"))
    return -1;
  while (!wp_htp_accept(p, "}")) {
    wp_htp_accept(p, ",");
    size_t k, at;
    if (name_once(p, names, n_names, "attribute", &seen, &k, &at))
      return -1;
    int64_t v;
    wp_htp_skip(p);
    size_t vat = p->pos;
    if (wp_htp_expect(p, "=") || wp_htp_int(p, &v))
      return -1;
    if (v < INT32_MIN || v > INT32_MAX)
      return wp_htp_fail(p, vat, "value out of range for int32_t");
    vals[k] = (int32_t)v;
  }
  for (size_t k = 0; k < n_names; k++)
    if (!(seen & (1u << k)))
      return wp_htp_fail(p, open, "attribute %s is expected but not seen", names[k]);
  return 0;
}

static int file_location_item(htp *p, void *ctx) {
  static const char *const names[] = {"file_name_id", "function_name_id", "line",
                                      "end_line",     "column",           "end_column"};
  int32_t v[6];
  if (int32_fields(p, names, 6, v))
    return -1;
  Xla__StackFrameIndexView__FileLocation *l =
      wp_pb_new(p->arena, &xla__stack_frame_index_view__file_location__descriptor);
  l->file_name_id = v[0];
  l->function_name_id = v[1];
  l->line = v[2];
  l->end_line = v[3];
  l->column = v[4];
  l->end_column = v[5];
  wp_htp_vec_push(p, ctx, &l);
  return 0;
}

static int stack_frame_item(htp *p, void *ctx) {
  static const char *const names[] = {"file_location_id", "parent_frame_id"};
  int32_t v[2];
  if (int32_fields(p, names, 2, v))
    return -1;
  Xla__StackFrameIndexView__StackFrame *s =
      wp_pb_new(p->arena, &xla__stack_frame_index_view__stack_frame__descriptor);
  s->file_location_id = v[0];
  s->parent_frame_id = (int32_t)((int64_t)v[1] - 1); /* the text counts from 1 */
  wp_htp_vec_push(p, ctx, &s);
  return 0;
}

static int expect_section(htp *p, const char *word) {
  wp_htp_skip(p);
  if (wp_htp_accept_word(p, word))
    return 0;
  return wp_htp_fail(p, p->pos, "expects '%s'", word);
}

/* FileNames ... FunctionNames ... FileLocations ... StackFrames ...: the
 * module's StackFrameIndexProto, in XLA's order. */
static int frame_sections(htp *p, wp_htp_module *mod) {
  if (!wp_htp_accept_word(p, "FileNames"))
    return 0;
  Xla__StackFrameIndexView *f = wp_pb_new(p->arena, &xla__stack_frame_index_view__descriptor);
  wp_htp_vec locations = {(void **)&f->file_locations, &f->n_file_locations, 0,
                          sizeof *f->file_locations};
  wp_htp_vec frames = {(void **)&f->stack_frames, &f->n_stack_frames, 0, sizeof *f->stack_frames};
  if (name_list(p, &f->file_names, &f->n_file_names) || expect_section(p, "FunctionNames") ||
      name_list(p, &f->function_names, &f->n_function_names) ||
      expect_section(p, "FileLocations") || numbered_lines(p, file_location_item, &locations) ||
      expect_section(p, "StackFrames") || numbered_lines(p, stack_frame_item, &frames))
    return -1;
  mod->frames = f;
  mod->msg->stack_frame_index = wp_htp_opaque(p, &f->base);
  return 0;
}

int wp_htp_module_header(htp *p, wp_htp_module *mod) {
  mod->settings.replica_count = mod->settings.num_partitions = 1;
  if (wp_htp_name(p, &mod->msg->name))
    return -1;
  /* XLA's lexer reads `name:` as a name too */
  if (p->pos < p->len && p->src[p->pos] == ':')
    p->pos++;
  unsigned seen = 0;
  while (wp_htp_accept(p, ","))
    if (header_attribute(p, mod, &seen))
      return -1;
  return frame_sections(p, mod);
}
