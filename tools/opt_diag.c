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

/* In the current chunk of HLO text, where instruction or computation NAME
 * is defined: a line `[ROOT|ENTRY] [%]NAME =` or `... NAME (` / `NAME {`;
 * false when none or more than one line does. */
static bool hlo_name_place(const diag_state *st, const char *name, long *line, long *col) {
  size_t nlen = strlen(name);
  const char *p = st->text + st->chunk_begin, *end = st->text + st->chunk_end;
  long at = 1, found = 0;
  for (const char *q = st->text; q < p; q++)
    at += *q == '\n';
  for (; p < end; at++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end, *s = p;
    while (s < e && (*s == ' ' || *s == '\t'))
      s++;
    for (int k = 0; k < 2; k++) { /* ROOT or ENTRY before the name */
      static const char *const words[] = {"ROOT ", "ENTRY "};
      size_t w = strlen(words[k]);
      if ((size_t)(e - s) > w && !memcmp(s, words[k], w)) {
        s += w;
        while (s < e && *s == ' ')
          s++;
      }
    }
    const char *start = s;
    if (s < e && *s == '%')
      s++;
    if ((size_t)(e - s) > nlen && !memcmp(s, name, nlen)) {
      const char *t = s + nlen;
      while (t < e && (*t == ' ' || *t == '\t'))
        t++;
      if (t < e && (*t == '=' || *t == '(' || *t == '{')) {
        if (found++)
          return false;
        *line = at;
        *col = (long)(start - p) + 1;
      }
    }
    if (!nl)
      break;
    p = nl + 1;
  }
  return found == 1;
}

/* The NAME of a location printed as loc("NAME"("FILE":0:0)) into BUF. */
static bool name_of_loc(MlirLocation loc, char *buf, size_t size) {
  text_buf b = {NULL, 0, 0};
  mlirLocationPrint(loc, text_cb, &b);
  bool ok = false;
  if (b.s && !strncmp(b.s, "loc(\"", 5)) {
    char *q = strstr(b.s + 5, "\"(");
    size_t n = q ? (size_t)(q - (b.s + 5)) : 0;
    if (q && n && n < size && !memchr(b.s + 5, '\\', n)) {
      memcpy(buf, b.s + 5, n);
      buf[n] = 0;
      ok = true;
    }
  }
  free(b.s);
  return ok;
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
  char name[512];
  if (known && split_file_line_col(path, &line, &col)) {
    file = path;
    if (line == 0 && st->hlo_text && st->text && st->parse_file &&
        !strcmp(file, st->parse_file) && name_of_loc(loc, name, sizeof name) &&
        !hlo_name_place(st, name, &line, &col))
      line = col = 0;
  } else if (known) {
    label = where;
  } else if (message_place(st, &msg, &line, &col)) {
    file = st->parse_file;
  }
  if (st->verifier) {
    if (sev != MlirDiagnosticNote || !is_operation_dump(msg))
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
