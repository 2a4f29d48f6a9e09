/* Which file a mapped address belongs to, for a SIGBUS handler: a read of
 * a mapped page past the end of a file that shrank raises SIGBUS, and the
 * error should name the file rather than end in a bare "Bus error". */
#ifndef WP_MAPREG_H
#define WP_MAPREG_H

#include <stddef.h>

/* Records (BASE, SIZE) as a mapping of PATH (copied; a long path keeps its
 * end). Best effort: past a fixed number of live mappings it records
 * nothing (the table holds 4096). */
void wp_mapreg_add(const void *base, size_t size, const char *path);
/* Forgets the mapping at BASE, if recorded. */
void wp_mapreg_remove(const void *base);
/* Copies the path of the recorded mapping holding ADDR into OUT (CAP
 * bytes, not NUL-terminated) and returns its length; 0 when none.
 * Async-signal-safe. */
size_t wp_mapreg_path_at(const void *addr, char *out, size_t cap);

#endif
