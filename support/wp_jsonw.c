#include "wp_jsonw.h"

#include "wp_md5.h"

#include <errno.h>
#include <jansson.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool spill_open(wp_jsonw_spill *s) {
  if (s->fd >= 0 || s->failed)
    return s->fd >= 0;
  const char *dir = getenv("TMPDIR");
  dir = dir && *dir ? dir : "/tmp";
  /* nameless: gone when the process is, however it ends (even killed
   * between creating and unlinking a named one) */
  int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) { /* a file system without O_TMPFILE */
    char path[4096];
    snprintf(path, sizeof path, "%s/wp-text-XXXXXX", dir);
    fd = mkostemp(path, O_CLOEXEC);
    if (fd < 0) {
      s->failed = true;
      return false;
    }
    unlink(path);
  }
  /* the archive writer opens members by name */
  snprintf(s->path, sizeof s->path, "/proc/self/fd/%d", fd);
  int probe = open(s->path, O_RDONLY | O_CLOEXEC);
  if (probe < 0) {
    close(fd);
    s->failed = true;
    return false;
  }
  close(probe);
  s->fd = fd;
  return true;
}

void wp_jsonw_spill_close(wp_jsonw_spill *s) {
  if (s->fd >= 0)
    close(s->fd);
  s->fd = -1;
}

/* A spill write failed (a full TMPDIR): the text goes on in memory, its
 * part already in the file read back in front of the buffer, and no text
 * spills any more. */
static void take_back(wp_jsonw *w) {
  int e = errno;
  w->spill->failed = true;
  size_t back = (size_t)w->spill_len, total = back + w->len;
  char *q = w->spill_len == (uint64_t)back ? malloc(total + 1) : NULL;
  bool ok = q != NULL;
  for (size_t done = 0; ok && done < back;) {
    ssize_t r = pread(w->spill->fd, q + done, back - done, (off_t)(w->spill_at + done));
    if (r < 0 && errno == EINTR)
      continue;
    ok = r > 0;
    done += ok ? (size_t)r : 0;
  }
  if (!ok) {
    free(q);
    w->write_errno = e ? e : EIO;
    w->oom = true;
    return;
  }
  memcpy(q + back, w->p, w->len);
  free(w->p);
  w->p = q;
  w->len = total;
  w->cap = total + 1;
  w->spill = NULL;
  w->spilled = false;
  w->spill_len = 0;
}

/* Moves the buffered text to the end of the spill file. */
static void spill_out(wp_jsonw *w) {
  if (!w->spilled) {
    w->spilled = true;
    w->spill_at = w->spill->end;
  }
  for (size_t done = 0; done < w->len;) {
    ssize_t n = pwrite(w->spill->fd, w->p + done, w->len - done,
                       (off_t)(w->spill->end + done));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      take_back(w);
      return;
    }
    done += (size_t)n;
  }
  if (w->md5)
    wp_md5_update(w->md5, w->p, w->len);
  w->spill->end += w->len;
  w->spill_len += w->len;
  w->len = 0;
  if (w->on_spill)
    w->on_spill(w->on_spill_user, w->spill->fd, w->spill_at, w->spill_len);
}

void wp_jsonw_raw(wp_jsonw *w, const char *s, size_t n) {
  if (w->oom || n == 0)
    return;
  if (w->spill && w->len + n > WP_JSONW_SPILL_AT && w->len && spill_open(w->spill)) {
    spill_out(w);
    if (w->oom)
      return;
  }
  if (w->len + n + 1 > w->cap) {
    size_t cap = (w->len + n + 1) * 2;
    char *q = realloc(w->p, cap);
    if (!q) {
      w->oom = true;
      return;
    }
    w->p = q;
    w->cap = cap;
  }
  memcpy(w->p + w->len, s, n);
  w->len += n;
}

int wp_jsonw_finish(wp_jsonw *w, uint64_t *size) {
  if (!w->oom && w->spilled && w->len)
    spill_out(w);
  if (w->oom)
    return -1;
  *size = w->spilled ? w->spill_len : w->len;
  if (w->spilled) {
    free(w->p);
    w->p = NULL;
    w->len = w->cap = 0;
    return 1;
  }
  return 0;
}

void wp_jsonw_lit(wp_jsonw *w, const char *s) { wp_jsonw_raw(w, s, strlen(s)); }

/* Length of the valid UTF-8 sequence at S (at most N bytes), or 0. The
 * rules jansson checks: no overlong forms, no surrogates, <= U+10FFFF. */
static size_t utf8_len(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
  if (!len || len > n)
    return 0;
  uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80)
      return 0;
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
      cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return len;
}

bool wp_utf8_valid(const char *str, size_t n) {
  const unsigned char *s = (const unsigned char *)str;
  for (size_t i = 0, len; i < n; i += len)
    if (!(len = utf8_len(s + i, n - i)))
      return false;
  return true;
}

