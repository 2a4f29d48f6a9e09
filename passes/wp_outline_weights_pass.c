/* The outline-weights pass: its options, then lowering/'s
 * wp_hlo_outline_module. The inverse of inline-weights. */
#include "wp_pass.h"

#include "wp_hlo_outline.h"
#include "wp_mlir_util.h"

#include <stdint.h>
#include <stdio.h>

static int run_outline_weights(const wp_pass_run *run) {
  const char *dir = wp_pass_option(run, "model-dir");
  if (!dir[0]) {
    /* no default: opt's input directory would be the model's own */
    wp_emit_error(wp_unknown_loc(run->module),
                  "outline-weights: no model directory; give the pass option model-dir=DIR "
                  "(a new or empty directory to write the model into)");
    return -1;
  }
  wp_outline_options o = {
      .model_dir = dir,
      .min_bytes = (uint64_t)wp_pass_option_count(run, "min-bytes", 4096)};
  wp_outline_stats st;
  if (wp_hlo_outline_module(run->module, &o, &st))
    return -1;
  char kept[96] = "";
  if (st.kept + st.kept_elsewhere)
    snprintf(kept, sizeof kept, "; %zu of %llu bytes or more stay constants",
             st.kept + st.kept_elsewhere, (unsigned long long)o.min_bytes);
  char params[64];
  if (st.outlined == 1)
    snprintf(params, sizeof params, "1 constant became parameter %lld",
             (long long)st.first_param);
  else
    snprintf(params, sizeof params, "%zu constants became parameters %lld to %lld",
             st.outlined, (long long)st.first_param,
             (long long)(st.first_param + (int64_t)st.outlined - 1));
  if (st.outlined)
    wp_emit_remark(wp_unknown_loc(run->module),
                   "outline-weights: %s; %zu .npy file%s of %llu bytes in %s%s", params, st.files,
                   st.files == 1 ? "" : "s", (unsigned long long)st.bytes, dir, kept);
  else
    wp_emit_remark(wp_unknown_loc(run->module),
                   "outline-weights: no constant became a parameter; the model in %s has no "
                   "weight files%s", dir, kept);
  return 0;
}

const wp_pass_info wp_outline_weights_pass = {
    .name = "outline-weights",
    .title = "OutlineWeights",
    .description = "the inverse of inline-weights: turn the entry computation's large "
                   "constants into parameters and write a model directory (the module, "
                   "metadata.json, a .npy file per distinct constant)",
    .options = {{"model-dir", "the model directory to write: new, or an empty directory "
                              "(required)"},
                {"min-bytes", "constants of at least this many bytes become parameters "
                              "(default 4096)",
                 .number = true, .min = 0, .max = INT64_MAX}},
    .run = run_outline_weights,
    /* it writes a directory of its own: named like an artifact directory,
     * never an output file (opt refuses a directory there) */
    .traits = {.dir_option = "model-dir", .changes_hlo = true},
};
