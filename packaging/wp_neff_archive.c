/* The NEFF container: header codec and the deterministic gzip PAX tar. */
#include "wp_neff.h"

#include "wp_dio.h"
#include "wp_npy.h"
#include "wp_pgzip.h"
#include "wp_place.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put_u64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}
static void put_u32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}
static uint64_t get_u64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}
static uint32_t get_u32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void wp_neff_header_encode(const wp_neff_header *h, unsigned char out[WP_NEFF_HEADER_SIZE]) {
  memset(out, 0, WP_NEFF_HEADER_SIZE);
  put_u64(out + 0, h->pkg_version);
  put_u64(out + 8, h->header_size);
  put_u64(out + 16, h->data_size);
  put_u64(out + 24, h->version_major);
  put_u64(out + 32, h->version_minor);
  memcpy(out + 40, h->build_version, strnlen(h->build_version, 128));
  put_u32(out + 168, h->num_tpb);
  memcpy(out + 172, h->hash, 32);
  memcpy(out + 204, h->uuid, 16);
  memcpy(out + 220, h->name, strnlen(h->name, 256));
  put_u32(out + 476, h->requested_tpb_count);
  memcpy(out + 480, h->tpb_per_node, strnlen(h->tpb_per_node, 64));
  put_u64(out + 544, h->feature_bits);
  put_u32(out + 552, h->lnc_size);
}

int wp_neff_header_decode(const unsigned char *in, size_t len, wp_neff_header *h, wp_error *err) {
  memset(h, 0, sizeof *h);
  if (len < WP_NEFF_HEADER_SIZE)
    return wp_error_set(err, "shorter than the 1024-byte NEFF header");
  h->pkg_version = get_u64(in);
  h->header_size = get_u64(in + 8);
  h->data_size = get_u64(in + 16);
  h->version_major = get_u64(in + 24);
  h->version_minor = get_u64(in + 32);
  memcpy(h->build_version, in + 40, 128);
  h->num_tpb = get_u32(in + 168);
  memcpy(h->hash, in + 172, 32);
  memcpy(h->uuid, in + 204, 16);
  memcpy(h->name, in + 220, 256);
  h->requested_tpb_count = get_u32(in + 476);
  memcpy(h->tpb_per_node, in + 480, 64);
  h->feature_bits = get_u64(in + 544);
  h->lnc_size = get_u32(in + 552);
  h->pad_zero = true;
  for (size_t i = 556; i < WP_NEFF_HEADER_SIZE; i++)
    h->pad_zero &= in[i] == 0;
  if (h->pkg_version != WP_NEFF_PKG_VERSION)
    return wp_error_set(err, "packaging version %llu (only 2, gzip tar with MD5, is known)",
                        (unsigned long long)h->pkg_version);
  if (h->header_size != WP_NEFF_HEADER_SIZE)
    return wp_error_set(err, "header size %llu, not 1024", (unsigned long long)h->header_size);
  if (h->data_size != len - WP_NEFF_HEADER_SIZE)
    return wp_error_set(err, "header says %llu payload bytes, the file has %llu",
                        (unsigned long long)h->data_size,
                        (unsigned long long)(len - WP_NEFF_HEADER_SIZE));
  return 0;
}

/* The spec's predicate looks at the base name: a function (folder) named
 * x.dbg does not sign the members in it. */
bool wp_neff_member_signed(const char *name) {
  const char *slash = strrchr(name, '/');
  const char *base = slash ? slash + 1 : name;
  size_t n = strlen(base);
  return (n >= 4 && strcmp(base + n - 4, ".npy") == 0) || strstr(base, ".dbg") != NULL;
}

void wp_neff_signature(const wp_neff_member *members, size_t n, char out[WP_MD5_HEX]) {
  wp_md5 *h = wp_md5_create(NULL);
  if (!h) {
    out[0] = 0;
    return;
  }
  for (size_t i = 0; i < n; i++) {
    if (!wp_neff_member_signed(members[i].name))
      continue;
    wp_md5_update(h, members[i].name, strlen(members[i].name));
    wp_md5_update(h, "\n", 1);
    wp_md5_update(h, members[i].md5, 32);
    wp_md5_update(h, "\n", 1);
  }
  wp_md5_final_hex(h, out);
  wp_md5_destroy(h);
}

