#include "wp_place.h"

#include "wp_file.h"
#include "wp_placed.h"
#include "wp_stop.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define WP_PLACE_CHUNK (1u << 20)
#define WP_CLONE_BLOCK 4096u

static char *join(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = wp_xmalloc(n);
  snprintf(p, n, "%s/%s", dir, name);
  return p;
}

static int write_all(int fd, const void *data, size_t n) {
  const unsigned char *p = data;
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* A reflink clone of a file region, when the filesystem and the alignment
 * allow (clone ranges must be block-aligned, except a tail at EOF). */
static bool try_reflink(int src, uint64_t off, uint64_t size, int dst) {
  struct stat st;
  if (size == 0 || off % WP_CLONE_BLOCK || fstat(src, &st) != 0)
    return false;
  if (size % WP_CLONE_BLOCK && off + size != (uint64_t)st.st_size)
    return false;
  struct file_clone_range r = {.src_fd = src, .src_offset = off, .src_length = size,
                               .dest_offset = 0};
  return ioctl(dst, FICLONERANGE, &r) == 0;
}

/* 1: copied; 0: not supported here (fall back); -1: a real error. */
static int try_copy_file_range(int src, uint64_t off, uint64_t size, int dst) {
  loff_t in = (loff_t)off, out = 0;
  while (size) {
    ssize_t n = copy_file_range(src, &in, dst, &out, size > (1u << 30) ? (1u << 30) : size, 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      if (out == 0 && (errno == EXDEV || errno == EINVAL || errno == ENOSYS ||
                       errno == EOPNOTSUPP || errno == EBADF))
        return 0;
      return -1;
    }
    if (n == 0) {
      errno = EIO; /* the source is shorter than expected */
      return -1;
    }
    size -= (uint64_t)n;
  }
  return 1;
}

void wp_place_gather(const wp_place_src *src, uint64_t off, size_t n, unsigned char *out) {
  /* the first piece that ends after OFF */
  size_t lo = 0, hi = src->n_pieces;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const wp_place_piece *p = &src->pieces[mid];
    if (p->at + p->size <= off)
      lo = mid + 1;
    else
      hi = mid;
  }
  uint64_t end = off + n, at = off;
  for (size_t i = lo; i < src->n_pieces && at < end; i++) {
    const wp_place_piece *p = &src->pieces[i];
    if (p->at >= end)
      break;
    if (p->at > at) {
      memset(out + (at - off), 0, (size_t)(p->at - at));
      at = p->at;
    }
    uint64_t stop = p->at + p->size < end ? p->at + p->size : end;
    if (stop <= at)
      continue;
    memcpy(out + (at - off), (const unsigned char *)p->data + (at - p->at), (size_t)(stop - at));
    at = stop;
  }
  if (at < end)
    memset(out + (at - off), 0, (size_t)(end - at));
}

/* Bytes [OFF, OFF + N) of SRC: in place for memory, else read or gathered
 * into BUF. NULL on a read error (errno set; ENODATA when the file ends
 * early). */
static const unsigned char *read_at(const wp_place_src *src, int fd, uint64_t off, size_t n,
                                    unsigned char *buf) {
  if (src->pieces) {
    wp_place_gather(src, off, n, buf);
    return buf;
  }
  if (!src->path)
    return (const unsigned char *)src->data + off;
  for (size_t done = 0; done < n;) {
    ssize_t r = pread(fd, buf + done, n - done, (off_t)(src->offset + off + done));
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      if (r == 0)
        errno = ENODATA;
      return NULL;
    }
    done += (size_t)r;
  }
  return buf;
}

/* ESTALE (not a read's errno) marks a file that changed while read. */
#define CHANGED_WHILE_READ ESTALE

/* Did FD's file change since BEFORE? Only asked after a multi-chunk read:
 * a single pread sees one state of the file. */
