/* HloModuleProto / HloProto -> hlo dialect. */
#include "wp_hlo.h"

#include "hlo.pb-c.h"
#include "wp_hlo_internal.h"
#include "wp_hlo_lazy.h"
#include "wp_hlo_literal.h"
#include "wp_hlo_opcodes.h"
#include "wp_hlo_types.h"
#include "wp_hlo_verify.h"
#include "wp_hlo_weight.h"
#include "wp_i64map.h"
#include "wp_mlir_util.h"
#include "wp_pb.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- container sniffing ---- */

static int read_varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  *v = 0;
  for (int shift = 0; shift < 64 && *p < end; shift += 7) {
    uint8_t b = *(*p)++;
    *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80))
      return 0;
  }
  return -1;
}

/* Finds the first top-level field 1 of length-delimited wire type. */
static int find_field1(const uint8_t *p, size_t len, const uint8_t **out,
                       size_t *outlen) {
  const uint8_t *end = p + len;
  while (p < end) {
    uint64_t tag, v;
    if (read_varint(&p, end, &tag))
      return -1;
    unsigned wire = tag & 7;
    if (wire == 0) {
      if (read_varint(&p, end, &v)) return -1;
    } else if (wire == 1) {
      if (end - p < 8) return -1;
      p += 8;
    } else if (wire == 5) {
      if (end - p < 4) return -1;
      p += 4;
    } else if (wire == 2) {
      if (read_varint(&p, end, &v) || v > (uint64_t)(end - p)) return -1;
      if ((tag >> 3) == 1) {
        *out = p;
        *outlen = (size_t)v;
        return 1;
      }
      p += v;
    } else {
      return -1;
    }
  }
  return 0;
}

/* A wrapper whose field 2 is a config (HloModuleProtoWithConfig), not an
 * old HloProto's hlo_ordering (whose only field is 1): field 2 present,
 * no buffer_assignment (3), and the payload empty or holding a field other
 * than 1 (XLA's config always holds replica_count). CONFIG gets the
 * payloads, concatenated as protobuf merges them, when asked. */
static bool config_field(wp_arena *arena, const uint8_t *data, size_t len,
                         ProtobufCBinaryData *config) {
  const uint8_t *p = data, *end = data + len;
  bool any = false, other = false;
  size_t total = 0;
  while (p < end) {
    uint64_t tag;
    const uint8_t *payload;
    size_t n;
    if (wp_pb_next_field(&p, end, &tag, &payload, &n))
      return false;
    if ((tag >> 3) == 3)
      return false;
    if ((tag >> 3) != 2 || !payload)
      continue;
    any = true;
    total += n;
    const uint8_t *q = payload, *qend = payload + n;
    if (!n)
      other = true;
    while (q < qend) {
      uint64_t t;
      const uint8_t *pl;
      size_t pn;
      if (wp_pb_next_field(&q, qend, &t, &pl, &pn))
        return false;
      other |= (t >> 3) != 1;
    }
  }
  if (!any || !other)
    return false;
  if (config) {
    uint8_t *out = wp_arena_alloc(arena, total + 1);
    size_t at = 0;
    for (p = data; p < end;) {
      uint64_t tag;
      const uint8_t *payload;
      size_t n;
      wp_pb_next_field(&p, end, &tag, &payload, &n);
      if ((tag >> 3) == 2 && payload) {
        memcpy(out + at, payload, n);
        at += n;
      }
    }
    config->data = out;
    config->len = total;
  }
  return true;
}

enum wp_hlo_container wp_hlo_sniff(const void *data, size_t len) {
  const uint8_t *f1;
  size_t n;
  int r = find_field1(data, len, &f1, &n);
  if (r < 0)
    return WP_HLO_NOT_HLO;
  if (r == 0)
    return WP_HLO_MODULE_PROTO;
  /* A module name is text; a nested HloModuleProto starts with a tag byte
   * and holds computations. A name with odd bytes stays a name unless its
   * bytes really are a module. */
  /* (an empty field 1 says nothing: proto3 writes no empty name, but an
   * HloProto may carry an empty hlo_module before the real one) */
  bool text = n > 0;
  for (size_t i = 0; i < n && text; i++)
    text = f1[i] >= 0x20 || f1[i] == '\t' || f1[i] == '\n' || f1[i] == '\r';
  if (text)
    return WP_HLO_MODULE_PROTO;
  wp_arena *a = wp_arena_create();
  wp_hlo_lazy_module inner; /* every field 1 merged, as protobuf reads them */
  bool wrapper = false;
  if (wp_pb_depth(data, len, WP_HLO_MAX_DEPTH) <= WP_HLO_MAX_DEPTH) {
    int rc = wp_hlo_lazy_hlo_proto_module(a, data, len, &inner);
    /* too deep to look into: the importer says so */
    wrapper = rc == -2 || (rc == 0 && inner.msg->n_computations > 0);
  }
  bool config = wrapper && config_field(a, data, len, NULL);
  wp_arena_destroy(a);
  if (config)
    return WP_HLO_PROTO_WITH_CONFIG;
  return wrapper ? WP_HLO_PROTO : WP_HLO_MODULE_PROTO;
}

/* ---- import state ---- */

typedef struct importer {
  MlirContext ctx;
  wp_arena *arena;
  wp_arena *decoded; /* one instruction at a time, unpacked from its bytes */
  const char *filename;
  const wp_hlo_locs *locs; /* text positions, or NULL */
  wp_error *err;
  /* looked up once, not per instruction */
  MlirLocation file;
  struct {
    MlirIdentifier name, id, opcode, value, weight, extra, segments, hlo_name, hlo_id, hlo_extra;
  } key;
  /* The default shape of the type last asked about, packed: a model's
   * parameters mostly share a few types. */
  MlirType shape_type;
  size_t shape_len;
  uint8_t shape_bytes[64];
} importer;

