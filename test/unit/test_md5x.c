/* Multi-lane MD5 (support/wp_md5x.c) and the job runner on top of it
 * (support/wp_md5_jobs.c), checked against OpenSSL's MD5 on every kernel
 * this CPU runs, for lengths around every block and piece boundary. */
#include "wp_md5_jobs.h"
#include "wp_md5x.h"
#include "wp_test.h"

#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp[64];

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static unsigned char next_byte(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (unsigned char)(rng >> 32);
}

static unsigned char *random_bytes(size_t n) {
  unsigned char *p = malloc(n ? n : 1);
  for (size_t i = 0; i < n; i++)
    p[i] = next_byte();
  return p;
}

/* OpenSSL's MD5 of A then B. */
static void reference(const void *a, size_t na, const void *b, size_t nb, char out[WP_MD5_HEX]) {
  unsigned char d[16];
  unsigned int n = 0;
  EVP_MD_CTX *c = EVP_MD_CTX_new();
  EVP_DigestInit_ex(c, EVP_md5(), NULL);
  EVP_DigestUpdate(c, a, na);
  EVP_DigestUpdate(c, b, nb);
  EVP_DigestFinal_ex(c, d, &n);
  EVP_MD_CTX_free(c);
  for (int i = 0; i < 16; i++)
    snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static int kernels[3];
static int n_kernels;

/* Every lane of KERNEL over its own data, lanes of different lengths. */
static void test_kernel_lanes(int kernel) {
  const size_t blocks = 37;
  unsigned char *data[WP_MD5X_MAX_LANES];
  const unsigned char *p[WP_MD5X_MAX_LANES];
  wp_md5x_state st;
  for (int l = 0; l < WP_MD5X_MAX_LANES; l++) {
    data[l] = random_bytes(64 * blocks + 64);
    p[l] = data[l];
    wp_md5x_init_lane(&st, (unsigned)l);
  }
  wp_md5x_blocks((wp_md5x_kernel)kernel, &st, p, blocks);
  for (int l = 0; l < kernel; l++) {
    size_t tail = (size_t)(l * 7) % 64; /* tails of 0..63 bytes through the final */
    char got[WP_MD5_HEX], want[WP_MD5_HEX];
    wp_md5x_final_lane(&st, (unsigned)l, data[l] + 64 * blocks, tail, 64 * blocks + tail, got);
    reference(data[l], 64 * blocks + tail, "", 0, want);
    CHECK_STR(got, want);
  }
  for (int l = 0; l < WP_MD5X_MAX_LANES; l++)
    free(data[l]);
}

/* The plain C lane and the padding, for lengths around 56 and 64. */
static void test_final_lengths(void) {
  static const size_t lens[] = {0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000};
  for (size_t k = 0; k < sizeof lens / sizeof *lens; k++) {
    unsigned char *d = random_bytes(lens[k]);
    wp_md5x_state st;
    wp_md5x_init_lane(&st, 3);
    size_t full = lens[k] / 64 * 64;
    for (size_t off = 0; off < full; off += 64)
      wp_md5x_block_lane(&st, 3, d + off);
    char got[WP_MD5_HEX], want[WP_MD5_HEX];
    wp_md5x_final_lane(&st, 3, d + full, lens[k] - full, lens[k], got);
    reference(d, lens[k], "", 0, want);
    CHECK_STR(got, want);
    free(d);
  }
  char empty[WP_MD5_HEX];
  wp_md5x_state st;
  wp_md5x_init_lane(&st, 0);
  wp_md5x_final_lane(&st, 0, NULL, 0, 0, empty);
  CHECK_STR(empty, WP_MD5_OF_NOTHING);
}

/* Jobs of every kind of source and length, a prefix or none, on 1-3
 * threads and every kernel (and OpenSSL, kernel 0). */
static void test_jobs(void) {
  static const size_t sizes[] = {0,       1,         63,        64,        65,
                                 1000,    262143,    262144,    262145,    3145745,
                                 5000,    128,       4096,      100000,    777777};
  static const size_t prefixes[] = {0, 10, 64, 128, 130};
  enum { N = 60 };
  size_t nsizes = sizeof sizes / sizeof *sizes;
  wp_place_src src[N];
  wp_place_piece pieces[N][3];
  unsigned char *bytes[N];
  unsigned char prefix[200];
  char want[N][WP_MD5_HEX], got[N][WP_MD5_HEX];
  char *paths[N];
  for (size_t i = 0; i < sizeof prefix; i++)
    prefix[i] = next_byte();
  for (int i = 0; i < N; i++) {
    size_t size = sizes[(size_t)i % nsizes];
    bytes[i] = random_bytes(size);
    memset(&src[i], 0, sizeof src[i]);
    src[i].size = size;
    paths[i] = NULL;
    switch (i % 3) {
    case 0: { /* a region of a file, after 3 bytes of something else */
      paths[i] = malloc(128);
      snprintf(paths[i], 128, "%s/f%d", tmp, i);
      FILE *f = fopen(paths[i], "wb");
      fwrite("xyz", 1, 3, f);
      fwrite(bytes[i], 1, size, f);
      fclose(f);
      src[i].path = paths[i];
      src[i].offset = 3;
      break;
    }
    case 1: /* memory */
      src[i].data = bytes[i];
      break;
    default: /* assembled: two pieces with zeros around them */
      if (size >= 10) {
        memset(bytes[i], 0, 3);
        memset(bytes[i] + size / 2, 0, 2);
        pieces[i][0] = (wp_place_piece){3, bytes[i] + 3, size / 2 - 3};
        pieces[i][1] = (wp_place_piece){size / 2 + 2, bytes[i] + size / 2 + 2, size - size / 2 - 2};
        src[i].pieces = pieces[i];
        src[i].n_pieces = 2;
      } else {
        src[i].data = bytes[i];
      }
    }
    size_t pl = prefixes[(size_t)i % 5];
    reference(prefix, pl, bytes[i], size, want[i]);
  }
  int all[4] = {0, kernels[0], kernels[1], kernels[2]};
  for (int k = 0; k < 1 + n_kernels; k++)
    for (long threads = 1; threads <= 3; threads++) {
      wp_md5_job jobs[N];
      for (int i = 0; i < N; i++) {
        size_t pl = prefixes[(size_t)i % 5];
        jobs[i] = (wp_md5_job){pl ? prefix : NULL, pl, &src[i], got[i], NULL, 0};
        strcpy(got[i], "unset");
      }
      CHECK(wp_md5_jobs_run_kernel(jobs, 0, threads, all[k]) == 0); /* nothing to do */
      CHECK(wp_md5_jobs_run_kernel(jobs, N, threads, all[k]) == 0);
      for (int i = 0; i < N; i++) {
        if (strcmp(got[i], want[i]))
          fprintf(stderr, "kernel %d, %ld threads, job %d (%zu bytes):\n", all[k], threads, i,
                  (size_t)src[i].size);
        CHECK_STR(got[i], want[i]);
      }
    }
  for (int i = 0; i < N; i++) {
    if (paths[i])
      unlink(paths[i]);
    free(paths[i]);
    free(bytes[i]);
  }
}

/* A job that fails says why and leaves the others alone. */
static void test_job_errors(void) {
  char path[128], gone[128], shortf[128];
  snprintf(path, sizeof path, "%s/ok", tmp);
  snprintf(gone, sizeof gone, "%s/missing", tmp);
  snprintf(shortf, sizeof shortf, "%s/short", tmp);
  unsigned char *b = random_bytes(300000);
  FILE *f = fopen(path, "wb");
  fwrite(b, 1, 300000, f);
  fclose(f);
  f = fopen(shortf, "wb");
  fwrite(b, 1, 100, f);
  fclose(f);
  char want[WP_MD5_HEX];
  reference(b, 300000, "", 0, want);
  int all[4] = {0, kernels[0], kernels[1], kernels[2]};
  for (int k = 0; k < 1 + n_kernels; k++) {
    enum { N = 20 };
    wp_place_src src[N];
    wp_md5_job jobs[N];
    char out[N][WP_MD5_HEX];
    wp_error errs[N];
    for (int i = 0; i < N; i++) {
      src[i] = (wp_place_src){.path = i % 5 == 1 ? gone : i % 5 == 3 ? shortf : path,
                              .size = 300000};
      jobs[i] = (wp_md5_job){NULL, 0, &src[i], out[i], &errs[i], 0};
      errs[i].msg[0] = 0;
    }
    CHECK(wp_md5_jobs_run_kernel(jobs, N, 2, all[k]) == 8);
    for (int i = 0; i < N; i++) {
      if (i % 5 == 1) {
        CHECK(jobs[i].failed && !out[i][0]);
        CHECK_CONTAINS(errs[i].msg, "missing");
      } else if (i % 5 == 3) {
        CHECK(jobs[i].failed && !out[i][0]);
        CHECK_CONTAINS(errs[i].msg, "does not hold the 300000 bytes");
      } else {
        CHECK(!jobs[i].failed);
        CHECK_STR(out[i], want);
      }
    }
  }
  unlink(path);
  unlink(shortf);
  free(b);
}

/* With few file descriptors left, lanes still hash every file: each holds
 * its file open only while it has bytes left to read, and the lanes a
 * thread fills are capped by the descriptor limit. */
static void test_few_descriptors(void) {
  enum { N = 64 };
  char paths[N][128], out[N][WP_MD5_HEX], want[WP_MD5_HEX];
  wp_place_src src[N];
  wp_md5_job jobs[N];
  unsigned char *b = random_bytes(100000);
  reference(b, 100000, "", 0, want);
  for (int i = 0; i < N; i++) {
    snprintf(paths[i], sizeof paths[i], "%s/fd%d", tmp, i);
    FILE *f = fopen(paths[i], "wb");
    fwrite(b, 1, 100000, f);
    fclose(f);
    src[i] = (wp_place_src){.path = paths[i], .size = 100000};
  }
  struct rlimit saved, few;
  getrlimit(RLIMIT_NOFILE, &saved);
  few = saved;
  few.rlim_cur = 24;
  CHECK(setrlimit(RLIMIT_NOFILE, &few) == 0);
  int all[4] = {0, kernels[0], kernels[1], kernels[2]};
  for (int k = 0; k < 1 + n_kernels; k++) {
    for (int i = 0; i < N; i++)
      jobs[i] = (wp_md5_job){NULL, 0, &src[i], out[i], NULL, 0};
    CHECK(wp_md5_jobs_run_kernel(jobs, N, 1, all[k]) == 0);
    for (int i = 0; i < N; i++)
      CHECK_STR(out[i], want);
  }
  setrlimit(RLIMIT_NOFILE, &saved);
  for (int i = 0; i < N; i++)
    unlink(paths[i]);
  free(b);
}

int main(void) {
  snprintf(tmp, sizeof tmp, "%s", "wp-md5x-XXXXXX");
  CHECK(mkdtemp(tmp) != NULL);
  int best = (int)wp_md5x_best();
  if (best >= WP_MD5X_AVX2)
    kernels[n_kernels++] = WP_MD5X_AVX2;
  if (best >= WP_MD5X_AVX512)
    kernels[n_kernels++] = WP_MD5X_AVX512;
  if (best >= WP_MD5X_AVX512_X2)
    kernels[n_kernels++] = WP_MD5X_AVX512_X2;
  if (!n_kernels)
    printf("test_md5x: this CPU has no SIMD kernel; only the plain lane is checked\n");
  for (int k = 0; k < n_kernels; k++)
    test_kernel_lanes(kernels[k]);
  test_final_lengths();
  test_jobs();
  test_job_errors();
  test_few_descriptors();
  rmdir(tmp);
  return wp_test_result("test_md5x");
}
