/* dedup-consts (MemlocFileDeDuper): one physical file per distinct
 * (MD5(bytes), dtype, memory type). The key is built per memory location
 * from its constant file's MD5 and its own dtype and memory type, so the
 * same bytes under another dtype or memory type never merge; on a key
 * match the bytes are compared, so an MD5 collision never merges either.
 * Unique names come from the key (plus an index only for true collisions,
 * ordered by content), so nothing depends on visiting order or threads.
 * (Specification sections 4a and 4b.) */
#include "wp_dedup_internal.h"

#include "wp_bir.h"
#include "wp_bir_check.h"
#include "wp_bir_ops.h"
#include "wp_bir_table.h"
#include "wp_dedup_key.h"
#include "wp_hashed_files.h"
#include "wp_md5.h"
#include "wp_md5_jobs.h"
#include "wp_mlir_util.h"
#include "wp_npy.h"
#include "wp_parallel.h"
#include "wp_place.h"
#include "wp_strmap.h"

#include <mlir-c/BuiltinAttributes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- collecting ---- */

/* Does a kernel of FUNC list const file NAME? */
static bool listed_by_kernel(MlirOperation func, const char *name) {
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute list = wp_op_is(op, "bir.kernel") ? wp_attr(op, "const_files")
                                                    : mlirAttributeGetNull();
    intptr_t n = mlirAttributeIsNull(list) ? 0 : mlirArrayAttrGetNumElements(list);
    for (intptr_t i = 0; i < n; i++) {
      MlirStringRef s = wp_symref_value(mlirArrayAttrGetElement(list, i));
      if (s.length == strlen(name) && !memcmp(s.data, name, s.length))
        return true;
    }
  }
  return false;
}

static int add_file(dedup *d, MlirOperation func, MlirOperation op, size_t *index) {
  if (d->n_files == d->cap_files) {
    d->cap_files = d->cap_files ? 2 * d->cap_files : 64;
    cfile *f = wp_xrealloc(d->files, d->cap_files * sizeof *f);
    d->files = f;
  }
  cfile *f = &d->files[d->n_files];
  memset(f, 0, sizeof *f);
  f->op = op;
  f->func = func;
  f->name = wp_bir_str(d->arena, op, "sym_name");
  f->artifact = wp_bir_str(d->arena, op, "artifact");
  if (!f->artifact[0]) {
    /* copy-const-artifacts places what kernels list: a file no kernel
     * lists was left out though the pass ran */
    if (!listed_by_kernel(func, f->name))
      wp_emit_error(mlirOperationGetLocation(op), "dedup-consts: const file '%s' is listed in "
                    "no kernel's const_files, so copy-const-artifacts did not place it (list "
                    "it in the kernel of its function)", f->name);
    else
      wp_emit_error(mlirOperationGetLocation(op), "dedup-consts: const file '%s' is not in the "
                    "artifact directory (run --copy-const-artifacts first)", f->name);
    return -1;
  }
  if (strchr(f->artifact, '/')) {
    wp_emit_error(mlirOperationGetLocation(op), "dedup-consts: artifact '%s' is not a plain "
                  "file name", f->artifact);
    return -1;
  }
  int64_t size = 0;
  wp_attr_i64(op, "size", &size);
  f->size = (uint64_t)size;
  f->in_place = !mlirAttributeIsNull(wp_attr(op, "artifact_in_place"));
  if (f->in_place) {
    wp_error err;
    if (wp_bir_const_file_source(d->run->module, op, wp_run_bir_read_back(d->run->state, d->run->module), d->arena, &f->src,
                                 &err)) {
      wp_emit_error(mlirOperationGetLocation(op), "dedup-consts: %s", err.msg);
      return -1;
    }
  } else {
    char *path = wp_arena_alloc(d->arena, strlen(d->dir) + strlen(f->artifact) + 2);
    sprintf(path, "%s/%s", d->dir, f->artifact);
    f->src = (wp_place_src){.path = path, .size = f->size};
  }
  /* The MD5 on the IR is taken only when this run's copy made it and
   * the file is still the one it hashed; one that came with IR read from a
   * file, or for a file changed since, is computed again. */
  char *md5 = wp_bir_str(d->arena, op, "md5");
  if (!f->in_place && wp_hashed_still(d->run->state->hashed, f->src.path, md5)) {
    snprintf(f->md5, sizeof f->md5, "%s", md5);
    if (d->run->state->debug)
      wp_emit_remark(wp_unknown_loc(d->run->module), "FileDeDuper took the MD5 of %s from its "
                     "copy (not read again)", f->artifact);
  } else
    snprintf(f->recorded_md5, sizeof f->recorded_md5, "%s", md5);
  *index = d->n_files++;
  return 0;
}