static void init_importer(importer *im) {
  im->file = mlirLocationFileLineColGet(im->ctx, wp_sref(im->filename), 0, 0);
#define KEY(k, s) im->key.k = mlirIdentifierGet(im->ctx, wp_sref(s))
  KEY(name, "name");
  KEY(id, "id");
  KEY(opcode, "opcode");
  KEY(value, "value");
  KEY(weight, "weight");
  KEY(extra, "extra");
  KEY(segments, "operand_segment_sizes");
  KEY(hlo_name, "hlo.name");
  KEY(hlo_id, "hlo.id");
  KEY(hlo_extra, "hlo.extra");
#undef KEY
}

static MlirLocation file_loc(importer *im) { return im->file; }

/* FILE:LINE:COL of entry I of a text position table (N entries), or NULL
 * when the table has no place for it. */
static MlirLocation text_loc(importer *im, const wp_hlo_pos *table, size_t n, uint64_t i) {
  if (!table || i >= n || table[i].line == 0)
    return (MlirLocation){NULL};
  return mlirLocationFileLineColGet(im->ctx, wp_sref(im->filename), table[i].line,
                                    table[i].col);
}

/* NameLoc(instruction name) around where the text defines it; without
 * text, around the source position in its metadata, or the input file. */
static MlirLocation instr_loc(importer *im, const Xla__HloInstructionProto *ins) {
  MlirLocation inner = {NULL};
  if (im->locs && ins->id >= 0)
    inner = text_loc(im, im->locs->instr, im->locs->n_instr, (uint64_t)ins->id);
  if (!mlirLocationIsNull(inner))
    return mlirLocationNameGet(im->ctx, wp_sref(ins->name), inner);
  inner = file_loc(im);
  if (ins->metadata) {
    Xla__OpMetadataView *md =
        wp_pb_convert(im->arena, &ins->metadata->base, &xla__op_metadata_view__descriptor);
    if (md && md->source_file && md->source_file[0])
      inner = mlirLocationFileLineColGet(im->ctx, wp_sref(md->source_file),
                                         (unsigned)md->source_line, 0);
  }
  return mlirLocationNameGet(im->ctx, wp_sref(ins->name), inner);
}

/* Returns the bytes of MSG, or an empty string when it packs to nothing. */
static MlirAttribute extra_attr(importer *im, const ProtobufCMessage *msg, int *empty) {
  ProtobufCBinaryData b = wp_pb_pack(im->arena, msg);
  *empty = b.len == 0;
  return wp_str_attr(im->ctx, b.data, b.len);
}

/* Does SHAPE equal, byte for byte, what export would write for TYPE? Then
 * it need not be kept. SHAPE's bytes go to *PACKED when asked (in the
 * arena). */
static int shape_is_default(importer *im, const Xla__ShapeProto *shape, MlirType type,
                            ProtobufCBinaryData *packed) {
  if (!shape)
    return 0;
  ProtobufCBinaryData a = wp_pb_pack(im->arena, &shape->base);
  if (packed)
    *packed = a;
  if (!mlirTypeIsNull(im->shape_type) && mlirTypeEqual(im->shape_type, type))
    return a.len == im->shape_len && memcmp(a.data, im->shape_bytes, a.len) == 0;
  Xla__ShapeProto *def = wp_hlo_type_to_shape(im->arena, type, NULL);
  if (!def)
    return 0;
  ProtobufCBinaryData b = wp_pb_pack(im->arena, &def->base);
  if (b.len <= sizeof im->shape_bytes) {
    im->shape_type = type;
    im->shape_len = b.len;
    memcpy(im->shape_bytes, b.data, b.len);
  }
  return a.len == b.len && memcmp(a.data, b.data, a.len) == 0;
}

static int instr_error(importer *im, const Xla__HloComputationProto *comp,
                       const Xla__HloInstructionProto *ins, const char *what) {
  return wp_error_set(im->err, "computation '%s', instruction '%s' (id %lld): %s",
                      comp->name, ins->name, (long long)ins->id, what);
}

/* instr_error for an instruction not unpacked yet. */
static int ref_error(importer *im, const Xla__HloComputationProto *comp,
                     const wp_hlo_lazy_comp *lc, size_t i, const char *what) {
  wp_arena_mark_t mark = wp_arena_mark(im->decoded);
  const Xla__HloInstructionProto *ins = wp_hlo_lazy_instr(im->decoded, &lc->ins[i]);
  int rc = ins ? instr_error(im, comp, ins, what) : wp_error_set(im->err, "an instruction whose bytes were checked does not unpack");
  wp_arena_release(im->decoded, mark);
  return rc;
}

static int instr_type(importer *im, const Xla__HloComputationProto *comp,
                      const Xla__HloInstructionProto *ins, MlirType *out) {
  if (!ins->shape)
    return instr_error(im, comp, ins, "missing shape");
  wp_error sub;
  if (wp_hlo_shape_to_type(im->ctx, ins->shape, out, &sub))
    return instr_error(im, comp, ins, sub.msg);
  return 0;
}

/* HloInstructionProto's field numbers (hlo.proto) */
#define HLO_INSTR_NAME 1
#define HLO_INSTR_OPCODE 2
#define HLO_INSTR_SHAPE 3
#define HLO_INSTR_PARAMETER_NUMBER 9
#define HLO_INSTR_ID 35
#define HLO_INSTR_OPERAND_IDS 36

