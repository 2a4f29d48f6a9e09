/* The HLO text reader and printer without MLIR: the float formats' bits,
 * the element types MLIR 19 has no type for (f8e3m4, f4e2m1fn,
 * f8e8m0fnu: the importer refuses them, the text does not), the
 * text -> proto -> text fixpoint, the reader's guards, and printing to
 * a sink a piece at a time. */
#include "wp_hlo_text.h"
#include "wp_hlo_text_common.h"
#include "wp_hlo_types.h"
#include "wp_pb.h"
#include "wp_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_float_bits(void) {
  /* values whose bits are known, in every format */
  CHECK(wp_hlo_text_float_encode(WP_F16, 1.5) == 0x3e00);
  CHECK(wp_hlo_text_float_encode(WP_F16, 65520.0) == 0x7c00); /* rounds past max: inf */
  CHECK(wp_hlo_text_float_encode(WP_BF16, 1.0) == 0x3f80);
  CHECK(wp_hlo_text_float_encode(WP_BF16, 1.00390625) == 0x3f80); /* a tie: to even */
  CHECK(wp_hlo_text_float_encode(WP_BF16, 1.01171875) == 0x3f82); /* a tie: to even, up */
  CHECK(wp_hlo_text_float_encode(WP_F32, -2.0) == 0xc0000000);
  CHECK(wp_hlo_text_float_encode(WP_F32, 1e-45) == 1); /* the smallest subnormal */
  CHECK(wp_hlo_text_float_encode(WP_F8E4M3FN, 448) == 0x7e);
  CHECK(wp_hlo_text_float_encode(WP_F8E4M3FN, 1000) == 0x7f);  /* no inf: NaN */
  CHECK(wp_hlo_text_float_encode(WP_F8E4M3FNUZ, -0.0) == 0);   /* no -0 */
  CHECK(wp_hlo_text_float_encode(WP_F8E5M2FNUZ, INFINITY) == 0x80);
  CHECK(wp_hlo_text_float_encode(WP_F8E4M3B11FNUZ, 1.0) == 0x58);
  CHECK(wp_hlo_text_float_encode(WP_F8E5M2, 57344) == 0x7b);
  CHECK(wp_hlo_text_float_encode(WP_F8E4M3, 240) == 0x77);
  CHECK(wp_hlo_text_float_encode(WP_F8E3M4, 1.0) == 0x30);
  CHECK(wp_hlo_text_float_encode(WP_F8E3M4, 15.5) == 0x6f);
  CHECK(wp_hlo_text_float_encode(WP_F4E2M1FN, 6.0) == 0x7);
  CHECK(wp_hlo_text_float_encode(WP_F4E2M1FN, -100.0) == 0xf); /* saturates */
  CHECK(wp_hlo_text_float_encode(WP_F4E2M1FN, 0.5) == 0x1);
  CHECK(wp_hlo_text_float_encode(WP_F8E8M0FNU, 1.0) == 127);
  CHECK(wp_hlo_text_float_encode(WP_F8E8M0FNU, 0.25) == 125);
  CHECK(wp_hlo_text_float_encode(WP_F8E8M0FNU, -1.0) == 0xff);
  /* every bit pattern of the 1-byte formats and of f16 decodes and
   * encodes back (NaNs to a NaN), and prints as text that reads back */
  const int small[] = {WP_F8E5M2, WP_F8E4M3FN, WP_F8E4M3B11FNUZ, WP_F8E5M2FNUZ, WP_F8E4M3FNUZ,
                       WP_F8E4M3, WP_F8E3M4, WP_F4E2M1FN, WP_F8E8M0FNU, WP_F16, WP_BF16};
  for (size_t k = 0; k < sizeof small / sizeof small[0]; k++) {
    int prim = small[k];
    uint64_t n = prim == WP_F4E2M1FN ? 16 : prim == WP_F16 || prim == WP_BF16 ? 65536 : 256;
    int bad = 0;
    for (uint64_t b = 0; b < n && bad < 3; b++) {
      double v = wp_hlo_text_float_decode(prim, b);
      char s[64];
      wp_hlo_text_float_str(prim, b, s, sizeof s);
      if (isnan(v)) {
        uint64_t payload;
        bad += !strstr(s, "nan");
        if (wp_hlo_text_float_nan_payload(prim, b, &payload) == 0)
          bad += !strstr(s, "nan(0x");
        continue;
      }
      if (wp_hlo_text_float_encode(prim, v) != b ||
          wp_hlo_text_float_encode(prim, strtod(s, NULL)) != b) {
        fprintf(stderr, "prim %d bits 0x%llx: %s\n", prim, (unsigned long long)b, s);
        bad++;
      }
    }
    CHECK(bad == 0);
  }
  char s[64];
  wp_hlo_text_float_str(WP_F32, 0x3dcccccd, s, sizeof s);
  CHECK_STR(s, "0.1");
  wp_hlo_text_float_str(WP_F64, 0x8000000000000000ull, s, sizeof s);
  CHECK_STR(s, "-0");
  wp_hlo_text_float_str(WP_F32, 0x7f800001, s, sizeof s);
  CHECK_STR(s, "nan(0x1)");
  wp_hlo_text_float_str(WP_BF16, 0xffc0, s, sizeof s);
  CHECK_STR(s, "-nan");
}