static int add_ref(dedup *d, MlirOperation memloc, intptr_t row, size_t file,
                   const char *dtype, const char *memtype, int64_t off, int64_t size) {
  if (d->n_refs == d->cap_refs) {
    d->cap_refs = d->cap_refs ? 2 * d->cap_refs : 64;
    ref *r = wp_xrealloc(d->refs, d->cap_refs * sizeof *r);
    d->refs = r;
  }
  d->refs[d->n_refs++] =
      (ref){memloc, row, file, NULL, (char *)dtype, (char *)memtype, off, size, 0};
  return 0;
}

/* Mirrors neff-pack's rule: typed while every tensor in the file has the
 * same dtype and shape and fills it whole. */
static void guess_header(dedup *d, cfile *f, int64_t off, int64_t size, MlirAttribute sh,
                         const char *dtype) {
  int rank = !mlirAttributeIsNull(sh) && mlirAttributeIsADenseI64Array(sh)
                 ? (int)mlirDenseArrayGetNumElements(sh)
                 : -1;
  bool same = rank >= 0 && off == 0 && (uint64_t)size == f->size;
  if (same && f->guess_seen)
    same = !strcmp(f->guess_dtype, dtype) && f->guess_rank == rank;
  for (int i = 0; same && f->guess_seen && i < rank; i++)
    same = f->guess_shape[i] == mlirDenseI64ArrayGetElement(sh, i);
  if (!f->guess_seen) {
    f->guess_typed = same;
    f->guess_dtype = dtype;
    f->guess_rank = rank < 0 ? 0 : rank;
    f->guess_shape = wp_arena_alloc(d->arena, (size_t)(f->guess_rank + 1) * sizeof(int64_t));
    for (int i = 0; i < rank; i++)
      f->guess_shape[i] = mlirDenseI64ArrayGetElement(sh, i);
    f->guess_seen = true;
  } else if (!same) {
    f->guess_typed = false;
  }
}

/* A table's rows are references like memory locations, each by its row
 * (the rewrite gives the row its unique file). */
static int collect_table(dedup *d, MlirOperation func, MlirOperation op,
                         const wp_bir_names *files, size_t *file_index) {
  wp_bir_table t;
  wp_error err;
  if (wp_bir_table_open(op, &t, &err)) {
    wp_emit_error(mlirOperationGetLocation(op), "dedup-consts: %s", err.msg);
    return -1;
  }
  char *memtype = wp_arena_strndup(d->arena, t.memory_type.data, t.memory_type.length);
  char *dtype = NULL;
  MlirStringRef last_dtype = {NULL, 0}, last_file = {NULL, 0};
  int64_t fi = -1;
  for (intptr_t k = 0; k < t.n_rows; k++) {
    wp_bir_row r;
    wp_bir_table_row(&t, k, &r);
    /* uniqued strings: the same one has the same address */
    if (r.const_file.data != last_file.data || r.const_file.length != last_file.length) {
      last_file = r.const_file;
      if ((fi = wp_bir_names_index(files, r.const_file)) < 0) {
        wp_emit_error(mlirOperationGetLocation(op), "dedup-consts: bir.const_table row '%.*s' "
                      "names a const file that does not exist", (int)r.name.length,
                      r.name.data);
        return -1;
      }
    }
    if (r.dtype.data != last_dtype.data || r.dtype.length != last_dtype.length) {
      last_dtype = r.dtype;
      dtype = wp_arena_strndup(d->arena, r.dtype.data, r.dtype.length);
    }
    if (file_index[fi] == (size_t)-1 && add_file(d, func, files->ops[fi], &file_index[fi]))
      return -1;
    if (!dtype || !memtype ||
        add_ref(d, op, k, file_index[fi], dtype, memtype, r.const_ap_offset, r.size))
      return -1;
    guess_header(d, &d->files[file_index[fi]], r.const_ap_offset, r.size, r.shape, dtype);
  }
  return 0;
}

