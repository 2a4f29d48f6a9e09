/* neff diff: header fields, members, variables and tensors of two
 * packages, each section sorted. Both are read through once (checked as
 * every command checks a package, members hashed, JSON members kept);
 * tensors whose bytes may differ are then compared element by element
 * (neff_diff_bytes.c), which reads each package again only as far as
 * those tensors' members. */
#include "neff_diff.h"

#include "neff_diff_bytes.h"
#include "neff_tensors.h"
#include "wp_format.h"
#include "wp_jsonw.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct side {
  const char *path;
  wp_neff_header h;
  neff_collect c;
  wp_neff_vars v;
} side;

static int load(side *s, uint64_t max_size) {
  wp_error err;
  wp_neff_reader *r = wp_neff_open(s->path, max_size ? max_size : UINT64_MAX, &err);
  if (!r) {
    fprintf(stderr, "error: %s\n", err.msg);
    return 1;
  }
  s->h = *wp_neff_get_header(r);
  s->c.keep_json = s->c.keep_defs = true;
  int rc = neff_read_all(r, &s->c, s->path, NULL) ||
           neff_tensors_load(&s->c, s->path, &s->v, false);
  wp_neff_close(r);
  return rc;
}

/* ---- output: text lines or one JSON object, built in memory ---- */

typedef struct out {
  bool json;
  wp_jsonw w;
  size_t n; /* items in the current JSON list */
  size_t total;
} out;

static void item_start(out *o, const char *change) {
  o->total++;
  if (o->json) {
    wp_jsonw_lit(&o->w, o->n++ ? ", {" : "{");
    wp_jsonw_key(&o->w, true, "change");
    wp_jsonw_str(&o->w, change);
  }
}

/* Text: S with control bytes escaped. */
static void text(out *o, const char *s) {
  char *shown = wp_escape_controls(s);
  wp_jsonw_lit(&o->w, shown ? shown : "?");
  free(shown);
}

static void section(out *o, const char *key) {
  if (o->json) {
    wp_jsonw_key(&o->w, false, key);
    wp_jsonw_lit(&o->w, "[");
    o->n = 0;
  }
}

static void section_end(out *o) {
  if (o->json)
    wp_jsonw_lit(&o->w, "]");
}

/* ---- header ---- */

static void header_field(out *o, const char *field, const char *a, const char *b) {
  if (!strcmp(a, b))
    return;
  item_start(o, "changed");
  if (o->json) {
    wp_jsonw_str_field(&o->w, "field", field);
    wp_jsonw_str_field(&o->w, "a", a);
    wp_jsonw_str_field(&o->w, "b", b);
    wp_jsonw_lit(&o->w, "}");
  } else {
    wp_jsonw_lit(&o->w, "header ");
    wp_jsonw_lit(&o->w, field);
    wp_jsonw_lit(&o->w, ": ");
    text(o, a);
    wp_jsonw_lit(&o->w, " -> ");
    text(o, b);
    wp_jsonw_lit(&o->w, "\n");
  }
}

static void header_num(out *o, const char *field, uint64_t a, uint64_t b) {
  char x[24], y[24];
  snprintf(x, sizeof x, "%llu", (unsigned long long)a);
  snprintf(y, sizeof y, "%llu", (unsigned long long)b);
  header_field(o, field, x, y);
}

static void header_hex(out *o, const char *field, const unsigned char *a,
                       const unsigned char *b, size_t n) {
  char x[65], y[65];
  for (size_t i = 0; i < n; i++) {
    snprintf(x + 2 * i, 3, "%02x", a[i]);
    snprintf(y + 2 * i, 3, "%02x", b[i]);
  }
  header_field(o, field, x, y);
}

