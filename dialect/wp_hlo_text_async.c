/* HLO text reader: async ops. A sugared start (`negate-start(...)`) is
 * read as XLA's parser reads it: an async-start calling a computation
 * `async_wrapped` of parameters `async_param`, one per operand, and the
 * wrapped instruction (named after its opcode) as root, its shape the
 * start's second tuple element; the names are run through the NameUniquer
 * rules XLA's HloModule applies as its parser hands it the computations,
 * so they are XLA's. Then XLA's parse-time checks of every async op. */
#include "wp_hlo_text_async.h"

#include "wp_hlo_opcodes.h"
#include "wp_hlo_types.h"
#include "wp_pb.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* ---- XLA's NameUniquer ---- */

/* The numbers taken under one root, and the next to try. */
typedef struct uniq_root {
  const char *root;
  int64_t next;
  int64_t *ids; /* open addressing; used[i] marks a slot */
  bool *used;
  size_t cap, n;
} uniq_root;

struct wp_htp_uniquer {
  uniq_root **roots; /* open addressing by root */
  size_t cap, n;
};

static uint64_t str_hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static uint64_t id_hash(int64_t id) { return (uint64_t)id * 0x9e3779b97f4a7c15ull; }

static bool has_id(const uniq_root *r, int64_t id) {
  if (!r->cap)
    return false;
  for (size_t k = id_hash(id) & (r->cap - 1); r->used[k]; k = (k + 1) & (r->cap - 1))
    if (r->ids[k] == id)
      return true;
  return false;
}

/* Adds ID to R's numbers; false when it was there. */
static bool take_id(wp_arena *a, uniq_root *r, int64_t id) {
  if (2 * (r->n + 1) > r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 8;
    int64_t *ids = wp_arena_alloc(a, cap * sizeof *ids);
    bool *used = wp_arena_alloc(a, cap * sizeof *used);
    for (size_t i = 0; i < r->cap; i++)
      if (r->used[i]) {
        size_t k = id_hash(r->ids[i]) & (cap - 1);
        while (used[k])
          k = (k + 1) & (cap - 1);
        used[k] = true;
        ids[k] = r->ids[i];
      }
    r->ids = ids;
    r->used = used;
    r->cap = cap;
  }
  size_t k = id_hash(id) & (r->cap - 1);
  for (; r->used[k]; k = (k + 1) & (r->cap - 1))
    if (r->ids[k] == id)
      return false;
  r->used[k] = true;
  r->ids[k] = id;
  r->n++;
  return true;
}

static uniq_root *find_root(const wp_htp_uniquer *u, const char *root) {
  if (!u->cap)
    return NULL;
  for (size_t k = str_hash(root) & (u->cap - 1); u->roots[k]; k = (k + 1) & (u->cap - 1))
    if (!strcmp(u->roots[k]->root, root))
      return u->roots[k];
  return NULL;
}

static uniq_root *root_of(wp_arena *a, wp_htp_uniquer *u, const char *root) {
  uniq_root *found = find_root(u, root);
  if (found)
    return found;
  if (2 * (u->n + 1) > u->cap) {
    size_t cap = u->cap ? 2 * u->cap : 64;
    uniq_root **roots = wp_arena_alloc(a, cap * sizeof *roots);
    for (size_t i = 0; i < u->cap; i++)
      if (u->roots[i]) {
        size_t k = str_hash(u->roots[i]->root) & (cap - 1);
        while (roots[k])
          k = (k + 1) & (cap - 1);
        roots[k] = u->roots[i];
      }
    u->roots = roots;
    u->cap = cap;
  }
  size_t k = str_hash(root) & (u->cap - 1);
  while (u->roots[k])
    k = (k + 1) & (u->cap - 1);
  uniq_root *r = wp_arena_alloc(a, sizeof *r);
  r->root = root;
  u->roots[k] = r;
  u->n++;
  return r;
}

wp_htp_uniquer *wp_htp_uniquer_new(wp_arena *a) { return wp_arena_alloc(a, sizeof(wp_htp_uniquer)); }

