/* The printer's values: names, strings, shapes with their layouts
 * (literals: wp_hlo_text_print_literal.c). */
#include "wp_hlo_text_print_internal.h"

#include "wp_hlo_text_common.h"
#include "wp_hlo_types.h"
#include "wp_jsonw.h"
#include "wp_pb.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool identifier(const char *s) {
  if (!(isalpha((unsigned char)s[0]) || s[0] == '_'))
    return false;
  for (const char *c = s; *c; c++)
    if (!(isalnum((unsigned char)*c) || *c == '_' || *c == '.' || *c == '-') ||
        (c[0] == '-' && c[1] == '>'))
      return false;
  return true;
}

void wp_hpr_name(hpr *w, const char *name, bool percent) {
  if (percent)
    wp_hpr_putn(w, "%", 1);
  if (identifier(name))
    wp_hpr_puts(w, name);
  else
    wp_hpr_string(w, name, strlen(name));
}

void wp_hpr_string(hpr *w, const char *s, size_t n) {
  /* UTF-8 text stays readable; other bytes (a backend_config's binary)
   * are escaped, so the output is always UTF-8 */
  bool utf8 = wp_utf8_valid(s, n);
  wp_hpr_putn(w, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    switch (c) {
    case '\n': wp_hpr_puts(w, "\\n"); break;
    case '\r': wp_hpr_puts(w, "\\r"); break;
    case '\t': wp_hpr_puts(w, "\\t"); break;
    case '"': wp_hpr_puts(w, "\\\""); break;
    case '\'': wp_hpr_puts(w, "\\'"); break;
    case '\\': wp_hpr_puts(w, "\\\\"); break;
    default:
      if (c < 0x20 || c == 0x7f || (c >= 0x80 && !utf8))
        wp_hpr_printf(w, "\\%03o", c);
      else
        wp_hpr_putn(w, (const char *)&c, 1); /* UTF-8 bytes stay as they are */
    }
  }
  wp_hpr_putn(w, "\"", 1);
}

void wp_hpr_int_list(hpr *w, const int64_t *v, size_t n) {
  wp_hpr_putn(w, "{", 1);
  for (size_t i = 0; i < n; i++)
    wp_hpr_printf(w, "%s%lld", i ? "," : "", (long long)v[i]);
  wp_hpr_putn(w, "}", 1);
}

/* ---- shapes ---- */

