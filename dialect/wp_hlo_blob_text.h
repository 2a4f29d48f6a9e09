/* The bytes of a dense_resource that MLIR parsed (from text or bytecode),
 * read back from MLIR's own printed form: the MLIR 19 C API has no getter
 * for a resource blob's raw data, and its element getters miss f16, bf16,
 * complex and the float8 types. */
#ifndef WP_HLO_BLOB_TEXT_H
#define WP_HLO_BLOB_TEXT_H

#include "wp_arena.h"
#include "wp_error.h"

#include <mlir-c/IR.h>
#include <stdint.h>

/* The bytes behind constant OP's dense_resource value, which must be EXPECT
 * bytes long. OP is cloned and the clone printed as a top-level operation,
 * so the resource section comes with it; the blob's hex is decoded as it
 * streams past, into memory owned by ARENA.
 * Returns 0 with *BYTES set, 1 when MLIR holds no bytes for the resource
 * (elided when written, or never given), -1 with ERR set (out of memory, a
 * blob of another size than EXPECT). */
int wp_hlo_blob_from_print(MlirOperation op, uint64_t expect, wp_arena *arena,
                           const void **bytes, wp_error *err);

#endif
