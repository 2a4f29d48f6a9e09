/* bir dialect <-> wp.bir.Module messages. */
#include "wp_bir.h"
#include "wp_bir_lowering.h"

#include "weightpack/weightpack.h"
#include "wp_bir_check.h"
#include "wp_bir_table.h"
#include "wp_hlo.h"
#include "wp_hlo_literal.h"
#include "wp_i64map.h"
#include "wp_mlir_util.h"
#include "wp_jsonw.h"
#include "wp_pb.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

bool wp_bir_module_is_bir(MlirModule m) {
  return !mlirAttributeIsNull(wp_attr(mlirModuleGetOperation(m), "bir.name"));
}

MlirOperation wp_bir_hlo_program(MlirModule m) {
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (wp_op_is(op, "builtin.module") && !mlirAttributeIsNull(wp_attr(op, "hlo.entry")))
      return op;
  return (MlirOperation){NULL};
}

/* ---- MLIR -> message ---- */

typedef struct to_proto {
  wp_arena *arena;
  wp_error *err;
  MlirLocation *where; /* the op an error is about, or NULL */
  /* Copies of recent strings, by where MLIR keeps them: a uniqued string
   * has one address, so a set's name, its hlo_value, its location's set
   * reference and the enum names of 100,000 tensors are copied once each,
   * not once per field. */
  struct {
    const char *from;
    size_t len;
    char *copy;
  } recent[64];
} to_proto;

static char *dup_ref(wp_arena *a, MlirStringRef s) { return wp_arena_strndup(a, s.data, s.length); }

static char *intern(to_proto *t, MlirStringRef s) {
  size_t slot = ((uintptr_t)s.data >> 3) % (sizeof t->recent / sizeof *t->recent);
  if (t->recent[slot].from == s.data && t->recent[slot].len == s.length && s.data)
    return t->recent[slot].copy;
  char *copy = dup_ref(t->arena, s);
  t->recent[slot].from = s.data;
  t->recent[slot].len = s.length;
  t->recent[slot].copy = copy;
  return copy;
}

/* String attribute NAME of OP, or "" when absent. */
static char *str_attr(to_proto *t, MlirOperation op, const char *name) {
  MlirStringRef s;
  return wp_attr_str(op, name, &s) ? intern(t, s) : "";
}

static char *sym_attr(to_proto *t, MlirOperation op, const char *name) {
  MlirAttribute a = wp_attr(op, name);
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAFlatSymbolRef(a))
    return intern(t, wp_symref_value(a));
  return "";
}

/* Integer attribute NAME (0 when absent): the verifier has it in [0, 2^63). */
static uint64_t u64_attr(MlirOperation op, const char *name) {
  int64_t v = 0;
  wp_attr_i64(op, name, &v);
  return (uint64_t)v;
}

/* Appends ITEM to an array sized beforehand (see function_to_proto). */
#define PUSH(arr, n, item) ((arr)[(n)++] = (item))

/* The ops are valid BIR (wp_bir_verify): what they hold is read, not
 * judged, here. */
static int const_file_to_proto(to_proto *t, MlirOperation op, Wp__Bir__ConstFile **out) {
  Wp__Bir__ConstFile *cf = wp_pb_new(t->arena, &wp__bir__const_file__descriptor);
  cf->name = str_attr(t, op, "sym_name");
  cf->size = u64_attr(op, "size");
  cf->artifact = str_attr(t, op, "artifact");
  cf->md5 = str_attr(t, op, "md5");
  cf->artifact_in_place = !mlirAttributeIsNull(wp_attr(op, "artifact_in_place"));
  cf->member_md5 = str_attr(t, op, "member_md5");
  cf->member_prefix_md5 = str_attr(t, op, "member_prefix_md5");
  MlirAttribute source = wp_attr(op, "source"), data = wp_attr(op, "data");
  MlirStringRef constant;
  if (!mlirAttributeIsNull(source)) {
    Wp__Bir__NpyPayload *np = wp_pb_new(t->arena, &wp__bir__npy_payload__descriptor);
    np->file = dup_ref(t->arena, wp_str_value(wp_dict_get(source, "file")));
    np->offset = (uint64_t)mlirIntegerAttrGetValueInt(wp_dict_get(source, "offset"));
    cf->source = np;
    cf->bytes_from_case = WP__BIR__CONST_FILE__BYTES_FROM_SOURCE;
  } else if (wp_attr_str(op, "constant", &constant)) {
    cf->constant = dup_ref(t->arena, constant);
    cf->bytes_from_case = WP__BIR__CONST_FILE__BYTES_FROM_CONSTANT;
  } else if (!mlirAttributeIsNull(data)) {
    const void *bytes;
    uint64_t size;
    if (wp_hlo_elements_bytes(t->arena, data, &bytes, &size, t->err))
      return wp_error_prefix(t->err, "const file '%s'", cf->name);
    cf->data.data = (uint8_t *)bytes;
    cf->data.len = (size_t)size;
    cf->bytes_from_case = WP__BIR__CONST_FILE__BYTES_FROM_DATA;
  } else {
    cf->assembled = str_attr(t, op, "assembled");
    cf->bytes_from_case = WP__BIR__CONST_FILE__BYTES_FROM_ASSEMBLED;
  }
  *out = cf;
  return 0;
}