static void diff_header(out *o, const wp_neff_header *a, const wp_neff_header *b) {
  section(o, "header");
  header_num(o, "pkg_version", a->pkg_version, b->pkg_version);
  header_num(o, "header_size", a->header_size, b->header_size);
  header_num(o, "data_size", a->data_size, b->data_size);
  header_num(o, "neff_version_major", a->version_major, b->version_major);
  header_num(o, "neff_version_minor", a->version_minor, b->version_minor);
  header_field(o, "neff_build_version", a->build_version, b->build_version);
  header_num(o, "num_tpb", a->num_tpb, b->num_tpb);
  header_hex(o, "hash", a->hash, b->hash, 16);
  header_hex(o, "uuid", a->uuid, b->uuid, 16);
  header_field(o, "name", a->name, b->name);
  header_num(o, "requested_tpb_count", a->requested_tpb_count, b->requested_tpb_count);
  header_field(o, "tpb_per_node", a->tpb_per_node, b->tpb_per_node);
  header_num(o, "feature_bits", a->feature_bits, b->feature_bits);
  header_num(o, "lnc_size", a->lnc_size, b->lnc_size);
  section_end(o);
}

/* ---- members ---- */

static void member_json(out *o, const char *key, const neff_member *m) {
  wp_jsonw_key(&o->w, false, key);
  if (!m) {
    wp_jsonw_lit(&o->w, "null");
    return;
  }
  wp_jsonw_lit(&o->w, "{");
  wp_jsonw_key(&o->w, true, "size");
  wp_jsonw_int(&o->w, (long long)m->size);
  wp_jsonw_str_field(&o->w, "md5", m->md5);
  wp_jsonw_lit(&o->w, "}");
}

static void member_item(out *o, const neff_member *a, const neff_member *b) {
  const char *change = !a ? "added" : !b ? "removed" : "changed";
  const char *name = a ? a->name : b->name;
  item_start(o, change);
  if (o->json) {
    wp_jsonw_str_field(&o->w, "name", name);
    member_json(o, "a", a);
    member_json(o, "b", b);
    wp_jsonw_lit(&o->w, "}");
    return;
  }
  wp_jsonw_lit(&o->w, !a ? "member + " : !b ? "member - " : "member ~ ");
  text(o, name);
  if (a && b) {
    char *s = wp_format(" (size %llu -> %llu, md5 %s -> %s)", (unsigned long long)a->size,
                        (unsigned long long)b->size, a->md5, b->md5);
    wp_jsonw_lit(&o->w, s);
    free(s);
  }
  wp_jsonw_lit(&o->w, "\n");
}

static void diff_members(out *o, neff_collect *a, neff_collect *b) {
  section(o, "members");
  size_t i = 0, k = 0;
  while (i < a->n || k < b->n) {
    int c = i == a->n ? 1 : k == b->n ? -1 : strcmp(a->by_name[i]->name, b->by_name[k]->name);
    if (c < 0)
      member_item(o, a->by_name[i++], NULL);
    else if (c > 0)
      member_item(o, NULL, b->by_name[k++]);
    else {
      neff_member *x = a->by_name[i++], *y = b->by_name[k++];
      if (x->size != y->size || strcmp(x->md5, y->md5))
        member_item(o, x, y);
    }
  }
  section_end(o);
}

/* ---- variables ---- */

static int cmp_var(const wp_neff_var *x, const wp_neff_var *y) {
  int c = strcmp(x->folder, y->folder);
  if (!c)
    c = strcmp(x->type, y->type);
  return c ? c : strcmp(x->name, y->name);
}

static int cmp_var_ptr(const void *x, const void *y) {
  int c = cmp_var(*(wp_neff_var *const *)x, *(wp_neff_var *const *)y);
  /* def.json order among equal keys: stable output */
  return c ? c : *(wp_neff_var *const *)x < *(wp_neff_var *const *)y ? -1 : 1;
}

static wp_neff_var **sorted_vars(const wp_neff_vars *v) {
  wp_neff_var **s = wp_xcalloc(v->n_var + 1, sizeof *s);
  for (size_t i = 0; i < v->n_var; i++)
    s[i] = &v->var[i];
  qsort(s, v->n_var, sizeof *s, cmp_var_ptr);
  return s;
}

/* A field the comparison leaves out: ids name places in one def.json only. */
static bool id_field(const char *key) {
  return !strcmp(key, "var_id") || !strcmp(key, "referenced_var_id");
}

