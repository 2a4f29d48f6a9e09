#include "opt_diag.h"

#include "wp_mlir_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void print_cb(MlirStringRef s, void *user) { fwrite(s.data, 1, s.length, user); }

/* MLIR's verifier notes "see current operation: ..." with the whole op
 * printed: one line for a small op, but a whole function or module (100
 * lines and more) for a symbol clash. Those are left out: the error line
 * and its location say what and where. */
typedef struct note_text {
  size_t len;
  bool dump, newline;
} note_text;

static void note_scan_cb(MlirStringRef s, void *user) {
  note_text *t = user;
  if (t->len == 0)
    t->dump = s.length >= 21 && !memcmp(s.data, "see current operation", 21);
  t->newline |= memchr(s.data, '\n', s.length) != NULL;
  t->len += s.length;
}

static bool is_operation_dump(MlirDiagnostic note) {
  note_text t = {0, false, false};
  mlirDiagnosticPrint(note, note_scan_cb, &t);
  return t.dump && (t.newline || t.len > 300);
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

/* Line LINE (from 1) of the text file PATH, and a caret under column
 * COL; nothing when it is no regular file, there is no such line (a
 * protobuf's 0:0), or the line is long (a resource blob's): read a byte at
 * a time, keeping at most one short line. */
static void print_source_line(const char *path, long line, long col) {
  struct stat st;
  if (line <= 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return;
  FILE *f = fopen(path, "r");
  if (!f)
    return;
  enum { MAX_SHOWN = 4096 };
  char text[MAX_SHOWN + 1];
  size_t n = 0;
  bool too_long = false, printable = true;
  long at = 1;
  for (int c; (c = getc(f)) != EOF;) {
    if (at < line) {
      at += c == '\n';
      continue;
    }
    if (c == '\n' || c == '\r')
      break;
    if (n == MAX_SHOWN) {
      too_long = true;
      break;
    }
    printable &= c >= 0x20 || c == '\t';
    text[n++] = (char)c;
  }
  fclose(f);
  if (at < line || too_long || !printable || n == 0)
    return;
  text[n] = 0;
  fprintf(stderr, "%s\n", text);
  for (long i = 1; i < col && (size_t)i <= n; i++)
    fputc(text[i - 1] == '\t' ? '\t' : ' ', stderr);
  fputs("^\n", stderr);
}

MlirLogicalResult opt_diag_handler(MlirDiagnostic d, void *user) {
  diag_state *st = user;
  const char *kind = "error";
  switch (mlirDiagnosticGetSeverity(d)) {
  case MlirDiagnosticWarning: kind = "warning"; break;
  case MlirDiagnosticNote: kind = "note"; break;
  case MlirDiagnosticRemark: kind = "remark"; break;
  default: break;
  }
  if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticError)
    st->errors++;
  char loc[1024];
  wp_loc_str(mlirDiagnosticGetLocation(d), loc, sizeof loc);
  bool known = strcmp(loc, "unknown") != 0 && loc[0] != 0;
  /* A remark about no place in the IR is what a pass tells the user as it
   * goes (the spec's "Const File de-dup saved N KB", --debug's logs): a
   * plain line, as the reference compiler prints it. */
  if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticRemark && !known) {
    mlirDiagnosticPrint(d, print_cb, stderr);
    fputc('\n', stderr);
    return mlirLogicalResultSuccess();
  }
  /* Text parsed from memory has the buffer name "-" (or none). */
  char where[1200];
  const char *file = loc;
  if (known && st->parse_file && (loc[0] == ':' || (loc[0] == '-' && loc[1] == ':'))) {
    snprintf(where, sizeof where, "%s%s", st->parse_file, loc[0] == '-' ? loc + 1 : loc);
    file = where;
  }
  char path[1200];
  snprintf(path, sizeof path, "%s", file);
  long line = 0, col = 0;
  if (known && split_file_line_col(path, &line, &col)) {
    /* MLIR's own form: FILE:LINE:COL: error: MSG, then the line and a caret */
    fprintf(stderr, "%s:%ld:%ld: %s: ", path, line, col, kind);
    mlirDiagnosticPrint(d, print_cb, stderr);
    fputc('\n', stderr);
    if (st->parse_file && !strcmp(path, st->parse_file)) /* the input, no other file */
      print_source_line(path, line, col);
  } else {
    fprintf(stderr, "%s: ", kind);
    if (known)
      fprintf(stderr, "%s: ", file);
    mlirDiagnosticPrint(d, print_cb, stderr);
    fputc('\n', stderr);
  }
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); i++)
    if (!is_operation_dump(mlirDiagnosticGetNote(d, i)))
      opt_diag_handler(mlirDiagnosticGetNote(d, i), user);
  return mlirLogicalResultSuccess();
}
