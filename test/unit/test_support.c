/* Support modules: id map, arena, model-directory paths, atomic outputs. */
#include "bir.pb-c.h"
#include "hlo.pb-c.h"
#include "wp_arena.h"
#include "wp_file.h"
#include "wp_format.h"
#include "wp_i64map.h"
#include "wp_jsonw.h"
#include "wp_mapreg.h"
#include "wp_model_dir.h"
#include "wp_pb.h"
#include "wp_place.h"
#include "wp_placed.h"
#include "wp_spill_hash.h"
#include "wp_strmap.h"
#include "wp_test.h"
#include "wp_text_depth.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_i64map(void) {
  wp_i64map m;
  wp_i64map_init(&m);
  for (int64_t i = -5000; i < 5000; i++)
    CHECK(wp_i64map_put(&m, i * 7919, i) == 0);
  int64_t v;
  for (int64_t i = -5000; i < 5000; i++)
    CHECK(wp_i64map_get(&m, i * 7919, &v) && v == i);
  CHECK(!wp_i64map_get(&m, 1, &v));
  CHECK(wp_i64map_put(&m, 0, 42) == 0 && wp_i64map_get(&m, 0, &v) && v == 42);
  CHECK(m.count == 10000);
  wp_i64map_free(&m);
  CHECK(!wp_i64map_get(&m, 0, &v));
}

/* Keys of one length that differ in a byte, a prefix of another key, the
 * empty key; overwrite; growth past many doublings. */
static void test_strmap(void) {
  wp_strmap m;
  wp_strmap_init(&m);
  int64_t v;
  CHECK(!wp_strmap_get(&m, "a", 1, &v));
  static char keys[3000][12];
  for (int i = 0; i < 3000; i++) {
    snprintf(keys[i], sizeof keys[i], "k%08d", i);
    CHECK(wp_strmap_put(&m, keys[i], strlen(keys[i]), i) == 0);
  }
  CHECK(wp_strmap_put(&m, "", 0, -1) == 0);
  CHECK(wp_strmap_put(&m, "k0000000", 8, -2) == 0); /* a prefix of k00000001 */
  for (int i = 0; i < 3000; i++)
    CHECK(wp_strmap_get(&m, keys[i], strlen(keys[i]), &v) && v == i);
  CHECK(wp_strmap_get(&m, "", 0, &v) && v == -1);
  CHECK(wp_strmap_get(&m, "k0000000", 8, &v) && v == -2);
  CHECK(!wp_strmap_get(&m, "k00003000", 9, &v));
  CHECK(!wp_strmap_get(&m, "k0000000x", 9, &v));
  CHECK(wp_strmap_put(&m, keys[7], strlen(keys[7]), 70) == 0);
  CHECK(wp_strmap_get(&m, "k00000007", 9, &v) && v == 70);
  CHECK(m.count == 3002);
  wp_strmap_free(&m);
  CHECK(!wp_strmap_get(&m, "", 0, &v));
}

static void test_arena(void) {
  wp_arena *a = wp_arena_create();
  char *big = wp_arena_alloc(a, 1 << 20);
  big[(1 << 20) - 1] = 1;
  for (int i = 0; i < 10000; i++) {
    int *p = wp_arena_alloc(a, sizeof(int) * 3);
    CHECK(p[0] == 0 && ((uintptr_t)p % _Alignof(max_align_t)) == 0);
    p[0] = i;
  }
  CHECK_STR(wp_arena_strndup(a, "hello world", 5), "hello");
  wp_arena_destroy(a);

  /* marks: scratch after a mark goes back, what came before stays */
  a = wp_arena_create();
  wp_arena_mark_t empty = wp_arena_mark(a);
  char *keep = wp_arena_strndup(a, "kept", 4);
  wp_arena_mark_t m = wp_arena_mark(a);
  char *first = wp_arena_alloc(a, 64);
  for (int i = 0; i < 100; i++)
    memset(wp_arena_alloc(a, 100000), 0xab, 100000); /* new chunks */
  wp_arena_release(a, m);
  CHECK_STR(keep, "kept");
  char *again = wp_arena_alloc(a, 64);
  CHECK(again == first); /* the space after the mark is reused */
  CHECK(again[0] == 0);  /* and zeroed again */
  for (int round = 0; round < 1000; round++) { /* no growth across rounds */
    wp_arena_mark_t r = wp_arena_mark(a);
    wp_arena_alloc(a, 200000);
    wp_arena_release(a, r);
  }
  wp_arena_release(a, empty);
  CHECK(wp_arena_alloc(a, 16) != NULL);
  wp_arena_destroy(a);
}

static char tmp[256];

