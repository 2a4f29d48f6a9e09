// The errors of err-at-parameter.hlo on the MLIR form, in stock mlir-opt-19
// (the plugin) and in opt: a parameter is an argument of the entry
// function, located where the signature names it, so an error about its
// weight is expected above the function's line, or above the argument's own
// line when the signature spans several. metadata.json names a module that
// is not there: only a model directory given as the input must hold one.
// (An ASan build's library cannot be loaded into mlir-opt.)
// UNSUPPORTED: asan
// RUN: rm -rf %t && mkdir -p %t/m/weights
// RUN: printf '{"model_files": "model.hlo.pb", "weight_files": {"w": "weights/w.npy", "gone": "weights/gone.npy"}}' > %t/m/metadata.json
// RUN: %python -c "import numpy as np; np.save('%t/m/weights/w.npy', np.zeros(2, np.float32))"
// RUN: %mlir_opt --load-pass-plugin=%wp_plugin --irdl-file=%wp_irdl %s --split-input-file \
// RUN:   --inline-weights=model-dir=%t/m --verify-diagnostics
// RUN: opt %s --split-input-file --inline-weights=model-dir=%t/m --verify-diagnostics
// The places as opt prints them: this file, the line (the whole file's;
// mlir-opt counts a split's), the argument's column.
// RUN: not opt %s --split-input-file --inline-weights=model-dir=%t/m 2>&1 | FileCheck %s -DFILE=%s -DDIR=%t/m
//
// A fault of metadata.json as a whole stays at the file, at no place in
// the IR (MLIR 19's --verify-diagnostics has no @unknown to expect it).
// RUN: mkdir -p %t/bad && printf '{"weight_files": {"w": }}' > %t/bad/metadata.json
// RUN: not %mlir_opt --load-pass-plugin=%wp_plugin --irdl-file=%wp_irdl %s --split-input-file \
// RUN:   --inline-weights=model-dir=%t/bad 2>&1 | FileCheck %s --check-prefix=BAD -DDIR=%t/bad
// BAD: {{^}}<unknown>:0: error: [[DIR]]/metadata.json:1:24: malformed JSON: unexpected token

module @missing attributes {hlo.entry = @main} {
  // expected-error@+2 {{weights/gone.npy: No such file or directory (parameter 'gone')}}
  // CHECK: {{^}}[[FILE]]:[[@LINE+1]]:58: error: [[DIR]]: weights/gone.npy: No such file or directory (parameter 'gone')
  func.func @main(%arg0: tensor<2xf32> {hlo.name = "w"}, %arg1: tensor<2xf32> {hlo.name = "gone"}) -> tensor<2xf32> {
    %0 = "hlo.add"(%arg0, %arg1) {name = "n"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

// -----
module @shape attributes {hlo.entry = @main} {
  // expected-error@+2 {{w.npy: parameter 'w': the file holds f32[2] but the parameter is f32[3]}}
  // CHECK: {{^}}[[FILE]]:[[@LINE+1]]:19: error: [[DIR]]/weights/w.npy: parameter 'w': the file holds f32[2] but the parameter is f32[3]
  func.func @main(%arg0: tensor<3xf32> {hlo.name = "w"}, %arg1: tensor<2xf32> {hlo.name = "gone"}) -> tensor<3xf32> {
    return %arg0 : tensor<3xf32>
  }
}

// -----
module @dtype attributes {hlo.entry = @main} {
  func.func @main(
      // expected-error@+2 {{w.npy: parameter 'w': the file holds f32[2] but the parameter is s32[2]}}
      // CHECK: {{^}}[[FILE]]:[[@LINE+1]]:7: error: [[DIR]]/weights/w.npy: parameter 'w': the file holds f32[2] but the parameter is s32[2]
      %arg0: tensor<2xi32> {hlo.name = "w"},
      %arg1: tensor<2xf32> {hlo.name = "gone"}) -> tensor<2xi32> {
    return %arg0 : tensor<2xi32>
  }
}
