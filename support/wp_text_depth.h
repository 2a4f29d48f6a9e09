/* How deeply brackets nest in MLIR text, found before MLIR parses it:
 * MLIR's parser (and its verifier and printer after it) recurse once per
 * level, so a few kilobytes of "module {" exhaust the stack. */
#ifndef WP_TEXT_DEPTH_H
#define WP_TEXT_DEPTH_H

#include <stddef.h>

/* The most deeply nested bracket ( [ { < of TEXT, outside string literals
 * and // comments ("->" closes nothing); scanning stops past LIMIT.
 * *LINE receives the line (from 1) where that depth was reached. */
size_t wp_text_depth(const char *text, size_t len, size_t limit, size_t *line);

#endif
