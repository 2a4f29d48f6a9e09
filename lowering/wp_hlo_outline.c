/* outline-weights on the IR: which constants become parameters, and the
 * rewrite. Every step is the mirror of one in passes/wp_inline_weights.c,
 * so that inline-weights gives the module back:
 *
 *   inline-weights                       here
 *   plants constants first, by number    new parameters numbered in op order,
 *                                        after the existing ones (which keep
 *                                        their numbers: nothing to renumber)
 *   name, id = the parameter's           the parameter's = the constant's
 *   extra = parameter's shape, metadata  only constants whose extra holds no
 *                                        more than that (and a literal shape
 *                                        export makes again) are taken
 *   drops a stored order equal to the    stores the order export writes now
 *   default                              (unless it is the default after)
 *   drops its parameters from stored     appends them to stored program
 *   program shapes ("p0".. renumbered)   shapes ("pN" where names are so)
 *   drops per-parameter module entries   appends a replicated sharding where
 *   (spmd_parameters_shardings)          the module has one per parameter */
#include "wp_hlo_outline_impl.h"

#include "wp_diag.h"
#include "wp_error.h"
#include "wp_hlo.h"
#include "wp_hlo_internal.h"
#include "wp_hlo_literal.h"
#include "wp_hlo_types.h"
#include "wp_hlo_weight.h"
#include "wp_i64map.h"
#include "wp_mlir_util.h"
#include "wp_pb.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Field names of message DESC set in BYTES, comma-separated, into BUF. */
static void field_names(const ProtobufCMessageDescriptor *desc, ProtobufCBinaryData bytes,
                        char *buf, size_t cap) {
  size_t n = 0;
  buf[0] = 0;
  uint64_t last = 0;
  const uint8_t *p = bytes.data, *end = bytes.data + bytes.len;
  while (p < end && n + 1 < cap) {
    uint64_t tag;
    const uint8_t *payload;
    size_t plen;
    if (wp_pb_next_field(&p, end, &tag, &payload, &plen))
      break;
    uint64_t num = tag >> 3;
    if (num == last)
      continue;
    last = num;
    const ProtobufCFieldDescriptor *f =
        num <= UINT32_MAX ? protobuf_c_message_descriptor_get_field(desc, (unsigned)num) : NULL;
    char unknown[40];
    snprintf(unknown, sizeof unknown, "field %llu", (unsigned long long)num);
    n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", f ? f->name : unknown);
  }
}

static bool empty_message(wp_arena *arena, const ProtobufCMessage *m) {
  return m && wp_pb_pack(arena, m).len == 0;
}

/* Why constant OP cannot be given back by inline-weights once outlined
 * (into WHY), or NULL when it can. E is its extra; SHAPE its shape as
 * export writes it. inline-weights plants a constant whose extra is its
 * parameter's shape and metadata, and export makes its literal's shape
 * from that shape: any other field would be lost. */
