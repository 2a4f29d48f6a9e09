/* The de-dup key string and unique file names, for several dtype and
 * memory type pairs, and MD5 itself on known vectors. */
#include "wp_dedup_key.h"
#include "wp_md5.h"
#include "wp_test.h"

static void test_keys(void) {
  const char *md5 = "79054025255fb1a26e4bc422aef54eb4";
  char buf[128];
  struct {
    const char *dtype, *memtype, *key, *name;
  } cases[] = {
      {"float32", "Const", "79054025255fb1a26e4bc422aef54eb4float32Const",
       "79054025255fb1a26e4bc422aef54eb4.float32.Const.bin"},
      {"int32", "Const", "79054025255fb1a26e4bc422aef54eb4int32Const",
       "79054025255fb1a26e4bc422aef54eb4.int32.Const.bin"},
      {"float32", "DRAM", "79054025255fb1a26e4bc422aef54eb4float32DRAM",
       "79054025255fb1a26e4bc422aef54eb4.float32.DRAM.bin"},
      {"bfloat16", "ExternalInputParameter",
       "79054025255fb1a26e4bc422aef54eb4bfloat16ExternalInputParameter",
       "79054025255fb1a26e4bc422aef54eb4.bfloat16.ExternalInputParameter.bin"},
      {"float8_e4m3fn", "Internal", "79054025255fb1a26e4bc422aef54eb4float8_e4m3fnInternal",
       "79054025255fb1a26e4bc422aef54eb4.float8_e4m3fn.Internal.bin"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    wp_dedup_key(buf, sizeof buf, md5, cases[i].dtype, cases[i].memtype);
    CHECK_STR(buf, cases[i].key);
    wp_dedup_unique_name(buf, sizeof buf, md5, cases[i].dtype, cases[i].memtype, 0);
    CHECK_STR(buf, cases[i].name);
  }
  /* same bytes, other dtype or memory type: other keys */
  char a[128], b[128];
  wp_dedup_key(a, sizeof a, md5, "float32", "Const");
  wp_dedup_key(b, sizeof b, md5, "int32", "Const");
  CHECK(strcmp(a, b) != 0);
  wp_dedup_unique_name(buf, sizeof buf, md5, "uint8", "Const", 1);
  CHECK_STR(buf, "79054025255fb1a26e4bc422aef54eb4.uint8.Const-1.bin");
}

static void test_md5(void) {
  char out[WP_MD5_HEX];
  wp_error err;
  CHECK(wp_md5_buffer("", 0, out, &err) == 0);
  CHECK_STR(out, "d41d8cd98f00b204e9800998ecf8427e");
  CHECK(wp_md5_buffer("The quick brown fox jumps over the lazy dog", 43, out, &err) == 0);
  CHECK_STR(out, "9e107d9d372bb6826bd81d3542a419d6");
  /* streaming in pieces gives the same digest */
  wp_md5 *h = wp_md5_create(&err);
  CHECK(h != NULL);
  wp_md5_update(h, "The quick brown ", 16);
  wp_md5_update(h, "fox jumps over the lazy dog", 27);
  wp_md5_final_hex(h, out);
  CHECK_STR(out, "9e107d9d372bb6826bd81d3542a419d6");
  wp_md5_destroy(h);
}

int main(void) {
  test_keys();
  test_md5();
  return wp_test_result("test_dedup_key");
}
