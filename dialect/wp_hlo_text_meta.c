/* metadata={op_type="..." op_name="..." source_file="..." source_line=N}
 * (xla.OpMetadata) and frontend_attributes={key="value",k2={json}}. */
#include "wp_hlo_text_internal.h"

#include "wp_pb.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

enum { M_STR, M_INT32, M_BOOL, M_PROFILE };

typedef struct meta_key {
  int kind;
  size_t offset;
} meta_key;

#define OFF(f) offsetof(Xla__OpMetadataView, f)
static const char *const k_names[] = {
    "op_type", "op_name", "source_file", "source_line", "source_end_line", "source_column",
    "source_end_column", "profile_type", "deduplicated_name", "preserve_layout",
    "scheduling_name", "stack_frame_id", NULL};
static const meta_key k_keys[] = {
    {M_STR, OFF(op_type)},
    {M_STR, OFF(op_name)},
    {M_STR, OFF(source_file)},
    {M_INT32, OFF(source_line)},
    {M_INT32, OFF(source_end_line)},
    {M_INT32, OFF(source_column)},
    {M_INT32, OFF(source_end_column)},
    {M_PROFILE, 0},
    {M_STR, OFF(deduplicated_name)},
    {M_BOOL, OFF(preserve_layout)},
    {M_STR, OFF(scheduling_name)},
    {M_INT32, OFF(stack_frame_id)},
};
#undef OFF

/* XLA marks profile_type deprecated; its text form still carries it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static int profile_types(htp *p, Xla__OpMetadataView *m) {
  int64_t *v;
  size_t n, at;
  if (wp_htp_int_list_at(p, &v, &n, &at))
    return -1;
  m->n_profile_type = n;
  m->profile_type = wp_arena_alloc(p->arena, (n + 1) * sizeof *m->profile_type);
  for (size_t i = 0; i < n; i++) {
    if (v[i] < 0 || v[i] > 3) /* ProfileType: INVALID WINDOW FLAG INTEGER */
      return wp_htp_fail(p, at, "profile_type %lld is not a ProfileType (0 to 3)",
                         (long long)v[i]);
    m->profile_type[i] = (int32_t)v[i];
  }
  return 0;
}
#pragma GCC diagnostic pop

static int meta_field(htp *p, void *ctx, size_t k, size_t at) {
  Xla__OpMetadataView *m = ctx;
  void *field = (char *)m + k_keys[k].offset;
  (void)at;
  switch (k_keys[k].kind) {
  case M_STR:
    return wp_htp_string(p, (char **)field, NULL, false);
  case M_PROFILE:
    return profile_types(p, m);
  case M_BOOL: {
    bool b;
    if (wp_htp_bool(p, &b))
      return -1;
    *(protobuf_c_boolean *)field = b;
    return 0;
  }
  default:
    return wp_htp_int32(p, (int32_t *)field);
  }
}

int wp_htp_metadata(htp *p, Xla__Opaque **out) {
  Xla__OpMetadataView *m = wp_pb_new(p->arena, &xla__op_metadata_view__descriptor);
  if (wp_htp_sub_attributes(p, "metadata", k_names, meta_field, m, NULL))
    return -1;
  *out = wp_htp_opaque(p, &m->base);
  return 0;
}

/* A key: an identifier, or a quoted string (keys XLA's lexer cannot
 * spell, which weightpack's printer quotes). */
static int attr_key(htp *p, char **out) {
  wp_htp_skip(p);
  if (wp_htp_peek(p) == '"')
    return wp_htp_string(p, out, NULL, false);
  const char *w;
  size_t n = wp_htp_ident(p, &w);
  if (!n)
    return wp_htp_fail(p, p->pos, "expected an attribute name");
  *out = wp_arena_strndup(p->arena, w, n);
  return 0;
}

typedef struct fa_ctx {
  Xla__FrontendAttributes *fa;
  wp_htp_vec vec;
} fa_ctx;

static int fa_item(htp *p, void *ctx) {
  fa_ctx *c = ctx;
  Xla__FrontendAttributes__Attr *a =
      wp_pb_new(p->arena, &xla__frontend_attributes__attr__descriptor);
  wp_htp_skip(p);
  size_t at = p->pos;
  if (attr_key(p, &a->key) || wp_htp_expect(p, "="))
    return -1;
  for (size_t i = 0; i < c->fa->n_map; i++)
    if (!strcmp(c->fa->map[i]->key, a->key))
      return wp_htp_fail(p, at, "frontend attribute '%s' given twice", a->key);
  size_t n;
  if (wp_htp_peek(p) == '{' ? wp_htp_json(p, &a->value, &n)
                            : wp_htp_string(p, &a->value, NULL, false))
    return -1;
  wp_htp_vec_push(p, &c->vec, &a);
  return 0;
}

int wp_htp_frontend_attributes(htp *p, Xla__FrontendAttributes **out) {
  Xla__FrontendAttributes *fa = wp_pb_new(p->arena, &xla__frontend_attributes__descriptor);
  fa_ctx c = {fa, {(void **)&fa->map, &fa->n_map, 0, sizeof *fa->map}};
  if (wp_htp_list(p, "{", "}", ",", 0, fa_item, &c))
    return -1;
  *out = fa;
  return 0;
}
