/* Weight constants: a .npy file's payload as the value of an hlo.constant,
 * and the `weight` attribute that records where it came from.
 *
 *   %w = "hlo.constant"() {name = "w1", id = 2 : i64,
 *          value = dense_resource<w1> : tensor<8x16xf32>,
 *          weight = {file = "model/weights/w1.npy", number = 1 : i64, param = "w1"}}
 */
#ifndef WP_HLO_WEIGHT_H
#define WP_HLO_WEIGHT_H

#include "wp_arena.h"
#include "wp_error.h"
#include "wp_file.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stdint.h>

/* Reads PATH as a weight of TYPE: checks element type and shape, then
 * returns a dense_resource attribute over the memory-mapped payload (no
 * copy). Big-endian or Fortran-order data is converted into a new buffer,
 * the one case where the bytes are copied. KEY names the resource. Errors
 * carry no prefix; they say which of dtype, shape or file is wrong. */
int wp_hlo_weight_load(MlirType type, const char *path, const char *key, MlirAttribute *value,
                       wp_error *err);

/* The same in two steps, so that many files can be read on several
 * threads: wp_hlo_weight_read touches no MLIR state but reading TYPE (safe
 * while no thread changes the context) and gives a weight the caller
 * either turns into the attribute with wp_hlo_weight_attr (which takes it,
 * on the thread that owns the context) or frees. FILE_FLAGS go to
 * wp_file_map_flags. */
typedef struct wp_hlo_weight_data wp_hlo_weight_data;
int wp_hlo_weight_read(MlirType type, const char *path, int file_flags,
                       wp_hlo_weight_data **out, wp_error *err);
/* wp_hlo_weight_read over a file already read or mapped: takes VIEW (it is
 * empty on return, whatever the result); PATH is for the test hooks. */
int wp_hlo_weight_from_view(MlirType type, const char *path, wp_mapped_file *view,
                            wp_hlo_weight_data **out, wp_error *err);
/* The same when the file's first HEAD_SIZE bytes (its .npy header, read
 * apart: wp_file_batch_read_split) are at HEAD and VIEW holds the rest;
 * HEAD is read here and not kept. */
int wp_hlo_weight_from_parts(MlirType type, const char *path, const unsigned char *head,
                             size_t head_size, wp_mapped_file *view, wp_hlo_weight_data **out,
                             wp_error *err);
int wp_hlo_weight_attr(MlirType type, const char *key, wp_hlo_weight_data *w,
                       MlirAttribute *value, wp_error *err);
void wp_hlo_weight_data_free(wp_hlo_weight_data *w);
/* The weight's bytes as a constant of its type holds them (C order,
 * little-endian), and their number; W keeps them. */
const void *wp_hlo_weight_data_bytes(const wp_hlo_weight_data *w, uint64_t *size);

/* The `weight` attribute: {file, param, number}. */
MlirAttribute wp_hlo_weight_origin(MlirContext ctx, const char *file, const char *param,
                                   int64_t number);
/* The same with its keys looked up once (wp_hlo_origin_keys_get) for a
 * loop over many weights: each lookup is a probe of the context's table
 * of every string. */
typedef struct wp_hlo_origin_keys {
  MlirIdentifier file, number, param;
} wp_hlo_origin_keys;
wp_hlo_origin_keys wp_hlo_origin_keys_get(MlirContext ctx);
MlirAttribute wp_hlo_weight_origin_keyed(MlirContext ctx, const wp_hlo_origin_keys *keys,
                                         const char *file, const char *param, int64_t number);

/* Reads the fields of a `weight` attribute; false when ATTR is not one. */
bool wp_hlo_weight_origin_get(MlirAttribute attr, MlirStringRef *file, MlirStringRef *param,
                              int64_t *number);

/* The bytes of constant OP's value: a dense_resource gives its blob's
 * bytes (mapped by inline-weights, or parsed with the IR); when it has
 * none (its blob was elided), they are mapped again from OP's `weight`
 * origin. */
int wp_hlo_constant_bytes(MlirOperation op, wp_arena *arena, const void **bytes, uint64_t *size,
                          wp_error *err);
/* The same; *IN_IR is false when the bytes were mapped again from the
 * weight origin (a later pass may read them from that file), true when
 * they are the attribute's own (a literal or a blob; whether a blob was
 * mapped from its file in this run, the run object knows). */
int wp_hlo_constant_bytes_from(MlirOperation op, wp_arena *arena, const void **bytes,
                               uint64_t *size, bool *in_ir, wp_error *err);

/* A resource key for a parameter name: letters, digits and '_' only. */
void wp_hlo_weight_key(const char *param, char *buf, size_t size);

#endif
