#include "wp_hlo_literal.h"

#include "wp_hlo_resource.h"
#include "wp_hlo_types.h"
#include "wp_pb.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

#define FIELD_PTR(msg, off) ((void *)((char *)(msg) + (off)))

/* Number of values in field FD of LIT (elements for repeated, bytes for
 * bytes fields, submessages for message fields). */
static size_t field_count(const Xla__LiteralProto *lit,
                          const ProtobufCFieldDescriptor *fd) {
  if (fd->label == PROTOBUF_C_LABEL_REPEATED)
    return *(const size_t *)FIELD_PTR(lit, fd->quantifier_offset);
  if (fd->type == PROTOBUF_C_TYPE_BYTES)
    return ((const ProtobufCBinaryData *)FIELD_PTR(lit, fd->offset))->len;
  return 0;
}

static int only_field_set(const Xla__LiteralProto *lit, unsigned number) {
  const ProtobufCMessageDescriptor *d = &xla__literal_proto__descriptor;
  for (unsigned i = 0; i < d->n_fields; i++) {
    const ProtobufCFieldDescriptor *fd = &d->fields[i];
    if (fd->id == 1 || fd->id == number)
      continue;
    if (field_count(lit, fd))
      return 0;
  }
  return 1;
}

/* Is SHAPE's layout row-major, the order MLIR's elements are in? XLA
 * keeps a literal's data in its shape's layout: {0,1} for a matrix is
 * column-major, and read as row-major it would be transposed. Tiles or a
 * packed element size change the order too. No layout is row-major. */
static bool row_major(const Xla__ShapeProto *shape) {
  if (!shape->layout)
    return true;
  wp_arena *arena = wp_arena_create();
  Xla__LayoutView *v = arena ? wp_pb_convert(arena, &shape->layout->base,
                                             &xla__layout_view__descriptor)
                             : NULL;
  bool ok = v && !v->n_tiles && !v->element_size_in_bits &&
            (v->n_minor_to_major == 0 || v->n_minor_to_major == shape->n_dimensions);
  /* from the most major: dimensions in increasing order, those of size 1
   * anywhere (they move no byte) */
  if (ok && v->n_minor_to_major) {
    int64_t last = INT64_MAX;
    for (size_t i = v->n_minor_to_major; ok && i-- > 0;) {
      int64_t m = v->minor_to_major[i];
      if (m < 0 || (size_t)m >= shape->n_dimensions)
        ok = false;
      else if (shape->dimensions[m] != 1) {
        ok = last == INT64_MAX || m > last;
        last = m;
      }
    }
  }
  wp_arena_destroy(arena);
  return ok;
}

/* SHAPE's minor_to_major into M2M when its layout is a plain permutation
 * (no tiles, no packed element size) other than the default row-major. */
static bool permuted_layout(wp_arena *arena, const Xla__ShapeProto *shape, int64_t *m2m) {
  if (!shape || !shape->layout || shape->n_tuple_shapes || shape->n_dimensions < 2 ||
      shape->n_dimensions > 64)
    return false;
  Xla__LayoutView *v =
      wp_pb_convert(arena, &shape->layout->base, &xla__layout_view__descriptor);
  size_t rank = shape->n_dimensions;
  if (!v || v->n_tiles || v->element_size_in_bits || v->n_minor_to_major != rank)
    return false;
  bool seen[64] = {0}, identity = true;
  for (size_t i = 0; i < rank; i++) {
    int64_t m = v->minor_to_major[i];
    if (m < 0 || (size_t)m >= rank || seen[m])
      return false;
    seen[m] = true;
    m2m[i] = m;
    identity &= m == (int64_t)(rank - 1 - i);
  }
  return !identity;
}

/* BYTES (elements of ELEM bytes) between C order and the physical order of
 * minor_to_major M2M over SHAPE's dimensions; arena memory. */
