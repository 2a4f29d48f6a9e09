/* Pieces shared by the hlo importer and exporter (not public). */
#ifndef WP_HLO_INTERNAL_H
#define WP_HLO_INTERNAL_H

#include "hlo.pb-c.h"
#include "wp_arena.h"
#include "wp_error.h"
#include "wp_i64map.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The ProgramShapeProto export writes for FUNC when nothing else is known:
 * its parameters' shapes and names and its root's shape. */
Xla__ProgramShapeProto *wp_hlo_func_program_shape(wp_arena *arena, MlirOperation func,
                                                  wp_error *err);

/* Is PS byte-identical to the program shape export derives for ENTRY from
 * its signature (wp_hlo_func_program_shape)? */
int wp_hlo_shape_is_derived(wp_arena *arena, const Xla__ProgramShapeProto *ps,
                            MlirOperation entry);

/* Is PS byte-identical to the host program shape export writes where the
 * module has none: ENTRY's stored program shape while it still describes
 * the signature, else the derived one? Import and inline-weights drop such
 * a host shape, so the IR survives its own round trip. */
int wp_hlo_host_shape_is_default(wp_arena *arena, const Xla__ProgramShapeProto *ps,
                                 MlirOperation entry);

/* The host program shape export writes for a module whose entry is ENTRY
 * where it is stored: the module's (MODULE_HOST) while it describes
 * ENTRY's signature, else the entry computation's (ENTRY_SHAPE) while it
 * does; NULL where export derives it from the signature (each parameter's
 * and the root's exported shape). Either argument may be NULL. */
const Xla__ProgramShapeProto *wp_hlo_export_host_shape(MlirOperation entry,
                                                      const Xla__ProgramShapeProto *module_host,
                                                      const Xla__ProgramShapeProto *entry_shape);

/* Positions by instruction id, for ids IDS[0..N-1] (the last position of
 * an id given twice): an array where the ids are about as dense as the
 * importer numbers them, else a hash map. Out of memory aborts. */
typedef struct wp_hlo_id_index {
  int64_t lo;  /* the smallest id */
  int64_t *at; /* by id - LO: a position, or -1; NULL: MAP holds them */
  size_t span;
  wp_i64map map;
} wp_hlo_id_index;

void wp_hlo_id_index_init(wp_hlo_id_index *x, const int64_t *ids, size_t n);
bool wp_hlo_id_index_get(const wp_hlo_id_index *x, int64_t id, size_t *pos);
void wp_hlo_id_index_free(wp_hlo_id_index *x);

/* The order export writes FUNC's instructions in, given their ids IDS in
 * the order found (its parameters, then its ops): the ids of FUNC's
 * stored hlo.order first, each once, then the rest as found. ORDER gets
 * N indices into IDS; false (ORDER untouched) when FUNC stores none. */
bool wp_hlo_export_order(MlirOperation func, const int64_t *ids, size_t n, size_t *order);

/* Exporting a module one instruction at a time, as wp_hlo_export_proto
 * (without weights' bytes) exports it whole, for the after-pass shape
 * check: each instruction alone, in memory its caller gives back. */
typedef struct wp_hlo_op_export wp_hlo_op_export;

wp_hlo_op_export *wp_hlo_op_export_create(MlirModule m);
void wp_hlo_op_export_destroy(wp_hlo_op_export *x); /* NULL is fine */

/* The id export gives op OP of a func body, or func FUNC: its own, else a
 * fresh one, as export numbers them (found, for the whole module, when
 * first asked for). */
int64_t wp_hlo_op_export_op_id(wp_hlo_op_export *x, MlirOperation op);
int64_t wp_hlo_op_export_func_id(wp_hlo_op_export *x, MlirOperation func);
/* The id of the instruction that defines V (an op's result or a func's
 * parameter); false where export fails. */
bool wp_hlo_op_export_value_id(wp_hlo_op_export *x, MlirValue v, int64_t *id);

/* Op OP of a func body (not its func.return), or parameter I of FUNC, as
 * export writes it into ARENA, but without a constant's literal or a
 * weight's origin, and with default shapes that instructions of one type
 * share (read them only); NULL where export refuses it. */
Xla__HloInstructionProto *wp_hlo_op_export_op(wp_hlo_op_export *x, wp_arena *arena,
                                              MlirOperation op);
Xla__HloInstructionProto *wp_hlo_op_export_param(wp_hlo_op_export *x, wp_arena *arena,
                                                 MlirOperation func, intptr_t i);

/* Unpacks the protobuf bytes held in string attribute ATTR (null attribute:
 * a new empty message). NULL when the bytes are malformed. */
void *wp_hlo_unpack_extra(wp_arena *arena, MlirAttribute attr,
                          const ProtobufCMessageDescriptor *desc);

#endif
