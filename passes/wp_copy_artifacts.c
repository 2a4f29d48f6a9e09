/* copy-const-artifacts: every constant file a kernel owns is placed in the
 * module's artifact directory, and the module records an artifact per
 * file (section 3, TranslateNKIASTToBIR::copyConstFileToArtifact). */
#include "wp_pass.h"

#include "wp_bir.h"
#include "wp_bir_check.h"
#include "wp_bir_ops.h"
#include "wp_file.h"
#include "wp_hashed_files.h"
#include "wp_mlir_util.h"
#include "wp_parallel.h"
#include "wp_place.h"
#include "wp_i64map.h"
#include "wp_strmap.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <mlir-c/BuiltinAttributes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

/* The bir.const_file after PREV (null: the first) in MODULE's functions,
 * or null. */
static MlirOperation next_const_file(MlirOperation module, MlirOperation prev) {
  MlirOperation f = mlirOperationIsNull(prev) ? wp_bir_next_function(module, prev)
                                              : mlirOperationGetParentOperation(prev);
  MlirOperation op = mlirOperationIsNull(prev) ? (MlirOperation){NULL}
                                               : mlirOperationGetNextInBlock(prev);
  for (; !mlirOperationIsNull(f); f = wp_bir_next_function(module, f)) {
    if (mlirOperationIsNull(op)) {
      MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
      op = mlirBlockIsNull(b) ? (MlirOperation){NULL} : mlirBlockGetFirstOperation(b);
    }
    for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      if (wp_op_is(op, "bir.const_file"))
        return op;
  }
  return (MlirOperation){NULL};
}

/* What BIR MODULE records of its const files' places: whether any is a
 * file an earlier copy-const-artifacts placed in its artifact directory
 * (not recorded in place), and whether every one is placed somehow. */
static void scan_placed(MlirOperation module, bool *any_file, bool *all_placed) {
  *any_file = false;
  *all_placed = true;
  for (MlirOperation op = next_const_file(module, (MlirOperation){NULL});
       !mlirOperationIsNull(op); op = next_const_file(module, op)) {
    bool placed = !mlirAttributeIsNull(wp_attr(op, "artifact"));
    *all_placed &= placed;
    *any_file |= placed && mlirAttributeIsNull(wp_attr(op, "artifact_in_place"));
  }
}

static const char *how_name(wp_place_how how) {
  switch (how) {
  case WP_PLACED_REFLINK: return "reflink";
  case WP_PLACED_COPY_FILE_RANGE: return "copy_file_range";
  case WP_PLACED_STREAM: return "stream";
  case WP_PLACED_EXISTING: return "existing";
  }
  return "?";
}

/* One constant file to place. Sources are resolved on the calling thread
 * (they read the IR); the copies then run in parallel, each into its own
 * slot. */
typedef struct place_job {
  MlirOperation cf;
  const char *func_name;
  char *name;
  wp_place_src src;
  wp_place_how how;
  bool placed; /* this run wrote the file (not: the same bytes were there) */
  bool moved; /* placed by an earlier run in another directory: copied from there */
  bool refiled; /* recorded in place by an earlier run: copied from its source now */
  char md5[WP_MD5_HEX];
  /* where a failed placing says why: kept apart (one wp_error in each of
   * 49,152 jobs was 200 MiB to clear), in an array made as they run */
  wp_error *err;
} place_job;

typedef struct placement {
  const wp_pass_run *run;
  const char *dir;
  wp_place_methods methods;
  bool in_place; /* record the bytes where they are; write no file */
  const char *old_dir; /* the directory an earlier run placed files in, when not DIR */
  const char *gone_dir; /* the one the IR records, when it is not there any more */
  wp_strmap file_names; /* the jobs' names in the directory */
  wp_arena *arena;
  place_job *jobs;
  size_t n_jobs, cap_jobs;
#ifdef WP_TESTING
  size_t signal_at; /* tests interrupt a run as it places this job, while the
                       other threads go on placing (WP_TEST_SIGNAL_AT_PLACED) */
#endif
  /* const files recorded in place whose name another's job writes (after
   * dedup-consts, each function's op of one key): no longer in place */
  struct follower {
    MlirOperation cf;
    struct follower *next;
  } *followers; /* arena memory */
  uint64_t bytes, bytes_done; /* all the jobs' bytes; those placed so far (atomic) */
} placement;

