#include "wp_neff_read.h"

#include "wp_place.h"

#include <archive.h>
#include <archive_entry.h>
#include <isa-l/igzip_lib.h>
#include <jansson.h>
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
  uint64_t tar_end;      /* where the tar's end-of-archive blocks end in the stream */
  uint64_t last_nonzero; /* one past the stream's last nonzero byte */
  /* the payload, read once: hashed as it is read and inflated here, so
   * that libarchive sees a plain tar and every byte is checked */
  uint64_t pos;          /* payload bytes read */
  unsigned char *buf;    /* compressed bytes read */
  unsigned char *out;    /* inflated bytes, handed to libarchive */
  struct inflate_state *gz;
  uint64_t out_pos;      /* inflated bytes so far */
  uint64_t gz_members;   /* gzip members ended */
  bool gz_end;           /* the last gzip member ended with the payload */
  wp_md5 *md5;           /* of the payload bytes read */
  bool failed;           /* the stream failed; ERR says how */
  wp_error err;
  wp_error unreproducible; /* the first entry with a time or an owner; "" for none */
};

wp_neff_reader *wp_neff_open(const char *path, uint64_t max_bytes, wp_error *err) {
  wp_neff_reader *r = wp_xcalloc(1, sizeof *r);
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
  r->path = wp_xstrdup(path);
  r->buf = wp_xmalloc(WP_NEFF_READ_CHUNK);
  r->out = wp_xmalloc(WP_NEFF_READ_CHUNK);
  r->gz = wp_xmalloc(sizeof *r->gz);
  if (!(r->md5 = wp_md5_create(err))) {
    wp_error_prefix(err, "%s", path);
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
  free(r->out);
  free(r->gz);
  if (r->md5)
    wp_md5_destroy(r->md5);
  free(r);
}

const wp_neff_header *wp_neff_get_header(const wp_neff_reader *r) { return &r->header; }

const char *wp_neff_path(const wp_neff_reader *r) { return r->path; }

/* Refills the input of the inflater from the payload until it holds at
 * least MIN bytes (or the payload's rest): a member's 2-byte magic may
 * straddle two reads. Every byte read is hashed here, once. */
static int gz_refill(wp_neff_reader *r, uint32_t min, wp_error *err) {
  struct inflate_state *st = r->gz;
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
  wp_md5_update(r->md5, r->buf + kept, (size_t)n);
  r->pos += (uint64_t)n;
  st->next_in = r->buf;
  st->avail_in = kept + (uint32_t)n;
  return 0;
}

static bool at_gzip_magic(const struct inflate_state *st) {
  return st->avail_in >= 2 && st->next_in[0] == 0x1f && st->next_in[1] == 0x8b;
}

/* A gzip member's header at the start of R's input: its reserved flag bits
 * (FLG 0xe0) must be zero (RFC 1952; gzip, zlib and libarchive refuse
 * them, ISA-L does not look). A time in it (MTIME) is noted as a tar
 * entry's is: readers take it, verify refuses it. */
static int gz_check_flags(wp_neff_reader *r, wp_error *err) {
  struct inflate_state *st = r->gz;
  if (gz_refill(r, 8, err))
    return -1;
  unsigned long long member = (unsigned long long)r->gz_members + 1;
  if (st->avail_in >= 4 && (st->next_in[3] & 0xe0))
    return wp_error_set(err, "%s: payload: gzip member %llu sets reserved header flags (0x%02x)",
                        r->path, member, st->next_in[3] & 0xe0);
  const unsigned char *h = st->next_in;
  uint32_t mtime = st->avail_in < 8 ? 0
                   : (uint32_t)h[4] | (uint32_t)h[5] << 8 | (uint32_t)h[6] << 16 |
                         (uint32_t)h[7] << 24;
  if (mtime && !r->unreproducible.msg[0])
    wp_error_set(&r->unreproducible,
                 "payload: gzip member %llu has MTIME %lu; a NEFF's gzip header has time 0",
                 member, (unsigned long)mtime);
  return 0;
}

/* Starts inflating the payload from its first byte. */
static int gz_start(wp_neff_reader *r, wp_error *err) {
  isal_inflate_init(r->gz);
  r->gz->crc_flag = ISAL_GZIP; /* checks each member's CRC32 and length */
  r->pos = r->out_pos = r->gz_members = r->last_nonzero = r->tar_end = 0;
  r->gz_end = r->failed = false;
  r->unreproducible.msg[0] = 0;
  wp_md5 *fresh = wp_md5_create(err);
  if (!fresh)
    return wp_error_prefix(err, "%s", r->path);
  wp_md5_destroy(r->md5);
  r->md5 = fresh;
  if (gz_refill(r, 2, err))
    return -1;
  if (!at_gzip_magic(r->gz))
    return wp_error_set(err, "%s: payload: not a gzip stream (packaging version 2 is a "
                        "gzip tar)", r->path);
  return gz_check_flags(r, err);
}

/* After a gzip member's end: another may follow (gzip allows it), or the
 * payload ends; anything else is junk tar readers would never see. */
static int gz_next_member(wp_neff_reader *r, wp_error *err) {
  struct inflate_state *st = r->gz;
  r->gz_members++;
  if (gz_refill(r, 2, err))
    return -1;
  if (!st->avail_in) {
    r->gz_end = true;
    return 0;
  }
  if (!at_gzip_magic(st))
    return wp_error_set(err, "%s: payload: %llu bytes follow the end of the gzip stream",
                        r->path,
                        (unsigned long long)(st->avail_in + (r->header.data_size - r->pos)));
  if (gz_check_flags(r, err))
    return -1;
  uint8_t *next = st->next_in;
  uint32_t avail = st->avail_in;
  isal_inflate_reset(st);
  st->crc_flag = ISAL_GZIP;
  st->next_in = next;
  st->avail_in = avail;
  return 0;
}

/* Notes where the stream's last nonzero byte is: what follows the tar's
 * end must be zeros. */
static void gz_account(wp_neff_reader *r, size_t made) {
  for (size_t i = made; i > 0; i--)
    if (r->out[i - 1]) {
      r->last_nonzero = r->out_pos + i; /* one past it */
      break;
    }
  r->out_pos += made;
}

/* The next inflated bytes into R->out: their count, 0 at the payload's end
 * (every gzip member whole, with a good CRC and length), -1 on an error. */
static ssize_t gz_read(wp_neff_reader *r, wp_error *err) {
  struct inflate_state *st = r->gz;
  while (!r->gz_end) {
    /* refused only when more is asked for: the tar header that was read
     * in the byte past the bound names the member that takes it there */
    if (r->out_pos > r->max_bytes)
      return wp_error_set(err, "%s: payload: expands past %llu bytes; refusing (a gzip bomb? "
                          "--max-size=BYTES allows more)", r->path,
                          (unsigned long long)r->max_bytes);
    if (st->block_state == ISAL_BLOCK_FINISH) {
      if (gz_next_member(r, err))
        return -1;
      continue;
    }
    if (gz_refill(r, 1, err))
      return -1;
    uint32_t had = st->avail_in;
    /* one byte past the bound at most */
    uint32_t room = WP_NEFF_READ_CHUNK;
    if (r->max_bytes - r->out_pos < room)
      room = (uint32_t)(r->max_bytes - r->out_pos) + 1;
    st->next_out = r->out;
    st->avail_out = room;
    int ret = isal_inflate(st);
    size_t made = room - st->avail_out;
    gz_account(r, made);
    if (ret != ISAL_DECOMP_OK)
      return wp_error_set(err, "%s: payload: gzip member %llu is corrupt (%s)", r->path,
                          (unsigned long long)r->gz_members + 1,
                          ret == ISAL_INCORRECT_CHECKSUM ? "its CRC or length does not match"
                                                         : "bad deflate data");
    if (made)
      return (ssize_t)made;
    if (st->block_state != ISAL_BLOCK_FINISH && had == 0 && r->pos == r->header.data_size)
      return wp_error_set(err, "%s: payload: the gzip stream is cut short", r->path);
  }
  return 0;
}

/* libarchive reads the inflated tar through here; a failure is kept in R
 * to be reported as it is (libarchive would only say the read failed). */
static la_ssize_t read_cb(struct archive *a, void *user, const void **buf) {
  wp_neff_reader *r = user;
  ssize_t n = gz_read(r, &r->err);
  if (n < 0) {
    r->failed = true;
    archive_set_error(a, EIO, "%s", r->err.msg);
    return -1;
  }
  *buf = r->out;
  return n;
}

/* After the tar's end: the rest of the stream is inflated too (its CRCs
 * and lengths checked, nothing after it), holds only zeros, and the
 * payload's MD5 is the header's. */
static int finish_payload(wp_neff_reader *r, wp_error *err) {
  ssize_t n;
  while ((n = gz_read(r, err)) > 0)
    ;
  if (n < 0)
    return -1;
  if (r->last_nonzero > r->tar_end)
    return wp_error_set(err, "%s: payload: data after the tar's end of archive (the tar ends "
                        "at byte %llu of the stream, which holds nonzero bytes up to %llu)",
                        r->path, (unsigned long long)r->tar_end,
                        (unsigned long long)r->last_nonzero);
  char want[WP_MD5_HEX], got[WP_MD5_HEX];
  wp_md5_final_hex(r->md5, got);
  for (int i = 0; i < 16; i++)
    snprintf(want + 2 * i, 3, "%02x", r->header.hash[i]);
  if (strcmp(want, got) != 0)
    return wp_error_set(err, "%s: header hash %s does not match the payload's MD5 %s", r->path,
                        want, got);
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

/* The member's data, chunk by chunk, to FN. 1 when FN stopped, -1 on an
 * error. */
static int each_block(wp_neff_reader *r, struct archive *a, const char *name, uint64_t size,
                      wp_neff_member_fn fn, void *user, wp_error *err) {
  uint64_t got = 0;
  for (;;) {
    const void *buf;
    size_t len;
    la_int64_t off;
    int dr = archive_read_data_block(a, &buf, &len, &off);
    if (dr == ARCHIVE_EOF)
      break;
    if (dr != ARCHIVE_OK)
      return r->failed ? wp_error_set(err, "%s", r->err.msg)
                       : wp_error_set(err, "%s: member '%s': %s", r->path, name, la_error(a));
    if (off < 0 || (uint64_t)off != got)
      return wp_error_set(err, "%s: member '%s' has holes; a NEFF holds plain files", r->path,
                          name);
    got += len;
    if (got > size)
      return wp_error_set(err, "%s: member '%s' is longer than its header says", r->path,
                          name);
    if (fn(name, size, buf, len, user))
      return 1;
  }
  return fn(name, size, NULL, 0, user) ? 1 : 0;
}

/* The first entry that carries what a reproducible NEFF leaves out: a
 * time other than 0 (mtime, or an atime/ctime record) or an owner other
 * than nobody. Readers take such an entry; verify refuses it. */
static void note_reproducible(wp_neff_reader *r, struct archive_entry *e, const char *name) {
  if (r->unreproducible.msg[0])
    return;
  const char *uname = archive_entry_uname(e), *gname = archive_entry_gname(e);
  long long t = 0;
  const char *what = NULL;
  if (archive_entry_mtime(e) != 0 || archive_entry_mtime_nsec(e) != 0)
    what = "mtime", t = (long long)archive_entry_mtime(e);
  else if (archive_entry_atime_is_set(e) &&
           (archive_entry_atime(e) != 0 || archive_entry_atime_nsec(e) != 0))
    what = "atime", t = (long long)archive_entry_atime(e);
  else if (archive_entry_ctime_is_set(e) &&
           (archive_entry_ctime(e) != 0 || archive_entry_ctime_nsec(e) != 0))
    what = "ctime", t = (long long)archive_entry_ctime(e);
  if (what)
    wp_error_set(&r->unreproducible, "member '%s' has %s %lld; a NEFF's members have time 0",
                 name, what, t);
  else if (!uname || strcmp(uname, "nobody") != 0 || !gname || strcmp(gname, "nobody") != 0)
    wp_error_set(&r->unreproducible,
                 "member '%s' is owned by '%s:%s'; a NEFF's members are owned by nobody:nobody",
                 name, uname ? uname : "", gname ? gname : "");
}

const char *wp_neff_unreproducible(const wp_neff_reader *r) {
  return r->unreproducible.msg[0] ? r->unreproducible.msg : NULL;
}

/* Checks an entry before its data is read: a plain file, with a name
 * inside the package, within the bound (TOTAL: the members' bytes so far). */
static int check_entry(wp_neff_reader *r, struct archive_entry *e, uint64_t *total,
                       wp_error *err) {
  const char *name = archive_entry_pathname(e);
  if (!name || !wp_neff_name_is_safe(name))
    return wp_error_set(err, "%s: member '%s' would leave the package (absolute or '..')",
                        r->path, name ? name : "");
  /* a hard link may carry data (PAX allows it), yet names another member */
  if (archive_entry_filetype(e) != AE_IFREG || archive_entry_hardlink(e))
    return wp_error_set(err, "%s: member '%s' is not a regular file", r->path, name);
  if (archive_entry_sparse_count(e) > 0) /* its holes would be read as missing bytes */
    return wp_error_set(err, "%s: member '%s' is a sparse file; a NEFF holds plain files",
                        r->path, name);
  la_int64_t size = archive_entry_size(e);
  if (size < 0 || (uint64_t)size > r->max_bytes - *total)
    return wp_error_set(err, "%s: member '%s' would take the payload past %llu bytes; refusing "
                        "(a gzip bomb? --max-size=BYTES allows more)", r->path, name,
                        (unsigned long long)r->max_bytes);
  *total += (uint64_t)size;
  note_reproducible(r, e, name);
  return 0;
}

int wp_neff_each_member(wp_neff_reader *r, wp_neff_member_fn fn, void *user, wp_error *err) {
  if (gz_start(r, err))
    return -1;
  /* libarchive reads the tar we inflate: no filter of its own, so nothing
   * but our gzip (checked to its last byte) is taken for a NEFF */
  struct archive *a = archive_read_new();
  archive_read_support_format_tar(a);
  int rc = -1;
  uint64_t total = 0;
  if (archive_read_open(a, r, NULL, read_cb, NULL) != ARCHIVE_OK) {
    wp_error_set(err, "%s", r->failed ? r->err.msg : la_error(a));
    if (!r->failed)
      wp_error_prefix(err, "%s: payload", r->path);
    goto out;
  }
  for (;;) {
    struct archive_entry *e;
    int hr = archive_read_next_header(a, &e);
    if (hr == ARCHIVE_EOF) {
      /* where the tar's end-of-archive blocks end in the stream: whatever
       * follows is padding, zeros */
      r->tar_end = (uint64_t)archive_filter_bytes(a, 0);
      break;
    }
    if (hr != ARCHIVE_OK && hr != ARCHIVE_WARN) {
      wp_error_set(err, "%s", r->failed ? r->err.msg : la_error(a));
      if (!r->failed)
        wp_error_prefix(err, "%s: payload", r->path);
      goto out;
    }
    if (check_entry(r, e, &total, err))
      goto out;
    rc = each_block(r, a, archive_entry_pathname(e), (uint64_t)archive_entry_size(e), fn, user,
                    err);
    if (rc)
      goto out;
    rc = -1;
  }
  rc = finish_payload(r, err);
out:
  archive_read_free(a);
  return rc;
}

/* ---- the header's fixed and derived fields ---- */

static bool all_zero(const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    if (b[i])
      return false;
  return true;
}

/* The uuid the packer derives from the header's payload MD5. */
static int derived_uuid(const wp_neff_header *h, unsigned char out[16], wp_error *err) {
  char hash[WP_MD5_HEX], uuid[WP_MD5_HEX];
  for (int i = 0; i < 16; i++)
    snprintf(hash + 2 * i, 3, "%02x", h->hash[i]);
  wp_md5 *m = wp_md5_create(err);
  if (!m)
    return -1;
  wp_md5_update(m, "weightpack-uuid:", 16);
  wp_md5_update(m, hash, 32);
  wp_md5_final_hex(m, uuid);
  wp_md5_destroy(m);
  for (int i = 0; i < 16; i++) {
    unsigned v = 0;
    sscanf(uuid + 2 * i, "%2x", &v);
    out[i] = (unsigned char)v;
  }
  return 0;
}

int wp_neff_header_check(const wp_neff_reader *r, wp_error *err) {
  const wp_neff_header *h = &r->header;
  const char *p = r->path;
  unsigned char uuid[16];
  if (derived_uuid(h, uuid, err))
    return wp_error_prefix(err, "%s", p);
  /* in offset order, so the first in the file is named (pkg_version and
   * header_size are checked on opening) */
  if (h->version_major != WP_NEFF_VERSION_MAJOR || h->version_minor != WP_NEFF_VERSION_MINOR)
    return wp_error_set(err, "%s: header: neff_version (offset 24) is %llu.%llu, not 2.0", p,
                        (unsigned long long)h->version_major,
                        (unsigned long long)h->version_minor);
  if (h->num_tpb != 1)
    return wp_error_set(err, "%s: header: num_tpb (offset 168) is %u, not 1", p, h->num_tpb);
  if (!all_zero(h->hash + 16, 16))
    return wp_error_set(err, "%s: header: hash (offset 172) holds bytes after the payload MD5",
                        p);
  if (memcmp(h->uuid, uuid, 16) != 0)
    return wp_error_set(err, "%s: header: uuid (offset 204) is not the one derived from the "
                        "payload MD5", p);
  if (h->requested_tpb_count != 1)
    return wp_error_set(err, "%s: header: requested_tpb_count (offset 476) is %u, not 1", p,
                        h->requested_tpb_count);
  if (!all_zero(h->tpb_per_node, 64))
    return wp_error_set(err, "%s: header: tpb_per_node (offset 480) is not empty", p);
  if (h->feature_bits != 0)
    return wp_error_set(err, "%s: header: feature_bits (offset 544) is %llu, not 0", p,
                        (unsigned long long)h->feature_bits);
  if (h->lnc_size != 1)
    return wp_error_set(err, "%s: header: lnc_size (offset 552) is %u, not 1", p, h->lnc_size);
  if (!h->pad_zero)
    return wp_error_set(err, "%s: header: the pad after lnc_size (offsets 556 to 1023) is not "
                        "all zero", p);
  return 0;
}

/* ---- members against bom.json, as they stream ---- */

#define WP_NEFF_MAX_BOM (64u << 20) /* as neff reads neff.json and bom.json */

typedef struct bom_seen {
  char *name;
  uint64_t size;
  char md5[WP_MD5_HEX];
  bool listed;
} bom_seen;

struct wp_neff_bom {
  char *only; /* the one member to check, or NULL for all */
  bom_seen *m;
  size_t n, cap;
  bom_seen **by_name;
  bool in_member; /* the last of M is streaming */
  bool skipping;  /* the streaming member is not checked */
  wp_md5 *h;
  char *text; /* bom.json's */
  size_t text_len;
  bool have_bom, bom_too_big;
};

wp_neff_bom *wp_neff_bom_new(const char *only, wp_error *err) {
  wp_neff_bom *b = wp_xcalloc(1, sizeof *b);
  b->only = only ? wp_xstrdup(only) : NULL;
  if (!(b->h = wp_md5_create(err))) {
    wp_neff_bom_free(b);
    return NULL;
  }
  return b;
}

void wp_neff_bom_free(wp_neff_bom *b) {
  if (!b)
    return;
  for (size_t i = 0; i < b->n; i++)
    free(b->m[i].name);
  free(b->m);
  free(b->by_name);
  free(b->text);
  free(b->only);
  if (b->h)
    wp_md5_destroy(b->h);
  free(b);
}

/* bom.json's own bytes, kept to be read at the end (its first copy). */
static void keep_bom_text(wp_neff_bom *b, uint64_t size, const void *data, size_t len) {
  if (size > WP_NEFF_MAX_BOM) {
    b->bom_too_big = true;
    return;
  }
  if (!b->text) /* at most WP_NEFF_MAX_BOM, checked above */
    b->text = wp_xcalloc(1, (size_t)size + 1);
  if (data && b->text_len + len <= size) {
    memcpy(b->text + b->text_len, data, len);
    b->text_len += len;
  }
}

/* A member starts: is it one to hash? Only the first copy of a name that
 * ONLY names is (neff cat gives that one). */
static void bom_member_start(wp_neff_bom *b, const char *name, uint64_t size) {
  b->in_member = true;
  b->skipping = b->only && (strcmp(name, b->only) != 0 || b->n > 0);
  if (b->skipping || !strcmp(name, "bom.json"))
    return;
  if (b->n == b->cap) {
    size_t cap = b->cap ? 2 * b->cap : 32;
    b->m = wp_xrealloc(b->m, cap * sizeof *b->m);
    b->cap = cap;
  }
  bom_seen *s = &b->m[b->n];
  memset(s, 0, sizeof *s);
  s->name = wp_xstrdup(name);
  s->size = size;
  b->n++;
}

int wp_neff_bom_feed(const char *name, uint64_t size, const void *data, size_t len, void *user) {
  wp_neff_bom *b = user;
  bool is_bom = !strcmp(name, "bom.json");
  if (!b->in_member)
    bom_member_start(b, name, size);
  if (is_bom && !b->have_bom)
    keep_bom_text(b, size, data, len);
  if (!data) {
    b->in_member = false;
    if (is_bom)
      b->have_bom = true;
    else if (!b->skipping)
      wp_md5_final_hex(b->h, b->m[b->n - 1].md5);
    return 0;
  }
  if (!b->skipping && !is_bom)
    wp_md5_update(b->h, data, len);
  return 0;
}

/* By name, then stream order: of a name held twice, the first copy
 * sorts first. */
static int cmp_seen_ptr(const void *a, const void *b) {
  const bom_seen *x = *(bom_seen *const *)a, *y = *(bom_seen *const *)b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x > y) - (x < y);
}

static int cmp_key_seen(const void *key, const void *m) {
  return strcmp(key, (*(bom_seen *const *)m)->name);
}

/* The member hashed under NAME (its first copy). */
static bom_seen *bom_find(wp_neff_bom *b, const char *name) {
  bom_seen **m = bsearch(name, b->by_name, b->n, sizeof *b->by_name, cmp_key_seen);
  if (!m)
    return NULL;
  while (m > b->by_name && !strcmp((*(m - 1))->name, name))
    m--;
  return *m;
}

/* One bom.json entry against the member it names. */
static int bom_entry(wp_neff_bom *b, const char *path, json_t *e, wp_error *err) {
  const char *name = json_string_value(json_object_get(e, "name"));
  const char *md5 = json_string_value(json_object_get(e, "md5"));
  json_t *size = json_object_get(e, "size");
  if (!name || !md5 || !json_is_integer(size))
    return wp_error_set(err, "%s: bom.json has a malformed entry", path);
  bom_seen *m = bom_find(b, name);
  if (!m) /* with ONLY set, the others were not hashed */
    return b->only ? 0 : wp_error_set(err, "%s: bom.json lists '%s', which the package does "
                                      "not hold", path, name);
  if ((uint64_t)json_integer_value(size) != m->size)
    return wp_error_set(err, "%s: member '%s' is not the size bom.json gives", path, name);
  if (strcmp(md5, m->md5) != 0)
    return wp_error_set(err, "%s: member '%s' does not match its MD5 in bom.json (%s)", path,
                        name, md5);
  if (m->listed)
    return wp_error_set(err, "%s: bom.json lists '%s' twice", path, name);
  m->listed = true;
  return 0;
}

int wp_neff_bom_check(wp_neff_bom *b, const char *path, wp_error *err) {
  if (b->only && !strcmp(b->only, "bom.json"))
    return 0; /* what would check it is itself */
  if (b->bom_too_big)
    return wp_error_set(err, "%s: bom.json is larger than %u bytes", path, WP_NEFF_MAX_BOM);
  json_t *bom = b->have_bom ? json_loads(b->text, 0, NULL) : NULL;
  if (!bom)
    return wp_error_set(err, "%s: bom.json is missing or not JSON", path);
  int rc = -1;
  b->by_name = wp_xmalloc((b->n + 1) * sizeof *b->by_name);
  for (size_t i = 0; i < b->n; i++)
    b->by_name[i] = &b->m[i];
  qsort(b->by_name, b->n, sizeof *b->by_name, cmp_seen_ptr);
  json_t *entries = json_object_get(bom, "members");
  for (size_t i = 0; i < json_array_size(entries); i++)
    if (bom_entry(b, path, json_array_get(entries, i), err))
      goto out;
  for (size_t i = 0; i < b->n; i++)
    if (!b->m[i].listed) {
      wp_error_set(err, "%s: member '%s' is not in bom.json", path, b->m[i].name);
      goto out;
    }
  rc = 0;
out:
  json_decref(bom);
  return rc;
}
