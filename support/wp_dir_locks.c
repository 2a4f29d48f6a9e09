#include "wp_dir_locks.h"

#include "wp_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define WP_DIR_LOCKS_MAX 32

/* One directory, known by its identity: two spellings (art, ./art/, a
 * symlink to it) are one directory, locked once; a second flock on
 * another open file of it would wait for this very run. */
typedef struct held_dir {
  int fd;
  dev_t dev;
  ino_t ino;
} held_dir;

struct wp_dir_locks {
  wp_placed_set *placed;
  held_dir held[WP_DIR_LOCKS_MAX];
  size_t n_held;
  char *made[WP_DIR_LOCKS_MAX]; /* directories this run created */
  size_t n_made;
};

/* What a signal handler must find without a run: the set being held
 * (one per process at a time is what a driver makes; a second one is
 * left to its own release). */
static wp_dir_locks *g_locks;

wp_dir_locks *wp_dir_locks_create(wp_placed_set *placed) {
  wp_dir_locks *locks = wp_xcalloc(1, sizeof *locks);
  locks->placed = placed;
  wp_dir_locks *none = NULL;
  __atomic_compare_exchange_n(&g_locks, &none, locks, false, __ATOMIC_ACQ_REL,
                              __ATOMIC_ACQUIRE);
  return locks;
}

static bool held(const wp_dir_locks *locks, const struct stat *st) {
  for (size_t i = 0; i < locks->n_held; i++)
    if (locks->held[i].dev == st->st_dev && locks->held[i].ino == st->st_ino)
      return true;
  return false;
}

static int lock_fd(wp_dir_locks *locks, int fd, const char *dir, wp_dir_wait_fn on_wait,
                   void *user, wp_error *err) {
  if (flock(fd, LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK)
    return 0; /* locked, or a file system without locks (some NFS): go on */
  if (locks->n_held)
    return wp_error_set(err, "%s: another run uses this artifact directory, and this run "
                        "holds another one it may be waiting for; run them one after the other",
                        dir);
  if (on_wait) /* said always: a run that waits silently looks hung */
    on_wait(user, dir);
  while (flock(fd, LOCK_EX) != 0)
    if (errno != EINTR)
      return wp_error_errno(err, errno, "%s: cannot lock the artifact directory", dir);
  return 0;
}

int wp_dir_locks_add(wp_dir_locks *locks, const char *dir, bool *made, wp_dir_wait_fn on_wait,
                     void *user, wp_error *err) {
  *made = false;
  if (wp_dir_ensure(dir, made, err))
    return -1;
  if (*made && locks->n_made < WP_DIR_LOCKS_MAX) {
    locks->made[locks->n_made] = wp_xstrdup(dir);
    __atomic_store_n(&locks->n_made, locks->n_made + 1, __ATOMIC_RELEASE);
    /* all that is placed in it is this run's: a failed run takes it back */
    wp_placed_watch_dir(locks->placed, dir);
  }
  struct stat st;
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 || fstat(fd, &st) != 0) {
    int e = errno;
    if (fd >= 0)
      close(fd);
    return wp_error_errno(err, e, "%s: cannot open the artifact directory", dir);
  }
  if (held(locks, &st)) {
    close(fd);
    return 0;
  }
  if (locks->n_held == WP_DIR_LOCKS_MAX) {
    close(fd);
    return wp_error_set(err, "%s: more than %d artifact directories in one run", dir,
                        WP_DIR_LOCKS_MAX);
  }
  if (lock_fd(locks, fd, dir, on_wait, user, err)) {
    close(fd);
    return -1;
  }
  locks->held[locks->n_held++] = (held_dir){fd, st.st_dev, st.st_ino};
  return 0;
}

void wp_dir_locks_release(wp_dir_locks *locks, bool failed,
                          void (*warn)(void *user, const char *dir, int errnum), void *user) {
  if (!locks)
    return;
  /* the signal handler must not read what is freed below */
  wp_dir_locks *mine = locks;
  __atomic_compare_exchange_n(&g_locks, &mine, NULL, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
  /* emptied while still locked, so no other run finds it gone */
  if (failed)
    wp_placed_take_back(locks->placed);
  for (size_t i = 0; i < locks->n_made; i++) {
    /* something outside the run changed it (its mode, say) */
    if (failed && rmdir(locks->made[i]) != 0 && errno != ENOENT && warn)
      warn(user, locks->made[i], errno);
    free(locks->made[i]);
  }
  for (size_t i = 0; i < locks->n_held; i++)
    close(locks->held[i].fd);
  free(locks);
}

void wp_dir_locks_remove_made_from_signal(void) {
  const wp_dir_locks *locks = __atomic_load_n(&g_locks, __ATOMIC_ACQUIRE);
  if (!locks)
    return;
  wp_placed_take_back(locks->placed);
  size_t n = __atomic_load_n(&locks->n_made, __ATOMIC_ACQUIRE);
  for (size_t i = 0; i < n; i++)
    rmdir(locks->made[i]);
}
