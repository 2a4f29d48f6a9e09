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
  irdl.operation @abs {
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
  irdl.operation @clz {
    %o0 = irdl.any
    %r = irdl.any
    irdl.operands(%o0)
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
  irdl.operation @cosine {
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
  irdl.operation @optimization_barrier {
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
}
