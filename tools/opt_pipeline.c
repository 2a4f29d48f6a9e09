/* opt --pass-pipeline: mlir-opt's textual pipeline, read into the same
 * pass requests the --PASS flags make, so every check opt makes before a
 * pass runs (outputs, artifact directories, what neff-pack brings along)
 * holds for both spellings. */
#include "opt_pipeline.h"

#include "wp_format.h"

#include <mlir-c/Pass.h>
#include <mlir-c/Transforms.h>
#include <stdbool.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ANCHOR "builtin.module"

/* The pipeline is quoted with its control bytes escaped (\xNN): one
 * written over several lines in a script stays a one-line error. The
 * column counts in the quoted text, so each escape before AT adds 3. */
static int pipeline_error(const char *text, const char *at, const char *what) {
  char *shown = wp_escape_controls(text);
  size_t column = (size_t)(at - text) + 1;
  for (const char *c = text; c < at; c++)
    column += (unsigned char)*c < 0x20 || *c == 0x7f ? 3 : 0;
  fprintf(stderr, "error: --pass-pipeline: %s, at column %zu of '%s'\n(run '%s --help' for usage)\n",
          what, column, shown ? shown : text, opt_prog);
  free(shown);
  return EXIT_USAGE;
}

static char *skip_space(char *s) {
  while (isspace((unsigned char)*s))
    s++;
  return s;
}

/* The '}' or ')' closing the '{' or '(' at OPEN: nested ones are
 * counted, values quoted whole ('...' or "..." right after '=', as the
 * pass option parser takes them; a quote inside a value, as in it's.neff,
 * is a character) are skipped, and so are option blocks inside a nested
 * pipeline; NULL when it never closes. */
static char *matching_close(char *open) {
  char o = *open, c = o == '{' ? '}' : ')';
  int depth = 0;
  for (char *s = open; *s; s++) {
    if ((*s == '\'' || *s == '"') && s > open && s[-1] == '=') {
      char *close = strchr(s + 1, *s);
      if (!close)
        return NULL;
      s = close;
    } else if (o == '(' && *s == '{') {
      char *end = matching_close(s);
      if (!end)
        return NULL;
      s = end;
    } else if (*s == o) {
      depth++;
    } else if (*s == c && --depth == 0) {
      return s;
    }
  }
  return NULL;
}

const wp_pass_info opt_upstream_info = {.name = "upstream", .title = "Upstream"};

/* MLIR's transformation passes (canonicalize, cse, symbol-dce, inline ...),
 * registered once, when a pipeline names one. */
static void register_upstream(void) {
  static bool done;
  if (!done)
    mlirRegisterTransformsPasses();
  done = true;
}

static void append_diag(MlirStringRef s, void *user) {
  char *msg = user;
  size_t n = strlen(msg);
  snprintf(msg + n, 1024 - n, "%.*s", (int)s.length, s.data);
}

/* 0 when MLIR's registry has pass NAME and it takes OPTIONS, else
 * EXIT_USAGE after an error line. */
static int upstream_pass_check(const char *name, const char *options) {
  register_upstream();
  char *text = wp_format("builtin.module(%s%s%s%s)", name, options[0] ? "{" : "", options,
                         options[0] ? "}" : "");
  MlirContext ctx = mlirContextCreate();
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  char msg[1024] = "";
  bool ok = text && mlirLogicalResultIsSuccess(mlirParsePassPipeline(
                        mlirPassManagerGetAsOpPassManager(pm),
                        mlirStringRefCreateFromCString(text), append_diag, msg));
  mlirPassManagerDestroy(pm);
  mlirContextDestroy(ctx);
  free(text);
  if (ok)
    return 0;
  /* one line: MLIR's message ends in blank lines */
  for (char *c = msg; *c; c++)
    if (*c == '\n')
      *c = ' ';
  for (size_t n = strlen(msg); n && msg[n - 1] == ' ';)
    msg[--n] = 0;
  if (!strchr(name, '(') && !wp_pass_lookup(name) &&
      strstr(msg, "does not refer to a registered pass"))
    fprintf(stderr, "error: --pass-pipeline: no pass '%s' (opt --list-passes lists "
                    "weightpack's; MLIR's transformation passes, such as canonicalize and cse, "
                    "run too)\n(run '%s --help' for usage)\n", name, opt_prog);
  else
    fprintf(stderr, "error: --pass-pipeline: %s: %s\n(run '%s --help' for usage)\n", name, msg, opt_prog);
  return EXIT_USAGE;
}


