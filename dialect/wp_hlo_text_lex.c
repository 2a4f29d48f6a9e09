/* The HLO text reader's byte-level pieces: blanks, comments, names,
 * numbers, strings, and errors placed at FILE:LINE:COL. */
#include "wp_hlo_text_internal.h"

#include "wp_hlo_text_common.h"
#include "wp_jsonw.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void line_col(const htp *p, size_t at, size_t *line, size_t *col) {
  size_t l = 1, start = 0;
  if (at > p->len)
    at = p->len;
  for (size_t i = 0; i < at; i++)
    if (p->src[i] == '\n') {
      l++;
      start = i + 1;
    }
  *line = l;
  *col = at - start + 1;
}

int wp_htp_fail(htp *p, size_t at, const char *fmt, ...) {
  if (p->failed)
    return -1;
  p->failed = true;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  size_t line, col;
  line_col(p, at, &line, &col);
  return wp_error_set(p->err, "%s:%zu:%zu: %s", p->file, line, col, msg);
}

void wp_htp_warn(htp *p, size_t at, const char *fmt, ...) {
  if (!p->warn)
    return;
  char msg[512], full[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  size_t line, col;
  line_col(p, at, &line, &col);
  snprintf(full, sizeof full, "%s:%zu:%zu: %s", p->file, line, col, msg);
  p->warn(p->user, full);
}

void wp_htp_skip(htp *p) {
  while (p->pos < p->len) {
    char c = p->src[p->pos];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      p->pos++;
    } else if (c == '/' && p->pos + 1 < p->len && p->src[p->pos + 1] == '/') {
      while (p->pos < p->len && p->src[p->pos] != '\n')
        p->pos++;
    } else if (c == '/' && p->pos + 1 < p->len && p->src[p->pos + 1] == '*') {
      size_t start = p->pos;
      p->pos += 2;
      while (p->pos + 1 < p->len && !(p->src[p->pos] == '*' && p->src[p->pos + 1] == '/'))
        p->pos++;
      if (p->pos + 1 >= p->len) {
        p->pos = p->len;
        wp_htp_fail(p, start, "comment not closed");
        return;
      }
      p->pos += 2;
    } else {
      return;
    }
  }
}

int wp_htp_peek(htp *p) {
  wp_htp_skip(p);
  return p->pos < p->len ? (unsigned char)p->src[p->pos] : -1;
}

static bool starts(const htp *p, const char *s) {
  size_t n = strlen(s);
  return p->len - p->pos >= n && memcmp(p->src + p->pos, s, n) == 0;
}

bool wp_htp_accept(htp *p, const char *s) {
  wp_htp_skip(p);
  if (!starts(p, s))
    return false;
  p->pos += strlen(s);
  return true;
}

static bool ident_char(int c) { return isalnum(c) || c == '_' || c == '.' || c == '-'; }

bool wp_htp_accept_word(htp *p, const char *w) {
  wp_htp_skip(p);
  size_t n = strlen(w);
  if (!starts(p, w) || (p->pos + n < p->len && ident_char((unsigned char)p->src[p->pos + n])))
    return false;
  p->pos += n;
  return true;
}

/* What stands at the current position, for "expected X, found Y". */
static void found(const htp *p, char *buf, size_t cap) {
  if (p->pos >= p->len) {
    snprintf(buf, cap, "the end of the file");
    return;
  }
  size_t n = 0;
  while (p->pos + n < p->len && n < 16 && ident_char((unsigned char)p->src[p->pos + n]))
    n++;
  if (n == 0)
    n = 1;
  unsigned char c = (unsigned char)p->src[p->pos];
  if (n == 1 && (c < 0x20 || c >= 0x7f))
    snprintf(buf, cap, "byte 0x%02x", c);
  else
    snprintf(buf, cap, "'%.*s'", (int)n, p->src + p->pos);
}

int wp_htp_expect(htp *p, const char *s) {
  if (wp_htp_accept(p, s))
    return 0;
  if (p->failed)
    return -1;
  char what[48];
  found(p, what, sizeof what);
  return wp_htp_fail(p, p->pos, "expected '%s', found %s", s, what);
}

