/* The shape verifier over the IR after a pass, one instruction at a time:
 * each op (or parameter) is exported alone, as the whole module's export
 * would write it without its weights' bytes (the verifier reads shapes,
 * never literals), checked, and given back. Exported whole, a module of
 * 200,000 instructions held about 180 MiB until it was verified. The
 * error is placed at the op (or parameter) it is about. */
#include "wp_hlo_verify.h"
#include "wp_hlo_verify_internal.h"

#include "wp_diag.h"
#include "wp_hlo_internal.h"
#include "wp_mlir_util.h"

#include <mlir-c/BuiltinAttributes.h>
#include <stdlib.h>
#include <string.h>

/* An instruction of a computation, in the order export writes them. */
typedef struct ir_ins {
  MlirOperation op; /* null for a parameter */
  int64_t arg;      /* the parameter's argument (its number), or -1 */
  int64_t id;
} ir_ins;

typedef struct ir_comp {
  MlirOperation func;
  ir_ins *ins; /* malloc'd */
  size_t n;
} ir_comp;

typedef struct ir_source {
  wp_hlo_op_export *x;
  wp_arena *arena;          /* the module's skeleton */
  Xla__HloModuleProto *mod; /* computations without their instructions */
  ir_comp *comps;           /* one per func read */
  size_t n_comps;
  bool refused; /* an instruction export refuses: the whole module's export fails */
} ir_source;

static size_t ir_size(void *self, size_t c) { return ((ir_source *)self)->comps[c].n; }

static const ir_ins *ir_at(void *self, size_t c, size_t i) {
  return &((ir_source *)self)->comps[c].ins[i];
}

static int64_t ir_id(void *self, size_t c, size_t i) { return ir_at(self, c, i)->id; }

static bool ir_is_param(void *self, size_t c, size_t i) { return ir_at(self, c, i)->arg >= 0; }

static int64_t ir_param_number(void *self, size_t c, size_t i) { return ir_at(self, c, i)->arg; }

static const Xla__HloInstructionProto *ir_instr(void *self, wp_arena *scratch, size_t c,
                                                size_t i) {
  ir_source *s = self;
  const ir_ins *in = ir_at(self, c, i);
  Xla__HloInstructionProto *p =
      in->arg >= 0 ? wp_hlo_op_export_param(s->x, scratch, s->comps[c].func, in->arg)
                   : wp_hlo_op_export_op(s->x, scratch, in->op);
  if (!p)
    s->refused = true;
  return p;
}

/* COMP's instructions in FUNC's stored order (wp_hlo_export_order). */
static void in_stored_order(MlirOperation func, ir_comp *comp) {
  size_t n = comp->n;
  int64_t *ids = wp_xcalloc(n + 1, sizeof *ids);
  size_t *order = wp_xcalloc(n + 1, sizeof *order);
  for (size_t i = 0; i < n; i++)
    ids[i] = comp->ins[i].id;
  if (wp_hlo_export_order(func, ids, n, order)) {
    ir_ins *sorted = wp_xcalloc(n + 1, sizeof *sorted);
    for (size_t i = 0; i < n; i++)
      sorted[i] = comp->ins[order[i]];
    free(comp->ins);
    comp->ins = sorted;
  }
  free(order);
  free(ids);
}

/* FUNC's instructions into COMP in export order (its parameters, its ops,
 * then its stored hlo.order), and its id and root into C; -1 where the
 * whole export fails. */
static int read_instructions(ir_source *s, MlirOperation func, ir_comp *comp,
                             Xla__HloComputationProto *c) {
  MlirBlock body = wp_func_body(func);
  intptr_t n_args = mlirBlockGetNumArguments(body);
  size_t n = (size_t)n_args;
  MlirOperation ret = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    n += !wp_op_is(op, "func.return");
  ir_ins *ins = wp_xcalloc(n + 1, sizeof *ins);
  size_t k = 0;
  for (intptr_t i = 0; i < n_args; i++, k++) {
    ins[k] = (ir_ins){.arg = i};
    wp_hlo_op_export_value_id(s->x, mlirBlockGetArgument(body, i), &ins[k].id);
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (wp_op_is(op, "func.return")) {
      ret = op;
      continue;
    }
    ins[k++] = (ir_ins){.op = op, .arg = -1, .id = wp_hlo_op_export_op_id(s->x, op)};
  }
  comp->func = func;
  comp->ins = ins;
  comp->n = n;
  s->n_comps++;
  if (mlirOperationIsNull(ret) || mlirOperationGetNumOperands(ret) != 1 ||
      !wp_hlo_op_export_value_id(s->x, mlirOperationGetOperand(ret, 0), &c->root_id))
    return -1;
  c->id = wp_hlo_op_export_func_id(s->x, func);
  if (!mlirAttributeIsNull(wp_attr(func, "hlo.order")))
    in_stored_order(func, comp);
  return 0;
}

