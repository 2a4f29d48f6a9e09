/* bir-lower's output: each tensor it lowered becomes a bir.memloc_set
 * and a bir.memloc, or, for a run of constants, one row of a
 * bir.const_table. Written once all are lowered, when it is known whether
 * the constants are enough for a table. */
#include "wp_bir_lower_impl.h"

#include "wp_bir.h"
#include "wp_bir_align.h"
#include "wp_bir_table.h"
#include "wp_hlo.h"
#include "wp_hlo_types.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>

static MlirAttribute static_str(lowering *l, const char *s) {
  size_t slot = ((uintptr_t)s >> 3) % (sizeof l->memo / sizeof l->memo[0]);
  if (l->memo[slot].s != s) {
    l->memo[slot].s = s;
    l->memo[slot].attr = wp_str_attr(l->ctx, s, strlen(s));
  }
  return l->memo[slot].attr;
}

void wp_lower_emit(lowering *l, const char *name, MlirNamedAttribute *a, int n) {
  MlirOperationState st = mlirOperationStateGet(wp_sref(name), l->loc);
  mlirOperationStateAddAttributes(&st, n, a);
  mlirBlockInsertOwnedOperationBefore(l->body, l->ret, mlirOperationCreate(&st));
}

int wp_lower_add_file_name(lowering *l, const char *name) {
  if (l->n_files == l->cap_files) {
    l->cap_files = l->cap_files ? 2 * l->cap_files : 16;
    l->files = wp_xrealloc(l->files, l->cap_files * sizeof *l->files);
  }
  l->files[l->n_files++] = mlirFlatSymbolRefAttrGet(l->ctx, wp_sref(name));
  return 0;
}

int wp_lower_tensor_info(MlirType t, int *prim, const char **dtype, uint64_t *bytes) {
  if (!mlirTypeIsARankedTensor(t))
    return 0;
  *prim = wp_hlo_prim_from_mlir(mlirShapedTypeGetElementType(t));
  const wp_hlo_prim *info = wp_hlo_prim_info(*prim);
  *dtype = wp_dtype_name(*prim);
  if (!info || !*dtype)
    return 0;
  int64_t n = wp_hlo_num_elements(t);
  if (n < 0) {
    for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); i++)
      if (mlirShapedTypeIsDynamicDim(t, i))
        return 0;
    return WP_LOWER_TENSOR_TOO_BIG;
  }
  if (info->bytes && (uint64_t)n > (uint64_t)INT64_MAX / (uint64_t)info->bytes)
    return WP_LOWER_TENSOR_TOO_BIG;
  *bytes = (uint64_t)n * (uint64_t)info->bytes;
  return info->bytes;
}

void wp_lower_tensor_error(MlirLocation loc, const char *what, const char *name, MlirType t,
                           int info) {
  char ts[256];
  wp_hlo_type_str(t, ts, sizeof ts);
  if (info == WP_LOWER_TENSOR_TOO_BIG)
    wp_emit_error(loc, "bir-lower: %s '%s' of type %s holds more than 2^63-1 bytes, the most a "
                  "BIR tensor can", what, name, ts);
  else
    wp_emit_error(loc, "bir-lower: %s '%s' of type %s cannot be a BIR tensor", what, name, ts);
}

/* Every dimension, at any rank (a fixed 64-entry buffer once cut a
 * rank-70 tensor's shape to its first 64 dimensions without a word). */
static MlirAttribute shape_attr(MlirContext c, MlirType t) {
  intptr_t r = mlirShapedTypeGetRank(t);
  int64_t small[64], *dims = small;
  if (r > 64 && !(dims = malloc((size_t)r * sizeof *dims)))
    return (MlirAttribute){NULL};
  for (intptr_t i = 0; i < r; i++)
    dims[i] = mlirShapedTypeGetDimSize(t, i);
  MlirAttribute a = mlirDenseI64ArrayGet(c, r, dims);
  if (dims != small)
    free(dims);
  return a;
}

