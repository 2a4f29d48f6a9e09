/* BIR enumerations, the alignment policy and the identity-matrix rule. */
#include "weightpack/weightpack.h"
#include "wp_bir_align.h"
#include "wp_bir_class.h"
#include "wp_bir_enums.h"
#include "wp_hlo_types.h"
#include "wp_test.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

static void test_enums(void) {
  CHECK_STR(wp_tensor_class_name(3), "NeuronWeightTensor");
  CHECK_STR(wp_tensor_class_name(4), "IdentityWeightTensor");
  CHECK_STR(wp_tensor_class_name(12), "ImmutableParameter");
  CHECK(wp_tensor_class_name(13) == NULL && wp_tensor_class_name(-1) == NULL);
  wp_error err;
  for (int i = 0; i < WP_TC_COUNT; i++) {
    int v = -1;
    const char *n = wp_tensor_class_name(i);
    CHECK(wp_tensor_class_parse(n, strlen(n), &v, &err) == 0 && v == i);
  }
  for (int i = 0; i < WP_MT_COUNT; i++) {
    int v = -1;
    const char *n = wp_memory_type_name(i);
    CHECK(wp_memory_type_parse(n, strlen(n), &v, &err) == 0 && v == i);
  }
  int v;
  CHECK(wp_tensor_class_parse("Neuron", 6, &v, &err) == -1);
  CHECK_STR(err.msg, "Unknown tensor class type: Neuron");
  CHECK(wp_memory_type_parse("SB", 2, &v, &err) == -1);
  CHECK_STR(err.msg, "Unknown memory type: SB");
  /* Names are matched whole, case and all. */
  CHECK(wp_memory_type_parse("const", 5, &v, &err) == -1);
  CHECK(wp_memory_type_parse("Constant", 5, &v, &err) == 0 && v == WP_MT_CONST);
  for (int p = 1; p <= 33; p++) {
    const char *n = wp_dtype_name(p);
    if (!n)
      continue;
    CHECK(wp_dtype_parse(n, strlen(n), &v, &err) == 0 && v == p);
  }
  CHECK_STR(wp_dtype_name(WP_BF16), "bfloat16");
  CHECK(wp_dtype_name(WP_TOKEN) == NULL);
}

static void test_alignment(void) {
  /* at least the element size */
  CHECK(wp_bir_alignment(4, 4, 1) == 4);
  CHECK(wp_bir_alignment(2, 10, 1) == 2);
  CHECK(wp_bir_alignment(16, 32, 1) == 16);
  /* at least 64 for 64 bytes and more */
  CHECK(wp_bir_alignment(1, 63, 1) == 1);
  CHECK(wp_bir_alignment(1, 64, 1) == 64);
  CHECK(wp_bir_alignment(8, 1 << 20, 1) == 64);
  /* the option only raises it */
  CHECK(wp_bir_alignment(4, 4, 256) == 256);
  CHECK(wp_bir_alignment(4, 4096, 32) == 64);
  CHECK(wp_bir_align_up(0, 64) == 0 && wp_bir_align_up(1, 64) == 64 &&
        wp_bir_align_up(64, 64) == 64 && wp_bir_align_up(65, 2) == 66);
}

static void test_identity(void) {
  MlirContext ctx = mlirContextCreate();
  wp_error err;
  CHECK(wpLoadDialects(ctx, &err) == 0);
  int64_t d3[2] = {3, 3}, d23[2] = {2, 3};
  MlirType f32 = mlirRankedTensorTypeGet(2, d3, mlirF32TypeGet(ctx), mlirAttributeGetNull());
  float eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  CHECK(wp_bir_is_identity(f32, eye, sizeof eye));
  eye[1] = 1e-30f;
  CHECK(!wp_bir_is_identity(f32, eye, sizeof eye));
  eye[1] = -0.0f; /* not bit-for-bit zero */
  CHECK(!wp_bir_is_identity(f32, eye, sizeof eye));
  MlirType rect = mlirRankedTensorTypeGet(2, d23, mlirF32TypeGet(ctx), mlirAttributeGetNull());
  CHECK(!wp_bir_is_identity(rect, eye, 24));
  unsigned short bf[9] = {0x3f80, 0, 0, 0, 0x3f80, 0, 0, 0, 0x3f80};
  MlirType bft = mlirRankedTensorTypeGet(2, d3, mlirBF16TypeGet(ctx), mlirAttributeGetNull());
  CHECK(wp_bir_is_identity(bft, bf, sizeof bf));
  signed char i8[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  MlirType i8t = mlirRankedTensorTypeGet(2, d3, mlirIntegerTypeGet(ctx, 8), mlirAttributeGetNull());
  CHECK(wp_bir_is_identity(i8t, i8, sizeof i8));
  unsigned char f8[9] = {0x38, 0, 0, 0, 0x38, 0, 0, 0, 0x38}; /* f8E4M3FN 1.0 */
  MlirType f8t = mlirRankedTensorTypeGet(2, d3, mlirFloat8E4M3FNTypeGet(ctx), mlirAttributeGetNull());
  CHECK(wp_bir_is_identity(f8t, f8, sizeof f8));
  mlirContextDestroy(ctx);
}

int main(void) {
  test_enums();
  test_alignment();
  test_identity();
  return wp_test_result("test_bir");
}