static int collect_function(dedup *d, MlirOperation func) {
  wp_bir_names files = {0}, sets = {0}; /* both freed at out */
  int rc = -1;
  size_t *file_index = NULL;
  if (wp_bir_names_init(&files, func, "bir.const_file") ||
      wp_bir_names_init(&sets, func, "bir.memloc_set"))
    wp_out_of_memory();
  file_index = wp_xmalloc((files.n + 1) * sizeof *file_index);
  for (size_t i = 0; i < files.n; i++)
    file_index[i] = (size_t)-1;
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (wp_bir_is_table(op)) {
      if (collect_table(d, func, op, &files, file_index)) {
        free(file_index);
        goto out;
      }
      continue;
    }
    MlirAttribute cfa = wp_attr(op, "const_file");
    if (!wp_op_is(op, "bir.memloc") || mlirAttributeIsNull(cfa) ||
        !mlirAttributeIsAFlatSymbolRef(cfa))
      continue;
    MlirStringRef cfname = wp_symref_value(cfa);
    int64_t fi = wp_bir_names_index(&files, cfname);
    MlirOperation cf = fi < 0 ? (MlirOperation){NULL} : files.ops[fi];
    MlirAttribute seta = wp_attr(op, "set");
    MlirOperation set = mlirAttributeIsNull(seta) || !mlirAttributeIsAFlatSymbolRef(seta)
                            ? (MlirOperation){NULL}
                            : wp_bir_names_find(&sets, wp_symref_value(seta));
    if (mlirOperationIsNull(cf) || mlirOperationIsNull(set)) {
      wp_emit_error(mlirOperationGetLocation(op), "dedup-consts: memloc '%s' names a %s that "
                    "does not exist", wp_bir_str(d->arena, op, "sym_name"),
                    mlirOperationIsNull(cf) ? "const file" : "set");
      free(file_index);
      goto out;
    }
    if (file_index[fi] == (size_t)-1 && add_file(d, func, cf, &file_index[fi])) {
      free(file_index);
      goto out;
    }
    const char *dtype = wp_bir_str(d->arena, set, "dtype");
    int64_t off = 0, size = 0;
    wp_attr_i64(op, "const_ap_offset", &off);
    wp_attr_i64(op, "size", &size);
    if (add_ref(d, op, -1, file_index[fi], dtype, wp_bir_str(d->arena, op, "memory_type"), off,
                size)) {
      free(file_index);
      goto out;
    }
    guess_header(d, &d->files[file_index[fi]], off, size, wp_attr(set, "shape"), dtype);
  }
  free(file_index);
  rc = 0;
out:
  wp_bir_names_free(&files);
  wp_bir_names_free(&sets);
  return rc;
}

/* ---- hashing, in parallel across files ---- */

/* Hashes, in one parallel run (several files per core in SIMD lanes,
 * wp_md5_jobs): the key of every file not hashed yet when KEYS, and the
 * NEFF member (guessed .npy header and bytes) of each file in MEMBERS,
 * which neff-pack would otherwise hash as it writes. A key that fails is
 * the pass's error; a member that fails is only lost work. */
static int hash_batch(dedup *d, bool keys, const size_t *members, size_t n_members,
                      long threads) {
  size_t n = keys ? d->n_files : 0, k = 0;
  wp_md5_job *jobs = wp_arena_alloc(d->arena, (n + n_members + 1) * sizeof *jobs);
  size_t *key_file = wp_arena_alloc(d->arena, (n + 1) * sizeof *key_file);
  /* calloc'd: pages no error is written to are never touched */
  wp_error *errs = wp_xcalloc(n + 1, sizeof *errs);
  for (size_t i = 0; i < n; i++) {
    cfile *f = &d->files[i];
    if (f->md5[0])
      continue; /* the streamed copy hashed it already */
    key_file[k] = i;
    jobs[k] = (wp_md5_job){NULL, 0, &f->src, f->md5, &errs[k], 0};
    k++;
  }
  size_t n_keys = k;
  for (size_t i = 0; i < n_members; i++) {
    cfile *f = &d->files[members[i]];
    jobs[k++] = (wp_md5_job){f->prefix, f->prefix_len, &f->src, f->member_md5, NULL, 0};
  }
  wp_dedup_md5_jobs_run(d, jobs, k, threads);
  int rc = 0;
  for (size_t i = 0; i < n_keys; i++) {
    cfile *f = &d->files[key_file[i]];
    f->failed = jobs[i].failed;
    f->key_hashed = !f->failed;
    if (f->failed && rc == 0) {
      wp_emit_error(mlirOperationGetLocation(f->op), "dedup-consts: const file '%s': %s",
                    f->name, errs[i].msg);
      rc = -1;
    } else if (!f->failed && f->recorded_md5[0] && strcmp(f->recorded_md5, f->md5) && rc == 0) {
      /* the IR says what these bytes were; packing others would be silent */
      wp_emit_error(mlirOperationGetLocation(f->op),
                    "dedup-consts: const file '%s': its bytes (%s) changed since the IR "
                    "recorded their MD5 %s; they hash to %s now", f->name,
                    f->src.path ? f->src.path : "in the IR", f->recorded_md5, f->md5);
      rc = -1;
    }
  }
  free(errs);
  return rc;
}

