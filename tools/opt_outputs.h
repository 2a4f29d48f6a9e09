/* opt's outputs: the checks on the files a run writes, made before any
 * pass runs, and the writing of the IR after them. */
#ifndef OPT_OUTPUTS_H
#define OPT_OUTPUTS_H

#include "opt_config.h"
#include "wp_model_dir.h"

#include <mlir-c/IR.h>
#include <stdio.h>

/* Every file this run writes (-o, neff-pack's output=): there is one where
 * neff-pack needs it, it is not empty, not a directory, and not one of the
 * run's inputs: the input file, a file of a model directory the run reads
 * (MD when the input is one; else DEFAULT_MODEL_DIR, the input file's
 * directory; an inline-weights model-dir=), or a weight or constant file
 * MODULE names by path (in --artifact-dir or the recorded directory). Nor
 * may it lie in an artifact directory the run writes under a name a
 * constant file could take (one ending in .bin, or one of MODULE's const
 * files). Standard output, when something goes there, must be open for
 * writing (not closed: >&-). 0, or EXIT_USAGE (EXIT_BAD_INPUT for an
 * output that cannot be made or written) after an error line. */
int opt_check_outputs(const opt_config *cfg, const wp_model_dir *md,
                      const char *default_model_dir, MlirModule module);

/* 0 when standard output can take what goes there (the IR without -o, a
 * --stats-json=-): it is open, for writing. Else EXIT_BAD_INPUT after an
 * error line: found before any pass runs rather than at the first write,
 * after the whole pipeline ran. (A full device, >/dev/full, is found only
 * by that write.) opt_check_outputs checks it too, after its usage
 * errors. */
int opt_check_stdout(const opt_config *cfg);

/* Where the files this run writes appear (-o and neff-pack's output=,
 * through symlinks; not standard output), malloc'd into PATHS (room for
 * MAX_PASSES + 1); their count. copy-const-artifacts places no constant
 * file there. */
size_t opt_output_paths(const opt_config *cfg, char **paths);

/* Writes M in the form --emit asks for to DEST (a --split-input-file
 * chunk's buffer), or to -o's file when DEST is NULL: whole or not at all
 * (wp_output), standard output as it is printed. What is built whole (the
 * BIR forms, small) is built before the output is opened; HLO text, MLIR
 * text and bytecode and the HloModuleProto go out as they are printed or
 * packed, and the first write that fails ends the run: HLO text, JSON and
 * protobuf stop there and fail (-1 after an error line); MLIR's printer
 * cannot be stopped (it would hex-encode every weight for nothing), so
 * there the error line is printed, CLEANUP called (it must leave the
 * process ready to exit, as a signal's cleanup does) and the process
 * exits with status 1. 0, or -1 after an error line. */
int opt_write_output(MlirModule m, const opt_config *cfg, MlirOpPrintingFlags flags, FILE *dest,
                     void (*cleanup)(void));

#endif
