#include "wp_bir_class.h"

#include "wp_bir_enums.h"
#include "wp_hlo_types.h"
#include "wp_mlir_util.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

/* The bytes of the value 1 in TYPE's element type, from MLIR itself. */
static bool one_bytes(MlirType elt, unsigned char *out, int size) {
  MlirType t = mlirRankedTensorTypeGet(0, NULL, elt, mlirAttributeGetNull());
  MlirAttribute one;
  if (mlirTypeIsAInteger(elt)) {
    if (mlirIntegerTypeGetWidth(elt) == 1) {
      out[0] = 1;
      return true;
    }
    one = mlirDenseElementsAttrSplatGet(t, mlirIntegerAttrGet(elt, 1));
  } else if (mlirTypeIsAFloat(elt)) {
    one = mlirDenseElementsAttrSplatGet(t, mlirFloatAttrDoubleGet(mlirTypeGetContext(elt), elt, 1.0));
  } else if (mlirTypeIsAComplex(elt) && size % 2 == 0) {
    /* 1 + 0i: the real part's 1, then zeros */
    memset(out, 0, (size_t)size);
    return one_bytes(mlirComplexTypeGetElementType(elt), out, size / 2);
  } else {
    return false;
  }
  if (mlirAttributeIsNull(one))
    return false;
  memcpy(out, mlirDenseElementsAttrGetRawData(one), (size_t)size);
  return true;
}

bool wp_bir_is_identity(MlirType type, const void *bytes, uint64_t size) {
  if (!mlirTypeIsARankedTensor(type) || mlirShapedTypeGetRank(type) != 2 ||
      mlirShapedTypeIsDynamicDim(type, 0))
    return false;
  int64_t n = mlirShapedTypeGetDimSize(type, 0);
  if (n < 1 || mlirShapedTypeGetDimSize(type, 1) != n)
    return false;
  MlirType elt = mlirShapedTypeGetElementType(type);
  const wp_hlo_prim *info = wp_hlo_prim_info(wp_hlo_prim_from_mlir(elt));
  if (!info || (uint64_t)n * (uint64_t)n * (uint64_t)info->bytes != size)
    return false;
  unsigned char one[16];
  static const unsigned char zero[16];
  if (!one_bytes(elt, one, info->bytes))
    return false;
  const unsigned char *p = bytes;
  /* Stops at the first element that is off: real weights fail at once. */
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++, p += info->bytes)
      if (memcmp(p, i == j ? one : zero, (size_t)info->bytes) != 0)
        return false;
  return true;
}

static bool is_layout_only(MlirOperation op) {
  static const char *const ops[] = {"hlo.reshape", "hlo.transpose", "hlo.bitcast", "hlo.copy",
                                    "hlo.convert"};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (wp_op_is(op, ops[i]))
      return true;
  return false;
}

/* A depth-first walk with its own stack: a weight may pass through
 * hundreds of thousands of layout ops (recursion ran out of stack at
 * 150,000 copies). Each layout op has one operand, so the values form a
 * tree and each is visited once. */
bool wp_bir_feeds_weight_operand(MlirValue value) {
  size_t cap = 16, n = 0;
  MlirValue *stack = malloc(cap * sizeof *stack);
  if (!stack)
    return false;
  stack[n++] = value;
  bool found = false;
  while (n && !found) {
    MlirValue v = stack[--n];
    for (MlirOpOperand use = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(use) && !found;
         use = mlirOpOperandGetNextUse(use)) {
      MlirOperation user = mlirOpOperandGetOwner(use);
      unsigned idx = mlirOpOperandGetOperandNumber(use);
      if ((wp_op_is(user, "hlo.dot") || wp_op_is(user, "hlo.convolution")) && idx == 1) {
        found = true;
      } else if (is_layout_only(user) && idx == 0 && mlirOperationGetNumResults(user) == 1) {
        if (n == cap) {
          stack = wp_xrealloc(stack, 2 * cap * sizeof *stack);
          cap *= 2;
        }
        stack[n++] = mlirOperationGetResult(user, 0);
      }
    }
  }
  free(stack);
  return found;
}

int wp_bir_constant_class(MlirOperation op, const void *bytes, uint64_t size) {
  MlirValue v = mlirOperationGetResult(op, 0);
  if (wp_bir_is_identity(mlirValueGetType(v), bytes, size))
    return WP_TC_IDENTITY_WEIGHT;
  if (!mlirAttributeIsNull(wp_attr(op, "weight")) && wp_bir_feeds_weight_operand(v))
    return WP_TC_NEURON_WEIGHT;
  return WP_TC_IMMUTABLE_PARAMETER;
}
