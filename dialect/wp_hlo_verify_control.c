/* Ops that call computations (call, while, conditional, fusion, the async
 * wrappers) against their callees' signatures, and a custom call's
 * operand layout constraints: XLA's ShapeVerifier and, for the async ops,
 * the conditional's branch index and the layout constraints, XLA's
 * parser. */
#include "wp_hlo_verify_internal.h"

#include "wp_hlo_types.h"

#include <string.h>

/* Callee K of the instruction, or NULL when it has none such (a missing
 * computation is the importer's error). */
static const wp_hv_sig *callee(wp_hv *v, const wp_hv_ins *in, size_t k) {
  if (k >= in->ins->n_called_computation_ids)
    return NULL;
  return v->callee(v, in->ins->called_computation_ids[k]);
}

/* ShapeVerifier::CheckParameterCount. */
static int param_count(wp_hv *v, const wp_hv_ins *in, const wp_hv_sig *sig, size_t expected) {
  if (sig->n_params == expected)
    return 0;
  return wp_hv_fail(v, "Expected computation %s called from %s to have %zu parameters, has %zu",
                    sig->name, in->ins->name, expected, sig->n_params);
}

/* ShapeVerifier::CheckOperandAndParameter. */
static int operand_and_param(wp_hv *v, const wp_hv_ins *in, size_t operand,
                             const wp_hv_sig *sig, size_t param) {
  const Xla__ShapeProto *p = param < sig->n_params ? sig->params[param] : NULL;
  if (!p || operand >= in->n_ops)
    return 0;
  const Xla__HloInstructionProto *op = in->ops[operand];
  if (wp_hv_compatible(op->shape, p, false))
    return 0;
  return wp_hv_fail(v, "Operand %s shape %s does not match parameter's %s shape %s in %s",
                    op->name, wp_hv_str(v, op->shape, false), sig->param_names[param],
                    wp_hv_str(v, p, false), in->ins->name);
}

static int check_call(wp_hv *v, const wp_hv_ins *in) {
  const wp_hv_sig *sig = callee(v, in, 0);
  if (!sig)
    return 0;
  if (param_count(v, in, sig, in->n_ops))
    return -1;
  for (size_t i = 0; i < in->n_ops; i++)
    if (operand_and_param(v, in, i, sig, i))
      return -1;
  return sig->root ? wp_hv_check_shape(v, in, sig->root, true) : 0;
}

static int check_while(wp_hv *v, const wp_hv_ins *in) {
  if (wp_hv_operand_count(v, in, 1))
    return -1;
  /* XLA's order: the body, then the condition */
  const wp_hv_sig *body = callee(v, in, 0), *cond = callee(v, in, 1);
  if (!body || !cond)
    return 0;
  if (param_count(v, in, body, 1) || param_count(v, in, cond, 1) ||
      operand_and_param(v, in, 0, body, 0) || operand_and_param(v, in, 0, cond, 0))
    return -1;
  if (cond->root && !(wp_hv_is_scalar(cond->root) && cond->root->element_type == WP_PRED))
    return wp_hv_fail(v, "Conditional computation shape does not lead to a scalar predicate "
                      "shape: %s", wp_hv_str(v, cond->root, false));
  return body->root ? wp_hv_check_shape(v, in, body->root, true) : 0;
}

static int check_conditional(wp_hv *v, const wp_hv_ins *in) {
  if (in->n_ops < 1)
    return wp_hv_fail(v, "conditional expects a branch index operand");
  const Xla__ShapeProto *index = in->ops[0]->shape;
  /* XLA's parser refuses these */
  if (!wp_hv_is_scalar(index))
    return wp_hv_fail(v, "The first operand must be a scalar");
  if (index->element_type != WP_PRED && index->element_type != WP_S32)
    return wp_hv_fail(v, "The first operand must be a scalar of PRED or S32");
  size_t n = in->ins->n_called_computation_ids;
  if (index->element_type == WP_PRED && n != 2)
    return wp_hv_fail(v, "A conditional with a PRED branch index has a true_computation and a "
                      "false_computation, not %zu branch computations", n);
  if (n < 1)
    return wp_hv_fail(v, "A conditional with an S32 branch index needs at least one branch "
                      "computation");
  if (in->n_ops != n + 1)
    return wp_hv_fail(v, "Expected %zu operands for conditional instruction, has %zu", n + 1,
                      in->n_ops);
  for (size_t j = 0; j < n; j++) {
    const wp_hv_sig *sig = callee(v, in, j);
    if (!sig)
      continue;
    if (param_count(v, in, sig, 1) || operand_and_param(v, in, j + 1, sig, 0))
      return -1;
    if (sig->root && wp_hv_check_shape(v, in, sig->root, true))
      return -1;
  }
  return 0;
}

