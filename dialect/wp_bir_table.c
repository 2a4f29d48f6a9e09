#include "wp_bir_table.h"

#include "wp_mlir_util.h"
#include "wp_strmap.h"

#include <mlir-c/BuiltinAttributes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool wp_bir_is_table(MlirOperation op) { return wp_op_is(op, WP_BIR_TABLE_OP); }

static int column_error(wp_error *err, const char *attr, const char *what) {
  return wp_error_set(err, "bir.const_table: %s %s", attr, what);
}

/* An array column of N entries, each passing IS_ENTRY. */
static int array_column(MlirOperation op, const char *attr, intptr_t n,
                        bool (*is_entry)(MlirAttribute), const char *entry_kind,
                        MlirAttribute *out, wp_error *err) {
  MlirAttribute a = wp_attr(op, attr);
  char what[96];
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAArray(a))
    return column_error(err, attr, "must be an array");
  if (mlirArrayAttrGetNumElements(a) != n) {
    snprintf(what, sizeof what, "has %ld entries for %ld names",
             (long)mlirArrayAttrGetNumElements(a), (long)n);
    return column_error(err, attr, what);
  }
  for (intptr_t k = 0; k < n; k++)
    if (!is_entry(mlirArrayAttrGetElement(a, k))) {
      snprintf(what, sizeof what, "entry %ld must be %s", (long)k, entry_kind);
      return column_error(err, attr, what);
    }
  *out = a;
  return 0;
}

static int int_column(MlirOperation op, const char *attr, intptr_t n, MlirAttribute *out,
                      wp_error *err) {
  MlirAttribute a = wp_attr(op, attr);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a))
    return column_error(err, attr, "must be array<i64: ...>");
  if (mlirDenseArrayGetNumElements(a) != n) {
    char what[96];
    snprintf(what, sizeof what, "has %ld entries for %ld names",
             (long)mlirDenseArrayGetNumElements(a), (long)n);
    return column_error(err, attr, what);
  }
  *out = a;
  return 0;
}

static bool is_shape(MlirAttribute a) { return mlirAttributeIsADenseI64Array(a); }

int wp_bir_table_open(MlirOperation op, wp_bir_table *t, wp_error *err) {
  t->op = op;
  if (!wp_attr_str(op, "memory_type", &t->memory_type))
    return column_error(err, "memory_type", "must be a string");
  MlirAttribute names = wp_attr(op, "names");
  if (mlirAttributeIsNull(names) || !mlirAttributeIsAArray(names))
    return column_error(err, "names", "must be an array");
  t->n_rows = mlirArrayAttrGetNumElements(names);
  if (t->n_rows == 0) /* the proto form records a table as a run of its sets */
    return column_error(err, "names", "is empty; a table holds at least one tensor");
  return array_column(op, "names", t->n_rows, mlirAttributeIsAString, "a string", &t->names,
                      err) ||
                 array_column(op, "tensor_classes", t->n_rows, mlirAttributeIsAString,
                              "a string", &t->classes, err) ||
                 array_column(op, "dtypes", t->n_rows, mlirAttributeIsAString, "a string",
                              &t->dtypes, err) ||
                 array_column(op, "shapes", t->n_rows, is_shape, "array<i64: ...>", &t->shapes,
                              err) ||
                 array_column(op, "const_files", t->n_rows, mlirAttributeIsAFlatSymbolRef,
                              "a plain symbol reference (@name)", &t->files, err) ||
                 int_column(op, "sizes", t->n_rows, &t->sizes, err) ||
                 int_column(op, "alignments", t->n_rows, &t->alignments, err) ||
                 int_column(op, "placements", t->n_rows, &t->placements, err) ||
                 int_column(op, "const_ap_offsets", t->n_rows, &t->offsets, err) ||
                 int_column(op, "const_sub_tensor_ids", t->n_rows, &t->sub_ids, err)
             ? -1
             : 0;
}

void wp_bir_table_row(const wp_bir_table *t, intptr_t k, wp_bir_row *row) {
  row->name = wp_str_value(mlirArrayAttrGetElement(t->names, k));
  row->tensor_class = wp_str_value(mlirArrayAttrGetElement(t->classes, k));
  row->dtype = wp_str_value(mlirArrayAttrGetElement(t->dtypes, k));
  row->const_file = wp_symref_value(mlirArrayAttrGetElement(t->files, k));
  row->shape = mlirArrayAttrGetElement(t->shapes, k);
  row->size = mlirDenseI64ArrayGetElement(t->sizes, k);
  row->alignment = mlirDenseI64ArrayGetElement(t->alignments, k);
  row->placement = mlirDenseI64ArrayGetElement(t->placements, k);
  row->const_ap_offset = mlirDenseI64ArrayGetElement(t->offsets, k);
  row->const_sub_tensor_id = mlirDenseI64ArrayGetElement(t->sub_ids, k);
}

