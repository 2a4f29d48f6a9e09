/* bir-lower as a function on IR: the HLO entry computation of a module
 * becomes a BIR function (section 2 of the specification). No pass
 * framework: passes/wp_bir_lower_pass.c is the pass around it. */
#ifndef WP_BIR_LOWER_H
#define WP_BIR_LOWER_H

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct wp_lower_options {
  bool const_memory_dram;          /* constants in DRAM rather than Const memory */
  uint64_t small_threshold;        /* literal constants below it share one file */
  uint64_t small_weight_threshold; /* weights below it share that file too */
  uint64_t min_align;              /* every tensor's alignment at least this */
  uint64_t table_min; /* this many constants are one bir.const_table; 0: never */
  /* Is a weight constant's value mapped from its .npy (then its const file
   * points at that file rather than at the constant's bytes)? NULL: none. */
  bool (*is_mapped)(void *user, MlirAttribute value);
  void *is_mapped_user;
} wp_lower_options;

/* Lowers MODULE (a builtin.module holding an HLO program) in place: 0, or
 * -1 with MLIR diagnostics emitted and MODULE unchanged. */
int wp_bir_lower_module(MlirOperation module, const wp_lower_options *opts);

#endif
