/* Literals of `constant(...)`: scalars, nested braces by rank, tuples,
 * `{...}` (elided by XLA's printer: read as zeros, with a warning). The
 * elements go into the LiteralProto data field XLA uses for the element
 * type, in the order the shape's layout gives them (XLA's literals are
 * stored physically). */
#include "wp_hlo_text_internal.h"

#include "wp_hlo_literal.h"
#include "wp_hlo_text_common.h"
#include "wp_hlo_text_values.h"
#include "wp_hlo_types.h"
#include "wp_pb.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* protobuf's limit: a larger literal could not be written anyway */
#define MAX_LITERAL_BYTES ((uint64_t)2 << 30)

/* An element's place for XLA's messages: the constant's shape without
 * its layout and the element's index in text order. */
typedef struct elem_at {
  const Xla__ShapeProto *shape;
  uint64_t index;
} elem_at;

static void upper(const char *name, char *out, size_t cap) {
  size_t i = 0;
  for (; name[i] && i + 1 < cap; i++)
    out[i] = (char)toupper((unsigned char)name[i]);
  out[i] = 0;
}

static void shape_str(const Xla__ShapeProto *s, char *out, size_t cap) {
  int n = snprintf(out, cap, "%s[", wp_hlo_text_prim_name(s->element_type));
  for (size_t i = 0; i < s->n_dimensions && n > 0 && (size_t)n < cap; i++)
    n += snprintf(out + n, cap - (size_t)n, "%s%lld", i ? "," : "", (long long)s->dimensions[i]);
  if (n > 0 && (size_t)n < cap)
    snprintf(out + n, cap - (size_t)n, "]");
}

/* A NaN with PAYLOAD (as in the text; 0: none), as XLA's parser sets it:
 * a payload only where the type has signaling NaNs, and within its bits. */
static int nan_value(htp *p, size_t at, int prim, bool neg, uint64_t payload, const elem_at *ea,
                     uint64_t *bits) {
  if (!wp_hlo_text_float_nan(prim, neg, payload, bits))
    return 0;
  uint64_t b, most = 1;
  if (wp_hlo_text_float_nan(prim, neg, 0, &b))
    return wp_htp_fail(p, at, "%s has no NaN", wp_hlo_text_prim_name(prim));
  char sh[160];
  shape_str(ea->shape, sh, sizeof sh);
  if (wp_hlo_text_float_nan(prim, neg, 1, &b))
    return wp_htp_fail(p, at, "tries to set NaN payload 0x%llx to a literal in shape %s at "
                       "linear index %llu, but %s does not support payloads",
                       (unsigned long long)payload, sh, (unsigned long long)ea->index,
                       wp_hlo_text_prim_name(prim));
  while (most < UINT64_MAX / 4 && !wp_hlo_text_float_nan(prim, neg, most * 2 + 1, &b))
    most = most * 2 + 1; /* the payload's bits: all of the mantissa */
  return wp_htp_fail(p, at, "tries to set NaN payload 0x%llx to a literal in shape %s at linear "
                     "index %llu, but the NaN payload is out of range (0x%llx)",
                     (unsigned long long)payload, sh, (unsigned long long)ea->index,
                     (unsigned long long)most);
}

/* A number of a floating-point type PRIM (a complex's part: COMPLEX, the
 * complex type, whose range XLA checks without rounding). */