/* Computation C of the skeleton, from FUNC: what export writes but its
 * instructions. */
static Xla__HloComputationProto *read_computation(ir_source *s, MlirOperation func, size_t c) {
  Xla__HloComputationProto *comp = wp_hlo_unpack_extra(
      s->arena, wp_attr(func, "hlo.extra"), &xla__hlo_computation_proto__descriptor);
  MlirStringRef name;
  if (!comp || !wp_attr_str(func, "sym_name", &name) ||
      read_instructions(s, func, &s->comps[c], comp))
    return NULL;
  comp->name = wp_arena_strndup(s->arena, name.data, name.length);
  comp->n_instructions = 0;
  comp->instructions = NULL;
  return comp;
}

/* The module's skeleton, as export writes it without instructions: its
 * computations, the entry's name and id, and the host program shape where
 * it is stored (NULL where export derives it from the entry's signature:
 * then it describes the entry by construction, and there is nothing to
 * compare). -1 where the whole export fails. */
static int read_module(ir_source *s, MlirModule module) {
  MlirOperation mop = mlirModuleGetOperation(module);
  MlirAttribute entry_ref = wp_attr(mop, "hlo.entry");
  s->mod = wp_hlo_unpack_extra(s->arena, wp_attr(mop, "hlo.extra"),
                               &xla__hlo_module_proto__descriptor);
  if (!s->mod || mlirAttributeIsNull(entry_ref) || !mlirAttributeIsAFlatSymbolRef(entry_ref))
    return -1;
  MlirStringRef entry_name = wp_symref_value(entry_ref);
  size_t nf = 0;
  for (MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f), nf++)
    if (!wp_op_is(f, "func.func") || mlirBlockIsNull(wp_func_body(f)))
      return -1;
  s->mod->computations = wp_arena_alloc(s->arena, (nf + 1) * sizeof(void *));
  s->mod->n_computations = 0;
  s->comps = wp_arena_alloc(s->arena, (nf + 1) * sizeof *s->comps);
  MlirOperation entry = {NULL};
  const Xla__HloComputationProto *entry_comp = NULL;
  for (MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    Xla__HloComputationProto *c = read_computation(s, f, s->mod->n_computations);
    if (!c)
      return -1;
    s->mod->computations[s->mod->n_computations++] = c;
    if (strlen(c->name) != entry_name.length || memcmp(c->name, entry_name.data, entry_name.length))
      continue;
    entry = f;
    entry_comp = c;
    if (!s->mod->entry_computation_name[0])
      s->mod->entry_computation_name = c->name;
    if (!s->mod->entry_computation_id)
      s->mod->entry_computation_id = c->id;
  }
  if (mlirOperationIsNull(entry))
    return -1;
  s->mod->host_program_shape = (Xla__ProgramShapeProto *)wp_hlo_export_host_shape(
      entry, s->mod->host_program_shape, entry_comp->program_shape);
  return 0;
}

/* Does MODULE export whole? Asked once a shape error is found: a module
 * export refuses (ids used twice, an operand used before it is defined, a
 * literal that does not convert, past 2 GiB) is not a shape error; the
 * pass that exports it says why, at its place. */
static bool exports_whole(MlirModule module) {
  wp_arena *arena = wp_arena_create();
  Xla__HloModuleProto *mod;
  wp_error err;
  bool ok = wp_hlo_export_proto(module, arena, false, &mod, NULL, &err) == 0;
  wp_arena_destroy(arena);
  return ok;
}

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

MlirLocation wp_hlo_verify_error_loc(MlirModule module, const Xla__HloModuleProto *mod,
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
  ir_source s = {.x = wp_hlo_op_export_create(module), .arena = wp_arena_create()};
  int rc = 0;
  if (read_module(&s, module) == 0) {
    wp_hv_source src = {.mod = s.mod, .self = &s, .size = ir_size, .id = ir_id,
                        .is_param = ir_is_param, .param_number = ir_param_number,
                        .instr = ir_instr};
    wp_hlo_verify_error e;
    rc = wp_hv_verify_source(&src, &e);
    if (rc && (s.refused || !exports_whole(module)))
      rc = 0;
    if (rc)
      wp_emit_error(wp_hlo_verify_error_loc(module, s.mod, &e), "%s%s%s", after ? after : "",
                    after ? ": " : "", e.msg);
  }
  for (size_t c = 0; c < s.n_comps; c++)
    free(s.comps[c].ins);
  wp_hlo_op_export_destroy(s.x);
  wp_arena_destroy(s.arena);
  return rc;
}
