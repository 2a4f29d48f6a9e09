/* libFuzzer harness: HLO text -> HloModuleProto (wp_hlo_text_parse), and
 * for text that reads, the printer's fixpoint: print it, read that, print
 * again; the two protos must pack to the same bytes and the two texts be
 * equal. Every input must give a module or an error message, never a
 * crash, hang, abort or a fixpoint that does not hold. (The importer
 * after it has fuzz_hlo_import of its own.) */
#include "wp_arena.h"
#include "wp_hlo_text.h"
#include "wp_pb.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  (void)wp_hlo_text_sniff("fuzz.txt", data, size);
  wp_arena *arena = wp_arena_create();
  Xla__HloModuleProto *m, *again;
  wp_error err;
  if (wp_hlo_text_parse(arena, size ? (const char *)data : "", size, "fuzz.hlo", NULL, NULL, &m,
                        &err) == 0) {
    char *t1 = NULL, *t2 = NULL;
    size_t n1, n2;
    /* the printer may refuse a module (a name no text can hold): no bug */
    if (wp_hlo_text_print(arena, m, NULL, NULL, &t1, &n1, &err) == 0) {
      if (wp_hlo_text_parse(arena, t1, n1, "printed.hlo", NULL, NULL, &again, &err)) {
        fprintf(stderr, "fuzz: printed text does not read back: %s\n%s\n", err.msg, t1);
        abort();
      }
      ProtobufCBinaryData a = wp_pb_pack(arena, &m->base), b = wp_pb_pack(arena, &again->base);
      if (wp_hlo_text_print(arena, again, NULL, NULL, &t2, &n2, &err) || n1 != n2 ||
          memcmp(t1, t2, n1) || a.len != b.len || memcmp(a.data, b.data, a.len)) {
        fprintf(stderr, "fuzz: text -> proto -> text -> proto is no fixpoint\n%s\n", t1);
        abort();
      }
    }
    free(t1);
    free(t2);
  }
  wp_arena_destroy(arena);
  return 0;
}
