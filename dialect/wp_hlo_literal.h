/* LiteralProto data <-> MLIR elements attributes. */
#ifndef WP_HLO_LITERAL_H
#define WP_HLO_LITERAL_H

#include "hlo.pb-c.h"
#include "wp_arena.h"
#include "wp_error.h"

#include <mlir-c/IR.h>
#include <stdint.h>

/* If LIT holds exactly TYPE's elements in the one data field XLA uses for
 * its element type, returns 1 and the elements as *out; returns 0 when the
 * literal is anything else (tuple, other field, wrong count), in which case
 * the caller keeps the literal as it is. */
int wp_hlo_literal_to_attr(const Xla__LiteralProto *lit, MlirType type,
                           MlirAttribute *out);

/* XLA keeps a literal's data in its shape's layout and requires a
 * constant's literal to have the instruction's minor_to_major. When SHAPE
 * (the instruction's) has a valid minor_to_major other than the default,
 * sets LIT_SHAPE's layout to it and *out to BYTES (C-order elements of
 * ELEM_BYTES each) in that physical order (arena memory); else *out is
 * BYTES and LIT_SHAPE is left as it is. -1 only should the layout made not
 * re-read (out of memory aborts, as the arena does). */
int wp_hlo_literal_in_layout(wp_arena *arena, const Xla__ShapeProto *shape, int elem_bytes,
                             const void *bytes, Xla__ShapeProto *lit_shape,
                             const void **out);

/* Zeros of TYPE (a ranked tensor of an XLA element type) as a splat,
 * which holds one element whatever the shape: the value of a constant
 * without a literal (`{...}` in HLO text). 0, or -1 for another type. */
int wp_hlo_literal_zeros(MlirType type, MlirAttribute *out);

/* Clears every data field of LIT (keeps its shape). */
void wp_hlo_literal_clear_data(Xla__LiteralProto *lit);

/* Fills LIT's data field for the element type of TYPE from BYTES: the
 * little-endian, C-order elements (bools one byte each), COUNT of them.
 * Arrays are arena memory or point into BYTES. */
int wp_hlo_literal_set_data(wp_arena *arena, Xla__LiteralProto *lit, int prim,
                            const void *bytes, int64_t count, wp_error *err);

/* The little-endian C-order bytes of a dense elements attribute (splats
 * expanded, i1 as one byte per element), in arena memory. */
int wp_hlo_elements_bytes(wp_arena *arena, MlirAttribute attr,
                          const void **bytes, uint64_t *size, wp_error *err);

#endif