static int check_fusion(wp_hv *v, const wp_hv_ins *in) {
  if (in->ins->n_called_computation_ids != 1)
    return wp_hv_fail(v, "Fusion has a non-unary number of called computations (%zu)",
                      in->ins->n_called_computation_ids);
  const wp_hv_sig *sig = callee(v, in, 0);
  if (!sig)
    return 0;
  if (sig->root && !wp_hv_compatible(in->shape, sig->root, false))
    return wp_hv_fail(v, "Fused computation shape (%s) is not equal to the fusion shape (%s)",
                      wp_hv_str(v, sig->root, false), wp_hv_str(v, in->shape, false));
  if (sig->n_params > in->n_ops)
    return wp_hv_fail(v, "Fused parameter count (%zu) is greater than the number of operands "
                      "(%zu) passed to the fusion instruction in: %s.", sig->n_params,
                      in->n_ops, in->ins->name);
  for (size_t p = 0; p < sig->n_params; p++)
    if (sig->params[p] && !wp_hv_compatible(sig->params[p], in->ops[p]->shape, false))
      return wp_hv_fail(v, "Shape mismatch between parameter number %zu and its operand in %s.",
                        p, in->ins->name);
  return 0;
}

/* ShapeVerifier::CheckAsyncOpComputationShapes: ASYNC (the start's
 * shape) holds the wrapped computation's parameters at {0} and its root
 * at {1}. */
static int async_shapes(wp_hv *v, const char *op, const Xla__ShapeProto *async,
                        const wp_hv_sig *sig) {
  if (!wp_hv_is_tuple(async) || async->n_tuple_shapes < 2)
    return wp_hv_fail(v, "The %s expects the async shape to be a tuple of at least two "
                      "elements, found %s.", op, wp_hv_str(v, async, false));
  for (size_t i = 0; i < sig->n_params; i++)
    if (!sig->params[i])
      return 0;
  const Xla__ShapeProto *params = wp_hv_make_tuple(v, sig->params, sig->n_params);
  if (!wp_hv_compatible(async->tuple_shapes[0], params, false))
    return wp_hv_fail(v, "The %s expects the async shape at index {0} to match async "
                      "computation parameter shape (%s vs %s).", op,
                      wp_hv_str(v, async->tuple_shapes[0], false), wp_hv_str(v, params, false));
  if (sig->root && !wp_hv_compatible(async->tuple_shapes[1], sig->root, false))
    return wp_hv_fail(v, "The %s expects the async shape at index {1} to match the async "
                      "computation root shape (%s vs %s).", op,
                      wp_hv_str(v, async->tuple_shapes[1], false),
                      wp_hv_str(v, sig->root, false));
  return 0;
}

static int check_async_start(wp_hv *v, const wp_hv_ins *in) {
  const Xla__ShapeProto *s = in->shape;
  if (!wp_hv_is_tuple(s) || s->n_tuple_shapes < 2 || !wp_hv_is_tuple(s->tuple_shapes[0]))
    return wp_hv_fail(v, "AsyncStart expects the op shape to be in the form of "
                      "((async-operands), async-outputs, state).");
  const wp_hv_sig *sig = callee(v, in, 0);
  if (sig && async_shapes(v, "async-start", s, sig))
    return -1;
  const Xla__ShapeProto *ops = s->tuple_shapes[0];
  if (ops->n_tuple_shapes != in->n_ops)
    return wp_hv_fail(v, "The async-start has %zu operands, but the async shape at index {0} "
                      "has %zu (%s).", in->n_ops, ops->n_tuple_shapes,
                      wp_hv_str(v, ops, false));
  for (size_t i = 0; i < in->n_ops; i++)
    if (!wp_hv_compatible(ops->tuple_shapes[i], in->ops[i]->shape, false))
      return wp_hv_fail(v, "The async-start expects the shape of operand %zu to match the async "
                        "shape at index {0} (%s vs %s).", i,
                        wp_hv_str(v, in->ops[i]->shape, false),
                        wp_hv_str(v, ops->tuple_shapes[i], false));
  return 0;
}

