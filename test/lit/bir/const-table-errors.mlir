// A hand-written or edited bir.const_table is checked like the sets and
// memory locations it stands for, before any bytes move: each error names
// the column and the row, at the table. The module is what
// --bir-lower="const-tables=2" makes of four small constants, w2 moved to
// a const file of its own; the first chunk is it unedited.
// RUN: opt --split-input-file --verify-diagnostics %s --copy-const-artifacts --dedup-consts
// RUN: not opt --split-input-file %s --copy-const-artifacts --dedup-consts -o %t.mlir 2>&1 | FileCheck %s
// RUN: not test -e %t.mlir
// The exporters refuse a table no proto reader would take back.
// RUN: not opt --split-input-file %s --emit=bir-json -o %t.json 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: not test -e %t.json
// The first chunk packs, and its protobuf form reads back.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: awk '/^\/\/ -----/ {exit} {print}' %s > %t.d/ok.mlir
// RUN: opt %t.d/ok.mlir --neff-pack -o %t.d/ok.neff
// RUN: neff verify %t.d/ok.neff
// RUN: opt %t.d/ok.mlir --emit=bir-proto -o %t.d/ok.pb
// RUN: opt %t.d/ok.pb -o /dev/null
// (A size past 2^63-1 in the protobuf form: const-table-proto.test.)

// expected-remark@unknown {{Const File de-dup saved 0 KB}}
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Const", names = ["w1", "b1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: 16, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// A column with one entry more than there are names.
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    // expected-error@+2 {{bir.const_table: sizes has 5 entries for 4 names}}
    // CHECK: const-table-errors.mlir:[[@LINE+1]]:5: error: {{.*}}bir.const_table: sizes has 5 entries for 4 names
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Const", names = ["w1", "b1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: 16, 1, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// A tensor class, a dtype or a memory type BIR does not have.
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    // expected-error@+2 {{bir.const_table: tensor_classes[3]: Unknown tensor class type: Bogus}}
    // CHECK: const-table-errors.mlir:[[@LINE+1]]:5: error: {{.*}}bir.const_table: tensor_classes{{\[}}3]: Unknown tensor class type: Bogus
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Const", names = ["w1", "b1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: 16, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "Bogus"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    // expected-error@+2 {{bir.const_table: dtypes[0]: Unknown dtype: float33}}
    // CHECK: const-table-errors.mlir:[[@LINE+1]]:5: error: {{.*}}bir.const_table: dtypes{{\[}}0]: Unknown dtype: float33
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float33", "float32", "float32", "float32"], memory_type = "Const", names = ["w1", "b1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: 16, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    // expected-error@+2 {{bir.const_table: memory_type: Unknown memory type: Cnst}}
    // CHECK: const-table-errors.mlir:[[@LINE+1]]:5: error: {{.*}}bir.const_table: memory_type: Unknown memory type: Cnst
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Cnst", names = ["w1", "b1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: 16, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// A placement off its row's alignment.
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    // expected-error@+2 {{bir.const_table: placements[1] 65 is not a multiple of the alignment 64}}
    // CHECK: const-table-errors.mlir:[[@LINE+1]]:5: error: {{.*}}bir.const_table: placements{{\[}}1] 65 is not a multiple of the alignment 64
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Const", names = ["w1", "b1", "w2", "b2"], placements = array<i64: 0, 65, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: 16, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// A row named as another set, or as another row.
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    // expected-error@+2 {{bir.const_table: names[0] ('x') is the name of another set in this function}}
    // CHECK: const-table-errors.mlir:[[@LINE+1]]:5: error: {{.*}}bir.const_table: names{{\[}}0] ('x') is the name of another set in this function
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Const", names = ["x", "b1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: 16, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    // expected-error@+2 {{bir.const_table: names[1] ('w1') is the name of another set in this function}}
    // CHECK: const-table-errors.mlir:[[@LINE+1]]:5: error: {{.*}}bir.const_table: names{{\[}}1] ('w1') is the name of another set in this function
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Const", names = ["w1", "w1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: 16, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// A name with a NUL byte, a name that is no string, a negative size.
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    // expected-error@+2 {{bir.const_table: names[0] must be a non-empty UTF-8 name without NUL bytes}}
    // CHECK: const-table-errors.mlir:[[@LINE+1]]:5: error: {{.*}}bir.const_table: names{{\[}}0] must be a non-empty UTF-8 name without NUL bytes
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Const", names = ["w\001", "b1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: 16, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    // expected-error@+2 {{bir.const_table: names entry 0 must be a string}}
    // CHECK: const-table-errors.mlir:[[@LINE+1]]:5: error: {{.*}}bir.const_table: names entry 0 must be a string
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Const", names = [7, "b1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: 16, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    // expected-error@+2 {{bir.const_table: sizes[0] must not be negative}}
    // CHECK: const-table-errors.mlir:[[@LINE+1]]:5: error: {{.*}}bir.const_table: sizes{{\[}}0] must not be negative
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Const", names = ["w1", "b1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: -16, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// One sub-tensor id at two offsets of one file.
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    // expected-error@+2 {{bir.const_table: const_sub_tensor_ids[3] ('b2.0') 1 is at offset 128 here but at 64 in 'b1.0'}}
    // CHECK: const-table-errors.mlir:[[@LINE+1]]:5: error: {{.*}}bir.const_table: const_sub_tensor_ids{{\[}}3] ('b2.0') 1 is at offset 128 here but at 64 in 'b1.0'
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 1>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Const", names = ["w1", "b1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: 16, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// A row whose const file does not exist.
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    // expected-error@+2 {{bir.const_table row 'w2' names a const file that does not exist}}
    // CHECK: const-table-errors.mlir:[[@LINE+1]]:5: error: {{.*}}bir.const_table row 'w2' names a const file that does not exist
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @nope.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Const", names = ["w1", "b1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: 16, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// A row's bytes are its constant's (the row's name): one it does not name,
// or of another size, is refused where the const file is assembled.
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    // expected-error@+2 {{const file 'consts.float32.bin': no HLO constant 'w9' (for 'w9.0')}}
    // CHECK: const-table-errors.mlir:[[@LINE+1]]:5: error: {{.*}}const file 'consts.float32.bin': no HLO constant 'w9' (for 'w9.0')
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Const", names = ["w9", "b1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: 16, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    // expected-error@+2 {{const file 'consts.float32.bin': memory location 'w1.0' is 12 bytes but constant 'w1' holds 16}}
    // CHECK: const-table-errors.mlir:[[@LINE+1]]:5: error: {{.*}}const file 'consts.float32.bin': memory location 'w1.0' is 12 bytes but constant 'w1' holds 16
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Const", names = ["w1", "b1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: 12, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// A column of another kind is IRDL's to refuse.
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    // expected-error@+2 {{expected base attribute 'builtin.dense_array' but got 'builtin.array'}}
    // CHECK: const-table-errors.mlir:[[@LINE+1]]:5: error: {{.*}}expected base attribute 'builtin.dense_array' but got 'builtin.array'
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Const", names = ["w1", "b1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = [16, 8, 16, 8], tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// A table with no rows, and a memory location of its own for a row's set,
// are refused: the proto form records a table as a run of its sets, each
// with its one location, so either would write a proto no reader takes.
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Const", names = ["w1", "b1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: 16, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    // expected-error@+3 {{bir.const_table: names is empty; a table holds at least one tensor}}
    // CHECK: const-table-errors.mlir:[[@LINE+2]]:5: error: {{.*}}bir.const_table: names is empty; a table holds at least one tensor
    // JSON: const-table-errors.mlir:[[@LINE+1]]:5: error: bir.const_table: names is empty; a table holds at least one tensor
    "bir.const_table"() {alignments = array<i64>, const_ap_offsets = array<i64>, const_files = [], const_sub_tensor_ids = array<i64>, dtypes = [], memory_type = "Const", names = [], placements = array<i64>, shapes = [], sizes = array<i64>, tensor_classes = []} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
