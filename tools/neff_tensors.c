#include "neff_tensors.h"

#include "wp_format.h"
#include "wp_jsonw.h"
#include "wp_file.h"

#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void neff_print_name(const char *name) {
  char *shown = wp_escape_controls(name);
  fputs(shown ? shown : "?", stdout);
  free(shown);
}

/* One error line; names from the package have their control bytes escaped
 * (wp_error_set does it). Returns 1. */
static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = wp_vformat(fmt, ap);
  va_end(ap);
  wp_error e;
  wp_error_set(&e, "%s", s ? s : "out of memory");
  free(s);
  fprintf(stderr, "error: %s\n", e.msg);
  return 1;
}

/* The graph members (kelf-N.json) in the order neff.json lists them, or,
 * without a neff.json list, every top-level kelf-N.json in name order.
 * Caller frees the array (the names are C's or neff.json's). */
static const char **graph_names(neff_collect *c, json_t *neff, size_t *n) {
  json_t *graphs = json_object_get(neff, "graphs");
  const char **out = wp_xcalloc(c->n + json_array_size(graphs) + 1, sizeof *out);
  *n = 0;
  if (json_is_array(graphs)) {
    for (size_t i = 0; i < json_array_size(graphs); i++)
      if (json_is_string(json_array_get(graphs, i)))
        out[(*n)++] = json_string_value(json_array_get(graphs, i));
    return out;
  }
  for (size_t i = 0; i < c->n; i++) {
    const char *name = c->by_name[i]->name;
    if (!strncmp(name, "kelf-", 5) && neff_has_suffix(name, ".json") && !strchr(name, '/') &&
        (i == 0 || strcmp(name, c->by_name[i - 1]->name)))
      out[(*n)++] = name;
  }
  return out;
}

static int load_defs(neff_collect *c, const char *path, wp_neff_vars *v, json_t *neff,
                     bool need) {
  size_t n;
  const char **graphs = graph_names(c, neff, &n);
  const char **done = wp_xcalloc(n + 1, sizeof *done);
  size_t n_done = 0;
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++) {
    neff_member *g = neff_find(c, graphs[i]);
    if (!g || !g->text) {
      rc = fail("%s: graph '%s' is %s", path, graphs[i],
                g ? "too large to read" : "not a member of the package");
      break;
    }
    json_t *kelf = json_loads(g->text, 0, NULL);
    const char *def = json_string_value(json_object_get(kelf, "definition"));
    neff_member *d = def ? neff_find(c, def) : NULL;
    bool again = false;
    for (size_t k = 0; d && k < n_done; k++)
      again |= !strcmp(done[k], d->name);
    if (!d)
      rc = fail("%s: graph '%s' names no definition the package holds", path, graphs[i]);
    else if (!d->text)
      rc = fail("%s: %s is %s", path, d->name,
                d->too_big ? "too large to read" : "not a def.json (its name does not end so)");
    else if (!again) {
      wp_error err;
      done[n_done++] = d->name;
      if (wp_neff_vars_add(v, d->name, d->text, (size_t)d->size, &err))
        rc = fail("%s: %s", path, err.msg);
    }
    json_decref(kelf);
  }
  if (!rc && !n && need)
    rc = fail("%s: no def.json: the package names no graph (kelf-N.json)", path);
  free(graphs);
  free(done);
  return rc;
}

int neff_tensors_load(neff_collect *c, const char *path, wp_neff_vars *v, bool need) {
  neff_member *nj = neff_find(c, "neff.json");
  json_t *neff = nj && nj->text ? json_loads(nj->text, 0, NULL) : NULL;
  int rc = load_defs(c, path, v, neff, need);
  json_decref(neff);
  for (size_t i = 0; i < v->n_tensor && !rc; i++) {
    const wp_neff_tensor *t = &v->tensor[i];
    neff_member *m = neff_find(c, t->member);
    if (!m)
      rc = fail("%s: tensor '%s' points into '%s', which the package does not hold", path,
                t->name, t->member);
    else if (t->offset > m->size || t->size > m->size - t->offset)
      rc = fail("%s: tensor '%s' reaches past the end of member '%s'", path, t->name, t->member);
  }
  if (rc)
    wp_neff_vars_free(v);
  return rc;
}