static bool is_async_opcode(const char *op) {
  return !strcmp(op, "async-start") || !strcmp(op, "async-update");
}

/* async-update and async-done: on the start (or an update) of the same
 * wrapped computation. */
static int check_async_next(wp_hv *v, const wp_hv_ins *in, bool done) {
  if (in->n_ops != 1 || !is_async_opcode(in->ops[0]->opcode))
    return wp_hv_fail(v, "AsyncUpdate and AsyncDone expect a single async op as their "
                      "operand.");
  const Xla__HloInstructionProto *prev = in->ops[0];
  if (!done && !wp_hv_compatible(prev->shape, in->shape, false))
    return wp_hv_fail(v, "AsyncUpdate expects the op shape to be the same as the operand "
                      "shape.");
  const wp_hv_sig *own = callee(v, in, 0), *sig = own;
  if (prev->n_called_computation_ids > 0) {
    const wp_hv_sig *theirs = v->callee(v, prev->called_computation_ids[0]);
    if (own && theirs && own != theirs)
      return wp_hv_fail(v, "Expect async_wrapped_computation to be %s, but got %s",
                        theirs->name, own->name);
    if (!sig)
      sig = theirs;
  }
  const char *op = done ? "async-done" : "async-update";
  if (sig && async_shapes(v, op, prev->shape, sig))
    return -1;
  if (done && wp_hv_is_tuple(prev->shape) && prev->shape->n_tuple_shapes >= 2 &&
      !wp_hv_compatible(prev->shape->tuple_shapes[1], in->shape, false))
    return wp_hv_fail(v, "The async-done expects the shape of output to match the async shape "
                      "at index {1} (%s vs %s).", wp_hv_str(v, in->shape, false),
                      wp_hv_str(v, prev->shape->tuple_shapes[1], false));
  return 0;
}

/* XLA's parser: one constraint per operand, each compatible with it. */
static int check_custom_call(wp_hv *v, const wp_hv_ins *in) {
  const Xla__HloInstructionProto *ins = in->ins;
  if (!ins->constrain_layout)
    return 0;
  if (ins->n_operand_shapes_with_layout != in->n_ops)
    return wp_hv_fail(v, "Expected %zu operand layout constraints, %zu given", in->n_ops,
                      ins->n_operand_shapes_with_layout);
  for (size_t i = 0; i < in->n_ops; i++) {
    const Xla__ShapeProto *c = ins->operand_shapes_with_layout[i];
    if (!wp_hv_compatible(c, in->ops[i]->shape, false))
      return wp_hv_fail(v, "Operand layout constraint shape %s for operand %zu is not "
                        "compatible with operand shape %s", wp_hv_str(v, c, true), i,
                        wp_hv_str(v, in->ops[i]->shape, true));
  }
  return 0;
}

static int check_async_update(wp_hv *v, const wp_hv_ins *in) {
  return check_async_next(v, in, false);
}

static int check_async_done(wp_hv *v, const wp_hv_ins *in) {
  return check_async_next(v, in, true);
}

int wp_hv_check_control(wp_hv *v, const wp_hv_ins *in, bool *handled) {
  static const struct {
    const char *opcode;
    int (*check)(wp_hv *, const wp_hv_ins *);
  } ops[] = {
      {"call", check_call},
      {"while", check_while},
      {"conditional", check_conditional},
      {"fusion", check_fusion},
      {"async-start", check_async_start},
      {"async-update", check_async_update},
      {"async-done", check_async_done},
      {"custom-call", check_custom_call},
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (wp_hv_opcode_is(in->ins->opcode, ops[i].opcode)) {
      *handled = true;
      return ops[i].check(v, in);
    }
  return 0;
}
