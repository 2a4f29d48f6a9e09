/* The verifier's element types and shapes: classes of PrimitiveType,
 * ShapeUtil's comparisons and XLA's HumanString of a shape. */
#include "wp_hlo_verify_internal.h"

#include "wp_hlo_types.h"
#include "wp_pb.h"

#include <stdio.h>
#include <string.h>

int wp_hv_fail(wp_hv *v, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(v->msg, v->cap, fmt, ap);
  va_end(ap);
  return -1;
}

bool wp_hv_is_float(int t) {
  switch (t) {
  case WP_F16: case WP_F32: case WP_F64: case WP_BF16: case WP_F8E5M2: case WP_F8E4M3FN:
  case WP_F8E4M3B11FNUZ: case WP_F8E5M2FNUZ: case WP_F8E4M3FNUZ: case WP_F8E4M3:
  case WP_F8E3M4: case WP_F4E2M1FN: case WP_F8E8M0FNU:
    return true;
  default:
    return false;
  }
}

bool wp_hv_is_complex(int t) { return t == WP_C64 || t == WP_C128; }

bool wp_hv_is_signed_int(int t) {
  return t == WP_S1 || t == WP_S2 || t == WP_S4 || t == WP_S8 || t == WP_S16 || t == WP_S32 ||
         t == WP_S64;
}

bool wp_hv_is_integral(int t) {
  return wp_hv_is_signed_int(t) || t == WP_U1 || t == WP_U2 || t == WP_U4 || t == WP_U8 ||
         t == WP_U16 || t == WP_U32 || t == WP_U64;
}

bool wp_hv_is_array_type(int t) { return wp_hlo_prim_info(t) != NULL; }

int wp_hv_bit_width(int t) {
  switch (t) {
  case WP_S1: case WP_U1: return 1;
  case WP_S2: case WP_U2: return 2;
  case WP_S4: case WP_U4: case WP_F4E2M1FN: return 4;
  case WP_S16: case WP_U16: case WP_F16: case WP_BF16: return 16;
  case WP_S32: case WP_U32: case WP_F32: return 32;
  case WP_S64: case WP_U64: case WP_F64: case WP_C64: return 64;
  case WP_C128: return 128;
  default: return 8; /* PRED, the 8-bit types */
  }
}

const char *wp_hv_type_name(int t) {
  static const char *const names[] = {
      "PRIMITIVE_TYPE_INVALID", "PRED", "S8", "S16", "S32", "S64", "U8", "U16", "U32", "U64",
      "F16", "F32", "F64", "TUPLE", "OPAQUE_TYPE", "C64", "BF16", "TOKEN", "C128", "F8E5M2",
      "F8E4M3FN", "S4", "U4", "F8E4M3B11FNUZ", "F8E5M2FNUZ", "F8E4M3FNUZ", "S2", "U2",
      "F8E4M3", "F8E3M4", "S1", "U1", "F4E2M1FN", "F8E8M0FNU"};
  if (t < 0 || (size_t)t >= sizeof names / sizeof names[0])
    return "PRIMITIVE_TYPE_INVALID";
  return names[t];
}

bool wp_hv_is_tuple(const Xla__ShapeProto *s) { return s && s->element_type == WP_TUPLE; }
bool wp_hv_is_array(const Xla__ShapeProto *s) { return s && wp_hv_is_array_type(s->element_type); }
bool wp_hv_is_token(const Xla__ShapeProto *s) { return s && s->element_type == WP_TOKEN; }
bool wp_hv_is_scalar(const Xla__ShapeProto *s) { return wp_hv_is_array(s) && s->n_dimensions == 0; }
size_t wp_hv_rank(const Xla__ShapeProto *s) { return wp_hv_is_array(s) ? s->n_dimensions : 0; }

int64_t wp_hv_elements(const Xla__ShapeProto *s) {
  int64_t n = 1;
  for (size_t i = 0; i < s->n_dimensions; i++) {
    int64_t d = s->dimensions[i];
    if (d < 0)
      return -1;
    if (d == 0)
      return 0;
    n = n > INT64_MAX / d ? INT64_MAX : n * d;
  }
  return n;
}

bool wp_hv_same_type(int a, int b, bool ignore_fp) {
  return a == b || (ignore_fp && wp_hv_is_float(a) && wp_hv_is_float(b));
}

bool wp_hv_same_dims(const Xla__ShapeProto *a, const Xla__ShapeProto *b) {
  return a->n_dimensions == b->n_dimensions &&
         (a->n_dimensions == 0 ||
          !memcmp(a->dimensions, b->dimensions, a->n_dimensions * sizeof *a->dimensions));
}

bool wp_hv_compatible(const Xla__ShapeProto *a, const Xla__ShapeProto *b, bool ignore_fp) {
  if (wp_hv_is_tuple(a) || wp_hv_is_tuple(b)) {
    if (!wp_hv_is_tuple(a) || !wp_hv_is_tuple(b) || a->n_tuple_shapes != b->n_tuple_shapes)
      return false;
    for (size_t i = 0; i < a->n_tuple_shapes; i++)
      if (!wp_hv_compatible(a->tuple_shapes[i], b->tuple_shapes[i], ignore_fp))
        return false;
    return true;
  }
  if (!wp_hv_is_array(a) || !wp_hv_is_array(b))
    return a->element_type == b->element_type;
  return wp_hv_same_type(a->element_type, b->element_type, ignore_fp) && wp_hv_same_dims(a, b);
}

