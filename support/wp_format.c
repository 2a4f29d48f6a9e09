#include "wp_format.h"

#include "wp_error.h"

#include <stdio.h>
#include <stdlib.h>

char *wp_vformat(const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (s)
    vsnprintf(s, (size_t)n + 1, fmt, again);
  va_end(again);
  return s;
}

char *wp_escape_controls(const char *s) {
  size_t n = 0, controls = 0;
  for (; s[n]; n++)
    controls += (unsigned char)s[n] < 0x20 || s[n] == 0x7f;
  char *out = malloc(n + 3 * controls + 1);
  if (!out)
    return NULL;
  char *o = out;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p < 0x20 || *p == 0x7f)
      o += sprintf(o, "\\x%02x", *p);
    else
      *o++ = (char)*p;
  }
  *o = 0;
  return out;
}

char *wp_format(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = wp_vformat(fmt, ap);
  va_end(ap);
  if (!s)
    wp_out_of_memory();
  return s;
}
