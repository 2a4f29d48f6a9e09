/* The parallel gzip pipeline: valid gzip for any size around the chunk
 * boundaries, the same bytes for any thread count, timing and memory
 * placement, both consumers see the same stream, and a failing sink stops
 * it without hanging. Also the parallel loop it shares with hashing.
 * --stress repeats the timing check 200 times (not in CTest). */
#include "wp_parallel.h"
#include "wp_pgzip.h"
#include "wp_test.h"

#include <isa-l/igzip_lib.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

static int g_stress; /* --stress: more repetitions */

typedef struct buf {
  unsigned char *p;
  size_t n, cap;
  int fail_after; /* calls; <0 never */
  int tap_calls;
} buf;

static int put(buf *b, const void *data, size_t n) {
  if (b->n + n > b->cap) {
    b->cap = (b->n + n) * 2;
    b->p = realloc(b->p, b->cap);
  }
  memcpy(b->p + b->n, data, n);
  b->n += n;
  return 0;
}

typedef struct pair {
  buf sink, tap;
} pair;

static int sink_fn(const void *d, size_t n, void *user) {
  pair *p = user;
  if (p->sink.fail_after >= 0 && p->sink.fail_after-- == 0)
    return -1;
  return put(&p->sink, d, n);
}
static int tap_fn(const void *d, size_t n, void *user) {
  pair *p = user;
  p->tap.tap_calls++;
  return put(&p->tap, d, n);
}

/* Decompresses a whole gzip stream (checking its CRC); 0 when valid. */
static int gunzip(const unsigned char *in, size_t n, unsigned char *out, size_t cap,
                  size_t *out_len) {
  struct inflate_state s;
  isal_inflate_init(&s);
  s.crc_flag = ISAL_GZIP;
  s.next_in = (unsigned char *)in;
  s.avail_in = (uint32_t)n;
  s.next_out = out;
  s.avail_out = (uint32_t)cap;
  int r = isal_inflate(&s);
  *out_len = cap - s.avail_out;
  return r == ISAL_DECOMP_OK && s.block_state == ISAL_BLOCK_FINISH && s.avail_in == 0 ? 0 : -1;
}

static void fill(unsigned char *p, size_t n) {
  uint32_t x = 12345;
  for (size_t i = 0; i < n; i++) {
    x = x * 1103515245u + 12345u;
    p[i] = (i / 4096) % 2 ? (unsigned char)(x >> 24) : (unsigned char)(i % 7); /* mixed */
  }
}

/* Compresses N bytes of DATA with THREADS, written in pieces of PIECE
 * bytes (as libarchive hands them over); the streams land in *P. */
static void compress_in_pieces(int threads, const unsigned char *data, size_t n, size_t piece,
                               pair *p) {
  *p = (pair){{.fail_after = -1}, {.fail_after = -1}};
  wp_error err;
  wp_pgzip *z = wp_pgzip_create(threads, sink_fn, tap_fn, p, &err);
  CHECK(z != NULL);
  for (size_t off = 0; z && off < n; off += piece)
    CHECK(wp_pgzip_write(z, data + off, n - off < piece ? n - off : piece) == 0);
  CHECK(z && wp_pgzip_finish(z) == 0);
  wp_pgzip_destroy(z);
}

static void test_roundtrip(void) {
  const size_t C = WP_PGZIP_CHUNK;
  const size_t sizes[] = {0, 1, C - 1, C, C + 1, 3 * C + 5};
  unsigned char *data = malloc(3 * C + 5), *back = malloc(3 * C + 64);
  fill(data, 3 * C + 5);
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    buf first = {0};
    for (int threads = 1; threads <= 4; threads++) {
      pair p;
      compress_in_pieces(threads, data, sizes[s], 10240 + (size_t)threads, &p); /* uneven */
      size_t got = 0;
      CHECK(gunzip(p.sink.p, p.sink.n, back, 3 * C + 64, &got) == 0);
      CHECK(got == sizes[s] && memcmp(back, data, got) == 0);
      CHECK(p.tap.n == p.sink.n && memcmp(p.tap.p, p.sink.p, p.sink.n) == 0);
      if (threads == 1) {
        first = p.sink;
        p.sink.p = NULL;
      } else {
        CHECK(p.sink.n == first.n && memcmp(p.sink.p, first.p, first.n) == 0);
      }
      free(p.sink.p);
      free(p.tap.p);
    }
    free(first.p);
  }
  free(data);
  free(back);
}

/* The bytes must not depend on thread count, timing, or which worker's
 * buffers a chunk lands in. */
static void test_timing_independent(void) {
  const size_t n = 8 * WP_PGZIP_CHUNK + 77;
  unsigned char *data = malloc(n);
  fill(data, n);
  buf ref = {0};
  int runs = g_stress ? 200 : 10;
  for (int run = 0; run < runs; run++) {
    pair p;
    compress_in_pieces(run == 0 ? 1 : 2 + run % 3, data, n, 65536, &p);
    if (run == 0) {
      ref = p.sink;
      p.sink.p = NULL;
    } else {
      CHECK(p.sink.n == ref.n && memcmp(p.sink.p, ref.p, ref.n) == 0);
    }
    free(p.sink.p);
    free(p.tap.p);
  }
  free(ref.p);
  free(data);
}

