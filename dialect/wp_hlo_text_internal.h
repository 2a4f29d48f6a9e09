/* The HLO text reader's state and the pieces its files share (not public).
 *
 * The reader is recursive descent over the bytes themselves: no token
 * stream, since what a token is depends on where it stands (`1x2` in a
 * window, `b01f_01io->b01f` in dim_labels, `0_0x1_1` in padding). Every
 * read checks the end of the buffer (the text need not end in NUL), and
 * nesting (tuple shapes, shardings, layouts in layouts) is bounded.
 * Its functions are wp_htp_* (HLO text parser): global symbols of
 * libweightpack.so, so in weightpack's wp_ namespace, and short. */
#ifndef WP_HLO_TEXT_INTERNAL_H
#define WP_HLO_TEXT_INTERNAL_H

#include "hlo.pb-c.h"
#include "wp_arena.h"
#include "wp_error.h"
#include "wp_hlo_text.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Deeper tuple shapes or shardings are refused (the importer allows 64
 * levels of protobuf nesting; each costs a few). */
#define WP_HTP_MAX_DEPTH 24

typedef struct htp {
  const char *src;
  size_t len, pos;
  const char *file;
  wp_arena *arena;
  wp_error *err;
  bool failed; /* the first error stays */
  int depth;
  wp_hlo_text_warn_fn warn;
  void *user;
} htp;

/* ---- lexing (wp_hlo_text_lex.c) ---- */