/* file_names values: a name a job or an earlier run's file holds, or one
 * an earlier run recorded in place, which this run writes (once) */
enum { NAME_TAKEN = 1, NAME_TO_REFILE = 2 };

/* Gives JOB a file name no other job of this run has: const file names
 * are unique only within their function, and two functions' w1.bin would
 * meet in one directory. The later one is prefixed with its function's
 * name. -1 when out of memory. */
static int unique_file_name(placement *pl, place_job *job) {
  const char *base = job->name;
  for (unsigned k = 0; wp_strmap_get(&pl->file_names, job->name, strlen(job->name), NULL); k++) {
    size_t n = strlen(job->func_name) + strlen(base) + 16;
    char *alt = wp_arena_alloc(pl->arena, n);
    if (!alt)
      return -1;
    if (k == 0)
      snprintf(alt, n, "%s.%s", job->func_name, base);
    else
      snprintf(alt, n, "%s.%u.%s", job->func_name, k, base);
    job->name = alt;
  }
  return wp_strmap_put(&pl->file_names, job->name, strlen(job->name), NAME_TAKEN);
}

/* Does DIR hold a file (or anything) named NAME? */
static bool in_dir(const placement *pl, const char *name) {
  char *path = wp_arena_alloc(pl->arena, strlen(pl->dir) + strlen(name) + 2);
  sprintf(path, "%s/%s", pl->dir, name);
  struct stat st;
  return lstat(path, &st) == 0;
}

/* Names the directory holds from an earlier run (as the IR records them),
 * and names recorded in place that this run will write: a new file must
 * not take one. -1 when out of memory. */
static int note_placed_names(placement *pl) {
  MlirOperation module = pl->run->module;
  for (MlirOperation op = next_const_file(module, (MlirOperation){NULL});
       !mlirOperationIsNull(op); op = next_const_file(module, op)) {
    bool in_place = !mlirAttributeIsNull(wp_attr(op, "artifact_in_place"));
    if (in_place ? pl->in_place : pl->old_dir != NULL)
      continue;
    char *artifact = wp_bir_str(pl->arena, op, "artifact");
    if (artifact[0] && wp_strmap_put(&pl->file_names, artifact, strlen(artifact),
                                     in_place ? NAME_TO_REFILE : NAME_TAKEN))
      wp_out_of_memory();
  }
  return 0;
}

