/* opt's command line, as parsed: shared by the driver's files. */
#ifndef OPT_CONFIG_H
#define OPT_CONFIG_H

#include "wp_pass.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define EXIT_BAD_INPUT 1
#define EXIT_USAGE 2

/* The name opt was run by (argv[0]'s last component: opt, or
 * weightpack-opt as installed), for its messages. */
extern const char *opt_prog;

typedef struct opt_config {
  const char *input;
  const char *artifact_dir;
  bool debug;
  const char *output;
  const char *emit;
  bool verify_roundtrip, verify_each, print_ir_after_all, timing, debuginfo;
  bool verify_each_off; /* --verify-each=false given last: no HLO shape checks either */
  bool print_ir_before_all, print_generic, emit_bytecode, dump_pipeline;
  bool split_input_file, verify_diagnostics; /* mlir-opt's test conventions */
  const char *print_ir_after, *print_ir_before; /* pass names, comma-separated */
  long elide_resources; /* -1: print all */
  const char *stats_json; /* --stats-json: the report's file ("-": stdout), or NULL */
  int progress;           /* --progress 1, --no-progress 0 (the last given), -1 neither */
  const char *depfile;    /* --depfile: Make-syntax dependencies of -o's file, or NULL */
  const char *digest_cache; /* --digest-cache: dedup-consts' digest-cache= default, or NULL */
  /* The pipeline MLIR parses: --pass-pipeline's text, or builtin.module(...)
   * of the pass flags, each NAME{OPTIONS} in the order given (owned; NULL:
   * no pass). opt reads no pipeline grammar of its own. */
  char *pipeline;
  bool pipeline_given; /* from --pass-pipeline (else from pass flags) */
  size_t n_pass_flags;
  size_t n_chunks;       /* --split-input-file's chunks (1 without) */
  bool neff_took_output; /* a run's neff-pack wrote its NEFF to -o */
} opt_config;

#endif
