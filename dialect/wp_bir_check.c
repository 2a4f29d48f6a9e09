#include "wp_bir_check.h"

#include "wp_bir_enums.h"
#include "wp_bir_lowering.h"

#include "wp_bir_ops.h"
#include "wp_bir_table.h"
#include "wp_arena.h"
#include "wp_mlir_util.h"
#include "wp_diag.h"
#include "wp_format.h"
#include "wp_jsonw.h"
#include "wp_strmap.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The rules report the first fault only: its op and its message, which
 * names the op (and its sym_name) and the attribute. */
typedef struct checker {
  MlirOperation op; /* the op the rules look at */
  MlirOperation at; /* the op at fault */
  char *msg;        /* the fault (malloc'd) */
  bool failed;
} checker;

static void fault(checker *c, MlirOperation at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fault(checker *c, MlirOperation at, const char *fmt, ...) {
  if (c->failed)
    return;
  c->failed = true;
  c->at = at;
  va_list ap;
  va_start(ap, fmt);
  c->msg = wp_vformat(fmt, ap);
  va_end(ap);
  if (!c->msg)
    wp_out_of_memory();
}

/* "OP 'NAME': ATTR WHAT" about the op being looked at. */
static void fail(checker *c, const char *attr, const char *what) {
  if (c->failed)
    return;
  MlirStringRef opname = wp_ident_str(mlirOperationGetName(c->op));
  MlirStringRef name = {"", 0};
  bool named = wp_attr_str(c->op, "sym_name", &name); /* a table has none */
  fault(c, c->op, "%.*s%s%.*s%s: %s %s", (int)opname.length, opname.data, named ? " '" : "",
        (int)name.length, name.data, named ? "'" : "", attr, what);
}

/* Why S will not do as a name, or NULL: names become C strings, file
 * names and the NEFF's JSON, where a NUL would cut them and bytes that are
 * not UTF-8 would be replaced (two names could become one). */
static const char *bad_name(MlirStringRef s) {
  if (memchr(s.data, 0, s.length))
    return "must not contain a NUL byte";
  if (!wp_utf8_valid(s.data, s.length))
    return "must be UTF-8";
  return NULL;
}

/* Why integer A is no count or offset the passes can read (they read 64
 * signed bits), or NULL; a reason that names the value is written in BUF. */
static const char *not_int64(MlirAttribute a, char buf[64]) {
  /* true is an i1 whose value reads as -1: not a count either (an index
   * is fine; it has no width to ask) */
  if (!mlirAttributeIsAInteger(a))
    return "must be an integer";
  MlirType t = mlirAttributeGetType(a);
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) < 2)
    return "must be an integer";
  /* an i128 would be read as its low 64 bits, a ui64 past 2^63-1 as negative */
  if (wp_int_attr_too_wide(a))
    return "must be an integer of at most 64 bits";
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeIsUnsigned(t) &&
      mlirIntegerAttrGetValueUInt(a) > (uint64_t)INT64_MAX) {
    snprintf(buf, 64, "%llu is past 2^63-1", (unsigned long long)mlirIntegerAttrGetValueUInt(a));
    return buf;
  }
  return NULL;
}

/* An optional integer attribute: absent, or an integer in [MIN, INT64_MAX]. */
static void opt_int(checker *c, const char *attr, int64_t min) {
  MlirAttribute a = wp_attr(c->op, attr);
  if (mlirAttributeIsNull(a))
    return;
  char buf[64];
  const char *why = not_int64(a, buf);
  if (why)
    return fail(c, attr, why);
  if (mlirIntegerAttrGetValueInt(a) < min)
    fail(c, attr, min ? "must be at least 1" : "must not be negative");
}

/* Enum attribute ATTR: a string PARSE knows, whose message names it
 * ("Unknown dtype: float33"). */