static const char *why_kept(wp_arena *arena, const Xla__HloInstructionProto *e, MlirType type,
                            int prim, const void *bytes, char *why, size_t cap) {
  Xla__HloInstructionProto rest = *e;
  rest.shape = NULL;
  rest.metadata = NULL;
  rest.literal = NULL;
  rest.wp_weight_origin = NULL;
  /* XLA writes these two, empty, on every instruction; the parameter
   * carries them (inline-weights does not give them back: the one
   * difference the round trip has, see docs/passes.md) */
  if (empty_message(arena, (const ProtobufCMessage *)e->frontend_attributes))
    rest.frontend_attributes = NULL;
  if (empty_message(arena, (const ProtobufCMessage *)e->statistics_viz))
    rest.statistics_viz = NULL;
  ProtobufCBinaryData b = wp_pb_pack(arena, &rest.base);
  if (b.len) {
    char names[256];
    field_names(&xla__hlo_instruction_proto__descriptor, b, names, sizeof names);
    snprintf(why, cap, "its %s would not survive inline-weights, which gives a parameter's "
                       "constant only its shape and metadata", names);
    return why;
  }
  if (!e->literal)
    return NULL;
  Xla__LiteralProto lit = *e->literal;
  lit.shape = NULL;
  b = wp_pb_pack(arena, &lit.base);
  if (b.len) {
    snprintf(why, cap, "its literal holds fields other than its data and shape");
    return why;
  }
  /* XLA gives a literal the instruction's shape; export gives a planted
   * constant's literal the shape of its type in the instruction's layout
   * (minor_to_major only). Either way the data is in that one layout: the
   * literal's shape bytes are the second difference the round trip has. */
  Xla__ShapeProto *own = e->shape ? e->shape : wp_hlo_type_to_shape(arena, type, NULL);
  if (e->literal->shape && own) {
    ProtobufCBinaryData x = wp_pb_pack(arena, &e->literal->shape->base);
    ProtobufCBinaryData y = wp_pb_pack(arena, &own->base);
    if (x.len == y.len && memcmp(x.data, y.data, x.len) == 0)
      return NULL;
  }
  /* the literal shape export makes for a planted constant */
  Xla__ShapeProto *want = wp_hlo_type_to_shape(arena, type, NULL);
  Xla__ShapeProto *instr = e->shape ? e->shape : wp_hlo_type_to_shape(arena, type, NULL);
  const wp_hlo_prim *info = wp_hlo_prim_info(prim);
  const void *permuted;
  if (!want || !instr ||
      wp_hlo_literal_in_layout(arena, instr, wp_hlo_prim_is_one_bit(prim) ? 1 : info->bytes,
                               bytes, want, &permuted))
    return "its type has no XLA shape, or its layout does not re-read";
  ProtobufCBinaryData have = e->literal->shape ? wp_pb_pack(arena, &e->literal->shape->base)
                                               : (ProtobufCBinaryData){0, NULL};
  ProtobufCBinaryData made = wp_pb_pack(arena, &want->base);
  if (have.len != made.len || (have.len && memcmp(have.data, made.data, have.len))) {
    snprintf(why, cap, "its literal's shape (layout) is not the one export makes from the "
                       "constant's shape, which is all inline-weights keeps");
    return why;
  }
  return NULL;
}

/* The instruction ids of FUNC in the order export writes them: a stored
 * hlo.order first (ids still present), then the rest as parameters by
 * number and the body's ops. */
static int64_t *export_order(MlirOperation func, MlirBlock body, size_t *n_out) {
  intptr_t n_args = mlirBlockGetNumArguments(body);
  size_t n = (size_t)n_args;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    n++;
  int64_t *def = wp_xmalloc((n + 1) * sizeof *def), *out = wp_xmalloc((n + 1) * sizeof *out);
  size_t k = 0;
  for (intptr_t i = 0; i < n_args; i++) {
    MlirAttribute id = wp_dict_get(wp_func_arg_attrs(func, i), "hlo.id");
    def[k++] = !mlirAttributeIsNull(id) && mlirAttributeIsAInteger(id)
                   ? mlirIntegerAttrGetValueInt(id)
                   : 0;
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    int64_t id;
    if (!wp_op_is(op, "func.return") && wp_attr_i64(op, "id", &id))
      def[k++] = id;
  }
  n = k;
  MlirAttribute order = wp_attr(func, "hlo.order");
  if (mlirAttributeIsNull(order) || !mlirAttributeIsADenseI64Array(order)) {
    free(out);
    *n_out = n;
    return def;
  }
  wp_i64map pos;
  wp_i64map_init(&pos);
  for (size_t i = 0; i < n; i++)
    wp_i64map_put(&pos, def[i], (int64_t)i);
  unsigned char *taken = wp_xcalloc(n + 1, 1);
  k = 0;
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(order); i++) {
    int64_t at;
    if (wp_i64map_get(&pos, mlirDenseI64ArrayGetElement(order, i), &at) && !taken[at]) {
      taken[at] = 1;
      out[k++] = def[at];
    }
  }
  for (size_t i = 0; i < n; i++)
    if (!taken[i])
      out[k++] = def[i];
  wp_i64map_free(&pos);
  free(taken);
  free(def);
  *n_out = k;
  return out;
}

static void add_const(wp_outline_plan *plan, size_t *cap, const wp_outline_const *c) {
  if (plan->n == *cap) {
    *cap = *cap ? *cap * 2 : 16;
    plan->c = wp_xrealloc(plan->c, *cap * sizeof *plan->c);
  }
  plan->c[plan->n++] = *c;
}

/* Is OP a constant of at least MIN_BYTES bytes of a static array type? Its
 * type, element type and byte count then. */
static bool large_constant(MlirOperation op, uint64_t min_bytes, MlirType *type, int *prim,
                           uint64_t *size) {
  if (!wp_op_is(op, "hlo.constant") || mlirOperationGetNumResults(op) != 1 ||
      mlirAttributeIsNull(wp_attr(op, "value")))
    return false;
  *type = mlirValueGetType(mlirOperationGetResult(op, 0));
  return mlirTypeIsARankedTensor(*type) && mlirShapedTypeHasStaticShape(*type) &&
         wp_hlo_storage_bytes(*type, prim, size) == 0 && *size >= min_bytes;
}

