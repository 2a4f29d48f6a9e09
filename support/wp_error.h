/* Error reporting: a status code plus one message buffer, in the style of
 * libarchive's archive_error_string(). Functions that can fail return 0 on
 * success and -1 on failure, having written the message with wp_error_set. */
#ifndef WP_ERROR_H
#define WP_ERROR_H

#include "weightpack/wp_error.h" /* the struct itself is public */

#include <stddef.h>

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

#endif
