/* Values of HLO text as XLA writes them, shared by the reader and the
 * printer of literals: how XLA prints an element (its RoundTripFpToString
 * and integer forms), and the ranges its parser checks. */
#ifndef WP_HLO_TEXT_VALUES_H
#define WP_HLO_TEXT_VALUES_H

#include "hlo.pb-c.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* BITS of floating-point type PRIM as XLA prints them in a literal: f32
 * with 6 significant digits when they read back, else 9; f64 with 15, else
 * 17; the narrower types with their max_digits10 (5 for f16, 4 for bf16, 3
 * or 2 for the 8- and 4-bit types), whether or not fewer would do; "inf",
 * "-inf", "nan", "-nan" and "nan(0x7f)" (a payload, for the types with
 * signaling NaNs). BUF: 48 bytes at least. */
void wp_hlo_text_xla_float(int prim, uint64_t bits, char *buf, size_t cap);

/* The largest finite value of floating-point type PRIM, as a double. */
double wp_hlo_text_float_max(int prim);

/* For the printer (wp_hlo_text_print_literal.c): LIT with SHAPE before
 * each array, as XLA's ToStringWithLayoutOneline writes a custom call's
 * literal= ("s32[2]{0} {1, 2}", "( f32[] 1, pred[2]{0} {1, 0} )").
 * wp_hpr_literal (wp_hlo_text_print_internal.h) writes a constant's. */
struct hpr;
int wp_hpr_literal_shaped(struct hpr *w, const Xla__LiteralProto *lit,
                          const Xla__ShapeProto *shape);

#endif
