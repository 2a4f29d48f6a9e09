/* inline-weights: each entry parameter that metadata.json maps to a .npy file
 * becomes an hlo.constant over the file's memory-mapped bytes; the
 * parameter is removed and the signature and program shapes follow.
 * (Specification section 1, xla::InlineWeights.) */
#include "wp_pass.h"

#include "hlo.pb-c.h"
#include "wp_hlo_internal.h"
#include "wp_file.h"
#include "wp_file_batch.h"
#include "wp_hlo_weight.h"
#include "wp_i64map.h"
#include "wp_mlir_util.h"
#include "wp_model_dir.h"
#include "wp_npy.h"
#include "wp_pb.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/stat.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct planted {
  MlirStringRef param;
  int64_t number;
} planted;

typedef struct arg_plan {
  const wp_weight_ref *ref; /* NULL: stays a parameter */
  char *path;
  MlirAttribute value;
  MlirOperation constant; /* made, not yet in the body (owned until inserted) */
} arg_plan;

/* The constant's attribute names, looked up once per pass (each lookup
 * probes the context's table of every string). */
typedef struct constant_keys {
  MlirIdentifier name, id, value, weight, extra;
  wp_hlo_origin_keys origin;
} constant_keys;

static MlirOperation make_constant(wp_arena *arena, const constant_keys *keys, MlirOperation func,
                                   intptr_t i, const arg_plan *plan);

static MlirStringRef arg_name(MlirOperation func, intptr_t i) {
  MlirAttribute n = wp_dict_get(wp_func_arg_attrs(func, i), "hlo.name");
  if (!mlirAttributeIsNull(n) && mlirAttributeIsAString(n))
    return wp_str_value(n);
  return (MlirStringRef){"", 0};
}

/* Where an error about entry parameter I of FUNC goes: the parameter's
 * place (its instruction in HLO text, its argument in MLIR text; a
 * protobuf's has the parameter's name around the file). Faults of
 * metadata.json that concern no one parameter stay at no place in the IR,
 * naming the file. */
static MlirLocation param_loc(MlirOperation func, intptr_t i) {
  return wp_diag_value_loc(mlirBlockGetArgument(wp_func_body(func), i));
}

/* Is computation NAME in the comma-separated ALLOW list? */
static bool allowed(const char *allow, MlirStringRef name) {
  const char *p = allow;
  while (*p) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n == name.length && memcmp(p, name.data, n) == 0)
      return true;
    p += n + (e != NULL);
  }
  return false;
}

static int check_allow_list(MlirOperation module, const char *allow) {
  const char *p = allow;
  while (*p) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n && mlirOperationIsNull(wp_find_func(module, mlirStringRefCreate(p, n)))) {
      wp_emit_error(wp_unknown_loc(module), "inline-weights: allow=%.*s names no computation",
                    (int)n, p);
      return -1;
    }
    p += n + (e != NULL);
  }
  return 0;
}

static size_t collect_planted(MlirOperation func, planted **out) {
  size_t n = 0, cap = 0;
  *out = NULL;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef file, param;
    int64_t number;
    MlirAttribute w = wp_attr(op, "weight");
    if (mlirAttributeIsNull(w) || !wp_hlo_weight_origin_get(w, &file, &param, &number))
      continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 16;
      *out = wp_xrealloc(*out, cap * sizeof **out);
    }
    (*out)[n++] = (planted){param, number};
  }
  return n;
}

/* Lookups by name and number, so large models stay linear. */
typedef struct name_index {
  wp_i64map by_hash; /* hash(name) -> index + 1 (0: a hash shared by two names) */
} name_index;

static bool sref_is(MlirStringRef a, const char *b) {
  return a.length == strlen(b) && memcmp(a.data, b, a.length) == 0; /* data never NULL */
}

static int64_t index_find(const name_index *ix, const char *name, MlirStringRef (*name_of)(void *, int64_t),
                          void *ctx, int64_t n) {
  int64_t v;
  if (!wp_i64map_get(&ix->by_hash, wp_hash_bytes(name, strlen(name)), &v))
    return -1;
  if (v > 0)
    return sref_is(name_of(ctx, v - 1), name) ? v - 1 : -1;
  for (int64_t i = 0; i < n; i++) /* a hash collision: look at every name */
    if (sref_is(name_of(ctx, i), name))
      return i;
  return -1;
}

/* After index_find found FIRST: another index with the same name, or -1.
 * Only names whose hash is shared (a collision, or a repeated name) are
 * scanned. */
static int64_t index_find_second(const name_index *ix, const char *name, int64_t first,
                                 MlirStringRef (*name_of)(void *, int64_t), void *ctx,
                                 int64_t n) {
  int64_t v;
  if (!wp_i64map_get(&ix->by_hash, wp_hash_bytes(name, strlen(name)), &v) || v > 0)
    return -1;
  for (int64_t i = first + 1; i < n; i++)
    if (sref_is(name_of(ctx, i), name))
      return i;
  return -1;
}

static void index_add(name_index *ix, MlirStringRef name, int64_t i) {
  int64_t h = wp_hash_bytes(name.data, name.length), v;
  wp_i64map_put(&ix->by_hash, h, wp_i64map_get(&ix->by_hash, h, &v) ? 0 : i + 1);
}

static MlirStringRef planted_name(void *ctx, int64_t i) { return ((planted *)ctx)[i].param; }
static MlirStringRef func_arg_name(void *ctx, int64_t i) {
  return arg_name(*(MlirOperation *)ctx, (intptr_t)i);
}

