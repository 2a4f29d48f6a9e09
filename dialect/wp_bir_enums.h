/* BIR enumerations and their names. Names are what JSON, protobuf and the
 * printed IR carry; ordinals are internal (only three are pinned). */
#ifndef WP_BIR_ENUMS_H
#define WP_BIR_ENUMS_H

#include "wp_error.h"

#include <mlir-c/IR.h>

/* bir::TensorClass. NeuronWeightTensor = 3, IdentityWeightTensor = 4 and
 * ImmutableParameter = 12 are fixed by the specification; the other names
 * are weightpack's. */
enum wp_tensor_class {
  WP_TC_UNKNOWN = 0,
  WP_TC_INPUT = 1,
  WP_TC_OUTPUT = 2,
  WP_TC_NEURON_WEIGHT = 3,
  WP_TC_IDENTITY_WEIGHT = 4,
  WP_TC_STATE = 5,
  WP_TC_INTERNAL = 6,
  WP_TC_POINTER = 7,
  WP_TC_RNG_STATE = 8,
  WP_TC_SCRATCH = 9,
  WP_TC_DEBUG = 10,
  WP_TC_CONSTANT = 11,
  WP_TC_IMMUTABLE_PARAMETER = 12,
  WP_TC_COUNT
};

enum wp_memory_type {
  WP_MT_REG,
  WP_MT_UNALLOCATED,
  WP_MT_DRAM,
  WP_MT_RNGSTATE,
  WP_MT_EXTERNAL_INPUT,
  WP_MT_EXTERNAL_INPUT_PARAMETER,
  WP_MT_EXTERNAL_OUTPUT,
  WP_MT_EXTERNAL_OUTPUT_PARAMETER,
  WP_MT_CONST,
  WP_MT_INTERNAL,
  WP_MT_POINTER,
  WP_MT_INTERNAL_INTERFACE,
  WP_MT_COUNT
};

/* Static strings. */
const char *wp_tensor_class_name(int tc);   /* NULL if out of range */
const char *wp_memory_type_name(int mt);    /* NULL if out of range */

/* Name -> value. Errors: "Unknown tensor class type: NAME",
 * "Unknown memory type: NAME". LEN lets names come from MLIR string refs. */
int wp_tensor_class_parse(const char *name, size_t len, int *out, wp_error *err);
int wp_memory_type_parse(const char *name, size_t len, int *out, wp_error *err);

/* BIR Dtype: one name per hlo element type, keyed by XLA PrimitiveType. */
const char *wp_dtype_name(int prim); /* NULL if BIR has no dtype for it */
int wp_dtype_parse(const char *name, size_t len, int *prim, wp_error *err);

/* Where a const file's bytes come from, as attributes and JSON keys: a
 * const file gives exactly one. */
#define WP_BIR_N_BYTE_SOURCES 4
extern const char *const wp_bir_byte_sources[WP_BIR_N_BYTE_SOURCES];
/* What a const file that names more than one, or none, is told (after
 * "names"), in the IR and in the JSON form alike. */
#define WP_BIR_MANY_SOURCES                                                                  \
  "more than one source of its bytes (constant, source, data or assembled); give one"
#define WP_BIR_NO_SOURCE "no source of its bytes (constant, source, data or assembled); give one"

#endif
