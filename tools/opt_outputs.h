/* opt's checks on the files it writes itself (-o, --stats-json), made
 * before any pass runs. A pass checks the files it writes (neff-pack's
 * NEFF, copy-const-artifacts' directory) itself, in every driver. */
#ifndef OPT_OUTPUTS_H
#define OPT_OUTPUTS_H

#include "opt_config.h"
#include "wp_model_dir.h"

#include <mlir-c/IR.h>
#include <stdio.h>

/* Every file opt writes: not empty, not a directory, in a directory that
 * takes a new file, and not one of the run's inputs: the input file, a
 * file of model directory MD (when the input is one), or a weight or
 * constant file MODULE names by path. 0, or EXIT_USAGE (EXIT_BAD_INPUT for
 * an output that cannot be made) after an error line. Then standard
 * output (opt_check_stdout). */
int opt_check_outputs(const opt_config *cfg, const wp_model_dir *md, MlirModule module);

/* 0 when standard output can take what goes there (the IR without -o, a
 * --stats-json=-): it is open, for writing. Else EXIT_BAD_INPUT after an
 * error line: found before any pass runs rather than at the first write,
 * after the whole pipeline ran. (A full device, >/dev/full, is found only
 * by that write.) opt_check_outputs checks it too, after its usage
 * errors. */
int opt_check_stdout(const opt_config *cfg);

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