size_t wp_htp_ident(htp *p, const char **s) {
  wp_htp_skip(p);
  size_t i = p->pos;
  if (i >= p->len || !(isalpha((unsigned char)p->src[i]) || p->src[i] == '_'))
    return 0;
  while (i < p->len && ident_char((unsigned char)p->src[i]) &&
         !(p->src[i] == '-' && i + 1 < p->len && p->src[i + 1] == '>'))
    i++;
  *s = p->src + p->pos;
  size_t n = i - p->pos;
  p->pos = i;
  return n;
}

int wp_htp_name(htp *p, char **out) {
  wp_htp_skip(p);
  bool percent = wp_htp_accept(p, "%");
  if (p->pos < p->len && p->src[p->pos] == '"')
    return wp_htp_string(p, out, NULL, false);
  size_t i = p->pos;
  if (percent) { /* after '%' a name may start with a digit too */
    while (i < p->len && ident_char((unsigned char)p->src[i]) &&
           !(p->src[i] == '-' && i + 1 < p->len && p->src[i + 1] == '>'))
      i++;
  } else {
    size_t begin = p->pos;
    const char *s;
    i = begin + wp_htp_ident(p, &s);
    p->pos = begin; /* wp_htp_ident consumed it: read it below */
  }
  if (i == p->pos) {
    char what[48];
    found(p, what, sizeof what);
    return wp_htp_fail(p, p->pos, "expected a name, found %s", what);
  }
  *out = wp_arena_strndup(p->arena, p->src + p->pos, i - p->pos);
  p->pos = i;
  return 0;
}

int wp_htp_uint(htp *p, uint64_t *v) {
  wp_htp_skip(p);
  size_t start = p->pos, i = p->pos;
  if (i < p->len && p->src[i] == '+')
    i++;
  uint64_t x = 0;
  size_t digits = 0;
  for (; i < p->len && isdigit((unsigned char)p->src[i]); i++, digits++) {
    unsigned d = (unsigned)(p->src[i] - '0');
    if (x > (UINT64_MAX - d) / 10)
      return wp_htp_fail(p, start, "integer too large");
    x = x * 10 + d;
  }
  if (!digits) {
    char what[48];
    found(p, what, sizeof what);
    return wp_htp_fail(p, start, "expected an integer, found %s", what);
  }
  p->pos = i;
  *v = x;
  return 0;
}

int wp_htp_int(htp *p, int64_t *v) {
  wp_htp_skip(p);
  size_t start = p->pos;
  bool neg = p->pos < p->len && p->src[p->pos] == '-';
  if (neg)
    p->pos++;
  uint64_t x;
  if (p->pos < p->len && p->src[p->pos] == '+') /* "-+1" is no number */
    return wp_htp_fail(p, start, "expected an integer");
  if (wp_htp_uint(p, &x))
    return -1;
  if (x > (uint64_t)INT64_MAX + (neg ? 1 : 0))
    return wp_htp_fail(p, start, "integer out of the range of s64");
  *v = neg ? (int64_t)(0 - x) : (int64_t)x;
  return 0;
}

int wp_htp_int32(htp *p, int32_t *v) {
  int64_t x;
  wp_htp_skip(p);
  size_t at = p->pos;
  if (wp_htp_int(p, &x))
    return -1;
  if (x < INT32_MIN || x > INT32_MAX)
    return wp_htp_fail(p, at, "value out of the range of int32");
  *v = (int32_t)x;
  return 0;
}

int wp_htp_bool(htp *p, bool *v) {
  if (wp_htp_accept_word(p, "true")) {
    *v = true;
    return 0;
  }
  if (wp_htp_accept_word(p, "false")) {
    *v = false;
    return 0;
  }
  char what[48];
  found(p, what, sizeof what);
  return wp_htp_fail(p, p->pos, "expected true or false, found %s", what);
}

void *wp_htp_grow(htp *p, void *arr, size_t n, size_t *cap, size_t elem) {
  size_t nc = *cap ? *cap * 2 : 4;
  void *na = wp_arena_alloc(p->arena, nc * elem);
  if (n)
    memcpy(na, arr, n * elem);
  *cap = nc;
  return na;
}

