#include "wp_md5_jobs.h"

#include "wp_md5x.h"
#include "wp_parallel.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* Each lane reads its file in pieces of this size: a thread's 32 lanes
 * hold 2 MiB, which stays in cache between the read and the hash (256 KiB
 * pieces, 8 MiB a thread, made the whole a third slower). */
#define LANE_CHUNK (64u << 10)

typedef struct lane {
  wp_md5_job *job;
  wp_place_reader rd;
  bool reading;             /* the prefix is done; chunks come from RD */
  unsigned char *buf;       /* LANE_CHUNK bytes, allocated on first use */
  const unsigned char *p;   /* the next bytes to hash */
  size_t avail;             /* how many there are at P */
  unsigned char carry[64];  /* a block that straddles two pieces */
  size_t carry_len;
  uint64_t hashed;          /* bytes already in the state */
} lane;

typedef struct runner {
  wp_md5_job *jobs;
  size_t n;
  size_t next; /* the first job no thread has taken (atomic) */
  wp_md5x_kernel kernel;
  unsigned lanes_per_worker;
} runner;

static void fail(lane *l) {
  l->job->failed = 1;
  l->job->out[0] = 0;
  if (l->reading)
    wp_place_reader_close(&l->rd);
  l->job = NULL;
}

/* Called when fewer than 64 bytes wait at P: the next piece of lane I's
 * stream into P/AVAIL (a block straddling two pieces is hashed on the
 * way), or, at the end, the digest. False when the lane is done (finished
 * or failed). */
static bool refill(wp_md5x_state *st, unsigned i, lane *l) {
  wp_error scratch;
  wp_error *err = l->job->err ? l->job->err : &scratch;
  for (;;) {
    /* under a block waits in CARRY (carry_len + avail < 64 here) */
    if (l->avail)
      memcpy(l->carry + l->carry_len, l->p, l->avail);
    l->carry_len += l->avail;
    l->avail = 0;
    if (!l->reading) {
      if (!l->buf)
        l->buf = wp_xmalloc(LANE_CHUNK);
      if (wp_place_reader_open(&l->rd, l->job->src, l->buf, LANE_CHUNK, err)) {
        fail(l);
        return false;
      }
      l->reading = true;
    }
    const unsigned char *data = NULL;
    size_t len = 0;
    int got = wp_place_reader_next(&l->rd, &data, &len, err);
    if (got < 0) {
      fail(l);
      return false;
    }
    if (got == 0) {
      wp_md5x_final_lane(st, i, l->carry, l->carry_len, l->hashed + l->carry_len, l->job->out);
      wp_place_reader_close(&l->rd);
      l->job = NULL;
      return false;
    }
    size_t take = 0;
    if (l->carry_len) {
      take = len < 64 - l->carry_len ? len : 64 - l->carry_len;
      memcpy(l->carry + l->carry_len, data, take);
      l->carry_len += take;
      if (l->carry_len == 64) {
        wp_md5x_block_lane(st, i, l->carry);
        l->hashed += 64;
        l->carry_len = 0;
      }
    }
    l->p = data + take;
    l->avail = len - take;
    if (l->avail >= 64)
      return true;
  }
}

static void start(wp_md5x_state *st, unsigned i, lane *l, wp_md5_job *job) {
  l->job = job;
  l->reading = false;
  l->p = job->prefix;
  l->avail = job->prefix ? job->prefix_len : 0;
  l->carry_len = 0;
  l->hashed = 0;
  job->failed = 0;
  job->out[0] = 0;
  wp_md5x_init_lane(st, i);
}

/* Moves lane FROM (state and all) into lane TO. */
static void move_lane(wp_md5x_state *st, lane *lanes, unsigned to, unsigned from) {
  unsigned char *spare = lanes[to].buf;
  lanes[to] = lanes[from];
  lanes[from].buf = spare;
  lanes[from].job = NULL;
  for (int w = 0; w < 4; w++)
    st->st[w][to] = st->st[w][from];
}

/* One thread: keeps its lanes busy with jobs from the shared queue and
 * advances them together, as far as the shortest piece at hand allows.
 * Active lanes are kept at the front, so that few of them run in a
 * narrower kernel. */
