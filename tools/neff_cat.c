/* neff cat: a member's bytes, or a logical tensor as a standalone .npy.
 *
 * A member name wins over a tensor name (cat of a member is what cat
 * always did). One pass reads the package through, checks it, writes a
 * member that has the name, and keeps the JSON members; only a tensor
 * takes a second pass, which stops after the tensor's member and checks
 * that member against bom.json (the file may have changed in between). */
#include "neff_signals.h"
#include "neff_tensors.h"

#include "wp_file.h"
#include "wp_format.h"
#include "wp_md5.h"

#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct cat_pass {
  neff_collect c;
  const char *want;
  bool found, done, oom, write_failed;
  wp_neff_bom *bom;
  FILE *out;
} cat_pass;

static int member_fn(const char *name, uint64_t size, const void *data, size_t len, void *user) {
  cat_pass *s = user;
  if (neff_collect_fn(name, size, data, len, &s->c)) {
    s->oom = true;
    return 1;
  }
  wp_neff_bom_feed(name, size, data, len, s->bom);
  if (s->done || strcmp(name, s->want) != 0)
    return 0;
  s->found = true;
  if (!data)
    s->done = true;
  else if (fwrite(data, 1, len, s->out) != len) {
    s->write_failed = true;
    return 1;
  }
  return 0;
}

/* The second pass: T's bytes from its member, hashed whole. */
typedef struct tensor_pass {
  const wp_neff_tensor *t;
  FILE *out;
  wp_md5 *h;
  uint64_t seen;
  bool in, done, write_failed;
  char md5[WP_MD5_HEX];
} tensor_pass;

static int tensor_fn(const char *name, uint64_t size, const void *data, size_t len, void *user) {
  (void)size;
  tensor_pass *s = user;
  if (!s->in && strcmp(name, s->t->member) != 0)
    return 0;
  s->in = true;
  if (!data) {
    wp_md5_final_hex(s->h, s->md5);
    s->done = true;
    return 1; /* what follows is not needed: the first pass checked it */
  }
  wp_md5_update(s->h, data, len);
  uint64_t from = s->t->offset, to = s->t->offset + s->t->size;
  uint64_t lo = s->seen > from ? s->seen : from, hi = s->seen + len < to ? s->seen + len : to;
  if (lo < hi && fwrite((const char *)data + (lo - s->seen), 1, (size_t)(hi - lo), s->out) !=
                     (size_t)(hi - lo)) {
    s->write_failed = true;
    return 1;
  }
  s->seen += len;
  return 0;
}

/* Levenshtein distance of A and B when both are short, else a large number. */
static size_t distance(const char *a, const char *b) {
  size_t n = strlen(a), m = strlen(b), row[65];
  if (n > 64 || m > 64)
    return 999;
  for (size_t j = 0; j <= m; j++)
    row[j] = j;
  for (size_t i = 1; i <= n; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= m; j++) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] != b[j - 1]);
      if (row[j] + 1 < best)
        best = row[j] + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[m];
}

/* The tensor name nearest NAME (at most 2 edits), or NULL. */
static const char *did_you_mean(const wp_neff_vars *v, const char *name) {
  const char *best = NULL;
  size_t best_d = 3;
  for (size_t i = 0; i < v->n_tensor; i++) {
    size_t d = distance(name, v->tensor[i].name);
    if (d < best_d)
      best = v->tensor[i].name, best_d = d;
  }
  return best;
}

/* bom.json's MD5 of MEMBER into MD5, or -1. */
static int bom_md5(neff_collect *c, const char *member, char md5[WP_MD5_HEX]) {
  neff_member *bm = neff_find(c, "bom.json");
  json_t *bom = bm && bm->text ? json_loads(bm->text, 0, NULL) : NULL;
  json_t *entries = json_object_get(bom, "members");
  int rc = -1;
  for (size_t i = 0; i < json_array_size(entries) && rc; i++) {
    json_t *e = json_array_get(entries, i);
    const char *name = json_string_value(json_object_get(e, "name"));
    const char *m = json_string_value(json_object_get(e, "md5"));
    if (name && m && !strcmp(name, member) && strlen(m) == WP_MD5_HEX - 1) {
      memcpy(md5, m, WP_MD5_HEX);
      rc = 0;
    }
  }
  json_decref(bom);
  return rc;
}

static int print_error(const char *fmt, const char *a, const char *b, const char *c) {
  wp_error e;
  wp_error_set(&e, fmt, a, b, c);
  fprintf(stderr, "error: %s\n", e.msg);
  return 1;
}