static int cmp_sizes(const void *pa, const void *pb, void *user) {
  const cfile *files = user, *a = &files[*(const size_t *)pa], *b = &files[*(const size_t *)pb];
  return a->size < b->size ? -1 : a->size > b->size;
}

/* Files that will be one member: same key MD5, size and guessed header.
 * Sorted so, each run's first by name is the one grouping keeps. */
static int cmp_member_files(const void *pa, const void *pb, void *user) {
  const cfile *files = user, *a = &files[*(const size_t *)pa], *b = &files[*(const size_t *)pb];
  int c = strcmp(a->md5, b->md5);
  if (!c)
    c = a->size < b->size ? -1 : a->size > b->size;
  if (!c)
    c = strcmp(a->prefix_md5, b->prefix_md5);
  if (!c)
    c = strcmp(a->name, b->name);
  return c;
}

static bool same_member(const cfile *a, const cfile *b) {
  return !strcmp(a->md5, b->md5) && a->size == b->size && a->prefix_md5[0] &&
         !strcmp(a->prefix_md5, b->prefix_md5);
}

/* Raw members (no .npy header): a member's MD5 is its file's key MD5,
 * when that was taken from the bytes in this run. */
static int hash_raw_members(dedup *d, long threads) {
  if (hash_batch(d, true, NULL, 0, threads))
    return -1;
  for (size_t i = 0; i < d->n_files; i++) {
    cfile *f = &d->files[i];
    if (!f->key_hashed)
      continue;
    memcpy(f->member_md5, f->md5, sizeof f->md5);
    memcpy(f->prefix_md5, WP_MD5_OF_NOTHING, sizeof f->prefix_md5);
  }
  return 0;
}

static int hash_files(dedup *d, long threads) {
  size_t n = d->n_files;
  /* neff-pack packs these bytes later in the run under the MD5s taken
   * from here on: it checks that their files did not change since (the
   * .npy files the IR names; the artifact directory's files are this
   * run's, renamed and linked by this pass, which changes their times) */
  for (size_t i = 0; i < n; i++)
    if (d->files[i].in_place && d->files[i].src.path && !d->files[i].src.pieces) {
      wp_hashed_source_note(d->run->state->hashed, d->files[i].src.path);
      wp_run_note_read(d->run->state, d->files[i].src.path); /* for a depfile */
    }
  if (d->member_md5 && d->raw_members)
    return hash_raw_members(d, threads);
  if (!d->member_md5)
    return hash_batch(d, true, NULL, 0, threads);
  for (size_t i = 0; i < n; i++) {
    cfile *f = &d->files[i];
    char header[WP_NPY_MAX_HEADER];
    f->prefix_len = wp_npy_member_prefix(header, f->guess_typed ? f->guess_dtype : NULL,
                                       f->guess_shape, f->guess_rank, f->size);
    f->prefix = wp_arena_memdup(d->arena, header, f->prefix_len);
    if (wp_md5_buffer(f->prefix, f->prefix_len, f->prefix_md5, NULL))
      f->prefix_md5[0] = 0;
  }
  size_t *order = wp_arena_alloc(d->arena, (n + 1) * sizeof *order);
  size_t *members = wp_arena_alloc(d->arena, (n + 1) * sizeof *members), n_members = 0;
  bool *later = wp_arena_alloc(d->arena, n + 1);
  /* A file no other file matches in size cannot be a tied copy: its
   * member is hashed alongside the keys (one big file then keeps both
   * cores busy). The others wait for the keys, below. */
  for (size_t i = 0; i < n; i++)
    order[i] = i;
  qsort_r(order, n, sizeof *order, cmp_sizes, d->files);
  for (size_t i = 0; i < n; i++) {
    bool tied = (i > 0 && d->files[order[i - 1]].size == d->files[order[i]].size) ||
                (i + 1 < n && d->files[order[i + 1]].size == d->files[order[i]].size);
    if (tied)
      later[order[i]] = true;
    else
      members[n_members++] = order[i];
  }
  if (hash_batch(d, true, members, n_members, threads))
    return -1;
  /* Then the members of files that share a size, once per set that will
   * be one member (a tied model has many such copies). */
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (later[i])
      order[k++] = i;
  qsort_r(order, k, sizeof *order, cmp_member_files, d->files);
  n_members = 0;
  for (size_t i = 0; i < k; i++)
    if (i == 0 || !same_member(&d->files[order[i - 1]], &d->files[order[i]]))
      members[n_members++] = order[i];
  return hash_batch(d, false, members, n_members, threads);
}