/* SHAPE (array<i64: ...>) into S. */
static void set_shape(to_proto *t, Wp__Bir__MemoryLocationSet *s, MlirAttribute shape) {
  s->n_shape = (size_t)mlirDenseArrayGetNumElements(shape);
  s->shape = wp_arena_alloc(t->arena, (s->n_shape + 1) * sizeof(int64_t));
  for (size_t i = 0; i < s->n_shape; i++)
    s->shape[i] = mlirDenseI64ArrayGetElement(shape, (intptr_t)i);
}

static Wp__Bir__MemoryLocationSet *set_to_proto(to_proto *t, MlirOperation op) {
  Wp__Bir__MemoryLocationSet *s = wp_pb_new(t->arena, &wp__bir__memory_location_set__descriptor);
  s->name = str_attr(t, op, "sym_name");
  s->tensor_class = str_attr(t, op, "tensor_class");
  s->dtype = str_attr(t, op, "dtype");
  s->hlo_value = str_attr(t, op, "hlo_value");
  set_shape(t, s, wp_attr(op, "shape"));
  return s;
}

static Wp__Bir__MemoryLocation *loc_to_proto(to_proto *t, MlirOperation op) {
  Wp__Bir__MemoryLocation *l = wp_pb_new(t->arena, &wp__bir__memory_location__descriptor);
  l->name = str_attr(t, op, "sym_name");
  l->memory_type = str_attr(t, op, "memory_type");
  l->set = sym_attr(t, op, "set");
  l->const_file = sym_attr(t, op, "const_file");
  l->size = u64_attr(op, "size");
  l->alignment = u64_attr(op, "alignment");
  l->placement = u64_attr(op, "placement");
  l->const_ap_offset = u64_attr(op, "const_ap_offset");
  wp_attr_i64(op, "const_sub_tensor_id", &l->const_sub_tensor_id);
  MlirAttribute r = wp_attr(op, "is_regloc_offset");
  l->is_regloc_offset = !mlirAttributeIsNull(r) && mlirBoolAttrGetValue(r);
  return l;
}

/* A bir.const_table's rows as the sets and locations they stand for,
 * appended to F, and its run recorded in F's tables. */
static int table_to_proto(to_proto *t, const wp_bir_table *tab, Wp__Bir__Function *f) {
  char *memtype = intern(t, tab->memory_type);
  Wp__Bir__ConstTable *run = wp_pb_new(t->arena, &wp__bir__const_table__descriptor);
  run->first_set = f->n_sets;
  run->count = (uint64_t)tab->n_rows;
  PUSH(f->tables, f->n_tables, run);
  const Wp__Bir__MemoryLocationSet *shaped = NULL; /* the last row's, and its shape attribute */
  MlirAttribute last_shape = {NULL};
  for (intptr_t k = 0; k < tab->n_rows; k++) {
    wp_bir_row r;
    wp_bir_table_row(tab, k, &r);
    Wp__Bir__MemoryLocationSet *s = wp_pb_new(t->arena, &wp__bir__memory_location_set__descriptor);
    Wp__Bir__MemoryLocation *l = wp_pb_new(t->arena, &wp__bir__memory_location__descriptor);
    s->name = s->hlo_value = l->set = intern(t, r.name);
    s->tensor_class = intern(t, r.tensor_class);
    s->dtype = intern(t, r.dtype);
    if (shaped && mlirAttributeEqual(r.shape, last_shape)) { /* rows of one shape share it */
      s->n_shape = shaped->n_shape;
      s->shape = shaped->shape;
    } else {
      set_shape(t, s, r.shape);
    }
    shaped = s;
    last_shape = r.shape;
    size_t n = r.name.length;
    l->name = wp_arena_alloc(t->arena, n + 3);
    memcpy(l->name, r.name.data, n);
    memcpy(l->name + n, ".0", 3);
    l->memory_type = memtype;
    l->size = (uint64_t)r.size;
    l->alignment = (uint64_t)r.alignment;
    l->placement = (uint64_t)r.placement;
    l->const_file = intern(t, r.const_file);
    l->const_ap_offset = (uint64_t)r.const_ap_offset;
    l->const_sub_tensor_id = r.const_sub_tensor_id;
    PUSH(f->sets, f->n_sets, s);
    PUSH(f->locations, f->n_locations, l);
  }
  return 0;
}