/* NAME's numeric suffix: ".N" neither first nor last, N a whole number
 * (absl's SimpleAtoi: a sign allowed). */
static bool numeric_suffix(const char *name, size_t *dot, int64_t *v) {
  const char *d = strrchr(name, '.');
  if (!d || d == name || !d[1])
    return false;
  const char *s = d + 1;
  bool neg = *s == '-';
  if (*s == '-' || *s == '+')
    s++;
  if (!*s)
    return false;
  uint64_t x = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9' || x > (UINT64_MAX - 9) / 10)
      return false;
    x = x * 10 + (uint64_t)(*s - '0');
  }
  if (x > (uint64_t)INT64_MAX + neg)
    return false;
  *v = neg ? (int64_t)(0 - x) : (int64_t)x;
  *dot = (size_t)(d - name);
  return true;
}

static const char *suffixed_name(wp_arena *a, const char *root, int64_t id) {
  size_t n = strlen(root) + 24;
  char *out = wp_arena_alloc(a, n);
  snprintf(out, n, "%s.%" PRId64, root, id);
  return out;
}

/* NAME's root and number (0 without one) into *ROOT and *ID. */
static bool split_name(wp_arena *a, const char *name, const char **root, int64_t *id) {
  size_t dot = 0;
  *id = 0;
  bool suffixed = numeric_suffix(name, &dot, id);
  *root = suffixed ? wp_arena_strndup(a, name, dot) : name;
  return suffixed;
}

const char *wp_htp_unique_name(wp_arena *a, wp_htp_uniquer *u, const char *name) {
  const char *root;
  int64_t id;
  bool suffixed = split_name(a, name, &root, &id);
  uniq_root *r = root_of(a, u, root);
  if (!take_id(a, r, id)) { /* taken: the next free number */
    while (!take_id(a, r, r->next))
      r->next++;
    id = r->next++;
  }
  return id == 0 && !suffixed ? root : suffixed_name(a, root, id);
}

const char *wp_htp_unique_peek(wp_arena *a, const wp_htp_uniquer *u, const char *name) {
  const char *root;
  int64_t id;
  bool suffixed = split_name(a, name, &root, &id);
  const uniq_root *r = find_root(u, root);
  if (r && has_id(r, id))
    for (id = r->next; has_id(r, id); id++)
      ;
  return id == 0 && !suffixed ? root : suffixed_name(a, root, id);
}

/* ---- reading the sugared forms ---- */

static const struct {
  const char *suffix, *async;
} k_suffixes[] = {{"-start", "async-start"}, {"-update", "async-update"}, {"-done", "async-done"}};

int wp_htp_async_opcode(htp *p, size_t at, const char *opcode, const char **async,
                        const char **wrapped) {
  size_t n = strlen(opcode);
  for (size_t i = 0; i < sizeof k_suffixes / sizeof k_suffixes[0]; i++) {
    size_t s = strlen(k_suffixes[i].suffix);
    if (n <= s || strcmp(opcode + n - s, k_suffixes[i].suffix) != 0)
      continue;
    char *w = wp_arena_strndup(p->arena, opcode, n - s);
    if (!wp_hlo_opcode_by_xla(w) && strcmp(w, "parameter") != 0)
      return wp_htp_fail(p, at, "expects async wrapped opcode but sees: %s, error: Unknown "
                         "opcode: %s", opcode, w);
    /* XLA's parser would read their own operands a second time */
    if (!strcmp(w, "parameter") || !strcmp(w, "constant") || !strncmp(w, "async-", 6))
      return wp_htp_fail(p, at, "%s: an async op cannot wrap %s", opcode, w);
    *async = k_suffixes[i].async;
    *wrapped = w;
    return 1;
  }
  return 0;
}

static bool is(const Xla__HloInstructionProto *m, const char *opcode) {
  return !strcmp(m->opcode, opcode);
}

