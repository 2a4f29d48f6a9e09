/* hlo dialect -> HloModuleProto. Each message starts from its `extra` bytes
 * (everything the IR does not model) and gets the modeled fields back from
 * the IR; a stored shape or program shape is kept only while it still
 * describes the IR's types, else it is regenerated with default layouts. */
#include "wp_hlo.h"

#include "hlo.pb-c.h"
#include "wp_hlo_internal.h"
#include "wp_hlo_literal.h"
#include "wp_hlo_opcodes.h"
#include "wp_hlo_resource.h"
#include "wp_hlo_types.h"
#include "wp_hlo_weight.h"
#include "wp_i64map.h"
#include "wp_mlir_util.h"
#include "wp_pb.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *wp_hlo_unpack_extra(wp_arena *arena, MlirAttribute attr,
                          const ProtobufCMessageDescriptor *desc) {
  if (mlirAttributeIsNull(attr))
    return wp_pb_new(arena, desc);
  if (!mlirAttributeIsAString(attr))
    return NULL;
  MlirStringRef s = wp_str_value(attr);
  return wp_pb_unpack(arena, desc, s.data, s.length);
}

typedef struct exporter {
  wp_arena *arena;
  MlirContext ctx;
  wp_error *err;
  int64_t next_id; /* fresh ids for instructions and computations */
  wp_i64map op_ids; /* MlirOperation pointer -> instruction id */
  bool inline_weights; /* write weight bytes, or only their origin */
  MlirLocation *where; /* the op an error is about, or NULL */
  /* One instruction at a time, for the shape check (wp_hlo_op_export):
   * ids are read where they are; OP_IDS holds only the fresh ones, of
   * MODULE's parameters, ops and funcs that have none (keyed by their
   * pointers), found when first asked for; literals and weights' origins
   * are left out; default shapes are made once per type, in KEEP, and
   * shared; opcodes are looked up once per op name. */
  bool one_op;
  MlirModule module;
  bool fresh_found;
  wp_i64map *shapes;  /* MlirType -> Xla__ShapeProto *, or NULL */
  wp_i64map *opcodes; /* op name -> const wp_hlo_opcode *, or NULL */
  wp_arena *keep;
} exporter;

static void blame(exporter *ex, MlirOperation op) { wp_blame(ex->where, op); }

/* A new id above every id in the module (duplicates, should ids run out at
 * INT64_MAX, are caught by the final check). */
static int64_t fresh_id(exporter *ex) {
  int64_t id = ex->next_id;
  if (ex->next_id < INT64_MAX)
    ex->next_id++;
  return id;
}

/* One instruction at a time: ids found where export would make fresh ones. */
static int64_t fresh_for(exporter *ex, const void *key);
static bool one_op_value_id(exporter *ex, MlirValue v, int64_t *id);

static char *sref_dup(wp_arena *a, MlirStringRef s) {
  return wp_arena_strndup(a, s.data, s.length);
}

static int func_error(exporter *ex, MlirOperation func, const char *fmt, const char *what) {
  MlirStringRef name = {"?", 1};
  wp_attr_str(func, "sym_name", &name);
  blame(ex, func);
  return wp_error_set(ex->err, "func '%.*s': %s%s", (int)name.length, name.data, fmt, what);
}

/* ---- shapes ---- */

static int64_t ptr_key(const void *p) { return (int64_t)(intptr_t)p; }

/* XLA's default shape for TYPE; shared by every instruction of that type
 * when EX keeps them (a shape is read, never changed, once made). */
static Xla__ShapeProto *default_shape(exporter *ex, MlirType type) {
  if (!ex->shapes)
    return wp_hlo_type_to_shape(ex->arena, type, ex->err);
  int64_t at;
  if (wp_i64map_get(ex->shapes, ptr_key(type.ptr), &at))
    return (Xla__ShapeProto *)(intptr_t)at;
  Xla__ShapeProto *s = wp_hlo_type_to_shape(ex->keep, type, ex->err);
  if (s)
    wp_i64map_put(ex->shapes, ptr_key(type.ptr), ptr_key(s));
  return s;
}

/* STORED when it still describes TYPE, else XLA's default for TYPE. */
static Xla__ShapeProto *shape_for(exporter *ex, Xla__ShapeProto *stored, MlirType type) {
  if (stored && wp_hlo_shape_matches(ex->ctx, stored, type))
    return stored;
  return default_shape(ex, type);
}

static MlirOperation func_return(MlirOperation func) {
  return mlirBlockGetTerminator(wp_func_body(func));
}

static Xla__HloInstructionProto *param_proto(exporter *ex, MlirOperation func, intptr_t i) {
  MlirAttribute dict = wp_func_arg_attrs(func, i);
  Xla__HloInstructionProto *p = wp_hlo_unpack_extra(
      ex->arena, wp_dict_get(dict, "hlo.extra"), &xla__hlo_instruction_proto__descriptor);
  if (!p) {
    wp_error_set(ex->err, "argument %ld: malformed hlo.extra", (long)i);
    return NULL;
  }
  MlirValue arg = mlirBlockGetArgument(wp_func_body(func), i);
  if (!(p->shape = shape_for(ex, p->shape, mlirValueGetType(arg))))
    return NULL;
  MlirAttribute name = wp_dict_get(dict, "hlo.name");
  MlirAttribute id = wp_dict_get(dict, "hlo.id");
  if (!mlirAttributeIsNull(id) && mlirAttributeIsAInteger(id))
    p->id = mlirIntegerAttrGetValueInt(id);
  else
    p->id = ex->one_op ? fresh_for(ex, arg.ptr) : fresh_id(ex);
  if (!mlirAttributeIsNull(name) && mlirAttributeIsAString(name)) {
    p->name = sref_dup(ex->arena, wp_str_value(name));
  } else {
    p->name = wp_arena_alloc(ex->arena, 40);
    snprintf(p->name, 40, "parameter.%lld", (long long)p->id);
  }
  p->opcode = "parameter";
  p->parameter_number = i;
  return p;
}

/* Shape export writes for an op's result (before the op is exported). */
static Xla__ShapeProto *op_shape(exporter *ex, MlirOperation op) {
  Xla__HloInstructionProto *p = wp_hlo_unpack_extra(ex->arena, wp_attr(op, "extra"),
                                                    &xla__hlo_instruction_proto__descriptor);
  return shape_for(ex, p ? p->shape : NULL, mlirValueGetType(mlirOperationGetResult(op, 0)));
}

