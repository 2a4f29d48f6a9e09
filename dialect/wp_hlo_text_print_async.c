/* HLO text printer: async ops in XLA's sugared form. XLA's printer
 * (syntax_sugar_async_ops, on by default) writes `negate-start(...)` for
 * an async-start whose computation is one instruction over parameters,
 * with that instruction's attributes, and leaves the computation out;
 * its -update and -done follow. Here the form is written only where
 * reading it back gives the same module: the computation is called by
 * this start alone, the instruction takes the parameters in order, and
 * whatever the reader would move to or copy from the start is already
 * there. Otherwise the start prints as async-start with calls=. */
#include "wp_hlo_text_async.h"

#include "wp_pb.h"

#include <stdio.h>
#include <string.h>

static bool is(const Xla__HloInstructionProto *m, const char *opcode) {
  return !strcmp(m->opcode, opcode);
}

static bool same_bytes(hpr *w, const ProtobufCMessage *a, const ProtobufCMessage *b) {
  if (!a || !b) {
    ProtobufCBinaryData x = a ? wp_pb_pack(w->arena, a) : (ProtobufCBinaryData){0, NULL};
    ProtobufCBinaryData y = b ? wp_pb_pack(w->arena, b) : (ProtobufCBinaryData){0, NULL};
    return !x.len && !y.len; /* absent and empty are alike */
  }
  ProtobufCBinaryData x = wp_pb_pack(w->arena, a), y = wp_pb_pack(w->arena, b);
  return x.len == y.len && (!x.len || !memcmp(x.data, y.data, x.len));
}

/* A and B: protobuf-c messages (or NULL), whose first member is their base. */
#define SAME(w, a, b)                                                                  \
  same_bytes((w), (const ProtobufCMessage *)(const void *)(a),                         \
             (const ProtobufCMessage *)(const void *)(b))

static const Xla__HloComputationProto *comp_by_id(hpr *w, int64_t id) {
  int64_t i;
  if (!wp_i64map_get(&w->comp_index, id, &i))
    return NULL;
  return w->mod->computations[i];
}

/* A parameter with nothing but its name, number and shape. */
static bool bare_parameter(hpr *w, const Xla__HloInstructionProto *m) {
  Xla__HloInstructionProto r = *m;
  r.name = r.opcode = "";
  r.shape = NULL;
  r.id = r.parameter_number = 0;
  if (SAME(w, r.metadata, NULL))
    r.metadata = NULL;
  if (SAME(w, r.frontend_attributes, NULL))
    r.frontend_attributes = NULL;
  if (SAME(w, r.statistics_viz, NULL))
    r.statistics_viz = NULL;
  return !wp_pb_pack(w->arena, &r.base).len;
}

/* Does the wrapped instruction ROOT hold only what the reader gives it
 * from start S's text? */
static bool root_matches(hpr *w, const Xla__HloInstructionProto *s,
                         const Xla__HloInstructionProto *root) {
  bool own_aliasing = is(root, "custom-call") || is(root, "fusion");
  return !root->sharding && !root->parameter_replication && !root->n_control_predecessor_ids &&
         (own_aliasing || !root->n_output_operand_aliasing) &&
         !root->async_execution_thread[0] && SAME(w, root->metadata, s->metadata) &&
         SAME(w, root->frontend_attributes, s->frontend_attributes) &&
         SAME(w, root->statistics_viz, s->statistics_viz) &&
         SAME(w, root->original_value, s->original_value) &&
         root->backend_config.len == s->backend_config.len &&
         (!root->backend_config.len ||
          !memcmp(root->backend_config.data, s->backend_config.data, root->backend_config.len));
}

/* The computation of async-start S (in OUTER) when it prints sugared,
 * else NULL. */
static const Xla__HloComputationProto *start_sugar(hpr *w, const wp_hpr_comp *outer,
                                                   const Xla__HloInstructionProto *s) {
  if (s->n_called_computation_ids != 1 || !s->shape || s->shape->n_tuple_shapes < 2)
    return NULL;
  const Xla__HloComputationProto *c = comp_by_id(w, s->called_computation_ids[0]);
  if (!c || c->n_instructions != s->n_operand_ids + 1 ||
      (w->mod->entry_computation_id ? c->id == w->mod->entry_computation_id
                                    : !strcmp(c->name, w->mod->entry_computation_name)))
    return NULL;
  const Xla__HloInstructionProto *root = NULL;
  for (size_t i = 0; i < c->n_instructions; i++)
    if (c->instructions[i]->id == c->root_id)
      root = c->instructions[i];
  if (!root || is(root, "parameter") || is(root, "constant") || !strncmp(root->opcode, "async-", 6) ||
      root->n_operand_ids != s->n_operand_ids || !root->shape ||
      !SAME(w, root->shape, s->shape->tuple_shapes[1]) || !root_matches(w, s, root))
    return NULL;
  /* the start's thread is the computation's (empty and "main" alike) */
  const char *t = s->async_execution_thread, *ct = c->execution_thread;
  if (strcmp(t[0] ? t : "main", ct[0] ? ct : "main") != 0)
    return NULL;
  /* the parameters first, in order, each once, bare, of the operands'
   * shapes; the root last: as the reader makes them */
  if (c->instructions[c->n_instructions - 1] != root)
    return NULL;
  for (size_t k = 0; k < root->n_operand_ids; k++) {
    const Xla__HloInstructionProto *param = c->instructions[k];
    if (param->id != root->operand_ids[k])
      return NULL;
    const Xla__HloInstructionProto *operand = wp_hpr_instr(outer, s->operand_ids[k]);
    if (!param || !operand || !is(param, "parameter") || param->parameter_number != (int64_t)k ||
        !bare_parameter(w, param) || !SAME(w, param->shape, operand->shape))
      return NULL;
  }
  return c;
}