/* ---- grouping ---- */

/* Sorted with glibc's qsort_r: no global state, so passes in two threads
 * (a driver compiling two models) do not share a sort. */
static int cmp_refs(const void *pa, const void *pb, void *ctx) {
  const dedup *d = ctx;
  const ref *a = pa, *b = pb;
  int c = strcmp(a->key, b->key);
  if (c)
    return c;
  c = strcmp(d->files[a->file].name, d->files[b->file].name);
  if (c)
    return c;
  return a->file < b->file ? -1 : a->file > b->file;
}

static wp_place_src file_src(const cfile *f) { return f->src; }

typedef struct content_class {
  size_t rep;
} content_class;

typedef struct class_sort {
  const dedup *d;
  bool failed; /* a file could not be read */
} class_sort;

static int cmp_classes(const void *pa, const void *pb, void *ctx) {
  class_sort *cs = ctx;
  const content_class *a = pa, *b = pb;
  wp_place_src sa = file_src(&cs->d->files[a->rep]), sb = file_src(&cs->d->files[b->rep]);
  int order = 0;
  wp_error err;
  if (wp_bytes_compare(&sa, &sb, &order, &err))
    cs->failed = true;
  return order;
}

/* Gives every reference of one key (refs[lo..hi)) its unique file. Refs
 * of one file are adjacent (sorted by key, then file). Each distinct file
 * is compared with the representative of each content class found so far:
 * one comparison per file unless MD5 collides. */
