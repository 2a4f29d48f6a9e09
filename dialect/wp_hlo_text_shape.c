/* Shapes in HLO text: f32[2,4]{1,0}, bf16[8]{0:T(128)}, f32[<=4], tuples,
 * token[], and the layout's parts after ':' (D T L # * E S SC P M). */
#include "wp_hlo_text_internal.h"

#include "wp_hlo_text_common.h"
#include "wp_hlo_types.h"
#include "wp_pb.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

Xla__Opaque *wp_htp_opaque(htp *p, const ProtobufCMessage *view) {
  Xla__Opaque *o = wp_pb_convert(p->arena, view, &xla__opaque__descriptor);
  if (!o) /* a view always packs into bytes an Opaque reads */
    o = wp_pb_new(p->arena, &xla__opaque__descriptor);
  return o;
}

/* The element type word at the current position (letters and digits). */
static size_t type_word(const htp *p) {
  size_t i = p->pos;
  while (i < p->len && isalnum((unsigned char)p->src[i]))
    i++;
  return i - p->pos;
}

bool wp_htp_at_shape(htp *p) {
  int c = wp_htp_peek(p);
  if (c == '(')
    return true;
  size_t n = type_word(p);
  return n && wp_hlo_text_prim_by_name(p->src + p->pos, n) && p->pos + n < p->len &&
         p->src[p->pos + n] == '[';
}

static int prim_arg(htp *p, int32_t *out) {
  if (wp_htp_expect(p, "("))
    return -1;
  wp_htp_skip(p);
  size_t at = p->pos, n = type_word(p);
  int prim = n ? wp_hlo_text_prim_by_name(p->src + p->pos, n) : 0;
  if (!prim)
    return wp_htp_fail(p, at, "expected an element type");
  p->pos += n;
  *out = prim;
  return wp_htp_expect(p, ")");
}

static int paren_int(htp *p, int64_t *v) {
  return wp_htp_expect(p, "(") || wp_htp_int(p, v) || wp_htp_expect(p, ")") ? -1 : 0;
}

static int dim_level_types(htp *p, Xla__LayoutView *lv) {
  size_t cap_t = 0, cap_u = 0, cap_o = 0;
  if (wp_htp_expect(p, "("))
    return -1;
  do {
    wp_htp_skip(p);
    int v;
    if (p->pos >= p->len ||
        wp_hlo_text_enum_value(wp_hlo_text_dim_level_types, p->src + p->pos, 1, &v))
      return wp_htp_fail(p, p->pos, "expected a dimension level type (D, C, S or H)");
    p->pos++;
    bool unique = true, ordered = true;
    for (;;) {
      if (p->pos < p->len && p->src[p->pos] == '+' && unique)
        unique = false;
      else if (p->pos < p->len && p->src[p->pos] == '~' && ordered)
        ordered = false;
      else
        break;
      p->pos++;
    }
    WP_HTP_PUSH(p, lv->dim_level_types, lv->n_dim_level_types, cap_t, v);
    WP_HTP_PUSH(p, lv->dim_unique, lv->n_dim_unique, cap_u, unique);
    WP_HTP_PUSH(p, lv->dim_ordered, lv->n_dim_ordered, cap_o, ordered);
  } while (wp_htp_accept(p, ","));
  return wp_htp_expect(p, ")");
}

static int tiles(htp *p, Xla__LayoutView *lv) {
  size_t cap = 0;
  if (wp_htp_peek(p) != '(')
    return wp_htp_expect(p, "(");
  while (wp_htp_accept(p, "(")) {
    Xla__TileView *t = wp_pb_new(p->arena, &xla__tile_view__descriptor);
    size_t cap_d = 0;
    do {
      int64_t d;
      if (wp_htp_accept(p, "*"))
        d = INT64_MIN; /* XLA's kCombineDimension */
      else if (wp_htp_int(p, &d))
        return -1;
      WP_HTP_PUSH(p, t->dimensions, t->n_dimensions, cap_d, d);
    } while (wp_htp_accept(p, ","));
    if (wp_htp_expect(p, ")"))
      return -1;
    WP_HTP_PUSH(p, lv->tiles, lv->n_tiles, cap, t);
  }
  return 0;
}

static int split_config(htp *p, Xla__LayoutView *lv, size_t *cap) {
  Xla__SplitConfigView *sc = wp_pb_new(p->arena, &xla__split_config_view__descriptor);
  size_t cap_i = 0;
  if (wp_htp_expect(p, "(") || wp_htp_int(p, &sc->dimension) || wp_htp_expect(p, ":"))
    return -1;
  do {
    int64_t v;
    if (wp_htp_int(p, &v))
      return -1;
    WP_HTP_PUSH(p, sc->split_indices, sc->n_split_indices, cap_i, v);
  } while (wp_htp_accept(p, ","));
  if (wp_htp_expect(p, ")"))
    return -1;
  WP_HTP_PUSH(p, lv->split_configs, lv->n_split_configs, *cap, sc);
  return 0;
}