/* Decides which argument each weight_files entry names. */
static int plan_args(MlirOperation module, MlirOperation func, const wp_model_dir *md,
                     arg_plan *plan, intptr_t n_args) {
  planted *pl;
  size_t n_pl = collect_planted(func, &pl);
  MlirStringRef fname;
  wp_attr_str(func, "sym_name", &fname);
  name_index planted_names, arg_names;
  wp_i64map planted_numbers;
  wp_i64map_init(&planted_names.by_hash);
  wp_i64map_init(&arg_names.by_hash);
  wp_i64map_init(&planted_numbers);
  for (size_t i = 0; i < n_pl; i++) {
    index_add(&planted_names, pl[i].param, (int64_t)i);
    wp_i64map_put(&planted_numbers, pl[i].number, 1);
  }
  for (intptr_t i = 0; i < n_args; i++)
    index_add(&arg_names, arg_name(func, i), i);
  int rc = 0;
  for (size_t r = 0; r < md->n_weights && rc == 0; r++) {
    const wp_weight_ref *ref = &md->weights[r];
    bool done = ref->param_name
                    ? index_find(&planted_names, ref->param_name, planted_name, pl,
                                 (int64_t)n_pl) >= 0
                    : wp_i64map_get(&planted_numbers, ref->param_number, NULL);
    if (done)
      continue;
    intptr_t idx = -1;
    if (ref->param_name) {
      idx = (intptr_t)index_find(&arg_names, ref->param_name, func_arg_name, &func, n_args);
      int64_t twin = idx < 0 ? -1
                             : index_find_second(&arg_names, ref->param_name, idx,
                                                 func_arg_name, &func, n_args);
      if (idx < 0) {
        /* a name that differs only in case is the likely slip; say so */
        intptr_t near = -1;
        for (intptr_t a = 0; a < n_args && near < 0; a++) {
          MlirStringRef n = arg_name(func, a);
          if (n.length == strlen(ref->param_name) &&
              strncasecmp(n.data, ref->param_name, n.length) == 0)
            near = a;
        }
        char hint[160] = "";
        if (near >= 0) {
          MlirStringRef nn = arg_name(func, near);
          snprintf(hint, sizeof hint, " (names are case-sensitive; parameter %ld is '%.*s')",
                   (long)near, (int)(nn.length < 80 ? nn.length : 80), nn.data);
        }
        wp_emit_error(wp_unknown_loc(module),
                      "%s/metadata.json: weight_files names parameter '%s', which the entry "
                      "computation '%.*s' does not have%s",
                      md->dir, ref->param_name, (int)fname.length, fname.data, hint);
        rc = -1;
      } else if (twin >= 0) {
        wp_emit_error(param_loc(func, (intptr_t)twin),
                      "%s/metadata.json: weight_files names parameter '%s', but parameters %ld "
                      "and %lld of the entry computation '%.*s' both have that name; give its "
                      "number instead",
                      md->dir, ref->param_name, (long)idx, (long long)twin, (int)fname.length,
                      fname.data);
        idx = -1;
        rc = -1;
      }
    } else if (n_pl) {
      wp_emit_error(wp_unknown_loc(module),
                    "%s/metadata.json: weight_files names parameter number %lld, but weights "
                    "were already inlined and parameters renumbered; name it instead",
                    md->dir, (long long)ref->param_number);
      rc = -1;
    } else if (ref->param_number >= n_args) {
      wp_emit_error(wp_unknown_loc(module),
                    "%s/metadata.json: weight_files names parameter number %lld, but the entry "
                    "computation '%.*s' has %ld parameter%s",
                    md->dir, (long long)ref->param_number, (int)fname.length, fname.data,
                    (long)n_args, n_args == 1 ? "" : "s");
      rc = -1;
    } else {
      idx = (intptr_t)ref->param_number;
      char key[24];
      snprintf(key, sizeof key, "%lld", (long long)ref->param_number);
      int64_t named = ref->number_is_key
                          ? index_find(&arg_names, key, func_arg_name, &func, n_args)
                          : -1;
      if (named >= 0 && named != idx) {
        /* Taking either would plant a weight in a parameter the user may
         * not have meant; the list form names parameters by number only. */
        MlirStringRef n = arg_name(func, idx);
        wp_emit_error(param_loc(func, (intptr_t)named),
                      "%s/metadata.json: weight_files key '%s' is ambiguous: parameter number "
                      "%s is '%.*s', but parameter %lld is named '%s'; give weight_files as a "
                      "list indexed by parameter number, or rename the parameter",
                      md->dir, key, key, (int)n.length, n.data, (long long)named, key);
        idx = -1;
        rc = -1;
      }
    }
    if (rc == 0 && plan[idx].ref) {
      MlirStringRef n = arg_name(func, idx);
      wp_emit_error(param_loc(func, idx),
                    "%s/metadata.json: parameter '%.*s' (number %ld) is named twice in "
                    "weight_files",
                    md->dir, (int)n.length, n.data, (long)idx);
      rc = -1;
    }
    if (rc == 0)
      plan[idx].ref = ref;
  }
  wp_i64map_free(&planted_names.by_hash);
  wp_i64map_free(&arg_names.by_hash);
  wp_i64map_free(&planted_numbers);
  free(pl);
  return rc;
}

/* What load_each needs to make each weight's constant as its bytes come. */
typedef struct constant_maker {
  wp_arena *arena;
  constant_keys keys;
} constant_maker;

static int load_each(MlirOperation module, MlirOperation func, MlirBlock body,
                     const wp_model_dir *md, arg_plan *plan, intptr_t n_args,
                     wp_resolve_cache *cache, wp_run *run, constant_maker *maker);

/* Reads every planned weight and makes its constant before the IR
 * changes, so a bad file leaves the module as it was (the constants made
 * are then destroyed). */
static int load_weights(MlirOperation module, MlirOperation func, const wp_model_dir *md,
                        arg_plan *plan, intptr_t n_args, wp_run *run, constant_maker *maker) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  wp_resolve_cache *cache = wp_xcalloc(1, sizeof *cache);
  int rc = load_each(module, func, body, md, plan, n_args, cache, run, maker);
  free(cache);
  if (rc)
    for (intptr_t i = 0; i < n_args; i++)
      if (!mlirOperationIsNull(plan[i].constant)) {
        mlirOperationDestroy(plan[i].constant);
        plan[i].constant = (MlirOperation){NULL};
      }
  return rc;
}