static int assign_group(dedup *d, size_t lo, size_t hi, const signed char *same_as_first,
                        bool debug) {
  size_t cap = hi - lo;
  content_class *classes = wp_xcalloc(cap, sizeof *classes);
  size_t *class_of = wp_xcalloc(cap, sizeof *class_of); /* per distinct file: its class */
  size_t *distinct = wp_xcalloc(cap, sizeof *distinct);
  size_t *rank = wp_xcalloc(cap, sizeof *rank); /* class -> position after ordering */
  size_t *first_ref = wp_xcalloc(cap, sizeof *first_ref); /* per distinct file: its first ref - LO */
  size_t n_classes = 0, n_distinct = 0;
  int rc = -1;
  for (size_t i = lo; i < hi; i++)
    if (i == lo || d->refs[i].file != d->refs[i - 1].file) {
      first_ref[n_distinct] = i - lo;
      distinct[n_distinct++] = d->refs[i].file;
    }
  for (size_t k = 0; k < n_distinct; k++) {
    size_t c = 0;
    for (; c < n_classes; c++) {
      signed char known = c == 0 ? same_as_first[first_ref[k]] : -1;
      if (known >= 0) { /* compared in parallel already */
        if (known)
          break;
        continue;
      }
      wp_place_src a = file_src(&d->files[distinct[k]]), b = file_src(&d->files[classes[c].rep]);
      bool equal;
      wp_error err;
      if (wp_bytes_equal(&a, &b, &equal, &err)) {
        wp_emit_error(wp_unknown_loc(d->run->module), "dedup-consts: %s", err.msg);
        goto out;
      }
      if (equal)
        break;
    }
    if (c == n_classes)
      classes[n_classes++].rep = distinct[k];
    class_of[k] = c;
  }
  for (size_t c = 0; c < n_classes; c++)
    rank[c] = c;
  if (n_classes > 1) { /* an MD5 collision: order the contents themselves */
    content_class *sorted = wp_xcalloc(n_classes, sizeof *sorted);
    memcpy(sorted, classes, n_classes * sizeof *sorted);
    class_sort cs = {d, false};
    qsort_r(sorted, n_classes, sizeof *sorted, cmp_classes, &cs);
    for (size_t r = 0; r < n_classes; r++)
      for (size_t c = 0; c < n_classes; c++)
        if (classes[c].rep == sorted[r].rep)
          rank[c] = r;
    free(sorted);
    if (cs.failed) {
      wp_emit_error(wp_unknown_loc(d->run->module), "dedup-consts: cannot read files to compare");
      goto out;
    }
  }
  size_t first = d->n_uniques;
  for (size_t c = 0; c < n_classes; c++) {
    const ref *r = &d->refs[lo];
    size_t len = 64 + strlen(r->dtype) + strlen(r->memtype);
    char *name = wp_arena_alloc(d->arena, len);
    wp_dedup_unique_name(name, len, d->files[r->file].md5, r->dtype, r->memtype, rank[c]);
    d->uniques[first + rank[c]] = (unique){name, classes[c].rep};
  }
  d->n_uniques += n_classes;
  for (size_t k = 0; k < n_distinct; k++) {
    size_t u = first + rank[class_of[k]];
    if (debug) {
      const cfile *f = &d->files[distinct[k]];
      wp_emit_remark(wp_unknown_loc(d->run->module), "FileDeDuper %s: %s (%s) %s %s",
              distinct[k] == d->uniques[u].rep ? "added new uniq" : "found match", f->artifact,
              d->refs[lo].key, distinct[k] == d->uniques[u].rep ? "as" : "is",
              d->uniques[u].name);
    }
  }
  for (size_t i = lo, k = 0; i < hi; i++) {
    if (i > lo && d->refs[i].file != d->refs[i - 1].file)
      k++;
    d->refs[i].unique = first + rank[class_of[k]];
  }
  rc = 0;
out:
  free(classes);
  free(class_of);
  free(distinct);
  free(rank);
  free(first_ref);
  return rc;
}

/* The byte comparisons grouping needs, done up front on all cores: each
 * file of a key against the key's first file (tied copies: the only
 * comparison unless MD5 collides). RESULT[i] for the ref I that starts a
 * file's run: 1 same bytes, 0 not, -1 not compared (grouping compares
 * again, and reports a read error). */
typedef struct same_first {
  dedup *d;
  signed char *result;
  size_t *pairs; /* [2k] the first file's ref, [2k + 1] the other's */
  size_t n_pairs;
} same_first;

static int compare_pair(size_t k, void *user) {
  same_first *sf = user;
  const ref *a = &sf->d->refs[sf->pairs[2 * k]], *b = &sf->d->refs[sf->pairs[2 * k + 1]];
  bool equal;
  wp_error err;
  if (wp_bytes_equal(&sf->d->files[a->file].src, &sf->d->files[b->file].src, &equal, &err))
    return 1;
  sf->result[sf->pairs[2 * k + 1]] = equal;
  return 0;
}

/* The end of the group of refs (sorted) that share ref LO's key. */
static size_t group_end(const dedup *d, size_t lo) {
  size_t hi = lo + 1;
  while (hi < d->n_refs && strcmp(d->refs[hi].key, d->refs[lo].key) == 0)
    hi++;
  return hi;
}

static void compare_with_first(same_first *sf, long threads) {
  dedup *d = sf->d;
  sf->result = wp_arena_alloc(d->arena, d->n_refs + 1);
  sf->pairs = wp_arena_alloc(d->arena, 2 * (d->n_refs + 1) * sizeof *sf->pairs);
  memset(sf->result, -1, d->n_refs + 1);
  for (size_t lo = 0, hi; lo < d->n_refs; lo = hi) {
    hi = group_end(d, lo);
    /* distinct files of the group, in ref order: K-th at ref index */
    for (size_t i = lo + 1; i < hi; i++)
      if (d->refs[i].file != d->refs[i - 1].file) {
        sf->pairs[2 * sf->n_pairs] = lo;
        sf->pairs[2 * sf->n_pairs + 1] = i;
        sf->n_pairs++;
      }
  }
  wp_parallel_for(sf->n_pairs, threads, compare_pair, sf);
}

