/* The HLO text printer's state and the pieces its files share (not
 * public): wp_hlo_text_print.c (module, computations, instructions),
 * _print_attrs.c (attributes), _print_value.c (shapes, literals, names).
 * Its functions are wp_hpr_* (HLO text printer), as the reader's are
 * wp_htp_*. */
#ifndef WP_HLO_TEXT_PRINT_INTERNAL_H
#define WP_HLO_TEXT_PRINT_INTERNAL_H

#include "hlo.pb-c.h"
#include "wp_arena.h"
#include "wp_error.h"
#include "wp_hlo_text.h"
#include "wp_i64map.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The piece a printer hands its sink once it holds this much (at an
 * instruction's end, or between a literal's elements). */
#define WP_HPR_PIECE (64u << 10)

typedef struct hpr {
  wp_arena *arena;
  char *buf; /* the piece being filled: malloc'd, grows, NUL-terminated */
  size_t len, cap;
  wp_hlo_text_warn_fn warn;
  void *user;
  wp_hlo_text_sink_fn sink; /* NULL: pieces are dropped */
  void *sink_user;
  bool checking; /* the dry run: literals' elements are skipped */
  wp_error *err;
  bool failed;
  const Xla__HloModuleProto *mod;
  wp_i64map comp_index; /* computation id -> index in mod */
} hpr;

/* One computation being printed: its instructions by id. */
typedef struct wp_hpr_comp {
  const Xla__HloComputationProto *msg;
  wp_i64map by_id; /* instruction id -> index */
} wp_hpr_comp;

void wp_hpr_putn(hpr *w, const char *s, size_t n);
void wp_hpr_puts(hpr *w, const char *s);
void wp_hpr_printf(hpr *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void wp_hpr_warn(hpr *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hands the piece to the sink once it holds WP_HPR_PIECE bytes (any
 * size with FORCE), where no rewind (a layout's, a metadata's) is pending;
 * -1 when the sink failed, or the printer had already. */
int wp_hpr_flush(hpr *w, bool force);
/* The first error; -1. */
int wp_hpr_fail(hpr *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- values (wp_hlo_text_print_value.c) ---- */

/* A name as an identifier, or quoted where XLA's lexer could not read it
 * (weightpack's reader can). PERCENT: with the '%' instructions and
 * computations take. */
void wp_hpr_name(hpr *w, const char *name, bool percent);
/* "..." with C escapes, as XLA's CEscape writes them. */
void wp_hpr_string(hpr *w, const char *s, size_t n);
void wp_hpr_int_list(hpr *w, const int64_t *v, size_t n); /* {1,2} */
/* A shape; LAYOUT: with its layout ({1,0:T(8,128)}). */
int wp_hpr_shape(hpr *w, const Xla__ShapeProto *s, bool layout);
/* A literal without its shape, for constant(...). */
int wp_hpr_literal(hpr *w, const Xla__LiteralProto *lit, const Xla__ShapeProto *shape);

/* ---- attributes (wp_hlo_text_print_attrs.c, _print_sharding.c,
 * _print_meta.c) ---- */

/* O read as the view message D; NULL (an error set) when it does not
 * read; a warning when it holds fields the view does not know. */
void *wp_hpr_view(hpr *w, const Xla__Opaque *o, const ProtobufCMessageDescriptor *d,
               const char *what);

/* Writes REST's attributes (", name=value" each) and clears in REST every
 * field it wrote or that reading the text gives back by itself. */
int wp_hpr_attrs(hpr *w, const wp_hpr_comp *c, Xla__HloInstructionProto *rest);
/* {op_type="..." op_name="..." ...}: OWNER names its instruction in
 * warnings about fields without a text form. */
void wp_hpr_metadata(hpr *w, const Xla__Opaque *md, const char *owner);
void wp_hpr_frontend_attributes(hpr *w, const Xla__FrontendAttributes *fa);
/* Is S a JSON object XLA prints bare (backend_config, attribute values)? */
bool wp_hpr_json_object(const char *s, size_t n);
/* {replicated}, {devices=[2]0,1 ...}, tuples of them (DEPTH bounds it). */
int wp_hpr_sharding(hpr *w, const Xla__OpShardingView *s, int depth);
/* ", replica_groups=..." from a collective device list or field 49. */
int wp_hpr_replica_groups(hpr *w, const Xla__Opaque *o);
size_t wp_hpr_n_legacy_groups(const Xla__HloInstructionProto *r);
int wp_hpr_legacy_replica_groups(hpr *w, Xla__HloInstructionProto *r);
/* ", source_target_pairs=...", ", output_to_operand_aliasing=...";
 * each clears its field in R. */
int wp_hpr_source_target_pairs(hpr *w, Xla__HloInstructionProto *r);
int wp_hpr_operand_aliasing(hpr *w, Xla__HloInstructionProto *r);
/* ", lhs_batch_dims=... rhs_contracting_dims=..." of D (R: the instruction). */
int wp_hpr_dot_numbers(hpr *w, Xla__HloInstructionProto *r,
                       const Xla__DotDimensionNumbersView *d);
/* The attributes of wp_hlo_text_print_attrs_values.c; each prints its
 * field of R when set (as XLA does) and clears it. */
int wp_hpr_ragged_dot(hpr *w, Xla__HloInstructionProto *r);       /* ragged dot numbers */
int wp_hpr_attr_literal(hpr *w, Xla__HloInstructionProto *r);     /* a custom call's literal= */
int wp_hpr_solver_options(hpr *w, Xla__HloInstructionProto *r);   /* cholesky, triangular-solve */
int wp_hpr_domain(hpr *w, Xla__HloInstructionProto *r);           /* domain= */
int wp_hpr_statistics(hpr *w, Xla__HloInstructionProto *r);       /* statistics= */
int wp_hpr_result_accuracy(hpr *w, Xla__HloInstructionProto *r);  /* result_accuracy= */
int wp_hpr_origin(hpr *w, Xla__HloInstructionProto *r);           /* origin= */
/* The instruction with id ID in C, or NULL. */
const Xla__HloInstructionProto *wp_hpr_instr(const wp_hpr_comp *c, int64_t id);

/* Warns about the fields of MSG (REST, what is left once printed) that
 * the text does not carry: "WHAT: field N (name) is not printed". */
void wp_hpr_leftover(hpr *w, const ProtobufCMessage *rest, const char *what);

#endif
