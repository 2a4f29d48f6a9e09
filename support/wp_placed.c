#include "wp_placed.h"

#include "wp_error.h"
#include "wp_i64map.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct placed {
  struct placed *next;
  dev_t dev;
  ino_t ino;
  size_t dir_len; /* PATH's directory part is its first DIR_LEN bytes */
  char path[];
} placed;


/* A long-running driver places model after model: past this many files
 * the list starts over (older runs' files then count as placed earlier,
 * which only keeps them). Not while a directory is watched: opt's one run
 * stops noting instead, and what it placed past that stays. */
#define WP_PLACED_MAX 1000000

#define WP_PLACED_MAX_WATCHED 64

struct wp_placed_set {
  /* Newest first. A signal handler walks it, so a node is complete before
   * it is published and is never freed while a directory is watched. */
  placed *head;
  wp_i64map by_key; /* key_of(name, file) -> node */
  size_t n;
  pthread_mutex_t lock;
  struct {
    dev_t dev;
    ino_t ino;
  } watched[WP_PLACED_MAX_WATCHED];
  int n_watched;
};

wp_placed_set *wp_placed_set_create(void) {
  wp_placed_set *s = calloc(1, sizeof *s);
  if (!s)
    wp_out_of_memory();
  wp_i64map_init(&s->by_key);
  pthread_mutex_init(&s->lock, NULL);
  return s;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* Two names of one file (a hard link) are two keys. */
static int64_t key_of(const char *name, dev_t dev, ino_t ino) {
  uint64_t h = (uint64_t)wp_hash_bytes(name, strlen(name));
  h ^= (uint64_t)ino * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t)dev * 0xC2B2AE3D27D4EB4Full;
  return (int64_t)h;
}

static void forget_all(wp_placed_set *s) {
  placed *p = s->head;
  __atomic_store_n(&s->head, NULL, __ATOMIC_RELEASE);
  while (p) {
    placed *next = p->next;
    free(p);
    p = next;
  }
  wp_i64map_free(&s->by_key);
  wp_i64map_init(&s->by_key);
  s->n = 0;
}

void wp_placed_set_destroy(wp_placed_set *s) {
  if (!s)
    return;
  forget_all(s);
  wp_i64map_free(&s->by_key);
  pthread_mutex_destroy(&s->lock);
  free(s);
}

int wp_placed_note(wp_placed_set *s, const char *path, const struct stat *st) {
  if (!s)
    return 0;
  size_t n = strlen(path);
  placed *p = malloc(sizeof *p + n + 1);
  if (!p)
    return -1;
  p->dev = st->st_dev;
  p->ino = st->st_ino;
  const char *base = base_name(path);
  p->dir_len = base > path ? (size_t)(base - path) - 1 : 0;
  memcpy(p->path, path, n + 1);
  int64_t key = key_of(base, p->dev, p->ino);
  pthread_mutex_lock(&s->lock);
  if (s->n >= WP_PLACED_MAX) {
    if (__atomic_load_n(&s->n_watched, __ATOMIC_ACQUIRE)) {
      pthread_mutex_unlock(&s->lock);
      free(p);
      return 0; /* a million files: the rest stay if the run fails */
    }
    forget_all(s);
  }
  /* on the list first: should the key's memory run out (an abort), the
   * handler still takes the file back */
  p->next = s->head;
  __atomic_store_n(&s->head, p, __ATOMIC_RELEASE);
  wp_i64map_put(&s->by_key, key, (int64_t)(intptr_t)p);
  s->n++;
  pthread_mutex_unlock(&s->lock);
  return 0;
}

bool wp_placed_here(wp_placed_set *s, const char *path) {
  if (!s)
    return false;
  struct stat st;
  if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return false;
  const char *base = base_name(path);
  int64_t v;
  pthread_mutex_lock(&s->lock);
  bool found = wp_i64map_get(&s->by_key, key_of(base, st.st_dev, st.st_ino), &v);
  if (found) {
    const placed *p = (const placed *)(intptr_t)v;
    found = p->dev == st.st_dev && p->ino == st.st_ino && !strcmp(base_name(p->path), base);
  }
  pthread_mutex_unlock(&s->lock);
  return found;
}

int wp_placed_watch_dir(wp_placed_set *s, const char *dir) {
  if (!s)
    return 0;
  struct stat st;
  if (stat(dir, &st) != 0)
    return -1;
  pthread_mutex_lock(&s->lock);
  int n = s->n_watched;
  for (int i = 0; i < n; i++)
    if (s->watched[i].dev == st.st_dev && s->watched[i].ino == st.st_ino) {
      pthread_mutex_unlock(&s->lock);
      return 0;
    }
  if (n == WP_PLACED_MAX_WATCHED) {
    pthread_mutex_unlock(&s->lock);
    errno = ENOSPC;
    return -1;
  }
  s->watched[n].dev = st.st_dev;
  s->watched[n].ino = st.st_ino;
  __atomic_store_n(&s->n_watched, n + 1, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&s->lock);
  return 0;
}

/* Only lstat, stat and unlink: safe in a signal handler. */
void wp_placed_take_back(wp_placed_set *s) {
  if (!s)
    return;
  int n_watched = __atomic_load_n(&s->n_watched, __ATOMIC_ACQUIRE);
  if (!n_watched)
    return;
  char dir[PATH_MAX];
  for (placed *p = __atomic_load_n(&s->head, __ATOMIC_ACQUIRE); p; p = p->next) {
    struct stat st;
    if (lstat(p->path, &st) != 0 || st.st_dev != p->dev || st.st_ino != p->ino)
      continue; /* gone already (dedup-consts), or no longer ours */
    if (p->dir_len >= sizeof dir)
      continue;
    if (p->dir_len) {
      memcpy(dir, p->path, p->dir_len);
      dir[p->dir_len] = 0;
    } else {
      dir[0] = p->path[0] == '/' ? '/' : '.';
      dir[1] = 0;
    }
    if (stat(dir, &st) != 0)
      continue;
    for (int i = 0; i < n_watched; i++)
      if (s->watched[i].dev == st.st_dev && s->watched[i].ino == st.st_ino) {
        unlink(p->path);
        break;
      }
  }
}
