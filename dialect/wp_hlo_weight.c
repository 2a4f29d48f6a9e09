#include "wp_hlo_weight.h"

#include "wp_file.h"
#include "wp_hlo_literal.h"
#include "wp_hlo_resource.h"
#include "wp_hlo_types.h"
#include "wp_mlir_util.h"
#include "wp_npy.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Which HLO element types a .npy dtype can hold. Raw void bytes take the
 * parameter's own type of the same width; ml_dtypes' '<f1' its float8 type. */
static int dtype_fits(const wp_npy_info *npy, int prim) {
  const wp_hlo_prim *info = wp_hlo_prim_info(prim);
  if (!info || info->bytes != npy->itemsize)
    return 0;
  switch (npy->kind) {
  case 'b': return prim == WP_PRED;
  case 'i': return prim == WP_S8 || prim == WP_S16 || prim == WP_S32 || prim == WP_S64;
  case 'u': return prim == WP_U8 || prim == WP_U16 || prim == WP_U32 || prim == WP_U64;
  case 'c': return prim == WP_C64 || prim == WP_C128;
  case 'f':
    /* '<f1' is how ml_dtypes saves a float8: its bytes are some float8
     * (which one, the parameter says), never an integer's or a bool's */
    if (npy->itemsize == 1)
      return prim == WP_F8E5M2 || prim == WP_F8E4M3FN || prim == WP_F8E4M3B11FNUZ ||
             prim == WP_F8E5M2FNUZ || prim == WP_F8E4M3FNUZ || prim == WP_F8E4M3 ||
             prim == WP_F8E3M4 || prim == WP_F8E8M0FNU || prim == WP_F4E2M1FN;
    return prim == WP_F16 || prim == WP_F32 || prim == WP_F64;
  case 'V': return true; /* a bool's bytes are checked to be 0 or 1 */
  }
  return 0;
}

/* "f32[4,3]" for a .npy array, naming its dtype the way XLA would. */
static void npy_str(const wp_npy_info *npy, char *buf, size_t size) {
  static const struct {
    char kind;
    int size;
    const char *name;
  } names[] = {{'b', 1, "pred"}, {'i', 1, "s8"},  {'i', 2, "s16"}, {'i', 4, "s32"},
               {'i', 8, "s64"},  {'u', 1, "u8"},  {'u', 2, "u16"}, {'u', 4, "u32"},
               {'u', 8, "u64"},  {'f', 2, "f16"}, {'f', 4, "f32"}, {'f', 8, "f64"},
               {'c', 8, "c64"},  {'c', 16, "c128"}};
  const char *name = npy->descr;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (names[i].kind == npy->kind && names[i].size == npy->itemsize)
      name = names[i].name;
  size_t n = (size_t)snprintf(buf, size, "%s[", name);
  for (int i = 0; i < npy->ndim && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, "%s%lld", i ? "," : "", (long long)npy->shape[i]);
  if (n < size)
    snprintf(buf + n, size - n, "]");
}

/* What a weight constant's blob holds on to: the file view, or the
 * converted copy. */
typedef struct weight_blob {
  wp_mapped_file file;
  void *converted;
} weight_blob;

static void release_blob(void *user) {
  weight_blob *b = user;
  wp_file_unmap(&b->file);
  free(b->converted);
  free(b);
}

struct wp_hlo_weight_data {
  weight_blob *blob;
  const void *data;
  uint64_t size;
};

const void *wp_hlo_weight_data_bytes(const wp_hlo_weight_data *w, uint64_t *size) {
  *size = w->size;
  return w->data;
}

/* The index of the first byte of D[0, N) above MAX, or -1. */
static int64_t byte_above(const unsigned char *d, uint64_t n, unsigned max) {
  for (uint64_t i = 0; max < 255 && i < n; i++)
    if (d[i] > max)
      return (int64_t)i;
  return -1;
}

/* Says which byte of an element type that holds fewer than 8 bits is out
 * of its range. */