static const void *permute(wp_arena *arena, const Xla__ShapeProto *shape, const int64_t *m2m,
                           size_t elem, const void *bytes, bool to_physical) {
  size_t rank = shape->n_dimensions;
  int64_t count = 1;
  for (size_t d = 0; d < rank; d++)
    count *= shape->dimensions[d];
  if (count <= 0)
    return bytes;
  int64_t stride[64], idx[64] = {0};
  stride[rank - 1] = (int64_t)elem;
  for (size_t d = rank - 1; d-- > 0;)
    stride[d] = stride[d + 1] * shape->dimensions[d + 1];
  unsigned char *dst = wp_arena_alloc(arena, (size_t)count * elem);
  if (!dst)
    return NULL;
  const unsigned char *src = bytes;
  int64_t off = 0; /* C-order offset of the physical element K */
  for (int64_t k = 0; k < count; k++) {
    if (to_physical)
      memcpy(dst + (size_t)k * elem, src + off, elem);
    else
      memcpy(dst + off, src + (size_t)k * elem, elem);
    for (size_t i = 0; i < rank; i++) {
      int64_t d = m2m[i];
      if (++idx[d] < shape->dimensions[d]) {
        off += stride[d];
        break;
      }
      off -= stride[d] * (shape->dimensions[d] - 1);
      idx[d] = 0;
    }
  }
  return dst;
}

static int literal_to_attr(const Xla__LiteralProto *lit, MlirType type, wp_arena *parena,
                           const int64_t *m2m, MlirAttribute *out);

/* A constant of a type MLIR 19 has no builtin for (!hlo.f4e2m1fn ...):
 * no dense elements attribute can hold it, so it is a dense_resource over
 * a copy of the literal's bytes, one per element, as weights are. A byte
 * the type cannot hold (an f4e2m1fn's high bits set) keeps the literal as
 * it is. */
static int dialect_float_attr(MlirType type, int prim, const void *data, size_t bytes,
                              MlirAttribute *out) {
  const unsigned char *d = data;
  unsigned max = wp_hlo_prim_max_byte(prim);
  for (size_t i = 0; max < 255 && i < bytes; i++)
    if (d[i] > max)
      return 0;
  void *copy = malloc(bytes ? bytes : 1);
  if (!copy)
    return 0;
  if (bytes)
    memcpy(copy, data, bytes);
  *out = wp_hlo_resource_create(type, "literal", copy, bytes, free, copy);
  if (mlirAttributeIsNull(*out)) {
    free(copy);
    return 0;
  }
  return 1;
}

int wp_hlo_literal_to_attr(const Xla__LiteralProto *lit, MlirType type,
                           MlirAttribute *out) {
  if (!mlirTypeIsARankedTensor(type))
    return 0;
  int prim = wp_hlo_prim_from_mlir(mlirShapedTypeGetElementType(type));
  const wp_hlo_prim *info = wp_hlo_prim_info(prim);
  int64_t count = wp_hlo_num_elements(type);
  if (!info || count < 0 || lit->n_tuple_literals)
    return 0;
  int64_t m2m[64];
  bool permuted = false;
  wp_arena *arena = NULL;
  if (lit->shape) {
    MlirType lit_type;
    if (wp_hlo_shape_to_type(mlirTypeGetContext(type), lit->shape, &lit_type, NULL) ||
        !mlirTypeEqual(lit_type, type))
      return 0;
    if (!row_major(lit->shape)) {
      /* data in a permuted layout is put in row-major order; any other
       * order (tiles, packed elements) is kept as it is (unread) */
      arena = wp_arena_create();
      permuted = arena && permuted_layout(arena, lit->shape, m2m);
      if (!permuted) {
        if (arena)
          wp_arena_destroy(arena);
        return 0;
      }
    }
  }
  int r = literal_to_attr(lit, type, permuted ? arena : NULL, m2m, out);
  if (arena)
    wp_arena_destroy(arena);
  return r;
}

/* The literal's elements as TYPE; PARENA non-NULL: the data is in the
 * physical order of minor_to_major M2M. */
