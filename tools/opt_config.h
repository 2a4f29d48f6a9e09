/* opt's command line, as parsed: shared by the driver's files. */
#ifndef OPT_CONFIG_H
#define OPT_CONFIG_H

#include "wp_pass.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define EXIT_BAD_INPUT 1
#define EXIT_USAGE 2
#define MAX_PASSES 32

typedef struct pass_request {
  const wp_pass_info *info; /* an upstream pass: opt_upstream_info, no traits */
  const char *options;
  bool implied; /* brought along by neff-pack, not named by the user */
  const char *upstream; /* an MLIR pass named in --pass-pipeline (canonicalize, cse): its
                           name; MLIR parses its options */
} pass_request;

/* The name opt was run by (argv[0]'s last component: opt, or
 * weightpack-opt as installed), for its messages. */
extern const char *opt_prog;

/* The info every upstream pass request points at. */
extern const wp_pass_info opt_upstream_info;

typedef struct opt_config {
  const char *input;
  const char *artifact_dir;
  bool debug;
  bool packs_neff; /* neff-pack in the pipeline: -o names the NEFF */
  const char *output;
  const char *emit;
  bool verify_roundtrip, verify_each, print_ir_after_all, timing, debuginfo;
  bool print_ir_before_all, print_generic, emit_bytecode, dump_pipeline;
  bool split_input_file, verify_diagnostics; /* mlir-opt's test conventions */
  const char *print_ir_after, *print_ir_before; /* pass names, comma-separated */
  long elide_resources; /* -1: print all */
  const char *stats_json; /* --stats-json: the report's file ("-": stdout), or NULL */
  int progress;           /* --progress 1, --no-progress 0 (the last given), -1 neither */
  pass_request passes[MAX_PASSES];
  size_t n_passes;
  /* the existing directory the input IR's placed constant files are in
   * (its bir.artifact_path), or NULL: known once the input is read */
  const char *input_artifact_dir;
  char *pipeline_text; /* --pass-pipeline's copy the requests point into; owned */
} opt_config;

/* Does the run have a pass that reads or writes the artifact directory? */
static inline bool opt_uses_artifact_dir(const opt_config *cfg) {
  for (size_t i = 0; i < cfg->n_passes; i++) {
    const struct wp_pass_traits *t = &cfg->passes[i].info->traits;
    if (t->places_files || t->renames_placed || t->uses_placed_files)
      return true;
  }
  return false;
}

#endif
