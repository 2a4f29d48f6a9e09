/* HLO text -> HloModuleProto: the module, its computations and
 * instructions, and what XLA derives once all is read (ids, the entry,
 * program shapes, the schedule). The parts have files of their own:
 * wp_hlo_text_lex.c, _shape.c, _literal.c, _attrs.c, _dnums.c,
 * _sharding.c, _meta.c. */
#include "wp_hlo_text.h"

#include "wp_hlo_opcodes.h"
#include "wp_hlo_text_async.h"
#include "wp_hlo_text_common.h"
#include "wp_hlo_text_internal.h"
#include "wp_hlo_text_module.h"
#include "wp_hlo_types.h"
#include "wp_pb.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* ---- names -> indices: open addressing over arena arrays ---- */

typedef struct strmap {
  const char **keys;
  size_t *vals;
  size_t cap;
} strmap;

static uint64_t hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static void sm_init(htp *p, strmap *m, size_t n) {
  m->cap = 8;
  while (m->cap < 2 * n + 1)
    m->cap *= 2;
  m->keys = wp_arena_alloc(p->arena, m->cap * sizeof *m->keys);
  m->vals = wp_arena_alloc(p->arena, m->cap * sizeof *m->vals);
}

/* false when KEY is there already (*VAL: its value) */
static bool sm_put(strmap *m, const char *key, size_t *val) {
  size_t i = hash(key) & (m->cap - 1);
  while (m->keys[i]) {
    if (!strcmp(m->keys[i], key)) {
      *val = m->vals[i];
      return false;
    }
    i = (i + 1) & (m->cap - 1);
  }
  m->keys[i] = key;
  m->vals[i] = *val;
  return true;
}

static bool sm_get(const strmap *m, const char *key, size_t *val) {
  size_t i = hash(key) & (m->cap - 1);
  while (m->keys[i]) {
    if (!strcmp(m->keys[i], key)) {
      *val = m->vals[i];
      return true;
    }
    i = (i + 1) & (m->cap - 1);
  }
  return false;
}

/* ---- instructions ---- */

typedef struct operands_ctx {
  wp_htp_instr *ins;
  bool single;
  size_t n_shapes, cap_shapes;
} operands_ctx;

/* [shape] name; in a lone instruction (SINGLE) a shape alone will do, as
 * XLA makes a parameter of it. */
static int operand_item(htp *p, void *ctx) {
  operands_ctx *c = ctx;
  Xla__ShapeProto *shape = NULL;
  if (wp_htp_at_shape(p) && wp_htp_shape(p, &shape))
    return -1;
  wp_htp_ref r;
  wp_htp_skip(p);
  r.at = p->pos;
  int next = wp_htp_peek(p);
  if (c->single && shape && (next == ',' || next == ')'))
    r.name = "";
  else if (wp_htp_name(p, &r.name))
    return -1;
  WP_HTP_PUSH(p, c->ins->operands, c->ins->n_operands, c->ins->cap_operands, r);
  WP_HTP_PUSH(p, c->ins->operand_shapes, c->n_shapes, c->cap_shapes, shape);
  return 0;
}

/* After '(': the operands and ')'. */
static int operands(htp *p, wp_htp_instr *ins, bool single) {
  operands_ctx c = {ins, single, 0, 0};
  return wp_htp_list(p, NULL, ")", ",", 0, operand_item, &c);
}

/* An opcode XLA knows, or its sugared async form: *WRAPPED is then the
 * opcode it wraps, and M's opcode the async one (a start's the wrapped
 * one, whose attributes follow). */
static int opcode(htp *p, size_t at, Xla__HloInstructionProto *m, const char **wrapped,
                  bool *start) {
  *wrapped = NULL;
  *start = false;
  /* the table has every XLA opcode but parameter (a block argument there) */
  if (wp_hlo_opcode_by_xla(m->opcode) || !strcmp(m->opcode, "parameter"))
    return 0;
  const char *async;
  int rc = wp_htp_async_opcode(p, at, m->opcode, &async, wrapped);
  if (rc < 0)
    return -1;
  if (!rc)
    return wp_htp_fail(p, at, "unknown opcode '%s'", m->opcode);
  *start = !strcmp(async, "async-start");
  m->opcode = (char *)(*start ? *wrapped : async);
  return 0;
}