/* Collects one kernel's files that are not placed yet. */
static int collect_kernel_files(placement *pl, MlirOperation func, MlirOperation kernel,
                                const wp_bir_names *files, wp_i64map *queued) {
  MlirOperation module = pl->run->module;
  MlirAttribute list = wp_attr(kernel, "const_files");
  intptr_t n = mlirAttributeIsNull(list) ? 0 : mlirArrayAttrGetNumElements(list);
  char *fname = wp_bir_str(pl->arena, func, "sym_name");
  for (intptr_t i = 0; i < n; i++) {
    MlirStringRef name = wp_symref_value(mlirArrayAttrGetElement(list, i));
    int64_t index = wp_bir_names_index(files, name);
    if (index < 0) {
      wp_emit_error(mlirOperationGetLocation(kernel),
                    "copy-const-artifacts: kernel names const file '%.*s', which function '%s' "
                    "does not have", (int)name.length, name.data, fname);
      return -1;
    }
    MlirOperation cf = files->ops[index];
    /* placed already (an earlier run, in this directory or in place), or
     * queued by another kernel */
    bool placed = !mlirAttributeIsNull(wp_attr(cf, "artifact"));
    bool recorded_in_place = placed && !mlirAttributeIsNull(wp_attr(cf, "artifact_in_place"));
    bool moved = placed && pl->old_dir && !recorded_in_place;
    /* no file was written for it, and this run writes files: its bytes are
     * copied from where they are, under the name recorded (dedup-consts
     * names files by key) */
    bool refiled = recorded_in_place && !pl->in_place;
    char *artifact = moved || refiled ? wp_bir_str(pl->arena, cf, "artifact") : NULL;
    int64_t held = 0;
    if (moved) {
      /* one copy per artifact (after dedup-consts several const files
       * share one), and none of a file the directory has already */
      if (wp_strmap_get(&pl->file_names, artifact, strlen(artifact), NULL) || in_dir(pl, artifact))
        continue;
    } else if (refiled && wp_strmap_get(&pl->file_names, artifact, strlen(artifact), &held) &&
               held != NAME_TO_REFILE) {
      /* another op's job writes the file (or it is there): this one
       * follows it out of place */
      struct follower *fw = wp_arena_alloc(pl->arena, sizeof *fw);
      if (!fw)
        wp_out_of_memory();
      *fw = (struct follower){cf, pl->followers};
      pl->followers = fw;
      continue;
    }
    if (placed && pl->gone_dir && mlirAttributeIsNull(wp_attr(cf, "artifact_in_place")) &&
        !in_dir(pl, wp_bir_str(pl->arena, cf, "artifact"))) {
      /* it would be recorded as placed where it is not: say so now, not
       * when dedup-consts or neff-pack cannot open it */
      wp_emit_error(mlirOperationGetLocation(cf), "copy-const-artifacts: const file '%.*s' was "
                    "placed in %s by an earlier run, which is not there any more, and %s does "
                    "not hold it either; give --artifact-dir=DIR where the placed files are now, "
                    "or run copy-const-artifacts on the IR from before they were placed",
                    (int)name.length, name.data, pl->gone_dir, pl->dir);
      return -1;
    }
    if ((placed && !moved && !refiled) || wp_i64map_get(queued, (int64_t)(intptr_t)cf.ptr, NULL))
      continue;
    if (wp_i64map_put(queued, (int64_t)(intptr_t)cf.ptr, 1))
      wp_out_of_memory();
    if (pl->n_jobs == pl->cap_jobs) {
      pl->cap_jobs = pl->cap_jobs ? 2 * pl->cap_jobs : 64;
      place_job *j = wp_xrealloc(pl->jobs, pl->cap_jobs * sizeof *j);
      pl->jobs = j;
    }
    place_job *job = &pl->jobs[pl->n_jobs++];
    memset(job, 0, sizeof *job);
    job->cf = cf;
    job->func_name = fname;
    job->name = artifact ? artifact : wp_arena_strndup(pl->arena, name.data, name.length);
    job->refiled = refiled;
    if (moved) {
      /* the module's artifact directory changed: the file follows it
       * (wp_place_file refuses a name that is no plain file name) */
      job->moved = true;
      char *path = wp_arena_alloc(pl->arena, strlen(pl->old_dir) + strlen(artifact) + 2);
      sprintf(path, "%s/%s", pl->old_dir, artifact);
      int64_t size = 0;
      wp_attr_i64(cf, "size", &size);
      job->src = (wp_place_src){.path = path, .size = (uint64_t)size};
    } else {
      wp_error err;
      if (wp_bir_const_file_source(module, cf, wp_run_bir_read_back(pl->run->state, pl->run->module),
                                   pl->arena, &job->src, &err)) {
        wp_emit_error(mlirOperationGetLocation(cf), "copy-const-artifacts: %s", err.msg);
        return -1;
      }
    }
    if (job->src.path) /* a prerequisite in a depfile */
      wp_run_note_read(pl->run->state, job->src.path);
    if (artifact ? wp_strmap_put(&pl->file_names, job->name, strlen(job->name), NAME_TAKEN)
                 : unique_file_name(pl, job))
      wp_out_of_memory();
  }
  return 0;
}

/* -1 after an error when a job would place its file where opt writes an
 * output: the output would replace the constant file when written, or a
 * NEFF would be read from its own output. Checked before anything is
 * placed, so a refusal leaves nothing. */
