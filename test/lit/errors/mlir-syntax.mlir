// Malformed MLIR text: the parser's diagnostic names the file and line,
// and it is the only error line (no "could not parse MLIR" after it).
// RUN: rm -f %t.out
// RUN: opt %s -o %t.out 2> %t.err; test $? -eq 1
// RUN: FileCheck %s --input-file=%t.err -DFILE=%s
// RUN: not test -e %t.out
// RUN: grep -c "error:" %t.err | FileCheck %s --check-prefix=ONE
// ONE: {{^}}1{{$}}
// CHECK: [[FILE]]:[[@LINE+3]]:{{[0-9]+}}: error: {{.*}}
// CHECK-NOT: could not parse MLIR
module {
  func.func @f( {
}
