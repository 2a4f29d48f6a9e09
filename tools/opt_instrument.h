/* opt's watch on every pass of a run, MLIR's own among them (canonicalize,
 * a nested func.func(cse)): the progress line's stage, and their times for
 * --mlir-timing and --stats-json. weightpack's passes time themselves
 * (passes/wp_pass_shell.cpp), into the same observer, in run order. */
#ifndef OPT_INSTRUMENT_H
#define OPT_INSTRUMENT_H

#include "opt_progress.h"
#include "wp_run.h"

#include <mlir-c/Pass.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Watches PM's passes (PM owns the watch): each pass that starts is
 * PROGRESS's stage (PROGRESS may be NULL), and when OBS->timing each of
 * MLIR's passes on the top-level op is timed into OBS, named by its
 * pipeline text; their names live as long as PM. */
void opt_instrument(MlirPassManager pm, wp_pass_observer *obs, opt_progress *progress);

/* The passes on PM's top level, as mlir-opt's --dump-pass-pipeline counts
 * them. */
size_t opt_pass_count(MlirPassManager pm);

#ifdef __cplusplus
}
#endif

#endif