void wp_report_dedup_saved(wp_run *run, MlirOperation module, uint64_t bytes) {
  if (run->dedup_line_for == module.ptr)
    return;
  run->dedup_line_for = module.ptr;
  wp_emit_remark(wp_unknown_loc(module), "Const File de-dup saved %llu KB",
                 (unsigned long long)(bytes / 1024));
}

typedef struct place {
  size_t file;
  int64_t off, size;
} place;

static int cmp_places(const void *a, const void *b) {
  const place *x = a, *y = b;
  if (x->file != y->file)
    return x->file < y->file ? -1 : 1;
  if (x->off != y->off)
    return x->off < y->off ? -1 : 1;
  return x->size < y->size ? -1 : x->size > y->size;
}

/* Bytes stored once for several tensors before any file is merged: memory
 * locations at one place of one file (ties bir-lower found in a shared
 * file), each counted after the first. */
static uint64_t tied_bytes(const dedup *d) {
  if (!d->n_refs)
    return 0;
  place *p = wp_xmalloc(d->n_refs * sizeof *p);
  for (size_t i = 0; i < d->n_refs; i++)
    p[i] = (place){d->refs[i].file, d->refs[i].off, d->refs[i].size};
  qsort(p, d->n_refs, sizeof *p, cmp_places);
  uint64_t tied = 0;
  for (size_t i = 1; i < d->n_refs; i++)
    if (p[i].size > 0 && !cmp_places(&p[i], &p[i - 1]) && tied <= UINT64_MAX - (uint64_t)p[i].size)
      tied += (uint64_t)p[i].size;
  free(p);
  return tied;
}