/* Parameters' shapes and names and the root's shape, from exported protos. */
static Xla__ProgramShapeProto *derived_program_shape(wp_arena *arena,
                                                     Xla__HloInstructionProto *const *params,
                                                     size_t n, const Xla__ShapeProto *result) {
  Xla__ProgramShapeProto *ps = wp_pb_new(arena, &xla__program_shape_proto__descriptor);
  ps->n_parameters = ps->n_parameter_names = n;
  ps->parameters = wp_arena_alloc(arena, (n + 1) * sizeof(void *));
  ps->parameter_names = wp_arena_alloc(arena, (n + 1) * sizeof(char *));
  for (size_t i = 0; i < n; i++) {
    ps->parameters[i] = params[i]->shape;
    ps->parameter_names[i] = params[i]->name;
  }
  ps->result = (Xla__ShapeProto *)result;
  return ps;
}

Xla__ProgramShapeProto *wp_hlo_func_program_shape(wp_arena *arena, MlirOperation func,
                                                  wp_error *err) {
  exporter ex = {.arena = arena, .ctx = mlirOperationGetContext(func), .err = err};
  MlirBlock body = wp_func_body(func);
  intptr_t n = mlirBlockGetNumArguments(body);
  Xla__HloInstructionProto **params = wp_arena_alloc(arena, (size_t)(n + 1) * sizeof(void *));
  for (intptr_t i = 0; i < n; i++)
    if (!(params[i] = param_proto(&ex, func, i)))
      return NULL;
  MlirOperation ret = func_return(func);
  if (mlirOperationGetNumOperands(ret) != 1) {
    wp_error_set(err, "func.return must return exactly one value");
    return NULL;
  }
  MlirValue root = mlirOperationGetOperand(ret, 0);
  const Xla__ShapeProto *result =
      mlirValueIsABlockArgument(root) ? params[mlirBlockArgumentGetArgNumber(root)]->shape
                                      : op_shape(&ex, mlirOpResultGetOwner(root));
  return result ? derived_program_shape(arena, params, (size_t)n, result) : NULL;
}

static bool same_packed(wp_arena *arena, const ProtobufCMessage *a, const ProtobufCMessage *b) {
  ProtobufCBinaryData x = wp_pb_pack(arena, a), y = wp_pb_pack(arena, b);
  return x.len == y.len && memcmp(x.data, y.data, x.len) == 0;
}

/* Equal to packing wp_hlo_func_program_shape and PS and comparing the
 * bytes, one parameter at a time in scratch memory: whole, a program shape
 * of 100,000 parameters was built and packed twice. */
int wp_hlo_shape_is_derived(wp_arena *arena, const Xla__ProgramShapeProto *ps,
                            MlirOperation entry) {
  MlirBlock body = wp_func_body(entry);
  intptr_t n = mlirBlockGetNumArguments(body);
  if (ps->base.n_unknown_fields || ps->n_parameters != (size_t)n ||
      ps->n_parameter_names != (size_t)n || !ps->result)
    return 0;
  exporter ex = {.arena = arena, .ctx = mlirOperationGetContext(entry)};
  int same = 1;
  /* A parameter with a name and no hlo.extra (the usual) exports the
   * default shape of its type: packed once per run of one type. */
  MlirType last = {NULL};
  ProtobufCBinaryData last_shape = {0, NULL};
  for (intptr_t i = 0; i < n && same; i++) {
    MlirAttribute dict = wp_func_arg_attrs(entry, i), name = wp_dict_get(dict, "hlo.name");
    if (mlirAttributeIsNull(wp_dict_get(dict, "hlo.extra")) && !mlirAttributeIsNull(name) &&
        mlirAttributeIsAString(name)) {
      MlirType type = mlirValueGetType(mlirBlockGetArgument(body, i));
      if (mlirTypeIsNull(last) || !mlirTypeEqual(type, last)) {
        Xla__ShapeProto *def = wp_hlo_type_to_shape(arena, type, NULL);
        last = type;
        last_shape = def ? wp_pb_pack(arena, &def->base) : (ProtobufCBinaryData){0, NULL};
      }
      MlirStringRef nm = wp_str_value(name);
      size_t k = strnlen(nm.data, nm.length); /* as strcmp reads a copy */
      wp_arena_mark_t scratch = wp_arena_mark(arena);
      ProtobufCBinaryData x = wp_pb_pack(arena, &ps->parameters[i]->base);
      same = last_shape.data && strlen(ps->parameter_names[i]) == k &&
             memcmp(ps->parameter_names[i], nm.data, k) == 0 && x.len == last_shape.len &&
             memcmp(x.data, last_shape.data, x.len) == 0;
      wp_arena_release(arena, scratch);
      continue;
    }
    wp_arena_mark_t scratch = wp_arena_mark(arena);
    Xla__HloInstructionProto *p = param_proto(&ex, entry, i);
    same = p && strcmp(p->name, ps->parameter_names[i]) == 0 &&
           same_packed(arena, &ps->parameters[i]->base, &p->shape->base);
    wp_arena_release(arena, scratch);
  }
  if (!same)
    return 0;
  MlirOperation ret = func_return(entry);
  if (mlirOperationGetNumOperands(ret) != 1)
    return 0;
  wp_arena_mark_t scratch = wp_arena_mark(arena);
  MlirValue root = mlirOperationGetOperand(ret, 0);
  const Xla__ShapeProto *result = NULL;
  if (mlirValueIsABlockArgument(root)) {
    Xla__HloInstructionProto *p = param_proto(&ex, entry, mlirBlockArgumentGetArgNumber(root));
    result = p ? p->shape : NULL;
  } else {
    result = op_shape(&ex, mlirOpResultGetOwner(root));
  }
  same = result && same_packed(arena, &ps->result->base, &result->base);
  wp_arena_release(arena, scratch);
  return same;
}

/* Does PS still describe FUNC's signature? */
static int program_shape_consistent(exporter *ex, const Xla__ProgramShapeProto *ps,
                                    MlirOperation func) {
  MlirBlock body = wp_func_body(func);
  intptr_t n = mlirBlockGetNumArguments(body);
  if (!ps || ps->n_parameters != (size_t)n || !ps->result)
    return 0;
  if (ps->n_parameter_names && ps->n_parameter_names != (size_t)n)
    return 0;
  for (intptr_t i = 0; i < n; i++)
    if (!wp_hlo_shape_matches(ex->ctx, ps->parameters[i],
                              mlirValueGetType(mlirBlockGetArgument(body, i))))
      return 0;
  MlirOperation ret = func_return(func);
  return mlirOperationGetNumOperands(ret) == 1 &&
         wp_hlo_shape_matches(ex->ctx, ps->result,
                              mlirValueGetType(mlirOperationGetOperand(ret, 0)));
}

