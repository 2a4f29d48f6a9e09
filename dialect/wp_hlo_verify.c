/* The HLO shape verifier's walk: computations in module order, each
 * computation's parameter numbers, then every instruction against its
 * operands and callees, then the entry computation against the host
 * program shape. It reads the module through a source (wp_hv_source): an
 * unpacked module, or one whose instructions are made one at a time (the
 * lazy protobuf form, the IR), and a callee's signature (its parameters
 * and root) only when some instruction calls it. */
#include "wp_hlo_verify.h"
#include "wp_hlo_verify_internal.h"

#include "wp_hlo_internal.h"
#include "wp_i64map.h"
#include "wp_pb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The instructions last checked stay made, each in an arena of its own,
 * for HV_RECENT instructions: an operand is most often one of them (a
 * chain of adds, a weight's constant just before its use), and a source
 * that makes instructions then makes each about once. */
#define HV_RECENT 4

typedef struct hv_recent {
  wp_arena *arena[HV_RECENT];
  wp_arena_mark_t empty[HV_RECENT];
  size_t at[HV_RECENT]; /* the instruction's index; SIZE_MAX: none */
  const Xla__HloInstructionProto *x[HV_RECENT];
  size_t next; /* the slot to reuse */
} hv_recent;

typedef struct hv_module {
  const wp_hv_source *src;
  const Xla__HloModuleProto *mod; /* src->mod */
  wp_arena *keep;                 /* signatures */
  wp_i64map comp_by_id;           /* computation id -> index */
  wp_hv_sig **sigs;               /* by computation index, made on first call */
  hv_recent recent;               /* of the computation being checked */
} hv_module;

static size_t comp_size(hv_module *m, size_t c) { return m->src->size(m->src->self, c); }

static int64_t id_at(hv_module *m, size_t c, size_t i) { return m->src->id(m->src->self, c, i); }

static bool is_param_at(hv_module *m, size_t c, size_t i) {
  return m->src->is_param(m->src->self, c, i);
}

/* Instruction I of computation C, as it is or made in ARENA; NULL when it
 * cannot be made (the module's reader says so). */
static const Xla__HloInstructionProto *instr_at(hv_module *m, wp_arena *arena, size_t c,
                                                size_t i) {
  return m->src->instr(m->src->self, arena, c, i);
}

static void recent_open(hv_recent *r) {
  for (size_t k = 0; k < HV_RECENT; k++) {
    r->arena[k] = wp_arena_create();
    wp_arena_alloc(r->arena[k], 1); /* a chunk that stays */
    r->empty[k] = wp_arena_mark(r->arena[k]);
    r->at[k] = SIZE_MAX;
  }
}

static void recent_close(hv_recent *r) {
  for (size_t k = 0; k < HV_RECENT; k++)
    wp_arena_destroy(r->arena[k]);
}

/* Forgets every instruction kept (a new computation's indices begin). */
static void recent_clear(hv_recent *r) {
  for (size_t k = 0; k < HV_RECENT; k++) {
    wp_arena_release(r->arena[k], r->empty[k]);
    r->at[k] = SIZE_MAX;
  }
}

/* Instruction I of computation C, to be checked: made in the slot of the
 * one checked longest ago, which it replaces. */
static const Xla__HloInstructionProto *recent_make(hv_module *m, size_t c, size_t i) {
  hv_recent *r = &m->recent;
  size_t k = r->next;
  r->next = (k + 1) % HV_RECENT;
  wp_arena_release(r->arena[k], r->empty[k]);
  r->x[k] = instr_at(m, r->arena[k], c, i);
  r->at[k] = r->x[k] ? i : SIZE_MAX;
  return r->x[k];
}

/* Operand instruction I of computation C: one of those kept, else made in
 * SCRATCH. */
static const Xla__HloInstructionProto *operand_at(hv_module *m, wp_arena *scratch, size_t c,
                                                  size_t i) {
  for (size_t k = 0; k < HV_RECENT; k++)
    if (m->recent.at[k] == i)
      return m->recent.x[k];
  return instr_at(m, scratch, c, i);
}

static void sig_add(wp_hv_sig *sig, const Xla__HloInstructionProto *ins, int64_t root_id) {
  if (ins->id == root_id)
    sig->root = ins->shape;
  if (!strcmp(ins->opcode, "parameter") && ins->parameter_number >= 0 &&
      (uint64_t)ins->parameter_number < sig->n_params) {
    sig->params[ins->parameter_number] = ins->shape;
    sig->param_names[ins->parameter_number] = ins->name;
  }
}

/* The signature of computation C, from its parameter instructions and
 * root, only those made (kept while the module is verified). */
static wp_hv_sig *make_sig(hv_module *m, size_t c) {
  const Xla__HloComputationProto *comp = m->mod->computations[c];
  wp_hv_sig *sig = wp_arena_alloc(m->keep, sizeof *sig);
  sig->name = comp->name;
  size_t n = comp_size(m, c);
  for (size_t i = 0; i < n; i++)
    sig->n_params += is_param_at(m, c, i);
  sig->params = wp_arena_alloc(m->keep, (sig->n_params + 1) * sizeof *sig->params);
  sig->param_names = wp_arena_alloc(m->keep, (sig->n_params + 1) * sizeof *sig->param_names);
  for (size_t i = 0; i < n; i++) {
    if (!is_param_at(m, c, i) && id_at(m, c, i) != comp->root_id)
      continue;
    const Xla__HloInstructionProto *ins = instr_at(m, m->keep, c, i);
    if (ins)
      sig_add(sig, ins, comp->root_id);
  }
  return sig;
}

static const wp_hv_sig *callee_sig(wp_hv *v, int64_t id) {
  hv_module *m = v->user;
  int64_t c;
  if (!wp_i64map_get(&m->comp_by_id, id, &c))
    return NULL;
  if (!m->sigs[c])
    m->sigs[c] = make_sig(m, (size_t)c);
  return m->sigs[c];
}

static void fail_at(wp_hlo_verify_error *e, size_t comp, const Xla__HloInstructionProto *ins) {
  e->comp = comp;
  e->instr_id = ins ? ins->id : -1;
  snprintf(e->instr_name, sizeof e->instr_name, "%s", ins ? ins->name : "");
}

/* Parameter numbers 0..N-1, once each (HloComputation::CreateFromProto):
 * of the N instructions, those IS_PARAM has, numbered NUMBERS. The index
 * of the one at fault in *BAD. */
static int check_params(wp_hv *v, const bool *is_param, const int64_t *numbers, size_t n,
                        size_t *bad) {
  size_t n_params = 0;
  for (size_t i = 0; i < n; i++)
    n_params += is_param[i];
  bool *seen = wp_arena_alloc(v->scratch, n_params + 1);
  for (size_t i = 0; i < n; i++) {
    if (!is_param[i])
      continue;
    int64_t p = numbers[i];
    *bad = i;
    if (p < 0 || (uint64_t)p >= n_params)
      return wp_hv_fail(v, "Invalid parameter number. Expected [0, %zu), got %lld", n_params,
                        (long long)p);
    if (seen[p])
      return wp_hv_fail(v, "Parameter number %lld already allocated in this computation",
                        (long long)p);
    seen[p] = true;
  }
  return 0;
}

/* Each family says whether it knows the opcode; none: it passes. */
int wp_hv_check_instruction(wp_hv *v, const wp_hv_ins *in) {
  static int (*const families[])(wp_hv *, const wp_hv_ins *, bool *) = {
      wp_hv_check_elementwise, wp_hv_check_data_movement, wp_hv_check_contraction,
      wp_hv_check_control};
  for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
    bool handled = false;
    int rc = families[i](v, in, &handled);
    if (rc || handled)
      return rc;
  }
  return 0;
}

