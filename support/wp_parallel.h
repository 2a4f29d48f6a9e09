/* A parallel loop over independent jobs: files to hash, to copy or to
 * compare. Results go into per-job slots the caller owns, so the outcome
 * never depends on which thread ran which job. */
#ifndef WP_PARALLEL_H
#define WP_PARALLEL_H

#include <stddef.h>

/* One job; nonzero counts as a failure (the loop still runs every job). */
typedef int (*wp_parallel_fn)(size_t index, void *user);

/* Runs FN for every index in [0, N) on up to THREADS threads, the calling
 * thread among them (THREADS < 1 means 1; a thread that cannot start
 * leaves its share to the others). Returns how many jobs failed. */
size_t wp_parallel_for(size_t n, long threads, wp_parallel_fn fn, void *user);

/* The number of online cores, at least 1. */
long wp_parallel_cores(void);

#endif