static int literal_to_attr(const Xla__LiteralProto *lit, MlirType type, wp_arena *parena,
                           const int64_t *m2m, MlirAttribute *out) {
  int prim = wp_hlo_prim_from_mlir(mlirShapedTypeGetElementType(type));
  const wp_hlo_prim *info = wp_hlo_prim_info(prim);
  int64_t count = wp_hlo_num_elements(type);
#define UNPERMUTE(ptr, elem)                                                          \
  do {                                                                                \
    if (parena && !((ptr) = permute(parena, lit->shape, m2m, (elem), (ptr), false)))  \
      return 0;                                                                       \
  } while (0)
  const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field(
      &xla__literal_proto__descriptor, (unsigned)info->literal_field);
  if (!fd || !only_field_set(lit, fd->id))
    return 0;
  size_t n = field_count(lit, fd);
  if (prim == WP_PRED) {
    if (n != (size_t)count)
      return 0;
    const protobuf_c_boolean *v = *(protobuf_c_boolean *const *)FIELD_PTR(lit, fd->offset);
    UNPERMUTE(v, sizeof *v);
    /* protobuf_c_boolean is int, as mlirDenseElementsAttrBoolGet wants. */
    *out = mlirDenseElementsAttrBoolGet(type, (intptr_t)count, (const int *)v);
    return 1;
  }
  if (prim == WP_S1 || prim == WP_U1) {
    /* MLIR packs 1-bit integers; the literal has a byte per element. */
    const ProtobufCBinaryData *b = FIELD_PTR(lit, fd->offset);
    if (b->len != (size_t)count)
      return 0;
    const uint8_t *bd = b->data;
    UNPERMUTE(bd, 1);
    int *v = malloc((size_t)(count ? count : 1) * sizeof *v);
    if (!v)
      return 0;
    for (int64_t i = 0; i < count; i++) {
      if (bd[i] > 1) { /* not 0 or 1: keep the literal as it is */
        free(v);
        return 0;
      }
      v[i] = bd[i];
    }
    *out = mlirDenseElementsAttrBoolGet(type, (intptr_t)count, v);
    free(v);
    return 1;
  }
  const void *data;
  size_t bytes;
  if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
    size_t per = (prim == WP_C64 || prim == WP_C128) ? 2 : 1;
    if (n != (size_t)count * per)
      return 0;
    data = *(void *const *)FIELD_PTR(lit, fd->offset);
    bytes = (size_t)count * (size_t)info->bytes;
  } else {
    const ProtobufCBinaryData *b = FIELD_PTR(lit, fd->offset);
    if (b->len != (size_t)count * (size_t)info->bytes)
      return 0;
    data = b->data;
    bytes = b->len;
  }
  if (bytes)
    UNPERMUTE(data, (size_t)info->bytes);
#undef UNPERMUTE
  if (wp_hlo_prim_is_dialect_float(prim))
    return dialect_float_attr(type, prim, data, bytes, out);
  static const char empty[16];
  *out = mlirDenseElementsAttrRawBufferGet(type, bytes, bytes ? data : empty);
  return !mlirAttributeIsNull(*out);
}

int wp_hlo_literal_in_layout(wp_arena *arena, const Xla__ShapeProto *shape, int elem_bytes,
                             const void *bytes, Xla__ShapeProto *lit_shape,
                             const void **out) {
  *out = bytes;
  int64_t m2m[64];
  bool permuted;
  if (shape && lit_shape && lit_shape != shape && permuted_layout(arena, shape, m2m) &&
      lit_shape->n_dimensions == shape->n_dimensions) {
    /* The literal's layout: the instruction's minor_to_major (XLA requires
     * the two to agree), nothing else (a literal's data is never tiled). */
    Xla__LayoutView *lv = wp_pb_new(arena, &xla__layout_view__descriptor);
    int64_t *copy = wp_arena_alloc(arena, shape->n_dimensions * sizeof *copy);
    if (!lv || !copy)
      return -1;
    memcpy(copy, m2m, shape->n_dimensions * sizeof *copy);
    lv->n_minor_to_major = shape->n_dimensions;
    lv->minor_to_major = copy;
    Xla__Opaque *lo = wp_pb_convert(arena, &lv->base, &xla__opaque__descriptor);
    if (!lo)
      return -1;
    lit_shape->layout = lo;
    permuted = true;
  } else {
    permuted = permuted_layout(arena, lit_shape, m2m);
  }
  if (!permuted)
    return 0;
  *out = permute(arena, lit_shape, m2m, (size_t)elem_bytes, bytes, true);
  return *out ? 0 : -1;
}

int wp_hlo_literal_zeros(MlirType type, MlirAttribute *out) {
  if (!mlirTypeIsARankedTensor(type) || !mlirShapedTypeHasStaticShape(type))
    return -1;
  int prim = wp_hlo_prim_from_mlir(mlirShapedTypeGetElementType(type));
  const wp_hlo_prim *info = wp_hlo_prim_info(prim);
  if (!info)
    return -1;
  if (wp_hlo_prim_is_one_bit(prim)) {
    *out = mlirDenseElementsAttrBoolSplatGet(type, false);
  } else {
    /* a buffer of one element is a splat to MLIR */
    static const char zero[16];
    *out = mlirDenseElementsAttrRawBufferGet(type, (size_t)info->bytes, zero);
  }
  return mlirAttributeIsNull(*out) ? -1 : 0;
}