static Wp__Bir__Kernel *kernel_to_proto(to_proto *t, MlirOperation op) {
  Wp__Bir__Kernel *k = wp_pb_new(t->arena, &wp__bir__kernel__descriptor);
  k->name = str_attr(t, op, "sym_name");
  MlirAttribute files = wp_attr(op, "const_files");
  intptr_t n = mlirArrayAttrGetNumElements(files);
  k->const_files = wp_arena_alloc(t->arena, (size_t)(n + 1) * sizeof(char *));
  for (intptr_t i = 0; i < n; i++)
    k->const_files[k->n_const_files++] =
        dup_ref(t->arena, wp_symref_value(mlirArrayAttrGetElement(files, i)));
  MlirAttribute prog = wp_attr(op, "program");
  if (!mlirAttributeIsNull(prog) && mlirAttributeIsAString(prog)) {
    k->program = dup_ref(t->arena, wp_str_value(prog));
  } else if (!mlirAttributeIsNull(prog) && mlirAttributeIsASymbolRef(prog)) {
    bool nested = mlirSymbolRefAttrGetNumNestedReferences(prog) > 0;
    k->program = dup_ref(t->arena, nested ? mlirSymbolRefAttrGetLeafReference(prog)
                                          : mlirSymbolRefAttrGetRootReference(prog));
  }
  return k;
}

static void blame(to_proto *t, MlirOperation op) { wp_blame(t->where, op); }

static int function_to_proto(to_proto *t, MlirOperation func, Wp__Bir__Function **out) {
  Wp__Bir__Function *f = wp_pb_new(t->arena, &wp__bir__function__descriptor);
  f->name = str_attr(t, func, "sym_name");
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  size_t n_files = 0, n_sets = 0, n_locs = 0, n_kernels = 0, n_tables = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    n_files += wp_op_is(op, "bir.const_file");
    n_sets += wp_op_is(op, "bir.memloc_set");
    n_locs += wp_op_is(op, "bir.memloc");
    n_kernels += wp_op_is(op, "bir.kernel");
    wp_bir_table tab;
    if (wp_bir_is_table(op) && wp_bir_table_open(op, &tab, NULL) == 0) {
      n_tables++;
      n_sets += (size_t)tab.n_rows;
      n_locs += (size_t)tab.n_rows;
    }
  }
  f->const_files = wp_arena_alloc(t->arena, (n_files + 1) * sizeof(void *));
  f->sets = wp_arena_alloc(t->arena, (n_sets + 1) * sizeof(void *));
  f->locations = wp_arena_alloc(t->arena, (n_locs + 1) * sizeof(void *));
  f->kernels = wp_arena_alloc(t->arena, (n_kernels + 1) * sizeof(void *));
  f->tables = wp_arena_alloc(t->arena, (n_tables + 1) * sizeof(void *));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    int rc = 0;
    wp_bir_table tab;
    if (wp_op_is(op, "bir.const_file")) {
      Wp__Bir__ConstFile *cf = NULL;
      if (!(rc = const_file_to_proto(t, op, &cf)))
        PUSH(f->const_files, f->n_const_files, cf);
    } else if (wp_op_is(op, "bir.memloc_set")) {
      PUSH(f->sets, f->n_sets, set_to_proto(t, op));
    } else if (wp_op_is(op, "bir.memloc")) {
      PUSH(f->locations, f->n_locations, loc_to_proto(t, op));
    } else if (wp_op_is(op, "bir.kernel")) {
      PUSH(f->kernels, f->n_kernels, kernel_to_proto(t, op));
    } else if (wp_bir_is_table(op) && wp_bir_table_open(op, &tab, NULL) == 0) {
      rc = table_to_proto(t, &tab, f);
    }
    if (rc) {
      blame(t, op);
      return wp_error_prefix(t->err, "function '%s'", f->name);
    }
  }
  *out = f;
  return 0;
}

