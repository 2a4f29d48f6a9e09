#include "wp_file_batch.h"

#include "wp_parallel.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Files in flight at once: each takes a registered descriptor slot and a
 * staging buffer of WP_FILE_READ_LIMIT + 1 bytes. */
#define BATCH 64
/* Below this many files a ring costs more than it saves. */
#define MIN_FILES 8
/* Fewer files than this in a share would not pay for its ring. */
#define SHARE_MIN 1024

enum { OP_OPEN, OP_READ, OP_CLOSE };

static uint64_t tag(size_t slot, int op) { return (uint64_t)slot << 2 | (uint64_t)op; }

/* One batch as one chain per file: open into a registered slot, read from
 * it (only if the open worked), close it (whatever the read gave). The
 * read asks for one byte more than the limit, so a whole small file is a
 * read that stops short of the buffer. Returns -1 when the ring itself
 * failed; the batch's completions have then not all been seen. */
static int run_batch(struct io_uring *ring, const char *const *paths, const int *flags,
                     size_t m, unsigned char *stage, int *got) {
  for (size_t k = 0; k < m; k++) {
    struct io_uring_sqe *open_sqe = io_uring_get_sqe(ring);
    struct io_uring_sqe *read_sqe = io_uring_get_sqe(ring);
    struct io_uring_sqe *close_sqe = io_uring_get_sqe(ring);
    if (!open_sqe || !read_sqe || !close_sqe)
      return -1;
    /* O_NONBLOCK: a FIFO must not wait for a writer (its read then fails
     * and it goes to wp_file_map_flags, which names what it is). */
    int oflags = O_RDONLY | O_NONBLOCK | (flags[k] & WP_FILE_NO_LINK ? O_NOFOLLOW : 0);
    io_uring_prep_openat_direct(open_sqe, AT_FDCWD, paths[k], oflags, 0, (unsigned)k);
    open_sqe->flags |= IOSQE_IO_LINK;
    open_sqe->user_data = tag(k, OP_OPEN);
    io_uring_prep_read(read_sqe, (int)k, stage + k * (WP_FILE_READ_LIMIT + 1),
                       WP_FILE_READ_LIMIT + 1, 0);
    read_sqe->flags |= IOSQE_FIXED_FILE | IOSQE_IO_HARDLINK;
    read_sqe->user_data = tag(k, OP_READ);
    io_uring_prep_close_direct(close_sqe, (unsigned)k);
    close_sqe->user_data = tag(k, OP_CLOSE);
    got[k] = -1;
  }
  size_t want = 3 * m, seen = 0;
  int rc = io_uring_submit(ring);
  if (rc < 0 || (size_t)rc != want)
    return -1;
  while (seen < want) {
    struct io_uring_cqe *cqe;
    rc = io_uring_wait_cqe(ring, &cqe);
    if (rc == -EINTR)
      continue;
    if (rc < 0)
      return -1;
    if ((cqe->user_data & 3) == OP_READ)
      got[cqe->user_data >> 2] = cqe->res;
    io_uring_cqe_seen(ring, cqe);
    seen++;
  }
  return 0;
}

/* One share of the files, on its own ring (a ring is not shared between
 * threads). */
typedef struct share {
  const char *const *paths;
  const int *flags;
  wp_mapped_file *out;
  size_t first; /* the index of paths[0] among all the files */
  size_t n;
  size_t done;
  const wp_file_heads *heads; /* or NULL */
} share;

/* File I of SH read into BYTES (SIZE of them, 1 to WP_FILE_READ_LIMIT)
 * kept as its view, its header apart when the share's heads ask. */
static int keep(share *sh, size_t i, const unsigned char *bytes, size_t size) {
  const wp_file_heads *h = sh->heads;
  size_t head = h ? h->head_size(bytes, size) : 0;
  if (head > (h ? h->cap : 0) || head >= size)
    head = 0;
  if (h) {
    size_t at = sh->first + i;
    memcpy(h->store + at * h->cap, bytes, head);
    h->sizes[at] = head;
  }
  return wp_file_view_copy(bytes + head, size - head, sh->flags[i], &sh->out[i]);
}

static int read_share(size_t i, void *user) {
  share *sh = &((share *)user)[i];
  struct io_uring ring;
  if (io_uring_queue_init(3 * BATCH, &ring, 0) != 0)
    return 1;
  if (io_uring_register_files_sparse(&ring, BATCH) != 0) {
    io_uring_queue_exit(&ring);
    return 1;
  }
  unsigned char *stage = malloc((size_t)BATCH * (WP_FILE_READ_LIMIT + 1));
  int got[BATCH];
  for (size_t s = 0; s < sh->n && stage; s += BATCH) {
    size_t m = sh->n - s < BATCH ? sh->n - s : BATCH;
    if (run_batch(&ring, sh->paths + s, sh->flags + s, m, stage, got) != 0) {
      stage = NULL; /* reads may still land in it: leave it to the process's end */
      break;
    }
    for (size_t k = 0; k < m; k++)
      if (got[k] > 0 && got[k] <= WP_FILE_READ_LIMIT &&
          keep(sh, s + k, stage + k * (WP_FILE_READ_LIMIT + 1), (size_t)got[k]) == 0)
        sh->done++;
  }
  free(stage);
  io_uring_queue_exit(&ring);
  return 0;
}

/* The opens' path walks are most of the time and run in the submitting
 * thread: the files are shared out to every core, a few shares per core
 * so that a core busy with other work leaves its shares to the others. */
size_t wp_file_batch_read_small(const char *const *paths, const int *flags, size_t n,
                                wp_mapped_file *out) {
  return wp_file_batch_read_small_on(paths, flags, n, out, wp_parallel_cores());
}

size_t wp_file_batch_read_small_on(const char *const *paths, const int *flags, size_t n,
                                   wp_mapped_file *out, long threads) {
  return wp_file_batch_read_split(paths, flags, n, out, threads, NULL);
}

size_t wp_file_batch_read_split(const char *const *paths, const int *flags, size_t n,
                                wp_mapped_file *out, long threads, const wp_file_heads *heads) {
  memset(out, 0, n * sizeof *out);
  if (heads)
    memset(heads->sizes, 0, n * sizeof *heads->sizes);
  const char *off = getenv("WP_NO_IO_URING");
  if (n < MIN_FILES || (off && *off && strcmp(off, "0") != 0))
    return 0;
  long cores = threads < 1 ? 1 : threads;
  size_t n_shares = n / SHARE_MIN;
  if (n_shares > (size_t)cores * 4)
    n_shares = (size_t)cores * 4;
  if (cores == 1) /* one ring does: no thread, no slab of its own */
    n_shares = 1;
  if (n_shares < 1)
    n_shares = 1;
  share *shares = calloc(n_shares, sizeof *shares);
  if (!shares)
    return 0;
  for (size_t i = 0; i < n_shares; i++) {
    size_t lo = n * i / n_shares, hi = n * (i + 1) / n_shares;
    shares[i] = (share){paths + lo, flags + lo, out + lo, lo, hi - lo, 0, heads};
  }
  wp_parallel_for(n_shares, cores, read_share, shares);
  size_t done = 0;
  for (size_t i = 0; i < n_shares; i++)
    done += shares[i].done;
  free(shares);
  return done;
}
