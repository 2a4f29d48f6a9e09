/* opt's diagnostic handler: MLIR's format, FILE:LINE:COL: error: MSG with
 * the source line and a caret under the column, as mlir-opt prints. */
#ifndef OPT_DIAG_H
#define OPT_DIAG_H

#include <mlir-c/Diagnostics.h>

typedef struct diag_state {
  const char *parse_file; /* substituted for the empty buffer name of parsed text */
  long errors;            /* error diagnostics so far */
} diag_state;

/* USER is a diag_state. */
MlirLogicalResult opt_diag_handler(MlirDiagnostic d, void *user);

#endif