static int check_outputs(placement *pl) {
  const wp_run *h = pl->run->state;
  struct stat dir_st;
  if (!h->n_outputs || stat(pl->dir, &dir_st) != 0)
    return 0;
  for (size_t o = 0; o < h->n_outputs; o++) {
    const char *out = h->outputs[o];
    const char *slash = strrchr(out, '/');
    const char *base = slash ? slash + 1 : out;
    size_t dir_len = slash ? (size_t)(slash - out) + (slash == out) : 0;
    const char *dir = slash ? wp_arena_strndup(pl->arena, out, dir_len) : ".";
    struct stat st;
    if (!dir || stat(dir, &st) != 0 || st.st_dev != dir_st.st_dev || st.st_ino != dir_st.st_ino)
      continue;
    for (size_t i = 0; i < pl->n_jobs; i++) {
      const place_job *job = &pl->jobs[i];
      if ((pl->in_place && !job->moved) || strcmp(job->name, base) != 0)
        continue;
      wp_emit_error(mlirOperationGetLocation(job->cf), "copy-const-artifacts: const file '%s' "
                    "would be placed at %s/%s, which is this run's output %s; give the output "
                    "another name or directory", job->name, pl->dir, job->name, out);
      return -1;
    }
  }
  return 0;
}

static int place_one(size_t i, void *user);

/* place_one with the bytes done reported to the run's progress sink. */
static int place_one_shown(size_t i, void *user) {
  placement *pl = user;
  int rc = place_one(i, user);
  uint64_t done = __atomic_add_fetch(&pl->bytes_done, pl->jobs[i].src.size, __ATOMIC_RELAXED);
  wp_run_progress(pl->run->state, "copy-const-artifacts", done, pl->bytes, false);
  return rc;
}

static int place_one(size_t i, void *user) {
  placement *pl = user;
  place_job *job = &pl->jobs[i];
  if (pl->in_place && !job->moved)
    return 0;
#ifdef WP_TESTING
  if (i == pl->signal_at)
    kill(getpid(), SIGTERM);
#endif
  if (wp_place_file(pl->run->state->placed, pl->dir, job->name, &job->src, pl->methods, &job->how, job->md5,
                    job->err))
    return 1;
  job->placed = job->how != WP_PLACED_EXISTING;
  if (job->md5[0] && (!pl->in_place || job->moved)) {
    /* dedup-consts may take this MD5 instead of reading the file again */
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", pl->dir, job->name) < sizeof path)
      wp_hashed_note(pl->run->state->hashed, path, job->md5);
  }
  return 0;
}

/* Records the placed files on their ops; appends artifact records. */
static void record_jobs(placement *pl, MlirAttribute *arts, size_t *n_arts) {
  MlirContext c = mlirOperationGetContext(pl->run->module);
  bool debug = pl->run->state->debug;
  MlirLocation nowhere = wp_unknown_loc(pl->run->module);
  for (struct follower *fw = pl->followers; fw; fw = fw->next)
    mlirOperationRemoveAttributeByName(fw->cf, wp_sref("artifact_in_place"));
  for (size_t i = 0; i < pl->n_jobs; i++) {
    place_job *job = &pl->jobs[i];
    const wp_place_src *src = &job->src;
    if (debug && pl->in_place && !job->moved)
      wp_emit_remark(nowhere, "copy-const-artifacts: %s in place (%s, %llu bytes)", job->name,
              src->path ? src->path : "memory", (unsigned long long)src->size);
    else if (debug)
      wp_emit_remark(nowhere, "copy-const-artifacts: %s -> %s/%s (%s, %llu bytes)",
              src->path ? src->path : "(memory)", pl->dir, job->name, how_name(job->how),
              (unsigned long long)src->size);
    wp_set_attr(job->cf, "artifact", wp_str_attr(c, job->name, strlen(job->name)));
    if (job->md5[0])
      wp_set_attr(job->cf, "md5", wp_str_attr(c, job->md5, strlen(job->md5)));
    if (job->refiled)
      mlirOperationRemoveAttributeByName(job->cf, wp_sref("artifact_in_place"));
    if (job->moved || job->refiled) /* its record is the earlier run's */
      continue;
    if (pl->in_place)
      wp_set_attr(job->cf, "artifact_in_place", mlirUnitAttrGet(c));
    char info[256];
    snprintf(info, sizeof info, "constant file of %s: %llu bytes", job->func_name,
             (unsigned long long)src->size);
    MlirNamedAttribute d[2] = {
        mlirNamedAttributeGet(mlirIdentifierGet(c, wp_sref("info")), wp_str_attr(c, info, strlen(info))),
        mlirNamedAttributeGet(mlirIdentifierGet(c, wp_sref("path")),
                              wp_str_attr(c, job->name, strlen(job->name)))};
    arts[(*n_arts)++] = mlirDictionaryAttrGet(c, 2, d);
  }
}