/* Checks instruction X, its operands' instructions OPS. */
static int check_one(wp_hv *v, const Xla__HloInstructionProto *x,
                     const Xla__HloInstructionProto *const *ops) {
  for (size_t k = 0; k < x->n_operand_ids; k++)
    if (!ops[k] || !ops[k]->shape)
      return 0; /* the importer says what is wrong */
  if (!x->shape)
    return 0;
  wp_hv_ins in = {.ins = x, .shape = x->shape, .n_ops = x->n_operand_ids, .ops = ops};
  return wp_hv_check_instruction(v, &in);
}

/* The parameter numbers of computation C, from what the source knows
 * without making instructions. */
static int comp_params(wp_hv *v, hv_module *m, size_t c, size_t n, size_t *bad) {
  bool *is_param = wp_arena_alloc(v->scratch, n + 1);
  int64_t *numbers = wp_arena_alloc(v->scratch, (n + 1) * sizeof *numbers);
  for (size_t i = 0; i < n; i++) {
    is_param[i] = is_param_at(m, c, i);
    numbers[i] = is_param[i] ? m->src->param_number(m->src->self, c, i) : 0;
  }
  return check_params(v, is_param, numbers, n, bad);
}

/* One instruction at a time, with its operands (where the source makes
 * instructions, each made for it unless it is one of the few last
 * checked, then given back): a module's instructions need never all be
 * made at once. Parameters have nothing to check. */
