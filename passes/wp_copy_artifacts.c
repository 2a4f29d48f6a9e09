/* copy-const-artifacts: every constant file a kernel owns is placed in the
 * module's artifact directory, and the module records an artifact per
 * file (section 3, TranslateNKIASTToBIR::copyConstFileToArtifact). */
#include "wp_pass.h"

#include "wp_bir.h"
#include "wp_bir_ops.h"
#include "wp_mlir_util.h"
#include "wp_place.h"

#include <errno.h>
#include <mlir-c/BuiltinAttributes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static MlirLocation unknown(MlirOperation op) {
  return mlirLocationUnknownGet(mlirOperationGetContext(op));
}

static int ensure_dir(MlirOperation module, const char *dir) {
  struct stat st;
  if (stat(dir, &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return 0;
    wp_emit_error(unknown(module), "%s: the artifact directory is not a directory", dir);
    return -1;
  }
  if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
    wp_emit_error(unknown(module), "%s: cannot create the artifact directory: %s", dir,
                  strerror(errno));
    return -1;
  }
  return 0;
}

static const char *how_name(wp_place_how how) {
  switch (how) {
  case WP_PLACED_REFLINK: return "reflink";
  case WP_PLACED_COPY_FILE_RANGE: return "copy_file_range";
  case WP_PLACED_STREAM: return "stream";
  case WP_PLACED_EXISTING: return "existing";
  }
  return "?";
}

/* Places one kernel's files; appends artifact records to *arts. */
static int place_kernel_files(const wp_pass_run *run, const char *dir, MlirOperation func,
                              MlirOperation kernel, const wp_bir_names *files,
                              wp_place_methods methods, wp_arena *arena, MlirAttribute **arts,
                              size_t *n_arts) {
  MlirOperation module = run->module;
  MlirContext c = mlirOperationGetContext(module);
  MlirAttribute list = wp_attr(kernel, "const_files");
  intptr_t n = mlirAttributeIsNull(list) ? 0 : mlirArrayAttrGetNumElements(list);
  char *fname = wp_bir_str(arena, func, "sym_name");
  for (intptr_t i = 0; i < n; i++) {
    MlirStringRef name = mlirFlatSymbolRefAttrGetValue(mlirArrayAttrGetElement(list, i));
    MlirOperation cf = wp_bir_names_find(files, name);
    if (mlirOperationIsNull(cf)) {
      wp_emit_error(mlirOperationGetLocation(kernel),
                    "copy-const-artifacts: kernel names const file '%.*s', which function '%s' "
                    "does not have", (int)name.length, name.data, fname);
      return -1;
    }
    if (!mlirAttributeIsNull(wp_attr(cf, "artifact")))
      continue; /* placed already (another kernel, or an earlier run) */
    wp_place_src src;
    wp_error err;
    char *cname = wp_arena_strndup(arena, name.data, name.length);
    if (wp_bir_const_file_source(module, cf, arena, &src, &err)) {
      wp_emit_error(mlirOperationGetLocation(cf), "copy-const-artifacts: %s", err.msg);
      return -1;
    }
    wp_place_how how;
    char md5[WP_MD5_HEX];
    if (wp_place_file(dir, cname, &src, methods, &how, md5, &err)) {
      wp_emit_error(unknown(module), "%s", err.msg);
      return -1;
    }
    if (run->hooks && run->hooks->debug)
      fprintf(stderr, "copy-const-artifacts: %s -> %s/%s (%s, %llu bytes)\n",
              src.path ? src.path : "(memory)", dir, cname, how_name(how),
              (unsigned long long)src.size);
    wp_set_attr(cf, "artifact", wp_str_attr(c, cname, strlen(cname)));
    if (md5[0])
      wp_set_attr(cf, "md5", wp_str_attr(c, md5, strlen(md5)));
    char info[256];
    snprintf(info, sizeof info, "constant file of %s: %llu bytes", fname,
             (unsigned long long)src.size);
    MlirNamedAttribute d[2] = {
        mlirNamedAttributeGet(mlirIdentifierGet(c, wp_sref("info")), wp_str_attr(c, info, strlen(info))),
        mlirNamedAttributeGet(mlirIdentifierGet(c, wp_sref("path")),
                              wp_str_attr(c, cname, strlen(cname)))};
    (*arts)[(*n_arts)++] = mlirDictionaryAttrGet(c, 2, d);
  }
  return 0;
}