static int bad_byte(wp_error *err, int prim, const char *where, int64_t at, unsigned byte) {
  if (prim == WP_PRED)
    return wp_error_set(err, "bool element %lld%s is the byte %u; a bool is 0 or 1",
                        (long long)at, where, byte);
  if (prim == WP_F4E2M1FN)
    return wp_error_set(err, "element %lld%s is the byte %u; an f4e2m1fn element is one "
                        "byte 0..15 (4 bits, unpacked)", (long long)at, where, byte);
  return wp_error_set(err, "element %lld%s is the byte %u; a 1-bit element is 0 or 1",
                      (long long)at, where, byte);
}

int wp_hlo_weight_read(MlirType type, const char *path, int file_flags,
                       wp_hlo_weight_data **out, wp_error *err) {
  *out = NULL;
  if (!mlirTypeIsARankedTensor(type))
    return wp_error_set(err, "the parameter is not an array");
  wp_mapped_file f;
  wp_error sub;
  if (wp_file_map_flags(path, file_flags, &f, &sub)) {
    /* The caller names the file; keep only what went wrong. */
    size_t n = strlen(path);
    const char *why = strncmp(sub.msg, path, n) == 0 && sub.msg[n] == ':' ? sub.msg + n + 2
                                                                           : sub.msg;
    return wp_error_set(err, "%s", why);
  }
  return wp_hlo_weight_from_view(type, path, &f, out, err);
}

int wp_hlo_weight_from_view(MlirType type, const char *path, wp_mapped_file *view,
                            wp_hlo_weight_data **out, wp_error *err) {
  return wp_hlo_weight_from_parts(type, path, NULL, 0, view, out, err);
}

int wp_hlo_weight_from_parts(MlirType type, const char *path, const unsigned char *head,
                             size_t head_size, wp_mapped_file *view, wp_hlo_weight_data **out,
                             wp_error *err) {
  *out = NULL;
  wp_mapped_file f = *view;
  *view = (wp_mapped_file){0};
  if (!mlirTypeIsARankedTensor(type)) {
    wp_file_unmap(&f);
    return wp_error_set(err, "the parameter is not an array");
  }
  int prim = wp_hlo_prim_from_mlir(mlirShapedTypeGetElementType(type));
  if (!head)
    head_size = 0;
  wp_npy_info npy;
  if (wp_npy_parse(head ? head : f.data, head ? head_size : f.size, head_size + f.size, &npy,
                   err)) {
    wp_file_unmap(&f);
    return -1;
  }
  if (head && npy.data_offset != head_size) {
    wp_file_unmap(&f);
    return wp_error_set(err, "the header read apart is not the whole .npy header");
  }
  /* the payload in VIEW: the header is all of HEAD, or at VIEW's start */
  const unsigned char *payload = f.data ? f.data + (npy.data_offset - head_size) : NULL;
  int same_shape = npy.ndim == mlirShapedTypeGetRank(type);
  for (int i = 0; same_shape && i < npy.ndim; i++)
    same_shape = !mlirShapedTypeIsDynamicDim(type, i) &&
                 npy.shape[i] == mlirShapedTypeGetDimSize(type, i);
  if (!same_shape || !dtype_fits(&npy, prim)) {
    char have[256], want[256];
    npy_str(&npy, have, sizeof have);
    wp_hlo_type_str(type, want, sizeof want);
    wp_file_unmap(&f);
    return wp_error_set(err, "the file holds %s but the parameter is %s", have, want);
  }
  /* XLA's PRED is 0 or 1 and so are numpy's bools, and a 1-bit integer
   * (raw V1 bytes) is too; another byte (a view cast from uint8) would
   * reach the NEFF as it is in one run and be refused or read as 1 when
   * the IR is read back, so it is refused here. Likewise an f4e2m1fn, a
   * byte per element holding 4 bits (XLA's unpacked literal form): high
   * bits set would pack as another value. */
  int64_t bad = payload ? byte_above(payload, npy.data_size, wp_hlo_prim_max_byte(prim)) : -1;
  if (bad >= 0) {
    unsigned byte = payload[bad];
    wp_file_unmap(&f);
    return bad_byte(err, prim, "", bad, byte);
  }
#ifdef WP_TESTING
  /* Test hook (opt's SIGBUS test): the mapped file is truncated now, as
   * if another program did it while the run reads the weight. */
  const char *shrink = getenv("WP_TEST_SHRINK_AFTER_MAP");
  size_t sl = shrink ? strlen(shrink) : 0, pl = strlen(path);
  if (sl && pl >= sl && !strcmp(path + pl - sl, shrink) && !f.heap && !f.slab &&
      truncate(path, 0) != 0) {
    wp_file_unmap(&f);
    return wp_error_set(err, "WP_TEST_SHRINK_AFTER_MAP: cannot truncate");
  }
#endif
  if (wp_npy_needs_conversion(&npy) &&
      wp_input_size_check(npy.data_size, "a weight to convert", err)) {
    wp_file_unmap(&f);
    return -1;
  }
  wp_hlo_weight_data *w = wp_xcalloc(1, sizeof *w);
  weight_blob *b = wp_xcalloc(1, sizeof *b);
  if (wp_npy_needs_conversion(&npy)) {
    /* The only copy: the constant must hold little-endian C-order bytes.
     * A documented exception (docs/layout.md): within the limit, it may
     * still not fit, and says so as an error. */
    b->converted = malloc(npy.data_size ? npy.data_size : 1);
    if (!b->converted) {
      free(b);
      free(w);
      wp_file_unmap(&f);
      return wp_error_set(err, "out of memory converting %llu bytes",
                          (unsigned long long)npy.data_size);
    }
    wp_npy_to_c_order_le(&npy, payload, b->converted);
    w->data = b->converted;
    wp_file_unmap(&f);
  } else {
    b->file = f;
    w->data = payload;
  }
  w->blob = b;
  w->size = npy.data_size;
  *out = w;
  return 0;
}

