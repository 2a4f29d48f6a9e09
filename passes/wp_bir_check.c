#include "wp_bir_check.h"

#include "wp_bir_enums.h"

#include "wp_bir_ops.h"
#include "wp_mlir_util.h"
#include "wp_pass.h"
#include "wp_strmap.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct checker {
  const char *pass;
  MlirOperation op;
  bool failed;
} checker;

static void fail(checker *c, const char *attr, const char *what) {
  if (c->failed)
    return;
  c->failed = true;
  MlirStringRef opname = wp_ident_str(mlirOperationGetName(c->op));
  MlirStringRef name = {"", 0};
  wp_attr_str(c->op, "sym_name", &name);
  wp_emit_error(mlirOperationGetLocation(c->op), "%s%s%.*s '%.*s': %s %s", c->pass,
                c->pass[0] ? ": " : "", (int)opname.length, opname.data, (int)name.length,
                name.data, attr, what);
}

/* An optional integer attribute: absent, or an integer in [MIN, INT64_MAX]. */
static void opt_int(checker *c, const char *attr, int64_t min) {
  MlirAttribute a = wp_attr(c->op, attr);
  if (mlirAttributeIsNull(a))
    return;
  /* true is an i1 whose value reads as -1: not a count either (an index
   * is fine; it has no width to ask) */
  if (!mlirAttributeIsAInteger(a))
    return fail(c, attr, "must be an integer");
  MlirType t = mlirAttributeGetType(a);
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) < 2)
    return fail(c, attr, "must be an integer");
  if (mlirIntegerAttrGetValueInt(a) < min)
    fail(c, attr, min ? "must be at least 1" : "must not be negative");
}

static void opt_ref(checker *c, const char *attr) {
  MlirAttribute a = wp_attr(c->op, attr);
  if (!mlirAttributeIsNull(a) && !mlirAttributeIsAFlatSymbolRef(a))
    fail(c, attr, "must be a symbol reference (@name)");
}

static void check_const_file(checker *c) {
  opt_int(c, "size", 0);
  MlirAttribute src = wp_attr(c->op, "source");
  if (!mlirAttributeIsNull(src)) {
    MlirAttribute f = mlirAttributeIsADictionary(src) ? wp_dict_get(src, "file")
                                                      : mlirAttributeGetNull();
    MlirAttribute off = mlirAttributeIsADictionary(src) ? wp_dict_get(src, "offset")
                                                        : mlirAttributeGetNull();
    if (mlirAttributeIsNull(f) || !mlirAttributeIsAString(f) || mlirAttributeIsNull(off) ||
        !mlirAttributeIsAInteger(off))
      return fail(c, "source", "must be {file = \"PATH\", offset = N}");
    if (mlirIntegerAttrGetValueInt(off) < 0)
      return fail(c, "source", "offset must not be negative");
  }
  /* where the bytes come from: one place only (which would win?) */
  int n_sources = 0;
  for (size_t i = 0; i < WP_BIR_N_BYTE_SOURCES; i++)
    n_sources += !mlirAttributeIsNull(wp_attr(c->op, wp_bir_byte_sources[i]));
  if (n_sources > 1)
    return fail(c, "names", "more than one source of its bytes (constant, source, data or "
                "assembled); give one");
  static const char *const strings[] = {"constant", "assembled", "artifact", "md5"};
  for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
    MlirAttribute a = wp_attr(c->op, strings[i]);
    if (!mlirAttributeIsNull(a) && !mlirAttributeIsAString(a))
      fail(c, strings[i], "must be a string");
  }
}

static void check_set(checker *c) {
  MlirAttribute shape = wp_attr(c->op, "shape");
  if (mlirAttributeIsNull(shape) || !mlirAttributeIsADenseI64Array(shape))
    return fail(c, "shape", "must be array<i64: ...>");
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(shape); i++)
    if (mlirDenseI64ArrayGetElement(shape, i) < 0)
      return fail(c, "shape", "has a negative dimension");
  MlirAttribute hv = wp_attr(c->op, "hlo_value");
  if (!mlirAttributeIsNull(hv) && !mlirAttributeIsAString(hv))
    fail(c, "hlo_value", "must be a string");
}

