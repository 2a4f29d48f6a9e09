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

static int lower_constant(lowering *l, MlirOperation op) {
  MlirContext c = l->ctx;
  MlirStringRef nref = {"constant", 8};
  wp_attr_str(op, "name", &nref);
  char *name = wp_arena_strndup(l->arena, nref.data, nref.length);
  if (wp_lower_claim_name(l, name, mlirOperationGetLocation(op), "constant"))
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
  bool small = wp_lower_is_small(l, size, is_weight);
  /* what bir.lowering must say for this constant to be lowered again */
  wp_lower_note_facts(l, name, is_weight,
                      tc == WP_TC_IDENTITY_WEIGHT && is_weight &&
                          wp_bir_feeds_weight_operand(mlirOperationGetResult(op, 0)),
                      size);
  char *npy_file;
  uint64_t npy_offset;
  if (small)
    return wp_lower_add_shared(l, mlirOperationGetLocation(op), name, tc, t, elt, dtype, bytes,
                              size);
  char *file_name = wp_lower_const_file_name(l, name);
  /* Bytes the IR carries are packed from it, not from a .npy that may have
   * changed or gone since. */
  if (is_weight && !in_ir && npy_payload(weight, &npy_file, &npy_offset, size, l->arena)) {
    MlirNamedAttribute src[2] = {wp_named(c, "file", str(c, npy_file)),
                                 wp_named(c, "offset", wp_i64_attr(c, (int64_t)npy_offset))};
    wp_lower_add_const_file(l, file_name, size, wp_named(c, "source", mlirDictionaryAttrGet(c, 2, src)));
  } else {
    wp_lower_add_const_file(l, file_name, size, wp_named(c, "constant", str(c, name)));
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
  if (wp_lower_claim_name(l, name, l->loc, "result"))
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
  lowering l;
  MlirOperation bir_func = wp_lower_begin(&l, c, mlirOperationGetLocation(entry), opts);
  int rc = -1;

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
  size_t n_constants = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(eb); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    n_constants += wp_op_is(op, "hlo.constant");
  /* the results' count is their tuple's leaves: they grow the array */
  wp_lower_reserve(&l, (size_t)mlirBlockGetNumArguments(eb) + n_constants + 1, n_constants);
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
    int prim;
    const char *dtype;
    uint64_t bytes;
    int elt = wp_lower_tensor_info(t, &prim, &dtype, &bytes);
    if (elt <= 0) {
      wp_lower_tensor_error(l.loc, "parameter", name, t, elt);
      mlirOperationDestroy(bir_func);
      goto out;
    }
    if (wp_lower_claim_name(&l, name, l.loc, "parameter")) {
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
  if (wp_lower_add_shared_files(&l, NULL)) {
    mlirOperationDestroy(bir_func);
    goto out;
  }
  wp_lower_drop_shared_index(&l);
  MlirOperation root_ret = mlirBlockGetTerminator(eb);
  MlirValue root = mlirOperationGetOperand(root_ret, 0);
  MlirStringRef rname = {"result", 6};
  if (!mlirValueIsABlockArgument(root))
    wp_attr_str(mlirOpResultGetOwner(root), "name", &rname);
  char *base = wp_arena_strndup(l.arena, rname.data, rname.length);
  int index = 0;
  if (lower_results(&l, mlirValueGetType(root), base, &index, false)) {
    mlirOperationDestroy(bir_func);
    goto out;
  }
  wp_lower_drop_names(&l);
  if (wp_lower_write_tensors(&l)) {
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
  wp_lower_finish(&l, module, bir_func, prog_module, entry_buf, module_name);
  rc = 0;
out:
  wp_lower_end(&l);
  return rc;
}
