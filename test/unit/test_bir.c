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

/* getAlignmentSize of a tensor of element size ELT, SHAPE, in memory MT */
static wp_bir_align_size align_of(int mt, uint64_t elt, const int64_t *shape, size_t rank,
                                  uint64_t min_align) {
  return wp_bir_alignment_size(&(wp_bir_align_query){
      .memory_type = mt, .element_bytes = elt, .shape = shape, .rank = rank,
      .min_align = min_align});
}
#define ALIGN(mt, elt, min, ...)                                                             \
  align_of(mt, elt, (const int64_t[]){__VA_ARGS__},                                         \
           sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t), min)

static void test_alignment(void) {
  /* at least the element size (a scalar: rank 0) */
  CHECK(align_of(WP_MT_CONST, 4, NULL, 0, 1).alignment == 4);
  CHECK(ALIGN(WP_MT_CONST, 2, 1, 5).alignment == 2);
  CHECK(ALIGN(WP_MT_CONST, 16, 1, 2).alignment == 16);
  CHECK(ALIGN(WP_MT_CONST, 0, 1, 3).alignment == 1); /* unknown size: a byte */
  /* at least 64 for 64 bytes and more */
  CHECK(ALIGN(WP_MT_CONST, 1, 1, 63).alignment == 1);
  CHECK(ALIGN(WP_MT_CONST, 1, 1, 64).alignment == 64);
  CHECK(ALIGN(WP_MT_CONST, 8, 1, 1 << 17).alignment == 64);
  /* the option only raises it */
  CHECK(ALIGN(WP_MT_CONST, 4, 256, 1).alignment == 256);
  CHECK(ALIGN(WP_MT_CONST, 4, 32, 1024).alignment == 64);
  /* the 8-element branch: a valid tile (rank >= 2, 1..128 partitions, a
   * free size of whole 8-element groups) starts on 8 elements */
  CHECK(ALIGN(WP_MT_CONST, 2, 1, 1, 8).alignment == 16);
  CHECK(ALIGN(WP_MT_CONST, 1, 1, 2, 4, 2).alignment == 8);
  CHECK(ALIGN(WP_MT_CONST, 16, 1, 1, 8).alignment == 128); /* past 64 */
  CHECK(ALIGN(WP_MT_CONST, 2, 1, 1, 4).alignment == 2);    /* 4 elements: no tile */
  CHECK(ALIGN(WP_MT_CONST, 2, 1, 8).alignment == 2);       /* rank 1: no tile */
  CHECK(ALIGN(WP_MT_CONST, 1, 1, 129, 8).alignment == 64); /* 129 partitions: no tile */
  CHECK(ALIGN(WP_MT_CONST, 1, 1, 0, 8).alignment == 1);    /* empty: no tile */
  CHECK(wp_bir_is_valid_tile((const int64_t[]){128, 3, 8}, 3));
  CHECK(!wp_bir_is_valid_tile((const int64_t[]){128, 3, 7}, 3));
  CHECK(wp_bir_is_valid_tile((const int64_t[]){1, INT64_MAX, 8}, 3)); /* cannot wrap */
  /* the 0xc0 branch: a tile in DRAM whose partition row has 192 bytes or
   * more starts on a multiple of 192 and of its alignment */
  wp_bir_align_size a = ALIGN(WP_MT_DRAM, 4, 1, 128, 48); /* 192-byte rows */
  CHECK(a.alignment == 64 && a.step == 192);
  a = ALIGN(WP_MT_DRAM, 4, 256, 2, 64);
  CHECK(a.alignment == 256 && a.step == 768);
  a = ALIGN(WP_MT_DRAM, 4, 1, 2, 40); /* 160-byte rows */
  CHECK(a.alignment == 64 && a.step == 64);
  a = ALIGN(WP_MT_CONST, 4, 1, 128, 48); /* not in DRAM */
  CHECK(a.alignment == 64 && a.step == 64);
  a = ALIGN(WP_MT_DRAM, 4, 1, 1000); /* rank 1 */
  CHECK(a.step == 64);
  /* alignment is a power of two; step is a multiple of it */
  for (uint64_t elt = 1; elt <= 16; elt *= 2)
    for (int64_t d = 1; d <= 300; d += 7) {
      a = ALIGN(WP_MT_DRAM, elt, 1, 4, d);
      CHECK(a.alignment && !(a.alignment & (a.alignment - 1)) && a.step % a.alignment == 0);
    }
  CHECK(wp_bir_align_up(0, 64) == 0 && wp_bir_align_up(1, 64) == 64 &&
        wp_bir_align_up(64, 64) == 64 && wp_bir_align_up(65, 2) == 66);
  CHECK(wp_bir_align_up(1, 192) == 192 && wp_bir_align_up(385, 192) == 576 &&
        wp_bir_align_up(7, 1) == 7 && wp_bir_align_up(7, 0) == 7);
  CHECK(wp_bir_align_up(UINT64_MAX - 5, 64) == 0); /* would wrap */
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
