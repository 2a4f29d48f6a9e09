/* NEFF: a 1024-byte header and a deterministic gzip PAX tar.
 *
 * Header (little-endian): pkg_version u64 @0 (2), header_size u64 @8
 * (1024), data_size u64 @16, neff_version_major u64 @24, minor u64 @32,
 * neff_build_version char[128] @40, num_tpb u32 @168, hash char[32] @172
 * (MD5 of the payload in its first 16 bytes), uuid char[16] @204, name
 * char[256] @220, requested_tpb_count u32 @476, tpb_per_node char[64] @480,
 * feature_bits u64 @544, lnc_size u32 @552, zero padding to 1024. */
#ifndef WP_NEFF_H
#define WP_NEFF_H

#include "wp_error.h"
#include "wp_md5.h"
#include "wp_place.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WP_NEFF_HEADER_SIZE 1024
#define WP_NEFF_PKG_VERSION 2
#define WP_NEFF_VERSION_MAJOR 2
#define WP_NEFF_VERSION_MINOR 0

typedef struct wp_neff_header {
  uint64_t pkg_version, header_size, data_size, version_major, version_minor;
  char build_version[129];
  uint32_t num_tpb;
  unsigned char hash[32];
  unsigned char uuid[16];
  char name[257];
  uint32_t requested_tpb_count;
  char tpb_per_node[65];
  uint64_t feature_bits;
  uint32_t lnc_size;
  bool pad_zero; /* read: the pad after lnc_size (offsets 556-1023) is all zero */
} wp_neff_header;

void wp_neff_header_encode(const wp_neff_header *h, unsigned char out[WP_NEFF_HEADER_SIZE]);
/* Checks sizes and the version; errors carry no file prefix. */
int wp_neff_header_decode(const unsigned char *in, size_t len, wp_neff_header *h, wp_error *err);

/* One tar member: PREFIX bytes then either DATA or a file region. */
typedef struct wp_neff_member {
  char *name;
  const void *prefix;
  size_t prefix_len;
  const void *data;   /* memory content, or NULL */
  const char *path;   /* file content, or NULL */
  uint64_t offset;    /* into PATH */
  uint64_t size;      /* of DATA or the file region */
  const wp_place_piece *pieces; /* or assembled content (see wp_place_src) */
  size_t n_pieces;
  char md5[WP_MD5_HEX]; /* of the whole member: known, or filled by the writer */
  const char *key_md5; /* when set, the MD5 the bytes after the prefix must have: the
                          writer checks it (a recorded MD5 no pass of this run took) */
} wp_neff_member;

/* Does this member take part in the IR signature? (.npy, or .dbg in the
 * name; .bin members do not.) */
bool wp_neff_member_signed(const char *name);

/* The IR signature: MD5 over "NAME\n" + member MD5 + "\n" of each signed
 * member, in name order. MEMBERS must be sorted by name. */
void wp_neff_signature(const wp_neff_member *members, size_t n, char out[WP_MD5_HEX]);

/* How the tar is compressed: ISA-L in parallel chunks (the default), or
 * libarchive's own zlib filter. Both give valid gzip of the same tar. */
typedef struct wp_neff_compress {
  bool zlib;
  int threads;
  /* Write the payload past the page cache (O_DIRECT, where the file
   * system allows): always, never, or for payloads of at least
   * WP_NEFF_DIRECT_AUTO_MIN bytes of members (the default). */
  enum { WP_NEFF_DIRECT_AUTO, WP_NEFF_DIRECT_ON, WP_NEFF_DIRECT_OFF } direct;
  bool *used_direct; /* if set: receives whether O_DIRECT was used */
  /* If set: has the file at PATH changed since its MD5 (a member's
   * md5 set by the caller) was taken? Such a member is refused. */
  bool (*source_changed)(void *user, const char *path);
  void *source_user;
  /* If set: called as members' bytes go into the archive, with DONE of
   * TOTAL (all members'; the ones the tail function adds count once it
   * has made them), on the writing thread. */
  void (*progress)(void *user, uint64_t done, uint64_t total);
  void *progress_user;
  /* If set: receives the sizes of what was written. */
  struct wp_neff_sizes *sizes;
} wp_neff_compress;

/* What wp_neff_write_payload wrote. */
typedef struct wp_neff_sizes {
  uint64_t members; /* the members' bytes */
  uint64_t tar;     /* the tar stream: members, their headers, padding */
  uint64_t payload; /* the gzip payload after the header */
} wp_neff_sizes;

#define WP_NEFF_DIRECT_AUTO_MIN ((uint64_t)64 << 20)

/* Builds the members that describe the others (the BOM, say), once every
 * member in MEMBERS (sorted by name) has its MD5. Returns 0 and sets *TAIL
 * (owned by the callee, alive until the payload is written) and *N_TAIL,
 * or -1 with ERR set. */
typedef int (*wp_neff_tail_fn)(void *user, const wp_neff_member *members, size_t n,
                               wp_neff_member **tail, size_t *n_tail, wp_error *err);

/* Writes the payload (gzip PAX tar) to FD after a zero header, then the
 * header: MEMBERS sorted here by name, each hashed as it streams (unless
 * its md5 is set already), then the members TAIL_FN builds from them. */
int wp_neff_write_payload(int fd, wp_neff_member *members, size_t n, const char *name,
                          wp_neff_compress how, wp_neff_tail_fn tail_fn, void *tail_user,
                          wp_error *err);

/* Fills M->md5 by streaming the member's bytes. */
int wp_neff_member_md5(wp_neff_member *m, wp_error *err);

#endif
