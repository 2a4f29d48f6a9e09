/* Pieces shared by the HLO shape verifier's files (not public). */
#ifndef WP_HLO_VERIFY_INTERNAL_H
#define WP_HLO_VERIFY_INTERNAL_H

#include "hlo.pb-c.h"
#include "wp_arena.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A called computation as its callers see it: parameter shapes by number
 * and the root's shape. */
typedef struct wp_hv_sig {
  const char *name;
  size_t n_params;
  const Xla__ShapeProto **params; /* by number; NULL where a number is missing */
  const char **param_names;       /* by number, as PARAMS */
  const Xla__ShapeProto *root;    /* NULL when the root is not known */
} wp_hv_sig;

struct wp_hv;

/* The instruction being checked, with its operands' instructions. */
typedef struct wp_hv_ins {
  const Xla__HloInstructionProto *ins;
  const Xla__ShapeProto *shape;
  size_t n_ops;
  const Xla__HloInstructionProto *const *ops; /* each non-NULL */
  bool in_fusion; /* in a fusion computation */
} wp_hv_ins;

typedef struct wp_hv {
  wp_arena *scratch; /* released after each instruction */
  char *msg;         /* the error, when a check fails */
  size_t cap;
  /* the signature of computation ID, or NULL when the module has none */
  const wp_hv_sig *(*callee)(struct wp_hv *v, int64_t id);
  void *user;
} wp_hv;

/* Where the walk (wp_hlo_verify.c) reads a module from: an unpacked
 * HloModuleProto, the protobuf importer's lazy form, or the IR after a
 * pass. MOD gives the computations (name, id, root_id, in order), the
 * entry and the host program shape; its instructions are not read. */
typedef struct wp_hv_source {
  const Xla__HloModuleProto *mod;
  void *self;
  size_t (*size)(void *self, size_t c); /* computation C's instructions */
  /* Instruction I of computation C: its id, whether it is a parameter, and
   * its parameter number, known without making the instruction. */
  int64_t (*id)(void *self, size_t c, size_t i);
  bool (*is_param)(void *self, size_t c, size_t i);
  int64_t (*param_number)(void *self, size_t c, size_t i);
  /* The instruction itself, as it is or made in SCRATCH (which the caller
   * gives back); NULL when it cannot be made (the reader of the module
   * says why). */
  const Xla__HloInstructionProto *(*instr)(void *self, wp_arena *scratch, size_t c, size_t i);
} wp_hv_source;

struct wp_hlo_verify_error;

/* Verifies the module SRC reads (wp_hlo_verify_module). */
int wp_hv_verify_source(const wp_hv_source *src, struct wp_hlo_verify_error *e);

/* Formats the error into v->msg; returns -1. */
int wp_hv_fail(wp_hv *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- element types and shapes (wp_hlo_verify_shape.c) ---- */

bool wp_hv_is_float(int t);
bool wp_hv_is_complex(int t);
bool wp_hv_is_integral(int t); /* signed or unsigned, not PRED */
bool wp_hv_is_signed_int(int t);
bool wp_hv_is_array_type(int t);
int wp_hv_bit_width(int t);
/* XLA's PrimitiveType_Name: "F32", "PRED", "TUPLE" ... */
const char *wp_hv_type_name(int t);

bool wp_hv_is_tuple(const Xla__ShapeProto *s);
bool wp_hv_is_array(const Xla__ShapeProto *s);
bool wp_hv_is_scalar(const Xla__ShapeProto *s);
bool wp_hv_is_token(const Xla__ShapeProto *s);
/* Rank of an array (0 for others). */
size_t wp_hv_rank(const Xla__ShapeProto *s);
/* Elements of an array, saturating at INT64_MAX; -1 when a dimension is
 * unbounded. */
int64_t wp_hv_elements(const Xla__ShapeProto *s);

/* Element types equal, or both floating point when IGNORE_FP. */
bool wp_hv_same_type(int a, int b, bool ignore_fp);
/* ShapeUtil::Compatible (IGNORE_FP: CompatibleIgnoringFpPrecision):
 * tuple structure, element types and dimensions; not layouts nor dynamic
 * flags. */
bool wp_hv_compatible(const Xla__ShapeProto *a, const Xla__ShapeProto *b, bool ignore_fp);
/* Same rank and dimensions (element types not compared). */
bool wp_hv_same_dims(const Xla__ShapeProto *a, const Xla__ShapeProto *b);

/* ShapeUtil::HumanString ("f32[2,<=3]", "(s32[], pred[])") in scratch;
 * with its layout when LAYOUT ("f32[2,3]{1,0}"). */
const char *wp_hv_str(wp_hv *v, const Xla__ShapeProto *s, bool layout);
/* "{1, 2}" style list of N values, in scratch; SEP between them. */
const char *wp_hv_list(wp_hv *v, const int64_t *vals, size_t n, const char *sep);

/* A new array shape in scratch: TYPE with DIMS (copied; not dynamic). */
Xla__ShapeProto *wp_hv_make(wp_hv *v, int type, const int64_t *dims, size_t rank);
/* A tuple shape of N elements (the pointers are kept). */
Xla__ShapeProto *wp_hv_make_tuple(wp_hv *v, const Xla__ShapeProto *const *elems, size_t n);

/* CheckShape: fails with XLA's "Expected instruction to have shape equal
 * to ..." unless the instruction's shape is compatible with INFERRED
 * (EXACT: element types too, as XLA compares tuples, calls, ...). */
int wp_hv_check_shape(wp_hv *v, const wp_hv_ins *in, const Xla__ShapeProto *inferred,
                      bool exact);

/* An Opaque submessage re-read as DESC in scratch (an empty message when
 * absent or malformed). */
void *wp_hv_view(wp_hv *v, const void *opaque, const ProtobufCMessageDescriptor *desc);

/* ---- the checks by family; each 0, or -1 via wp_hv_fail ---- */

/* Dispatches on the opcode (wp_hlo_verify_ops.c); unknown opcodes pass. */
int wp_hv_check_instruction(wp_hv *v, const wp_hv_ins *in);

int wp_hv_check_elementwise(wp_hv *v, const wp_hv_ins *in, bool *handled);
int wp_hv_check_data_movement(wp_hv *v, const wp_hv_ins *in, bool *handled);
int wp_hv_check_contraction(wp_hv *v, const wp_hv_ins *in, bool *handled);
int wp_hv_check_control(wp_hv *v, const wp_hv_ins *in, bool *handled);

/* Sums and products of sizes an input gives, saturating at the int64
 * limits (XLA would overflow; a saturated size never matches a shape). */
static inline int64_t wp_hv_add(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? (b > 0 ? INT64_MAX : INT64_MIN) : r;
}
static inline int64_t wp_hv_mul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? (((a < 0) != (b < 0)) ? INT64_MIN : INT64_MAX) : r;
}

/* Is OPCODE NAME? The families look an instruction's opcode up in their
 * tables: the first letter turns most entries away without a call. */
static inline bool wp_hv_opcode_is(const char *opcode, const char *name) {
  return opcode[0] == name[0] && strcmp(opcode, name) == 0;
}

/* XLA's CheckOperandCount. */
int wp_hv_operand_count(wp_hv *v, const wp_hv_ins *in, size_t expected);

#endif