static int float_value(htp *p, int prim, int complex, const char *part, const elem_at *ea,
                       uint64_t *bits) {
  char buf[128], name[32];
  wp_htp_skip(p);
  size_t at = p->pos;
  if (wp_htp_number(p, buf, sizeof buf))
    return -1;
  const char *s = buf;
  bool neg = *s == '-';
  if (*s == '-' || *s == '+')
    s++;
  if (!strncmp(s, "nan", 3)) {
    uint64_t payload = 0;
    if (s[3] == '(') {
      char *end;
      payload = strtoull(s + 4, &end, 16);
      if (strncmp(s + 4, "0x", 2) || *end != ')' || end[1] || payload == 0)
        return wp_htp_fail(p, at, "expected a NaN payload nan(0x...), found '%s'", buf);
      if (payload == UINT64_C(1) << 51) /* a double's quiet NaN: the type's */
        payload = 0;
    } else if (s[3]) {
      return wp_htp_fail(p, at, "expected a number, found '%s'", buf);
    }
    return nan_value(p, at, prim, neg, payload, ea, bits);
  }
  if (!strcmp(s, "inf")) {
    *bits = wp_hlo_text_float_encode(prim, neg ? -INFINITY : INFINITY);
    return 0;
  }
  char *end;
  double v = strtod(buf, &end);
  /* strtod also takes "infinity" and other spellings XLA does not write */
  if (end == buf || *end || !(isdigit((unsigned char)*s) || *s == '.'))
    return wp_htp_fail(p, at, "expected a number, found '%s'", buf);
  if (isinf(v))
    return wp_htp_fail(p, at, "Constant is out of range for double (+/-%g) and so is "
                       "unparsable.", DBL_MAX);
  if (complex) {
    double most = wp_hlo_text_float_max(prim);
    upper(wp_hlo_text_prim_name(complex), name, sizeof name);
    if (v > most || v < -most)
      return wp_htp_fail(p, at, "%s part %g is out of range for literal's primitive type %s, "
                         "namely [%g, %g].", part, v, name, -most, most);
  }
  *bits = wp_hlo_text_float_encode(prim, v);
  /* XLA refuses a finite value its type rounds to infinity or NaN */
  if (!isfinite(wp_hlo_text_float_decode(prim, *bits))) {
    double most = wp_hlo_text_float_max(prim);
    double least = prim == WP_F8E8M0FNU ? ldexp(1, -127) : -most;
    upper(wp_hlo_text_prim_name(prim), name, sizeof name);
    return wp_htp_fail(p, at, "value %g is out of range for literal's primitive type %s namely "
                       "[%g, %g].", v, name, least, most);
  }
  return 0;
}

/* An integer token as XLA's lexer reads it: an int64, or past it a
 * uint64 taken as its int64 bits. -1 when it is no integer. */
static int int_token(const char *buf, int64_t *v) {
  const char *d = buf + (buf[0] == '-');
  if (!*d)
    return -1;
  for (const char *c = d; *c; c++)
    if (!isdigit((unsigned char)*c))
      return -1;
  errno = 0;
  uint64_t mag = strtoull(d, NULL, 10);
  if (errno == ERANGE)
    return -1;
  if (buf[0] == '-') {
    if (mag > (uint64_t)INT64_MAX + 1)
      return -1;
    *v = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
  } else {
    *v = (int64_t)mag; /* past INT64_MAX: its bits, as XLA's lexer */
  }
  return 0;
}

static int int_value(htp *p, int prim, const wp_hlo_prim *info, unsigned char *dst) {
  char buf[128], name[32];
  wp_htp_skip(p);
  size_t at = p->pos;
  int64_t v;
  upper(info->name, name, sizeof name);
  if (wp_htp_number(p, buf, sizeof buf))
    return -1;
  if (int_token(buf, &v))
    return wp_htp_fail(p, at, "expects integer for primitive type: %s", name);
  int bits = prim == WP_S1 || prim == WP_U1 ? 1 : prim == WP_S2 || prim == WP_U2 ? 2
           : prim == WP_S4 || prim == WP_U4 ? 4 : info->bytes * 8;
  uint64_t raw = (uint64_t)v;
  if (prim == WP_PRED) {
    raw = v != 0; /* any integer, as XLA casts it to bool */
  } else if (info->name[0] == 's') {
    int64_t lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
    int64_t hi = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
    if (v < lo || v > hi)
      return wp_htp_fail(p, at, "value %lld is out of range for literal's primitive type %s "
                         "namely [%lld, %lld].", (long long)v, name, (long long)lo, (long long)hi);
  } else {
    /* the int64 as uint64, as XLA compares it: -1 is u64's largest */
    uint64_t hi = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    if (raw > hi)
      return wp_htp_fail(p, at, "value %lld is out of range for literal's primitive type %s "
                         "namely [0, %llu].", (long long)v, name, (unsigned long long)hi);
  }
  /* sub-byte types: the value's own bits in one byte, as the importer
   * reads them (s4 -1 is 0x0f) */
  if (bits < 8)
    raw &= ((uint64_t)1 << bits) - 1;
  for (int i = 0; i < info->bytes; i++)
    dst[i] = (unsigned char)(raw >> (8 * i));
  return 0;
}

