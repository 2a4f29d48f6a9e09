#include "opt_verify_diag.h"

#include "wp_error.h"
#include "wp_format.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One expected-* comment. */
typedef struct expected {
  MlirDiagnosticSeverity kind;
  long line;     /* the line it applies to; 0 with @unknown */
  bool unknown;  /* @unknown: a diagnostic at no place in a file */
  long at_line, at_col; /* where its `expected-` stands, for reports */
  char *substring;
  bool is_regex, matched;
  regex_t re;
} expected;

struct opt_verifier {
  expected *v;
  size_t n, cap;
  bool failed;
  regex_t form, almost; /* an expectation; something that meant to be one */
};

/* MLIR 19's form, plus @unknown (MLIR 20's): kind, -re, @where, text. */
static const char form_re[] =
    "expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? "
    "*\\{\\{(.*)\\}\\}$";
/* expected-KIND followed by @, -re, a brace or a count: meant as one. */
static const char almost_re[] = "expected-(error|note|remark|warning)(@|-re|[ \t]*[{0-9])";

opt_verifier *opt_verifier_create(void) {
  opt_verifier *v = wp_xcalloc(1, sizeof *v);
  if (regcomp(&v->form, form_re, REG_EXTENDED) || regcomp(&v->almost, almost_re, REG_EXTENDED)) {
    fprintf(stderr, "error: cannot compile the expected-* pattern\n");
    abort();
  }
  return v;
}

static void free_expected(opt_verifier *v) {
  for (size_t i = 0; i < v->n; i++) {
    if (v->v[i].is_regex)
      regfree(&v->v[i].re);
    free(v->v[i].substring);
  }
  v->n = 0;
}

void opt_verifier_destroy(opt_verifier *v) {
  if (!v)
    return;
  free_expected(v);
  free(v->v);
  regfree(&v->form);
  regfree(&v->almost);
  free(v);
}

bool opt_verifier_ok(const opt_verifier *v) { return !v->failed; }

static const char *kind_str(MlirDiagnosticSeverity k) {
  return k == MlirDiagnosticWarning ? "warning"
         : k == MlirDiagnosticNote  ? "note"
         : k == MlirDiagnosticRemark ? "remark"
                                     : "error";
}

/* An error about expectation E, at its `expected-`, as MLIR's verifier
 * prints it (TILDES: the text's length marked after the caret). */
static void report_at(opt_verifier *v, const diag_state *st, long line, long col,
                      const char *msg, size_t tildes) {
  opt_diag_print(st, st->parse_file, line, col, NULL, "error", msg, tildes);
  v->failed = true;
}

/* The regex of an expected-*-re text: the text outside {{...}} matched as
 * is, each {{...}} as a POSIX extended regex. 0, or an error reported. */
static int compile_regex(opt_verifier *v, const diag_state *st, expected *e) {
  size_t cap = 3 * strlen(e->substring) + 1, n = 0;
  char *pat = wp_xmalloc(cap);
  const char *s = e->substring;
  size_t tildes = strlen(e->substring) ? strlen(e->substring) - 1 : 0;
  while (*s) {
    const char *open = strstr(s, "{{");
    const char *lit_end = open ? open : s + strlen(s);
    for (; s < lit_end; s++) {
      if (strchr("()^$|*+?.[]\\{}", *s))
        pat[n++] = '\\';
      pat[n++] = *s;
    }
    if (!open)
      break;
    const char *close = strstr(open + 2, "}}");
    if (!close) {
      free(pat);
      report_at(v, st, e->at_line, e->at_col, "found start of regex with no end '}}'", tildes);
      return -1;
    }
    size_t len = (size_t)(close - (open + 2));
    char *one = wp_format("%.*s", (int)len, open + 2);
    regex_t r;
    int rc = regcomp(&r, one, REG_EXTENDED | REG_NOSUB);
    if (rc) {
      char why[256];
      regerror(rc, &r, why, sizeof why);
      char *msg = wp_format("invalid regex: %s", why);
      report_at(v, st, e->at_line, e->at_col, msg, tildes);
      free(msg);
      free(one);
      free(pat);
      return -1;
    }
    regfree(&r);
    pat[n++] = '(';
    memcpy(pat + n, one, len);
    n += len;
    pat[n++] = ')';
    free(one);
    s = close + 2;
  }
  pat[n] = 0;
  int rc = regcomp(&e->re, pat, REG_EXTENDED | REG_NOSUB);
  free(pat);
  if (rc) {
    report_at(v, st, e->at_line, e->at_col, "invalid regex", tildes);
    return -1;
  }
  e->is_regex = true;
  return 0;
}

static expected *add(opt_verifier *v) {
  if (v->n == v->cap)
    v->v = wp_xrealloc(v->v, (v->cap = v->cap ? 2 * v->cap : 16) * sizeof *v->v);
  memset(&v->v[v->n], 0, sizeof v->v[0]);
  return &v->v[v->n++];
}

