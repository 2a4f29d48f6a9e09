// The hand-edited BIR module of err-hand-edited.mlir, unedited, packs; and
// a BIR protobuf with a field after its schema marker (another writer's
// order, or a newer schema's field) is still read as BIR; it was taken
// for a malformed HloModuleProto.
// RUN: rm -rf %t && mkdir -p %t
// RUN: opt %s --neff-pack -o %t/ok.neff && neff verify %t/ok.neff
// RUN: opt %s --emit=bir-proto -o %t/m.pb
// RUN: cp %t/m.pb %t/more.pb && printf '\170\001' >> %t/more.pb
// RUN: opt %t/more.pb --neff-pack -o %t/more.neff
// RUN: cmp %t/ok.neff %t/more.neff
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {data = dense<1> : tensor<4xui8>, size = 4 : i64, sym_name = "c.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64>, sym_name = "k", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, const_ap_offset = 0 : i64, const_file = @c.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @k, size = 4 : i64, sym_name = "k.0"} : () -> ()
    "bir.kernel"() {const_files = [@c.bin], sym_name = "kernel"} : () -> ()
    return
  }
}