static void enum_attr(checker *c, const char *attr,
                      int (*parse)(const char *, size_t, int *, wp_error *)) {
  MlirStringRef s;
  if (!wp_attr_str(c->op, attr, &s))
    return fail(c, attr, "must be a string");
  int v;
  wp_error err;
  char label[40];
  snprintf(label, sizeof label, "%s:", attr);
  if (parse(s.data, s.length, &v, &err))
    fail(c, label, err.msg);
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
    MlirAttribute f = wp_dict_get(src, "file"), off = wp_dict_get(src, "offset");
    if (mlirAttributeIsNull(f) || !mlirAttributeIsAString(f) || mlirAttributeIsNull(off) ||
        !mlirAttributeIsAInteger(off))
      return fail(c, "source", "must be {file = \"PATH\", offset = N}");
    char buf[64], what[80];
    const char *why = not_int64(off, buf);
    snprintf(what, sizeof what, "offset %s", why ? why : "");
    if (why)
      return fail(c, "source", what);
    if (mlirIntegerAttrGetValueInt(off) < 0)
      return fail(c, "source", "offset must not be negative");
  }
  /* where the bytes come from: one place (which would win of two?) */
  int n_sources = 0;
  for (size_t i = 0; i < WP_BIR_N_BYTE_SOURCES; i++)
    n_sources += !mlirAttributeIsNull(wp_attr(c->op, wp_bir_byte_sources[i]));
  if (n_sources != 1)
    return fail(c, "names", n_sources ? WP_BIR_MANY_SOURCES : WP_BIR_NO_SOURCE);
  static const char *const strings[] = {"constant", "assembled", "artifact", "md5"};
  for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
    MlirAttribute a = wp_attr(c->op, strings[i]);
    if (!mlirAttributeIsNull(a) && !mlirAttributeIsAString(a))
      fail(c, strings[i], "must be a string");
  }
}