/* The parts after ':'; each at most once (SC may repeat), in any order. */
static int layout_parts(htp *p, Xla__LayoutView *lv) {
  unsigned seen = 0;
  size_t cap_sc = 0;
  for (;;) {
    wp_htp_skip(p);
    size_t at = p->pos;
    unsigned bit;
    int rc;
    if (wp_htp_accept(p, "SC")) {
      rc = split_config(p, lv, &cap_sc);
      bit = 0;
    } else if (wp_htp_accept(p, "D")) {
      rc = dim_level_types(p, lv);
      bit = 1;
    } else if (wp_htp_accept(p, "T")) {
      rc = tiles(p, lv);
      bit = 2;
    } else if (wp_htp_accept(p, "L")) {
      rc = paren_int(p, &lv->tail_padding_alignment_in_elements);
      /* the proto's 0 means XLA's default 1, and a padding to a negative
       * multiple means nothing: neither would print back as written */
      if (!rc && lv->tail_padding_alignment_in_elements <= 0)
        return wp_htp_fail(p, at, "L(%lld): the tail padding alignment must be positive",
                           (long long)lv->tail_padding_alignment_in_elements);
      bit = 4;
    } else if (wp_htp_accept(p, "#")) {
      rc = prim_arg(p, &lv->index_primitive_type);
      bit = 8;
    } else if (wp_htp_accept(p, "*")) {
      rc = prim_arg(p, &lv->pointer_primitive_type);
      bit = 16;
    } else if (wp_htp_accept(p, "E")) {
      rc = paren_int(p, &lv->element_size_in_bits);
      bit = 32;
    } else if (wp_htp_accept(p, "S")) {
      rc = paren_int(p, &lv->memory_space);
      bit = 64;
    } else if (wp_htp_accept(p, "P")) {
      rc = wp_htp_expect(p, "(") || wp_htp_shape(p, &lv->physical_shape) || wp_htp_expect(p, ")")
               ? -1
               : 0;
      bit = 128;
    } else if (wp_htp_accept(p, "M")) {
      rc = paren_int(p, &lv->dynamic_shape_metadata_prefix_bytes);
      bit = 256;
    } else {
      return 0;
    }
    if (rc)
      return -1;
    if (seen & bit)
      return wp_htp_fail(p, at, "layout part given twice");
    seen |= bit;
  }
}

static int layout(htp *p, Xla__ShapeProto *s) {
  Xla__LayoutView *lv = wp_pb_new(p->arena, &xla__layout_view__descriptor);
  size_t cap = 0, at = p->pos;
  lv->tail_padding_alignment_in_elements = 1; /* XLA's Layout writes 1 */
  if (wp_htp_expect(p, "{"))
    return -1;
  if (wp_htp_peek(p) != ':' && wp_htp_peek(p) != '}') {
    do {
      int64_t d;
      if (wp_htp_int(p, &d))
        return -1;
      WP_HTP_PUSH(p, lv->minor_to_major, lv->n_minor_to_major, cap, d);
    } while (wp_htp_accept(p, ","));
  }
  if (wp_htp_accept(p, ":") && layout_parts(p, lv))
    return -1;
  if (wp_htp_expect(p, "}"))
    return -1;
  size_t rank = s->n_dimensions;
  if (lv->n_minor_to_major != rank)
    return wp_htp_fail(p, at, "layout has %zu dimensions for a shape of rank %zu",
                    lv->n_minor_to_major, rank);
  for (size_t i = 0; i < rank; i++) {
    int64_t d = lv->minor_to_major[i];
    bool dup = false;
    for (size_t k = 0; k < i; k++)
      dup |= lv->minor_to_major[k] == d;
    if (d < 0 || (size_t)d >= rank || dup)
      return wp_htp_fail(p, at, "layout {...} is not a permutation of the %zu dimensions", rank);
  }
  s->layout = wp_htp_opaque(p, &lv->base);
  return 0;
}

static void default_layout(htp *p, Xla__ShapeProto *s) {
  Xla__LayoutView lv = XLA__LAYOUT_VIEW__INIT;
  size_t rank = s->n_dimensions;
  lv.n_minor_to_major = rank;
  lv.minor_to_major = wp_arena_alloc(p->arena, (rank ? rank : 1) * sizeof(int64_t));
  for (size_t i = 0; i < rank; i++)
    lv.minor_to_major[i] = (int64_t)(rank - 1 - i);
  lv.tail_padding_alignment_in_elements = 1;
  s->layout = wp_htp_opaque(p, &lv.base);
}