static Wp__Bir__Module *module_to_proto(to_proto *t, MlirModule m, bool with_program) {
  wp_arena *arena = t->arena;
  wp_error *err = t->err;
  MlirOperation mop = mlirModuleGetOperation(m);
  Wp__Bir__Module *mod = wp_pb_new(arena, &wp__bir__module__descriptor);
  mod->schema = WP_BIR_SCHEMA;
  mod->name = str_attr(t, mop, "bir.name");
  mod->artifact_path = str_attr(t, mop, "bir.artifact_path");
  MlirAttribute arts = wp_attr(mop, "bir.artifacts");
  if (!mlirAttributeIsNull(arts)) {
    mod->artifacts = wp_arena_alloc(arena, (size_t)(mlirArrayAttrGetNumElements(arts) + 1) *
                                               sizeof(void *));
    for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(arts); i++) {
      MlirAttribute a = mlirArrayAttrGetElement(arts, i);
      MlirAttribute info = wp_dict_get(a, "info");
      Wp__Bir__Artifact *art = wp_pb_new(arena, &wp__bir__artifact__descriptor);
      art->path = dup_ref(arena, wp_str_value(wp_dict_get(a, "path")));
      if (!mlirAttributeIsNull(info))
        art->info = dup_ref(arena, wp_str_value(info));
      PUSH(mod->artifacts, mod->n_artifacts, art);
    }
  }
  MlirAttribute lw = wp_attr(mop, WP_BIR_LOWERING_ATTR);
  if (!mlirAttributeIsNull(lw))
    mod->lowering = wp_bir_lowering_to_proto(lw, arena);
  MlirAttribute dd = wp_attr(mop, "bir.dedup");
  if (!mlirAttributeIsNull(dd)) {
    Wp__Bir__DedupStats *st = wp_pb_new(arena, &wp__bir__dedup_stats__descriptor);
    MlirAttribute u = wp_dict_get(dd, "unique_files"), b = wp_dict_get(dd, "bytes_saved");
    if (!mlirAttributeIsNull(u))
      st->unique_files = (uint64_t)mlirIntegerAttrGetValueInt(u);
    if (!mlirAttributeIsNull(b))
      st->bytes_saved = (uint64_t)mlirIntegerAttrGetValueInt(b);
    mod->dedup = st;
  }
  size_t n_top = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    n_top++;
  mod->functions = wp_arena_alloc(arena, (n_top + 1) * sizeof(void *));
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (wp_op_is(op, "func.func") && !mlirAttributeIsNull(wp_attr(op, "bir.function"))) {
      Wp__Bir__Function *f = NULL;
      if (function_to_proto(t, op, &f)) {
        blame(t, op);
        return NULL;
      }
      PUSH(mod->functions, mod->n_functions, f);
    } else if (with_program && wp_op_is(op, "builtin.module") &&
               !mlirAttributeIsNull(wp_attr(op, "hlo.entry"))) {
      const void *bytes;
      size_t len;
      if (wp_hlo_export(mlirModuleFromOperation(op), arena, false, &bytes, &len, t->where,
                        err)) {
        wp_error_prefix(err, "the HLO program");
        return NULL;
      }
      mod->hlo_program.data = (uint8_t *)bytes;
      mod->hlo_program.len = len;
    }
  }
  return mod;
}

Wp__Bir__Module *wp_bir_to_proto(MlirModule m, wp_arena *arena, unsigned flags,
                                 MlirLocation *where, wp_error *err) {
  to_proto t = {.arena = arena, .err = err, .where = where};
  if (where)
    *where = (MlirLocation){NULL};
  MlirOperation mop = mlirModuleGetOperation(m), at;
  /* the one BIR verifier, names and all: what it refuses no form holds */
  if (!(flags & WP_BIR_CHECKED) && wp_bir_verify(mop, true, &at, err)) {
    blame(&t, at);
    return NULL;
  }
  Wp__Bir__Module *mod = module_to_proto(&t, m, flags & WP_BIR_WITH_PROGRAM);
  if (!mod)
    blame(&t, mop);
  return mod;
}

/* ---- message -> MLIR ---- */