static void check_set(checker *c) {
  enum_attr(c, "tensor_class", wp_tensor_class_parse);
  enum_attr(c, "dtype", wp_dtype_parse);
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

/* ATTR's name in messages: a memloc's own (ROW -1), or a table's column
 * ("placements[3]"). */
static void attr_name(char *out, size_t size, const char *attr, intptr_t row) {
  if (row < 0)
    snprintf(out, size, "%s", attr);
  else
    snprintf(out, size, "%ss[%ld]", attr, (long)row);
}

/* The layout of one memory location (ROW of a table, or -1), its values
 * read already (HAVE_* false for one not given). */
static void check_layout(checker *c, intptr_t row, bool have_align, int64_t align,
                         bool have_at, int64_t at, bool have_off, int64_t off, bool have_size,
                         int64_t size) {
  char attr[64], what[96];
  if (have_align) {
    if (align & (align - 1)) {
      attr_name(attr, sizeof attr, "alignment", row);
      return fail(c, attr, "must be a power of two");
    }
    /* a pointer the device could not use as aligned: the layout of
     * hand-written BIR is checked here, bir-lower's is by construction */
    const char *names[2] = {"placement", "const_ap_offset"};
    bool have[2] = {have_at, have_off};
    int64_t v[2] = {at, off};
    for (size_t i = 0; i < 2; i++)
      if (have[i] && v[i] % align) {
        attr_name(attr, sizeof attr, names[i], row);
        snprintf(what, sizeof what, "%lld is not a multiple of the alignment %lld",
                 (long long)v[i], (long long)align);
        return fail(c, attr, what);
      }
  }
  if (have_at && have_size && at > INT64_MAX - size) {
    attr_name(attr, sizeof attr, "placement", row);
    fail(c, attr, "plus the size passes byte 2^63-1");
  }
}

static void check_memloc(checker *c) {
  MlirAttribute set = wp_attr(c->op, "set");
  if (mlirAttributeIsNull(set) || !mlirAttributeIsAFlatSymbolRef(set))
    return fail(c, "set", "must be a plain symbol reference (@name)");
  enum_attr(c, "memory_type", wp_memory_type_parse);
  opt_int(c, "size", 0);
  opt_int(c, "placement", 0);
  opt_int(c, "const_ap_offset", 0);
  opt_int(c, "const_sub_tensor_id", 0);
  opt_int(c, "alignment", 1);
  opt_ref(c, "const_file");
  if (c->failed)
    return;
  MlirStringRef mt;
  if (!mlirAttributeIsNull(wp_attr(c->op, "const_file")) &&
      wp_attr_str(c->op, "memory_type", &mt) &&
      (mlirStringRefEqual(mt, wp_sref("ExternalInput")) ||
       mlirStringRefEqual(mt, wp_sref("ExternalOutput")) ||
       mlirStringRefEqual(mt, wp_sref("Unallocated"))))
    /* the NEFF would list it as an input or output and as a constant */
    return fail(c, "const_file", "is for a constant's memory (Const or DRAM), not this "
                                 "location's memory type");
  int64_t align = 0, at = 0, off = 0, size = 0;
  bool have_align = wp_attr_i64(c->op, "alignment", &align),
       have_at = wp_attr_i64(c->op, "placement", &at),
       have_off = wp_attr_i64(c->op, "const_ap_offset", &off),
       have_size = wp_attr_i64(c->op, "size", &size);
  check_layout(c, -1, have_align, align, have_at, at, have_off, off, have_size, size);
  MlirAttribute r = wp_attr(c->op, "is_regloc_offset");
  if (!mlirAttributeIsNull(r) && !mlirAttributeIsABool(r))
    fail(c, "is_regloc_offset", "must be true or false");
}

/* A table: its columns (wp_bir_table_open), its enum names, and each row
 * as a set and a memory location would be checked. */
static void check_table(checker *c, wp_bir_table *t) {
  wp_error err;
  if (wp_bir_table_open(c->op, t, &err))
    return fault(c, c->op, "%s", err.msg);
  enum_attr(c, "memory_type", wp_memory_type_parse);
  int v;
  for (intptr_t k = 0; k < t->n_rows && !c->failed; k++) {
    wp_bir_row r;
    wp_bir_table_row(t, k, &r);
    const char *col = NULL, *what = NULL;
    /* the parsers' own message names the value: "Unknown tensor class type: X" */
    if (wp_tensor_class_parse(r.tensor_class.data, r.tensor_class.length, &v, &err))
      col = "tensor_classes", what = err.msg;
    else if (wp_dtype_parse(r.dtype.data, r.dtype.length, &v, &err))
      col = "dtypes", what = err.msg;
    else if (r.name.length == 0 || bad_name(r.name))
      col = "names", what = "must be a non-empty UTF-8 name without NUL bytes";
    for (intptr_t i = 0; !col && i < mlirDenseArrayGetNumElements(r.shape); i++)
      if (mlirDenseI64ArrayGetElement(r.shape, i) < 0)
        col = "shapes", what = "has a negative dimension";
    static const char *const cols[] = {"sizes", "placements", "const_ap_offsets",
                                       "const_sub_tensor_ids", "alignments"};
    int64_t vals[] = {r.size, r.placement, r.const_ap_offset, r.const_sub_tensor_id,
                      r.alignment};
    for (size_t i = 0; !col && i < 5; i++)
      if (vals[i] < (i == 4 ? 1 : 0))
        col = cols[i], what = i == 4 ? "must be at least 1" : "must not be negative";
    if (col) {
      char attr[64];
      snprintf(attr, sizeof attr, "%s[%ld]%s", col, (long)k, what == err.msg ? ":" : "");
      return fail(c, attr, what);
    }
    check_layout(c, k, true, r.alignment, true, r.placement, true, r.const_ap_offset, true,
                 r.size);
  }
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
  intptr_t row; /* of a table OP, or -1 for a memloc */
  MlirStringRef name; /* the memloc's, or the row's set */
} sub_ref;

static void push_sub_ref(sub_ref **refs, size_t *n, size_t *cap, sub_ref r) {
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 64;
    *refs = wp_xrealloc(*refs, *cap * sizeof **refs);
  }
  (*refs)[(*n)++] = r;
}

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
    wp_bir_table t;
    wp_error err;
    if (wp_bir_is_table(op) && wp_bir_table_open(op, &t, &err) == 0) {
      for (intptr_t k = 0; k < t.n_rows; k++) {
        wp_bir_row r;
        wp_bir_table_row(&t, k, &r);
        if (r.const_sub_tensor_id)
          push_sub_ref(&refs, &n, &cap, (sub_ref){r.const_file, r.const_sub_tensor_id,
                                                  r.const_ap_offset, op, k, r.name});
      }
      continue;
    }
    MlirAttribute f = wp_op_is(op, "bir.memloc") ? wp_attr(op, "const_file")
                                                 : mlirAttributeGetNull();
    int64_t id, offset;
    if (mlirAttributeIsNull(f) || !mlirAttributeIsAFlatSymbolRef(f) ||
        !wp_attr_i64(op, "const_sub_tensor_id", &id) ||
        !wp_attr_i64(op, "const_ap_offset", &offset) || id == 0)
      continue;
    MlirStringRef name = {"", 0};
    wp_attr_str(op, "sym_name", &name);
    push_sub_ref(&refs, &n, &cap, (sub_ref){wp_symref_value(f), id, offset, op, -1, name});
  }
  if (n > 1)
    qsort(refs, n, sizeof *refs, cmp_sub_ref);
  for (size_t i = 1; i < n && !c->failed; i++)
    if (!cmp_sub_ref(&refs[i - 1], &refs[i]) && refs[i - 1].offset != refs[i].offset) {
      char what[200], attr[64];
      const sub_ref *here = &refs[i], *other = &refs[i - 1];
      snprintf(what, sizeof what, "%lld is at offset %lld here but at %lld in '%.*s%s'",
               (long long)here->id, (long long)here->offset, (long long)other->offset,
               (int)(other->name.length < 64 ? other->name.length : 64), other->name.data,
               other->row >= 0 ? ".0" : "");
      if (here->row >= 0)
        snprintf(attr, sizeof attr, "const_sub_tensor_ids[%ld] ('%.*s.0')", (long)here->row,
                 (int)(here->name.length < 64 ? here->name.length : 64), here->name.data);
      else
        snprintf(attr, sizeof attr, "const_sub_tensor_id");
      c->op = here->op;
      fail(c, attr, what);
    }
  free(refs);
}

