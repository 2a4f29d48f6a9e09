/* The HLO opcodes the hlo dialect names, and the operand form each op has.
 *
 * The table is the single source of the hlo dialect: the IRDL text that
 * opt loads at run time is generated from it (wp_hlo_irdl_text), and the
 * committed dialect/hlo.irdl.mlir is that same text (a test checks it).
 *
 * Why the forms: MLIR 19's IRDL binds a constraint variable to the first type
 * it sees, so one `variadic` operand group only accepts operands of a single
 * type. Ops whose operands legitimately differ in type (tuple, concatenate,
 * reduce, custom-call ...) therefore declare WP_HLO_SEGMENTS variadic groups
 * and carry `operand_segment_sizes`, one group per run of equal types
 * (more runs than that: WP_HLO_WIDE_OP). */
#ifndef WP_HLO_OPCODES_H
#define WP_HLO_OPCODES_H

#include <stddef.h>

enum wp_hlo_form {
  WP_HLO_FIXED,     /* exactly `fixed` operands */
  WP_HLO_TAIL,      /* `fixed` operands, then any number of one type */
  WP_HLO_SEGMENTED, /* WP_HLO_SEGMENTS variadic groups */
  WP_HLO_WIDE,      /* WP_HLO_WIDE_SEGMENTS variadic groups (the wide op only) */
};

#define WP_HLO_SEGMENTS 32
#define WP_HLO_WIDE_SEGMENTS 1024

typedef struct wp_hlo_opcode {
  const char *xla;   /* XLA's opcode string, e.g. "get-tuple-element" */
  const char *mlir;  /* op name inside the dialect, e.g. "get_tuple_element" */
  enum wp_hlo_form form;
  int fixed;
} wp_hlo_opcode;

/* The generic op for opcodes not in the table or instructions whose operand
 * count does not fit their opcode's form; it carries `opcode`. */
#define WP_HLO_GENERIC_OP "op"

/* An instruction whose operands change type more than WP_HLO_SEGMENTS
 * times (the root tuple of a training step that returns hundreds of
 * differently shaped weights) becomes this op, with `opcode` like the
 * generic one and WP_HLO_WIDE_SEGMENTS groups. One op only, so that every
 * other op keeps a short `operand_segment_sizes`. */
#define WP_HLO_WIDE_OP "op_wide"

const wp_hlo_opcode *wp_hlo_opcode_table(size_t *count);
const wp_hlo_opcode *wp_hlo_opcode_by_xla(const char *xla);
const wp_hlo_opcode *wp_hlo_opcode_by_mlir(const char *mlir, size_t len);
const wp_hlo_opcode *wp_hlo_opcode_wide(void);

/* Does an instruction with n operands fit this opcode's form? */
int wp_hlo_opcode_accepts(const wp_hlo_opcode *op, size_t n_operands);

/* The IRDL definition of the hlo dialect (static storage). */
const char *wp_hlo_irdl_text(void);

#endif
