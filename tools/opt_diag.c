#include "opt_diag.h"
#include "opt_progress.h"

#include "opt_verify_diag.h"
#include "wp_error.h"
#include "wp_mlir_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


/* A growing string for what MLIR prints in pieces. */
typedef struct text_buf {
  char *s;
  size_t n, cap;
} text_buf;

static void text_cb(MlirStringRef s, void *user) {
  text_buf *b = user;
  if (b->n + s.length + 1 > b->cap) {
    b->cap = 2 * (b->n + s.length + 1);
    b->s = wp_xrealloc(b->s, b->cap);
  }
  memcpy(b->s + b->n, s.data, s.length);
  b->n += s.length;
  b->s[b->n] = 0;
}

/* MLIR's verifier notes "see current operation: ..." with the whole op
 * printed: one line for a small op, but a whole function or module (100
 * lines and more) for a symbol clash. Those are left out: the error line
 * and its location say what and where. (mlir-opt prints none with
 * --verify-diagnostics.) */
static bool is_operation_dump(const char *msg) {
  return !strncmp(msg, "see current operation", 21) &&
         (strchr(msg, '\n') != NULL || strlen(msg) > 300);
}

/* LOC ("file:3:4", as wp_loc_str gives it) split at its last two colons;
 * false when it does not end in :LINE:COL. */
static bool split_file_line_col(char *loc, long *line, long *col) {
  char *c2 = strrchr(loc, ':');
  if (!c2 || c2 == loc)
    return false;
  *c2 = 0;
  char *c1 = strrchr(loc, ':');
  *c2 = ':';
  if (!c1)
    return false;
  char *end;
  *line = strtol(c1 + 1, &end, 10);
  if (end != c2 || c1[1] == 0 || c1[1] == '-')
    return false;
  *col = strtol(c2 + 1, &end, 10);
  if (*end || c2[1] == 0 || c2[1] == '-')
    return false;
  *c1 = 0;
  return true;
}

/* Prints LINE of TEXT and a caret under COL, TILDES '~' after it (within
 * the line); nothing for a long or unprintable line (a resource blob). */
static void show_line(const char *text, size_t n, long col, size_t tildes) {
  enum { MAX_SHOWN = 4096 };
  if (n == 0 || n > MAX_SHOWN)
    return;
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)text[i] < 0x20 && text[i] != '\t')
      return;
  fprintf(stderr, "%.*s\n", (int)n, text);
  long i = 1;
  for (; i < col && (size_t)i <= n; i++)
    fputc(text[i - 1] == '\t' ? '\t' : ' ', stderr);
  fputc('^', stderr);
  for (size_t k = 0; k < tildes && (size_t)i + k < n; k++)
    fputc('~', stderr);
  fputc('\n', stderr);
}

/* Line LINE (from 1) of the input, from the bytes kept in ST or else read
 * again from the file PATH (a regular file only), a byte at a time. */
static void print_source_line(const diag_state *st, const char *path, long line, long col,
                              size_t tildes) {
  if (line <= 0)
    return;
  if (st->text) {
    const char *p = st->text, *end = st->text + st->text_len;
    for (long at = 1; at < line; at++) {
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      if (!nl)
        return;
      p = nl + 1;
    }
    size_t n = 0;
    while (p + n < end && p[n] != '\n' && p[n] != '\r')
      n++;
    show_line(p, n, col, tildes);
    return;
  }
  struct stat st_;
  if (stat(path, &st_) != 0 || !S_ISREG(st_.st_mode))
    return;
  FILE *f = fopen(path, "r");
  if (!f)
    return;
  enum { MAX_SHOWN = 4096 };
  char text[MAX_SHOWN + 1];
  size_t n = 0;
  long at = 1;
  for (int c; (c = getc(f)) != EOF;) {
    if (at < line) {
      at += c == '\n';
      continue;
    }
    if (c == '\n' || c == '\r')
      break;
    if (n == MAX_SHOWN) {
      n = MAX_SHOWN + 1; /* too long to show */
      break;
    }
    text[n++] = (char)c;
  }
  fclose(f);
  if (at == line && n <= MAX_SHOWN)
    show_line(text, n, col, tildes);
}

