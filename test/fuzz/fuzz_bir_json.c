/* libFuzzer harness: BIR JSON -> bir dialect, as opt's load_bir_json reads
 * it (jansson rejecting duplicate keys, wp_bir_from_json, then
 * wp_bir_from_proto), then --emit=bir-json and --verify-roundtrip on the
 * result. Every input must give a module or an error message, never a
 * crash, hang or abort. */
#include "fuzz_common.h"
#include "wp_arena.h"
#include "wp_bir.h"
#include "wp_pass.h"

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  json_error_t jerr;
  json_t *root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
  if (!root) /* jansson's own errors: not ours to fuzz */
    return 0;
  MlirContext ctx = fuzz_context();
  wp_arena *arena = wp_arena_create();
  Wp__Bir__Module *msg;
  MlirModule m;
  MlirLocation where; /* where a refused round trip would report */
  wp_error err;
  if (wp_bir_from_json(arena, root, &msg, &err) == 0) {
    if (wp_bir_from_proto(ctx, msg, "fuzz.json", &m, &err) == 0) {
      Wp__Bir__Module *again = wp_bir_to_proto(m, arena, 0, NULL, &err);
      if (again)
        json_decref(wp_bir_to_json(again));
      (void)wp_verify_roundtrip(m, "parsing", &where, &err);
      mlirModuleDestroy(m);
    }
  }
  wp_arena_destroy(arena);
  json_decref(root);
  mlirContextDestroy(ctx);
  return 0;
}
