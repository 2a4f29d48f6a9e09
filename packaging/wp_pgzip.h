/* Parallel, deterministic gzip with ISA-L (igzip, level 1).
 *
 * The input is cut into fixed-size chunks; each chunk is compressed on its
 * own (raw deflate ending in a full flush, the last one final) and the
 * pieces are joined into one gzip stream with a fixed header (no name, no
 * time, OS 3) and the CRC32 and size of all the input. Because the chunks
 * do not depend on the thread count, neither does the output. */
#ifndef WP_PGZIP_H
#define WP_PGZIP_H

#include "wp_error.h"

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

#endif
