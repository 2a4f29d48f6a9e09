/* Placing bytes as a file in a directory, safely: the bytes go to a
 * temporary name and are renamed into place without replacing anything; an
 * existing file with the same bytes is kept, one with other bytes is an
 * error, a symbolic link is never followed. A failure leaves no file. */
#ifndef WP_PLACE_H
#define WP_PLACE_H

#include "wp_error.h"
#include "wp_md5.h"
#include "wp_placed.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

/* One piece of an assembled source: SIZE bytes of DATA at offset AT. */
typedef struct wp_place_piece {
  uint64_t at;
  const void *data;
  uint64_t size;
} wp_place_piece;

/* The bytes: a region of a file (path set), memory (data set), or pieces
 * of memory laid out at their offsets, zeros between them (pieces set;
 * sorted by offset, not overlapping, within size). */
typedef struct wp_place_src {
  const char *path;
  uint64_t offset;
  const void *data;
  uint64_t size;
  const wp_place_piece *pieces;
  size_t n_pieces;
} wp_place_src;

/* Copies bytes [OFF, OFF + N) of an assembled source (pieces set) into
 * OUT. */
void wp_place_gather(const wp_place_src *src, uint64_t off, size_t n, unsigned char *out);

typedef enum wp_place_how {
  WP_PLACED_REFLINK,         /* a copy-on-write clone: no bytes moved */
  WP_PLACED_COPY_FILE_RANGE, /* copied in the kernel */
  WP_PLACED_STREAM,          /* read and written here, MD5 on the way */
  WP_PLACED_EXISTING,        /* the same bytes were already there */
} wp_place_how;

/* Streams SRC to FN in chunks of at most 1 MiB (a file region is read
 * with pread; memory is passed through). Returns 0; 1 when FN asked to
 * stop (nonzero return); -1 on a read error, with ERR naming the file. */
typedef int (*wp_place_chunk_fn)(const void *data, size_t len, void *user);
int wp_place_each_chunk(const wp_place_src *src, wp_place_chunk_fn fn, void *user,
                        wp_error *err);

/* Reads a source one piece at a time, for callers that interleave several
 * sources (hashing many files in SIMD lanes). */
typedef struct wp_place_reader {
  const wp_place_src *src;
  int fd;
  struct stat opened; /* the file as opened: a change while read is an error */
  uint64_t done;
  unsigned char *buf; /* the caller's, CAP bytes: file and assembled sources land here */
  size_t cap;
} wp_place_reader;

/* Opens SRC (a file region must be a regular file holding it). BUF stays
 * the caller's. -1 with ERR naming the file. */
int wp_place_reader_open(wp_place_reader *r, const wp_place_src *src, unsigned char *buf,
                         size_t cap, wp_error *err);
/* The next at most CAP bytes (memory is passed through, not copied). 1
 * with *DATA and *LEN set; 0 at the end; -1 with ERR naming the file (also
 * when it changed while read in several pieces). */
int wp_place_reader_next(wp_place_reader *r, const unsigned char **data, size_t *len,
                         wp_error *err);
void wp_place_reader_close(wp_place_reader *r);

/* MD5 of PREFIX (PREFIX_LEN bytes, may be 0) followed by SRC's bytes,
 * streamed: a constant's bytes, or a NEFF member's header and bytes. */
int wp_place_md5(const void *prefix, size_t prefix_len, const wp_place_src *src,
                 char out[WP_MD5_HEX], wp_error *err);

/* Which methods wp_place_file may try, in this order. */
typedef struct wp_place_methods {
  bool reflink, copy_file_range;
} wp_place_methods;

/* Places SRC as DIR/NAME. When the bytes were streamed (and only then),
 * MD5_OUT receives their MD5, else "". A file it creates is noted in
 * PLACED (the run's set, wp_placed.h; NULL notes nothing). */
int wp_place_file(wp_placed_set *placed, const char *dir, const char *name, const wp_place_src *src,
                  wp_place_methods methods, wp_place_how *how, char md5_out[WP_MD5_HEX],
                  wp_error *err);

/* Do two byte sources hold the same bytes? Streams both. */
int wp_bytes_equal(const wp_place_src *a, const wp_place_src *b, bool *equal, wp_error *err);

/* Orders two byte sources: shorter first, then by the first differing
 * byte. *order is <0, 0 or >0. */
int wp_bytes_compare(const wp_place_src *a, const wp_place_src *b, int *order, wp_error *err);

/* Gives DIR/FROM the extra name DIR/TO (a hard link, or a copy where links
 * are not possible), under the same rules as wp_place_file; a name it
 * creates is noted in PLACED. */
int wp_place_alias(wp_placed_set *placed, const char *dir, const char *from, const char *to, wp_error *err);

/* Removes DIR/NAME (not following links); a missing file is fine. */
int wp_place_remove(const char *dir, const char *name, wp_error *err);

#endif
