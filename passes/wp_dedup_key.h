/* The de-dup key of a const-bearing memory location (specification 4a):
 * the hex MD5 of its file's bytes, then its Dtype name, then its
 * MemoryType name, e.g. "0f8f...ad6f" "float32" "Const". Its unique file
 * is named "<md5>.<dtype>.<memtype>.bin", with "-N" before ".bin" for the
 * N-th different content sharing an MD5 (a collision). */
#ifndef WP_DEDUP_KEY_H
#define WP_DEDUP_KEY_H

#include <stddef.h>

/* Both return the length written (snprintf semantics). */
int wp_dedup_key(char *buf, size_t size, const char *md5, const char *dtype, const char *memtype);
int wp_dedup_unique_name(char *buf, size_t size, const char *md5, const char *dtype,
                         const char *memtype, size_t collision_index);

#endif
