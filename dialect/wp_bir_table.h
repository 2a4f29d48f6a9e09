/* bir.const_table: a function's constant tensors in one op, a column per
 * field, instead of a memloc_set and a memloc each.
 *
 *   "bir.const_table"() {memory_type = "Const", names = ["w0", "b0", ...],
 *                        tensor_classes = ["NeuronWeightTensor", ...],
 *                        dtypes = ["float16", "float32", ...],
 *                        shapes = [array<i64: 64, 64>, array<i64: 256>, ...],
 *                        const_files = [@w0.bin, @consts.float32.bin, ...],
 *                        sizes = array<i64: ...>, alignments = array<i64: ...>,
 *                        placements = array<i64: ...>, const_ap_offsets = array<i64: ...>,
 *                        const_sub_tensor_ids = array<i64: ...>}
 *
 * Row K is the set NAMES[K] (its hlo_value is that name too) and its one
 * memory location NAMES[K].0, is_regloc_offset false, in the order the
 * sets and locations would have been. Why: every MLIR op and attribute
 * dictionary lives as long as the context, so 100,000 small constants as
 * 200,000 ops cost about 125 MiB and a second of building; as columns
 * they cost a few dozen bytes each. */
#ifndef WP_BIR_TABLE_H
#define WP_BIR_TABLE_H

#include "wp_error.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stdint.h>

#define WP_BIR_TABLE_OP "bir.const_table"

/* One row, borrowed from the op's attributes. */
typedef struct wp_bir_row {
  MlirStringRef name; /* the set's; the location's is NAME.0 */
  MlirStringRef tensor_class, dtype, const_file;
  MlirAttribute shape; /* array<i64: ...> */
  int64_t size, alignment, placement, const_ap_offset, const_sub_tensor_id;
} wp_bir_row;

/* The table's shared fields, borrowed. */
typedef struct wp_bir_table {
  MlirOperation op;
  MlirStringRef memory_type;
  intptr_t n_rows;
  MlirAttribute names, classes, dtypes, shapes, files, sizes, alignments, placements, offsets,
      sub_ids;
} wp_bir_table;

bool wp_bir_is_table(MlirOperation op);

/* Reads OP's shared fields and checks every column: the types, one entry
 * per row, names, classes and dtypes strings, shapes array<i64>, const
 * files plain symbol references. -1 with ERR
 * naming the attribute otherwise. The values themselves (negative sizes,
 * alignment) are wp_bir_check's. */
int wp_bir_table_open(MlirOperation op, wp_bir_table *t, wp_error *err);

/* A table row's set has its one location: a bir.memloc in FUNC (a BIR
 * function) that names a row's set as its own is an error (ERR names it;
 * -1), which the set and location form could hold but a table cannot.
 * Also -1 for a table that does not open. */
int wp_bir_check_row_sets(MlirOperation func, wp_error *err);

/* Row K of an opened table. */
void wp_bir_table_row(const wp_bir_table *t, intptr_t k, wp_bir_row *row);

/* Columns of N rows being built: wp_bir_columns_create (caller
 * destroys), fill entry K of each, then wp_bir_columns_attrs. */
typedef struct wp_bir_columns {
  intptr_t n;
  MlirAttribute *names, *classes, *dtypes, *shapes, *files;
  int64_t *sizes, *alignments, *placements, *offsets, *sub_ids;
} wp_bir_columns;

/* Never NULL: out of memory aborts. */
wp_bir_columns *wp_bir_columns_create(intptr_t n);
void wp_bir_columns_destroy(wp_bir_columns *cols);

#define WP_BIR_TABLE_N_ATTRS 11
/* The table op's attributes, with MEMORY_TYPE (a string attribute). */
void wp_bir_columns_attrs(MlirContext ctx, const wp_bir_columns *cols, MlirAttribute memory_type,
                          MlirNamedAttribute out[WP_BIR_TABLE_N_ATTRS]);

/* The columns of a table of N rows, asked for one column at a time: only
 * one column's array is held while its attribute is made (100,000 rows
 * held ten at once were 8 MiB). */
enum { WP_BIR_COL_NAMES, WP_BIR_COL_CLASSES, WP_BIR_COL_DTYPES, WP_BIR_COL_SHAPES,
       WP_BIR_COL_FILES };
enum { WP_BIR_COL_SIZES, WP_BIR_COL_ALIGNMENTS, WP_BIR_COL_PLACEMENTS, WP_BIR_COL_OFFSETS,
       WP_BIR_COL_SUB_IDS };
typedef struct wp_bir_column_source {
  void *user;
  /* row K's entry of attribute column COL (WP_BIR_COL_NAMES ..) */
  MlirAttribute (*attr)(void *user, int col, intptr_t k);
  /* row K's entry of integer column COL (WP_BIR_COL_SIZES ..) */
  int64_t (*integer)(void *user, int col, intptr_t k);
} wp_bir_column_source;
void wp_bir_column_attrs(MlirContext ctx, intptr_t n, const wp_bir_column_source *src,
                         MlirAttribute memory_type, MlirNamedAttribute out[WP_BIR_TABLE_N_ATTRS]);

#endif
