/* --verify-diagnostics: the diagnostics of a run checked against the
 * expected-error/-warning/-remark/-note comments of its input, as MLIR 19's
 * SourceMgrDiagnosticVerifierHandler checks them (with its wording), in C
 * on opt's C-level diagnostic handler. */
#ifndef OPT_VERIFY_DIAG_H
#define OPT_VERIFY_DIAG_H

#include "opt_diag.h"

#include <mlir-c/Diagnostics.h>
#include <stdbool.h>

opt_verifier *opt_verifier_create(void);
void opt_verifier_destroy(opt_verifier *v);

/* Reads the expectations in ST's current chunk (st->text from
 * st->chunk_begin to st->chunk_end, lines from FIRST_LINE); one it cannot
 * read, or that points outside the chunk, is reported now. */
void opt_verifier_begin(opt_verifier *v, const diag_state *st, long first_line,
                        long last_line);

/* One diagnostic (a note too, on its own): at FILE:LINE:COL (FILE NULL: at
 * no place in a file, LABEL then what the location said or NULL). Matched
 * against the expectations, else reported as unexpected. */
void opt_verifier_process(opt_verifier *v, const diag_state *st, const char *file, long line,
                          long col, const char *label, MlirDiagnosticSeverity sev,
                          const char *msg);

/* Reports each expectation of the chunk that no diagnostic met, and
 * forgets them. */
void opt_verifier_end(opt_verifier *v, const diag_state *st);

/* Has every expectation so far been met, and nothing else come? */
bool opt_verifier_ok(const opt_verifier *v);

#endif
