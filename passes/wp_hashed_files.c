#include "wp_hashed_files.h"

#include "wp_i64map.h"
#include "wp_strmap.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct hashed {
  char md5[33];
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime, ctime;
} hashed;

/* Records are found by the file, not by its name: copy-const-artifacts
 * names a file through the directory as given (a relative
 * --artifact-dir), dedup-consts through the absolute path the IR records.
 * inode -> index into g_records (the device is compared on a hit). */
static wp_i64map g_by_inode;
static hashed *g_records;
static size_t g_n, g_cap;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

/* A long-running driver packs model after model: past this many files the
 * memo starts over (files hashed before are then hashed again, no more). */
#define WP_HASHED_MAX 1000000

static bool same_time(struct timespec a, struct timespec b) {
  return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

static hashed state_of(const struct stat *st) {
  return (hashed){.dev = st->st_dev, .ino = st->st_ino, .size = st->st_size,
                  .mtime = st->st_mtim, .ctime = st->st_ctim};
}

static bool same_state(const hashed *h, const struct stat *st) {
  return h->dev == st->st_dev && h->ino == st->st_ino && h->size == st->st_size &&
         same_time(h->mtime, st->st_mtim) && same_time(h->ctime, st->st_ctim);
}

/* Room for one more record in *R (N used of *CAP); false when memory ran
 * out (the record is then not kept: the file is hashed again, or not
 * checked, no harm). Called with the lock held. */
static bool room_for_one(hashed **r, size_t n, size_t *cap) {
  if (n < *cap)
    return true;
  size_t grown = *cap ? 2 * *cap : 64;
  hashed *more = realloc(*r, grown * sizeof *more);
  if (!more)
    return false;
  *r = more;
  *cap = grown;
  return true;
}

void wp_hashed_note(const char *path, const char *md5) {
  struct stat st;
  if (strlen(md5) != 32 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return;
  hashed h = state_of(&st);
  memcpy(h.md5, md5, 33);
  pthread_mutex_lock(&g_lock);
  int64_t at;
  if (wp_i64map_get(&g_by_inode, (int64_t)st.st_ino, &at)) {
    g_records[at] = h; /* the same file again, or one on another device: the newer wins */
  } else {
    if (g_n >= WP_HASHED_MAX) {
      wp_i64map_free(&g_by_inode);
      wp_i64map_init(&g_by_inode);
      g_n = 0;
    }
    if (room_for_one(&g_records, g_n, &g_cap) &&
        wp_i64map_put(&g_by_inode, (int64_t)st.st_ino, (int64_t)g_n) == 0)
      g_records[g_n++] = h;
  }
  pthread_mutex_unlock(&g_lock);
}

bool wp_hashed_still(const char *path, const char *md5) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return false;
  pthread_mutex_lock(&g_lock);
  int64_t at;
  bool ok = wp_i64map_get(&g_by_inode, (int64_t)st.st_ino, &at);
  if (ok) {
    const hashed *h = &g_records[at];
    ok = !strcmp(h->md5, md5) && same_state(h, &st);
  }
  pthread_mutex_unlock(&g_lock);
  return ok;
}

/* Sources by the path the IR names (a file replaced by a rename is a new
 * inode under the same name); keys owned. */
static wp_strmap g_source_by_path;
static hashed *g_sources;
static size_t g_n_sources, g_cap_sources;

void wp_hashed_source_note(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0)
    return;
  hashed h = state_of(&st);
  pthread_mutex_lock(&g_lock);
  int64_t at;
  if (wp_strmap_get(&g_source_by_path, path, strlen(path), &at)) {
    g_sources[at] = h; /* a later run's hash */
  } else if (g_n_sources < WP_HASHED_MAX && /* past it: not checked, as before */
             room_for_one(&g_sources, g_n_sources, &g_cap_sources)) {
    char *key = strdup(path);
    if (key && wp_strmap_put(&g_source_by_path, key, strlen(key), (int64_t)g_n_sources) == 0)
      g_sources[g_n_sources++] = h;
    else
      free(key);
  }
  pthread_mutex_unlock(&g_lock);
}

bool wp_hashed_source_changed(const char *path) {
  pthread_mutex_lock(&g_lock);
  int64_t at;
  bool noted = wp_strmap_get(&g_source_by_path, path, strlen(path), &at);
  hashed h = noted ? g_sources[at] : (hashed){0};
  pthread_mutex_unlock(&g_lock);
  struct stat st;
  return noted && (stat(path, &st) != 0 || !same_state(&h, &st));
}

void wp_hashed_forget(void) {
  pthread_mutex_lock(&g_lock);
  wp_i64map_free(&g_by_inode);
  wp_i64map_init(&g_by_inode);
  g_n = 0;
  for (size_t i = 0; i < g_source_by_path.cap; i++)
    free((char *)g_source_by_path.keys[i]);
  wp_strmap_free(&g_source_by_path);
  wp_strmap_init(&g_source_by_path);
  g_n_sources = 0;
  pthread_mutex_unlock(&g_lock);
}
