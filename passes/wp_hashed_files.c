#include "wp_hashed_files.h"

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

/* path -> index into g_records; keys are owned (strdup'd) */
static wp_strmap g_by_path;
static hashed *g_records;
static char **g_keys;
static size_t g_n, g_cap;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

/* A long-running driver packs model after model: past this many files the
 * memo starts over (files hashed before are then hashed again, no more). */
#define WP_HASHED_MAX 1000000

static void forget_all(void) {
  for (size_t i = 0; i < g_n; i++)
    free(g_keys[i]);
  wp_strmap_free(&g_by_path);
  wp_strmap_init(&g_by_path);
  g_n = 0;
}

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
  if (wp_strmap_get(&g_by_path, path, strlen(path), &at)) {
    g_records[at] = h;
  } else {
    if (g_n >= WP_HASHED_MAX)
      forget_all();
    if (g_n == g_cap) {
      size_t cap = g_cap ? 2 * g_cap : 64;
      hashed *r = realloc(g_records, cap * sizeof *r);
      char **k = r ? realloc(g_keys, cap * sizeof *k) : NULL;
      if (r)
        g_records = r;
      if (!k) {
        pthread_mutex_unlock(&g_lock);
        return; /* not remembered: hashed again later, no harm */
      }
      g_keys = k;
      g_cap = cap;
    }
    char *key = strdup(path);
    if (key && wp_strmap_put(&g_by_path, key, strlen(key), (int64_t)g_n) == 0) {
      g_keys[g_n] = key;
      g_records[g_n++] = h;
    } else {
      free(key);
    }
  }
  pthread_mutex_unlock(&g_lock);
}

bool wp_hashed_still(const char *path, const char *md5) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return false;
  pthread_mutex_lock(&g_lock);
  int64_t at;
  bool ok = wp_strmap_get(&g_by_path, path, strlen(path), &at);
  if (ok) {
    const hashed *h = &g_records[at];
    ok = !strcmp(h->md5, md5) && h->dev == st.st_dev && h->ino == st.st_ino &&
         h->size == st.st_size && same_time(h->mtime, st.st_mtim) &&
         same_time(h->ctime, st.st_ctim);
  }
  pthread_mutex_unlock(&g_lock);
  return ok;
}