static int layout(hpr *w, const Xla__ShapeProto *s) {
  Xla__LayoutView *lv = wp_pb_convert(w->arena, &s->layout->base, &xla__layout_view__descriptor);
  if (!lv)
    return wp_hpr_fail(w, "a layout that does not read as LayoutProto");
  if (lv->base.n_unknown_fields)
    wp_hpr_warn(w, "a layout holds fields unknown to weightpack; they are not printed");
  size_t mark = w->len;
  wp_hpr_putn(w, "{", 1);
  for (size_t i = 0; i < lv->n_minor_to_major; i++)
    wp_hpr_printf(w, "%s%lld", i ? "," : "", (long long)lv->minor_to_major[i]);
  size_t colon = w->len;
  wp_hpr_putn(w, ":", 1);
  size_t parts = w->len;
  if (lv->n_dim_level_types) {
    wp_hpr_puts(w, "D(");
    for (size_t i = 0; i < lv->n_dim_level_types; i++) {
      const char *t = wp_hlo_text_enum_name(wp_hlo_text_dim_level_types, lv->dim_level_types[i]);
      wp_hpr_printf(w, "%s%s", i ? "," : "", t ? t : "D");
      if (i < lv->n_dim_unique && !lv->dim_unique[i])
        wp_hpr_puts(w, "+");
      if (i < lv->n_dim_ordered && !lv->dim_ordered[i])
        wp_hpr_puts(w, "~");
    }
    wp_hpr_puts(w, ")");
  }
  if (lv->n_tiles) {
    wp_hpr_puts(w, "T");
    for (size_t i = 0; i < lv->n_tiles; i++) {
      wp_hpr_puts(w, "(");
      for (size_t k = 0; k < lv->tiles[i]->n_dimensions; k++) {
        int64_t d = lv->tiles[i]->dimensions[k];
        if (d == INT64_MIN)
          wp_hpr_printf(w, "%s*", k ? "," : "");
        else
          wp_hpr_printf(w, "%s%lld", k ? "," : "", (long long)d);
      }
      wp_hpr_puts(w, ")");
    }
  }
  /* 0 is the field's absence, XLA's 1; anything else (a negative value
   * only comes from a proto) is printed, as XLA prints what is not 1 */
  if (lv->tail_padding_alignment_in_elements != 0 && lv->tail_padding_alignment_in_elements != 1)
    wp_hpr_printf(w, "L(%lld)", (long long)lv->tail_padding_alignment_in_elements);
  if (lv->index_primitive_type)
    wp_hpr_printf(w, "#(%s)", wp_hlo_text_prim_name(lv->index_primitive_type)
                               ? wp_hlo_text_prim_name(lv->index_primitive_type) : "invalid");
  if (lv->pointer_primitive_type)
    wp_hpr_printf(w, "*(%s)", wp_hlo_text_prim_name(lv->pointer_primitive_type)
                               ? wp_hlo_text_prim_name(lv->pointer_primitive_type) : "invalid");
  if (lv->element_size_in_bits)
    wp_hpr_printf(w, "E(%lld)", (long long)lv->element_size_in_bits);
  if (lv->memory_space)
    wp_hpr_printf(w, "S(%lld)", (long long)lv->memory_space);
  for (size_t i = 0; i < lv->n_split_configs; i++) {
    wp_hpr_printf(w, "SC(%lld:", (long long)lv->split_configs[i]->dimension);
    for (size_t k = 0; k < lv->split_configs[i]->n_split_indices; k++)
      wp_hpr_printf(w, "%s%lld", k ? "," : "", (long long)lv->split_configs[i]->split_indices[k]);
    wp_hpr_puts(w, ")");
  }
  if (lv->physical_shape) {
    wp_hpr_puts(w, "P(");
    if (wp_hpr_shape(w, lv->physical_shape, true))
      return -1;
    wp_hpr_puts(w, ")");
  }
  if (lv->dynamic_shape_metadata_prefix_bytes)
    wp_hpr_printf(w, "M(%lld)", (long long)lv->dynamic_shape_metadata_prefix_bytes);
  if (w->len == parts) /* nothing after ':' */
    w->len = colon;
  wp_hpr_putn(w, "}", 1);
  /* a scalar's "{}" says nothing XLA's reader would not assume */
  if (s->n_dimensions == 0 && w->len == mark + 2)
    w->len = mark;
  w->buf[w->len] = 0;
  return 0;
}

int wp_hpr_shape(hpr *w, const Xla__ShapeProto *s, bool with_layout) {
  if (s->element_type == WP_TUPLE) {
    wp_hpr_putn(w, "(", 1);
    for (size_t i = 0; i < s->n_tuple_shapes; i++) {
      if (i)
        wp_hpr_puts(w, ", ");
      if (i && i % 5 == 0) /* as XLA marks long tuples */
        wp_hpr_printf(w, "/*index=%zu*/", i);
      if (wp_hpr_shape(w, s->tuple_shapes[i], with_layout))
        return -1;
    }
    wp_hpr_putn(w, ")", 1);
    return 0;
  }
  const char *name = wp_hlo_text_prim_name(s->element_type);
  if (!name)
    return wp_hpr_fail(w, "element type %d has no name in HLO text", (int)s->element_type);
  wp_hpr_puts(w, name);
  wp_hpr_putn(w, "[", 1);
  for (size_t i = 0; i < s->n_dimensions; i++) {
    bool dyn = i < s->n_is_dynamic_dimension && s->is_dynamic_dimension[i];
    if (i)
      wp_hpr_putn(w, ",", 1);
    if (dyn && s->dimensions[i] == INT64_MIN)
      wp_hpr_putn(w, "?", 1);
    else
      wp_hpr_printf(w, "%s%lld", dyn ? "<=" : "", (long long)s->dimensions[i]);
  }
  wp_hpr_putn(w, "]", 1);
  if (with_layout && s->layout && s->element_type != WP_TOKEN && s->element_type != WP_OPAQUE)
    return layout(w, s);
  return 0;
}
