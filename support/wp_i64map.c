#include "wp_i64map.h"

#include "wp_error.h"

#include <stdlib.h>
#include <string.h>

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

static void grow(wp_i64map *m) {
  size_t cap = m->cap ? m->cap * 2 : 64;
  wp_i64map n = {wp_xcalloc(cap, sizeof(int64_t)), wp_xcalloc(cap, sizeof(int64_t)),
                 wp_xcalloc(cap, 1), cap, 0};
  for (size_t i = 0; i < m->cap; i++)
    if (m->used[i])
      wp_i64map_put(&n, m->keys[i], m->vals[i]);
  wp_i64map_free(m);
  *m = n;
}

int wp_i64map_put(wp_i64map *m, int64_t key, int64_t val) {
  if ((m->count + 1) * 2 > m->cap)
    grow(m);
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
  /* Eight bytes a step (bir-lower hashes the bytes of every small constant:
   * 100 MiB for 100,000 weights, which byte-wise FNV-1a took 0.1 s over),
   * each word mixed in by a multiply and a shift. */
  const unsigned char *p = data;
  uint64_t h = 0xcbf29ce484222325ull ^ ((uint64_t)len * 0x9E3779B97F4A7C15ull);
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  uint64_t tail = 0;
  for (size_t k = 0; i < len; i++, k++)
    tail |= (uint64_t)p[i] << (8 * k);
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 29;
  return (int64_t)h;
}
