#include "wp_hlo_types.h"

#include "wp_pb.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const wp_hlo_prim k_prims[] = {
    {WP_PRED, "pred", 1, 2},        {WP_S8, "s8", 1, 15},
    {WP_S16, "s16", 2, 17},         {WP_S32, "s32", 4, 4},
    {WP_S64, "s64", 8, 5},          {WP_U8, "u8", 1, 3},
    {WP_U16, "u16", 2, 16},         {WP_U32, "u32", 4, 6},
    {WP_U64, "u64", 8, 7},          {WP_F16, "f16", 2, 11},
    {WP_F32, "f32", 4, 8},          {WP_F64, "f64", 8, 9},
    {WP_C64, "c64", 8, 12},         {WP_BF16, "bf16", 2, 13},
    {WP_C128, "c128", 16, 18},      {WP_F8E5M2, "f8e5m2", 1, 19},
    {WP_F8E4M3FN, "f8e4m3fn", 1, 20}, {WP_S4, "s4", 1, 21},
    {WP_U4, "u4", 1, 22},           {WP_F8E4M3B11FNUZ, "f8e4m3b11fnuz", 1, 23},
    {WP_F8E5M2FNUZ, "f8e5m2fnuz", 1, 24}, {WP_F8E4M3FNUZ, "f8e4m3fnuz", 1, 25},
    {WP_S2, "s2", 1, 26},           {WP_U2, "u2", 1, 27},
    {WP_F8E4M3, "f8e4m3", 1, 28},   {WP_F8E3M4, "f8e3m4", 1, 29},
    {WP_S1, "s1", 1, 30},           {WP_U1, "u1", 1, 31},
    {WP_F4E2M1FN, "f4e2m1fn", 1, 32}, {WP_F8E8M0FNU, "f8e8m0fnu", 1, 33},
};

const wp_hlo_prim *wp_hlo_prim_info(int xla) {
  for (size_t i = 0; i < sizeof k_prims / sizeof k_prims[0]; i++)
    if (k_prims[i].xla == xla)
      return &k_prims[i];
  return NULL;
}

static MlirType parse_type(MlirContext ctx, const char *s) {
  return mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(s));
}

MlirType wp_hlo_prim_to_mlir(MlirContext ctx, int xla) {
  switch (xla) {
  case WP_PRED: return mlirIntegerTypeGet(ctx, 1);
  case WP_S1: return mlirIntegerTypeSignedGet(ctx, 1);
  case WP_S2: return mlirIntegerTypeGet(ctx, 2);
  case WP_S4: return mlirIntegerTypeGet(ctx, 4);
  case WP_S8: return mlirIntegerTypeGet(ctx, 8);
  case WP_S16: return mlirIntegerTypeGet(ctx, 16);
  case WP_S32: return mlirIntegerTypeGet(ctx, 32);
  case WP_S64: return mlirIntegerTypeGet(ctx, 64);
  case WP_U1: return mlirIntegerTypeUnsignedGet(ctx, 1);
  case WP_U2: return mlirIntegerTypeUnsignedGet(ctx, 2);
  case WP_U4: return mlirIntegerTypeUnsignedGet(ctx, 4);
  case WP_U8: return mlirIntegerTypeUnsignedGet(ctx, 8);
  case WP_U16: return mlirIntegerTypeUnsignedGet(ctx, 16);
  case WP_U32: return mlirIntegerTypeUnsignedGet(ctx, 32);
  case WP_U64: return mlirIntegerTypeUnsignedGet(ctx, 64);
  case WP_F16: return mlirF16TypeGet(ctx);
  case WP_BF16: return mlirBF16TypeGet(ctx);
  case WP_F32: return mlirF32TypeGet(ctx);
  case WP_F64: return mlirF64TypeGet(ctx);
  case WP_F8E5M2: return mlirFloat8E5M2TypeGet(ctx);
  case WP_F8E4M3: return mlirFloat8E4M3TypeGet(ctx);
  case WP_F8E4M3FN: return mlirFloat8E4M3FNTypeGet(ctx);
  case WP_F8E5M2FNUZ: return mlirFloat8E5M2FNUZTypeGet(ctx);
  case WP_F8E4M3FNUZ: return mlirFloat8E4M3FNUZTypeGet(ctx);
  case WP_F8E4M3B11FNUZ: return mlirFloat8E4M3B11FNUZTypeGet(ctx);
  case WP_C64: return mlirComplexTypeGet(mlirF32TypeGet(ctx));
  case WP_C128: return mlirComplexTypeGet(mlirF64TypeGet(ctx));
  case WP_TOKEN: return parse_type(ctx, "!hlo.token");
  case WP_OPAQUE: return parse_type(ctx, "!hlo.opaque");
  case WP_F8E3M4: return parse_type(ctx, "!hlo.f8e3m4");
  case WP_F4E2M1FN: return parse_type(ctx, "!hlo.f4e2m1fn");
  case WP_F8E8M0FNU: return parse_type(ctx, "!hlo.f8e8m0fnu");
  default: return (MlirType){NULL};
  }
}