/* ---- strings ---- */

typedef struct sbuf {
  char *p;
  size_t len, cap;
} sbuf;

static void put(wp_hv *v, sbuf *b, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(wp_hv *v, sbuf *b, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n < 0)
      return;
    if ((size_t)n < b->cap - b->len) {
      b->len += (size_t)n;
      return;
    }
    size_t cap = (b->cap + (size_t)n) * 2;
    char *p = wp_arena_alloc(v->scratch, cap);
    memcpy(p, b->p, b->len + 1);
    b->p = p;
    b->cap = cap;
  }
}

static void put_layout(wp_hv *v, sbuf *b, const Xla__ShapeProto *s) {
  if (!s->layout || s->n_dimensions == 0)
    return;
  Xla__LayoutView *l = wp_hv_view(v, s->layout, &xla__layout_view__descriptor);
  put(v, b, "{");
  for (size_t i = 0; i < l->n_minor_to_major; i++)
    put(v, b, "%s%lld", i ? "," : "", (long long)l->minor_to_major[i]);
  put(v, b, "}");
}

static void put_shape(wp_hv *v, sbuf *b, const Xla__ShapeProto *s, bool layout, int depth) {
  if (wp_hv_is_tuple(s)) {
    put(v, b, "(");
    for (size_t i = 0; i < s->n_tuple_shapes; i++) {
      if (i)
        put(v, b, ", ");
      if (depth < 32)
        put_shape(v, b, s->tuple_shapes[i], layout, depth + 1);
      else
        put(v, b, "...");
    }
    put(v, b, ")");
    return;
  }
  const wp_hlo_prim *pi = wp_hlo_prim_info(s->element_type);
  if (!pi) {
    put(v, b, "%s[]", s->element_type == WP_TOKEN    ? "token"
                      : s->element_type == WP_OPAQUE ? "opaque"
                                                     : "invalid");
    return;
  }
  put(v, b, "%s[", pi->name);
  for (size_t i = 0; i < s->n_dimensions; i++) {
    int64_t d = s->dimensions[i];
    bool dynamic = i < s->n_is_dynamic_dimension && s->is_dynamic_dimension[i];
    if (i)
      put(v, b, ",");
    if (d == INT64_MIN)
      put(v, b, "?");
    else
      put(v, b, "%s%lld", dynamic ? "<=" : "", (long long)d);
  }
  put(v, b, "]");
  if (layout)
    put_layout(v, b, s);
}

const char *wp_hv_str(wp_hv *v, const Xla__ShapeProto *s, bool layout) {
  sbuf b = {wp_arena_alloc(v->scratch, 64), 0, 64};
  b.p[0] = '\0';
  if (s)
    put_shape(v, &b, s, layout, 0);
  return b.p;
}

const char *wp_hv_list(wp_hv *v, const int64_t *vals, size_t n, const char *sep) {
  sbuf b = {wp_arena_alloc(v->scratch, 32), 0, 32};
  b.p[0] = '\0';
  for (size_t i = 0; i < n; i++)
    put(v, &b, "%s%lld", i ? sep : "", (long long)vals[i]);
  return b.p;
}

Xla__ShapeProto *wp_hv_make(wp_hv *v, int type, const int64_t *dims, size_t rank) {
  Xla__ShapeProto *s = wp_pb_new(v->scratch, &xla__shape_proto__descriptor);
  s->element_type = type;
  s->n_dimensions = rank;
  s->dimensions = wp_arena_alloc(v->scratch, (rank + 1) * sizeof *dims);
  if (rank)
    memcpy(s->dimensions, dims, rank * sizeof *dims);
  return s;
}

Xla__ShapeProto *wp_hv_make_tuple(wp_hv *v, const Xla__ShapeProto *const *elems, size_t n) {
  Xla__ShapeProto *s = wp_pb_new(v->scratch, &xla__shape_proto__descriptor);
  s->element_type = WP_TUPLE;
  s->n_tuple_shapes = n;
  s->tuple_shapes = wp_arena_alloc(v->scratch, (n + 1) * sizeof *s->tuple_shapes);
  for (size_t i = 0; i < n; i++)
    s->tuple_shapes[i] = (Xla__ShapeProto *)elems[i];
  return s;
}

int wp_hv_check_shape(wp_hv *v, const wp_hv_ins *in, const Xla__ShapeProto *inferred,
                      bool exact) {
  if (wp_hv_compatible(in->shape, inferred, !exact))
    return 0;
  return wp_hv_fail(v, "Expected instruction to have shape equal to %s, actual shape is %s",
                    wp_hv_str(v, inferred, false), wp_hv_str(v, in->shape, false));
}

void *wp_hv_view(wp_hv *v, const void *opaque, const ProtobufCMessageDescriptor *desc) {
  void *m = opaque ? wp_pb_convert(v->scratch, (const ProtobufCMessage *)opaque, desc) : NULL;
  return m ? m : wp_pb_new(v->scratch, desc);
}

int wp_hv_operand_count(wp_hv *v, const wp_hv_ins *in, size_t expected) {
  if (in->n_ops == expected)
    return 0;
  return wp_hv_fail(v, "Expected %zu operands for %s instruction, has %zu", expected,
                    in->ins->opcode, in->n_ops);
}