void opt_verifier_begin(opt_verifier *v, const diag_state *st, long first_line,
                        long last_line) {
  free_expected(v);
  if (!st->text) /* a model directory, an empty input: nothing expected */
    return;
  const char *p = st->text + st->chunk_begin, *end = st->text + st->chunk_end;
  /* As MLIR: the last line that held no expectation (index from the
   * chunk's first, 0 before any), and the expectations @below waits on. */
  long last_plain = 0, idx = 0;
  size_t *below = NULL, n_below = 0;
  for (;; idx++) {
    const char *nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
    const char *e = nl ? nl : end;
    size_t len = (size_t)(e - p);
    while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r'))
      len--;
    char *line = wp_format("%.*s", (int)len, p);
    long lno = first_line + idx;
    regmatch_t m[6];
    if (regexec(&v->form, line, 6, m, 0) != 0) {
      regmatch_t a[1];
      if (regexec(&v->almost, line, 1, a, 0) == 0) {
        char *msg = wp_format("cannot read this expectation; its form is 'expected-(error|"
                              "warning|remark|note)[-re][@+N|@-N|@above|@below|@unknown] "
                              "{{TEXT}}'");
        report_at(v, st, lno, (long)a[0].rm_so + 1, msg, 0);
        free(msg);
      }
      for (size_t k = 0; k < n_below; k++)
        v->v[below[k]].line = lno;
      n_below = 0;
      last_plain = idx;
    } else {
      expected *x = add(v);
      const char *k = line + m[1].rm_so;
      x->kind = *k == 'e' ? MlirDiagnosticError
                : *k == 'w' ? MlirDiagnosticWarning
                : *k == 'r' ? MlirDiagnosticRemark
                            : MlirDiagnosticNote;
      x->line = lno;
      x->at_line = lno;
      x->at_col = (long)m[0].rm_so + 1;
      x->substring = wp_format("%.*s", (int)(m[5].rm_eo - m[5].rm_so), line + m[5].rm_so);
      bool keep = true;
      if (m[2].rm_so >= 0 && compile_regex(v, st, x))
        keep = false;
      if (keep && m[3].rm_so >= 0) {
        const char *at = line + m[4].rm_so;
        if (*at == '+' || *at == '-') {
          long off = strtol(at + 1, NULL, 10);
          x->line = *at == '+' ? lno + off : lno - off;
          /* the line past the last one too: where the end of the chunk is */
          if (x->line < first_line || x->line > last_line + 1) {
            char *msg = wp_format("'@%.*s' points at line %ld, outside lines %ld to %ld that "
                                  "it can apply to", (int)(m[4].rm_eo - m[4].rm_so), at,
                                  x->line, first_line, last_line + 1);
            report_at(v, st, x->at_line, x->at_col, msg, 0);
            free(msg);
            x->matched = true; /* reported once */
          }
        } else if (*at == 'u') {
          x->unknown = true;
          x->line = 0;
        } else if (*at == 'a') {
          x->line = first_line + last_plain;
        } else {
          below = wp_xrealloc(below, (n_below + 1) * sizeof *below);
          below[n_below++] = v->n - 1;
          x->line = 0; /* dangling: a line past any diagnostic */
        }
      }
      if (!keep) {
        free(x->substring);
        v->n--;
      }
    }
    free(line);
    if (!nl)
      break;
    p = nl + 1;
  }
  free(below);
}

static bool matches(const expected *e, const char *msg) {
  return e->is_regex ? regexec(&e->re, msg, 0, NULL, 0) == 0 : strstr(msg, e->substring) != NULL;
}

void opt_verifier_process(opt_verifier *v, const diag_state *st, const char *file, long line,
                          long col, const char *label, MlirDiagnosticSeverity sev,
                          const char *msg) {
  /* Expectations apply to the input's lines; a diagnostic in another file
   * (a model directory's metadata.json, a .npy) can only be unexpected. */
  bool in_input = file && st->parse_file && !strcmp(file, st->parse_file);
  expected *near = NULL;
  for (size_t i = 0; i < v->n && (in_input || !file); i++) {
    expected *e = &v->v[i];
    if (e->unknown != !file || (file && (e->line != line || line == 0)))
      continue;
    if (matches(e, msg)) {
      if (e->kind == sev) {
        e->matched = true;
        return;
      }
      near = e; /* only the kind differs */
    }
  }
  if (near) {
    char *m = wp_format("'%s' diagnostic emitted when expecting a '%s'", kind_str(sev),
                        kind_str(near->kind));
    report_at(v, st, near->at_line, near->at_col, m, 0);
    free(m);
    return;
  }
  char *m = wp_format("unexpected %s: %s", kind_str(sev), msg);
  opt_diag_print(st, file, line, col, label, "error", m, 0);
  free(m);
  v->failed = true;
}

void opt_verifier_end(opt_verifier *v, const diag_state *st) {
  for (size_t i = 0; i < v->n; i++) {
    expected *e = &v->v[i];
    if (e->matched)
      continue;
    char *m = wp_format("expected %s \"%s\" was not produced", kind_str(e->kind), e->substring);
    size_t len = strlen(e->substring);
    report_at(v, st, e->at_line, e->at_col, m, len ? len - 1 : 0);
    free(m);
  }
  free_expected(v);
}
