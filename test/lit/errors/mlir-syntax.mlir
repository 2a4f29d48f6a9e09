// Malformed MLIR text: the parser's diagnostic names the file and line.
// RUN: rm -f %t.out
// RUN: opt %s -o %t.out 2> %t.err; test $? -eq 1
// RUN: FileCheck %s --input-file=%t.err -DFILE=%s
// RUN: not test -e %t.out
// CHECK: error: [[FILE]]:[[@LINE+3]]:{{[0-9]+}}: {{.*}}
// CHECK: error: [[FILE]]: could not parse MLIR
module {
  func.func @f( {
}
