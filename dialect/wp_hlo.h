/* The hlo dialect: loading it, and HloModuleProto <-> MLIR.
 *
 * Representation (see README "The hlo dialect"):
 *   module @NAME attributes {hlo.entry = @ENTRY, hlo.extra = "..."}
 *   each HloComputationProto -> func.func @NAME, {hlo.id, hlo.extra, hlo.order}
 *   each parameter -> a block argument with {hlo.name, hlo.id, hlo.extra}
 *   each instruction -> "hlo.OPCODE"(operands) {name, id, extra, value?}
 *   the root -> func.return
 * `extra` attributes hold, as protobuf bytes, every field the IR does not
 * model (layouts that are not the default, metadata, sharding, dimensions,
 * called computations, unknown fields ...), so export gives them back. */
#ifndef WP_HLO_H
#define WP_HLO_H

#include "wp_arena.h"
#include "wp_error.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum wp_hlo_container {
  WP_HLO_NOT_HLO = 0,
  WP_HLO_MODULE_PROTO, /* bare HloModuleProto */
  WP_HLO_PROTO,        /* HloProto wrapper (field 1 = hlo_module) */
  WP_HLO_PROTO_WITH_CONFIG, /* HloModuleProtoWithConfig (1 = hlo_module, 2 = config) */
};

/* Guesses which container DATA is (only looks at the first fields). */
enum wp_hlo_container wp_hlo_sniff(const void *data, size_t len);

/* Imports an HloModuleProto or HloProto. FILENAME goes into locations.
 * On success the caller destroys *out. Errors carry no file prefix. */
int wp_hlo_import(MlirContext ctx, const void *data, size_t len,
                  const char *filename, MlirModule *out, wp_error *err);

/* Where a text form of the module (XLA's HLO text) defines what the
 * importer makes ops of: line and column from 1 (columns in bytes); a
 * line of 0 is no place. Kept beside the HloModuleProto, not in it, so
 * the proto stays what XLA writes. */
typedef struct wp_hlo_pos {
  uint32_t line, col;
} wp_hlo_pos;

typedef struct wp_hlo_locs {
  wp_hlo_pos module;       /* the module (its HloModule line) */
  const wp_hlo_pos *instr; /* by instruction id, N_INSTR of them */
  size_t n_instr;
  const wp_hlo_pos *comp;  /* by computation, in the module's order */
  size_t n_comp;
} wp_hlo_locs;

/* wp_hlo_import, each op located at FILENAME:LINE:COL from LOCS (an
 * instruction's, a parameter's block argument, a computation's func, its
 * func.return at the root instruction, the module) inside a NameLoc of
 * its name, instead of the proto's metadata or FILENAME:0:0. LOCS may be
 * NULL (then as wp_hlo_import); positions it lacks fall back likewise. */
int wp_hlo_import_located(MlirContext ctx, const void *data, size_t len, const char *filename,
                          const wp_hlo_locs *locs, MlirModule *out, wp_error *err);

/* A module's settings (HloModuleConfigProto: replica_count,
 * num_partitions ...) are the bytes of its `hlo.config` attribute, kept
 * as read from an HloModuleProtoWithConfig or made from HLO text. 1 and
 * *DATA, *LEN when MODULE has them, else 0. */
int wp_hlo_module_config(MlirModule module, const void **data, size_t *len);

/* HloModuleProtoWithConfig bytes (in ARENA) around a packed module and
 * config, in the order XLA writes them. */
struct ProtobufCBinaryData;
struct ProtobufCBinaryData wp_hlo_wrap_config(wp_arena *arena, const void *module, size_t n_module,
                                              const void *config, size_t n_config);

struct Xla__HloModuleProto;

/* The config bytes (DATA, LEN: wp_hlo_module_config's) to write beside
 * MOD, MOD's host program shape put in its entry_computation_layout when
 * that no longer describes it; else the same bytes. */
int wp_hlo_config_for_export(wp_arena *arena, const struct Xla__HloModuleProto *mod,
                             const void *data, size_t len, struct ProtobufCBinaryData *out,
                             wp_error *err);

/* Exports MODULE as an HloModuleProto in arena memory; a module with
 * settings (hlo.config) as an HloModuleProtoWithConfig, so they are never
 * lost (an HloProto reader takes it too: its field 1 is the module). INLINE_WEIGHTS:
 * write the bytes of weight constants into their literals; otherwise write
 * only their origin (the form --verify-roundtrip uses), which import reads
 * back from the .npy file. Refuses past protobuf's 2 GiB limit. On failure
 * *WHERE (when WHERE is not NULL) is the location of the op at fault, or
 * the module's, for a diagnostic. */
int wp_hlo_export(MlirModule module, wp_arena *arena, bool inline_weights,
                  const void **data, size_t *len, MlirLocation *where, wp_error *err);

/* wp_hlo_export's (bare) module message before it is packed, in ARENA;
 * a caller that writes it adds the config (wp_hlo_module_config), for a caller
 * that packs it as it writes (protobuf_c_message_pack_to_buffer) or reads
 * it: a weight's literal may point at the weight's bytes where the IR
 * holds them (a mapped .npy is not copied), so it must not outlive
 * MODULE. The same checks (the 2 GiB limit too) and errors. */
struct Xla__HloModuleProto;
int wp_hlo_export_proto(MlirModule module, wp_arena *arena, bool inline_weights,
                        struct Xla__HloModuleProto **out, MlirLocation *where, wp_error *err);

/* Gives every parameter, instruction and computation that lacks one the id
 * and name export would give it, so hand-written MLIR reads back from
 * protobuf unchanged. */
void wp_hlo_fill_ids(MlirModule module);

/* Does MODULE hold an HLO program (any hlo.* op or hlo.entry)? */
int wp_hlo_module_is_hlo(MlirModule module);

/* An HLO program nested beside BIR functions shares their symbol table: a
 * program named TAKEN (say "sg00") is renamed "TAKEN.hlo", its own name
 * kept in hlo.name, which export writes as the module's name. */
void wp_hlo_module_avoid_name(MlirOperation hlo_module, MlirStringRef taken);

#endif