static int instruction(htp *p, wp_htp_module *mod, wp_htp_comp *c, bool single) {
  wp_htp_instr ins;
  memset(&ins, 0, sizeof ins);
  Xla__HloInstructionProto *m = wp_pb_new(p->arena, &xla__hlo_instruction_proto__descriptor);
  ins.msg = m;
  wp_htp_skip(p);
  ins.at = p->pos;
  if (single && wp_htp_at_shape(p)) {
    m->name = "_"; /* XLA names it after the module */
    ins.root = true;
    if (wp_htp_shape(p, &m->shape))
      return -1;
  } else {
    ins.root = wp_htp_accept_word(p, "ROOT");
    wp_htp_skip(p);
    ins.at = p->pos;
    if (wp_htp_name(p, &m->name) || wp_htp_expect(p, "=") || wp_htp_shape(p, &m->shape))
      return -1;
  }
  wp_htp_skip(p);
  size_t at = p->pos;
  const char *op;
  size_t n = wp_htp_ident(p, &op);
  if (!n)
    return wp_htp_fail(p, at, "expected an opcode");
  m->opcode = wp_arena_strndup(p->arena, op, n);
  const char *wrapped;
  bool start;
  if (opcode(p, at, m, &wrapped, &start) || wp_htp_expect(p, "("))
    return -1;
  if (!strcmp(m->opcode, "constant")) {
    if (wp_htp_literal(p, m->shape, &m->literal) || wp_htp_expect(p, ")"))
      return -1;
  } else if (!strcmp(m->opcode, "parameter")) {
    wp_htp_skip(p);
    size_t nat = p->pos;
    if (wp_htp_int(p, &m->parameter_number) || wp_htp_expect(p, ")"))
      return -1;
    if (m->parameter_number < 0)
      return wp_htp_fail(p, nat, "negative parameter number");
  } else if (operands(p, &ins, single)) {
    return -1;
  }
  while (wp_htp_accept(p, ","))
    if (wp_htp_attribute(p, &ins))
      return -1;
  if (start ? wp_htp_async_wrap(p, mod, c, &ins, wrapped)
            : wp_htp_async_read_check(p, &ins, wrapped != NULL))
    return -1;
  if (wrapped && !start)
    wp_htp_async_sugared(p, c, wrapped);
  if (wp_htp_instr_finish(p, &ins))
    return -1;
  WP_HTP_PUSH(p, c->ins, c->n_ins, c->cap_ins, ins);
  return 0;
}

/* ---- computations ---- */

/* name: shape, checked only for its syntax: the names and shapes are the
 * parameter instructions' own. */
static int signature_param(htp *p, void *ctx) {
  (void)ctx;
  char *name;
  Xla__ShapeProto *s;
  return wp_htp_name(p, &name) || wp_htp_expect(p, ":") || wp_htp_shape(p, &s) ? -1 : 0;
}

/* (name: shape, ...) -> shape; the names are XLA's parameter names,
 * already on the parameter instructions. */
static int signature(htp *p, wp_htp_comp *c) {
  if (wp_htp_list(p, "(", ")", ",", 0, signature_param, NULL) || wp_htp_expect(p, "->"))
    return -1;
  wp_htp_skip(p);
  c->sig_at = p->pos;
  return wp_htp_shape(p, &c->sig_result);
}

static int computation(htp *p, wp_htp_module *mod) {
  wp_htp_comp c;
  memset(&c, 0, sizeof c);
  c.msg = wp_pb_new(p->arena, &xla__hlo_computation_proto__descriptor);
  wp_htp_skip(p);
  size_t entry_at = p->pos;
  bool entry = wp_htp_accept_word(p, "ENTRY");
  if (entry) {
    if (mod->entry != SIZE_MAX) /* set once the first one was read */
      return wp_htp_fail(p, entry_at, "a second ENTRY computation");
    mod->entry_at = entry_at;
  }
  wp_htp_skip(p);
  c.at = p->pos;
  if (wp_htp_name(p, &c.msg->name))
    return -1;
  if (wp_htp_peek(p) == '(' && signature(p, &c))
    return -1;
  wp_htp_skip(p);
  size_t open = p->pos;
  if (wp_htp_expect(p, "{"))
    return -1;
  while (!wp_htp_accept(p, "}")) {
    if (p->failed)
      return -1;
    if (wp_htp_peek(p) < 0)
      return wp_htp_fail(p, open, "computation '%s' is not closed", c.msg->name);
    if (instruction(p, mod, &c, false))
      return -1;
  }
  if (!c.n_ins)
    return wp_htp_fail(p, c.at, "computation '%s' has no instructions", c.msg->name);
  /* XLA writes a thread other than "main" after the body */
  size_t save = p->pos;
  if (wp_htp_accept(p, ",")) {
    if (!wp_htp_accept_word(p, "execution_thread")) {
      p->pos = save;
      return wp_htp_fail(p, save, "unexpected ',' after computation '%s'", c.msg->name);
    }
    if (wp_htp_expect(p, "=") || wp_htp_string(p, &c.msg->execution_thread, NULL, false))
      return -1;
  }
  if (entry) /* after the computations made for its async starts */
    mod->entry = mod->n;
  wp_htp_async_names(p, mod, &c);
  WP_HTP_PUSH(p, mod->comps, mod->n, mod->cap, c);
  return 0;
}

