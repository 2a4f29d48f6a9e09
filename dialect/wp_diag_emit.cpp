// Warnings and remarks (the MLIR 19 C API has mlirEmitError only), and a
// value's location (no getter there either).
#include "wp_diag.h"

#include <mlir/CAPI/IR.h>
#include <mlir/IR/Diagnostics.h>

extern "C" void wp_diag_emit_text(MlirLocation loc, int severity, const char *text) {
  mlir::Location l = unwrap(loc);
  if (severity == 1)
    mlir::emitWarning(l) << text;
  else if (severity == 2)
    mlir::emitRemark(l) << text;
  else
    mlir::emitError(l) << text;
}

extern "C" MlirLocation wp_diag_value_loc(MlirValue value) {
  return wrap(unwrap(value).getLoc());
}
