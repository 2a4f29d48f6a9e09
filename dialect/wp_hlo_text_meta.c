/* metadata={op_type="..." op_name="..." source_file="..." source_line=N}
 * (xla.OpMetadata) and frontend_attributes={key="value",k2={json}}. */
#include "wp_hlo_text_internal.h"

#include "wp_pb.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

enum { M_STR, M_INT32, M_BOOL };

typedef struct meta_key {
  const char *name;
  int kind;
  size_t offset;
} meta_key;

#define OFF(f) offsetof(Xla__OpMetadataView, f)
static const meta_key k_keys[] = {
    {"op_type", M_STR, OFF(op_type)},
    {"op_name", M_STR, OFF(op_name)},
    {"source_file", M_STR, OFF(source_file)},
    {"source_line", M_INT32, OFF(source_line)},
    {"source_end_line", M_INT32, OFF(source_end_line)},
    {"source_column", M_INT32, OFF(source_column)},
    {"source_end_column", M_INT32, OFF(source_end_column)},
    {"deduplicated_name", M_STR, OFF(deduplicated_name)},
    {"preserve_layout", M_BOOL, OFF(preserve_layout)},
    {"scheduling_name", M_STR, OFF(scheduling_name)},
    {"stack_frame_id", M_INT32, OFF(stack_frame_id)},
};
#undef OFF

int wp_htp_metadata(htp *p, Xla__Opaque **out) {
  Xla__OpMetadataView *m = wp_pb_new(p->arena, &xla__op_metadata_view__descriptor);
  unsigned seen = 0;
  if (wp_htp_expect(p, "{"))
    return -1;
  while (wp_htp_peek(p) != '}') {
    wp_htp_skip(p);
    size_t at = p->pos;
    const char *w;
    size_t n = wp_htp_ident(p, &w), k;
    for (k = 0; k < sizeof k_keys / sizeof k_keys[0]; k++)
      if (strlen(k_keys[k].name) == n && !memcmp(k_keys[k].name, w, n))
        break;
    if (k == sizeof k_keys / sizeof k_keys[0]) {
      if (!n)
        return wp_htp_expect(p, "}");
      return wp_htp_fail(p, at, "unknown or unsupported metadata field '%.*s'", (int)n, w);
    }
    if (seen & (1u << k))
      return wp_htp_fail(p, at, "metadata field '%s' given twice", k_keys[k].name);
    seen |= 1u << k;
    if (wp_htp_expect(p, "="))
      return -1;
    void *field = (char *)m + k_keys[k].offset;
    if (k_keys[k].kind == M_STR) {
      if (wp_htp_string(p, (char **)field, NULL, false))
        return -1;
    } else if (k_keys[k].kind == M_BOOL) {
      bool b;
      if (wp_htp_bool(p, &b))
        return -1;
      *(protobuf_c_boolean *)field = b;
    } else {
      int64_t v;
      wp_htp_skip(p);
      size_t vat = p->pos;
      if (wp_htp_int(p, &v))
        return -1;
      if (v < INT32_MIN || v > INT32_MAX)
        return wp_htp_fail(p, vat, "%s is an int32", k_keys[k].name);
      *(int32_t *)field = (int32_t)v;
    }
    wp_htp_accept(p, ","); /* XLA separates fields with blanks; commas are harmless */
  }
  if (wp_htp_expect(p, "}"))
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

int wp_htp_frontend_attributes(htp *p, Xla__FrontendAttributes **out) {
  Xla__FrontendAttributes *fa = wp_pb_new(p->arena, &xla__frontend_attributes__descriptor);
  size_t cap = 0;
  if (wp_htp_expect(p, "{"))
    return -1;
  if (!wp_htp_accept(p, "}")) {
    do {
      Xla__FrontendAttributes__Attr *a =
          wp_pb_new(p->arena, &xla__frontend_attributes__attr__descriptor);
      wp_htp_skip(p);
      size_t at = p->pos;
      if (attr_key(p, &a->key) || wp_htp_expect(p, "="))
        return -1;
      for (size_t i = 0; i < fa->n_map; i++)
        if (!strcmp(fa->map[i]->key, a->key))
          return wp_htp_fail(p, at, "frontend attribute '%s' given twice", a->key);
      size_t n;
      if (wp_htp_peek(p) == '{' ? wp_htp_json(p, &a->value, &n)
                                : wp_htp_string(p, &a->value, NULL, false))
        return -1;
      WP_HTP_PUSH(p, fa->map, fa->n_map, cap, a);
    } while (wp_htp_accept(p, ","));
    if (wp_htp_expect(p, "}"))
      return -1;
  }
  *out = fa;
  return 0;
}
