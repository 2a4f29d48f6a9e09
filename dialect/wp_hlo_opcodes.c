#include "wp_hlo_opcodes.h"

#include "wp_error.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define F(x, m, n) {x, m, WP_HLO_FIXED, n}
#define T(x, m, n) {x, m, WP_HLO_TAIL, n}
#define S(x, m) {x, m, WP_HLO_SEGMENTED, 0}

/* Sorted by XLA name. Arity follows XLA's HloInstruction factories. */
static const wp_hlo_opcode k_opcodes[] = {
    F("abs", "abs", 1),
    F("acos", "acos", 1),
    F("acosh", "acosh", 1),
    F("add", "add", 2),
    F("add-dependency", "add_dependency", 2),
    T("after-all", "after_all", 0),
    S("all-gather", "all_gather"),
    F("all-gather-done", "all_gather_done", 1),
    S("all-gather-start", "all_gather_start"),
    S("all-reduce", "all_reduce"),
    F("all-reduce-done", "all_reduce_done", 1),
    S("all-reduce-start", "all_reduce_start"),
    S("all-to-all", "all_to_all"),
    F("and", "and", 2),
    F("asin", "asin", 1),
    F("asinh", "asinh", 1),
    F("async-done", "async_done", 1),
    S("async-start", "async_start"),
    F("async-update", "async_update", 1),
    F("atan2", "atan2", 2),
    F("atanh", "atanh", 1),
    F("batch-norm-grad", "batch_norm_grad", 5),
    F("batch-norm-inference", "batch_norm_inference", 5),
    F("batch-norm-training", "batch_norm_training", 3),
    F("bitcast", "bitcast", 1),
    F("bitcast-convert", "bitcast_convert", 1),
    F("broadcast", "broadcast", 1),
    S("call", "call"),
    F("cbrt", "cbrt", 1),
    F("ceil", "ceil", 1),
    F("cholesky", "cholesky", 1),
    F("clamp", "clamp", 3),
    S("collective-broadcast", "collective_broadcast"),
    S("collective-permute", "collective_permute"),
    F("collective-permute-done", "collective_permute_done", 1),
    S("collective-permute-start", "collective_permute_start"),
    S("collective-reduce", "collective_reduce"),
    F("compare", "compare", 2),
    F("complex", "complex", 2),
    S("concatenate", "concatenate"),
    S("conditional", "conditional"),
    F("constant", "constant", 0),
    F("convert", "convert", 1),
    F("convolution", "convolution", 2),
    F("copy", "copy", 1),
    F("copy-done", "copy_done", 1),
    F("copy-start", "copy_start", 1),
    F("cosh", "cosh", 1),
    F("cosine", "cosine", 1),
    F("count-leading-zeros", "count_leading_zeros", 1),
    S("custom-call", "custom_call"),
    F("divide", "divide", 2),
    F("domain", "domain", 1),
    F("dot", "dot", 2),
    T("dynamic-reshape", "dynamic_reshape", 1),
    T("dynamic-slice", "dynamic_slice", 1),
    T("dynamic-update-slice", "dynamic_update_slice", 2),
    F("erf", "erf", 1),
    F("exponential", "exponential", 1),
    F("exponential-minus-one", "exponential_minus_one", 1),
    F("fft", "fft", 1),
    F("floor", "floor", 1),
    S("fusion", "fusion"),
    F("gather", "gather", 2),
    F("get-dimension-size", "get_dimension_size", 1),
    F("get-tuple-element", "get_tuple_element", 1),
    F("imag", "imag", 1),
    F("infeed", "infeed", 1),
    F("iota", "iota", 0),
    F("is-finite", "is_finite", 1),
    F("log", "log", 1),
    F("log-plus-one", "log_plus_one", 1),
    F("logistic", "logistic", 1),
    S("map", "map"),
    F("maximum", "maximum", 2),
    F("minimum", "minimum", 2),
    F("multiply", "multiply", 2),
    F("negate", "negate", 1),
    F("not", "not", 1),
    F("opt-barrier", "opt_barrier", 1),
    F("or", "or", 2),
    F("outfeed", "outfeed", 2),
    F("pad", "pad", 2),
    F("partition-id", "partition_id", 0),
    F("popcnt", "popcnt", 1),
    F("power", "power", 2),
    S("ragged-all-to-all", "ragged_all_to_all"),
    F("ragged-dot", "ragged_dot", 3),
    F("real", "real", 1),
    F("recv", "recv", 1),
    F("recv-done", "recv_done", 1),
    S("reduce", "reduce"),
    F("reduce-precision", "reduce_precision", 1),
    S("reduce-scatter", "reduce_scatter"),
    S("reduce-window", "reduce_window"),
    F("remainder", "remainder", 2),
    F("replica-id", "replica_id", 0),
    F("reshape", "reshape", 1),
    F("reverse", "reverse", 1),
    S("rng", "rng"),
    F("rng-bit-generator", "rng_bit_generator", 1),
    F("rng-get-and-update-state", "rng_get_and_update_state", 0),
    F("round-nearest-afz", "round_nearest_afz", 1),
    F("round-nearest-even", "round_nearest_even", 1),
    F("rsqrt", "rsqrt", 1),
    F("scaled-dot", "scaled_dot", 4),
    S("scan", "scan"),
    S("scatter", "scatter"),
    F("select", "select", 3),
    F("select-and-scatter", "select_and_scatter", 3),
    F("send", "send", 2),
    F("send-done", "send_done", 1),
    F("set-dimension-size", "set_dimension_size", 2),
    F("shift-left", "shift_left", 2),
    F("shift-right-arithmetic", "shift_right_arithmetic", 2),
    F("shift-right-logical", "shift_right_logical", 2),
    F("sign", "sign", 1),
    F("sine", "sine", 1),
    F("sinh", "sinh", 1),
    F("slice", "slice", 1),
    S("sort", "sort"),
    F("sqrt", "sqrt", 1),
    F("stochastic-convert", "stochastic_convert", 2),
    F("subtract", "subtract", 2),
    F("tan", "tan", 1),
    F("tanh", "tanh", 1),
    F("topk", "topk", 1),
    F("transpose", "transpose", 1),
    F("triangular-solve", "triangular_solve", 2),
    S("tuple", "tuple"),
    F("while", "while", 1),
    F("xor", "xor", 2),
};

