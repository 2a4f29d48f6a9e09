#include "wp_format.h"

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