/* Collects a printed type into a small buffer; longer text marks it full. */
typedef struct type_text {
  char buf[24];
  size_t len;
  bool too_long;
} type_text;

static void collect_text(MlirStringRef part, void *user) {
  type_text *tt = user;
  if (tt->too_long || tt->len + part.length >= sizeof tt->buf) {
    tt->too_long = true;
    return;
  }
  memcpy(tt->buf + tt->len, part.data, part.length);
  tt->len += part.length;
  tt->buf[tt->len] = 0;
}

/* The hlo dialect's own element types (IRDL types, which the C API knows
 * only by their printed form). */
static int hlo_dialect_prim(MlirType t) {
  MlirStringRef ns = mlirDialectGetNamespace(mlirTypeGetDialect(t));
  if (ns.length != 3 || memcmp(ns.data, "hlo", 3) != 0)
    return 0;
  static const struct {
    const char *text;
    int prim;
  } k_types[] = {{"!hlo.token", WP_TOKEN},       {"!hlo.opaque", WP_OPAQUE},
                 {"!hlo.f8e3m4", WP_F8E3M4},     {"!hlo.f4e2m1fn", WP_F4E2M1FN},
                 {"!hlo.f8e8m0fnu", WP_F8E8M0FNU}};
  type_text tt = {.len = 0};
  mlirTypePrint(t, collect_text, &tt);
  for (size_t i = 0; !tt.too_long && i < sizeof k_types / sizeof k_types[0]; i++)
    if (strcmp(tt.buf, k_types[i].text) == 0)
      return k_types[i].prim;
  return 0;
}

int wp_hlo_prim_from_mlir(MlirType t) {
  if (mlirTypeIsAInteger(t)) {
    unsigned w = mlirIntegerTypeGetWidth(t);
    if (mlirIntegerTypeIsUnsigned(t)) {
      switch (w) {
      case 1: return WP_U1; case 2: return WP_U2; case 4: return WP_U4;
      case 8: return WP_U8; case 16: return WP_U16; case 32: return WP_U32;
      case 64: return WP_U64;
      }
      return 0;
    }
    if (mlirIntegerTypeIsSigned(t))
      return w == 1 ? WP_S1 : 0;
    switch (w) {
    case 1: return WP_PRED; case 2: return WP_S2; case 4: return WP_S4;
    case 8: return WP_S8; case 16: return WP_S16; case 32: return WP_S32;
    case 64: return WP_S64;
    }
    return 0;
  }
  if (mlirTypeIsAF16(t)) return WP_F16;
  if (mlirTypeIsABF16(t)) return WP_BF16;
  if (mlirTypeIsAF32(t)) return WP_F32;
  if (mlirTypeIsAF64(t)) return WP_F64;
  if (mlirTypeIsAFloat8E5M2(t)) return WP_F8E5M2;
  if (mlirTypeIsAFloat8E4M3(t)) return WP_F8E4M3;
  if (mlirTypeIsAFloat8E4M3FN(t)) return WP_F8E4M3FN;
  if (mlirTypeIsAFloat8E5M2FNUZ(t)) return WP_F8E5M2FNUZ;
  if (mlirTypeIsAFloat8E4M3FNUZ(t)) return WP_F8E4M3FNUZ;
  if (mlirTypeIsAFloat8E4M3B11FNUZ(t)) return WP_F8E4M3B11FNUZ;
  if (mlirTypeIsAComplex(t)) {
    MlirType e = mlirComplexTypeGetElementType(t);
    if (mlirTypeIsAF32(e)) return WP_C64;
    if (mlirTypeIsAF64(e)) return WP_C128;
    return 0;
  }
  return hlo_dialect_prim(t);
}