/* ---- after everything is read ---- */

static int resolve_computation(htp *p, wp_htp_comp *c) {
  strmap names;
  sm_init(p, &names, c->n_ins);
  size_t root = SIZE_MAX, n_params = 0;
  for (size_t i = 0; i < c->n_ins; i++) {
    size_t v = i;
    if (!sm_put(&names, c->ins[i].msg->name, &v))
      return wp_htp_fail(p, c->ins[i].at, "instruction '%s' is defined twice in computation '%s'",
                      c->ins[i].msg->name, c->msg->name);
    if (c->ins[i].root) {
      if (root != SIZE_MAX)
        return wp_htp_fail(p, c->ins[i].at, "a second ROOT in computation '%s'", c->msg->name);
      root = i;
    }
    n_params += !strcmp(c->ins[i].msg->opcode, "parameter");
  }
  c->root = root == SIZE_MAX ? c->n_ins - 1 : root; /* XLA: the last one */
  Xla__HloInstructionProto **params =
      wp_arena_alloc(p->arena, (n_params + 1) * sizeof *params);
  for (size_t i = 0; i < c->n_ins; i++) {
    wp_htp_instr *ins = &c->ins[i];
    Xla__HloInstructionProto *m = ins->msg;
    m->n_operand_ids = ins->n_operands;
    m->operand_ids = wp_arena_alloc(p->arena, (ins->n_operands + 1) * sizeof(int64_t));
    size_t first = SIZE_MAX;
    for (size_t k = 0; k < ins->n_operands; k++) {
      size_t o;
      if (!sm_get(&names, ins->operands[k].name, &o))
        return wp_htp_fail(p, ins->operands[k].at, "operand '%s' is not an instruction of "
                        "computation '%s'", ins->operands[k].name, c->msg->name);
      const Xla__ShapeProto *written = ins->operand_shapes[k];
      if (written && !wp_htp_shapes_compatible(written, c->ins[o].msg->shape))
        return wp_htp_fail(p, ins->operands[k].at, "operand '%s' is written with a shape other "
                        "than its own", ins->operands[k].name);
      m->operand_ids[k] = c->ins[o].msg->id;
      if (k == 0)
        first = o;
    }
    m->n_control_predecessor_ids = ins->n_preds;
    m->control_predecessor_ids = wp_arena_alloc(p->arena, (ins->n_preds + 1) * sizeof(int64_t));
    for (size_t k = 0; k < ins->n_preds; k++) {
      size_t o;
      if (!sm_get(&names, ins->preds[k].name, &o))
        return wp_htp_fail(p, ins->preds[k].at, "control predecessor '%s' is not an instruction "
                        "of computation '%s'", ins->preds[k].name, c->msg->name);
      m->control_predecessor_ids[k] = c->ins[o].msg->id;
    }
    if (!strcmp(m->opcode, "parameter")) {
      if ((uint64_t)m->parameter_number >= n_params || params[m->parameter_number])
        return wp_htp_fail(p, ins->at, "parameter(%lld): computation '%s' has %zu parameters, "
                        "numbered 0 to %zu once each", (long long)m->parameter_number,
                        c->msg->name, n_params, n_params - 1);
      params[m->parameter_number] = m;
    }
    /* compare: XLA writes the default comparison type it derives */
    if (!strcmp(m->opcode, "compare") && !ins->has_type && first != SIZE_MAX)
      m->comparison_type =
          (char *)wp_hlo_text_default_comparison_type(c->ins[first].msg->shape->element_type);
  }
  /* the program shape XLA's ComputeProgramShape gives */
  Xla__ProgramShapeProto *ps = wp_pb_new(p->arena, &xla__program_shape_proto__descriptor);
  ps->n_parameters = ps->n_parameter_names = n_params;
  ps->parameters = wp_arena_alloc(p->arena, (n_params + 1) * sizeof *ps->parameters);
  ps->parameter_names = wp_arena_alloc(p->arena, (n_params + 1) * sizeof *ps->parameter_names);
  for (size_t i = 0; i < n_params; i++) {
    ps->parameters[i] = params[i]->shape;
    ps->parameter_names[i] = params[i]->name;
  }
  const Xla__ShapeProto *root_shape = c->ins[c->root].msg->shape;
  ps->result = (Xla__ShapeProto *)root_shape;
  c->msg->program_shape = ps;
  if (c->sig_result && !wp_htp_shapes_compatible(c->sig_result, root_shape))
    return wp_htp_fail(p, c->sig_at, "computation '%s' returns a shape other than its root "
                    "instruction '%s' has", c->msg->name, c->ins[c->root].msg->name);
  c->msg->root_id = c->ins[c->root].msg->id;
  c->msg->id = c->msg->root_id; /* XLA gives a computation its root's id */
  c->msg->n_instructions = c->n_ins;
  c->msg->instructions = wp_arena_alloc(p->arena, (c->n_ins + 1) * sizeof(void *));
  for (size_t i = 0; i < c->n_ins; i++)
    c->msg->instructions[i] = c->ins[i].msg;
  return 0;
}

