/* Names and float bits shared by the HLO text reader and printer. */
#include "wp_hlo_text_common.h"

#include "wp_hlo_types.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- element types ---- */

static const wp_hlo_text_enum k_prims[] = {
    {"pred", WP_PRED},
    {"s1", WP_S1},
    {"s2", WP_S2},
    {"s4", WP_S4},
    {"s8", WP_S8},
    {"s16", WP_S16},
    {"s32", WP_S32},
    {"s64", WP_S64},
    {"u1", WP_U1},
    {"u2", WP_U2},
    {"u4", WP_U4},
    {"u8", WP_U8},
    {"u16", WP_U16},
    {"u32", WP_U32},
    {"u64", WP_U64},
    {"f16", WP_F16},
    {"f32", WP_F32},
    {"bf16", WP_BF16},
    {"f64", WP_F64},
    {"c64", WP_C64},
    {"c128", WP_C128},
    {"f8e5m2", WP_F8E5M2},
    {"f8e4m3fn", WP_F8E4M3FN},
    {"f8e4m3b11fnuz", WP_F8E4M3B11FNUZ},
    {"f8e5m2fnuz", WP_F8E5M2FNUZ},
    {"f8e4m3fnuz", WP_F8E4M3FNUZ},
    {"f8e4m3", WP_F8E4M3},
    {"f8e3m4", WP_F8E3M4},
    {"f4e2m1fn", WP_F4E2M1FN},
    {"f8e8m0fnu", WP_F8E8M0FNU},
    {"token", WP_TOKEN},
    {"opaque", WP_OPAQUE},
    {NULL, 0},
};

const char *wp_hlo_text_prim_name(int prim) { return wp_hlo_text_enum_name(k_prims, prim); }

int wp_hlo_text_prim_by_name(const char *s, size_t n) {
  int v;
  return wp_hlo_text_enum_value(k_prims, s, n, &v) == 0 ? v : 0;
}

/* ---- enums XLA writes by name ---- */

const wp_hlo_text_enum wp_hlo_text_precisions[] = {
    {"default", 0}, {"high", 1}, {"highest", 2}, {"packed_nibble", 3}, {NULL, 0}};

/* PrecisionConfig.Algorithm, lowercase without "ALG_" as XLA prints it. */
const wp_hlo_text_enum wp_hlo_text_dot_algorithms[] = {
    {"unset", 0},
    {"dot_any_f8_any_f8_f32", 1},
    {"dot_any_f8_any_f8_f32_fast_accum", 2},
    {"dot_f16_f16_f16", 3},
    {"dot_f16_f16_f32", 4},
    {"dot_bf16_bf16_bf16", 5},
    {"dot_bf16_bf16_f32", 6},
    {"dot_bf16_bf16_f32_x3", 7},
    {"dot_bf16_bf16_f32_x6", 8},
    {"dot_tf32_tf32_f32", 9},
    {"dot_tf32_tf32_f32_x3", 10},
    {"dot_f32_f32_f32", 11},
    {"dot_f64_f64_f64", 12},
    {"dot_bf16_bf16_f32_x9", 13},
    {NULL, 0}};

const wp_hlo_text_enum wp_hlo_text_rng_algorithms[] = {
    {"rng_default", 0}, {"rng_three_fry", 1}, {"rng_philox", 2}, {NULL, 0}};

const wp_hlo_text_enum wp_hlo_text_distributions[] = {
    {"rng_invalid", 0}, {"rng_uniform", 1}, {"rng_normal", 2}, {NULL, 0}};

const wp_hlo_text_enum wp_hlo_text_fft_types[] = {
    {"FFT", 0}, {"IFFT", 1}, {"RFFT", 2}, {"IRFFT", 3}, {NULL, 0}};