const Xla__ProgramShapeProto *wp_hlo_export_host_shape(MlirOperation entry,
                                                      const Xla__ProgramShapeProto *module_host,
                                                      const Xla__ProgramShapeProto *entry_shape) {
  exporter ex = {.ctx = mlirOperationGetContext(entry)};
  if (program_shape_consistent(&ex, module_host, entry))
    return module_host;
  if (program_shape_consistent(&ex, entry_shape, entry))
    return entry_shape;
  return NULL;
}

int wp_hlo_host_shape_is_default(wp_arena *arena, const Xla__ProgramShapeProto *ps,
                                 MlirOperation entry) {
  /* the rule export_module follows where the module has no host shape */
  exporter ex = {.arena = arena, .ctx = mlirOperationGetContext(entry)};
  const Xla__HloComputationProto *c = wp_hlo_unpack_extra(
      arena, wp_attr(entry, "hlo.extra"), &xla__hlo_computation_proto__descriptor);
  if (c && c->program_shape && program_shape_consistent(&ex, c->program_shape, entry))
    return same_packed(arena, &ps->base, &c->program_shape->base);
  return wp_hlo_shape_is_derived(arena, ps, entry);
}

/* ---- instructions ---- */

/* PARAM_IDS: the computation's parameters' ids by number (NULL one at a
 * time: then each id is read where it is). */
static int value_id(exporter *ex, MlirValue v, const int64_t *param_ids, int64_t *id) {
  if (mlirValueIsABlockArgument(v) && param_ids) {
    *id = param_ids[mlirBlockArgumentGetArgNumber(v)];
    return 0;
  }
  if (ex->one_op && one_op_value_id(ex, v, id))
    return 0;
  const void *key = mlirValueIsABlockArgument(v) ? v.ptr : mlirOpResultGetOwner(v).ptr;
  if (ex->one_op || !wp_i64map_get(&ex->op_ids, ptr_key(key), id))
    return wp_error_set(ex->err, "operand defined outside its computation");
  return 0;
}

static int set_literal(exporter *ex, MlirOperation op, Xla__HloInstructionProto *p,
                       MlirAttribute value, MlirType type) {
  if (!p->literal)
    p->literal = wp_pb_new(ex->arena, &xla__literal_proto__descriptor);
  Xla__LiteralProto *lit = p->literal;
  bool own_shape = !lit->shape;
  if (!lit->shape)
    lit->shape = wp_hlo_type_to_shape(ex->arena, type, ex->err);
  if (!lit->shape)
    return -1;
  if (!mlirTypeEqual(mlirAttributeGetType(value), type)) {
    char want[128], have[128];
    wp_hlo_type_str(type, want, sizeof want);
    wp_hlo_type_str(mlirAttributeGetType(value), have, sizeof have);
    return wp_error_set(ex->err, "value is %s but the constant is %s", have, want);
  }
  int prim = wp_hlo_prim_from_mlir(mlirShapedTypeGetElementType(type));
  const wp_hlo_prim *info = wp_hlo_prim_info(prim);
  int64_t count = wp_hlo_num_elements(type);
  if (!info || count < 0)
    return wp_error_set(ex->err, "constant has no XLA element type or a dynamic shape");
  /* Refuse before expanding a splat into memory. */
  if (!wp_hlo_resource_is(value) && mlirDenseElementsAttrIsSplat(value) &&
      (uint64_t)count > (uint64_t)INT32_MAX / (uint64_t)info->bytes)
    return wp_error_set(ex->err, "the literal would be %lld elements of %d bytes, past "
                        "protobuf's 2 GiB limit", (long long)count, info->bytes);
  const void *bytes;
  uint64_t size;
  if (wp_hlo_constant_bytes(op, ex->arena, &bytes, &size, ex->err))
    return -1;
  /* A constant of a non-default layout (an inlined weight keeps its
   * parameter's): the literal gets that layout and its data in that order,
   * as XLA reads it (and refuses a literal whose minor_to_major differs). */
  if (wp_hlo_literal_in_layout(ex->arena, own_shape ? p->shape : NULL,
                                            wp_hlo_prim_is_one_bit(prim) ? 1 : info->bytes,
                                            bytes, lit->shape, &bytes))
    return wp_error_set(ex->err, "the literal's layout does not re-read");
  return wp_hlo_literal_set_data(ex->arena, lit, prim, bytes, wp_hlo_num_elements(type),
                                 ex->err);
}

/* The opcode of the op named OPNAME ("hlo." and more), or NULL. */
static const wp_hlo_opcode *find_opcode(exporter *ex, MlirIdentifier ident, MlirStringRef opname) {
  int64_t at;
  if (ex->opcodes && wp_i64map_get(ex->opcodes, ptr_key(ident.ptr), &at))
    return (const wp_hlo_opcode *)(intptr_t)at;
  const wp_hlo_opcode *oc = wp_hlo_opcode_by_mlir(opname.data + 4, opname.length - 4);
  if (ex->opcodes)
    wp_i64map_put(ex->opcodes, ptr_key(ident.ptr), ptr_key(oc));
  return oc;
}

