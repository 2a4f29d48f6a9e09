/* The run object: everything one pipeline run knows, shared by the passes
 * of that run. A driver (opt, a C API caller) creates it and hands it to
 * each pass it creates; a pass created without one (MLIR's pass registry:
 * mlir-opt with the plugin, mlirParsePassPipeline) gets one from its pass
 * manager: the first weightpack pass of a PassManager::run creates it,
 * the later ones of that run find it (passes/wp_pass_shell.cpp).
 *
 * What it holds: the run token (facts a pass recorded on the IR are
 * trusted only within the run that recorded them), the files the run
 * placed and hashed, the weights inline-weights mapped from files, and
 * the driver's settings (default model directory, artifact directory,
 * NEFF output). Thread-safe where passes run work on several threads
 * (placing, hashing); the settings are set before the pipeline runs. */
#ifndef WP_RUN_H
#define WP_RUN_H

#include "wp_hashed_files.h"
#include "wp_placed.h"

#include "weightpack/weightpack.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct wp_model_dir;

/* What a driver watches, none of which changes what a pass does: IR
 * printing after each pass, the round-trip check, per-pass timing. */
typedef struct wp_pass_observer {
  bool print_ir_after_all;
  bool print_ir_before_all;
  const char *print_ir_after;  /* pass names, comma-separated: print after these; may be NULL */
  const char *print_ir_before; /* and before these */
  bool verify_roundtrip;
  bool timing;
  MlirOpPrintingFlags print_flags; /* for IR dumps; may be null */
  /* Filled when timing: pass titles and seconds. */
  size_t n_timings;
  const char *timing_names[64];
  double timing_seconds[64];
  long timing_peak_kib[64]; /* the process's peak RSS when the pass ended */
} wp_pass_observer;

struct wp_run {
  int refs; /* atomic */
  char token[96];
  wp_placed_set *placed;
  wp_hashed_set *hashed;
  void *mapped; /* wp_i64map of attribute storage -> 1: weights mapped from files */
  void *mapped_ctx; /* the context those attributes live in (a run spans one) */
  /* settings (owned copies; NULL when not set) */
  char *model_dir;                  /* default for inline-weights' model-dir= */
  const struct wp_model_dir *model; /* its metadata.json as the driver read it; borrowed */
  char *artifact_dir;               /* default for copy-const-artifacts' artifact-dir= */
  bool artifact_dir_private;        /* removed when the driver exits: constants are placed
                                       in place (nobody else sees the directory) */
  char *neff_output;                /* default for neff-pack's output= */
  char **outputs;                   /* files the driver writes: no constant is placed there */
  size_t n_outputs;
  bool debug;                       /* per-file logs of the file passes, on stderr */
  bool checks_outputs;              /* the driver checked its outputs before any pass ran */
  /* what the run's passes declared when created for it (wp_pass_info.declare) */
  bool neff_follows;                /* neff-pack is in the pipeline: dedup-consts hashes the
                                       members ahead (neff-pack would hash them again) */
  bool neff_raw_members;            /* and it writes raw .bin members */
  /* facts of this run */
  void *dedup_line_for;             /* the module whose "de-dup saved" line was written */
  void *bir_built_for;              /* the module whose BIR bir-lower of this run made
                                       (unique names by construction); see wp_run_bir_read_back */
  wp_pass_observer *observer;       /* driver-owned; may be NULL */
};

/* A new run with a fresh token; one reference, released by wp_run_release. */
wp_run *wp_run_create(void);
wp_run *wp_run_retain(wp_run *run);
void wp_run_release(wp_run *run);

/* Is MODULE's BIR read from a file (its names not unique by construction),
 * rather than lowered by this run's bir-lower? */
bool wp_run_bir_read_back(const wp_run *run, MlirOperation module);

/* A weight constant ATTR whose bytes inline-weights mapped from its file
 * in this run (bir-lower may then point at the file instead of copying). */
void wp_run_note_mapped(wp_run *run, MlirAttribute attr);
bool wp_run_is_mapped(const wp_run *run, MlirAttribute attr);

#ifdef __cplusplus
}
#endif

#endif
