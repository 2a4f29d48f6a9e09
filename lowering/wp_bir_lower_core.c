/* The lowering's machinery shared by bir-lower (an HLO program,
 * wp_bir_lower.c) and relowering (a NEFF's tensors, wp_bir_relower.c):
 * names, const files, the shared files and their ties, and the BIR
 * function's start and end. */
#include "wp_bir_lower_impl.h"

#include "wp_bir.h"
#include "wp_bir_lowering.h"
#include "wp_hlo.h"
#include "wp_mlir_util.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Takes NAME (arena memory) for one input or constant tensor. Its set and
 * every later lookup by hlo_value go by the name, so a second tensor of
 * that name would silently get the first one's bytes. */
int wp_lower_claim_name(lowering *l, const char *name, MlirLocation loc, const char *what) {
  size_t len = strlen(name);
  if (len == 0) { /* no symbol can be empty, and the set's hlo_value would be lost */
    wp_emit_error(loc, "bir-lower: a %s has an empty name; BIR names each tensor after its "
                  "HLO instruction", what);
    return -1;
  }
  if (wp_strmap_get(&l->tensor_names, name, len, NULL)) {
    wp_emit_error(loc, "bir-lower: %s '%s': another parameter, constant or result has that "
                  "name (XLA instruction names are unique)", what, name);
    return -1;
  }
  wp_strmap_put(&l->tensor_names, name, len, 1);
  return 0;
}

/* The longest stem of a const file name: with ".bin", a hash suffix, a
 * de-clash counter and a placer's temporary-file decoration it stays well
 * under the 255 bytes a file name may have. */
#define FILE_STEM_MAX 160

/* A const file name for tensor NAME: its name and ".bin" when that is a
 * plain, portable file name; else the name with every other byte as '_',
 * cut to FILE_STEM_MAX and marked with a hash of the full name, so that
 * "dense/kernel" is "dense_kernel-<hash>.bin" and does not meet a tensor
 * named "dense_kernel". Unique among the lowering's files (a counter
 * settles the rare clash). Arena memory (out of memory aborts). */
