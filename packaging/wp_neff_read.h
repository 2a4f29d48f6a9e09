/* Reading a NEFF: the header, then the members of its tar, with bounded
 * decompression (a gzip bomb stops at the limit instead of filling memory
 * or disk) and member names checked. */
#ifndef WP_NEFF_READ_H
#define WP_NEFF_READ_H

#include "wp_neff.h"

#include <stdint.h>
#include <stdio.h>

typedef struct wp_neff_reader wp_neff_reader;

/* Opens PATH and checks its header. MAX_BYTES bounds the uncompressed
 * payload (0: the default, max(4 GiB, 64 x the compressed size)). Caller
 * closes. Errors name PATH. */
wp_neff_reader *wp_neff_open(const char *path, uint64_t max_bytes, wp_error *err);
void wp_neff_close(wp_neff_reader *r);
const wp_neff_header *wp_neff_get_header(const wp_neff_reader *r);
const char *wp_neff_path(const wp_neff_reader *r); /* as opened */

/* Calls FN for each member, streaming its bytes in chunks (data NULL and
 * len 0 marks the member's end). FN returns nonzero to stop (then 1).
 * Member names that are absolute, contain "..", or entries that are not
 * regular files are errors (-1). The payload is read once and checked as
 * it streams: its gzip to the last byte (whole members, good deflate data,
 * CRC32 and length, nothing after them), only zeros after the tar's
 * end-of-archive blocks, and its MD5 against the header. Some of these can
 * fail only after FN has seen every member: a caller that writes members
 * out takes them back on -1. */
typedef int (*wp_neff_member_fn)(const char *name, uint64_t size, const void *data, size_t len,
                                 void *user);
int wp_neff_each_member(wp_neff_reader *r, wp_neff_member_fn fn, void *user, wp_error *err);

/* After wp_neff_each_member: the first member whose entry carries a time
 * or an owner a reproducible NEFF does not (what and which member), or
 * NULL. Owned by the reader. */
const char *wp_neff_unreproducible(const wp_neff_reader *r);

/* After wp_neff_each_member: the header's fields that the format fixes
 * (versions, sizes, counts, empty fields) or derives (the uuid, from the
 * header's payload MD5). The first wrong one, in file order, is named. */
int wp_neff_header_check(const wp_neff_reader *r, wp_error *err);

/* Members against bom.json as they stream, for what writes them out: feed
 * wp_neff_bom_feed (a wp_neff_member_fn) every member's chunks, then
 * wp_neff_bom_check says whether each member hashed has the size and MD5
 * bom.json gives, is listed once, and (unless ONLY) whether bom.json lists
 * exactly the members. With ONLY, just the first member of that name is
 * hashed (the others are not read by the caller). bom.json comes last in
 * the archive: the check can only follow the members. */
typedef struct wp_neff_bom wp_neff_bom;
wp_neff_bom *wp_neff_bom_new(const char *only, wp_error *err);
int wp_neff_bom_feed(const char *name, uint64_t size, const void *data, size_t len, void *bom);
int wp_neff_bom_check(wp_neff_bom *b, const char *path, wp_error *err);
void wp_neff_bom_free(wp_neff_bom *b);

/* Is NAME a safe relative member name? */
int wp_neff_name_is_safe(const char *name);

#endif
