/* The TensorClass rule for constants (deterministic, first match wins):
 *   1. an exact identity matrix (square 2-D, ones on the diagonal and
 *      zeros elsewhere, bit for bit)            -> IdentityWeightTensor
 *   2. a weight planted by inline-weights that feeds the weight operand
 *      (operand 1) of hlo.dot or hlo.convolution, directly or through
 *      reshape, transpose, bitcast, copy or convert -> NeuronWeightTensor
 *   3. every other constant                      -> ImmutableParameter */
#ifndef WP_BIR_CLASS_H
#define WP_BIR_CLASS_H

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stdint.h>

/* BYTES: the constant's little-endian elements (bools one byte each). */
bool wp_bir_is_identity(MlirType type, const void *bytes, uint64_t size);

bool wp_bir_feeds_weight_operand(MlirValue value);

/* The class of constant OP whose bytes are BYTES. */
int wp_bir_constant_class(MlirOperation op, const void *bytes, uint64_t size);

#endif
