/* libFuzzer harness for the JSON the NEFF side parses, without a package
 * around it. The first byte picks the parser, the rest is the text:
 *   even  a BIR JSON module (what opt reads, the form of sg00/bir.json):
 *         wp_bir_from_json; one that is accepted must survive a round trip
 *         (to JSON and back gives the same JSON)
 *   odd   bom.json, checked by wp_neff_bom_check against two fixed members
 *         as neff cat and unpack stream them (all, and cat's one member) */
#include "wp_arena.h"
#include "wp_bir.h"
#include "wp_neff_read.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static json_t *round_trip(json_t *root, wp_arena *arena) {
  Wp__Bir__Module *m;
  wp_error err;
  return wp_bir_from_json(arena, root, &m, &err) ? NULL : wp_bir_to_json(m);
}

static void bir(const char *text, size_t len) {
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
  if (!root)
    return;
  wp_arena *arena = wp_arena_create();
  json_t *once = round_trip(root, arena), *twice = once ? round_trip(once, arena) : NULL;
  if (once && (!twice || !json_equal(once, twice))) {
    fprintf(stderr, "fuzz_neff_json: a BIR module does not survive to_json/from_json\n");
    abort();
  }
  json_decref(twice);
  json_decref(once);
  json_decref(root);
  wp_arena_destroy(arena);
}

/* The members stream as the reader hands them out: chunks, then NULL. */
static void feed(wp_neff_bom *b, const char *name, const char *data, size_t len) {
  if (len)
    wp_neff_bom_feed(name, len, data, len, b);
  wp_neff_bom_feed(name, len, NULL, 0, b);
}

static void bom(const char *text, size_t len, const char *only) {
  wp_error err;
  wp_neff_bom *b = wp_neff_bom_new(only, &err);
  if (!b)
    abort();
  feed(b, "kelf-0.json", "{}", 2);
  feed(b, "sg00/w.npy", "abc", 3);
  feed(b, "bom.json", text, len);
  wp_neff_bom_check(b, "fuzz.neff", &err);
  wp_neff_bom_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  const char *text = (const char *)data + 1;
  if (data[0] % 2 == 0) {
    bir(text, size - 1);
  } else {
    bom(text, size - 1, NULL);
    bom(text, size - 1, "sg00/w.npy");
  }
  return 0;
}