static int check_computation(wp_hv *v, hv_module *m, size_t c, wp_hlo_verify_error *e) {
  wp_arena_mark_t mark = wp_arena_mark(v->scratch);
  size_t n = comp_size(m, c), bad = 0;
  int rc = comp_params(v, m, c, n, &bad);
  if (rc)
    fail_at(e, c, instr_at(m, v->scratch, c, bad));
  int64_t *ids = wp_xcalloc(n + 1, sizeof *ids);
  for (size_t i = 0; i < n && !rc; i++)
    ids[i] = id_at(m, c, i);
  wp_hlo_id_index by_id;
  wp_hlo_id_index_init(&by_id, ids, rc ? 0 : n);
  free(ids);
  recent_clear(&m->recent);
  for (size_t i = 0; i < n && !rc; i++) {
    if (is_param_at(m, c, i))
      continue;
    wp_arena_mark_t one = wp_arena_mark(v->scratch);
    const Xla__HloInstructionProto *x = recent_make(m, c, i);
    if (x) {
      const Xla__HloInstructionProto **ops =
          wp_arena_alloc(v->scratch, (x->n_operand_ids + 1) * sizeof *ops);
      for (size_t k = 0; k < x->n_operand_ids; k++) {
        size_t at;
        ops[k] = wp_hlo_id_index_get(&by_id, x->operand_ids[k], &at)
                     ? operand_at(m, v->scratch, c, at)
                     : NULL;
      }
      rc = check_one(v, x, ops);
      if (rc)
        fail_at(e, c, x);
    }
    wp_arena_release(v->scratch, one);
  }
  wp_hlo_id_index_free(&by_id);
  wp_arena_release(v->scratch, mark);
  return rc;
}

/* The entry computation's index, found as the importer finds it. */
static size_t entry_index(const Xla__HloModuleProto *mod) {
  for (size_t i = 0; i < mod->n_computations; i++) {
    const Xla__HloComputationProto *c = mod->computations[i];
    if (mod->entry_computation_id ? c->id == mod->entry_computation_id
                                  : (mod->entry_computation_name[0] &&
                                     !strcmp(c->name, mod->entry_computation_name)))
      return i;
  }
  return SIZE_MAX;
}

/* ShapeVerifier::VerifyEntryComputationLayout against the host program
 * shape (the entry_computation_layout of the text), one parameter at a
 * time: a model's entry computation may have 100,000. */