typedef struct texts {
  char *first, *second;
} texts;

/* TEXT read, printed, read and printed again: the protos and the texts
 * equal. Returns the first printing (caller frees) or NULL. */
static char *fixpoint(const char *text) {
  wp_arena *a = wp_arena_create();
  Xla__HloModuleProto *m, *again;
  wp_error err;
  char *t1 = NULL, *t2 = NULL;
  size_t n1, n2;
  int ok = wp_hlo_text_parse(a, text, strlen(text), "t.hlo", NULL, NULL, &m, &err) == 0;
  if (!ok)
    fprintf(stderr, "%s\n", err.msg);
  ok = ok && wp_hlo_text_print(a, m, NULL, NULL, &t1, &n1, &err) == 0;
  ok = ok && wp_hlo_text_parse(a, t1, n1, "p.hlo", NULL, NULL, &again, &err) == 0;
  ok = ok && wp_hlo_text_print(a, again, NULL, NULL, &t2, &n2, &err) == 0;
  if (ok) {
    ProtobufCBinaryData x = wp_pb_pack(a, &m->base), y = wp_pb_pack(a, &again->base);
    ok = x.len == y.len && !memcmp(x.data, y.data, x.len) && n1 == n2 && !strcmp(t1, t2);
  }
  CHECK(ok);
  free(t2);
  wp_arena_destroy(a);
  if (!ok) {
    free(t1);
    return NULL;
  }
  return t1;
}

static void test_types_mlir_lacks(void) {
  char *t = fixpoint("ENTRY %e {\n"
                     "  %a = f8e3m4[3] constant({1, 15.5, -0.0625})\n"
                     "  %b = f4e2m1fn[4] constant({0.5, 6, -1.5, 7})\n"
                     "  %c = f8e8m0fnu[3] constant({1, 0.25, nan})\n"
                     "  %s = s1[2] constant({0, -1})\n"
                     "  %u = u1[2] constant({0, 1})\n"
                     "  ROOT %t = (f8e3m4[3], f4e2m1fn[4], f8e8m0fnu[3], s1[2], u1[2]) "
                     "tuple(%a, %b, %c, %s, %u)\n}\n");
  CHECK_CONTAINS(t, "%a = f8e3m4[3]{0} constant({1, 15.5, -0.0625})"); /* %.3g, as XLA */
  CHECK_CONTAINS(t, "%b = f4e2m1fn[4]{0} constant({0.5, 6, -1.5, 6})"); /* 7 saturates */
  CHECK_CONTAINS(t, "%c = f8e8m0fnu[3]{0} constant({1, 0.25, nan})"); /* %.2g */
  CHECK_CONTAINS(t, "%s = s1[2]{0} constant({0, -1})");
  CHECK_CONTAINS(t, "%u = u1[2]{0} constant({0, 1})");
  free(t);
}

static void test_reader_guards(void) {
  wp_arena *a = wp_arena_create();
  Xla__HloModuleProto *m;
  wp_error err;
  /* tuples nested past the bound are refused, not recursed into */
  char deep[400];
  size_t n = 0;
  n += (size_t)snprintf(deep + n, sizeof deep - n, "ENTRY e {\n  ROOT p = ");
  for (int i = 0; i < 30; i++)
    deep[n++] = '(';
  n += (size_t)snprintf(deep + n, sizeof deep - n, "f32[]");
  for (int i = 0; i < 30; i++)
    deep[n++] = ')';
  n += (size_t)snprintf(deep + n, sizeof deep - n, " parameter(0)\n}\n");
  CHECK(wp_hlo_text_parse(a, deep, n, "d.hlo", NULL, NULL, &m, &err) == -1);
  CHECK_CONTAINS(err.msg, "d.hlo:2:36: shapes nest more than 24 deep");
  /* a constant larger than the rest of the text is refused before any
   * allocation */
  const char *big = "ENTRY e {\n  ROOT c = f32[100000000] constant({1})\n}\n";
  CHECK(wp_hlo_text_parse(a, big, strlen(big), "b.hlo", NULL, NULL, &m, &err) == -1);
  CHECK_CONTAINS(err.msg, "b.hlo:2:36: constant of 100000000 elements, more than the rest");
  /* the text need not end in NUL: a number at the very end stops there */
  const char cut[] = "ENTRY e {\n  ROOT c = f32[] constant(1.5";
  CHECK(wp_hlo_text_parse(a, cut, sizeof cut - 1, "c.hlo", NULL, NULL, &m, &err) == -1);
  CHECK_CONTAINS(err.msg, "c.hlo:2:30: expected ')', found the end of the file");
  wp_arena_destroy(a);
}

