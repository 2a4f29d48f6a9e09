/* libFuzzer harness: BIR protobuf bytes -> bir dialect (wp_bir_import, what
 * opt calls for input carrying the BIR schema marker), then the BIR
 * outputs opt can write from it (--emit=bir-proto, --emit=bir-json) and
 * --verify-roundtrip. Every input must give a module or an error message,
 * never a crash, hang or abort. */
#include "fuzz_common.h"
#include "wp_arena.h"
#include "wp_bir.h"
#include "wp_pass.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  (void)wp_bir_sniff(data, size);
  MlirContext ctx = fuzz_context();
  MlirModule m;
  MlirLocation where; /* where a refused round trip would report */
  wp_error err;
  if (wp_bir_import(ctx, size ? (const void *)data : "", size, "fuzz.bir", &m, &err) == 0) {
    wp_arena *arena = wp_arena_create();
    const void *bytes;
    size_t len;
    (void)wp_bir_export(m, arena, &bytes, &len, NULL, &err);
    Wp__Bir__Module *msg = wp_bir_to_proto(m, arena, 0, NULL, &err);
    if (msg) {
      json_t *j = wp_bir_to_json(msg);
      json_decref(j);
    }
    wp_arena_destroy(arena);
    (void)wp_verify_roundtrip(m, "parsing", &where, &err);
    mlirModuleDestroy(m);
  }
  mlirContextDestroy(ctx);
  return 0;
}
