#include "wp_mlir_util.h"

#include <mlir-c/BuiltinTypes.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

MlirAttribute wp_attr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op, wp_sref(name));
}

void wp_set_attr(MlirOperation op, const char *name, MlirAttribute value) {
  mlirOperationSetAttributeByName(op, wp_sref(name), value);
}

MlirAttribute wp_str_attr(MlirContext ctx, const void *data, size_t len) {
  return mlirStringAttrGet(ctx, mlirStringRefCreate(data, len));
}

MlirAttribute wp_i64_attr(MlirContext ctx, int64_t v) {
  return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v);
}

MlirNamedAttribute wp_named(MlirContext ctx, const char *key, MlirAttribute value) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, wp_sref(key)), value);
}

MlirLocation wp_unknown_loc(MlirOperation op) {
  return mlirLocationUnknownGet(mlirOperationGetContext(op));
}

void wp_blame(MlirLocation *where, MlirOperation op) {
  if (where && mlirLocationIsNull(*where))
    *where = mlirOperationGetLocation(op);
}

bool wp_int_attr_too_wide(MlirAttribute a) {
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return false;
  MlirType t = mlirAttributeGetType(a);
  return mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) > 64;
}

bool wp_attr_str(MlirOperation op, const char *name, MlirStringRef *out) {
  MlirAttribute a = wp_attr(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return false;
  *out = wp_str_value(a);
  return true;
}

bool wp_attr_i64(MlirOperation op, const char *name, int64_t *out) {
  MlirAttribute a = wp_attr(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

MlirAttribute wp_dict_get(MlirAttribute dict, const char *name) {
  if (mlirAttributeIsNull(dict) || !mlirAttributeIsADictionary(dict))
    return mlirAttributeGetNull();
  return mlirDictionaryAttrGetElementByName(dict, wp_sref(name));
}

bool wp_op_is(MlirOperation op, const char *name) {
  MlirStringRef n = wp_ident_str(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

typedef struct {
  char *buf;
  size_t len, cap;
} strbuf;

static void strbuf_cb(MlirStringRef s, void *user) {
  strbuf *b = user;
  if (!b->buf)
    return;
  if (b->len + s.length + 1 > b->cap) {
    size_t cap = (b->cap * 2 > b->len + s.length + 1) ? b->cap * 2 : b->len + s.length + 1;
    char *n = realloc(b->buf, cap);
    if (!n) {
      free(b->buf);
      b->buf = NULL;
      return;
    }
    b->buf = n;
    b->cap = cap;
  }
  memcpy(b->buf + b->len, s.data, s.length);
  b->len += s.length;
  b->buf[b->len] = 0;
}

char *wp_print_op(MlirOperation op, MlirOpPrintingFlags flags, size_t *len) {
  strbuf b = {malloc(4096), 0, 4096};
  if (!b.buf)
    return NULL;
  b.buf[0] = 0;
  if (flags.ptr == NULL)
    mlirOperationPrint(op, strbuf_cb, &b);
  else
    mlirOperationPrintWithFlags(op, flags, strbuf_cb, &b);
  if (len)
    *len = b.len;
  return b.buf;
}

static void loc_cb(MlirStringRef s, void *user) {
  strbuf *b = user;
  size_t n = s.length;
  if (b->len + n + 1 > b->cap)
    n = b->cap - 1 - b->len;
  memcpy(b->buf + b->len, s.data, n);
  b->len += n;
  b->buf[b->len] = 0;
}

void wp_loc_str(MlirLocation loc, char *buf, size_t size) {
  if (size == 0)
    return;
  strbuf b = {buf, 0, size};
  buf[0] = 0;
  mlirLocationPrint(loc, loc_cb, &b);
  /* loc("file":3:4) -> file:3:4 ; NameLoc loc("x"("file":1:2)) -> file:1:2 */
  char *open = strchr(buf, '(');
  if (strncmp(buf, "loc(", 4) != 0 || !open)
    return;
  char *inner = strrchr(buf, '(');
  char *start = inner ? inner + 1 : buf + 4;
  char *end = strchr(start, ')');
  if (end)
    *end = 0;
  size_t w = 0;
  for (char *p = start; *p; p++)
    if (*p != '"')
      buf[w++] = *p;
  buf[w] = 0;
}

MlirOperation wp_first_op_in(MlirOperation op) {
  if (mlirOperationGetNumRegions(op) < 1)
    return (MlirOperation){NULL};
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (mlirBlockIsNull(b))
    return (MlirOperation){NULL};
  return mlirBlockGetFirstOperation(b);
}

MlirBlock wp_func_body(MlirOperation func) {
  if (mlirOperationGetNumRegions(func) < 1)
    return (MlirBlock){NULL};
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
}

MlirOperation wp_find_func(MlirOperation module, MlirStringRef name) {
  for (MlirOperation f = wp_first_op_in(module); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    MlirStringRef n;
    if (wp_op_is(f, "func.func") && wp_attr_str(f, "sym_name", &n) &&
        mlirStringRefEqual(n, name))
      return f;
  }
  return (MlirOperation){NULL};
}

MlirAttribute wp_func_arg_attrs(MlirOperation func, intptr_t i) {
  MlirAttribute all = wp_attr(func, "arg_attrs");
  if (mlirAttributeIsNull(all) || !mlirAttributeIsAArray(all) || i < 0 ||
      i >= mlirArrayAttrGetNumElements(all))
    return mlirAttributeGetNull();
  return mlirArrayAttrGetElement(all, i);
}

static MlirStringRef nonnull(MlirStringRef s) {
  if (!s.data)
    s.data = "";
  return s;
}

MlirStringRef wp_str_value(MlirAttribute a) { return nonnull(mlirStringAttrGetValue(a)); }
MlirStringRef wp_ident_str(MlirIdentifier id) { return nonnull(mlirIdentifierStr(id)); }
MlirStringRef wp_symref_value(MlirAttribute a) { return nonnull(mlirFlatSymbolRefAttrGetValue(a)); }