/* ((operands), outputs, state...) */
static bool start_shape(const Xla__ShapeProto *s) {
  return s->element_type == WP_TUPLE && s->n_tuple_shapes >= 2 &&
         s->tuple_shapes[0]->element_type == WP_TUPLE;
}

static int check_start_shape(htp *p, size_t at, const Xla__ShapeProto *s) {
  if (start_shape(s))
    return 0;
  return wp_htp_fail(p, at, "AsyncStart expects the op shape to be in the form of "
                     "((async-operands), async-outputs, state).");
}

int wp_htp_async_read_check(htp *p, const wp_htp_instr *ins, bool sugared) {
  const Xla__HloInstructionProto *m = ins->msg;
  if (is(m, "async-start")) {
    if (check_start_shape(p, ins->at, m->shape))
      return -1;
    if (!sugared && !wp_htp_given(ins, "calls"))
      return wp_htp_fail(p, ins->at, "async-start: attribute calls is expected but not seen");
  } else if ((is(m, "async-update") || is(m, "async-done")) && ins->n_operands != 1) {
    return wp_htp_fail(p, ins->at, "AsyncUpdate and AsyncDone expect a single async op as "
                       "their operand.");
  }
  return 0;
}

static void push_sugar(htp *p, wp_htp_comp *c, const char *wrapped, size_t comp) {
  wp_htp_sugar s = {c->n_ins, wrapped, comp};
  WP_HTP_PUSH(p, c->sugar, c->n_sugar, c->cap_sugar, s);
}

/* A parameter of the wrapped computation; its shape comes later. */
static int wrapped_param(htp *p, wp_htp_module *mod, wp_htp_comp *wc, size_t i, size_t at) {
  wp_htp_instr param;
  memset(&param, 0, sizeof param);
  param.msg = wp_pb_new(p->arena, &xla__hlo_instruction_proto__descriptor);
  param.at = at;
  param.msg->name = (char *)wp_htp_unique_name(p->arena, mod->instr_names, "async_param");
  param.msg->opcode = "parameter";
  param.msg->parameter_number = (int64_t)i;
  if (wp_htp_instr_finish(p, &param))
    return -1;
  WP_HTP_PUSH(p, wc->ins, wc->n_ins, wc->cap_ins, param);
  return 0;
}

/* What XLA's parser keeps on the start, not on the wrapped instruction:
 * moved from INNER's message to START. The instruction-wide attributes
 * (metadata, backend_config, frontend_attributes, statistics, origin) it
 * sets on both. */
static void split_fields(Xla__HloInstructionProto *start, Xla__HloInstructionProto *inner) {
  if (strcmp(inner->async_execution_thread, "main") != 0) /* XLA's ToProto: "" for main */
    start->async_execution_thread = inner->async_execution_thread;
  inner->async_execution_thread = "";
  start->sharding = inner->sharding;
  inner->sharding = NULL;
  start->parameter_replication = inner->parameter_replication;
  inner->parameter_replication = NULL;
  /* custom-call and fusion take output_to_operand_aliasing themselves */
  if (!is(inner, "custom-call") && !is(inner, "fusion")) {
    start->n_output_operand_aliasing = inner->n_output_operand_aliasing;
    start->output_operand_aliasing = inner->output_operand_aliasing;
    inner->n_output_operand_aliasing = 0;
  }
  start->metadata = inner->metadata;
  start->backend_config = inner->backend_config;
  start->frontend_attributes = inner->frontend_attributes;
  start->statistics_viz = inner->statistics_viz;
  start->original_value = inner->original_value;
}

