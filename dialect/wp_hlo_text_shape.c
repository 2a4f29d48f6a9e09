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

/* Each layout part's list item keeps its own arrays' capacities. */
typedef struct dlt_ctx {
  Xla__LayoutView *lv;
  size_t cap_t, cap_u, cap_o;
} dlt_ctx;

/* D, C+, S~ ...: a level type, then '+' (not unique) and '~' (not
 * ordered), each at most once. */
static int dim_level_type_item(htp *p, void *ctx) {
  dlt_ctx *c = ctx;
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
  Xla__LayoutView *lv = c->lv;
  WP_HTP_PUSH(p, lv->dim_level_types, lv->n_dim_level_types, c->cap_t, v);
  WP_HTP_PUSH(p, lv->dim_unique, lv->n_dim_unique, c->cap_u, unique);
  WP_HTP_PUSH(p, lv->dim_ordered, lv->n_dim_ordered, c->cap_o, ordered);
  return 0;
}

static int dim_level_types(htp *p, Xla__LayoutView *lv) {
  dlt_ctx c = {lv, 0, 0, 0};
  return wp_htp_list(p, "(", ")", ",", WP_HTP_NONEMPTY, dim_level_type_item, &c);
}

/* A tile's dimension: a number, or '*' for XLA's kCombineDimension. */
static int tile_dim_item(htp *p, void *ctx) {
  int64_t d;
  if (wp_htp_accept(p, "*"))
    d = INT64_MIN;
  else if (wp_htp_int(p, &d))
    return -1;
  wp_htp_vec_push(p, ctx, &d);
  return 0;
}

static int tiles(htp *p, Xla__LayoutView *lv) {
  size_t cap = 0;
  if (wp_htp_peek(p) != '(')
    return wp_htp_expect(p, "(");
  while (wp_htp_peek(p) == '(') {
    Xla__TileView *t = wp_pb_new(p->arena, &xla__tile_view__descriptor);
    wp_htp_vec dims = {(void **)&t->dimensions, &t->n_dimensions, 0, sizeof *t->dimensions};
    if (wp_htp_list(p, "(", ")", ",", WP_HTP_NONEMPTY, tile_dim_item, &dims))
      return -1;
    WP_HTP_PUSH(p, lv->tiles, lv->n_tiles, cap, t);
  }
  return 0;
}

/* The state of one layout's parts: where the part read starts, and the
 * split configs' capacity (SC may repeat). */
typedef struct parts_ctx {
  Xla__LayoutView *lv;
  size_t at, cap_sc;
} parts_ctx;

static int part_split(htp *p, parts_ctx *c) {
  Xla__LayoutView *lv = c->lv;
  Xla__SplitConfigView *sc = wp_pb_new(p->arena, &xla__split_config_view__descriptor);
  if (wp_htp_expect(p, "(") || wp_htp_int(p, &sc->dimension) || wp_htp_expect(p, ":") ||
      wp_htp_ints(p, NULL, ")", ",", WP_HTP_NONEMPTY, &sc->split_indices, &sc->n_split_indices))
    return -1;
  WP_HTP_PUSH(p, lv->split_configs, lv->n_split_configs, c->cap_sc, sc);
  return 0;
}
static int part_dim_level_types(htp *p, parts_ctx *c) { return dim_level_types(p, c->lv); }
static int part_tiles(htp *p, parts_ctx *c) { return tiles(p, c->lv); }
static int part_tail_padding(htp *p, parts_ctx *c) {
  int64_t *v = &c->lv->tail_padding_alignment_in_elements;
  if (paren_int(p, v))
    return -1;
  /* the proto's 0 means XLA's default 1, and a padding to a negative
   * multiple means nothing: neither would print back as written */
  if (*v <= 0)
    return wp_htp_fail(p, c->at, "L(%lld): the tail padding alignment must be positive",
                       (long long)*v);
  return 0;
}
static int part_index_type(htp *p, parts_ctx *c) {
  return prim_arg(p, &c->lv->index_primitive_type);
}
static int part_pointer_type(htp *p, parts_ctx *c) {
  return prim_arg(p, &c->lv->pointer_primitive_type);
}
static int part_element_size(htp *p, parts_ctx *c) {
  return paren_int(p, &c->lv->element_size_in_bits);
}
static int part_memory_space(htp *p, parts_ctx *c) { return paren_int(p, &c->lv->memory_space); }
static int part_physical_shape(htp *p, parts_ctx *c) {
  return wp_htp_expect(p, "(") || wp_htp_shape(p, &c->lv->physical_shape) ||
                 wp_htp_expect(p, ")")
             ? -1
             : 0;
}
static int part_metadata_prefix(htp *p, parts_ctx *c) {
  return paren_int(p, &c->lv->dynamic_shape_metadata_prefix_bytes);
}

