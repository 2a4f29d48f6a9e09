// An assembled const file is checked when its bytes are put together: each
// tensor placed in it must name an HLO constant of its size, lie inside the
// file, and agree with any tensor it overlaps; pointers and placements
// must keep their alignment. Every failure names the file and the memory
// location, at the op at fault, and writes nothing. The module is what
// bir-lower makes of four small constants (alignment 64); the first chunk
// is it unedited.
// RUN: opt --split-input-file --verify-diagnostics %s --copy-const-artifacts --dedup-consts
// RUN: not opt --split-input-file %s --copy-const-artifacts --dedup-consts -o %t.mlir 2>&1 | FileCheck %s
// RUN: not test -e %t.mlir
// The first chunk packs.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: awk '/^\/\/ -----/ {exit} {print}' %s > %t.d/ok.mlir
// RUN: opt %t.d/ok.mlir --neff-pack -o %t.d/ok.neff
// RUN: neff verify %t.d/ok.neff

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
    "bir.const_file"() {assembled = "consts.float32.bin", size = 200 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w1", shape = array<i64: 4>, sym_name = "w1", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 0 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @w1, size = 16 : i64, sym_name = "w1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b1", shape = array<i64: 2>, sym_name = "b1", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 64 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 1 : i64, is_regloc_offset = false, memory_type = "Const", placement = 64 : i64, set = @b1, size = 8 : i64, sym_name = "b1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w2", shape = array<i64: 4>, sym_name = "w2", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 128 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 2 : i64, is_regloc_offset = false, memory_type = "Const", placement = 128 : i64, set = @w2, size = 16 : i64, sym_name = "w2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b2", shape = array<i64: 2>, sym_name = "b2", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 192 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 3 : i64, is_regloc_offset = false, memory_type = "Const", placement = 192 : i64, set = @b2, size = 8 : i64, sym_name = "b2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// Two memory locations over the same bytes with other bytes.
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
    // expected-error@+2 {{const file 'consts.float32.bin': memory locations 'w2.0' and 'b2.0' overlap with other bytes}}
    // CHECK: assembled-errors.mlir:[[@LINE+1]]:5: error: copy-const-artifacts: const file 'consts.float32.bin': memory locations 'w2.0' and 'b2.0' overlap with other bytes
    "bir.const_file"() {assembled = "consts.float32.bin", size = 200 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w1", shape = array<i64: 4>, sym_name = "w1", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 0 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @w1, size = 16 : i64, sym_name = "w1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b1", shape = array<i64: 2>, sym_name = "b1", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 64 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 1 : i64, is_regloc_offset = false, memory_type = "Const", placement = 64 : i64, set = @b1, size = 8 : i64, sym_name = "b1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w2", shape = array<i64: 4>, sym_name = "w2", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 128 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 2 : i64, is_regloc_offset = false, memory_type = "Const", placement = 128 : i64, set = @w2, size = 16 : i64, sym_name = "w2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b2", shape = array<i64: 2>, sym_name = "b2", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 128 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 3 : i64, is_regloc_offset = false, memory_type = "Const", placement = 192 : i64, set = @b2, size = 8 : i64, sym_name = "b2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// A memory location past the end of its file.
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
    // expected-error@+2 {{const file 'consts.float32.bin' (200 bytes): memory location 'b2.0' lies outside it}}
    // CHECK: assembled-errors.mlir:[[@LINE+1]]:5: error: copy-const-artifacts: const file 'consts.float32.bin' (200 bytes): memory location 'b2.0' lies outside it
    "bir.const_file"() {assembled = "consts.float32.bin", size = 200 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w1", shape = array<i64: 4>, sym_name = "w1", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 0 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @w1, size = 16 : i64, sym_name = "w1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b1", shape = array<i64: 2>, sym_name = "b1", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 64 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 1 : i64, is_regloc_offset = false, memory_type = "Const", placement = 64 : i64, set = @b1, size = 8 : i64, sym_name = "b1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w2", shape = array<i64: 4>, sym_name = "w2", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 128 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 2 : i64, is_regloc_offset = false, memory_type = "Const", placement = 128 : i64, set = @w2, size = 16 : i64, sym_name = "w2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b2", shape = array<i64: 2>, sym_name = "b2", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 256 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 3 : i64, is_regloc_offset = false, memory_type = "Const", placement = 192 : i64, set = @b2, size = 8 : i64, sym_name = "b2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// A pointer off its alignment (hand-written IR) is refused before any
// bytes move; so is a placement off it.
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
    "bir.const_file"() {assembled = "consts.float32.bin", size = 200 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w1", shape = array<i64: 4>, sym_name = "w1", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 0 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @w1, size = 16 : i64, sym_name = "w1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b1", shape = array<i64: 2>, sym_name = "b1", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 64 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 1 : i64, is_regloc_offset = false, memory_type = "Const", placement = 64 : i64, set = @b1, size = 8 : i64, sym_name = "b1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w2", shape = array<i64: 4>, sym_name = "w2", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 128 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 2 : i64, is_regloc_offset = false, memory_type = "Const", placement = 128 : i64, set = @w2, size = 16 : i64, sym_name = "w2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b2", shape = array<i64: 2>, sym_name = "b2", tensor_class = "ImmutableParameter"} : () -> ()
    // expected-error@+2 {{bir.memloc 'b2.0': const_ap_offset 193 is not a multiple of the alignment 64}}
    // CHECK: assembled-errors.mlir:[[@LINE+1]]:5: error: copy-const-artifacts: bir.memloc 'b2.0': const_ap_offset 193 is not a multiple of the alignment 64
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 193 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 3 : i64, is_regloc_offset = false, memory_type = "Const", placement = 192 : i64, set = @b2, size = 8 : i64, sym_name = "b2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
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
    "bir.const_file"() {assembled = "consts.float32.bin", size = 200 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w1", shape = array<i64: 4>, sym_name = "w1", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 0 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @w1, size = 16 : i64, sym_name = "w1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b1", shape = array<i64: 2>, sym_name = "b1", tensor_class = "ImmutableParameter"} : () -> ()
    // expected-error@+2 {{bir.memloc 'b1.0': placement 65 is not a multiple of the alignment 64}}
    // CHECK: assembled-errors.mlir:[[@LINE+1]]:5: error: copy-const-artifacts: bir.memloc 'b1.0': placement 65 is not a multiple of the alignment 64
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 64 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 1 : i64, is_regloc_offset = false, memory_type = "Const", placement = 65 : i64, set = @b1, size = 8 : i64, sym_name = "b1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w2", shape = array<i64: 4>, sym_name = "w2", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 128 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 2 : i64, is_regloc_offset = false, memory_type = "Const", placement = 128 : i64, set = @w2, size = 16 : i64, sym_name = "w2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b2", shape = array<i64: 2>, sym_name = "b2", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 192 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 3 : i64, is_regloc_offset = false, memory_type = "Const", placement = 192 : i64, set = @b2, size = 8 : i64, sym_name = "b2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// One sub-tensor id at two offsets of one file. (Id 0 is not checked:
// BIR JSON and proto read a missing id as 0, so a file written without
// ids gives every tensor 0, and packs: assembled-order.test.)
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
    "bir.const_file"() {assembled = "consts.float32.bin", size = 200 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w1", shape = array<i64: 4>, sym_name = "w1", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 0 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @w1, size = 16 : i64, sym_name = "w1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b1", shape = array<i64: 2>, sym_name = "b1", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 64 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 2 : i64, is_regloc_offset = false, memory_type = "Const", placement = 64 : i64, set = @b1, size = 8 : i64, sym_name = "b1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w2", shape = array<i64: 4>, sym_name = "w2", tensor_class = "NeuronWeightTensor"} : () -> ()
    // expected-error@+2 {{bir.memloc 'w2.0': const_sub_tensor_id 2 is at offset 128 here but at 64 in 'b1.0'}}
    // CHECK: assembled-errors.mlir:[[@LINE+1]]:5: error: copy-const-artifacts: bir.memloc 'w2.0': const_sub_tensor_id 2 is at offset 128 here but at 64 in 'b1.0'
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 128 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 2 : i64, is_regloc_offset = false, memory_type = "Const", placement = 128 : i64, set = @w2, size = 16 : i64, sym_name = "w2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b2", shape = array<i64: 2>, sym_name = "b2", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 192 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 3 : i64, is_regloc_offset = false, memory_type = "Const", placement = 192 : i64, set = @b2, size = 8 : i64, sym_name = "b2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// A set whose HLO value is no constant, a memory location of another size
// than its constant.
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
    // expected-error@+2 {{const file 'consts.float32.bin': no HLO constant 'nope' (for 'b2.0')}}
    // CHECK: assembled-errors.mlir:[[@LINE+1]]:5: error: copy-const-artifacts: const file 'consts.float32.bin': no HLO constant 'nope' (for 'b2.0')
    "bir.const_file"() {assembled = "consts.float32.bin", size = 200 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w1", shape = array<i64: 4>, sym_name = "w1", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 0 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @w1, size = 16 : i64, sym_name = "w1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b1", shape = array<i64: 2>, sym_name = "b1", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 64 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 1 : i64, is_regloc_offset = false, memory_type = "Const", placement = 64 : i64, set = @b1, size = 8 : i64, sym_name = "b1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w2", shape = array<i64: 4>, sym_name = "w2", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 128 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 2 : i64, is_regloc_offset = false, memory_type = "Const", placement = 128 : i64, set = @w2, size = 16 : i64, sym_name = "w2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "nope", shape = array<i64: 2>, sym_name = "b2", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 192 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 3 : i64, is_regloc_offset = false, memory_type = "Const", placement = 192 : i64, set = @b2, size = 8 : i64, sym_name = "b2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
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
    // expected-error@+2 {{const file 'consts.float32.bin': memory location 'b2.0' is 4 bytes but constant 'b2' holds 8}}
    // CHECK: assembled-errors.mlir:[[@LINE+1]]:5: error: copy-const-artifacts: const file 'consts.float32.bin': memory location 'b2.0' is 4 bytes but constant 'b2' holds 8
    "bir.const_file"() {assembled = "consts.float32.bin", size = 200 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w1", shape = array<i64: 4>, sym_name = "w1", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 0 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @w1, size = 16 : i64, sym_name = "w1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b1", shape = array<i64: 2>, sym_name = "b1", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 64 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 1 : i64, is_regloc_offset = false, memory_type = "Const", placement = 64 : i64, set = @b1, size = 8 : i64, sym_name = "b1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w2", shape = array<i64: 4>, sym_name = "w2", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 128 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 2 : i64, is_regloc_offset = false, memory_type = "Const", placement = 128 : i64, set = @w2, size = 16 : i64, sym_name = "w2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b2", shape = array<i64: 2>, sym_name = "b2", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 192 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 3 : i64, is_regloc_offset = false, memory_type = "Const", placement = 192 : i64, set = @b2, size = 4 : i64, sym_name = "b2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// An assembled file's label that is no string.
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
    // expected-error@+2 {{bir.const_file 'consts.float32.bin': assembled must be a string}}
    // CHECK: assembled-errors.mlir:[[@LINE+1]]:5: error: copy-const-artifacts: bir.const_file 'consts.float32.bin': assembled must be a string
    "bir.const_file"() {assembled = 1 : i64, size = 200 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w1", shape = array<i64: 4>, sym_name = "w1", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 0 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @w1, size = 16 : i64, sym_name = "w1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b1", shape = array<i64: 2>, sym_name = "b1", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 64 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 1 : i64, is_regloc_offset = false, memory_type = "Const", placement = 64 : i64, set = @b1, size = 8 : i64, sym_name = "b1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w2", shape = array<i64: 4>, sym_name = "w2", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 128 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 2 : i64, is_regloc_offset = false, memory_type = "Const", placement = 128 : i64, set = @w2, size = 16 : i64, sym_name = "w2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b2", shape = array<i64: 2>, sym_name = "b2", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 192 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 3 : i64, is_regloc_offset = false, memory_type = "Const", placement = 192 : i64, set = @b2, size = 8 : i64, sym_name = "b2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}

// -----
// An assembled file ends where its last tensor does; another size is an
// error (a hand-written one could otherwise ask for any number of zeros).
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
    // expected-error@+2 {{const file 'consts.float32.bin' says 4611686018427387904 bytes but its tensors end at 200}}
    // CHECK: assembled-errors.mlir:[[@LINE+1]]:5: error: copy-const-artifacts: const file 'consts.float32.bin' says 4611686018427387904 bytes but its tensors end at 200
    "bir.const_file"() {assembled = "consts.float32.bin", size = 4611686018427387904 : i64, sym_name = "consts.float32.bin"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "x", shape = array<i64: 4>, sym_name = "x", tensor_class = "InputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalInput", placement = 0 : i64, set = @x, size = 16 : i64, sym_name = "x.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w1", shape = array<i64: 4>, sym_name = "w1", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 0 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 0 : i64, is_regloc_offset = false, memory_type = "Const", placement = 0 : i64, set = @w1, size = 16 : i64, sym_name = "w1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b1", shape = array<i64: 2>, sym_name = "b1", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 64 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 1 : i64, is_regloc_offset = false, memory_type = "Const", placement = 64 : i64, set = @b1, size = 8 : i64, sym_name = "b1.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "w2", shape = array<i64: 4>, sym_name = "w2", tensor_class = "NeuronWeightTensor"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 128 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 2 : i64, is_regloc_offset = false, memory_type = "Const", placement = 128 : i64, set = @w2, size = 16 : i64, sym_name = "w2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", hlo_value = "b2", shape = array<i64: 2>, sym_name = "b2", tensor_class = "ImmutableParameter"} : () -> ()
    "bir.memloc"() {alignment = 64 : i64, const_ap_offset = 192 : i64, const_file = @consts.float32.bin, const_sub_tensor_id = 3 : i64, is_regloc_offset = false, memory_type = "Const", placement = 192 : i64, set = @b2, size = 8 : i64, sym_name = "b2.0"} : () -> ()
    "bir.memloc_set"() {dtype = "float32", shape = array<i64: 4>, sym_name = "r", tensor_class = "OutputTensor"} : () -> ()
    "bir.memloc"() {alignment = 4 : i64, memory_type = "ExternalOutput", placement = 0 : i64, set = @r, size = 16 : i64, sym_name = "r.0"} : () -> ()
    "bir.kernel"() {const_files = [@consts.float32.bin], program = @m::@main, sym_name = "kernel"} : () -> ()
    return
  }
}
