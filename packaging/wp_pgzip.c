/* The compressor is a pipeline: the caller fills fixed-size chunks, worker
 * threads compress them as soon as they are full, and two more threads
 * read the compressed chunks in stream order: the sink (it writes the
 * file) and the tap (it feeds the payload MD5). So reading, compressing,
 * writing and hashing all overlap, and memory is a fixed number of chunk
 * slots. */
#include "wp_pgzip.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The deflate window: the history each chunk gets from the one before. */
#define HIST_MAX 32768

enum slot_state { SLOT_FREE, SLOT_FILLING, SLOT_READY, SLOT_BUSY, SLOT_DONE };

typedef struct slot {
  unsigned char *in, *out; /* in: HIST_MAX of history, then the chunk */
  size_t in_len, out_len, out_cap;
  size_t hist_len; /* bytes of history before the chunk (0 for the first) */
  uint64_t seq; /* position in the stream */
  int consumed; /* by how many of the sink and the tap */
  bool last;
  bool failed;
  enum slot_state state;
} slot;

/* A compressing thread and its scratch (the stream is 80 KiB, the level
 * buffer 276 KiB): per thread, not per slot, as only a thread uses them. */
typedef struct worker {
  struct wp_pgzip *z;
  pthread_t thread;
  struct isal_zstream *stream;
  unsigned char *level_buf;
} worker;

/* One in-order reader of the compressed stream: the sink, or the tap. */
typedef struct consumer {
  struct wp_pgzip *z;
  wp_pgzip_sink fn;
  void *user;
  uint64_t next; /* the next chunk it takes */
  pthread_t thread;
  bool started;
} consumer;

struct wp_pgzip {
  consumer consumers[2];
  int n_consumers;
  int n_slots, n_workers;
  slot *slots;
  slot *filling; /* the caller's current slot, or NULL */
  slot *previous; /* the slot submitted last: its tail is the next one's history */
  worker workers[64];
  pthread_mutex_t mu;
  pthread_cond_t cv; /* any slot changed state, or stop was set */
  uint64_t next_seq;
  bool closing; /* no more slots will be submitted */
  bool stop;    /* give up: an error or destroy before finish */
  bool failed;
  uint32_t crc;
  uint64_t total;
  char error[256];
};

static size_t out_bound(size_t in) { return in + in / 8 + 4096; }

/* igzip's output depends on where its level buffer sits (it found other
 * matches with a buffer that was not 16-byte aligned, as a sanitizer's
 * malloc may return): every buffer is 64-byte aligned, always. */
static unsigned char *aligned(size_t n) {
  void *p = NULL;
  if (posix_memalign(&p, 64, n) != 0)
    wp_out_of_memory();
  return p;
}

/* igzip reads a little past the end of its input (wide loads near the
 * end); bytes there, left by an earlier chunk, would steer its choice of
 * matches. They are zeroed, in a slack area past the chunk. */
#define IN_SLACK 4096

/* Stored deflate block of one byte, not final: header bits, LEN, NLEN. */
#define FIRST_BYTE_BLOCK 6

size_t wp_pgzip_chunk_bound(size_t len) { return out_bound(len) + FIRST_BYTE_BLOCK; }

int wp_pgzip_deflate_chunk(struct isal_zstream *s, unsigned char *level_buf,
                           const unsigned char *data, size_t len, size_t hist, bool first,
                           bool last, unsigned char *out, size_t cap, size_t *out_len) {
  /* ISA-L 2.30's level-1 body, when it starts with no history, hashes a
   * register that still holds the stream's address instead of the third
   * input byte (the "write first byte" path of
   * isal_deflate_icf_body_hash_hist_*). Matches, and so the bytes, then
   * depend on where the stream struct lives: about one 1 MiB chunk in a
   * hundred came out differently from run to run. So a chunk never starts
   * without history: each gets the 32 KiB before it as its dictionary
   * (the decompressor has those bytes in its window: the chunks join into
   * one stream), and the stream's very first byte goes out as a stored
   * block, which then serves as the first chunk's one-byte history. */
  size_t pos = 0;
  if (first && len > 0) {
    if (cap < FIRST_BYTE_BLOCK)
      return -1;
    const unsigned char block[FIRST_BYTE_BLOCK] = {0x00, 0x01, 0x00, 0xfe, 0xff, data[0]};
    memcpy(out, block, FIRST_BYTE_BLOCK);
    pos = FIRST_BYTE_BLOCK;
    data++;
    len--;
    hist = 1;
  }
  /* The hash tables in the level buffer are not all reset by
   * isal_deflate_init: cleared, every chunk's bytes are a function of its
   * input and history alone. */
  memset(level_buf, 0, ISAL_DEF_LVL1_DEFAULT);
  memset(s, 0, sizeof *s);
  isal_deflate_init(s);
  s->level = 1;
  s->level_buf = level_buf;
  s->level_buf_size = ISAL_DEF_LVL1_DEFAULT;
  s->gzip_flag = IGZIP_DEFLATE;
  if (hist && isal_deflate_set_dict(s, (unsigned char *)data - hist, (uint32_t)hist) != COMP_OK)
    return -1;
  s->end_of_stream = last;
  s->flush = last ? NO_FLUSH : SYNC_FLUSH;
  s->next_in = (unsigned char *)data;
  s->avail_in = (uint32_t)len;
  s->next_out = out + pos;
  s->avail_out = (uint32_t)(cap - pos);
  int r = isal_deflate(s);
  if (r != COMP_OK || s->avail_in != 0 || (last && s->internal_state.state != ZSTATE_END))
    return -1;
  *out_len = cap - s->avail_out;
  return 0;
}

