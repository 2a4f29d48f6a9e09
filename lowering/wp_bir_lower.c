/* bir-lower: the HLO entry computation becomes a BIR function (section 2
 * of the specification). Runtime parameters become ExternalInput tensors,
 * results ExternalOutput tensors, every constant a const tensor whose bytes
 * sit in a constant file: a weight keeps its own file (the .npy payload, in
 * place), small constants share one file at aligned offsets. The HLO
 * program moves, whole, into a nested module that the kernel points at. */
#include "wp_bir_lower.h"

#include "wp_bir.h"
#include "wp_bir_align.h"
#include "wp_bir_class.h"
#include "wp_bir_enums.h"
#include "wp_bir_lower_impl.h"
#include "wp_bir_lowering.h"
#include "wp_bir_table.h"
#include "wp_hlo_literal.h"
#include "wp_hlo.h"
#include "wp_hlo_resource.h"
#include "wp_hlo_types.h"
#include "wp_hlo_weight.h"
#include "wp_i64map.h"
#include "wp_mlir_util.h"
#include "wp_npy.h"
#include "wp_strmap.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Takes NAME (arena memory) for one input or constant tensor. Its set and
 * every later lookup by hlo_value go by the name, so a second tensor of
 * that name would silently get the first one's bytes. */
static int claim_name(lowering *l, const char *name, MlirLocation loc, const char *what) {
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
  if (wp_strmap_put(&l->tensor_names, name, len, 1)) {
    wp_emit_error(loc, "bir-lower: out of memory");
    return -1;
  }
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
 * settles the rare clash). Arena memory; NULL when out of memory. */