/* Feeds the member's bytes (its prefix, then its data or file region),
 * chunk by chunk, to FN: 0, or -1 when FN stopped or a read failed (ERR
 * set only for the read). */
static int member_bytes(const wp_neff_member *m, wp_place_chunk_fn fn, void *user,
                        wp_error *err) {
  if (m->prefix_len && fn(m->prefix, m->prefix_len, user))
    return -1;
  wp_place_src src = {.path = m->path, .offset = m->offset, .data = m->data, .size = m->size,
                      .pieces = m->pieces, .n_pieces = m->n_pieces};
  return wp_place_each_chunk(&src, fn, user, err) ? -1 : 0;
}

int wp_neff_member_md5(wp_neff_member *m, wp_error *err) {
  wp_place_src src = {.path = m->path, .offset = m->offset, .data = m->data, .size = m->size,
                      .pieces = m->pieces, .n_pieces = m->n_pieces};
  return wp_place_md5(m->prefix, m->prefix_len, &src, m->md5, err);
}

/* ---- the archive ---- */

typedef struct sink {
  wp_dio *out;
  wp_md5 *md5;
  uint64_t size;
  int error;
  wp_pgzip *gz; /* ISA-L: the tar goes through here first */
} sink;

static int write_bytes(const void *buf, size_t n, void *user) {
  sink *s = user;
  int rc = wp_dio_write(s->out, buf, n);
  if (rc) {
    s->error = rc;
    return -1;
  }
  s->size += n;
  return 0;
}

static int hash_bytes(const void *buf, size_t n, void *user) {
  wp_md5_update(((sink *)user)->md5, buf, n);
  return 0;
}

/* Compressed bytes: to the file, and into the payload MD5 on the way. */
static int sink_bytes(const void *buf, size_t n, void *user) {
  return write_bytes(buf, n, user) || hash_bytes(buf, n, user) ? -1 : 0;
}

static la_ssize_t sink_write(struct archive *a, void *user, const void *buf, size_t n) {
  sink *s = user;
  int rc = s->gz ? wp_pgzip_write(s->gz, buf, n) : sink_bytes(buf, n, s);
  if (rc) {
    archive_set_error(a, s->error ? s->error : EIO, "%s",
                      s->error ? strerror(s->error) : wp_pgzip_error(s->gz));
    return -1;
  }
  return (la_ssize_t)n;
}

/* The members' bytes written so far, for the progress callback. */
typedef struct member_progress {
  const wp_neff_compress *how;
  uint64_t done, total;
} member_progress;

typedef struct data_writer {
  member_progress *progress;
  struct archive *a;
  wp_md5 *md5; /* the member's, when it is not known yet */
  wp_md5 *key; /* the bytes' after the prefix, when they are checked */
  size_t prefix_left; /* prefix bytes not passed yet */
} data_writer;

static int archive_chunk(const void *p, size_t n, void *user) {
  data_writer *w = user;
  if (w->md5)
    wp_md5_update(w->md5, p, n);
  if (w->key) {
    size_t skip = n < w->prefix_left ? n : w->prefix_left;
    w->prefix_left -= skip;
    wp_md5_update(w->key, (const unsigned char *)p + skip, n - skip);
  }
  if (archive_write_data(w->a, p, n) != (la_ssize_t)n)
    return -1;
  member_progress *mp = w->progress;
  mp->done += n;
  if (mp->how->progress)
    mp->how->progress(mp->how->progress_user, mp->done, mp->total);
  return 0;
}

static int cmp_members(const void *a, const void *b) {
  return strcmp(((const wp_neff_member *)a)->name, ((const wp_neff_member *)b)->name);
}

/* 32 hex digits -> 16 bytes */
static void hex_to_bytes(const char *hex, unsigned char out[16]) {
  for (int i = 0; i < 16; i++) {
    unsigned v = 0;
    sscanf(hex + 2 * i, "%2x", &v);
    out[i] = (unsigned char)v;
  }
}

/* One tar entry: the header, then the bytes, hashed on the way when the
 * member's MD5 is not known. */
