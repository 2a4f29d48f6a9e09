/* The pass registry and the external-pass wrapper. */
#include "wp_pass.h"

#include "wp_format.h"

#include "weightpack/weightpack.h"
#include "wp_mlir_util.h"

#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>

/* Pass bodies, one file each, in pipeline order. */
extern const wp_pass_info wp_inline_weights_pass;
extern const wp_pass_info wp_outline_weights_pass;
extern const wp_pass_info wp_bir_lower_pass;
extern const wp_pass_info wp_copy_artifacts_pass;
extern const wp_pass_info wp_dedup_pass;
extern const wp_pass_info wp_neff_pack_pass;

static const wp_pass_info *const k_passes[] = {
    &wp_inline_weights_pass,
    &wp_outline_weights_pass, /* its inverse: a frozen module to a model directory */
    &wp_bir_lower_pass,
    &wp_copy_artifacts_pass,
    &wp_dedup_pass,
    &wp_neff_pack_pass,
    NULL,
};

#define N_PASSES (sizeof k_passes / sizeof k_passes[0] - 1)

const wp_pass_info *const *wp_pass_registry(size_t *count) {
  *count = N_PASSES;
  return k_passes;
}

const wp_pass_info *wp_pass_lookup(const char *name) {
  for (size_t i = 0; k_passes[i]; i++)
    if (strcmp(k_passes[i]->name, name) == 0)
      return k_passes[i];
  return NULL;
}

size_t wpPassCount(void) { return N_PASSES; }
const char *wpPassName(size_t i) { return i < wpPassCount() ? k_passes[i]->name : NULL; }
const char *wpPassDescription(size_t i) {
  return i < wpPassCount() ? k_passes[i]->description : NULL;
}

/* ---- options ---- */

static int option_index(const wp_pass_info *info, const char *name, size_t len) {
  for (int i = 0; i < WP_PASS_MAX_OPTIONS && info->options[i].name; i++)
    if (strlen(info->options[i].name) == len && memcmp(info->options[i].name, name, len) == 0)
      return i;
  return -1;
}

/* "a or b", "a, b or c" from "a|b|c". */
static void choices_text(const char *choices, char *out, size_t n) {
  size_t w = 0, count = 1;
  for (const char *c = choices; *c; c++)
    count += *c == '|';
  size_t k = 0;
  for (const char *c = choices; *c && w + 8 < n; c++) {
    if (*c == '|') {
      k++;
      const char *sep = k + 1 == count ? " or " : ", ";
      w += (size_t)snprintf(out + w, n - w, "%s", sep);
    } else {
      out[w++] = *c;
    }
  }
  out[w < n ? w : n - 1] = 0;
}

static int check_value(const wp_pass_info *info, const wp_pass_option_spec *o, const char *v,
                       wp_error *err) {
  if (o->number) {
    char *end;
    errno = 0;
    long long n = strtoll(v, &end, 10);
    if (!*v || *end || errno || n < o->min || n > o->max)
      return wp_error_set(err, "%s: %s=%s is not a number from %lld to %lld", info->name,
                          o->name, v, o->min, o->max);
    if (o->pow2 && (n & (n - 1)))
      return wp_error_set(err, "%s: %s=%s is not a power of two", info->name, o->name, v);
  }
  if (o->choices) {
    size_t len = strlen(v);
    for (const char *c = o->choices; *c;) {
      const char *bar = strchr(c, '|');
      size_t clen = bar ? (size_t)(bar - c) : strlen(c);
      if (clen == len && !strncmp(c, v, len))
        return 0;
      c += clen + (bar ? 1 : 0);
    }
    char list[256];
    choices_text(o->choices, list, sizeof list);
    return wp_error_set(err, "%s: %s=%s: use %s", info->name, o->name, v, list);
  }
  return 0;
}