static int element(htp *p, const elem_at *ea, const wp_hlo_prim *info, unsigned char *dst) {
  int prim = ea->shape->element_type;
  if (prim == WP_PRED && (wp_htp_peek(p) == 't' || wp_htp_peek(p) == 'f')) {
    bool b;
    if (wp_htp_bool(p, &b))
      return -1;
    *dst = b;
    return 0;
  }
  if (prim == WP_C64 || prim == WP_C128) {
    int part = prim == WP_C64 ? WP_F32 : WP_F64, half = info->bytes / 2;
    uint64_t re, im;
    if (wp_htp_expect(p, "(") || float_value(p, part, prim, "real", ea, &re) ||
        wp_htp_expect(p, ",") || float_value(p, part, prim, "imaginary", ea, &im) ||
        wp_htp_expect(p, ")"))
      return -1;
    for (int i = 0; i < half; i++) {
      dst[i] = (unsigned char)(re >> (8 * i));
      dst[half + i] = (unsigned char)(im >> (8 * i));
    }
    return 0;
  }
  if (wp_hlo_text_is_float(prim)) {
    uint64_t bits;
    if (float_value(p, prim, 0, NULL, ea, &bits))
      return -1;
    for (int i = 0; i < info->bytes; i++)
      dst[i] = (unsigned char)(bits >> (8 * i));
    return 0;
  }
  return int_value(p, prim, info, dst);
}

/* The braces of an array of RANK: read without recursion (a rank is as
 * deep as the text makes it). */
static int nested(htp *p, const Xla__ShapeProto *s, const wp_hlo_prim *info, unsigned char *data) {
  size_t rank = s->n_dimensions;
  int64_t *cnt = wp_arena_alloc(p->arena, rank * sizeof *cnt);
  size_t *open_at = wp_arena_alloc(p->arena, rank * sizeof *open_at);
  size_t level = 0, k = 0;
  wp_htp_skip(p);
  open_at[0] = p->pos;
  if (wp_htp_expect(p, "{"))
    return -1;
  cnt[0] = 0;
  bool after_item = wp_htp_peek(p) == '}';
  for (;;) {
    if (!after_item) {
      if (level + 1 < rank) {
        wp_htp_skip(p);
        if (cnt[level] >= s->dimensions[level])
          return wp_htp_fail(p, p->pos, "more than the %lld rows dimension %zu has",
                          (long long)s->dimensions[level], level);
        open_at[level + 1] = p->pos;
        if (wp_htp_expect(p, "{"))
          return -1;
        cnt[++level] = 0;
        after_item = wp_htp_peek(p) == '}';
        continue;
      }
      wp_htp_skip(p);
      if (cnt[level] >= s->dimensions[level])
        return wp_htp_fail(p, p->pos, "more than the %lld elements dimension %zu has",
                        (long long)s->dimensions[level], level);
      elem_at ea = {s, k};
      if (element(p, &ea, info, data + k * (size_t)info->bytes))
        return -1;
      k++;
      cnt[level]++;
      after_item = true;
      continue;
    }
    if (wp_htp_accept(p, ",")) {
      after_item = false;
      continue;
    }
    if (wp_htp_expect(p, "}"))
      return -1;
    if (cnt[level] != s->dimensions[level])
      return wp_htp_fail(p, open_at[level], "%lld elements where dimension %zu has %lld",
                      (long long)cnt[level], level, (long long)s->dimensions[level]);
    if (level == 0)
      return 0;
    cnt[--level]++;
  }
}

/* `{...}`: XLA's printer left the elements out. */
static bool elided(htp *p) {
  size_t save = p->pos;
  if (wp_htp_accept(p, "{") && wp_htp_accept(p, "...") && wp_htp_accept(p, "}"))
    return true;
  p->pos = save;
  return false;
}

/* The element count of S, refused past protobuf's limit or for a shape a
 * constant cannot have; 0 or -1. */
static int array_count(htp *p, size_t at, const Xla__ShapeProto *s, const wp_hlo_prim *info,
                       uint64_t *count) {
  if (!info)
    return wp_htp_fail(p, at, "a constant cannot have element type %s",
                    wp_hlo_text_prim_name(s->element_type));
  *count = 1;
  for (size_t i = 0; i < s->n_dimensions; i++) {
    if (s->is_dynamic_dimension[i])
      return wp_htp_fail(p, at, "a constant cannot have a dynamic dimension");
    uint64_t d = (uint64_t)s->dimensions[i];
    if (d && *count > MAX_LITERAL_BYTES / d)
      return wp_htp_fail(p, at, "constant larger than protobuf's 2 GiB");
    *count *= d;
  }
  if (*count * (uint64_t)info->bytes > MAX_LITERAL_BYTES)
    return wp_htp_fail(p, at, "constant larger than protobuf's 2 GiB");
  return 0;
}

/* An array's literal into LIT; ELIDED_OK: `{...}` may stand for it, and
 * then *ELIDED is set and LIT left without data. */