/* Warns of large constants outside the entry: they stay. */
static void note_elsewhere(wp_outline_plan *plan, MlirOperation entry, uint64_t min_bytes) {
  for (MlirOperation f = wp_first_op_in(plan->module); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    MlirBlock body = wp_op_is(f, "func.func") ? wp_func_body(f) : (MlirBlock){NULL};
    if (mlirOperationEqual(f, entry) || mlirBlockIsNull(body))
      continue;
    MlirStringRef fname = {"?", 1};
    wp_attr_str(f, "sym_name", &fname);
    for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      MlirType type;
      int prim;
      uint64_t size;
      if (!large_constant(op, min_bytes, &type, &prim, &size))
        continue;
      MlirStringRef name = {"?", 1};
      wp_attr_str(op, "name", &name);
      char ts[128];
      wp_hlo_type_str(type, ts, sizeof ts);
      wp_emit_warning(mlirOperationGetLocation(op),
                      "outline-weights: constant '%.*s' (%s, %llu bytes) of computation "
                      "'%.*s' stays a constant: only the entry computation's constants can "
                      "become parameters", (int)name.length, name.data, ts,
                      (unsigned long long)size, (int)fname.length, fname.data);
      plan->kept_elsewhere++;
    }
  }
}

int wp_outline_plan_make(MlirOperation module, uint64_t min_bytes, wp_arena *arena,
                         wp_outline_plan *plan) {
  memset(plan, 0, sizeof *plan);
  plan->module = module;
  MlirAttribute entry_ref = wp_attr(module, "hlo.entry");
  if (mlirAttributeIsNull(entry_ref) || !mlirAttributeIsAFlatSymbolRef(entry_ref)) {
    wp_emit_error(mlirOperationGetLocation(module),
                  "outline-weights: the module is not an HLO module (no hlo.entry)");
    return -1;
  }
  MlirStringRef entry_name = wp_symref_value(entry_ref);
  MlirOperation func = wp_find_func(module, entry_name);
  MlirBlock body = mlirOperationIsNull(func) ? (MlirBlock){NULL} : wp_func_body(func);
  if (mlirBlockIsNull(body)) {
    wp_emit_error(mlirOperationGetLocation(module), "outline-weights: entry computation '%.*s' "
                  "not found, or without a body", (int)entry_name.length, entry_name.data);
    return -1;
  }
  /* hand-written MLIR: the ids and names export would give, made explicit,
   * so the parameters carry what the constants exported as */
  wp_hlo_fill_ids(mlirModuleFromOperation(module));
  plan->entry = func;
  plan->body = body;
  plan->n_before = mlirBlockGetNumArguments(body);
  size_t cap = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    wp_outline_const c = {.op = op};
    if (!large_constant(op, min_bytes, &c.type, &c.prim, &c.size))
      continue;
    wp_attr_str(op, "name", &c.name);
    wp_attr_i64(op, "id", &c.id);
    c.loc = mlirOperationGetLocation(op);
    if (mlirShapedTypeGetRank(c.type) > 64) {
      wp_emit_warning(c.loc, "outline-weights: constant '%.*s' stays a constant: its rank is "
                      "over the 64 dimensions a .npy file can hold", (int)c.name.length,
                      c.name.data);
      plan->kept++;
      continue;
    }
    wp_error err;
    uint64_t got = 0;
    int rc = wp_hlo_constant_bytes(op, arena, &c.bytes, &got, &err);
    if (rc || got != c.size) {
      wp_emit_error(c.loc, "outline-weights: constant '%.*s': %s", (int)c.name.length,
                    c.name.data, rc ? err.msg : "its bytes are not its type's size");
      wp_outline_plan_free(plan);
      return -1;
    }
    Xla__HloInstructionProto *e = wp_hlo_unpack_extra(arena, wp_attr(op, "extra"),
                                                      &xla__hlo_instruction_proto__descriptor);
    char why[512];
    const char *kept = e ? why_kept(arena, e, c.type, c.prim, c.bytes, why, sizeof why)
                         : "its extra attribute is not an HloInstructionProto";
    if (kept) {
      wp_emit_warning(c.loc, "outline-weights: constant '%.*s' stays a constant: %s",
                      (int)c.name.length, c.name.data, kept);
      plan->kept++;
      continue;
    }
    Xla__HloInstructionProto p = XLA__HLO_INSTRUCTION_PROTO__INIT;
    p.shape = e->shape;
    p.metadata = e->metadata;
    p.frontend_attributes = e->frontend_attributes;
    p.statistics_viz = e->statistics_viz;
    ProtobufCBinaryData b = wp_pb_pack(arena, &p.base);
    c.arg_extra = b.len ? wp_str_attr(mlirOperationGetContext(op), b.data, b.len)
                        : mlirAttributeGetNull();
    c.shape = e->shape && wp_hlo_shape_matches(mlirOperationGetContext(op), e->shape, c.type)
                  ? e->shape
                  : wp_hlo_type_to_shape(arena, c.type, NULL);
    c.number = plan->n_before + (int64_t)plan->n;
    add_const(plan, &cap, &c);
  }
  plan->order = export_order(func, body, &plan->n_order);
  note_elsewhere(plan, func, min_bytes);
  return 0;
}