void wp_hlo_weight_data_free(wp_hlo_weight_data *w) {
  if (!w)
    return;
  release_blob(w->blob);
  free(w);
}

static void release_slab(void *slab, const void *data, size_t size, size_t align) {
  (void)data, (void)size, (void)align;
  wp_file_slab_release(slab);
}

int wp_hlo_weight_attr(MlirType type, const char *key, wp_hlo_weight_data *w,
                       MlirAttribute *value, wp_error *err) {
  weight_blob *b = w->blob;
  const void *data = w->data;
  uint64_t size = w->size;
  free(w); /* the blob now belongs to the attribute */
  struct wp_slab *slab = b->converted ? NULL : b->file.slab;
  if (slab) { /* bytes in a slab: its hold is all the attribute keeps */
    free(b);
    *value = wp_hlo_resource_create_direct(type, key, data, size, release_slab, slab);
  } else {
    *value = wp_hlo_resource_create(type, key, data, size, release_blob, b);
  }
  if (mlirAttributeIsNull(*value)) {
    if (slab)
      wp_file_slab_release(slab);
    else
      release_blob(b);
    return wp_error_set(err, "could not create the constant");
  }
  return 0;
}

int wp_hlo_weight_load(MlirType type, const char *path, const char *key, MlirAttribute *value,
                       wp_error *err) {
  wp_hlo_weight_data *w;
  if (wp_hlo_weight_read(type, path, 0, &w, err))
    return -1;
  return wp_hlo_weight_attr(type, key, w, value, err);
}

wp_hlo_origin_keys wp_hlo_origin_keys_get(MlirContext ctx) {
  return (wp_hlo_origin_keys){mlirIdentifierGet(ctx, wp_sref("file")),
                              mlirIdentifierGet(ctx, wp_sref("number")),
                              mlirIdentifierGet(ctx, wp_sref("param"))};
}

MlirAttribute wp_hlo_weight_origin_keyed(MlirContext ctx, const wp_hlo_origin_keys *keys,
                                         const char *file, const char *param, int64_t number) {
  MlirNamedAttribute f[3] = {
      mlirNamedAttributeGet(keys->file, wp_str_attr(ctx, file, strlen(file))),
      mlirNamedAttributeGet(keys->number, wp_i64_attr(ctx, number)),
      mlirNamedAttributeGet(keys->param, wp_str_attr(ctx, param, strlen(param))),
  };
  return mlirDictionaryAttrGet(ctx, 3, f);
}

MlirAttribute wp_hlo_weight_origin(MlirContext ctx, const char *file, const char *param,
                                   int64_t number) {
  wp_hlo_origin_keys keys = wp_hlo_origin_keys_get(ctx);
  return wp_hlo_weight_origin_keyed(ctx, &keys, file, param, number);
}