wp_bir_align_size wp_lower_alignment(const lowering *l, int memtype, MlirType t, int elt) {
  intptr_t r = mlirShapedTypeGetRank(t);
  int64_t small[64], *dims = r > 64 ? wp_xmalloc((size_t)r * sizeof *dims) : small;
  for (intptr_t i = 0; i < r; i++)
    dims[i] = mlirShapedTypeGetDimSize(t, i);
  wp_bir_align_size a = wp_bir_alignment_size(&(wp_bir_align_query){
      .memory_type = memtype, .element_bytes = (uint64_t)(elt > 0 ? elt : 1), .shape = dims,
      .rank = (size_t)r, .min_align = l->opts.min_align});
  if (dims != small)
    free(dims);
  return a;
}

int wp_lower_add_tensor(lowering *l, const char *name, int tensor_class, MlirType t,
                        const char *hlo_value, int memtype, const char *const_file,
                        uint64_t const_offset, int64_t sub_id) {
  int prim = 0, elt;
  const char *dtype = "uint8";
  uint64_t bytes = 0;
  elt = wp_lower_tensor_info(t, &prim, &dtype, &bytes);
  if (elt < 0)
    elt = 0; /* refused by the callers */
  wp_bir_align_size as = wp_lower_alignment(l, memtype, t, elt);
  uint64_t align = as.alignment;
  uint64_t at = wp_bir_align_up(l->placement[memtype], as.step);
  if (at < l->placement[memtype] || at > (uint64_t)INT64_MAX - bytes) {
    wp_emit_error(l->loc, "bir-lower: tensor '%s' would be placed past byte 2^63-1 of memory "
                  "type %s (the tensors before it take %llu bytes)", name,
                  wp_memory_type_name(memtype), (unsigned long long)l->placement[memtype]);
    return -1;
  }
  if (l->n_pending == l->cap_pending) {
    size_t cap = l->cap_pending ? 2 * l->cap_pending : 64;
    l->pending = wp_xrealloc(l->pending, cap * sizeof *l->pending);
    l->cap_pending = cap;
  }
  l->placement[memtype] = at + bytes;
  l->pending[l->n_pending++] = (pending_tensor){
      .name = name, .hlo_value = hlo_value, .dtype = dtype, .const_file = const_file,
      .type = t, .tensor_class = tensor_class, .memtype = memtype, .bytes = bytes,
      .align = align, .at = at, .const_offset = const_offset, .sub_id = sub_id};
  return 0;
}

static int write_pair(lowering *l, const pending_tensor *p) {
  MlirContext c = l->ctx;
  MlirNamedAttribute a[10];
  int n = 0;
  MlirAttribute name_attr = str(c, p->name);
#define NAMED(k, v) a[n++] = mlirNamedAttributeGet(l->key.k, (v))
  NAMED(sym_name, name_attr);
  NAMED(tensor_class, static_str(l, wp_tensor_class_name(p->tensor_class)));
  NAMED(dtype, static_str(l, p->dtype));
  NAMED(shape, shape_attr(c, p->type));
  if (p->hlo_value)
    NAMED(hlo_value, p->hlo_value == p->name ? name_attr : str(c, p->hlo_value));
  wp_lower_emit(l, "bir.memloc_set", a, n);

  size_t name_len = strlen(p->name);
  char *locname = wp_arena_alloc(l->arena, name_len + 3);
  memcpy(locname, p->name, name_len);
  memcpy(locname + name_len, ".0", 3);
  n = 0;
  NAMED(sym_name, str(c, locname));
  NAMED(set, mlirFlatSymbolRefAttrGet(c, wp_sref(p->name)));
  NAMED(memory_type, static_str(l, wp_memory_type_name(p->memtype)));
  NAMED(size, wp_i64_attr(c, (int64_t)p->bytes));
  NAMED(alignment, wp_i64_attr(c, (int64_t)p->align));
  MlirAttribute place = wp_i64_attr(c, (int64_t)p->at);
  NAMED(placement, place);
  if (p->const_file) {
    if (!l->last_file || strcmp(l->last_file, p->const_file) != 0) {
      l->last_file = p->const_file;
      l->last_file_ref = mlirFlatSymbolRefAttrGet(c, wp_sref(p->const_file));
    }
    NAMED(const_file, l->last_file_ref);
    NAMED(const_ap_offset,
          p->const_offset == p->at ? place : wp_i64_attr(c, (int64_t)p->const_offset));
    NAMED(const_sub_tensor_id, wp_i64_attr(c, p->sub_id));
    NAMED(is_regloc_offset, l->no);
  }
#undef NAMED
  wp_lower_emit(l, "bir.memloc", a, n);
  return 0;
}