static int check_entry_layout(wp_hv *v, hv_module *m, wp_hlo_verify_error *e) {
  const Xla__ProgramShapeProto *ps = m->mod->host_program_shape;
  size_t c = entry_index(m->mod);
  if (!ps || c == SIZE_MAX)
    return 0;
  size_t n = comp_size(m, c), n_params = 0;
  int rc = 0;
  for (size_t i = 0; i < n; i++)
    n_params += is_param_at(m, c, i);
  for (size_t i = 0; i < n && !rc && ps->result; i++) {
    wp_arena_mark_t one = wp_arena_mark(v->scratch);
    const Xla__HloInstructionProto *x =
        id_at(m, c, i) == m->mod->computations[c]->root_id ? instr_at(m, v->scratch, c, i) : NULL;
    if (x && x->shape && !wp_hv_compatible(x->shape, ps->result, false))
      rc = wp_hv_fail(v, "Shape of the root instruction of entry computation (%s) should be "
                      "compatible to one specified in module's entry computation layout (%s)",
                      wp_hv_str(v, x->shape, false), wp_hv_str(v, ps->result, false));
    if (!rc)
      wp_arena_release(v->scratch, one);
  }
  if (!rc && ps->n_parameters != n_params)
    rc = wp_hv_fail(v, "Number of parameters in entry computation layout (%zu) must be same as "
                    "number of parameters of entry computation (%zu)", ps->n_parameters,
                    n_params);
  for (size_t i = 0; i < n && !rc; i++) {
    if (!is_param_at(m, c, i))
      continue;
    wp_arena_mark_t one = wp_arena_mark(v->scratch);
    const Xla__HloInstructionProto *x = instr_at(m, v->scratch, c, i);
    int64_t p = x ? x->parameter_number : -1;
    if (x && x->shape && p >= 0 && (uint64_t)p < ps->n_parameters &&
        !wp_hv_compatible(x->shape, ps->parameters[p], false))
      rc = wp_hv_fail(v, "Shape of the entry computation parameter %lld is %s should be "
                      "compatible to the one specified in module's entry computation layout %s",
                      (long long)p, wp_hv_str(v, x->shape, false),
                      wp_hv_str(v, ps->parameters[p], false));
    wp_arena_release(v->scratch, one);
  }
  if (rc)
    fail_at(e, c, NULL);
  return rc;
}

int wp_hv_verify_source(const wp_hv_source *src, wp_hlo_verify_error *e) {
  const Xla__HloModuleProto *mod = src->mod;
  hv_module m = {.src = src, .mod = mod, .keep = wp_arena_create()};
  recent_open(&m.recent);
  wp_i64map_init(&m.comp_by_id);
  m.sigs = wp_arena_alloc(m.keep, (mod->n_computations + 1) * sizeof *m.sigs);
  for (size_t c = 0; c < mod->n_computations; c++)
    wp_i64map_put(&m.comp_by_id, mod->computations[c]->id, (int64_t)c);
  e->msg[0] = '\0';
  wp_hv v = {.scratch = wp_arena_create(), .msg = e->msg, .cap = sizeof e->msg,
             .callee = callee_sig, .user = &m};
  int rc = 0;
  for (size_t c = 0; c < mod->n_computations && !rc; c++)
    rc = check_computation(&v, &m, c, e);
  if (!rc)
    rc = check_entry_layout(&v, &m, e);
  wp_arena_destroy(v.scratch);
  wp_i64map_free(&m.comp_by_id);
  recent_close(&m.recent);
  wp_arena_destroy(m.keep);
  return rc;
}

/* ---- an unpacked module ---- */

