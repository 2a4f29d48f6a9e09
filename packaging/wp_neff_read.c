#include "wp_neff_read.h"

#include "wp_place.h"

#include <archive.h>
#include <archive_entry.h>
#include <isa-l/igzip_lib.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WP_NEFF_READ_CHUNK (1u << 20)

struct wp_neff_reader {
  int fd;
  char *path;
  wp_neff_header header;
  uint64_t max_bytes;
  uint64_t tar_end;      /* set when the members were read to the end */
  uint64_t last_nonzero; /* one past the stream's last nonzero byte (gzip check) */
  /* read callback state */
  uint64_t pos;
  unsigned char *buf;
};

wp_neff_reader *wp_neff_open(const char *path, uint64_t max_bytes, wp_error *err) {
  wp_neff_reader *r = calloc(1, sizeof *r);
  if (!r) {
    wp_error_set(err, "out of memory");
    return NULL;
  }
  r->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  unsigned char hdr[WP_NEFF_HEADER_SIZE];
  if (r->fd < 0 || fstat(r->fd, &st) != 0) {
    wp_error_errno(err, errno, "%s", path);
    goto fail;
  }
  if (!S_ISREG(st.st_mode)) {
    wp_error_set(err, "%s: not a regular file", path);
    goto fail;
  }
  ssize_t n = pread(r->fd, hdr, sizeof hdr, 0);
  if (n < 0) {
    wp_error_errno(err, errno, "%s", path);
    goto fail;
  }
  if (n < (ssize_t)sizeof hdr || wp_neff_header_decode(hdr, (size_t)st.st_size, &r->header, err)) {
    if (n < (ssize_t)sizeof hdr)
      wp_error_set(err, "shorter than the 1024-byte NEFF header");
    wp_error_prefix(err, "%s", path);
    goto fail;
  }
  uint64_t dflt = r->header.data_size * 64;
  if (dflt < ((uint64_t)4 << 30))
    dflt = (uint64_t)4 << 30;
  r->max_bytes = max_bytes ? max_bytes : dflt;
  r->path = strdup(path);
  r->buf = malloc(WP_NEFF_READ_CHUNK);
  if (!r->path || !r->buf) {
    wp_error_set(err, "out of memory");
    goto fail;
  }
  return r;
fail:
  wp_neff_close(r);
  return NULL;
}

void wp_neff_close(wp_neff_reader *r) {
  if (!r)
    return;
  if (r->fd >= 0)
    close(r->fd);
  free(r->path);
  free(r->buf);
  free(r);
}

const wp_neff_header *wp_neff_get_header(const wp_neff_reader *r) { return &r->header; }

int wp_neff_payload_md5(wp_neff_reader *r, char out[WP_MD5_HEX], wp_error *err) {
  wp_place_src src = {.path = r->path, .offset = WP_NEFF_HEADER_SIZE,
                      .size = r->header.data_size};
  return wp_place_md5(NULL, 0, &src, out, err);
}

static la_ssize_t read_cb(struct archive *a, void *user, const void **buf) {
  wp_neff_reader *r = user;
  uint64_t left = r->header.data_size - r->pos;
  size_t want = left > WP_NEFF_READ_CHUNK ? WP_NEFF_READ_CHUNK : (size_t)left;
  if (!want)
    return 0;
  ssize_t n = pread(r->fd, r->buf, want, (off_t)(WP_NEFF_HEADER_SIZE + r->pos));
  if (n < 0) {
    archive_set_error(a, errno, "read failed");
    return -1;
  }
  r->pos += (uint64_t)n;
  *buf = r->buf;
  return n;
}

/* Refills the input of ST from the payload until it holds at least MIN
 * bytes (or the payload's rest): a member's 2-byte magic may straddle two
 * reads. */
static int gz_refill(wp_neff_reader *r, struct inflate_state *st, uint32_t min,
                     wp_error *err) {
  if (st->avail_in >= min || r->pos == r->header.data_size)
    return 0;
  uint32_t kept = st->avail_in;
  if (kept)
    memmove(r->buf, st->next_in, kept);
  uint64_t left = r->header.data_size - r->pos;
  size_t room = WP_NEFF_READ_CHUNK - kept;
  size_t want = left > room ? room : (size_t)left;
  ssize_t n = pread(r->fd, r->buf + kept, want, (off_t)(WP_NEFF_HEADER_SIZE + r->pos));
  if (n <= 0)
    return wp_error_errno(err, n < 0 ? errno : EIO, "%s: payload", r->path);
  r->pos += (uint64_t)n;
  st->next_in = r->buf;
  st->avail_in = kept + (uint32_t)n;
  return 0;
}

