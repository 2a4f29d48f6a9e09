/* The .npy reader: header forms, dtypes, conversions, and a deterministic
 * mutation run (every mutated file must parse or fail cleanly; the
 * sanitizer build catches any out-of-bounds read). */
#include "wp_npy.h"
#include "wp_test.h"

#include <stdint.h>
#include <stdlib.h>

static size_t make(unsigned char *buf, int major, const char *dict, const void *data,
                   size_t n) {
  size_t pre = major == 1 ? 10 : 12, dl = strlen(dict);
  size_t total = (pre + dl + 1 + 63) / 64 * 64, hlen = total - pre;
  memcpy(buf, "\x93NUMPY", 6);
  buf[6] = (unsigned char)major;
  buf[7] = 0;
  buf[8] = (unsigned char)(hlen & 0xff);
  buf[9] = (unsigned char)(hlen >> 8);
  if (pre == 12)
    buf[10] = buf[11] = 0;
  memcpy(buf + pre, dict, dl);
  memset(buf + pre + dl, ' ', hlen - dl - 1);
  buf[total - 1] = '\n';
  memcpy(buf + total, data, n);
  return total + n;
}

static int parse(const unsigned char *b, size_t n, wp_npy_info *info, wp_error *err) {
  return wp_npy_parse(b, n, n, info, err);
}

static void test_header_forms(void) {
  unsigned char buf[512];
  float f[6] = {1, 2, 3, 4, 5, 6};
  wp_npy_info info;
  wp_error err;
  size_t n = make(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", f, 24);
  CHECK(parse(buf, n, &info, &err) == 0);
  CHECK(info.ndim == 2 && info.shape[0] == 2 && info.shape[1] == 3 && info.count == 6);
  CHECK(info.kind == 'f' && info.itemsize == 4 && !info.big_endian && info.data_offset == 128);
  /* Any key order, no trailing comma, double quotes, Python 2 longs. */
  n = make(buf, 1, "{\"shape\": (6L,), \"fortran_order\": False, \"descr\": \"<f4\"}", f, 24);
  CHECK(parse(buf, n, &info, &err) == 0 && info.ndim == 1 && info.shape[0] == 6);
  n = make(buf, 2, "{'descr': '<f4', 'fortran_order': False, 'shape': ()}", f, 4);
  CHECK(parse(buf, n, &info, &err) == 0 && info.ndim == 0 && info.count == 1);
  /* zero written "00" is zero in Python 3 too */
  n = make(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (00, 4), }", f, 0);
  CHECK(parse(buf, n, &info, &err) == 0 && info.ndim == 2 && info.count == 0);
  n = make(buf, 2, "{'descr': '<f4', 'fortran_order': False, 'shape': ()}", f, 4);
  CHECK(parse(buf, n, &info, &err) == 0 && info.ndim == 0 && info.count == 1);
  n = make(buf, 3, "{'descr': '|b1', 'fortran_order': True, 'shape': (0, 5), }", f, 0);
  CHECK(parse(buf, n, &info, &err) == 0 && info.count == 0 && info.fortran_order);
  n = make(buf, 1, "{'descr': '>i8', 'fortran_order': False, 'shape': (3,), }", f, 24);
  CHECK(parse(buf, n, &info, &err) == 0 && info.big_endian && info.kind == 'i');
  n = make(buf, 1, "{'descr': '>V2', 'fortran_order': False, 'shape': (3,), }", f, 6);
  CHECK(parse(buf, n, &info, &err) == 0 && !info.big_endian && info.kind == 'V');
  /* Without a byte order (some writers): the machine's own, as numpy reads it. */
  n = make(buf, 1, "{'descr': 'f4', 'fortran_order': False, 'shape': (6,), }", f, 24);
  CHECK(parse(buf, n, &info, &err) == 0 && info.kind == 'f' && info.itemsize == 4 &&
        !info.big_endian);
  n = make(buf, 1, "{'descr': 'f', 'fortran_order': False, 'shape': (6,), }", f, 24);
  CHECK(parse(buf, n, &info, &err) == -1);
}

static void test_header_errors(void) {
  unsigned char buf[512];
  float f[4] = {0};
  wp_npy_info info;
  wp_error err;
  struct {
    const char *dict;
    const char *msg;
  } cases[] = {
      {"{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", "object arrays"},
      {"{'descr': '<U4', 'fortran_order': False, 'shape': (1,), }", "unsupported dtype '<U4'"},
      /* a byte order and nothing else: the size was read from the bytes
       * after the string's end (uninitialized; MemorySanitizer and
       * valgrind saw it) */
      {"{'descr': '<', 'fortran_order': False, 'shape': (1,), }", "unsupported dtype '<'"},
      {"{'descr': '|', 'fortran_order': False, 'shape': (1,), }", "unsupported dtype '|'"},
      {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", "structured"},
      {"{'descr': '<f4', 'shape': (1,), }", "missing 'fortran_order'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", "unexpected key 'x'"},
      {"{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,), }", "not True or False"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1, -2), }", "bad dimension"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }",
       "overflows"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 8), }",
       "overflows 64 bits"},
      {"['descr', '<f4']", "not a dict"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1), }", "'shape' is not a tuple"},
      /* a leading zero: numpy (Python 3) refuses it, Python 2 read octal */
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (01,), }", "dimension '01'"},
      /* no control or non-ASCII byte in a string: numpy writes none, and
       * it would reach the error message raw */
      {"{'descr': '<f4\x01', 'fortran_order': False, 'shape': (1,), }", "bad 'descr'"},
      {"{'descr': '<f4', 'descr': '<f8', 'fortran_order': False, 'shape': (1,), }",
       "'descr' twice"},
      {"{'descr': '<f4', '\xff': 1, 'fortran_order': False, 'shape': (1,), }",
       "expected a quoted key"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t n = make(buf, 1, cases[i].dict, f, 4);
    CHECK(parse(buf, n, &info, &err) == -1);
    CHECK_CONTAINS(err.msg, cases[i].msg);
  }
  /* Python 2 longs are read in 1.0 and 2.0 headers only, as numpy does:
   * version 3.0 came after Python 2 */
  size_t n = make(buf, 2, "{'descr': '<f4', 'fortran_order': False, 'shape': (1L,), }", f, 4);
  CHECK(parse(buf, n, &info, &err) == 0 && info.ndim == 1 && info.shape[0] == 1);
  n = make(buf, 3, "{'descr': '<f4', 'fortran_order': False, 'shape': (1L,), }", f, 4);
  CHECK(parse(buf, n, &info, &err) == -1);
  CHECK_CONTAINS(err.msg, "Python 2 long '1L' in 'shape' of a version 3.0 header");
  n = make(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f, 4);
  CHECK(parse(buf, n, &info, &err) == -1);
  CHECK_CONTAINS(err.msg, "shorter");
  CHECK(parse(buf, 8, &info, &err) == -1); /* the magic and version, no header length */
  CHECK_CONTAINS(err.msg, "cut short: 8 bytes");
  CHECK(parse(buf, 5, &info, &err) == -1); /* not even the whole magic */
  CHECK_CONTAINS(err.msg, "bad magic");
}