static int write_member(struct archive *a, wp_neff_member *m, wp_md5 *md5,
                        member_progress *progress, wp_error *err) {
  const wp_neff_compress *how = progress->how;
  struct archive_entry *e = archive_entry_new();
  archive_entry_set_pathname(e, m->name);
  archive_entry_set_size(e, (la_int64_t)(m->prefix_len + m->size));
  archive_entry_set_filetype(e, AE_IFREG);
  archive_entry_set_perm(e, 0644);
  archive_entry_set_uid(e, 0);
  archive_entry_set_gid(e, 0);
  archive_entry_set_uname(e, "nobody");
  archive_entry_set_gname(e, "nobody");
  archive_entry_set_mtime(e, 0, 0);
  int hr = archive_write_header(a, e);
  archive_entry_free(e);
  if (hr != ARCHIVE_OK)
    return wp_error_set(err, "%s: %s", m->name, archive_error_string(a));
  data_writer w = {progress, a, m->md5[0] ? NULL : md5, NULL, m->prefix_len};
  /* a raw member's own MD5 is its key's: no second hash */
  if (m->key_md5 && (m->prefix_len || m->md5[0]) && !(w.key = wp_md5_create(err)))
    return -1;
  int rc = member_bytes(m, archive_chunk, &w, err);
  char key[WP_MD5_HEX] = "";
  if (w.key) {
    wp_md5_final_hex(w.key, key);
    wp_md5_destroy(w.key);
  }
  if (rc) {
    /* A write failure is libarchive's to describe; a read failure is in ERR. */
    if (archive_errno(a))
      wp_error_set(err, "%s: %s", m->name, archive_error_string(a));
    return -1;
  }
  if (w.md5)
    wp_md5_final_hex(md5, m->md5);
  if (m->key_md5 && !key[0])
    memcpy(key, m->md5, sizeof key);
  if (m->key_md5 && strcmp(key, m->key_md5) != 0)
    return wp_error_set(err, "%s: its bytes hash to %s, not to the MD5 %s the IR records for "
                        "them (member %s): they changed since; run dedup-consts again first",
                        m->path ? m->path : "in the IR", key, m->key_md5, m->name);
  /* a file's bytes packed under an MD5 taken before (by dedup-consts) must
   * still be those bytes: a file rewritten since would give a member that
   * matches neither its name nor its BOM entry */
  if (!w.md5 && m->path && !m->pieces && how->source_changed &&
      how->source_changed(how->source_user, m->path))
    return wp_error_set(err, "%s: changed since dedup-consts hashed it (member %s); run again "
                        "once it is complete", m->path, m->name);
  return 0;
}