/* The stream struct mapped at ADDR (NULL if that address is taken). */
static struct isal_zstream *stream_at(uintptr_t addr, size_t map_len) {
  void *m = mmap((void *)addr, map_len, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (m == MAP_FAILED)
    return NULL;
  if (m != (void *)addr) { /* a kernel without MAP_FIXED_NOREPLACE */
    munmap(m, map_len);
    return NULL;
  }
  return m;
}

/* ISA-L 2.30 hashes the address of its stream struct when a level-1
 * deflate starts without history; wp_pgzip_deflate_chunk must never take
 * that path. The same short input (as a tar stream's last chunk) is
 * compressed with the stream mapped at fixed addresses, some of which
 * provoked other bytes before the workaround (found by a sweep; ASan
 * leaves this range to the program), and at 300 more. All must agree. */
static void test_placement_independent(void) {
  static const uintptr_t provoking[] = {0x237fda2a5000, 0x25c90a990000, 0x2055a9244000,
                                        0x25e06a993000, 0x22534664a000, 0x29670fe7c000,
                                        0x3efcfabd7000, 0x39fdc3f41000, 0x3ad177978000};
  const size_t map_len = (sizeof(struct isal_zstream) + 4095) & ~(size_t)4095;
  unsigned char data[77], ref[512], out[512], *level_buf = NULL;
  CHECK(posix_memalign((void **)&level_buf, 64, ISAL_DEF_LVL1_DEFAULT) == 0);
  for (size_t i = 0; i < sizeof data; i++)
    data[i] = (unsigned char)(i % 7);
  size_t ref_len = 0;
  struct isal_zstream *heap = malloc(sizeof *heap);
  CHECK(wp_pgzip_deflate_chunk(heap, level_buf, data, sizeof data, 0, true, true, ref, sizeof ref,
                               &ref_len) == 0);
  free(heap);
  uint64_t x = 88172645463325252ull;
  int differing = 0, failed = 0, placed = 0;
  const int n_fixed = (int)(sizeof provoking / sizeof *provoking);
  for (int k = 0; k < n_fixed + 300; k++) {
    uintptr_t addr = k < n_fixed ? provoking[k] : 0;
    if (!addr) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift: the same addresses every run */
      addr = (uintptr_t)(0x200000000000ull + x % 0x300000000000ull) & ~(uintptr_t)0xfff;
    }
    struct isal_zstream *s = stream_at(addr, map_len);
    if (!s)
      continue;
    size_t got = 0;
    placed++;
    failed |= wp_pgzip_deflate_chunk(s, level_buf, data, sizeof data, 0, true, true, out,
                                     sizeof out, &got);
    differing += got != ref_len || memcmp(out, ref, got) != 0;
    munmap(s, map_len);
  }
  CHECK(!failed);
  CHECK(placed > 250);
  CHECK(differing == 0);
  free(level_buf);
}

static void test_failing_sink(void) {
  const size_t C = WP_PGZIP_CHUNK;
  unsigned char *data = malloc(C);
  fill(data, C);
  for (int after = 0; after < 4; after++) {
    pair p = {{.fail_after = after}, {.fail_after = -1}};
    wp_error err;
    wp_pgzip *z = wp_pgzip_create(2, sink_fn, NULL, &p, &err);
    int rc = 0;
    for (int i = 0; i < 8 && rc == 0; i++) /* far more than the slots hold */
      rc = wp_pgzip_write(z, data, C);
    if (rc == 0)
      rc = wp_pgzip_finish(z);
    CHECK(rc == -1);
    CHECK_STR(wp_pgzip_error(z), "write failed");
    wp_pgzip_destroy(z);
    free(p.sink.p);
  }
  /* abandoned half way: destroy stops the threads */
  pair p = {{.fail_after = -1}, {.fail_after = -1}};
  wp_error err;
  wp_pgzip *z = wp_pgzip_create(3, sink_fn, tap_fn, &p, &err);
  CHECK(wp_pgzip_write(z, data, C) == 0);
  CHECK(wp_pgzip_write(z, data, C / 2) == 0);
  wp_pgzip_destroy(z);
  free(p.sink.p);
  free(p.tap.p);
  free(data);
}

static int square(size_t i, void *user) {
  int64_t *out = user;
  out[i] = (int64_t)(i * i);
  return i % 10 == 3; /* fails for 3, 13, 23, ... */
}

static void test_parallel_for(void) {
  int64_t out[100];
  for (long threads = 0; threads <= 200; threads += 40) {
    memset(out, 0xff, sizeof out);
    CHECK(wp_parallel_for(100, threads, square, out) == 10);
    int ok = 1;
    for (size_t i = 0; i < 100; i++)
      ok &= out[i] == (int64_t)(i * i);
    CHECK(ok);
  }
  CHECK(wp_parallel_for(0, 4, square, out) == 0);
  CHECK(wp_parallel_cores() >= 1);
}

int main(int argc, char **argv) {
  g_stress = argc > 1 && !strcmp(argv[1], "--stress");
  test_roundtrip();
  test_timing_independent();
  test_placement_independent();
  test_failing_sink();
  test_parallel_for();
  return wp_test_result("test_pgzip");
}
