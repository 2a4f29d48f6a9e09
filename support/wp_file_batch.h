/* Reading many small files in few system calls (io_uring). */
#ifndef WP_FILE_BATCH_H
#define WP_FILE_BATCH_H

#include "wp_file.h"

#include <stddef.h>

/* Reads each PATHS[i] that is a file of 1 to WP_FILE_READ_LIMIT bytes into
 * OUT[i], as wp_file_map_flags(PATHS[i], FLAGS[i]) would (WP_FILE_NO_LINK,
 * WP_FILE_SLAB). Every other OUT[i] is left empty (data NULL): a larger or
 * empty file, one that failed in any way, and all of them when io_uring is
 * unavailable (an old kernel, a seccomp filter, io_uring_disabled) or
 * WP_NO_IO_URING is set; the caller reads those with wp_file_map_flags,
 * which gives the exact error. A short read is trusted as the end of a
 * regular file, so a caller whose read bytes do not make sense reads the
 * file again with wp_file_map_flags before it reports anything. Returns how
 * many were read; release each with wp_file_unmap. */
size_t wp_file_batch_read_small(const char *const *paths, const int *flags, size_t n,
                                wp_mapped_file *out);

/* The same on at most THREADS threads, the calling one among them (1: on
 * the calling thread alone, whose slab then holds the bytes: a thread
 * made for a batch would leave a slab of its own partly used). */
size_t wp_file_batch_read_small_on(const char *const *paths, const int *flags, size_t n,
                                   wp_mapped_file *out, long threads);

/* Where a file's first bytes go when they are kept apart from the rest:
 * HEAD_SIZE(BYTES, SIZE) says how many of a read file's first bytes are
 * its header (0: none). A header of 1 to CAP bytes, shorter than the
 * file, goes to STORE + i * CAP with SIZES[i] its length, and OUT[i] holds
 * only the bytes after it; otherwise SIZES[i] is 0 and OUT[i] the whole
 * file. STORE (N * CAP bytes) and SIZES (N) are the caller's. A header
 * read once and parsed then need not stay in memory beside the bytes. */
typedef struct wp_file_heads {
  size_t (*head_size)(const void *bytes, size_t size);
  size_t cap;
  unsigned char *store;
  size_t *sizes;
} wp_file_heads;

/* wp_file_batch_read_small_on with the headers kept apart as HEADS says. */
size_t wp_file_batch_read_split(const char *const *paths, const int *flags, size_t n,
                                wp_mapped_file *out, long threads, const wp_file_heads *heads);

#endif