static const Xla__HloInstructionProto *proto_ins(void *self, size_t c, size_t i) {
  return ((const Xla__HloModuleProto *)self)->computations[c]->instructions[i];
}
static size_t proto_size(void *self, size_t c) {
  return ((const Xla__HloModuleProto *)self)->computations[c]->n_instructions;
}
static int64_t proto_id(void *self, size_t c, size_t i) { return proto_ins(self, c, i)->id; }
static bool proto_is_param(void *self, size_t c, size_t i) {
  return !strcmp(proto_ins(self, c, i)->opcode, "parameter");
}
static int64_t proto_param_number(void *self, size_t c, size_t i) {
  return proto_ins(self, c, i)->parameter_number;
}
static const Xla__HloInstructionProto *proto_instr(void *self, wp_arena *scratch, size_t c,
                                                   size_t i) {
  (void)scratch;
  return proto_ins(self, c, i);
}

int wp_hlo_verify_module(const Xla__HloModuleProto *mod, wp_hlo_verify_error *e) {
  wp_hv_source src = {.mod = mod, .self = (void *)mod, .size = proto_size, .id = proto_id,
                      .is_param = proto_is_param, .param_number = proto_param_number,
                      .instr = proto_instr};
  return wp_hv_verify_source(&src, e);
}

/* ---- the lazy form: each instruction unpacked when it is needed ---- */

static const wp_hlo_instr_ref *lazy_ref(void *self, size_t c, size_t i) {
  return &((const wp_hlo_lazy_module *)self)->comps[c].ins[i];
}
static size_t lazy_size(void *self, size_t c) {
  return ((const wp_hlo_lazy_module *)self)->comps[c].n;
}
static int64_t lazy_id(void *self, size_t c, size_t i) { return lazy_ref(self, c, i)->id; }
static bool lazy_is_param(void *self, size_t c, size_t i) {
  return lazy_ref(self, c, i)->is_param;
}
static int64_t lazy_param_number(void *self, size_t c, size_t i) {
  return lazy_ref(self, c, i)->parameter_number;
}
static const Xla__HloInstructionProto *lazy_instr(void *self, wp_arena *scratch, size_t c,
                                                  size_t i) {
  return wp_hlo_lazy_instr(scratch, lazy_ref(self, c, i));
}

int wp_hlo_verify_lazy(const wp_hlo_lazy_module *mod, wp_hlo_verify_error *e) {
  wp_hv_source src = {.mod = mod->msg, .self = (void *)mod, .size = lazy_size, .id = lazy_id,
                      .is_param = lazy_is_param, .param_number = lazy_param_number,
                      .instr = lazy_instr};
  return wp_hv_verify_source(&src, e);
}

int wp_hlo_verify_located(const Xla__HloModuleProto *mod, const wp_hlo_locs *locs,
                          const char *filename, wp_error *err) {
  wp_hlo_verify_error e;
  if (wp_hlo_verify_module(mod, &e) == 0)
    return 0;
  wp_hlo_pos at = {0, 0};
  if (locs && e.instr_id >= 0 && (uint64_t)e.instr_id < locs->n_instr)
    at = locs->instr[e.instr_id];
  else if (locs && e.comp < locs->n_comp)
    at = locs->comp[e.comp];
  if (at.line == 0 && locs)
    at = locs->module;
  if (at.line)
    return wp_error_set(err, "%s:%u:%u: %s", filename, at.line, at.col, e.msg);
  return wp_error_set(err, "%s: %s", filename, e.msg);
}

int wp_hlo_verify_import(const wp_hlo_lazy_module *mod, wp_error *err) {
  wp_hlo_verify_error e;
  if (wp_hlo_verify_lazy(mod, &e) == 0)
    return 0;
  const char *comp = e.comp < mod->msg->n_computations ? mod->msg->computations[e.comp]->name : "";
  if (e.instr_id >= 0) /* as the importer's own errors name an instruction */
    return wp_error_set(err, "computation '%s', instruction '%s' (id %lld): %s", comp,
                        e.instr_name, (long long)e.instr_id, e.msg);
  return wp_error_set(err, "computation '%s': %s", comp, e.msg);
}