static void unique_name(checker *c, wp_strmap *seen, MlirStringRef name, const char *kind) {
  char what[96];
  if (wp_strmap_get(seen, name.data, name.length, NULL)) {
    snprintf(what, sizeof what, "is the name of another %s in this function", kind);
    fail(c, "sym_name", what);
  } else {
    wp_strmap_put(seen, name.data, name.length, 1);
  }
}

/* A table's rows name sets (NAME) and memory locations (NAME.0) like the
 * ops do: unique in the function. */
static void table_names(checker *c, const wp_bir_table *t, wp_strmap *sets, wp_strmap *locs,
                        wp_arena *arena) {
  for (intptr_t k = 0; k < t->n_rows && !c->failed; k++) {
    wp_bir_row r;
    wp_bir_table_row(t, k, &r);
    char *loc = wp_arena_alloc(arena, r.name.length + 3);
    memcpy(loc, r.name.data, r.name.length);
    memcpy(loc + r.name.length, ".0", 3);
    char attr[96];
    snprintf(attr, sizeof attr, "names[%ld] ('%.*s')", (long)k,
             (int)(r.name.length < 64 ? r.name.length : 64), r.name.data);
    if (wp_strmap_get(sets, r.name.data, r.name.length, NULL))
      fail(c, attr, "is the name of another set in this function");
    else if (wp_strmap_get(locs, loc, r.name.length + 2, NULL))
      fail(c, attr, "names a memory location (NAME.0) that another one in this function has");
    else {
      wp_strmap_put(sets, r.name.data, r.name.length, 1);
      wp_strmap_put(locs, loc, r.name.length + 2, 1);
    }
  }
}