char *wp_lower_const_file_name(lowering *l, const char *name) {
  size_t len = strlen(name), n = len < FILE_STEM_MAX ? len : FILE_STEM_MAX;
  char *file = wp_arena_alloc(l->arena, FILE_STEM_MAX + 48);
  bool changed = n < len || n == 0;
  for (size_t i = 0; i < n; i++) {
    char c = name[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || ((c == '.' || c == '-') && i > 0);
    file[i] = ok ? c : '_';
    changed |= !ok;
  }
  size_t at = n;
  if (n == 0)
    file[at++] = '_';
  if (changed)
    at += (size_t)sprintf(file + at, "-%08x", (unsigned)((uint64_t)wp_hash_bytes(name, len) >> 32));
  for (unsigned k = 1;; k++) {
    sprintf(file + at, k == 1 ? ".bin" : ".%u.bin", k);
    size_t fl = strlen(file);
    if (!wp_strmap_get(&l->file_names, file, fl, NULL))
      return wp_strmap_put(&l->file_names, file, fl, 1) ? NULL : file;
  }
}

static void init_keys(lowering *l) {
  MlirContext c = l->ctx;
#define KEY(k) l->key.k = mlirIdentifierGet(c, wp_sref(#k))
  KEY(sym_name);
  KEY(tensor_class);
  KEY(dtype);
  KEY(shape);
  KEY(hlo_value);
  KEY(set);
  KEY(memory_type);
  KEY(size);
  KEY(alignment);
  KEY(placement);
  KEY(const_file);
  KEY(const_ap_offset);
  KEY(const_sub_tensor_id);
  KEY(is_regloc_offset);
#undef KEY
  l->no = mlirBoolAttrGet(c, false);
}

/* A const file op after the previous one, its name in the kernel's list. */
void wp_lower_add_const_file(lowering *l, const char *name, uint64_t size, MlirNamedAttribute from) {
  MlirNamedAttribute a[3] = {wp_named(l->ctx, "sym_name", str(l->ctx, name)),
                             wp_named(l->ctx, "size", wp_i64_attr(l->ctx, (int64_t)size)), from};
  MlirOperationState st = mlirOperationStateGet(wp_sref("bir.const_file"), l->loc);
  mlirOperationStateAddAttributes(&st, 3, a);
  MlirOperation op = mlirOperationCreate(&st);
  /* after the previous one (null: at the start), in constant time */
  mlirBlockInsertOwnedOperationAfter(l->body, l->last_file_op, op);
  l->last_file_op = op;
  wp_lower_add_file_name(l, name);
}

/* A small constant goes into the shared file at an aligned offset. One with
 * the same bytes and dtype as an earlier one (tied small weights, repeated
 * literals) reuses that region, as dedup-consts would merge their files:
 * the memory type is the same for every constant of one lowering. */
/* "consts.<dtype>.bin", in the lowering's arena. */
static char *shared_file_name(wp_arena *arena, const char *dtype) {
  size_t n = strlen(WP_BIR_SHARED_PREFIX) + strlen(dtype) + 5;
  char *name = wp_arena_alloc(arena, n);
  snprintf(name, n, "%s%s.bin", WP_BIR_SHARED_PREFIX, dtype);
  return name;
}

static shared_file *shared_file_for(lowering *l, const char *dtype) {
  for (size_t i = 0; i < l->n_shared; i++)
    if (!strcmp(l->shared[i].dtype, dtype))
      return &l->shared[i];
  if (l->n_shared == WP_MAX_PRIM)
    return NULL;
  shared_file *f = &l->shared[l->n_shared];
  f->name = shared_file_name(l->arena, dtype);
  f->dtype = dtype;
  f->size = 0;
  f->count = 0;
  l->n_shared++;
  return f;
}

int wp_lower_add_shared(lowering *l, MlirLocation loc, const char *name, int tc, MlirType t,
                      int elt, const char *dtype, const void *bytes, uint64_t size) {
  int64_t key = wp_hash_bytes(bytes, size) ^ wp_hash_bytes(dtype, strlen(dtype));
  int64_t found;
  if (wp_i64map_get(&l->shared_index, key, &found)) {
    const shared_entry *e = &l->shared_entries[found];
    /* a tie keeps the first's place, if that suits this one's alignment */
    if (e->size == size && !strcmp(e->dtype, dtype) &&
        e->at % wp_lower_alignment(l, l->opts.const_memory, t, elt).step == 0 &&
        (size == 0 || !memcmp(e->bytes, bytes, size))) { /* an empty tensor's bytes may be null */
      return wp_lower_add_tensor(l, name, tc, t, name, l->opts.const_memory, e->file, e->at,
                                 e->sub_id);
    }
  }
  shared_file *sf = shared_file_for(l, dtype);
  if (!sf) { /* one per dtype: more than WP_MAX_PRIM cannot be */
    wp_emit_error(loc, "bir-lower: constant '%s': more than %d dtypes of shared constant files",
                  name, WP_MAX_PRIM);
    return -1;
  }
  uint64_t at = wp_bir_align_up(sf->size, wp_lower_alignment(l, l->opts.const_memory, t, elt).step);
  if (at < sf->size || at > (uint64_t)INT64_MAX - size) {
    wp_emit_error(loc, "bir-lower: constant '%s' would pass byte "
                  "2^63-1 of the shared constant file '%s'", name, sf->name);
    return -1;
  }
  sf->size = at + size;
  if (l->n_shared_entries == l->cap_shared_entries) {
    size_t cap = l->cap_shared_entries ? 2 * l->cap_shared_entries : 64;
    l->shared_entries = wp_xrealloc(l->shared_entries, cap * sizeof *l->shared_entries);
    l->cap_shared_entries = cap;
  }
  /* A hash shared with other bytes keeps the first entry: no reuse then. */
  if (!wp_i64map_get(&l->shared_index, key, NULL))
    wp_i64map_put(&l->shared_index, key, (int64_t)l->n_shared_entries);
  l->shared_entries[l->n_shared_entries++] = (shared_entry){at, size, sf->count, dtype,
                                                            bytes, sf->name};
  return wp_lower_add_tensor(l, name, tc, t, name, l->opts.const_memory, sf->name, at, sf->count++);
}

/* Adds NAME to bir.lowering's list K (0 weight_operands, 1 planted). */
static void note_fact(lowering *l, int k, const char *name) {
  if (l->n_record[k] == l->cap_record[k]) {
    l->cap_record[k] = l->cap_record[k] ? 2 * l->cap_record[k] : 8;
    l->record[k] = wp_xrealloc(l->record[k], l->cap_record[k] * sizeof *l->record[k]);
  }
  l->record[k][l->n_record[k]++] = name;
}

/* bir.lowering: the options and the facts noted (wp_bir_lowering.h). */
static MlirAttribute lowering_record(const lowering *l) {
  MlirContext c = l->ctx;
  MlirNamedAttribute a[6];
  int n = 0;
  a[n++] = wp_named(c, "small_const_threshold", wp_i64_attr(c, (int64_t)l->opts.small_threshold));
  a[n++] = wp_named(c, "small_weight_threshold",
                    wp_i64_attr(c, (int64_t)l->opts.small_weight_threshold));
  a[n++] = wp_named(c, "alignment",
                    wp_i64_attr(c, (int64_t)(l->opts.min_align ? l->opts.min_align : 1)));
  a[n++] = wp_named(c, "const_memory", str(c, wp_memory_type_name(l->opts.const_memory)));
  static const char *const lists[2] = {"weight_operands", "planted"};
  for (int k = 0; k < 2; k++) {
    if (!l->n_record[k])
      continue;
    MlirAttribute *e = wp_xmalloc(l->n_record[k] * sizeof *e);
    for (size_t i = 0; i < l->n_record[k]; i++)
      e[i] = str(c, l->record[k][i]);
    a[n++] = wp_named(c, lists[k], mlirArrayAttrGet(c, (intptr_t)l->n_record[k], e));
    free(e);
  }
  return mlirDictionaryAttrGet(c, n, a);
}

void wp_lower_note_facts(lowering *l, const char *name, bool is_weight, bool identity_operand,
                         uint64_t size) {
  if (identity_operand)
    note_fact(l, 0, name);
  if (is_weight && (size < l->opts.small_weight_threshold) != (size < l->opts.small_threshold))
    note_fact(l, 1, name);
}

bool wp_lower_is_small(const lowering *l, uint64_t size, bool is_weight) {
  return size < (is_weight ? l->opts.small_weight_threshold : l->opts.small_threshold);
}

MlirOperation wp_lower_begin(lowering *l, MlirContext c, MlirLocation loc,
                             const wp_lower_options *opts) {
  *l = (lowering){.ctx = c, .loc = loc, .arena = wp_arena_create()};
  wp_strmap_init(&l->tensor_names);
  wp_strmap_init(&l->file_names);
  for (int prim = 0; prim < WP_MAX_PRIM; prim++) { /* the shared files' names are taken */
    const char *dt = wp_dtype_name(prim);
    char *reserved = dt ? shared_file_name(l->arena, dt) : NULL; /* the map keeps the key */
    if (reserved)
      wp_strmap_put(&l->file_names, reserved, strlen(reserved), 1);
  }
  init_keys(l);
  l->opts = (lower_opts){.const_memory = opts->const_memory_dram ? WP_MT_DRAM : WP_MT_CONST,
                         .small_threshold = opts->small_threshold,
                         .small_weight_threshold = opts->small_weight_threshold,
                         .min_align = opts->min_align,
                         .table_min = opts->table_min,
                         .is_mapped = opts->is_mapped,
                         .is_mapped_user = opts->is_mapped_user};
  /* The BIR function, built aside and added only once lowering worked. */
  MlirRegion region = mlirRegionCreate();
  l->body = mlirBlockCreate(0, NULL, NULL);
  mlirRegionAppendOwnedBlock(region, l->body);
  MlirOperationState rs = mlirOperationStateGet(wp_sref("func.return"), loc);
  l->ret = mlirOperationCreate(&rs);
  mlirBlockAppendOwnedOperation(l->body, l->ret);
  MlirType fty = mlirFunctionTypeGet(c, 0, NULL, 0, NULL);
  MlirNamedAttribute fa[3] = {wp_named(c, "sym_name", str(c, WP_BIR_FUNCTION_NAME)),
                              wp_named(c, "function_type", mlirTypeAttrGet(fty)),
                              wp_named(c, "bir.function", mlirUnitAttrGet(c))};
  MlirOperationState fs = mlirOperationStateGet(wp_sref("func.func"), loc);
  mlirOperationStateAddOwnedRegions(&fs, 1, &region);
  mlirOperationStateAddAttributes(&fs, 3, fa);
  return mlirOperationCreate(&fs);
}

/* The bytes of shared file SF, as its assembled form gives them: each
 * tensor at its place, zeros between; written to DIR/<its name>. */
static int write_shared_bytes(const lowering *l, const shared_file *sf, const char *dir,
                              char **path_out) {
  unsigned char *buf = wp_xcalloc(1, sf->size ? sf->size : 1);
  for (size_t i = 0; i < l->n_shared_entries; i++) {
    const shared_entry *e = &l->shared_entries[i];
    if (e->file == sf->name)
      memcpy(buf + e->at, e->bytes, e->size);
  }
  char *path = wp_arena_alloc(l->arena, strlen(dir) + strlen(sf->name) + 2);
  sprintf(path, "%s/%s", dir, sf->name);
  FILE *f = fopen(path, "wb");
  int rc = f && fwrite(buf, 1, sf->size, f) == sf->size ? 0 : -1;
  if (f && fclose(f))
    rc = -1;
  free(buf);
  if (rc)
    wp_emit_error(l->loc, "cannot write the shared constant file '%s'", path);
  *path_out = path;
  return rc;
}

int wp_lower_add_shared_files(lowering *l, const char *bytes_dir) {
  MlirContext c = l->ctx;
  for (size_t i = 0; i < l->n_shared; i++) {
    /* The shared files go first, ahead of the per-tensor files. Their bytes
     * are not copied: a copy would double the memory of a model with many
     * small weights. */
    const shared_file *sf = &l->shared[i];
    MlirNamedAttribute from;
    if (bytes_dir) {
      char *path;
      if (write_shared_bytes(l, sf, bytes_dir, &path))
        return -1;
      MlirNamedAttribute src[2] = {wp_named(c, "file", str(c, path)),
                                   wp_named(c, "offset", wp_i64_attr(c, 0))};
      from = wp_named(c, "source", mlirDictionaryAttrGet(c, 2, src));
    } else {
      from = wp_named(c, "assembled", str(c, sf->name));
    }
    MlirNamedAttribute a[3] = {wp_named(c, "sym_name", str(c, sf->name)),
                               wp_named(c, "size", wp_i64_attr(c, (int64_t)sf->size)), from};
    MlirOperationState st = mlirOperationStateGet(wp_sref("bir.const_file"), l->loc);
    mlirOperationStateAddAttributes(&st, 3, a);
    mlirBlockInsertOwnedOperation(l->body, (intptr_t)i, mlirOperationCreate(&st));
    wp_lower_add_file_name(l, sf->name);
  }
  return 0;
}

void wp_lower_finish(lowering *l, MlirOperation module, MlirOperation bir_func,
                     MlirStringRef prog_module, const char *entry, const char *module_name) {
  MlirContext c = l->ctx;
  MlirAttribute leaf = mlirFlatSymbolRefAttrGet(c, wp_sref(entry));
  MlirNamedAttribute ka[3] = {
      wp_named(c, "sym_name", str(c, "kernel")),
      wp_named(c, "const_files", mlirArrayAttrGet(c, (intptr_t)l->n_files, l->files)),
      wp_named(c, "program", mlirSymbolRefAttrGet(c, prog_module, 1, &leaf))};
  wp_lower_emit(l, "bir.kernel", ka, 3);
  mlirBlockAppendOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)),
                                bir_func);
  wp_set_attr(module, "bir.name", str(c, module_name));
  /* The BIR protobuf form names the module by bir.name when read back: an
   * unnamed HLO module gets the default name here too, or the IR would
   * change in its own round trip (--verify-roundtrip). */
  if (mlirAttributeIsNull(wp_attr(module, "sym_name")))
    wp_set_attr(module, "sym_name", str(c, module_name));
  wp_set_attr(module, "bir.artifact_path", str(c, ""));
  wp_set_attr(module, WP_BIR_LOWERING_ATTR, lowering_record(l));
}

void wp_lower_reserve(lowering *l, size_t tensors, size_t constants) {
  if (tensors > l->cap_pending) {
    l->pending = wp_xrealloc(l->pending, tensors * sizeof *l->pending);
    l->cap_pending = tensors;
  }
  if (constants > l->cap_shared_entries) {
    l->shared_entries = wp_xrealloc(l->shared_entries, constants * sizeof *l->shared_entries);
    l->cap_shared_entries = constants;
  }
}

void wp_lower_drop_shared_index(lowering *l) {
  free(l->shared_entries);
  l->shared_entries = NULL;
  l->n_shared_entries = l->cap_shared_entries = 0;
  wp_i64map_free(&l->shared_index);
}

void wp_lower_drop_names(lowering *l) { wp_strmap_free(&l->tensor_names); }

void wp_lower_end(lowering *l) {
  free(l->shared_entries);
  free(l->pending);
  free(l->record[0]);
  free(l->record[1]);
  wp_i64map_free(&l->shared_index);
  wp_strmap_free(&l->tensor_names);
  wp_strmap_free(&l->file_names);
  free(l->files);
  wp_arena_destroy(l->arena);
}