/* One weight file to read. The message of a failure is
 * kept apart (ERROR, caller frees): a wp_error in every job made 100,000
 * jobs 200 MiB to clear. */
typedef struct read_job {
  intptr_t arg;
  MlirType type;
  const char *path;
  wp_hlo_weight_data *weight;
  char *error;
  bool failed;
  /* resolved without a look at the file (wp_model_dir_resolve_unchecked):
   * read refusing a link; any failure sends it through the full check */
  bool unchecked, recheck;
  uint16_t head_size; /* the .npy header of EARLY kept apart (HEAD_CAP at most), or 0 */
  wp_mapped_file early; /* read by wp_file_batch_read_split, or empty */
} read_job;

/* Space for a small file's .npy header read apart from its bytes: numpy
 * writes 128 bytes for most shapes. Only the bytes after it stay in
 * memory: 100,000 weights of 1 KiB held 12.5 MiB of headers. */
enum { HEAD_CAP = 256 };

static int file_flags(const read_job *j) {
  return WP_FILE_SLAB | (j->unchecked ? WP_FILE_NO_LINK : 0);
}

/* Job J's weight, from the bytes read early (HEAD: its header, when read
 * apart) or else from its file. */
static int read_one(read_job *j, const unsigned char *head) {
  wp_error err;
  /* Bytes read early that do not make a weight are read again the usual
   * way, whose error is the one reported. */
  if (j->early.data &&
      wp_hlo_weight_from_parts(j->type, j->path, j->head_size ? head : NULL, j->head_size,
                               &j->early, &j->weight, &err) == 0) {
    j->failed = false;
    return 0;
  }
  j->failed = wp_hlo_weight_read(j->type, j->path, file_flags(j), &j->weight, &err) != 0;
  if (j->failed && j->unchecked)
    j->recheck = true;
  else if (j->failed)
    j->error = wp_xstrdup(err.msg);
  return j->failed;
}

/* The small files' bytes in a few system calls, before they are parsed:
 * a model of 100,000 small weights otherwise makes 400,000 (open, fstat,
 * read, close), a third of its run on this VM. On the calling thread (the
 * reader's) alone. Without memory for the lists, every file is read the
 * usual way. Returns how many were read. */
static size_t read_early(read_job *jobs, size_t n, unsigned char *heads) {
  const char **paths = malloc(n * sizeof *paths);
  int *flags = malloc(n * sizeof *flags);
  wp_mapped_file *views = malloc(n * sizeof *views);
  size_t *head_sizes = malloc(n * sizeof *head_sizes);
  size_t read = 0;
  if (paths && flags && views && head_sizes) {
    for (size_t i = 0; i < n; i++) {
      paths[i] = jobs[i].path;
      flags[i] = file_flags(&jobs[i]);
    }
    wp_file_heads split = {wp_npy_header_size, HEAD_CAP, heads, head_sizes};
    read = wp_file_batch_read_split(paths, flags, n, views, 1, heads ? &split : NULL);
    for (size_t i = 0; i < n; i++) {
      jobs[i].early = views[i];
      jobs[i].head_size = heads ? (uint16_t)head_sizes[i] : 0;
    }
  }
  free(paths);
  free(flags);
  free(views);
  free(head_sizes);
  return read;
}

/* Files are read a chunk at a time on a thread of their own while the
 * pass makes the constants of the chunks before: the reads are system
 * calls, the constants MLIR's work, and each keeps a core busy. The
 * thread only reads bytes; everything that asks MLIR (the parameter's
 * type, an error's words) stays on the pass's thread. */
enum { READ_CHUNK = 4096 };

typedef struct reader {
  read_job *jobs;
  size_t n;
  pthread_mutex_t mu;
  pthread_cond_t ready_cv; /* READY grew */
  pthread_cond_t taken_cv; /* TAKEN grew, or STOP was set */
  size_t ready;        /* jobs read (under mu) */
  size_t taken;        /* jobs the pass has made constants of, by chunks (under mu) */
  bool stop;           /* the pass stopped at a failure (under mu) */
  size_t batched;      /* files read in batches (the reader's own) */
  unsigned char **heads; /* per chunk: its headers read apart (READ_CHUNK * HEAD_CAP), or NULL */
} reader;

/* The reader keeps at most this many chunks ahead of the pass: their
 * headers are held until the pass has parsed them. */
enum { READ_AHEAD = 2 };

/* Chunk C's headers, for job K of it (NULL: none kept apart). */
static const unsigned char *job_head(const reader *r, size_t k) {
  const unsigned char *chunk = r->heads ? r->heads[k / READ_CHUNK] : NULL;
  return chunk ? chunk + (k % READ_CHUNK) * HEAD_CAP : NULL;
}

static void *reader_thread(void *user) {
  reader *r = user;
  for (size_t at = 0; at < r->n; at += READ_CHUNK) {
    pthread_mutex_lock(&r->mu);
    while (!r->stop && at >= r->taken + READ_AHEAD * READ_CHUNK)
      pthread_cond_wait(&r->taken_cv, &r->mu);
    bool stop = r->stop;
    pthread_mutex_unlock(&r->mu);
    if (stop)
      break;
    size_t m = r->n - at < READ_CHUNK ? r->n - at : READ_CHUNK;
    unsigned char *heads = r->heads ? malloc(m * HEAD_CAP) : NULL;
    if (heads)
      r->heads[at / READ_CHUNK] = heads;
    r->batched += read_early(r->jobs + at, m, heads);
    /* the rest (larger files, or no io_uring) mapped here too; one that
     * fails is read again on the pass's thread, which says why */
    for (size_t i = at; i < at + m; i++) {
      wp_error ignored;
      if (!r->jobs[i].early.data)
        wp_file_map_flags(r->jobs[i].path, file_flags(&r->jobs[i]), &r->jobs[i].early, &ignored);
    }
    pthread_mutex_lock(&r->mu);
    r->ready = at + m;
    pthread_cond_broadcast(&r->ready_cv);
    pthread_mutex_unlock(&r->mu);
  }
  return NULL;
}

