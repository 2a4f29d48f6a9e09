/* The neff-pack pass: its options and the run's facts, then packaging/'s
 * wp_neff_pack_module. */
#include "wp_pass.h"

#include "wp_bir.h"
#include "wp_depfile.h"
#include "wp_mlir_util.h"
#include "wp_neff_pack.h"
#include "wp_output_check.h"
#include "wp_parallel.h"

#include "wp_file.h"

#include <mlir-c/BuiltinAttributes.h>
#include <stdlib.h>
#include <string.h>

static bool source_changed(void *hashed, const char *path) {
  return wp_hashed_source_changed(hashed, path);
}

static void show_progress(void *run, uint64_t done, uint64_t total) {
  wp_run_progress(run, "neff-pack", done, total, false);
}

/* Its output= , else the driver's (opt's -o). */
static const char *neff_output(const wp_pass_run *run) {
  const char *out = wp_pass_option(run, "output");
  return !out[0] && run->state->neff_output ? run->state->neff_output : out;
}

/* -1 after an error at the module when OUT lies in artifact directory
 * DIR under a name ending in .bin, as every constant file's there: the
 * NEFF would replace one, or be replaced. */
static int output_in_artifact_dir(const wp_pass_run *run, const char *out, const char *dir) {
  if (!wp_output_takes_bin_name(out, dir))
    return 0;
  wp_emit_error(mlirOperationGetLocation(run->module), "neff-pack: output %s is in the "
                "artifact directory %s, where constant files are placed under names ending "
                "in .bin: it could replace one, or be replaced; give the output another name "
                "or directory", out, dir);
  return -1;
}

/* Before the passes it brings: the module is BIR, and the NEFF has a place
 * that replaces no input of the run. */
static int prepare_neff_pack(const wp_pass_run *run) {
  if (!wp_bir_module_is_bir(mlirModuleFromOperation(run->module))) {
    wp_emit_error(mlirOperationGetLocation(run->module), "neff-pack: the module is not BIR (run "
                  "--bir-lower first)");
    return -1;
  }
  const char *out = neff_output(run);
  wp_error err;
  if (!out[0]) {
    wp_emit_error(mlirOperationGetLocation(run->module), "neff-pack: no output file; give the "
                  "pass option output=FILE (opt: -o FILE)");
    return -1;
  }
  /* one into the artifact directory the passes it brings make is made
   * with it */
  bool new_dir = !run->state->artifact_dir_private &&
                 !wp_run_ran(run->state, "copy-const-artifacts") &&
                 wp_output_lands_in_new_dir(out, run->state->artifact_dir);
  if (!new_dir && wp_output_check_early("neff-pack", out, true, true, &err)) {
    wp_emit_error(mlirOperationGetLocation(run->module), "%s", err.msg);
    return -1;
  }
  if (wp_output_check_inputs(run, out))
    return -1;
  /* the artifact directory the module records (a copy-const-artifacts
   * of this run or an earlier one), and the driver's, where the passes it
   * brings place the files: refused before they place any */
  MlirStringRef adir;
  char *recorded = wp_attr_str(run->module, "bir.artifact_path", &adir) && adir.length
                       ? strndup(adir.data, adir.length)
                       : NULL;
  int rc = output_in_artifact_dir(run, out, recorded);
  free(recorded);
  if (!rc && !wp_run_ran(run->state, "copy-const-artifacts") && !run->state->artifact_dir_private)
    rc = output_in_artifact_dir(run, out, run->state->artifact_dir);
  return rc;
}

/* Before any pass runs: an output= that cannot take a NEFF. */
static int check_neff_pack(const wp_pass_options *options, const wp_run *run, wp_error *err) {
  const char *out = options->values[0];
  /* one into the driver's artifact directory, not there yet: made by the
   * passes it brings (checked again at the start of its run) */
  if (out && run && !run->artifact_dir_private && wp_output_lands_in_new_dir(out, run->artifact_dir))
    return 0;
  return out ? wp_output_check_early("neff-pack", out, true, false, err) : 0;
}

static int run_neff_pack(const wp_pass_run *run) {
  const char *out = neff_output(run);
  run->state->neff_to_driver_output = !wp_pass_option(run, "output")[0];
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
      .outputs_checked = true, /* by prepare_neff_pack, before the passes it brings */
      .debug = run->state->debug};
  if (wp_neff_pack_module(run->module, &o))
    return -1;
  wp_run_note_neff(run->state, out);
  /* depfile=: the NEFF made from what the run read so far (all of it:
   * nothing reads after neff-pack). A failure fails the run, which takes
   * the NEFF back. */
  const char *depfile = wp_pass_option(run, "depfile");
  wp_error err;
  if (depfile[0] && wp_depfile_write(depfile, &out, 1, run->state->reads, &err)) {
    wp_emit_error(mlirOperationGetLocation(run->module), "neff-pack: depfile=%s", err.msg);
    return -1;
  }
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
  /* no constant file is placed where the NEFF goes */
  if (options->values[0])
    wp_run_note_output(run, options->values[0]);
  if (options->values[5]) /* depfile= */
    wp_run_note_output(run, options->values[5]);
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
                   "(it runs copy-const-artifacts and dedup-consts first when they have not run, "
                   "in a private artifact directory unless one is given)",
    .options = {{"output", "the NEFF file (default: the driver's output, opt's -o)"},
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
                 .choices = "auto|on|off"},
                {"depfile", "also write this Make/Ninja depfile: the NEFF and every file the "
                            "run read (docs/build-systems.md)"}},
    .run = run_neff_pack,
    .check = check_neff_pack,
    .prepare = prepare_neff_pack,
    .declare = declare_neff_pack,
    .traits = {.uses_placed_files = true,
               .writes_neff = true,
               .output_option = "output",
               .needs = {"copy-const-artifacts", "dedup-consts"}},
};
