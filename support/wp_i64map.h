/* An open-addressing hash map from int64 keys to int64 values (instruction
 * ids to indices, pointers to ids). */
#ifndef WP_I64MAP_H
#define WP_I64MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct wp_i64map {
  int64_t *keys, *vals;
  unsigned char *used;
  size_t cap, count;
} wp_i64map;

void wp_i64map_init(wp_i64map *m);
void wp_i64map_free(wp_i64map *m);
/* Inserts or overwrites. Returns -1 on out-of-memory. */
int wp_i64map_put(wp_i64map *m, int64_t key, int64_t val);
/* Returns 1 and sets *val when KEY is present. */
int wp_i64map_get(const wp_i64map *m, int64_t key, int64_t *val);

/* A fast 64-bit hash (not stable across versions: in-memory keys only), for keying the map by strings (callers compare the
 * strings on a hit: different strings can share a hash). */
int64_t wp_hash_bytes(const void *data, size_t len);

#endif
