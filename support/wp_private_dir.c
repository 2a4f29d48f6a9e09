#include "wp_private_dir.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A directory younger than this may be between its mkdtemp and its
 * flock: never taken for abandoned. */
#define WP_PRIVATE_DIR_GRACE_SECONDS 10

struct wp_private_dir {
  int fd; /* the directory, flock'ed */
  char path[PATH_MAX];
};

/* What a signal handler must find without a run: the paths of this
 * process's private directories. Slots are claimed with a compare and
 * swap and the path is complete before it is published. */
#define WP_PRIVATE_DIR_SLOTS 16
static wp_private_dir *g_dirs[WP_PRIVATE_DIR_SLOTS];

static void publish(wp_private_dir *d) {
  for (int i = 0; i < WP_PRIVATE_DIR_SLOTS; i++) {
    wp_private_dir *none = NULL;
    if (__atomic_compare_exchange_n(&g_dirs[i], &none, d, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
      return;
  }
  /* more at once than slots: that one is left to the next run's sweep */
}

static void unpublish(const wp_private_dir *d) {
  for (int i = 0; i < WP_PRIVATE_DIR_SLOTS; i++) {
    wp_private_dir *mine = (wp_private_dir *)d;
    if (__atomic_compare_exchange_n(&g_dirs[i], &mine, NULL, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
      return;
  }
}

static const char *tmp_base(void) {
  const char *base = getenv("TMPDIR");
  return base && *base ? base : "/tmp";
}

/* Removes the plain entries of the directory open as DFD (not "." and
 * ".."); subdirectories are left, and then the directory stays. */
static void empty_dir(int dfd) {
  int fd = dup(dfd);
  DIR *dir = fd < 0 ? NULL : fdopendir(fd);
  if (!dir) {
    if (fd >= 0)
      close(fd);
    return;
  }
  for (struct dirent *e; (e = readdir(dir));)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      unlinkat(dfd, e->d_name, 0);
  closedir(dir);
}

/* Removes BASE/NAME when its owner is gone: its lock is free and it is
 * not new. */
static void sweep_one(int base_fd, const char *base, const char *name) {
  int fd = openat(base_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return;
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_uid != geteuid() ||
      time(NULL) - st.st_mtime < WP_PRIVATE_DIR_GRACE_SECONDS ||
      flock(fd, LOCK_EX | LOCK_NB) != 0) {
    close(fd);
    return;
  }
  empty_dir(fd);
  char path[PATH_MAX];
  if (snprintf(path, sizeof path, "%s/%s", base, name) < (int)sizeof path)
    rmdir(path);
  close(fd);
}

static void sweep(const char *base, const char *prefix) {
  DIR *dir = opendir(base);
  if (!dir)
    return;
  size_t n = strlen(prefix);
  for (struct dirent *e; (e = readdir(dir));)
    if (!strncmp(e->d_name, prefix, n) && e->d_name[n] == '-' && strlen(e->d_name) == n + 7)
      sweep_one(dirfd(dir), base, e->d_name);
  closedir(dir);
}

wp_private_dir *wp_private_dir_create(const char *prefix, wp_error *err) {
  const char *base = tmp_base();
  sweep(base, prefix);
  wp_private_dir *d = wp_xcalloc(1, sizeof *d);
  d->fd = -1;
  if (snprintf(d->path, sizeof d->path, "%s/%s-XXXXXX", base, prefix) >= (int)sizeof d->path) {
    free(d);
    wp_error_errno(err, ENAMETOOLONG, "cannot create a temporary directory in %s", base);
    return NULL;
  }
  if (!mkdtemp(d->path)) {
    int e = errno;
    free(d);
    wp_error_errno(err, e, "cannot create a temporary directory in %s (set TMPDIR to a "
                   "writable directory)", base);
    return NULL;
  }
  d->fd = open(d->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d->fd < 0 || flock(d->fd, LOCK_EX | LOCK_NB) != 0) {
    int e = errno;
    wp_private_dir_destroy(d);
    wp_error_errno(err, e, "cannot lock the temporary directory in %s", base);
    return NULL;
  }
  publish(d);
  return d;
}

const char *wp_private_dir_path(const wp_private_dir *d) { return d->path; }

void wp_private_dir_destroy(wp_private_dir *d) {
  if (!d)
    return;
  unpublish(d);
  if (d->fd >= 0) {
    empty_dir(d->fd);
    close(d->fd);
  }
  rmdir(d->path);
  free(d);
}

void wp_private_dirs_remove_from_signal(void) {
  for (int i = 0; i < WP_PRIVATE_DIR_SLOTS; i++) {
    wp_private_dir *d = __atomic_load_n(&g_dirs[i], __ATOMIC_ACQUIRE);
    if (d)
      rmdir(d->path);
  }
}
