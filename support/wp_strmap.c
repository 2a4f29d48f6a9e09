#include "wp_strmap.h"

#include "wp_error.h"
#include "wp_i64map.h"

#include <stdlib.h>
#include <string.h>

void wp_strmap_init(wp_strmap *m) { memset(m, 0, sizeof *m); }

void wp_strmap_free(wp_strmap *m) {
  free(m->keys);
  free(m->lens);
  free(m->vals);
  wp_strmap_init(m);
}

static size_t slot(const wp_strmap *m, const char *key, size_t len) {
  size_t i = (size_t)wp_hash_bytes(key, len) & (m->cap - 1);
  while (m->keys[i] && !(m->lens[i] == len && memcmp(m->keys[i], key, len) == 0))
    i = (i + 1) & (m->cap - 1);
  return i;
}

static void grow(wp_strmap *m) {
  wp_strmap n = {0};
  n.cap = m->cap ? 2 * m->cap : 64;
  n.keys = wp_xcalloc(n.cap, sizeof *n.keys);
  n.lens = wp_xcalloc(n.cap, sizeof *n.lens);
  n.vals = wp_xcalloc(n.cap, sizeof *n.vals);
  for (size_t i = 0; i < m->cap; i++)
    if (m->keys[i]) {
      size_t s = slot(&n, m->keys[i], m->lens[i]);
      n.keys[s] = m->keys[i];
      n.lens[s] = m->lens[i];
      n.vals[s] = m->vals[i];
      n.count++;
    }
  wp_strmap_free(m);
  *m = n;
}

int wp_strmap_put(wp_strmap *m, const char *key, size_t len, int64_t val) {
  if ((m->count + 1) * 2 > m->cap)
    grow(m);
  size_t s = slot(m, key, len);
  if (!m->keys[s]) {
    m->keys[s] = key;
    m->lens[s] = len;
    m->count++;
  }
  m->vals[s] = val;
  return 0;
}

int wp_strmap_get(const wp_strmap *m, const char *key, size_t len, int64_t *val) {
  if (!m->cap)
    return 0;
  size_t s = slot(m, key, len);
  if (!m->keys[s])
    return 0;
  if (val)
    *val = m->vals[s];
  return 1;
}