static bool changed_since(int fd, const struct stat *before) {
  struct stat now;
  return fstat(fd, &now) != 0 || now.st_size != before->st_size ||
         now.st_mtim.tv_sec != before->st_mtim.tv_sec ||
         now.st_mtim.tv_nsec != before->st_mtim.tv_nsec ||
         now.st_ctim.tv_sec != before->st_ctim.tv_sec ||
         now.st_ctim.tv_nsec != before->st_ctim.tv_nsec;
}

/* Reads SRC chunk by chunk into FN: 0, 1 when FN stopped, -1 on a read
 * error (errno set; CHANGED_WHILE_READ when the file, as OPENED describes
 * it, changed during a read of more than one chunk). BUF holds a chunk
 * (unused for plain memory; OPENED is NULL then). */
static int for_each_chunk(const wp_place_src *src, int src_fd, const struct stat *opened,
                          unsigned char *buf, wp_place_chunk_fn fn, void *user) {
  for (uint64_t done = 0; done < src->size;) {
    size_t n = src->size - done > WP_PLACE_CHUNK ? WP_PLACE_CHUNK : (size_t)(src->size - done);
    const unsigned char *p = read_at(src, src_fd, done, n, buf);
    if (!p)
      return -1;
    if (fn(p, n, user))
      return 1;
    done += n;
  }
  if (opened && src->size > WP_PLACE_CHUNK && changed_since(src_fd, opened)) {
    errno = CHANGED_WHILE_READ;
    return -1;
  }
  return 0;
}

/* Opens SRC's file for reading: only a regular file (O_NONBLOCK so that a
 * FIFO named by a hand-written IR file cannot hang the run) that holds the
 * region (a /proc file says it has 0 bytes, and its contents change from
 * one read to the next). -1 with errno set (EINVAL for something that is
 * not a regular file, ENODATA for one too short). ST receives its state. */
static int open_source(const wp_place_src *src, struct stat *st) {
  int fd = open(src->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return -1;
  int e = 0;
  if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode))
    e = EINVAL;
  else if ((uint64_t)st->st_size < src->offset || (uint64_t)st->st_size - src->offset < src->size)
    e = ENODATA;
  if (e) {
    close(fd);
    errno = e;
    return -1;
  }
  return fd;
}

/* The error for a source that could not be opened or read. */
static int source_error(wp_error *err, const wp_place_src *src, int e) {
  if (e == EINVAL)
    return wp_error_set(err, "%s: not a regular file", src->path);
  if (e == ENODATA)
    return wp_error_set(err, "%s: does not hold the %llu bytes at offset %llu that the IR "
                             "names (shorter, or changed since it was read)", src->path,
                        (unsigned long long)src->size, (unsigned long long)src->offset);
  if (e == CHANGED_WHILE_READ)
    return wp_error_set(err, "%s: changed while it was read; run again once it is complete",
                        src->path);
  return wp_error_errno(err, e, "%s", src->path);
}

/* A read buffer for SIZE bytes: small regions (most constants) must not
 * pay for a 1 MiB buffer (mapped and unmapped by malloc each time). */
static size_t chunk_for(uint64_t size) {
  return size < WP_PLACE_CHUNK ? (size ? (size_t)size : 1) : WP_PLACE_CHUNK;
}

int wp_place_each_chunk(const wp_place_src *src, wp_place_chunk_fn fn, void *user,
                        wp_error *err) {
  /* plain memory is passed through; files and assembled sources land here */
  unsigned char *buf = src->path || src->pieces ? wp_xmalloc(chunk_for(src->size)) : NULL;
  wp_place_reader r;
  int rc = wp_place_reader_open(&r, src, buf, WP_PLACE_CHUNK, err);
  while (rc == 0) {
    const unsigned char *p = NULL; /* set whenever got > 0; gcc -O3 cannot tell */
    size_t n = 0;
    int got = wp_place_reader_next(&r, &p, &n, err);
    if (got <= 0) {
      rc = got;
      break;
    }
    if (fn(p, n, user))
      rc = 1;
  }
  wp_place_reader_close(&r);
  free(buf);
  return rc;
}

