// The shape verifier after a pass that rewrites HLO (inline-weights,
// outline-weights): MLIR input is not checked when read, so a wrong shape
// written in it is found once the pass ran, at the op, named after the
// pass. opt --verify-each=false leaves the check out, as mlir-opt's
// verifier.
// RUN: rm -rf %t && mkdir -p %t/m/weights
// RUN: printf '{"weight_files": {"w": "weights/w.npy"}}' > %t/m/metadata.json
// RUN: %python -c "import numpy as np; np.save('%t/m/weights/w.npy', np.ones(2, np.float32))"
// RUN: opt %s --split-input-file --inline-weights=model-dir=%t/m --verify-diagnostics -o /dev/null
// RUN: not opt %s --split-input-file --inline-weights=model-dir=%t/m -o /dev/null 2>&1 | FileCheck %s -DFILE=%s
// RUN: opt %s --split-input-file --inline-weights=model-dir=%t/m --verify-each=false -o /dev/null

// A valid module: w becomes a constant, the verifier finds nothing.
module @valid attributes {hlo.entry = @main} {
  func.func @main(%arg0: tensor<2xf32> {hlo.name = "w"}, %arg1: tensor<2xf32> {hlo.name = "x"}) -> tensor<2xf32> {
    %0 = "hlo.add"(%arg0, %arg1) {name = "a"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

// -----
module @wrong attributes {hlo.entry = @main} {
  func.func @main(%arg0: tensor<2xf32> {hlo.name = "w"}, %arg1: tensor<2xf32> {hlo.name = "x"}) -> tensor<2xf32> {
    // expected-error@+2 {{inline-weights: Expected instruction to have shape equal to f32[2], actual shape is f32[3]}}
    // CHECK: [[FILE]]:[[@LINE+1]]:10: error: inline-weights: Expected instruction to have shape equal to f32[2], actual shape is f32[3]
    %0 = "hlo.negate"(%arg1) {name = "n"} : (tensor<2xf32>) -> tensor<3xf32>
    %1 = "hlo.reshape"(%0) {name = "r"} : (tensor<3xf32>) -> tensor<3xf32>
    %2 = "hlo.add"(%arg0, %arg1) {name = "a"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    return %2 : tensor<2xf32>
  }
}