static int resolve_calls(htp *p, wp_htp_module *mod) {
  strmap names;
  sm_init(p, &names, mod->n);
  for (size_t i = 0; i < mod->n; i++) {
    size_t v = i;
    if (!sm_put(&names, mod->comps[i].msg->name, &v))
      return wp_htp_fail(p, mod->comps[i].at, "a second computation named '%s'",
                      mod->comps[i].msg->name);
  }
  for (size_t i = 0; i < mod->n; i++)
    for (size_t k = 0; k < mod->comps[i].n_ins; k++) {
      wp_htp_instr *ins = &mod->comps[i].ins[k];
      Xla__HloInstructionProto *m = ins->msg;
      m->n_called_computation_ids = ins->n_called;
      m->called_computation_ids =
          wp_arena_alloc(p->arena, (ins->n_called + 1) * sizeof(int64_t));
      for (size_t j = 0; j < ins->n_called; j++) {
        size_t c;
        if (!sm_get(&names, ins->called[j].name, &c))
          return wp_htp_fail(p, ins->called[j].at, "no computation named '%s'",
                          ins->called[j].name);
        if (c == i)
          return wp_htp_fail(p, ins->called[j].at, "computation '%s' calls itself",
                          ins->called[j].name);
        m->called_computation_ids[j] = mod->comps[c].msg->id;
        if (!strcmp(m->opcode, "fusion"))
          mod->comps[c].msg->is_fusion_computation = true;
      }
    }
  return 0;
}

/* XLA's HloSchedule: each computation but fusion bodies, in text order. */
static void schedule(htp *p, wp_htp_module *mod) {
  Xla__HloScheduleView s = XLA__HLO_SCHEDULE_VIEW__INIT;
  s.sequences = wp_arena_alloc(p->arena, (mod->n + 1) * sizeof *s.sequences);
  for (size_t i = 0; i < mod->n; i++) {
    const wp_htp_comp *c = &mod->comps[i];
    if (c->msg->is_fusion_computation)
      continue;
    Xla__HloScheduleView__Entry *e =
        wp_pb_new(p->arena, &xla__hlo_schedule_view__entry__descriptor);
    e->key = c->msg->id;
    e->value = wp_pb_new(p->arena, &xla__hlo_schedule_view__instruction_sequence__descriptor);
    e->value->n_instruction_ids = c->n_ins;
    e->value->instruction_ids = wp_arena_alloc(p->arena, (c->n_ins + 1) * sizeof(int64_t));
    for (size_t k = 0; k < c->n_ins; k++)
      e->value->instruction_ids[k] = c->ins[k].msg->id;
    s.sequences[s.n_sequences++] = e;
  }
  mod->msg->schedule = wp_htp_opaque(p, &s.base);
}