int wp_place_reader_open(wp_place_reader *r, const wp_place_src *src, unsigned char *buf,
                         size_t cap, wp_error *err) {
  memset(r, 0, sizeof *r);
  r->src = src;
  r->fd = -1;
  r->buf = buf;
  r->cap = cap;
  if (src->path && !src->pieces) {
    r->fd = open_source(src, &r->opened);
    if (r->fd < 0)
      return source_error(err, src, errno);
    if (src->size > cap)
      posix_fadvise(r->fd, (off_t)src->offset, (off_t)src->size, POSIX_FADV_SEQUENTIAL);
  }
  return 0;
}

int wp_place_reader_next(wp_place_reader *r, const unsigned char **data, size_t *len,
                         wp_error *err) {
  const wp_place_src *src = r->src;
  uint64_t left = src->size - r->done;
  if (left == 0)
    return 0;
  size_t n = left > r->cap ? r->cap : (size_t)left;
  const unsigned char *p = read_at(src, r->fd, r->done, n, r->buf);
  if (!p)
    return source_error(err, src, errno);
  r->done += n;
  if (r->done == src->size && r->fd >= 0) {
    /* Closed with its last piece: a caller reading many sources side by
     * side then holds a descriptor only while a file has bytes left. One
     * pread sees one state of the file; several might not. */
    bool changed = src->size > r->cap && changed_since(r->fd, &r->opened);
    close(r->fd);
    r->fd = -1;
    if (changed)
      return source_error(err, src, CHANGED_WHILE_READ);
  }
  *data = p;
  *len = n;
  return 1;
}

void wp_place_reader_close(wp_place_reader *r) {
  if (r->fd >= 0)
    close(r->fd);
  r->fd = -1;
}

static int md5_chunk(const void *data, size_t n, void *user) {
  wp_md5_update(user, data, n);
  return 0;
}

int wp_place_md5(const void *prefix, size_t prefix_len, const wp_place_src *src,
                 char out[WP_MD5_HEX], wp_error *err) {
  wp_md5 *h = wp_md5_create(err);
  if (!h)
    return -1;
  if (prefix_len)
    wp_md5_update(h, prefix, prefix_len);
  int rc = wp_place_each_chunk(src, md5_chunk, h, err);
  if (rc == 0)
    wp_md5_final_hex(h, out);
  wp_md5_destroy(h);
  return rc ? -1 : 0;
}

typedef struct stream_state {
  int fd;
  wp_md5 *md5;
} stream_state;

static int stream_chunk(const void *data, size_t n, void *user) {
  stream_state *s = user;
  wp_md5_update(s->md5, data, n);
  return write_all(s->fd, data, n);
}

int wp_bytes_equal(const wp_place_src *a, const wp_place_src *b, bool *equal, wp_error *err) {
  int order;
  if (wp_bytes_compare(a, b, &order, err))
    return -1;
  *equal = order == 0;
  return 0;
}

int wp_bytes_compare(const wp_place_src *a, const wp_place_src *b, int *order, wp_error *err) {
  *order = a->size < b->size ? -1 : a->size > b->size ? 1 : 0;
  if (*order)
    return 0;
  int fa = -1, fb = -1, rc = 0;
  unsigned char *ba = wp_xmalloc(chunk_for(a->size)), *bb = wp_xmalloc(chunk_for(a->size));
  struct stat sta, stb;
  if (a->path && (fa = open_source(a, &sta)) < 0) {
    rc = source_error(err, a, errno);
    goto out;
  }
  if (b->path && (fb = open_source(b, &stb)) < 0) {
    rc = source_error(err, b, errno);
    goto out;
  }
  for (uint64_t done = 0; done < a->size;) {
    size_t n = a->size - done > WP_PLACE_CHUNK ? WP_PLACE_CHUNK : (size_t)(a->size - done);
    const unsigned char *pa = read_at(a, fa, done, n, ba);
    const unsigned char *pb = pa ? read_at(b, fb, done, n, bb) : NULL;
    if (!pa || !pb) {
      rc = source_error(err, pa ? b : a, errno);
      goto out;
    }
    int c = memcmp(pa, pb, n);
    if (c != 0) {
      *order = c < 0 ? -1 : 1;
      goto out;
    }
    done += n;
  }
out:
  if (fa >= 0)
    close(fa);
  if (fb >= 0)
    close(fb);
  free(ba);
  free(bb);
  return rc;
}

