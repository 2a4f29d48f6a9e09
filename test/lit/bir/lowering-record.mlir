// bir.lowering: bir-lower's options and the program's facts a second
// lowering needs (neff replace-weights), through every form: MLIR,
// protobuf, BIR JSON and the NEFF's bir.json; a malformed one is refused.
// RUN: rm -rf %t && mkdir -p %t
// RUN: opt %s --verify-roundtrip -o /dev/null
// RUN: opt %s --emit=bir-proto -o %t/m.pb
// RUN: opt %t/m.pb | FileCheck %s --check-prefix=MLIR
// RUN: opt %s --emit=bir-json -o %t/m.json
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t/m.json
// RUN: opt %t/m.json | FileCheck %s --check-prefix=MLIR
// RUN: opt %s --neff-pack -o %t/m.neff && neff unpack %t/m.neff %t/u
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t/u/sg00/bir.json
// MLIR: bir.lowering = {alignment = 64 : i64, const_memory = "DRAM", planted = ["b"], small_const_threshold = 4096 : i64, small_weight_threshold = 16 : i64, weight_operands = ["k"]}
// JSON: "lowering": {
// JSON-NEXT: "small_const_threshold": 4096,
// JSON-NEXT: "small_weight_threshold": 16,
// JSON-NEXT: "alignment": 64,
// JSON-NEXT: "const_memory": "DRAM",
// JSON-NEXT: "weight_operands": [
// JSON-NEXT: "k"
// JSON-NEXT: ],
// JSON-NEXT: "planted": [
// JSON-NEXT: "b"
// JSON-NEXT: ]
//
// RUN: sed 's|alignment = 64 : i64, const_memory|alignment = 48 : i64, const_memory|' %s > %t/bad1.mlir
// RUN: not opt %t/bad1.mlir --neff-pack -o %t/bad1.neff 2>&1 | FileCheck %s --check-prefix=BAD1
// BAD1: bad1.mlir:{{[0-9]+}}:1: error: copy-const-artifacts: builtin.module {{.*}}: bir.lowering alignment must be a power of two
// RUN: sed 's|const_memory = "DRAM"|const_memory = "SBUF"|' %s > %t/bad2.mlir
// RUN: not opt %t/bad2.mlir --emit=bir-json -o %t/bad2.json 2>&1 | FileCheck %s --check-prefix=BAD2
// BAD2: bir.lowering must be {small_const_threshold
// RUN: sed 's|"const_memory": "DRAM"|"const_memory": 7|' %t/m.json > %t/bad3.json
// RUN: not opt %t/bad3.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD3
// BAD3: lowering.const_memory must be a string
// RUN: not test -e %t/bad1.neff -o -e %t/bad2.json
module @m attributes {bir.artifact_path = "", bir.lowering = {alignment = 64 : i64, const_memory = "DRAM", planted = ["b"], small_const_threshold = 4096 : i64, small_weight_threshold = 16 : i64, weight_operands = ["k"]}, bir.name = "m"} {
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {data = dense<1> : tensor<4xui8>, size = 4 : i64, sym_name = "c.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "uint8", shape = array<i64: 4>, sym_name = "k", tensor_class = "IdentityWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, const_ap_offset = 0 : i64, const_file = @c.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "DRAM", placement = 0 : i64, set = @k, size = 4 : i64, sym_name = "k.0"} : () -> ()
    "bir.kernel"() {const_files = [@c.bin], sym_name = "kernel"} : () -> ()
    return
  }
}