/* The run's private directory is removed when the run ends: copies placed
 * there are for a NEFF of the same run only, and IR placed by an earlier
 * run stays where its files are. 0, or -1 after an error. */
static int check_private_dir(const wp_pass_run *run, MlirOperation module, const char *method) {
  MlirStringRef old;
  bool any_file, all_placed;
  scan_placed(module, &any_file, &all_placed);
  if (wp_attr_str(module, "bir.artifact_path", &old) && old.length && any_file) {
    char *dir = strndup(old.data, old.length);
    bool there = dir && wp_is_directory(dir) == 1;
    if (there)
      wp_emit_error(mlirOperationGetLocation(module), "copy-const-artifacts: the module's "
                    "constant files were placed in %s by an earlier run; give artifact-dir=%s "
                    "(opt: --artifact-dir=%s) to go on from there", dir, dir, dir);
    free(dir);
    if (there)
      return -1;
  }
  if (!run->state->neff_follows &&
      (!strcmp(method, "stream") || !strcmp(method, "copy_file_range"))) {
    wp_emit_error(mlirOperationGetLocation(module), "copy-const-artifacts: copy-method=%s would "
                  "copy the constant files into the run's private temporary directory, which "
                  "is removed when the run ends, and the IR written would name files that are "
                  "gone; give artifact-dir=DIR (or copy-method=auto, which records them where "
                  "they are)", method);
    return -1;
  }
  return 0;
}

