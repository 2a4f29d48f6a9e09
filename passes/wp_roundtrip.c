/* --verify-roundtrip: IR -> protobuf -> IR in a fresh context, compared by
 * printed form. */
#include "wp_pass.h"

#include "weightpack/weightpack.h"
#include "wp_bir.h"
#include "wp_hlo.h"
#include "wp_hlo_resource.h"
#include "wp_hlo_weight.h"
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
               "round trip through protobuf after %s changed the IR at line %d: "
               "before '%.*s', after '%.*s'",
               after, line, na > 400 ? 400 : na, la, nb > 400 ? 400 : nb, lb);
}

typedef struct text_buf {
  char buf[512]; /* dense_resource<KEY> : TYPE */
  size_t len;
  bool over;
} text_buf;

static void append_text(MlirStringRef s, void *user) {
  text_buf *b = user;
  if (b->over || s.length >= sizeof b->buf - b->len) {
    b->over = true;
    return;
  }
  memcpy(b->buf + b->len, s.data, s.length);
  b->len += s.length;
}

/* A dense_resource constant without a `weight` origin (written by hand, or
 * by another tool) goes to protobuf as its bytes and comes back as a dense
 * literal, or, for the hlo dialect's own element types, as a resource of
 * another name: the same constant in another form. When BACK's literal holds
 * exactly ORIG's bytes, BACK gets ORIG's resource attribute (by name, without
 * a blob; only the name is printed) so the comparison sees the same IR; bytes
 * that differ are left for the comparison to report. The two modules are
 * walked in step; where their structure differs, the printed IR differs
 * anyway. */
static int settle_resources(MlirOperation orig, MlirOperation back, wp_arena *arena,
                            wp_error *err) {
  /* (identifiers of two contexts never compare equal: compare their text) */
  MlirStringRef name_a = wp_ident_str(mlirOperationGetName(orig)),
                name_b = wp_ident_str(mlirOperationGetName(back));
  if (!mlirStringRefEqual(name_a, name_b))
    return 0;
  if (wp_op_is(orig, "hlo.constant")) {
    MlirAttribute v = wp_attr(orig, "value"), w = wp_attr(back, "value");
    MlirStringRef file, param;
    int64_t number;
    MlirAttribute weight = wp_attr(orig, "weight");
    bool origin = !mlirAttributeIsNull(weight) &&
                  wp_hlo_weight_origin_get(weight, &file, &param, &number);
    if (!mlirAttributeIsNull(v) && !mlirAttributeIsNull(w) && !origin &&
        wp_hlo_resource_is(v)) {
      const void *a, *b;
      uint64_t na, nb;
      if (wp_hlo_constant_bytes(orig, arena, &a, &na, err) ||
          wp_hlo_constant_bytes(back, arena, &b, &nb, err))
        return -1;
      text_buf text = {.len = 0}, now = {.len = 0};
      mlirAttributePrint(v, append_text, &text);
      if (wp_hlo_resource_is(w)) /* (never print a dense literal: it may be huge) */
        mlirAttributePrint(w, append_text, &now);
      else
        now.over = true;
      /* (a name the back context has already would be renamed: parse only
       * when the two differ) */
      bool same_text = !text.over && !now.over && text.len == now.len &&
                       memcmp(text.buf, now.buf, text.len) == 0;
      if (!same_text && na == nb && (na == 0 || memcmp(a, b, (size_t)na) == 0)) {
        MlirAttribute same = text.over ? (MlirAttribute){NULL}
                                       : mlirAttributeParseGet(mlirOperationGetContext(back),
                                                               (MlirStringRef){text.buf, text.len});
        if (!mlirAttributeIsNull(same))
          wp_set_attr(back, "value", same);
      }
    }
  }
  intptr_t nr = mlirOperationGetNumRegions(orig);
  if (nr != mlirOperationGetNumRegions(back))
    return 0;
  for (intptr_t r = 0; r < nr; r++) {
    MlirBlock ba = mlirRegionGetFirstBlock(mlirOperationGetRegion(orig, r));
    MlirBlock bb = mlirRegionGetFirstBlock(mlirOperationGetRegion(back, r));
    for (; !mlirBlockIsNull(ba) && !mlirBlockIsNull(bb);
         ba = mlirBlockGetNextInRegion(ba), bb = mlirBlockGetNextInRegion(bb)) {
      MlirOperation oa = mlirBlockGetFirstOperation(ba), ob = mlirBlockGetFirstOperation(bb);
      for (; !mlirOperationIsNull(oa) && !mlirOperationIsNull(ob);
           oa = mlirOperationGetNextInBlock(oa), ob = mlirOperationGetNextInBlock(ob))
        if (settle_resources(oa, ob, arena, err))
          return -1;
    }
  }
  return 0;
}

int wp_verify_roundtrip(MlirModule module, const char *after, MlirLocation *where,
                        wp_error *err) {
  *where = mlirOperationGetLocation(mlirModuleGetOperation(module));
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
  MlirLocation at;
  if (bir ? wp_bir_export(module, arena, &bytes, &len, &at, err)
          : wp_hlo_export(module, arena, false, &bytes, &len, &at, err)) {
    *where = at;
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
  if (settle_resources(mlirModuleGetOperation(module), mlirModuleGetOperation(back), arena,
                       err)) {
    wp_error_prefix(err, "--verify-roundtrip after %s", after);
    goto out;
  }
  before = print_for_compare(module);
  again = print_for_compare(back);
  if (!before || !again)
    wp_out_of_memory();
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
