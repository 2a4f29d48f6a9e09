/* The pass framework: every weightpack pass is one C++ shell
 * (wp_pass_shell.cpp) around a C body, whoever creates it (opt, the C
 * API, MLIR's pass registry); the body gets the run object of its
 * pipeline run. */
#ifndef WP_PASS_H
#define WP_PASS_H

#include "wp_diag.h"
#include "wp_error.h"
#include "wp_run.h"

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

struct wp_pass_info;

/* What a pass body is handed. */
typedef struct wp_pass_run {
  const struct wp_pass_info *info;
  MlirOperation module;     /* the builtin.module the pass runs on */
  const wp_pass_options *options;
  wp_run *state;            /* the run object of the pipeline run; never NULL */
} wp_pass_run;

typedef struct wp_pass_info {
  const char *name;        /* the pass argument, e.g. "inline-weights" */
  const char *title;       /* CamelCase name for IR dumps, e.g. "InlineWeights" */
  const char *description;
  wp_pass_option_spec options[WP_PASS_MAX_OPTIONS];
  /* Returns 0 on success; on failure it has emitted MLIR diagnostics. */
  int (*run)(const wp_pass_run *run);
  /* Optional: checks of OPTIONS that need no IR, made before any pass of
   * the pipeline runs (MLIR's Pass::initialize), in every driver; RUN is
   * the driver's run object, or NULL for a pass made by name without one
   * (its settings are not known yet). 0, or -1 with ERR. */
  int (*check)(const wp_pass_options *options, const wp_run *run, wp_error *err);
  /* Optional: does MODULE already hold what this pass makes, from an
   * earlier run (IR read back)? A pass that needs this one then does not
   * bring it. */
  bool (*done_on)(MlirOperation module, const wp_run *run);
  /* Optional: checks on the module and the run made before the passes it
   * needs are brought in (neff-pack: its output); 0, or -1 after an error
   * diagnostic. */
  int (*prepare)(const wp_pass_run *run);
  /* Optional: what the pass, created with OPTIONS for RUN, tells the run's
   * other passes before any runs (neff-pack: a NEFF follows). */
  void (*declare)(const wp_pass_options *options, wp_run *run);
  /* What a driver knows of the pass before anything runs, as data: opt's
   * checks ask these, never the pass's name. */
  struct wp_pass_traits {
    bool lowers_to_bir;      /* HLO in, BIR out */
    bool places_files;       /* places constant files in the artifact directory */
    bool renames_placed;     /* renames the placed files where they are */
    bool uses_placed_files;  /* reads the files placed in the artifact directory */
    bool writes_neff;        /* writes the run's NEFF: the last pass */
    bool changes_hlo;        /* rewrites the HLO program: the shape verifier runs after it */
    const char *output_option;    /* the option naming the file it writes */
    const char *dir_option;       /* the option naming the directory it places files in */
    const char *model_dir_option; /* the option naming the model directory it reads */
    const char *needs[3];    /* passes that must run before it in the same run, in order:
                                those that have not run, it runs first itself */
  } traits;
} wp_pass_info;

const wp_pass_info *wp_pass_lookup(const char *name);
/* All passes, in pipeline order. */
const wp_pass_info *const *wp_pass_registry(size_t *count);

/* Parses OPTIONS ("k=v k2=a,b", values may be quoted) for INFO. */
int wp_pass_parse_options(const wp_pass_info *info, const char *options,
                          wp_pass_options *out, wp_error *err);
void wp_pass_options_free(wp_pass_options *opts);
/* The value of option NAME ("" when not given). */
const char *wp_pass_option(const wp_pass_run *run, const char *name);

/* The process's peak resident set so far, in KiB (0 if unknown). */
long wp_pass_peak_rss_kib(void);

/* Whole-number option NAME (its spec's number, checked when parsed);
 * DFLT when not given. */
long long wp_pass_option_count(const wp_pass_run *run, const char *name, long long dflt);

/* The reference compiler's "Const File de-dup saved N KB" line, as a
 * remark at MODULE, once per module of RUN: written with the variable
 * definitions (neff-pack), or by dedup-consts when no neff-pack follows. */
void wp_report_dedup_saved(wp_run *run, MlirOperation module, uint64_t bytes);

/* Creates pass INFO with mlir-opt style OPTIONS for RUN (retained; NULL:
 * the pass takes the run object of the PassManager::run it runs in). The
 * pass manager that receives it owns it. Null pass with ERR on bad options. */
MlirPass wp_pass_create(const wp_pass_info *info, const char *options, wp_run *run,
                        wp_error *err);

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
