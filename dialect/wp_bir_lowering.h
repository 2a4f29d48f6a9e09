/* bir.lowering, the module attribute bir-lower leaves for lowering the
 * same constants again with other bytes (neff replace-weights): its
 * options and the HLO program's facts the BIR does not show otherwise
 * (the Lowering message of bir.proto). In MLIR:
 *
 *   bir.lowering = {small_const_threshold = 4096, small_weight_threshold = 4096,
 *                   alignment = 1, const_memory = "Const",
 *                   weight_operands = ["w"], planted = ["b"]}
 *
 * the two lists only when not empty. Conversions to and from the protobuf
 * message and JSON; the check wp_bir_verify applies. */
#ifndef WP_BIR_LOWERING_H
#define WP_BIR_LOWERING_H

#include "bir.pb-c.h"
#include "wp_arena.h"
#include "wp_error.h"

#include <jansson.h>
#include <mlir-c/IR.h>

#define WP_BIR_LOWERING_ATTR "bir.lowering"

/* The message of ATTR (a dictionary wp_bir_lowering_check accepted), in
 * ARENA. */
Wp__Bir__Lowering *wp_bir_lowering_to_proto(MlirAttribute attr, wp_arena *arena);

/* The attribute of message M. */
MlirAttribute wp_bir_lowering_from_proto(MlirContext ctx, const Wp__Bir__Lowering *m);

/* The JSON object of M (a new reference) and back: -1 with ERR naming
 * the field at fault. */
json_t *wp_bir_lowering_to_json(const Wp__Bir__Lowering *m);
int wp_bir_lowering_from_json(json_t *j, wp_arena *arena, Wp__Bir__Lowering **out,
                              wp_error *err);

/* NULL when ATTR is a well-formed bir.lowering, else what is wrong. */
const char *wp_bir_lowering_check(MlirAttribute attr);

#endif