static Xla__HloInstructionProto *op_proto(exporter *ex, MlirOperation op,
                                          const int64_t *param_ids) {
  MlirIdentifier ident = mlirOperationGetName(op);
  MlirStringRef opname = wp_ident_str(ident);
  MlirStringRef iname = {"?", 1};
  bool named = wp_attr_str(op, "name", &iname);
  if (opname.length < 5 || memcmp(opname.data, "hlo.", 4) != 0 ||
      mlirOperationGetNumResults(op) != 1) {
    wp_error_set(ex->err, "'%.*s' is not an hlo op with one result; it cannot be exported",
                 (int)opname.length, opname.data);
    return NULL;
  }
  const wp_hlo_opcode *oc = find_opcode(ex, ident, opname);
  if (!oc) {
    wp_error_set(ex->err, "unknown op '%.*s'", (int)opname.length, opname.data);
    return NULL;
  }
  Xla__HloInstructionProto *p = wp_hlo_unpack_extra(ex->arena, wp_attr(op, "extra"),
                                                    &xla__hlo_instruction_proto__descriptor);
  if (!p) {
    wp_error_set(ex->err, "instruction '%.*s': malformed extra", (int)iname.length, iname.data);
    return NULL;
  }
  if (oc->xla[0]) {
    p->opcode = (char *)oc->xla;
  } else {
    MlirStringRef s;
    if (!wp_attr_str(op, "opcode", &s)) {
      wp_error_set(ex->err, "instruction '%.*s': %.*s without an opcode", (int)iname.length,
                   iname.data, (int)opname.length, opname.data);
      return NULL;
    }
    p->opcode = sref_dup(ex->arena, s);
  }
  if (!wp_attr_i64(op, "id", &p->id))
    p->id = ex->one_op ? fresh_for(ex, op.ptr) : fresh_id(ex);
  if (!ex->one_op)
    wp_i64map_put(&ex->op_ids, ptr_key(op.ptr), p->id);
  if (named) {
    p->name = sref_dup(ex->arena, iname);
  } else {
    p->name = wp_arena_alloc(ex->arena, strlen(p->opcode) + 24);
    sprintf(p->name, "%s.%lld", p->opcode, (long long)p->id);
  }
  MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
  wp_error sub;
  wp_error *saved = ex->err;
  ex->err = &sub;
  p->shape = shape_for(ex, p->shape, type);
  ex->err = saved;
  if (!p->shape) {
    wp_error_set(ex->err, "instruction '%s': %s", p->name, sub.msg);
    return NULL;
  }
  intptr_t n = mlirOperationGetNumOperands(op);
  p->n_operand_ids = (size_t)n;
  p->operand_ids = wp_arena_alloc(ex->arena, (size_t)(n + 1) * sizeof(int64_t));
  for (intptr_t i = 0; i < n; i++)
    if (value_id(ex, mlirOperationGetOperand(op, i), param_ids, &p->operand_ids[i]))
      return NULL;
  if (ex->one_op)
    return p;
  MlirAttribute weight = wp_attr(op, "weight");
  MlirStringRef file, param;
  int64_t number;
  if (!mlirAttributeIsNull(weight) && wp_hlo_weight_origin_get(weight, &file, &param, &number)) {
    Xla__WeightOrigin *o = wp_pb_new(ex->arena, &xla__weight_origin__descriptor);
    o->file = sref_dup(ex->arena, file);
    o->param = sref_dup(ex->arena, param);
    o->number = number;
    p->wp_weight_origin = o;
  }
  MlirAttribute value = wp_attr(op, "value");
  bool from_origin = p->wp_weight_origin && wp_hlo_resource_is(value) && !ex->inline_weights;
  /* the importer's zeros for a constant without a literal: still none */
  bool elided = !mlirAttributeIsNull(wp_attr(op, "elided"));
  if (!mlirAttributeIsNull(value) && !from_origin && !elided && set_literal(ex, op, p, value, type)) {
    wp_error_prefix(ex->err, "instruction '%s'", p->name);
    return NULL;
  }
  return p;
}

void wp_hlo_id_index_init(wp_hlo_id_index *x, const int64_t *ids, size_t n) {
  *x = (wp_hlo_id_index){0};
  wp_i64map_init(&x->map);
  if (!n)
    return;
  int64_t lo = ids[0], hi = ids[0];
  for (size_t i = 1; i < n; i++) {
    lo = ids[i] < lo ? ids[i] : lo;
    hi = ids[i] > hi ? ids[i] : hi;
  }
  /* an array of at most 4 entries an id: one memory access a lookup */
  uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
  if (span && span / 4 <= n) {
    x->lo = lo;
    x->span = (size_t)span;
    x->at = wp_xcalloc(x->span, sizeof *x->at);
    memset(x->at, 0xff, x->span * sizeof *x->at);
    for (size_t i = 0; i < n; i++)
      x->at[(uint64_t)ids[i] - (uint64_t)lo] = (int64_t)i;
    return;
  }
  for (size_t i = 0; i < n; i++)
    wp_i64map_put(&x->map, ids[i], (int64_t)i);
}

bool wp_hlo_id_index_get(const wp_hlo_id_index *x, int64_t id, size_t *pos) {
  int64_t at;
  if (!x->at) {
    if (!wp_i64map_get(&x->map, id, &at))
      return false;
  } else {
    uint64_t k = (uint64_t)id - (uint64_t)x->lo;
    if (k >= x->span || (at = x->at[k]) < 0)
      return false;
  }
  *pos = (size_t)at;
  return true;
}

void wp_hlo_id_index_free(wp_hlo_id_index *x) {
  free(x->at);
  wp_i64map_free(&x->map);
  x->at = NULL;
}

bool wp_hlo_export_order(MlirOperation func, const int64_t *ids, size_t n, size_t *order) {
  MlirAttribute stored = wp_attr(func, "hlo.order");
  if (mlirAttributeIsNull(stored) || !mlirAttributeIsADenseI64Array(stored))
    return false;
  wp_hlo_id_index pos;
  wp_hlo_id_index_init(&pos, ids, n);
  unsigned char *taken = wp_xcalloc(n + 1, 1);
  size_t k = 0;
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(stored); i++) {
    size_t at;
    if (wp_hlo_id_index_get(&pos, mlirDenseI64ArrayGetElement(stored, i), &at) && !taken[at]) {
      taken[at] = 1;
      order[k++] = at;
    }
  }
  for (size_t i = 0; i < n; i++)
    if (!taken[i])
      order[k++] = i;
  free(taken);
  wp_hlo_id_index_free(&pos);
  return true;
}

/* INSTRS (N of them) in FUNC's stored order (wp_hlo_export_order). */
static Xla__HloInstructionProto **in_stored_order(exporter *ex, MlirOperation func,
                                                  Xla__HloInstructionProto **instrs, size_t n) {
  int64_t *ids = wp_arena_alloc(ex->arena, (n + 1) * sizeof *ids);
  size_t *order = wp_arena_alloc(ex->arena, (n + 1) * sizeof *order);
  for (size_t i = 0; i < n; i++)
    ids[i] = instrs[i]->id;
  if (!wp_hlo_export_order(func, ids, n, order))
    return instrs;
  Xla__HloInstructionProto **sorted = wp_arena_alloc(ex->arena, (n + 1) * sizeof *sorted);
  for (size_t i = 0; i < n; i++)
    sorted[i] = instrs[order[i]];
  return sorted;
}

