/* Pieces shared by the hlo importer and exporter (not public). */
#ifndef WP_HLO_INTERNAL_H
#define WP_HLO_INTERNAL_H

#include "hlo.pb-c.h"
#include "wp_arena.h"
#include "wp_error.h"

#include <mlir-c/IR.h>

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

/* Unpacks the protobuf bytes held in string attribute ATTR (null attribute:
 * a new empty message). NULL when the bytes are malformed. */
void *wp_hlo_unpack_extra(wp_arena *arena, MlirAttribute attr,
                          const ProtobufCMessageDescriptor *desc);

#endif