int wp_neff_write_payload(int fd, wp_neff_member *members, size_t n, const char *name,
                          wp_neff_compress how, wp_neff_tail_fn tail_fn, void *tail_user,
                          wp_error *err) {
  qsort(members, n, sizeof *members, cmp_members);
  uint64_t total = 0;
  for (size_t i = 0; i < n; i++)
    total += members[i].prefix_len + members[i].size;
  bool direct = how.direct == WP_NEFF_DIRECT_ON ||
                (how.direct == WP_NEFF_DIRECT_AUTO && total >= WP_NEFF_DIRECT_AUTO_MIN);
  sink s = {wp_dio_create(fd, direct), wp_md5_create(err), 0, 0, NULL};
  member_progress progress = {&how, 0, total};
  wp_md5 *member_md5 = wp_md5_create(err);
  if (!s.md5 || !member_md5) { /* MD5 refused: ERR says why */
    wp_dio_destroy(s.out);
    wp_md5_destroy(s.md5);
    wp_md5_destroy(member_md5);
    return -1;
  }
  unsigned char zero[WP_NEFF_HEADER_SIZE] = {0};
  int zr = wp_dio_write(s.out, zero, sizeof zero);
  if (zr) {
    wp_dio_destroy(s.out);
    wp_md5_destroy(s.md5);
    wp_md5_destroy(member_md5);
    return wp_error_errno(err, zr, "write failed");
  }
  struct archive *a = archive_write_new();
  int rc = -1;
  if (!how.zlib && !(s.gz = wp_pgzip_create(how.threads, write_bytes, hash_bytes, &s, err)))
    goto out;
  /* Reproducible: PAX, gzip level 1 with no timestamp or name in its
   * header, and every entry owned by nobody (uid/gid 0) at time 0. */
  int fr = how.zlib ? archive_write_add_filter_gzip(a) : archive_write_add_filter_none(a);
  if (archive_write_set_format_pax(a) != ARCHIVE_OK || fr != ARCHIVE_OK ||
      (how.zlib &&
       (archive_write_set_filter_option(a, "gzip", "compression-level", "1") != ARCHIVE_OK ||
        archive_write_set_filter_option(a, "gzip", "timestamp", NULL) != ARCHIVE_OK)) ||
      /* The same tar either way: no padding of the last block to 10 KiB
       * (libarchive pads only when it writes uncompressed, otherwise). */
      archive_write_set_bytes_in_last_block(a, 1) != ARCHIVE_OK ||
      archive_write_open2(a, &s, NULL, sink_write, NULL, NULL) != ARCHIVE_OK) {
    wp_error_set(err, "libarchive: %s", archive_error_string(a));
    goto out;
  }
  for (size_t i = 0; i < n; i++) {
#ifdef WP_TESTING
    /* Tests stop here to kill a run in the middle of packing. */
    if (i == 1 && getenv("WP_TEST_PACK_PAUSE"))
      sleep((unsigned)atoi(getenv("WP_TEST_PACK_PAUSE")));
#endif
    if (write_member(a, &members[i], member_md5, &progress, err))
      goto out;
  }
  wp_neff_member *tail = NULL;
  size_t n_tail = 0;
  if (tail_fn && tail_fn(tail_user, members, n, &tail, &n_tail, err))
    goto out;
  for (size_t i = 0; i < n_tail; i++)
    progress.total += tail[i].prefix_len + tail[i].size;
  for (size_t i = 0; i < n_tail; i++)
    if (write_member(a, &tail[i], member_md5, &progress, err))
      goto out;
  if (archive_write_close(a) != ARCHIVE_OK) {
    wp_error_set(err, "libarchive: %s", archive_error_string(a));
    goto out;
  }
  /* filter 0: the tar as the format wrote it, before any compression */
  uint64_t tar_bytes = (uint64_t)archive_filter_bytes(a, 0);
  if (s.gz && wp_pgzip_finish(s.gz)) {
    wp_error_set(err, "%s", s.error ? strerror(s.error) : wp_pgzip_error(s.gz));
    goto out;
  }
  int finish_rc = wp_dio_finish(s.out);
  if (finish_rc) {
    wp_error_errno(err, finish_rc, "write failed");
    goto out;
  }
  if (how.used_direct)
    *how.used_direct = wp_dio_used_direct(s.out);
  if (how.sizes)
    *how.sizes = (wp_neff_sizes){progress.total, tar_bytes, s.size};
  /* The header last: it holds the payload's size and MD5. */
  wp_neff_header h = {0};
  h.pkg_version = WP_NEFF_PKG_VERSION;
  h.header_size = WP_NEFF_HEADER_SIZE;
  h.data_size = s.size;
  h.version_major = WP_NEFF_VERSION_MAJOR;
  h.version_minor = WP_NEFF_VERSION_MINOR;
  snprintf(h.build_version, sizeof h.build_version, "weightpack %s", WP_VERSION);
  h.num_tpb = 1;
  h.requested_tpb_count = 1;
  h.lnc_size = 1;
  char hex[WP_MD5_HEX];
  wp_md5_final_hex(s.md5, hex);
  hex_to_bytes(hex, h.hash);
  /* uuid: from the content (MD5 of "uuid" and the payload MD5), never random */
  wp_md5_update(s.md5, "weightpack-uuid:", 16);
  wp_md5_update(s.md5, hex, 32);
  char uhex[WP_MD5_HEX];
  wp_md5_final_hex(s.md5, uhex);
  hex_to_bytes(uhex, h.uuid);
  /* at most 255 bytes, so the field keeps a NUL, cut between characters */
  size_t name_len = strlen(name);
  if (name_len > 255) {
    name_len = 255;
    while (name_len > 0 && ((unsigned char)name[name_len] & 0xC0) == 0x80)
      name_len--;
  }
  memcpy(h.name, name, name_len);
  h.name[name_len] = 0;
  unsigned char hdr[WP_NEFF_HEADER_SIZE];
  wp_neff_header_encode(&h, hdr);
  if (pwrite(fd, hdr, sizeof hdr, 0) != (ssize_t)sizeof hdr) {
    wp_error_errno(err, errno, "write failed");
    goto out;
  }
  rc = 0;
out:
  archive_write_free(a);
  wp_pgzip_destroy(s.gz);
  wp_dio_destroy(s.out);
  wp_md5_destroy(s.md5);
  wp_md5_destroy(member_md5);
  return rc;
}