static bool at_gzip_magic(const struct inflate_state *st) {
  return st->avail_in >= 2 && st->next_in[0] == 0x1f && st->next_in[1] == 0x8b;
}

int wp_neff_payload_gzip_check(wp_neff_reader *r, wp_error *err) {
  enum { SINK = 1 << 16 };
  struct inflate_state *st = malloc(sizeof *st);
  unsigned char *sink = malloc(SINK);
  if (!st || !sink) {
    free(st);
    free(sink);
    return wp_error_set(err, "out of memory");
  }
  isal_inflate_init(st);
  st->crc_flag = ISAL_GZIP;
  r->pos = 0;
  uint64_t members = 0, out_pos = 0;
  int rc = -1;
  if (gz_refill(r, st, 2, err))
    goto out;
  if (!at_gzip_magic(st)) {
    wp_error_set(err, "%s: payload: not a gzip stream (packaging version 2 is a gzip tar)",
                 r->path);
    goto out;
  }
  for (;;) {
    if (gz_refill(r, st, 1, err))
      goto out;
    uint32_t had = st->avail_in;
    st->next_out = sink;
    st->avail_out = SINK;
    int ret = isal_inflate(st);
    size_t made = SINK - st->avail_out;
    for (size_t i = made; i > 0; i--)
      if (sink[i - 1]) {
        r->last_nonzero = out_pos + i; /* one past it */
        break;
      }
    out_pos += made;
    if (out_pos > r->max_bytes) { /* what the member reader would refuse too */
      wp_error_set(err, "%s: payload: expands past %llu bytes; refusing (a gzip bomb? "
                   "--max-size=BYTES allows more)", r->path, (unsigned long long)r->max_bytes);
      goto out;
    }
    if (ret != ISAL_DECOMP_OK) {
      wp_error_set(err, "%s: payload: gzip member %llu is corrupt (%s)", r->path,
                   (unsigned long long)members + 1,
                   ret == ISAL_INCORRECT_CHECKSUM ? "its CRC does not match" : "bad deflate data");
      goto out;
    }
    if (st->block_state == ISAL_BLOCK_FINISH) {
      members++;
      if (gz_refill(r, st, 2, err))
        goto out;
      if (!st->avail_in)
        break; /* the payload ends with the member */
      uint64_t after = st->avail_in + (r->header.data_size - r->pos);
      /* another member may follow (gzip allows it); anything else is junk */
      if (!at_gzip_magic(st)) {
        wp_error_set(err, "%s: payload: %llu bytes follow the end of the gzip stream", r->path,
                     (unsigned long long)after);
        goto out;
      }
      uint8_t *next = st->next_in;
      uint32_t avail = st->avail_in;
      isal_inflate_reset(st);
      st->crc_flag = ISAL_GZIP;
      st->next_in = next;
      st->avail_in = avail;
      continue;
    }
    if (!st->avail_in && r->pos == r->header.data_size && st->avail_out && had == 0) {
      wp_error_set(err, "%s: payload: the gzip stream is cut short", r->path);
      goto out;
    }
  }
  rc = 0;
out:
  free(st);
  free(sink);
  return rc;
}

int wp_neff_payload_tail_check(const wp_neff_reader *r, wp_error *err) {
  if (r->tar_end && r->last_nonzero > r->tar_end)
    return wp_error_set(err, "%s: payload: data after the tar's end of archive (the tar ends "
                        "at byte %llu of the stream, which holds nonzero bytes up to %llu)",
                        r->path, (unsigned long long)r->tar_end,
                        (unsigned long long)r->last_nonzero);
  return 0;
}