static int run_copy_artifacts(const wp_pass_run *run) {
  MlirOperation module = run->module;
  MlirContext c = mlirOperationGetContext(module);
  if (!wp_bir_module_is_bir(mlirModuleFromOperation(module))) {
    wp_emit_error(mlirOperationGetLocation(module),
                  "copy-const-artifacts: the module is not BIR (run --bir-lower first)");
    return -1;
  }
  if (wp_bir_check_module(module, "copy-const-artifacts", wp_run_bir_read_back(run->state, module)))
    return -1;
  const char *dir = wp_pass_option(run, "artifact-dir");
  bool private_dir = false;
  if (!dir[0] && !run->state->artifact_dir) {
    wp_error err;
    if (!wp_run_private_artifact_dir(run->state, &err)) {
      wp_emit_error(mlirOperationGetLocation(module), "copy-const-artifacts: %s", err.msg);
      return -1;
    }
  }
  if (!dir[0]) {
    dir = run->state->artifact_dir;
    private_dir = run->state->artifact_dir_private;
  }
  long long threads = wp_pass_option_count(run, "threads", wp_parallel_cores());
  placement pl = {.run = run, .dir = dir, .methods = {true, false}};
  wp_error *errs = NULL;
#ifdef WP_TESTING
  const char *signal_at = getenv("WP_TEST_SIGNAL_AT_PLACED");
  pl.signal_at = signal_at ? (size_t)atol(signal_at) : SIZE_MAX;
#endif
  const char *method = wp_pass_option(run, "copy-method");
  if (!strcmp(method, "stream"))
    pl.methods = (wp_place_methods){false, false};
  else if (!strcmp(method, "copy_file_range"))
    pl.methods = (wp_place_methods){false, true};
  else if (!strcmp(method, "in-place"))
    pl.in_place = true;
  else /* auto (the specs' choices were checked when parsed) */
    pl.in_place = private_dir;
  if (private_dir && check_private_dir(run, module, method))
    return -1;
  /* the private directory is the run's alone, and held from its making */
  if (!private_dir && wp_run_lock_artifact_dir(run->state, "copy-const-artifacts", dir,
                                               mlirOperationGetLocation(module)))
    return -1;
  pl.arena = wp_arena_create();
  /* files an earlier run placed in another directory (one that is still
   * there: a relative path recorded from another working directory may
   * not resolve, and then the named directory must hold them) */
  char *old_dir = wp_bir_str(pl.arena, module, "bir.artifact_path");
  struct stat old_st, new_st;
  bool old_there = old_dir[0] && stat(old_dir, &old_st) == 0;
  if (old_there && S_ISDIR(old_st.st_mode) &&
      !(stat(dir, &new_st) == 0 && old_st.st_dev == new_st.st_dev &&
        old_st.st_ino == new_st.st_ino))
    pl.old_dir = old_dir;
  else if (old_dir[0] && !old_there)
    pl.gone_dir = old_dir;
  int rc = -1;
  wp_i64map queued; /* const file ops already collected */
  wp_i64map_init(&queued);
  wp_strmap_init(&pl.file_names);
  if (note_placed_names(&pl))
    goto out;
  for (MlirOperation f = wp_bir_next_function(module, (MlirOperation){NULL});
       !mlirOperationIsNull(f); f = wp_bir_next_function(module, f)) {
    wp_bir_names files;
    if (wp_bir_names_init(&files, f, "bir.const_file"))
      wp_out_of_memory();
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    int frc = 0;
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op) && !frc;
         op = mlirOperationGetNextInBlock(op))
      if (wp_op_is(op, "bir.kernel"))
        frc = collect_kernel_files(&pl, f, op, &files, &queued);
    wp_bir_names_free(&files);
    if (frc)
      goto out;
  }
  if (check_outputs(&pl))
    goto out;
  /* calloc'd: pages no error is written to are never touched */
  errs = wp_xcalloc(pl.n_jobs + 1, sizeof *errs);
  for (size_t i = 0; i < pl.n_jobs; i++) {
    pl.bytes += pl.jobs[i].src.size;
    pl.jobs[i].err = &errs[i];
  }
  if (wp_parallel_for(pl.n_jobs, (long)threads,
                      run->state->progress ? place_one_shown : place_one, &pl)) {
    for (size_t i = 0; i < pl.n_jobs; i++)
      if (pl.jobs[i].err->msg[0]) {
        if (pl.jobs[i].moved)
          wp_emit_error(mlirOperationGetLocation(pl.jobs[i].cf), "copy-const-artifacts: const "
                        "file '%s', placed in %s by an earlier run, cannot follow to %s: %s",
                        pl.jobs[i].name, pl.old_dir, dir, pl.jobs[i].err->msg);
        else
          wp_emit_error(mlirOperationGetLocation(pl.jobs[i].cf), "copy-const-artifacts: %s",
                        pl.jobs[i].err->msg);
        break;
      }
    /* all or nothing: the files this run wrote go again */
    for (size_t i = 0; i < pl.n_jobs; i++)
      if (pl.jobs[i].placed) {
        char *path = wp_arena_alloc(pl.arena, strlen(dir) + strlen(pl.jobs[i].name) + 2);
        sprintf(path, "%s/%s", dir, pl.jobs[i].name);
        unlink(path);
      }
    goto out;
  }
  /* Existing records first (an earlier run), then this run's. */
  MlirAttribute old = wp_attr(module, "bir.artifacts");
  size_t n_old = mlirAttributeIsNull(old) ? 0 : (size_t)mlirArrayAttrGetNumElements(old);
  size_t n_arts = 0;
  MlirAttribute *arts = wp_arena_alloc(pl.arena, (n_old + pl.n_jobs + 1) * sizeof *arts);
  for (size_t i = 0; i < n_old; i++)
    arts[n_arts++] = mlirArrayAttrGetElement(old, (intptr_t)i);
  record_jobs(&pl, arts, &n_arts);
  run->state->stats.placed = true;
  run->state->stats.files_placed += pl.n_jobs;
  run->state->stats.bytes_placed += pl.bytes;
  /* absolute, as the weights' paths: IR written now goes on from any
   * working directory, and a message about it names the real place */
  char *abs_dir = realpath(dir, NULL);
  const char *recorded = abs_dir ? abs_dir : dir;
  wp_set_attr(module, "bir.artifact_path", wp_str_attr(c, recorded, strlen(recorded)));
  free(abs_dir);
  /* none is no attribute, as the BIR message reads back */
  if (n_arts)
    wp_set_attr(module, "bir.artifacts", mlirArrayAttrGet(c, (intptr_t)n_arts, arts));
  else
    mlirOperationRemoveAttributeByName(module, wp_sref("bir.artifacts"));
  rc = 0;