void wp_outline_plan_free(wp_outline_plan *plan) {
  free(plan->c);
  free(plan->order);
  plan->c = NULL;
  plan->order = NULL;
}

/* ---- the rewrite ---- */

static void set_extra(MlirOperation op, wp_arena *arena, const ProtobufCMessage *msg) {
  ProtobufCBinaryData b = wp_pb_pack(arena, msg);
  if (b.len)
    wp_set_attr(op, "hlo.extra", wp_str_attr(mlirOperationGetContext(op), b.data, b.len));
  else
    mlirOperationRemoveAttributeByName(op, wp_sref("hlo.extra"));
}

/* PS (a stored program shape of N_BEFORE parameters) with the new ones
 * appended; false when PS describes another signature (export then makes
 * its own, before and after, and it is left alone). */
static bool append_params(wp_arena *arena, Xla__ProgramShapeProto *ps, const wp_outline_plan *plan,
                          bool host) {
  size_t k = (size_t)plan->n_before;
  if (!ps || ps->n_parameters != k || (ps->n_parameter_names && ps->n_parameter_names != k))
    return false;
  /* a host shape names its parameters by position, "p0", "p1", ... (see
   * inline-weights): the new ones go on counting */
  bool positional = host && ps->n_parameter_names == k && k > 0;
  char want[32];
  for (size_t i = 0; positional && i < k; i++) {
    snprintf(want, sizeof want, "p%zu", i);
    positional = ps->parameter_names[i] && strcmp(ps->parameter_names[i], want) == 0;
  }
  size_t n = k + plan->n;
  Xla__ShapeProto **shapes = wp_arena_alloc(arena, (n + 1) * sizeof *shapes);
  memcpy(shapes, ps->parameters, k * sizeof *shapes);
  char **names = NULL;
  if (ps->n_parameter_names) {
    names = wp_arena_alloc(arena, (n + 1) * sizeof *names);
    memcpy(names, ps->parameter_names, k * sizeof *names);
  }
  for (size_t j = 0; j < plan->n; j++) {
    shapes[k + j] = plan->c[j].shape;
    if (!names)
      continue;
    if (positional) {
      int len = snprintf(want, sizeof want, "p%zu", k + j);
      names[k + j] = wp_arena_strndup(arena, want, (size_t)len);
    } else {
      names[k + j] = wp_arena_strndup(arena, plan->c[j].name.data, plan->c[j].name.length);
    }
  }
  ps->parameters = shapes;
  ps->n_parameters = n;
  if (names) {
    ps->parameter_names = names;
    ps->n_parameter_names = n;
  }
  return true;
}

