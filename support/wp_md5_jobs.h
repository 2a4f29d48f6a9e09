/* Many MD5s at once: every de-dup key and NEFF member of a model, hashed
 * on all cores and, where the CPU has SIMD lanes (wp_md5x), many streams
 * per core. The digests do not depend on the thread or lane count. */
#ifndef WP_MD5_JOBS_H
#define WP_MD5_JOBS_H

#include "wp_error.h"
#include "wp_md5.h"
#include "wp_place.h"

#include <stddef.h>

/* One stream: PREFIX (PREFIX_LEN bytes, may be 0) then SRC's bytes. */
typedef struct wp_md5_job {
  const void *prefix;
  size_t prefix_len;
  const wp_place_src *src;
  char *out;    /* WP_MD5_HEX bytes: the digest, "" when the job failed */
  wp_error *err; /* the failure's message (may be NULL) */
  int failed;
} wp_md5_job;

/* Hashes jobs [0, N) on up to THREADS threads. Returns how many failed. */
size_t wp_md5_jobs_run(wp_md5_job *jobs, size_t n, long threads);

/* The same with a given wp_md5x_kernel (tests reach every one; one the CPU
 * lacks must not be asked for). */
size_t wp_md5_jobs_run_kernel(wp_md5_job *jobs, size_t n, long threads, int kernel);

#endif
