/* wp_metadata_read: the streaming reader gives what jansson gives, and
 * leaves to jansson every file it does not take on, so that a file reads
 * the same (or fails with the same words) either way. */
#include "wp_metadata.h"
#include "wp_test.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

static bool same_list(const wp_md_list *a, const wp_md_list *b) {
  if (a->kind != b->kind || a->n != b->n)
    return false;
  for (size_t i = 0; i < a->n; i++) {
    const wp_md_entry *x = &a->entries[i], *y = &b->entries[i];
    if (x->kind != y->kind || !x->key != !y->key || (x->key && strcmp(x->key, y->key)) ||
        !x->str != !y->str || (x->str && strcmp(x->str, y->str)))
      return false;
  }
  return true;
}

/* Reads TEXT (LEN bytes, copied to exactly that many: a read past the end
 * is caught) both ways; checks they agree. Returns 1 when the streaming
 * reader took it, 0 when jansson did, -1 when both refused it. */
static int both(const char *text, size_t len) {
  unsigned char *exact = malloc(len ? len : 1);
  memcpy(exact, text, len);
  wp_metadata s, j;
  wp_error es, ej;
  int rs = wp_metadata_read("m.json", exact, len, &s, &es);
  int rj = wp_metadata_read_jansson("m.json", exact, len, &j, &ej);
  free(exact);
  if ((rs == 0) != (rj == 0))
    fprintf(stderr, "differ on [%.*s]: %s / %s\n", (int)len, text, rs ? es.msg : "ok",
            rj ? ej.msg : "ok");
  CHECK((rs == 0) == (rj == 0));
  int took = -1;
  if (rs == 0 && rj == 0) {
    CHECK(!j.streamed);
    CHECK(same_list(&s.model_files, &j.model_files));
    CHECK(same_list(&s.weight_files, &j.weight_files));
    took = s.streamed;
  } else if (rs != 0 && rj != 0) {
    CHECK(!strcmp(es.msg, ej.msg));
  }
  if (rs == 0)
    wp_metadata_free(&s);
  if (rj == 0)
    wp_metadata_free(&j);
  return took;
}

static int both_str(const char *text) { return both(text, strlen(text)); }

static const char usual[] =
    "{\"model_files\": \"model.hlo.pb\", \"weight_files\": {\"b\": \"w/b.npy\", \"a\": "
    "\"w/a.npy\", \"3\": \"w/3.npy\", \"\": \"e.npy\", \"t\": true, \"n\": null, \"l\": "
    "[\"x\", [[]]]}, \"other\": [\"s\", true, false, null, [[]]]}";
static const char lists[] =
    "{\"weight_files\": [\"a.npy\", null, \"c.npy\", false, []],\n \"model_files\": "
    "[\"m.pb\", \"x.pb\", null]}";

static void check_cases(void) {
  CHECK(both_str(usual) == 1);
  CHECK(both_str(lists) == 1);
  CHECK(both_str("\xef\xbb\xbf{\"model_files\": \"m.pb\", \"weight_files\": {}}") == 1);
  CHECK(both_str("{\"model_files\": null, \"weight_files\": \"w.npy\"}") == 1);
  CHECK(both_str("{\"model_files\": true}") == 1);
  CHECK(both_str("{}") == 1);
  /* left to jansson, which reads them */
  CHECK(both_str("{\"version\": 2, \"weight_files\": {}}") == 0);
  CHECK(both_str("{\"config\": {\"a\": \"b\"}, \"weight_files\": {}}") == 0);
  CHECK(both_str("{\"weight_files\": {\"a\": {\"b\": \"c\"}}}") == 0);
  CHECK(both_str("{\"weight_files\": {\"caf\xc3\xa9\": \"w.npy\"}}") == 0);
  CHECK(both_str("{\"weight_files\": {\"a\": \"\\u0041.npy\"}}") == 0);
  CHECK(both_str("{\"model_files\": {\"a\": \"b\"}}") == 0);
  /* and refuse (the same words either way, as both() checks) */
  CHECK(both_str("{\"weight_files\": {\"a\": \"x\", \"a\": \"y\"}}") == -1);
  CHECK(both_str("{\"weight_files\": {}, \"weight_files\": {}}") == -1);
  CHECK(both_str("{\"weight_files\": {\"a\": \"\\u0000\"}}") == -1);
  CHECK(both_str("{\"weight_files\": {\"a\": \"x\\ud800\"}}") == -1);
  CHECK(both_str("{\"weight_files\": {\"a\": \"\xc0\x80\"}}") == -1);
  CHECK(both_str("{\"x\": 1e999}") == -1);
  CHECK(both_str("[\"weight_files\"]") == -1);
  CHECK(both_str("\"x\"") == -1);
  CHECK(both_str("{\"weight_files\": {\"a\": \"x\"}") == -1);
  CHECK(both_str("{\"a\": \"x\"} {}") == -1);
  CHECK(both_str("{\"a\": \"x\"} // note") == -1);
  CHECK(both_str("") == -1);
  CHECK(both("{\"a\": \"x\0y\"}", 13) == -1);
  /* an empty file, as mapped: no bytes at all */
  wp_metadata m;
  wp_error e;
  CHECK(wp_metadata_read("m.json", NULL, 0, &m, &e) != 0);
  CHECK(strstr(e.msg, "m.json:1:") && strstr(e.msg, "malformed JSON") &&
        !strstr(e.msg, "wrong arguments"));
}

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* Random edits of the two forms: whatever comes out, the readers agree. */
static void check_mutations(void) {
  static const char alphabet[] = "{}[],:\"\\ \nantrufel0123456789.-+eE\xc3\xa9\xef\x00";
  char buf[512];
  int counts[3] = {0};
  for (int iter = 0; iter < 200000; iter++) {
    const char *base = iter % 2 ? usual : lists;
    size_t len = strlen(base);
    memcpy(buf, base, len);
    for (int e = 1 + (int)(rnd() % 3); e > 0; e--) {
      size_t at = len ? rnd() % len : 0;
      char c = alphabet[rnd() % (sizeof alphabet - 1)];
      switch (rnd() % 4) {
      case 0: buf[at] = c; break;
      case 1: len = at; break;
      case 2: /* insert */
        if (len < sizeof buf) {
          memmove(buf + at + 1, buf + at, len - at);
          buf[at] = c;
          len++;
        }
        break;
      case 3: /* delete */
        if (len) {
          memmove(buf + at, buf + at + 1, len - at - 1);
          len--;
        }
        break;
      }
    }
    counts[both(buf, len) + 1]++;
  }
  /* every way was taken often */
  CHECK(counts[0] > 1000 && counts[1] > 1000 && counts[2] > 1000);
}

int main(void) {
  check_cases();
  check_mutations();
  return wp_test_result("test_metadata");
}
