// Exporting a module that is not HLO (no hlo.entry) fails cleanly.
// RUN: rm -f %t.out
// RUN: opt %s --emit=hlo-proto -o %t.out 2> %t.err; test $? -eq 1
// RUN: FileCheck %s --input-file=%t.err -DOUT=%t.out
// RUN: not test -e %t.out
// CHECK: error: [[OUT]]: module has no hlo.entry; it is not an HLO module
module {
  func.func @f() {
    return
  }
}