int wp_htp_async_wrap(htp *p, wp_htp_module *mod, wp_htp_comp *c, wp_htp_instr *ins,
                      const char *wrapped) {
  Xla__HloInstructionProto *m = ins->msg;
  if (check_start_shape(p, ins->at, m->shape))
    return -1;
  if (!mod->comp_names) { /* the first: the names so far, in XLA's order */
    mod->comp_names = wp_htp_uniquer_new(p->arena);
    mod->instr_names = wp_htp_uniquer_new(p->arena);
    for (size_t i = 0; i < mod->n; i++)
      wp_htp_async_names(p, mod, &mod->comps[i]);
  }
  Xla__HloInstructionProto *start = wp_pb_new(p->arena, &xla__hlo_instruction_proto__descriptor);
  start->name = m->name;
  start->opcode = "async-start";
  start->shape = m->shape;
  split_fields(start, m);

  wp_htp_comp wc;
  memset(&wc, 0, sizeof wc);
  wc.msg = wp_pb_new(p->arena, &xla__hlo_computation_proto__descriptor);
  wc.msg->name = (char *)wp_htp_unique_name(p->arena, mod->comp_names, "async_wrapped");
  wc.msg->execution_thread = start->async_execution_thread; /* as XLA's start sets it */
  wc.at = ins->at;
  wc.wrapped = true;
  for (size_t i = 0; i < ins->n_operands; i++)
    if (wrapped_param(p, mod, &wc, i, ins->at))
      return -1;

  /* the wrapped instruction: what was read, on the parameters */
  wp_htp_instr inner = *ins;
  m->name = (char *)wp_htp_unique_name(p->arena, mod->instr_names, wrapped);
  m->shape = start->shape->tuple_shapes[1];
  inner.root = true;
  inner.operands = wp_arena_alloc(p->arena, (ins->n_operands + 1) * sizeof *inner.operands);
  inner.operand_shapes =
      wp_arena_alloc(p->arena, (ins->n_operands + 1) * sizeof *inner.operand_shapes);
  inner.cap_operands = ins->n_operands;
  for (size_t i = 0; i < ins->n_operands; i++)
    inner.operands[i] = (wp_htp_ref){wc.ins[i].msg->name, ins->at};
  inner.preds = NULL; /* control predecessors are the start's */
  inner.n_preds = inner.cap_preds = 0;
  if (wp_htp_instr_finish(p, &inner))
    return -1;
  WP_HTP_PUSH(p, wc.ins, wc.n_ins, wc.cap_ins, inner);
  WP_HTP_PUSH(p, mod->comps, mod->n, mod->cap, wc);
  push_sugar(p, c, wrapped, mod->n - 1);

  /* the start keeps its name, shape, operands and control predecessors */
  wp_htp_instr s;
  memset(&s, 0, sizeof s);
  s.msg = start;
  s.at = ins->at;
  s.root = ins->root;
  s.operands = ins->operands;
  s.operand_shapes = ins->operand_shapes;
  s.n_operands = ins->n_operands;
  s.cap_operands = ins->cap_operands;
  s.preds = ins->preds;
  s.n_preds = ins->n_preds;
  s.cap_preds = ins->cap_preds;
  *ins = s;
  return 0;
}

void wp_htp_async_sugared(htp *p, wp_htp_comp *c, const char *wrapped) {
  push_sugar(p, c, wrapped, SIZE_MAX);
}

void wp_htp_async_names(htp *p, wp_htp_module *mod, const wp_htp_comp *c) {
  if (!mod->comp_names) /* no sugared start yet: nothing needs the names */
    return;
  wp_htp_unique_name(p->arena, mod->comp_names, c->msg->name);
  for (size_t i = 0; i < c->n_ins; i++)
    wp_htp_unique_name(p->arena, mod->instr_names, c->ins[i].msg->name);
  /* a computation written later under a name given to a wrapped one:
   * XLA would rename the written one; this reader keeps written names, so
   * the wrapped one takes the next name instead */
  if (strncmp(c->msg->name, "async_wrapped", 13) != 0)
    return;
  for (size_t i = 0; i < mod->n; i++)
    if (mod->comps[i].wrapped && !strcmp(mod->comps[i].msg->name, c->msg->name) &&
        &mod->comps[i] != c)
      mod->comps[i].msg->name = (char *)wp_htp_unique_name(p->arena, mod->comp_names, "async_wrapped");
}

