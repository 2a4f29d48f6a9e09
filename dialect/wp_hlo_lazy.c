#include "wp_hlo_lazy.h"

#include "wp_pb.h"

#include <stdlib.h>
#include <string.h>

#define MODULE_COMPUTATIONS 3      /* HloModuleProto.computations */
#define COMPUTATION_INSTRUCTIONS 2 /* HloComputationProto.instructions */

static size_t put_varint(uint8_t *out, uint64_t v) {
  size_t n = 0;
  do {
    out[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  return n;
}

/* Growing list of instruction refs for one computation. */
typedef struct ref_list {
  wp_hlo_instr_ref *refs;
  size_t n, cap;
} ref_list;

static int push_ref(ref_list *l, const uint8_t *bytes, size_t len) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 64;
    wp_hlo_instr_ref *r = realloc(l->refs, cap * sizeof *r);
    if (!r)
      return -1;
    l->refs = r;
    l->cap = cap;
  }
  l->refs[l->n++] = (wp_hlo_instr_ref){.bytes = bytes, .len = len};
  return 0;
}

/* Copies computation [P, END) to OUT without its instruction fields, whose
 * bytes go to LIST; returns the bytes written, or -1. Every other field is
 * copied as it is, so protobuf-c still judges it. */
static long strip_computation(const uint8_t *p, const uint8_t *end, uint8_t *out,
                              ref_list *list) {
  uint8_t *w = out;
  while (p < end) {
    const uint8_t *start = p, *payload;
    uint64_t tag;
    size_t n;
    if (wp_pb_next_field(&p, end, &tag, &payload, &n))
      return -1;
    if ((tag >> 3) == COMPUTATION_INSTRUCTIONS && payload) {
      if (push_ref(list, payload, n))
        return -1;
      continue;
    }
    memcpy(w, start, (size_t)(p - start));
    w += p - start;
  }
  return (long)(w - out);
}

/* The module's bytes with each computation stripped of its instructions
 * (never longer than the input), and the instruction refs per computation. */
static int split(wp_arena *arena, const uint8_t *data, size_t len, uint8_t **stripped,
                 size_t *stripped_len, ref_list **lists, size_t *n_lists) {
  uint8_t *out = wp_arena_alloc(arena, len + 1), *w = out;
  uint8_t *comp_buf = NULL;
  ref_list *ls = NULL;
  size_t nl = 0, cap = 0;
  const uint8_t *p = data, *end = data + len;
  int rc = -1;
  while (p < end) {
    const uint8_t *start = p, *payload;
    uint64_t tag;
    size_t n;
    if (wp_pb_next_field(&p, end, &tag, &payload, &n))
      goto out;
    if ((tag >> 3) != MODULE_COMPUTATIONS || !payload) {
      memcpy(w, start, (size_t)(p - start));
      w += p - start;
      continue;
    }
    if (nl == cap) {
      cap = cap ? 2 * cap : 8;
      ref_list *grown = realloc(ls, cap * sizeof *grown);
      if (!grown)
        goto out;
      ls = grown;
    }
    ls[nl++] = (ref_list){0};
    free(comp_buf);
    if (!(comp_buf = malloc(n ? n : 1)))
      goto out;
    long clen = strip_computation(payload, payload + n, comp_buf, &ls[nl - 1]);
    if (clen < 0)
      goto out;
    w += put_varint(w, tag);
    w += put_varint(w, (uint64_t)clen);
    memcpy(w, comp_buf, (size_t)clen);
    w += clen;
  }
  *stripped = out;
  *stripped_len = (size_t)(w - out);
  rc = 0;
out:
  free(comp_buf);
  if (rc) {
    for (size_t i = 0; i < nl; i++)
      free(ls[i].refs);
    free(ls);
    ls = NULL;
    nl = 0;
  }
  *lists = ls;
  *n_lists = nl;
  return rc;
}

/* Unpacks every instruction once (so malformed ones are found now) and
 * keeps what ordering the graph needs. */
static int index_instructions(wp_arena *arena, wp_hlo_lazy_comp *c) {
  wp_arena *scratch = wp_arena_create();
  int rc = 0;
  for (size_t i = 0; i < c->n && rc == 0; i++) {
    wp_hlo_instr_ref *r = &c->ins[i];
    wp_arena_mark_t mark = wp_arena_mark(scratch);
    Xla__HloInstructionProto *ins = wp_hlo_lazy_instr(scratch, r);
    if (!ins || wp_pb_has_field_zero(&ins->base)) {
      rc = -1;
    } else {
      r->id = ins->id;
      r->is_param = strcmp(ins->opcode, "parameter") == 0;
      r->parameter_number = ins->parameter_number;
      r->n_operand_ids = ins->n_operand_ids;
      r->operand_ids = ins->n_operand_ids ? wp_arena_memdup(arena, ins->operand_ids,
                                                            ins->n_operand_ids * sizeof(int64_t))
                                          : NULL;
    }
    wp_arena_release(scratch, mark);
  }
  wp_arena_destroy(scratch);
  return rc;
}

