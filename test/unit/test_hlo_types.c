/* XLA primitive types and shapes <-> MLIR types. */
#include "weightpack/weightpack.h"
#include "wp_hlo_literal.h"
#include "wp_hlo_resource.h"
#include "wp_hlo_types.h"
#include "wp_pb.h"
#include "wp_test.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <string.h>

static MlirContext ctx;

static void test_every_prim_round_trips(void) {
  int unsupported[] = {0, 34, 99};
  for (int t = 1; t <= 33; t++) {
    if (t == WP_TUPLE)
      continue;
    MlirType m = wp_hlo_prim_to_mlir(ctx, t);
    int refused = 0;
    for (size_t k = 0; k < sizeof unsupported / sizeof unsupported[0]; k++)
      refused |= unsupported[k] == t;
    if (refused) {
      CHECK(mlirTypeIsNull(m));
      continue;
    }
    CHECK(!mlirTypeIsNull(m));
    CHECK(wp_hlo_prim_from_mlir(m) == t);
  }
  /* The types MLIR 19 has no builtin for are the hlo dialect's, and in a
   * tensor. */
  int64_t four[] = {4};
  MlirType f4 = mlirRankedTensorTypeGet(1, four, wp_hlo_prim_to_mlir(ctx, WP_F4E2M1FN),
                                        mlirAttributeGetNull());
  CHECK(!mlirTypeIsNull(f4));
  CHECK(mlirTypeEqual(f4, mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(
                                                    "tensor<4x!hlo.f4e2m1fn>"))));
  char name[64];
  wp_hlo_type_str(f4, name, sizeof name);
  CHECK_STR(name, "f4e2m1fn[4]");
  CHECK(wp_hlo_prim_from_mlir(mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(
                                                       "!hlo.f8e8m0fnu"))) == WP_F8E8M0FNU);
  CHECK(wp_hlo_prim_is_dialect_float(WP_F8E3M4) && !wp_hlo_prim_is_dialect_float(WP_F8E4M3));
  CHECK(wp_hlo_prim_max_byte(WP_F4E2M1FN) == 15 && wp_hlo_prim_max_byte(WP_U1) == 1 &&
        wp_hlo_prim_max_byte(WP_F8E3M4) == 255);
  /* PRED and S1 must not collide. */
  CHECK(!mlirTypeEqual(wp_hlo_prim_to_mlir(ctx, WP_PRED), wp_hlo_prim_to_mlir(ctx, WP_S1)));
  CHECK(wp_hlo_prim_from_mlir(mlirIntegerTypeSignedGet(ctx, 32)) == 0);
}

static void test_shapes(void) {
  wp_arena *a = wp_arena_create();
  int64_t dims[] = {2, 3};
  MlirType t = mlirRankedTensorTypeGet(2, dims, mlirBF16TypeGet(ctx), mlirAttributeGetNull());
  wp_error err;
  Xla__ShapeProto *s = wp_hlo_type_to_shape(a, t, &err);
  CHECK(s && s->element_type == WP_BF16 && s->n_dimensions == 2 && s->layout);
  CHECK(wp_hlo_shape_matches(ctx, s, t));
  Xla__LayoutView *l = wp_pb_convert(a, &s->layout->base, &xla__layout_view__descriptor);
  CHECK(l && l->n_minor_to_major == 2 && l->minor_to_major[0] == 1 &&
        l->minor_to_major[1] == 0 && l->tail_padding_alignment_in_elements == 1);
  MlirType elts[2] = {t, wp_hlo_prim_to_mlir(ctx, WP_TOKEN)};
  MlirType tup = mlirTupleTypeGet(ctx, 2, elts);
  Xla__ShapeProto *ts = wp_hlo_type_to_shape(a, tup, &err);
  MlirType back;
  CHECK(ts && wp_hlo_shape_to_type(ctx, ts, &back, &err) == 0 && mlirTypeEqual(back, tup));
  char buf[64];
  wp_hlo_type_str(tup, buf, sizeof buf);
  CHECK_STR(buf, "(bf16[2,3], token)");
  /* Dynamic dimensions need a bound to be written. */
  int64_t dyn[] = {mlirShapedTypeGetDynamicSize()};
  MlirType d = mlirRankedTensorTypeGet(1, dyn, mlirF32TypeGet(ctx), mlirAttributeGetNull());
  CHECK(wp_hlo_type_to_shape(a, d, &err) == NULL);
  CHECK_CONTAINS(err.msg, "dynamic dimension");
  wp_hlo_type_str(d, buf, sizeof buf);
  CHECK_STR(buf, "f32[?]");
  /* Negative static dimension and unknown element type are refused. */
  Xla__ShapeProto bad = XLA__SHAPE_PROTO__INIT;
  int64_t neg = -3;
  bad.element_type = WP_F32;
  bad.n_dimensions = 1;
  bad.dimensions = &neg;
  CHECK(wp_hlo_shape_to_type(ctx, &bad, &back, &err) == -1);
  CHECK_CONTAINS(err.msg, "negative dimension -3");
  bad.n_dimensions = 0;
  bad.element_type = 77;
  CHECK(wp_hlo_shape_to_type(ctx, &bad, &back, &err) == -1);
  CHECK_CONTAINS(err.msg, "unknown element type 77");
  wp_arena_destroy(a);
}