long neff_tensor_find(const wp_neff_vars *v, const char *name) {
  for (size_t i = 0; i < v->n_tensor; i++)
    if (!strcmp(v->tensor[i].name, name))
      return (long)i;
  for (size_t i = 0; i < v->n_tensor; i++) {
    const wp_neff_tensor *t = &v->tensor[i];
    size_t k = strlen(t->folder);
    if (k && !strncmp(name, t->folder, k) && name[k] == '/' && !strcmp(name + k + 1, t->name))
      return (long)i;
  }
  return -1;
}

typedef struct placed {
  const wp_neff_tensor *t;
  size_t i;
} placed;

static int cmp_placed(const void *a, const void *b) {
  const placed *x = a, *y = b;
  int c = strcmp(x->t->member, y->t->member);
  if (c)
    return c;
  if (x->t->offset != y->t->offset)
    return x->t->offset < y->t->offset ? -1 : 1;
  if (x->t->size != y->t->size)
    return x->t->size < y->t->size ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

size_t *neff_tensor_ties(const wp_neff_vars *v) {
  placed *p = wp_xcalloc(v->n_tensor + 1, sizeof *p);
  size_t *first = wp_xcalloc(v->n_tensor + 1, sizeof *first);
  for (size_t i = 0; i < v->n_tensor; i++)
    p[i] = (placed){&v->tensor[i], i};
  qsort(p, v->n_tensor, sizeof *p, cmp_placed);
  for (size_t i = 0, head = 0; i < v->n_tensor; i++) {
    if (i && cmp_placed(&(placed){p[i].t, 0}, &(placed){p[head].t, 0}))
      head = i;
    first[p[i].i] = p[head].i;
  }
  free(p);
  return first;
}

size_t neff_tensor_npy(const wp_neff_tensor *t, char *buf, wp_npy_info *info) {
  wp_error err;
  size_t n = wp_npy_member_prefix(buf, t->dtype, t->shape, t->rank, t->size);
  if (wp_npy_parse(buf, n, n + t->size, info, &err) == 0)
    return n;
  /* a dtype support has no width for (sub-byte integers), or a shape
   * that does not give the size: the bytes as they are */
  n = wp_npy_member_prefix(buf, NULL, NULL, 0, t->size);
  wp_npy_parse(buf, n, n + t->size, info, &err);
  return n;
}

/* ---- ls --tensors ---- */

/* "[8,16]"; caller frees */
static char *shape_text(const wp_neff_tensor *t) {
  size_t cap = 3 + (size_t)t->rank * 21, n = 0;
  char *s = wp_xmalloc(cap);
  s[n++] = '[';
  for (int d = 0; d < t->rank; d++)
    n += (size_t)snprintf(s + n, cap - n, "%s%lld", d ? "," : "", (long long)t->shape[d]);
  snprintf(s + n, cap - n, "]");
  return s;
}

enum { COL_NAME, COL_DTYPE, COL_SHAPE, COL_MEMBER, COL_OFFSET, COL_SIZE, COL_TIE, N_COLS };

static char *escaped(const char *s) {
  char *e = wp_escape_controls(s);
  return e ? e : wp_xstrdup("?");
}

/* The table a person reads: a header, columns padded to their widest
 * cell (numbers to the right), a tie as "same as NAME". */
static void ls_table(const wp_neff_vars *v, const size_t *first) {
  static const char *const head[N_COLS] = {"TENSOR", "DTYPE", "SHAPE", "MEMBER",
                                           "OFFSET", "SIZE",  ""};
  char **cell = wp_xcalloc(v->n_tensor * N_COLS + 1, sizeof *cell);
  size_t width[N_COLS];
  for (int c = 0; c < N_COLS; c++)
    width[c] = strlen(head[c]);
  for (size_t i = 0; i < v->n_tensor; i++) {
    const wp_neff_tensor *t = &v->tensor[i];
    char **row = cell + i * N_COLS;
    row[COL_NAME] = escaped(t->name);
    row[COL_DTYPE] = escaped(t->dtype);
    row[COL_SHAPE] = shape_text(t);
    row[COL_MEMBER] = escaped(t->member);
    row[COL_OFFSET] = wp_format("%llu", (unsigned long long)t->offset);
    row[COL_SIZE] = wp_format("%llu", (unsigned long long)t->size);
    if (first[i] != i) {
      char *of = escaped(v->tensor[first[i]].name);
      row[COL_TIE] = wp_format("same as %s", of);
      free(of);
    } else {
      row[COL_TIE] = wp_xstrdup("");
    }
    for (int c = 0; c < N_COLS; c++)
      if (strlen(row[c]) > width[c])
        width[c] = strlen(row[c]);
  }
  for (size_t i = 0; i <= v->n_tensor; i++) {
    const char *const *row = i ? (const char *const *)cell + (i - 1) * N_COLS : head;
    int last = row[COL_TIE][0] ? COL_TIE : COL_SIZE;
    for (int c = 0; c <= last; c++) {
      bool number = c == COL_OFFSET || c == COL_SIZE;
      int pad = (int)(width[c] - strlen(row[c]));
      printf("%s%*s%s%*s", c ? "  " : "", number ? pad : 0, "", row[c],
             number || c == last ? 0 : pad, "");
    }
    putchar('\n');
  }
  for (size_t i = 0; i < v->n_tensor * N_COLS; i++)
    free(cell[i]);
  free(cell);
}

static void ls_json(const char *path, const wp_neff_vars *v, const size_t *first) {
  wp_jsonw w = {0};
  wp_jsonw_lit(&w, "{");
  wp_jsonw_key(&w, true, "file");
  wp_jsonw_str(&w, path);
  wp_jsonw_key(&w, false, "tensors");
  wp_jsonw_lit(&w, "[");
  for (size_t i = 0; i < v->n_tensor; i++) {
    const wp_neff_tensor *t = &v->tensor[i];
    wp_jsonw_lit(&w, i ? ", {" : "{");
    wp_jsonw_key(&w, true, "name");
    wp_jsonw_str(&w, t->name);
    wp_jsonw_str_field(&w, "function", t->folder);
    wp_jsonw_str_field(&w, "dtype", t->dtype);
    wp_jsonw_key(&w, false, "shape");
    wp_jsonw_int_list(&w, t->shape, (size_t)t->rank);
    wp_jsonw_str_field(&w, "member", t->member);
    wp_jsonw_int_field(&w, "offset", (long long)t->offset);
    wp_jsonw_int_field(&w, "size", (long long)t->size);
    wp_jsonw_key(&w, false, "same_as");
    if (first[i] != i)
      wp_jsonw_str(&w, v->tensor[first[i]].name);
    else
      wp_jsonw_lit(&w, "null");
    wp_jsonw_lit(&w, "}");
  }
  wp_jsonw_lit(&w, "]}\n");
  if (w.oom)
    abort(); /* out of memory, as wp_xmalloc would */
  fwrite(w.p, 1, w.len, stdout);
  free(w.p);
}

int neff_ls_tensors(wp_neff_reader *r, const char *path, bool json) {
  neff_collect c = {0};
  c.keep_json = c.keep_defs = true;
  wp_neff_vars v = {0};
  if (neff_read_all(r, &c, path, NULL))
    return 1;
  if (neff_tensors_load(&c, path, &v, true)) {
    neff_free_members(&c);
    return 1;
  }
  size_t *first = neff_tensor_ties(&v);
  if (json) {
    ls_json(path, &v, first);
  } else {
    ls_table(&v, first);
  }
  free(first);
  wp_neff_vars_free(&v);
  neff_free_members(&c);
  return 0;
}