/* Moves TMP to FINAL without replacing. An existing regular file with the
 * same bytes as TMP wins (TMP is removed); anything else there is an
 * error. */
static int commit(const char *tmp, const char *final, uint64_t size, wp_place_how *how,
                  wp_error *err) {
  if (renameat2(AT_FDCWD, tmp, AT_FDCWD, final, RENAME_NOREPLACE) == 0)
    return 0;
  int e = errno;
  if (e == EINVAL || e == ENOSYS) { /* no RENAME_NOREPLACE here: link does not replace */
    if (link(tmp, final) == 0) {
      unlink(tmp);
      return 0;
    }
    e = errno;
  }
  if (e != EEXIST) {
    unlink(tmp);
    return wp_error_errno(err, e, "%s", final);
  }
  struct stat st;
  if (lstat(final, &st) != 0 || !S_ISREG(st.st_mode)) {
    unlink(tmp);
    return wp_error_set(err, "%s: exists and is not a regular file (a symbolic link?); "
                             "refusing to replace it", final);
  }
  wp_place_src a = {.path = tmp, .size = size}, b = {.path = final, .size = size};
  bool equal = (uint64_t)st.st_size == size;
  if (equal && wp_bytes_equal(&a, &b, &equal, err)) {
    unlink(tmp);
    return -1;
  }
  unlink(tmp);
  if (!equal)
    return wp_error_set(err, "%s: exists with other bytes; refusing to overwrite it", final);
  *how = WP_PLACED_EXISTING;
  return 0;
}

int wp_place_file(wp_placed_set *placed, const char *dir, const char *name, const wp_place_src *src,
                  wp_place_methods methods, wp_place_how *how, char md5_out[WP_MD5_HEX],
                  wp_error *err) {
  md5_out[0] = 0;
  if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..") || !name[0])
    return wp_error_set(err, "'%s' is not a plain file name", name);
  char *final = join(dir, name);
  char *tmp = NULL;
  unsigned char *buf = NULL;
  int src_fd = -1, fd = -1, rc = -1, slot = -1;
  wp_md5 *md5 = NULL;
  wp_stop_section section;
  wp_stop_enter(&section);
  if ((fd = wp_temp_beside(final, &tmp)) < 0) {
    wp_stop_leave(&section);
    wp_error_errno(err, errno, "%s", final);
    goto out_notmp;
  }
  slot = wp_output_track(tmp); /* an interrupted run removes it */
  wp_stop_leave(&section);
  struct stat src_st;
  if (src->path && (src_fd = open_source(src, &src_st)) < 0) {
    source_error(err, src, errno);
    goto out;
  }
  if (src->path && methods.reflink && try_reflink(src_fd, src->offset, src->size, fd)) {
    *how = WP_PLACED_REFLINK;
  } else {
    int cfr = src->path && methods.copy_file_range
                  ? try_copy_file_range(src_fd, src->offset, src->size, fd)
                  : 0;
    if (cfr < 0) {
      wp_error_errno(err, errno, "%s: copying %s", final, src->path);
      goto out;
    }
    if (cfr > 0) {
      *how = WP_PLACED_COPY_FILE_RANGE;
    } else {
      /* a failed reflink or copy_file_range may have written some */
      if (ftruncate(fd, 0) != 0) {
        wp_error_errno(err, errno, "%s", final);
        goto out;
      }
      if (!(md5 = wp_md5_create(err))) /* it says why */
        goto out;
      buf = wp_xmalloc(chunk_for(src->size));
      stream_state st = {fd, md5};
      int sr = for_each_chunk(src, src_fd, src->path ? &src_st : NULL, buf, stream_chunk, &st);
      if (sr > 0) { /* the write stopped it */
        wp_error_errno(err, errno, "%s: write failed", final);
        goto out;
      }
      if (sr < 0) {
        source_error(err, src, errno);
        goto out;
      }
      wp_md5_final_hex(md5, md5_out);
      *how = WP_PLACED_STREAM;
    }
  }
  /* the rename keeps the inode: this is the file that appears */
  struct stat placed_st;
  bool known = fstat(fd, &placed_st) == 0;
  if (close(fd) != 0) {
    fd = -1;
    wp_error_errno(err, errno, "%s: write failed", final);
    goto out;
  }
  fd = -1;
  wp_stop_enter(&section);
  if (commit(tmp, final, src->size, how, err)) {
    wp_stop_leave(&section);
    goto out_notmp;
  }
  if (known && *how != WP_PLACED_EXISTING && wp_placed_note(placed, final, &placed_st)) {
    unlink(final); /* unknown, a failed run could not take it back */
    wp_stop_leave(&section);
    wp_out_of_memory();
  }
  wp_stop_leave(&section);
  rc = 0;
  goto out_notmp;
out:
  unlink(tmp);
out_notmp:
  if (rc != 0)
    md5_out[0] = 0;
  if (fd >= 0)
    close(fd);
  if (src_fd >= 0)
    close(src_fd);
  wp_md5_destroy(md5);
  free(buf);
  free(final);
  /* in a section: a handler that read the name before it goes holds up
   * this thread, so the name is not freed under it */
  wp_stop_enter(&section);
  wp_output_untrack(slot);
  wp_stop_leave(&section);
  free(tmp);
  return rc;
}

