// Two tensors of one name would share one set, and the second would get the
// first one's bytes: bir-lower refuses them, naming the file and line.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not opt %s --bir-lower -o %t/out.mlir 2>&1 | FileCheck %s -DFILE=%s
// RUN: test ! -e %t/out.mlir
// CHECK: error: [[FILE]]:[[@LINE+7]]:10: bir-lower: constant 'k': another parameter or constant has that name (XLA instruction names are unique)
// RUN: sed 's/name = "k", value = dense<3.0>/name = "x", value = dense<3.0>/' %s > %t/param.mlir
// RUN: not opt %t/param.mlir --bir-lower -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAM
// PARAM: error: {{.*}}param.mlir:{{[0-9]+}}:10: bir-lower: constant 'x': another parameter or constant has that name
module @dup attributes {hlo.entry = @main} {
  func.func @main(%x: tensor<64xf32> {hlo.name = "x"}) -> tensor<64xf32> {
    %c = "hlo.constant"() {name = "k", value = dense<2.0> : tensor<64xf32>} : () -> tensor<64xf32>
    %d = "hlo.constant"() {name = "k", value = dense<3.0> : tensor<64xf32>} : () -> tensor<64xf32>
    %m = "hlo.multiply"(%x, %c) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %n = "hlo.multiply"(%m, %d) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    return %n : tensor<64xf32>
  }
}
