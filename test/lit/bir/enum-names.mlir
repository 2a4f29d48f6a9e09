// Every TensorClass and MemoryType name survives the protobuf and the
// JSON form, spelled by name in both.
// RUN: opt %s --emit=bir-proto -o %t.pb
// RUN: opt %t.pb --emit=bir-json -o %t.json
// RUN: opt %t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
// The forms write a location without an alignment as 0, protobuf's "not
// given" (no alignment is 0): read back, it has none again. It came back as
// alignment = 0, which the BIR verifier refuses (at least 1).
// RUN: opt %t.pb -o %t.back.mlir
// RUN: not grep alignment %t.back.mlir
module @enums attributes {bir.artifact_path = "", bir.name = "enums"} {
  func.func @sg00() attributes {bir.function} {
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 1>, sym_name = "t0", tensor_class = "UnknownTensor"} : () -> ()
    "bir.memloc"() {memory_type = "REG", set = @t0, size = 4 : i64, sym_name = "l0"} : () -> ()
    "bir.memloc_set"() {dtype = "bfloat16", shape = array<i64: 1>, sym_name = "t1", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {memory_type = "Unallocated", set = @t1, size = 2 : i64, sym_name = "l1"} : () -> ()
    "bir.memloc_set"() {dtype = "int8", shape = array<i64: 1>, sym_name = "t2", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {memory_type = "DRAM", set = @t2, size = 1 : i64, sym_name = "l2"} : () -> ()
    "bir.memloc_set"() {dtype = "float8_e4m3fn", shape = array<i64: 1>, sym_name = "t3", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {memory_type = "RNGSTATE", set = @t3, size = 1 : i64, sym_name = "l3"} : () -> ()
    "bir.memloc_set"() {dtype = "bool", shape = array<i64: 1>, sym_name = "t4", tensor_class = "IdentityWeightTensor"} : () -> ()
    "bir.memloc"() {memory_type = "ExternalInput", set = @t4, size = 1 : i64, sym_name = "l4"} : () -> ()
    "bir.memloc_set"() {dtype = "complex64", shape = array<i64: 1>, sym_name = "t5", tensor_class = "StateTensor"} : () -> ()
    "bir.memloc"() {memory_type = "ExternalInputParameter", set = @t5, size = 8 : i64, sym_name = "l5"} : () -> ()
    "bir.memloc_set"() {dtype = "uint4", shape = array<i64: 1>, sym_name = "t6", tensor_class = "InternalTensor"} : () -> ()
    "bir.memloc"() {memory_type = "ExternalOutput", set = @t6, size = 1 : i64, sym_name = "l6"} : () -> ()
    "bir.memloc_set"() {dtype = "float64", shape = array<i64: 1>, sym_name = "t7", tensor_class = "PointerTensor"} : () -> ()
    "bir.memloc"() {memory_type = "ExternalOutputParameter", set = @t7, size = 8 : i64, sym_name = "l7"} : () -> ()
    "bir.memloc_set"() {dtype = "int64", shape = array<i64: 1>, sym_name = "t8", tensor_class = "RngStateTensor"} : () -> ()
    "bir.memloc"() {memory_type = "Const", set = @t8, size = 8 : i64, sym_name = "l8"} : () -> ()
    "bir.memloc_set"() {dtype = "uint16", shape = array<i64: 1>, sym_name = "t9", tensor_class = "ScratchTensor"} : () -> ()
    "bir.memloc"() {memory_type = "Internal", set = @t9, size = 2 : i64, sym_name = "l9"} : () -> ()
    "bir.memloc_set"() {dtype = "float16", shape = array<i64: 1>, sym_name = "t10", tensor_class = "DebugTensor"} : () -> ()
    "bir.memloc"() {memory_type = "Pointer", set = @t10, size = 2 : i64, sym_name = "l10"} : () -> ()
    "bir.memloc_set"() {dtype = "int32", shape = array<i64: 1>, sym_name = "t11", tensor_class = "ConstantTensor"} : () -> ()
    "bir.memloc"() {memory_type = "InternalInterface", set = @t11, size = 4 : i64, sym_name = "l11"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 1>, sym_name = "t12", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {memory_type = "Const", set = @t12, size = 4 : i64, sym_name = "l12"} : () -> ()
    return
  }
}
// CHECK-COUNT-1: tensor_class = "UnknownTensor"
// CHECK: tensor_class = "InputTensor"
// CHECK: tensor_class = "OutputTensor"
// CHECK: tensor_class = "NeuronWeightTensor"
// CHECK: tensor_class = "IdentityWeightTensor"
// CHECK: tensor_class = "StateTensor"
// CHECK: tensor_class = "InternalTensor"
// CHECK: tensor_class = "PointerTensor"
// CHECK: tensor_class = "RngStateTensor"
// CHECK: tensor_class = "ScratchTensor"
// CHECK: tensor_class = "DebugTensor"
// CHECK: tensor_class = "ConstantTensor"
// CHECK: tensor_class = "ImmutableParameter"
// JSON: "tensor_class": "UnknownTensor",
// JSON: "memory_type": "REG",
// JSON: "memory_type": "Unallocated",
// JSON: "memory_type": "DRAM",
// JSON: "memory_type": "RNGSTATE",
// JSON: "memory_type": "ExternalInput",
// JSON: "memory_type": "ExternalInputParameter",
// JSON: "memory_type": "ExternalOutput",
// JSON: "memory_type": "ExternalOutputParameter",
// JSON: "memory_type": "Const",
// JSON: "memory_type": "Internal",
// JSON: "memory_type": "Pointer",
// JSON: "memory_type": "InternalInterface",
// JSON: "tensor_class": "ImmutableParameter",
