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

/* MD5 of the payload as stored (the header's hash should match). */
int wp_neff_payload_md5(wp_neff_reader *r, char out[WP_MD5_HEX], wp_error *err);

/* Checks that the payload is gzip to its last byte: one or more whole
 * members with good CRCs, nothing after them (tar readers stop at the
 * archive's end and never see such bytes). Errors name the file. */
int wp_neff_payload_gzip_check(wp_neff_reader *r, wp_error *err);

/* After both wp_neff_payload_gzip_check and wp_neff_each_member read to
 * the end: the uncompressed stream holds only zeros (padding) after the
 * tar's end-of-archive blocks. */
int wp_neff_payload_tail_check(const wp_neff_reader *r, wp_error *err);

/* Calls FN for each member, streaming its bytes in chunks (data NULL and
 * len 0 marks the member's end). FN returns nonzero to stop. Member names
 * that are absolute, contain "..", or entries that are not regular files
 * are errors. */
typedef int (*wp_neff_member_fn)(const char *name, uint64_t size, const void *data, size_t len,
                                 void *user);
int wp_neff_each_member(wp_neff_reader *r, wp_neff_member_fn fn, void *user, wp_error *err);

/* Is NAME a safe relative member name? */
int wp_neff_name_is_safe(const char *name);

#endif
