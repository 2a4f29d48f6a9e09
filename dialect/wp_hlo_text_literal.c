/* Literals of `constant(...)`: scalars, nested braces by rank, tuples,
 * `{...}` (elided by XLA's printer: read as zeros, with a warning). The
 * elements go into the LiteralProto data field XLA uses for the element
 * type, in the order the shape's layout gives them (XLA's literals are
 * stored physically). */
#include "wp_hlo_text_internal.h"

#include "wp_hlo_literal.h"
#include "wp_hlo_text_common.h"
#include "wp_hlo_types.h"
#include "wp_pb.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* protobuf's limit: a larger literal could not be written anyway */
#define MAX_LITERAL_BYTES ((uint64_t)2 << 30)

static int float_value(htp *p, int prim, uint64_t *bits) {
  char buf[128];
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
    } else if (s[3]) {
      return wp_htp_fail(p, at, "expected a number, found '%s'", buf);
    }
    if (wp_hlo_text_float_nan(prim, neg, payload, bits))
      return wp_htp_fail(p, at, "%s has no NaN%s", wp_hlo_text_prim_name(prim),
                      payload ? " with that payload" : "");
    return 0;
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
  *bits = wp_hlo_text_float_encode(prim, v);
  return 0;
}

static int int_value(htp *p, int prim, const wp_hlo_prim *info, unsigned char *dst) {
  wp_htp_skip(p);
  size_t at = p->pos;
  int bits = prim == WP_S1 || prim == WP_U1 ? 1 : prim == WP_S2 || prim == WP_U2 ? 2
           : prim == WP_S4 || prim == WP_U4 ? 4 : info->bytes * 8;
  bool is_signed = !strncmp(info->name, "s", 1);
  uint64_t raw;
  if (is_signed) {
    int64_t v, lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
    int64_t hi = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
    if (wp_htp_int(p, &v))
      return -1;
    if (v < lo || v > hi)
      return wp_htp_fail(p, at, "%lld is out of the range of %s", (long long)v, info->name);
    raw = (uint64_t)v;
  } else {
    uint64_t hi = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    if (wp_htp_peek(p) == '-')
      return wp_htp_fail(p, at, "negative value for unsigned %s", info->name);
    if (wp_htp_uint(p, &raw))
      return -1;
    if (raw > hi)
      return wp_htp_fail(p, at, "%llu is out of the range of %s", (unsigned long long)raw,
                      info->name);
  }
  /* sub-byte types: the value's own bits in one byte, as the importer
   * reads them (s4 -1 is 0x0f) */
  if (bits < 8)
    raw &= ((uint64_t)1 << bits) - 1;
  for (int i = 0; i < info->bytes; i++)
    dst[i] = (unsigned char)(raw >> (8 * i));
  return 0;
}

static int element(htp *p, int prim, const wp_hlo_prim *info, unsigned char *dst) {
  if (prim == WP_PRED) {
    bool b;
    wp_htp_skip(p);
    if (wp_htp_peek(p) == '0' || wp_htp_peek(p) == '1') {
      int64_t v;
      size_t at = p->pos;
      if (wp_htp_int(p, &v))
        return -1;
      if (v != 0 && v != 1)
        return wp_htp_fail(p, at, "expected true or false");
      b = v;
    } else if (wp_htp_bool(p, &b)) {
      return -1;
    }
    *dst = b;
    return 0;
  }
  if (prim == WP_C64 || prim == WP_C128) {
    int part = prim == WP_C64 ? WP_F32 : WP_F64, half = info->bytes / 2;
    uint64_t re, im;
    if (wp_htp_expect(p, "(") || float_value(p, part, &re) || wp_htp_expect(p, ",") ||
        float_value(p, part, &im) || wp_htp_expect(p, ")"))
      return -1;
    for (int i = 0; i < half; i++) {
      dst[i] = (unsigned char)(re >> (8 * i));
      dst[half + i] = (unsigned char)(im >> (8 * i));
    }
    return 0;
  }
  if (wp_hlo_text_is_float(prim)) {
    uint64_t bits;
    if (float_value(p, prim, &bits))
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
      if (element(p, s->element_type, info, data + k * (size_t)info->bytes))
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

static int array_literal(htp *p, const Xla__ShapeProto *s, Xla__LiteralProto *lit) {
  wp_htp_skip(p);
  size_t at = p->pos;
  const wp_hlo_prim *info = wp_hlo_prim_info(s->element_type);
  if (!info)
    return wp_htp_fail(p, at, "a constant cannot have element type %s",
                    wp_hlo_text_prim_name(s->element_type));
  uint64_t count = 1;
  for (size_t i = 0; i < s->n_dimensions; i++) {
    if (s->is_dynamic_dimension[i])
      return wp_htp_fail(p, at, "a constant cannot have a dynamic dimension");
    uint64_t d = (uint64_t)s->dimensions[i];
    if (d && count > MAX_LITERAL_BYTES / d)
      return wp_htp_fail(p, at, "constant larger than protobuf's 2 GiB");
    count *= d;
  }
  uint64_t bytes = count * (uint64_t)info->bytes;
  if (bytes > MAX_LITERAL_BYTES)
    return wp_htp_fail(p, at, "constant larger than protobuf's 2 GiB");
  bool zeros = s->n_dimensions > 0 && elided(p);
  /* each element takes a byte of text at least */
  if (!zeros && count > p->len - p->pos)
    return wp_htp_fail(p, at, "constant of %llu elements, more than the rest of the file holds",
                    (unsigned long long)count);
  wp_error over;
  if (wp_input_size_check(bytes, "a constant", &over))
    return wp_htp_fail(p, at, "%s", over.msg);
  /* a documented exception (docs/layout.md): within the limit, it may still
   * not fit, and says so as an error */
  unsigned char *data = bytes ? wp_arena_alloc_big(p->arena, bytes) : NULL;
  if (bytes && !data)
    return wp_htp_fail(p, at, "out of memory for a constant of %llu bytes",
                       (unsigned long long)bytes);
  if (zeros) {
    if (bytes)
      memset(data, 0, bytes);
    wp_htp_warn(p, at, "constant {...} has its elements elided; read as zeros");
  } else if (s->n_dimensions == 0) {
    if (element(p, s->element_type, info, data))
      return -1;
  } else if (nested(p, s, info, data)) {
    return -1;
  }
  const void *ordered;
  wp_error sub;
  if (wp_hlo_literal_in_layout(p->arena, s, info->bytes, data, lit->shape, &ordered) ||
      wp_hlo_literal_set_data(p->arena, lit, s->element_type, ordered, (int64_t)count, &sub))
    return wp_htp_fail(p, at, "cannot store the constant");
  return 0;
}

static int literal(htp *p, const Xla__ShapeProto *s, Xla__LiteralProto **out) {
  Xla__LiteralProto *lit = wp_pb_new(p->arena, &xla__literal_proto__descriptor);
  lit->shape = (Xla__ShapeProto *)s;
  *out = lit;
  wp_htp_skip(p);
  size_t at = p->pos;
  if (s->element_type != WP_TUPLE)
    return array_literal(p, s, lit);
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
    rc = literal(p, s->tuple_shapes[i], &lit->tuple_literals[i]);
  }
  if (!rc)
    rc = wp_htp_expect(p, ")");
  p->depth--;
  return rc;
}

int wp_htp_literal(htp *p, const Xla__ShapeProto *shape, Xla__LiteralProto **out) {
  return literal(p, shape, out);
}