const wp_hlo_text_enum wp_hlo_text_api_versions[] = {
    {"API_VERSION_UNSPECIFIED", 0},
    {"API_VERSION_ORIGINAL", 1},
    {"API_VERSION_STATUS_RETURNING", 2},
    {"API_VERSION_STATUS_RETURNING_UNIFIED", 3},
    {"API_VERSION_TYPED_FFI", 4},
    {NULL, 0}};

const wp_hlo_text_enum wp_hlo_text_schedules[] = {
    {"SCHEDULE_NONE", 0}, {"SCHEDULE_LATEST", 1}, {"SCHEDULE_EARLIEST", 2}, {NULL, 0}};

const wp_hlo_text_enum wp_hlo_text_padding_types[] = {
    {"PADDING_INVALID", 0}, {"PADDING_VALID", 1}, {"PADDING_SAME", 2}, {NULL, 0}};

/* OpSharding.Type as last_tile_dims={...} spells it. */
const wp_hlo_text_enum wp_hlo_text_sharding_types[] = {
    {"replicated", 0}, {"maximal", 1}, {"tuple", 2}, {"other", 3},
    {"manual", 4},     {"unknown", 5}, {NULL, 0}};

/* DimLevelType in a layout's D(...). */
const wp_hlo_text_enum wp_hlo_text_dim_level_types[] = {
    {"D", 0}, {"C", 1}, {"S", 2}, {"H", 3}, {NULL, 0}};

int wp_hlo_text_enum_value(const wp_hlo_text_enum *tbl, const char *s, size_t n, int *out) {
  for (; tbl->name; tbl++)
    if (strlen(tbl->name) == n && memcmp(tbl->name, s, n) == 0) {
      *out = tbl->value;
      return 0;
    }
  return -1;
}

const char *wp_hlo_text_enum_name(const wp_hlo_text_enum *tbl, int value) {
  for (; tbl->name; tbl++)
    if (tbl->value == value)
      return tbl->name;
  return NULL;
}

const char *wp_hlo_text_default_comparison_type(int prim) {
  if (wp_hlo_text_is_float(prim) || prim == WP_C64 || prim == WP_C128)
    return "FLOAT";
  switch (prim) {
  case WP_S1: case WP_S2: case WP_S4: case WP_S8: case WP_S16: case WP_S32: case WP_S64:
    return "SIGNED";
  default:
    return "UNSIGNED";
  }
}

/* ---- floating-point formats ----
 * IEEE: infinities, NaN = all-ones exponent with a nonzero mantissa.
 * FN: no infinities; NaN only with every exponent and mantissa bit set.
 * FNUZ: no infinities, no -0; the one NaN is the bits of -0.
 * NONE: finite values only (f4e2m1fn). E8M0: powers of two, no sign. */
enum nan_kind { NAN_IEEE, NAN_FN, NAN_FNUZ, NAN_NONE, NAN_E8M0 };

typedef struct ffmt {
  int prim, ebits, mbits, bias;
  enum nan_kind nan;
} ffmt;

static const ffmt k_fmts[] = {
    {WP_F16, 5, 10, 15, NAN_IEEE},         {WP_BF16, 8, 7, 127, NAN_IEEE},
    {WP_F32, 8, 23, 127, NAN_IEEE},        {WP_F64, 11, 52, 1023, NAN_IEEE},
    {WP_F8E5M2, 5, 2, 15, NAN_IEEE},       {WP_F8E4M3, 4, 3, 7, NAN_IEEE},
    {WP_F8E3M4, 3, 4, 3, NAN_IEEE},        {WP_F8E4M3FN, 4, 3, 7, NAN_FN},
    {WP_F8E4M3FNUZ, 4, 3, 8, NAN_FNUZ},    {WP_F8E5M2FNUZ, 5, 2, 16, NAN_FNUZ},
    {WP_F8E4M3B11FNUZ, 4, 3, 11, NAN_FNUZ}, {WP_F4E2M1FN, 2, 1, 1, NAN_NONE},
    {WP_F8E8M0FNU, 8, 0, 127, NAN_E8M0},
};