int wp_place_alias(wp_placed_set *placed, const char *dir, const char *from, const char *to, wp_error *err) {
  char *a = join(dir, from), *b = join(dir, to);
  int rc = 0;
  wp_stop_section section;
  wp_stop_enter(&section);
  bool linked = link(a, b) == 0;
  int link_errno = errno;
  struct stat made;
  bool unknown = linked && lstat(b, &made) == 0 && wp_placed_note(placed, b, &made) != 0;
  if (unknown)
    unlink(b); /* a failed run could not take it back */
  wp_stop_leave(&section);
  if (unknown)
    wp_out_of_memory();
  if (!linked) {
    if (link_errno == EEXIST) {
      struct stat sa, sb;
      if (lstat(b, &sb) != 0 || !S_ISREG(sb.st_mode) || stat(a, &sa) != 0 ||
          sa.st_ino != sb.st_ino) {
        wp_place_src src = {.path = a, .size = 0};
        bool equal = false;
        if (stat(a, &sa) == 0 && lstat(b, &sb) == 0 && S_ISREG(sb.st_mode) &&
            sa.st_size == sb.st_size) {
          src.size = (uint64_t)sa.st_size;
          wp_place_src other = {.path = b, .size = src.size};
          if (wp_bytes_equal(&src, &other, &equal, err))
            rc = -1;
        }
        if (!rc && !equal)
          rc = wp_error_set(err, "%s: exists with other bytes; refusing to overwrite it", b);
      }
    } else {
      /* No hard links here: copy instead. */
      struct stat sa;
      wp_place_how how;
      char md5[WP_MD5_HEX];
      wp_place_src src = {.path = a};
      if (stat(a, &sa) != 0) {
        rc = wp_error_errno(err, errno, "%s", a);
      } else {
        src.size = (uint64_t)sa.st_size;
        wp_place_methods m = {true, true};
        rc = wp_place_file(placed, dir, to, &src, m, &how, md5, err);
      }
    }
  }
  free(a);
  free(b);
  return rc;
}

int wp_place_remove(const char *dir, const char *name, wp_error *err) {
  char *p = join(dir, name);
  int rc = 0;
  if (unlink(p) != 0 && errno != ENOENT)
    rc = wp_error_errno(err, errno, "%s: cannot remove", p);
  free(p);
  return rc;
}
