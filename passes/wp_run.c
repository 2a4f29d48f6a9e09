#include "wp_run.h"

#include "wp_depfile.h"
#include "wp_diag.h"
#include "wp_dir_locks.h"
#include "wp_error.h"
#include "wp_file.h"
#include "wp_private_dir.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

/* The weight constants mapped from files: their attributes' addresses,
 * sorted for lookup, 8 bytes a weight (a hash map's slots, at most half
 * full, take 34 or more; a run notes every weight). Noted on one thread
 * (inline-weights'), then looked up, possibly from several. */
typedef struct mapped_set {
  uintptr_t *keys;
  size_t n, cap;
  atomic_bool sorted; /* keys[0..n) ascending */
  pthread_mutex_t lock; /* for the sort, on the first lookup */
} mapped_set;

static mapped_set *mapped_create(void) {
  mapped_set *m = wp_xcalloc(1, sizeof *m);
  atomic_init(&m->sorted, true);
  pthread_mutex_init(&m->lock, NULL);
  return m;
}

static void mapped_destroy(mapped_set *m) {
  pthread_mutex_destroy(&m->lock);
  free(m->keys);
  free(m);
}

static int cmp_keys(const void *a, const void *b) {
  uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
  return (x > y) - (x < y);
}

static void mapped_sort(mapped_set *m) {
  pthread_mutex_lock(&m->lock);
  if (!atomic_load_explicit(&m->sorted, memory_order_relaxed)) {
    qsort(m->keys, m->n, sizeof *m->keys, cmp_keys);
    atomic_store_explicit(&m->sorted, true, memory_order_release);
  }
  pthread_mutex_unlock(&m->lock);
}

wp_run *wp_run_create(void) {
  wp_run *run = wp_xcalloc(1, sizeof *run);
  run->refs = 1;
  /* pid, time and the object's own address: two runs of one process, even
   * started in the same nanosecond on two threads, differ */
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  snprintf(run->token, sizeof run->token, "run-%ld-%lld.%09ld-%llu", (long)getpid(),
           (long long)ts.tv_sec, ts.tv_nsec, (unsigned long long)(uintptr_t)run);
  run->placed = wp_placed_set_create();
  run->hashed = wp_hashed_set_create();
  run->mapped = mapped_create();
  run->locks = wp_dir_locks_create(run->placed);
  run->reads = wp_depfile_paths_create();
  return run;
}

/* A directory a failed run made and could not remove: something outside
 * the run changed it (its mode, say). No IR is left to hold the warning. */
static void warn_dir_stays(void *user, const char *dir, int errnum) {
  (void)user;
  fprintf(stderr, "warning: %s, the artifact directory this failed run made, could not be "
                  "removed: %s\n", dir, strerror(errnum));
}

static void take_back_neff(wp_run *run) {
  struct stat st;
  if (run->failed && run->neff_written && stat(run->neff_written, &st) == 0 &&
      (uint64_t)st.st_dev == run->neff_dev && (uint64_t)st.st_ino == run->neff_ino)
    unlink(run->neff_written);
  free(run->neff_written);
}

void wp_run_note_neff(wp_run *run, const char *path) {
  struct stat st;
  if (stat(path, &st) != 0)
    return;
  free(run->neff_written);
  run->neff_written = wp_xstrdup(path);
  run->neff_dev = (uint64_t)st.st_dev;
  run->neff_ino = (uint64_t)st.st_ino;
}

wp_run *wp_run_retain(wp_run *run) {
  if (run)
    __atomic_add_fetch(&run->refs, 1, __ATOMIC_RELAXED);
  return run;
}

void wp_run_release(wp_run *run) {
  if (!run || __atomic_sub_fetch(&run->refs, 1, __ATOMIC_ACQ_REL) != 0)
    return;
  take_back_neff(run);
  wp_dir_locks_release(run->locks, run->failed, warn_dir_stays, NULL);
  wp_private_dir_destroy(run->private_dir);
  wp_placed_set_destroy(run->placed);
  wp_hashed_set_destroy(run->hashed);
  mapped_destroy(run->mapped);
  free(run->model_dir);
  free(run->artifact_dir);
  free(run->neff_output);
  wp_depfile_paths_destroy(run->reads);
  free(run->digest_cache);
  for (size_t i = 0; i < run->n_outputs; i++)
    free(run->outputs[i]);
  free(run->outputs);
  for (size_t i = 0; i < run->n_input_dirs; i++)
    free(run->input_dirs[i]);
  free(run->input_dirs);
  free(run);
}