static const ffmt *fmt_of(int prim) {
  for (size_t i = 0; i < sizeof k_fmts / sizeof k_fmts[0]; i++)
    if (k_fmts[i].prim == prim)
      return &k_fmts[i];
  return NULL;
}

bool wp_hlo_text_is_float(int prim) { return fmt_of(prim) != NULL; }

int wp_hlo_text_float_bytes(int prim) {
  const ffmt *f = fmt_of(prim);
  return f ? (1 + f->ebits + f->mbits + 7) / 8 : 0;
}

static uint64_t emask(const ffmt *f) { return (UINT64_C(1) << f->ebits) - 1; }
static uint64_t mmask(const ffmt *f) { return (UINT64_C(1) << f->mbits) - 1; }
static uint64_t sign_bit(const ffmt *f) { return UINT64_C(1) << (f->ebits + f->mbits); }

static uint64_t max_finite(const ffmt *f) {
  switch (f->nan) {
  case NAN_IEEE: return ((emask(f) - 1) << f->mbits) | mmask(f);
  case NAN_FN: return (emask(f) << f->mbits) | (mmask(f) - 1);
  default: return (emask(f) << f->mbits) | mmask(f);
  }
}

int wp_hlo_text_float_nan(int prim, bool neg, uint64_t payload, uint64_t *bits) {
  const ffmt *f = fmt_of(prim);
  if (!f)
    return -1;
  switch (f->nan) {
  case NAN_IEEE:
    if (payload > mmask(f))
      return -1;
    *bits = (neg ? sign_bit(f) : 0) | (emask(f) << f->mbits) |
            (payload ? payload : UINT64_C(1) << (f->mbits - 1));
    return 0;
  case NAN_FN:
    if (payload)
      return -1;
    *bits = (neg ? sign_bit(f) : 0) | (emask(f) << f->mbits) | mmask(f);
    return 0;
  case NAN_FNUZ:
    if (payload)
      return -1;
    *bits = sign_bit(f);
    return 0;
  case NAN_E8M0:
    if (payload)
      return -1;
    *bits = 0xff;
    return 0;
  default:
    return -1;
  }
}

int wp_hlo_text_float_nan_payload(int prim, uint64_t bits, uint64_t *payload) {
  const ffmt *f = fmt_of(prim);
  *payload = 0;
  if (!f || f->nan != NAN_IEEE)
    return 1;
  uint64_t m = bits & mmask(f);
  if (m == UINT64_C(1) << (f->mbits - 1))
    return 1;
  *payload = m;
  return 0;
}

static uint64_t encode_e8m0(double v) {
  if (isnan(v) || signbit(v) || isinf(v))
    return v == 0 ? 0 : 0xff; /* -0 is 0: the smallest value, as +0 */
  if (v == 0)
    return 0;
  int e;
  double m = frexp(v, &e) * 2; /* v = m * 2^(e-1), m in [1, 2) */
  int64_t biased = (int64_t)e - 1 + 127;
  if (m > 1.5 || (m == 1.5 && (biased & 1))) /* nearest, ties to an even exponent */
    biased++;
  if (biased < 0)
    return 0;
  return biased > 254 ? 0xff : (uint64_t)biased;
}