/* The fields of X and Y that differ, sorted, into NAMES (caller frees); how many. */
static size_t changed_fields(json_t *x, json_t *y, const char ***names) {
  size_t n = 0, cap = json_object_size(x) + json_object_size(y) + 1;
  *names = wp_xcalloc(cap, sizeof **names);
  const char *key;
  json_t *val;
  json_object_foreach(x, key, val) {
    if (!id_field(key) && !json_equal(val, json_object_get(y, key)))
      (*names)[n++] = key;
  }
  json_object_foreach(y, key, val) {
    if (!id_field(key) && !json_object_get(x, key))
      (*names)[n++] = key;
  }
  for (size_t i = 1; i < n; i++) /* insertion sort: a record has few fields */
    for (size_t k = i; k && strcmp((*names)[k - 1], (*names)[k]) > 0; k--) {
      const char *t = (*names)[k];
      (*names)[k] = (*names)[k - 1];
      (*names)[k - 1] = t;
    }
  return n;
}

static void var_item(out *o, const wp_neff_var *a, const wp_neff_var *b) {
  const wp_neff_var *v = a ? a : b;
  const char **fields = NULL;
  size_t nf = a && b ? changed_fields(a->rec, b->rec, &fields) : 0;
  if (a && b && !nf) {
    free(fields);
    return;
  }
  item_start(o, !a ? "added" : !b ? "removed" : "changed");
  if (o->json) {
    wp_jsonw_str_field(&o->w, "function", v->folder);
    wp_jsonw_str_field(&o->w, "type", v->type);
    wp_jsonw_str_field(&o->w, "name", v->name);
    wp_jsonw_key(&o->w, false, "fields");
    wp_jsonw_lit(&o->w, "[");
    for (size_t i = 0; i < nf; i++) {
      wp_jsonw_lit(&o->w, i ? ", " : "");
      wp_jsonw_str(&o->w, fields[i]);
    }
    wp_jsonw_lit(&o->w, "]}");
  } else {
    wp_jsonw_lit(&o->w, !a ? "variable + " : !b ? "variable - " : "variable ~ ");
    text(o, v->folder);
    wp_jsonw_lit(&o->w, " ");
    text(o, v->type);
    wp_jsonw_lit(&o->w, " ");
    text(o, v->name);
    for (size_t i = 0; i < nf; i++) {
      wp_jsonw_lit(&o->w, i ? ", " : ": ");
      text(o, fields[i]);
    }
    wp_jsonw_lit(&o->w, "\n");
  }
  free(fields);
}

static void diff_vars(out *o, const wp_neff_vars *a, const wp_neff_vars *b) {
  section(o, "variables");
  wp_neff_var **x = sorted_vars(a), **y = sorted_vars(b);
  size_t i = 0, k = 0;
  while (i < a->n_var || k < b->n_var) {
    int c = i == a->n_var ? 1 : k == b->n_var ? -1 : cmp_var(x[i], y[k]);
    if (c < 0)
      var_item(o, x[i++], NULL);
    else if (c > 0)
      var_item(o, NULL, y[k++]);
    else
      var_item(o, x[i++], y[k++]);
  }
  free(x);
  free(y);
  section_end(o);
}

/* ---- tensors ---- */

typedef struct tref {
  const wp_neff_tensor *t;
  size_t i;
} tref;

static int cmp_tkey(const wp_neff_tensor *x, const wp_neff_tensor *y) {
  int c = strcmp(x->name, y->name);
  return c ? c : strcmp(x->folder, y->folder);
}

static int cmp_tref(const void *x, const void *y) {
  const tref *a = x, *b = y;
  int c = cmp_tkey(a->t, b->t);
  return c ? c : a->i < b->i ? -1 : a->i > b->i;
}

static tref *sorted_tensors(const wp_neff_vars *v) {
  tref *s = wp_xcalloc(v->n_tensor + 1, sizeof *s);
  for (size_t i = 0; i < v->n_tensor; i++)
    s[i] = (tref){&v->tensor[i], i};
  qsort(s, v->n_tensor, sizeof *s, cmp_tref);
  return s;
}

static bool same_type(const wp_neff_tensor *x, const wp_neff_tensor *y) {
  if (strcmp(x->dtype, y->dtype) || x->rank != y->rank || x->size != y->size)
    return false;
  for (int d = 0; d < x->rank; d++)
    if (x->shape[d] != y->shape[d])
      return false;
  return true;
}

/* Bytes known equal without reading them: one member content, one place. */
static bool same_bytes(side s[2], const wp_neff_tensor *x, const wp_neff_tensor *y) {
  neff_member *mx = neff_find(&s[0].c, x->member), *my = neff_find(&s[1].c, y->member);
  return mx && my && !strcmp(mx->md5, my->md5) && x->offset == y->offset;
}

