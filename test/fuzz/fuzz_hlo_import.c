/* libFuzzer harness: HloModuleProto / HloProto bytes -> hlo dialect
 * (wp_hlo_import), then what a user's --verify-roundtrip does with the
 * result: export to protobuf, import that again and compare. Every input
 * must give a module or an error message, never a crash, hang or abort. */
#include "fuzz_common.h"
#include "wp_arena.h"
#include "wp_hlo.h"
#include "wp_pass.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* opt only imports what sniffs as HLO; the C API (wpImportHloProto)
   * imports anything, so the sniffer is exercised but not a gate. */
  (void)wp_hlo_sniff(data, size);
  MlirContext ctx = fuzz_context();
  MlirModule m;
  MlirLocation where; /* where a refused round trip would report */
  wp_error err;
  if (wp_hlo_import(ctx, size ? (const void *)data : "", size, "fuzz.pb", &m, &err) == 0) {
    /* Export with weights inlined (--emit=hlo-proto) and by origin (the
     * form the round trip uses); the round trip may refuse with a message
     * (a proto XLA itself would not write), which is no bug. */
    wp_arena *arena = wp_arena_create();
    const void *bytes;
    size_t len;
    (void)wp_hlo_export(m, arena, true, &bytes, &len, NULL, &err);
    wp_arena_destroy(arena);
    (void)wp_verify_roundtrip(m, "parsing", &where, &err);
    mlirModuleDestroy(m);
  } else {
    fuzz_check_backstop(&err);
  }
  mlirContextDestroy(ctx);
  return 0;
}