static int array_literal(htp *p, const Xla__ShapeProto *s, Xla__LiteralProto *lit,
                         bool elided_ok, bool *elided_out) {
  wp_htp_skip(p);
  size_t at = p->pos;
  const wp_hlo_prim *info = wp_hlo_prim_info(s->element_type);
  uint64_t count = 0;
  if (array_count(p, at, s, info, &count))
    return -1;
  uint64_t bytes = count * (uint64_t)info->bytes;
  wp_error over;
  if (s->n_dimensions > 0 && elided(p)) {
    /* Nothing is allocated: the constant stays without a literal (XLA's
     * form of a constant whose value is not known), which prints back as
     * {...}; the importer gives it zeros that take no memory. Refused
     * past what could ever be made of it, as any constant. */
    if (!elided_ok)
      return wp_htp_fail(p, at, "a tuple constant's element cannot be elided as {...}");
    if (wp_input_size_check(bytes, "a constant", &over))
      return wp_htp_fail(p, at, "%s", over.msg);
    wp_htp_warn(p, at, "constant {...} has its elements elided; read as zeros");
    *elided_out = true;
    return 0;
  }
  /* each element takes a byte of text at least */
  if (count > p->len - p->pos)
    return wp_htp_fail(p, at, "constant of %llu elements, more than the rest of the file holds",
                    (unsigned long long)count);
  if (wp_input_size_check(bytes, "a constant", &over))
    return wp_htp_fail(p, at, "%s", over.msg);
  /* a documented exception (docs/layout.md): within the limit, it may still
   * not fit, and says so as an error */
  unsigned char *data = bytes ? wp_arena_alloc_big(p->arena, bytes) : NULL;
  if (bytes && !data)
    return wp_htp_fail(p, at, "out of memory for a constant of %llu bytes",
                       (unsigned long long)bytes);
  elem_at ea = {s, 0};
  if (s->n_dimensions == 0 ? element(p, &ea, info, data) : nested(p, s, info, data))
    return -1;
  const void *ordered;
  wp_error sub;
  if (wp_hlo_literal_in_layout(p->arena, s, info->bytes, data, lit->shape, &ordered) ||
      wp_hlo_literal_set_data(p->arena, lit, s->element_type, ordered, (int64_t)count, &sub))
    return wp_htp_fail(p, at, "cannot store the constant");
  return 0;
}

static int literal(htp *p, const Xla__ShapeProto *s, Xla__LiteralProto **out, bool top) {
  Xla__LiteralProto *lit = wp_pb_new(p->arena, &xla__literal_proto__descriptor);
  lit->shape = (Xla__ShapeProto *)s;
  *out = lit;
  wp_htp_skip(p);
  size_t at = p->pos;
  if (s->element_type != WP_TUPLE) {
    bool elided_lit = false;
    int rc = array_literal(p, s, lit, top, &elided_lit);
    if (elided_lit)
      *out = NULL;
    return rc;
  }
  if (++p->depth > WP_HTP_MAX_DEPTH) {
    p->depth--;
    return wp_htp_fail(p, at, "literals nest more than %d deep", WP_HTP_MAX_DEPTH);
  }
  int rc = wp_htp_expect(p, "(");
  lit->n_tuple_literals = s->n_tuple_shapes;
  lit->tuple_literals = wp_arena_alloc(p->arena, (s->n_tuple_shapes + 1) * sizeof(void *));
  for (size_t i = 0; i < s->n_tuple_shapes && !rc; i++) {
    if (i && wp_htp_expect(p, ",")) {
      rc = -1;
      break;
    }
    /* an element may repeat its shape, as XLA's literal printer writes it */
    if (wp_htp_at_shape(p) && wp_htp_peek(p) != '(') {
      Xla__ShapeProto *written;
      wp_htp_skip(p);
      size_t sat = p->pos;
      if (wp_htp_shape(p, &written)) {
        rc = -1;
        break;
      }
      if (!wp_htp_shapes_compatible(written, s->tuple_shapes[i])) {
        rc = wp_htp_fail(p, sat, "tuple element %zu's shape differs from the constant's", i);
        break;
      }
    }
    rc = literal(p, s->tuple_shapes[i], &lit->tuple_literals[i], false);
  }
  if (!rc)
    rc = wp_htp_expect(p, ")");
  p->depth--;
  return rc;
}

int wp_htp_literal(htp *p, const Xla__ShapeProto *shape, Xla__LiteralProto **out) {
  return literal(p, shape, out, true);
}
