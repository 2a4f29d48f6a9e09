#include "wp_hashed_files.h"

#include "wp_error.h"
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
 * inode -> index into s->records (the device is compared on a hit). */
struct wp_hashed_set {
  wp_i64map by_inode;
  hashed *records;
  size_t n, cap;
  pthread_mutex_t lock;
  /* Sources by the path the IR names (a file replaced by a rename is a
   * new inode under the same name); keys owned. */
  wp_strmap source_by_path;
  hashed *sources;
  size_t n_sources, cap_sources;
};

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

void wp_hashed_note(wp_hashed_set *s, const char *path, const char *md5) {
  if (!s)
    return;
  struct stat st;
  if (strlen(md5) != 32 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return;
  hashed h = state_of(&st);
  memcpy(h.md5, md5, 33);
  pthread_mutex_lock(&s->lock);
  int64_t at;
  if (wp_i64map_get(&s->by_inode, (int64_t)st.st_ino, &at)) {
    s->records[at] = h; /* the same file again, or one on another device: the newer wins */
  } else {
    if (s->n >= WP_HASHED_MAX) {
      wp_i64map_free(&s->by_inode);
      wp_i64map_init(&s->by_inode);
      s->n = 0;
    }
    if (room_for_one(&s->records, s->n, &s->cap) &&
        wp_i64map_put(&s->by_inode, (int64_t)st.st_ino, (int64_t)s->n) == 0)
      s->records[s->n++] = h;
  }
  pthread_mutex_unlock(&s->lock);
}

bool wp_hashed_still(wp_hashed_set *s, const char *path, const char *md5) {
  if (!s)
    return false;
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return false;
  pthread_mutex_lock(&s->lock);
  int64_t at;
  bool ok = wp_i64map_get(&s->by_inode, (int64_t)st.st_ino, &at);
  if (ok) {
    const hashed *h = &s->records[at];
    ok = !strcmp(h->md5, md5) && same_state(h, &st);
  }
  pthread_mutex_unlock(&s->lock);
  return ok;
}


void wp_hashed_source_note(wp_hashed_set *s, const char *path) {
  if (!s)
    return;
  struct stat st;
  if (stat(path, &st) != 0)
    return;
  hashed h = state_of(&st);
  pthread_mutex_lock(&s->lock);
  int64_t at;
  if (wp_strmap_get(&s->source_by_path, path, strlen(path), &at)) {
    s->sources[at] = h; /* a later run's hash */
  } else if (s->n_sources < WP_HASHED_MAX && /* past it: not checked, as before */
             room_for_one(&s->sources, s->n_sources, &s->cap_sources)) {
    char *key = strdup(path);
    if (key && wp_strmap_put(&s->source_by_path, key, strlen(key), (int64_t)s->n_sources) == 0)
      s->sources[s->n_sources++] = h;
    else
      free(key);
  }
  pthread_mutex_unlock(&s->lock);
}

bool wp_hashed_source_changed(wp_hashed_set *s, const char *path) {
  if (!s)
    return false;
  pthread_mutex_lock(&s->lock);
  int64_t at;
  bool noted = wp_strmap_get(&s->source_by_path, path, strlen(path), &at);
  hashed h = noted ? s->sources[at] : (hashed){0};
  pthread_mutex_unlock(&s->lock);
  struct stat st;
  return noted && (stat(path, &st) != 0 || !same_state(&h, &st));
}

wp_hashed_set *wp_hashed_set_create(void) {
  wp_hashed_set *s = wp_xcalloc(1, sizeof *s);
  wp_i64map_init(&s->by_inode);
  wp_strmap_init(&s->source_by_path);
  pthread_mutex_init(&s->lock, NULL);
  return s;
}

void wp_hashed_set_destroy(wp_hashed_set *s) {
  if (!s)
    return;
  wp_i64map_free(&s->by_inode);
  free(s->records);
  for (size_t i = 0; i < s->source_by_path.cap; i++)
    free((char *)s->source_by_path.keys[i]);
  wp_strmap_free(&s->source_by_path);
  free(s->sources);
  pthread_mutex_destroy(&s->lock);
  free(s);
}
