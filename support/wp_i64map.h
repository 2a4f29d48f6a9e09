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
/* Inserts or overwrites. Always 0: out of memory aborts (wp_out_of_memory). */
int wp_i64map_put(wp_i64map *m, int64_t key, int64_t val);
/* Returns 1 and sets *val when KEY is present. */
int wp_i64map_get(const wp_i64map *m, int64_t key, int64_t *val);

/* A fast 64-bit hash, for keying the map by strings or bytes (callers
 * compare them on a hit: different inputs can share a hash). Not stable
 * across versions: for in-memory keys only. */
int64_t wp_hash_bytes(const void *data, size_t len);

#endif
