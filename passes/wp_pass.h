/* The pass framework: every weightpack pass is an MLIR external pass
 * (mlirCreateExternalPass) whose run callback goes through one wrapper that
 * also serves the driver's per-pass hooks (IR printing, round-trip
 * verification, timing). */
#ifndef WP_PASS_H
#define WP_PASS_H

#include "wp_error.h"

#include <mlir-c/IR.h>
#include <mlir-c/Pass.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WP_PASS_MAX_OPTIONS 8

typedef struct wp_pass_option_spec {
  const char *name; /* e.g. "model-dir" */
  const char *help;
  /* Checked when the options are parsed (a bad value is bad usage, found
   * before any pass runs): a whole number in [min, max] (a power of two
   * with pow2), or one of CHOICES ("a|b|c"). */
  bool number, pow2;
  long long min, max;
  const char *choices;
} wp_pass_option_spec;

/* Option values as given (strings, "" when absent). */
typedef struct wp_pass_options {
  char *values[WP_PASS_MAX_OPTIONS];
} wp_pass_options;

struct wp_pass_hooks;
struct wp_pass_info;

/* Run context handed to a pass body. */
typedef struct wp_pass_run {
  const struct wp_pass_info *info;
  MlirOperation module;     /* the builtin.module the pass runs on */
  const wp_pass_options *options;
  struct wp_pass_hooks *hooks; /* may be NULL */
} wp_pass_run;

typedef struct wp_pass_info {
  const char *name;        /* the pass argument, e.g. "inline-weights" */
  const char *title;       /* CamelCase name for IR dumps, e.g. "InlineWeights" */
  const char *description;
  wp_pass_option_spec options[WP_PASS_MAX_OPTIONS];
  /* Returns 0 on success; on failure it has emitted MLIR diagnostics. */
  int (*run)(const wp_pass_run *run);
} wp_pass_info;

struct wp_model_dir;

/* Driver services a pass can see, all optional. */
typedef struct wp_pass_hooks {
  bool print_ir_after_all;
  bool verify_roundtrip;
  bool timing;
  MlirOpPrintingFlags print_flags; /* for IR dumps; may be null */
  const char *model_dir;           /* default model directory (opt MODEL_DIR) */
  const struct wp_model_dir *model; /* its metadata.json as opt read it, or null */
  const char *artifact_dir;        /* opt's --artifact-dir, or its private temp dir */
  bool artifact_dir_private;       /* artifact_dir is opt's, removed at exit: nobody
                                      sees it, so constants are placed in place */
  const char *neff_output;         /* opt's -o, when neff-pack is in the pipeline */
  const char *const *outputs;      /* where the files opt writes appear (-o, neff-pack's
                                      output=): no constant file is placed there */
  size_t n_outputs;
  bool neff_raw_members;           /* and it writes raw .bin members (weights-format=bin) */
  bool debug;                      /* --debug: per-file logs of the file passes */
  const char *input_path;          /* the file opt read */
  bool bir_built_here;             /* the BIR is bir-lower's of this run (its names are
                                      unique by construction), not read from input */
  /* Filled by the wrapper when timing: pass titles and seconds. */
  size_t n_timings;
  const char *timing_names[64];
  double timing_seconds[64];
  long timing_peak_kib[64]; /* the process's peak RSS when the pass ended */
} wp_pass_hooks;

const wp_pass_info *wp_pass_lookup(const char *name);
/* All passes, in pipeline order. */
const wp_pass_info *const *wp_pass_registry(size_t *count);

/* Parses OPTIONS ("k=v k2=a,b", values may be quoted) for INFO. */
int wp_pass_parse_options(const wp_pass_info *info, const char *options,
                          wp_pass_options *out, wp_error *err);
void wp_pass_options_free(wp_pass_options *opts);
/* The value of option NAME ("" when not given). */
const char *wp_pass_option(const wp_pass_run *run, const char *name);

/* A token unique to this process (pid and start time). Passes tag facts
 * they computed about files with it, so a later pass trusts them only in
 * the same run, never from an IR file written earlier. */
const char *wp_pass_run_token(void);

/* The process's peak resident set so far, in KiB (0 if unknown). */
long wp_pass_peak_rss_kib(void);

/* Whole-number option NAME (its spec's number, checked when parsed);
 * DFLT when not given. */
long long wp_pass_option_count(const wp_pass_run *run, const char *name, long long dflt);

/* Creates the external pass; HOOKS (may be NULL) must outlive it. */
MlirPass wp_pass_create(const wp_pass_info *info, const char *options,
                        wp_pass_hooks *hooks, wp_error *err);

/* Runs INFO's body with parsed OPTIONS on MODULE, without driver hooks
 * (the registered passes of wpRegisterPasses); 0, or -1 with diagnostics
 * emitted. */
int wp_pass_run_plain(const wp_pass_info *info, const wp_pass_options *options,
                      MlirOperation module);

/* Emits an error diagnostic at LOC (printf style). */
void wp_emit_error(MlirLocation loc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Round trip check used by --verify-roundtrip: serializes MODULE to its
 * protobuf form (HloModuleProto for an HLO module), reads it back in a fresh
 * context and compares the printed IR; on a difference, the error shows the
 * first differing line. *WHERE is set to the location an error diagnostic
 * should carry: the op at fault when export fails, else the module's. */
int wp_verify_roundtrip(MlirModule module, const char *after, MlirLocation *where,
                        wp_error *err);

#ifdef __cplusplus
}
#endif

#endif
