/* The printer's literals, in the one-line form XLA's HloInstruction
 * ToString gives a constant (Literal::PrintWithoutShapeOneline, with
 * print_large_constants): elements as XLA's GetAsString writes them, pred
 * arrays as 1 and 0, braces spaced by rank, the /\*iN=k*\/ comments above
 * rank 3, tuples as "( a, b )". The elements are read from the physical
 * order the literal stores them in. */
#include "wp_hlo_text_print_internal.h"

#include "wp_hlo_text_common.h"
#include "wp_hlo_text_values.h"
#include "wp_hlo_types.h"
#include "wp_pb.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- elements ---- */

/* std::numeric_limits<T>::max_digits10 of XLA's types for PRIM:
 * ceil(1 + digits * log10(2)), digits counting the implicit bit. */
static int max_digits10(int prim) {
  switch (prim) {
  case WP_F16: return 5;
  case WP_BF16: return 4;
  case WP_F8E4M3FN: case WP_F8E4M3B11FNUZ: case WP_F8E4M3FNUZ: case WP_F8E4M3:
  case WP_F8E3M4: return 3;
  default: return 2; /* f8e5m2, f8e5m2fnuz, f4e2m1fn, f8e8m0fnu */
  }
}

void wp_hlo_text_xla_float(int prim, uint64_t bits, char *buf, size_t cap) {
  /* a fnuz NaN, 0x80, is "-nan", as XLA's conversion to double makes it */
  if (wp_hlo_text_float_special(prim, bits, true, buf, cap))
    return;
  double v = wp_hlo_text_float_decode(prim, bits);
  if (prim == WP_F32) {
    float f = (float)v;
    snprintf(buf, cap, "%.*g", FLT_DIG, v);
    if (strtof(buf, NULL) != f)
      snprintf(buf, cap, "%.*g", FLT_DECIMAL_DIG, v);
  } else if (prim == WP_F64) {
    snprintf(buf, cap, "%.*g", DBL_DIG, v);
    if (strtod(buf, NULL) != v)
      snprintf(buf, cap, "%.*g", DBL_DECIMAL_DIG, v);
  } else {
    snprintf(buf, cap, "%.*g", max_digits10(prim), v);
  }
}

double wp_hlo_text_float_max(int prim) {
  if (prim == WP_F32)
    return FLT_MAX;
  if (prim == WP_F64)
    return DBL_MAX;
  /* the narrow types: the largest finite value of their encodings */
  double best = 0;
  unsigned n = prim == WP_F4E2M1FN ? 16 : 1u << (8 * wp_hlo_text_float_bytes(prim));
  for (unsigned b = 0; b < n; b++) {
    double d = wp_hlo_text_float_decode(prim, b);
    if (isfinite(d) && d > best)
      best = d;
  }
  return best;
}

static int sub_byte_bits(int prim, int bytes) {
  return prim == WP_S1 || prim == WP_U1 ? 1 : prim == WP_S2 || prim == WP_U2 ? 2
       : prim == WP_S4 || prim == WP_U4 ? 4 : bytes * 8;
}

/* One element E (INFO->bytes little-endian bytes). IN_ARRAY: a pred is 1
 * or 0 there, as XLA prints it to be dense; a scalar's is true or false. */
static void element(hpr *w, int prim, const wp_hlo_prim *info, const unsigned char *e,
                    bool in_array) {
  char buf[64];
  if (prim == WP_C64 || prim == WP_C128) {
    int half = info->bytes / 2, part = prim == WP_C64 ? WP_F32 : WP_F64;
    uint64_t re = 0, im = 0;
    for (int i = 0; i < half; i++) {
      re |= (uint64_t)e[i] << (8 * i);
      im |= (uint64_t)e[half + i] << (8 * i);
    }
    wp_hlo_text_xla_float(part, re, buf, sizeof buf);
    wp_hpr_printf(w, "(%s, ", buf);
    wp_hlo_text_xla_float(part, im, buf, sizeof buf);
    wp_hpr_printf(w, "%s)", buf);
    return;
  }
  uint64_t v = 0;
  for (int i = 0; i < info->bytes; i++)
    v |= (uint64_t)e[i] << (8 * i);
  if (prim == WP_PRED) {
    wp_hpr_puts(w, in_array ? (v ? "1" : "0") : (v ? "true" : "false"));
  } else if (wp_hlo_text_is_float(prim)) {
    wp_hlo_text_xla_float(prim, v, buf, sizeof buf);
    wp_hpr_puts(w, buf);
  } else {
    int bits = sub_byte_bits(prim, info->bytes);
    bool is_signed = info->name[0] == 's';
    if (bits < 64)
      v &= ((uint64_t)1 << bits) - 1;
    if (is_signed && bits < 64 && (v >> (bits - 1)) & 1)
      v |= ~(((uint64_t)1 << bits) - 1); /* sign-extend */
    if (is_signed)
      wp_hpr_printf(w, "%lld", (long long)(int64_t)v);
    else
      wp_hpr_printf(w, "%llu", (unsigned long long)v);
  }
}

/* ---- arrays ---- */

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

