/* dedup-consts, second half: the IR rewritten to the unique files found
 * by wp_dedup.c. */
#include "wp_dedup_internal.h"

#include "wp_bir.h"
#include "wp_bir_enums.h"
#include "wp_bir_ops.h"
#include "wp_i64map.h"
#include "wp_mlir_util.h"
#include "wp_placed.h"
#include "wp_strmap.h"

#include <mlir-c/BuiltinAttributes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* A const_file op for unique U in FUNC, carrying its representative's
 * bytes description. */
static MlirOperation add_unique_op(dedup *d, MlirOperation func, const unique *u,
                                   MlirOperation after) {
  MlirContext c = mlirOperationGetContext(func);
  const cfile *rep = &d->files[u->rep];
  MlirNamedAttribute a[9];
  int n = 0;
  a[n++] = wp_named(c, "sym_name", wp_str_attr(c, u->name, strlen(u->name)));
  if (rep->in_place)
    a[n++] = wp_named(c, "artifact_in_place", mlirUnitAttrGet(c));
  if (rep->member_md5[0] && rep->prefix_md5[0]) {
    /* "MD5@RUN": neff-pack trusts it in this run only */
    char tagged[WP_MD5_HEX + 80];
    snprintf(tagged, sizeof tagged, "%s@%s", rep->member_md5, d->run->state->token);
    a[n++] = wp_named(c, "member_md5", wp_str_attr(c, tagged, strlen(tagged)));
    a[n++] = wp_named(c, "member_prefix_md5",
                   wp_str_attr(c, rep->prefix_md5, strlen(rep->prefix_md5)));
  }
  a[n++] = wp_named(c, "size", wp_i64_attr(c, (int64_t)rep->size));
  a[n++] = wp_named(c, "artifact", wp_str_attr(c, u->name, strlen(u->name)));
  a[n++] = wp_named(c, "md5", wp_str_attr(c, rep->md5, strlen(rep->md5)));
  for (size_t i = 0; i < WP_BIR_N_BYTE_SOURCES; i++) {
    MlirAttribute v = wp_attr(rep->op, wp_bir_byte_sources[i]);
    if (!mlirAttributeIsNull(v)) {
      a[n++] = wp_named(c, wp_bir_byte_sources[i], v);
      break;
    }
  }
  MlirOperationState st = mlirOperationStateGet(wp_sref("bir.const_file"),
                                                mlirOperationGetLocation(rep->op));
  mlirOperationStateAddAttributes(&st, n, a);
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationAfter(b, after, op); /* null: at the start */
  return op;
}

/* Each reference's op (a memory location's const_file, a table row's
 * entry of const_files) names its unique file. */
static int rewrite_refs(dedup *d, MlirContext c) {
  typedef struct table_files {
    MlirOperation op;
    MlirAttribute *files;
    intptr_t n;
  } table_files;
  table_files *tables = NULL;
  size_t n_tables = 0, cap = 0;
  wp_i64map index; /* table op -> index into tables */
  wp_i64map_init(&index);
  int rc = 0;
  for (size_t i = 0; i < d->n_refs && !rc; i++) {
    const ref *r = &d->refs[i];
    MlirAttribute to = mlirFlatSymbolRefAttrGet(c, wp_sref(d->uniques[r->unique].name));
    if (r->row < 0) {
      wp_set_attr(r->memloc, "const_file", to);
      continue;
    }
    int64_t t;
    if (!wp_i64map_get(&index, (int64_t)(intptr_t)r->memloc.ptr, &t)) {
      if (n_tables == cap) {
        cap = cap ? 2 * cap : 4;
        tables = wp_xrealloc(tables, cap * sizeof *tables);
      }
      MlirAttribute old = wp_attr(r->memloc, "const_files");
      intptr_t n = mlirArrayAttrGetNumElements(old);
      MlirAttribute *files = wp_xmalloc((size_t)(n + 1) * sizeof *files);
      if (wp_i64map_put(&index, (int64_t)(intptr_t)r->memloc.ptr, (int64_t)n_tables))
        wp_out_of_memory();
      for (intptr_t k = 0; k < n; k++)
        files[k] = mlirArrayAttrGetElement(old, k);
      t = (int64_t)n_tables;
      tables[n_tables++] = (table_files){r->memloc, files, n};
    }
    tables[t].files[r->row] = to;
  }
  for (size_t t = 0; t < n_tables; t++) {
    if (!rc)
      wp_set_attr(tables[t].op, "const_files",
                  mlirArrayAttrGet(c, tables[t].n, tables[t].files));
    free(tables[t].files);
  }
  free(tables);
  wp_i64map_free(&index);

  return rc;
}