void opt_diag_print(const diag_state *st, const char *file, long line, long col,
                    const char *label, const char *kind, const char *msg, size_t tildes) {
  if (file) {
    fprintf(stderr, "%s:%ld:%ld: %s: %s\n", file, line, col, kind, msg);
    if (st->parse_file && !strcmp(file, st->parse_file)) /* the input, no other file */
      print_source_line(st, file, line, col, tildes);
  } else if (label) {
    fprintf(stderr, "%s: %s: %s\n", kind, label, msg);
  } else {
    fprintf(stderr, "%s: %s\n", kind, msg);
  }
}

/* A diagnostic at no place whose message starts "INPUT:LINE:COL: " (a
 * reader's error or warning) is at that place: *MSG is moved past it. */
static bool message_place(const diag_state *st, const char **msg, long *line, long *col) {
  size_t n = st->parse_file ? strlen(st->parse_file) : 0;
  const char *m = *msg;
  if (!n || strncmp(m, st->parse_file, n) || m[n] != ':')
    return false;
  char *end;
  long l = strtol(m + n + 1, &end, 10);
  if (end == m + n + 1 || *end != ':' || l <= 0)
    return false;
  const char *c_at = end + 1;
  long c = strtol(c_at, &end, 10);
  if (end == c_at || *end != ':' || end[1] != ' ' || c <= 0)
    return false;
  *line = l;
  *col = c;
  *msg = end + 2;
  return true;
}

MlirLogicalResult opt_diag_handler(MlirDiagnostic d, void *user) {
  diag_state *st = user;
  opt_progress_clear(st->progress);
  MlirDiagnosticSeverity sev = mlirDiagnosticGetSeverity(d);
  const char *kind = sev == MlirDiagnosticWarning ? "warning"
                     : sev == MlirDiagnosticNote  ? "note"
                     : sev == MlirDiagnosticRemark ? "remark"
                                                   : "error";
  if (sev == MlirDiagnosticError)
    st->errors++;
  text_buf text = {NULL, 0, 0};
  mlirDiagnosticPrint(d, text_cb, &text);
  const char *msg = text.s ? text.s : "";
  MlirLocation loc = mlirDiagnosticGetLocation(d);
  char where[1200], path[1200];
  wp_loc_str(loc, where, sizeof where);
  bool known = strcmp(where, "unknown") != 0 && where[0] != 0;
  /* Text parsed from memory has the buffer name "-" (or none). */
  if (known && st->parse_file && (where[0] == ':' || (where[0] == '-' && where[1] == ':')))
    snprintf(path, sizeof path, "%s%s", st->parse_file, where[0] == '-' ? where + 1 : where);
  else
    snprintf(path, sizeof path, "%s", where);
  long line = 0, col = 0;
  const char *file = NULL, *label = NULL;
  if (known && split_file_line_col(path, &line, &col)) {
    file = path;
  } else if (known) {
    label = where;
  } else if (message_place(st, &msg, &line, &col)) {
    file = st->parse_file;
  }
  if (st->verifier) {
    /* mlir-opt attaches no "see current operation" note when verifying
     * (printOpOnDiagnostic off); the C API cannot turn it off, so drop it */
    if (sev != MlirDiagnosticNote || strncmp(msg, "see current operation", 21) != 0)
      opt_verifier_process(st->verifier, st, file, line, col, label, sev, msg);
  } else if (sev == MlirDiagnosticRemark && !file && !label) {
    /* A remark about no place in the IR is what a pass tells the user as
     * it goes (the spec's "Const File de-dup saved N KB", --debug's logs):
     * a plain line, as the reference compiler prints it. */
    fprintf(stderr, "%s\n", msg);
  } else if (sev != MlirDiagnosticNote || !is_operation_dump(msg)) {
    opt_diag_print(st, file, line, col, label, kind, msg, 0);
  }
  free(text.s);
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); i++)
    opt_diag_handler(mlirDiagnosticGetNote(d, i), user);
  return mlirLogicalResultSuccess();
}

void opt_diag_error(MlirContext ctx, const char *msg) {
  mlirEmitError(mlirLocationUnknownGet(ctx), msg);
}
