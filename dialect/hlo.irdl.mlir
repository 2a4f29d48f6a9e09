// The hlo dialect: one op per XLA HLO opcode, generic form only.
// Generated from dialect/wp_hlo_opcodes.c (`opt --print-irdl=hlo`);
// do not edit by hand. Load it with `mlir-opt --irdl-file=`.
irdl.dialect @hlo {
  // XLA's TOKEN element type.
  irdl.type @token {
  }
  // XLA's OPAQUE_TYPE element type.
  irdl.type @opaque {
  }
  // XLA's F8E3M4, F4E2M1FN and F8E8M0FNU: float types MLIR 19 has
  // no builtin for. A tensor element holds one byte (F4E2M1FN in
  // its low 4 bits), as in XLA's literals.
  irdl.type @f8e3m4 {
  }
  irdl.type @f4e2m1fn {
  }
  irdl.type @f8e8m0fnu {
  }
  irdl.operation @abs {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @acos {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @acosh {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @add {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @add_dependency {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @after_all {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0)
    irdl.results(%r)
  }
  irdl.operation @all_gather {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @all_gather_done {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @all_gather_start {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @all_reduce {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @all_reduce_done {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @all_reduce_start {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @all_to_all {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @and {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @asin {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @asinh {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @async_done {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @async_start {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @async_update {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @atan2 {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @atanh {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @batch_norm_grad {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1, %o2, %o3, %o4)
    irdl.results(%r)
  }
  irdl.operation @batch_norm_inference {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1, %o2, %o3, %o4)
    irdl.results(%r)
  }
  irdl.operation @batch_norm_training {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1, %o2)
    irdl.results(%r)
  }
  irdl.operation @bitcast {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @bitcast_convert {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @broadcast {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @call {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @cbrt {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @ceil {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @cholesky {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @clamp {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1, %o2)
    irdl.results(%r)
  }
  irdl.operation @collective_broadcast {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @collective_permute {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @collective_permute_done {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @collective_permute_start {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @collective_reduce {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @compare {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @complex {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @concatenate {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @conditional {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @constant {
    %r = irdl.any
    irdl.results(%r)
  }
  irdl.operation @convert {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @convolution {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @copy {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @copy_done {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @copy_start {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @cosh {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @cosine {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @count_leading_zeros {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @custom_call {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @divide {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @domain {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @dot {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @dynamic_reshape {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, variadic %o1)
    irdl.results(%r)
  }
  irdl.operation @dynamic_slice {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, variadic %o1)
    irdl.results(%r)
  }
  irdl.operation @dynamic_update_slice {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1, variadic %o2)
    irdl.results(%r)
  }
  irdl.operation @erf {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @exponential {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @exponential_minus_one {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @fft {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @floor {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @fusion {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @gather {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @get_dimension_size {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @get_tuple_element {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @imag {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @infeed {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @iota {
    %r = irdl.any
    irdl.results(%r)
  }
  irdl.operation @is_finite {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @log {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @log_plus_one {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @logistic {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @map {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @maximum {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @minimum {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @multiply {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @negate {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @not {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @opt_barrier {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @or {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @outfeed {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @pad {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @partition_id {
    %r = irdl.any
    irdl.results(%r)
  }
  irdl.operation @popcnt {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @power {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @ragged_all_to_all {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @ragged_dot {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1, %o2)
    irdl.results(%r)
  }
  irdl.operation @real {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @recv {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @recv_done {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @reduce {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @reduce_precision {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @reduce_scatter {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @reduce_window {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @remainder {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @replica_id {
    %r = irdl.any
    irdl.results(%r)
  }
  irdl.operation @reshape {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @reverse {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @rng {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @rng_bit_generator {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @rng_get_and_update_state {
    %r = irdl.any
    irdl.results(%r)
  }
  irdl.operation @round_nearest_afz {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @round_nearest_even {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @rsqrt {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @scaled_dot {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1, %o2, %o3)
    irdl.results(%r)
  }
  irdl.operation @scan {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @scatter {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @select {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1, %o2)
    irdl.results(%r)
  }
  irdl.operation @select_and_scatter {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1, %o2)
    irdl.results(%r)
  }
  irdl.operation @send {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @send_done {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @set_dimension_size {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @shift_left {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @shift_right_arithmetic {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @shift_right_logical {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @sign {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @sine {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @sinh {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @slice {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @sort {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @sqrt {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @stochastic_convert {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @subtract {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @tan {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @tanh {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @topk {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @transpose {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @triangular_solve {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  irdl.operation @tuple {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  irdl.operation @while {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
    irdl.results(%r)
  }
  irdl.operation @xor {
    %o0 = irdl.any
    %o1 = irdl.any
    %r = irdl.any
    irdl.operands(%o0, %o1)
    irdl.results(%r)
  }
  // Any other opcode, or an operand count its opcode does not take.
  irdl.operation @op {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31)
    irdl.results(%r)
  }
  // Any opcode whose operands change type more than 32 times.
  irdl.operation @op_wide {
    %o0 = irdl.any
    %o1 = irdl.any
    %o2 = irdl.any
    %o3 = irdl.any
    %o4 = irdl.any
    %o5 = irdl.any
    %o6 = irdl.any
    %o7 = irdl.any
    %o8 = irdl.any
    %o9 = irdl.any
    %o10 = irdl.any
    %o11 = irdl.any
    %o12 = irdl.any
    %o13 = irdl.any
    %o14 = irdl.any
    %o15 = irdl.any
    %o16 = irdl.any
    %o17 = irdl.any
    %o18 = irdl.any
    %o19 = irdl.any
    %o20 = irdl.any
    %o21 = irdl.any
    %o22 = irdl.any
    %o23 = irdl.any
    %o24 = irdl.any
    %o25 = irdl.any
    %o26 = irdl.any
    %o27 = irdl.any
    %o28 = irdl.any
    %o29 = irdl.any
    %o30 = irdl.any
    %o31 = irdl.any
    %o32 = irdl.any
    %o33 = irdl.any
    %o34 = irdl.any
    %o35 = irdl.any
    %o36 = irdl.any
    %o37 = irdl.any
    %o38 = irdl.any
    %o39 = irdl.any
    %o40 = irdl.any
    %o41 = irdl.any
    %o42 = irdl.any
    %o43 = irdl.any
    %o44 = irdl.any
    %o45 = irdl.any
    %o46 = irdl.any
    %o47 = irdl.any
    %o48 = irdl.any
    %o49 = irdl.any
    %o50 = irdl.any
    %o51 = irdl.any
    %o52 = irdl.any
    %o53 = irdl.any
    %o54 = irdl.any
    %o55 = irdl.any
    %o56 = irdl.any
    %o57 = irdl.any
    %o58 = irdl.any
    %o59 = irdl.any
    %o60 = irdl.any
    %o61 = irdl.any
    %o62 = irdl.any
    %o63 = irdl.any
    %o64 = irdl.any
    %o65 = irdl.any
    %o66 = irdl.any
    %o67 = irdl.any
    %o68 = irdl.any
    %o69 = irdl.any
    %o70 = irdl.any
    %o71 = irdl.any
    %o72 = irdl.any
    %o73 = irdl.any
    %o74 = irdl.any
    %o75 = irdl.any
    %o76 = irdl.any
    %o77 = irdl.any
    %o78 = irdl.any
    %o79 = irdl.any
    %o80 = irdl.any
    %o81 = irdl.any
    %o82 = irdl.any
    %o83 = irdl.any
    %o84 = irdl.any
    %o85 = irdl.any
    %o86 = irdl.any
    %o87 = irdl.any
    %o88 = irdl.any
    %o89 = irdl.any
    %o90 = irdl.any
    %o91 = irdl.any
    %o92 = irdl.any
    %o93 = irdl.any
    %o94 = irdl.any
    %o95 = irdl.any
    %o96 = irdl.any
    %o97 = irdl.any
    %o98 = irdl.any
    %o99 = irdl.any
    %o100 = irdl.any
    %o101 = irdl.any
    %o102 = irdl.any
    %o103 = irdl.any
    %o104 = irdl.any
    %o105 = irdl.any
    %o106 = irdl.any
    %o107 = irdl.any
    %o108 = irdl.any
    %o109 = irdl.any
    %o110 = irdl.any
    %o111 = irdl.any
    %o112 = irdl.any
    %o113 = irdl.any
    %o114 = irdl.any
    %o115 = irdl.any
    %o116 = irdl.any
    %o117 = irdl.any
    %o118 = irdl.any
    %o119 = irdl.any
    %o120 = irdl.any
    %o121 = irdl.any
    %o122 = irdl.any
    %o123 = irdl.any
    %o124 = irdl.any
    %o125 = irdl.any
    %o126 = irdl.any
    %o127 = irdl.any
    %o128 = irdl.any
    %o129 = irdl.any
    %o130 = irdl.any
    %o131 = irdl.any
    %o132 = irdl.any
    %o133 = irdl.any
    %o134 = irdl.any
    %o135 = irdl.any
    %o136 = irdl.any
    %o137 = irdl.any
    %o138 = irdl.any
    %o139 = irdl.any
    %o140 = irdl.any
    %o141 = irdl.any
    %o142 = irdl.any
    %o143 = irdl.any
    %o144 = irdl.any
    %o145 = irdl.any
    %o146 = irdl.any
    %o147 = irdl.any
    %o148 = irdl.any
    %o149 = irdl.any
    %o150 = irdl.any
    %o151 = irdl.any
    %o152 = irdl.any
    %o153 = irdl.any
    %o154 = irdl.any
    %o155 = irdl.any
    %o156 = irdl.any
    %o157 = irdl.any
    %o158 = irdl.any
    %o159 = irdl.any
    %o160 = irdl.any
    %o161 = irdl.any
    %o162 = irdl.any
    %o163 = irdl.any
    %o164 = irdl.any
    %o165 = irdl.any
    %o166 = irdl.any
    %o167 = irdl.any
    %o168 = irdl.any
    %o169 = irdl.any
    %o170 = irdl.any
    %o171 = irdl.any
    %o172 = irdl.any
    %o173 = irdl.any
    %o174 = irdl.any
    %o175 = irdl.any
    %o176 = irdl.any
    %o177 = irdl.any
    %o178 = irdl.any
    %o179 = irdl.any
    %o180 = irdl.any
    %o181 = irdl.any
    %o182 = irdl.any
    %o183 = irdl.any
    %o184 = irdl.any
    %o185 = irdl.any
    %o186 = irdl.any
    %o187 = irdl.any
    %o188 = irdl.any
    %o189 = irdl.any
    %o190 = irdl.any
    %o191 = irdl.any
    %o192 = irdl.any
    %o193 = irdl.any
    %o194 = irdl.any
    %o195 = irdl.any
    %o196 = irdl.any
    %o197 = irdl.any
    %o198 = irdl.any
    %o199 = irdl.any
    %o200 = irdl.any
    %o201 = irdl.any
    %o202 = irdl.any
    %o203 = irdl.any
    %o204 = irdl.any
    %o205 = irdl.any
    %o206 = irdl.any
    %o207 = irdl.any
    %o208 = irdl.any
    %o209 = irdl.any
    %o210 = irdl.any
    %o211 = irdl.any
    %o212 = irdl.any
    %o213 = irdl.any
    %o214 = irdl.any
    %o215 = irdl.any
    %o216 = irdl.any
    %o217 = irdl.any
    %o218 = irdl.any
    %o219 = irdl.any
    %o220 = irdl.any
    %o221 = irdl.any
    %o222 = irdl.any
    %o223 = irdl.any
    %o224 = irdl.any
    %o225 = irdl.any
    %o226 = irdl.any
    %o227 = irdl.any
    %o228 = irdl.any
    %o229 = irdl.any
    %o230 = irdl.any
    %o231 = irdl.any
    %o232 = irdl.any
    %o233 = irdl.any
    %o234 = irdl.any
    %o235 = irdl.any
    %o236 = irdl.any
    %o237 = irdl.any
    %o238 = irdl.any
    %o239 = irdl.any
    %o240 = irdl.any
    %o241 = irdl.any
    %o242 = irdl.any
    %o243 = irdl.any
    %o244 = irdl.any
    %o245 = irdl.any
    %o246 = irdl.any
    %o247 = irdl.any
    %o248 = irdl.any
    %o249 = irdl.any
    %o250 = irdl.any
    %o251 = irdl.any
    %o252 = irdl.any
    %o253 = irdl.any
    %o254 = irdl.any
    %o255 = irdl.any
    %o256 = irdl.any
    %o257 = irdl.any
    %o258 = irdl.any
    %o259 = irdl.any
    %o260 = irdl.any
    %o261 = irdl.any
    %o262 = irdl.any
    %o263 = irdl.any
    %o264 = irdl.any
    %o265 = irdl.any
    %o266 = irdl.any
    %o267 = irdl.any
    %o268 = irdl.any
    %o269 = irdl.any
    %o270 = irdl.any
    %o271 = irdl.any
    %o272 = irdl.any
    %o273 = irdl.any
    %o274 = irdl.any
    %o275 = irdl.any
    %o276 = irdl.any
    %o277 = irdl.any
    %o278 = irdl.any
    %o279 = irdl.any
    %o280 = irdl.any
    %o281 = irdl.any
    %o282 = irdl.any
    %o283 = irdl.any
    %o284 = irdl.any
    %o285 = irdl.any
    %o286 = irdl.any
    %o287 = irdl.any
    %o288 = irdl.any
    %o289 = irdl.any
    %o290 = irdl.any
    %o291 = irdl.any
    %o292 = irdl.any
    %o293 = irdl.any
    %o294 = irdl.any
    %o295 = irdl.any
    %o296 = irdl.any
    %o297 = irdl.any
    %o298 = irdl.any
    %o299 = irdl.any
    %o300 = irdl.any
    %o301 = irdl.any
    %o302 = irdl.any
    %o303 = irdl.any
    %o304 = irdl.any
    %o305 = irdl.any
    %o306 = irdl.any
    %o307 = irdl.any
    %o308 = irdl.any
    %o309 = irdl.any
    %o310 = irdl.any
    %o311 = irdl.any
    %o312 = irdl.any
    %o313 = irdl.any
    %o314 = irdl.any
    %o315 = irdl.any
    %o316 = irdl.any
    %o317 = irdl.any
    %o318 = irdl.any
    %o319 = irdl.any
    %o320 = irdl.any
    %o321 = irdl.any
    %o322 = irdl.any
    %o323 = irdl.any
    %o324 = irdl.any
    %o325 = irdl.any
    %o326 = irdl.any
    %o327 = irdl.any
    %o328 = irdl.any
    %o329 = irdl.any
    %o330 = irdl.any
    %o331 = irdl.any
    %o332 = irdl.any
    %o333 = irdl.any
    %o334 = irdl.any
    %o335 = irdl.any
    %o336 = irdl.any
    %o337 = irdl.any
    %o338 = irdl.any
    %o339 = irdl.any
    %o340 = irdl.any
    %o341 = irdl.any
    %o342 = irdl.any
    %o343 = irdl.any
    %o344 = irdl.any
    %o345 = irdl.any
    %o346 = irdl.any
    %o347 = irdl.any
    %o348 = irdl.any
    %o349 = irdl.any
    %o350 = irdl.any
    %o351 = irdl.any
    %o352 = irdl.any
    %o353 = irdl.any
    %o354 = irdl.any
    %o355 = irdl.any
    %o356 = irdl.any
    %o357 = irdl.any
    %o358 = irdl.any
    %o359 = irdl.any
    %o360 = irdl.any
    %o361 = irdl.any
    %o362 = irdl.any
    %o363 = irdl.any
    %o364 = irdl.any
    %o365 = irdl.any
    %o366 = irdl.any
    %o367 = irdl.any
    %o368 = irdl.any
    %o369 = irdl.any
    %o370 = irdl.any
    %o371 = irdl.any
    %o372 = irdl.any
    %o373 = irdl.any
    %o374 = irdl.any
    %o375 = irdl.any
    %o376 = irdl.any
    %o377 = irdl.any
    %o378 = irdl.any
    %o379 = irdl.any
    %o380 = irdl.any
    %o381 = irdl.any
    %o382 = irdl.any
    %o383 = irdl.any
    %o384 = irdl.any
    %o385 = irdl.any
    %o386 = irdl.any
    %o387 = irdl.any
    %o388 = irdl.any
    %o389 = irdl.any
    %o390 = irdl.any
    %o391 = irdl.any
    %o392 = irdl.any
    %o393 = irdl.any
    %o394 = irdl.any
    %o395 = irdl.any
    %o396 = irdl.any
    %o397 = irdl.any
    %o398 = irdl.any
    %o399 = irdl.any
    %o400 = irdl.any
    %o401 = irdl.any
    %o402 = irdl.any
    %o403 = irdl.any
    %o404 = irdl.any
    %o405 = irdl.any
    %o406 = irdl.any
    %o407 = irdl.any
    %o408 = irdl.any
    %o409 = irdl.any
    %o410 = irdl.any
    %o411 = irdl.any
    %o412 = irdl.any
    %o413 = irdl.any
    %o414 = irdl.any
    %o415 = irdl.any
    %o416 = irdl.any
    %o417 = irdl.any
    %o418 = irdl.any
    %o419 = irdl.any
    %o420 = irdl.any
    %o421 = irdl.any
    %o422 = irdl.any
    %o423 = irdl.any
    %o424 = irdl.any
    %o425 = irdl.any
    %o426 = irdl.any
    %o427 = irdl.any
    %o428 = irdl.any
    %o429 = irdl.any
    %o430 = irdl.any
    %o431 = irdl.any
    %o432 = irdl.any
    %o433 = irdl.any
    %o434 = irdl.any
    %o435 = irdl.any
    %o436 = irdl.any
    %o437 = irdl.any
    %o438 = irdl.any
    %o439 = irdl.any
    %o440 = irdl.any
    %o441 = irdl.any
    %o442 = irdl.any
    %o443 = irdl.any
    %o444 = irdl.any
    %o445 = irdl.any
    %o446 = irdl.any
    %o447 = irdl.any
    %o448 = irdl.any
    %o449 = irdl.any
    %o450 = irdl.any
    %o451 = irdl.any
    %o452 = irdl.any
    %o453 = irdl.any
    %o454 = irdl.any
    %o455 = irdl.any
    %o456 = irdl.any
    %o457 = irdl.any
    %o458 = irdl.any
    %o459 = irdl.any
    %o460 = irdl.any
    %o461 = irdl.any
    %o462 = irdl.any
    %o463 = irdl.any
    %o464 = irdl.any
    %o465 = irdl.any
    %o466 = irdl.any
    %o467 = irdl.any
    %o468 = irdl.any
    %o469 = irdl.any
    %o470 = irdl.any
    %o471 = irdl.any
    %o472 = irdl.any
    %o473 = irdl.any
    %o474 = irdl.any
    %o475 = irdl.any
    %o476 = irdl.any
    %o477 = irdl.any
    %o478 = irdl.any
    %o479 = irdl.any
    %o480 = irdl.any
    %o481 = irdl.any
    %o482 = irdl.any
    %o483 = irdl.any
    %o484 = irdl.any
    %o485 = irdl.any
    %o486 = irdl.any
    %o487 = irdl.any
    %o488 = irdl.any
    %o489 = irdl.any
    %o490 = irdl.any
    %o491 = irdl.any
    %o492 = irdl.any
    %o493 = irdl.any
    %o494 = irdl.any
    %o495 = irdl.any
    %o496 = irdl.any
    %o497 = irdl.any
    %o498 = irdl.any
    %o499 = irdl.any
    %o500 = irdl.any
    %o501 = irdl.any
    %o502 = irdl.any
    %o503 = irdl.any
    %o504 = irdl.any
    %o505 = irdl.any
    %o506 = irdl.any
    %o507 = irdl.any
    %o508 = irdl.any
    %o509 = irdl.any
    %o510 = irdl.any
    %o511 = irdl.any
    %o512 = irdl.any
    %o513 = irdl.any
    %o514 = irdl.any
    %o515 = irdl.any
    %o516 = irdl.any
    %o517 = irdl.any
    %o518 = irdl.any
    %o519 = irdl.any
    %o520 = irdl.any
    %o521 = irdl.any
    %o522 = irdl.any
    %o523 = irdl.any
    %o524 = irdl.any
    %o525 = irdl.any
    %o526 = irdl.any
    %o527 = irdl.any
    %o528 = irdl.any
    %o529 = irdl.any
    %o530 = irdl.any
    %o531 = irdl.any
    %o532 = irdl.any
    %o533 = irdl.any
    %o534 = irdl.any
    %o535 = irdl.any
    %o536 = irdl.any
    %o537 = irdl.any
    %o538 = irdl.any
    %o539 = irdl.any
    %o540 = irdl.any
    %o541 = irdl.any
    %o542 = irdl.any
    %o543 = irdl.any
    %o544 = irdl.any
    %o545 = irdl.any
    %o546 = irdl.any
    %o547 = irdl.any
    %o548 = irdl.any
    %o549 = irdl.any
    %o550 = irdl.any
    %o551 = irdl.any
    %o552 = irdl.any
    %o553 = irdl.any
    %o554 = irdl.any
    %o555 = irdl.any
    %o556 = irdl.any
    %o557 = irdl.any
    %o558 = irdl.any
    %o559 = irdl.any
    %o560 = irdl.any
    %o561 = irdl.any
    %o562 = irdl.any
    %o563 = irdl.any
    %o564 = irdl.any
    %o565 = irdl.any
    %o566 = irdl.any
    %o567 = irdl.any
    %o568 = irdl.any
    %o569 = irdl.any
    %o570 = irdl.any
    %o571 = irdl.any
    %o572 = irdl.any
    %o573 = irdl.any
    %o574 = irdl.any
    %o575 = irdl.any
    %o576 = irdl.any
    %o577 = irdl.any
    %o578 = irdl.any
    %o579 = irdl.any
    %o580 = irdl.any
    %o581 = irdl.any
    %o582 = irdl.any
    %o583 = irdl.any
    %o584 = irdl.any
    %o585 = irdl.any
    %o586 = irdl.any
    %o587 = irdl.any
    %o588 = irdl.any
    %o589 = irdl.any
    %o590 = irdl.any
    %o591 = irdl.any
    %o592 = irdl.any
    %o593 = irdl.any
    %o594 = irdl.any
    %o595 = irdl.any
    %o596 = irdl.any
    %o597 = irdl.any
    %o598 = irdl.any
    %o599 = irdl.any
    %o600 = irdl.any
    %o601 = irdl.any
    %o602 = irdl.any
    %o603 = irdl.any
    %o604 = irdl.any
    %o605 = irdl.any
    %o606 = irdl.any
    %o607 = irdl.any
    %o608 = irdl.any
    %o609 = irdl.any
    %o610 = irdl.any
    %o611 = irdl.any
    %o612 = irdl.any
    %o613 = irdl.any
    %o614 = irdl.any
    %o615 = irdl.any
    %o616 = irdl.any
    %o617 = irdl.any
    %o618 = irdl.any
    %o619 = irdl.any
    %o620 = irdl.any
    %o621 = irdl.any
    %o622 = irdl.any
    %o623 = irdl.any
    %o624 = irdl.any
    %o625 = irdl.any
    %o626 = irdl.any
    %o627 = irdl.any
    %o628 = irdl.any
    %o629 = irdl.any
    %o630 = irdl.any
    %o631 = irdl.any
    %o632 = irdl.any
    %o633 = irdl.any
    %o634 = irdl.any
    %o635 = irdl.any
    %o636 = irdl.any
    %o637 = irdl.any
    %o638 = irdl.any
    %o639 = irdl.any
    %o640 = irdl.any
    %o641 = irdl.any
    %o642 = irdl.any
    %o643 = irdl.any
    %o644 = irdl.any
    %o645 = irdl.any
    %o646 = irdl.any
    %o647 = irdl.any
    %o648 = irdl.any
    %o649 = irdl.any
    %o650 = irdl.any
    %o651 = irdl.any
    %o652 = irdl.any
    %o653 = irdl.any
    %o654 = irdl.any
    %o655 = irdl.any
    %o656 = irdl.any
    %o657 = irdl.any
    %o658 = irdl.any
    %o659 = irdl.any
    %o660 = irdl.any
    %o661 = irdl.any
    %o662 = irdl.any
    %o663 = irdl.any
    %o664 = irdl.any
    %o665 = irdl.any
    %o666 = irdl.any
    %o667 = irdl.any
    %o668 = irdl.any
    %o669 = irdl.any
    %o670 = irdl.any
    %o671 = irdl.any
    %o672 = irdl.any
    %o673 = irdl.any
    %o674 = irdl.any
    %o675 = irdl.any
    %o676 = irdl.any
    %o677 = irdl.any
    %o678 = irdl.any
    %o679 = irdl.any
    %o680 = irdl.any
    %o681 = irdl.any
    %o682 = irdl.any
    %o683 = irdl.any
    %o684 = irdl.any
    %o685 = irdl.any
    %o686 = irdl.any
    %o687 = irdl.any
    %o688 = irdl.any
    %o689 = irdl.any
    %o690 = irdl.any
    %o691 = irdl.any
    %o692 = irdl.any
    %o693 = irdl.any
    %o694 = irdl.any
    %o695 = irdl.any
    %o696 = irdl.any
    %o697 = irdl.any
    %o698 = irdl.any
    %o699 = irdl.any
    %o700 = irdl.any
    %o701 = irdl.any
    %o702 = irdl.any
    %o703 = irdl.any
    %o704 = irdl.any
    %o705 = irdl.any
    %o706 = irdl.any
    %o707 = irdl.any
    %o708 = irdl.any
    %o709 = irdl.any
    %o710 = irdl.any
    %o711 = irdl.any
    %o712 = irdl.any
    %o713 = irdl.any
    %o714 = irdl.any
    %o715 = irdl.any
    %o716 = irdl.any
    %o717 = irdl.any
    %o718 = irdl.any
    %o719 = irdl.any
    %o720 = irdl.any
    %o721 = irdl.any
    %o722 = irdl.any
    %o723 = irdl.any
    %o724 = irdl.any
    %o725 = irdl.any
    %o726 = irdl.any
    %o727 = irdl.any
    %o728 = irdl.any
    %o729 = irdl.any
    %o730 = irdl.any
    %o731 = irdl.any
    %o732 = irdl.any
    %o733 = irdl.any
    %o734 = irdl.any
    %o735 = irdl.any
    %o736 = irdl.any
    %o737 = irdl.any
    %o738 = irdl.any
    %o739 = irdl.any
    %o740 = irdl.any
    %o741 = irdl.any
    %o742 = irdl.any
    %o743 = irdl.any
    %o744 = irdl.any
    %o745 = irdl.any
    %o746 = irdl.any
    %o747 = irdl.any
    %o748 = irdl.any
    %o749 = irdl.any
    %o750 = irdl.any
    %o751 = irdl.any
    %o752 = irdl.any
    %o753 = irdl.any
    %o754 = irdl.any
    %o755 = irdl.any
    %o756 = irdl.any
    %o757 = irdl.any
    %o758 = irdl.any
    %o759 = irdl.any
    %o760 = irdl.any
    %o761 = irdl.any
    %o762 = irdl.any
    %o763 = irdl.any
    %o764 = irdl.any
    %o765 = irdl.any
    %o766 = irdl.any
    %o767 = irdl.any
    %o768 = irdl.any
    %o769 = irdl.any
    %o770 = irdl.any
    %o771 = irdl.any
    %o772 = irdl.any
    %o773 = irdl.any
    %o774 = irdl.any
    %o775 = irdl.any
    %o776 = irdl.any
    %o777 = irdl.any
    %o778 = irdl.any
    %o779 = irdl.any
    %o780 = irdl.any
    %o781 = irdl.any
    %o782 = irdl.any
    %o783 = irdl.any
    %o784 = irdl.any
    %o785 = irdl.any
    %o786 = irdl.any
    %o787 = irdl.any
    %o788 = irdl.any
    %o789 = irdl.any
    %o790 = irdl.any
    %o791 = irdl.any
    %o792 = irdl.any
    %o793 = irdl.any
    %o794 = irdl.any
    %o795 = irdl.any
    %o796 = irdl.any
    %o797 = irdl.any
    %o798 = irdl.any
    %o799 = irdl.any
    %o800 = irdl.any
    %o801 = irdl.any
    %o802 = irdl.any
    %o803 = irdl.any
    %o804 = irdl.any
    %o805 = irdl.any
    %o806 = irdl.any
    %o807 = irdl.any
    %o808 = irdl.any
    %o809 = irdl.any
    %o810 = irdl.any
    %o811 = irdl.any
    %o812 = irdl.any
    %o813 = irdl.any
    %o814 = irdl.any
    %o815 = irdl.any
    %o816 = irdl.any
    %o817 = irdl.any
    %o818 = irdl.any
    %o819 = irdl.any
    %o820 = irdl.any
    %o821 = irdl.any
    %o822 = irdl.any
    %o823 = irdl.any
    %o824 = irdl.any
    %o825 = irdl.any
    %o826 = irdl.any
    %o827 = irdl.any
    %o828 = irdl.any
    %o829 = irdl.any
    %o830 = irdl.any
    %o831 = irdl.any
    %o832 = irdl.any
    %o833 = irdl.any
    %o834 = irdl.any
    %o835 = irdl.any
    %o836 = irdl.any
    %o837 = irdl.any
    %o838 = irdl.any
    %o839 = irdl.any
    %o840 = irdl.any
    %o841 = irdl.any
    %o842 = irdl.any
    %o843 = irdl.any
    %o844 = irdl.any
    %o845 = irdl.any
    %o846 = irdl.any
    %o847 = irdl.any
    %o848 = irdl.any
    %o849 = irdl.any
    %o850 = irdl.any
    %o851 = irdl.any
    %o852 = irdl.any
    %o853 = irdl.any
    %o854 = irdl.any
    %o855 = irdl.any
    %o856 = irdl.any
    %o857 = irdl.any
    %o858 = irdl.any
    %o859 = irdl.any
    %o860 = irdl.any
    %o861 = irdl.any
    %o862 = irdl.any
    %o863 = irdl.any
    %o864 = irdl.any
    %o865 = irdl.any
    %o866 = irdl.any
    %o867 = irdl.any
    %o868 = irdl.any
    %o869 = irdl.any
    %o870 = irdl.any
    %o871 = irdl.any
    %o872 = irdl.any
    %o873 = irdl.any
    %o874 = irdl.any
    %o875 = irdl.any
    %o876 = irdl.any
    %o877 = irdl.any
    %o878 = irdl.any
    %o879 = irdl.any
    %o880 = irdl.any
    %o881 = irdl.any
    %o882 = irdl.any
    %o883 = irdl.any
    %o884 = irdl.any
    %o885 = irdl.any
    %o886 = irdl.any
    %o887 = irdl.any
    %o888 = irdl.any
    %o889 = irdl.any
    %o890 = irdl.any
    %o891 = irdl.any
    %o892 = irdl.any
    %o893 = irdl.any
    %o894 = irdl.any
    %o895 = irdl.any
    %o896 = irdl.any
    %o897 = irdl.any
    %o898 = irdl.any
    %o899 = irdl.any
    %o900 = irdl.any
    %o901 = irdl.any
    %o902 = irdl.any
    %o903 = irdl.any
    %o904 = irdl.any
    %o905 = irdl.any
    %o906 = irdl.any
    %o907 = irdl.any
    %o908 = irdl.any
    %o909 = irdl.any
    %o910 = irdl.any
    %o911 = irdl.any
    %o912 = irdl.any
    %o913 = irdl.any
    %o914 = irdl.any
    %o915 = irdl.any
    %o916 = irdl.any
    %o917 = irdl.any
    %o918 = irdl.any
    %o919 = irdl.any
    %o920 = irdl.any
    %o921 = irdl.any
    %o922 = irdl.any
    %o923 = irdl.any
    %o924 = irdl.any
    %o925 = irdl.any
    %o926 = irdl.any
    %o927 = irdl.any
    %o928 = irdl.any
    %o929 = irdl.any
    %o930 = irdl.any
    %o931 = irdl.any
    %o932 = irdl.any
    %o933 = irdl.any
    %o934 = irdl.any
    %o935 = irdl.any
    %o936 = irdl.any
    %o937 = irdl.any
    %o938 = irdl.any
    %o939 = irdl.any
    %o940 = irdl.any
    %o941 = irdl.any
    %o942 = irdl.any
    %o943 = irdl.any
    %o944 = irdl.any
    %o945 = irdl.any
    %o946 = irdl.any
    %o947 = irdl.any
    %o948 = irdl.any
    %o949 = irdl.any
    %o950 = irdl.any
    %o951 = irdl.any
    %o952 = irdl.any
    %o953 = irdl.any
    %o954 = irdl.any
    %o955 = irdl.any
    %o956 = irdl.any
    %o957 = irdl.any
    %o958 = irdl.any
    %o959 = irdl.any
    %o960 = irdl.any
    %o961 = irdl.any
    %o962 = irdl.any
    %o963 = irdl.any
    %o964 = irdl.any
    %o965 = irdl.any
    %o966 = irdl.any
    %o967 = irdl.any
    %o968 = irdl.any
    %o969 = irdl.any
    %o970 = irdl.any
    %o971 = irdl.any
    %o972 = irdl.any
    %o973 = irdl.any
    %o974 = irdl.any
    %o975 = irdl.any
    %o976 = irdl.any
    %o977 = irdl.any
    %o978 = irdl.any
    %o979 = irdl.any
    %o980 = irdl.any
    %o981 = irdl.any
    %o982 = irdl.any
    %o983 = irdl.any
    %o984 = irdl.any
    %o985 = irdl.any
    %o986 = irdl.any
    %o987 = irdl.any
    %o988 = irdl.any
    %o989 = irdl.any
    %o990 = irdl.any
    %o991 = irdl.any
    %o992 = irdl.any
    %o993 = irdl.any
    %o994 = irdl.any
    %o995 = irdl.any
    %o996 = irdl.any
    %o997 = irdl.any
    %o998 = irdl.any
    %o999 = irdl.any
    %o1000 = irdl.any
    %o1001 = irdl.any
    %o1002 = irdl.any
    %o1003 = irdl.any
    %o1004 = irdl.any
    %o1005 = irdl.any
    %o1006 = irdl.any
    %o1007 = irdl.any
    %o1008 = irdl.any
    %o1009 = irdl.any
    %o1010 = irdl.any
    %o1011 = irdl.any
    %o1012 = irdl.any
    %o1013 = irdl.any
    %o1014 = irdl.any
    %o1015 = irdl.any
    %o1016 = irdl.any
    %o1017 = irdl.any
    %o1018 = irdl.any
    %o1019 = irdl.any
    %o1020 = irdl.any
    %o1021 = irdl.any
    %o1022 = irdl.any
    %o1023 = irdl.any
    %r = irdl.any
    irdl.operands(variadic %o0, variadic %o1, variadic %o2, variadic %o3, variadic %o4, variadic %o5, variadic %o6, variadic %o7, variadic %o8, variadic %o9, variadic %o10, variadic %o11, variadic %o12, variadic %o13, variadic %o14, variadic %o15, variadic %o16, variadic %o17, variadic %o18, variadic %o19, variadic %o20, variadic %o21, variadic %o22, variadic %o23, variadic %o24, variadic %o25, variadic %o26, variadic %o27, variadic %o28, variadic %o29, variadic %o30, variadic %o31, variadic %o32, variadic %o33, variadic %o34, variadic %o35, variadic %o36, variadic %o37, variadic %o38, variadic %o39, variadic %o40, variadic %o41, variadic %o42, variadic %o43, variadic %o44, variadic %o45, variadic %o46, variadic %o47, variadic %o48, variadic %o49, variadic %o50, variadic %o51, variadic %o52, variadic %o53, variadic %o54, variadic %o55, variadic %o56, variadic %o57, variadic %o58, variadic %o59, variadic %o60, variadic %o61, variadic %o62, variadic %o63, variadic %o64, variadic %o65, variadic %o66, variadic %o67, variadic %o68, variadic %o69, variadic %o70, variadic %o71, variadic %o72, variadic %o73, variadic %o74, variadic %o75, variadic %o76, variadic %o77, variadic %o78, variadic %o79, variadic %o80, variadic %o81, variadic %o82, variadic %o83, variadic %o84, variadic %o85, variadic %o86, variadic %o87, variadic %o88, variadic %o89, variadic %o90, variadic %o91, variadic %o92, variadic %o93, variadic %o94, variadic %o95, variadic %o96, variadic %o97, variadic %o98, variadic %o99, variadic %o100, variadic %o101, variadic %o102, variadic %o103, variadic %o104, variadic %o105, variadic %o106, variadic %o107, variadic %o108, variadic %o109, variadic %o110, variadic %o111, variadic %o112, variadic %o113, variadic %o114, variadic %o115, variadic %o116, variadic %o117, variadic %o118, variadic %o119, variadic %o120, variadic %o121, variadic %o122, variadic %o123, variadic %o124, variadic %o125, variadic %o126, variadic %o127, variadic %o128, variadic %o129, variadic %o130, variadic %o131, variadic %o132, variadic %o133, variadic %o134, variadic %o135, variadic %o136, variadic %o137, variadic %o138, variadic %o139, variadic %o140, variadic %o141, variadic %o142, variadic %o143, variadic %o144, variadic %o145, variadic %o146, variadic %o147, variadic %o148, variadic %o149, variadic %o150, variadic %o151, variadic %o152, variadic %o153, variadic %o154, variadic %o155, variadic %o156, variadic %o157, variadic %o158, variadic %o159, variadic %o160, variadic %o161, variadic %o162, variadic %o163, variadic %o164, variadic %o165, variadic %o166, variadic %o167, variadic %o168, variadic %o169, variadic %o170, variadic %o171, variadic %o172, variadic %o173, variadic %o174, variadic %o175, variadic %o176, variadic %o177, variadic %o178, variadic %o179, variadic %o180, variadic %o181, variadic %o182, variadic %o183, variadic %o184, variadic %o185, variadic %o186, variadic %o187, variadic %o188, variadic %o189, variadic %o190, variadic %o191, variadic %o192, variadic %o193, variadic %o194, variadic %o195, variadic %o196, variadic %o197, variadic %o198, variadic %o199, variadic %o200, variadic %o201, variadic %o202, variadic %o203, variadic %o204, variadic %o205, variadic %o206, variadic %o207, variadic %o208, variadic %o209, variadic %o210, variadic %o211, variadic %o212, variadic %o213, variadic %o214, variadic %o215, variadic %o216, variadic %o217, variadic %o218, variadic %o219, variadic %o220, variadic %o221, variadic %o222, variadic %o223, variadic %o224, variadic %o225, variadic %o226, variadic %o227, variadic %o228, variadic %o229, variadic %o230, variadic %o231, variadic %o232, variadic %o233, variadic %o234, variadic %o235, variadic %o236, variadic %o237, variadic %o238, variadic %o239, variadic %o240, variadic %o241, variadic %o242, variadic %o243, variadic %o244, variadic %o245, variadic %o246, variadic %o247, variadic %o248, variadic %o249, variadic %o250, variadic %o251, variadic %o252, variadic %o253, variadic %o254, variadic %o255, variadic %o256, variadic %o257, variadic %o258, variadic %o259, variadic %o260, variadic %o261, variadic %o262, variadic %o263, variadic %o264, variadic %o265, variadic %o266, variadic %o267, variadic %o268, variadic %o269, variadic %o270, variadic %o271, variadic %o272, variadic %o273, variadic %o274, variadic %o275, variadic %o276, variadic %o277, variadic %o278, variadic %o279, variadic %o280, variadic %o281, variadic %o282, variadic %o283, variadic %o284, variadic %o285, variadic %o286, variadic %o287, variadic %o288, variadic %o289, variadic %o290, variadic %o291, variadic %o292, variadic %o293, variadic %o294, variadic %o295, variadic %o296, variadic %o297, variadic %o298, variadic %o299, variadic %o300, variadic %o301, variadic %o302, variadic %o303, variadic %o304, variadic %o305, variadic %o306, variadic %o307, variadic %o308, variadic %o309, variadic %o310, variadic %o311, variadic %o312, variadic %o313, variadic %o314, variadic %o315, variadic %o316, variadic %o317, variadic %o318, variadic %o319, variadic %o320, variadic %o321, variadic %o322, variadic %o323, variadic %o324, variadic %o325, variadic %o326, variadic %o327, variadic %o328, variadic %o329, variadic %o330, variadic %o331, variadic %o332, variadic %o333, variadic %o334, variadic %o335, variadic %o336, variadic %o337, variadic %o338, variadic %o339, variadic %o340, variadic %o341, variadic %o342, variadic %o343, variadic %o344, variadic %o345, variadic %o346, variadic %o347, variadic %o348, variadic %o349, variadic %o350, variadic %o351, variadic %o352, variadic %o353, variadic %o354, variadic %o355, variadic %o356, variadic %o357, variadic %o358, variadic %o359, variadic %o360, variadic %o361, variadic %o362, variadic %o363, variadic %o364, variadic %o365, variadic %o366, variadic %o367, variadic %o368, variadic %o369, variadic %o370, variadic %o371, variadic %o372, variadic %o373, variadic %o374, variadic %o375, variadic %o376, variadic %o377, variadic %o378, variadic %o379, variadic %o380, variadic %o381, variadic %o382, variadic %o383, variadic %o384, variadic %o385, variadic %o386, variadic %o387, variadic %o388, variadic %o389, variadic %o390, variadic %o391, variadic %o392, variadic %o393, variadic %o394, variadic %o395, variadic %o396, variadic %o397, variadic %o398, variadic %o399, variadic %o400, variadic %o401, variadic %o402, variadic %o403, variadic %o404, variadic %o405, variadic %o406, variadic %o407, variadic %o408, variadic %o409, variadic %o410, variadic %o411, variadic %o412, variadic %o413, variadic %o414, variadic %o415, variadic %o416, variadic %o417, variadic %o418, variadic %o419, variadic %o420, variadic %o421, variadic %o422, variadic %o423, variadic %o424, variadic %o425, variadic %o426, variadic %o427, variadic %o428, variadic %o429, variadic %o430, variadic %o431, variadic %o432, variadic %o433, variadic %o434, variadic %o435, variadic %o436, variadic %o437, variadic %o438, variadic %o439, variadic %o440, variadic %o441, variadic %o442, variadic %o443, variadic %o444, variadic %o445, variadic %o446, variadic %o447, variadic %o448, variadic %o449, variadic %o450, variadic %o451, variadic %o452, variadic %o453, variadic %o454, variadic %o455, variadic %o456, variadic %o457, variadic %o458, variadic %o459, variadic %o460, variadic %o461, variadic %o462, variadic %o463, variadic %o464, variadic %o465, variadic %o466, variadic %o467, variadic %o468, variadic %o469, variadic %o470, variadic %o471, variadic %o472, variadic %o473, variadic %o474, variadic %o475, variadic %o476, variadic %o477, variadic %o478, variadic %o479, variadic %o480, variadic %o481, variadic %o482, variadic %o483, variadic %o484, variadic %o485, variadic %o486, variadic %o487, variadic %o488, variadic %o489, variadic %o490, variadic %o491, variadic %o492, variadic %o493, variadic %o494, variadic %o495, variadic %o496, variadic %o497, variadic %o498, variadic %o499, variadic %o500, variadic %o501, variadic %o502, variadic %o503, variadic %o504, variadic %o505, variadic %o506, variadic %o507, variadic %o508, variadic %o509, variadic %o510, variadic %o511, variadic %o512, variadic %o513, variadic %o514, variadic %o515, variadic %o516, variadic %o517, variadic %o518, variadic %o519, variadic %o520, variadic %o521, variadic %o522, variadic %o523, variadic %o524, variadic %o525, variadic %o526, variadic %o527, variadic %o528, variadic %o529, variadic %o530, variadic %o531, variadic %o532, variadic %o533, variadic %o534, variadic %o535, variadic %o536, variadic %o537, variadic %o538, variadic %o539, variadic %o540, variadic %o541, variadic %o542, variadic %o543, variadic %o544, variadic %o545, variadic %o546, variadic %o547, variadic %o548, variadic %o549, variadic %o550, variadic %o551, variadic %o552, variadic %o553, variadic %o554, variadic %o555, variadic %o556, variadic %o557, variadic %o558, variadic %o559, variadic %o560, variadic %o561, variadic %o562, variadic %o563, variadic %o564, variadic %o565, variadic %o566, variadic %o567, variadic %o568, variadic %o569, variadic %o570, variadic %o571, variadic %o572, variadic %o573, variadic %o574, variadic %o575, variadic %o576, variadic %o577, variadic %o578, variadic %o579, variadic %o580, variadic %o581, variadic %o582, variadic %o583, variadic %o584, variadic %o585, variadic %o586, variadic %o587, variadic %o588, variadic %o589, variadic %o590, variadic %o591, variadic %o592, variadic %o593, variadic %o594, variadic %o595, variadic %o596, variadic %o597, variadic %o598, variadic %o599, variadic %o600, variadic %o601, variadic %o602, variadic %o603, variadic %o604, variadic %o605, variadic %o606, variadic %o607, variadic %o608, variadic %o609, variadic %o610, variadic %o611, variadic %o612, variadic %o613, variadic %o614, variadic %o615, variadic %o616, variadic %o617, variadic %o618, variadic %o619, variadic %o620, variadic %o621, variadic %o622, variadic %o623, variadic %o624, variadic %o625, variadic %o626, variadic %o627, variadic %o628, variadic %o629, variadic %o630, variadic %o631, variadic %o632, variadic %o633, variadic %o634, variadic %o635, variadic %o636, variadic %o637, variadic %o638, variadic %o639, variadic %o640, variadic %o641, variadic %o642, variadic %o643, variadic %o644, variadic %o645, variadic %o646, variadic %o647, variadic %o648, variadic %o649, variadic %o650, variadic %o651, variadic %o652, variadic %o653, variadic %o654, variadic %o655, variadic %o656, variadic %o657, variadic %o658, variadic %o659, variadic %o660, variadic %o661, variadic %o662, variadic %o663, variadic %o664, variadic %o665, variadic %o666, variadic %o667, variadic %o668, variadic %o669, variadic %o670, variadic %o671, variadic %o672, variadic %o673, variadic %o674, variadic %o675, variadic %o676, variadic %o677, variadic %o678, variadic %o679, variadic %o680, variadic %o681, variadic %o682, variadic %o683, variadic %o684, variadic %o685, variadic %o686, variadic %o687, variadic %o688, variadic %o689, variadic %o690, variadic %o691, variadic %o692, variadic %o693, variadic %o694, variadic %o695, variadic %o696, variadic %o697, variadic %o698, variadic %o699, variadic %o700, variadic %o701, variadic %o702, variadic %o703, variadic %o704, variadic %o705, variadic %o706, variadic %o707, variadic %o708, variadic %o709, variadic %o710, variadic %o711, variadic %o712, variadic %o713, variadic %o714, variadic %o715, variadic %o716, variadic %o717, variadic %o718, variadic %o719, variadic %o720, variadic %o721, variadic %o722, variadic %o723, variadic %o724, variadic %o725, variadic %o726, variadic %o727, variadic %o728, variadic %o729, variadic %o730, variadic %o731, variadic %o732, variadic %o733, variadic %o734, variadic %o735, variadic %o736, variadic %o737, variadic %o738, variadic %o739, variadic %o740, variadic %o741, variadic %o742, variadic %o743, variadic %o744, variadic %o745, variadic %o746, variadic %o747, variadic %o748, variadic %o749, variadic %o750, variadic %o751, variadic %o752, variadic %o753, variadic %o754, variadic %o755, variadic %o756, variadic %o757, variadic %o758, variadic %o759, variadic %o760, variadic %o761, variadic %o762, variadic %o763, variadic %o764, variadic %o765, variadic %o766, variadic %o767, variadic %o768, variadic %o769, variadic %o770, variadic %o771, variadic %o772, variadic %o773, variadic %o774, variadic %o775, variadic %o776, variadic %o777, variadic %o778, variadic %o779, variadic %o780, variadic %o781, variadic %o782, variadic %o783, variadic %o784, variadic %o785, variadic %o786, variadic %o787, variadic %o788, variadic %o789, variadic %o790, variadic %o791, variadic %o792, variadic %o793, variadic %o794, variadic %o795, variadic %o796, variadic %o797, variadic %o798, variadic %o799, variadic %o800, variadic %o801, variadic %o802, variadic %o803, variadic %o804, variadic %o805, variadic %o806, variadic %o807, variadic %o808, variadic %o809, variadic %o810, variadic %o811, variadic %o812, variadic %o813, variadic %o814, variadic %o815, variadic %o816, variadic %o817, variadic %o818, variadic %o819, variadic %o820, variadic %o821, variadic %o822, variadic %o823, variadic %o824, variadic %o825, variadic %o826, variadic %o827, variadic %o828, variadic %o829, variadic %o830, variadic %o831, variadic %o832, variadic %o833, variadic %o834, variadic %o835, variadic %o836, variadic %o837, variadic %o838, variadic %o839, variadic %o840, variadic %o841, variadic %o842, variadic %o843, variadic %o844, variadic %o845, variadic %o846, variadic %o847, variadic %o848, variadic %o849, variadic %o850, variadic %o851, variadic %o852, variadic %o853, variadic %o854, variadic %o855, variadic %o856, variadic %o857, variadic %o858, variadic %o859, variadic %o860, variadic %o861, variadic %o862, variadic %o863, variadic %o864, variadic %o865, variadic %o866, variadic %o867, variadic %o868, variadic %o869, variadic %o870, variadic %o871, variadic %o872, variadic %o873, variadic %o874, variadic %o875, variadic %o876, variadic %o877, variadic %o878, variadic %o879, variadic %o880, variadic %o881, variadic %o882, variadic %o883, variadic %o884, variadic %o885, variadic %o886, variadic %o887, variadic %o888, variadic %o889, variadic %o890, variadic %o891, variadic %o892, variadic %o893, variadic %o894, variadic %o895, variadic %o896, variadic %o897, variadic %o898, variadic %o899, variadic %o900, variadic %o901, variadic %o902, variadic %o903, variadic %o904, variadic %o905, variadic %o906, variadic %o907, variadic %o908, variadic %o909, variadic %o910, variadic %o911, variadic %o912, variadic %o913, variadic %o914, variadic %o915, variadic %o916, variadic %o917, variadic %o918, variadic %o919, variadic %o920, variadic %o921, variadic %o922, variadic %o923, variadic %o924, variadic %o925, variadic %o926, variadic %o927, variadic %o928, variadic %o929, variadic %o930, variadic %o931, variadic %o932, variadic %o933, variadic %o934, variadic %o935, variadic %o936, variadic %o937, variadic %o938, variadic %o939, variadic %o940, variadic %o941, variadic %o942, variadic %o943, variadic %o944, variadic %o945, variadic %o946, variadic %o947, variadic %o948, variadic %o949, variadic %o950, variadic %o951, variadic %o952, variadic %o953, variadic %o954, variadic %o955, variadic %o956, variadic %o957, variadic %o958, variadic %o959, variadic %o960, variadic %o961, variadic %o962, variadic %o963, variadic %o964, variadic %o965, variadic %o966, variadic %o967, variadic %o968, variadic %o969, variadic %o970, variadic %o971, variadic %o972, variadic %o973, variadic %o974, variadic %o975, variadic %o976, variadic %o977, variadic %o978, variadic %o979, variadic %o980, variadic %o981, variadic %o982, variadic %o983, variadic %o984, variadic %o985, variadic %o986, variadic %o987, variadic %o988, variadic %o989, variadic %o990, variadic %o991, variadic %o992, variadic %o993, variadic %o994, variadic %o995, variadic %o996, variadic %o997, variadic %o998, variadic %o999, variadic %o1000, variadic %o1001, variadic %o1002, variadic %o1003, variadic %o1004, variadic %o1005, variadic %o1006, variadic %o1007, variadic %o1008, variadic %o1009, variadic %o1010, variadic %o1011, variadic %o1012, variadic %o1013, variadic %o1014, variadic %o1015, variadic %o1016, variadic %o1017, variadic %o1018, variadic %o1019, variadic %o1020, variadic %o1021, variadic %o1022, variadic %o1023)
    irdl.results(%r)
  }
}
