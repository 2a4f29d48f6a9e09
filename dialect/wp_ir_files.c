/* Which file of an IR's inputs an output would replace: the files a module
 * names by path (an inlined weight's origin, a BIR constant file's
 * source, a constant file in the artifact directory). opt checks its
 * outputs against them before any pass runs; neff-pack checks its own when
 * a driver runs it. */
#include "wp_ir_files.h"

#include "wp_hlo_weight.h"
#include "wp_mlir_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool wp_same_file(const char *path, const struct stat *st) {
  struct stat o;
  return stat(path, &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino;
}

/* A walk over the IR for files it reads by path: an inlined weight's
 * origin (reloaded when its bytes were not kept) and a BIR constant
 * file's source. */
typedef struct ir_file_search {
  const char *artifact_dir; /* where "artifact" names lie, or NULL */
  const struct stat *st;
  char *buf;
  size_t n;
  bool found;
} ir_file_search;

static void check_path(ir_file_search *s, MlirStringRef v) {
  if (s->found)
    return;
  snprintf(s->buf, s->n, "%.*s", (int)v.length, v.data);
  s->found = v.length > 0 && strlen(s->buf) == v.length && wp_same_file(s->buf, s->st);
}

static MlirWalkResult ir_file_visit(MlirOperation op, void *user) {
  ir_file_search *s = user;
  MlirStringRef file, param;
  int64_t number;
  /* read as the passes read them: a weight reloaded through its origin, a
   * const file's source dictionary (wp_dict_get is null for anything else) */
  if (wp_hlo_weight_origin_get(wp_attr(op, "weight"), &file, &param, &number))
    check_path(s, file);
  MlirAttribute f = wp_dict_get(wp_attr(op, "source"), "file");
  if (!mlirAttributeIsNull(f) && mlirAttributeIsAString(f))
    check_path(s, wp_str_value(f));
  MlirAttribute artifact = wp_attr(op, "artifact");
  if (!s->found && s->artifact_dir && !mlirAttributeIsNull(artifact) &&
      mlirAttributeIsAString(artifact)) {
    MlirStringRef v = wp_str_value(artifact);
    snprintf(s->buf, s->n, "%s/%.*s", s->artifact_dir, (int)v.length, v.data);
    s->found = v.length > 0 && wp_same_file(s->buf, s->st);
  }
  return s->found ? MlirWalkResultInterrupt : MlirWalkResultAdvance;
}

const char *wp_ir_input_file(MlirModule module, const char *artifact_dir, const struct stat *st,
                             char *buf, size_t n) {
  if (mlirModuleIsNull(module))
    return NULL;
  MlirOperation m = mlirModuleGetOperation(module);
  char *recorded = NULL;
  MlirStringRef path;
  if (!artifact_dir && wp_attr_str(m, "bir.artifact_path", &path) && path.length)
    artifact_dir = recorded = strndup(path.data, path.length);
  ir_file_search s = {artifact_dir, st, buf, n, false};
  mlirOperationWalk(m, ir_file_visit, &s, MlirWalkPreOrder);
  free(recorded);
  return s.found ? buf : NULL;
}

