#include "wp_npy.h"

#include "wp_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- a tiny reader for the header's dict literal ---- */

typedef struct cursor {
  const char *p, *end;
  bool longs; /* Python 2 'L' suffixes allowed (versions 1.0 and 2.0) */
} cursor;

static void skip_ws(cursor *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    c->p++;
}

static int eat(cursor *c, char ch) {
  skip_ws(c);
  if (c->p < c->end && *c->p == ch) {
    c->p++;
    return 1;
  }
  return 0;
}

/* A quoted string into buf (no escapes: numpy never writes them here). */
static int read_str(cursor *c, char *buf, size_t size) {
  skip_ws(c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
    return -1;
  char q = *c->p++;
  size_t n = 0;
  while (c->p < c->end && *c->p != q) {
    /* the keys and dtype names numpy writes are printable ASCII: a NUL,
     * a control or a non-ASCII byte is no header numpy would read */
    unsigned char ch = (unsigned char)*c->p;
    if (ch == '\\' || ch < 0x20 || ch >= 0x7f || n + 1 >= size)
      return -1;
    buf[n++] = *c->p++;
  }
  if (c->p >= c->end)
    return -1;
  c->p++;
  buf[n] = 0;
  return 0;
}

static int read_word(cursor *c, const char *w) {
  skip_ws(c);
  size_t n = strlen(w);
  if ((size_t)(c->end - c->p) >= n && memcmp(c->p, w, n) == 0) {
    c->p += n;
    return 1;
  }
  return 0;
}

static int read_shape(cursor *c, wp_npy_info *out, wp_error *err) {
  if (!eat(c, '('))
    return wp_error_set(err, "malformed header: 'shape' is not a tuple");
  out->ndim = 0;
  for (;;) {
    if (eat(c, ')'))
      return 0;
    skip_ws(c);
    if (c->p >= c->end || *c->p < '0' || *c->p > '9')
      return wp_error_set(err, "malformed header: bad dimension in 'shape'");
    uint64_t v = 0;
    /* "04" is no Python 3 integer (numpy refuses the header) and was octal
     * in Python 2: taking it as 4 would guess. "0" and "00" are zero in
     * both. */
    const char *digits = c->p;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
      if (v > (uint64_t)INT64_MAX / 10)
        return wp_error_set(err, "dimension in 'shape' overflows 64 bits");
      v = v * 10 + (uint64_t)(*c->p++ - '0');
      if (v > (uint64_t)INT64_MAX)
        return wp_error_set(err, "dimension in 'shape' overflows 64 bits");
    }
    if (digits[0] == '0' && v != 0)
      return wp_error_set(err, "malformed header: dimension '%.*s' in 'shape' has a leading "
                          "zero (no Python 3 integer; octal in Python 2)",
                          (int)(c->p - digits), digits);
    if (c->p < c->end && *c->p == 'L') { /* Python 2 long */
      /* numpy drops them only from 1.0 and 2.0 headers; 3.0 came after
       * Python 2, and numpy refuses a 3.0 header that has one */
      if (!c->longs)
        return wp_error_set(err, "malformed header: Python 2 long '%.*sL' in 'shape' of a "
                            "version 3.0 header", (int)(c->p - digits), digits);
      c->p++;
    }
    if (out->ndim == WP_NPY_MAX_DIMS)
      return wp_error_set(err, "more than %d dimensions", WP_NPY_MAX_DIMS);
    out->shape[out->ndim++] = (int64_t)v;
    if (eat(c, ','))
      continue;
    /* "(6)" is the number 6 in Python, not a tuple: numpy refuses it */
    if (eat(c, ')'))
      return out->ndim > 1 ? 0
                           : wp_error_set(err, "malformed header: 'shape' is not a tuple "
                                               "(one dimension is written (N,))");
    return wp_error_set(err, "malformed header: bad 'shape' tuple");
  }
}