int wp_pass_parse_options(const wp_pass_info *info, const char *s, wp_pass_options *out,
                          wp_error *err) {
  memset(out, 0, sizeof *out);
  while (s && *s) {
    while (*s == ' ' || *s == '\t')
      s++;
    if (!*s)
      break;
    const char *key = s;
    while (*s && *s != '=' && *s != ' ')
      s++;
    size_t klen = (size_t)(s - key);
    int idx = option_index(info, key, klen);
    if (idx < 0) {
      wp_pass_options_free(out);
      return wp_error_set(err, "pass '%s' has no option '%.*s'", info->name, (int)klen, key);
    }
    if (*s != '=') {
      wp_pass_options_free(out);
      return wp_error_set(err, "pass '%s': option '%.*s' needs a value (%.*s=VALUE)",
                          info->name, (int)klen, key, (int)klen, key);
    }
    s++;
    const char *val = s;
    size_t vlen;
    if (*s == '"' || *s == '\'' || *s == '{') {
      char close = *s == '{' ? '}' : *s;
      val = ++s;
      while (*s && *s != close)
        s++;
      if (!*s) {
        wp_pass_options_free(out);
        return wp_error_set(err, "pass '%s': unterminated value for '%.*s'", info->name,
                            (int)klen, key);
      }
      vlen = (size_t)(s - val);
      s++;
    } else {
      while (*s && *s != ' ' && *s != '\t')
        s++;
      vlen = (size_t)(s - val);
    }
    if (vlen == 0) { /* output= would quietly mean the default */
      wp_pass_options_free(out);
      return wp_error_set(err, "pass '%s': option '%.*s' has an empty value (%.*s=VALUE, or "
                          "leave it out for the default)", info->name, (int)klen, key, (int)klen,
                          key);
    }
    if (out->values[idx]) { /* which one would count is a guess */
      wp_pass_options_free(out);
      return wp_error_set(err, "pass '%s': option '%.*s' is given twice", info->name, (int)klen,
                          key);
    }
    out->values[idx] = wp_xmalloc(vlen + 1);
    memcpy(out->values[idx], val, vlen);
    out->values[idx][vlen] = 0;
    if (check_value(info, &info->options[idx], out->values[idx], err)) {
      wp_pass_options_free(out);
      return -1;
    }
  }
  return 0;
}

void wp_pass_options_free(wp_pass_options *opts) {
  for (int i = 0; i < WP_PASS_MAX_OPTIONS; i++) {
    free(opts->values[i]);
    opts->values[i] = NULL;
  }
}

const char *wp_pass_option(const wp_pass_run *run, const char *name) {
  int i = option_index(run->info, name, strlen(name));
  return i >= 0 && run->options->values[i] ? run->options->values[i] : "";
}

long long wp_pass_option_count(const wp_pass_run *run, const char *name, long long dflt) {
  const char *v = wp_pass_option(run, name);
  /* checked against the spec's bounds when parsed: a run's options come
   * only from wp_pass_parse_options */
  return v[0] ? strtoll(v, NULL, 10) : dflt;
}

long wp_pass_peak_rss_kib(void) {
  struct rusage ru;
  return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
}

MlirPass wpCreatePass(const char *name, const char *options, wp_error *err) {
  return wpRunCreatePass(NULL, name, options, err);
}

MlirPass wpRunCreatePass(wp_run *run, const char *name, const char *options, wp_error *err) {
  if (!name) {
    wp_error_set(err, "wpCreatePass: a null pass name");
    return (MlirPass){NULL};
  }
  const wp_pass_info *info = wp_pass_lookup(name);
  if (!info) {
    wp_error_set(err, "unknown pass '%s'", name);
    return (MlirPass){NULL};
  }
  return wp_pass_create(info, options ? options : "", run, err);
}

/* ---- the run object's settings, for drivers ---- */

wp_run *wpRunCreate(void) { return wp_run_create(); }

void wpRunDestroy(wp_run *run) { wp_run_release(run); }

static int set_string(wp_run *run, char **field, const char *what, const char *value,
                      wp_error *err) {
  if (!run)
    return wp_error_set(err, "%s: a null run", what);
  if (value && !value[0])
    return wp_error_set(err, "%s: an empty path", what);
  free(*field);
  *field = value ? wp_xstrdup(value) : NULL;
  return 0;
}

int wpRunSetModelDir(wp_run *run, const char *dir, wp_error *err) {
  return run ? set_string(run, &run->model_dir, "wpRunSetModelDir", dir, err)
             : wp_error_set(err, "wpRunSetModelDir: a null run");
}

int wpRunSetArtifactDir(wp_run *run, const char *dir, wp_error *err) {
  if (!run)
    return wp_error_set(err, "wpRunSetArtifactDir: a null run");
  run->artifact_dir_private = false;
  return set_string(run, &run->artifact_dir, "wpRunSetArtifactDir", dir, err);
}

int wpRunSetNeffOutput(wp_run *run, const char *path, wp_error *err) {
  return run ? set_string(run, &run->neff_output, "wpRunSetNeffOutput", path, err)
             : wp_error_set(err, "wpRunSetNeffOutput: a null run");
}

const char *wpRunToken(const wp_run *run) { return run ? run->token : NULL; }