/* The instruction with id ID in C (ids are consecutive in a computation). */
static const wp_htp_instr *by_id(const wp_htp_comp *c, int64_t id) {
  if (!c->n_ins)
    return NULL;
  int64_t k = id - c->ins[0].msg->id;
  return k >= 0 && (uint64_t)k < c->n_ins ? &c->ins[k] : NULL;
}

void wp_htp_async_param_shapes(wp_htp_module *mod, const wp_htp_comp *c) {
  for (size_t i = 0; i < c->n_sugar; i++) {
    if (c->sugar[i].comp == SIZE_MAX)
      continue;
    const Xla__HloInstructionProto *start = c->ins[c->sugar[i].ins].msg;
    wp_htp_comp *wc = &mod->comps[c->sugar[i].comp];
    for (size_t k = 0; k < start->n_operand_ids && k < wc->n_ins; k++) {
      const wp_htp_instr *o = by_id(c, start->operand_ids[k]);
      wc->ins[k].msg->shape = o ? o->msg->shape : NULL;
    }
  }
}

/* ---- the checks once everything is resolved ---- */

/* Every instruction by id, and its computation's index. */
typedef struct async_index {
  wp_htp_instr **ins;
  size_t *comp;
  size_t n;
} async_index;

static void index_module(htp *p, const wp_htp_module *mod, async_index *x) {
  x->n = 0;
  for (size_t i = 0; i < mod->n; i++)
    x->n += mod->comps[i].n_ins;
  x->ins = wp_arena_alloc(p->arena, (x->n + 1) * sizeof *x->ins);
  x->comp = wp_arena_alloc(p->arena, (x->n + 1) * sizeof *x->comp);
  for (size_t i = 0; i < mod->n; i++)
    for (size_t k = 0; k < mod->comps[i].n_ins; k++) {
      int64_t id = mod->comps[i].ins[k].msg->id;
      if (id >= 0 && (uint64_t)id < x->n) {
        x->ins[id] = &mod->comps[i].ins[k];
        x->comp[id] = i;
      }
    }
}

static const wp_htp_instr *lookup(const async_index *x, int64_t id) {
  return id >= 0 && (uint64_t)id < x->n ? x->ins[id] : NULL;
}

/* The computation with id ID (a computation has its root's id). */
static const wp_htp_comp *comp_of(const wp_htp_module *mod, const async_index *x, int64_t id) {
  return lookup(x, id) ? &mod->comps[x->comp[id]] : NULL;
}

/* What C's sugared op at instruction K wraps, or NULL. */
static const char *sugar_at(const wp_htp_comp *c, size_t k) {
  size_t lo = 0, hi = c->n_sugar; /* recorded in instruction order */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (c->sugar[mid].ins < k)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < c->n_sugar && c->sugar[lo].ins == k ? c->sugar[lo].wrapped : NULL;
}

static bool same_shape(htp *p, const Xla__ShapeProto *a, const Xla__ShapeProto *b) {
  ProtobufCBinaryData x = wp_pb_pack(p->arena, &a->base), y = wp_pb_pack(p->arena, &b->base);
  return x.len == y.len && (!x.len || !memcmp(x.data, y.data, x.len));
}

static const char *thread_name(const char *t) { return t[0] ? t : "main"; }

/* An async-update or -done U (instruction K of C) against its chain's
 * start, as XLA's parser checks it; then drops what only the start holds. */