out:
  wp_i64map_free(&queued);
  wp_strmap_free(&pl.file_names);
  free(errs);
  free(pl.jobs);
  wp_arena_destroy(pl.arena);
  return rc;
}

/* Every constant file of MODULE is placed (an earlier run's IR), in an
 * artifact directory that is still there, and nothing need change there
 * unasked: the driver's artifact directory is that one, or (none given)
 * the module is de-duplicated already, so the passes after only read it.
 * (Another directory given: the files follow there.) */
static bool copy_done_on(MlirOperation module, const wp_run *run) {
  MlirStringRef dir;
  if (!wp_bir_module_is_bir(mlirModuleFromOperation(module)) ||
      !wp_attr_str(module, "bir.artifact_path", &dir) || !dir.length)
    return false;
  bool any_file, all_placed;
  scan_placed(module, &any_file, &all_placed);
  if (!all_placed)
    return false;
  char *path = strndup(dir.data, dir.length);
  bool there = path && wp_is_directory(path) == 1;
  struct stat a, b;
  bool asked = run->artifact_dir ? there && stat(run->artifact_dir, &a) == 0 &&
                                       stat(path, &b) == 0 && a.st_dev == b.st_dev &&
                                       a.st_ino == b.st_ino
                                 : !mlirAttributeIsNull(wp_attr(module, "bir.dedup"));
  free(path);
  return there && asked;
}

/* Before any pass runs: an artifact directory that is there must be a
 * directory (one that is not is made when the pass runs). */
static int check_copy_artifacts(const wp_pass_options *options, const wp_run *run,
                                wp_error *err) {
  const char *dir = options->values[0] ? options->values[0] : run ? run->artifact_dir : NULL;
  struct stat st;
  if (dir && stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
    return wp_error_set(err, "copy-const-artifacts: %s: the artifact directory is not a "
                        "directory", dir);
  return 0;
}

const wp_pass_info wp_copy_artifacts_pass = {
    .name = "copy-const-artifacts",
    .title = "CopyConstArtifacts",
    .description = "place every kernel's constant files in the module's artifact directory "
                   "(reflink, or a streamed copy that also hashes them) and record them",
    .options = {{"artifact-dir", "the artifact directory (default: the driver's, opt's "
                                 "--artifact-dir; else a private temporary directory removed "
                                 "when the run ends)"},
                {"copy-method", "auto (in-place in opt's private directory, else reflink, "
                                "then stream), in-place (no file: the bytes stay where they "
                                "are), copy_file_range or stream",
                 .choices = "auto|in-place|copy_file_range|stream"},
                {"threads", "files placed at once (default: the number of cores)", .number = true,
                 .min = 1, .max = 1024}},
    .run = run_copy_artifacts,
    .check = check_copy_artifacts,
    .done_on = copy_done_on,
    .traits = {.places_files = true, .dir_option = "artifact-dir"},
};