static const wp_hlo_opcode k_generic = S("", WP_HLO_GENERIC_OP);
static const wp_hlo_opcode k_wide = {"", WP_HLO_WIDE_OP, WP_HLO_WIDE, 0};

const wp_hlo_opcode *wp_hlo_opcode_wide(void) { return &k_wide; }

const wp_hlo_opcode *wp_hlo_opcode_table(size_t *count) {
  *count = sizeof k_opcodes / sizeof k_opcodes[0];
  return k_opcodes;
}

static int cmp_xla(const void *key, const void *elt) {
  return strcmp(key, ((const wp_hlo_opcode *)elt)->xla);
}

const wp_hlo_opcode *wp_hlo_opcode_by_xla(const char *xla) {
  return bsearch(xla, k_opcodes, sizeof k_opcodes / sizeof k_opcodes[0],
                 sizeof k_opcodes[0], cmp_xla);
}

const wp_hlo_opcode *wp_hlo_opcode_by_mlir(const char *mlir, size_t len) {
  for (size_t i = 0; i < sizeof k_opcodes / sizeof k_opcodes[0]; i++)
    if (strlen(k_opcodes[i].mlir) == len &&
        memcmp(k_opcodes[i].mlir, mlir, len) == 0)
      return &k_opcodes[i];
  if (len == strlen(WP_HLO_GENERIC_OP) && memcmp(mlir, WP_HLO_GENERIC_OP, len) == 0)
    return &k_generic;
  if (len == strlen(WP_HLO_WIDE_OP) && memcmp(mlir, WP_HLO_WIDE_OP, len) == 0)
    return &k_wide;
  return NULL;
}