static int run_dedup(const wp_pass_run *run) {
  MlirOperation module = run->module;
  MlirContext c = mlirOperationGetContext(module);
  if (!wp_bir_module_is_bir(mlirModuleFromOperation(module))) {
    wp_emit_error(mlirOperationGetLocation(module),
                  "dedup-consts: the module is not BIR (run --bir-lower first)");
    return -1;
  }
  if (wp_bir_check_module(module, "dedup-consts", wp_run_bir_read_back(run->state, module)))
    return -1;
  long long threads = wp_pass_option_count(run, "threads", wp_parallel_cores());
  dedup d = {.run = run, .arena = wp_arena_create(),
             .member_md5 = run->state->neff_follows,
             .raw_members = run->state->neff_raw_members};
  d.dir = wp_bir_str(d.arena, module, "bir.artifact_path");
  int rc = -1;
  if (!d.dir[0]) {
    wp_emit_error(mlirOperationGetLocation(module), "dedup-consts: the module has no artifact "
                  "directory (run --copy-const-artifacts first)");
    goto out;
  }
  if (!wp_run_ran(run->state, "copy-const-artifacts")) {
    /* it works where an earlier run placed the files: not in another
     * directory the driver names (which would be ignored), and with that
     * directory locked as copy-const-artifacts locks its own */
    const char *named = run->state->artifact_dir_private ? NULL : run->state->artifact_dir;
    struct stat a, b;
    bool there = stat(d.dir, &a) == 0 && S_ISDIR(a.st_mode);
    if (named && !(there && stat(named, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)) {
      wp_emit_error(mlirOperationGetLocation(module), "dedup-consts: the module's constant files "
                    "are in %s, where dedup-consts works when no copy-const-artifacts ran before "
                    "it; give --artifact-dir=%s, or run copy-const-artifacts first to copy them "
                    "to %s", d.dir, d.dir, named);
      goto out;
    }
    if (there && wp_run_lock_artifact_dir(run->state, "dedup-consts", d.dir,
                                          mlirOperationGetLocation(module)))
      goto out;
  }
  for (MlirOperation f = wp_bir_next_function(module, (MlirOperation){NULL});
       !mlirOperationIsNull(f); f = wp_bir_next_function(module, f))
    if (collect_function(&d, f))
      goto out;
  if (wp_dedup_digests_open(&d))
    goto out;
  int hashed = hash_files(&d, (long)threads);
  wp_dedup_digests_close(&d, hashed == 0);
  if (hashed)
    goto out;
  for (size_t i = 0; i < d.n_refs; i++) {
    ref *r = &d.refs[i];
    size_t len = 40 + strlen(r->dtype) + strlen(r->memtype);
    r->key = wp_arena_alloc(d.arena, len);
    wp_dedup_key(r->key, len, d.files[r->file].md5, r->dtype, r->memtype);
  }
  if (d.n_refs) /* none: a model without constants */
    qsort_r(d.refs, d.n_refs, sizeof *d.refs, cmp_refs, &d);
  d.uniques = wp_arena_alloc(d.arena, (d.n_refs + 1) * sizeof *d.uniques);
  bool debug = run->state->debug;
  same_first sf = {&d, NULL, NULL, 0};
  compare_with_first(&sf, (long)threads);
  for (size_t lo = 0, hi; lo < d.n_refs; lo = hi) {
    hi = group_end(&d, lo);
    if (assign_group(&d, lo, hi, sf.result + lo, debug))
      goto out;
  }
  uint64_t saved = 0, tied = tied_bytes(&d);
  if (wp_dedup_rewrite(&d, &saved))
    goto out;
  wp_dedup_rewrite_artifact_records(&d);
  /* The savings: the files merged here and the ties found before, in
   * place. An earlier run's total stays counted instead of the ties (its
   * merged files look like ties now): a pipeline split after dedup-consts
   * (IR written, packed later, which runs dedup-consts again and finds
   * nothing left to merge) must give the same NEFF as one run. */
  uint64_t total = saved;
  MlirAttribute before = wp_attr(module, "bir.dedup");
  MlirAttribute prev = mlirAttributeIsNull(before) || !mlirAttributeIsADictionary(before)
                           ? mlirAttributeGetNull()
                           : wp_dict_get(before, "bytes_saved");
  uint64_t earlier = tied;
  if (!mlirAttributeIsNull(prev) && mlirAttributeIsAInteger(prev))
    earlier = mlirIntegerAttrGetValueInt(prev) > 0 ? (uint64_t)mlirIntegerAttrGetValueInt(prev) : 0;
  if (earlier <= (uint64_t)INT64_MAX - total)
    total += earlier;
  MlirNamedAttribute stats[2] = {
      wp_named(c, "bytes_saved", wp_i64_attr(c, (int64_t)total)),
      wp_named(c, "unique_files", wp_i64_attr(c, (int64_t)d.n_uniques))};
  wp_set_attr(module, "bir.dedup", mlirDictionaryAttrGet(c, 2, stats));
  /* the totals bir.dedup records: a second dedup-consts of the run replaces them */
  run->state->stats.deduped = true;
  run->state->stats.unique_files = d.n_uniques;
  run->state->stats.bytes_saved = total;
  /* The reference compiler's line is written with the variable
   * definitions: by neff-pack when it follows (and writes the NEFF), else
   * here. A driver also reads the counters from bir.dedup. */
  if (!run->state->neff_follows)
    wp_report_dedup_saved(run->state, module, total);
  rc = 0;
out:
  free(d.files);
  free(d.refs);
  wp_arena_destroy(d.arena);
  return rc;
}

/* An earlier run de-duplicated MODULE's constant files, and none was
 * placed since in this run. */
static bool dedup_done_on(MlirOperation module, const wp_run *run) {
  return !mlirAttributeIsNull(wp_attr(module, "bir.dedup")) &&
         !wp_run_ran(run, "copy-const-artifacts");
}

const wp_pass_info wp_dedup_pass = {
    .name = "dedup-consts",
    .title = "DedupConsts",
    .description = "keep one constant file per (MD5 of its bytes, dtype, memory type) and point "
                   "every memory location at it",
    .options = {{"threads", "threads hashing files (default: the number of cores); the result "
                            "is the same for any count",
                 .number = true, .min = 1, .max = 1024},
                {"digest-cache", "remember each weight file's MD5 in this directory, trusted "
                                 "while the file's identity holds (default: opt's "
                                 "--digest-cache, else $WEIGHTPACK_DIGEST_CACHE)"}},
    .run = run_dedup,
    .done_on = dedup_done_on,
    .traits = {.renames_placed = true, .uses_placed_files = true},
};