static const char *prim_name(int xla) {
  const wp_hlo_prim *p = wp_hlo_prim_info(xla);
  if (p) return p->name;
  switch (xla) {
  case WP_TUPLE: return "tuple";
  case WP_TOKEN: return "token";
  case WP_OPAQUE: return "opaque";
  case 34: return "buffer";
  default: return NULL;
  }
}

int wp_hlo_shape_to_type(MlirContext ctx, const Xla__ShapeProto *shape,
                         MlirType *out, wp_error *err) {
  int et = shape->element_type;
  if (et == WP_TUPLE) {
    size_t n = shape->n_tuple_shapes;
    MlirType stack[16] = {{0}};
    MlirType *elts = n <= 16 ? stack : wp_xmalloc(n * sizeof *elts);
    for (size_t i = 0; i < n; i++)
      if (wp_hlo_shape_to_type(ctx, shape->tuple_shapes[i], &elts[i], err)) {
        if (elts != stack) free(elts);
        return -1;
      }
    *out = mlirTupleTypeGet(ctx, (intptr_t)n, elts);
    if (elts != stack) free(elts);
    return 0;
  }
  if (et == WP_TOKEN || et == WP_OPAQUE) {
    if (shape->n_dimensions)
      return wp_error_set(err, "%s shape with dimensions", prim_name(et));
    *out = wp_hlo_prim_to_mlir(ctx, et);
    return 0;
  }
  MlirType elt = wp_hlo_prim_to_mlir(ctx, et);
  if (mlirTypeIsNull(elt)) {
    const char *name = prim_name(et);
    if (name)
      return wp_error_set(err, "element type %s has no MLIR 19 equivalent", name);
    return wp_error_set(err, "unknown element type %d", et);
  }
  if (shape->n_is_dynamic_dimension &&
      shape->n_is_dynamic_dimension != shape->n_dimensions)
    return wp_error_set(err, "%zu dynamic-dimension flags for %zu dimensions",
                        shape->n_is_dynamic_dimension, shape->n_dimensions);
  size_t rank = shape->n_dimensions;
  int64_t stack[16];
  int64_t *dims = rank <= 16 ? stack : wp_xmalloc(rank * sizeof *dims);
  for (size_t i = 0; i < rank; i++) {
    int dyn = shape->n_is_dynamic_dimension && shape->is_dynamic_dimension[i];
    if (shape->dimensions[i] < 0 && !dyn) {
      int64_t d = shape->dimensions[i];
      if (dims != stack) free(dims);
      return wp_error_set(err, "negative dimension %lld", (long long)d);
    }
    dims[i] = dyn ? mlirShapedTypeGetDynamicSize() : shape->dimensions[i];
  }
  *out = mlirRankedTensorTypeGet((intptr_t)rank, dims, elt, mlirAttributeGetNull());
  if (dims != stack) free(dims);
  return 0;
}

static Xla__Opaque *default_layout(wp_arena *arena, intptr_t rank) {
  Xla__LayoutView view = XLA__LAYOUT_VIEW__INIT;
  int64_t *m2m = wp_arena_alloc(arena, (size_t)(rank ? rank : 1) * sizeof *m2m);
  for (intptr_t i = 0; i < rank; i++)
    m2m[i] = rank - 1 - i;
  view.n_minor_to_major = (size_t)rank;
  view.minor_to_major = m2m;
  view.tail_padding_alignment_in_elements = 1;
  return wp_pb_convert(arena, &view.base, &xla__opaque__descriptor);
}

