/* Which file of an IR's inputs an output would replace: the files a module
 * names by path (an inlined weight's origin, a BIR constant file's
 * source, a constant file in the artifact directory). opt checks its
 * outputs against them before any pass runs; neff-pack checks its own when
 * a driver runs it. */
#include "wp_ir_files.h"

#include "wp_hlo_weight.h"
#include "wp_mlir_util.h"
#include "wp_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A walk over the IR for files it reads by path: an inlined weight's
 * origin (reloaded when its bytes were not kept) and a BIR constant
 * file's source, collected in order and matched at once
 * (wp_same_file_among lists a directory instead of a stat per file). */
typedef struct ir_file_search {
  const char *artifact_dir; /* where "artifact" names lie, or NULL */
  char **paths;             /* owned, each malloc'd */
  size_t n, cap;
} ir_file_search;

static void add_path(ir_file_search *s, const char *dir, MlirStringRef v) {
  if (!v.length || memchr(v.data, 0, v.length))
    return; /* no such file: names nothing */
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    s->paths = wp_xrealloc(s->paths, s->cap * sizeof *s->paths);
  }
  size_t dl = dir ? strlen(dir) + 1 : 0;
  char *p = wp_xmalloc(dl + v.length + 1);
  if (dir) {
    memcpy(p, dir, dl - 1);
    p[dl - 1] = '/';
  }
  memcpy(p + dl, v.data, v.length);
  p[dl + v.length] = 0;
  s->paths[s->n++] = p;
}

static MlirWalkResult ir_file_visit(MlirOperation op, void *user) {
  ir_file_search *s = user;
  MlirStringRef file, param;
  int64_t number;
  /* read as the passes read them: a weight reloaded through its origin, a
   * const file's source dictionary (wp_dict_get is null for anything else) */
  if (wp_hlo_weight_origin_get(wp_attr(op, "weight"), &file, &param, &number))
    add_path(s, NULL, file);
  MlirAttribute f = wp_dict_get(wp_attr(op, "source"), "file");
  if (!mlirAttributeIsNull(f) && mlirAttributeIsAString(f))
    add_path(s, NULL, wp_str_value(f));
  MlirAttribute artifact = wp_attr(op, "artifact");
  if (s->artifact_dir && !mlirAttributeIsNull(artifact) && mlirAttributeIsAString(artifact))
    add_path(s, s->artifact_dir, wp_str_value(artifact));
  return MlirWalkResultAdvance;
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
  ir_file_search s = {artifact_dir, NULL, 0, 0};
  mlirOperationWalk(m, ir_file_visit, &s, MlirWalkPreOrder);
  long at = wp_same_file_among((const char *const *)s.paths, s.n, st);
  if (at >= 0)
    snprintf(buf, n, "%s", s.paths[at]);
  for (size_t i = 0; i < s.n; i++)
    free(s.paths[i]);
  free(s.paths);
  free(recorded);
  return at >= 0 ? buf : NULL;
}
