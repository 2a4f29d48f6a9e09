/* Loading weightpack's dialects into a context. */
#include "weightpack/weightpack.h"

#include "wp_hlo.h"
#include "wp_hlo_text.h"
#include "wp_hlo_opcodes.h"
#include "wp_mlir_util.h"

#include <mlir-c/Dialect/Func.h>
#include <mlir-c/Dialect/IRDL.h>
#include <stdlib.h>
#include <string.h>

const char *wpVersion(void) { return WP_VERSION; }

extern const char wp_bir_irdl_text[]; /* generated from dialect/bir.irdl.mlir */

const char *wpDialectIRDL(const char *dialect) {
  if (!dialect)
    return NULL;
  if (strcmp(dialect, "hlo") == 0)
    return wp_hlo_irdl_text();
  if (strcmp(dialect, "bir") == 0)
    return wp_bir_irdl_text;
  return NULL;
}

static int load_irdl(MlirContext ctx, const char *name, wp_error *err) {
  MlirModule defs = mlirModuleCreateParse(ctx, wp_sref(wpDialectIRDL(name)));
  if (mlirModuleIsNull(defs))
    return wp_error_set(err, "internal error: the %s dialect's IRDL does not parse", name);
  MlirLogicalResult r = mlirLoadIRDLDialects(defs);
  mlirModuleDestroy(defs);
  if (mlirLogicalResultIsFailure(r))
    return wp_error_set(err, "internal error: the %s dialect's IRDL does not load", name);
  return 0;
}

int wpLoadDialects(MlirContext ctx, wp_error *err) {
  if (mlirContextIsNull(ctx))
    return wp_error_set(err, "wpLoadDialects: a null context");
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__irdl__(), ctx);
  static const char *const dialects[] = {"hlo", "bir"};
  for (size_t i = 0; i < sizeof dialects / sizeof dialects[0]; i++) {
    MlirDialect existing = mlirContextGetOrLoadDialect(ctx, wp_sref(dialects[i]));
    if (mlirDialectIsNull(existing) && load_irdl(ctx, dialects[i], err))
      return -1;
  }
  /* A dialect of the same name loaded before (someone else's "hlo") would
   * be taken for ours and fail later, far from the cause. */
  static const char *const probes[][2] = {{"hlo", "hlo.constant"}, {"bir", "bir.memloc"}};
  for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++)
    if (!mlirContextIsRegisteredOperation(ctx, wp_sref(probes[i][1])))
      return wp_error_set(err, "the context already has a dialect named '%s' that is not "
                          "weightpack's (no op '%s'); use a context without it",
                          probes[i][0], probes[i][1]);
  return 0;
}

int wpImportHloProto(MlirContext ctx, const void *data, size_t len, const char *filename,
                     MlirModule *out, wp_error *err) {
  if (!out)
    return wp_error_set(err, "wpImportHloProto: a null OUT");
  *out = (MlirModule){NULL};
  const char *label = filename ? filename : "<memory>";
  if (mlirContextIsNull(ctx))
    return wp_error_set(err, "%s: wpImportHloProto: a null context", label);
  if (!data && len)
    return wp_error_set(err, "%s: wpImportHloProto: null DATA of %zu bytes", label, len);
  if (!mlirContextIsRegisteredOperation(ctx, wp_sref("hlo.constant")))
    return wp_error_set(err, "%s: wpImportHloProto: the context has no hlo dialect (call "
                        "wpLoadDialects first)", label);
  if (wp_hlo_import(ctx, data ? data : "", len, label, out, err))
    return wp_error_prefix(err, "%s", label); /* opt prefixes its own; callers get it here */
  return 0;
}

int wpExportHloProto(MlirModule module, void **data, size_t *len, wp_error *err) {
  if (!data || !len)
    return wp_error_set(err, "wpExportHloProto: null DATA or LEN");
  *data = NULL;
  *len = 0;
  if (mlirModuleIsNull(module))
    return wp_error_set(err, "wpExportHloProto: a null module");
  wp_arena *arena = wp_arena_create();
  const void *bytes;
  int rc = wp_hlo_export(module, arena, true, &bytes, len, NULL, err);
  if (rc == 0) {
    *data = wp_xmalloc(*len);
    if (*len)
      memcpy(*data, bytes, *len);
  }
  wp_arena_destroy(arena);
  return rc;
}

int wpImportHloText(MlirContext ctx, const char *text, size_t len, const char *filename,
                    MlirModule *out, wp_error *err) {
  if (!out)
    return wp_error_set(err, "wpImportHloText: a null OUT");
  *out = (MlirModule){NULL};
  const char *label = filename ? filename : "<memory>";
  if (mlirContextIsNull(ctx))
    return wp_error_set(err, "%s: wpImportHloText: a null context", label);
  if (!text && len)
    return wp_error_set(err, "%s: wpImportHloText: null TEXT of %zu bytes", label, len);
  if (!mlirContextIsRegisteredOperation(ctx, wp_sref("hlo.constant")))
    return wp_error_set(err, "%s: wpImportHloText: the context has no hlo dialect (call "
                        "wpLoadDialects first)", label);
  /* its errors carry the label already (with the line and column) */
  return wp_hlo_text_import(ctx, text ? text : "", len, label, out, err);
}

int wpExportHloText(MlirModule module, char **text, size_t *len, wp_error *err) {
  if (!text || !len)
    return wp_error_set(err, "wpExportHloText: null TEXT or LEN");
  *text = NULL;
  *len = 0;
  if (mlirModuleIsNull(module))
    return wp_error_set(err, "wpExportHloText: a null module");
  wp_arena *arena = wp_arena_create();
  int rc = wp_hlo_text_emit(module, arena, text, len, NULL, err);
  wp_arena_destroy(arena);
  return rc;
}