/* Per computation of the module: could it print sugared (ELIGIBLE, with
 * the index of the computation its start is in and the start's place
 * there), and are its names those the reader would give it (NAMED). */
typedef struct async_plan {
  bool *eligible, *named;
  size_t *caller, *place;
} async_plan;

static void count_callers(const Xla__HloModuleProto *m, wp_i64map *callers) {
  for (size_t i = 0; i < m->n_computations; i++)
    for (size_t k = 0; k < m->computations[i]->n_instructions; k++) {
      const Xla__HloInstructionProto *ins = m->computations[i]->instructions[k];
      if (is(ins, "async-update") || is(ins, "async-done"))
        continue; /* older protos name the chain's computation on each op */
      for (size_t j = 0; j < ins->n_called_computation_ids; j++) {
        int64_t n = 0;
        wp_i64map_get(callers, ins->called_computation_ids[j], &n);
        wp_i64map_put(callers, ins->called_computation_ids[j], n + 1);
      }
    }
}

/* Marks the computations of C's (index J) async-starts that could print
 * sugared; false when C has no async-start. */
static bool find_eligible(hpr *w, const wp_i64map *callers, size_t j, async_plan *plan) {
  const Xla__HloComputationProto *c = w->mod->computations[j];
  size_t starts = 0;
  for (size_t k = 0; k < c->n_instructions; k++)
    starts += is(c->instructions[k], "async-start");
  if (!starts)
    return false;
  wp_hpr_comp hc = {.msg = c};
  wp_i64map_init(&hc.by_id);
  for (size_t k = 0; k < c->n_instructions; k++)
    wp_i64map_put(&hc.by_id, c->instructions[k]->id, (int64_t)k);
  for (size_t k = 0; k < c->n_instructions; k++) {
    const Xla__HloInstructionProto *s = c->instructions[k];
    const Xla__HloComputationProto *wc = is(s, "async-start") ? start_sugar(w, &hc, s) : NULL;
    int64_t n = 0, i;
    if (wc && wp_i64map_get(callers, wc->id, &n) && n == 1 &&
        wp_i64map_get(&w->comp_index, wc->id, &i) && (size_t)i < j) {
      plan->eligible[i] = true;
      plan->caller[i] = j;
      plan->place[i] = k;
    }
  }
  wp_i64map_free(&hc.by_id);
  return true;
}

/* The names the reader gives a computation it makes (async_wrapped,
 * async_param ..., the opcode, through XLA's NameUniquer) against those
 * computation I has, every name taken in module order as the reader
 * takes them. */
static void check_names(hpr *w, async_plan *plan) {
  wp_htp_uniquer *comps = wp_htp_uniquer_new(w->arena), *instrs = wp_htp_uniquer_new(w->arena);
  for (size_t i = 0; i < w->mod->n_computations; i++) {
    const Xla__HloComputationProto *c = w->mod->computations[i];
    bool ok = plan->eligible[i] &&
              !strcmp(wp_htp_unique_peek(w->arena, comps, "async_wrapped"), c->name);
    wp_htp_unique_name(w->arena, comps, c->name);
    for (size_t k = 0; k < c->n_instructions; k++) {
      const Xla__HloInstructionProto *ins = c->instructions[k];
      const char *made = k + 1 < c->n_instructions ? "async_param" : ins->opcode;
      ok = ok && !strcmp(wp_htp_unique_peek(w->arena, instrs, made), ins->name);
      wp_htp_unique_name(w->arena, instrs, ins->name);
    }
    plan->named[i] = ok;
  }
}

static bool name_unique(const Xla__HloModuleProto *m, size_t i) {
  for (size_t k = 0; k < m->n_computations; k++)
    if (k != i && !strcmp(m->computations[k]->name, m->computations[i]->name))
      return false;
  return true;
}