/* Does instruction REF, read from its bytes, hold only fields its op
 * carries (name, opcode, id, parameter number, operands but a
 * parameter's) and one shape whose bytes are those export would write for
 * TYPE, the type last asked about? Then its leftovers pack to nothing, and
 * most instructions of a model are so: this spares copying and packing
 * the unpacked instruction. Bytes that protobuf-c packed are what it packs
 * again once unpacked, so the shape compares as shape_is_default would. */
static bool extra_is_empty(importer *im, const wp_hlo_instr_ref *ref, bool is_param,
                           MlirType type, ProtobufCBinaryData *shape_packed) {
  const uint8_t *p = ref->bytes, *end = ref->bytes + ref->len, *shape = NULL;
  size_t shape_len = 0;
  while (p < end) {
    uint64_t tag;
    const uint8_t *pl = NULL;
    size_t n = 0;
    if (wp_pb_next_field(&p, end, &tag, &pl, &n))
      return false;
    switch (tag >> 3) {
    case HLO_INSTR_NAME:
    case HLO_INSTR_OPCODE:
    case HLO_INSTR_PARAMETER_NUMBER:
    case HLO_INSTR_ID:
      break;
    case HLO_INSTR_OPERAND_IDS:
      if (is_param)
        return false;
      break;
    case HLO_INSTR_SHAPE: /* twice would merge */
      if (!pl || shape)
        return false;
      shape = pl;
      shape_len = n;
      break;
    default:
      return false;
    }
  }
  if (!shape || mlirTypeIsNull(im->shape_type) || !mlirTypeEqual(im->shape_type, type) ||
      shape_len != im->shape_len || memcmp(shape, im->shape_bytes, shape_len) != 0)
    return false;
  if (shape_packed)
    *shape_packed = (ProtobufCBinaryData){shape_len, (uint8_t *)shape};
  return true;
}

/* The instruction's leftover fields: everything except what the op itself
 * carries (name, opcode, id, operands, parameter number, modeled literal
 * data, a default shape). REF holds its bytes. */
static MlirAttribute instr_extra(importer *im, const wp_hlo_instr_ref *ref,
                                 const Xla__HloInstructionProto *ins, MlirType type,
                                 int literal_modeled, int *empty,
                                 ProtobufCBinaryData *shape_packed) {
  if (extra_is_empty(im, ref, strcmp(ins->opcode, "parameter") == 0, type, shape_packed)) {
    *empty = 1;
    return mlirAttributeGetNull();
  }
  Xla__HloInstructionProto rest = *ins;
  rest.name = "";
  rest.opcode = "";
  rest.id = 0;
  rest.parameter_number = 0;
  if (strcmp(ins->opcode, "parameter") != 0) { /* a parameter's are not operands */
    rest.n_operand_ids = 0;
    rest.operand_ids = NULL;
  }
  rest.wp_weight_origin = NULL; /* becomes the `weight` attribute */
  if (shape_is_default(im, ins->shape, type, shape_packed))
    rest.shape = NULL;
  Xla__LiteralProto lit;
  if (literal_modeled && ins->literal) {
    lit = *ins->literal;
    wp_hlo_literal_clear_data(&lit);
    if (shape_is_default(im, lit.shape, type, NULL))
      lit.shape = NULL;
    /* An empty literal still marks "this constant's literal is modeled". */
    rest.literal = &lit;
    ProtobufCBinaryData b = wp_pb_pack(im->arena, &lit.base);
    if (b.len == 0)
      rest.literal = NULL;
  }
  return extra_attr(im, &rest.base, empty);
}

/* Parameter number -> instruction index. */
static int build_params(importer *im, const Xla__HloComputationProto *comp,
                        const wp_hlo_lazy_comp *lc, size_t **params_out, size_t *n_out) {
  size_t n = 0;
  for (size_t i = 0; i < lc->n; i++)
    n += lc->ins[i].is_param;
  size_t *params = wp_arena_alloc(im->arena, (n ? n : 1) * sizeof *params);
  for (size_t k = 0; k < n; k++)
    params[k] = SIZE_MAX;
  for (size_t i = 0; i < lc->n; i++) {
    const wp_hlo_instr_ref *r = &lc->ins[i];
    if (!r->is_param)
      continue;
    if (r->parameter_number < 0 || (uint64_t)r->parameter_number >= n)
      return ref_error(im, comp, lc, i, "parameter number out of range");
    if (params[r->parameter_number] != SIZE_MAX)
      return ref_error(im, comp, lc, i, "parameter number used twice");
    params[r->parameter_number] = i;
  }
  *params_out = params;
  *n_out = n;
  return 0;
}

/* Post-order over operands, starting from the stored order, so every op is
 * created after its operands. Iterative: real graphs can be deep. */
static int topo_order(importer *im, const Xla__HloComputationProto *comp,
                      const wp_hlo_lazy_comp *lc, const wp_i64map *index, size_t *order,
                      size_t *n_order) {
  size_t n = lc->n;
  unsigned char *state = wp_arena_alloc(im->arena, n + 1); /* 0 new, 1 open, 2 done */
  size_t *stack = wp_arena_alloc(im->arena, (n + 1) * sizeof *stack);
  size_t *next = wp_arena_alloc(im->arena, (n + 1) * sizeof *next);
  size_t count = 0;
  for (size_t root = 0; root < n; root++) {
    if (state[root])
      continue;
    size_t sp = 0;
    stack[sp++] = root;
    state[root] = 1;
    next[root] = 0;
    while (sp) {
      size_t cur = stack[sp - 1];
      const wp_hlo_instr_ref *ins = &lc->ins[cur];
      /* A parameter's operand ids (if any) are kept, not followed. */
      size_t n_ops = ins->is_param ? 0 : ins->n_operand_ids;
      if (next[cur] < n_ops) {
        int64_t opid = ins->operand_ids[next[cur]++], oi;
        if (!wp_i64map_get(index, opid, &oi)) {
          char what[96];
          snprintf(what, sizeof what, "operand id %lld names no instruction",
                   (long long)opid);
          return ref_error(im, comp, lc, cur, what);
        }
        if (state[oi] == 1)
          return ref_error(im, comp, lc, cur, "operands form a cycle");
        if (state[oi] == 0) {
          state[oi] = 1;
          next[oi] = 0;
          stack[sp++] = (size_t)oi;
        }
        continue;
      }
      state[cur] = 2;
      sp--;
      if (!ins->is_param)
        order[count++] = cur;
    }
  }
  *n_order = count;
  return 0;
}

