/* Lowering a NEFF's tensors again, with other bytes: the BIR function
 * bir-lower would have made of the same program with these constants.
 * The tensors come in the order bir-lower placed them (inputs, constants,
 * results: the order of a BIR function's sets); a constant's class, its
 * shared or own file and its place follow bir-lower's rules, for the new
 * bytes (ties formed or broken), with bir.lowering's options and facts.
 * Used by neff replace-weights; no pass framework. */
#ifndef WP_BIR_RELOWER_H
#define WP_BIR_RELOWER_H

#include "wp_bir_lower.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum wp_relower_kind {
  WP_RELOWER_INPUT,
  WP_RELOWER_CONSTANT,
  WP_RELOWER_OUTPUT
} wp_relower_kind;

typedef struct wp_relower_tensor {
  wp_relower_kind kind;
  const char *name; /* its set's name (an input's or constant's hlo_value too) */
  MlirType type;    /* a ranked tensor of its dtype and shape */
  /* constants */
  const void *bytes; /* its SIZE bytes, readable until the call returns */
  uint64_t size;
  const char *file; /* BYTES lie in FILE at OFFSET: a const file of its own reads them there */
  uint64_t offset;
  bool planted;        /* a weight inline-weights planted */
  bool weight_operand; /* planted, and it feeds a weight operand */
} wp_relower_tensor;

typedef struct wp_relower_spec {
  const char *name;          /* the module's bir.name */
  const char *program_entry; /* the kernel's program entry computation */
  const char *shared_dir;    /* an existing directory the shared files' bytes go to */
  wp_lower_options opts;     /* bir.lowering's options */
  const wp_relower_tensor *tensors;
  size_t n_tensors;
} wp_relower_spec;

/* Fills MODULE, an empty builtin.module, with the BIR function: 0, or -1
 * with MLIR diagnostics emitted (at MODULE's location). */
int wp_bir_relower_module(MlirOperation module, const wp_relower_spec *spec);

#endif
