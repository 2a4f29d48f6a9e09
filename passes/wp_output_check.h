/* The checks a pass makes on a file it will write, in every driver: before
 * any pass runs what needs no IR (wp_output_check_early), and at the start
 * of its own run what does (wp_output_check_inputs), so that a bad output
 * is refused in the same words everywhere and nothing is written. */
#ifndef WP_OUTPUT_CHECK_H
#define WP_OUTPUT_CHECK_H

#include "wp_model_dir.h"
#include "wp_pass.h"

#include <sys/stat.h>

/* OUT can be made: not empty, not standard output ("-") when SEEKABLE (a
 * NEFF's header is written last), not a directory, not a FIFO or socket
 * when SEEKABLE, and (LANDING: not before any pass runs, when an earlier
 * pass may make it) the directory it lands in takes a new file. PASS
 * names the pass in messages. 0, or -1 with ERR. */
int wp_output_check_early(const char *pass, const char *out, bool seekable, bool landing,
                          wp_error *err);

/* OUT, written by pass RUN, would replace none of the run's inputs: a file
 * the module reads by path (weights, constant files), a file of a model
 * directory the run read (metadata.json, the module, the weights), or a
 * constant file of the artifact directory (a name ending in .bin there).
 * 0, or -1 after an error at the module. */
int wp_output_check_inputs(const wp_pass_run *run, const char *out);

/* 0 when the directory an output to OUT lands in (through links: where a
 * dangling one points) takes a new file: the output is written beside its
 * place and renamed there. Else -1 with ERR ("OUT: cannot create ..."). */
int wp_output_landing_takes(const char *out, wp_error *err);

/* Does OUT lie in artifact directory DIR (made or not yet) under a name
 * ending in .bin, as every constant file's there (bir-lower's and
 * dedup-consts' names)? It could replace one, or be replaced by one. */
bool wp_output_takes_bin_name(const char *out, const char *dir);

/* Does OUT land in directory DIR, which is not there yet (an artifact
 * directory copy-const-artifacts will make before the output is
 * written)? */
bool wp_output_lands_in_new_dir(const char *out, const char *dir);

/* The file of model directory DIR (MD when loaded, else read here:
 * metadata.json, the module, the weights) that is the file ST describes,
 * written into BUF (N bytes) and returned; NULL when none. */
const char *wp_output_model_file(const char *dir, const wp_model_dir *md,
                                 const struct stat *st, char *buf, size_t n);

/* The file of a model directory run R's passes read (inline-weights'
 * model directory, noted as the pass ran) that OUT, an existing regular
 * file, is, written into BUF; NULL when none. For a driver's own output,
 * checked once the passes ran and before it is written. */
const char *wp_output_input_dir_file(const wp_run *r, const char *out, char *buf, size_t n);

#endif