static void test_conversions(void) {
  /* 2x3 int16 stored Fortran-order and big-endian: column-major values
   * 1 4 2 5 3 6 must come out as row-major 1 2 3 4 5 6, little-endian. */
  unsigned char src[12] = {0, 1, 0, 4, 0, 2, 0, 5, 0, 3, 0, 6}, dst[12];
  wp_npy_info info = {0};
  info.kind = 'i';
  info.itemsize = 2;
  info.big_endian = 1;
  info.fortran_order = 1;
  info.ndim = 2;
  info.shape[0] = 2;
  info.shape[1] = 3;
  info.count = 6;
  info.data_size = 12;
  CHECK(wp_npy_needs_conversion(&info));
  wp_npy_to_c_order_le(&info, src, dst);
  for (int i = 0; i < 6; i++)
    CHECK(dst[2 * i] == i + 1 && dst[2 * i + 1] == 0);
  /* complex64 big-endian: each float swapped on its own. */
  unsigned char c[8] = {0x3f, 0x80, 0, 0, 0x40, 0, 0, 0}, cd[8];
  wp_npy_info ci = {0};
  ci.kind = 'c';
  ci.itemsize = 8;
  ci.big_endian = 1;
  ci.ndim = 1;
  ci.shape[0] = 1;
  ci.count = 1;
  ci.data_size = 8;
  wp_npy_to_c_order_le(&ci, c, cd);
  float re, im;
  memcpy(&re, cd, 4);
  memcpy(&im, cd + 4, 4);
  CHECK(re == 1.0f && im == 2.0f);
  /* A Fortran row vector is already C order. */
  info.big_endian = 0;
  info.shape[0] = 1;
  info.shape[1] = 6;
  CHECK(!wp_npy_needs_conversion(&info));
}

