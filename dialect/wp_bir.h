/* The bir dialect: weightpack's BIR const-tensor model in MLIR, and its
 * protobuf (dialect/bir.proto) and JSON forms.
 *
 *   module @NAME attributes {bir.name, bir.artifact_path, bir.artifacts?} {
 *     module @HLO {...}                      the kept HLO program
 *     func.func @sg00() attributes {bir.function} {
 *       "bir.const_file"() {sym_name, size, source|constant|data}
 *       "bir.memloc_set"() {sym_name, tensor_class, dtype, shape, hlo_value?}
 *       "bir.memloc"() {sym_name, set, memory_type, size, alignment, placement,
 *                       const_file?, const_ap_offset?, const_sub_tensor_id?,
 *                       is_regloc_offset?}
 *       "bir.const_table"() {memory_type, names, tensor_classes, dtypes, shapes,
 *                            const_files, sizes, alignments, placements,
 *                            const_ap_offsets, const_sub_tensor_ids}
 *                                            constants as columns (wp_bir_table.h)
 *       "bir.kernel"() {sym_name, const_files, program}
 *       return
 *     }
 *   }
 *
 * The protobuf message is also the in-memory model the later passes read
 * (wp_bir_to_proto), so there is one description of a BIR module. */
#ifndef WP_BIR_H
#define WP_BIR_H

#include "bir.pb-c.h"
#include "wp_arena.h"
#include "wp_error.h"

#include <jansson.h>
#include <mlir-c/IR.h>
#include <stdbool.h>

#define WP_BIR_SCHEMA "weightpack-bir-1"

/* Does MODULE hold a BIR module (bir.name)? */
bool wp_bir_module_is_bir(MlirModule module);

/* The nested HLO program module of a BIR module, or null. */
MlirOperation wp_bir_hlo_program(MlirModule module);

/* MLIR -> message, in arena memory. MODULE must be valid BIR: it is
 * verified first (wp_bir_verify, names and all) unless FLAGS says the
 * caller has checked it. On failure *WHERE (when WHERE is not NULL) is the
 * location of the op at fault, or the module's, for a diagnostic. */
#define WP_BIR_WITH_PROGRAM 1u /* also export the HLO program (weights by origin) */
#define WP_BIR_CHECKED 2u      /* the caller ran wp_bir_check_module on MODULE */
Wp__Bir__Module *wp_bir_to_proto(MlirModule module, wp_arena *arena, unsigned flags,
                                 MlirLocation *where, wp_error *err);

/* Message -> a new module (caller destroys), verified by MLIR and by
 * wp_bir_verify (without NAMES: the passes look names up in what they
 * read). */
int wp_bir_from_proto(MlirContext ctx, const Wp__Bir__Module *msg, const char *filename,
                      MlirModule *out, wp_error *err);

/* Is DATA a serialized BIR module (it carries the schema marker)? */
bool wp_bir_sniff(const void *data, size_t len);

/* Bytes <-> module. */
int wp_bir_import(MlirContext ctx, const void *data, size_t len, const char *filename,
                  MlirModule *out, wp_error *err);
int wp_bir_export(MlirModule module, wp_arena *arena, const void **data, size_t *len,
                  MlirLocation *where, wp_error *err);

/* JSON: TensorClass and MemoryType by name; the HLO program is not part
 * of the JSON form. wp_bir_to_json returns a new reference (NULL when out
 * of memory). */
json_t *wp_bir_to_json(const Wp__Bir__Module *msg);

/* Each set's memory locations as a linked list over F's locations, in
 * their order: set K's first is FIRST[K] (SIZE_MAX when none), location
 * J's next is NEXT[J]. Linear (a hash of set names). A location that
 * names no set is in no list, or, with ERR, the error (-1). FIRST holds
 * n_sets entries, NEXT n_locations; out of memory aborts. */
int wp_bir_set_locations(const Wp__Bir__Function *f, size_t *first, size_t *next,
                         wp_error *err);
int wp_bir_from_json(wp_arena *arena, json_t *root, Wp__Bir__Module **out, wp_error *err);

#endif
