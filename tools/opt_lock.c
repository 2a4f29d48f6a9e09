#include "opt_lock.h"

#include "opt_args.h"
#include "wp_file.h"
#include "wp_placed.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* A directory to lock: its identity decides both the order and whether two
 * spellings (art, ./art/, a symlink to it) are one directory, which must
 * be locked once: a second flock on another open file of it would wait
 * for this very run. */
typedef struct dir_to_lock {
  int fd;
  dev_t dev;
  ino_t ino;
  const char *path;
} dir_to_lock;

/* The locks of this run, for the signal handler (NULL once released). */
static opt_dir_locks *g_locks;
static wp_placed_set *g_placed; /* the run's, for the signal handler */

void opt_lock_use_placed(wp_placed_set *placed) {
  __atomic_store_n(&g_placed, placed, __ATOMIC_RELEASE);
}

static int cmp_dir(const void *a, const void *b) {
  const dir_to_lock *x = a, *y = b;
  if (x->dev != y->dev)
    return x->dev < y->dev ? -1 : 1;
  return x->ino < y->ino ? -1 : x->ino > y->ino ? 1 : 0;
}

/* Opens DIR (made first when missing, as copy-const-artifacts would) into
 * D; -1 with ERR when it is no directory or cannot be made or opened. */
static int open_dir(const char *dir, opt_dir_locks *locks, dir_to_lock *d, wp_error *err) {
  bool made;
  if (wp_dir_ensure(dir, &made, err))
    return -1;
  if (made) {
    locks->made[locks->n_made] = strdup(dir);
    __atomic_store_n(&locks->n_made, locks->n_made + 1, __ATOMIC_RELEASE);
    /* all that is placed in it is this run's: a failed run takes it back */
    wp_placed_watch_dir(g_placed, dir);
  }
  struct stat st;
  d->fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d->fd < 0 || fstat(d->fd, &st) != 0) {
    int e = errno;
    if (d->fd >= 0)
      close(d->fd);
    return wp_error_errno(err, e, "%s: cannot open the artifact directory", dir);
  }
  d->dev = st.st_dev;
  d->ino = st.st_ino;
  d->path = dir;
  return 0;
}

static void lock_dir(const dir_to_lock *d) {
  if (flock(d->fd, LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK)
    return; /* locked, or a file system without locks (some NFS): go on */
  /* said always: a run that waits silently looks hung */
  fprintf(stderr, "note: %s: waiting for another run that uses this artifact directory\n",
          d->path);
  while (flock(d->fd, LOCK_EX) != 0 && errno == EINTR)
    ;
}

int opt_lock_artifact_dirs(const opt_config *cfg, opt_dir_locks *locks) {
  memset(locks, 0, sizeof *locks);
  if (!opt_uses_artifact_dir(cfg))
    return 0;
  /* from the first mkdir on: a run killed while it waits for a lock
   * removes the directory it made, when empty */
  __atomic_store_n(&g_locks, locks, __ATOMIC_RELEASE);
  char *dirs[MAX_PASSES + 1];
  size_t n_dirs = opt_written_artifact_dirs(cfg, dirs);
  dir_to_lock open_dirs[MAX_PASSES + 1];
  size_t n_open = 0;
  int rc = 0;
  wp_error err;
  for (size_t i = 0; i < n_dirs && rc == 0; i++) {
    if (open_dir(dirs[i], locks, &open_dirs[n_open], &err)) {
      fprintf(stderr, "error: %s\n", err.msg);
      rc = EXIT_BAD_INPUT;
    } else {
      n_open++;
    }
  }
  /* one order for every run (by identity, not spelling): two runs never
   * wait for each other in a ring */
  qsort(open_dirs, n_open, sizeof open_dirs[0], cmp_dir);
  for (size_t i = 0; i < n_open; i++) {
    if (rc != 0 || (i > 0 && !cmp_dir(&open_dirs[i], &open_dirs[i - 1]))) {
      close(open_dirs[i].fd);
      continue;
    }
    lock_dir(&open_dirs[i]);
    locks->fds[locks->n_fds++] = open_dirs[i].fd;
  }
  for (size_t i = 0; i < n_dirs; i++)
    free(dirs[i]);
  return rc;
}

void opt_unlock_artifact_dirs(opt_dir_locks *locks, bool failed) {
  /* the signal handler must not read what is freed below */
  __atomic_store_n(&g_locks, NULL, __ATOMIC_RELEASE);
  /* emptied while still locked, so no other run finds it gone */
  if (failed)
    wp_placed_take_back(g_placed);
  for (size_t i = 0; i < locks->n_made; i++) {
    if (failed && locks->made[i] && rmdir(locks->made[i]) != 0 && errno != ENOENT)
      /* something outside the run changed it (its mode, say) */
      fprintf(stderr, "warning: %s, the artifact directory this failed run made, could not "
                      "be removed: %s\n", locks->made[i], strerror(errno));
    free(locks->made[i]);
  }
  for (size_t i = 0; i < locks->n_fds; i++)
    close(locks->fds[i]);
  memset(locks, 0, sizeof *locks);
}

void opt_lock_remove_made_from_signal(void) {
  const opt_dir_locks *locks = __atomic_load_n(&g_locks, __ATOMIC_ACQUIRE);
  wp_placed_take_back(__atomic_load_n(&g_placed, __ATOMIC_ACQUIRE));
  for (size_t i = 0; locks && i < locks->n_made; i++)
    if (locks->made[i])
      rmdir(locks->made[i]);
}