/* The tensor NAME of the package C holds (already read and checked) into OUT. */
static int cat_tensor(cat_pass *s, const char *path, const char *name, FILE *out,
                      uint64_t max_size) {
  wp_neff_vars v = {0};
  if (neff_tensors_load(&s->c, path, &v, true))
    return 1;
  long at = neff_tensor_find(&v, name);
  int rc = 1;
  if (at < 0) {
    const char *near = did_you_mean(&v, name);
    print_error(near ? "%s: no member or tensor '%s' (did you mean '%s'?)"
                     : "%s: no member or tensor '%s'%s",
                path, name, near ? near : "");
    goto out;
  }
  const wp_neff_tensor *t = &v.tensor[at];
  char want[WP_MD5_HEX];
  if (bom_md5(&s->c, t->member, want)) {
    print_error("%s: bom.json has no MD5 for member '%s'%s", path, t->member, "");
    goto out;
  }
  if (out == stdout && isatty(STDOUT_FILENO)) {
    print_error("%s: tensor '%s': not writing a binary .npy to a terminal (give -o FILE)%s",
                path, name, "");
    rc = 2;
    goto out;
  }
  char *head = wp_xmalloc(WP_NPY_MAX_HEADER);
  wp_npy_info info;
  size_t n = neff_tensor_npy(t, head, &info);
  bool wrote = fwrite(head, 1, n, out) == n;
  free(head);
  wp_error err;
  tensor_pass p = {.t = t, .out = out};
  wp_neff_reader *r2 = wrote ? wp_neff_open(path, max_size, &err) : NULL;
  if (!wrote) {
    print_error("%s: tensor '%s': writing: %s", path, name, strerror(errno));
    goto out;
  }
  if (!r2) {
    fprintf(stderr, "error: %s\n", err.msg);
    goto out;
  }
  if (!(p.h = wp_md5_create(&err))) {
    fprintf(stderr, "error: %s: %s\n", path, err.msg);
    wp_neff_close(r2);
    goto out;
  }
  int got = wp_neff_each_member(r2, tensor_fn, &p, &err);
  wp_neff_close(r2);
  wp_md5_destroy(p.h);
  if (p.write_failed)
    print_error("%s: tensor '%s': writing: %s", path, name, strerror(errno));
  else if (got < 0)
    fprintf(stderr, "error: %s\n", err.msg);
  else if (!p.done || strcmp(p.md5, want) != 0)
    print_error("%s: member '%s' does not match its MD5 in bom.json (%s)",
                path, t->member, want);
  else
    rc = 0;
out:
  wp_neff_vars_free(&v);
  return rc;
}

int neff_cat(wp_neff_reader *r, const char *path, const char *name, const char *out_path,
             uint64_t max_size) {
  wp_error err;
  wp_output *out = NULL;
  if (out_path && wp_same_path_file(out_path, path)) {
    fprintf(stderr, "error: cat: the output '%s' is the NEFF it reads: write a new file\n",
            out_path);
    return 2;
  }
  if (out_path) {
    neff_catch_signals(NULL);
    if (!(out = wp_output_open(out_path, &err))) {
      fprintf(stderr, "error: %s\n", err.msg);
      return 1;
    }
  }
  cat_pass s = {.want = name, .out = out ? wp_output_stream(out) : stdout};
  s.c.keep_json = s.c.keep_defs = s.c.skip_md5 = true;
  if (!(s.bom = wp_neff_bom_new(name, &err))) {
    fprintf(stderr, "error: %s: %s\n", path, err.msg);
    wp_output_abort(out);
    return 1;
  }
  int rc = wp_neff_each_member(r, member_fn, &s, &err), failed = 1;
  if (s.write_failed)
    print_error("%s: member '%s': writing: %s", path, name, strerror(errno));
  else if (s.oom || (rc == 0 && neff_index_members(&s.c)))
    fprintf(stderr, "error: out of memory\n");
  else if (rc)
    fprintf(stderr, "error: %s\n", err.msg);
  else if (s.found && wp_neff_bom_check(s.bom, path, &err))
    fprintf(stderr, "error: %s\n", err.msg);
  else if (s.found)
    failed = 0;
  else
    failed = cat_tensor(&s, path, name, s.out, max_size);
  wp_neff_bom_free(s.bom);
  neff_free_members(&s.c);
  if (out && !failed && wp_output_commit(out, &err)) {
    fprintf(stderr, "error: %s\n", err.msg);
    failed = 1;
  } else if (out && failed) {
    wp_output_abort(out);
  }
  return failed;
}