bool wp_hlo_weight_origin_get(MlirAttribute attr, MlirStringRef *file, MlirStringRef *param,
                              int64_t *number) {
  MlirAttribute f = wp_dict_get(attr, "file"), p = wp_dict_get(attr, "param"),
                n = wp_dict_get(attr, "number");
  if (mlirAttributeIsNull(f) || !mlirAttributeIsAString(f) || mlirAttributeIsNull(p) ||
      !mlirAttributeIsAString(p) || mlirAttributeIsNull(n) || !mlirAttributeIsAInteger(n))
    return false;
  *file = wp_str_value(f);
  *param = wp_str_value(p);
  *number = mlirIntegerAttrGetValueInt(n);
  return true;
}

/* Checks the bytes a resource VALUE holds against its type: their count,
 * and 0 or 1 in each element of a 1-bit type. */
static int check_blob(MlirAttribute value, const void *bytes, uint64_t size, wp_error *err) {
  int prim;
  uint64_t expect;
  int fits = wp_hlo_storage_bytes(mlirAttributeGetType(value), &prim, &expect);
  if (fits == -1)
    return wp_error_set(err, "its dense_resource has no XLA element type or a dynamic shape");
  if (fits == -2)
    return wp_error_set(err, "a blob of its type is too large to hold in memory");
  if (size != expect)
    return wp_error_set(err, "its dense_resource blob holds %llu bytes but its type needs %llu",
                        (unsigned long long)size, (unsigned long long)expect);
  int64_t bad = byte_above(bytes, expect, wp_hlo_prim_max_byte(prim));
  if (bad >= 0 && prim == WP_F4E2M1FN)
    return bad_byte(err, prim, " of its dense_resource", bad,
                    ((const unsigned char *)bytes)[bad]);
  if (bad >= 0)
    return wp_error_set(err, "element %lld of its dense_resource is the byte %u; a 1-bit "
                        "element is 0 or 1", (long long)bad, ((const unsigned char *)bytes)[bad]);
  return 0;
}

int wp_hlo_constant_bytes(MlirOperation op, wp_arena *arena, const void **bytes, uint64_t *size,
                          wp_error *err) {
  bool in_ir;
  return wp_hlo_constant_bytes_from(op, arena, bytes, size, &in_ir, err);
}

int wp_hlo_constant_bytes_from(MlirOperation op, wp_arena *arena, const void **bytes,
                               uint64_t *size, bool *in_ir, wp_error *err) {
  *in_ir = true;
  MlirAttribute value = wp_attr(op, "value");
  if (mlirAttributeIsNull(value))
    return wp_error_set(err, "constant without a value");
  if (!wp_hlo_resource_is(value))
    return wp_hlo_elements_bytes(arena, value, bytes, size, err);
  if (wp_hlo_resource_bytes(value, bytes, size) == 0)
    return check_blob(value, *bytes, *size, err);
  *in_ir = false;
  MlirStringRef file, param;
  int64_t number;
  MlirAttribute w = wp_attr(op, "weight");
  if (mlirAttributeIsNull(w) || !wp_hlo_weight_origin_get(w, &file, &param, &number))
    return wp_error_set(err, "its dense_resource holds no bytes (its blob was elided or never given) "
                             "and it has no weight origin to read them from");
  char *path = wp_arena_strndup(arena, file.data, file.length);
  MlirAttribute again;
  if (wp_hlo_weight_load(mlirAttributeGetType(value), path, "reloaded", &again, err))
    return wp_error_prefix(err, "weight %s", path);
  if (wp_hlo_resource_bytes(again, bytes, size))
    return wp_error_set(err, "weight %s: its bytes are not available", path);
  return 0;
}

void wp_hlo_weight_key(const char *param, char *buf, size_t size) {
  size_t n = 0;
  if (!param[0] || (param[0] >= '0' && param[0] <= '9'))
    n = (size_t)snprintf(buf, size, "w_");
  for (const char *p = param; *p && n + 1 < size; p++) {
    char c = *p;
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    buf[n++] = ok ? c : '_';
  }
  buf[n < size ? n : size - 1] = 0;
}