static int parse_descr(const char *d, wp_npy_info *out, wp_error *err) {
  snprintf(out->descr, sizeof out->descr, "%s", d);
  /* numpy writes the byte order; without one ("f4", as some writers put
   * it), numpy reads the machine's own, as here. */
  bool no_order = d[0] >= 'A' && d[0] <= 'z';
  char order = no_order ? '=' : d[0];
  if (order != '<' && order != '>' && order != '|' && order != '=')
    return wp_error_set(err, "unsupported dtype '%s'", d);
  const char *rest = no_order ? d : d + 1; /* the kind, then the size */
  char kind = rest[0];
  /* a byte order alone ('<'): no kind, and the size would be read past
   * the string's end */
  if (!kind)
    return wp_error_set(err, "unsupported dtype '%s'", d);
  if (kind == 'O')
    return wp_error_set(err, "object arrays (dtype '%s') hold pickles and are refused", d);
  int size = 0;
  const char *p = rest + 1;
  if (!*p)
    return wp_error_set(err, "unsupported dtype '%s'", d);
  for (; *p; p++) {
    if (*p < '0' || *p > '9' || size > 1000)
      return wp_error_set(err, "unsupported dtype '%s'", d);
    size = size * 10 + (*p - '0');
  }
  int ok = 0;
  switch (kind) {
  case 'b': ok = size == 1; break;
  case 'i': case 'u': ok = size == 1 || size == 2 || size == 4 || size == 8; break;
  case 'f': ok = size == 1 || size == 2 || size == 4 || size == 8; break;
  case 'c': ok = size == 8 || size == 16; break;
  case 'V': ok = size == 1 || size == 2; break;
  }
  if (!ok)
    return wp_error_set(err, "unsupported dtype '%s'", d);
  out->kind = kind;
  out->itemsize = size;
  /* Byte order only matters for multi-byte numbers; raw void is bytes. */
  out->big_endian = order == '>' && size > 1 && kind != 'V';
  return 0;
}

static int parse_dict(cursor *c, wp_npy_info *out, wp_error *err) {
  int seen_descr = 0, seen_fortran = 0, seen_shape = 0;
  if (!eat(c, '{'))
    return wp_error_set(err, "malformed header: not a dict");
  for (;;) {
    if (eat(c, '}'))
      break;
    char key[32];
    if (read_str(c, key, sizeof key))
      return wp_error_set(err, "malformed header: expected a quoted key");
    if (!eat(c, ':'))
      return wp_error_set(err, "malformed header: expected ':' after '%s'", key);
    if (strcmp(key, "descr") == 0) {
      char d[16];
      skip_ws(c);
      if (c->p < c->end && *c->p == '[')
        return wp_error_set(err, "structured dtypes are not supported");
      if (seen_descr++)
        return wp_error_set(err, "malformed header: 'descr' twice");
      if (read_str(c, d, sizeof d))
        return wp_error_set(err, "malformed header: bad 'descr'");
      if (parse_descr(d, out, err))
        return -1;
    } else if (strcmp(key, "fortran_order") == 0) {
      if (seen_fortran++)
        return wp_error_set(err, "malformed header: 'fortran_order' twice");
      if (read_word(c, "True"))
        out->fortran_order = 1;
      else if (read_word(c, "False"))
        out->fortran_order = 0;
      else
        return wp_error_set(err, "malformed header: 'fortran_order' is not True or False");
    } else if (strcmp(key, "shape") == 0) {
      if (seen_shape++)
        return wp_error_set(err, "malformed header: 'shape' twice");
      if (read_shape(c, out, err))
        return -1;
    } else {
      return wp_error_set(err, "malformed header: unexpected key '%s'", key);
    }
    if (eat(c, ','))
      continue;
    if (eat(c, '}'))
      break;
    return wp_error_set(err, "malformed header: expected ',' or '}'");
  }
  if (!seen_descr || !seen_fortran || !seen_shape)
    return wp_error_set(err, "malformed header: missing '%s'",
                        !seen_descr ? "descr" : !seen_fortran ? "fortran_order" : "shape");
  skip_ws(c);
  if (c->p != c->end)
    return wp_error_set(err, "malformed header: text after the dict");
  return 0;
}

