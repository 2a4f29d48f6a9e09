#include "wp_dedup_key.h"

#include <stdio.h>

int wp_dedup_key(char *buf, size_t size, const char *md5, const char *dtype, const char *memtype) {
  return snprintf(buf, size, "%s%s%s", md5, dtype, memtype);
}

int wp_dedup_unique_name(char *buf, size_t size, const char *md5, const char *dtype,
                         const char *memtype, size_t collision_index) {
  if (collision_index == 0)
    return snprintf(buf, size, "%s.%s.%s.bin", md5, dtype, memtype);
  return snprintf(buf, size, "%s.%s.%s-%zu.bin", md5, dtype, memtype, collision_index);
}
