/* neff-pack as a function on IR: a de-duplicated BIR module becomes a
 * NEFF file. No pass framework: passes/wp_neff_pack_pass.c is the pass
 * around it. */
#ifndef WP_NEFF_PACK_H
#define WP_NEFF_PACK_H

#include "wp_neff.h"

#include <mlir-c/IR.h>
#include <stdbool.h>

typedef struct wp_neff_pack_options {
  const char *output;    /* the NEFF file; required */
  bool raw_members;      /* .bin members (weights-format=bin), not .npy */
  wp_neff_compress how;  /* compressor, threads, O_DIRECT; source_changed checks files
                            hashed earlier in the run */
  bool bir_read_back;    /* the BIR was read from a file (names not unique by
                            construction), not lowered in this run */
  /* Member MD5s recorded as "MD5@TOKEN" with this token are trusted (the
   * run's dedup-consts took them); others are checked as packed. NULL:
   * none trusted. */
  const char *run_token;
  bool outputs_checked;  /* the driver made sure OUTPUT replaces no input */
  bool debug;            /* remarks on where the members went */
} wp_neff_pack_options;

/* Writes MODULE's NEFF: 0, or -1 with MLIR diagnostics at the op at fault
 * and no output left. */
int wp_neff_pack_module(MlirOperation module, const wp_neff_pack_options *opts);

#endif
