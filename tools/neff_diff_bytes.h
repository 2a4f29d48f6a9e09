/* neff diff: the element-wise comparison of tensors whose bytes may
 * differ. Each package is streamed once more, only as far as the last
 * member a compared tensor lies in: A's tensors are copied into an
 * unlinked temporary file (only those compared, never a whole package),
 * then B's are compared against it as they stream. */
#ifndef NEFF_DIFF_BYTES_H
#define NEFF_DIFF_BYTES_H

#include "neff_members.h"
#include "wp_neff_vars.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct neff_cmp_job {
  const wp_neff_tensor *t[2]; /* A's and B's, same dtype and shape */
  char kind;                  /* of the .npy that cat writes: 'f', 'i', 'u', 'b', 'c', 'V' */
  int item;                   /* bytes per element */
  bool bf16;                  /* a 'V' of 2 bytes that is bfloat16 */
  uint64_t spill;             /* where A's bytes lie in the temporary file */
  unsigned char carry[16];    /* B's bytes of an element split between chunks */
  int carry_n;
  /* the result */
  uint64_t n_diff;            /* elements whose bytes differ */
  bool has_float, has_int;    /* max_abs or max_int is the largest difference */
  bool nan;                   /* a difference that is not a number (NaN on one side) */
  double max_abs;
  uint64_t max_int;
} neff_cmp_job;

/* Runs JOBS (their t, kind, item and bf16 set): A's bytes from the
 * package at PATH[0], B's from PATH[1]; C[i] is what the first pass over
 * each collected (the members' MD5s, against which the members read again
 * are checked). 0, or -1 with ERR. */
int neff_cmp_run(neff_cmp_job *jobs, size_t n, const char *const path[2], uint64_t max_size,
                 neff_collect *const c[2], wp_error *err);

#endif