/* The module's own BIR attributes, as the passes read them. */
static void check_module_attrs(checker *c, MlirOperation module) {
  c->op = module;
  MlirAttribute arts = wp_attr(module, "bir.artifacts");
  if (!mlirAttributeIsNull(arts) && !mlirAttributeIsAArray(arts))
    return fail(c, "bir.artifacts", "must be an array of {path = \"...\", info = \"...\"}");
  for (intptr_t i = 0; !mlirAttributeIsNull(arts) && i < mlirArrayAttrGetNumElements(arts); i++) {
    MlirAttribute a = mlirArrayAttrGetElement(arts, i);
    MlirAttribute path = wp_dict_get(a, "path"), info = wp_dict_get(a, "info");
    if (mlirAttributeIsNull(path) || !mlirAttributeIsAString(path) ||
        (!mlirAttributeIsNull(info) && !mlirAttributeIsAString(info))) {
      char attr[48];
      snprintf(attr, sizeof attr, "bir.artifacts[%ld]", (long)i);
      return fail(c, attr, "must be {path = \"...\", info = \"...\"}");
    }
  }
  MlirStringRef name;
  if (!wp_attr_str(module, "bir.name", &name))
    return fail(c, "bir.name", "must be a string");
  if (bad_name(name))
    return fail(c, "bir.name", bad_name(name));
  MlirAttribute dir = wp_attr(module, "bir.artifact_path");
  if (!mlirAttributeIsNull(dir) && !mlirAttributeIsAString(dir))
    return fail(c, "bir.artifact_path", "must be a string");
  MlirAttribute lw = wp_attr(module, WP_BIR_LOWERING_ATTR);
  const char *lw_bad = mlirAttributeIsNull(lw) ? NULL : wp_bir_lowering_check(lw);
  if (lw_bad)
    return fail(c, WP_BIR_LOWERING_ATTR, lw_bad);
  MlirAttribute dd = wp_attr(module, "bir.dedup");
  if (mlirAttributeIsNull(dd))
    return;
  bool ok = mlirAttributeIsADictionary(dd);
  const char *keys[] = {"unique_files", "bytes_saved"};
  for (int k = 0; ok && k < 2; k++) {
    MlirAttribute v = wp_dict_get(dd, keys[k]);
    char buf[64];
    ok = mlirAttributeIsNull(v) || (!not_int64(v, buf) && mlirIntegerAttrGetValueInt(v) >= 0);
  }
  if (!ok)
    fail(c, "bir.dedup", "must be {unique_files = N, bytes_saved = N} (counts)");
}

static bool is_bir_op(MlirOperation op) {
  MlirStringRef n = wp_ident_str(mlirOperationGetName(op));
  return n.length > 4 && !memcmp(n.data, "bir.", 4);
}

/* BIR ops where no pass looks (at module level, or in a func that is not
 * a bir.function): they would be left out of the NEFF without a word. */
static void check_stray_ops(checker *c, MlirOperation module) {
  for (MlirOperation op = wp_first_op_in(module); !mlirOperationIsNull(op) && !c->failed;
       op = mlirOperationGetNextInBlock(op)) {
    MlirOperation stray = is_bir_op(op) ? op : (MlirOperation){NULL};
    if (mlirOperationIsNull(stray) && wp_op_is(op, "func.func") &&
        mlirAttributeIsNull(wp_attr(op, "bir.function")))
      for (MlirOperation in = wp_first_op_in(op); !mlirOperationIsNull(in) &&
                                                  mlirOperationIsNull(stray);
           in = mlirOperationGetNextInBlock(in))
        if (is_bir_op(in))
          stray = in;
    if (!mlirOperationIsNull(stray)) {
      MlirStringRef n = wp_ident_str(mlirOperationGetName(stray));
      fault(c, stray, "%.*s outside a BIR function (a func.func with bir.function): no pass "
            "would read it", (int)n.length, n.data);
    }
  }
}

