#include "wp_i64map.h"

#include <stdlib.h>

static size_t slot_of(int64_t key, size_t cap) {
  uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ull;
  return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

void wp_i64map_init(wp_i64map *m) {
  m->keys = m->vals = NULL;
  m->used = NULL;
  m->cap = m->count = 0;
}

void wp_i64map_free(wp_i64map *m) {
  free(m->keys);
  free(m->vals);
  free(m->used);
  wp_i64map_init(m);
}

static int grow(wp_i64map *m) {
  size_t cap = m->cap ? m->cap * 2 : 64;
  wp_i64map n = {calloc(cap, sizeof(int64_t)), calloc(cap, sizeof(int64_t)),
                 calloc(cap, 1), cap, 0};
  if (!n.keys || !n.vals || !n.used) {
    wp_i64map_free(&n);
    return -1;
  }
  for (size_t i = 0; i < m->cap; i++)
    if (m->used[i])
      wp_i64map_put(&n, m->keys[i], m->vals[i]);
  wp_i64map_free(m);
  *m = n;
  return 0;
}

int wp_i64map_put(wp_i64map *m, int64_t key, int64_t val) {
  if ((m->count + 1) * 2 > m->cap && grow(m) != 0)
    return -1;
  size_t i = slot_of(key, m->cap);
  while (m->used[i] && m->keys[i] != key)
    i = (i + 1) & (m->cap - 1);
  if (!m->used[i]) {
    m->used[i] = 1;
    m->keys[i] = key;
    m->count++;
  }
  m->vals[i] = val;
  return 0;
}

int wp_i64map_get(const wp_i64map *m, int64_t key, int64_t *val) {
  if (!m->cap)
    return 0;
  size_t i = slot_of(key, m->cap);
  while (m->used[i]) {
    if (m->keys[i] == key) {
      if (val)
        *val = m->vals[i];
      return 1;
    }
    i = (i + 1) & (m->cap - 1);
  }
  return 0;
}

int64_t wp_hash_bytes(const void *data, size_t len) {
  const unsigned char *p = data;
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < len; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return (int64_t)h;
}
