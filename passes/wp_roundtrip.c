/* --verify-roundtrip: IR -> protobuf -> IR in a fresh context, compared by
 * printed form. */
#include "wp_pass.h"

#include "weightpack/weightpack.h"
#include "wp_bir.h"
#include "wp_hlo.h"
#include "wp_mlir_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Resource blobs (weights) are compared through their origin attribute,
 * not their bytes: local scope leaves the resource section out (MLIR 19
 * would hex-encode every blob even to elide it). */
static char *print_for_compare(MlirModule m) {
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsUseLocalScope(flags);
  char *s = wp_print_op(mlirModuleGetOperation(m), flags, NULL);
  mlirOpPrintingFlagsDestroy(flags);
  return s;
}

static void first_difference(const char *a, const char *b, wp_error *err, const char *after) {
  int line = 1;
  const char *la = a, *lb = b;
  while (*a && *a == *b) {
    if (*a == '\n') {
      line++;
      la = a + 1;
      lb = b + 1;
    }
    a++;
    b++;
  }
  int na = (int)strcspn(la, "\n"), nb = (int)strcspn(lb, "\n");
  wp_error_set(err,
               "round trip through protobuf after %s changed the IR at line %d:\n"
               "  before: %.*s\n  after:  %.*s",
               after, line, na > 400 ? 400 : na, la, nb > 400 ? 400 : nb, lb);
}

int wp_verify_roundtrip(MlirModule module, const char *after, wp_error *err) {
  bool bir = wp_bir_module_is_bir(module);
  if (!bir && !wp_hlo_module_is_hlo(module))
    return wp_error_set(err, "--verify-roundtrip after %s: the module is neither HLO nor BIR",
                        after);
  int rc = -1;
  wp_arena *arena = wp_arena_create();
  MlirContext ctx = mlirContextCreate();
  MlirModule back = {NULL};
  char *before = NULL, *again = NULL;
  const void *bytes;
  size_t len;
  if (bir ? wp_bir_export(module, arena, &bytes, &len, err)
          : wp_hlo_export(module, arena, false, &bytes, &len, err)) {
    wp_error_prefix(err, "--verify-roundtrip after %s: export", after);
    goto out;
  }
  if (wpLoadDialects(ctx, err))
    goto out;
  if (bir ? wp_bir_import(ctx, bytes, len, "roundtrip", &back, err)
          : wp_hlo_import(ctx, bytes, len, "roundtrip", &back, err)) {
    wp_error_prefix(err, "--verify-roundtrip after %s: re-import", after);
    goto out;
  }
  before = print_for_compare(module);
  again = print_for_compare(back);
  if (!before || !again) {
    wp_error_set(err, "out of memory");
    goto out;
  }
  if (strcmp(before, again) != 0) {
    first_difference(before, again, err, after);
    goto out;
  }
  rc = 0;
out:
  free(before);
  free(again);
  if (!mlirModuleIsNull(back))
    mlirModuleDestroy(back);
  mlirContextDestroy(ctx);
  wp_arena_destroy(arena);
  return rc;
}
