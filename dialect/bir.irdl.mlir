// The bir dialect: weightpack's BIR const-tensor model, generic form only.
// Loaded by opt at run time (the text is compiled in) and by
// `mlir-opt --irdl-file=`. Ops live in a func.func marked {bir.function}
// (IRDL ops cannot be terminators, so they take no regions) and refer to
// each other by name. The required attributes are declared; the optional
// ones (source/constant/data of a const file, the const fields of a
// location) are documented in the README.
irdl.dialect @bir {
  // One physical constant file: {sym_name, size} and one of source (a
  // .npy payload region), constant (an HLO constant's value) or data.
  irdl.operation @const_file {
    %name = irdl.base "#builtin.string"
    %size = irdl.base "#builtin.integer"
    irdl.attributes {"sym_name" = %name, "size" = %size}
  }
  // The logical tensor: name, TensorClass, dtype, shape.
  irdl.operation @memloc_set {
    %name = irdl.base "#builtin.string"
    %class = irdl.base "#builtin.string"
    %dtype = irdl.base "#builtin.string"
    %shape = irdl.base "#builtin.dense_array"
    irdl.attributes {"sym_name" = %name, "tensor_class" = %class, "dtype" = %dtype,
                     "shape" = %shape}
  }
  // A memory location of a set: memory type, size, alignment, placement;
  // const-bearing ones add const_file, const_ap_offset, const_sub_tensor_id
  // and is_regloc_offset.
  irdl.operation @memloc {
    %name = irdl.base "#builtin.string"
    %set = irdl.base "#builtin.symbol_ref"
    %memtype = irdl.base "#builtin.string"
    %size = irdl.base "#builtin.integer"
    irdl.attributes {"sym_name" = %name, "set" = %set, "memory_type" = %memtype,
                     "size" = %size}
  }
  // A function's const tensors, a column per field (see
  // dialect/wp_bir_table.h): row K is the set names[K], hlo_value names[K],
  // and its one memory location names[K].0.
  irdl.operation @const_table {
    // one constraint value per attribute: IRDL requires the attributes a
    // value constrains to be equal
    %memtype = irdl.base "#builtin.string"
    %names = irdl.base "#builtin.array"
    %classes = irdl.base "#builtin.array"
    %dtypes = irdl.base "#builtin.array"
    %shapes = irdl.base "#builtin.array"
    %files = irdl.base "#builtin.array"
    %sizes = irdl.base "#builtin.dense_array"
    %aligns = irdl.base "#builtin.dense_array"
    %places = irdl.base "#builtin.dense_array"
    %offsets = irdl.base "#builtin.dense_array"
    %ids = irdl.base "#builtin.dense_array"
    irdl.attributes {"memory_type" = %memtype, "names" = %names, "tensor_classes" = %classes,
                     "dtypes" = %dtypes, "shapes" = %shapes, "const_files" = %files,
                     "sizes" = %sizes, "alignments" = %aligns, "placements" = %places,
                     "const_ap_offsets" = %offsets, "const_sub_tensor_ids" = %ids}
  }
  // The kernel instruction: owns the function's constant files and points
  // at the HLO program that keeps the compute graph.
  irdl.operation @kernel {
    %name = irdl.base "#builtin.string"
    %files = irdl.base "#builtin.array"
    irdl.attributes {"sym_name" = %name, "const_files" = %files}
  }
}
