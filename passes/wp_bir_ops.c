#include "wp_bir_ops.h"

#include "wp_bir.h"
#include "wp_hlo_literal.h"
#include "wp_hlo_resource.h"
#include "wp_hlo_weight.h"
#include "wp_mlir_util.h"

#include <mlir-c/BuiltinAttributes.h>
#include <stdlib.h>
#include <string.h>

static MlirStringRef sym_name(MlirOperation op) {
  MlirStringRef s = {"", 0};
  wp_attr_str(op, "sym_name", &s);
  return s;
}

int wp_bir_names_init(wp_bir_names *names, MlirOperation func, const char *op_name) {
  wp_i64map_init(&names->by_hash);
  names->n = 0;
  size_t cap = 0;
  names->ops = NULL;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!wp_op_is(op, op_name))
      continue;
    if (names->n == cap) {
      cap = cap ? 2 * cap : 64;
      MlirOperation *grown = realloc(names->ops, cap * sizeof *grown);
      if (!grown)
        return -1;
      names->ops = grown;
    }
    MlirStringRef s = sym_name(op);
    int64_t h = wp_hash_bytes(s.data, s.length), v;
    wp_i64map_put(&names->by_hash, h,
                  wp_i64map_get(&names->by_hash, h, &v) ? 0 : (int64_t)names->n + 1);
    names->ops[names->n++] = op;
  }
  return 0;
}

void wp_bir_names_free(wp_bir_names *names) {
  wp_i64map_free(&names->by_hash);
  free(names->ops);
  names->ops = NULL;
  names->n = 0;
}

int64_t wp_bir_names_index(const wp_bir_names *names, MlirStringRef name) {
  int64_t v;
  if (wp_i64map_get(&names->by_hash, wp_hash_bytes(name.data, name.length), &v)) {
    if (v > 0 && mlirStringRefEqual(sym_name(names->ops[v - 1]), name))
      return v - 1;
    for (size_t i = 0; v == 0 && i < names->n; i++)
      if (mlirStringRefEqual(sym_name(names->ops[i]), name))
        return (int64_t)i;
  }
  return -1;
}

MlirOperation wp_bir_names_find(const wp_bir_names *names, MlirStringRef name) {
  int64_t i = wp_bir_names_index(names, name);
  return i < 0 ? (MlirOperation){NULL} : names->ops[i];
}

MlirOperation wp_bir_next_function(MlirOperation module, MlirOperation prev) {
  MlirOperation op = mlirOperationIsNull(prev) ? wp_first_op_in(module)
                                              : mlirOperationGetNextInBlock(prev);
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (wp_op_is(op, "func.func") && !mlirAttributeIsNull(wp_attr(op, "bir.function")))
      return op;
  return (MlirOperation){NULL};
}

char *wp_bir_str(wp_arena *arena, MlirOperation op, const char *name) {
  MlirStringRef s;
  if (!wp_attr_str(op, name, &s))
    return "";
  return wp_arena_strndup(arena, s.data, s.length);
}

/* The hlo.constant named NAME in the HLO program's entry computation. */
static MlirOperation hlo_constant(MlirOperation module, MlirStringRef name) {
  MlirOperation prog = wp_bir_hlo_program(mlirModuleFromOperation(module));
  if (mlirOperationIsNull(prog))
    return (MlirOperation){NULL};
  for (MlirOperation f = wp_first_op_in(prog); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    if (!wp_op_is(f, "func.func"))
      continue;
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      MlirStringRef n;
      if (wp_op_is(op, "hlo.constant") && wp_attr_str(op, "name", &n) &&
          mlirStringRefEqual(n, name))
        return op;
    }
  }
  return (MlirOperation){NULL};
}

int wp_bir_const_file_source(MlirOperation module, MlirOperation cf, wp_arena *arena,
                             wp_place_src *src, wp_error *err) {
  memset(src, 0, sizeof *src);
  int64_t size = 0;
  wp_attr_i64(cf, "size", &size);
  char *name = wp_bir_str(arena, cf, "sym_name");
  MlirAttribute source = wp_attr(cf, "source"), data = wp_attr(cf, "data");
  MlirStringRef constant;
  const void *bytes;
  uint64_t n = 0;
  if (!mlirAttributeIsNull(source)) {
    MlirAttribute f = wp_dict_get(source, "file"), off = wp_dict_get(source, "offset");
    if (mlirAttributeIsNull(f) || !mlirAttributeIsAString(f) || mlirAttributeIsNull(off) ||
        !mlirAttributeIsAInteger(off))
      return wp_error_set(err, "const file '%s': source needs file and offset", name);
    MlirStringRef fs = mlirStringAttrGetValue(f);
    src->path = wp_arena_strndup(arena, fs.data, fs.length);
    src->offset = (uint64_t)mlirIntegerAttrGetValueInt(off);
    src->size = (uint64_t)size;
    return 0;
  }
  if (wp_attr_str(cf, "constant", &constant)) {
    MlirOperation k = hlo_constant(module, constant);
    if (mlirOperationIsNull(k))
      return wp_error_set(err, "const file '%s': no HLO constant '%.*s'", name,
                          (int)constant.length, constant.data);
    if (wp_hlo_constant_bytes(k, arena, &bytes, &n, err))
      return wp_error_prefix(err, "const file '%s'", name);
  } else if (!mlirAttributeIsNull(data)) {
    if (wp_hlo_elements_bytes(arena, data, &bytes, &n, err))
      return wp_error_prefix(err, "const file '%s'", name);
  } else {
    return wp_error_set(err, "const file '%s' has none of source, constant, data", name);
  }
  if (n != (uint64_t)size)
    return wp_error_set(err, "const file '%s' says %lld bytes but holds %llu", name,
                        (long long)size, (unsigned long long)n);
  src->data = bytes;
  src->size = n;
  return 0;
}
