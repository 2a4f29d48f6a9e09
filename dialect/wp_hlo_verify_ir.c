/* The shape verifier over the IR after a pass: the module exported as an
 * HloModuleProto without its weights' bytes (a weight keeps only its
 * origin: the verifier reads shapes, never literals), verified, and the
 * error placed at the op (or parameter) it is about. */
#include "wp_hlo_verify.h"
#include "wp_hlo_verify_internal.h"

#include "wp_diag.h"
#include "wp_mlir_util.h"

#include <mlir-c/BuiltinAttributes.h>
#include <string.h>

/* The block argument of FUNC whose hlo.id is ID, as a location. */
static bool param_loc(MlirOperation func, int64_t id, MlirLocation *out) {
  MlirBlock body = wp_func_body(func);
  if (mlirBlockIsNull(body))
    return false;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++) {
    MlirAttribute a = wp_dict_get(wp_func_arg_attrs(func, i), "hlo.id");
    if (!mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a) &&
        mlirIntegerAttrGetValueInt(a) == id) {
      *out = wp_diag_value_loc(mlirBlockGetArgument(body, i));
      return true;
    }
  }
  return false;
}

/* Where the error E is in MODULE: the instruction's op, else its
 * computation's func.func, else the module. */
static MlirLocation error_loc(MlirModule module, const Xla__HloModuleProto *mod,
                              const wp_hlo_verify_error *e) {
  MlirOperation mop = mlirModuleGetOperation(module);
  MlirLocation where = mlirOperationGetLocation(mop);
  if (e->comp >= mod->n_computations)
    return where;
  MlirOperation func = wp_find_func(mop, wp_sref(mod->computations[e->comp]->name));
  if (mlirOperationIsNull(func))
    return where;
  where = mlirOperationGetLocation(func);
  if (e->instr_id < 0 || param_loc(func, e->instr_id, &where))
    return where;
  MlirBlock body = wp_func_body(func);
  for (MlirOperation op = mlirBlockIsNull(body) ? (MlirOperation){NULL}
                                                : mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    int64_t id;
    if (wp_attr_i64(op, "id", &id) && id == e->instr_id)
      return mlirOperationGetLocation(op);
  }
  return where;
}

int wp_hlo_verify_ir(MlirModule module, const char *after) {
  if (!wp_hlo_module_is_hlo(module))
    return 0;
  wp_arena *arena = wp_arena_create();
  Xla__HloModuleProto *mod;
  wp_error err;
  int rc = 0;
  /* A module export refuses is not a shape error: the pass that exports
   * it says why, at its place. */
  if (wp_hlo_export_proto(module, arena, false, &mod, NULL, &err) == 0) {
    wp_hlo_verify_error e;
    rc = wp_hlo_verify_module(mod, &e);
    if (rc)
      wp_emit_error(error_loc(module, mod, &e), "%s%s%s", after ? after : "",
                    after ? ": " : "", e.msg);
  }
  wp_arena_destroy(arena);
  return rc;
}