int wp_htp_list(htp *p, const char *start, const char *end, const char *delim,
                unsigned flags, wp_htp_item_fn item, void *ctx) {
  if (start && wp_htp_expect(p, start))
    return -1;
  if (end && !(flags & WP_HTP_NONEMPTY) && wp_htp_accept(p, end))
    return 0;
  do {
    if (item(p, ctx))
      return -1;
  } while (wp_htp_accept(p, delim));
  return end ? wp_htp_expect(p, end) : 0;
}

void wp_htp_vec_push(htp *p, wp_htp_vec *v, const void *val) {
  if (*v->n == v->cap)
    *v->arr = wp_htp_grow(p, *v->arr, *v->n, &v->cap, v->elem);
  memcpy((char *)*v->arr + *v->n * v->elem, val, v->elem);
  ++*v->n;
}

int wp_htp_sub_attributes(htp *p, const char *what, const char *const *keys,
                          wp_htp_key_fn fn, void *ctx, uint64_t *seen) {
  uint64_t got = 0;
  if (wp_htp_expect(p, "{"))
    return -1;
  while (!wp_htp_accept(p, "}")) {
    wp_htp_accept(p, ","); /* XLA allows a comma before each one */
    wp_htp_skip(p);
    size_t at = p->pos, k;
    const char *w;
    size_t n = wp_htp_ident(p, &w);
    if (!n)
      return p->failed ? -1 : wp_htp_expect(p, "}");
    for (k = 0; keys[k]; k++)
      if (strlen(keys[k]) == n && !memcmp(keys[k], w, n))
        break;
    if (!keys[k] || k >= 64)
      return wp_htp_fail(p, at, "unknown %s part '%.*s'", what, (int)n, w);
    if (got & (UINT64_C(1) << k))
      return wp_htp_fail(p, at, "%s part '%s' given twice", what, keys[k]);
    got |= UINT64_C(1) << k;
    if (wp_htp_expect(p, "=") || fn(p, ctx, k, at))
      return -1;
  }
  if (seen)
    *seen = got;
  return 0;
}

static int int_item(htp *p, void *ctx) {
  int64_t x;
  if (wp_htp_int(p, &x))
    return -1;
  wp_htp_vec_push(p, ctx, &x);
  return 0;
}

int wp_htp_ints(htp *p, const char *start, const char *end, const char *delim,
                unsigned flags, int64_t **v, size_t *n) {
  *v = NULL;
  *n = 0;
  wp_htp_vec vec = {(void **)v, n, 0, sizeof **v};
  return wp_htp_list(p, start, end, delim, flags, int_item, &vec);
}

int wp_htp_int_list(htp *p, int64_t **v, size_t *n) {
  return wp_htp_ints(p, "{", "}", ",", 0, v, n);
}

int wp_htp_int_list_at(htp *p, int64_t **v, size_t *n, size_t *at) {
  wp_htp_skip(p);
  *at = p->pos;
  return wp_htp_int_list(p, v, n);
}