static void test_sniff(void) {
  const char *text = "// dump\n\nHloModule m\n";
  CHECK(wp_hlo_text_sniff(NULL, text, strlen(text)));
  CHECK(wp_hlo_text_sniff("x.hlo", "garbage", 7));   /* its errors say why */
  CHECK(!wp_hlo_text_sniff("x.hlo", "\n\x01m", 3));  /* a proto named .hlo */
  CHECK(!wp_hlo_text_sniff("x.mlir", text, strlen(text)));
  CHECK(!wp_hlo_text_sniff(NULL, "module {\n}\n", 11));
  CHECK(!wp_hlo_text_sniff("x.txt", "module {\n}\n", 11));
  CHECK(wp_hlo_text_sniff(NULL, "%comp (x: f32[]) -> f32[] {", 27));
  CHECK(wp_hlo_text_sniff(NULL, "ENTRY e {", 9));
  CHECK(!wp_hlo_text_sniff(NULL, "\n\x05m", 3)); /* a protobuf */
  /* a module named "HloModule": its name's length is a tab, skipped as a
   * blank, but the protobuf's next tag is no text */
  CHECK(!wp_hlo_text_sniff(NULL, "\n\tHloModule\x12\x04main", 17));
}

/* A sink that keeps what it is given, and fails (ERR set) at call FAIL_AT
 * when that is not 0. */
typedef struct sink_rec {
  char *text;
  size_t len, calls, biggest;
  size_t fail_at;
} sink_rec;

static int record(void *user, const char *data, size_t len, wp_error *err) {
  sink_rec *r = user;
  if (++r->calls == r->fail_at)
    return wp_error_set(err, "sink: call %zu fails", r->calls);
  r->text = realloc(r->text, r->len + len + 1);
  memcpy(r->text + r->len, data, len);
  r->len += len;
  r->text[r->len] = 0;
  r->biggest = len > r->biggest ? len : r->biggest;
  return 0;
}

/* Printing to a sink: the same text in pieces of about 64 KiB; a failing
 * sink stops the printer at that call, with its error; a module that
 * cannot be printed fails before the sink is called at all. */
static void test_sink(void) {
  enum { N = 50000 }; /* "1, " each: 150 KB, three pieces */
  char *text = malloc(N * 3 + 200);
  size_t n = (size_t)sprintf(text, "ENTRY %%e {\n  ROOT %%c = s32[%d] constant({", N);
  for (int i = 0; i < N; i++)
    n += (size_t)sprintf(text + n, i ? ", %d" : "%d", i % 10);
  n += (size_t)sprintf(text + n, "})\n}\n");
  wp_arena *a = wp_arena_create();
  Xla__HloModuleProto *m;
  wp_error err;
  char *whole = NULL;
  size_t whole_len = 0;
  CHECK(wp_hlo_text_parse(a, text, n, "s.hlo", NULL, NULL, &m, &err) == 0);
  CHECK(wp_hlo_text_print(a, m, NULL, NULL, &whole, &whole_len, &err) == 0);
  sink_rec all = {0};
  CHECK(wp_hlo_text_print_to(a, m, NULL, NULL, record, &all, &err) == 0);
  CHECK(all.len == whole_len && all.text && !strcmp(all.text, whole));
  CHECK(all.calls == 3);
  CHECK(all.biggest < (64u << 10) + 64);
  for (size_t at = 1; at <= 2; at++) {
    sink_rec r = {.fail_at = at};
    CHECK(wp_hlo_text_print_to(a, m, NULL, NULL, record, &r, &err) == -1);
    CHECK(r.calls == at);
    char want[64];
    snprintf(want, sizeof want, "sink: call %zu fails", at);
    CHECK_STR(err.msg, want);
    free(r.text);
  }
  m->computations[0]->root_id = 12345; /* names no instruction */
  sink_rec none = {0};
  CHECK(wp_hlo_text_print_to(a, m, NULL, NULL, record, &none, &err) == -1);
  CHECK(none.calls == 0);
  CHECK_CONTAINS(err.msg, "root id 12345 names no instruction");
  free(all.text);
  free(whole);
  free(text);
  wp_arena_destroy(a);
}

int main(void) {
  test_float_bits();
  test_types_mlir_lacks();
  test_reader_guards();
  test_sniff();
  test_sink();
  return wp_test_result("test_hlo_text");
}