static void compress_slot(worker *w, slot *c) {
  memset(c->in + HIST_MAX + c->in_len, 0, IN_SLACK);
  c->failed = wp_pgzip_deflate_chunk(w->stream, w->level_buf, c->in + HIST_MAX, c->in_len,
                                     c->hist_len, c->seq == 0, c->last, c->out, c->out_cap,
                                     &c->out_len) != 0;
}

/* Called with the lock held. */
static void fail(wp_pgzip *z, const char *msg) {
  if (!z->failed)
    snprintf(z->error, sizeof z->error, "%s", msg);
  z->failed = true;
  z->stop = true;
  pthread_cond_broadcast(&z->cv);
}

static void *compress_worker(void *arg) {
  worker *w = arg;
  wp_pgzip *z = w->z;
  pthread_mutex_lock(&z->mu);
  for (;;) {
    slot *pick = NULL;
    for (int i = 0; i < z->n_slots; i++)
      if (z->slots[i].state == SLOT_READY && (!pick || z->slots[i].seq < pick->seq))
        pick = &z->slots[i];
    if (z->stop || (!pick && z->closing))
      break;
    if (!pick) {
      pthread_cond_wait(&z->cv, &z->mu);
      continue;
    }
    pick->state = SLOT_BUSY;
    pthread_mutex_unlock(&z->mu);
    compress_slot(w, pick);
    pthread_mutex_lock(&z->mu);
    pick->state = SLOT_DONE;
    pthread_cond_broadcast(&z->cv);
  }
  pthread_mutex_unlock(&z->mu);
  return NULL;
}

