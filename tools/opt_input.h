/* opt's input: its bytes, what kind they are, and the module read from
 * them. */
#ifndef OPT_INPUT_H
#define OPT_INPUT_H

#include "opt_diag.h"
#include "wp_file.h"

#include <mlir-c/IR.h>
#include <stdbool.h>

typedef enum opt_input_kind {
  OPT_IN_SNIFF,     /* told by the bytes (and the name) */
  OPT_IN_HLO_TEXT,  /* XLA's HLO text */
  OPT_IN_MLIR_TEXT, /* MLIR text */
  OPT_IN_OTHER,     /* anything else: protobuf, bytecode, JSON, unknown */
} opt_input_kind;

/* The input's bytes: "-" is standard input, and a pipe or FIFO (a process
 * substitution, mlir-opt piped in) is read to its end; a file is mapped. */
int opt_read_input(const char *path, wp_mapped_file *f, wp_error *err);

/* What kind of input DATA (SIZE bytes, named PATH) is. */
opt_input_kind opt_input_kind_of(const char *path, const unsigned char *data, size_t size);

/* Reads the module in DATA (SIZE bytes) of KIND (OPT_IN_SNIFF: its bytes
 * say) into *OUT. PATH names it in messages; ds->parse_file becomes PATH
 * for text. 0, or -1 after an error line (a diagnostic for text). */
int opt_parse_input(MlirContext ctx, const char *path, const unsigned char *data, size_t size,
                    opt_input_kind kind, diag_state *ds, MlirModule *out);

#endif
