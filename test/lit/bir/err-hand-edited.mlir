// Hand-edited BIR the passes and the exporters used to crash on or take
// wrongly: each is an error at the op at fault, from copy-const-artifacts
// (the first BIR pass) and, where they read it, the exporters (one
// verifier: the same words). No output is written. The module unedited is
// hand-edited-ok.mlir.
// RUN: opt --split-input-file --verify-diagnostics --copy-const-artifacts %s -o %t.mlir
// RUN: not opt --split-input-file --copy-const-artifacts %s -o %t.bad 2>&1 | FileCheck %s
// RUN: not test -e %t.bad
// RUN: not opt --split-input-file --emit=bir-json %s -o %t.json 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: not test -e %t.json

// A bir.function that is only a declaration (SIGSEGV in every BIR pass and
// exporter).
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  // expected-error@+3 {{func.func 'decl': bir.function marks a declaration; a BIR function needs a body}}
  // CHECK: err-hand-edited.mlir:[[@LINE+2]]:3: error: copy-const-artifacts: func.func 'decl': bir.function marks
  // JSON: err-hand-edited.mlir:[[@LINE+1]]:3: error: func.func 'decl': bir.function marks a declaration
  func.func private @decl() attributes {bir.function}
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {data = dense<1> : tensor<4xui8>, size = 4 : i64, sym_name = "c.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64>, sym_name = "k", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, const_ap_offset = 0 : i64, const_file = @c.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @k, size = 4 : i64, sym_name = "k.0"} : () -> ()
    "bir.kernel"() {const_files = [@c.bin], sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// bir.artifacts that is no array (SIGSEGV in copy-const-artifacts and
// neff-pack; the exporters dropped it).
// expected-error@+3 {{builtin.module 'm': bir.artifacts must be an array of {path = "...", info = "..."}}}
// CHECK: err-hand-edited.mlir:[[@LINE+2]]:1: error: copy-const-artifacts: builtin.module 'm': bir.artifacts must be an array
// JSON: err-hand-edited.mlir:[[@LINE+1]]:1: error: builtin.module 'm': bir.artifacts must be an array
module @m attributes {bir.artifact_path = "", bir.name = "m", bir.artifacts = 5 : i64} {
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {data = dense<1> : tensor<4xui8>, size = 4 : i64, sym_name = "c.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64>, sym_name = "k", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, const_ap_offset = 0 : i64, const_file = @c.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @k, size = 4 : i64, sym_name = "k.0"} : () -> ()
    "bir.kernel"() {const_files = [@c.bin], sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// A size wider than 64 bits (2^64 + 4 was read as 4; --emit=bir-json
// wrote "size": 4).
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {data = dense<1> : tensor<4xui8>, size = 4 : i64, sym_name = "c.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64>, sym_name = "k", tensor_class = "ImmutableParameter"} : () -> ()
    // expected-error@+3 {{bir.memloc 'k.0': size must be an integer of at most 64 bits}}
    // CHECK: err-hand-edited.mlir:[[@LINE+2]]:5: error: copy-const-artifacts: bir.memloc 'k.0': size must be
    // JSON: err-hand-edited.mlir:[[@LINE+1]]:5: error: bir.memloc 'k.0': size must be an integer of at most 64 bits
    "bir.memloc"() {alignment = 4 : i64, const_ap_offset = 0 : i64, const_file = @c.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @k, size = 18446744073709551620 : i128, sym_name = "k.0"} : () -> ()
    "bir.kernel"() {const_files = [@c.bin], sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// A name that is not UTF-8 (it left neff.json without a name).
// expected-error@+3 {{builtin.module 'm': bir.name must be UTF-8}}
// CHECK: err-hand-edited.mlir:[[@LINE+2]]:1: error: copy-const-artifacts: builtin.module 'm': bir.name must be UTF-8
// JSON: err-hand-edited.mlir:[[@LINE+1]]:1: error: builtin.module 'm': bir.name must be UTF-8
module @m attributes {bir.artifact_path = "", bir.name = "m\C3"} {
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {data = dense<1> : tensor<4xui8>, size = 4 : i64, sym_name = "c.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64>, sym_name = "k", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, const_ap_offset = 0 : i64, const_file = @c.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @k, size = 4 : i64, sym_name = "k.0"} : () -> ()
    "bir.kernel"() {const_files = [@c.bin], sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// A const file on an input's memory location (def.json listed the tensor
// as an input and as a constant).
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {data = dense<1> : tensor<4xui8>, size = 4 : i64, sym_name = "c.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64>, sym_name = "k", tensor_class = "ImmutableParameter"} : () -> ()
    // expected-error@+2 {{copy-const-artifacts: bir.memloc 'k.0': const_file is for a constant's memory (Const or DRAM), not this location's memory type}}
    // CHECK: err-hand-edited.mlir:[[@LINE+1]]:5: error: copy-const-artifacts: bir.memloc 'k.0': const_file is for
    "bir.memloc"() {alignment = 4 : i64, const_ap_offset = 0 : i64, const_file = @c.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "ExternalInput", placement = 0 : i64, set = @k, size = 4 : i64, sym_name = "k.0"} : () -> ()
    "bir.kernel"() {const_files = [@c.bin], sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// Two kernels of one name (taken without a word; sets, locations and
// const files were checked already).
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {data = dense<1> : tensor<4xui8>, size = 4 : i64, sym_name = "c.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64>, sym_name = "k", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, const_ap_offset = 0 : i64, const_file = @c.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @k, size = 4 : i64, sym_name = "k.0"} : () -> ()
    "bir.kernel"() {const_files = [@c.bin], sym_name = "kernel"} : () -> ()
    // expected-error@+2 {{copy-const-artifacts: bir.kernel 'kernel': sym_name is the name of another kernel in this function}}
    // CHECK: err-hand-edited.mlir:[[@LINE+1]]:5: error: copy-const-artifacts: bir.kernel 'kernel': sym_name is the name
    "bir.kernel"() {const_files = [@c.bin], sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// A BIR op outside a bir.function (ignored: the NEFF went without it).
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  func.func @sg00() {
    // expected-error@+2 {{copy-const-artifacts: bir.const_file outside a BIR function (a func.func with bir.function): no pass would read it}}
    // CHECK: err-hand-edited.mlir:[[@LINE+1]]:5: error: copy-const-artifacts: bir.const_file outside a BIR function
    "bir.const_file"() {data = dense<1> : tensor<4xui8>, size = 4 : i64, sym_name = "c.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64>, sym_name = "k", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, const_ap_offset = 0 : i64, const_file = @c.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @k, size = 4 : i64, sym_name = "k.0"} : () -> ()
    "bir.kernel"() {const_files = [@c.bin], sym_name = "kernel"} : () -> ()
    return
  }
}