/* Waits until job K of R is read; at a chunk's start, the chunk before
 * is done with: its headers go and the reader may go on. */
static void reader_wait(reader *r, size_t k, size_t *ready) {
  if (k && k % READ_CHUNK == 0) {
    if (r->heads) {
      free(r->heads[k / READ_CHUNK - 1]);
      r->heads[k / READ_CHUNK - 1] = NULL;
    }
    pthread_mutex_lock(&r->mu);
    r->taken = k;
    pthread_cond_signal(&r->taken_cv);
    pthread_mutex_unlock(&r->mu);
  }
  if (k < *ready)
    return;
  pthread_mutex_lock(&r->mu);
  while (r->ready <= k)
    pthread_cond_wait(&r->ready_cv, &r->mu);
  *ready = r->ready;
  pthread_mutex_unlock(&r->mu);
}

/* Job J parsed: its bytes become ARG's constant value and the constant is
 * made (kept out of the body); a file that failed unchecked is resolved
 * with every check and read again first. */
static int take_job(read_job *j, MlirOperation func,
                    const wp_model_dir *md, arg_plan *plan, wp_resolve_cache *cache,
                    wp_run *run, constant_maker *maker) {
  wp_error err;
  if (j->recheck) {
    free(plan[j->arg].path);
    plan[j->arg].path = NULL;
    if (wp_model_dir_resolve_cached(cache, md->dir, plan[j->arg].ref->rel_path, 0,
                                    &plan[j->arg].path, &err)) {
      MlirStringRef name = arg_name(func, j->arg);
      wp_emit_error(param_loc(func, j->arg), "%s (parameter '%.*s')", err.msg,
                    (int)name.length, name.data);
      return -1;
    }
    j->path = plan[j->arg].path;
    j->unchecked = j->recheck = false;
    read_one(j, NULL);
  }
  MlirStringRef name = arg_name(func, j->arg);
  char *pname = wp_xmalloc(name.length + 1);
  memcpy(pname, name.data, name.length);
  pname[name.length] = 0;
  char key[256];
  wp_hlo_weight_key(pname[0] ? pname : plan[j->arg].ref->rel_path, key, sizeof key);
  int rc = 0;
  if (j->failed) {
    wp_emit_error(param_loc(func, j->arg), "%s: parameter '%s': %s", j->path, pname, j->error);
    rc = -1;
  } else {
    wp_hlo_weight_data *w = j->weight;
    j->weight = NULL;
    uint64_t size = 0;
    wp_hlo_weight_data_bytes(w, &size);
    wp_run_note_read(run, j->path); /* a prerequisite in a depfile */
    run->stats.tensors_planted++;
    run->stats.weight_bytes += size;
    if (wp_hlo_weight_attr(j->type, key, w, &plan[j->arg].value, &err)) {
      wp_emit_error(param_loc(func, j->arg), "%s: parameter '%s': %s", j->path, pname,
                    err.msg);
      rc = -1;
    } else {
      plan[j->arg].constant = make_constant(maker->arena, &maker->keys, func, j->arg,
                                            &plan[j->arg]);
    }
  }
  free(pname);
  return rc;
}

/* Paths are resolved in order up to the first that fails, most without a
 * system call (the open refuses links instead of an lstat before it); the
 * files before it are read on the reader thread (100,000 small files are
 * mostly system calls); then, in order again, a file whose read failed
 * unchecked is resolved with every check and read again, and each becomes
 * its constant or the first failure (by parameter order, as a one-by-one
 * loop would report) is reported. */
static int load_each(MlirOperation module, MlirOperation func, MlirBlock body,
                     const wp_model_dir *md, arg_plan *plan, intptr_t n_args,
                     wp_resolve_cache *cache, wp_run *run, constant_maker *maker) {
  read_job *jobs = wp_xcalloc((size_t)n_args + 1, sizeof *jobs);
  size_t n_jobs = 0;
  intptr_t unresolved = -1;
  wp_error resolve_err;
  for (intptr_t i = 0; i < n_args && unresolved < 0; i++) {
    if (!plan[i].ref)
      continue;
    bool unchecked =
        wp_model_dir_resolve_unchecked(cache, md->dir, plan[i].ref->rel_path, &plan[i].path) == 0;
    if (!unchecked && wp_model_dir_resolve_cached(cache, md->dir, plan[i].ref->rel_path, 0,
                                                  &plan[i].path, &resolve_err)) {
      unresolved = i;
      break;
    }
    jobs[n_jobs++] = (read_job){.arg = i,
                                .type = mlirValueGetType(mlirBlockGetArgument(body, i)),
                                .path = plan[i].path,
                                .unchecked = unchecked};
  }
  /* headers apart only on a thread of its own, which stays READ_AHEAD
   * chunks ahead: read all at once, they would all be held */
  size_t n_chunks = (n_jobs + READ_CHUNK - 1) / READ_CHUNK;
  reader r = {.jobs = jobs, .n = n_jobs, .heads = wp_xcalloc(n_chunks + 1, sizeof *r.heads)};
  pthread_mutex_init(&r.mu, NULL);
  pthread_cond_init(&r.ready_cv, NULL);
  pthread_cond_init(&r.taken_cv, NULL);
  pthread_t thread;
  bool threaded = pthread_create(&thread, NULL, reader_thread, &r) == 0;
  if (!threaded) {
    free(r.heads);
    r.heads = NULL;
    r.taken = SIZE_MAX / 2; /* all of them, now */
    reader_thread(&r);
  }
  int rc = 0;
  size_t k = 0, ready = 0;
  for (; k < n_jobs && rc == 0; k++) {
    reader_wait(&r, k, &ready);
    read_one(&jobs[k], job_head(&r, k));
    rc = take_job(&jobs[k], func, md, plan, cache, run, maker);
    wp_run_progress(run, "inline-weights", k + 1, n_jobs, true);
  }
  pthread_mutex_lock(&r.mu);
  r.stop = true;
  pthread_cond_signal(&r.taken_cv);
  pthread_mutex_unlock(&r.mu);
  if (threaded)
    pthread_join(thread, NULL);
  if (run->debug)
    wp_emit_remark(wp_unknown_loc(module), "inline-weights read %zu of %zu weight files "
                   "in batches", r.batched, n_jobs);
  pthread_cond_destroy(&r.taken_cv);
  pthread_cond_destroy(&r.ready_cv);
  pthread_mutex_destroy(&r.mu);
  for (size_t c = 0; r.heads && c < n_chunks; c++)
    free(r.heads[c]);
  free(r.heads);
  for (k = 0; k < n_jobs; k++) {
    wp_hlo_weight_data_free(jobs[k].weight);
    free(jobs[k].error);
    wp_file_unmap(&jobs[k].early);
  }
  free(jobs);
  if (rc == 0 && unresolved >= 0) {
    MlirStringRef name = arg_name(func, unresolved);
    wp_emit_error(param_loc(func, unresolved), "%s (parameter '%.*s')", resolve_err.msg,
                  (int)name.length, name.data);
    rc = -1;
  }
  return rc;
}

