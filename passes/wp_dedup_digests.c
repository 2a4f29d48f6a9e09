/* dedup-consts' digest cache (support/wp_digest_cache.h): the MD5s of
 * weight files that did not change since an earlier run are taken from
 * there instead of reading gigabytes again. Every MD5 the pass takes
 * (keys and NEFF members) goes through wp_dedup_md5_jobs_run. */
#include "wp_dedup_internal.h"

#include "wp_diag.h"
#include "wp_digest_cache.h"
#include "wp_md5_jobs.h"
#include "wp_mlir_util.h"
#include "wp_run.h"

#include <stdlib.h>
#include <string.h>

#define WP_DIGEST_CACHE_ENV "WEIGHTPACK_DIGEST_CACHE"

static const char *cache_dir(const dedup *d) {
  const char *dir = wp_pass_option(d->run, "digest-cache");
  if (!dir[0] && d->run->state->digest_cache)
    dir = d->run->state->digest_cache;
  if (!dir[0]) {
    const char *env = getenv(WP_DIGEST_CACHE_ENV);
    dir = env ? env : "";
  }
  return dir;
}

int wp_dedup_digests_open(dedup *d) {
  const char *dir = cache_dir(d);
  d->digests = NULL;
  if (!dir[0])
    return 0;
  char warning[4200];
  wp_error err;
  MlirLocation loc = mlirOperationGetLocation(d->run->module);
  d->digests = wp_digest_cache_open(dir, warning, sizeof warning, &err);
  if (!d->digests) {
    wp_emit_error(loc, "dedup-consts: %s", err.msg);
    return -1;
  }
  if (warning[0])
    wp_emit_warning(loc, "dedup-consts: %s", warning);
  return 0;
}

void wp_dedup_digests_close(dedup *d, bool save) {
  if (!d->digests)
    return;
  MlirLocation loc = mlirOperationGetLocation(d->run->module);
  wp_error err;
  if (save && wp_digest_cache_save(d->digests, &err))
    wp_emit_warning(loc, "dedup-consts: %s (the run goes on; the next one hashes again)",
                    err.msg);
  if (d->run->state->debug) {
    size_t hits, misses, racy;
    wp_digest_cache_counts(d->digests, &hits, &misses, &racy);
    wp_emit_remark(loc, "dedup-consts: digest cache %s: %zu MD5s known, %zu hashed (%zu of "
                   "them racy)", cache_dir(d), hits, misses + racy, racy);
  }
  wp_digest_cache_close(d->digests);
  d->digests = NULL;
}

/* A job the cache can answer: a region of a file (not memory). */
static bool cacheable(const wp_md5_job *j) {
  return j->src && j->src->path && !j->src->pieces && !j->src->data;
}

typedef struct slot {
  size_t job;
  char prefix_md5[WP_MD5_HEX];
  wp_digest_id id;
} slot;

void wp_dedup_md5_jobs_run(dedup *d, wp_md5_job *jobs, size_t n, long threads) {
  if (!d->digests) {
    wp_md5_jobs_run(jobs, n, threads);
    return;
  }
  /* the misses, hashed together in one parallel run as before */
  wp_md5_job *todo = wp_xcalloc(n + 1, sizeof *todo);
  slot *slots = wp_xcalloc(n + 1, sizeof *slots);
  size_t n_todo = 0;
  for (size_t i = 0; i < n; i++) {
    slot *s = &slots[n_todo];
    *s = (slot){.job = i};
    /* the prefix's MD5 keys the entry: only for jobs the cache can hold */
    if (!cacheable(&jobs[i]) ||
        (jobs[i].prefix_len &&
         wp_md5_buffer(jobs[i].prefix, jobs[i].prefix_len, s->prefix_md5, NULL)))
      s->prefix_md5[0] = '?'; /* cannot be keyed: hashed, not remembered */
    if (s->prefix_md5[0] != '?' &&
        wp_digest_cache_get(d->digests, jobs[i].src->path, jobs[i].src->offset,
                            jobs[i].src->size, s->prefix_md5, &s->id,
                            jobs[i].out) == WP_DIGEST_HIT) {
      jobs[i].failed = 0;
      continue;
    }
    todo[n_todo++] = jobs[i];
  }
  wp_md5_jobs_run(todo, n_todo, threads);
  for (size_t k = 0; k < n_todo; k++) {
    wp_md5_job *j = &jobs[slots[k].job];
    j->failed = todo[k].failed;
    if (!j->failed && slots[k].prefix_md5[0] != '?' && slots[k].id.valid)
      wp_digest_cache_put(d->digests, j->src->path, j->src->offset, j->src->size,
                          slots[k].prefix_md5, &slots[k].id, j->out);
  }
  free(todo);
  free(slots);
}