static int lanes_worker(size_t index, void *user) {
  runner *r = user;
  lane lanes[WP_MD5X_MAX_LANES];
  memset(lanes, 0, sizeof lanes);
  wp_md5x_state st;
  memset(&st, 0, sizeof st);
  unsigned active = 0;
  for (;;) {
    /* take jobs while lanes are free and this thread has no more than its
     * share (equal files then take one round, not two) */
    while (active < r->lanes_per_worker) {
      size_t j = __atomic_fetch_add(&r->next, 1, __ATOMIC_RELAXED);
      if (j >= r->n)
        break;
      start(&st, active, &lanes[active], &r->jobs[j]);
      if (lanes[active].avail >= 64 || refill(&st, active, &lanes[active]))
        active++;
    }
    if (!active)
      break;
    size_t blocks = SIZE_MAX;
    const unsigned char *p[WP_MD5X_MAX_LANES];
    for (unsigned i = 0; i < active; i++) {
      p[i] = lanes[i].p;
      if (lanes[i].avail / 64 < blocks)
        blocks = lanes[i].avail / 64;
    }
    for (unsigned i = active; i < WP_MD5X_MAX_LANES; i++)
      p[i] = lanes[0].p;
    /* the narrowest kernel that holds them: a lane runs at about 0.3 GB/s
     * in 16, 0.2 in 32, 0.65 alone in plain C */
    wp_md5x_kernel k = r->kernel;
    if (k == WP_MD5X_AVX512_X2 && active <= 16)
      k = WP_MD5X_AVX512;
    if (active == 1)
      k = WP_MD5X_NONE;
    wp_md5x_blocks(k, &st, p, blocks);
    for (unsigned i = 0; i < active;) {
      lane *l = &lanes[i];
      l->p += 64 * blocks;
      l->avail -= 64 * blocks;
      l->hashed += 64 * blocks;
      if (l->avail >= 64 || refill(&st, i, l)) {
        i++;
        continue;
      }
      /* lane I is done: the last active lane, not advanced yet, takes its
       * place and is advanced next */
      if (i != --active)
        move_lane(&st, lanes, i, active);
    }
  }
  for (unsigned i = 0; i < WP_MD5X_MAX_LANES; i++)
    free(lanes[i].buf);
  (void)index;
  return 0;
}

/* Without SIMD lanes: one stream at a time through OpenSSL. */
static int one_job(size_t index, void *user) {
  wp_md5_job *j = &((wp_md5_job *)user)[index];
  wp_error scratch;
  j->failed = wp_place_md5(j->prefix, j->prefix ? j->prefix_len : 0, j->src, j->out,
                           j->err ? j->err : &scratch) != 0;
  if (j->failed)
    j->out[0] = 0;
  return j->failed;
}

size_t wp_md5_jobs_run(wp_md5_job *jobs, size_t n, long threads) {
  return wp_md5_jobs_run_kernel(jobs, n, threads, wp_md5x_best());
}

/* How many files the lanes may hold open at once: half the descriptors
 * this process may have (a 32-core machine's 1024 lanes must not run into
 * the usual limit of 1024). */
static size_t open_files_budget(void) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return SIZE_MAX;
  return rl.rlim_cur / 2;
}

size_t wp_md5_jobs_run_kernel(wp_md5_job *jobs, size_t n, long threads, int kernel) {
  if (n == 0)
    return 0;
  if (threads < 1)
    threads = 1;
  /* Lanes never hash what OpenSSL would not: MD5 refused (FIPS mode) is
   * the same error at any width. */
  wp_error refused;
  wp_md5 *probe = wp_md5_create(&refused);
  if (!probe) {
    for (size_t i = 0; i < n; i++) {
      jobs[i].failed = 1;
      jobs[i].out[0] = 0;
      if (jobs[i].err)
        *jobs[i].err = refused;
    }
    return n;
  }
  wp_md5_destroy(probe);
  if (kernel > (int)wp_md5x_best())
    kernel = (int)wp_md5x_best(); /* never a kernel this CPU lacks */
  if ((kernel != WP_MD5X_AVX2 && kernel != WP_MD5X_AVX512 && kernel != WP_MD5X_AVX512_X2) ||
      n <= (size_t)threads) {
    /* one stream per core (no lanes, or no more files than cores: one 4 GiB
     * weight's key and member): OpenSSL's assembly is the fastest there */
    return wp_parallel_for(n, threads, one_job, jobs);
  }
  size_t workers = (size_t)threads;
  size_t share = (n + workers - 1) / workers;
  size_t per_worker = open_files_budget() / workers;
  if (share > per_worker)
    share = per_worker ? per_worker : 1;
  runner r = {jobs, n, 0, (wp_md5x_kernel)kernel,
              share < (size_t)kernel ? (unsigned)share : (unsigned)kernel};
  wp_parallel_for(workers, (long)workers, lanes_worker, &r);
  size_t failed = 0;
  for (size_t i = 0; i < n; i++)
    failed += jobs[i].failed != 0;
  return failed;
}