static void test_num_elements(void) {
  int64_t big[] = {INT64_MAX / 2, 3};
  MlirType t = mlirRankedTensorTypeGet(2, big, mlirF32TypeGet(ctx), mlirAttributeGetNull());
  CHECK(wp_hlo_num_elements(t) == -1);
  int64_t z[] = {0, 5};
  t = mlirRankedTensorTypeGet(2, z, mlirF32TypeGet(ctx), mlirAttributeGetNull());
  CHECK(wp_hlo_num_elements(t) == 0);
}

/* A literal of a type MLIR 19 has no builtin for becomes a dense_resource
 * of its bytes; an f4e2m1fn byte above 15 leaves it unread (kept as it is),
 * and export gives the bytes back in the field XLA uses. */
static void test_dialect_float_literals(void) {
  int64_t four[] = {4};
  MlirType t = mlirRankedTensorTypeGet(1, four, wp_hlo_prim_to_mlir(ctx, WP_F4E2M1FN),
                                       mlirAttributeGetNull());
  uint8_t data[4] = {0x0, 0x7, 0xf, 0x8};
  Xla__LiteralProto lit = XLA__LITERAL_PROTO__INIT;
  lit.f4e2m1fns.data = data;
  lit.f4e2m1fns.len = sizeof data;
  MlirAttribute attr = mlirAttributeGetNull();
  CHECK(wp_hlo_literal_to_attr(&lit, t, &attr) == 1);
  const void *bytes = NULL;
  uint64_t size = 0;
  CHECK(wp_hlo_resource_is(attr) && wp_hlo_resource_bytes(attr, &bytes, &size) == 0);
  CHECK(size == 4 && bytes && memcmp(bytes, data, 4) == 0);
  wp_arena *a = wp_arena_create();
  Xla__LiteralProto out = XLA__LITERAL_PROTO__INIT;
  wp_error err;
  CHECK(wp_hlo_literal_set_data(a, &out, WP_F4E2M1FN, bytes, 4, &err) == 0);
  CHECK(out.f4e2m1fns.len == 4 && memcmp(out.f4e2m1fns.data, data, 4) == 0);
  wp_arena_destroy(a);
  data[1] = 0x17;
  CHECK(wp_hlo_literal_to_attr(&lit, t, &attr) == 0);
  /* the same byte is an f8e3m4's */
  MlirType t3 = mlirRankedTensorTypeGet(1, four, wp_hlo_prim_to_mlir(ctx, WP_F8E3M4),
                                        mlirAttributeGetNull());
  Xla__LiteralProto lit3 = XLA__LITERAL_PROTO__INIT;
  lit3.f8e3m4s = lit.f4e2m1fns;
  CHECK(wp_hlo_literal_to_attr(&lit3, t3, &attr) == 1);
  /* in another field than XLA's for the type: unread */
  CHECK(wp_hlo_literal_to_attr(&lit, t3, &attr) == 0);
}

int main(void) {
  ctx = mlirContextCreate();
  wp_error err;
  CHECK(wpLoadDialects(ctx, &err) == 0);
  test_every_prim_round_trips();
  test_shapes();
  test_num_elements();
  test_dialect_float_literals();
  mlirContextDestroy(ctx);
  return wp_test_result("test_hlo_types");
}
