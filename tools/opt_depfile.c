#include "opt_depfile.h"

#include "wp_depfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void opt_depfile_note_input(wp_run *run, const opt_config *cfg, const wp_model_dir *md) {
  /* always: neff-pack's depfile= names them too */
  struct stat st;
  if (md->dir) {
    size_t n = strlen(md->dir) + sizeof "/metadata.json";
    char *meta = wp_xmalloc(n);
    snprintf(meta, n, "%s/metadata.json", md->dir);
    wp_run_note_read(run, meta);
    free(meta);
    wp_run_note_read(run, md->model_path);
  } else if (strcmp(cfg->input, "-") != 0 && stat(cfg->input, &st) == 0 &&
             S_ISREG(st.st_mode)) {
    wp_run_note_read(run, cfg->input);
  }
}

int opt_depfile_write(const opt_config *cfg, const wp_run *run) {
  if (!cfg->depfile)
    return 0;
  const char *targets[2];
  size_t n = 0;
  targets[n++] = cfg->output; /* opt_parse_args made sure of a file */
  if (run->neff_written && !run->neff_to_driver_output && strcmp(run->neff_written, cfg->output))
    targets[n++] = run->neff_written;
  wp_error err;
  if (wp_depfile_write(cfg->depfile, targets, n, run->reads, &err)) {
    fprintf(stderr, "error: --depfile: %s\n", err.msg);
    return EXIT_BAD_INPUT;
  }
  return 0;
}
