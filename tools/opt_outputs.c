#include "opt_outputs.h"

#include "wp_file.h"
#include "wp_ir_files.h"
#include "wp_output_check.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The file of model directory MD that is the file ST describes (written
 * into BUF), or NULL. */
static const char *model_file(const wp_model_dir *md, const struct stat *st, char *buf, size_t n) {
  snprintf(buf, n, "%s/metadata.json", md->dir);
  if (wp_same_file(buf, st))
    return buf;
  if (md->model_path && wp_same_file(md->model_path, st)) {
    snprintf(buf, n, "%s", md->model_path);
    return buf;
  }
  for (size_t i = 0; i < md->n_weights; i++) {
    snprintf(buf, n, "%s/%s", md->dir, md->weights[i].rel_path);
    if (wp_same_file(buf, st))
      return buf;
  }
  return NULL;
}

/* The input of this run that OUT (an existing file, ST) is, or NULL. */
static const char *clashing_input(const opt_config *cfg, const wp_model_dir *md,
                                  MlirModule module, const struct stat *st, char *buf,
                                  size_t n) {
  if (wp_same_file(cfg->input, st))
    return cfg->input;
  const char *clash = md->dir ? model_file(md, st, buf, n) : NULL;
  return clash ? clash : wp_ir_input_file(module, cfg->artifact_dir, st, buf, n);
}

/* 0 when the directory an output to OUT lands in (through links: where a
 * dangling one points) takes a new file: the output is written beside its
 * place and renamed there, a file it replaces too. */
static int landing_dir_takes(const char *out) {
  char *path = wp_output_path(out);
  char *dir = path ? wp_path_dir(path) : NULL;
  int rc = 0;
  if (dir && access(dir, W_OK | X_OK) != 0) {
    int e = errno;
    if (strcmp(path, out) != 0)
      fprintf(stderr, "error: %s: cannot create output %s: %s\n", out, path, strerror(e));
    else
      fprintf(stderr, "error: %s: cannot create output: %s\n", out, strerror(e));
    rc = EXIT_BAD_INPUT;
  }
  free(dir);
  free(path);
  return rc;
}

static int check_one(const opt_config *cfg, const wp_model_dir *md, MlirModule module,
                     const char *out) {
  struct stat st;
  if (!out[0]) {
    fprintf(stderr, "error: an empty output file name\n");
    return EXIT_USAGE;
  }
  if (!strcmp(out, "-"))
    return 0;
  if (stat(out, &st) != 0) {
    /* into the artifact directory copy-const-artifacts makes: made then */
    if (errno != ELOOP)
      return wp_output_lands_in_new_dir(out, cfg->artifact_dir) ? 0 : landing_dir_takes(out);
    fprintf(stderr, "error: %s: cannot open output: %s\n", out, strerror(ELOOP));
    return EXIT_BAD_INPUT;
  }
  if (S_ISDIR(st.st_mode)) {
    fprintf(stderr, "error: %s: is a directory; give an output file\n", out);
    return EXIT_USAGE;
  }
  if (!S_ISREG(st.st_mode))
    return 0;
  int rc = landing_dir_takes(out);
  char buf[PATH_MAX + 512];
  const char *clash = rc ? NULL : clashing_input(cfg, md, module, &st, buf, sizeof buf);
  if (clash) {
    fprintf(stderr, "error: output %s would replace %s, an input of this run; give another "
                    "output\n", out, clash);
    rc = EXIT_USAGE;
  }
  return rc;
}

/* 0, or EXIT_USAGE after an error line when OUT lies in the artifact
 * directory --artifact-dir names under a name ending in .bin, as every
 * constant file's there (bir-lower's and dedup-consts' names): it could
 * replace one, or be replaced by one. */
static int in_artifact_dir(const opt_config *cfg, const char *out) {
  if (!cfg->artifact_dir || !strcmp(out, "-"))
    return 0;
  char *base = wp_output_name_in(out, cfg->artifact_dir);
  if (!base && wp_output_lands_in_new_dir(out, cfg->artifact_dir)) {
    char *path = wp_output_path(out);
    const char *slash = path ? strrchr(path, '/') : NULL;
    base = path ? strdup(slash ? slash + 1 : path) : NULL;
    free(path);
  }
  size_t n = base ? strlen(base) : 0;
  bool clash = n >= 4 && !strcmp(base + n - 4, ".bin");
  free(base);
  if (!clash)
    return 0;
  fprintf(stderr, "error: output %s is in the artifact directory %s, where constant files are "
                  "placed under names ending in .bin: it could replace one, or be replaced; "
                  "give the output another name or directory\n", out, cfg->artifact_dir);
  return EXIT_USAGE;
}

int opt_check_outputs(const opt_config *cfg, const wp_model_dir *md, MlirModule module) {
  /* an input it would replace is named first: the clearer mistake */
  int rc = cfg->output ? check_one(cfg, md, module, cfg->output) : 0;
  if (!rc && cfg->stats_json && strcmp(cfg->stats_json, "-") != 0)
    rc = check_one(cfg, md, module, cfg->stats_json);
  if (!rc && cfg->output)
    rc = in_artifact_dir(cfg, cfg->output);
  if (!rc && cfg->stats_json)
    rc = in_artifact_dir(cfg, cfg->stats_json);
  return rc;
}