/* The planted constant keeps the parameter's non-default shape (its
 * layout) and metadata; nothing parameter-specific. */
static MlirAttribute constant_extra(wp_arena *arena, MlirContext ctx, MlirAttribute param_extra) {
  if (mlirAttributeIsNull(param_extra))
    return param_extra; /* the usual case: nothing to keep */
  wp_arena_mark_t scratch = wp_arena_mark(arena);
  Xla__HloInstructionProto *p =
      wp_hlo_unpack_extra(arena, param_extra, &xla__hlo_instruction_proto__descriptor);
  Xla__HloInstructionProto c = XLA__HLO_INSTRUCTION_PROTO__INIT;
  if (p) {
    /* what XLA writes on every instruction, a constant too */
    c.shape = p->shape;
    c.metadata = p->metadata;
    c.frontend_attributes = p->frontend_attributes;
    c.statistics_viz = p->statistics_viz;
  }
  ProtobufCBinaryData b = wp_pb_pack(arena, &c.base);
  MlirAttribute extra = b.len ? wp_str_attr(ctx, b.data, b.len) : mlirAttributeGetNull();
  wp_arena_release(arena, scratch);
  return extra;
}

static constant_keys constant_keys_get(MlirContext ctx) {
  return (constant_keys){mlirIdentifierGet(ctx, wp_sref("name")),
                         mlirIdentifierGet(ctx, wp_sref("id")),
                         mlirIdentifierGet(ctx, wp_sref("value")),
                         mlirIdentifierGet(ctx, wp_sref("weight")),
                         mlirIdentifierGet(ctx, wp_sref("extra")),
                         wp_hlo_origin_keys_get(ctx)};
}

static MlirOperation make_constant(wp_arena *arena, const constant_keys *keys, MlirOperation func,
                                   intptr_t i, const arg_plan *plan) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirAttribute dict = wp_func_arg_attrs(func, i);
  MlirStringRef name = arg_name(func, i);
  MlirAttribute id = wp_dict_get(dict, "hlo.id");
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirType type = mlirValueGetType(mlirBlockGetArgument(body, i));
  char *pname = wp_xmalloc(name.length + 1);
  memcpy(pname, name.data, name.length);
  pname[name.length] = 0;
  MlirLocation loc = mlirLocationNameGet(
      ctx, name, mlirLocationFileLineColGet(ctx, wp_sref(plan->path), 0, 0));
  MlirOperationState st = mlirOperationStateGet(wp_sref("hlo.constant"), loc);
  mlirOperationStateAddResults(&st, 1, &type);
  MlirNamedAttribute a[5];
  int n = 0;
  /* in the dictionary's (sorted) order: MLIR then need not sort them */
#define NAMED(k, v) a[n++] = mlirNamedAttributeGet(keys->k, (v))
  MlirAttribute extra = constant_extra(arena, ctx, wp_dict_get(dict, "hlo.extra"));
  if (!mlirAttributeIsNull(extra))
    NAMED(extra, extra);
  if (!mlirAttributeIsNull(id))
    NAMED(id, id);
  NAMED(name, wp_str_attr(ctx, name.data, name.length));
  NAMED(value, plan->value);
  NAMED(weight, wp_hlo_weight_origin_keyed(ctx, &keys->origin, plan->path, pname, (int64_t)i));
#undef NAMED
  mlirOperationStateAddAttributes(&st, n, a);
  free(pname);
  return mlirOperationCreate(&st);
}

/* Drops removed parameters from a stored program shape (func hlo.extra
 * field program_shape, or module hlo.extra field host_program_shape). */