typedef struct from_proto {
  MlirContext ctx;
  MlirLocation loc;
  wp_error *err;
} from_proto;

static MlirAttribute str(MlirContext ctx, const char *s) { return wp_str_attr(ctx, s, strlen(s)); }
static MlirAttribute sym(MlirContext ctx, const char *s) {
  return mlirFlatSymbolRefAttrGet(ctx, wp_sref(s));
}

static void append_op(from_proto *f, MlirBlock block, const char *name, MlirNamedAttribute *a,
                      int n) {
  MlirOperationState st = mlirOperationStateGet(wp_sref(name), f->loc);
  mlirOperationStateAddAttributes(&st, n, a);
  MlirOperation ret = mlirBlockGetTerminator(block);
  MlirOperation op = mlirOperationCreate(&st);
  if (mlirOperationIsNull(ret))
    mlirBlockAppendOwnedOperation(block, op);
  else
    mlirBlockInsertOwnedOperationBefore(block, ret, op);
}

/* A uint64 field as an i64 attribute; past 2^63-1 (where it would read as
 * negative) as the ui64 it is, which wp_bir_verify refuses as such. */
static MlirAttribute u64(MlirContext ctx, uint64_t v) {
  if (v <= (uint64_t)INT64_MAX)
    return wp_i64_attr(ctx, (int64_t)v);
  return mlirIntegerAttrGet(mlirIntegerTypeUnsignedGet(ctx, 64), (int64_t)v);
}

/* The message's fields as they are: wp_bir_verify judges the module. */
static void add_const_file(from_proto *f, MlirBlock b, const Wp__Bir__ConstFile *cf) {
  MlirContext c = f->ctx;
  MlirNamedAttribute a[9];
  int n = 0;
  a[n++] = wp_named(c, "sym_name", str(c, cf->name));
  a[n++] = wp_named(c, "size", u64(c, cf->size));
  switch (cf->bytes_from_case) {
  case WP__BIR__CONST_FILE__BYTES_FROM_SOURCE: {
    MlirNamedAttribute s[2] = {wp_named(c, "file", str(c, cf->source->file)),
                               wp_named(c, "offset", u64(c, cf->source->offset))};
    a[n++] = wp_named(c, "source", mlirDictionaryAttrGet(c, 2, s));
    break;
  }
  case WP__BIR__CONST_FILE__BYTES_FROM_CONSTANT:
    a[n++] = wp_named(c, "constant", str(c, cf->constant));
    break;
  case WP__BIR__CONST_FILE__BYTES_FROM_DATA: {
    int64_t len = (int64_t)cf->data.len;
    MlirType t = mlirRankedTensorTypeGet(1, &len, mlirIntegerTypeUnsignedGet(c, 8),
                                         mlirAttributeGetNull());
    static const char empty[1];
    a[n++] = wp_named(c, "data", mlirDenseElementsAttrRawBufferGet(
                                  t, cf->data.len, cf->data.len ? (void *)cf->data.data : empty));
    break;
  }
  case WP__BIR__CONST_FILE__BYTES_FROM_ASSEMBLED:
    a[n++] = wp_named(c, "assembled", str(c, cf->assembled));
    break;
  default: /* none */
    break;
  }
  if (cf->artifact[0])
    a[n++] = wp_named(c, "artifact", str(c, cf->artifact));
  if (cf->md5[0])
    a[n++] = wp_named(c, "md5", str(c, cf->md5));
  if (cf->artifact_in_place)
    a[n++] = wp_named(c, "artifact_in_place", mlirUnitAttrGet(c));
  if (cf->member_md5[0])
    a[n++] = wp_named(c, "member_md5", str(c, cf->member_md5));
  if (cf->member_prefix_md5[0])
    a[n++] = wp_named(c, "member_prefix_md5", str(c, cf->member_prefix_md5));
  append_op(f, b, "bir.const_file", a, n);
}

static void add_set(from_proto *f, MlirBlock b, const Wp__Bir__MemoryLocationSet *s) {
  MlirContext c = f->ctx;
  MlirNamedAttribute a[5];
  int n = 0;
  a[n++] = wp_named(c, "sym_name", str(c, s->name));
  a[n++] = wp_named(c, "tensor_class", str(c, s->tensor_class));
  a[n++] = wp_named(c, "dtype", str(c, s->dtype));
  a[n++] = wp_named(c, "shape", mlirDenseI64ArrayGet(c, (intptr_t)s->n_shape, s->shape));
  if (s->hlo_value[0])
    a[n++] = wp_named(c, "hlo_value", str(c, s->hlo_value));
  append_op(f, b, "bir.memloc_set", a, n);
}

