/* XLA's sugared async forms in HLO text (not public): `negate-start`,
 * `custom-call-update`, `fusion-done` ... stand for async-start,
 * async-update and async-done around a computation XLA makes of one
 * instruction and a parameter per operand. The reader makes that
 * computation as XLA's parser does (wp_hlo_text_async.c, with the names
 * XLA's NameUniquer gives it) and makes XLA's parse-time checks of every
 * async op; the printer writes the sugared form back where XLA does and
 * leaves the computation out (wp_hlo_text_print_async.c). */
#ifndef WP_HLO_TEXT_ASYNC_H
#define WP_HLO_TEXT_ASYNC_H

#include "wp_hlo_text_module.h"

/* ---- reading ---- */

/* A computation being read. */
struct wp_htp_comp {
  Xla__HloComputationProto *msg;
  size_t at; /* of its name */
  wp_htp_instr *ins;
  size_t n_ins, cap_ins;
  Xla__ShapeProto *sig_result; /* the signature's result, when written */
  size_t sig_at;
  size_t root;
  /* made for a sugared async-start: its parameters take the shapes of the
   * start's operands, known once the start's computation is resolved */
  bool wrapped;
  /* the async ops written sugared in this computation */
  struct wp_htp_sugar *sugar;
  size_t n_sugar, cap_sugar;
};

/* An async op written sugared: the opcode it names, and for a start the
 * computation made for it. */
typedef struct wp_htp_sugar {
  size_t ins;           /* index in its computation */
  const char *wrapped;  /* "negate" for negate-start */
  size_t comp;          /* async-start: the wrapped computation's index in the module */
} wp_htp_sugar;

/* Names as XLA's NameUniquer gives them (one for computations, one for
 * instructions): a name ending in .N is its root and N; a root already
 * given gets the next free number. */
typedef struct wp_htp_uniquer wp_htp_uniquer;
wp_htp_uniquer *wp_htp_uniquer_new(wp_arena *a);
/* The name XLA gives for NAME, which is taken from then on. */
const char *wp_htp_unique_name(wp_arena *a, wp_htp_uniquer *u, const char *name);
/* The name wp_htp_unique_name would give, nothing taken. */
const char *wp_htp_unique_peek(wp_arena *a, const wp_htp_uniquer *u, const char *name);

/* OPCODE ends in -start, -update or -done after a known opcode: *ASYNC is
 * async-start, async-update or async-done and *WRAPPED the opcode before
 * it (1). 0: it does not; -1: it does but names no opcode XLA can wrap
 * (an error at AT). */
int wp_htp_async_opcode(htp *p, size_t at, const char *opcode, const char **async,
                        const char **wrapped);

/* INS was read as WRAPPED-start (its attributes are the wrapped
 * instruction's): makes the computation XLA's parser makes (pushed to MOD
 * now, before the computation C the start is in), moves to INS what XLA
 * keeps on the start, and records it in C. */
int wp_htp_async_wrap(htp *p, wp_htp_module *mod, wp_htp_comp *c, wp_htp_instr *ins,
                      const char *wrapped);
/* The op about to be pushed to C was written WRAPPED-update or -done. */
void wp_htp_async_sugared(htp *p, wp_htp_comp *c, const char *wrapped);
/* What XLA's parser checks of an async op as it reads it (its shape, its
 * operand count, a start's calls=); SUGARED: it was read sugared. */
int wp_htp_async_read_check(htp *p, const wp_htp_instr *ins, bool sugared);
/* Registers the names of computation C, just read, with MOD's uniquers. */
void wp_htp_async_names(htp *p, wp_htp_module *mod, const wp_htp_comp *c);
/* Once a computation's operands are resolved: the shapes of the
 * parameters of the computations made for its sugared starts. */
void wp_htp_async_param_shapes(wp_htp_module *mod, const wp_htp_comp *c);
/* Once the module's calls are resolved: the starts' wrapped computations,
 * and XLA's checks of each async-update and async-done against its
 * chain's start; what XLA keeps only on the start is dropped from them. */
int wp_htp_async_finish(htp *p, wp_htp_module *mod);

/* ---- printing ---- */

#include "wp_hlo_text_print_internal.h"

/* The computations XLA's printer leaves out: those of the async-starts
 * that print sugared, each called by its start alone. Their ids into
 * HIDDEN (W->comp_index must be filled). */
void wp_hpr_async_hidden(hpr *w, const Xla__HloModuleProto *m, wp_i64map *hidden);
/* The computation async-start, -update or -done M (in C) wraps when it
 * prints sugared (its chain's start's is in HIDDEN), else NULL. */
const Xla__HloComputationProto *wp_hpr_async_sugar(hpr *w, const wp_i64map *hidden,
                                                   const wp_hpr_comp *c,
                                                   const Xla__HloInstructionProto *m);
/* The attributes of sugared async-start R wrapping WRAPPED, in XLA's
 * order; clears in R what it printed, as wp_hpr_attrs does. */
int wp_hpr_async_start_attrs(hpr *w, const wp_hpr_comp *c, Xla__HloInstructionProto *r,
                             const Xla__HloComputationProto *wrapped);
/* An async-update's or -done's calls= and thread when they only repeat
 * its start's (older protos wrote them on every op of a chain): cleared. */
void wp_hpr_async_chain_implied(const wp_hpr_comp *c, Xla__HloInstructionProto *r);

#endif