static void drop_from_program_shape(wp_arena *arena, MlirOperation op, MlirOperation func,
                                    bool module, const bool *removed, size_t n_orig) {
  MlirAttribute extra = wp_attr(op, "hlo.extra");
  if (mlirAttributeIsNull(extra))
    return;
  ProtobufCMessage *msg = wp_hlo_unpack_extra(
      arena, extra,
      module ? &xla__hlo_module_proto__descriptor : &xla__hlo_computation_proto__descriptor);
  if (!msg)
    return;
  Xla__ProgramShapeProto *ps = module ? ((Xla__HloModuleProto *)msg)->host_program_shape
                                      : ((Xla__HloComputationProto *)msg)->program_shape;
  if (!ps || ps->n_parameters != n_orig)
    return;
  /* XLA names a host program shape's parameters by position, "p0",
   * "p1", ... (ComputationLayout::ComputeProgramShape): such names are
   * numbered again below, as XLA would write them for the new signature. */
  bool positional = module && ps->n_parameter_names == n_orig;
  char want[32];
  for (size_t i = 0; positional && i < n_orig; i++) {
    snprintf(want, sizeof want, "p%zu", i);
    positional = ps->parameter_names[i] && strcmp(ps->parameter_names[i], want) == 0;
  }
  size_t k = 0, kn = 0;
  for (size_t i = 0; i < n_orig; i++) {
    if (removed[i])
      continue;
    ps->parameters[k++] = ps->parameters[i];
    if (ps->n_parameter_names == n_orig)
      ps->parameter_names[kn++] = ps->parameter_names[i];
  }
  ps->n_parameters = k;
  if (ps->n_parameter_names == n_orig) {
    ps->n_parameter_names = kn;
    for (size_t i = 0; positional && i < kn; i++) {
      int len = snprintf(want, sizeof want, "p%zu", i);
      ps->parameter_names[i] = wp_arena_strndup(arena, want, (size_t)len);
    }
  }
  /* What is left may be just what export computes for the new signature:
   * then it goes, as the importer drops such a shape (else reading the
   * module back, as --verify-roundtrip does, would differ). The host
   * shape's rule reads FUNC's own stored shape: the caller updates that
   * one first. */
  if (module ? wp_hlo_host_shape_is_default(arena, ps, func)
             : wp_hlo_shape_is_derived(arena, ps, func)) {
    if (module)
      ((Xla__HloModuleProto *)msg)->host_program_shape = NULL;
    else
      ((Xla__HloComputationProto *)msg)->program_shape = NULL;
  }
  ProtobufCBinaryData b = wp_pb_pack(arena, msg);
  if (b.len)
    wp_set_attr(op, "hlo.extra", wp_str_attr(mlirOperationGetContext(op), b.data, b.len));
  else
    mlirOperationRemoveAttributeByName(op, wp_sref("hlo.extra"));
}

/* Parameter P's new number: -1 when it was removed, -2 when P is no
 * parameter number at all (left as it is). */
static int64_t map_param(int64_t p, const int64_t *new_index, size_t n_orig) {
  return p < 0 || (uint64_t)p >= n_orig ? -2 : new_index[p];
}

/* Drops the entries of removed parameters from ENTRIES (messages holding
 * an int64 parameter number at OFFSET) and renumbers the rest; true when
 * anything changed. */
static bool renumber_entries(void **entries, size_t *n, size_t offset, const int64_t *new_index,
                             size_t n_orig) {
  bool changed = false;
  size_t k = 0;
  for (size_t i = 0; i < *n; i++) {
    int64_t *p = (int64_t *)((char *)entries[i] + offset), m = map_param(*p, new_index, n_orig);
    changed |= m != -2 && m != *p;
    if (m == -1)
      continue;
    if (m >= 0)
      *p = m;
    entries[k++] = entries[i];
  }
  *n = k;
  return changed;
}

/* MSG put back as the Opaque field *FIELD; false (the field as it was)
 * when out of memory. */
static bool as_opaque(wp_arena *arena, ProtobufCMessage *msg, Xla__Opaque **field) {
  Xla__Opaque *o = wp_pb_convert(arena, msg, &xla__opaque__descriptor);
  if (o)
    *field = o;
  return o != NULL;
}

/* The module fields that name entry parameters by number (aliases, buffer
 * donors, cross-program prefetches, per-parameter shardings) follow the
 * renumbering; entries of removed parameters go (a constant is no buffer
 * to alias, donate or prefetch). */
static void renumber_module_params(wp_arena *arena, MlirOperation module, const bool *removed,
                                   size_t n_orig) {
  MlirAttribute extra = wp_attr(module, "hlo.extra");
  if (mlirAttributeIsNull(extra))
    return;
  Xla__HloModuleProto *msg =
      wp_hlo_unpack_extra(arena, extra, &xla__hlo_module_proto__descriptor);
  if (!msg)
    return;
  int64_t *new_index = wp_arena_alloc(arena, (n_orig + 1) * sizeof *new_index);
  if (!new_index)
    return;
  int64_t next = 0;
  for (size_t i = 0; i < n_orig; i++)
    new_index[i] = removed[i] ? -1 : next++;
  bool changed = false;
  Xla__HloInputOutputAliasProto *alias =
      msg->input_output_alias ? wp_pb_convert(arena, &msg->input_output_alias->base,
                                              &xla__hlo_input_output_alias_proto__descriptor)
                              : NULL;
  if (alias &&
      renumber_entries((void **)alias->entries, &alias->n_entries,
                       offsetof(Xla__HloInputOutputAliasProto__AliasEntryProto, parameter_number),
                       new_index, n_orig))
    changed |= as_opaque(arena, &alias->base, &msg->input_output_alias);
  Xla__HloBufferDonorProto *donor =
      msg->buffer_donor ? wp_pb_convert(arena, &msg->buffer_donor->base,
                                        &xla__hlo_buffer_donor_proto__descriptor)
                        : NULL;
  if (donor &&
      renumber_entries((void **)donor->entries, &donor->n_entries,
                       offsetof(Xla__HloBufferDonorProto__BufferDonorEntryProto, parameter_number),
                       new_index, n_orig))
    changed |= as_opaque(arena, &donor->base, &msg->buffer_donor);
  size_t kept = 0;
  for (size_t i = 0; i < msg->n_cross_program_prefetches; i++) {
    Xla__Opaque *raw = msg->cross_program_prefetches[i];
    Xla__CrossProgramPrefetch *c =
        wp_pb_convert(arena, &raw->base, &xla__cross_program_prefetch__descriptor);
    int64_t m = c ? map_param(c->parameter, new_index, n_orig) : -2;
    if (m == -1) {
      changed = true;
      continue;
    }
    if (m >= 0 && m != c->parameter) {
      c->parameter = m;
      changed |= as_opaque(arena, &c->base, &raw);
    }
    msg->cross_program_prefetches[kept++] = raw;
  }
  msg->n_cross_program_prefetches = kept;
  if (msg->n_spmd_parameters_shardings == n_orig) { /* one per parameter, in order */
    size_t k = 0;
    for (size_t i = 0; i < n_orig; i++)
      if (!removed[i])
        msg->spmd_parameters_shardings[k++] = msg->spmd_parameters_shardings[i];
    changed |= k != msg->n_spmd_parameters_shardings;
    msg->n_spmd_parameters_shardings = k;
  }
  if (!changed)
    return;
  ProtobufCBinaryData b = wp_pb_pack(arena, &msg->base);
  if (b.len)
    wp_set_attr(module, "hlo.extra", wp_str_attr(mlirOperationGetContext(module), b.data, b.len));
  else
    mlirOperationRemoveAttributeByName(module, wp_sref("hlo.extra"));
}