static Xla__HloComputationProto *export_func(exporter *ex, MlirOperation func) {
  Xla__HloComputationProto *c = wp_hlo_unpack_extra(ex->arena, wp_attr(func, "hlo.extra"),
                                                    &xla__hlo_computation_proto__descriptor);
  if (!c) {
    func_error(ex, func, "malformed ", "hlo.extra");
    return NULL;
  }
  MlirStringRef name;
  if (!wp_attr_str(func, "sym_name", &name))
    return NULL;
  c->name = sref_dup(ex->arena, name);

  MlirBlock body = wp_func_body(func);
  intptr_t n_params = mlirBlockGetNumArguments(body);
  size_t n_ops = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    n_ops++;
  size_t cap = (size_t)n_params + n_ops + 1;
  Xla__HloInstructionProto **instrs = wp_arena_alloc(ex->arena, cap * sizeof *instrs);
  int64_t *param_ids = wp_arena_alloc(ex->arena, ((size_t)n_params + 1) * sizeof *param_ids);
  size_t count = 0;
  for (intptr_t i = 0; i < n_params; i++) {
    Xla__HloInstructionProto *p = param_proto(ex, func, i);
    if (!p) {
      blame(ex, func);
      wp_error_prefix(ex->err, "func '%s'", c->name);
      return NULL;
    }
    param_ids[i] = p->id;
    instrs[count++] = p;
  }
  MlirOperation ret = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (wp_op_is(op, "func.return")) {
      ret = op;
      continue;
    }
    Xla__HloInstructionProto *p = op_proto(ex, op, param_ids);
    if (!p) {
      blame(ex, op);
      wp_error_prefix(ex->err, "func '%s'", c->name);
      return NULL;
    }
    instrs[count++] = p;
  }
  if (mlirOperationIsNull(ret) || mlirOperationGetNumOperands(ret) != 1) {
    func_error(ex, func, "must end in func.return of one value", "");
    return NULL;
  }
  if (value_id(ex, mlirOperationGetOperand(ret, 0), param_ids, &c->root_id))
    return NULL;
  if (!wp_attr_i64(func, "hlo.id", &c->id))
    c->id = fresh_id(ex);
  const Xla__ShapeProto *result = NULL;
  for (size_t i = 0; i < count && !result; i++)
    if (instrs[i]->id == c->root_id)
      result = instrs[i]->shape;

  Xla__HloInstructionProto *const *params = instrs; /* params come first here */
  if (!mlirAttributeIsNull(wp_attr(func, "hlo.order")))
    instrs = in_stored_order(ex, func, instrs, count);
  c->n_instructions = count;
  c->instructions = instrs;
  if (!c->program_shape || !program_shape_consistent(ex, c->program_shape, func))
    c->program_shape = derived_program_shape(ex->arena, params, (size_t)n_params, result);
  return c;
}

/* Largest id used anywhere, so fresh ids never collide. */
static int64_t max_id(MlirModule m) {
  int64_t mx = 0, v;
  for (MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    if (!wp_op_is(f, "func.func") || mlirBlockIsNull(wp_func_body(f)))
      continue;
    if (wp_attr_i64(f, "hlo.id", &v) && v > mx)
      mx = v;
    MlirBlock body = wp_func_body(f);
    for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++) {
      MlirAttribute id = wp_dict_get(wp_func_arg_attrs(f, i), "hlo.id");
      if (!mlirAttributeIsNull(id) && mlirAttributeIsAInteger(id) &&
          mlirIntegerAttrGetValueInt(id) > mx)
        mx = mlirIntegerAttrGetValueInt(id);
    }
    for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      if (wp_attr_i64(op, "id", &v) && v > mx)
        mx = v;
  }
  return mx;
}

struct wp_hlo_op_export {
  exporter ex;
  wp_i64map shapes, opcodes;
  wp_error err;
};

/* The fresh ids export gives the parameters, ops and funcs of M that have
 * no id of their own, into OP_IDS by pointer: above every id of the
 * module, in export_func's order (a func's parameters, its ops, the
 * func). */
static void find_fresh(exporter *ex, MlirModule m) {
  int64_t top = max_id(m), v;
  ex->next_id = top < INT64_MAX ? top + 1 : top;
  for (MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    if (!wp_op_is(f, "func.func") || mlirBlockIsNull(wp_func_body(f)))
      continue;
    MlirBlock body = wp_func_body(f);
    for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++) {
      MlirAttribute id = wp_dict_get(wp_func_arg_attrs(f, i), "hlo.id");
      if (mlirAttributeIsNull(id) || !mlirAttributeIsAInteger(id))
        wp_i64map_put(&ex->op_ids, ptr_key(mlirBlockGetArgument(body, i).ptr), fresh_id(ex));
    }
    for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      if (!wp_op_is(op, "func.return") && !wp_attr_i64(op, "id", &v))
        wp_i64map_put(&ex->op_ids, ptr_key(op.ptr), fresh_id(ex));
    if (!wp_attr_i64(f, "hlo.id", &v))
      wp_i64map_put(&ex->op_ids, ptr_key(f.ptr), fresh_id(ex));
  }
}

/* The fresh id of KEY (a parameter's value, an op or a func of the module
 * that has none of its own); 0 should it have none (not in a func's body:
 * export refuses it before it would ask). */
static int64_t fresh_for(exporter *ex, const void *key) {
  if (!ex->fresh_found) {
    find_fresh(ex, ex->module);
    ex->fresh_found = true;
  }
  int64_t id = 0;
  wp_i64map_get(&ex->op_ids, ptr_key(key), &id);
  return id;
}

/* The id of the instruction defining V, read where it is, one at a time;
 * false when V is not a func's parameter nor an op's result. */
static bool one_op_value_id(exporter *ex, MlirValue v, int64_t *id) {
  if (!mlirValueIsABlockArgument(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!wp_attr_i64(def, "id", id))
      *id = fresh_for(ex, def.ptr);
    return true;
  }
  MlirOperation func = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
  if (mlirOperationIsNull(func) || !wp_op_is(func, "func.func") ||
      !mlirBlockEqual(wp_func_body(func), mlirBlockArgumentGetOwner(v)))
    return false;
  MlirAttribute a =
      wp_dict_get(wp_func_arg_attrs(func, mlirBlockArgumentGetArgNumber(v)), "hlo.id");
  *id = (!mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a)) ? mlirIntegerAttrGetValueInt(a)
                                                               : fresh_for(ex, v.ptr);
  return true;
}

