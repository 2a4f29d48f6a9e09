#include "wp_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int wp_error_set(wp_error *err, const char *fmt, ...) {
  if (!err)
    return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
  return -1;
}

int wp_error_prefix(wp_error *err, const char *fmt, ...) {
  if (!err)
    return -1;
  char prefix[WP_ERROR_MAX], old[WP_ERROR_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  memcpy(old, err->msg, sizeof old);
  snprintf(err->msg, sizeof err->msg, "%s: %s", prefix, old);
  return -1;
}

int wp_error_errno(wp_error *err, int errnum, const char *fmt, ...) {
  if (!err)
    return -1;
  char head[WP_ERROR_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(head, sizeof head, fmt, ap);
  va_end(ap);
  snprintf(err->msg, sizeof err->msg, "%s: %s", head, strerror(errnum));
  return -1;
}
