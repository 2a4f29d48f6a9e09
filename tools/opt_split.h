/* --split-input-file: an input cut at its `// -----` lines into chunks,
 * each read and run on its own, as mlir-opt does. */
#ifndef OPT_SPLIT_H
#define OPT_SPLIT_H

#include <stdbool.h>
#include <stddef.h>

#define OPT_SPLIT_MARKER "// -----"

typedef struct opt_chunk {
  size_t begin, end; /* its bytes in the input: the lines between two markers */
  long first_line;   /* the input's line number (from 1) of its first line */
  long last_line;    /* of its last line (first_line - 1 when it has none) */
} opt_chunk;

/* Is the line at TEXT (LEN bytes to its end, no newline) a marker: blanks,
 * `// -----`, blanks? Blanks include a CR (CRLF files). */
bool opt_split_is_marker(const char *text, size_t len);

/* Cuts TEXT (LEN bytes) at its marker lines into *CHUNKS (malloc'd, caller
 * frees): a chunk of blanks only (a marker first or last in the file, two
 * in a row) is left out. Returns the count. A line that is almost a marker
 * (`// ----`, `// ------`) is no marker: for each, NEAR_MISS(USER, line,
 * column) is called (NULL: not). */
size_t opt_split(const char *text, size_t len, opt_chunk **chunks,
                 void (*near_miss)(void *user, long line, long col), void *user);

/* The text a reader parses for CHUNK of TEXT: first_line - 1 newlines, then
 * its bytes, then a NUL (malloc'd; *LEN its length without the NUL), so
 * that every line and column a reader reports is the whole input's. */
char *opt_chunk_text(const char *text, const opt_chunk *chunk, size_t *len);

struct opt_config;

/* With N_CHUNKS > 1, an output that cannot be joined by `// -----` lines
 * (bytecode, a protobuf) is bad usage: 0, or EXIT_USAGE after an error
 * line. (-o then names no NEFF: a chunk's neff-pack needs output=.) */
int opt_split_check_outputs(const struct opt_config *cfg, size_t n_chunks);

#endif