static MlirOperation create_op(importer *im, const Xla__HloComputationProto *comp,
                               const wp_hlo_instr_ref *ref, const Xla__HloInstructionProto *ins,
                               MlirType type, const MlirValue *operands) {
  const wp_hlo_opcode *oc = wp_hlo_opcode_by_xla(ins->opcode);
  int generic = !oc || !wp_hlo_opcode_accepts(oc, ins->n_operand_ids) ||
                strcmp(ins->opcode, "parameter") == 0;
  /* A tail group takes one type (IRDL binds it): mixed ones go generic. */
  for (size_t i = oc ? (size_t)oc->fixed + 1 : 0;
       !generic && oc->form == WP_HLO_TAIL && i < ins->n_operand_ids; i++)
    generic = !mlirTypeEqual(mlirValueGetType(operands[i]), mlirValueGetType(operands[i - 1]));
  /* Everything that can fail comes first: an operation state that is never
   * created would leak its arrays. */
  int32_t few[WP_HLO_SEGMENTS], *sizes = few;
  int n_segments = 0;
  bool segmented = generic || (oc && oc->form == WP_HLO_SEGMENTED);
  if (segmented) {
    size_t runs = 0;
    for (size_t i = 0; i < ins->n_operand_ids; i++)
      runs += i == 0 || !mlirTypeEqual(mlirValueGetType(operands[i]),
                                       mlirValueGetType(operands[i - 1]));
    if (runs > WP_HLO_WIDE_SEGMENTS) {
      char what[160];
      snprintf(what, sizeof what,
               "%zu runs of differently typed operands, more than the %d the hlo "
               "dialect can hold (an MLIR 19 IRDL limit)", runs, WP_HLO_WIDE_SEGMENTS);
      instr_error(im, comp, ins, what);
      return (MlirOperation){NULL};
    }
    if (runs > WP_HLO_SEGMENTS) {
      oc = wp_hlo_opcode_wide();
      generic = 1;
    }
    n_segments = runs > WP_HLO_SEGMENTS ? WP_HLO_WIDE_SEGMENTS : WP_HLO_SEGMENTS;
    if (n_segments > WP_HLO_SEGMENTS) /* rare: one op of a module, perhaps */
      sizes = wp_arena_alloc(im->arena, (size_t)n_segments * sizeof *sizes);
    memset(sizes, 0, (size_t)n_segments * sizeof *sizes);
    int seg = -1;
    for (size_t i = 0; i < ins->n_operand_ids; i++) {
      if (i == 0 || !mlirTypeEqual(mlirValueGetType(operands[i]),
                                   mlirValueGetType(operands[i - 1])))
        seg++;
      sizes[seg]++;
    }
  }
  MlirAttribute value = mlirAttributeGetNull();
  int modeled = strcmp(ins->opcode, "constant") == 0 && ins->literal &&
                wp_hlo_literal_to_attr(ins->literal, type, &value);
  const Xla__WeightOrigin *origin = ins->wp_weight_origin;
  /* a constant without a literal (`{...}` in text): zeros, as a splat that
   * takes no memory, marked so that it is written back without one */
  bool elided = !strcmp(ins->opcode, "constant") && !ins->literal && !origin &&
                wp_hlo_literal_zeros(type, &value) == 0;
  if (origin && !modeled && !ins->literal) {
    /* The round-trip form leaves weight bytes out: read them again. */
    char key[256];
    wp_hlo_weight_key(origin->param, key, sizeof key);
    wp_error sub;
    if (wp_hlo_weight_load(type, origin->file, key, &value, &sub)) {
      wp_error_prefix(&sub, "weight %s", origin->file);
      instr_error(im, comp, ins, sub.msg);
      return (MlirOperation){NULL};
    }
  }

  char opname[96];
  snprintf(opname, sizeof opname, "hlo.%s",
           oc && oc->form == WP_HLO_WIDE ? WP_HLO_WIDE_OP
           : generic                     ? WP_HLO_GENERIC_OP
                                         : oc->mlir);
  MlirNamedAttribute attrs[8];
  int na = 0;
#define NAMED(k, val) attrs[na++] = mlirNamedAttributeGet(im->key.k, (val))
  NAMED(name, wp_str_attr(im->ctx, ins->name, strlen(ins->name)));
  NAMED(id, wp_i64_attr(im->ctx, ins->id));
  if (generic)
    NAMED(opcode, wp_str_attr(im->ctx, ins->opcode, strlen(ins->opcode)));
  if (!mlirAttributeIsNull(value))
    NAMED(value, value);
  if (elided)
    attrs[na++] = mlirNamedAttributeGet(mlirIdentifierGet(im->ctx, wp_sref("elided")),
                                        mlirUnitAttrGet(im->ctx));
  if (origin)
    NAMED(weight, wp_hlo_weight_origin(im->ctx, origin->file, origin->param, origin->number));
  int empty;
  MlirAttribute extra = instr_extra(im, ref, ins, type, modeled, &empty, NULL);
  if (!empty)
    NAMED(extra, extra);
  if (segmented)
    NAMED(segments, mlirDenseI32ArrayGet(im->ctx, n_segments, sizes));
#undef NAMED
  MlirOperationState st = mlirOperationStateGet(wp_sref(opname), instr_loc(im, ins));
  mlirOperationStateAddOperands(&st, (intptr_t)ins->n_operand_ids, operands);
  mlirOperationStateAddResults(&st, 1, &type);
  mlirOperationStateAddAttributes(&st, na, attrs);
  return mlirOperationCreate(&st);
}