static char *const_file_name(lowering *l, const char *name) {
  size_t len = strlen(name), n = len < FILE_STEM_MAX ? len : FILE_STEM_MAX;
  char *file = wp_arena_alloc(l->arena, FILE_STEM_MAX + 48);
  if (!file)
    return NULL;
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

/* The attribute of S, a string that lives as long as the program (an enum
 * or dtype name), remembered by its address. */
static void add_const_file(lowering *l, const char *name, uint64_t size, MlirNamedAttribute from) {
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

/* Where a weight's payload sits in its .npy file, when it is there as the
 * constant holds it (not converted). */
static bool npy_payload(MlirAttribute weight, char **file, uint64_t *offset, uint64_t size,
                        wp_arena *arena) {
  MlirStringRef f, param;
  int64_t number;
  if (!wp_hlo_weight_origin_get(weight, &f, &param, &number))
    return false;
  char *path = wp_arena_strndup(arena, f.data, f.length);
  wp_npy_info npy;
  wp_error err;
  bool ok = wp_npy_file_header(path, &npy, &err) == 0 && !wp_npy_needs_conversion(&npy) &&
            npy.data_size == size;
  *offset = npy.data_offset;
  *file = path;
  return ok;
}

/* A small constant goes into the shared file at an aligned offset. One with
 * the same bytes and dtype as an earlier one (tied small weights, repeated
 * literals) reuses that region, as dedup-consts would merge their files:
 * the memory type is the same for every constant of one lowering. */
/* "consts.<dtype>.bin", in the lowering's arena (NULL: out of memory). */
static char *shared_file_name(wp_arena *arena, const char *dtype) {
  size_t n = strlen(WP_BIR_SHARED_PREFIX) + strlen(dtype) + 5;
  char *name = wp_arena_alloc(arena, n);
  if (name)
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
  if (!(f->name = shared_file_name(l->arena, dtype)))
    return NULL;
  f->dtype = dtype;
  f->size = 0;
  f->count = 0;
  l->n_shared++;
  return f;
}

static int add_shared(lowering *l, MlirOperation op, const char *name, int tc, MlirType t,
                      int elt, const char *dtype, const void *bytes, uint64_t size) {
  int64_t key = wp_hash_bytes(bytes, size) ^ wp_hash_bytes(dtype, strlen(dtype));
  int64_t found;
  if (wp_i64map_get(&l->shared_index, key, &found)) {
    const shared_entry *e = &l->shared_entries[found];
    /* a tie keeps the first's place, if that suits this one's alignment */
    if (e->size == size && !strcmp(e->dtype, dtype) &&
        e->at % wp_lower_alignment(l, l->opts.const_memory, t, elt).step == 0 &&
        !memcmp(e->bytes, bytes, size)) {
      return wp_lower_add_tensor(l, name, tc, t, name, l->opts.const_memory, e->file, e->at,
                                 e->sub_id);
    }
  }
  shared_file *sf = shared_file_for(l, dtype);
  if (!sf) {
    wp_emit_error(mlirOperationGetLocation(op), "bir-lower: out of memory");
    return -1;
  }
  uint64_t at = wp_bir_align_up(sf->size, wp_lower_alignment(l, l->opts.const_memory, t, elt).step);
  if (at < sf->size || at > (uint64_t)INT64_MAX - size) {
    wp_emit_error(mlirOperationGetLocation(op), "bir-lower: constant '%s' would pass byte "
                  "2^63-1 of the shared constant file '%s'", name, sf->name);
    return -1;
  }
  sf->size = at + size;
  if (l->n_shared_entries == l->cap_shared_entries) {
    size_t cap = l->cap_shared_entries ? 2 * l->cap_shared_entries : 64;
    shared_entry *e = realloc(l->shared_entries, cap * sizeof *e);
    if (!e) {
      wp_emit_error(mlirOperationGetLocation(op), "bir-lower: out of memory");
      return -1;
    }
    l->shared_entries = e;
    l->cap_shared_entries = cap;
  }
  /* A hash shared with other bytes keeps the first entry: no reuse then. */
  if (!wp_i64map_get(&l->shared_index, key, NULL) &&
      wp_i64map_put(&l->shared_index, key, (int64_t)l->n_shared_entries)) {
    wp_emit_error(mlirOperationGetLocation(op), "bir-lower: out of memory");
    return -1;
  }
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

static int lower_constant(lowering *l, MlirOperation op) {
  MlirContext c = l->ctx;
  MlirStringRef nref = {"constant", 8};
  wp_attr_str(op, "name", &nref);
  char *name = wp_arena_strndup(l->arena, nref.data, nref.length);
  if (claim_name(l, name, mlirOperationGetLocation(op), "constant"))
    return -1;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  int prim;
  const char *dtype;
  uint64_t nbytes;
  int elt = wp_lower_tensor_info(t, &prim, &dtype, &nbytes);
  MlirAttribute value = wp_attr(op, "value");
  if (elt <= 0) {
    wp_lower_tensor_error(mlirOperationGetLocation(op), "constant", name, t, elt);
    return -1;
  }
  if (mlirAttributeIsNull(value)) {
    /* the importer keeps a literal it cannot read as the type (too few or
     * too many elements, another element field) as it is, for the round
     * trip; its bytes are unknown */
    char ts[256];
    wp_hlo_type_str(t, ts, sizeof ts);
    wp_emit_error(mlirOperationGetLocation(op), "bir-lower: constant '%s': its literal does not "
                  "hold a %s value weightpack reads (wrong element count or element field, or "
                  "data laid out other than row-major), so it has no bytes to lower", name, ts);
    return -1;
  }
  /* hand-written IR may give a value of another type: its bytes would
   * be read as the result's */
  MlirType vt = mlirAttributeGetType(value);
  if (!mlirTypeEqual(vt, t)) {
    char ts[256], vs[256];
    wp_hlo_type_str(t, ts, sizeof ts);
    wp_hlo_type_str(vt, vs, sizeof vs);
    wp_emit_error(mlirOperationGetLocation(op), "bir-lower: constant '%s': its value is %s but "
                  "its result is %s", name, vs, ts);
    return -1;
  }
  const void *bytes;
  uint64_t size;
  wp_error err;
  bool in_ir;
  if (wp_hlo_constant_bytes_from(op, l->arena, &bytes, &size, &in_ir, &err)) {
    wp_emit_error(mlirOperationGetLocation(op), "bir-lower: constant '%s': %s", name, err.msg);
    return -1;
  }
  if (in_ir && l->opts.is_mapped && l->opts.is_mapped(l->opts.is_mapped_user, value))
    in_ir = false; /* inline-weights mapped it from its file in this run */
  int tc = wp_bir_constant_class(op, bytes, size);
  MlirAttribute weight = wp_attr(op, "weight");
  bool is_weight = !mlirAttributeIsNull(weight);
  bool small = size < (is_weight ? l->opts.small_weight_threshold : l->opts.small_threshold);
  /* what bir.lowering must say for this constant to be lowered again */
  if (tc == WP_TC_IDENTITY_WEIGHT && is_weight &&
      wp_bir_feeds_weight_operand(mlirOperationGetResult(op, 0)))
    note_fact(l, 0, name);
  if (is_weight && (size < l->opts.small_weight_threshold) != (size < l->opts.small_threshold))
    note_fact(l, 1, name);
  char *npy_file;
  uint64_t npy_offset;
  if (small)
    return add_shared(l, op, name, tc, t, elt, dtype, bytes, size);
  char *file_name = const_file_name(l, name);
  if (!file_name) {
    wp_emit_error(mlirOperationGetLocation(op), "bir-lower: out of memory");
    return -1;
  }
  /* Bytes the IR carries are packed from it, not from a .npy that may have
   * changed or gone since. */
  if (is_weight && !in_ir && npy_payload(weight, &npy_file, &npy_offset, size, l->arena)) {
    MlirNamedAttribute src[2] = {wp_named(c, "file", str(c, npy_file)),
                                 wp_named(c, "offset", wp_i64_attr(c, (int64_t)npy_offset))};
    add_const_file(l, file_name, size, wp_named(c, "source", mlirDictionaryAttrGet(c, 2, src)));
  } else {
    add_const_file(l, file_name, size, wp_named(c, "constant", str(c, name)));
  }
  return wp_lower_add_tensor(l, name, tc, t, name, l->opts.const_memory, file_name, 0, 0);
}

/* Results: each array leaf of the root (tuples flattened in order). */
static int lower_results(lowering *l, MlirType t, const char *base, int *index, bool tuple) {
  if (mlirTypeIsATuple(t)) {
    for (intptr_t i = 0; i < mlirTupleTypeGetNumTypes(t); i++)
      if (lower_results(l, mlirTupleTypeGetType(t, i), base, index, true))
        return -1;
    return 0;
  }
  int prim;
  const char *dtype;
  uint64_t bytes;
  int elt = wp_lower_tensor_info(t, &prim, &dtype, &bytes);
  size_t n = strlen(base) + 48;
  char *name = wp_arena_alloc(l->arena, n);
  if (!name) {
    wp_emit_error(l->loc, "bir-lower: out of memory");
    return -1;
  }
  if (tuple)
    snprintf(name, n, "%s.%d", base, elt ? (*index)++ : *index);
  else
    snprintf(name, n, "%s", base);
  if (elt == WP_LOWER_TENSOR_TOO_BIG) {
    wp_lower_tensor_error(l->loc, "result", name, t, elt);
    return -1;
  }
  if (!elt)
    return 0; /* tokens carry no data */
  /* A set of its own: a root that is a constant (a weight returned as it
   * is) or a parameter named "out.0" already has the name. */
  size_t len = strlen(name);
  for (unsigned k = 1; wp_strmap_get(&l->tensor_names, name, strlen(name), NULL); k++)
    snprintf(name + len, n - len, k == 1 ? ".result" : ".result%u", k);
  if (claim_name(l, name, l->loc, "result"))
    return -1;
  return wp_lower_add_tensor(l, name, WP_TC_OUTPUT, t, NULL, WP_MT_EXTERNAL_OUTPUT, NULL, 0, 0);
}


/* Moves the HLO program (every top-level op) into a nested module. */
static MlirOperation nest_hlo_program(MlirOperation module, MlirStringRef *name_out) {
  MlirContext c = mlirOperationGetContext(module);
  MlirStringRef name = {"hlo", 3};
  wp_attr_str(module, "sym_name", &name);
  MlirOperationState st = mlirOperationStateGet(wp_sref("builtin.module"),
                                                mlirOperationGetLocation(module));
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, mlirBlockCreate(0, NULL, NULL));
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation nested = mlirOperationCreate(&st);
  MlirBlock dst = mlirRegionGetFirstBlock(mlirOperationGetRegion(nested, 0));
  MlirBlock src = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(src), next; !mlirOperationIsNull(op);
       op = next) {
    next = mlirOperationGetNextInBlock(op);
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(dst, op);
  }
  static const char *const moved[] = {"hlo.entry", "hlo.extra"};
  for (size_t i = 0; i < 2; i++) {
    MlirAttribute a = wp_attr(module, moved[i]);
    if (!mlirAttributeIsNull(a)) {
      wp_set_attr(nested, moved[i], a);
      mlirOperationRemoveAttributeByName(module, wp_sref(moved[i]));
    }
  }
  wp_set_attr(nested, "sym_name", wp_str_attr(c, name.data, name.length));
  wp_hlo_module_avoid_name(nested, wp_sref(WP_BIR_FUNCTION_NAME));
  mlirBlockAppendOwnedOperation(src, nested);
  *name_out = wp_str_value(wp_attr(nested, "sym_name"));
  return nested;
}

static MlirOperation find_entry(MlirOperation module) {
  MlirAttribute e = wp_attr(module, "hlo.entry");
  MlirStringRef want = wp_symref_value(e);
  for (MlirOperation f = wp_first_op_in(module); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    MlirStringRef n;
    if (wp_op_is(f, "func.func") && wp_attr_str(f, "sym_name", &n) && mlirStringRefEqual(n, want))
      return f;
  }
  return (MlirOperation){NULL};
}

int wp_bir_lower_module(MlirOperation module, const wp_lower_options *opts) {
  MlirContext c = mlirOperationGetContext(module);
  MlirAttribute e = wp_attr(module, "hlo.entry");
  if (mlirAttributeIsNull(e) || !mlirAttributeIsAFlatSymbolRef(e)) {
    wp_emit_error(mlirOperationGetLocation(module), "bir-lower: the module is not an HLO module%s",
                  wp_bir_module_is_bir(mlirModuleFromOperation(module)) ? " (it is BIR already)" : "");
    return -1;
  }
  MlirOperation entry = find_entry(module);
  if (mlirOperationIsNull(entry)) {
    wp_emit_error(mlirOperationGetLocation(module), "bir-lower: the entry computation is missing");
    return -1;
  }
  lowering l = {.ctx = c, .loc = mlirOperationGetLocation(entry), .arena = wp_arena_create()};
  wp_strmap_init(&l.tensor_names);
  wp_strmap_init(&l.file_names);
  for (int prim = 0; prim < WP_MAX_PRIM; prim++) { /* the shared files' names are taken */
    const char *dt = wp_dtype_name(prim);
    char *reserved = dt ? shared_file_name(l.arena, dt) : NULL; /* the map keeps the key */
    if (reserved)
      wp_strmap_put(&l.file_names, reserved, strlen(reserved), 1);
  }
  init_keys(&l);
  int rc = -1;
  l.opts = (lower_opts){.const_memory = opts->const_memory_dram ? WP_MT_DRAM : WP_MT_CONST,
                        .small_threshold = opts->small_threshold,
                        .small_weight_threshold = opts->small_weight_threshold,
                        .min_align = opts->min_align,
                        .table_min = opts->table_min,
                        .is_mapped = opts->is_mapped,
                        .is_mapped_user = opts->is_mapped_user};

  /* The BIR function, built aside and added only once lowering worked. */
  MlirRegion region = mlirRegionCreate();
  l.body = mlirBlockCreate(0, NULL, NULL);
  mlirRegionAppendOwnedBlock(region, l.body);
  MlirOperationState rs = mlirOperationStateGet(wp_sref("func.return"), l.loc);
  l.ret = mlirOperationCreate(&rs);
  mlirBlockAppendOwnedOperation(l.body, l.ret);
  MlirType fty = mlirFunctionTypeGet(c, 0, NULL, 0, NULL);
  MlirNamedAttribute fa[3] = {wp_named(c, "sym_name", str(c, WP_BIR_FUNCTION_NAME)),
                              wp_named(c, "function_type", mlirTypeAttrGet(fty)),
                              wp_named(c, "bir.function", mlirUnitAttrGet(c))};
  MlirOperationState fs = mlirOperationStateGet(wp_sref("func.func"), l.loc);
  mlirOperationStateAddOwnedRegions(&fs, 1, &region);
  mlirOperationStateAddAttributes(&fs, 3, fa);
  MlirOperation bir_func = mlirOperationCreate(&fs);

  MlirBlock eb = mlirRegionGetFirstBlock(mlirOperationGetRegion(entry, 0));
  if (mlirBlockIsNull(eb)) {
    wp_emit_error(l.loc, "bir-lower: the entry computation has no body");
    mlirOperationDestroy(bir_func);
    goto out;
  }
  /* An HLO computation returns one root (a tuple for several values). */
  MlirOperation term = mlirBlockGetTerminator(eb);
  if (mlirOperationIsNull(term) || !wp_op_is(term, "func.return") ||
      mlirOperationGetNumOperands(term) != 1) {
    wp_emit_error(l.loc, "bir-lower: the entry computation must end in a func.return of one "
                  "value, its root (%s)",
                  mlirOperationIsNull(term) || !wp_op_is(term, "func.return")
                      ? "its last op is no func.return; are the dialects loaded?"
                      : "a tuple when it returns several");
    mlirOperationDestroy(bir_func);
    goto out;
  }
  MlirAttribute arg_attrs = wp_attr(entry, "arg_attrs");
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(eb); i++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(eb, i));
    MlirAttribute nm = mlirAttributeIsNull(arg_attrs)
                           ? mlirAttributeGetNull()
                           : wp_dict_get(mlirArrayAttrGetElement(arg_attrs, i), "hlo.name");
    char *name;
    if (!mlirAttributeIsNull(nm) && mlirAttributeIsAString(nm)) {
      MlirStringRef s = wp_str_value(nm);
      name = wp_arena_strndup(l.arena, s.data, s.length);
    } else {
      char buf[32];
      snprintf(buf, sizeof buf, "input%ld", (long)i);
      name = wp_arena_strndup(l.arena, buf, strlen(buf));
    }
    if (!name) {
      wp_emit_error(l.loc, "bir-lower: out of memory");
      mlirOperationDestroy(bir_func);
      goto out;
    }
    int prim;
    const char *dtype;
    uint64_t bytes;
    int elt = wp_lower_tensor_info(t, &prim, &dtype, &bytes);
    if (elt <= 0) {
      wp_lower_tensor_error(l.loc, "parameter", name, t, elt);
      mlirOperationDestroy(bir_func);
      goto out;
    }
    if (claim_name(&l, name, l.loc, "parameter")) {
      mlirOperationDestroy(bir_func);
      goto out;
    }
    if (wp_lower_add_tensor(&l, name, WP_TC_INPUT, t, name, WP_MT_EXTERNAL_INPUT, NULL, 0, 0)) {
      mlirOperationDestroy(bir_func);
      goto out;
    }
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(eb); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (wp_op_is(op, "hlo.constant") && lower_constant(&l, op)) {
      mlirOperationDestroy(bir_func);
      goto out;
    }
  for (size_t i = 0; i < l.n_shared; i++) {
    /* The shared files go first, ahead of the per-tensor files. Their bytes
     * are not copied: a copy would double the memory of a model with many
     * small weights. */
    const shared_file *sf = &l.shared[i];
    MlirNamedAttribute a[3] = {wp_named(c, "sym_name", str(c, sf->name)),
                               wp_named(c, "size", wp_i64_attr(c, (int64_t)sf->size)),
                               wp_named(c, "assembled", str(c, sf->name))};
    MlirOperationState st = mlirOperationStateGet(wp_sref("bir.const_file"), l.loc);
    mlirOperationStateAddAttributes(&st, 3, a);
    mlirBlockInsertOwnedOperation(l.body, (intptr_t)i, mlirOperationCreate(&st));
    wp_lower_add_file_name(&l, sf->name);
  }
  MlirOperation root_ret = mlirBlockGetTerminator(eb);
  MlirValue root = mlirOperationGetOperand(root_ret, 0);
  MlirStringRef rname = {"result", 6};
  if (!mlirValueIsABlockArgument(root))
    wp_attr_str(mlirOpResultGetOwner(root), "name", &rname);
  char *base = wp_arena_strndup(l.arena, rname.data, rname.length);
  if (!base) {
    wp_emit_error(l.loc, "bir-lower: out of memory");
    mlirOperationDestroy(bir_func);
    goto out;
  }
  int index = 0;
  if (lower_results(&l, mlirValueGetType(root), base, &index, false) ||
      wp_lower_write_tensors(&l)) {
    mlirOperationDestroy(bir_func);
    goto out;
  }

  MlirStringRef prog_module;
  MlirStringRef entry_name = wp_symref_value(e);
  char entry_buf[512];
  snprintf(entry_buf, sizeof entry_buf, "%.*s", (int)entry_name.length, entry_name.data);
  MlirStringRef hlo_name = {"hlo", 3};
  wp_attr_str(module, "sym_name", &hlo_name);
  char module_name[512];
  snprintf(module_name, sizeof module_name, "%.*s", (int)hlo_name.length, hlo_name.data);
  nest_hlo_program(module, &prog_module);
  MlirAttribute leaf = mlirFlatSymbolRefAttrGet(c, wp_sref(entry_buf));
  MlirNamedAttribute ka[3] = {
      wp_named(c, "sym_name", str(c, "kernel")),
      wp_named(c, "const_files", mlirArrayAttrGet(c, (intptr_t)l.n_files, l.files)),
      wp_named(c, "program", mlirSymbolRefAttrGet(c, prog_module, 1, &leaf))};
  wp_lower_emit(&l, "bir.kernel", ka, 3);
  mlirBlockAppendOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)),
                                bir_func);
  wp_set_attr(module, "bir.name", str(c, module_name));
  /* The BIR protobuf form names the module by bir.name when read back: an
   * unnamed HLO module gets the default name here too, or the IR would
   * change in its own round trip (--verify-roundtrip). */
  if (mlirAttributeIsNull(wp_attr(module, "sym_name")))
    wp_set_attr(module, "sym_name", str(c, module_name));
  wp_set_attr(module, "bir.artifact_path", str(c, ""));
  wp_set_attr(module, WP_BIR_LOWERING_ATTR, lowering_record(&l));
  rc = 0;
out:
  free(l.shared_entries);
  free(l.pending);
  free(l.record[0]);
  free(l.record[1]);
  wp_i64map_free(&l.shared_index);
  wp_strmap_free(&l.tensor_names);
  wp_strmap_free(&l.file_names);
  free(l.files);
  wp_arena_destroy(l.arena);
  return rc;
}