static void rewrite_kernels(dedup *d, MlirOperation func, const size_t *unique_of_name_file) {
  MlirContext c = mlirOperationGetContext(func);
  wp_strmap by_name; /* this function's file names -> file index */
  wp_strmap_init(&by_name);
  for (size_t f = 0; f < d->n_files; f++)
    if (mlirOperationEqual(d->files[f].func, func))
      wp_strmap_put(&by_name, d->files[f].name, strlen(d->files[f].name), (int64_t)f);
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!wp_op_is(op, "bir.kernel"))
      continue;
    MlirAttribute list = wp_attr(op, "const_files");
    intptr_t n = mlirAttributeIsNull(list) ? 0 : mlirArrayAttrGetNumElements(list);
    MlirAttribute *out = malloc((size_t)(n + d->n_uniques + 1) * sizeof *out);
    bool *seen = calloc(d->n_uniques + 1, sizeof *seen);
    intptr_t k = 0;
    for (intptr_t i = 0; out && seen && i < n; i++) {
      MlirAttribute e = mlirArrayAttrGetElement(list, i);
      MlirStringRef name = wp_symref_value(e);
      size_t u = (size_t)-1;
      int64_t f;
      if (wp_strmap_get(&by_name, name.data, name.length, &f))
        u = unique_of_name_file[f];
      if (u == (size_t)-1) {
        out[k++] = e; /* a file no memory location uses: left alone */
      } else if (!seen[u]) {
        seen[u] = true;
        out[k++] = mlirFlatSymbolRefAttrGet(c, wp_sref(d->uniques[u].name));
      }
    }
    if (out && seen)
      wp_set_attr(op, "const_files", mlirArrayAttrGet(c, k, out));
    free(out);
    free(seen);
  }
  wp_strmap_free(&by_name);
}

int wp_dedup_rewrite(dedup *d, uint64_t *saved) {
  MlirOperation module = d->run->module;
  MlirContext c = mlirOperationGetContext(module);
  /* unique of each file (one file may feed several keys: take any for the
   * kernel list, all of its uniques are added below) */
  size_t *unique_of_file = malloc((d->n_files + 1) * sizeof *unique_of_file);
  bool *unique_used = calloc(d->n_uniques + 1, sizeof *unique_used);
  if (!unique_of_file || !unique_used) {
    free(unique_of_file);
    free(unique_used);
    return -1;
  }
  for (size_t f = 0; f < d->n_files; f++)
    unique_of_file[f] = (size_t)-1;
  for (size_t i = 0; i < d->n_refs; i++)
    unique_of_file[d->refs[i].file] = d->refs[i].unique;
  /* physical files: each unique name beside its representative */
  for (size_t u = 0; u < d->n_uniques; u++) {
    wp_error err;
    const cfile *rep = &d->files[d->uniques[u].rep];
    if (!rep->in_place && strcmp(rep->artifact, d->uniques[u].name) != 0 &&
        wp_place_alias(d->run->state->placed, d->dir, rep->artifact, d->uniques[u].name, &err)) {
      wp_emit_error(wp_unknown_loc(module), "dedup-consts: %s", err.msg);
      free(unique_of_file);
      free(unique_used);
      return -1;
    }
  }
  /* memory locations and table rows point at their unique files */
  if (rewrite_refs(d, c)) {
    free(unique_of_file);
    free(unique_used);
    return -1;
  }
  /* per function: new const_file ops, kernels, old ops and files away */
  for (MlirOperation f = wp_bir_next_function(module, (MlirOperation){NULL});
       !mlirOperationIsNull(f); f = wp_bir_next_function(module, f)) {
    rewrite_kernels(d, f, unique_of_file);
    memset(unique_used, 0, (d->n_uniques + 1) * sizeof *unique_used);
    for (size_t i = 0; i < d->n_refs; i++)
      if (mlirOperationEqual(d->files[d->refs[i].file].func, f))
        unique_used[d->refs[i].unique] = true;
    MlirOperation last = {NULL};
    for (size_t u = 0; u < d->n_uniques; u++)
      if (unique_used[u])
        last = add_unique_op(d, f, &d->uniques[u], last);
  }
  /* Only now: a unique file of a later function may be described by a
   * representative in an earlier one. */
  for (size_t k = 0; k < d->n_files; k++)
    mlirOperationDestroy(d->files[k].op);
  /* bytes: every (artifact, key) pair once, against the unique files (two
   * functions' const files of one artifact, as an earlier dedup-consts
   * left them, are one physical file: counted once) */
  uint64_t before = 0, after = 0;
  wp_strmap counted;
  wp_strmap_init(&counted);
  for (size_t i = 0; i < d->n_refs; i++) {
    if (i > 0 && d->refs[i].file == d->refs[i - 1].file &&
        !strcmp(d->refs[i].key, d->refs[i - 1].key))
      continue;
    const cfile *f = &d->files[d->refs[i].file];
    size_t na = strlen(f->artifact), nk = strlen(d->refs[i].key);
    char *pair = wp_arena_alloc(d->arena, na + nk + 2);
    memcpy(pair, f->artifact, na);
    pair[na] = '\n';
    memcpy(pair + na + 1, d->refs[i].key, nk + 1);
    if (wp_strmap_get(&counted, pair, na + nk + 1, NULL))
      continue;
    if (wp_strmap_put(&counted, pair, na + nk + 1, 1)) {
      wp_strmap_free(&counted);
      free(unique_of_file);
      free(unique_used);
      return -1;
    }
    before += f->size;
  }
  wp_strmap_free(&counted);
  for (size_t u = 0; u < d->n_uniques; u++)
    after += d->files[d->uniques[u].rep].size;
  *saved = before - after;
  /* Artifacts no unique file uses go away, when this run placed them.
   * One an earlier run placed stays: the IR file written then names it,
   * and packing that IR again (it runs dedup-consts again) must find it. */
  wp_strmap kept;
  wp_strmap_init(&kept);
  for (size_t u = 0; u < d->n_uniques; u++)
    wp_strmap_put(&kept, d->uniques[u].name, strlen(d->uniques[u].name), 1);
  bool debug = d->run->state->debug;
  for (size_t k = 0; k < d->n_files; k++) {
    bool keep = d->files[k].in_place ||
                wp_strmap_get(&kept, d->files[k].artifact, strlen(d->files[k].artifact), NULL);
    if (!keep && !wp_placed_here(d->run->state->placed, d->files[k].src.path)) {
      keep = true;
      if (debug)
        wp_emit_remark(wp_unknown_loc(module), "FileDeDuper kept %s: placed by an earlier run, "
                       "whose IR may name it", d->files[k].src.path);
    }
    wp_error err;
    if (!keep && wp_place_remove(d->dir, d->files[k].artifact, &err)) {
      wp_strmap_free(&kept);
      wp_emit_error(wp_unknown_loc(module), "dedup-consts: %s", err.msg);
      free(unique_of_file);
      free(unique_used);
      return -1;
    }
  }
  wp_strmap_free(&kept);
  free(unique_of_file);
  free(unique_used);
  return 0;
}

