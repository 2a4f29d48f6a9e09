#include "wp_error.h"

#include "wp_format.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>

/* A message longer than the buffer loses its middle, not its end: the end
 * holds the cause (strerror, the failing parameter) and the start the
 * context; both matter more than the middle of a long path. Cuts fall on
 * UTF-8 character boundaries. */
static void store_line(wp_error *err, const char *s) {
  size_t n = strlen(s), cap = sizeof err->msg;
  if (n < cap) {
    memcpy(err->msg, s, n + 1);
    return;
  }
  static const char gap[] = " [...] ";
  size_t head = (cap - sizeof gap) / 2, tail = cap - sizeof gap - head;
  while (head > 0 && ((unsigned char)s[head] & 0xC0) == 0x80)
    head--;
  const char *t = s + n - tail;
  while (*t && ((unsigned char)*t & 0xC0) == 0x80)
    t++;
  memcpy(err->msg, s, head);
  memcpy(err->msg + head, gap, sizeof gap - 1);
  memcpy(err->msg + head + sizeof gap - 1, t, strlen(t) + 1);
}

/* An error is one line: control bytes in what it quotes are escaped. */
static void store(wp_error *err, const char *s) {
  char *line = wp_escape_controls(s);
  store_line(err, line ? line : s);
  free(line);
}

/* Sets ERR to "A: B" (B alone when A is NULL). */
static void store_pair(wp_error *err, const char *a, const char *b) {
  size_t na = a ? strlen(a) : 0, nb = strlen(b);
  char *s = malloc(na + nb + 3);
  if (!s) { /* keep what fits */
    snprintf(err->msg, sizeof err->msg, "%s%s%s", a ? a : "", a ? ": " : "", b);
    return;
  }
  if (a) {
    memcpy(s, a, na);
    memcpy(s + na, ": ", 2);
    na += 2;
  }
  memcpy(s + na, b, nb + 1);
  store(err, s);
  free(s);
}

int wp_error_set(wp_error *err, const char *fmt, ...) {
  if (!err)
    return -1;
  va_list ap;
  va_start(ap, fmt);
  char *s = wp_vformat(fmt, ap);
  va_end(ap);
  if (s) {
    store(err, s);
    free(s);
  } else {
    snprintf(err->msg, sizeof err->msg, "out of memory (while reporting an error)");
  }
  return -1;
}

int wp_error_prefix(wp_error *err, const char *fmt, ...) {
  if (!err)
    return -1;
  va_list ap;
  va_start(ap, fmt);
  char *prefix = wp_vformat(fmt, ap);
  va_end(ap);
  char *old = strdup(err->msg);
  if (prefix && old)
    store_pair(err, prefix, old);
  free(prefix);
  free(old);
  return -1;
}

int wp_error_errno(wp_error *err, int errnum, const char *fmt, ...) {
  if (!err)
    return -1;
  va_list ap;
  va_start(ap, fmt);
  char *head = wp_vformat(fmt, ap);
  va_end(ap);
  store_pair(err, head ? head : "", strerror(errnum));
  free(head);
  return -1;
}

void wp_out_of_memory(void) {
  static const char msg[] = "weightpack: error: out of memory\n";
  ssize_t ignored = write(2, msg, sizeof msg - 1);
  (void)ignored;
  abort();
}

void *wp_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    wp_out_of_memory();
  return p;
}

void *wp_xcalloc(size_t count, size_t n) {
  void *p = calloc(count ? count : 1, n ? n : 1);
  if (!p)
    wp_out_of_memory();
  return p;
}

void *wp_xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q)
    wp_out_of_memory();
  return q;
}

char *wp_xstrdup(const char *s) {
  char *d = strdup(s);
  if (!d)
    wp_out_of_memory();
  return d;
}

unsigned long long wp_input_limit(void) {
  unsigned long long most = SIZE_MAX / 2, limit = most;
#ifdef WP_TESTING
  const char *test = getenv("WP_TEST_INPUT_LIMIT");
  if (test && *test)
    return strtoull(test, NULL, 10);
#endif
  struct sysinfo si;
  if (sysinfo(&si) == 0 && si.mem_unit) {
    unsigned long long units = (unsigned long long)si.totalram + si.totalswap;
    limit = units <= most / si.mem_unit ? units * si.mem_unit : most;
  }
  return limit;
}

int wp_input_size_check(unsigned long long bytes, const char *what, wp_error *err) {
  unsigned long long limit = wp_input_limit();
  if (bytes <= limit)
    return 0;
  return wp_error_set(err, "%s of %llu bytes is over the limit of %llu bytes (RAM plus swap)",
                      what, bytes, limit);
}