/* Default export order: parameters by number, then ops as created. Record
 * the stored order only when it differs. */
static MlirAttribute order_attr(importer *im, const wp_hlo_lazy_comp *lc, const size_t *params,
                                size_t n_params, const size_t *order) {
  size_t n = lc->n;
  int same = 1;
  for (size_t i = 0; i < n && same; i++)
    same = (i < n_params ? params[i] : order[i - n_params]) == i;
  if (same)
    return mlirAttributeGetNull();
  int64_t *ids = wp_arena_alloc(im->arena, (n ? n : 1) * sizeof *ids);
  for (size_t i = 0; i < n; i++)
    ids[i] = lc->ins[i].id;
  return mlirDenseI64ArrayGet(im->ctx, (intptr_t)n, ids);
}

/* The program shape export would compute (the parameters' shapes and
 * names, the root's shape); used to drop a stored one that says nothing
 * more. Compared a parameter at a time while the parameters are read
 * (each is unpacked once): the same as packing both whole. */
static int program_shape_may_be_default(const Xla__ProgramShapeProto *ps, size_t n) {
  return ps && !ps->base.n_unknown_fields && ps->n_parameters == n &&
         ps->n_parameter_names == n && ps->result;
}

static bool same_as_packed(importer *im, const ProtobufCMessage *a, ProtobufCBinaryData y) {
  ProtobufCBinaryData x = wp_pb_pack(im->arena, a);
  return x.len == y.len && memcmp(x.data, y.data, x.len) == 0;
}