uint64_t wp_hlo_text_float_encode(int prim, double v) {
  const ffmt *f = fmt_of(prim);
  if (!f)
    return 0;
  if (f->prim == WP_F64) {
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
  }
  if (f->nan == NAN_E8M0)
    return encode_e8m0(v);
  uint64_t bits;
  if (isnan(v)) {
    if (wp_hlo_text_float_nan(prim, signbit(v) != 0, 0, &bits))
      return max_finite(f); /* f4e2m1fn has no NaN: the reader refuses it first */
    return bits;
  }
  uint64_t sign = signbit(v) ? sign_bit(f) : 0;
  double a = fabs(v);
  uint64_t mag;
  if (isinf(a)) {
    mag = max_finite(f) + 1; /* overflow, handled below */
  } else if (a == 0) {
    mag = 0;
  } else {
    int e;
    frexp(a, &e);
    int64_t E = (int64_t)e - 1, emin = 1 - f->bias;
    if (E + f->bias > (int64_t)emask(f) + 1) {
      mag = max_finite(f) + 1;
    } else {
      int64_t eff = E < emin ? emin : E;
      /* exact in double; nearbyint rounds to nearest even */
      double q = nearbyint(ldexp(a, (int)(f->mbits - eff)));
      if (E < emin)
        mag = (uint64_t)q; /* subnormal: reaching 2^mbits makes it normal */
      else
        mag = ((uint64_t)(eff + f->bias) << f->mbits) + ((uint64_t)q - (UINT64_C(1) << f->mbits));
    }
  }
  if (mag > max_finite(f)) {
    switch (f->nan) {
    case NAN_IEEE: return sign | (emask(f) << f->mbits);
    case NAN_NONE: return sign | max_finite(f);
    default:
      wp_hlo_text_float_nan(prim, sign != 0, 0, &bits);
      return bits;
    }
  }
  if (f->nan == NAN_FNUZ && mag == 0)
    return 0;
  return sign | mag;
}

double wp_hlo_text_float_decode(int prim, uint64_t bits) {
  const ffmt *f = fmt_of(prim);
  if (!f)
    return 0;
  if (f->prim == WP_F64) {
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
  }
  if (f->nan == NAN_E8M0)
    return (bits & 0xff) == 0xff ? NAN : ldexp(1.0, (int)(bits & 0xff) - 127);
  bool neg = (bits & sign_bit(f)) != 0;
  uint64_t e = (bits >> f->mbits) & emask(f), m = bits & mmask(f);
  double v;
  if (f->nan == NAN_FNUZ &&
      (bits & (sign_bit(f) | (emask(f) << f->mbits) | mmask(f))) == sign_bit(f))
    return NAN;
  if (f->nan == NAN_IEEE && e == emask(f))
    v = m ? NAN : INFINITY;
  else if (f->nan == NAN_FN && e == emask(f) && m == mmask(f))
    v = NAN;
  else if (e == 0)
    v = ldexp((double)m, 1 - f->bias - f->mbits);
  else
    v = ldexp((double)(m | (UINT64_C(1) << f->mbits)), (int)e - f->bias - f->mbits);
  return neg ? -v : v;
}

bool wp_hlo_text_float_special(int prim, uint64_t bits, bool fnuz_minus, char *buf,
                               size_t cap) {
  const ffmt *f = fmt_of(prim);
  double v = wp_hlo_text_float_decode(prim, bits);
  if (isnan(v)) {
    uint64_t payload;
    bool neg = f && f->nan != NAN_E8M0 && (fnuz_minus || f->nan != NAN_FNUZ) &&
               (bits & sign_bit(f));
    if (wp_hlo_text_float_nan_payload(prim, bits, &payload))
      snprintf(buf, cap, "%snan", neg ? "-" : "");
    else
      snprintf(buf, cap, "%snan(0x%llx)", neg ? "-" : "", (unsigned long long)payload);
    return true;
  }
  if (isinf(v)) {
    snprintf(buf, cap, "%sinf", v < 0 ? "-" : "");
    return true;
  }
  return false;
}

void wp_hlo_text_float_str(int prim, uint64_t bits, char *buf, size_t cap) {
  if (wp_hlo_text_float_special(prim, bits, false, buf, cap))
    return;
  double v = wp_hlo_text_float_decode(prim, bits);
  for (int digits = 1; digits <= 17; digits++) {
    snprintf(buf, cap, "%.*g", digits, v);
    if (wp_hlo_text_float_encode(prim, strtod(buf, NULL)) == bits)
      return;
  }
}