static int finish(htp *p, wp_htp_module *mod) {
  Xla__HloModuleProto *m = mod->msg;
  if (!mod->n)
    return wp_htp_fail(p, p->pos, "no computations");
  if (mod->entry == SIZE_MAX)
    mod->entry = mod->n - 1; /* as XLA: the last computation */
  /* ids: counted from 0 across the module in text order, as XLA's
   * HloModule numbers the instructions its parser hands it */
  int64_t next = 0;
  for (size_t i = 0; i < mod->n; i++)
    for (size_t k = 0; k < mod->comps[i].n_ins; k++)
      mod->comps[i].ins[k].msg->id = next++;
  /* a computation made for a sugared async start takes its parameters'
   * shapes from the start's operands: resolved after the others */
  for (size_t i = 0; i < mod->n; i++)
    if (!mod->comps[i].wrapped && resolve_computation(p, &mod->comps[i]))
      return -1;
  for (size_t i = 0; i < mod->n; i++)
    wp_htp_async_param_shapes(mod, &mod->comps[i]);
  for (size_t i = 0; i < mod->n; i++)
    if (mod->comps[i].wrapped && resolve_computation(p, &mod->comps[i]))
      return -1;
  if (resolve_calls(p, mod) || wp_htp_async_finish(p, mod))
    return -1;
  const wp_htp_comp *entry = &mod->comps[mod->entry];
  m->entry_computation_name = entry->msg->name;
  m->entry_computation_id = entry->msg->id;
  const Xla__ProgramShapeProto *eps = entry->msg->program_shape;
  if (mod->layout) {
    bool ok = mod->layout->n_parameters == eps->n_parameters &&
              wp_htp_shapes_compatible(mod->layout->result, eps->result);
    for (size_t i = 0; ok && i < eps->n_parameters; i++)
      ok = wp_htp_shapes_compatible(mod->layout->parameters[i], eps->parameters[i]);
    if (!ok)
      return wp_htp_fail(p, mod->layout_at, "entry_computation_layout does not match the "
                      "parameters and root of entry computation '%s'", entry->msg->name);
    m->host_program_shape = mod->layout;
  } else {
    /* the layout XLA derives from the entry computation, its parameters
     * named as ComputationLayout names them */
    Xla__ProgramShapeProto *h = wp_pb_new(p->arena, &xla__program_shape_proto__descriptor);
    *h = *eps;
    h->parameter_names = wp_arena_alloc(p->arena, (eps->n_parameters + 1) * sizeof(char *));
    for (size_t i = 0; i < eps->n_parameters; i++) {
      char name[32];
      snprintf(name, sizeof name, "p%zu", i);
      h->parameter_names[i] = wp_arena_strndup(p->arena, name, strlen(name));
    }
    m->host_program_shape = h;
  }
  m->n_computations = mod->n;
  m->computations = wp_arena_alloc(p->arena, (mod->n + 1) * sizeof(void *));
  for (size_t i = 0; i < mod->n; i++)
    m->computations[i] = mod->comps[i].msg;
  if (mod->scheduled)
    schedule(p, mod);
  /* XLA's ToProto writes these three always, empty or not */
  if (!m->input_output_alias)
    m->input_output_alias = wp_pb_new(p->arena, &xla__opaque__descriptor);
  if (!m->buffer_donor)
    m->buffer_donor = wp_pb_new(p->arena, &xla__opaque__descriptor);
  if (!m->frontend_attributes)
    m->frontend_attributes = wp_pb_new(p->arena, &xla__frontend_attributes__descriptor);
  return 0;
}

/* ---- a lone instruction ---- */

/* Does the text start with an instruction rather than a module: a shape,
 * or [ROOT] name '='? (XLA's parser: neither HloModule, ENTRY nor a
 * computation's name and '{'.) */
