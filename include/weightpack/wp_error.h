/* The error buffer of weightpack's C API: functions that can fail return 0
 * on success and -1 on failure, with a NUL-terminated message in the
 * caller's wp_error (in the style of libarchive's archive_error_string()).
 * Every function that takes a wp_error * accepts NULL. */
#ifndef WEIGHTPACK_WP_ERROR_H
#define WEIGHTPACK_WP_ERROR_H

#define WP_ERROR_MAX 4096

typedef struct wp_error {
  char msg[WP_ERROR_MAX];
} wp_error;

#endif