static void test_write_header(void) {
  char buf[WP_NPY_MAX_HEADER];
  int64_t shape[2] = {3, 4};
  size_t n = wp_npy_write_header(buf, "<f4", shape, 2);
  CHECK(n % 64 == 0 && buf[n - 1] == '\n');
  static unsigned char file[WP_NPY_MAX_HEADER + 64];
  memcpy(file, buf, n);
  memset(file + n, 0, 48);
  wp_npy_info info;
  wp_error err;
  CHECK(parse(file, n + 48, &info, &err) == 0 && info.count == 12 && info.shape[1] == 4);
  /* The widest header NumPy reads (64 dimensions of 19 digits) fits; a
   * 65th dimension, or a negative rank, gives no header at all. */
  int64_t wide[WP_NPY_MAX_DIMS + 1];
  for (int i = 0; i <= WP_NPY_MAX_DIMS; i++)
    wide[i] = INT64_MAX;
  n = wp_npy_write_header(buf, "<f4", wide, WP_NPY_MAX_DIMS);
  CHECK(n > 0 && n % 64 == 0 && n < 4096 && buf[n - 1] == '\n');
  CHECK(wp_npy_write_header(buf, "<f4", wide, WP_NPY_MAX_DIMS + 1) == 0);
  CHECK(wp_npy_write_header(buf, "<f4", wide, -1) == 0);
  /* and it reads as many: 64 dimensions parse, a 65th is refused */
  for (int dims = WP_NPY_MAX_DIMS; dims <= WP_NPY_MAX_DIMS + 1; dims++) {
    char dict[512] = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
    for (int i = 0; i < dims; i++)
      strcat(dict, i + 1 < dims ? "1, " : "4), }");
    float four[4] = {0};
    size_t len = make(file, 1, dict, four, sizeof four);
    int rc = parse(file, len, &info, &err);
    if (dims == WP_NPY_MAX_DIMS)
      CHECK(rc == 0 && info.ndim == WP_NPY_MAX_DIMS && info.count == 4);
    else
      CHECK(rc == -1 && strstr(err.msg, "more than 64 dimensions"));
  }
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static void test_mutations(void) {
  unsigned char base[256], buf[256];
  float f[6] = {0};
  size_t n = make(base, 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", f, 24);
  int ok = 0, bad = 0;
  for (int iter = 0; iter < 200000; iter++) {
    memcpy(buf, base, n);
    size_t len = n;
    int edits = 1 + (int)(rnd() % 4);
    for (int e = 0; e < edits; e++) {
      switch (rnd() % 4) {
      case 0: if (len) buf[rnd() % len] = (unsigned char)rnd(); break;
      case 1: buf[8 + rnd() % 2] = (unsigned char)rnd(); break; /* header length */
      case 2: len = (size_t)(rnd() % (len + 1)); break;         /* truncate */
      case 3: buf[10 + rnd() % 54] = "{}(),:'\"0123456789LTF< "[rnd() % 23]; break;
      }
    }
    /* A copy of exactly LEN bytes, so a read past the end is caught. */
    unsigned char *exact = malloc(len ? len : 1);
    memcpy(exact, buf, len);
    wp_npy_info info;
    wp_error err;
    /* the header read apart is what a parse of the whole file reads,
     * and parses the same by itself */
    size_t head = wp_npy_header_size(exact, len);
    wp_npy_info apart;
    wp_error apart_err;
    int apart_rc = head ? wp_npy_parse(exact, head, len, &apart, &apart_err) : -2;
    if (wp_npy_parse(exact, len, len, &info, &err) == 0) {
      ok++;
      CHECK(info.data_offset + info.data_size == len);
      CHECK(head == info.data_offset);
      CHECK(apart_rc == 0 && !memcmp(&apart, &info, sizeof info));
      if (info.data_size <= 4096) {
        unsigned char *out = malloc(info.data_size ? info.data_size : 1);
        wp_npy_to_c_order_le(&info, exact + info.data_offset, out);
        free(out);
      }
    } else {
      bad++;
      CHECK(err.msg[0] != 0);
      CHECK(apart_rc != 0);
    }
    free(exact);
  }
  CHECK(ok > 0 && bad > 0);
}

int main(void) {
  test_header_forms();
  test_header_errors();
  test_conversions();
  test_write_header();
  test_mutations();
  return wp_test_result("test_npy");
}