/* Sets "FILE:LINE:COL: MSG" for offset AT (the first error only); -1. */
int wp_htp_fail(htp *p, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void wp_htp_warn(htp *p, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Skips blanks and comments (`// ...` to the line's end, `/ * ... * /`). */
void wp_htp_skip(htp *p);
/* The next byte after blanks, or -1 at the end. */
int wp_htp_peek(htp *p);
/* Consumes S (punctuation) when it comes next. */
bool wp_htp_accept(htp *p, const char *s);
/* Consumes word W when it comes next as a whole word. */
bool wp_htp_accept_word(htp *p, const char *w);
int wp_htp_expect(htp *p, const char *s);
/* An identifier ([A-Za-z_][A-Za-z0-9_.-]*, never eating "->"): its bytes
 * and length; 0 (nothing consumed) when there is none. */
size_t wp_htp_ident(htp *p, const char **s);
/* An instruction or computation name: [%]identifier, or (weightpack's
 * extension, for names XLA's lexer cannot spell) [%]"quoted". */
int wp_htp_name(htp *p, char **out);
int wp_htp_int(htp *p, int64_t *v);
int wp_htp_uint(htp *p, uint64_t *v);
/* An integer that must fit int32 (XLA's kInt32 attributes). */
int wp_htp_int32(htp *p, int32_t *v);
int wp_htp_bool(htp *p, bool *v);
/* XLA's ParseList: START, then ITEM (each reads one element and keeps
 * it in CTX) separated by DELIM, then END. START NULL: already read (or a
 * bare sequence); END NULL: no closing token. The list may be empty where
 * it has both ends, unless FLAGS holds WP_HTP_NONEMPTY. Every list in the
 * reader goes through here. */
typedef int (*wp_htp_item_fn)(htp *p, void *ctx);
#define WP_HTP_NONEMPTY 1u
int wp_htp_list(htp *p, const char *start, const char *end, const char *delim,
                unsigned flags, wp_htp_item_fn item, void *ctx);
/* START int DELIM int ... END into arena memory ({1,2,3}, [2,2], (1,0)). */
int wp_htp_ints(htp *p, const char *start, const char *end, const char *delim,
                unsigned flags, int64_t **v, size_t *n);
/* wp_htp_int_list, and where the list starts in *AT (for errors about
 * its length). */
int wp_htp_int_list_at(htp *p, int64_t **v, size_t *n, size_t *at);
/* {1,2,3} (possibly empty) into arena memory. */
int wp_htp_int_list(htp *p, int64_t **v, size_t *n);
/* XLA's sub-attributes: '{' (','? key '=' value)* '}' where each key is
 * one of KEYS (NULL-terminated, at most 64) and is given once; FN reads
 * the value of KEYS[k] (its name at AT). *SEEN (may be NULL): the keys
 * read, bit k for KEYS[k]. WHAT names the attribute in errors. */
typedef int (*wp_htp_key_fn)(htp *p, void *ctx, size_t k, size_t at);
int wp_htp_sub_attributes(htp *p, const char *what, const char *const *keys,
                          wp_htp_key_fn fn, void *ctx, uint64_t *seen);
/* A growing arena array of ELEM-byte items, for list items to push to. */
typedef struct wp_htp_vec {
  void **arr; /* where the array pointer lives */
  size_t *n;
  size_t cap, elem;
} wp_htp_vec;
/* Appends the ELEM bytes at VAL to V. */
void wp_htp_vec_push(htp *p, wp_htp_vec *v, const void *val);
/* A "quoted" string with C escapes, NUL-terminated in arena memory; *N
 * bytes (may be NULL). Text fields must be UTF-8 without NUL bytes;
 * ANY_BYTES lets bytes fields (backend_config) hold anything. */
int wp_htp_string(htp *p, char **out, size_t *n, bool any_bytes);
/* A number's characters (digits, sign, '.', exponent, inf, nan(0x..),
 * hex) into BUF. */
int wp_htp_number(htp *p, char *buf, size_t cap);
/* A JSON object `{...}` kept as its text (braces and strings balanced). */
int wp_htp_json(htp *p, char **out, size_t *n);

/* Grows an arena array of ELEM-byte items to hold one more. */
void *wp_htp_grow(htp *p, void *arr, size_t n, size_t *cap, size_t elem);
#define WP_HTP_PUSH(p, arr, n, cap, val)                                          \
  do {                                                                         \
    if ((n) == (cap))                                                          \
      (arr) = wp_htp_grow((p), (arr), (n), &(cap), sizeof *(arr));                \
    (arr)[(n)++] = (val);                                                      \
  } while (0)

/* ---- shapes (wp_hlo_text_shape.c) ---- */

/* A shape; arrays without a layout get XLA's default one, as its parser
 * fills them in. */
int wp_htp_shape(htp *p, Xla__ShapeProto **out);
/* Does a shape (not a name) start here? */
bool wp_htp_at_shape(htp *p);
/* (shape, shape, ...)->shape as in entry_computation_layout. */
int wp_htp_program_shape(htp *p, Xla__ProgramShapeProto **out);
/* Packs a view message into the Opaque its field holds. */
Xla__Opaque *wp_htp_opaque(htp *p, const ProtobufCMessage *view);
/* Same element type and dimensions (layouts aside)? */
bool wp_htp_shapes_compatible(const Xla__ShapeProto *a, const Xla__ShapeProto *b);

/* ---- literals (wp_hlo_text_literal.c) ---- */

/* The literal of `constant(...)` for SHAPE (the instruction's). */
int wp_htp_literal(htp *p, const Xla__ShapeProto *shape, Xla__LiteralProto **out);

/* ---- attributes (wp_hlo_text_attrs.c) ---- */

/* What an instruction refers to by name, resolved once the computation
 * (or the module) is read. */
typedef struct wp_htp_ref {
  char *name;
  size_t at;
} wp_htp_ref;

typedef struct wp_htp_instr {
  Xla__HloInstructionProto *msg;
  size_t at;              /* of its name */
  bool root;
  wp_htp_ref *operands;      /* with the shapes written beside them (or NULL) */
  Xla__ShapeProto **operand_shapes;
  size_t n_operands, cap_operands;
  wp_htp_ref *preds;         /* control-predecessors */
  size_t n_preds, cap_preds;
  /* called computations by role; wp_htp_instr_finish orders them as XLA
   * stores them (a while's body before its condition) */
  wp_htp_ref to_apply, body, condition, true_c, false_c, select, scatter_c;
  wp_htp_ref *list;          /* calls=, branch_computations=, called_computations= */
  size_t n_list;
  size_t list_at;
  wp_htp_ref *called;        /* the result */
  size_t n_called;
  /* views filled by several attributes, packed by wp_htp_instr_finish */
  Xla__DotDimensionNumbersView *dot;
  Xla__GatherDimensionNumbersView *gather;
  Xla__ScatterDimensionNumbersView *scatter;
  Xla__PrecisionConfigView *precision;
  Xla__RaggedDotDimensionNumbersView *ragged;
  Xla__TriangularSolveOptionsView *triangular;
  Xla__CholeskyOptionsView *cholesky;
  bool has_type, has_direction;
  bool has_index_vector_dim; /* gather's or scatter's: known at the end */
  int64_t index_vector_dim;
  uint64_t seen[3];       /* attributes read, by table index */
} wp_htp_instr;

/* Reads `name=value` (the comma before it is read) into INS. */
int wp_htp_attribute(htp *p, wp_htp_instr *ins);
/* Was attribute NAME written? */
bool wp_htp_given(const wp_htp_instr *ins, const char *name);
/* After the attributes: packs the views, orders the called computations,
 * and gives the fields no attribute set the values XLA's parser and
 * ToProto give them (feature_group_count=1, a dot's precision_config ...). */
int wp_htp_instr_finish(htp *p, wp_htp_instr *ins);
/* The values with a syntax of their own (wp_hlo_text_attrs_values.c):
 * statistics={...}, origin={...}, domain={...}, result_accuracy={...},
 * a custom call's literal=shape literal. */
int wp_htp_statistics(htp *p, Xla__Opaque **out);
int wp_htp_original_value(htp *p, const Xla__ShapeProto *shape, Xla__Opaque **out);
int wp_htp_domain(htp *p, Xla__Opaque **entry, Xla__Opaque **exit);
int wp_htp_result_accuracy(htp *p, Xla__Opaque **out);
int wp_htp_attr_literal(htp *p, Xla__LiteralProto **out);
/* metadata={...} (an OpMetadata) and frontend_attributes={...}. */
int wp_htp_metadata(htp *p, Xla__Opaque **out);
int wp_htp_frontend_attributes(htp *p, Xla__FrontendAttributes **out);

/* ---- dimension numbers, windows, slices (wp_hlo_text_dnums.c) ---- */

int wp_htp_window(htp *p, Xla__Opaque **out);
int wp_htp_dim_labels(htp *p, Xla__Opaque **out);
int wp_htp_padding(htp *p, Xla__Opaque **out);
int wp_htp_slice(htp *p, Xla__Opaque ***out, size_t *n);
/* output_to_operand_aliasing={ {0}: (1, {}) } */
int wp_htp_operand_aliasing(htp *p, Xla__Opaque ***out, size_t *n);

/* ---- shardings and collectives (wp_hlo_text_sharding.c) ---- */

int wp_htp_sharding(htp *p, Xla__Opaque **out);
int wp_htp_replica_groups(htp *p, Xla__Opaque **out);
int wp_htp_source_target_pairs(htp *p, Xla__Opaque ***out, size_t *n);
/* A shape index {1,0} or {}. */
int wp_htp_shape_index(htp *p, int64_t **v, size_t *n);

#endif