int wp_npy_parse(const void *data, size_t len, uint64_t file_size, wp_npy_info *out,
                 wp_error *err) {
  const unsigned char *b = data;
  memset(out, 0, sizeof *out);
  if (len < 6 || memcmp(b, "\x93NUMPY", 6) != 0) {
    /* the two near misses numpy users make: numpy.savez, and pickle.dump */
    if (len >= 4 && memcmp(b, "PK\x03\x04", 4) == 0)
      return wp_error_set(err, "not a .npy file but a zip archive (a .npz from numpy.savez?): "
                               "give each parameter its own .npy file (numpy.save)");
    if (len >= 2 && b[0] == 0x80 && b[1] >= 2 && b[1] <= 5)
      return wp_error_set(err, "not a .npy file but a Python pickle: write the array with "
                               "numpy.save");
    return wp_error_set(err, "not a .npy file (bad magic)");
  }
  if (len < 10)
    return wp_error_set(err, "a .npy file cut short: %zu bytes, not even a header", len);
  out->major = b[6];
  out->minor = b[7];
  uint64_t hlen, start;
  if (out->major == 1 && out->minor == 0) {
    hlen = (uint64_t)b[8] | (uint64_t)b[9] << 8;
    start = 10;
  } else if ((out->major == 2 || out->major == 3) && out->minor == 0) {
    if (len < 12)
      return wp_error_set(err, "header length past the end of the file");
    hlen = (uint64_t)b[8] | (uint64_t)b[9] << 8 | (uint64_t)b[10] << 16 | (uint64_t)b[11] << 24;
    start = 12;
  } else {
    return wp_error_set(err, "unknown .npy version %d.%d", out->major, out->minor);
  }
  if (hlen > WP_NPY_MAX_HEADER)
    return wp_error_set(err, "header of %llu bytes is over the 64 KiB limit",
                        (unsigned long long)hlen);
  if (start + hlen > len || start + hlen > file_size)
    return wp_error_set(err, "header length past the end of the file");
  cursor c = {(const char *)b + start, (const char *)b + start + hlen, out->major < 3};
  if (parse_dict(&c, out, err))
    return -1;
  uint64_t count = 1;
  for (int i = 0; i < out->ndim; i++) {
    uint64_t d = (uint64_t)out->shape[i];
    if (d && count > UINT64_MAX / d)
      return wp_error_set(err, "shape's element count overflows 64 bits");
    count *= d;
  }
  if (count && count > UINT64_MAX / (uint64_t)out->itemsize)
    return wp_error_set(err, "shape's byte size overflows 64 bits");
  out->count = count;
  out->data_size = count * (uint64_t)out->itemsize;
  out->data_offset = start + hlen;
  uint64_t have = file_size - out->data_offset;
  if (have < out->data_size)
    return wp_error_set(err, "payload is %llu bytes, shorter than the %llu the header says",
                        (unsigned long long)have, (unsigned long long)out->data_size);
  if (have > out->data_size)
    return wp_error_set(err, "payload is %llu bytes, longer than the %llu the header says",
                        (unsigned long long)have, (unsigned long long)out->data_size);
  return 0;
}

size_t wp_npy_header_size(const void *data, size_t len) {
  const unsigned char *b = data;
  if (len < 10 || memcmp(b, "\x93NUMPY", 6) != 0 || b[7] != 0)
    return 0;
  uint64_t size;
  if (b[6] == 1)
    size = 10 + ((uint64_t)b[8] | (uint64_t)b[9] << 8);
  else if ((b[6] == 2 || b[6] == 3) && len >= 12)
    size = 12 + ((uint64_t)b[8] | (uint64_t)b[9] << 8 | (uint64_t)b[10] << 16 |
                 (uint64_t)b[11] << 24);
  else
    return 0;
  return size <= len ? (size_t)size : 0;
}

int wp_npy_needs_conversion(const wp_npy_info *info) {
  int multi_dim = 0;
  for (int i = 0, big = 0; i < info->ndim; i++)
    if (info->shape[i] > 1 && ++big > 1)
      multi_dim = 1;
  return info->big_endian || (info->fortran_order && multi_dim);
}

static void swap_bytes(unsigned char *p, int n) {
  for (int i = 0; i < n / 2; i++) {
    unsigned char t = p[i];
    p[i] = p[n - 1 - i];
    p[n - 1 - i] = t;
  }
}

void wp_npy_to_c_order_le(const wp_npy_info *info, const void *src, void *dst) {
  const unsigned char *s = src;
  unsigned char *d = dst;
  size_t item = (size_t)info->itemsize;
  int fortran = info->fortran_order && info->ndim > 1;
  if (!fortran) {
    memcpy(d, s, info->data_size);
  } else {
    /* Walk the C-order output; track the Fortran-order source offset with
     * an odometer over the dimensions (last dimension fastest). */
    int n = info->ndim;
    uint64_t fstride[WP_NPY_MAX_DIMS], idx[WP_NPY_MAX_DIMS] = {0};
    uint64_t st = 1;
    for (int i = 0; i < n; i++) {
      fstride[i] = st;
      st *= (uint64_t)info->shape[i];
    }
    uint64_t off = 0;
    for (uint64_t k = 0; k < info->count; k++) {
      memcpy(d + k * item, s + off * item, item);
      for (int i = n - 1; i >= 0; i--) {
        if (++idx[i] < (uint64_t)info->shape[i]) {
          off += fstride[i];
          break;
        }
        off -= fstride[i] * (idx[i] - 1);
        idx[i] = 0;
      }
    }
  }
  if (info->big_endian) {
    int part = info->kind == 'c' ? info->itemsize / 2 : info->itemsize;
    for (uint64_t k = 0; k < info->data_size; k += (uint64_t)part)
      swap_bytes(d + k, part);
  }
}

