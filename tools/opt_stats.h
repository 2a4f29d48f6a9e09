/* The run's reports: --mlir-timing's on stderr, and --stats-json=FILE, a
 * JSON report of the run (each pass's wall time and peak RSS, and what the
 * passes counted: docs/opt.md has the schema). */
#ifndef OPT_STATS_H
#define OPT_STATS_H

#include "opt_config.h"
#include "wp_run.h"

/* Before any pass runs: FILE must be another file than each other output
 * of the run (-o, neff-pack's output=), and "-" only when standard output
 * carries nothing else. 0, or EXIT_USAGE after an error line. (That FILE
 * replaces no input, and lies where a file can be made, is checked with
 * the other outputs: opt_check_outputs.) */
int opt_stats_check(const opt_config *cfg);

/* The driver's own stages around the passes. */
typedef struct opt_stats_times {
  double parse, output, total; /* seconds */
  long parse_peak_kib, output_peak_kib;
} opt_stats_times;

/* --mlir-timing's report on stderr: the driver's stages, and each pass
 * OBS timed. */
void opt_stats_print_timing(const wp_pass_observer *obs, const opt_stats_times *times);

/* Writes the report to cfg->stats_json, whole or not at all. 0, or
 * EXIT_BAD_INPUT after an error line. */
int opt_stats_write(const opt_config *cfg, const wp_pass_observer *obs, const wp_run_stats *st,
                    const opt_stats_times *times);

#endif
