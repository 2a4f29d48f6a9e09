#include "opt_stats.h"

#include "opt_args.h"
#include "opt_outputs.h"
#include "wp_file.h"
#include "wp_jsonw.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void opt_stats_print_timing(const wp_pass_observer *h, const opt_stats_times *times) {
  double parse = times->parse, output = times->output, total = times->total;
  long parse_peak_kib = times->parse_peak_kib;
  fprintf(stderr,
          "===-------------------------------------------------------------------------===\n"
          "                         ... Execution time report ...\n"
          "===-------------------------------------------------------------------------===\n"
          "  Total Execution Time: %.4f seconds\n\n"
          "  ----Wall Time----  ----Name----  (peak RSS so far)\n",
          total);
  double t = total > 0 ? total : 1;
  fprintf(stderr, "    %.4f (%5.1f%%)  Parse  (%.1f MiB)\n", parse, 100 * parse / t,
          parse_peak_kib / 1024.0);
  for (size_t i = 0; i < h->n_timings; i++)
    fprintf(stderr, "    %.4f (%5.1f%%)  %s  (%.1f MiB)\n", h->timing_seconds[i],
            100 * h->timing_seconds[i] / t, h->timing_names[i], h->timing_peak_kib[i] / 1024.0);
  fprintf(stderr, "    %.4f (%5.1f%%)  Output\n", output, 100 * output / t);
  fprintf(stderr, "    %.4f (100.0%%)  Total\n", total);
}

/* Do outputs to A and B land in one file (however spelled, through
 * links)? A device or FIFO written twice is no clash. */
static bool same_output(const char *a, const char *b) {
  struct stat sa, sb;
  if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
    return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  char *pa = wp_output_path(a), *pb = wp_output_path(b);
  char *da = pa ? wp_path_dir(pa) : NULL, *db = pb ? wp_path_dir(pb) : NULL;
  char *ra = da ? realpath(da, NULL) : NULL, *rb = db ? realpath(db, NULL) : NULL;
  const char *ba = pa ? strrchr(pa, '/') : NULL, *bb = pb ? strrchr(pb, '/') : NULL;
  bool same = ra && rb && !strcmp(ra, rb) && !strcmp(ba ? ba + 1 : pa, bb ? bb + 1 : pb);
  free(pa);
  free(pb);
  free(da);
  free(db);
  free(ra);
  free(rb);
  return same;
}

int opt_stats_check(const opt_config *cfg) {
  const char *file = cfg->stats_json;
  if (!file)
    return 0;
  if (!file[0])
    return opt_usage_error("%s", "--stats-json needs a file name (or - for standard output)");
  bool stdout_taken = !cfg->output || !strcmp(cfg->output, "-");
  if (!strcmp(file, "-")) {
    if (stdout_taken)
      return opt_usage_error("%s", "--stats-json=- would mix the report into the IR on standard "
                                   "output; give -o FILE, or --stats-json=FILE");
    return 0;
  }
  char *out = cfg->output && strcmp(cfg->output, "-") != 0 ? wp_output_path(cfg->output) : NULL;
  int rc = 0;
  if (out && same_output(file, out)) {
    fprintf(stderr, "error: --stats-json=%s is also the run's output %s; give the report "
                    "another file\n(run '%s --help' for usage)\n", file, out, opt_prog);
    rc = EXIT_USAGE;
  }
  free(out);
  return rc;
}

/* A member of the report's top level or of its totals: on a line of its
 * own, indented by DEPTH. */
static void key(wp_jsonw *w, bool first, int depth, const char *name) {
  wp_jsonw_lit(w, first ? "\n" : ",\n");
  wp_jsonw_indent(w, depth);
  wp_jsonw_key(w, true, name);
}

/* Seconds, or a ratio: plain decimals, as JSON takes them. */
static void real(wp_jsonw *w, double v, int digits) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.*f", digits, v);
  wp_jsonw_lit(w, buf);
}

/* A count, or null when the pass that counts it did not run. */
static void count(wp_jsonw *w, const char *name, bool ran, uint64_t v) {
  key(w, false, 4, name);
  if (ran)
    wp_jsonw_int(w, (long long)v);
  else
    wp_jsonw_lit(w, "null");
}