void wp_dedup_rewrite_artifact_records(dedup *d) {
  MlirOperation module = d->run->module;
  MlirContext c = mlirOperationGetContext(module);
  MlirAttribute old = wp_attr(module, "bir.artifacts");
  size_t n_old = mlirAttributeIsNull(old) ? 0 : (size_t)mlirArrayAttrGetNumElements(old);
  MlirAttribute *arts = malloc((n_old + d->n_uniques + 1) * sizeof *arts);
  const ref **first_ref = calloc(d->n_uniques + 1, sizeof *first_ref);
  size_t n = 0;
  wp_strmap replaced; /* artifacts of the files dedup looked at */
  wp_strmap_init(&replaced);
  for (size_t k = 0; k < d->n_files; k++)
    wp_strmap_put(&replaced, d->files[k].artifact, strlen(d->files[k].artifact), 1);
  if (!arts || !first_ref) {
    free(arts);
    free(first_ref);
    wp_strmap_free(&replaced);
    return;
  }
  for (size_t i = 0; i < n_old; i++) {
    MlirAttribute a = mlirArrayAttrGetElement(old, (intptr_t)i);
    MlirAttribute p = wp_dict_get(a, "path");
    bool gone = false;
    if (!mlirAttributeIsNull(p) && mlirAttributeIsAString(p)) {
      MlirStringRef s = wp_str_value(p);
      gone = wp_strmap_get(&replaced, s.data, s.length, NULL);
    }
    if (!gone)
      arts[n++] = a;
  }
  for (size_t i = 0; i < d->n_refs; i++)
    if (!first_ref[d->refs[i].unique])
      first_ref[d->refs[i].unique] = &d->refs[i];
  for (size_t u = 0; u < d->n_uniques; u++) {
    const ref *r = first_ref[u];
    char info[256];
    snprintf(info, sizeof info, "unique constant file: %llu bytes, key %s",
             (unsigned long long)d->files[d->uniques[u].rep].size, r ? r->key : "?");
    MlirNamedAttribute e[2] = {wp_named(c, "info", wp_str_attr(c, info, strlen(info))),
                               wp_named(c, "path", wp_str_attr(c, d->uniques[u].name,
                                                            strlen(d->uniques[u].name)))};
    arts[n++] = mlirDictionaryAttrGet(c, 2, e);
  }
  if (n)
    wp_set_attr(module, "bir.artifacts", mlirArrayAttrGet(c, (intptr_t)n, arts));
  else
    mlirOperationRemoveAttributeByName(module, wp_sref("bir.artifacts"));
  free(arts);
  free(first_ref);
  wp_strmap_free(&replaced);
}