Xla__ShapeProto *wp_hlo_type_to_shape(wp_arena *arena, MlirType type,
                                      wp_error *err) {
  Xla__ShapeProto *s = wp_pb_new(arena, &xla__shape_proto__descriptor);
  if (mlirTypeIsATuple(type)) {
    s->element_type = WP_TUPLE;
    s->n_tuple_shapes = (size_t)mlirTupleTypeGetNumTypes(type);
    s->tuple_shapes = wp_arena_alloc(arena, (s->n_tuple_shapes + 1) * sizeof(void *));
    for (size_t i = 0; i < s->n_tuple_shapes; i++)
      if (!(s->tuple_shapes[i] = wp_hlo_type_to_shape(
                arena, mlirTupleTypeGetType(type, (intptr_t)i), err)))
        return NULL;
    return s;
  }
  if (mlirTypeIsARankedTensor(type)) {
    int et = wp_hlo_prim_from_mlir(mlirShapedTypeGetElementType(type));
    if (!et) {
      wp_error_set(err, "tensor element type has no XLA equivalent");
      return NULL;
    }
    intptr_t rank = mlirShapedTypeGetRank(type);
    s->element_type = et;
    s->n_dimensions = (size_t)rank;
    s->dimensions = wp_arena_alloc(arena, (size_t)(rank ? rank : 1) * sizeof(int64_t));
    for (intptr_t i = 0; i < rank; i++) {
      if (mlirShapedTypeIsDynamicDim(type, i)) {
        wp_error_set(err, "dynamic dimension without a known bound");
        return NULL;
      }
      s->dimensions[i] = mlirShapedTypeGetDimSize(type, i);
    }
    s->layout = default_layout(arena, rank);
    return s;
  }
  int et = wp_hlo_prim_from_mlir(type);
  if (et == WP_TOKEN || et == WP_OPAQUE) {
    s->element_type = et;
    return s;
  }
  wp_error_set(err, "type has no XLA shape");
  return NULL;
}

int wp_hlo_shape_matches(MlirContext ctx, const Xla__ShapeProto *shape,
                         MlirType type) {
  MlirType t;
  if (!shape || wp_hlo_shape_to_type(ctx, shape, &t, NULL) != 0)
    return 0;
  return mlirTypeEqual(t, type);
}

static void append(char *buf, size_t size, size_t *pos, const char *s) {
  size_t n = strlen(s);
  if (*pos + n >= size)
    n = *pos < size - 1 ? size - 1 - *pos : 0;
  memcpy(buf + *pos, s, n);
  *pos += n;
  buf[*pos] = 0;
}

static void type_str(MlirType type, char *buf, size_t size, size_t *pos) {
  char tmp[32];
  if (mlirTypeIsATuple(type)) {
    append(buf, size, pos, "(");
    for (intptr_t i = 0; i < mlirTupleTypeGetNumTypes(type); i++) {
      if (i) append(buf, size, pos, ", ");
      type_str(mlirTupleTypeGetType(type, i), buf, size, pos);
    }
    append(buf, size, pos, ")");
    return;
  }
  if (mlirTypeIsARankedTensor(type)) {
    const char *name = prim_name(wp_hlo_prim_from_mlir(mlirShapedTypeGetElementType(type)));
    append(buf, size, pos, name ? name : "?");
    append(buf, size, pos, "[");
    for (intptr_t i = 0; i < mlirShapedTypeGetRank(type); i++) {
      if (i) append(buf, size, pos, ",");
      if (mlirShapedTypeIsDynamicDim(type, i))
        snprintf(tmp, sizeof tmp, "?");
      else
        snprintf(tmp, sizeof tmp, "%lld", (long long)mlirShapedTypeGetDimSize(type, i));
      append(buf, size, pos, tmp);
    }
    append(buf, size, pos, "]");
    return;
  }
  const char *name = prim_name(wp_hlo_prim_from_mlir(type));
  append(buf, size, pos, name ? name : "?");
}

void wp_hlo_type_str(MlirType type, char *buf, size_t size) {
  size_t pos = 0;
  if (size) buf[0] = 0;
  if (size) type_str(type, buf, size, &pos);
}

int64_t wp_hlo_num_elements(MlirType t) {
  if (!mlirTypeIsARankedTensor(t))
    return -1;
  int64_t n = 1;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); i++) {
    if (mlirShapedTypeIsDynamicDim(t, i))
      return -1;
    int64_t d = mlirShapedTypeGetDimSize(t, i);
    if (d != 0 && n > INT64_MAX / d)
      return -1;
    n *= d;
  }
  return n;
}

int wp_hlo_storage_bytes(MlirType tensor, int *prim, uint64_t *bytes) {
  *prim = wp_hlo_prim_from_mlir(mlirShapedTypeGetElementType(tensor));
  const wp_hlo_prim *info = wp_hlo_prim_info(*prim);
  int64_t count = wp_hlo_num_elements(tensor);
  if (!info || count < 0)
    return -1;
  if ((uint64_t)count > UINT64_MAX / (uint64_t)info->bytes ||
      (uint64_t)count * (uint64_t)info->bytes > (uint64_t)SIZE_MAX / 2)
    return -2;
  *bytes = (uint64_t)count * (uint64_t)info->bytes;
  return 0;
}
