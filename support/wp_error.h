/* Error reporting: a status code plus one message buffer, in the style of
 * libarchive's archive_error_string(). Functions that can fail return 0 on
 * success and -1 on failure, having written the message with wp_error_set. */
#ifndef WP_ERROR_H
#define WP_ERROR_H

#include "weightpack/wp_error.h" /* the struct itself is public */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Formats into err->msg (printf style). err may be NULL. Always returns -1 so
 * callers can write `return wp_error_set(err, ...)`. */
int wp_error_set(wp_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Puts "PREFIX: " in front of the message already in err. Returns -1. */
int wp_error_prefix(wp_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Like wp_error_set, with ": strerror(errnum)" appended. Returns -1. */
int wp_error_errno(wp_error *err, int errnum, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Out of memory: the library's policy, as LLVM's report_bad_alloc_error
 * (new code and bookkeeping allocations take it; sizes an input decides
 * are still checked and refused as errors). Writes "LLVM ERROR"-style one line to stderr
 * (write(2), no allocation) and aborts; never returns. */
__attribute__((noreturn)) void wp_out_of_memory(void);

/* malloc/calloc/realloc/strdup that never return NULL: they call
 * wp_out_of_memory instead. */
void *wp_xmalloc(size_t n);
void *wp_xcalloc(size_t count, size_t n);
void *wp_xrealloc(void *p, size_t n);
char *wp_xstrdup(const char *s);

#ifdef __cplusplus
}
#endif

#endif
