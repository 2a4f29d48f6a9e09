/* outline-weights as a function on IR, the inverse of inline-weights: every
 * constant of the HLO entry computation of at least MIN_BYTES bytes
 * becomes a new entry parameter, its bytes a .npy file, and the module
 * with a metadata.json naming those files a new model directory. No pass
 * framework: passes/wp_outline_weights_pass.c is the pass around it.
 *
 * The exact inverse: inline-weights on the directory gives back the
 * HloModuleProto the module exports to now, byte for byte but for the
 * origin field (536870000) it adds to each constant it plants (see
 * docs/passes.md#outline-weights). */
#ifndef WP_HLO_OUTLINE_H
#define WP_HLO_OUTLINE_H

#include <mlir-c/IR.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wp_outline_options {
  const char *model_dir; /* the directory to write: new or empty */
  uint64_t min_bytes;    /* constants of fewer bytes stay */
} wp_outline_options;

typedef struct wp_outline_stats {
  size_t outlined;        /* constants that became parameters */
  int64_t first_param;    /* the number of the first of them */
  size_t files;           /* .npy files written (ties share one) */
  uint64_t bytes;         /* their payload bytes */
  size_t kept;            /* entry constants of MIN_BYTES or more that stay */
  size_t kept_elsewhere;  /* and those in other computations */
} wp_outline_stats;

/* Outlines MODULE (a builtin.module holding an HLO program) in place and
 * writes the model directory: 0, or -1 with MLIR diagnostics emitted (the
 * directory then is not written; MODULE is unchanged unless the failure
 * came after the rewrite: the module's export, or the last rename). */
int wp_hlo_outline_module(MlirOperation module, const wp_outline_options *opts,
                          wp_outline_stats *stats);

#endif