int wp_hlo_lazy_unpack(wp_arena *arena, const void *data, size_t len, wp_hlo_lazy_module *out) {
  memset(out, 0, sizeof *out);
  uint8_t *stripped;
  size_t stripped_len, n_lists;
  ref_list *lists;
  if (split(arena, data, len, &stripped, &stripped_len, &lists, &n_lists))
    return -1;
  int rc = -1;
  Xla__HloModuleProto *msg =
      wp_pb_unpack(arena, &xla__hlo_module_proto__descriptor, stripped, stripped_len);
  if (!msg || msg->n_computations != n_lists || wp_pb_has_field_zero(&msg->base))
    goto out;
  wp_hlo_lazy_comp *comps = wp_arena_alloc(arena, (n_lists + 1) * sizeof *comps);
  for (size_t i = 0; i < n_lists; i++) {
    comps[i].n = lists[i].n;
    comps[i].ins = lists[i].n ? wp_arena_memdup(arena, lists[i].refs,
                                                lists[i].n * sizeof *comps[i].ins)
                              : wp_arena_alloc(arena, sizeof *comps[i].ins);
    if (index_instructions(arena, &comps[i]))
      goto out;
  }
  out->msg = msg;
  out->comps = comps;
  out->bytes = data;
  out->len = len;
  rc = 0;
out:
  for (size_t i = 0; i < n_lists; i++)
    free(lists[i].refs);
  free(lists);
  return rc;
}

Xla__HloInstructionProto *wp_hlo_lazy_instr(wp_arena *scratch, const wp_hlo_instr_ref *ref) {
  return wp_pb_unpack(scratch, &xla__hlo_instruction_proto__descriptor, ref->bytes, ref->len);
}

#define HLOPROTO_MODULE 1 /* HloProto.hlo_module */

/* Splits an HloProto into its module's bytes (several fields merge, as
 * protobuf says: their bytes concatenated) and the rest. protobuf parses
 * each field by itself before merging, so each must scan as a message: a
 * nested field cut across two pieces would otherwise hide its depth from
 * wp_pb_depth, which sees the pieces apart. The merged bytes are checked
 * again. */
static int split_hlo_proto(wp_arena *arena, const uint8_t *data, size_t len, uint8_t **module,
                           size_t *n_module, uint8_t **rest, size_t *n_rest) {
  *rest = wp_arena_alloc(arena, len + 1);
  *module = wp_arena_alloc(arena, len + 1);
  *n_rest = *n_module = 0;
  bool have_module = false;
  const uint8_t *p = data, *end = data + len;
  while (p < end) {
    const uint8_t *start = p, *payload;
    uint64_t tag;
    size_t n;
    if (wp_pb_next_field(&p, end, &tag, &payload, &n))
      return -1;
    if ((tag >> 3) == HLOPROTO_MODULE && payload) {
      if (!wp_pb_scans(payload, n))
        return -1;
      memcpy(*module + *n_module, payload, n);
      *n_module += n;
      have_module = true;
      continue;
    }
    memcpy(*rest + *n_rest, start, (size_t)(p - start));
    *n_rest += (size_t)(p - start);
  }
  if (!have_module)
    return -1;
  return wp_pb_depth(*module, *n_module, WP_HLO_MAX_DEPTH) > WP_HLO_MAX_DEPTH ? -2 : 0;
}

int wp_hlo_lazy_hlo_proto_module(wp_arena *arena, const void *data, size_t len,
                                 wp_hlo_lazy_module *out) {
  memset(out, 0, sizeof *out);
  uint8_t *module, *rest;
  size_t n_module, n_rest;
  int rc = split_hlo_proto(arena, data, len, &module, &n_module, &rest, &n_rest);
  if (rc)
    return rc;
  return wp_hlo_lazy_unpack(arena, module, n_module, out);
}

int wp_hlo_lazy_unpack_hlo_proto(wp_arena *arena, const void *data, size_t len,
                                 wp_hlo_lazy_module *out) {
  memset(out, 0, sizeof *out);
  uint8_t *module, *rest;
  size_t n_module, n_rest;
  /* The wrapper's other fields are checked by unpacking it without the
   * module. */
  int rc = split_hlo_proto(arena, data, len, &module, &n_module, &rest, &n_rest);
  if (rc)
    return rc;
  if (!wp_pb_unpack(arena, &xla__hlo_proto__descriptor, rest, n_rest))
    return -1;
  return wp_hlo_lazy_unpack(arena, module, n_module, out);
}