static int hex_digit(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int wp_htp_string(htp *p, char **out, size_t *n_out, bool any_bytes) {
  wp_htp_skip(p);
  size_t start = p->pos;
  if (p->pos >= p->len || p->src[p->pos] != '"') {
    char what[48];
    found(p, what, sizeof what);
    return wp_htp_fail(p, p->pos, "expected a string, found %s", what);
  }
  size_t i = p->pos + 1, cap = 0;
  /* the decoded string is never longer than its text */
  while (i < p->len && p->src[i] != '"') {
    if (p->src[i] == '\\')
      i++;
    if (i < p->len && p->src[i] == '\n')
      return wp_htp_fail(p, start, "string not closed on its line");
    i++;
  }
  if (i >= p->len)
    return wp_htp_fail(p, start, "string not closed");
  cap = i - p->pos;
  char *s = wp_arena_alloc(p->arena, cap + 1);
  size_t n = 0;
  for (size_t k = p->pos + 1; k < i;) {
    char c = p->src[k++];
    if (c != '\\') {
      s[n++] = c;
      continue;
    }
    size_t esc = k - 1;
    c = p->src[k++];
    switch (c) {
    case 'n': s[n++] = '\n'; break;
    case 't': s[n++] = '\t'; break;
    case 'r': s[n++] = '\r'; break;
    case 'a': s[n++] = '\a'; break;
    case 'b': s[n++] = '\b'; break;
    case 'f': s[n++] = '\f'; break;
    case 'v': s[n++] = '\v'; break;
    case '\\': case '"': case '\'': case '?': s[n++] = c; break;
    case 'x': {
      int v = 0, digits = 0;
      while (k < i && digits < 2 && hex_digit((unsigned char)p->src[k]) >= 0)
        v = v * 16 + hex_digit((unsigned char)p->src[k++]), digits++;
      if (!digits)
        return wp_htp_fail(p, esc, "\\x without hex digits");
      s[n++] = (char)v;
      break;
    }
    default:
      if (c >= '0' && c <= '7') {
        int v = c - '0', digits = 1;
        while (k < i && digits < 3 && p->src[k] >= '0' && p->src[k] <= '7')
          v = v * 8 + (p->src[k++] - '0'), digits++;
        if (v > 255)
          return wp_htp_fail(p, esc, "octal escape above \\377");
        s[n++] = (char)v;
        break;
      }
      return wp_htp_fail(p, esc, "unknown escape '\\%c'", c);
    }
  }
  s[n] = 0;
  if (!any_bytes) {
    if (memchr(s, 0, n))
      return wp_htp_fail(p, start, "string holds a NUL byte");
    if (!wp_utf8_valid(s, n))
      return wp_htp_fail(p, start, "string is not UTF-8");
  }
  p->pos = i + 1;
  *out = s;
  if (n_out)
    *n_out = n;
  return 0;
}

int wp_htp_number(htp *p, char *buf, size_t cap) {
  wp_htp_skip(p);
  size_t start = p->pos, i = p->pos;
  /* sign, digits, '.', exponent with its sign, letters of inf/nan/hex,
   * and a NaN payload in parentheses */
  if (i < p->len && (p->src[i] == '-' || p->src[i] == '+'))
    i++;
  bool hex = p->len - i >= 2 && p->src[i] == '0' && (p->src[i + 1] == 'x' || p->src[i + 1] == 'X');
  while (i < p->len) {
    char c = p->src[i], prev = i > start ? p->src[i - 1] : 0;
    if (isalnum((unsigned char)c) || c == '.') {
      i++;
    } else if ((c == '-' || c == '+') &&
               (hex ? (prev == 'p' || prev == 'P') : (prev == 'e' || prev == 'E'))) {
      i++;
    } else if (c == '(' && i - start >= 3 && !memcmp(p->src + i - 3, "nan", 3)) {
      while (i < p->len && p->src[i] != ')' && i - start < cap)
        i++;
      if (i < p->len && p->src[i] == ')')
        i++;
      break;
    } else {
      break;
    }
  }
  if (i == start || (i == start + 1 && (p->src[start] == '-' || p->src[start] == '+'))) {
    char what[48];
    found(p, what, sizeof what);
    return wp_htp_fail(p, start, "expected a number, found %s", what);
  }
  if (i - start >= cap)
    return wp_htp_fail(p, start, "number too long");
  memcpy(buf, p->src + start, i - start);
  buf[i - start] = 0;
  p->pos = i;
  return 0;
}

int wp_htp_json(htp *p, char **out, size_t *n) {
  wp_htp_skip(p);
  size_t start = p->pos, i = p->pos;
  long depth = 0;
  bool in_string = false;
  for (; i < p->len; i++) {
    char c = p->src[i];
    if (in_string) {
      if (c == '\\')
        i++;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '{' || c == '[')
      depth++;
    else if (c == '}' || c == ']') {
      if (--depth == 0)
        break;
    }
  }
  if (i >= p->len)
    return wp_htp_fail(p, start, "JSON object not closed");
  *n = i + 1 - start;
  *out = wp_arena_strndup(p->arena, p->src + start, *n);
  if (memchr(p->src + start, 0, *n) || !wp_utf8_valid(*out, *n))
    return wp_htp_fail(p, start, "JSON object holds a NUL byte or is not UTF-8");
  p->pos = i + 1;
  return 0;
}