wp_hlo_op_export *wp_hlo_op_export_create(MlirModule m) {
  wp_hlo_op_export *x = wp_xcalloc(1, sizeof *x);
  x->ex.ctx = mlirModuleGetContext(m);
  x->ex.err = &x->err;
  x->ex.one_op = true;
  x->ex.shapes = &x->shapes;
  x->ex.opcodes = &x->opcodes;
  x->ex.keep = wp_arena_create();
  wp_i64map_init(&x->ex.op_ids);
  wp_i64map_init(&x->shapes);
  wp_i64map_init(&x->opcodes);
  x->ex.module = m;
  return x;
}

void wp_hlo_op_export_destroy(wp_hlo_op_export *x) {
  if (!x)
    return;
  wp_i64map_free(&x->ex.op_ids);
  wp_i64map_free(&x->shapes);
  wp_i64map_free(&x->opcodes);
  wp_arena_destroy(x->ex.keep);
  free(x);
}

int64_t wp_hlo_op_export_op_id(wp_hlo_op_export *x, MlirOperation op) {
  int64_t id;
  return wp_attr_i64(op, "id", &id) ? id : fresh_for(&x->ex, op.ptr);
}

int64_t wp_hlo_op_export_func_id(wp_hlo_op_export *x, MlirOperation func) {
  int64_t id;
  return wp_attr_i64(func, "hlo.id", &id) ? id : fresh_for(&x->ex, func.ptr);
}

bool wp_hlo_op_export_value_id(wp_hlo_op_export *x, MlirValue v, int64_t *id) {
  return value_id(&x->ex, v, NULL, id) == 0;
}

Xla__HloInstructionProto *wp_hlo_op_export_op(wp_hlo_op_export *x, wp_arena *arena,
                                              MlirOperation op) {
  x->ex.arena = arena;
  return op_proto(&x->ex, op, NULL);
}

Xla__HloInstructionProto *wp_hlo_op_export_param(wp_hlo_op_export *x, wp_arena *arena,
                                                 MlirOperation func, intptr_t i) {
  x->ex.arena = arena;
  return param_proto(&x->ex, func, i);
}

/* Blames instruction INAME of computation CNAME: its op, or its func
 * for a parameter. */
static void blame_instruction(exporter *ex, MlirModule m, const char *cname, const char *iname) {
  for (MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    MlirStringRef s;
    if (!wp_attr_str(f, "sym_name", &s) || strlen(cname) != s.length ||
        memcmp(cname, s.data, s.length) != 0)
      continue;
    for (MlirOperation op = mlirBlockGetFirstOperation(wp_func_body(f)); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      if (wp_attr_str(op, "name", &s) && strlen(iname) == s.length &&
          memcmp(iname, s.data, s.length) == 0) {
        blame(ex, op);
        return;
      }
    blame(ex, f);
    return;
  }
}

/* Every func must have a body to become a computation. */
static int check_bodies(exporter *ex, MlirModule m) {
  for (MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    MlirStringRef n = {"?", 1};
    wp_attr_str(f, "sym_name", &n);
    if (wp_op_is(f, "func.func") && mlirBlockIsNull(wp_func_body(f))) {
      blame(ex, f);
      return wp_error_set(ex->err, "func '%.*s' has no body; a computation needs one",
                          (int)n.length, n.data);
    }
  }
  return 0;
}

static MlirAttribute dict_with(MlirContext c, MlirAttribute dict, const char *key,
                               MlirAttribute value) {
  intptr_t n = mlirAttributeIsNull(dict) ? 0 : mlirDictionaryAttrGetNumElements(dict);
  MlirNamedAttribute *e = malloc((size_t)(n + 1) * sizeof *e);
  intptr_t k = 0;
  for (intptr_t i = 0; i < n; i++) {
    MlirNamedAttribute a = mlirDictionaryAttrGetElement(dict, i);
    if (!mlirStringRefEqual(wp_ident_str(a.name), wp_sref(key)))
      e[k++] = a;
  }
  e[k++] = mlirNamedAttributeGet(mlirIdentifierGet(c, wp_sref(key)), value);
  MlirAttribute out = mlirDictionaryAttrGet(c, k, e);
  free(e);
  return out;
}

void wp_hlo_fill_ids(MlirModule m) {
  MlirContext c = mlirModuleGetContext(m);
  int64_t top = max_id(m);
  exporter ex = {.ctx = c, .next_id = top < INT64_MAX ? top + 1 : top};
  if (check_bodies(&ex, m))
    return;
  for (MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    if (!wp_op_is(f, "func.func"))
      continue;
    MlirBlock body = wp_func_body(f);
    intptr_t n = mlirBlockGetNumArguments(body);
    if (n) {
      MlirAttribute *dicts = malloc((size_t)n * sizeof *dicts);
      for (intptr_t i = 0; i < n; i++) {
        MlirAttribute d = wp_func_arg_attrs(f, i);
        MlirAttribute id = wp_dict_get(d, "hlo.id");
        int64_t v;
        if (mlirAttributeIsNull(id) || !mlirAttributeIsAInteger(id)) {
          v = fresh_id(&ex);
          d = dict_with(c, d, "hlo.id", wp_i64_attr(c, v));
        } else {
          v = mlirIntegerAttrGetValueInt(id);
        }
        if (mlirAttributeIsNull(wp_dict_get(d, "hlo.name"))) {
          char name[40];
          snprintf(name, sizeof name, "parameter.%lld", (long long)v);
          d = dict_with(c, d, "hlo.name", wp_str_attr(c, name, strlen(name)));
        }
        dicts[i] = d;
      }
      wp_set_attr(f, "arg_attrs", mlirArrayAttrGet(c, n, dicts));
      free(dicts);
    }
    for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      MlirStringRef opname = wp_ident_str(mlirOperationGetName(op));
      if (opname.length < 5 || memcmp(opname.data, "hlo.", 4) != 0)
        continue;
      int64_t v;
      if (!wp_attr_i64(op, "id", &v)) {
        v = fresh_id(&ex);
        wp_set_attr(op, "id", wp_i64_attr(c, v));
      }
      MlirStringRef s;
      if (!wp_attr_str(op, "name", &s)) {
        const wp_hlo_opcode *oc = wp_hlo_opcode_by_mlir(opname.data + 4, opname.length - 4);
        MlirStringRef code = {"op", 2};
        if (oc && oc->xla[0])
          code = wp_sref(oc->xla);
        else
          wp_attr_str(op, "opcode", &code);
        char name[160];
        snprintf(name, sizeof name, "%.*s.%lld", (int)code.length, code.data, (long long)v);
        wp_set_attr(op, "name", wp_str_attr(c, name, strlen(name)));
      }
    }
    int64_t v;
    if (!wp_attr_i64(f, "hlo.id", &v))
      wp_set_attr(f, "hlo.id", wp_i64_attr(c, fresh_id(&ex)));
  }
}