static void add_loc(from_proto *f, MlirBlock b, const Wp__Bir__MemoryLocation *l) {
  MlirContext c = f->ctx;
  MlirNamedAttribute a[10];
  int n = 0;
  a[n++] = wp_named(c, "sym_name", str(c, l->name));
  a[n++] = wp_named(c, "set", sym(c, l->set));
  a[n++] = wp_named(c, "memory_type", str(c, l->memory_type));
  a[n++] = wp_named(c, "size", u64(c, l->size));
  /* 0 is proto3's "not given", what the exporter writes for a location
   * without one: left out, as the IR had it (no alignment is 0) */
  if (l->alignment)
    a[n++] = wp_named(c, "alignment", u64(c, l->alignment));
  a[n++] = wp_named(c, "placement", u64(c, l->placement));
  if (l->const_file[0]) {
    a[n++] = wp_named(c, "const_file", sym(c, l->const_file));
    a[n++] = wp_named(c, "const_ap_offset", u64(c, l->const_ap_offset));
    a[n++] = wp_named(c, "const_sub_tensor_id", wp_i64_attr(c, l->const_sub_tensor_id));
    a[n++] = wp_named(c, "is_regloc_offset", mlirBoolAttrGet(c, l->is_regloc_offset));
  }
  append_op(f, b, "bir.memloc", a, n);
}

static void add_kernel(from_proto *f, MlirBlock b, const Wp__Bir__Kernel *k,
                       MlirStringRef program_module) {
  MlirContext c = f->ctx;
  MlirAttribute *files = malloc((k->n_const_files + 1) * sizeof *files);
  for (size_t i = 0; i < k->n_const_files; i++)
    files[i] = sym(c, k->const_files[i]);
  MlirNamedAttribute a[3];
  int n = 0;
  a[n++] = wp_named(c, "sym_name", str(c, k->name));
  a[n++] = wp_named(c, "const_files", mlirArrayAttrGet(c, (intptr_t)k->n_const_files, files));
  if (k->program[0] && program_module.length) {
    MlirAttribute leaf = sym(c, k->program);
    a[n++] = wp_named(c, "program", mlirSymbolRefAttrGet(c, program_module, 1, &leaf));
  } else if (k->program[0]) {
    /* No HLO program here (the JSON form): keep the entry's name. */
    a[n++] = wp_named(c, "program", str(c, k->program));
  }
  append_op(f, b, "bir.kernel", a, n);
  free(files);
}

/* Each set's locations as lists (wp_bir_set_locations) in new arrays
 * (caller frees). */
static int group_locations(const Wp__Bir__Function *fn, size_t **first_out, size_t **next_out,
                           wp_error *err) {
  size_t *first = wp_xmalloc((fn->n_sets + 1) * sizeof *first);
  size_t *next = wp_xmalloc((fn->n_locations + 1) * sizeof *next);
  int rc = wp_bir_set_locations(fn, first, next, err);
  if (rc) {
    free(first);
    free(next);
    first = next = NULL;
  }
  *first_out = first;
  *next_out = next;
  return rc;
}

/* Sets FIRST .. FIRST + COUNT - 1 of FN, each with its one location, as
 * one bir.const_table: only when they are what a table holds. 1 (nothing
 * added) for a value past 2^63-1: the run is then built as its sets and
 * locations, where wp_bir_verify refuses it. */
