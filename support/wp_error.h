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

/* Out of memory for the program's own bookkeeping, as LLVM's
 * report_bad_alloc_error: writes one line to stderr (write(2), no
 * allocation) and aborts; never returns. Sizes an input decides are
 * checked first (wp_input_size_check) and refused as errors; see
 * docs/layout.md, "Errors". */
__attribute__((noreturn)) void wp_out_of_memory(void);

/* malloc/calloc/realloc/strdup that never return NULL: they call
 * wp_out_of_memory instead. */
void *wp_xmalloc(size_t n);
void *wp_xcalloc(size_t count, size_t n);
void *wp_xrealloc(void *p, size_t n);
char *wp_xstrdup(const char *s);

/* The most bytes one allocation whose size an input decides (a tensor's
 * bytes, a stream's length) may ask for: the machine's RAM plus swap, as
 * Linux's overcommit heuristic grants no more, and at most SIZE_MAX / 2.
 * WP_TEST_INPUT_LIMIT sets it in test builds (WP_TESTING). */
unsigned long long wp_input_limit(void);

/* 0 when BYTES, the size of WHAT that an input decides, is within
 * wp_input_limit(); else -1 with "WHAT of N bytes is over the limit of L
 * bytes (RAM plus swap)" in ERR. Call it before allocating. */
int wp_input_size_check(unsigned long long bytes, const char *what, wp_error *err);

#ifdef __cplusplus
}
#endif

#endif
