/* XLA shapes and primitive types <-> MLIR types.
 *
 * Element types: PRED i1; S1 si1 (i1 is taken by PRED); S2..S64 signless
 * i2..i64; U1..U64 ui1..ui64; F16 f16; BF16 bf16; F32 f32; F64 f64; the
 * F8 types MLIR 19 has; F8E3M4, F4E2M1FN and F8E8M0FNU, which MLIR 19 has
 * no builtin for, the hlo dialect's !hlo.f8e3m4, !hlo.f4e2m1fn and
 * !hlo.f8e8m0fnu; C64 complex<f32>; C128 complex<f64>; TOKEN !hlo.token;
 * OPAQUE_TYPE !hlo.opaque. Arrays are ranked tensors (a dynamic dimension
 * is `?`; its bound stays in the instruction's preserved shape), tuples
 * are builtin tuples. */
#ifndef WP_HLO_TYPES_H
#define WP_HLO_TYPES_H

#include "hlo.pb-c.h"
#include "wp_arena.h"
#include "wp_error.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stdint.h>

enum {
  WP_PRED = 1, WP_S8 = 2, WP_S16 = 3, WP_S32 = 4, WP_S64 = 5, WP_U8 = 6,
  WP_U16 = 7, WP_U32 = 8, WP_U64 = 9, WP_F16 = 10, WP_F32 = 11, WP_F64 = 12,
  WP_TUPLE = 13, WP_OPAQUE = 14, WP_C64 = 15, WP_BF16 = 16, WP_TOKEN = 17,
  WP_C128 = 18, WP_F8E5M2 = 19, WP_F8E4M3FN = 20, WP_S4 = 21, WP_U4 = 22,
  WP_F8E4M3B11FNUZ = 23, WP_F8E5M2FNUZ = 24, WP_F8E4M3FNUZ = 25, WP_S2 = 26,
  WP_U2 = 27, WP_F8E4M3 = 28, WP_F8E3M4 = 29, WP_S1 = 30, WP_U1 = 31,
  WP_F4E2M1FN = 32, WP_F8E8M0FNU = 33,
};

/* Facts about one array element type. */
typedef struct wp_hlo_prim {
  int xla;           /* PrimitiveType */
  const char *name;  /* XLA's spelling: "f32", "bf16", "pred" ... */
  int bytes;         /* bytes per element in literals, .npy data and MLIR
                        dense storage (sub-byte types take a whole byte) */
  int literal_field; /* LiteralProto field holding this type's data */
} wp_hlo_prim;

const wp_hlo_prim *wp_hlo_prim_info(int xla); /* NULL if not an array type */

/* The MLIR element type, or a null type when MLIR 19 has none. */
MlirType wp_hlo_prim_to_mlir(MlirContext ctx, int xla);
/* The PrimitiveType of an MLIR element type, 0 when it has none. */
int wp_hlo_prim_from_mlir(MlirType type);

/* SHAPE as an MLIR type. Errors say what is unsupported, without a prefix. */
int wp_hlo_shape_to_type(MlirContext ctx, const Xla__ShapeProto *shape,
                         MlirType *out, wp_error *err);

/* A fresh ShapeProto for TYPE with XLA's default layout (major-to-minor),
 * in arena memory. */
Xla__ShapeProto *wp_hlo_type_to_shape(wp_arena *arena, MlirType type,
                                      wp_error *err);

/* Does SHAPE describe TYPE? (Layouts and dynamic bounds are not compared.) */
int wp_hlo_shape_matches(MlirContext ctx, const Xla__ShapeProto *shape,
                         MlirType type);

/* Writes XLA's short form of TYPE ("f32[4,?]", "(f32[], s32[2])") into buf. */
void wp_hlo_type_str(MlirType type, char *buf, size_t size);

/* Number of elements of a static tensor type; -1 on overflow or dynamic. */
int64_t wp_hlo_num_elements(MlirType tensor);

/* The bytes a static tensor's data takes (elements x bytes per element)
 * and its PrimitiveType: 0; -1 when it has no XLA element type or a
 * dynamic shape; -2 when the bytes would not fit in memory. */
int wp_hlo_storage_bytes(MlirType tensor, int *prim, uint64_t *bytes);

/* Element types MLIR 19 has no builtin for: the hlo dialect's own. Their
 * constants cannot be dense elements attributes and are dense_resource
 * blobs of one byte per element instead. */
static inline bool wp_hlo_prim_is_dialect_float(int prim) {
  return prim == WP_F8E3M4 || prim == WP_F4E2M1FN || prim == WP_F8E8M0FNU;
}

/* The largest byte an element of PRIM may hold in a literal, a .npy or a
 * blob: 1 for PRED, S1, U1; 15 for F4E2M1FN (one element per byte, low 4
 * bits, as XLA's literals hold it); 255 otherwise. */
static inline unsigned wp_hlo_prim_max_byte(int prim) {
  if (prim == WP_PRED || prim == WP_S1 || prim == WP_U1)
    return 1;
  return prim == WP_F4E2M1FN ? 15 : 255;
}

/* PRED, S1, U1: a byte per element, each 0 or 1. */
static inline bool wp_hlo_prim_is_one_bit(int prim) {
  return prim == WP_PRED || prim == WP_S1 || prim == WP_U1;
}

#endif