static int import_computation(importer *im, const Xla__HloComputationProto *comp,
                              size_t comp_index, const wp_hlo_lazy_comp *lc,
                              MlirBlock module_body, MlirOperation *func_out) {
  if (!comp->name[0]) /* it becomes a func's symbol, which cannot be empty */
    return wp_error_set(im->err, "computation id %lld has an empty name",
                        (long long)comp->id);
  wp_i64map index;
  wp_i64map_init(&index);
  int rc = -1;
  for (size_t i = 0; i < lc->n; i++) {
    int64_t id = lc->ins[i].id;
    if (wp_i64map_get(&index, id, NULL)) {
      ref_error(im, comp, lc, i, "duplicate instruction id");
      goto out;
    }
    wp_i64map_put(&index, id, (int64_t)i);
  }
  int64_t root_index;
  if (!wp_i64map_get(&index, comp->root_id, &root_index)) {
    wp_error_set(im->err, "computation '%s': root id %lld names no instruction",
                 comp->name, (long long)comp->root_id);
    goto out;
  }
  size_t *params = NULL;
  size_t n_params = 0, n_order = 0;
  if (build_params(im, comp, lc, &params, &n_params))
    goto out;
  size_t *order = wp_arena_alloc(im->arena, (lc->n + 1) * sizeof *order);
  if (topo_order(im, comp, lc, &index, order, &n_order))
    goto out;

  /* Signature and argument attributes. Each instruction is unpacked when
   * it is needed, into memory given back right after (as are the defaults
   * built and packed to compare with). */
  MlirType *arg_types = wp_arena_alloc(im->arena, (n_params + 1) * sizeof *arg_types);
  MlirLocation *arg_locs = wp_arena_alloc(im->arena, (n_params + 1) * sizeof *arg_locs);
  MlirAttribute *arg_attrs = wp_arena_alloc(im->arena, (n_params + 1) * sizeof *arg_attrs);
  const Xla__ProgramShapeProto *ps = comp->program_shape;
  int ps_default = program_shape_may_be_default(ps, n_params);
  for (size_t i = 0; i < n_params; i++) {
    wp_arena_mark_t scratch = wp_arena_mark(im->arena), mark = wp_arena_mark(im->decoded);
    const Xla__HloInstructionProto *p = wp_hlo_lazy_instr(im->decoded, &lc->ins[params[i]]);
    if (!p) {
      wp_error_set(im->err, "an instruction whose bytes were checked does not unpack");
      goto out;
    }
    if (instr_type(im, comp, p, &arg_types[i]))
      goto out;
    arg_locs[i] = instr_loc(im, p);
    MlirNamedAttribute na[3];
    int k = 0;
    na[k++] = mlirNamedAttributeGet(im->key.hlo_name,
                                    wp_str_attr(im->ctx, p->name, strlen(p->name)));
    na[k++] = mlirNamedAttributeGet(im->key.hlo_id, wp_i64_attr(im->ctx, p->id));
    int empty;
    ProtobufCBinaryData shape = {0, NULL}; /* packed on the way: instr_type saw a shape */
    MlirAttribute extra = instr_extra(im, &lc->ins[params[i]], p, arg_types[i], 0, &empty, &shape);
    if (ps_default) {
      ps_default = strcmp(ps->parameter_names[i], p->name) == 0 &&
                   same_as_packed(im, &ps->parameters[i]->base, shape);
    }
    if (!empty)
      na[k++] = mlirNamedAttributeGet(im->key.hlo_extra, extra);
    arg_attrs[i] = mlirDictionaryAttrGet(im->ctx, k, na);
    wp_arena_release(im->decoded, mark);
    wp_arena_release(im->arena, scratch);
  }
  MlirType result_type;
  MlirLocation ret_loc = file_loc(im); /* with text: the root's place */
  {
    wp_arena_mark_t mark = wp_arena_mark(im->decoded);
    const Xla__HloInstructionProto *root = wp_hlo_lazy_instr(im->decoded, &lc->ins[root_index]);
    if (!root) {
      wp_error_set(im->err, "an instruction whose bytes were checked does not unpack");
      goto out;
    }
    if (instr_type(im, comp, root, &result_type))
      goto out;
    if (im->locs)
      ret_loc = instr_loc(im, root);
    if (ps_default) {
      wp_arena_mark_t scratch = wp_arena_mark(im->arena);
      ps_default = same_as_packed(im, &ps->result->base, wp_pb_pack(im->arena, &root->shape->base));
      wp_arena_release(im->arena, scratch);
    }
    wp_arena_release(im->decoded, mark);
  }

  MlirBlock body = mlirBlockCreate((intptr_t)n_params, arg_types, arg_locs);
  MlirValue *values = wp_arena_alloc(im->arena, (lc->n + 1) * sizeof *values);
  for (size_t i = 0; i < n_params; i++)
    values[params[i]] = mlirBlockGetArgument(body, (intptr_t)i);
  for (size_t k = 0; k < n_order; k++) {
    wp_arena_mark_t scratch = wp_arena_mark(im->arena), mark = wp_arena_mark(im->decoded);
    const Xla__HloInstructionProto *ins = wp_hlo_lazy_instr(im->decoded, &lc->ins[order[k]]);
    MlirType type;
    if (!ins) {
      wp_error_set(im->err, "an instruction whose bytes were checked does not unpack");
      mlirBlockDestroy(body);
      goto out;
    }
    if (instr_type(im, comp, ins, &type)) {
      mlirBlockDestroy(body);
      goto out;
    }
    MlirValue *operands = wp_arena_alloc(im->arena, (ins->n_operand_ids + 1) * sizeof *operands);
    for (size_t j = 0; j < ins->n_operand_ids; j++) {
      int64_t oi;
      wp_i64map_get(&index, ins->operand_ids[j], &oi);
      operands[j] = values[oi];
    }
    MlirOperation op = create_op(im, comp, &lc->ins[order[k]], ins, type, operands);
    if (mlirOperationIsNull(op)) {
      mlirBlockDestroy(body);
      goto out;
    }
    mlirBlockAppendOwnedOperation(body, op);
    values[order[k]] = mlirOperationGetResult(op, 0);
    wp_arena_release(im->decoded, mark);
    wp_arena_release(im->arena, scratch);
  }
  MlirOperationState ret = mlirOperationStateGet(wp_sref("func.return"), ret_loc);
  mlirOperationStateAddOperands(&ret, 1, &values[root_index]);
  mlirBlockAppendOwnedOperation(body, mlirOperationCreate(&ret));

  /* The func itself. */
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirLocation comp_at = im->locs ? text_loc(im, im->locs->comp, im->locs->n_comp, comp_index)
                                  : (MlirLocation){NULL};
  MlirOperationState fs = mlirOperationStateGet(
      wp_sref("func.func"),
      mlirLocationNameGet(im->ctx, wp_sref(comp->name),
                          mlirLocationIsNull(comp_at) ? file_loc(im) : comp_at));
  mlirOperationStateAddOwnedRegions(&fs, 1, &region);
  MlirType fty = mlirFunctionTypeGet(im->ctx, (intptr_t)n_params, arg_types, 1, &result_type);
  MlirNamedAttribute fa[7];
  int nf = 0;
#define FNAMED(key, val) \
  fa[nf++] = mlirNamedAttributeGet(mlirIdentifierGet(im->ctx, wp_sref(key)), (val))
  FNAMED("sym_name", wp_str_attr(im->ctx, comp->name, strlen(comp->name)));
  FNAMED("function_type", mlirTypeAttrGet(fty));
  if (n_params)
    FNAMED("arg_attrs", mlirArrayAttrGet(im->ctx, (intptr_t)n_params, arg_attrs));
  FNAMED("hlo.id", wp_i64_attr(im->ctx, comp->id));
  MlirAttribute ord = order_attr(im, lc, params, n_params, order);
  if (!mlirAttributeIsNull(ord))
    FNAMED("hlo.order", ord);
  Xla__HloComputationProto rest = *comp; /* its instructions are not in it */
  rest.name = "";
  rest.id = 0;
  rest.root_id = 0;
  if (ps_default)
    rest.program_shape = NULL;
  int empty;
  MlirAttribute extra = extra_attr(im, &rest.base, &empty);
  if (!empty)
    FNAMED("hlo.extra", extra);
#undef FNAMED
  mlirOperationStateAddAttributes(&fs, nf, fa);
  MlirOperation func = mlirOperationCreate(&fs);
  mlirBlockAppendOwnedOperation(module_body, func);
  *func_out = func;
  rc = 0;
out:
  wp_i64map_free(&index);
  return rc;
}

static int cmp_comp_name(const void *a, const void *b) {
  return strcmp((*(Xla__HloComputationProto *const *)a)->name,
                (*(Xla__HloComputationProto *const *)b)->name);
}

