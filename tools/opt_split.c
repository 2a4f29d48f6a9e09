#include "opt_split.h"

#include "opt_args.h"
#include <stdio.h>
#include <stdlib.h>

#include "wp_error.h"

#include <string.h>

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* TEXT[0, LEN) without the blanks around it. */
static const char *trim(const char *text, size_t len, size_t *out_len) {
  while (len && blank(*text)) {
    text++;
    len--;
  }
  while (len && blank(text[len - 1]))
    len--;
  *out_len = len;
  return text;
}

bool opt_split_is_marker(const char *text, size_t len) {
  size_t n;
  const char *t = trim(text, len, &n);
  return n == strlen(OPT_SPLIT_MARKER) && !memcmp(t, OPT_SPLIT_MARKER, n);
}

/* `// ---` and more: what mlir-opt calls a near miss when it is not
 * exactly the marker. */
static bool near_marker(const char *text, size_t len) {
  size_t n;
  const char *t = trim(text, len, &n);
  return n >= 6 && !memcmp(t, "// ---", 6);
}

static bool only_blanks(const char *text, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (!blank(text[i]) && text[i] != '\n')
      return false;
  return true;
}

typedef struct chunks {
  opt_chunk *v;
  size_t n, cap;
} chunks;

/* Adds TEXT[BEGIN, END), whose first line is FIRST_LINE, unless it is
 * blank. */
static void add_chunk(chunks *c, const char *text, size_t begin, size_t end, long first_line) {
  if (only_blanks(text + begin, end - begin))
    return;
  long lines = 0;
  for (size_t i = begin; i < end; i++)
    lines += text[i] == '\n';
  if (text[end - 1] != '\n')
    lines++; /* the last line of a file without a final newline */
  if (c->n == c->cap)
    c->v = wp_xrealloc(c->v, (c->cap = c->cap ? 2 * c->cap : 8) * sizeof *c->v);
  c->v[c->n++] = (opt_chunk){begin, end, first_line, first_line + lines - 1};
}

size_t opt_split(const char *text, size_t len, opt_chunk **out,
                 void (*near_miss)(void *user, long line, long col), void *user) {
  chunks c = {NULL, 0, 0};
  size_t begin = 0;
  long begin_line = 1, line = 1;
  for (size_t at = 0; at < len; line++) {
    const char *nl = memchr(text + at, '\n', len - at);
    size_t line_end = nl ? (size_t)(nl - text) : len;
    if (opt_split_is_marker(text + at, line_end - at)) {
      add_chunk(&c, text, begin, at, begin_line);
      begin = nl ? line_end + 1 : len;
      begin_line = line + 1;
    } else if (near_miss && near_marker(text + at, line_end - at)) {
      size_t lead = 0;
      while (blank(text[at + lead]))
        lead++;
      near_miss(user, line, (long)lead + 7); /* past `// ---`, where mlir-opt points */
    }
    if (!nl)
      break;
    at = line_end + 1;
  }
  add_chunk(&c, text, begin, len, begin_line);
  *out = c.v ? c.v : wp_xmalloc(sizeof *c.v);
  return c.n;
}

char *opt_chunk_text(const char *text, const opt_chunk *chunk, size_t *len) {
  size_t pad = chunk->first_line > 1 ? (size_t)(chunk->first_line - 1) : 0;
  size_t n = chunk->end - chunk->begin;
  char *s = wp_xmalloc(pad + n + 1);
  memset(s, '\n', pad);
  memcpy(s + pad, text + chunk->begin, n);
  s[pad + n] = 0;
  *len = pad + n;
  return s;
}

int opt_split_check_outputs(const opt_config *cfg, size_t n_chunks) {
  if (n_chunks < 2)
    return 0;
  const char *what = cfg->emit_bytecode                 ? "--emit-bytecode writes binary"
                     : !strcmp(cfg->emit, "hlo-proto")    ? "--emit=hlo-proto writes binary"
                     : !strcmp(cfg->emit, "bir-proto")    ? "--emit=bir-proto writes binary"
                                                          : NULL;
  if (what) {
    fprintf(stderr, "error: %s: --split-input-file found %zu chunks, but %s, which cannot be "
                    "joined by '// -----' lines; give one chunk at a time, or write text (MLIR, "
                    "--emit=hlo-text, --emit=bir-json)\n(run '%s --help' for usage)\n",
            cfg->input, n_chunks, what, opt_prog);
    return EXIT_USAGE;
  }
  /* (an artifact-dir= or outline-weights' model-dir= given as a pass
   * option is in the pipeline MLIR parses, not seen here) */
  if (cfg->artifact_dir) {
    fprintf(stderr, "error: %s: --split-input-file found %zu chunks, and each would place its "
                    "constant files in the one artifact directory given; give one chunk at a "
                    "time, or no artifact directory (each chunk then gets a private one)\n"
                    "(run '%s --help' for usage)\n", cfg->input, n_chunks, opt_prog);
    return EXIT_USAGE;
  }
  return 0;
}
