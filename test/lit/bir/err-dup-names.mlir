// Two tensors of one name would share one set, and the second would get the
// first one's bytes: bir-lower refuses them, naming the file and line. A
// result is named after the root instruction; where a parameter or
// constant has that name (a weight returned as it is), the result's set is
// "NAME.result".
// RUN: opt --split-input-file --verify-diagnostics %s --bir-lower | FileCheck %s
// RUN: not opt --split-input-file %s --bir-lower -o %t.out 2>&1 | FileCheck %s --check-prefix=COL
// RUN: not test -e %t.out

module @dup attributes {hlo.entry = @main} {
  func.func @main(%x: tensor<64xf32> {hlo.name = "x"}) -> tensor<64xf32> {
    %c = "hlo.constant"() {name = "k", value = dense<2.0> : tensor<64xf32>} : () -> tensor<64xf32>
    // expected-error@+2 {{bir-lower: constant 'k': another parameter, constant or result has that name (XLA instruction names are unique)}}
    // COL: err-dup-names.mlir:[[@LINE+1]]:10: error: bir-lower: constant 'k': another parameter
    %d = "hlo.constant"() {name = "k", value = dense<3.0> : tensor<64xf32>} : () -> tensor<64xf32>
    %m = "hlo.multiply"(%x, %c) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %n = "hlo.multiply"(%m, %d) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    return %n : tensor<64xf32>
  }
}

// -----
// A constant named as a parameter.
module @dup attributes {hlo.entry = @main} {
  func.func @main(%x: tensor<64xf32> {hlo.name = "x"}) -> tensor<64xf32> {
    %c = "hlo.constant"() {name = "k", value = dense<2.0> : tensor<64xf32>} : () -> tensor<64xf32>
    // expected-error@+2 {{bir-lower: constant 'x': another parameter, constant or result has that name}}
    // COL: err-dup-names.mlir:[[@LINE+1]]:10: error: bir-lower: constant 'x': another parameter
    %d = "hlo.constant"() {name = "x", value = dense<3.0> : tensor<64xf32>} : () -> tensor<64xf32>
    %m = "hlo.multiply"(%x, %c) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %n = "hlo.multiply"(%m, %d) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    return %n : tensor<64xf32>
  }
}

// -----
// The root is named as the parameter: the result's set is "n.result".
// CHECK: module @dup attributes {bir.artifact_path
// CHECK: "bir.memloc_set"() {dtype = "float32", shape = array<i64: 64>, sym_name = "n.result", tensor_class = "OutputTensor"}
module @dup attributes {hlo.entry = @main} {
  func.func @main(%x: tensor<64xf32> {hlo.name = "n"}) -> tensor<64xf32> {
    %c = "hlo.constant"() {name = "k", value = dense<2.0> : tensor<64xf32>} : () -> tensor<64xf32>
    %d = "hlo.constant"() {name = "k2", value = dense<3.0> : tensor<64xf32>} : () -> tensor<64xf32>
    %m = "hlo.multiply"(%x, %c) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %n = "hlo.multiply"(%m, %d) {name = "n"} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    return %n : tensor<64xf32>
  }
}

// -----
// A weight returned as it is: "k.result".
// CHECK: // -----
// CHECK: module @dup attributes {bir.artifact_path
// CHECK: "bir.memloc_set"() {dtype = "float32", shape = array<i64: 64>, sym_name = "k.result", tensor_class = "OutputTensor"}
module @dup attributes {hlo.entry = @main} {
  func.func @main(%x: tensor<64xf32> {hlo.name = "x"}) -> tensor<64xf32> {
    %c = "hlo.constant"() {name = "k", value = dense<2.0> : tensor<64xf32>} : () -> tensor<64xf32>
    %d = "hlo.constant"() {name = "k2", value = dense<3.0> : tensor<64xf32>} : () -> tensor<64xf32>
    %m = "hlo.multiply"(%x, %c) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %n = "hlo.multiply"(%m, %d) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    return %c : tensor<64xf32>
  }
}