void wp_hpr_async_hidden(hpr *w, const Xla__HloModuleProto *m, wp_i64map *hidden) {
  size_t n = m->n_computations;
  async_plan plan = {wp_arena_alloc(w->arena, (n + 1) * sizeof(bool)),
                     wp_arena_alloc(w->arena, (n + 1) * sizeof(bool)),
                     wp_arena_alloc(w->arena, (n + 1) * sizeof(size_t)),
                     wp_arena_alloc(w->arena, (n + 1) * sizeof(size_t))};
  wp_i64map callers; /* computation id -> how many instructions call it */
  wp_i64map_init(&callers);
  count_callers(m, &callers);
  bool any = false;
  for (size_t j = 0; j < n; j++)
    any |= find_eligible(w, &callers, j, &plan);
  wp_i64map_free(&callers);
  if (!any)
    return;
  check_names(w, &plan);
  /* the reader puts the computations it makes for a computation's starts
   * right before it, in the starts' order: those that stand so, last
   * before their caller, print sugared */
  for (size_t j = 0; j < n; j++)
    for (size_t i = j, next_place = SIZE_MAX; i-- > 0;) {
      if (!plan.eligible[i] || plan.caller[i] != j || plan.place[i] >= next_place ||
          !plan.named[i] || !name_unique(m, i))
        break;
      wp_i64map_put(hidden, m->computations[i]->id, 1);
      next_place = plan.place[i];
    }
}

/* The chain's async-start of async-update or -done M (in C), or NULL. */
static const Xla__HloInstructionProto *chain_start(const wp_hpr_comp *c,
                                                   const Xla__HloInstructionProto *m) {
  const Xla__HloInstructionProto *s = m;
  for (size_t steps = 0; s && steps <= c->msg->n_instructions; steps++) {
    if (is(s, "async-start"))
      return s;
    if (!(is(s, "async-update") || is(s, "async-done")) || !s->n_operand_ids)
      return NULL;
    s = wp_hpr_instr(c, s->operand_ids[0]);
  }
  return NULL;
}

const Xla__HloComputationProto *wp_hpr_async_sugar(hpr *w, const wp_i64map *hidden,
                                                   const wp_hpr_comp *c,
                                                   const Xla__HloInstructionProto *m) {
  if (!hidden->count || !(is(m, "async-start") || is(m, "async-update") || is(m, "async-done")))
    return NULL;
  const Xla__HloInstructionProto *s = chain_start(c, m);
  int64_t v;
  if (!s || s->n_called_computation_ids != 1 ||
      !wp_i64map_get(hidden, s->called_computation_ids[0], &v))
    return NULL;
  return comp_by_id(w, s->called_computation_ids[0]);
}

void wp_hpr_async_chain_implied(const wp_hpr_comp *c, Xla__HloInstructionProto *r) {
  if (!(is(r, "async-update") || is(r, "async-done")))
    return;
  const Xla__HloInstructionProto *s = chain_start(c, r);
  if (!s)
    return;
  if (r->n_called_computation_ids == 1 && s->n_called_computation_ids == 1 &&
      r->called_computation_ids[0] == s->called_computation_ids[0])
    r->n_called_computation_ids = 0;
  if (!strcmp(r->async_execution_thread, s->async_execution_thread))
    r->async_execution_thread = "";
}

int wp_hpr_async_start_attrs(hpr *w, const wp_hpr_comp *c, Xla__HloInstructionProto *r,
                             const Xla__HloComputationProto *wrapped) {
  /* the start's own first: its thread (and aliasing, when it holds it) */
  if (r->async_execution_thread[0]) {
    wp_hpr_puts(w, ", async_execution_thread=");
    wp_hpr_string(w, r->async_execution_thread, strlen(r->async_execution_thread));
  }
  r->async_execution_thread = "";
  if (r->n_output_operand_aliasing && wp_hpr_operand_aliasing(w, r))
    return -1;
  /* then the wrapped instruction's attributes; what it shares with the
   * start (metadata, backend_config ...) the start prints once, after */
  wp_hpr_comp wc = {.msg = wrapped};
  wp_i64map_init(&wc.by_id);
  const Xla__HloInstructionProto *root = NULL;
  for (size_t i = 0; i < wrapped->n_instructions; i++) {
    wp_i64map_put(&wc.by_id, wrapped->instructions[i]->id, (int64_t)i);
    if (wrapped->instructions[i]->id == wrapped->root_id)
      root = wrapped->instructions[i];
  }
  Xla__HloInstructionProto rr = *root;
  rr.metadata = rr.original_value = NULL;
  rr.frontend_attributes = NULL;
  rr.statistics_viz = NULL;
  rr.backend_config.len = 0;
  int rc = wp_hpr_attrs(w, &wc, &rr);
  wp_i64map_free(&wc.by_id);
  if (rc)
    return -1;
  /* what the wrapped instruction's attributes do not carry */
  rr.name = rr.opcode = "";
  rr.shape = NULL;
  rr.id = 0;
  rr.n_operand_ids = 0;
  char what[300];
  snprintf(what, sizeof what, "instruction '%s' (wrapped by '%s')", root->name, r->name);
  wp_hpr_leftover(w, &rr.base, what);
  /* the start's calls= is the sugared form itself */
  r->n_called_computation_ids = 0;
  return wp_hpr_attrs(w, c, r);
}