/* A table's rows: pending tensors FIRST .. */
typedef struct table_rows {
  lowering *l;
  const pending_tensor *first;
  MlirType last_type; /* rows of one type in a row share its shape */
  MlirAttribute last_shape;
} table_rows;

static MlirAttribute row_attr(void *user, int col, intptr_t k) {
  table_rows *t = user;
  lowering *l = t->l;
  const pending_tensor *p = &t->first[k];
  switch (col) {
  case WP_BIR_COL_NAMES:
    return str(l->ctx, p->name);
  case WP_BIR_COL_CLASSES:
    return static_str(l, wp_tensor_class_name(p->tensor_class));
  case WP_BIR_COL_DTYPES:
    return static_str(l, p->dtype);
  case WP_BIR_COL_SHAPES:
    if (mlirTypeIsNull(t->last_type) || !mlirTypeEqual(t->last_type, p->type)) {
      t->last_type = p->type;
      t->last_shape = shape_attr(l->ctx, p->type);
    }
    return t->last_shape;
  default:
    if (!l->last_file || strcmp(l->last_file, p->const_file) != 0) {
      l->last_file = p->const_file;
      l->last_file_ref = mlirFlatSymbolRefAttrGet(l->ctx, wp_sref(p->const_file));
    }
    return l->last_file_ref;
  }
}

static int64_t row_integer(void *user, int col, intptr_t k) {
  const pending_tensor *p = &((table_rows *)user)->first[k];
  switch (col) {
  case WP_BIR_COL_SIZES:
    return (int64_t)p->bytes;
  case WP_BIR_COL_ALIGNMENTS:
    return (int64_t)p->align;
  case WP_BIR_COL_PLACEMENTS:
    return (int64_t)p->at;
  case WP_BIR_COL_OFFSETS:
    return (int64_t)p->const_offset;
  default:
    return p->sub_id;
  }
}

/* Pending tensors FIRST .. FIRST + N - 1, constants all, as one
 * bir.const_table. */
static int write_table(lowering *l, size_t first, size_t n) {
  table_rows rows = {l, &l->pending[first], {NULL}, {NULL}};
  wp_bir_column_source src = {&rows, row_attr, row_integer};
  MlirNamedAttribute a[WP_BIR_TABLE_N_ATTRS];
  wp_bir_column_attrs(l->ctx, (intptr_t)n, &src,
                      static_str(l, wp_memory_type_name(l->opts.const_memory)), a);
  wp_lower_emit(l, WP_BIR_TABLE_OP, a, WP_BIR_TABLE_N_ATTRS);
  return 0;
}

/* Writes every pending tensor in the order lowered, a set and a location
 * each; the constants (lowered one after another, between the inputs and
 * the results) as one table when there are at least table_min of them. */
int wp_lower_write_tensors(lowering *l) {
  size_t first = 0, n_const = 0;
  for (size_t k = 0; k < l->n_pending; k++)
    if (l->pending[k].const_file && n_const++ == 0)
      first = k;
  bool table = l->opts.table_min && n_const >= l->opts.table_min;
  for (size_t k = first; table && k < first + n_const; k++)
    table = l->pending[k].const_file != NULL; /* a run, as lowered */
  for (size_t k = 0; k < l->n_pending; k++) {
    if (table && k == first) {
      if (write_table(l, first, n_const))
        return -1;
      k += n_const - 1;
    } else if (write_pair(l, &l->pending[k])) {
      return -1;
    }
  }
  return 0;
}
