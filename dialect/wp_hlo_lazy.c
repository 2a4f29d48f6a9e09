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

/* HloInstructionProto's field numbers (hlo.proto) */
#define INSTR_OPCODE 2
#define INSTR_PARAMETER_NUMBER 9
#define INSTR_ID 35
#define INSTR_OPERAND_IDS 36

static int64_t varint_at(const uint8_t **p) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    uint8_t b = *(*p)++;
    if (shift < 64)
      v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80))
      return (int64_t)v;
  }
}

/* Operand ids of field F (a varint, or a packed run of them) to OUT, or
 * only counted when OUT is NULL. */
static size_t operand_ids(int wire, const uint8_t *payload, size_t n, const uint8_t *value,
                          int64_t *out) {
  if (wire == 0) {
    if (out)
      *out = varint_at(&value);
    return 1;
  }
  size_t k = 0;
  for (const uint8_t *q = payload; q < payload + n; k++) {
    int64_t v = varint_at(&q);
    if (out)
      out[k] = v;
  }
  return k;
}

/* What index_instructions keeps of REF, read from bytes protobuf-c
 * surely unpacks (wp_pb_unpacks_surely) as it would read them: the last
 * value of a scalar field, the opcode up to a NUL, every operand id in
 * order. Spares unpacking most instructions a second time. */
static void index_from_bytes(wp_arena *arena, wp_hlo_instr_ref *r) {
  const uint8_t *end = r->bytes + r->len;
  r->id = 0;
  r->is_param = false;
  r->parameter_number = 0;
  r->n_operand_ids = 0;
  r->operand_ids = NULL;
  for (int pass = 0; pass < 2; pass++) {
    size_t k = 0;
    for (const uint8_t *p = r->bytes; p < end;) {
      const uint8_t *value = p, *pl = NULL;
      uint64_t tag = 0;
      size_t n = 0;
      wp_pb_next_field(&p, end, &tag, &pl, &n);
      while (*value++ & 0x80) /* past the key */
        ;
      switch (tag >> 3) {
      case INSTR_OPCODE:
        if (pass == 0)
          r->is_param = n >= 9 && memcmp(pl, "parameter", 9) == 0 && (n == 9 || pl[9] == 0);
        break;
      case INSTR_PARAMETER_NUMBER:
        if (pass == 0)
          r->parameter_number = varint_at(&value);
        break;
      case INSTR_ID:
        if (pass == 0)
          r->id = varint_at(&value);
        break;
      case INSTR_OPERAND_IDS:
        k += operand_ids((int)(tag & 7), pl, n, value, pass ? r->operand_ids + k : NULL);
        break;
      }
    }
    if (pass == 0 && !(r->n_operand_ids = k))
      return;
    if (pass == 0)
      r->operand_ids = wp_arena_alloc(arena, k * sizeof *r->operand_ids);
  }
}

/* Unpacks every instruction once (so malformed ones are found now), but
 * for those surely well formed, and keeps what ordering the graph
 * needs. */
static int index_instructions(wp_arena *arena, wp_hlo_lazy_comp *c) {
  wp_arena *scratch = wp_arena_create();
  int rc = 0;
  for (size_t i = 0; i < c->n && rc == 0; i++) {
    wp_hlo_instr_ref *r = &c->ins[i];
    r->sure = wp_pb_unpacks_surely(&xla__hlo_instruction_proto__descriptor, r->bytes, r->len);
    if (r->sure) {
      index_from_bytes(arena, r);
      continue;
    }
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

#define INSTR_NAME 1
#define INSTR_SHAPE 3

static char *string_at(wp_arena *scratch, const uint8_t *payload, size_t n) {
  char *s = wp_arena_alloc(scratch, n + 1);
  memcpy(s, payload, n);
  return s;
}

/* Instruction REF built as protobuf-c would unpack it, when its bytes are
 * sure (REF->sure) and hold only a name, an opcode, one shape, an id, a
 * parameter number and operand ids, as most of a model's do: protobuf-c
 * sets up and walks all 60-odd fields of an HloInstructionProto, which
 * cost four times the building here. Its shape is unpacked by protobuf-c.
 * NULL for any other instruction. */
static Xla__HloInstructionProto *plain_instr(wp_arena *scratch, const wp_hlo_instr_ref *ref) {
  if (!ref->sure)
    return NULL;
  const uint8_t *end = ref->bytes + ref->len, *shape = NULL;
  size_t shape_len = 0;
  Xla__HloInstructionProto *ins = wp_arena_alloc(scratch, sizeof *ins);
  xla__hlo_instruction_proto__init(ins);
  for (const uint8_t *p = ref->bytes; p < end;) {
    const uint8_t *value = p, *pl = NULL;
    uint64_t tag = 0;
    size_t n = 0;
    wp_pb_next_field(&p, end, &tag, &pl, &n);
    while (*value++ & 0x80) /* past the key */
      ;
    switch (tag >> 3) {
    case INSTR_NAME:
      ins->name = string_at(scratch, pl, n);
      break;
    case INSTR_OPCODE:
      ins->opcode = string_at(scratch, pl, n);
      break;
    case INSTR_SHAPE: /* twice would merge */
      if (shape)
        return NULL;
      shape = pl;
      shape_len = n;
      break;
    case INSTR_PARAMETER_NUMBER:
      ins->parameter_number = varint_at(&value);
      break;
    case INSTR_ID:
      ins->id = varint_at(&value);
      break;
    case INSTR_OPERAND_IDS:
      break; /* the index read them */
    default:
      return NULL;
    }
  }
  if (shape && !(ins->shape = wp_pb_unpack(scratch, &xla__shape_proto__descriptor, shape,
                                           shape_len)))
    return NULL;
  if (ref->n_operand_ids) {
    ins->n_operand_ids = ref->n_operand_ids;
    ins->operand_ids = wp_arena_memdup(scratch, ref->operand_ids,
                                       ref->n_operand_ids * sizeof *ref->operand_ids);
  }
  return ins;
}

Xla__HloInstructionProto *wp_hlo_lazy_instr(wp_arena *scratch, const wp_hlo_instr_ref *ref) {
  Xla__HloInstructionProto *ins = plain_instr(scratch, ref);
  return ins ? ins
             : wp_pb_unpack(scratch, &xla__hlo_instruction_proto__descriptor, ref->bytes, ref->len);
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