int wp_hlo_opcode_accepts(const wp_hlo_opcode *op, size_t n) {
  switch (op->form) {
  case WP_HLO_FIXED: return n == (size_t)op->fixed;
  case WP_HLO_TAIL: return n >= (size_t)op->fixed;
  case WP_HLO_SEGMENTED: return 1;
  case WP_HLO_WIDE: return 1;
  }
  return 0;
}

/* ---- IRDL text ---- */

static void emit_op(FILE *f, const wp_hlo_opcode *op) {
  fprintf(f, "  irdl.operation @%s {\n", op->mlir);
  int vars = op->form == WP_HLO_WIDE        ? WP_HLO_WIDE_SEGMENTS
             : op->form == WP_HLO_SEGMENTED ? WP_HLO_SEGMENTS
             : op->form == WP_HLO_TAIL      ? op->fixed + 1
                                            : op->fixed;
  for (int i = 0; i < vars; i++)
    fprintf(f, "    %%o%d = irdl.any\n", i);
  fprintf(f, "    %%r = irdl.any\n");
  if (vars > 0) {
    fprintf(f, "    irdl.operands(");
    for (int i = 0; i < vars; i++) {
      int variadic = op->form == WP_HLO_SEGMENTED || op->form == WP_HLO_WIDE ||
                     (op->form == WP_HLO_TAIL && i == op->fixed);
      fprintf(f, "%s%s%%o%d", i ? ", " : "", variadic ? "variadic " : "", i);
    }
    fprintf(f, ")\n");
  }
  fprintf(f, "    irdl.results(%%r)\n  }\n");
}

static char *build_irdl_text(void) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f)
    wp_out_of_memory();
  fprintf(f,
          "// The hlo dialect: one op per XLA HLO opcode, generic form only.\n"
          "// Generated from dialect/wp_hlo_opcodes.c (`opt --print-irdl=hlo`);\n"
          "// do not edit by hand. Load it with `mlir-opt --irdl-file=`.\n"
          "irdl.dialect @hlo {\n"
          "  // XLA's TOKEN element type.\n"
          "  irdl.type @token {\n  }\n"
          "  // XLA's OPAQUE_TYPE element type.\n"
          "  irdl.type @opaque {\n  }\n"
          "  // XLA's F8E3M4, F4E2M1FN and F8E8M0FNU: float types MLIR 19 has\n"
          "  // no builtin for. A tensor element holds one byte (F4E2M1FN in\n"
          "  // its low 4 bits), as in XLA's literals.\n"
          "  irdl.type @f8e3m4 {\n  }\n"
          "  irdl.type @f4e2m1fn {\n  }\n"
          "  irdl.type @f8e8m0fnu {\n  }\n");
  size_t n;
  const wp_hlo_opcode *ops = wp_hlo_opcode_table(&n);
  for (size_t i = 0; i < n; i++)
    emit_op(f, &ops[i]);
  fprintf(f, "  // Any other opcode, or an operand count its opcode does not take.\n");
  emit_op(f, &k_generic);
  fprintf(f, "  // Any opcode whose operands change type more than %d times.\n",
          WP_HLO_SEGMENTS);
  emit_op(f, &k_wide);
  fprintf(f, "}\n");
  if (fclose(f) != 0) /* open_memstream fails only when out of memory */
    wp_out_of_memory();
  return buf;
}

static char *g_irdl_text;
static void build_irdl_once(void) { g_irdl_text = build_irdl_text(); }

const char *wp_hlo_irdl_text(void) {
  /* Built once, whichever thread of a driver loads the dialects first. */
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, build_irdl_once);
  return g_irdl_text;
}
