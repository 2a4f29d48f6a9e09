/* The printer's values: names, strings, shapes with their layouts, and
 * literals (read from the physical order XLA stores them in). */
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
  if (lv->tail_padding_alignment_in_elements > 1)
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

/* ---- literals ---- */

/* The elements of LIT as little-endian bytes of INFO->bytes each, in the
 * stored order; NULL when its data field does not hold COUNT of them. */
static const unsigned char *literal_bytes(hpr *w, const Xla__LiteralProto *lit,
                                          const wp_hlo_prim *info, uint64_t count) {
  const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field(
      &xla__literal_proto__descriptor, (unsigned)info->literal_field);
  const char *base = (const char *)lit;
  if (info->xla == WP_PRED) {
    if (lit->n_preds != count)
      return NULL;
    if (w->checking) /* the elements are not printed */
      return (const unsigned char *)"";
    unsigned char *b = wp_arena_alloc_big(w->arena, count ? count : 1);
    for (uint64_t i = 0; b && i < count; i++)
      b[i] = lit->preds[i] != 0;
    return b;
  }
  if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
    size_t per = info->xla == WP_C64 || info->xla == WP_C128 ? 2 : 1;
    size_t n = *(const size_t *)(base + fd->quantifier_offset);
    if (n != count * per)
      return NULL;
    /* the arrays hold native values: this is a little-endian host */
    const unsigned char *v = *(const unsigned char *const *)(base + fd->offset);
    return v ? v : (const unsigned char *)"";
  }
  const ProtobufCBinaryData *b = (const ProtobufCBinaryData *)(base + fd->offset);
  if (b->len != count * (uint64_t)info->bytes)
    return NULL;
  return b->data ? b->data : (const unsigned char *)"";
}

static void element(hpr *w, int prim, const wp_hlo_prim *info, const unsigned char *e) {
  uint64_t v = 0;
  char buf[64];
  if (prim == WP_C64 || prim == WP_C128) {
    int half = info->bytes / 2, part = prim == WP_C64 ? WP_F32 : WP_F64;
    uint64_t re = 0, im = 0;
    for (int i = 0; i < half; i++) {
      re |= (uint64_t)e[i] << (8 * i);
      im |= (uint64_t)e[half + i] << (8 * i);
    }
    wp_hlo_text_float_str(part, re, buf, sizeof buf);
    wp_hpr_printf(w, "(%s, ", buf);
    wp_hlo_text_float_str(part, im, buf, sizeof buf);
    wp_hpr_printf(w, "%s)", buf);
    return;
  }
  for (int i = 0; i < info->bytes; i++)
    v |= (uint64_t)e[i] << (8 * i);
  if (prim == WP_PRED) {
    wp_hpr_puts(w, v ? "true" : "false");
  } else if (wp_hlo_text_is_float(prim)) {
    wp_hlo_text_float_str(prim, v, buf, sizeof buf);
    wp_hpr_puts(w, buf);
  } else {
    int bits = prim == WP_S1 || prim == WP_U1 ? 1 : prim == WP_S2 || prim == WP_U2 ? 2
             : prim == WP_S4 || prim == WP_U4 ? 4 : info->bytes * 8;
    if (bits < 64)
      v &= ((uint64_t)1 << bits) - 1;
    if (info->name[0] == 's' && bits < 64 && (v >> (bits - 1)) & 1)
      v |= ~(((uint64_t)1 << bits) - 1); /* sign-extend */
    if (info->name[0] == 's')
      wp_hpr_printf(w, "%lld", (long long)(int64_t)v);
    else
      wp_hpr_printf(w, "%llu", (unsigned long long)v);
  }
}

/* The physical position of each dimension's step: the layout's
 * minor_to_major when it is a permutation, else row-major. */
static void strides(const Xla__ShapeProto *s, const Xla__LayoutView *lv, uint64_t *st) {
  size_t rank = s->n_dimensions;
  bool perm = lv && lv->n_minor_to_major == rank;
  for (size_t i = 0; perm && i < rank; i++) {
    int64_t d = lv->minor_to_major[i];
    perm = d >= 0 && (size_t)d < rank;
    for (size_t k = 0; perm && k < i; k++)
      perm = lv->minor_to_major[k] != d;
  }
  uint64_t step = 1;
  for (size_t i = 0; i < rank; i++) {
    size_t d = perm ? (size_t)lv->minor_to_major[i] : rank - 1 - i;
    st[d] = step;
    step *= (uint64_t)s->dimensions[d];
  }
}