static void check_memloc(checker *c) {
  MlirAttribute set = wp_attr(c->op, "set");
  if (mlirAttributeIsNull(set) || !mlirAttributeIsAFlatSymbolRef(set))
    return fail(c, "set", "must be a plain symbol reference (@name)");
  opt_int(c, "size", 0);
  opt_int(c, "placement", 0);
  opt_int(c, "const_ap_offset", 0);
  opt_int(c, "const_sub_tensor_id", 0);
  opt_int(c, "alignment", 1);
  opt_ref(c, "const_file");
  MlirAttribute al = wp_attr(c->op, "alignment");
  if (!c->failed && !mlirAttributeIsNull(al)) {
    int64_t v = mlirIntegerAttrGetValueInt(al);
    if (v & (v - 1))
      fail(c, "alignment", "must be a power of two");
    /* a pointer the device could not use as aligned: the layout of
     * hand-written BIR is checked here, bir-lower's is by construction */
    static const char *const aligned[] = {"placement", "const_ap_offset"};
    for (size_t i = 0; i < 2 && !c->failed; i++) {
      int64_t at;
      if (wp_attr_i64(c->op, aligned[i], &at) && at % v) {
        char what[96];
        snprintf(what, sizeof what, "%lld is not a multiple of the alignment %lld",
                 (long long)at, (long long)v);
        fail(c, aligned[i], what);
      }
    }
  }
  int64_t at, size;
  if (!c->failed && wp_attr_i64(c->op, "placement", &at) && wp_attr_i64(c->op, "size", &size) &&
      at > INT64_MAX - size)
    fail(c, "placement", "plus the size passes byte 2^63-1");
  MlirAttribute r = wp_attr(c->op, "is_regloc_offset");
  if (!mlirAttributeIsNull(r) && !mlirAttributeIsABool(r))
    fail(c, "is_regloc_offset", "must be true or false");
}

static void check_kernel(checker *c) {
  MlirAttribute files = wp_attr(c->op, "const_files");
  if (mlirAttributeIsNull(files) || !mlirAttributeIsAArray(files))
    return fail(c, "const_files", "must be an array");
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(files); i++)
    if (!mlirAttributeIsAFlatSymbolRef(mlirArrayAttrGetElement(files, i))) {
      char what[96];
      snprintf(what, sizeof what, "element %ld must be a plain symbol reference (@name)",
               (long)i);
      return fail(c, "const_files", what);
    }
  MlirAttribute p = wp_attr(c->op, "program");
  if (!mlirAttributeIsNull(p) && !mlirAttributeIsASymbolRef(p) && !mlirAttributeIsAString(p))
    fail(c, "program", "must be a symbol reference");
}

/* A constant pointer: which sub-tensor of which file, at which offset. */
typedef struct sub_ref {
  MlirStringRef file;
  int64_t id, offset;
  MlirOperation op;
} sub_ref;

static int cmp_sub_ref(const void *a, const void *b) {
  const sub_ref *x = a, *y = b;
  size_t n = x->file.length < y->file.length ? x->file.length : y->file.length;
  int c = memcmp(x->file.data, y->file.data, n);
  if (c)
    return c;
  if (x->file.length != y->file.length)
    return x->file.length < y->file.length ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* One sub-tensor of a const file is at one offset: two locations giving
 * one id at two offsets would leave a reader to guess which bytes it is.
 * Id 0 is left out: BIR JSON and proto3 read a missing id as 0, so
 * several tensors of a file written without ids all have it. */
static void check_sub_tensors(checker *c, MlirBlock b) {
  size_t n = 0, cap = 0;
  sub_ref *refs = NULL;
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute f = wp_op_is(op, "bir.memloc") ? wp_attr(op, "const_file")
                                                 : mlirAttributeGetNull();
    int64_t id, offset;
    if (mlirAttributeIsNull(f) || !mlirAttributeIsAFlatSymbolRef(f) ||
        !wp_attr_i64(op, "const_sub_tensor_id", &id) ||
        !wp_attr_i64(op, "const_ap_offset", &offset) || id == 0)
      continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      sub_ref *g = realloc(refs, cap * sizeof *g);
      if (!g) {
        free(refs);
        c->op = op;
        return fail(c, "const_sub_tensor_id", "could not be checked (out of memory)");
      }
      refs = g;
    }
    refs[n++] = (sub_ref){wp_symref_value(f), id, offset, op};
  }
  if (n > 1)
    qsort(refs, n, sizeof *refs, cmp_sub_ref);
  for (size_t i = 1; i < n && !c->failed; i++)
    if (!cmp_sub_ref(&refs[i - 1], &refs[i]) && refs[i - 1].offset != refs[i].offset) {
      char what[160];
      MlirStringRef other = {"", 0};
      wp_attr_str(refs[i - 1].op, "sym_name", &other);
      snprintf(what, sizeof what, "%lld is at offset %lld here but at %lld in '%.*s'",
               (long long)refs[i].id, (long long)refs[i].offset, (long long)refs[i - 1].offset,
               (int)(other.length < 64 ? other.length : 64), other.data);
      c->op = refs[i].op;
      fail(c, "const_sub_tensor_id", what);
    }
  free(refs);
}

