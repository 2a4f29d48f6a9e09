/* Constants whose bytes live outside MLIR's heap (memory-mapped weights):
 * dense_resource attributes over unmanaged blobs, and a registry that maps
 * each such attribute back to its bytes, since the MLIR 19 C API offers no
 * way to read a resource blob's raw data. */
#ifndef WP_HLO_RESOURCE_H
#define WP_HLO_RESOURCE_H

#include "wp_error.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef void (*wp_blob_release_fn)(void *user);

/* A dense_resource<KEY> of TYPE over DATA (SIZE bytes, not copied). RELEASE
 * runs once, when the context lets go of the blob. */
MlirAttribute wp_hlo_resource_create(MlirType type, const char *key, const void *data,
                                     size_t size, wp_blob_release_fn release, void *user);

int wp_hlo_resource_is(MlirAttribute attr);

/* The bytes behind a resource attribute made by wp_hlo_resource_create. */
int wp_hlo_resource_bytes(MlirAttribute attr, const void **data, uint64_t *size,
                          wp_error *err);

/* Was ATTR made by wp_hlo_resource_create with RELEASE? (Tells a weight
 * mapped from its file from bytes that came with the IR.) */
bool wp_hlo_resource_released_by(MlirAttribute attr, wp_blob_release_fn release);

#endif
