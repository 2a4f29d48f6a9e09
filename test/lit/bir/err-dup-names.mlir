// Two tensors of one name would share one set, and the second would get the
// first one's bytes: bir-lower refuses them, naming the file and line.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not opt %s --bir-lower -o %t/out.mlir 2>&1 | FileCheck %s -DFILE=%s
// RUN: test ! -e %t/out.mlir
// CHECK: [[FILE]]:[[@LINE+16]]:10: error: bir-lower: constant 'k': another parameter, constant or result has that name (XLA instruction names are unique)
// RUN: sed 's/name = "k", value = dense<3.0>/name = "x", value = dense<3.0>/' %s > %t/param.mlir
// RUN: not opt %t/param.mlir --bir-lower -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAM
// PARAM: {{.*}}param.mlir:{{[0-9]+}}:10: error: bir-lower: constant 'x': another parameter, constant or result has that name
// A result is named after the root instruction; where a parameter or
// constant has that name (a weight returned as it is), the result's set is
// "NAME.result".
// RUN: sed 's/name = "k", value = dense<3.0>/name = "k2", value = dense<3.0>/; s/hlo.name = "x"/hlo.name = "n"/; s/"hlo.multiply"(%%m, %%d) :/"hlo.multiply"(%%m, %%d) {name = "n"} :/' %s > %t/result.mlir
// RUN: opt %t/result.mlir --bir-lower | FileCheck %s --check-prefix=RESULT
// RESULT: "bir.memloc_set"() {dtype = "float32", shape = array<i64: 64>, sym_name = "n.result", tensor_class = "OutputTensor"}
// RUN: sed 's/name = "k", value = dense<3.0>/name = "k2", value = dense<3.0>/; s/return %%n :/return %%c :/' %s > %t/weight.mlir
// RUN: opt %t/weight.mlir --bir-lower | FileCheck %s --check-prefix=WEIGHT
// WEIGHT: "bir.memloc_set"() {dtype = "float32", shape = array<i64: 64>, sym_name = "k.result", tensor_class = "OutputTensor"}
module @dup attributes {hlo.entry = @main} {
  func.func @main(%x: tensor<64xf32> {hlo.name = "x"}) -> tensor<64xf32> {
    %c = "hlo.constant"() {name = "k", value = dense<2.0> : tensor<64xf32>} : () -> tensor<64xf32>
    %d = "hlo.constant"() {name = "k", value = dense<3.0> : tensor<64xf32>} : () -> tensor<64xf32>
    %m = "hlo.multiply"(%x, %c) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %n = "hlo.multiply"(%m, %d) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    return %n : tensor<64xf32>
  }
}