static int run_copy_artifacts(const wp_pass_run *run) {
  MlirOperation module = run->module;
  MlirContext c = mlirOperationGetContext(module);
  if (!wp_bir_module_is_bir(mlirModuleFromOperation(module))) {
    wp_emit_error(mlirOperationGetLocation(module),
                  "copy-const-artifacts: the module is not BIR (run --bir-lower first)");
    return -1;
  }
  const char *dir = wp_pass_option(run, "artifact-dir");
  if (!dir[0] && run->hooks && run->hooks->artifact_dir)
    dir = run->hooks->artifact_dir;
  if (!dir[0]) {
    wp_emit_error(unknown(module), "copy-const-artifacts: no artifact directory; give "
                                   "artifact-dir=DIR");
    return -1;
  }
  const char *method = wp_pass_option(run, "copy-method");
  wp_place_methods methods = {true, true};
  if (!strcmp(method, "stream"))
    methods = (wp_place_methods){false, false};
  else if (!strcmp(method, "copy_file_range"))
    methods = (wp_place_methods){false, true};
  else if (method[0] && strcmp(method, "auto") != 0) {
    wp_emit_error(unknown(module), "copy-const-artifacts: copy-method=%s: use auto, "
                  "copy_file_range or stream", method);
    return -1;
  }
  if (ensure_dir(module, dir))
    return -1;
  wp_arena *arena = wp_arena_create();
  int rc = -1;
  /* Existing records first (an earlier run), then this run's. */
  MlirAttribute old = wp_attr(module, "bir.artifacts");
  size_t n_old = mlirAttributeIsNull(old) ? 0 : (size_t)mlirArrayAttrGetNumElements(old);
  size_t cap = n_old, n_arts = 0;
  for (MlirOperation f = wp_bir_next_function(module, (MlirOperation){NULL});
       !mlirOperationIsNull(f); f = wp_bir_next_function(module, f)) {
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      cap += wp_op_is(op, "bir.const_file");
  }
  MlirAttribute *arts = wp_arena_alloc(arena, (cap + 1) * sizeof *arts);
  for (size_t i = 0; i < n_old; i++)
    arts[n_arts++] = mlirArrayAttrGetElement(old, (intptr_t)i);
  for (MlirOperation f = wp_bir_next_function(module, (MlirOperation){NULL});
       !mlirOperationIsNull(f); f = wp_bir_next_function(module, f)) {
    wp_bir_names files;
    if (wp_bir_names_init(&files, f, "bir.const_file")) {
      wp_bir_names_free(&files);
      goto out;
    }
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    int frc = 0;
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op) && !frc;
         op = mlirOperationGetNextInBlock(op))
      if (wp_op_is(op, "bir.kernel"))
        frc = place_kernel_files(run, dir, f, op, &files, methods, arena, &arts, &n_arts);
    wp_bir_names_free(&files);
    if (frc)
      goto out;
  }
  wp_set_attr(module, "bir.artifact_path", wp_str_attr(c, dir, strlen(dir)));
  wp_set_attr(module, "bir.artifacts", mlirArrayAttrGet(c, (intptr_t)n_arts, arts));
  rc = 0;
out:
  wp_arena_destroy(arena);
  return rc;
}

const wp_pass_info wp_copy_artifacts_pass = {
    .name = "copy-const-artifacts",
    .title = "CopyConstArtifacts",
    .description = "place every kernel's constant files in the module's artifact directory "
                   "(reflink, copy_file_range or a streamed copy) and record them",
    .options = {{"artifact-dir", "the artifact directory (default: opt's --artifact-dir, else a "
                                 "private temporary directory)"},
                {"copy-method", "auto (reflink, then copy_file_range, then stream), "
                                "copy_file_range or stream"}},
    .run = run_copy_artifacts,
};
