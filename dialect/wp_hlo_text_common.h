/* What the HLO text reader and printer share: element type names, the
 * enums XLA spells by name in the text, and the float formats' bits. */
#ifndef WP_HLO_TEXT_COMMON_H
#define WP_HLO_TEXT_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* XLA's lowercase spelling of a PrimitiveType ("f32", "token", "opaque")
 * and back; NULL / 0 when there is none. TUPLE has no name: a tuple is
 * written as its elements in parentheses. */
const char *wp_hlo_text_prim_name(int prim);
int wp_hlo_text_prim_by_name(const char *s, size_t n);

typedef struct wp_hlo_text_enum {
  const char *name;
  int value;
} wp_hlo_text_enum;

/* Tables end with a NULL name. */
extern const wp_hlo_text_enum wp_hlo_text_precisions[];   /* operand_precision */
extern const wp_hlo_text_enum wp_hlo_text_dot_algorithms[];
extern const wp_hlo_text_enum wp_hlo_text_rng_algorithms[];
extern const wp_hlo_text_enum wp_hlo_text_distributions[];
extern const wp_hlo_text_enum wp_hlo_text_fft_types[];
extern const wp_hlo_text_enum wp_hlo_text_api_versions[];  /* custom-call */
extern const wp_hlo_text_enum wp_hlo_text_schedules[];     /* custom-call */
extern const wp_hlo_text_enum wp_hlo_text_padding_types[];
extern const wp_hlo_text_enum wp_hlo_text_sharding_types[];
extern const wp_hlo_text_enum wp_hlo_text_dim_level_types[];

/* The value of name S (N bytes) in TBL: 0, or -1 when it has none. */
int wp_hlo_text_enum_value(const wp_hlo_text_enum *tbl, const char *s, size_t n, int *out);
/* The name of VALUE in TBL, NULL when it has none. */
const char *wp_hlo_text_enum_name(const wp_hlo_text_enum *tbl, int value);

/* XLA's comparison type when `type=` is not written: FLOAT for floating
 * and complex elements, SIGNED for signed integers, UNSIGNED for the rest. */
const char *wp_hlo_text_default_comparison_type(int prim);

/* Floating-point element types. A value's bits (the low bytes of a
 * uint64_t) from a double, rounded to nearest even as XLA's conversions
 * do (overflow: infinity, or NaN for formats without one, or the largest
 * value for f4e2m1fn which has neither); and back. */
bool wp_hlo_text_is_float(int prim);
int wp_hlo_text_float_bytes(int prim);
uint64_t wp_hlo_text_float_encode(int prim, double v);
double wp_hlo_text_float_decode(int prim, uint64_t bits);
/* Writes nan/-nan/nan(0x..)/inf/-inf into BUF when BITS is not finite
 * (true), else leaves BUF alone (false). FNUZ_MINUS: the fnuz types' one
 * NaN (only its sign bit set) prints as "-nan", as XLA's printer does. */
bool wp_hlo_text_float_special(int prim, uint64_t bits, bool fnuz_minus, char *buf,
                               size_t cap);
/* NaN handling: the format's NaN with sign NEG and, where the format has
 * payloads, mantissa PAYLOAD (0: the quiet NaN XLA writes for "nan").
 * -1 when the format has no NaN, or no such payload. */
int wp_hlo_text_float_nan(int prim, bool neg, uint64_t payload, uint64_t *bits);
/* For NaN BITS: 1 when they are the plain quiet NaN ("nan" / "-nan"),
 * else 0 and its payload in *PAYLOAD. */
int wp_hlo_text_float_nan_payload(int prim, uint64_t bits, uint64_t *payload);

/* The shortest decimal text ("1.5", "-0", "inf", "nan", "nan(0x1)",
 * "1e+20") that reads back to BITS of PRIM, into BUF (>= 48 bytes). */
void wp_hlo_text_float_str(int prim, uint64_t bits, char *buf, size_t cap);

#endif
