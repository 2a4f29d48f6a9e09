// Hand-edited BIR the passes and the exporters used to crash on or take
// wrongly: each is an error at the op at fault (exit 1, no output).
// RUN: rm -rf %t && mkdir -p %t
// A bir.function that is only a declaration (SIGSEGV in every BIR pass and
// exporter).
// RUN: sed 's|^  // DECL||' %s > %t/decl.mlir
// RUN: opt %t/decl.mlir --neff-pack -o %t/d.neff 2> %t/e1; test $? -eq 1
// RUN: opt %t/decl.mlir --emit=bir-json -o %t/d.json 2>> %t/e1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=DECL --input-file=%t/e1
// DECL: {{.*}}decl.mlir:{{[0-9]+}}:3: error: copy-const-artifacts: func.func 'decl': bir.function marks a declaration; a BIR function needs a body
// DECL: {{.*}}decl.mlir:{{[0-9]+}}:3: error: func.func 'decl': bir.function marks a declaration; a BIR function needs a body
// bir.artifacts that is no array (SIGSEGV in copy-const-artifacts and
// neff-pack; the exporters dropped it).
// RUN: sed 's|bir.name = "m"}|bir.name = "m", bir.artifacts = 5 : i64}|' %s > %t/arts.mlir
// RUN: opt %t/arts.mlir --copy-const-artifacts -o %t/a.mlir 2> %t/e2; test $? -eq 1
// RUN: opt %t/arts.mlir --emit=bir-json -o %t/a.json 2>> %t/e2; test $? -eq 1
// RUN: FileCheck %s --check-prefix=ARTS --input-file=%t/e2
// ARTS: {{.*}}arts.mlir:{{[0-9]+}}:1: error: copy-const-artifacts: builtin.module 'm': bir.artifacts must be an array of {path = "...", info = "..."}
// ARTS: {{.*}}arts.mlir:{{[0-9]+}}:1: error: builtin.module 'm': bir.artifacts must be an array of {path = "...", info = "..."}
// A size wider than 64 bits (2^64 + 4 was read as 4).
// RUN: sed 's|size = 4 : i64, sym_name = "k.0"|size = 18446744073709551620 : i128, sym_name = "k.0"|' %s > %t/wide.mlir
// RUN: opt %t/wide.mlir --neff-pack -o %t/w.neff 2> %t/e3; test $? -eq 1
// RUN: FileCheck %s --check-prefix=WIDE --input-file=%t/e3
// WIDE: {{.*}}wide.mlir:{{[0-9]+}}:5: error: copy-const-artifacts: bir.memloc 'k.0': size must be an integer of at most 64 bits
// The exporters refuse it too (--emit=bir-json wrote "size": 4), in the
// same words: one verifier.
// RUN: opt %t/wide.mlir --emit=bir-json -o %t/w.json 2> %t/e3b; test $? -eq 1
// RUN: FileCheck %s --check-prefix=WIDEJSON --input-file=%t/e3b
// WIDEJSON: {{.*}}wide.mlir:{{[0-9]+}}:5: error: bir.memloc 'k.0': size must be an integer of at most 64 bits
// A name that is not UTF-8 (it left neff.json without a name).
// RUN: sed 's|bir.name = "m"|bir.name = "m\\C3"|' %s > %t/utf.mlir
// RUN: opt %t/utf.mlir --neff-pack -o %t/u.neff 2> %t/e4; test $? -eq 1
// RUN: FileCheck %s --check-prefix=UTF --input-file=%t/e4
// UTF: {{.*}}utf.mlir:{{[0-9]+}}:1: error: copy-const-artifacts: builtin.module 'm': bir.name must be UTF-8
// RUN: opt %t/utf.mlir --emit=bir-json -o %t/u.json 2> %t/e4b; test $? -eq 1
// RUN: FileCheck %s --check-prefix=UTFJSON --input-file=%t/e4b
// UTFJSON: {{.*}}utf.mlir:{{[0-9]+}}:1: error: builtin.module 'm': bir.name must be UTF-8
// A const file on an input's memory location (def.json listed the tensor
// as an input and as a constant).
// RUN: sed 's|memory_type = "Const"|memory_type = "ExternalInput"|' %s > %t/in.mlir
// RUN: opt %t/in.mlir --neff-pack -o %t/i.neff 2> %t/e5; test $? -eq 1
// RUN: FileCheck %s --check-prefix=INPUT --input-file=%t/e5
// INPUT: {{.*}}in.mlir:{{[0-9]+}}:5: error: copy-const-artifacts: bir.memloc 'k.0': const_file is for a constant's memory (Const or DRAM), not this location's memory type
// Two kernels of one name (taken without a word; sets, locations and
// const files were checked already).
// RUN: sed '/"bir.kernel"/p' %s > %t/kern.mlir
// RUN: opt %t/kern.mlir --neff-pack -o %t/k.neff 2> %t/e6; test $? -eq 1
// RUN: FileCheck %s --check-prefix=KERNEL --input-file=%t/e6
// KERNEL: {{.*}}kern.mlir:{{[0-9]+}}:5: error: copy-const-artifacts: bir.kernel 'kernel': sym_name is the name of another kernel in this function
// RUN: not test -e %t/k.neff
// A BIR op outside a bir.function (ignored: the NEFF went without it).
// RUN: sed 's|attributes {bir.function} {|{|' %s > %t/nofunc.mlir
// RUN: opt %t/nofunc.mlir --neff-pack -o %t/n.neff 2> %t/e7; test $? -eq 1
// RUN: FileCheck %s --check-prefix=STRAY --input-file=%t/e7
// STRAY: {{.*}}nofunc.mlir:{{[0-9]+}}:5: error: copy-const-artifacts: bir.const_file outside a BIR function (a func.func with bir.function): no pass would read it
// RUN: not test -e %t/n.neff
// RUN: not test -e %t/w.json -o -e %t/u.json -o -e %t/d.neff -o -e %t/d.json -o -e %t/a.mlir -o -e %t/a.json -o -e %t/w.neff -o -e %t/u.neff -o -e %t/i.neff
// The module itself packs.
// RUN: opt %s --neff-pack -o %t/ok.neff && neff verify %t/ok.neff
// A BIR protobuf with a field after its schema marker (another writer's
// order, or a newer schema's field) is still read as BIR; it was taken
// for a malformed HloModuleProto.
// RUN: opt %s --emit=bir-proto -o %t/m.pb
// RUN: cp %t/m.pb %t/more.pb && printf '\170\001' >> %t/more.pb
// RUN: opt %t/more.pb --neff-pack -o %t/more.neff
// RUN: cmp %t/ok.neff %t/more.neff
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  // DECL  func.func private @decl() attributes {bir.function}
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {data = dense<1> : tensor<4xui8>, size = 4 : i64, sym_name = "c.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64>, sym_name = "k", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, const_ap_offset = 0 : i64, const_file = @c.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @k, size = 4 : i64, sym_name = "k.0"} : () -> ()
    "bir.kernel"() {const_files = [@c.bin], sym_name = "kernel"} : () -> ()
    return
  }
}