static void unique_name(checker *c, wp_strmap *seen, MlirStringRef name, const char *kind) {
  char what[96];
  if (wp_strmap_get(seen, name.data, name.length, NULL)) {
    snprintf(what, sizeof what, "is the name of another %s in this function", kind);
    fail(c, "sym_name", what);
  } else if (wp_strmap_put(seen, name.data, name.length, 1)) {
    fail(c, "sym_name", "could not be recorded (out of memory)");
  }
}

int wp_bir_check_module(MlirOperation module, const char *pass, bool set_names) {
  checker c = {pass ? pass : "", {NULL}, false};
  wp_strmap names;
  wp_strmap_init(&names);
  for (MlirOperation f = wp_bir_next_function(module, (MlirOperation){NULL});
       !mlirOperationIsNull(f) && !c.failed; f = wp_bir_next_function(module, f)) {
    MlirStringRef fname;
    c.op = f;
    /* two functions of one name would put every member in the NEFF twice */
    if (wp_attr_str(f, "sym_name", &fname)) {
      if (memchr(fname.data, 0, fname.length))
        fail(&c, "sym_name", "must not contain a NUL byte");
      else if (wp_strmap_get(&names, fname.data, fname.length, NULL))
        fail(&c, "sym_name", "is the name of another BIR function");
      else if (wp_strmap_put(&names, fname.data, fname.length, 1))
        fail(&c, "sym_name", "could not be recorded (out of memory)");
    }
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    if (mlirBlockIsNull(b))
      continue;
    /* two sets, locations or const files of one name: whatever names it
     * would find either (a const file's second twin was taken for one
     * that was never placed) */
    wp_strmap sets, locs, files;
    wp_strmap_init(&sets);
    wp_strmap_init(&locs);
    wp_strmap_init(&files);
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op) && !c.failed;
         op = mlirOperationGetNextInBlock(op)) {
      c.op = op;
      wp_strmap *seen = NULL;
      const char *kind = NULL;
      if (wp_op_is(op, "bir.memloc")) {
        check_memloc(&c);
        seen = &locs, kind = "memory location";
      } else if (wp_op_is(op, "bir.memloc_set")) {
        check_set(&c);
        seen = &sets, kind = "set";
      } else if (wp_op_is(op, "bir.const_file")) {
        check_const_file(&c);
        seen = &files, kind = "const file";
      } else if (wp_op_is(op, "bir.kernel")) {
        check_kernel(&c);
      }
      MlirStringRef sname;
      /* names become C strings, file names and JSON: a NUL would cut them */
      if (seen && !c.failed && wp_attr_str(op, "sym_name", &sname) &&
          memchr(sname.data, 0, sname.length))
        fail(&c, "sym_name", "must not contain a NUL byte");
      if (seen && !c.failed && set_names && wp_attr_str(op, "sym_name", &sname))
        unique_name(&c, seen, sname, kind);
    }
    if (set_names && !c.failed)
      check_sub_tensors(&c, b);
    wp_strmap_free(&sets);
    wp_strmap_free(&locs);
    wp_strmap_free(&files);
  }
  wp_strmap_free(&names);
  return c.failed ? -1 : 0;
}