size_t wp_npy_write_header(char *buf, const char *descr, const int64_t *shape, int ndim) {
  /* 64 dimensions of 20 digits and a 64-byte descr fit with room to spare:
   * the dict text below can never reach the buffer's end. */
  if (ndim < 0 || ndim > WP_NPY_MAX_DIMS || strlen(descr) > 64)
    return 0;
  char dict[4096];
  int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                   descr);
  for (int i = 0; i < ndim && n < (int)sizeof dict; i++)
    n += snprintf(dict + n, sizeof dict - (size_t)n, "%s%lld", i ? ", " : "",
                  (long long)shape[i]);
  n += snprintf(dict + n, sizeof dict - (size_t)n, "%s), }", ndim == 1 ? "," : "");
  /* Version 1.0 when the length fits 16 bits, else 2.0; pad with spaces and
   * a newline so the data starts at a multiple of 64. */
  size_t pre = (size_t)n + 1 + 10 <= 65535 ? 10 : 12;
  size_t total = ((pre + (size_t)n + 1) + 63) / 64 * 64;
  size_t hlen = total - pre;
  memcpy(buf, "\x93NUMPY", 6);
  buf[6] = pre == 10 ? 1 : 2;
  buf[7] = 0;
  if (pre == 10) {
    buf[8] = (char)(hlen & 0xff);
    buf[9] = (char)(hlen >> 8);
  } else {
    for (int i = 0; i < 4; i++)
      buf[8 + i] = (char)((hlen >> (8 * i)) & 0xff);
  }
  memcpy(buf + pre, dict, (size_t)n);
  memset(buf + pre + n, ' ', hlen - (size_t)n - 1);
  buf[total - 1] = '\n';
  return total;
}

/* The header is read, not mapped: a model with 49,152 weights of 8 KiB
 * had each mapped and unmapped again here, and the unmap's search of the
 * map registry (full of the run's live maps) was bir-lower's top cost. */
int wp_npy_file_header(const char *path, wp_npy_info *out, wp_error *err) {
  /* O_NONBLOCK: a FIFO named as a weight must not wait for a writer */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  if (fd < 0)
    return 1;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return 1;
  }
  /* the longest header there is, with its magic, version and length */
  size_t want = (uint64_t)st.st_size < WP_NPY_MAX_HEADER + 12 ? (size_t)st.st_size
                                                              : WP_NPY_MAX_HEADER + 12;
  unsigned char *buf = wp_xmalloc(want ? want : 1);
  size_t got = 0;
  while (got < want) {
    ssize_t n = pread(fd, buf + got, want - got, (off_t)got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    got += (size_t)n;
  }
  close(fd);
  int rc = got < 6 || memcmp(buf, "\x93NUMPY", 6)
               ? 1
               : wp_npy_parse(buf, got, (uint64_t)st.st_size, out, err);
  free(buf);
  return rc;
}

static const char *descr_of_dtype(const char *dtype) {
  static const struct {
    const char *dtype, *descr;
  } map[] = {{"bool", "|b1"},       {"int8", "|i1"},       {"int16", "<i2"},
             {"int32", "<i4"},      {"int64", "<i8"},      {"uint8", "|u1"},
             {"uint16", "<u2"},     {"uint32", "<u4"},     {"uint64", "<u8"},
             {"float16", "<f2"},    {"float32", "<f4"},    {"float64", "<f8"},
             {"complex64", "<c8"},  {"complex128", "<c16"}, {"bfloat16", "<V2"}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(map[i].dtype, dtype) == 0)
      return map[i].descr;
  return "|V1"; /* the 1-byte ml_dtypes types and sub-byte integers */
}

size_t wp_npy_member_prefix(char *out, const char *dtype, const int64_t *shape, int rank,
                          uint64_t size) {
  size_t n = dtype ? wp_npy_write_header(out, descr_of_dtype(dtype), shape, rank) : 0;
  if (n)
    return n;
  /* untyped, or a rank NumPy cannot read: a flat byte array */
  int64_t flat = (int64_t)size;
  return wp_npy_write_header(out, "|u1", &flat, 1);
}