static int add_table(from_proto *f, MlirBlock b, const Wp__Bir__Function *fn, size_t first,
                     size_t count, const size_t *loc_of, const size_t *next_loc, size_t index) {
  MlirContext c = f->ctx;
  wp_bir_columns *cols = wp_bir_columns_create((intptr_t)count);
  const Wp__Bir__MemoryLocation *l0 =
      loc_of[first] == SIZE_MAX ? NULL : fn->locations[loc_of[first]];
  int rc = 0;
  for (size_t k = 0; k < count && !rc; k++) {
    const Wp__Bir__MemoryLocationSet *s = fn->sets[first + k];
    size_t j = loc_of[first + k];
    const Wp__Bir__MemoryLocation *l = j == SIZE_MAX ? NULL : fn->locations[j];
    size_t n = strlen(s->name);
    const char *why =
        !l || next_loc[j] != SIZE_MAX ? "has not exactly one memory location"
        : strcmp(s->hlo_value, s->name) != 0 ? "has an hlo_value other than its name"
        : strncmp(l->name, s->name, n) != 0 || strcmp(l->name + n, ".0") != 0
            ? "has a memory location not named after it plus '.0'"
        : !l->const_file[0] ? "has a memory location in no const file"
        : strcmp(l->memory_type, l0->memory_type) != 0 ? "has another memory type than the first"
        : l->is_regloc_offset ? "has is_regloc_offset set"
                              : NULL;
    if (why) {
      rc = wp_error_set(f->err, "const table %zu: set '%s' %s", index, s->name, why);
      break;
    }
    if ((l->size | l->alignment | l->placement | l->const_ap_offset) > (uint64_t)INT64_MAX) {
      rc = 1; /* past what array<i64> holds */
      break;
    }
    cols->names[k] = str(c, s->name);
    cols->classes[k] = str(c, s->tensor_class);
    cols->dtypes[k] = str(c, s->dtype);
    cols->files[k] = sym(c, l->const_file);
    cols->shapes[k] = mlirDenseI64ArrayGet(c, (intptr_t)s->n_shape, s->shape);
    cols->sizes[k] = (int64_t)l->size;
    cols->alignments[k] = (int64_t)l->alignment;
    cols->placements[k] = (int64_t)l->placement;
    cols->offsets[k] = (int64_t)l->const_ap_offset;
    cols->sub_ids[k] = l->const_sub_tensor_id;
  }
  if (!rc) {
    MlirNamedAttribute a[WP_BIR_TABLE_N_ATTRS];
    wp_bir_columns_attrs(c, cols, str(c, l0->memory_type), a);
    append_op(f, b, WP_BIR_TABLE_OP, a, WP_BIR_TABLE_N_ATTRS);
  }
  wp_bir_columns_destroy(cols);
  return rc;
}

/* FN's tables must be runs of sets in order, apart, inside its sets. */
static int check_tables(const Wp__Bir__Function *fn, wp_error *err) {
  uint64_t end = 0;
  for (size_t i = 0; i < fn->n_tables; i++) {
    const Wp__Bir__ConstTable *t = fn->tables[i];
    if (t->count == 0 || t->first_set < end || t->first_set >= fn->n_sets ||
        t->count > fn->n_sets - t->first_set)
      return wp_error_set(err, "const table %zu (sets %llu, %llu of them) is not a run of "
                          "sets after the previous table's and inside the %zu sets", i,
                          (unsigned long long)t->first_set, (unsigned long long)t->count,
                          fn->n_sets);
    end = t->first_set + t->count;
  }
  return 0;
}

