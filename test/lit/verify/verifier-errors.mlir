// An MLIR verifier error is expected as mlir-opt expects it: the
// "see current operation" note MLIR attaches is not one more diagnostic
// (mlir-opt --verify-diagnostics prints none).
// RUN: opt %s --split-input-file --verify-diagnostics

func.func @g() -> i32 {
  // expected-error@+1 {{'func.return' op has 0 operands, but enclosing function (@g) returns 1}}
  return
}

// -----

func.func @h(%a: i32) -> i64 {
  // expected-error@+1 {{type of return operand 0 ('i32') doesn't match function result type ('i64') in function @h}}
  return %a : i32
}
