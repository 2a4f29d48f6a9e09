// MLIR text in the hlo dialect is an input too: ops without ids or names
// get fresh ones, shapes get XLA's default layouts, and the result reads
// back the same.
// RUN: opt %s --emit=hlo-proto -o %t.pb
// RUN: opt %t.pb | FileCheck %s
// RUN: opt %t.pb --emit=hlo-proto -o %t.2.pb && cmp %t.pb %t.2.pb
// RUN: protoc --decode_raw < %t.pb | FileCheck %s --check-prefix=RAW

module @handwritten attributes {hlo.entry = @main} {
  func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %c = "hlo.constant"() {value = dense<2.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %m = "hlo.multiply"(%x, %c) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    return %m : tensor<2x3xf32>
  }
}

// CHECK: module @handwritten attributes {hlo.entry = @main}
// CHECK: func.func @main(%arg0: tensor<2x3xf32> {hlo.id = 1 : i64, hlo.name = "parameter.1"})
// CHECK: "hlo.constant"() {id = 2 : i64, name = "constant.2", value = dense<2.000000e+00> : tensor<2x3xf32>}
// CHECK: "hlo.multiply"(%arg0, %0) {id = 3 : i64, name = "multiply.3"}

// RAW: 1: "handwritten"
// RAW: 2: "main"
// RAW: 2: "parameter"
// RAW: 1: "\001\000"