/* Does the text from FROM to TO name one of weightpack's passes? */
static bool names_weightpack_pass(const char *from, const char *to) {
  for (const char *s = from; s < to;) {
    while (s < to && !(isalnum((unsigned char)*s) || *s == '-' || *s == '_' || *s == '.'))
      s++;
    const char *w = s;
    while (s < to && (isalnum((unsigned char)*s) || *s == '-' || *s == '_' || *s == '.'))
      s++;
    char word[64];
    if (s > w && (size_t)(s - w) < sizeof word) {
      memcpy(word, w, (size_t)(s - w));
      word[s - w] = 0;
      if (wp_pass_lookup(word))
        return true;
    }
  }
  return false;
}

int opt_parse_pipeline(const char *given, opt_config *cfg) {
  if (cfg->pipeline_text)
    return opt_usage_error("--pass-pipeline given twice ('%s')", given);
  if (cfg->n_passes)
    return opt_usage_error("--pass-pipeline cannot go with pass flags such as --%s; name every "
                           "pass in the pipeline", cfg->passes[0].info->name);
  /* the requests point into this copy, cut where names and options end */
  char *text = strdup(given);
  if (!text) {
    fprintf(stderr, "error: out of memory\n");
    return EXIT_BAD_INPUT;
  }
  cfg->pipeline_text = text;
  char *s = skip_space(text);
  size_t anchor = strlen(ANCHOR);
  if (strncmp(s, ANCHOR, anchor) != 0 || *skip_space(s + anchor) != '(')
    return pipeline_error(given, given + (s - text),
                          "expected " ANCHOR "(...) around the passes (weightpack's passes run "
                          "on the module)");
  s = skip_space(skip_space(s + anchor) + 1);
  if (*s == ')') { /* builtin.module(): no passes, as mlir-opt allows */
    s = skip_space(s + 1);
    return *s ? pipeline_error(given, given + (s - text), "text after the pipeline") : 0;
  }
  for (;;) {
    char *name = s;
    while (isalnum((unsigned char)*s) || *s == '-' || *s == '_' || *s == '.')
      s++;
    size_t len = (size_t)(s - name);
    char *after = skip_space(s);
    if (!len)
      return pipeline_error(given, given + (name - text), "expected a pass name");
    const wp_pass_info *info = NULL;
    const char *options = "", *upstream = NULL;
    char sep;
    if (*after == '(') {
      /* a nested pipeline of MLIR's passes (func.func(cse)) runs as
       * mlir-opt runs it, the whole group one request; weightpack's
       * passes run on the module only */
      char *close = matching_close(after);
      bool ours = close && names_weightpack_pass(after, close);
      if (!close || ours)
        return pipeline_error(given, given + (name - text),
                              ours ? "a nested pipeline; weightpack's passes run on the module, "
                                     "so name them directly inside " ANCHOR "(...)"
                                   : "a nested pipeline without its closing ')'");
      after = skip_space(close + 1);
      sep = *after;
      close[1] = 0; /* the group's text ends here */
      info = &opt_upstream_info;
      upstream = name;
      int bad = upstream_pass_check(name, "");
      if (bad)
        return bad;
    } else {
      if (*after == '{') {
        char *end = matching_close(after);
        if (!end)
          return pipeline_error(given, given + (after - text),
                                "options without their closing '}'");
        *end = 0;
        options = after + 1;
        after = skip_space(end + 1);
      }
      sep = *after;
      *s = 0; /* the name ends here (after the options were cut out) */
      info = wp_pass_lookup(name);
      if (!info) {
        /* one of MLIR's own passes, run as mlir-opt would */
        int bad = upstream_pass_check(name, options);
        if (bad)
          return bad;
        info = &opt_upstream_info;
        upstream = name;
      }
    }
    if (cfg->n_passes == MAX_PASSES)
      return opt_usage_error("too many passes (%s)", name);
    cfg->passes[cfg->n_passes++] = (pass_request){info, options, false, upstream};
    if (sep == ',') {
      s = skip_space(after + 1);
      continue;
    }
    if (sep != ')')
      return pipeline_error(given, given + (after - text),
                            sep ? "expected ',' or ')' after a pass" : "the pipeline never closes");
    s = skip_space(after + 1);
    return *s ? pipeline_error(given, given + (s - text), "text after the pipeline") : 0;
  }
}