bool wp_run_bir_read_back(const wp_run *run, MlirOperation module) {
  return run->bir_built_for != module.ptr;
}

/* Attributes are uniqued per context: an address means the same attribute
 * only within one, so a run that meets another context starts over. */
void wp_run_note_mapped(wp_run *run, MlirAttribute attr) {
  if (!run)
    return;
  mapped_set *m = run->mapped;
  void *ctx = mlirAttributeGetContext(attr).ptr;
  if (ctx != run->mapped_ctx) {
    m->n = 0;
    atomic_store_explicit(&m->sorted, true, memory_order_relaxed);
    run->mapped_ctx = ctx;
  }
  if (m->n == m->cap) {
    m->cap = m->cap ? 2 * m->cap : 64;
    m->keys = wp_xrealloc(m->keys, m->cap * sizeof *m->keys);
  }
  uintptr_t key = (uintptr_t)attr.ptr;
  if (m->n && key < m->keys[m->n - 1])
    atomic_store_explicit(&m->sorted, false, memory_order_relaxed);
  m->keys[m->n++] = key;
}

bool wp_run_is_mapped(const wp_run *run, MlirAttribute attr) {
  if (!run || mlirAttributeGetContext(attr).ptr != run->mapped_ctx)
    return false;
  mapped_set *m = run->mapped;
  if (!atomic_load_explicit(&m->sorted, memory_order_acquire))
    mapped_sort(m);
  uintptr_t key = (uintptr_t)attr.ptr;
  size_t lo = 0, hi = m->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (m->keys[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < m->n && m->keys[lo] == key;
}

void wp_run_note_ran(wp_run *run, const char *name) {
  if (wp_run_ran(run, name) || run->n_ran == WP_RUN_MAX_PASSES_RAN)
    return;
  run->ran[run->n_ran++] = name;
}

bool wp_run_ran(const wp_run *run, const char *name) {
  for (size_t i = 0; i < run->n_ran; i++)
    if (!strcmp(run->ran[i], name))
      return true;
  return false;
}

const char *wp_run_private_artifact_dir(wp_run *run, wp_error *err) {
  if (!run->private_dir) {
    run->private_dir = wp_private_dir_create("wp-artifacts", err);
    if (!run->private_dir)
      return NULL;
    /* what a stream or copy_file_range copy places there goes on a signal */
    wp_placed_watch_dir(run->placed, wp_private_dir_path(run->private_dir));
  }
  const char *path = wp_private_dir_path(run->private_dir);
  if (!run->artifact_dir) {
    run->artifact_dir = wp_xstrdup(path);
    run->artifact_dir_private = true;
  }
  return path;
}

typedef struct wait_note {
  const char *pass;
  MlirLocation loc;
} wait_note;

static void note_wait(void *user, const char *dir) {
  const wait_note *w = user;
  wp_emit_remark(w->loc, "%s: %s: waiting for another run that uses this artifact directory",
                 w->pass, dir);
}

int wp_run_lock_artifact_dir(wp_run *run, const char *pass, const char *dir, MlirLocation loc) {
  wp_error err;
  bool made;
  wait_note w = {pass, loc};
  if (wp_dir_locks_add(run->locks, dir, &made, note_wait, &w, &err)) {
    wp_emit_error(loc, "%s: %s", pass, err.msg);
    return -1;
  }
  return 0;
}

void wp_run_note_input_dir(wp_run *run, const char *dir) {
  for (size_t i = 0; i < run->n_input_dirs; i++)
    if (!strcmp(run->input_dirs[i], dir))
      return;
  run->input_dirs = wp_xrealloc(run->input_dirs, (run->n_input_dirs + 1) * sizeof *run->input_dirs);
  run->input_dirs[run->n_input_dirs++] = wp_xstrdup(dir);
}

void wp_run_note_output(wp_run *run, const char *path) {
  char *where = wp_output_path(path);
  if (!where)
    return;
  for (size_t i = 0; i < run->n_outputs; i++)
    if (!strcmp(run->outputs[i], where)) {
      free(where);
      return;
    }
  run->outputs = wp_xrealloc(run->outputs, (run->n_outputs + 1) * sizeof *run->outputs);
  run->outputs[run->n_outputs++] = where;
}

void wp_run_note_read(wp_run *run, const char *path) {
  if (run)
    wp_depfile_paths_add(run->reads, path);
}
