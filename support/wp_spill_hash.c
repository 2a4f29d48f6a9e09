#include "wp_spill_hash.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

/* Read back in pieces of this size: the text was just written, so they
 * come from the page cache. */
#define READ_CHUNK (1u << 20)

struct wp_spill_hash {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  wp_md5 *md5;
  int fd;
  uint64_t at;        /* where the text starts in FD */
  uint64_t published; /* bytes noted by the writer */
  uint64_t hashed;    /* bytes the runner has taken (read or given up on) */
  bool started, ended, failed;
};

wp_spill_hash *wp_spill_hash_create(void) {
  wp_spill_hash *h = calloc(1, sizeof *h);
  if (!h || !(h->md5 = wp_md5_create(NULL))) {
    free(h);
    return NULL;
  }
  pthread_mutex_init(&h->mu, NULL);
  pthread_cond_init(&h->cv, NULL);
  h->fd = -1;
  return h;
}

void wp_spill_hash_note(void *user, int fd, uint64_t at, uint64_t len) {
  wp_spill_hash *h = user;
  pthread_mutex_lock(&h->mu);
  if (!h->started) {
    h->started = true;
    h->fd = fd;
    h->at = at;
  } else if (fd != h->fd || at != h->at || len < h->published) {
    h->failed = true; /* not one text growing in one file */
  }
  h->published = len;
  pthread_cond_signal(&h->cv);
  pthread_mutex_unlock(&h->mu);
}

void wp_spill_hash_end(wp_spill_hash *h) {
  pthread_mutex_lock(&h->mu);
  h->ended = true;
  pthread_cond_signal(&h->cv);
  pthread_mutex_unlock(&h->mu);
}

void wp_spill_hash_run(wp_spill_hash *h) {
  unsigned char *buf = malloc(READ_CHUNK);
  pthread_mutex_lock(&h->mu);
  if (!buf)
    h->failed = true;
  for (;;) {
    while (h->hashed == h->published && !h->ended)
      pthread_cond_wait(&h->cv, &h->mu);
    if (h->hashed == h->published)
      break;
    uint64_t from = h->hashed, to = h->published, at = h->at;
    int fd = h->fd;
    bool ok = !h->failed;
    pthread_mutex_unlock(&h->mu);
    for (uint64_t o = from; ok && o < to;) {
      size_t n = to - o > READ_CHUNK ? READ_CHUNK : (size_t)(to - o);
      ssize_t r = pread(fd, buf, n, (off_t)(at + o));
      if (r < 0 && errno == EINTR)
        continue;
      ok = r > 0;
      if (ok) {
        wp_md5_update(h->md5, buf, (size_t)r);
        o += (uint64_t)r;
      }
    }
    pthread_mutex_lock(&h->mu);
    h->failed |= !ok;
    h->hashed = to;
  }
  pthread_mutex_unlock(&h->mu);
  free(buf);
}

bool wp_spill_hash_result(wp_spill_hash *h, uint64_t size, char out[WP_MD5_HEX]) {
  pthread_mutex_lock(&h->mu);
  bool ok = h->started && !h->failed && h->ended && h->hashed == size;
  pthread_mutex_unlock(&h->mu);
  if (ok)
    wp_md5_final_hex(h->md5, out);
  return ok;
}

void wp_spill_hash_destroy(wp_spill_hash *h) {
  if (!h)
    return;
  wp_md5_destroy(h->md5);
  pthread_cond_destroy(&h->cv);
  pthread_mutex_destroy(&h->mu);
  free(h);
}