wp_bir_columns *wp_bir_columns_create(intptr_t n) {
  wp_bir_columns *c = wp_xcalloc(1, sizeof *c);
  MlirAttribute *attrs = wp_xmalloc(5 * ((size_t)n + 1) * sizeof *attrs);
  int64_t *ints = wp_xmalloc(5 * ((size_t)n + 1) * sizeof *ints);
  c->n = n;
  c->names = attrs, c->classes = attrs + n, c->dtypes = attrs + 2 * n;
  c->shapes = attrs + 3 * n, c->files = attrs + 4 * n;
  c->sizes = ints, c->alignments = ints + n, c->placements = ints + 2 * n;
  c->offsets = ints + 3 * n, c->sub_ids = ints + 4 * n;
  return c;
}

void wp_bir_columns_destroy(wp_bir_columns *cols) {
  if (!cols)
    return;
  free(cols->names); /* the start of both blocks */
  free(cols->sizes);
  free(cols);
}

static MlirAttribute filled_attr(void *user, int col, intptr_t k) {
  const wp_bir_columns *cols = user;
  MlirAttribute *const by_col[] = {cols->names, cols->classes, cols->dtypes, cols->shapes,
                                   cols->files};
  return by_col[col][k];
}

static int64_t filled_integer(void *user, int col, intptr_t k) {
  const wp_bir_columns *cols = user;
  int64_t *const by_col[] = {cols->sizes, cols->alignments, cols->placements, cols->offsets,
                             cols->sub_ids};
  return by_col[col][k];
}

void wp_bir_columns_attrs(MlirContext c, const wp_bir_columns *cols, MlirAttribute memory_type,
                          MlirNamedAttribute out[WP_BIR_TABLE_N_ATTRS]) {
  wp_bir_column_source src = {(void *)cols, filled_attr, filled_integer};
  wp_bir_column_attrs(c, cols->n, &src, memory_type, out);
}

void wp_bir_column_attrs(MlirContext c, intptr_t n, const wp_bir_column_source *src,
                         MlirAttribute memory_type, MlirNamedAttribute out[WP_BIR_TABLE_N_ATTRS]) {
  static const char *const attr_names[] = {"names", "tensor_classes", "dtypes", "shapes",
                                           "const_files"};
  static const char *const int_names[] = {"sizes", "alignments", "placements",
                                          "const_ap_offsets", "const_sub_tensor_ids"};
  MlirAttribute *attrs = wp_xmalloc(((size_t)n + 1) * sizeof *attrs);
  int64_t *ints = wp_xmalloc(((size_t)n + 1) * sizeof *ints);
  out[0] = wp_named(c, "memory_type", memory_type);
  for (int col = 0; col < 5; col++) {
    for (intptr_t k = 0; k < n; k++)
      attrs[k] = src->attr(src->user, col, k);
    out[1 + col] = wp_named(c, attr_names[col], mlirArrayAttrGet(c, n, attrs));
  }
  for (int col = 0; col < 5; col++) {
    for (intptr_t k = 0; k < n; k++)
      ints[k] = src->integer(src->user, col, k);
    out[6 + col] = wp_named(c, int_names[col], mlirDenseI64ArrayGet(c, n, ints));
  }
  free(attrs);
  free(ints);
}

int wp_bir_check_row_sets(MlirOperation func, wp_error *err) {
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  wp_strmap rows;
  wp_strmap_init(&rows);
  int rc = 0;
  bool any = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op) && !rc;
       op = mlirOperationGetNextInBlock(op)) {
    wp_bir_table t;
    if (!wp_bir_is_table(op))
      continue;
    any = true;
    rc = wp_bir_table_open(op, &t, err);
    for (intptr_t k = 0; !rc && k < t.n_rows; k++) {
      MlirStringRef name = wp_str_value(mlirArrayAttrGetElement(t.names, k));
      wp_strmap_put(&rows, name.data, name.length, 1); /* keys live in the IR */
    }
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(b); any && !mlirOperationIsNull(op) && !rc;
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute set = wp_op_is(op, "bir.memloc") ? wp_attr(op, "set") : mlirAttributeGetNull();
    if (mlirAttributeIsNull(set) || !mlirAttributeIsAFlatSymbolRef(set))
      continue;
    MlirStringRef s = wp_symref_value(set), loc = {"", 0};
    if (wp_strmap_get(&rows, s.data, s.length, NULL)) {
      wp_attr_str(op, "sym_name", &loc);
      rc = wp_error_set(err, "bir.memloc '%.*s': its set '%.*s' is a row of a bir.const_table, "
                        "which has its one location there", (int)loc.length, loc.data,
                        (int)s.length, s.data);
    }
  }
  wp_strmap_free(&rows);
  return rc;
}
