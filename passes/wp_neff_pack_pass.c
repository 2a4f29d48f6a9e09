/* The neff-pack pass: its options and the run's facts, then packaging/'s
 * wp_neff_pack_module. */
#include "wp_pass.h"

#include "wp_mlir_util.h"
#include "wp_neff_pack.h"
#include "wp_parallel.h"

#include <mlir-c/BuiltinAttributes.h>
#include <string.h>

static bool source_changed(void *hashed, const char *path) {
  return wp_hashed_source_changed(hashed, path);
}

static void show_progress(void *run, uint64_t done, uint64_t total) {
  wp_run_progress(run, "neff-pack", done, total, false);
}

static int run_neff_pack(const wp_pass_run *run) {
  const char *out = wp_pass_option(run, "output");
  if (!out[0] && run->state->neff_output)
    out = run->state->neff_output;
  /* the values were checked against the option specs when parsed */
  const char *dio = wp_pass_option(run, "direct-io");
  wp_neff_sizes sizes = {0};
  wp_neff_pack_options o = {
      .output = out,
      .raw_members = !strcmp(wp_pass_option(run, "weights-format"), "bin"),
      .how = {.zlib = !strcmp(wp_pass_option(run, "compressor"), "zlib"),
              .threads = (int)wp_pass_option_count(run, "threads", wp_parallel_cores()),
              .direct = !strcmp(dio, "on")    ? WP_NEFF_DIRECT_ON
                        : !strcmp(dio, "off") ? WP_NEFF_DIRECT_OFF
                                              : WP_NEFF_DIRECT_AUTO,
              .source_changed = source_changed,
              .source_user = run->state->hashed,
              .progress = run->state->progress ? show_progress : NULL,
              .progress_user = run->state,
              .sizes = &sizes},
      .bir_read_back = wp_run_bir_read_back(run->state, run->module),
      .run_token = run->state->token,
      .outputs_checked = run->state->checks_outputs,
      .debug = run->state->debug};
  if (wp_neff_pack_module(run->module, &o))
    return -1;
  wp_run_stats *st = &run->state->stats;
  st->packed = true;
  st->neff_bytes = WP_NEFF_HEADER_SIZE + sizes.payload;
  st->payload_bytes = sizes.payload;
  st->tar_bytes = sizes.tar;
  st->member_bytes = sizes.members;
  /* written: the variable definitions went out with the NEFF */
  MlirAttribute dd = wp_attr(run->module, "bir.dedup");
  MlirAttribute saved = mlirAttributeIsNull(dd) || !mlirAttributeIsADictionary(dd)
                            ? mlirAttributeGetNull()
                            : wp_dict_get(dd, "bytes_saved");
  int64_t bytes = !mlirAttributeIsNull(saved) && mlirAttributeIsAInteger(saved)
                      ? mlirIntegerAttrGetValueInt(saved)
                      : 0;
  wp_report_dedup_saved(run->state, run->module, bytes > 0 ? (uint64_t)bytes : 0);
  return 0;
}

extern const wp_pass_info wp_neff_pack_pass;

/* dedup-consts before it hashes the members ahead, raw or .npy */
static void declare_neff_pack(const wp_pass_options *options, wp_run *run) {
  run->neff_follows = true;
  const wp_pass_info *self = &wp_neff_pack_pass;
  for (int i = 0; i < WP_PASS_MAX_OPTIONS && self->options[i].name; i++)
    if (!strcmp(self->options[i].name, "weights-format"))
      run->neff_raw_members = options->values[i] && !strcmp(options->values[i], "bin");
}

const wp_pass_info wp_neff_pack_pass = {
    .name = "neff-pack",
    .title = "NeffPack",
    .description = "write the NEFF: a 1024-byte header and a deterministic gzip PAX tar of "
                   "the unique constant files, variable definitions, BOM and BIR "
                   "(opt runs copy-const-artifacts and dedup-consts first when not named; a pass "
                   "pipeline of a driver names them)",
    .options = {{"output", "the NEFF file (default: opt's -o)"},
                {"weights-format", "npy (default; signed members numpy.load reads) or bin",
                 .choices = "npy|bin"},
                {"compressor", "isal (default: ISA-L level 1 in parallel chunks) or zlib "
                               "(libarchive's gzip filter)",
                 .choices = "isal|zlib"},
                {"threads", "compression threads (default: the core count); the NEFF is the "
                            "same for any count",
                 .number = true, .min = 1, .max = 64},
                {"direct-io", "auto (default: past the page cache, O_DIRECT, when the "
                              "members reach 64 MiB), on or off; the NEFF is the same",
                 .choices = "auto|on|off"}},
    .run = run_neff_pack,
    .declare = declare_neff_pack,
    .traits = {.uses_placed_files = true,
               .writes_neff = true,
               .output_option = "output",
               .needs = {"copy-const-artifacts", "dedup-consts"}},
};