int wp_hlo_module_is_hlo(MlirModule m) {
  return !mlirAttributeIsNull(wp_attr(mlirModuleGetOperation(m), "hlo.entry"));
}

void wp_hlo_module_avoid_name(MlirOperation hlo_module, MlirStringRef taken) {
  MlirStringRef name;
  if (!wp_attr_str(hlo_module, "sym_name", &name) || !mlirStringRefEqual(name, taken))
    return;
  MlirContext c = mlirOperationGetContext(hlo_module);
  char *renamed = malloc(name.length + 5);
  if (!renamed)
    return;
  memcpy(renamed, name.data, name.length);
  memcpy(renamed + name.length, ".hlo", 5);
  wp_set_attr(hlo_module, "hlo.name", wp_str_attr(c, name.data, name.length));
  wp_set_attr(hlo_module, "sym_name", wp_str_attr(c, renamed, name.length + 4));
  free(renamed);
}

static void human_size(size_t n, char *buf, size_t size) {
  if (n >= (size_t)1 << 30)
    snprintf(buf, size, "%.2f GiB", (double)n / (double)(1u << 30));
  else if (n >= (size_t)1 << 20)
    snprintf(buf, size, "%.2f MiB", (double)n / (double)(1u << 20));
  else if (n >= 1024)
    snprintf(buf, size, "%.2f KiB", (double)n / 1024.0);
  else
    snprintf(buf, size, "%zu B", n);
}

/* Names the largest literals, for the 2 GiB error. */
static void largest_constants(const Xla__HloModuleProto *mod, char *buf, size_t size) {
  const Xla__HloInstructionProto *top[3] = {0};
  size_t top_size[3] = {0};
  for (size_t c = 0; c < mod->n_computations; c++)
    for (size_t i = 0; i < mod->computations[c]->n_instructions; i++) {
      const Xla__HloInstructionProto *ins = mod->computations[c]->instructions[i];
      if (!ins->literal)
        continue;
      size_t n = protobuf_c_message_get_packed_size(&ins->literal->base);
      for (int k = 0; k < 3; k++)
        if (n > top_size[k]) {
          for (int j = 2; j > k; j--) {
            top[j] = top[j - 1];
            top_size[j] = top_size[j - 1];
          }
          top[k] = ins;
          top_size[k] = n;
          break;
        }
    }
  size_t pos = 0;
  buf[0] = 0;
  for (int k = 0; k < 3 && top[k] && pos < size; k++) {
    char hs[32];
    human_size(top_size[k], hs, sizeof hs);
    pos += (size_t)snprintf(buf + pos, size - pos, "%s'%s' (%s)", k ? ", " : "", top[k]->name, hs);
  }
}

int wp_hlo_export_proto(MlirModule m, wp_arena *arena, bool inline_weights,
                        Xla__HloModuleProto **out, MlirLocation *where, wp_error *err) {
  MlirOperation mop = mlirModuleGetOperation(m);
  if (where)
    *where = (MlirLocation){NULL};
  int64_t top = max_id(m);
  exporter ex = {.arena = arena,
                 .ctx = mlirOperationGetContext(mop),
                 .err = err,
                 .next_id = top < INT64_MAX ? top + 1 : top,
                 .inline_weights = inline_weights,
                 .where = where};
  wp_i64map_init(&ex.op_ids);
  int rc = -1;
  if (check_bodies(&ex, m))
    goto out;
  Xla__HloModuleProto *mod = wp_hlo_unpack_extra(arena, wp_attr(mop, "hlo.extra"),
                                                 &xla__hlo_module_proto__descriptor);
  if (!mod) {
    wp_error_set(err, "module: malformed hlo.extra");
    goto out;
  }
  MlirAttribute entry_ref = wp_attr(mop, "hlo.entry");
  if (mlirAttributeIsNull(entry_ref) || !mlirAttributeIsAFlatSymbolRef(entry_ref)) {
    wp_error_set(err, "module has no hlo.entry; it is not an HLO module");
    goto out;
  }
  MlirStringRef entry_name = wp_symref_value(entry_ref);
  MlirStringRef mname; /* hlo.name: its own, when its symbol had to differ */
  if (wp_attr_str(mop, "hlo.name", &mname) || wp_attr_str(mop, "sym_name", &mname))
    mod->name = sref_dup(arena, mname);

  size_t nf = 0;
  for (MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f))
    nf++;
  mod->computations = wp_arena_alloc(arena, (nf + 1) * sizeof(void *));
  MlirOperation entry = {NULL};
  Xla__HloComputationProto *entry_proto = NULL;
  for (MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    if (!wp_op_is(f, "func.func")) {
      MlirStringRef n = wp_ident_str(mlirOperationGetName(f));
      blame(&ex, f);
      wp_error_set(err, "'%.*s' at module level cannot be exported to HLO", (int)n.length, n.data);
      goto out;
    }
    Xla__HloComputationProto *c = export_func(&ex, f);
    if (!c)
      goto out;
    mod->computations[mod->n_computations++] = c;
    if (strlen(c->name) == entry_name.length &&
        memcmp(c->name, entry_name.data, entry_name.length) == 0) {
      entry = f;
      entry_proto = c;
      if (!mod->entry_computation_name[0])
        mod->entry_computation_name = c->name;
      if (!mod->entry_computation_id)
        mod->entry_computation_id = c->id;
    }
  }
  if (mlirOperationIsNull(entry)) {
    wp_error_set(err, "entry computation '%.*s' not found", (int)entry_name.length,
                 entry_name.data);
    goto out;
  }
  /* Instruction ids must be unique in the module (XLA's rule; MLIR text
   * written by hand may break it). */
  wp_i64map seen;
  wp_i64map_init(&seen);
  for (size_t c = 0; c < mod->n_computations; c++)
    for (size_t i = 0; i < mod->computations[c]->n_instructions; i++) {
      const Xla__HloInstructionProto *ins = mod->computations[c]->instructions[i];
      if (wp_i64map_get(&seen, ins->id, NULL)) {
        blame_instruction(&ex, m, mod->computations[c]->name, ins->name);
        wp_error_set(err, "instruction id %lld is used twice (again by '%s')",
                     (long long)ins->id, ins->name);
        wp_i64map_free(&seen);
        goto out;
      }
      wp_i64map_put(&seen, ins->id, 1);
    }
  wp_i64map_free(&seen);
  if (!mod->host_program_shape || !program_shape_consistent(&ex, mod->host_program_shape, entry))
    mod->host_program_shape = entry_proto->program_shape;
  size_t size = protobuf_c_message_get_packed_size(&mod->base);
  if (size > (size_t)INT32_MAX) {
    char names[512];
    largest_constants(mod, names, sizeof names);
    wp_error_set(err,
                 "the HloModuleProto would be %zu bytes, past protobuf's 2 GiB limit; "
                 "the largest constants are %s",
                 size, names);
    goto out;
  }
  *out = mod;
  rc = 0;
