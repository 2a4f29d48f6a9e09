/* Constants whose bytes live outside MLIR's heap (memory-mapped weights):
 * dense_resource attributes over unmanaged blobs, and the one accessor the
 * MLIR 19 C API lacks, a resource blob's raw bytes (wp_hlo_resource_blob.cpp,
 * the dialect's only C++). */
#ifndef WP_HLO_RESOURCE_H
#define WP_HLO_RESOURCE_H

#include "wp_error.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*wp_blob_release_fn)(void *user);

/* A dense_resource<KEY> of TYPE over DATA (SIZE bytes, not copied). RELEASE
 * runs once, when the context lets go of the blob. Null when out of
 * memory (RELEASE has then not run). */
MlirAttribute wp_hlo_resource_create(MlirType type, const char *key, const void *data,
                                     size_t size, wp_blob_release_fn release, void *user);

/* The same with MLIR's deleter itself, given USER: no bookkeeping of its
 * own per blob (100,000 weights held 100,000 small allocations). */
typedef void (*wp_blob_deleter_fn)(void *user, const void *data, size_t size, size_t align);
MlirAttribute wp_hlo_resource_create_direct(MlirType type, const char *key, const void *data,
                                            size_t size, wp_blob_deleter_fn deleter, void *user);

int wp_hlo_resource_is(MlirAttribute attr);

/* The bytes of a resource attribute's blob (made here, or parsed with the
 * IR): 0, or -1 when it holds none (elided, or never given). */
int wp_hlo_resource_bytes(MlirAttribute attr, const void **data, uint64_t *size);

#ifdef __cplusplus
}
#endif

#endif