static int cmp_comp_id(const void *a, const void *b) {
  int64_t x = (*(Xla__HloComputationProto *const *)a)->id;
  int64_t y = (*(Xla__HloComputationProto *const *)b)->id;
  return x < y ? -1 : x > y;
}

/* Computation names and ids, and instruction ids across the module, are
 * unique (XLA's rules; export would refuse a module that breaks the last,
 * naming the output). Sorted, not pairwise: 160,000 computations took a
 * minute. */
static int check_unique_ids(importer *im, const wp_hlo_lazy_module *lazy) {
  const Xla__HloModuleProto *mod = lazy->msg;
  size_t n = mod->n_computations;
  Xla__HloComputationProto **sorted = wp_xmalloc((n + 1) * sizeof *sorted);
  memcpy(sorted, mod->computations, n * sizeof *sorted);
  int rc = 0;
  qsort(sorted, n, sizeof *sorted, cmp_comp_name);
  for (size_t i = 1; i < n && !rc; i++)
    if (!strcmp(sorted[i]->name, sorted[i - 1]->name))
      rc = wp_error_set(im->err, "two computations are named '%s'", sorted[i]->name);
  qsort(sorted, n, sizeof *sorted, cmp_comp_id);
  for (size_t i = 1; i < n && !rc; i++)
    if (sorted[i]->id == sorted[i - 1]->id)
      rc = wp_error_set(im->err, "computations '%s' and '%s' have the same id %lld",
                        sorted[i - 1]->name, sorted[i]->name, (long long)sorted[i]->id);
  free(sorted);
  /* within one computation, import_computation says which instruction */
  wp_i64map owner; /* instruction id -> computation index */
  wp_i64map_init(&owner);
  for (size_t c = 0; c < n && !rc; c++)
    for (size_t i = 0; i < lazy->comps[c].n && !rc; i++) {
      int64_t id = lazy->comps[c].ins[i].id, other;
      if (wp_i64map_get(&owner, id, &other)) {
        if ((size_t)other != c)
          rc = wp_error_set(im->err, "instruction id %lld is used in computation '%s' and "
                            "again in '%s' (ids are unique in a module)", (long long)id,
                            mod->computations[other]->name, mod->computations[c]->name);
      } else {
        wp_i64map_put(&owner, id, (int64_t)c);
      }
    }
  wp_i64map_free(&owner);
  return rc;
}

static int import_module(importer *im, const wp_hlo_lazy_module *lazy, MlirModule *out) {
  const Xla__HloModuleProto *mod = lazy->msg;
  if (mod->n_computations == 0)
    return wp_error_set(im->err, "module has no computations");
  /* The entry: by id when given, else by name. */
  size_t entry = (size_t)-1;
  for (size_t i = 0; i < mod->n_computations; i++) {
    const Xla__HloComputationProto *c = mod->computations[i];
    if (mod->entry_computation_id ? c->id == mod->entry_computation_id
                                  : (mod->entry_computation_name[0] &&
                                     strcmp(c->name, mod->entry_computation_name) == 0))
      entry = i;
  }
  if (entry == (size_t)-1) {
    if (mod->entry_computation_id || mod->entry_computation_name[0])
      return wp_error_set(im->err, "entry computation '%s' (id %lld) not found",
                          mod->entry_computation_name,
                          (long long)mod->entry_computation_id);
    return wp_error_set(im->err, "module names no entry computation");
  }
  if (check_unique_ids(im, lazy))
    return -1;

  MlirLocation module_at = {NULL};
  if (im->locs) {
    wp_hlo_pos one = im->locs->module;
    module_at = text_loc(im, &one, 1, 0);
  }
  MlirModule m = mlirModuleCreateEmpty(mlirLocationIsNull(module_at) ? file_loc(im) : module_at);
  MlirOperation mop = mlirModuleGetOperation(m);
  MlirBlock body = mlirModuleGetBody(m);
  MlirOperation entry_func = {NULL};
  for (size_t i = 0; i < mod->n_computations; i++) {
    MlirOperation f = {NULL};
    if (import_computation(im, mod->computations[i], i, &lazy->comps[i], body, &f)) {
      mlirModuleDestroy(m);
      return -1;
    }
    if (i == entry)
      entry_func = f;
  }
  const Xla__HloComputationProto *ec = mod->computations[entry];
  if (mod->name[0])
    wp_set_attr(mop, "sym_name", wp_str_attr(im->ctx, mod->name, strlen(mod->name)));
  wp_set_attr(mop, "hlo.entry", mlirFlatSymbolRefAttrGet(im->ctx, wp_sref(ec->name)));

  Xla__HloModuleProto rest = *mod;
  rest.name = "";
  rest.n_computations = 0;
  rest.computations = NULL;
  if (strcmp(mod->entry_computation_name, ec->name) == 0)
    rest.entry_computation_name = "";
  if (mod->entry_computation_id == ec->id)
    rest.entry_computation_id = 0;
  /* Compared with the derived shape alone, a module without a host shape
   * whose computation keeps XLA's parameter names ("x" for the instruction
   * "x.1") came back from its own round trip with one. */
  if (mod->host_program_shape &&
      wp_hlo_host_shape_is_default(im->arena, mod->host_program_shape, entry_func))
    rest.host_program_shape = NULL;
  int empty;
  MlirAttribute extra = extra_attr(im, &rest.base, &empty);
  if (!empty)
    wp_set_attr(mop, "hlo.extra", extra);
  *out = m;
  return 0;
}

/* Which strings must be UTF-8: all but a weight's file, a path (any bytes
 * but NUL). XLA writes and reads no other (protobuf refuses a proto3
 * string that is not UTF-8), and the names become MLIR symbols and
 * attributes, then BIR and NEFF JSON names. */