static void write_file(const char *rel, const char *text) {
  char p[512];
  snprintf(p, sizeof p, "%s/%s", tmp, rel);
  FILE *f = fopen(p, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static void test_resolve(void) {
  char dir[300], outside[300], *out = NULL;
  wp_error err;
  snprintf(dir, sizeof dir, "%s/model", tmp);
  char abs_tmp[256];
  CHECK(realpath(tmp, abs_tmp) != NULL);
  snprintf(outside, sizeof outside, "%s/secret.npy", abs_tmp);
  mkdir(dir, 0755);
  mkdir(strcat(strcpy((char[400]){0}, dir), "/weights"), 0755);
  write_file("model/weights/a.npy", "x");
  write_file("secret.npy", "y");
  CHECK(wp_model_dir_resolve(dir, "weights/a.npy", 0, &out, &err) == 0);
  free(out);
  CHECK(wp_model_dir_resolve(dir, "weights/../weights/a.npy", 0, &out, &err) == 0);
  free(out);
  CHECK(wp_model_dir_resolve(dir, "/etc/passwd", 0, &out, &err) == -1);
  CHECK_CONTAINS(err.msg, "is absolute");
  CHECK(wp_model_dir_resolve(dir, "../secret.npy", 0, &out, &err) == -1);
  CHECK_CONTAINS(err.msg, "leaves the model directory");
  CHECK(wp_model_dir_resolve(dir, "weights/../../secret.npy", 0, &out, &err) == -1);
  char link[400];
  snprintf(link, sizeof link, "%s/weights/link.npy", dir);
  CHECK(symlink(outside, link) == 0);
  CHECK(wp_model_dir_resolve(dir, "weights/link.npy", 0, &out, &err) == -1);
  CHECK_CONTAINS(err.msg, "leads outside the model directory");
  snprintf(link, sizeof link, "%s/weights/inner.npy", dir);
  CHECK(symlink("a.npy", link) == 0);
  CHECK(wp_model_dir_resolve(dir, "weights/inner.npy", 0, &out, &err) == 0);
  free(out);
  CHECK(wp_model_dir_resolve(dir, "weights/missing.npy", 0, &out, &err) == -1);
  CHECK_CONTAINS(err.msg, "No such file or directory");
  CHECK(wp_model_dir_resolve(dir, "weights/missing.npy", 1, &out, &err) == 0);
  free(out);

  /* One cache across many paths (as inline-weights uses it): a directory
   * that is a link out of the model must be caught even right after a
   * good path was resolved, and a good one after it must still pass. */
  char outdir[400], evil[400];
  snprintf(outdir, sizeof outdir, "%s/elsewhere", abs_tmp);
  mkdir(outdir, 0755);
  write_file("elsewhere/b.npy", "z");
  snprintf(evil, sizeof evil, "%s/evil", dir);
  CHECK(symlink(outdir, evil) == 0);
  wp_resolve_cache *cache = calloc(1, sizeof *cache);
  CHECK(wp_model_dir_resolve_cached(cache, dir, "weights/a.npy", 0, &out, &err) == 0);
  free(out);
  CHECK(wp_model_dir_resolve_cached(cache, dir, "weights/a.npy", 0, &out, &err) == 0);
  free(out);
  CHECK(wp_model_dir_resolve_cached(cache, dir, "evil/b.npy", 0, &out, &err) == -1);
  CHECK_CONTAINS(err.msg, "leads outside the model directory");
  CHECK(wp_model_dir_resolve_cached(cache, dir, "evil/b.npy", 0, &out, &err) == -1);
  CHECK(wp_model_dir_resolve_cached(cache, dir, "weights/link.npy", 0, &out, &err) == -1);
  CHECK(wp_model_dir_resolve_cached(cache, dir, "weights/inner.npy", 0, &out, &err) == 0);
  free(out);
  CHECK(wp_model_dir_resolve_cached(cache, dir, "weights/../evil/./b.npy", 0, &out, &err) ==
        -1);
  CHECK(wp_model_dir_resolve_cached(cache, dir, "weights/.", 0, &out, &err) == 0);
  free(out);
  CHECK(wp_model_dir_resolve_cached(cache, dir, "weights/missing.npy", 0, &out, &err) == -1);
  CHECK_CONTAINS(err.msg, "No such file or directory");
  CHECK(wp_model_dir_resolve_cached(cache, dir, "evil/missing.npy", 1, &out, &err) == 0);
  free(out);
  /* another model directory through the same cache */
  CHECK(wp_model_dir_resolve_cached(cache, outdir, "b.npy", 0, &out, &err) == 0);
  free(out);
  CHECK(wp_model_dir_resolve_cached(cache, dir, "weights/a.npy", 0, &out, &err) == 0);
  free(out);
  free(cache);
}

/* metadata.json's weights, both forms: object keys sorted, names and
 * numbers told apart, a list's nulls skipped; the strings as written. */
static void test_model_dir_weights(void) {
  char dir[300];
  wp_model_dir md;
  wp_error err;
  snprintf(dir, sizeof dir, "%s/md", tmp);
  mkdir(dir, 0755);
  write_file("md/metadata.json", "{\"weight_files\": {\"w1\": \"weights/w1.npy\", \"7\": "
                                 "\"seven.npy\", \"b\": \"\"}}");
  CHECK(wp_model_dir_load_weights(dir, &md, &err) == 0);
  CHECK(md.n_weights == 3 && md.model_path == NULL);
  if (md.n_weights == 3) {
    CHECK(md.weights[0].param_name == NULL && md.weights[0].param_number == 7 &&
          md.weights[0].number_is_key);
    CHECK_STR(md.weights[0].rel_path, "seven.npy");
    CHECK_STR(md.weights[1].param_name, "b");
    CHECK(md.weights[1].param_number == -1 && !md.weights[1].number_is_key);
    CHECK_STR(md.weights[1].rel_path, "");
    CHECK_STR(md.weights[2].param_name, "w1");
    CHECK_STR(md.weights[2].rel_path, "weights/w1.npy");
  }
  wp_model_dir_free(&md);
  write_file("md/metadata.json", "{\"weight_files\": [\"a.npy\", null, \"c.npy\"]}");
  CHECK(wp_model_dir_load_weights(dir, &md, &err) == 0);
  CHECK(md.n_weights == 2);
  if (md.n_weights == 2) {
    CHECK(md.weights[0].param_name == NULL && md.weights[0].param_number == 0);
    CHECK(md.weights[1].param_number == 2 && !md.weights[1].number_is_key);
    CHECK_STR(md.weights[1].rel_path, "c.npy");
  }
  wp_model_dir_free(&md);
  write_file("md/metadata.json", "{\"weight_files\": {}}");
  CHECK(wp_model_dir_load_weights(dir, &md, &err) == 0 && md.n_weights == 0);
  wp_model_dir_free(&md);
  /* the first bad key in sorted order is the one named */
  write_file("md/metadata.json", "{\"weight_files\": {\"z\": 1, \"a\": 2}}");
  CHECK(wp_model_dir_load_weights(dir, &md, &err) == -1);
  CHECK_CONTAINS(err.msg, "weight_files[\"a\"] must be a path string");
  CHECK(md.weights == NULL && md.n_weights == 0 && md.strings == NULL);
  write_file("md/metadata.json", "{\"weight_files\": [\"a.npy\", 3]}");
  CHECK(wp_model_dir_load_weights(dir, &md, &err) == -1);
  CHECK_CONTAINS(err.msg, "weight_files[1] must be a path string or null");
}

static void test_output(void) {
  char path[300];
  wp_error err;
  snprintf(path, sizeof path, "%s/out.bin", tmp);
  wp_output *o = wp_output_open(path, &err);
  CHECK(o != NULL);
  fputs("partial", wp_output_stream(o));
  CHECK(access(path, F_OK) != 0); /* nothing at the path until commit */
  wp_output_abort(o);
  CHECK(access(path, F_OK) != 0);
  o = wp_output_open(path, &err);
  fputs("whole", wp_output_stream(o));
  CHECK(wp_output_commit(o, &err) == 0);
  wp_mapped_file f;
  CHECK(wp_file_map(path, &f, &err) == 0 && f.size == 5 && memcmp(f.data, "whole", 5) == 0);
  wp_file_unmap(&f);
}

/* The writer must read exactly as jansson's json_dumps (no indent) does:
 * NEFF records written both ways sit in the same files. */
static void check_int(long long v, const char *want) {
  wp_jsonw w = {0};
  wp_jsonw_int(&w, v);
  CHECK(!w.oom && w.len == strlen(want) && memcmp(w.p, want, w.len) == 0);
  free(w.p);
}

static void test_jsonw(void) {
  check_int(0, "0");
  check_int(-5, "-5");
  check_int(1234567890123LL, "1234567890123");
  check_int(LLONG_MAX, "9223372036854775807");
  check_int(LLONG_MIN, "-9223372036854775808");
  static const char *strings[] = {"", "plain", "q\"uote", "back\\slash", "a/b",
                                  "ctl\x01\x1f\b\f\n\r\t", "del\x7f", "caf\xc3\xa9",
                                  "\xe2\x82\xac \xf0\x9f\x98\x80", "sp ace:, {}[]"};
  for (size_t i = 0; i < sizeof strings / sizeof *strings; i++) {
    json_t *o = json_object();
    json_object_set_new(o, "s", json_string(strings[i]));
    json_object_set_new(o, "n", json_integer(-9007199254740993LL));
    json_object_set_new(o, "b", json_false());
    json_t *a = json_array();
    json_array_append_new(a, json_integer(3));
    json_array_append_new(a, json_integer(0));
    json_object_set_new(o, "l", a);
    char *want = json_dumps(o, JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
    json_decref(o);
    wp_jsonw w = {0};
    int64_t l[2] = {3, 0};
    wp_jsonw_raw(&w, "{", 1);
    wp_jsonw_key(&w, true, "s");
    wp_jsonw_str(&w, strings[i]);
    wp_jsonw_key(&w, false, "n");
    wp_jsonw_int(&w, -9007199254740993LL);
    wp_jsonw_key(&w, false, "b");
    wp_jsonw_bool(&w, false);
    wp_jsonw_key(&w, false, "l");
    wp_jsonw_int_list(&w, l, 2);
    wp_jsonw_raw(&w, "}", 1);
    CHECK(!w.oom && want && w.len == strlen(want) && memcmp(w.p, want, w.len) == 0);
    free(want);
    free(w.p);
  }
  /* not UTF-8 (jansson would drop the field): U+FFFD per bad byte */
  static const char *bad[][2] = {{"a\xff" "b", "\"a\xef\xbf\xbd" "b\""},
                                 {"\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\""},
                                 {"\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""},
                                 {"x\xe2\x82", "\"x\xef\xbf\xbd\xef\xbf\xbd\""}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    wp_jsonw w = {0};
    wp_jsonw_str(&w, bad[i][0]);
    CHECK(w.len == strlen(bad[i][1]) && memcmp(w.p, bad[i][1], w.len) == 0);
    json_error_t e;
    char doc[64];
    snprintf(doc, sizeof doc, "[%.*s]", (int)w.len, w.p);
    json_t *back = json_loads(doc, 0, &e);
    CHECK(back != NULL); /* valid JSON */
    json_decref(back);
    free(w.p);
  }
}

/* What the tools print of a name: control bytes and DEL as \xNN, every
 * other byte (UTF-8 included) as it is. */
static void test_escape_controls(void) {
  static const char *cases[][2] = {{"", ""},
                                   {"plain", "plain"},
                                   {"a\x01" "b", "a\\x01b"},
                                   {"\t\n\x1f", "\\x09\\x0a\\x1f"},
                                   {"del\x7f", "del\\x7f"},
                                   {"\x7f\x7f", "\\x7f\\x7f"},
                                   {" ~caf\xc3\xa9", " ~caf\xc3\xa9"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *got = wp_escape_controls(cases[i][0]);
    CHECK(got && !strcmp(got, cases[i][1]));
    free(got);
  }
}

static int append_chunk(const void *data, size_t n, void *user) {
  unsigned char **at = user;
  memcpy(*at, data, n);
  *at += n;
  return 0;
}

/* An assembled source (pieces at offsets, zeros between) reads, hashes,
 * compares and places as the flat bytes would, across 1 MiB chunks. */
static void test_place_pieces(void) {
  const uint64_t size = 3u << 20;
  unsigned char *flat = calloc(size, 1), *got = malloc(size);
  CHECK(flat && got);
  wp_place_piece pieces[64];
  size_t n = 0;
  uint64_t at = 5;
  for (; n < 64 && at < size; n++) {
    uint64_t len = (n % 7 == 3) ? (1u << 20) + 17 : 1000 + n * 13;
    if (at + len > size)
      len = size - at;
    unsigned char *p = malloc(len);
    CHECK(p);
    for (uint64_t i = 0; i < len; i++)
      p[i] = (unsigned char)(n * 31 + i * 7 + 1);
    memcpy(flat + at, p, len);
    pieces[n] = (wp_place_piece){at, p, len};
    at += len + (n % 3) * 100; /* some pieces touch, some leave a gap */
  }
  wp_place_src asm_src = {.pieces = pieces, .n_pieces = n, .size = size};
  wp_place_src flat_src = {.data = flat, .size = size};
  unsigned char *w = got;
  wp_error err;
  CHECK(wp_place_each_chunk(&asm_src, append_chunk, &w, &err) == 0);
  CHECK(w == got + size && memcmp(got, flat, size) == 0);
  for (uint64_t off = 0; off < size; off += 333333) { /* gathers from any offset */
    size_t len = size - off < 70000 ? (size_t)(size - off) : 70000;
    wp_place_gather(&asm_src, off, len, got);
    CHECK(memcmp(got, flat + off, len) == 0);
  }
  char a[WP_MD5_HEX], b[WP_MD5_HEX];
  CHECK(wp_place_md5("x", 1, &asm_src, a, &err) == 0);
  CHECK(wp_place_md5("x", 1, &flat_src, b, &err) == 0);
  CHECK(strcmp(a, b) == 0);
  int order = 9;
  CHECK(wp_bytes_compare(&asm_src, &flat_src, &order, &err) == 0 && order == 0);
  flat[size - 2] ^= 1; /* in the zeros after the last piece, or in it */
  CHECK(wp_bytes_compare(&asm_src, &flat_src, &order, &err) == 0 && order != 0);
  flat[size - 2] ^= 1;
  wp_place_how how;
  wp_place_methods m = {true, true};
  CHECK(wp_place_file(NULL, tmp, "assembled.bin", &asm_src, m, &how, a, &err) == 0);
  CHECK(wp_place_md5(NULL, 0, &flat_src, b, &err) == 0);
  CHECK(how == WP_PLACED_STREAM && strcmp(a, b) == 0); /* the MD5 of what was written */
  char path[300];
  snprintf(path, sizeof path, "%s/assembled.bin", tmp);
  wp_place_src placed = {.path = path, .size = size};
  CHECK(wp_bytes_compare(&placed, &flat_src, &order, &err) == 0 && order == 0);
  for (size_t i = 0; i < n; i++)
    free((void *)pieces[i].data);
  free(flat);
  free(got);
}

/* The field walker the lazy HLO reader trusts instead of protobuf-c. */
static void test_pb_fields(void) {
  const uint8_t *p, *pl;
  uint64_t tag;
  size_t n;
  /* field 2, length 3 */
  static const uint8_t ok[] = {0x12, 0x03, 0x08, 0x01, 0x00};
  p = ok;
  CHECK(wp_pb_next_field(&p, ok + sizeof ok, &tag, &pl, &n) == 0 && tag == 0x12 && n == 3 &&
        pl == ok + 2 && p == ok + 5);
  /* a 5-byte key is read, a 6-byte one is not (protobuf-c refuses it) */
  static const uint8_t key5[] = {0x80, 0x80, 0x80, 0x80, 0x01, 0x00};
  static const uint8_t key6[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x00};
  p = key5;
  CHECK(wp_pb_next_field(&p, key5 + sizeof key5, &tag, &pl, &n) == 0 && tag == 1ull << 28);
  p = key6;
  CHECK(wp_pb_next_field(&p, key6 + sizeof key6, &tag, &pl, &n) == -1);
  /* field number 0, a length past the end, a group */
  static const uint8_t zero[] = {0x00, 0x00}, past[] = {0x0a, 0x05, 0x00}, group[] = {0x0b};
  p = zero;
  CHECK(wp_pb_next_field(&p, zero + 2, &tag, &pl, &n) == -1);
  p = past;
  CHECK(wp_pb_next_field(&p, past + 3, &tag, &pl, &n) == -1);
  p = group;
  CHECK(wp_pb_next_field(&p, group + 1, &tag, &pl, &n) == -1);
  /* scans: whole fields only; depth follows payloads that scan */
  CHECK(wp_pb_scans(ok, sizeof ok));
  CHECK(!wp_pb_scans(ok, 3));
  uint8_t deep[128];
  size_t len = 0;
  for (int i = 0; i < 61; i++) { /* 61 nested field-1 messages, the innermost empty */
    memmove(deep + 2, deep, len);
    deep[0] = 0x0a;
    deep[1] = (uint8_t)len;
    len += 2;
  }
  CHECK(wp_pb_depth(deep, len, 100) == 60);
  CHECK(wp_pb_depth(deep, len, 50) == 51);
  /* a level holding a field numbered 0 (a key written long) is a message to
   * protobuf-c, which recurses into it: it counts, and so do the fields
   * after that one */
  static const uint8_t z[] = {0x0a, 0x07, 0x80, 0x00, 0x00, 0x0a, 0x02, 0x08, 0x01};
  CHECK(wp_pb_depth(z, sizeof z, 100) == 2);
}

/* wp_pb_unpacks_surely: sure only of what protobuf-c unpacks (checked
 * here by unpacking), unsure of what it refuses or reads as field 0. */
static void test_pb_unpacks_surely(void) {
  const ProtobufCMessageDescriptor *d = &xla__hlo_instruction_proto__descriptor;
  /* name "a", opcode "add", operand_ids 5 (a varint), 1 and 2 (packed), and
   * an unknown field 1000 */
  static const uint8_t ok[] = {0x0a, 0x01, 'a', 0x12, 0x03, 'a', 'd', 'd', 0xa0, 0x02, 0x05,
                               0xa2, 0x02, 0x02, 0x01, 0x02, 0xc0, 0x3e, 0x01};
  wp_arena *a = wp_arena_create();
  CHECK(wp_pb_unpacks_surely(d, ok, sizeof ok));
  Xla__HloInstructionProto *ins = wp_pb_unpack(a, d, ok, sizeof ok);
  CHECK(ins && ins->n_operand_ids == 3 && ins->base.n_unknown_fields == 1);
  CHECK(wp_pb_unpacks_surely(d, ok, 0));
  /* a packed varint cut short; a length prefix of 6 bytes (protobuf-c
   * refuses it); a key written long (field 0); a string as a varint */
  static const uint8_t cut[] = {0xa2, 0x02, 0x02, 0x01, 0x81};
  static const uint8_t long_len[] = {0x0a, 0x81, 0x80, 0x80, 0x80, 0x80, 0x00, 'a'};
  static const uint8_t field0[] = {0x80, 0x00, 0x00};
  static const uint8_t wire[] = {0x08, 0x01};
  CHECK(!wp_pb_unpacks_surely(d, cut, sizeof cut));
  CHECK(!wp_pb_unpacks_surely(d, long_len, sizeof long_len) &&
        !wp_pb_unpack(a, d, long_len, sizeof long_len));
  CHECK(!wp_pb_unpacks_surely(d, field0, sizeof field0));
  CHECK(!wp_pb_unpacks_surely(d, wire, sizeof wire) && !wp_pb_unpack(a, d, wire, sizeof wire));
  wp_arena_destroy(a);
}

static bool all_utf8(const ProtobufCMessageDescriptor *m, const ProtobufCFieldDescriptor *f) {
  (void)m, (void)f;
  return true;
}

/* wp_pb_bad_string: the path counts a repeated field's earlier fields
 * with other fields between, and is cut to its buffer. */
static void test_pb_bad_string(void) {
  /* wp.bir.Module {functions {name "f"}, artifacts {}, functions {name "g",
   * const_files {name "a"}, const_files {name "a\0b" (or "a\xffb")}}} */
  uint8_t m[] = {0x22, 0x03, 0x0a, 0x01, 'f', 0x2a, 0x00, 0x22, 0x0f, 0x0a, 0x01, 'g',
                 0x12, 0x03, 0x0a, 0x01, 'a', 0x12, 0x05, 0x0a, 0x03, 'a', 0, 'b'};
  char path[64];
  const char *why = wp_pb_bad_string(&wp__bir__module__descriptor, m, sizeof m, NULL, path,
                                     sizeof path);
  CHECK(why && !strcmp(why, "holds a NUL byte") &&
        !strcmp(path, "functions[1].const_files[1].name"));
  char small[8];
  CHECK(wp_pb_bad_string(&wp__bir__module__descriptor, m, sizeof m, NULL, small, sizeof small) &&
        !strcmp(small, "functio"));
  CHECK(wp_pb_bad_string(&wp__bir__module__descriptor, m, sizeof m, NULL, NULL, 0));
  m[sizeof m - 2] = 0xff;
  CHECK(!wp_pb_bad_string(&wp__bir__module__descriptor, m, sizeof m, NULL, path, sizeof path) &&
        path[0] == 0);
  why = wp_pb_bad_string(&wp__bir__module__descriptor, m, sizeof m, all_utf8, path, sizeof path);
  CHECK(why && !strcmp(why, "not UTF-8") && !strcmp(path, "functions[1].const_files[1].name"));
}

static bool utf8_valid(const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    int more = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2
             : (*p & 0xF8) == 0xF0 ? 3 : -1;
    if (more < 0)
      return false;
    for (p++; more > 0; more--, p++)
      if ((*p & 0xC0) != 0x80)
        return false;
  }
  return true;
}

/* A message past the buffer keeps its start and its end (the cause). */
static void test_error_fit(void) {
  wp_error err;
  static char path[6000];
  memset(path, 'p', sizeof path - 1);
  /* a two-byte character across the place where the head is cut */
  memcpy(path + (WP_ERROR_MAX - 8) / 2 - 1, "\xc3\xbc\xc3\xbc", 4);
  CHECK(wp_error_set(&err, "%s", "short") == -1 && !strcmp(err.msg, "short"));
  wp_error_errno(&err, ENOENT, "%s/weights/w.npy", path);
  CHECK(utf8_valid(err.msg));
  size_t n = strlen(err.msg);
  CHECK(n < WP_ERROR_MAX && n > WP_ERROR_MAX - 16);
  CHECK(!strncmp(err.msg, "pppp", 4));
  CHECK(strstr(err.msg, " [...] ") != NULL);
  CHECK(strstr(err.msg, "/weights/w.npy: No such file or directory") != NULL);
  wp_error_set(&err, "parameter 'w'");
  wp_error_prefix(&err, "%s", path);
  n = strlen(err.msg);
  CHECK(n < WP_ERROR_MAX && strstr(err.msg, ": parameter 'w'") == err.msg + n - 15);
  CHECK(utf8_valid(err.msg));
}

/* A file written to while it is read (here by the reader's own callback,
 * after the first 1 MiB chunk) is an error, not a mix of two versions. */
typedef struct scribble {
  const char *path;
  int calls;
} scribble;

static int scribble_chunk(const void *data, size_t n, void *user) {
  (void)data;
  (void)n;
  scribble *s = user;
  if (s->calls++ == 0) {
    FILE *f = fopen(s->path, "r+b");
    CHECK(f != NULL);
    fseek(f, 3 << 20, SEEK_SET);
    fputs("changed", f);
    fclose(f);
  }
  return 0;
}

static void test_place_changed(void) {
  char path[300];
  snprintf(path, sizeof path, "%s/changing.bin", tmp);
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  static char zeros[1 << 20];
  for (int i = 0; i < 4; i++)
    fwrite(zeros, 1, sizeof zeros, f);
  fclose(f);
  /* times well in the past, so the write cannot land in the same tick */
  struct timespec old[2] = {{1000000000, 0}, {1000000000, 0}};
  CHECK(utimensat(AT_FDCWD, path, old, 0) == 0);
  wp_place_src src = {.path = path, .offset = 0, .size = 4u << 20};
  scribble s = {path, 0};
  wp_error err;
  CHECK(wp_place_each_chunk(&src, scribble_chunk, &s, &err) == -1);
  CHECK(strstr(err.msg, "changed while it was read") != NULL);
  s.calls = 1; /* no more writes: the same file reads cleanly */
  CHECK(wp_place_each_chunk(&src, scribble_chunk, &s, &err) == 0);
  wp_place_src too_long = {.path = path, .offset = 1, .size = 4u << 20};
  CHECK(wp_place_each_chunk(&too_long, scribble_chunk, &s, &err) == -1);
  CHECK(strstr(err.msg, "does not hold the 4194304 bytes at offset 1") != NULL);
}

static void test_text_depth(void) {
  size_t line;
  const char *t = "module {\n  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                  "    \"x.op\"() {s = \"[[[{{(<\\\"\"} : () -> () // [[[[[[\n  }\n}\n";
  CHECK(wp_text_depth(t, strlen(t), 100, &line) == 3 && line == 2);
  /* "->" closes nothing: the tensor<...> after it still counts */
  CHECK(wp_text_depth("(a) -> tensor<tensor<i1>>", 25, 100, NULL) == 2);
  char deep[4001];
  for (int i = 0; i < 2000; i++)
    deep[i] = '[', deep[2000 + i] = ']';
  deep[4000] = 0;
  CHECK(wp_text_depth(deep, 4000, 1000, &line) == 1001 && line == 1); /* stops past the limit */
  CHECK(wp_text_depth(deep, 4000, 5000, NULL) == 2000);
  CHECK(wp_text_depth("]]]>>)[", 7, 10, NULL) == 1); /* stray closers do not go negative */
}

static sigjmp_buf g_bus_jump;
static char g_bus_path[600];
static size_t g_bus_len;

static void on_test_bus(int sig, siginfo_t *info, void *uc) {
  (void)sig, (void)uc;
  g_bus_len = wp_mapreg_path_at(info->si_addr, g_bus_path, sizeof g_bus_path);
  siglongjmp(g_bus_jump, 1);
}

/* A mapped file that shrinks: the page past its new end raises SIGBUS, and
 * the faulting address leads back to the file's path (opt's handler names
 * it in its error). */
static void test_mapreg(void) {
  char path[300];
  snprintf(path, sizeof path, "%s/shrinks.bin", tmp);
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  static unsigned char page[1 << 16];
  memset(page, 7, sizeof page);
  CHECK(fwrite(page, 1, sizeof page, f) == sizeof page);
  fclose(f);
  wp_mapped_file m;
  wp_error err;
  CHECK(wp_file_map(path, &m, &err) == 0 && !m.heap && !m.slab);
  char got[600];
  size_t n = wp_mapreg_path_at(m.data + 100, got, sizeof got);
  CHECK(n == strlen(path) && !memcmp(got, path, n));
  CHECK(wp_mapreg_path_at(m.data + sizeof page + 8192, got, sizeof got) == 0);
  CHECK(truncate(path, 10) == 0);
  struct sigaction sa = {.sa_sigaction = on_test_bus, .sa_flags = SA_SIGINFO}, old;
  sigemptyset(&sa.sa_mask);
  CHECK(sigaction(SIGBUS, &sa, &old) == 0);
  volatile unsigned char sink = 0;
  if (!sigsetjmp(g_bus_jump, 1))
    sink = m.data[32768];
  (void)sink;
  sigaction(SIGBUS, &old, NULL);
  CHECK(g_bus_len == strlen(path) && !memcmp(g_bus_path, path, g_bus_len));
  const unsigned char *base = m.data;
  wp_file_unmap(&m);
  CHECK(wp_mapreg_path_at(base + 100, got, sizeof got) == 0);
}

/* What this process placed is known by name and inode: an extra name it
 * gave an earlier file is its own, the earlier file is not; only files in
 * a watched directory are taken back. */
static void test_placed(void) {
  /* one run's set; a second run's knows none of its files */
  wp_placed_set *set = wp_placed_set_create(), *next_run = wp_placed_set_create();
  char watched[300], other[300], path[400], alias[400], earlier[400], kept[400];
  snprintf(watched, sizeof watched, "%s/watched", tmp);
  snprintf(other, sizeof other, "%s/other", tmp);
  CHECK(mkdir(watched, 0755) == 0 && mkdir(other, 0755) == 0);
  static const char bytes[] = "0123456789";
  wp_place_src src = {.data = bytes, .size = 10};
  wp_place_how how;
  wp_place_methods m = {true, true};
  char md5[WP_MD5_HEX];
  wp_error err;
  snprintf(earlier, sizeof earlier, "%s/earlier.bin", watched);
  FILE *f = fopen(earlier, "wb");
  CHECK(f && fwrite(bytes, 1, 10, f) == 10 && fclose(f) == 0);
  CHECK(!wp_placed_here(set, earlier));
  CHECK(wp_place_file(set, watched, "earlier.bin", &src, m, &how, md5, &err) == 0);
  CHECK(how == WP_PLACED_EXISTING && !wp_placed_here(set, earlier)); /* the bytes were there */
  CHECK(wp_place_file(set, watched, "mine.bin", &src, m, &how, md5, &err) == 0);
  snprintf(path, sizeof path, "%s/mine.bin", watched);
  CHECK(wp_placed_here(set, path));
  CHECK(wp_place_alias(set, watched, "earlier.bin", "alias.bin", &err) == 0);
  snprintf(alias, sizeof alias, "%s/alias.bin", watched);
  CHECK(wp_placed_here(set, alias) && !wp_placed_here(set, earlier));
  CHECK(wp_place_file(set, other, "kept.bin", &src, m, &how, md5, &err) == 0);
  snprintf(kept, sizeof kept, "%s/kept.bin", other);
  CHECK(wp_placed_here(set, kept));
  wp_placed_take_back(set); /* nothing is watched yet */
  CHECK(access(path, F_OK) == 0);
  CHECK(wp_placed_watch_dir(set, watched) == 0);
  wp_placed_take_back(set);
  CHECK(access(path, F_OK) != 0 && access(alias, F_OK) != 0);
  CHECK(access(earlier, F_OK) == 0 && access(kept, F_OK) == 0);
  CHECK(wp_placed_here(set, kept) && !wp_placed_here(next_run, kept));
  wp_placed_set_destroy(set);
  wp_placed_set_destroy(next_run);
}

static void *spill_hash_thread(void *h) {
  wp_spill_hash_run(h);
  return NULL;
}

/* A text hashed on another thread as it spills has the MD5 of its bytes,
 * also when it is the second text of a spill file; a text that never
 * spilled, or was abandoned, gives no result and does not hang. */
static void test_spill_hash(void) {
  wp_jsonw_spill sp = WP_JSONW_SPILL_INIT;
  for (int round = 0; round < 2; round++) {
    wp_spill_hash *h = wp_spill_hash_create();
    CHECK(h != NULL);
    if (!h)
      return;
    pthread_t t;
    CHECK(pthread_create(&t, NULL, spill_hash_thread, h) == 0);
    wp_jsonw w = {.spill = &sp, .on_spill = wp_spill_hash_note, .on_spill_user = h};
    for (int i = 0; i < 300000; i++) {
      wp_jsonw_int(&w, i * (round + 1));
      wp_jsonw_raw(&w, ",\n", 2);
    }
    uint64_t size = 0;
    CHECK(wp_jsonw_finish(&w, &size) == 1);
    wp_spill_hash_end(h);
    pthread_join(t, NULL);
    char got[WP_MD5_HEX] = "", want[WP_MD5_HEX] = "";
    CHECK(wp_spill_hash_result(h, size, got));
    CHECK(!wp_spill_hash_result(h, size - 1, want));
    wp_place_src src = {.path = sp.path, .offset = w.spill_at, .size = size};
    wp_error err;
    CHECK(wp_place_md5(NULL, 0, &src, want, &err) == 0);
    CHECK_STR(got, want);
    CHECK(round == 0 || w.spill_at > 0);
    wp_spill_hash_destroy(h);
  }
  /* nothing noted: run returns at the end, and there is no digest */
  wp_spill_hash *h = wp_spill_hash_create();
  pthread_t t;
  CHECK(pthread_create(&t, NULL, spill_hash_thread, h) == 0);
  wp_jsonw w = {.spill = &sp, .on_spill = wp_spill_hash_note, .on_spill_user = h};
  wp_jsonw_lit(&w, "[]");
  uint64_t size = 0;
  CHECK(wp_jsonw_finish(&w, &size) == 0);
  wp_spill_hash_end(h);
  pthread_join(t, NULL);
  char got[WP_MD5_HEX];
  CHECK(!wp_spill_hash_result(h, size, got));
  wp_spill_hash_destroy(h);
  free(w.p);
  wp_jsonw_spill_close(&sp);
}

int main(void) {
  snprintf(tmp, sizeof tmp, "%s", "wp-unit-XXXXXX");
  CHECK(mkdtemp(tmp) != NULL);
  test_i64map();
  test_strmap();
  test_arena();
  test_resolve();
  test_model_dir_weights();
  test_output();
  test_jsonw();
  test_escape_controls();
  test_spill_hash();
  test_place_pieces();
  test_pb_fields();
  test_pb_unpacks_surely();
  test_pb_bad_string();
  test_error_fit();
  test_text_depth();
  test_place_changed();
  test_mapreg();
  test_placed();
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  CHECK(system(cmd) == 0);
  return wp_test_result("test_support");
}