static int check_chain_op(htp *p, const wp_htp_module *mod, const async_index *x,
                          const wp_htp_comp *c, size_t k) {
  wp_htp_instr *u = &c->ins[k];
  Xla__HloInstructionProto *m = u->msg;
  const wp_htp_instr *prev = m->n_operand_ids ? lookup(x, m->operand_ids[0]) : NULL;
  if (!prev || !(is(prev->msg, "async-start") || is(prev->msg, "async-update")))
    return wp_htp_fail(p, u->at, "AsyncUpdate and AsyncDone expect a single async op as "
                       "their operand.");
  if (is(m, "async-update") && !same_shape(p, m->shape, prev->msg->shape))
    return wp_htp_fail(p, u->at, "AsyncUpdate expects the op shape to be the same as the "
                       "operand shape.");
  const wp_htp_instr *start = prev;
  for (size_t steps = 0; start && is(start->msg, "async-update"); steps++)
    start = steps < x->n && start->msg->n_operand_ids ? lookup(x, start->msg->operand_ids[0])
                                                      : NULL;
  if (!start || !is(start->msg, "async-start") || !start->msg->n_called_computation_ids)
    return wp_htp_fail(p, u->at, "AsyncUpdate and AsyncDone expect a single async op as "
                       "their operand.");
  const wp_htp_comp *wc = comp_of(mod, x, start->msg->called_computation_ids[0]);
  const char *wrapped = sugar_at(c, k);
  if (wrapped && wc && strcmp(wc->ins[wc->root].msg->opcode, wrapped) != 0)
    return wp_htp_fail(p, u->at, "Expect async wrapped opcode to be %s, but got %s",
                       wc->ins[wc->root].msg->opcode, wrapped);
  const char *thread = thread_name(start->msg->async_execution_thread);
  if (wp_htp_given(u, "async_execution_thread") && strcmp(m->async_execution_thread, thread))
    return wp_htp_fail(p, u->at, "Expect async_execution_thread to be %s, but got %s", thread,
                       m->async_execution_thread);
  if (m->n_called_computation_ids &&
      (m->n_called_computation_ids != 1 ||
       m->called_computation_ids[0] != start->msg->called_computation_ids[0])) {
    const wp_htp_comp *got = comp_of(mod, x, m->called_computation_ids[0]);
    return wp_htp_fail(p, u->at, "Expect async_wrapped_computation to be %s, but got %s",
                       wc ? wc->msg->name : "?", got ? got->msg->name : "?");
  }
  /* XLA keeps both on the start alone */
  m->async_execution_thread = "";
  m->n_called_computation_ids = 0;
  return 0;
}

int wp_htp_async_finish(htp *p, wp_htp_module *mod) {
  async_index x;
  index_module(p, mod, &x);
  size_t *callers = wp_arena_alloc(p->arena, (mod->n + 1) * sizeof *callers);
  /* sugared starts call what was made for them */
  for (size_t i = 0; i < mod->n; i++)
    for (size_t s = 0; s < mod->comps[i].n_sugar; s++) {
      const wp_htp_sugar *sg = &mod->comps[i].sugar[s];
      if (sg->comp == SIZE_MAX)
        continue;
      Xla__HloInstructionProto *m = mod->comps[i].ins[sg->ins].msg;
      m->n_called_computation_ids = 1;
      m->called_computation_ids = wp_arena_alloc(p->arena, sizeof(int64_t));
      m->called_computation_ids[0] = mod->comps[sg->comp].msg->id;
    }
  for (size_t i = 0; i < mod->n; i++)
    for (size_t k = 0; k < mod->comps[i].n_ins; k++) {
      const wp_htp_comp *c = &mod->comps[i];
      Xla__HloInstructionProto *m = c->ins[k].msg;
      if (is(m, "async-start") && m->n_called_computation_ids) {
        int64_t id = m->called_computation_ids[0];
        if (!lookup(&x, id))
          continue;
        if (++callers[x.comp[id]] > 1)
          return wp_htp_fail(p, c->ins[k].at, "Computation %s is called by more than one "
                             "async op", mod->comps[x.comp[id]].msg->name);
        if (!strcmp(m->async_execution_thread, "main")) /* XLA's ToProto: "" for main */
          m->async_execution_thread = "";
        if (m->async_execution_thread[0]) /* XLA's start sets its computation's thread */
          mod->comps[x.comp[id]].msg->execution_thread = m->async_execution_thread;
      } else if ((is(m, "async-update") || is(m, "async-done")) &&
                 check_chain_op(p, mod, &x, c, k)) {
        return -1;
      }
    }
  return 0;
}
