/* Sequential output through aligned O_DIRECT blocks (see wp_dio.h). */
#include "wp_dio.h"

#include "wp_error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* 4096 covers every logical block size Linux file systems use for
 * O_DIRECT alignment (offset, length and buffer address). */
#define DIO_ALIGN 4096

struct wp_dio {
  int fd;
  int flags;     /* FD's status flags before */
  bool direct;   /* O_DIRECT is on now */
  bool used;     /* a block went out with it */
  bool positional; /* writes at OFF (pwrite); else at the descriptor's own position */
  unsigned char *buf;
  size_t len;    /* bytes in BUF */
  off_t off;     /* where BUF[0] goes */
  uint64_t size; /* appended in all */
};

static bool set_direct(wp_dio *w, bool on) {
  int flags = on ? w->flags | O_DIRECT : w->flags & ~O_DIRECT;
  if (fcntl(w->fd, F_SETFL, flags) != 0)
    return false;
  w->direct = on;
  return true;
}

wp_dio *wp_dio_create(int fd, bool direct) {
  wp_dio *w = wp_xcalloc(1, sizeof *w);
  w->fd = fd;
  w->flags = fcntl(fd, F_GETFL);
  w->off = lseek(fd, 0, SEEK_CUR);
  /* A pipe cannot take pwrite, and with O_APPEND Linux appends whatever
   * offset pwrite names: both get plain write()s in order. */
  w->positional = w->off >= 0 && w->flags >= 0 && !(w->flags & O_APPEND);
  struct stat st;
  if (direct && w->positional && w->off % DIO_ALIGN == 0 && fstat(fd, &st) == 0 &&
      S_ISREG(st.st_mode)) {
    void *p = NULL;
    if (posix_memalign(&p, DIO_ALIGN, WP_DIO_BLOCK) == 0) {
      w->buf = p;
      if (!set_direct(w, true)) {
        free(w->buf);
        w->buf = NULL;
      }
    }
  }
  if (w->off < 0)
    w->off = 0;
  return w;
}

static int write_all(wp_dio *w, const unsigned char *p, size_t n) {
  while (n > 0) {
    ssize_t k = w->positional ? pwrite(w->fd, p, n, w->off) : write(w->fd, p, n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return k < 0 ? errno : EIO;
    p += k;
    n -= (size_t)k;
    w->off += k;
  }
  return 0;
}

/* Writes BUF's first N bytes (a multiple of DIO_ALIGN unless O_DIRECT is
 * off) and keeps the rest. A file system that takes O_DIRECT at open but
 * refuses the write (EINVAL) gets plain writes from then on. */
static int flush(wp_dio *w, size_t n) {
  if (w->direct) {
    unsigned char *p = w->buf;
    size_t left = n;
    while (left > 0) {
      ssize_t k = pwrite(w->fd, p, left, w->off);
      if (k < 0 && errno == EINTR)
        continue;
      if (k < 0 && errno == EINVAL && set_direct(w, false))
        break;
      if (k <= 0)
        return k < 0 ? errno : EIO;
      w->used = true;
      w->off += k;
      p += k;
      left -= (size_t)k;
      /* A short direct write leaves an unaligned rest: plain writes go on. */
      if (left && (left % DIO_ALIGN || (size_t)k % DIO_ALIGN)) {
        if (!set_direct(w, false))
          return errno;
        break;
      }
    }
    if (left) {
      int rc = write_all(w, p, left);
      if (rc)
        return rc;
    }
  } else {
    int rc = write_all(w, w->buf, n);
    if (rc)
      return rc;
  }
  memmove(w->buf, w->buf + n, w->len - n);
  w->len -= n;
  return 0;
}

int wp_dio_write(wp_dio *w, const void *data, size_t n) {
  const unsigned char *p = data;
  w->size += n;
  if (!w->buf)
    return write_all(w, p, n);
  while (n > 0) {
    size_t take = WP_DIO_BLOCK - w->len < n ? WP_DIO_BLOCK - w->len : n;
    memcpy(w->buf + w->len, p, take);
    w->len += take;
    p += take;
    n -= take;
    if (w->len == WP_DIO_BLOCK) {
      int rc = flush(w, WP_DIO_BLOCK);
      if (rc)
        return rc;
    }
  }
  return 0;
}

int wp_dio_finish(wp_dio *w) {
  if (w->buf && w->len) {
    size_t aligned = w->direct ? w->len / DIO_ALIGN * DIO_ALIGN : w->len;
    int rc = aligned ? flush(w, aligned) : 0;
    if (rc)
      return rc;
    if (w->direct && !set_direct(w, false))
      return errno;
    if (w->len && (rc = flush(w, w->len)))
      return rc;
  }
  if (w->direct && !set_direct(w, false))
    return errno;
  if (!w->positional)
    return 0;
  return lseek(w->fd, w->off, SEEK_SET) < 0 ? errno : 0;
}

bool wp_dio_used_direct(const wp_dio *w) { return w->used; }

uint64_t wp_dio_size(const wp_dio *w) { return w->size; }

void wp_dio_destroy(wp_dio *w) {
  if (!w)
    return;
  if (w->direct)
    fcntl(w->fd, F_SETFL, w->flags);
  free(w->buf);
  free(w);
}