void wp_hlo_literal_clear_data(Xla__LiteralProto *lit) {
  const ProtobufCMessageDescriptor *d = &xla__literal_proto__descriptor;
  for (unsigned i = 0; i < d->n_fields; i++) {
    const ProtobufCFieldDescriptor *fd = &d->fields[i];
    if (fd->id == 1)
      continue;
    if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
      *(size_t *)FIELD_PTR(lit, fd->quantifier_offset) = 0;
      *(void **)FIELD_PTR(lit, fd->offset) = NULL;
    } else if (fd->type == PROTOBUF_C_TYPE_BYTES) {
      ProtobufCBinaryData *b = FIELD_PTR(lit, fd->offset);
      b->len = 0;
      b->data = NULL;
    }
  }
}

int wp_hlo_literal_set_data(wp_arena *arena, Xla__LiteralProto *lit, int prim,
                            const void *bytes, int64_t count, wp_error *err) {
  const wp_hlo_prim *info = wp_hlo_prim_info(prim);
  if (!info)
    return wp_error_set(err, "element type %d cannot be a literal", prim);
  const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field(
      &xla__literal_proto__descriptor, (unsigned)info->literal_field);
  if (!fd)
    return wp_error_set(err, "no literal field for %s", info->name);
  size_t nbytes = (size_t)count * (size_t)info->bytes;
  if (prim == WP_PRED) {
    protobuf_c_boolean *v = wp_arena_alloc(arena, (size_t)(count ? count : 1) * sizeof *v);
    for (int64_t i = 0; i < count; i++)
      v[i] = ((const unsigned char *)bytes)[i] != 0;
    *(size_t *)FIELD_PTR(lit, fd->quantifier_offset) = (size_t)count;
    *(void **)FIELD_PTR(lit, fd->offset) = v;
  } else if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
    size_t per = (prim == WP_C64 || prim == WP_C128) ? 2 : 1;
    *(size_t *)FIELD_PTR(lit, fd->quantifier_offset) = (size_t)count * per;
    *(const void **)FIELD_PTR(lit, fd->offset) = bytes;
  } else {
    ProtobufCBinaryData *b = FIELD_PTR(lit, fd->offset);
    b->len = nbytes;
    b->data = (uint8_t *)bytes;
  }
  return 0;
}

int wp_hlo_elements_bytes(wp_arena *arena, MlirAttribute attr,
                          const void **bytes, uint64_t *size, wp_error *err) {
  if (!mlirAttributeIsADenseElements(attr))
    return wp_error_set(err, "constant value is not a dense elements attribute");
  MlirType type = mlirAttributeGetType(attr);
  int prim;
  uint64_t total;
  int fits = wp_hlo_storage_bytes(type, &prim, &total);
  if (fits == -1)
    return wp_error_set(err, "constant has no XLA element type or a dynamic shape");
  int64_t count = wp_hlo_num_elements(type);
  if (fits == -2)
    return wp_error_set(err, "constant of %lld elements is too large to hold in memory",
                        (long long)count);
  const wp_hlo_prim *info = wp_hlo_prim_info(prim);
  if (wp_hlo_prim_is_one_bit(prim)) {
    unsigned char *b = wp_arena_alloc(arena, total ? total : 1);
    for (int64_t i = 0; i < count; i++)
      b[i] = mlirDenseElementsAttrGetBoolValue(attr, mlirDenseElementsAttrIsSplat(attr) ? 0 : i);
    *bytes = b;
    *size = total;
    return 0;
  }
  const void *raw = mlirDenseElementsAttrGetRawData(attr);
  if (mlirDenseElementsAttrIsSplat(attr) && count > 1) {
    unsigned char *b = wp_arena_alloc(arena, total);
    for (int64_t i = 0; i < count; i++)
      memcpy(b + (uint64_t)i * (uint64_t)info->bytes, raw, (size_t)info->bytes);
    *bytes = b;
  } else {
    *bytes = raw;
  }
  *size = total;
  return 0;
}
