/* A hash map from strings to int64 (open addressing). Keys are borrowed:
 * they must outlive the map. */
#ifndef WP_STRMAP_H
#define WP_STRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct wp_strmap {
  const char **keys;
  size_t *lens;
  int64_t *vals;
  size_t cap, count;
} wp_strmap;

void wp_strmap_init(wp_strmap *m);
void wp_strmap_free(wp_strmap *m);
/* Always 0: out of memory aborts (wp_out_of_memory); callers need not check. */
int wp_strmap_put(wp_strmap *m, const char *key, size_t len, int64_t val);
int wp_strmap_get(const wp_strmap *m, const char *key, size_t len, int64_t *val); /* 1: found */

#endif