static bool hlo_utf8(const ProtobufCMessageDescriptor *msg, const ProtobufCFieldDescriptor *f) {
  return !(msg == &xla__weight_origin__descriptor && f->id == 1);
}

/* The checks on a read module that need no IR: its strings, then XLA's
 * shape checks (HLO text had them at its lines: wp_hlo_text_import). */
typedef struct import_checks {
  const wp_hlo_lazy_module *mod;
  enum wp_hlo_container container;
  bool verify;
  int rc;
  wp_error err;
} import_checks;

static void *checks_thread(void *user) {
  import_checks *c = user;
  /* Every string is checked here, where it enters: protobuf-c cuts one at
   * a NUL without a word ("ml\0px" read as "ml"), and a name that is not
   * UTF-8 was refused only passes later. */
  char path[256];
  const char *why = wp_pb_bad_string(&xla__hlo_module_proto__descriptor, c->mod->bytes,
                                     c->mod->len, hlo_utf8, path, sizeof path);
  if (why)
    c->rc = wp_error_set(&c->err, "%s.%s: %s",
                         c->container == WP_HLO_PROTO ? "HloProto.hlo_module"
                         : c->container == WP_HLO_PROTO_WITH_CONFIG
                             ? "HloModuleProtoWithConfig.hlo_module"
                             : "HloModuleProto",
                         path, why);
  else if (c->verify)
    c->rc = wp_hlo_verify_import(c->mod, &c->err);
  return NULL;
}

int wp_hlo_import(MlirContext ctx, const void *data, size_t len, const char *filename,
                  MlirModule *out, wp_error *err) {
  return wp_hlo_import_located(ctx, data, len, filename, NULL, out, err);
}

int wp_hlo_import_located(MlirContext ctx, const void *data, size_t len, const char *filename,
                          const wp_hlo_locs *locs, MlirModule *out, wp_error *err) {
  wp_arena *arena = wp_arena_create(), *decoded = wp_arena_create();
  importer im = {.ctx = ctx, .arena = arena, .decoded = decoded, .filename = filename,
                 .locs = locs, .err = err};
  init_importer(&im);
  int rc = -1;
  wp_hlo_lazy_module mod;
  ProtobufCBinaryData config = {0, NULL};
  if (wp_pb_depth(data, len, WP_HLO_MAX_DEPTH) > WP_HLO_MAX_DEPTH) {
    wp_error_set(err, "protobuf nesting deeper than %d levels (a tuple shape nested that deep?)",
                 WP_HLO_MAX_DEPTH);
    goto out;
  }
  enum wp_hlo_container container = wp_hlo_sniff(data, len);
  switch (container) {
  case WP_HLO_NOT_HLO:
    wp_error_set(err, "not a protobuf message");
    goto out;
  case WP_HLO_PROTO:
    switch (wp_hlo_lazy_unpack_hlo_proto(arena, data, len, &mod)) {
    case 0:
      break;
    case -2:
      wp_error_set(err, "protobuf nesting deeper than %d levels (in HloProto.hlo_module)",
                   WP_HLO_MAX_DEPTH);
      goto out;
    default:
      wp_error_set(err, "malformed HloProto");
      goto out;
    }
    break;
  case WP_HLO_PROTO_WITH_CONFIG:
    switch (wp_hlo_lazy_hlo_proto_module(arena, data, len, &mod)) {
    case 0:
      break;
    case -2:
      wp_error_set(err, "protobuf nesting deeper than %d levels (in "
                   "HloModuleProtoWithConfig.hlo_module)", WP_HLO_MAX_DEPTH);
      goto out;
    default:
      wp_error_set(err, "malformed HloModuleProtoWithConfig");
      goto out;
    }
    config_field(arena, data, len, &config);
    if (!wp_pb_unpack(arena, &xla__hlo_module_config_view__descriptor, config.data,
                      config.len)) {
      wp_error_set(err, "malformed HloModuleProtoWithConfig.config (not an "
                   "HloModuleConfigProto)");
      goto out;
    }
    break;
  case WP_HLO_MODULE_PROTO:
    if (wp_hlo_lazy_unpack(arena, data, len, &mod)) {
      wp_error_set(err, "malformed HloModuleProto (truncated or not protobuf)");
      goto out;
    }
    break;
  }
  /* The checks that need no IR run on a second core beside the import;
   * their verdict comes first, as when they ran before it. */
  import_checks checks = {.mod = &mod, .container = container, .verify = !locs};
  pthread_t checker;
  bool threaded = pthread_create(&checker, NULL, checks_thread, &checks) == 0;
  if (!threaded)
    checks_thread(&checks);
  wp_error import_err = {0};
  im.err = &import_err;
  rc = import_module(&im, &mod, out);
  im.err = err;
  if (threaded)
    pthread_join(checker, NULL);
  if (checks.rc) {
    if (rc == 0)
      mlirModuleDestroy(*out);
    *err = checks.err;
    rc = -1;
    goto out;
  }
  if (rc)
    *err = import_err;
  /* the settings stay as their bytes: export writes them back unchanged */
  if (rc == 0 && config.data)
    wp_set_attr(mlirModuleGetOperation(*out), "hlo.config",
                wp_str_attr(ctx, config.data, config.len));
  if (rc == 0 && !mlirOperationVerify(mlirModuleGetOperation(*out))) {
    mlirModuleDestroy(*out);
    rc = wp_error_set(err, "imported module does not verify");
  }
out:
  if (rc != 0)
    out->ptr = NULL;
  wp_arena_destroy(decoded);
  wp_arena_destroy(arena);
  return rc;
}
