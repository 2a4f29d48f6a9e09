/* The public face of a run's record of the files it read
 * (wpRunDependencies, wpRunWriteDepfile): what a driver other than opt
 * hands a build system. */
#include "weightpack/weightpack.h"

#include "wp_depfile.h"
#include "wp_run.h"

#include <stdlib.h>
#include <string.h>

int wpRunDependencies(const wp_run *run, char ***paths, size_t *n, wp_error *err) {
  if (!run || !paths || !n)
    return wp_error_set(err, "wpRunDependencies: a null run or output pointer");
  wp_depfile_paths *r = wp_depfile_paths_resolve(run->reads);
  size_t count = wp_depfile_paths_count(r), bytes = (count + 1) * sizeof(char *);
  for (size_t i = 0; i < count; i++)
    bytes += strlen(wp_depfile_paths_get(r, i)) + 1;
  /* one block: the caller frees it with one free() */
  char **list = wp_xmalloc(bytes);
  char *at = (char *)(list + count + 1);
  for (size_t i = 0; i < count; i++) {
    size_t len = strlen(wp_depfile_paths_get(r, i)) + 1;
    list[i] = memcpy(at, wp_depfile_paths_get(r, i), len);
    at += len;
  }
  list[count] = NULL;
  wp_depfile_paths_destroy(r);
  *paths = list;
  *n = count;
  return 0;
}

int wpRunWriteDepfile(const wp_run *run, const char *path, const char *const *targets,
                      size_t n_targets, wp_error *err) {
  if (!run || !path || (!targets && n_targets))
    return wp_error_set(err, "wpRunWriteDepfile: a null run, path or target list");
  for (size_t i = 0; i < n_targets; i++)
    if (!targets[i] || !targets[i][0])
      return wp_error_set(err, "wpRunWriteDepfile: target %zu is null or empty", i);
  return wp_depfile_write(path, targets, n_targets, run->reads, err);
}