static bool at_single_instruction(htp *p) {
  if (wp_htp_at_shape(p))
    return true;
  size_t i = p->pos;
  if (p->len - i > 4 && !memcmp(p->src + i, "ROOT", 4) &&
      (p->src[i + 4] == ' ' || p->src[i + 4] == '\t'))
    i += 4;
  while (i < p->len && (p->src[i] == ' ' || p->src[i] == '\t'))
    i++;
  if (i < p->len && p->src[i] == '%')
    i++;
  size_t start = i;
  while (i < p->len && (isalnum((unsigned char)p->src[i]) || strchr("_.-", p->src[i])))
    i++;
  if (i == start)
    return false;
  while (i < p->len && (p->src[i] == ' ' || p->src[i] == '\t'))
    i++;
  return i < p->len && p->src[i] == '=';
}

static int parameter_for(htp *p, wp_htp_comp *c, wp_htp_instr *ins, size_t k) {
  wp_htp_ref *r = &ins->operands[k];
  if (r->name[0])
    for (size_t i = 0; i < c->n_ins; i++)
      if (!strcmp(c->ins[i].msg->name, r->name))
        return 0; /* a parameter made for an operand before */
  if (!ins->operand_shapes[k])
    return wp_htp_fail(p, r->at, "Operand had no shape in HLO text; cannot create parameter "
                       "for single-instruction module");
  wp_htp_instr param;
  memset(&param, 0, sizeof param);
  param.msg = wp_pb_new(p->arena, &xla__hlo_instruction_proto__descriptor);
  param.at = r->at;
  if (!r->name[0]) {
    char name[32];
    snprintf(name, sizeof name, "_%zu", c->n_ins);
    r->name = wp_arena_strndup(p->arena, name, strlen(name));
  }
  param.msg->name = r->name;
  param.msg->opcode = "parameter";
  param.msg->shape = ins->operand_shapes[k];
  param.msg->parameter_number = (int64_t)c->n_ins;
  if (wp_htp_instr_finish(p, &param))
    return -1;
  WP_HTP_PUSH(p, c->ins, c->n_ins, c->cap_ins, param);
  return 0;
}

/* As XLA's ParseSingleInstruction: module and computation `_`, a
 * parameter for each operand it does not know (by its name, or `_N`),
 * scheduled in that order. */
static int single_instruction(htp *p, wp_htp_module *mod) {
  wp_htp_comp c;
  memset(&c, 0, sizeof c);
  c.msg = wp_pb_new(p->arena, &xla__hlo_computation_proto__descriptor);
  c.msg->name = "_";
  c.at = mod->at;
  mod->msg->name = "_";
  mod->settings.replica_count = mod->settings.num_partitions = 1;
  mod->scheduled = true;
  wp_htp_comp one;
  memset(&one, 0, sizeof one);
  if (instruction(p, mod, &one, true))
    return -1;
  if (wp_htp_peek(p) >= 0)
    return wp_htp_fail(p, p->pos, "Expected eof after parsing single instruction. Did you mean "
                       "to write an HLO module and forget the \"HloModule\" header?");
  wp_htp_instr *ins = &one.ins[0];
  for (size_t k = 0; k < ins->n_operands; k++)
    if (parameter_for(p, &c, ins, k))
      return -1;
  ins->root = true;
  if (one.n_sugar) { /* its place is after the parameters made for it */
    c.sugar = one.sugar;
    c.n_sugar = one.n_sugar;
    c.sugar[0].ins = c.n_ins;
  }
  WP_HTP_PUSH(p, c.ins, c.n_ins, c.cap_ins, *ins);
  mod->entry = mod->n; /* after a computation made for an async start */
  mod->entry_at = c.at;
  WP_HTP_PUSH(p, mod->comps, mod->n, mod->cap, c);
  return finish(p, mod);
}

static int module(htp *p, wp_htp_module *mod) {
  mod->msg = wp_pb_new(p->arena, &xla__hlo_module_proto__descriptor);
  mod->entry = SIZE_MAX;
  if (wp_htp_peek(p) < 0)
    return wp_htp_fail(p, p->pos, "empty HLO text");
  mod->at = p->pos;
  if (at_single_instruction(p))
    return single_instruction(p, mod);
  if (wp_htp_accept_word(p, "HloModule")) {
    if (wp_htp_module_header(p, mod))
      return -1;
  } else {
    mod->settings.replica_count = mod->settings.num_partitions = 1;
    mod->msg->name = NULL; /* named after its entry below */
  }
  while (wp_htp_peek(p) >= 0)
    if (computation(p, mod))
      return -1;
  if (!mod->msg->name && mod->n) {
    /* XLA's parser names a module without a header after its entry */
    const char *entry = mod->comps[mod->entry == SIZE_MAX ? mod->n - 1 : mod->entry].msg->name;
    size_t n = strlen(entry) + 8;
    char *name = wp_arena_alloc(p->arena, n);
    snprintf(name, n, "module_%s", entry);
    mod->msg->name = name;
  }
  return p->failed ? -1 : finish(p, mod);
}

