/* printf into a string of the size it needs. */
#ifndef WP_FORMAT_H
#define WP_FORMAT_H

#include <stdarg.h>

/* vasprintf's job in plain C17. Caller frees; NULL when out of memory. */
char *wp_vformat(const char *fmt, va_list ap);
/* printf into a new string (caller frees); aborts when out of memory. */
char *wp_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* S with its control bytes (a newline or escape sequence in a file name)
 * as \xNN, so an error stays one line and cannot drive a terminal. Caller
 * frees; NULL when out of memory. */
char *wp_escape_controls(const char *s);

#endif
