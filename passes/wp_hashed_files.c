#include "wp_hashed_files.h"

#include "wp_i64map.h"

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

void wp_hashed_note(const char *path, const char *md5) {
  struct stat st;
  if (strlen(md5) != 32 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return;
  hashed h = {.dev = st.st_dev, .ino = st.st_ino, .size = st.st_size,
              .mtime = st.st_mtim, .ctime = st.st_ctim};
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
    if (g_n == g_cap) {
      size_t cap = g_cap ? 2 * g_cap : 64;
      hashed *r = realloc(g_records, cap * sizeof *r);
      if (!r) {
        pthread_mutex_unlock(&g_lock);
        return; /* not remembered: hashed again later, no harm */
      }
      g_records = r;
      g_cap = cap;
    }
    if (wp_i64map_put(&g_by_inode, (int64_t)st.st_ino, (int64_t)g_n) == 0)
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
    ok = !strcmp(h->md5, md5) && h->dev == st.st_dev && h->ino == st.st_ino &&
         h->size == st.st_size && same_time(h->mtime, st.st_mtim) &&
         same_time(h->ctime, st.st_ctim);
  }
  pthread_mutex_unlock(&g_lock);
  return ok;
}