typedef struct tpair {
  const wp_neff_tensor *t[2];
  long job; /* -1: none */
} tpair;

static void shape_out(out *o, const wp_neff_tensor *t) {
  if (o->json) {
    wp_jsonw_int_list(&o->w, t->shape, (size_t)t->rank);
    return;
  }
  wp_jsonw_lit(&o->w, "[");
  for (int d = 0; d < t->rank; d++) {
    char n[24];
    snprintf(n, sizeof n, "%s%lld", d ? "," : "", (long long)t->shape[d]);
    wp_jsonw_lit(&o->w, n);
  }
  wp_jsonw_lit(&o->w, "]");
}

static void tensor_json_side(out *o, const char *key, const wp_neff_tensor *t) {
  wp_jsonw_key(&o->w, false, key);
  if (!t) {
    wp_jsonw_lit(&o->w, "null");
    return;
  }
  wp_jsonw_lit(&o->w, "{");
  wp_jsonw_key(&o->w, true, "dtype");
  wp_jsonw_str(&o->w, t->dtype);
  wp_jsonw_key(&o->w, false, "shape");
  shape_out(o, t);
  wp_jsonw_lit(&o->w, "}");
}

/* "0.25", "nan", "inf" or "3" for J's largest difference, or NULL (none
 * kept). */
static char *max_text(const neff_cmp_job *j) {
  if (j->has_float)
    return j->nan ? wp_xstrdup("nan") : isinf(j->max_abs) ? wp_xstrdup("inf")
                                                           : wp_format("%.9g", j->max_abs);
  return j->has_int ? wp_format("%llu", (unsigned long long)j->max_int) : NULL;
}

static void tensor_item(out *o, const tpair *p, const neff_cmp_job *j) {
  const wp_neff_tensor *a = p->t[0], *b = p->t[1], *t = a ? a : b;
  bool typed = a && b && !same_type(a, b);
  if (a && b && !typed && (!j || !j->n_diff))
    return;
  item_start(o, !a ? "added" : !b ? "removed" : "changed");
  uint64_t count = j && j->item ? t->size / (uint64_t)j->item : 0;
  char *max = j && !typed ? max_text(j) : NULL;
  if (o->json) {
    wp_jsonw_str_field(&o->w, "name", t->name);
    wp_jsonw_str_field(&o->w, "function", t->folder);
    tensor_json_side(o, "a", a);
    tensor_json_side(o, "b", b);
    wp_jsonw_key(&o->w, false, "elements");
    if (j && !typed)
      wp_jsonw_int(&o->w, (long long)count);
    else
      wp_jsonw_lit(&o->w, "null");
    wp_jsonw_key(&o->w, false, "elements_differ");
    if (j && !typed)
      wp_jsonw_int(&o->w, (long long)j->n_diff);
    else
      wp_jsonw_lit(&o->w, "null");
    wp_jsonw_key(&o->w, false, "max_abs_diff");
    if (max && !j->nan && !(j->has_float && isinf(j->max_abs)))
      wp_jsonw_lit(&o->w, max);
    else if (max)
      wp_jsonw_str(&o->w, max); /* "nan" or "inf": JSON has no such numbers */
    else
      wp_jsonw_lit(&o->w, "null");
    wp_jsonw_lit(&o->w, "}");
  } else {
    wp_jsonw_lit(&o->w, !a ? "tensor + " : !b ? "tensor - " : "tensor ~ ");
    text(o, t->name);
    if (typed) {
      if (strcmp(a->dtype, b->dtype)) {
        wp_jsonw_lit(&o->w, ": dtype ");
        text(o, a->dtype);
        wp_jsonw_lit(&o->w, " -> ");
        text(o, b->dtype);
      }
      wp_jsonw_lit(&o->w, strcmp(a->dtype, b->dtype) ? ", shape " : ": shape ");
      shape_out(o, a);
      wp_jsonw_lit(&o->w, " -> ");
      shape_out(o, b);
    } else if (j) {
      char *s = wp_format(": %llu of %llu elements differ", (unsigned long long)j->n_diff,
                          (unsigned long long)count);
      wp_jsonw_lit(&o->w, s);
      free(s);
      if (max) {
        wp_jsonw_lit(&o->w, ", max abs diff ");
        wp_jsonw_lit(&o->w, max);
      }
    }
    wp_jsonw_lit(&o->w, "\n");
  }
  free(max);
}

