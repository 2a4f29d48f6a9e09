#include "opt_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static bool writes_artifacts(const char *pass) {
  return !strcmp(pass, "copy-const-artifacts") || !strcmp(pass, "dedup-consts") ||
         !strcmp(pass, "neff-pack");
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void lock_one(const char *dir, bool debug, opt_dir_locks *locks) {
  struct stat st;
  if (stat(dir, &st) != 0 && errno == ENOENT && mkdir(dir, 0755) == 0)
    locks->made[locks->n_made++] = strdup(dir);
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return;
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) {
      if (debug)
        fprintf(stderr, "opt: %s: waiting for another run that uses this artifact directory\n",
                dir);
      while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
        ;
    } /* else: a file system without locks (some NFS); go on unlocked */
  }
  locks->fds[locks->n_fds++] = fd;
}

void opt_lock_artifact_dirs(const opt_config *cfg, bool debug, opt_dir_locks *locks) {
  memset(locks, 0, sizeof *locks);
  bool writes = false;
  const char *dirs[MAX_PASSES + 1];
  char *owned[MAX_PASSES];
  size_t n_dirs = 0, n_owned = 0;
  wp_pass_options opts;
  for (size_t i = 0; i < cfg->n_passes; i++) {
    const char *name = cfg->passes[i].info->name;
    writes |= writes_artifacts(name);
    if (strcmp(name, "copy-const-artifacts"))
      continue;
    wp_error err;
    memset(&opts, 0, sizeof opts);
    if (wp_pass_parse_options(cfg->passes[i].info, cfg->passes[i].options, &opts, &err) == 0) {
      wp_pass_run run = {cfg->passes[i].info, {NULL}, &opts, NULL};
      const char *v = wp_pass_option(&run, "artifact-dir");
      if (v[0] && (owned[n_owned] = strdup(v)))
        dirs[n_dirs++] = owned[n_owned++];
    }
    wp_pass_options_free(&opts);
  }
  if (!writes)
    goto out;
  if (cfg->artifact_dir)
    dirs[n_dirs++] = cfg->artifact_dir;
  /* one order for every run: two runs never wait for each other in a ring */
  qsort(dirs, n_dirs, sizeof dirs[0], cmp_str);
  for (size_t i = 0; i < n_dirs; i++)
    if (i == 0 || strcmp(dirs[i], dirs[i - 1]))
      lock_one(dirs[i], debug, locks);
out:
  for (size_t i = 0; i < n_owned; i++)
    free(owned[i]);
}

void opt_unlock_artifact_dirs(opt_dir_locks *locks, bool failed) {
  /* emptied while still locked, so no other run finds it gone */
  for (size_t i = 0; i < locks->n_made; i++) {
    if (failed && locks->made[i])
      rmdir(locks->made[i]);
    free(locks->made[i]);
  }
  for (size_t i = 0; i < locks->n_fds; i++)
    close(locks->fds[i]);
  memset(locks, 0, sizeof *locks);
}