module @m attributes {bir.artifact_path = "", bir.name = "m"} {
  module @m attributes {hlo.entry = @main} {
    func.func @main(%x: tensor<4xf32> {hlo.name = "x"}) -> tensor<4xf32> {
      %w1 = "hlo.constant"() {name = "w1", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b1 = "hlo.constant"() {name = "b1", value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      %w2 = "hlo.constant"() {name = "w2", value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>} : () -> tensor<4xf32>
      %b2 = "hlo.constant"() {name = "b2", value = dense<[11.0, 12.0]> : tensor<2xf32>} : () -> tensor<2xf32>
      return %x : tensor<4xf32>
    }
  }
  // expected-error@+3 {{bir.memloc 'w1.1': its set 'w1' is a row of a bir.const_table, which has its one location there}}
  // CHECK: const-table-errors.mlir:[[@LINE+2]]:3: error: {{.*}}bir.memloc 'w1.1': its set 'w1' is a row of a bir.const_table, which has its one location there
  // JSON: const-table-errors.mlir:[[@LINE+1]]:3: error: bir.memloc 'w1.1': its set 'w1' is a row of a bir.const_table, which has its one location there
  func.func @sg00() attributes {bir.function} {
    "bir.const_file"() {assembled = "consts.float32.bin", size = 136 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.const_file"() {data = dense<[0, 0, 224, 64, 0, 0, 0, 65, 0, 0, 16, 65, 0, 0, 32, 65]> : tensor<16xui8>, size = 16 : i64, sym_name = "w2.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    "bir.const_table"() {alignments = array<i64: 64, 64, 64, 64>, const_ap_offsets = array<i64: 0, 64, 0, 128>, const_files = [@consts.float32.bin, @consts.float32.bin, @w2.bin, @consts.float32.bin], const_sub_tensor_ids = array<i64: 0, 1, 0, 2>, dtypes = ["float32", "float32", "float32", "float32"], memory_type = "Const", names = ["w1", "b1", "w2", "b2"], placements = array<i64: 0, 64, 128, 192>, shapes = [array<i64: 4>, array<i64: 2>, array<i64: 4>, array<i64: 2>], sizes = array<i64: 16, 8, 16, 8>, tensor_classes = ["NeuronWeightTensor", "ImmutableParameter", "NeuronWeightTensor", "ImmutableParameter"]} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, memory_type = "Internal", placement = 0 : i64, set = @w1, size = 16 : i64, sym_name = "w1.1"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin, @w2.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}