/* Every rule over MODULE, until the first fault (in C). */
static void verify(checker *c, MlirOperation module, bool set_names) {
  check_module_attrs(c, module);
  check_stray_ops(c, module);
  wp_strmap names;
  wp_strmap_init(&names);
  for (MlirOperation f = wp_bir_next_function(module, (MlirOperation){NULL});
       !mlirOperationIsNull(f) && !c->failed; f = wp_bir_next_function(module, f)) {
    MlirStringRef fname;
    c->op = f;
    /* two functions of one name would put every member in the NEFF twice */
    if (wp_attr_str(f, "sym_name", &fname)) {
      if (bad_name(fname))
        fail(c, "sym_name", bad_name(fname));
      else if (wp_strmap_get(&names, fname.data, fname.length, NULL))
        fail(c, "sym_name", "is the name of another BIR function");
      else
        wp_strmap_put(&names, fname.data, fname.length, 1);
    }
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    if (mlirBlockIsNull(b)) {
      fail(c, "bir.function", "marks a declaration; a BIR function needs a body");
      break;
    }
    /* two sets, locations or const files of one name: whatever names it
     * would find either (a const file's second twin was taken for one
     * that was never placed) */
    wp_strmap sets, locs, files, kernels;
    wp_arena *arena = wp_arena_create(); /* the tables' location names: the maps keep keys */
    wp_strmap_init(&sets);
    wp_strmap_init(&locs);
    wp_strmap_init(&files);
    wp_strmap_init(&kernels);
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op) && !c->failed;
         op = mlirOperationGetNextInBlock(op)) {
      c->op = op;
      wp_strmap *seen = NULL;
      const char *kind = NULL;
      if (wp_op_is(op, "bir.memloc")) {
        check_memloc(c);
        seen = &locs, kind = "memory location";
      } else if (wp_op_is(op, "bir.memloc_set")) {
        check_set(c);
        seen = &sets, kind = "set";
      } else if (wp_op_is(op, "bir.const_file")) {
        check_const_file(c);
        seen = &files, kind = "const file";
      } else if (wp_op_is(op, "bir.kernel")) {
        check_kernel(c);
        seen = &kernels, kind = "kernel";
      } else if (wp_bir_is_table(op)) {
        wp_bir_table t;
        check_table(c, &t);
        if (!c->failed && set_names)
          table_names(c, &t, &sets, &locs, arena);
      } else if (!is_bir_op(op) && !wp_op_is(op, "func.return")) {
        /* the passes look for BIR ops only, and the forms hold nothing else */
        MlirStringRef n = wp_ident_str(mlirOperationGetName(op));
        fault(c, op, "%.*s in a BIR function (it holds BIR ops only): no pass would read it",
              (int)n.length, n.data);
      }
      MlirStringRef sname;
      if (!c->failed && wp_attr_str(op, "sym_name", &sname) && bad_name(sname))
        fail(c, "sym_name", bad_name(sname));
      if (!c->failed && wp_attr_str(op, "hlo_value", &sname) && bad_name(sname))
        fail(c, "hlo_value", bad_name(sname));
      if (seen && !c->failed && set_names && wp_attr_str(op, "sym_name", &sname))
        unique_name(c, seen, sname, kind);
    }
    if (set_names && !c->failed)
      check_sub_tensors(c, b);
    wp_error err;
    if (set_names && !c->failed && wp_bir_check_row_sets(f, &err))
      fault(c, f, "%s", err.msg);
    wp_strmap_free(&sets);
    wp_strmap_free(&locs);
    wp_strmap_free(&files);
    wp_strmap_free(&kernels);
    wp_arena_destroy(arena);
  }
  wp_strmap_free(&names);
}

int wp_bir_verify(MlirOperation module, bool names, MlirOperation *at, wp_error *err) {
  checker c = {.failed = false};
  verify(&c, module, names);
  if (!c.failed)
    return 0;
  if (at)
    *at = c.at;
  wp_error_set(err, "%s", c.msg);
  free(c.msg);
  return -1;
}

int wp_bir_check_module(MlirOperation module, const char *pass, bool set_names) {
  checker c = {.failed = false};
  verify(&c, module, set_names);
  if (!c.failed)
    return 0;
  /* the whole message, however long the names in it */
  wp_emit_error(mlirOperationGetLocation(c.at), "%s%s%s", pass ? pass : "",
                pass && pass[0] ? ": " : "", c.msg);
  free(c.msg);
  return -1;
}