static int diff_tensors(out *o, side s[2], uint64_t max_size) {
  const wp_neff_vars *va = &s[0].v, *vb = &s[1].v;
  tref *x = sorted_tensors(va), *y = sorted_tensors(vb);
  tpair *p = wp_xcalloc(va->n_tensor + vb->n_tensor + 1, sizeof *p);
  neff_cmp_job *jobs = wp_xcalloc(va->n_tensor + 1, sizeof *jobs);
  size_t np = 0, nj = 0, i = 0, k = 0;
  while (i < va->n_tensor || k < vb->n_tensor) {
    int c = i == va->n_tensor ? 1 : k == vb->n_tensor ? -1 : cmp_tkey(x[i].t, y[k].t);
    tpair *q = &p[np++];
    q->t[0] = c <= 0 ? x[i++].t : NULL;
    q->t[1] = c >= 0 ? y[k++].t : NULL;
    q->job = -1;
    if (q->t[0] && q->t[1] && same_type(q->t[0], q->t[1]) && !same_bytes(s, q->t[0], q->t[1])) {
      char *head = wp_xmalloc(WP_NPY_MAX_HEADER);
      wp_npy_info info;
      neff_tensor_npy(q->t[0], head, &info);
      free(head);
      jobs[nj] = (neff_cmp_job){.t = {q->t[0], q->t[1]}, .kind = info.kind,
                                .item = info.itemsize > 0 ? info.itemsize : 1,
                                .bf16 = !strcmp(q->t[0]->dtype, "bfloat16")};
      q->job = (long)nj++;
    }
  }
  wp_error err;
  const char *paths[2] = {s[0].path, s[1].path};
  neff_collect *cs[2] = {&s[0].c, &s[1].c};
  int rc = nj ? neff_cmp_run(jobs, nj, paths, max_size ? max_size : UINT64_MAX, cs, &err) : 0;
  if (rc) {
    fprintf(stderr, "error: %s\n", err.msg);
  } else {
    section(o, "tensors");
    for (size_t n = 0; n < np; n++)
      tensor_item(o, &p[n], p[n].job >= 0 ? &jobs[p[n].job] : NULL);
    section_end(o);
  }
  free(x);
  free(y);
  free(p);
  free(jobs);
  return rc ? 1 : 0;
}

int neff_diff(const char *a, const char *b, uint64_t max_size, bool json) {
  side s[2] = {{.path = a}, {.path = b}};
  int rc = 2;
  if (load(&s[0], max_size) || load(&s[1], max_size))
    goto done;
  out o = {.json = json};
  out body = {.json = json};
  diff_header(&body, &s[0].h, &s[1].h);
  diff_members(&body, &s[0].c, &s[1].c);
  diff_vars(&body, &s[0].v, &s[1].v);
  if (diff_tensors(&body, s, max_size))
    goto done_out;
  if (json) {
    wp_jsonw_lit(&o.w, "{");
    wp_jsonw_key(&o.w, true, "a");
    wp_jsonw_str(&o.w, a);
    wp_jsonw_str_field(&o.w, "b", b);
    wp_jsonw_key(&o.w, false, "same");
    wp_jsonw_bool(&o.w, body.total == 0);
    if (body.w.len)
      wp_jsonw_raw(&o.w, body.w.p, body.w.len);
    wp_jsonw_lit(&o.w, "}\n");
  } else if (body.w.len) {
    wp_jsonw_raw(&o.w, body.w.p, body.w.len);
  }
  if (o.w.oom || body.w.oom) {
    fprintf(stderr, "error: out of memory\n");
    goto done_out;
  }
  if (o.w.len)
    fwrite(o.w.p, 1, o.w.len, stdout);
  rc = body.total ? 1 : 0;
done_out:
  free(o.w.p);
  free(body.w.p);
done:
  for (int i = 0; i < 2; i++) {
    wp_neff_vars_free(&s[i].v);
    neff_free_members(&s[i].c);
  }
  return rc;
}