int wp_neff_name_is_safe(const char *name) {
  if (!name[0] || name[0] == '/')
    return 0;
  const char *p = name;
  while (*p) {
    const char *e = strchr(p, '/');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if ((n == 2 && p[0] == '.' && p[1] == '.') || n == 0)
      return 0;
    p += n + (e != NULL);
  }
  return 1;
}

/* libarchive leaves its error string NULL for some refusals (a GNU sparse
 * entry, for one). */
static const char *la_error(struct archive *a) {
  const char *msg = archive_error_string(a);
  return msg ? msg : "the archive cannot be read (an entry of a kind a NEFF never holds?)";
}

int wp_neff_each_member(wp_neff_reader *r, wp_neff_member_fn fn, void *user, wp_error *err) {
  struct archive *a = archive_read_new();
  archive_read_support_filter_gzip(a);
  archive_read_support_format_tar(a);
  r->pos = 0;
  int rc = -1;
  uint64_t total = 0;
  if (archive_read_open(a, r, NULL, read_cb, NULL) != ARCHIVE_OK) {
    wp_error_set(err, "%s: payload: %s", r->path, la_error(a));
    goto out;
  }
  /* libarchive reads a plain tar (or nothing at all) as well, when gzip
   * does not bid; packaging version 2 is a gzip tar */
  if (archive_filter_count(a) < 2 || archive_filter_code(a, 0) != ARCHIVE_FILTER_GZIP) {
    wp_error_set(err, "%s: payload: not a gzip stream (packaging version 2 is a gzip tar)",
                 r->path);
    goto out;
  }
  for (;;) {
    struct archive_entry *e;
    int hr = archive_read_next_header(a, &e);
    if (hr == ARCHIVE_EOF) {
      /* where the tar's end-of-archive blocks end in the uncompressed
       * stream: whatever follows is padding, zeros (checked by verify) */
      r->tar_end = (uint64_t)archive_filter_bytes(a, 0);
      break;
    }
    if (hr != ARCHIVE_OK && hr != ARCHIVE_WARN) {
      wp_error_set(err, "%s: payload: %s", r->path, la_error(a));
      goto out;
    }
    const char *name = archive_entry_pathname(e);
    if (!name || !wp_neff_name_is_safe(name)) {
      wp_error_set(err, "%s: member '%s' would leave the package (absolute or '..')", r->path,
                   name ? name : "");
      goto out;
    }
    /* a hard link may carry data (PAX allows it), yet names another member */
    if (archive_entry_filetype(e) != AE_IFREG || archive_entry_hardlink(e)) {
      wp_error_set(err, "%s: member '%s' is not a regular file", r->path, name);
      goto out;
    }
    if (archive_entry_sparse_count(e) > 0) { /* its holes would be read as missing bytes */
      wp_error_set(err, "%s: member '%s' is a sparse file; a NEFF holds plain files", r->path,
                   name);
      goto out;
    }
    la_int64_t size = archive_entry_size(e);
    if (size < 0 || (uint64_t)size > r->max_bytes - total) {
      wp_error_set(err, "%s: member '%s' would take the payload past %llu bytes; refusing "
                   "(a gzip bomb? --max-size=BYTES allows more)", r->path, name,
                   (unsigned long long)r->max_bytes);
      goto out;
    }
    total += (uint64_t)size;
    uint64_t got = 0;
    for (;;) {
      const void *buf;
      size_t len;
      la_int64_t off;
      int dr = archive_read_data_block(a, &buf, &len, &off);
      if (dr == ARCHIVE_EOF)
        break;
      if (dr != ARCHIVE_OK) {
        wp_error_set(err, "%s: member '%s': %s", r->path, name, la_error(a));
        goto out;
      }
      if (off < 0 || (uint64_t)off != got) {
        wp_error_set(err, "%s: member '%s' has holes; a NEFF holds plain files", r->path, name);
        goto out;
      }
      got += len;
      if (got > (uint64_t)size) {
        wp_error_set(err, "%s: member '%s' is longer than its header says", r->path, name);
        goto out;
      }
      if (fn(name, (uint64_t)size, buf, len, user)) {
        rc = 1;
        goto out;
      }
    }
    if (fn(name, (uint64_t)size, NULL, 0, user)) {
      rc = 1;
      goto out;
    }
  }
  rc = 0;
out:
  archive_read_free(a);
  return rc;
}
