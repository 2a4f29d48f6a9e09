/* opt's diagnostic handler: MLIR's format, FILE:LINE:COL: error: MSG with
 * the source line and a caret under the column, as mlir-opt prints; or,
 * with --verify-diagnostics, each diagnostic checked against the input's
 * expected-* comments (opt_verify_diag.h). */
#ifndef OPT_DIAG_H
#define OPT_DIAG_H

#include <mlir-c/Diagnostics.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct opt_verifier opt_verifier;

typedef struct diag_state {
  const char *parse_file; /* substituted for the empty buffer name of parsed text */
  long errors;            /* error diagnostics so far */
  /* The input's bytes while a run uses them (NULL: source lines are read
   * again from parse_file), and the part of them the current module was
   * read from (a --split-input-file chunk, or all). */
  const char *text;
  size_t text_len, chunk_begin, chunk_end;
  /* The input is HLO text (its ops are located at their lines, as
   * parsed MLIR's are; the bytes are kept to show those lines). */
  bool hlo_text;
  opt_verifier *verifier; /* --verify-diagnostics: diagnostics go there */
  struct opt_progress *progress; /* the progress line, cleared before a diagnostic; or NULL */
} diag_state;

/* USER is a diag_state. */
MlirLogicalResult opt_diag_handler(MlirDiagnostic d, void *user);

/* Prints "FILE:LINE:COL: KIND: MSG", then, when FILE is the input and
 * LINE > 0, its source line with a caret under COL and TILDES '~' after
 * it; "KIND: LABEL: MSG" when FILE is NULL and LABEL is not, else
 * "KIND: MSG". On stderr. */
void opt_diag_print(const diag_state *st, const char *file, long line, long col,
                    const char *label, const char *kind, const char *msg, size_t tildes);

/* Reports MSG, a reader's error, as an error diagnostic in CTX (so that
 * --verify-diagnostics sees it): one that starts "INPUT:LINE:COL: " is
 * placed there. */
void opt_diag_error(MlirContext ctx, const char *msg);

#endif