/* ---- source positions for the importer ---- */

/* Offsets turned into line:col in one sweep: they come in text order. */
typedef struct line_cursor {
  size_t at, line, line_start;
} line_cursor;

static uint32_t clamp32(size_t v) { return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v; }

static wp_hlo_pos pos_at(const htp *p, line_cursor *c, size_t at) {
  if (at < c->at) { /* back (a computation made for an async start comes
                     * before the one it is in): to the line's start */
    for (; c->at > at; c->at--)
      if (p->src[c->at - 1] == '\n')
        c->line--;
    c->line_start = c->at;
    while (c->line_start && p->src[c->line_start - 1] != '\n')
      c->line_start--;
  }
  for (; c->at < at && c->at < p->len; c->at++)
    if (p->src[c->at] == '\n') {
      c->line++;
      c->line_start = c->at + 1;
    }
  return (wp_hlo_pos){clamp32(c->line), clamp32(at - c->line_start + 1)};
}

/* Each instruction by its id (finish numbered them 0 .. n-1), each
 * computation by its index, the module. */
static void source_positions(htp *p, const wp_htp_module *mod, wp_hlo_locs *locs) {
  size_t n_instr = 0;
  for (size_t i = 0; i < mod->n; i++)
    n_instr += mod->comps[i].n_ins;
  wp_hlo_pos *instr = wp_arena_alloc(p->arena, (n_instr + 1) * sizeof *instr);
  wp_hlo_pos *comp = wp_arena_alloc(p->arena, (mod->n + 1) * sizeof *comp);
  memset(instr, 0, (n_instr + 1) * sizeof *instr);
  line_cursor c = {0, 1, 0};
  locs->module = pos_at(p, &c, mod->at);
  for (size_t i = 0; i < mod->n; i++) {
    comp[i] = pos_at(p, &c, mod->comps[i].at);
    for (size_t k = 0; k < mod->comps[i].n_ins; k++) {
      const wp_htp_instr *ins = &mod->comps[i].ins[k];
      if (ins->msg->id >= 0 && (uint64_t)ins->msg->id < n_instr)
        instr[ins->msg->id] = pos_at(p, &c, ins->at);
    }
  }
  locs->instr = instr;
  locs->n_instr = n_instr;
  locs->comp = comp;
  locs->n_comp = mod->n;
}

int wp_hlo_text_parse(wp_arena *arena, const char *text, size_t len, const char *filename,
                      wp_hlo_text_warn_fn warn, void *user, Xla__HloModuleProto **out,
                      wp_error *err) {
  return wp_hlo_text_parse_config(arena, text, len, filename, warn, user, out, NULL, NULL, err);
}

int wp_hlo_text_parse_located(wp_arena *arena, const char *text, size_t len,
                              const char *filename, wp_hlo_text_warn_fn warn, void *user,
                              Xla__HloModuleProto **out, wp_hlo_locs *locs, wp_error *err) {
  return wp_hlo_text_parse_config(arena, text, len, filename, warn, user, out, NULL, locs, err);
}

int wp_hlo_text_parse_config(wp_arena *arena, const char *text, size_t len,
                             const char *filename, wp_hlo_text_warn_fn warn, void *user,
                             Xla__HloModuleProto **out, Xla__HloModuleConfigView **config,
                             wp_hlo_locs *locs, wp_error *err) {
  htp p = {.src = text, .len = len, .file = filename ? filename : "<text>", .arena = arena,
           .err = err, .warn = warn, .user = user};
  wp_htp_module mod;
  memset(&mod, 0, sizeof mod);
  const char *nul = memchr(text, 0, len);
  if (nul)
    return wp_htp_fail(&p, (size_t)(nul - text), "NUL byte in HLO text");
  if (module(&p, &mod))
    return -1;
  if (locs)
    source_positions(&p, &mod, locs);
  *out = mod.msg;
  if (config)
    *config = wp_htp_module_config(&p, &mod);
  return 0;
}