static void update_program_shapes(wp_outline_plan *plan, wp_arena *arena) {
  MlirAttribute fx = wp_attr(plan->entry, "hlo.extra");
  Xla__HloComputationProto *c =
      mlirAttributeIsNull(fx)
          ? NULL
          : wp_hlo_unpack_extra(arena, fx, &xla__hlo_computation_proto__descriptor);
  if (c && append_params(arena, c->program_shape, plan, false))
    set_extra(plan->entry, arena, &c->base);
  MlirAttribute mx = wp_attr(plan->module, "hlo.extra");
  Xla__HloModuleProto *m =
      mlirAttributeIsNull(mx) ? NULL
                              : wp_hlo_unpack_extra(arena, mx, &xla__hlo_module_proto__descriptor);
  if (!m)
    return;
  bool changed = append_params(arena, m->host_program_shape, plan, true);
  size_t k = (size_t)plan->n_before;
  if (k && m->n_spmd_parameters_shardings == k) {
    /* one sharding per parameter: the new ones replicated (an empty
     * OpSharding), which inline-weights drops with them */
    Xla__Opaque **s = wp_arena_alloc(arena, (k + plan->n + 1) * sizeof *s);
    memcpy(s, m->spmd_parameters_shardings, k * sizeof *s);
    for (size_t j = 0; j < plan->n; j++)
      s[k + j] = wp_pb_new(arena, &xla__opaque__descriptor);
    m->spmd_parameters_shardings = s;
    m->n_spmd_parameters_shardings = k + plan->n;
    changed = true;
  }
  if (changed)
    set_extra(plan->module, arena, &m->base);
}

/* The stored order: the one export wrote before, unless it is what export
 * writes now without one (then the import of the new module has none). */
static void keep_order(wp_outline_plan *plan) {
  MlirContext ctx = mlirOperationGetContext(plan->entry);
  size_t k = 0;
  bool same = true;
  intptr_t n_args = mlirBlockGetNumArguments(plan->body);
  for (intptr_t i = 0; i < n_args && same; i++, k++) {
    MlirAttribute id = wp_dict_get(wp_func_arg_attrs(plan->entry, i), "hlo.id");
    same = k < plan->n_order && !mlirAttributeIsNull(id) && mlirAttributeIsAInteger(id) &&
           mlirIntegerAttrGetValueInt(id) == plan->order[k];
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(plan->body);
       same && !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    int64_t id;
    if (wp_op_is(op, "func.return"))
      continue;
    same = k < plan->n_order && wp_attr_i64(op, "id", &id) && id == plan->order[k];
    k++;
  }
  if (same && k == plan->n_order)
    mlirOperationRemoveAttributeByName(plan->entry, wp_sref("hlo.order"));
  else
    wp_set_attr(plan->entry, "hlo.order",
                mlirDenseI64ArrayGet(ctx, (intptr_t)plan->n_order, plan->order));
}

void wp_outline_apply(wp_outline_plan *plan, wp_arena *arena) {
  if (!plan->n)
    return;
  MlirContext ctx = mlirOperationGetContext(plan->entry);
  intptr_t n_args = plan->n_before + (intptr_t)plan->n;
  MlirAttribute *dicts = wp_xmalloc((size_t)n_args * sizeof *dicts);
  MlirType *types = wp_xmalloc((size_t)n_args * sizeof *types);
  for (intptr_t i = 0; i < plan->n_before; i++) {
    MlirAttribute d = wp_func_arg_attrs(plan->entry, i);
    dicts[i] = mlirAttributeIsNull(d) ? mlirDictionaryAttrGet(ctx, 0, NULL) : d;
    types[i] = mlirValueGetType(mlirBlockGetArgument(plan->body, i));
  }
  for (size_t j = 0; j < plan->n; j++) {
    wp_outline_const *c = &plan->c[j];
    MlirNamedAttribute a[3];
    int n = 0;
    a[n++] = wp_named(ctx, "hlo.name", wp_str_attr(ctx, c->name.data, c->name.length));
    a[n++] = wp_named(ctx, "hlo.id", wp_i64_attr(ctx, c->id));
    if (!mlirAttributeIsNull(c->arg_extra))
      a[n++] = wp_named(ctx, "hlo.extra", c->arg_extra);
    dicts[plan->n_before + (intptr_t)j] = mlirDictionaryAttrGet(ctx, n, a);
    types[plan->n_before + (intptr_t)j] = c->type;
    MlirValue arg = mlirBlockAddArgument(plan->body, c->type, c->loc);
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(c->op, 0), arg);
    mlirOperationDestroy(c->op);
    c->op = (MlirOperation){NULL};
  }
  MlirType fty = mlirTypeAttrGetValue(wp_attr(plan->entry, "function_type"));
  MlirType res[1] = {mlirFunctionTypeGetResult(fty, 0)};
  wp_set_attr(plan->entry, "function_type",
              mlirTypeAttrGet(mlirFunctionTypeGet(ctx, n_args, types, 1, res)));
  wp_set_attr(plan->entry, "arg_attrs", mlirArrayAttrGet(ctx, n_args, dicts));
  free(dicts);
  free(types);
  keep_order(plan);
  update_program_shapes(plan, arena);
}