out:
  if (rc)
    blame(&ex, mop);
  wp_i64map_free(&ex.op_ids);
  return rc;
}

int wp_hlo_module_config(MlirModule m, const void **data, size_t *len) {
  MlirAttribute a = wp_attr(mlirModuleGetOperation(m), "hlo.config");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return 0;
  MlirStringRef r = mlirStringAttrGetValue(a);
  *data = r.data;
  *len = r.length;
  return 1;
}

static size_t put_varint(uint8_t *p, uint64_t v) {
  size_t n = 0;
  do {
    p[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  return n;
}

ProtobufCBinaryData wp_hlo_wrap_config(wp_arena *arena, const void *module, size_t n_module,
                                       const void *config, size_t n_config) {
  uint8_t *out = wp_arena_alloc(arena, n_module + n_config + 24);
  size_t at = 0;
  out[at++] = 0x0a; /* field 1, length-delimited */
  at += put_varint(out + at, n_module);
  if (n_module)
    memcpy(out + at, module, n_module);
  at += n_module;
  out[at++] = 0x12; /* field 2 */
  at += put_varint(out + at, n_config);
  if (n_config)
    memcpy(out + at, config, n_config);
  at += n_config;
  return (ProtobufCBinaryData){at, out};
}

static bool same_bytes(wp_arena *arena, const ProtobufCMessage *a, const ProtobufCMessage *b) {
  if (!a || !b)
    return a == b;
  ProtobufCBinaryData x = wp_pb_pack(arena, a), y = wp_pb_pack(arena, b);
  return x.len == y.len && (!x.len || !memcmp(x.data, y.data, x.len));
}

/* The config's entry_computation_layout must describe the program written
 * beside it (XLA checks that): after a pass changed the entry's parameters
 * (inline-weights), the module's host program shape replaces it. Shapes
 * that still agree keep the config's bytes as they were. */
static int config_for(wp_arena *arena, const Xla__HloModuleProto *mod, const void *data,
                      size_t len, ProtobufCBinaryData *out, wp_error *err) {
  *out = (ProtobufCBinaryData){len, (uint8_t *)data};
  Xla__HloModuleConfigView *c =
      wp_pb_unpack(arena, &xla__hlo_module_config_view__descriptor, data, len);
  if (!c)
    return wp_error_set(err, "module: hlo.config does not read as an HloModuleConfigProto");
  const Xla__ProgramShapeProto *l = c->entry_computation_layout, *h = mod->host_program_shape;
  if (!l || !h)
    return 0;
  bool same = l->n_parameters == h->n_parameters && same_bytes(arena, &l->result->base,
                                                               &h->result->base);
  for (size_t i = 0; same && i < l->n_parameters; i++)
    same = same_bytes(arena, &l->parameters[i]->base, &h->parameters[i]->base);
  if (same)
    return 0;
  /* field 1 anew, the other fields' bytes as they were */
  ProtobufCBinaryData shape = wp_pb_pack(arena, &h->base);
  uint8_t *buf = wp_arena_alloc(arena, len + shape.len + 16);
  size_t at = 0;
  buf[at++] = 0x0a;
  at += put_varint(buf + at, shape.len);
  memcpy(buf + at, shape.data, shape.len);
  at += shape.len;
  const uint8_t *p = data, *end = p + len;
  while (p < end) {
    const uint8_t *start = p, *payload;
    uint64_t tag;
    size_t n;
    if (wp_pb_next_field(&p, end, &tag, &payload, &n))
      return wp_error_set(err, "module: hlo.config is malformed");
    if ((tag >> 3) == 1)
      continue;
    memcpy(buf + at, start, (size_t)(p - start));
    at += (size_t)(p - start);
  }
  *out = (ProtobufCBinaryData){at, buf};
  return 0;
}

int wp_hlo_export(MlirModule m, wp_arena *arena, bool inline_weights, const void **data,
                  size_t *len, MlirLocation *where, wp_error *err) {
  Xla__HloModuleProto *mod;
  if (wp_hlo_export_proto(m, arena, inline_weights, &mod, where, err))
    return -1;
  ProtobufCBinaryData b = wp_pb_pack(arena, &mod->base);
  const void *cdata;
  size_t clen;
  if (wp_hlo_module_config(m, &cdata, &clen)) {
    ProtobufCBinaryData c;
    if (wp_hlo_config_for_export(arena, mod, cdata, clen, &c, err)) {
      if (where)
        *where = mlirOperationGetLocation(mlirModuleGetOperation(m));
      return -1;
    }
    if (b.len + c.len > (size_t)INT32_MAX - 32) {
      if (where)
        *where = mlirOperationGetLocation(mlirModuleGetOperation(m));
      return wp_error_set(err, "the HloModuleProtoWithConfig would be past protobuf's 2 GiB "
                          "limit");
    }
    b = wp_hlo_wrap_config(arena, b.data, b.len, c.data, c.len);
  }
  *data = b.data;
  *len = b.len;
  return 0;
}

int wp_hlo_config_for_export(wp_arena *arena, const struct Xla__HloModuleProto *mod,
                             const void *data, size_t len, ProtobufCBinaryData *out,
                             wp_error *err) {
  return config_for(arena, mod, data, len, out, err);
}