static int array(hpr *w, const Xla__LiteralProto *lit, const Xla__ShapeProto *s) {
  const wp_hlo_prim *info = wp_hlo_prim_info(s->element_type);
  if (!info)
    return wp_hpr_fail(w, "a literal of element type %d", (int)s->element_type);
  size_t rank = s->n_dimensions;
  uint64_t count = 1;
  for (size_t i = 0; i < rank; i++) {
    if (s->dimensions[i] < 0)
      return wp_hpr_fail(w, "a literal with a dynamic dimension");
    count *= (uint64_t)s->dimensions[i];
  }
  const unsigned char *data = literal_bytes(w, lit, info, count);
  if (!data) {
    wp_hpr_warn(w, "a literal does not hold the %llu elements of its shape; printed as {...}",
             (unsigned long long)count);
    wp_hpr_puts(w, rank ? "{...}" : "0");
    return 0;
  }
  if (rank == 0) {
    element(w, s->element_type, info, data);
    return 0;
  }
  if (w->checking) /* nothing below fails or warns */
    return 0;
  const Xla__ShapeProto *ls = lit->shape && lit->shape->n_dimensions == rank ? lit->shape : s;
  Xla__LayoutView *lv =
      ls->layout ? wp_pb_convert(w->arena, &ls->layout->base, &xla__layout_view__descriptor) : NULL;
  uint64_t *st = wp_arena_alloc(w->arena, rank * sizeof *st);
  uint64_t *idx = wp_arena_alloc(w->arena, rank * sizeof *idx);
  strides(s, lv, st);
  /* With no elements, the rows before the first empty dimension still
   * have their braces: walk those, each printed as {}. */
  size_t walk = rank;
  if (count == 0) {
    walk = 0;
    while (s->dimensions[walk] != 0)
      walk++;
    if (walk == 0) {
      wp_hpr_puts(w, "{}");
      return 0;
    }
    count = 1;
    for (size_t d = 0; d < walk; d++)
      count *= (uint64_t)s->dimensions[d];
  }
  /* XLA's one-line form: {1, 2} for a vector, { { 1, 2 }, { 3, 4 } } above */
  const char *open = rank == 1 ? "{" : "{ ", *close = rank == 1 ? "}" : " }";
  for (size_t d = 0; d < walk; d++)
    wp_hpr_puts(w, open);
  uint64_t off = 0; /* the element's physical index */
  for (uint64_t k = 0; k < count; k++) {
    if (walk < rank)
      wp_hpr_puts(w, "{}");
    else
      element(w, s->element_type, info, data + off * (uint64_t)info->bytes);
    size_t d = walk;
    while (d-- > 0) {
      if (idx[d] + 1 < (uint64_t)s->dimensions[d]) {
        idx[d]++;
        off += st[d];
        break;
      }
      off -= st[d] * idx[d];
      idx[d] = 0;
    }
    size_t closes = d == (size_t)-1 ? walk : walk - 1 - d;
    for (size_t c = 0; c < closes; c++)
      wp_hpr_puts(w, close);
    if (d == (size_t)-1)
      break;
    wp_hpr_puts(w, ", ");
    if (w->len >= WP_HPR_PIECE && wp_hpr_flush(w, false))
      return -1; /* the output failed: stop at once */
    for (size_t c = 0; c < closes; c++)
      wp_hpr_puts(w, open);
  }
  return 0;
}

int wp_hpr_literal(hpr *w, const Xla__LiteralProto *lit, const Xla__ShapeProto *shape) {
  if (shape->element_type != WP_TUPLE)
    return array(w, lit, shape);
  if (lit->n_tuple_literals != shape->n_tuple_shapes)
    return wp_hpr_fail(w, "a tuple literal with %zu elements for a shape with %zu",
                    lit->n_tuple_literals, shape->n_tuple_shapes);
  wp_hpr_putn(w, "(", 1);
  for (size_t i = 0; i < shape->n_tuple_shapes; i++) {
    if (i)
      wp_hpr_puts(w, ", ");
    if (wp_hpr_literal(w, lit->tuple_literals[i], shape->tuple_shapes[i]))
      return -1;
  }
  wp_hpr_putn(w, ")", 1);
  return 0;
}
