// Exporting a module that is not HLO (no hlo.entry) fails cleanly, naming
// the input (the module is at fault, not the output).
// RUN: rm -f %t.out
// RUN: opt %s --emit=hlo-proto -o %t.out 2> %t.err; test $? -eq 1
// RUN: FileCheck %s --input-file=%t.err -DIN=%s
// RUN: not test -e %t.out
// CHECK: [[IN]]:[[@LINE+5]]:1: error: module has no hlo.entry; it is not an HLO module
// So does a BIR form asked of a module that is not BIR, written to
// stdout (it named "-").
// RUN: not opt %s --emit=bir-json -o - 2>&1 | FileCheck %s --check-prefix=BIR -DIN=%s
// BIR: error: [[IN]]: --emit=bir-json needs a BIR module (run --bir-lower)
module {
  func.func @f() {
    return
  }
}
