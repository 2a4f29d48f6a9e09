#include "wp_output_check.h"

#include "wp_file.h"
#include "wp_ir_files.h"
#include "wp_mlir_util.h"
#include "wp_model_dir.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int wp_output_landing_takes(const char *out, wp_error *err) {
  char *path = wp_output_path(out);
  char *dir = path ? wp_path_dir(path) : NULL;
  int rc = 0;
  if (dir && access(dir, W_OK | X_OK) != 0) {
    int e = errno;
    if (strcmp(path, out) != 0)
      rc = wp_error_errno(err, e, "%s: cannot create output %s", out, path);
    else
      rc = wp_error_errno(err, e, "%s: cannot create output", out);
  }
  free(dir);
  free(path);
  return rc;
}

static int landing_dir_takes(const char *pass, const char *out, wp_error *err) {
  if (!wp_output_landing_takes(out, err))
    return 0;
  wp_error_prefix(err, "%s", pass);
  return -1;
}

bool wp_output_takes_bin_name(const char *out, const char *dir) {
  char *base = dir && dir[0] ? wp_output_name_in(out, dir) : NULL;
  if (!base && wp_output_lands_in_new_dir(out, dir)) {
    /* a directory not made yet */
    char *path = wp_output_path(out);
    const char *slash = path ? strrchr(path, '/') : NULL;
    base = path ? wp_xstrdup(slash ? slash + 1 : path) : NULL;
    free(path);
  }
  size_t n = base ? strlen(base) : 0;
  bool clash = n >= 4 && !strcmp(base + n - 4, ".bin");
  free(base);
  return clash;
}

int wp_output_check_early(const char *pass, const char *out, bool seekable, bool landing,
                          wp_error *err) {
  struct stat st;
  if (!out[0])
    return wp_error_set(err, "%s: an empty output file name", pass);
  if (!strcmp(out, "-"))
    return seekable ? wp_error_set(err, "%s: a NEFF cannot go to standard output (its header "
                                   "is written last); give output=FILE", pass)
                    : 0;
  if (stat(out, &st) != 0) {
    if (errno == ELOOP)
      return wp_error_errno(err, ELOOP, "%s: %s: cannot open output", pass, out);
    return landing ? landing_dir_takes(pass, out, err) : 0;
  }
  if (S_ISDIR(st.st_mode))
    return wp_error_set(err, "%s: %s: is a directory; give an output file", pass, out);
  if (seekable && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
    return wp_error_set(err, "%s: %s: a NEFF needs an output it can seek in (its header is "
                        "written last): give a file", pass, out);
  return S_ISREG(st.st_mode) && landing ? landing_dir_takes(pass, out, err) : 0;
}

/* PATH, which need not be there, spelled from the real path of its
 * parent directory (malloc'd; NULL when the parent is not there). */
static char *canonical_new(const char *path) {
  size_t n = strlen(path);
  while (n > 1 && path[n - 1] == '/')
    n--;
  char *trimmed = strndup(path, n);
  if (!trimmed)
    return NULL;
  char *slash = strrchr(trimmed, '/');
  const char *base = slash ? slash + 1 : trimmed;
  char *parent = slash ? (slash == trimmed ? strdup("/") : strndup(trimmed, (size_t)(slash - trimmed)))
                       : strdup(".");
  char *real = parent ? realpath(parent, NULL) : NULL;
  char *out = NULL;
  if (real && (out = malloc(strlen(real) + strlen(base) + 2)))
    sprintf(out, "%s/%s", strcmp(real, "/") ? real : "", base);
  free(real);
  free(parent);
  free(trimmed);
  return out;
}

bool wp_output_lands_in_new_dir(const char *out, const char *dir) {
  struct stat st;
  if (!dir || !dir[0] || stat(dir, &st) == 0 || errno != ENOENT)
    return false;
  char *path = wp_output_path(out);
  char *landing = path ? wp_path_dir(path) : NULL;
  char *a = landing ? canonical_new(landing) : NULL, *b = canonical_new(dir);
  bool same = a && b && !strcmp(a, b);
  free(a);
  free(b);
  free(landing);
  free(path);
  return same;
}

/* Does PATH resolve to somewhere under directory DIR? */
static bool inside_dir(const char *path, const char *dir) {
  char *real_path = realpath(path, NULL), *real_dir = realpath(dir, NULL);
  size_t dl = real_dir ? strlen(real_dir) : 0;
  /* "/" is the one directory whose real path ends in a slash */
  bool inside = real_path && real_dir && !strncmp(real_path, real_dir, dl) &&
                (real_path[dl] == '/' || (dl == 1 && real_path[1]));
  free(real_path);
  free(real_dir);
  return inside;
}

const char *wp_output_model_file(const char *dir, const wp_model_dir *md,
                                 const struct stat *st, char *buf, size_t n) {
  wp_model_dir own = {0};
  wp_error err;
  if (!md && wp_model_dir_load_weights(dir, &own, &err) == 0)
    md = &own;
  /* in the order a clash is named: metadata.json, the module, the weights */
  size_t count = 2 + (md ? md->n_weights : 0), k = 0;
  char **paths = wp_xcalloc(count, sizeof *paths);
  paths[k++] = wp_path_join(dir, "metadata.json");
  if (md && md->model_path)
    paths[k++] = wp_xstrdup(md->model_path);
  for (size_t i = 0; md && i < md->n_weights; i++)
    paths[k++] = wp_path_join(dir, md->weights[i].rel_path);
  long at = wp_same_file_among((const char *const *)paths, k, st);
  if (at >= 0)
    snprintf(buf, n, "%s", paths[at]);
  for (size_t i = 0; i < k; i++)
    free(paths[i]);
  free(paths);
  wp_model_dir_free(&own);
  return at >= 0 ? buf : NULL;
}

/* The file of a model directory R's passes read that OUT (ST) is. */
static const char *input_dir_file(const wp_run *r, const char *out, const struct stat *st,
                                  char *buf, size_t n) {
  for (size_t i = 0; i < r->n_input_dirs; i++)
    if (inside_dir(out, r->input_dirs[i]) &&
        wp_output_model_file(r->input_dirs[i], NULL, st, buf, n))
      return buf;
  return NULL;
}

/* The input of RUN that OUT (an existing file, ST) would replace, or NULL. */
static const char *clashing_input(const wp_pass_run *run, const char *out, const struct stat *st,
                                  char *buf, size_t n) {
  const wp_run *r = run->state;
  if (r->model && inside_dir(out, r->model->dir) &&
      wp_output_model_file(r->model->dir, r->model, st, buf, n))
    return buf;
  if (input_dir_file(r, out, st, buf, n))
    return buf;
  MlirModule m = mlirModuleFromOperation(run->module);
  return wp_ir_input_file(m, NULL, st, buf, n);
}

const char *wp_output_input_dir_file(const wp_run *r, const char *out, char *buf, size_t n) {
  struct stat st;
  if (!strcmp(out, "-") || stat(out, &st) != 0 || !S_ISREG(st.st_mode))
    return NULL;
  return input_dir_file(r, out, &st, buf, n);
}

int wp_output_check_inputs(const wp_pass_run *run, const char *out) {
  struct stat st;
  if (!strcmp(out, "-") || stat(out, &st) != 0 || !S_ISREG(st.st_mode))
    return 0;
  char buf[PATH_MAX + 512];
  const char *clash = clashing_input(run, out, &st, buf, sizeof buf);
  if (!clash)
    return 0;
  wp_emit_error(mlirOperationGetLocation(run->module), "%s: output %s would replace %s, an "
                "input of this run; give another output", run->info->name, out, clash);
  return -1;
}
