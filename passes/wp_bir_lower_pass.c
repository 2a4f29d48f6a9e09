/* The bir-lower pass: its options, then lowering/'s wp_bir_lower_module. */
#include "wp_pass.h"

#include "wp_bir_lower.h"

#include <stdint.h>
#include <string.h>

static bool mapped_in_run(void *user, MlirAttribute value) {
  return wp_run_is_mapped(user, value);
}

static int run_bir_lower(const wp_pass_run *run) {
  /* the values were checked against the option specs when parsed */
  wp_lower_options o = {
      .const_memory_dram = !strcmp(wp_pass_option(run, "const-memory"), "DRAM"),
      .small_threshold = (uint64_t)wp_pass_option_count(run, "small-const-threshold", 4096),
      .small_weight_threshold =
          (uint64_t)wp_pass_option_count(run, "small-weight-threshold", 4096),
      .min_align = (uint64_t)wp_pass_option_count(run, "alignment", 1),
      .table_min = (uint64_t)wp_pass_option_count(run, "const-tables", 64),
      .is_mapped = mapped_in_run,
      .is_mapped_user = run->state};
  if (wp_bir_lower_module(run->module, &o))
    return -1;
  /* the BIR of this run is bir-lower's: unique names by construction */
  run->state->bir_built_for = run->module.ptr;
  return 0;
}

const wp_pass_info wp_bir_lower_pass = {
    .name = "bir-lower",
    .title = "BirLower",
    .description = "lower the HLO entry computation to a BIR function: input, output and "
                   "const tensors with their TensorClass, dtype, memory type and constant files",
    .options = {{"const-memory", "memory type of constants: Const (default) or DRAM",
                 .choices = "Const|DRAM"},
                {"small-const-threshold",
                 "literal constants smaller than this many bytes share one file (default 4096)",
                 .number = true, .min = 0, .max = INT64_MAX},
                {"small-weight-threshold",
                 "weights smaller than this many bytes share that file too (default 4096; 0: "
                 "every weight keeps a file of its own)",
                 .number = true, .min = 0, .max = INT64_MAX},
                {"alignment", "raise every tensor's alignment to at least this (power of two)",
                 .number = true, .pow2 = true, .min = 1, .max = 1 << 30},
                {"const-tables",
                 "with at least this many constant tensors, write them as one "
                 "bir.const_table, a column per field, instead of a memloc_set and a memloc "
                 "each (default 64; 0: never)",
                 .number = true, .min = 0, .max = INT64_MAX}},
    .run = run_bir_lower,
    .traits = {.lowers_to_bir = true},
};