static void rewrite_signature(MlirOperation func, const bool *removed, intptr_t n_orig) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirType fty = mlirTypeAttrGetValue(wp_attr(func, "function_type"));
  intptr_t n = mlirBlockGetNumArguments(body);
  MlirType *args = wp_xmalloc((size_t)(n + 1) * sizeof *args);
  MlirAttribute *dicts = wp_xmalloc((size_t)(n + 1) * sizeof *dicts);
  for (intptr_t i = 0; i < n; i++)
    args[i] = mlirValueGetType(mlirBlockGetArgument(body, i));
  intptr_t k = 0;
  for (intptr_t i = 0; i < n_orig; i++)
    if (!removed[i])
      dicts[k++] = wp_func_arg_attrs(func, i);
  MlirType res[1] = {mlirFunctionTypeGetResult(fty, 0)};
  wp_set_attr(func, "function_type",
              mlirTypeAttrGet(mlirFunctionTypeGet(ctx, n, args, 1, res)));
  if (n)
    wp_set_attr(func, "arg_attrs", mlirArrayAttrGet(ctx, n, dicts));
  else
    mlirOperationRemoveAttributeByName(func, wp_sref("arg_attrs"));
  free(args);
  free(dicts);
}

/* Removing parameters can leave a stored order (hlo.order: the ids as the
 * input stored them) that says no more than the order export writes without
 * one (parameters by number, then the body's ops). The import of what
 * export writes then has no hlo.order, so the IR would not survive its own
 * round trip (--verify-roundtrip failed a valid model whose parameters were
 * stored against their numbers). Such an order is dropped. */
static void drop_default_order(MlirOperation func, MlirBlock body) {
  MlirAttribute order = wp_attr(func, "hlo.order");
  if (mlirAttributeIsNull(order) || !mlirAttributeIsADenseI64Array(order))
    return;
  intptr_t n = mlirDenseArrayGetNumElements(order), k = 0;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++, k++) {
    MlirAttribute id = wp_dict_get(wp_func_arg_attrs(func, i), "hlo.id");
    if (k >= n || mlirAttributeIsNull(id) || !mlirAttributeIsAInteger(id) ||
        mlirIntegerAttrGetValueInt(id) != mlirDenseI64ArrayGetElement(order, k))
      return;
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (wp_op_is(op, "func.return"))
      continue;
    int64_t id;
    if (k >= n || !wp_attr_i64(op, "id", &id) || id != mlirDenseI64ArrayGetElement(order, k))
      return;
    k++;
  }
  if (k == n)
    mlirOperationRemoveAttributeByName(func, wp_sref("hlo.order"));
}

/* Has PATH a ".." component? */
static bool has_dot_dot(const char *path) {
  for (const char *p = path; (p = strstr(p, "..")); p += 2)
    if ((p == path || p[-1] == '/') && (p[2] == 0 || p[2] == '/'))
      return true;
  return false;
}

/* "/a/./b/." as "/a/b": the path errors and the IR show. ".." stays (what
 * it means depends on links). */
static void drop_dot_components(char *path) {
  char *out = path;
  for (const char *p = path; *p;) {
    const char *end = strchr(p, '/');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len && !(len == 1 && p[0] == '.')) {
      if (out != path || path[0] == '/')
        *out++ = '/';
      memmove(out, p, len);
      out += len;
    }
    p += len + (end != NULL);
  }
  if (out == path)
    *out++ = path[0] == '/' ? '/' : '.';
  *out = 0;
}

/* DIR's metadata.json was read for this run (by the driver when
 * borrowed): a prerequisite in a depfile. */
static void note_metadata_read(wp_run *run, const char *dir) {
  size_t n = strlen(dir) + sizeof "/metadata.json";
  char *path = wp_xmalloc(n);
  snprintf(path, n, "%s/metadata.json", dir);
  wp_run_note_read(run, path);
  free(path);
}

