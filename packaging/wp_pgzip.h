/* Parallel, deterministic gzip with ISA-L (igzip, level 1).
 *
 * The input is cut into fixed-size chunks; each chunk is compressed on its
 * own, with the 32 KiB before it as its dictionary (raw deflate ending in
 * a sync flush, the last one final), and the pieces are joined into one
 * gzip stream with a fixed header (no name, no time, OS 3) and the CRC32
 * and size of all the input. A chunk's bytes are a function of its input
 * and history only, so the output does not depend on the thread count,
 * timing, or where anything sits in memory. */
#ifndef WP_PGZIP_H
#define WP_PGZIP_H

#include "wp_error.h"

#include <isa-l/igzip_lib.h>
#include <stdbool.h>
#include <stddef.h>

#define WP_PGZIP_CHUNK (1u << 20)

/* Where compressed bytes go; returns 0, or -1 to stop. */
typedef int (*wp_pgzip_sink)(const void *data, size_t len, void *user);

typedef struct wp_pgzip wp_pgzip;

/* THREADS compress; SINK and TAP (optional) each see the whole gzip
 * stream, in order, each on a thread of its own (a file write and an MD5,
 * say), overlapping compression. Both get USER. Caller frees with
 * wp_pgzip_destroy, after wp_pgzip_finish or instead of it (to abandon). */
wp_pgzip *wp_pgzip_create(int threads, wp_pgzip_sink sink, wp_pgzip_sink tap, void *user,
                          wp_error *err);
int wp_pgzip_write(wp_pgzip *z, const void *data, size_t len);
/* Compresses what is left and writes the trailer. */
int wp_pgzip_finish(wp_pgzip *z);
/* The first error, once a call has failed. */
const char *wp_pgzip_error(const wp_pgzip *z);
void wp_pgzip_destroy(wp_pgzip *z);

/* One chunk, as the workers compress it (exposed for tests): LEN bytes at
 * DATA, with the HIST bytes before DATA as history; FIRST for the stream's
 * first chunk (its first byte goes out as a stored block), LAST for the
 * final one. S and LEVEL_BUF (ISAL_DEF_LVL1_DEFAULT bytes, 64-aligned) are
 * scratch. OUT holds CAP >= wp_pgzip_chunk_bound(LEN) bytes; the raw
 * deflate bytes' count goes to *OUT_LEN. Returns 0 or -1. */
int wp_pgzip_deflate_chunk(struct isal_zstream *s, unsigned char *level_buf,
                           const unsigned char *data, size_t len, size_t hist, bool first,
                           bool last, unsigned char *out, size_t cap, size_t *out_len);
size_t wp_pgzip_chunk_bound(size_t len);

#endif
