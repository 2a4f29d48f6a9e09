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
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct wp_model_dir;
struct wp_dir_locks;
struct wp_private_dir;
struct wp_depfile_paths;

#define WP_RUN_MAX_PASSES_RAN 16

/* What a driver watches, none of which changes what a pass does: IR
 * printing after each pass, the round-trip check, per-pass timing. */
typedef struct wp_pass_observer {
  bool print_ir_after_all;
  bool print_ir_before_all;
  const char *print_ir_after;  /* pass names, comma-separated: print after these; may be NULL */
  const char *print_ir_before; /* and before these */
  bool verify_roundtrip;
  bool no_hlo_verify; /* no shape verifier after passes that change HLO */
  bool timing;
  MlirOpPrintingFlags print_flags; /* for IR dumps; may be null */
  /* Filled when timing: pass titles and seconds. */
  size_t n_timings;
  const char *timing_names[64];
  double timing_seconds[64];
  long timing_peak_kib[64]; /* the process's peak RSS when the pass ended */
} wp_pass_observer;

/* What the run's passes counted, for a driver's report (opt --stats-json).
 * A pass adds to its own fields (on the main thread, after its workers
 * joined) and sets its flag; fields of a pass that did not run stay 0. */
typedef struct wp_run_stats {
  bool inlined;            /* inline-weights ran */
  uint64_t tensors_planted; /* weights it planted as constants */
  uint64_t weight_bytes;   /* their bytes (the .npy payloads, headers not counted) */
  bool placed;             /* copy-const-artifacts ran */
  uint64_t files_placed;   /* constant files it placed (copied, linked, recorded in place) */
  uint64_t bytes_placed;   /* their bytes */
  bool deduped;            /* dedup-consts ran */
  uint64_t unique_files;   /* its bir.dedup unique_files */
  uint64_t bytes_saved;    /* its bir.dedup bytes_saved */
  bool packed;             /* neff-pack wrote a NEFF */
  uint64_t neff_bytes;     /* the NEFF's size: header and payload */
  uint64_t payload_bytes;  /* the gzip payload */
  uint64_t tar_bytes;      /* the tar the payload compresses */
  uint64_t member_bytes;   /* the members' bytes in it (no tar headers) */
} wp_run_stats;

/* Progress of the pass running: DONE of TOTAL units (bytes; files when
 * FILES), TOTAL 0 when not known. Called on any thread, several at once,
 * often (per file or chunk): the sink throttles and must be cheap. */
typedef void (*wp_progress_fn)(void *user, const char *stage, uint64_t done, uint64_t total,
                               bool files);

struct wp_run {
  int refs; /* atomic */
  char token[96];
  wp_placed_set *placed;
  wp_hashed_set *hashed;
  void *mapped; /* the attributes of weights mapped from files (wp_run.c's mapped_set) */
  void *mapped_ctx; /* the context those attributes live in (a run spans one) */
  /* settings (owned copies; NULL when not set) */
  char *model_dir;                  /* default for inline-weights' model-dir= */
  /* its metadata.json as the driver read it, lent: the inline-weights
   * that uses it drops its weight list when done (100,000 entries need
   * not stay to the end of the run) and clears this, so that a later
   * pass reads the file again */
  struct wp_model_dir *model;
  char *artifact_dir;               /* default for copy-const-artifacts' artifact-dir= */
  bool artifact_dir_private;        /* removed when the driver exits: constants are placed
                                       in place (nobody else sees the directory) */
  char *neff_output;                /* default for neff-pack's output= */
  char **outputs;                   /* files the driver writes: no constant is placed there */
  size_t n_outputs;
  char **input_dirs;                /* model directories the run's passes read */
  size_t n_input_dirs;
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
  wp_run_stats stats;               /* what the passes counted */
  const char *ran[WP_RUN_MAX_PASSES_RAN]; /* the weightpack passes that ran (static names) */
  size_t n_ran;
  bool failed;                      /* a pass of the run failed: what it placed goes */
  bool neff_to_driver_output;       /* neff-pack wrote its NEFF to neff_output (the driver's
                                       output, opt's -o), not to its own output= */
  struct wp_dir_locks *locks;       /* the artifact directories the run holds */
  char *neff_written;               /* the NEFF neff-pack wrote, taken back when a later
                                       pass of the run fails (whole or not at all) */
  uint64_t neff_dev, neff_ino;
  struct wp_private_dir *private_dir; /* the private artifact directory, once made */
  wp_progress_fn progress;          /* set by a driver that shows progress; may be NULL */
  void *progress_user;
  struct wp_depfile_paths *reads;   /* every file the run read, for a depfile: noted by the
                                       code that read it (wp_run_note_read) */
  char *digest_cache;               /* default for dedup-consts' digest-cache= (owned) */
};

/* Reports progress to RUN's sink, if it has one. */
static inline void wp_run_progress(const wp_run *run, const char *stage, uint64_t done,
                                   uint64_t total, bool files) {
  if (run && run->progress)
    run->progress(run->progress_user, stage, done, total, files);
}

/* A new run with a fresh token; one reference, released by wp_run_release. */
wp_run *wp_run_create(void);
wp_run *wp_run_retain(wp_run *run);
void wp_run_release(wp_run *run);

/* Model directory DIR is read by the run (inline-weights): no output of
 * the run may replace one of its files. Copied. */
void wp_run_note_input_dir(wp_run *run, const char *dir);

/* PATH is written by the run (neff-pack's output): no constant file is
 * placed there. Copied. */
void wp_run_note_output(wp_run *run, const char *path);

/* The NEFF at PATH was written by RUN: a run that fails afterwards
 * removes it when it ends (if it is still that file). */
void wp_run_note_neff(wp_run *run, const char *path);

/* PATH was read by the run (a module, metadata.json, a weight, a constant
 * file's source): a prerequisite of its outputs in a depfile. Copied;
 * thread-safe. */
void wp_run_note_read(wp_run *run, const char *path);

/* Pass NAME (static storage) ran in RUN; did it? */
void wp_run_note_ran(wp_run *run, const char *name);
bool wp_run_ran(const wp_run *run, const char *name);

/* The run's private artifact directory, made on first use (in TMPDIR,
 * removed with everything in it when the run ends, or by a later run when
 * this process was killed), which becomes the run's artifact directory
 * when it has none; its path, or NULL with ERR. */
const char *wp_run_private_artifact_dir(wp_run *run, wp_error *err);

/* Makes (one level) and locks artifact directory DIR for the rest of the
 * run, as pass PASS (its name, for messages) writes there; says so with a
 * remark at LOC when it waits for another run. 0, or -1 after an error at
 * LOC. */
int wp_run_lock_artifact_dir(wp_run *run, const char *pass, const char *dir, MlirLocation loc);

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