static int run_inline_weights(const wp_pass_run *run) {
  MlirOperation module = run->module;
  run->state->stats.inlined = true;
  const char *dir = wp_pass_option(run, "model-dir");
  if (!dir[0] && run->state->model_dir)
    dir = run->state->model_dir;
  if (!dir[0]) {
    wp_emit_error(wp_unknown_loc(module), "inline-weights: no model directory; give the pass "
                                       "option model-dir=DIR (opt: the model directory as "
                                       "input, or --inline-weights=\"model-dir=DIR\")");
    return -1;
  }
  wp_run_note_input_dir(run->state, dir);
  MlirAttribute entry_ref = wp_attr(module, "hlo.entry");
  if (mlirAttributeIsNull(entry_ref) || !mlirAttributeIsAFlatSymbolRef(entry_ref)) {
    wp_emit_error(mlirOperationGetLocation(module),
                  "inline-weights: the module is not an HLO module (no hlo.entry)");
    return -1;
  }
  MlirStringRef entry_name = wp_symref_value(entry_ref);
  MlirOperation func = wp_find_func(module, entry_name);
  if (mlirOperationIsNull(func)) {
    wp_emit_error(mlirOperationGetLocation(module), "inline-weights: entry computation '%.*s' "
                  "not found", (int)entry_name.length, entry_name.data);
    return -1;
  }
  const char *allow = wp_pass_option(run, "allow");
  if (check_allow_list(module, allow))
    return -1;
  if (allow[0] && !allowed(allow, entry_name)) {
    /* weights are entry parameters; the entry is not ours to touch. Said
     * out loud: the weights then reach the NEFF as runtime inputs. */
    wp_emit_warning(wp_unknown_loc(module), "inline-weights: allow=%s leaves out the entry "
                    "computation '%.*s', whose parameters are the weights: nothing is inlined",
                    allow, (int)entry_name.length, entry_name.data);
    return 0;
  }

  /* opt read this directory's metadata.json already: 100,000 entries are
   * not parsed twice. */
  wp_model_dir md;
  wp_error err;
  bool borrowed = run->state->model && run->state->model_dir &&
                  strcmp(dir, run->state->model_dir) == 0;
  if (borrowed) {
    md = *run->state->model;
  } else if (wp_model_dir_load_weights(dir, &md, &err)) {
    /* opt's default (the input file's own directory) is a guess the user
     * did not make: say how to give the right one */
    bool guessed = !wp_pass_option(run, "model-dir")[0];
    wp_emit_error(wp_unknown_loc(module), "%s%s", err.msg,
                  guessed ? "; the model directory is the input file's own directory (the "
                            "working directory for standard input) unless given "
                            "(--inline-weights=\"model-dir=DIR\", or the model directory as "
                            "opt's input)"
                          : "");
    return -1;
  }
  note_metadata_read(run->state, md.dir);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(body)) {
    wp_emit_error(mlirOperationGetLocation(func), "inline-weights: the entry computation has "
                  "no body");
    if (!borrowed)
      wp_model_dir_free(&md);
    return -1;
  }
  /* Weight paths go into the IR (each constant's origin, bir-lower's
   * source files): absolute, so that IR written now (--emit=bir-proto)
   * packs later from any directory. A ".." is resolved where it leads
   * now: kept, it would tie the IR to the directory it climbs out of
   * (sub/../../model stops working when sub goes). */
  char *given_dir = md.dir, *abs_dir = NULL, cwd[PATH_MAX];
  if (has_dot_dot(md.dir)) {
    abs_dir = realpath(md.dir, NULL);
    if (abs_dir)
      md.dir = abs_dir;
  } else if (md.dir[0] != '/' && getcwd(cwd, sizeof cwd)) {
    size_t n = strlen(cwd) + strlen(md.dir) + 2;
    if ((abs_dir = malloc(n))) {
      snprintf(abs_dir, n, "%s/%s", cwd, md.dir);
      drop_dot_components(abs_dir);
      md.dir = abs_dir;
    }
  }
  intptr_t n_args = mlirBlockGetNumArguments(body);
  arg_plan *plan = calloc((size_t)n_args + 1, sizeof *plan);
  bool *removed = calloc((size_t)n_args + 1, sizeof *removed);
  wp_arena *arena = wp_arena_create();
  int rc = -1;
  if (!plan || !removed)
    goto out;
  constant_maker maker = {arena, constant_keys_get(mlirOperationGetContext(func))};
  if (plan_args(module, func, &md, plan, n_args) ||
      load_weights(module, func, &md, plan, n_args, run->state, &maker))
    goto out;
  /* bir-lower of this run may read these from their files */
  for (intptr_t i = 0; i < n_args; i++)
    if (plan[i].ref && !mlirAttributeIsNull(plan[i].value))
      wp_run_note_mapped(run->state, plan[i].value);

  /* Constants go first in the body, in parameter order. */
  MlirOperation anchor = {NULL};
  for (intptr_t i = 0; i < n_args; i++) {
    if (!plan[i].ref)
      continue;
    MlirOperation c = plan[i].constant;
    plan[i].constant = (MlirOperation){NULL};
    if (mlirOperationIsNull(anchor))
      mlirBlockInsertOwnedOperation(body, 0, c);
    else
      mlirBlockInsertOwnedOperationAfter(body, anchor, c);
    anchor = c;
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(body, i), mlirOperationGetResult(c, 0));
    removed[i] = true;
  }
  for (intptr_t i = n_args - 1; i >= 0; i--)
    if (removed[i])
      mlirBlockEraseArgument(body, (unsigned)i);
  rewrite_signature(func, removed, n_args);
  drop_default_order(func, body);
  drop_from_program_shape(arena, func, func, false, removed, (size_t)n_args);
  drop_from_program_shape(arena, module, func, true, removed, (size_t)n_args);
  renumber_module_params(arena, module, removed, (size_t)n_args);
  rc = 0;
out:
  for (intptr_t i = 0; plan && i < n_args; i++)
    free(plan[i].path);
  free(plan);
  free(removed);
  wp_arena_destroy(arena);
  md.dir = given_dir;
  free(abs_dir);
  if (!borrowed) {
    wp_model_dir_free(&md);
  } else { /* given back: its weights were this pass's alone */
    wp_model_dir_drop_weights(run->state->model);
    run->state->model = NULL;
  }
  return rc;
}

/* Before any pass runs: a model-dir= that is no directory. */
static int check_inline_weights(const wp_pass_options *options, const wp_run *run,
                                wp_error *err) {
  (void)run;
  const char *dir = options->values[0];
  struct stat st;
  if (!dir)
    return 0;
  /* one that is not there yet may be made by a pass before this one
   * (outline-weights): the run says so when it reads it */
  if (stat(dir, &st) != 0 && errno == ENOENT)
    return 0;
  if (stat(dir, &st) != 0)
    return wp_error_errno(err, errno, "inline-weights: model-dir=%s", dir);
  if (!S_ISDIR(st.st_mode))
    return wp_error_errno(err, ENOTDIR, "inline-weights: model-dir=%s", dir);
  return 0;
}

const wp_pass_info wp_inline_weights_pass = {
    .name = "inline-weights",
    .title = "InlineWeights",
    .description = "replace entry parameters mapped in metadata.json by constants over their "
                   ".npy bytes (memory-mapped, not copied)",
    .options = {{"model-dir", "the model directory (default: opt's input directory)"},
                {"allow", "comma-separated computations the pass may touch (default: entry)"}},
    .run = run_inline_weights,
    .check = check_inline_weights,
    .traits = {.model_dir_option = "model-dir", .changes_hlo = true},
};
