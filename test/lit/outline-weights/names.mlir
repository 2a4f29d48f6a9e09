// Constant names that are no portable file name get a safe, deterministic,
// unique one (the other bytes '_', a hash of the whole name); names that
// differ only in case do not share a file (case-insensitive file systems);
// a name of digits would read as a parameter number, so weight_files is
// then the list form. inline-weights gives the module back either way.
// RUN: rm -rf %t && mkdir %t
// RUN: opt %s --emit=hlo-proto -o %t/orig.pb
// RUN: opt %s --outline-weights="model-dir=%t/m min-bytes=8" -o /dev/null
// RUN: cd %t/m/weights && ls | FileCheck %s --check-prefix=FILES
// FILES:      W.npy
// FILES-NEXT: _.-{{[0-9a-f]+}}.npy
// FILES-NEXT: _x-{{[0-9a-f]+}}.npy
// FILES-NEXT: a_b-{{[0-9a-f]+}}.npy
// FILES-NEXT: a_b.npy
// FILES-NEXT: caf__-{{[0-9a-f]+}}.npy
// FILES-NEXT: w-2.npy
// RUN: FileCheck %s --check-prefix=META < %t/m/metadata.json
// META: "weight_files": {
// META-NEXT: "a/b": "weights/a_b-{{[0-9a-f]+}}.npy",
// META-NEXT: "a_b": "weights/a_b.npy",
// META-NEXT: "W": "weights/W.npy",
// META-NEXT: "w": "weights/w-2.npy",
// META-NEXT: "..": "weights/_.-{{[0-9a-f]+}}.npy",
// META-NEXT: "-x": "weights/_x-{{[0-9a-f]+}}.npy",
// META-NEXT: "café": "weights/caf__-{{[0-9a-f]+}}.npy"
// RUN: opt %t/m --inline-weights --emit=hlo-proto -o %t/back.pb
// RUN: %python %S/Inputs/pbnorm.py %t/orig.pb %t/back.pb %t/a.pb %t/b.pb | FileCheck %s --check-prefix=N7
// N7: planted constants: 7
// RUN: cmp %t/a.pb %t/b.pb
// The same names give the same files every run.
// RUN: opt %s --outline-weights="model-dir=%t/again min-bytes=8" -o /dev/null
// RUN: diff -r %t/m %t/again
//
// A parameter named "7": the list form, null for the runtime input.
// RUN: sed 's/hlo.name = "x"/hlo.name = "7"/' %s > %t/digits.mlir
// RUN: opt %t/digits.mlir --emit=hlo-proto -o %t/dorig.pb
// RUN: opt %t/digits.mlir --outline-weights="model-dir=%t/d min-bytes=8" -o /dev/null
// RUN: FileCheck %s --check-prefix=LIST < %t/d/metadata.json
// LIST: "weight_files": [
// LIST-NEXT: null,
// LIST-NEXT: "weights/a_b-{{[0-9a-f]+}}.npy",
// RUN: opt %t/d --inline-weights --emit=hlo-proto -o %t/dback.pb
// RUN: %python %S/Inputs/pbnorm.py %t/dorig.pb %t/dback.pb %t/a.pb %t/b.pb | FileCheck %s --check-prefix=N7
// RUN: cmp %t/a.pb %t/b.pb

module @names attributes {hlo.entry = @main} {
  func.func @main(%x: tensor<2xf32> {hlo.name = "x", hlo.id = 1 : i64}) -> tensor<2xf32> {
    %0 = "hlo.constant"() {name = "a/b", id = 2 : i64, value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
    %1 = "hlo.constant"() {name = "a_b", id = 3 : i64, value = dense<[3.0, 4.0]> : tensor<2xf32>} : () -> tensor<2xf32>
    %2 = "hlo.constant"() {name = "W", id = 4 : i64, value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
    %3 = "hlo.constant"() {name = "w", id = 5 : i64, value = dense<[7.0, 8.0]> : tensor<2xf32>} : () -> tensor<2xf32>
    %4 = "hlo.constant"() {name = "..", id = 6 : i64, value = dense<[9.0, 10.0]> : tensor<2xf32>} : () -> tensor<2xf32>
    %5 = "hlo.constant"() {name = "-x", id = 7 : i64, value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
    %6 = "hlo.constant"() {name = "café", id = 8 : i64, value = dense<[13.0, 14.0]> : tensor<2xf32>} : () -> tensor<2xf32>
    %s0 = "hlo.add"(%x, %0) {name = "add.9", id = 9 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %s1 = "hlo.add"(%s0, %1) {name = "add.10", id = 10 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %s2 = "hlo.add"(%s1, %2) {name = "add.11", id = 11 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %s3 = "hlo.add"(%s2, %3) {name = "add.12", id = 12 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %s4 = "hlo.add"(%s3, %4) {name = "add.13", id = 13 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %s5 = "hlo.add"(%s4, %5) {name = "add.14", id = 14 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %s6 = "hlo.add"(%s5, %6) {name = "add.15", id = 15 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    return %s6 : tensor<2xf32>
  }
}