static void *consume_worker(void *arg) {
  consumer *me = arg;
  wp_pgzip *z = me->z;
  static const unsigned char gzip_header[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
  if (me->fn(gzip_header, sizeof gzip_header, me->user)) {
    pthread_mutex_lock(&z->mu);
    fail(z, "write failed");
    pthread_mutex_unlock(&z->mu);
    return NULL;
  }
  pthread_mutex_lock(&z->mu);
  for (;;) {
    slot *next = NULL;
    for (int i = 0; i < z->n_slots; i++)
      if (z->slots[i].state == SLOT_DONE && z->slots[i].seq == me->next)
        next = &z->slots[i];
    if (z->stop || (!next && z->closing && me->next == z->next_seq))
      break;
    if (!next) {
      pthread_cond_wait(&z->cv, &z->mu);
      continue;
    }
    pthread_mutex_unlock(&z->mu);
    const char *problem = next->failed                               ? "igzip could not compress a chunk"
                          : me->fn(next->out, next->out_len, me->user) ? "write failed"
                                                                       : NULL;
    pthread_mutex_lock(&z->mu);
    if (problem) {
      fail(z, problem);
      break;
    }
    me->next++;
    if (++next->consumed == z->n_consumers) {
      next->state = SLOT_FREE;
      next->in_len = 0;
    }
    pthread_cond_broadcast(&z->cv);
  }
  pthread_mutex_unlock(&z->mu);
  return NULL;
}

static void stop_threads(wp_pgzip *z) {
  pthread_mutex_lock(&z->mu);
  z->closing = true;
  pthread_cond_broadcast(&z->cv);
  pthread_mutex_unlock(&z->mu);
  for (int i = 0; i < z->n_workers; i++)
    pthread_join(z->workers[i].thread, NULL);
  z->n_workers = 0;
  for (int i = 0; i < z->n_consumers; i++)
    if (z->consumers[i].started)
      pthread_join(z->consumers[i].thread, NULL);
  z->n_consumers = 0;
}

wp_pgzip *wp_pgzip_create(int threads, wp_pgzip_sink sink, wp_pgzip_sink tap, void *user,
                          wp_error *err) {
  wp_pgzip *z = wp_xcalloc(1, sizeof *z);
  threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
  z->consumers[z->n_consumers++] = (consumer){.z = z, .fn = sink, .user = user};
  if (tap)
    z->consumers[z->n_consumers++] = (consumer){.z = z, .fn = tap, .user = user};
  /* Slots beyond the workers': one being filled, two being consumed (the
   * sink and the tap each at its own chunk). */
  z->n_slots = threads + 3;
  pthread_mutex_init(&z->mu, NULL);
  pthread_cond_init(&z->cv, NULL);
  z->slots = wp_xcalloc((size_t)z->n_slots, sizeof *z->slots);
  for (int i = 0; i < z->n_slots; i++) {
    slot *c = &z->slots[i];
    c->out_cap = wp_pgzip_chunk_bound(WP_PGZIP_CHUNK);
    c->in = aligned(HIST_MAX + WP_PGZIP_CHUNK + IN_SLACK);
    c->out = aligned(c->out_cap);
  }
  int why = 0; /* fewer workers than asked do: the stream is the same */
  for (int i = 0; i < threads; i++) {
    worker *w = &z->workers[i];
    w->z = z;
    w->stream = wp_xmalloc(sizeof *w->stream);
    w->level_buf = aligned(ISAL_DEF_LVL1_DEFAULT);
    if ((why = pthread_create(&w->thread, NULL, compress_worker, w)) != 0)
      break;
    z->n_workers++;
  }
  bool started = z->n_workers > 0;
  for (int i = 0; started && i < z->n_consumers; i++)
    started = (z->consumers[i].started =
                   (why = pthread_create(&z->consumers[i].thread, NULL, consume_worker,
                                         &z->consumers[i])) == 0);
  if (!started) {
    int needed = 1 + z->n_consumers;
    wp_pgzip_destroy(z);
    wp_error_set(err, "cannot start the compression threads: %s (it needs %d threads at "
                      "least: is the process limit, ulimit -u, that low?)",
                 strerror(why), needed);
    return NULL;
  }
  return z;
}

/* A free slot for the caller to fill; NULL once the pipeline failed. */
static slot *take_slot(wp_pgzip *z) {
  pthread_mutex_lock(&z->mu);
  /* Chunk N goes to slot N mod n_slots: slots are used in turn, so the
   * previous chunk's slot (this chunk's history) is never the one taken. */
  slot *want = &z->slots[z->next_seq % (uint64_t)z->n_slots], *s = NULL;
  while (!z->stop && !s) {
    if (want->state == SLOT_FREE)
      s = want;
    else
      pthread_cond_wait(&z->cv, &z->mu);
  }
  if (s) {
    s->state = SLOT_FILLING;
    s->seq = z->next_seq++;
    s->consumed = 0;
    s->in_len = 0;
    s->last = false;
  }
  pthread_mutex_unlock(&z->mu);
  /* The previous chunk is full (only the last one can be short) and its
   * input stays as it is until its slot is taken again, by this thread. */
  if (s && z->previous) {
    s->hist_len = HIST_MAX;
    memcpy(s->in, z->previous->in + HIST_MAX + WP_PGZIP_CHUNK - HIST_MAX, HIST_MAX);
  } else if (s) {
    s->hist_len = 0;
  }
  return s;
}

static void submit(wp_pgzip *z, slot *s) {
  z->previous = s;
  pthread_mutex_lock(&z->mu);
  s->state = SLOT_READY;
  pthread_cond_broadcast(&z->cv);
  pthread_mutex_unlock(&z->mu);
}

int wp_pgzip_write(wp_pgzip *z, const void *data, size_t len) {
  const unsigned char *p = data;
  z->crc = crc32_gzip_refl(z->crc, (unsigned char *)p, len);
  z->total += len;
  while (len) {
    if (!z->filling && !(z->filling = take_slot(z)))
      return -1;
    slot *c = z->filling;
    size_t n = WP_PGZIP_CHUNK - c->in_len;
    if (n > len)
      n = len;
    memcpy(c->in + HIST_MAX + c->in_len, p, n);
    c->in_len += n;
    p += n;
    len -= n;
    if (c->in_len == WP_PGZIP_CHUNK) {
      submit(z, c);
      z->filling = NULL;
    }
  }
  return 0;
}

int wp_pgzip_finish(wp_pgzip *z) {
  /* The last chunk may be empty (input ended on a chunk boundary): it then
   * only carries the final empty block. */
  if (!z->filling && !(z->filling = take_slot(z)))
    return -1;
  z->filling->last = true;
  submit(z, z->filling);
  z->filling = NULL;
  stop_threads(z);
  if (z->failed)
    return -1;
  unsigned char trailer[8];
  for (int i = 0; i < 4; i++) {
    trailer[i] = (unsigned char)(z->crc >> (8 * i));
    trailer[4 + i] = (unsigned char)(z->total >> (8 * i));
  }
  for (int i = 0; i < 2 && z->consumers[i].fn; i++)
    if (z->consumers[i].fn(trailer, sizeof trailer, z->consumers[i].user)) {
      snprintf(z->error, sizeof z->error, "write failed");
      return -1;
    }
  return 0;
}

const char *wp_pgzip_error(const wp_pgzip *z) { return z->error[0] ? z->error : "write failed"; }

void wp_pgzip_destroy(wp_pgzip *z) {
  if (!z)
    return;
  pthread_mutex_lock(&z->mu);
  z->stop = true;
  pthread_mutex_unlock(&z->mu);
  stop_threads(z);
  for (size_t i = 0; i < sizeof z->workers / sizeof *z->workers; i++) { /* NULL if not made */
    free(z->workers[i].stream);
    free(z->workers[i].level_buf);
  }
  for (int i = 0; z->slots && i < z->n_slots; i++) {
    free(z->slots[i].in);
    free(z->slots[i].out);
  }
  free(z->slots);
  pthread_cond_destroy(&z->cv);
  pthread_mutex_destroy(&z->mu);
  free(z);
}