/* XLA's braces for level L of a RANK array whose dimension L has N rows,
 * IDX the indices above it: a vector's are bare; an innermost row's are
 * spaced unless it holds one element or none; above it, "{ " and " }",
 * the opening one naming its index ("{ /\*i1=2*\/ ") above rank 3. */
static void open_brace(hpr *w, size_t rank, size_t l, int64_t n, const uint64_t *idx) {
  if (rank == 1)
    wp_hpr_puts(w, "{");
  else if (l + 1 == rank)
    wp_hpr_puts(w, n <= 1 ? "{" : "{ ");
  else if (rank > 3 && l > 0)
    wp_hpr_printf(w, "{ /*i%zu=%llu*/%s", l - 1, (unsigned long long)idx[l - 1], n > 0 ? " " : "");
  else
    wp_hpr_puts(w, "{ ");
}

static void close_brace(hpr *w, size_t rank, size_t l, int64_t n) {
  if (rank == 1)
    wp_hpr_puts(w, "}");
  else if (l + 1 == rank)
    wp_hpr_puts(w, n <= 1 ? "}" : " }");
  else
    wp_hpr_puts(w, " }");
}

/* The nested braces, without recursion (a rank is as deep as the input
 * makes it): BASE[l] is the physical index of the row level l walks. */
static int nested(hpr *w, const Xla__ShapeProto *s, const wp_hlo_prim *info,
                  const unsigned char *data, const uint64_t *st) {
  size_t rank = s->n_dimensions, l = 0;
  const int64_t *d = s->dimensions;
  uint64_t *idx = wp_arena_alloc(w->arena, rank * sizeof *idx);
  uint64_t *base = wp_arena_alloc(w->arena, rank * sizeof *base);
  base[0] = 0;
  idx[0] = 0;
  open_brace(w, rank, 0, d[0], idx);
  for (;;) {
    if (l + 1 == rank || d[l] == 0) {
      for (int64_t i = 0; l + 1 == rank && i < d[l]; i++) {
        if (i)
          wp_hpr_puts(w, ", ");
        element(w, s->element_type, info, data + (base[l] + (uint64_t)i * st[l]) * info->bytes,
                true);
        if (w->len >= WP_HPR_PIECE && wp_hpr_flush(w, false))
          return -1; /* the output failed: stop at once */
      }
      close_brace(w, rank, l, d[l]);
      for (;;) { /* up to the next row */
        if (l == 0)
          return 0;
        l--;
        if (++idx[l] < (uint64_t)d[l]) {
          wp_hpr_puts(w, ", ");
          break;
        }
        close_brace(w, rank, l, d[l]);
      }
    }
    base[l + 1] = base[l] + idx[l] * st[l];
    idx[++l] = 0;
    open_brace(w, rank, l, d[l], idx);
  }
}

static int array(hpr *w, const Xla__LiteralProto *lit, const Xla__ShapeProto *s) {
  if (s->element_type == WP_TOKEN) { /* in a tuple, as XLA prints one */
    wp_hpr_puts(w, "token");
    return 0;
  }
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
    element(w, s->element_type, info, data, false);
    return 0;
  }
  if (w->checking) /* nothing below fails or warns */
    return 0;
  const Xla__ShapeProto *ls = lit->shape && lit->shape->n_dimensions == rank ? lit->shape : s;
  Xla__LayoutView *lv =
      ls->layout ? wp_pb_convert(w->arena, &ls->layout->base, &xla__layout_view__descriptor) : NULL;
  uint64_t *st = wp_arena_alloc(w->arena, rank * sizeof *st);
  strides(s, lv, st);
  return nested(w, s, info, data, st);
}

static int literal(hpr *w, const Xla__LiteralProto *lit, const Xla__ShapeProto *shape,
                   bool with_shape) {
  if (shape->element_type != WP_TUPLE) {
    if (with_shape) {
      if (wp_hpr_shape(w, shape, true))
        return -1;
      wp_hpr_puts(w, " ");
    }
    return array(w, lit, shape);
  }
  if (lit->n_tuple_literals != shape->n_tuple_shapes)
    return wp_hpr_fail(w, "a tuple literal with %zu elements for a shape with %zu",
                    lit->n_tuple_literals, shape->n_tuple_shapes);
  wp_hpr_puts(w, "( ");
  for (size_t i = 0; i < shape->n_tuple_shapes; i++) {
    if (i)
      wp_hpr_puts(w, ", ");
    if (literal(w, lit->tuple_literals[i], shape->tuple_shapes[i], with_shape))
      return -1;
  }
  wp_hpr_puts(w, " )");
  return 0;
}

int wp_hpr_literal(hpr *w, const Xla__LiteralProto *lit, const Xla__ShapeProto *shape) {
  /* a constant without a literal: XLA's printer writes {...} for it, and
   * the reader gives it for {...} */
  if (!lit) {
    wp_hpr_puts(w, "{...}");
    return 0;
  }
  return literal(w, lit, shape, false);
}

int wp_hpr_literal_shaped(hpr *w, const Xla__LiteralProto *lit, const Xla__ShapeProto *shape) {
  return literal(w, lit, shape, true);
}