/* Each part by the letters that open it ("SC" before "S"); REPEATS: may
 * be given more than once. */
static const struct {
  const char *tag;
  int (*read)(htp *p, parts_ctx *c);
  bool repeats;
} k_layout_parts[] = {
    {"SC", part_split, true},         {"D", part_dim_level_types, false},
    {"T", part_tiles, false},         {"L", part_tail_padding, false},
    {"#", part_index_type, false},    {"*", part_pointer_type, false},
    {"E", part_element_size, false},  {"S", part_memory_space, false},
    {"P", part_physical_shape, false}, {"M", part_metadata_prefix, false},
};

/* The parts after ':'; each at most once (SC may repeat), in any order. */
static int layout_parts(htp *p, Xla__LayoutView *lv) {
  const size_t n_parts = sizeof k_layout_parts / sizeof k_layout_parts[0];
  unsigned seen = 0;
  parts_ctx c = {lv, 0, 0};
  for (;;) {
    wp_htp_skip(p);
    c.at = p->pos;
    size_t k = 0;
    while (k < n_parts && !wp_htp_accept(p, k_layout_parts[k].tag))
      k++;
    if (k == n_parts)
      return 0;
    if (k_layout_parts[k].read(p, &c))
      return -1;
    if (!k_layout_parts[k].repeats && (seen & (1u << k)))
      return wp_htp_fail(p, c.at, "layout part given twice");
    seen |= 1u << k;
  }
}

static int layout(htp *p, Xla__ShapeProto *s) {
  Xla__LayoutView *lv = wp_pb_new(p->arena, &xla__layout_view__descriptor);
  size_t at = p->pos;
  lv->tail_padding_alignment_in_elements = 1; /* XLA's Layout writes 1 */
  if (wp_htp_expect(p, "{"))
    return -1;
  if (wp_htp_peek(p) != ':' && wp_htp_peek(p) != '}' &&
      wp_htp_ints(p, NULL, NULL, ",", 0, &lv->minor_to_major, &lv->n_minor_to_major))
    return -1;
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

typedef struct dims_ctx {
  Xla__ShapeProto *s;
  size_t cap_d, cap_f;
} dims_ctx;

/* N, <=N (bounded dynamic) or ? (unbounded). */
static int dim_item(htp *p, void *ctx) {
  dims_ctx *c = ctx;
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
  WP_HTP_PUSH(p, c->s->dimensions, c->s->n_dimensions, c->cap_d, d);
  WP_HTP_PUSH(p, c->s->is_dynamic_dimension, c->s->n_is_dynamic_dimension, c->cap_f, dyn);
  return 0;
}

static int array_dims(htp *p, Xla__ShapeProto *s) {
  dims_ctx c = {s, 0, 0};
  return wp_htp_list(p, "[", "]", ",", 0, dim_item, &c);
}

static int shape_item(htp *p, void *ctx) {
  Xla__ShapeProto *e;
  if (wp_htp_shape(p, &e))
    return -1;
  wp_htp_vec_push(p, ctx, &e);
  return 0;
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
  if (wp_htp_peek(p) == '(') {
    s->element_type = WP_TUPLE;
    wp_htp_vec elems = {(void **)&s->tuple_shapes, &s->n_tuple_shapes, 0,
                        sizeof *s->tuple_shapes};
    rc = wp_htp_list(p, "(", ")", ",", 0, shape_item, &elems);
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
  size_t cap_n = 0;
  wp_htp_vec params = {(void **)&ps->parameters, &ps->n_parameters, 0, sizeof *ps->parameters};
  if (wp_htp_list(p, "(", ")", ",", 0, shape_item, &params) || wp_htp_expect(p, "->") ||
      wp_htp_shape(p, &ps->result))
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