/* The pass argument of a timed stage: weightpack's passes are timed
 * under their titles (InlineWeights), MLIR's under their pipeline text. */
static const char *pass_name(const char *title) {
  size_t n;
  const wp_pass_info *const *all = wp_pass_registry(&n);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(all[i]->title, title))
      return all[i]->name;
  return title;
}

static void stage(wp_jsonw *w, bool first, const char *name, double seconds, long peak_kib) {
  wp_jsonw_lit(w, first ? "\n    {" : ",\n    {");
  wp_jsonw_key(w, true, "name");
  wp_jsonw_str(w, name);
  wp_jsonw_key(w, false, "seconds");
  real(w, seconds, 6);
  wp_jsonw_int_field(w, "peak_rss_kib", peak_kib);
  wp_jsonw_lit(w, "}");
}

int opt_stats_write(const opt_config *cfg, const wp_pass_observer *obs, const wp_run_stats *st,
                    const opt_stats_times *t) {
  wp_jsonw w = {0};
  wp_jsonw_lit(&w, "{");
  key(&w, true, 2, "version");
  wp_jsonw_int(&w, 1);
  key(&w, false, 2, "input");
  wp_jsonw_str(&w, cfg->input);
  key(&w, false, 2, "output");
  if (cfg->output)
    wp_jsonw_str(&w, cfg->output);
  else
    wp_jsonw_lit(&w, "null");
  key(&w, false, 2, "seconds");
  real(&w, t->total, 6);
  key(&w, false, 2, "peak_rss_kib");
  wp_jsonw_int(&w, t->output_peak_kib); /* the peak so far, at the end */
  key(&w, false, 2, "stages");
  wp_jsonw_lit(&w, "[");
  stage(&w, true, "parse", t->parse, t->parse_peak_kib);
  for (size_t i = 0; i < obs->n_timings; i++)
    stage(&w, false, pass_name(obs->timing_names[i]), obs->timing_seconds[i],
          obs->timing_peak_kib[i]);
  stage(&w, false, "output", t->output, t->output_peak_kib);
  wp_jsonw_lit(&w, "\n  ]");
  key(&w, false, 2, "totals");
  wp_jsonw_lit(&w, "{");
  key(&w, true, 4, "tensors_planted");
  if (st->inlined)
    wp_jsonw_int(&w, (long long)st->tensors_planted);
  else
    wp_jsonw_lit(&w, "null");
  count(&w, "bytes_read", st->inlined, st->weight_bytes);
  count(&w, "files_placed", st->placed, st->files_placed);
  count(&w, "bytes_placed", st->placed, st->bytes_placed);
  count(&w, "unique_blobs", st->deduped, st->unique_files);
  count(&w, "bytes_saved", st->deduped, st->bytes_saved);
  count(&w, "bytes_written", st->packed, st->neff_bytes);
  count(&w, "payload_bytes", st->packed, st->payload_bytes);
  count(&w, "uncompressed_bytes", st->packed, st->tar_bytes);
  count(&w, "member_bytes", st->packed, st->member_bytes);
  key(&w, false, 4, "compression_ratio");
  if (st->packed && st->payload_bytes)
    real(&w, (double)st->tar_bytes / (double)st->payload_bytes, 4);
  else
    wp_jsonw_lit(&w, "null");
  wp_jsonw_lit(&w, "\n  }\n}\n");
  if (w.oom) {
    free(w.p);
    fprintf(stderr, "error: %s: out of memory\n", cfg->stats_json);
    return EXIT_BAD_INPUT;
  }
  wp_error err;
  wp_output *o = wp_output_open(cfg->stats_json, &err);
  if (o)
    fwrite(w.p, 1, w.len, wp_output_stream(o));
  free(w.p);
  if (!o || wp_output_commit(o, &err)) {
    fprintf(stderr, "error: --stats-json: %s\n", err.msg);
    return EXIT_BAD_INPUT;
  }
  return 0;
}
