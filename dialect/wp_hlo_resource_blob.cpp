// A resource blob's raw bytes: the MLIR 19 C API reads a dense_resource
// attribute only element by element, so this one accessor is C++.
#include "wp_hlo_resource.h"

#include <mlir/CAPI/IR.h>
#include <mlir/IR/BuiltinAttributes.h>
#include <mlir/IR/BuiltinDialect.h>
#include <mlir/IR/DialectResourceBlobManager.h>

extern "C" int wp_hlo_resource_bytes(MlirAttribute attr, const void **data, uint64_t *size) {
  auto res = llvm::dyn_cast_or_null<mlir::DenseResourceElementsAttr>(unwrap(attr));
  if (!res)
    return -1;
  const mlir::AsmResourceBlob *blob = res.getRawHandle().getBlob();
  if (!blob)
    return -1;
  llvm::ArrayRef<char> bytes = blob->getData();
  *data = bytes.data();
  *size = bytes.size();
  return 0;
}