void wp_jsonw_str(wp_jsonw *w, const char *str) {
  const unsigned char *s = (const unsigned char *)str;
  size_t n = strlen(str), run = 0;
  wp_jsonw_raw(w, "\"", 1);
  for (size_t i = 0; i < n;) {
    unsigned c = s[i];
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') { /* plain ASCII, the usual */
      i++;
      run++;
      continue;
    }
    size_t len = c >= 0x20 && c != '"' && c != '\\' ? utf8_len(s + i, n - i) : 1;
    if (len && c >= 0x20 && c != '"' && c != '\\') {
      i += len;
      run += len;
      continue;
    }
    wp_jsonw_raw(w, (const char *)s + i - run, run); /* the plain bytes before */
    run = 0;
    char esc[8];
    const char *e = esc;
    switch (c) {
    case '"': e = "\\\""; break;
    case '\\': e = "\\\\"; break;
    case '\b': e = "\\b"; break;
    case '\f': e = "\\f"; break;
    case '\n': e = "\\n"; break;
    case '\r': e = "\\r"; break;
    case '\t': e = "\\t"; break;
    default:
      if (c < 0x20)
        snprintf(esc, sizeof esc, "\\u%04X", c);
      else
        e = "\xef\xbf\xbd"; /* not UTF-8: U+FFFD */
    }
    wp_jsonw_lit(w, e);
    i++;
  }
  wp_jsonw_raw(w, (const char *)s + n - run, run);
  wp_jsonw_raw(w, "\"", 1);
}

void wp_jsonw_int(wp_jsonw *w, long long v) {
  /* by hand: a million numbers through snprintf were a tenth of a second */
  char buf[24];
  char *end = buf + sizeof buf, *p = end;
  unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
  do {
    *--p = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0)
    *--p = '-';
  wp_jsonw_raw(w, p, (size_t)(end - p));
}

void wp_jsonw_bool(wp_jsonw *w, bool v) { wp_jsonw_lit(w, v ? "true" : "false"); }

void wp_jsonw_int_list(wp_jsonw *w, const int64_t *v, size_t n) {
  wp_jsonw_raw(w, "[", 1);
  for (size_t i = 0; i < n; i++) {
    if (i)
      wp_jsonw_raw(w, ", ", 2);
    wp_jsonw_int(w, (long long)v[i]);
  }
  wp_jsonw_raw(w, "]", 1);
}

void wp_jsonw_key(wp_jsonw *w, bool first, const char *key) {
  /* one append for the usual short key: a def.json of 100,000 tensors has
   * a million of them */
  char buf[64];
  size_t n = strlen(key), k = 0;
  if (n + 6 > sizeof buf) {
    if (!first)
      wp_jsonw_raw(w, ", ", 2);
    wp_jsonw_raw(w, "\"", 1);
    wp_jsonw_raw(w, key, n);
    wp_jsonw_raw(w, "\": ", 3);
    return;
  }
  if (!first)
    buf[k++] = ',', buf[k++] = ' ';
  buf[k++] = '"';
  memcpy(buf + k, key, n);
  k += n;
  buf[k++] = '"', buf[k++] = ':', buf[k++] = ' ';
  wp_jsonw_raw(w, buf, k);
}

static void one_line(wp_jsonw *t, const json_t *j) {
  char *one = json_dumps(j, JSON_ENCODE_ANY | JSON_PRESERVE_ORDER); /* one line */
  if (!one) {
    t->oom = true;
    return;
  }
  wp_jsonw_raw(t, one, strlen(one));
  free(one);
}

void wp_jsonw_indent(wp_jsonw *w, int depth) {
  static const char spaces[] = "                                ";
  wp_jsonw_raw(w, spaces, (size_t)depth < sizeof spaces ? (size_t)depth : 0);
}

/* JSON with its outer levels (down to EXPAND) one item per line and
 * everything deeper on that item's line: a BIR module with 100,000 tensors
 * is 200,000 short lines instead of millions of indented ones. */
void wp_jsonw_json_lines(wp_jsonw *t, const json_t *j, int depth, int expand) {
  bool obj = json_is_object(j);
  if (depth >= expand || (!obj && !json_is_array(j)) ||
      (obj ? json_object_size(j) : json_array_size(j)) == 0) {
    one_line(t, j);
    return;
  }
  wp_jsonw_raw(t, obj ? "{" : "[", 1);
  size_t i = 0, n = obj ? json_object_size(j) : json_array_size(j);
  const char *key;
  const json_t *v;
  void *it = obj ? json_object_iter((json_t *)j) : NULL;
  for (; i < n; i++) {
    wp_jsonw_raw(t, i ? ",\n" : "\n", i ? 2 : 1);
    wp_jsonw_indent(t, depth + 1);
    if (obj) {
      key = json_object_iter_key(it);
      v = json_object_iter_value(it);
      json_t *k = json_string(key);
      one_line(t, k);
      json_decref(k);
      wp_jsonw_raw(t, ": ", 2);
      it = json_object_iter_next((json_t *)j, it);
    } else {
      v = json_array_get(j, i);
    }
    wp_jsonw_json_lines(t, v, depth + 1, expand);
  }
  wp_jsonw_raw(t, "\n", 1);
  wp_jsonw_indent(t, depth);
  wp_jsonw_raw(t, obj ? "}" : "]", 1);
}

void wp_jsonw_int_field(wp_jsonw *w, const char *key, long long v) {
  wp_jsonw_key(w, false, key);
  wp_jsonw_int(w, v);
}

void wp_jsonw_str_field(wp_jsonw *w, const char *key, const char *v) {
  wp_jsonw_key(w, false, key);
  wp_jsonw_str(w, v);
}