int wp_bir_from_proto(MlirContext ctx, const Wp__Bir__Module *msg, const char *filename,
                      MlirModule *out, wp_error *err) {
  from_proto f = {ctx, mlirLocationFileLineColGet(ctx, wp_sref(filename), 0, 0), err};
  MlirModule m = mlirModuleCreateEmpty(f.loc);
  MlirOperation mop = mlirModuleGetOperation(m);
  if (msg->name[0])
    wp_set_attr(mop, "sym_name", str(ctx, msg->name));
  wp_set_attr(mop, "bir.name", str(ctx, msg->name));
  wp_set_attr(mop, "bir.artifact_path", str(ctx, msg->artifact_path));
  if (msg->n_artifacts) {
    MlirAttribute *arts = malloc(msg->n_artifacts * sizeof *arts);
    for (size_t i = 0; i < msg->n_artifacts; i++) {
      MlirNamedAttribute d[2] = {wp_named(ctx, "info", str(ctx, msg->artifacts[i]->info)),
                                 wp_named(ctx, "path", str(ctx, msg->artifacts[i]->path))};
      arts[i] = mlirDictionaryAttrGet(ctx, 2, d);
    }
    wp_set_attr(mop, "bir.artifacts", mlirArrayAttrGet(ctx, (intptr_t)msg->n_artifacts, arts));
    free(arts);
  }
  if (msg->lowering)
    wp_set_attr(mop, WP_BIR_LOWERING_ATTR, wp_bir_lowering_from_proto(ctx, msg->lowering));
  if (msg->dedup) {
    MlirNamedAttribute d[2] = {
        wp_named(ctx, "bytes_saved", u64(ctx, msg->dedup->bytes_saved)),
        wp_named(ctx, "unique_files", u64(ctx, msg->dedup->unique_files))};
    wp_set_attr(mop, "bir.dedup", mlirDictionaryAttrGet(ctx, 2, d));
  }
  MlirStringRef program_module = {"", 0};
  if (msg->hlo_program.len) {
    MlirModule hlo;
    if (wp_hlo_import(ctx, msg->hlo_program.data, msg->hlo_program.len, filename, &hlo, err)) {
      mlirModuleDestroy(m);
      return wp_error_prefix(err, "the HLO program");
    }
    MlirOperation hop = mlirModuleGetOperation(hlo);
    for (size_t i = 0; i < msg->n_functions; i++)
      wp_hlo_module_avoid_name(hop, wp_sref(msg->functions[i]->name));
    wp_attr_str(hop, "sym_name", &program_module);
    mlirBlockAppendOwnedOperation(mlirModuleGetBody(m), hop);
  }
  for (size_t i = 0; i < msg->n_functions; i++) {
    const Wp__Bir__Function *fn = msg->functions[i];
    MlirRegion region = mlirRegionCreate();
    MlirBlock body = mlirBlockCreate(0, NULL, NULL);
    mlirRegionAppendOwnedBlock(region, body);
    MlirOperationState rs = mlirOperationStateGet(wp_sref("func.return"), f.loc);
    mlirBlockAppendOwnedOperation(body, mlirOperationCreate(&rs));
    for (size_t k = 0; k < fn->n_const_files; k++)
      add_const_file(&f, body, fn->const_files[k]);
    /* Each set followed by its locations, as bir-lower writes them; a
     * table's sets as the table. */
    size_t *first = NULL, *next = NULL, table = 0;
    int rc = check_tables(fn, err) || group_locations(fn, &first, &next, err) ? -1 : 0;
    for (size_t k = 0; k < fn->n_sets && !rc; k++) {
      if (table < fn->n_tables && fn->tables[table]->first_set == k) {
        size_t count = (size_t)fn->tables[table]->count;
        rc = add_table(&f, body, fn, k, count, first, next, table);
        table++;
        if (rc <= 0) {
          k += count - 1;
          continue;
        }
        rc = 0; /* the run as its sets and locations */
      }
      add_set(&f, body, fn->sets[k]);
      for (size_t j = first[k]; j != SIZE_MAX; j = next[j])
        add_loc(&f, body, fn->locations[j]);
    }
    free(first);
    free(next);
    for (size_t k = 0; k < fn->n_kernels && !rc; k++)
      add_kernel(&f, body, fn->kernels[k], program_module);
    MlirType fty = mlirFunctionTypeGet(ctx, 0, NULL, 0, NULL);
    MlirNamedAttribute fa[3] = {wp_named(ctx, "sym_name", str(ctx, fn->name)),
                                wp_named(ctx, "function_type", mlirTypeAttrGet(fty)),
                                wp_named(ctx, "bir.function", mlirUnitAttrGet(ctx))};
    MlirOperationState fs = mlirOperationStateGet(wp_sref("func.func"), f.loc);
    mlirOperationStateAddOwnedRegions(&fs, 1, &region);
    mlirOperationStateAddAttributes(&fs, 3, fa);
    mlirBlockAppendOwnedOperation(mlirModuleGetBody(m), mlirOperationCreate(&fs));
    if (rc) {
      mlirModuleDestroy(m);
      return wp_error_prefix(err, "function '%s'", fn->name);
    }
  }
  /* verified like every other input: the message may break rules IRDL
   * and the symbol table keep (two functions of one name) */
  if (!mlirOperationVerify(mop)) {
    mlirModuleDestroy(m);
    return wp_error_set(err, "imported BIR module does not verify");
  }
  /* and as BIR, in the words every pass and exporter uses (its ops have no
   * line to give: the function names where) */
  MlirOperation at;
  if (wp_bir_verify(mop, false, &at, err)) {
    MlirOperation func = mlirOperationGetParentOperation(at);
    MlirStringRef name;
    if (!mlirOperationIsNull(func) && wp_op_is(func, "func.func") &&
        wp_attr_str(func, "sym_name", &name))
      wp_error_prefix(err, "function '%.*s'", (int)name.length, name.data);
    mlirModuleDestroy(m);
    return -1;
  }
  *out = m;
  return 0;
}
