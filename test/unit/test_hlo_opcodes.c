/* The opcode table behind the hlo dialect, and the IRDL text made from it. */
#include "weightpack/weightpack.h"
#include "wp_hlo_opcodes.h"
#include "wp_mlir_util.h"
#include "wp_test.h"

#include <mlir-c/BuiltinTypes.h>

static void test_table_sorted_and_found(void) {
  size_t n;
  const wp_hlo_opcode *ops = wp_hlo_opcode_table(&n);
  CHECK(n > 100);
  for (size_t i = 1; i < n; i++)
    CHECK(strcmp(ops[i - 1].xla, ops[i].xla) < 0);
  for (size_t i = 0; i < n; i++) {
    CHECK(wp_hlo_opcode_by_xla(ops[i].xla) == &ops[i]);
    CHECK(wp_hlo_opcode_by_mlir(ops[i].mlir, strlen(ops[i].mlir)) == &ops[i]);
    /* The MLIR name is the XLA name with '-' as '_'. */
    for (size_t k = 0; ops[i].xla[k]; k++)
      CHECK(ops[i].mlir[k] == (ops[i].xla[k] == '-' ? '_' : ops[i].xla[k]));
  }
  CHECK(wp_hlo_opcode_by_xla("no-such-op") == NULL);
  CHECK(wp_hlo_opcode_by_mlir("op", 2) != NULL);
}

static void test_arity(void) {
  const wp_hlo_opcode *add = wp_hlo_opcode_by_xla("add");
  CHECK(wp_hlo_opcode_accepts(add, 2) && !wp_hlo_opcode_accepts(add, 3));
  const wp_hlo_opcode *ds = wp_hlo_opcode_by_xla("dynamic-slice");
  CHECK(wp_hlo_opcode_accepts(ds, 1) && wp_hlo_opcode_accepts(ds, 5) &&
        !wp_hlo_opcode_accepts(ds, 0));
  const wp_hlo_opcode *tuple = wp_hlo_opcode_by_xla("tuple");
  CHECK(wp_hlo_opcode_accepts(tuple, 0) && wp_hlo_opcode_accepts(tuple, 1000));
}

/* Every op of the table parses and verifies in a context with the
 * dialect loaded, given operands of its form. */
static void test_every_op_verifies(void) {
  MlirContext ctx = mlirContextCreate();
  wp_error err;
  CHECK(wpLoadDialects(ctx, &err) == 0);
  size_t n;
  const wp_hlo_opcode *ops = wp_hlo_opcode_table(&n);
  for (size_t i = 0; i < n; i++) {
    int count = ops[i].form == WP_HLO_SEGMENTED ? 3 : ops[i].fixed + (ops[i].form == WP_HLO_TAIL);
    char text[4096];
    int len = snprintf(text, sizeof text, "func.func @f(%%a: tensor<2xf32>) {\n  %%0 = \"hlo.%s\"(",
                       ops[i].mlir);
    for (int k = 0; k < count; k++)
      len += snprintf(text + len, sizeof text - (size_t)len, "%s%%a", k ? ", " : "");
    len += snprintf(text + len, sizeof text - (size_t)len, ")");
    if (ops[i].form == WP_HLO_SEGMENTED) {
      len += snprintf(text + len, sizeof text - (size_t)len,
                      " {operand_segment_sizes = array<i32: 3");
      for (int k = 1; k < WP_HLO_SEGMENTS; k++)
        len += snprintf(text + len, sizeof text - (size_t)len, ", 0");
      len += snprintf(text + len, sizeof text - (size_t)len, ">}");
    }
    len += snprintf(text + len, sizeof text - (size_t)len, " : (");
    for (int k = 0; k < count; k++)
      len += snprintf(text + len, sizeof text - (size_t)len, "%stensor<2xf32>", k ? ", " : "");
    snprintf(text + len, sizeof text - (size_t)len, ") -> tensor<2xf32>\n  return\n}\n");
    MlirModule m = mlirModuleCreateParse(ctx, wp_sref(text));
    CHECK(!mlirModuleIsNull(m));
    if (mlirModuleIsNull(m)) {
      fprintf(stderr, "op %s did not parse:\n%s", ops[i].mlir, text);
      continue;
    }
    CHECK(mlirOperationVerify(mlirModuleGetOperation(m)));
    mlirModuleDestroy(m);
  }
  mlirContextDestroy(ctx);
}

int main(void) {
  test_table_sorted_and_found();
  test_arity();
  test_every_op_verifies();
  return wp_test_result("test_hlo_opcodes");
}
