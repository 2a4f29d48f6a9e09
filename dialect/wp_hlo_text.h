/* XLA's HLO text: read into an HloModuleProto, printed from one.
 *
 * The reader builds the HloModuleProto XLA's parser and HloModule::ToProto
 * would give for the text (default layouts filled in, ids numbered from 0
 * in text order, each computation's id its root's, the empty submessages
 * XLA always writes), so the importer and everything after it see what an
 * XLA proto dump of the same module holds. Whatever hlo.proto has no field
 * for is an error at its FILE:LINE:COL, never dropped.
 *
 * The printer writes XLA's style (HloModule::ToString with operand shapes
 * and `%` names); reading its output gives back the same proto for every
 * field the text carries (see docs/hlo-text.md for those it does not). */
#ifndef WP_HLO_TEXT_H
#define WP_HLO_TEXT_H

#include "hlo.pb-c.h"
#include "wp_arena.h"
#include "wp_hlo.h"
#include "wp_error.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>

/* A warning (an elided constant read as zeros, a field the printer cannot
 * write): MSG is one line, FILE:LINE:COL first where it has a place. */
typedef void (*wp_hlo_text_warn_fn)(void *user, const char *msg);

/* Reads TEXT (LEN bytes, no NUL needed) into *OUT, in ARENA. FILENAME
 * starts error messages ("FILE:LINE:COL: ..."). WARN may be NULL. */
int wp_hlo_text_parse(wp_arena *arena, const char *text, size_t len, const char *filename,
                      wp_hlo_text_warn_fn warn, void *user, Xla__HloModuleProto **out,
                      wp_error *err);

/* wp_hlo_text_parse, and where the text defines the module, each
 * computation (its name on its header line) and each instruction (its
 * name, `%` included): *LOCS, in ARENA, for wp_hlo_import_located. LOCS
 * may be NULL. */
int wp_hlo_text_parse_located(wp_arena *arena, const char *text, size_t len,
                              const char *filename, wp_hlo_text_warn_fn warn, void *user,
                              Xla__HloModuleProto **out, wp_hlo_locs *locs, wp_error *err);

/* wp_hlo_text_parse_located, and the module's settings that HloModuleProto
 * has no field for (replica_count, num_partitions, alias_passthrough_params,
 * allow_spmd_sharding_propagation_to_*): *CONFIG, the HloModuleConfigProto
 * XLA's parser would give the module (its entry_computation_layout the
 * module's host program shape), or NULL when every one is XLA's default.
 * The two functions above leave the settings out; CONFIG and LOCS may be
 * NULL. */
int wp_hlo_text_parse_config(wp_arena *arena, const char *text, size_t len,
                             const char *filename, wp_hlo_text_warn_fn warn, void *user,
                             Xla__HloModuleProto **out, Xla__HloModuleConfigView **config,
                             wp_hlo_locs *locs, wp_error *err);

/* wp_hlo_text_parse, then the protobuf importer on the packed module,
 * each op located where the text defines it (FILENAME:LINE:COL inside a
 * NameLoc of its name; wp_hlo_import_located). The proto is the same as
 * without them: positions travel beside it. Warnings become MLIR warnings
 * at no place, their text starting FILE:LINE:COL. */
int wp_hlo_text_import(MlirContext ctx, const void *text, size_t len, const char *filename,
                       MlirModule *out, wp_error *err);

/* Is DATA HLO text? A name ending in .hlo says so (unless the bytes are
 * binary: a proto so named); one ending in .txt does unless the bytes
 * read as MLIR; else the content: after blank and `//` comment lines it
 * starts with `HloModule`, `ENTRY`, or a computation (`%name (` or
 * `name {`). PATH may be NULL. */
bool wp_hlo_text_sniff(const char *path, const void *data, size_t len);

/* Where printed text goes, in order, a piece at a time: 0, or -1 after
 * setting ERR (a write that failed). The printer stops at the first -1 and
 * fails with that error. DATA is the printer's; it is not kept. */
typedef int (*wp_hlo_text_sink_fn)(void *user, const char *data, size_t len, wp_error *err);

/* Prints MODULE as HLO text to SINK as it goes: pieces of about 64 KiB,
 * nothing kept but the piece being filled, so a failing output ends the
 * printing at once. The module is gone through first without its
 * literals' elements (the checks and the warnings, nothing written): one
 * that cannot be printed fails before SINK is called. ARENA is scratch
 * (the caller's); fields the text cannot hold go to WARN, one line each. */
int wp_hlo_text_print_to(wp_arena *arena, const Xla__HloModuleProto *module,
                         wp_hlo_text_warn_fn warn, void *user, wp_hlo_text_sink_fn sink,
                         void *sink_user, wp_error *err);

/* wp_hlo_text_print_to for MODULE with its settings: CONFIG (may be NULL)
 * gives the `HloModule` line's replica_count, num_partitions ... in XLA's
 * order; its fields the text cannot carry are warned about. */
int wp_hlo_text_print_config_to(wp_arena *arena, const Xla__HloModuleProto *module,
                                const Xla__HloModuleConfigView *config,
                                wp_hlo_text_warn_fn warn, void *user, wp_hlo_text_sink_fn sink,
                                void *sink_user, wp_error *err);

/* wp_hlo_text_print_to into *TEXT (malloc'd, NUL-terminated, *LEN bytes;
 * the caller frees it). */
int wp_hlo_text_print(wp_arena *arena, const Xla__HloModuleProto *module,
                      wp_hlo_text_warn_fn warn, void *user, char **text, size_t *len,
                      wp_error *err);

/* wp_hlo_text_print with the module's settings (CONFIG may be NULL). */
int wp_hlo_text_print_config(wp_arena *arena, const Xla__HloModuleProto *module,
                             const Xla__HloModuleConfigView *config, wp_hlo_text_warn_fn warn,
                             void *user, char **text, size_t *len, wp_error *err);

/* Exports MODULE (the HloModuleProto wp_hlo_export writes with weights
 * inlined, the 2 GiB limit included; a weight's bytes are read from the IR
 * as they are printed, not copied) and prints it to SINK as
 * wp_hlo_text_print_to does; fields dropped become MLIR warnings, all
 * before the first piece. On failure *WHERE is the op at fault, as
 * wp_hlo_export gives it, else the module's. WHERE may be NULL. */
int wp_hlo_text_emit_to(MlirModule module, wp_arena *arena, wp_hlo_text_sink_fn sink,
                        void *sink_user, MlirLocation *where, wp_error *err);

/* wp_hlo_text_emit_to into *TEXT (malloc'd, as wp_hlo_text_print). */
int wp_hlo_text_emit(MlirModule module, wp_arena *arena, char **text, size_t *len,
                     MlirLocation *where, wp_error *err);

#endif
