#include "wp_pgzip.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct chunk {
  unsigned char *in, *out, *level_buf;
  size_t in_len, out_len, out_cap;
  bool last;
  int failed;
} chunk;

struct wp_pgzip {
  int threads;
  wp_pgzip_sink sink;
  void *user;
  chunk *chunks; /* one batch: `threads` chunks filled, then compressed together */
  int filled;    /* chunks complete in this batch */
  uint32_t crc;
  uint64_t total;
  bool header_written;
  char error[256];
};

static size_t out_bound(size_t in) { return in + in / 8 + 4096; }

wp_pgzip *wp_pgzip_create(int threads, wp_pgzip_sink sink, void *user, wp_error *err) {
  wp_pgzip *z = calloc(1, sizeof *z);
  if (!z) {
    wp_error_set(err, "out of memory");
    return NULL;
  }
  z->threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
  z->sink = sink;
  z->user = user;
  z->chunks = calloc((size_t)z->threads, sizeof *z->chunks);
  for (int i = 0; z->chunks && i < z->threads; i++) {
    chunk *c = &z->chunks[i];
    c->out_cap = out_bound(WP_PGZIP_CHUNK);
    c->in = malloc(WP_PGZIP_CHUNK);
    c->out = malloc(c->out_cap);
    c->level_buf = malloc(ISAL_DEF_LVL1_DEFAULT);
    if (!c->in || !c->out || !c->level_buf) {
      wp_pgzip_destroy(z);
      wp_error_set(err, "out of memory");
      return NULL;
    }
  }
  if (!z->chunks) {
    free(z);
    wp_error_set(err, "out of memory");
    return NULL;
  }
  return z;
}

static void *compress_chunk(void *arg) {
  chunk *c = arg;
  struct isal_zstream s;
  isal_deflate_init(&s);
  s.level = 1;
  s.level_buf = c->level_buf;
  s.level_buf_size = ISAL_DEF_LVL1_DEFAULT;
  s.gzip_flag = IGZIP_DEFLATE;
  s.end_of_stream = c->last;
  s.flush = c->last ? NO_FLUSH : FULL_FLUSH;
  s.next_in = c->in;
  s.avail_in = (uint32_t)c->in_len;
  s.next_out = c->out;
  s.avail_out = (uint32_t)c->out_cap;
  int r = isal_deflate(&s);
  if (r != COMP_OK || s.avail_in != 0 || (c->last && s.internal_state.state != ZSTATE_END)) {
    c->failed = 1;
    return NULL;
  }
  c->out_len = c->out_cap - s.avail_out;
  return NULL;
}

static int emit(wp_pgzip *z, const void *data, size_t len) {
  if (z->sink(data, len, z->user)) {
    if (!z->error[0])
      snprintf(z->error, sizeof z->error, "write failed");
    return -1;
  }
  return 0;
}

/* Compresses the filled chunks of the batch (in parallel) and emits them
 * in order. LAST marks the batch holding the end of the stream. */
static int flush_batch(wp_pgzip *z, bool last) {
  int n = z->filled;
  if (z->filled < z->threads && (z->chunks[z->filled].in_len > 0 || last))
    n++;
  if (n == 0)
    return 0;
  if (!z->header_written) {
    static const unsigned char hdr[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
    if (emit(z, hdr, sizeof hdr))
      return -1;
    z->header_written = true;
  }
  for (int i = 0; i < n; i++)
    z->chunks[i].last = last && i == n - 1;
  pthread_t t[64];
  int started = 0;
  for (int i = 1; i < n; i++, started++)
    if (pthread_create(&t[i], NULL, compress_chunk, &z->chunks[i]) != 0)
      break;
  compress_chunk(&z->chunks[0]);
  for (int i = started + 1; i < n; i++) /* threads that did not start: here */
    compress_chunk(&z->chunks[i]);
  for (int i = 1; i <= started; i++)
    pthread_join(t[i], NULL);
  for (int i = 0; i < n; i++) {
    if (z->chunks[i].failed) {
      snprintf(z->error, sizeof z->error, "igzip could not compress a chunk");
      return -1;
    }
    if (emit(z, z->chunks[i].out, z->chunks[i].out_len))
      return -1;
    z->chunks[i].in_len = 0;
  }
  z->filled = 0;
  return 0;
}

int wp_pgzip_write(wp_pgzip *z, const void *data, size_t len) {
  const unsigned char *p = data;
  z->crc = crc32_gzip_refl(z->crc, (unsigned char *)p, len);
  z->total += len;
  while (len) {
    chunk *c = &z->chunks[z->filled];
    size_t n = WP_PGZIP_CHUNK - c->in_len;
    if (n > len)
      n = len;
    memcpy(c->in + c->in_len, p, n);
    c->in_len += n;
    p += n;
    len -= n;
    if (c->in_len == WP_PGZIP_CHUNK && ++z->filled == z->threads && flush_batch(z, false))
      return -1;
  }
  return 0;
}

int wp_pgzip_finish(wp_pgzip *z) {
  /* The last chunk may be empty (input ended on a chunk boundary): it then
   * only carries the final empty block. */
  if (z->filled == z->threads && flush_batch(z, false))
    return -1;
  if (flush_batch(z, true))
    return -1;
  unsigned char trailer[8];
  for (int i = 0; i < 4; i++) {
    trailer[i] = (unsigned char)(z->crc >> (8 * i));
    trailer[4 + i] = (unsigned char)(z->total >> (8 * i));
  }
  return emit(z, trailer, sizeof trailer);
}

const char *wp_pgzip_error(const wp_pgzip *z) { return z->error[0] ? z->error : "write failed"; }

void wp_pgzip_destroy(wp_pgzip *z) {
  if (!z)
    return;
  for (int i = 0; z->chunks && i < z->threads; i++) {
    free(z->chunks[i].in);
    free(z->chunks[i].out);
    free(z->chunks[i].level_buf);
  }
  free(z->chunks);
  free(z);
}