static int array_dims(htp *p, Xla__ShapeProto *s) {
  size_t cap_d = 0, cap_f = 0;
  if (wp_htp_expect(p, "["))
    return -1;
  if (wp_htp_accept(p, "]"))
    return 0;
  do {
    int64_t d;
    bool dyn = false;
    wp_htp_skip(p);
    size_t at = p->pos;
    if (wp_htp_accept(p, "?")) {
      d = INT64_MIN; /* XLA's unbounded dynamic size */
      dyn = true;
    } else {
      dyn = wp_htp_accept(p, "<=");
      if (wp_htp_int(p, &d))
        return -1;
      if (d < 0)
        return wp_htp_fail(p, at, "negative dimension %lld", (long long)d);
    }
    WP_HTP_PUSH(p, s->dimensions, s->n_dimensions, cap_d, d);
    WP_HTP_PUSH(p, s->is_dynamic_dimension, s->n_is_dynamic_dimension, cap_f, dyn);
  } while (wp_htp_accept(p, ","));
  return wp_htp_expect(p, "]");
}

int wp_htp_shape(htp *p, Xla__ShapeProto **out) {
  wp_htp_skip(p);
  size_t at = p->pos;
  if (++p->depth > WP_HTP_MAX_DEPTH) {
    p->depth--;
    return wp_htp_fail(p, at, "shapes nest more than %d deep", WP_HTP_MAX_DEPTH);
  }
  Xla__ShapeProto *s = wp_pb_new(p->arena, &xla__shape_proto__descriptor);
  int rc = -1;
  if (wp_htp_accept(p, "(")) {
    size_t cap = 0;
    s->element_type = WP_TUPLE;
    if (!wp_htp_accept(p, ")")) {
      do {
        Xla__ShapeProto *e;
        if (wp_htp_shape(p, &e))
          goto out;
        WP_HTP_PUSH(p, s->tuple_shapes, s->n_tuple_shapes, cap, e);
      } while (wp_htp_accept(p, ","));
      if (wp_htp_expect(p, ")"))
        goto out;
    }
    rc = 0;
    goto out;
  }
  size_t n = type_word(p);
  int prim = n ? wp_hlo_text_prim_by_name(p->src + p->pos, n) : 0;
  if (!prim) {
    if (n)
      wp_htp_fail(p, at, "unknown element type '%.*s'", (int)n, p->src + p->pos);
    else
      wp_htp_fail(p, at, "expected a shape");
    goto out;
  }
  p->pos += n;
  s->element_type = prim;
  if (prim == WP_TOKEN || prim == WP_OPAQUE) {
    if (p->pos < p->len && p->src[p->pos] == '[' &&
        (wp_htp_expect(p, "[") || wp_htp_expect(p, "]")))
      goto out;
    rc = 0;
    goto out;
  }
  if (array_dims(p, s))
    goto out;
  /* a layout follows the brackets directly; "{" after a blank starts a
   * computation's body */
  if (p->pos < p->len && p->src[p->pos] == '{')
    rc = layout(p, s);
  else {
    default_layout(p, s);
    rc = 0;
  }
out:
  p->depth--;
  *out = s;
  return rc;
}

int wp_htp_program_shape(htp *p, Xla__ProgramShapeProto **out) {
  Xla__ProgramShapeProto *ps = wp_pb_new(p->arena, &xla__program_shape_proto__descriptor);
  size_t cap = 0, cap_n = 0;
  if (wp_htp_expect(p, "("))
    return -1;
  if (!wp_htp_accept(p, ")")) {
    do {
      Xla__ShapeProto *s;
      if (wp_htp_shape(p, &s))
        return -1;
      WP_HTP_PUSH(p, ps->parameters, ps->n_parameters, cap, s);
    } while (wp_htp_accept(p, ","));
    if (wp_htp_expect(p, ")"))
      return -1;
  }
  if (wp_htp_expect(p, "->") || wp_htp_shape(p, &ps->result))
    return -1;
  /* XLA's ComputationLayout names the host program's parameters p0, p1 ... */
  for (size_t i = 0; i < ps->n_parameters; i++) {
    char name[32];
    snprintf(name, sizeof name, "p%zu", i);
    WP_HTP_PUSH(p, ps->parameter_names, ps->n_parameter_names, cap_n,
             wp_arena_strndup(p->arena, name, strlen(name)));
  }
  *out = ps;
  return 0;
}

bool wp_htp_shapes_compatible(const Xla__ShapeProto *a, const Xla__ShapeProto *b) {
  if (a->element_type != b->element_type || a->n_dimensions != b->n_dimensions ||
      a->n_tuple_shapes != b->n_tuple_shapes)
    return false;
  for (size_t i = 0; i < a->n_dimensions; i++)
    if (a->dimensions[i] != b->dimensions[i])
      return false;
  for (size_t i = 0; i < a->n_tuple_shapes; i++)
    if (!wp_htp_shapes_compatible(a->tuple_shapes[i], b->tuple_shapes[i]))
      return false;
  return true;
}
