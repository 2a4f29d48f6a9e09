/* outline-weights: the model directory it writes. Every .npy file is
 * written before the IR changes (a directory that cannot be written
 * leaves the module as it was); then the rewrite, the module's export,
 * metadata.json, and the rename that makes the directory appear whole. */
#include "wp_hlo_outline.h"

#include "wp_diag.h"
#include "wp_hlo.h"
#include "wp_hlo_outline_impl.h"
#include "wp_hlo_types.h"
#include "wp_i64map.h"
#include "wp_jsonw.h"
#include "wp_mlir_util.h"
#include "wp_modelw.h"
#include "wp_npy.h"
#include "wp_strmap.h"

#include <jansson.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODEL_FILE "model.hlo.pb"

/* The .npy dtype of an XLA element type. Types NumPy has no dtype for
 * (bfloat16, the float8 types, sub-byte integers: a byte each) are raw
 * void bytes of their width, which stock NumPy loads and inline-weights
 * takes as the parameter's own type. */
static const char *npy_descr(int prim) {
  switch (prim) {
  case WP_PRED: return "|b1";
  case WP_S8: return "|i1";
  case WP_S16: return "<i2";
  case WP_S32: return "<i4";
  case WP_S64: return "<i8";
  case WP_U8: return "|u1";
  case WP_U16: return "<u2";
  case WP_U32: return "<u4";
  case WP_U64: return "<u8";
  case WP_F16: return "<f2";
  case WP_F32: return "<f4";
  case WP_F64: return "<f8";
  case WP_C64: return "<c8";
  case WP_C128: return "<c16";
  case WP_BF16: return "|V2";
  default: return "|V1";
  }
}

static int dims_of(MlirType type, int64_t *dims) {
  int rank = (int)mlirShapedTypeGetRank(type);
  for (int i = 0; i < rank; i++)
    dims[i] = mlirShapedTypeGetDimSize(type, i);
  return rank;
}

static bool same_array(const wp_outline_const *a, const wp_outline_const *b) {
  return a->prim == b->prim && mlirTypeEqual(a->type, b->type) && a->size == b->size &&
         (a->size == 0 || memcmp(a->bytes, b->bytes, a->size) == 0);
}

/* Which file each constant's bytes go to: one per distinct (element type,
 * shape, bytes), named after the first constant that has them. Returns the
 * files' names ("weights/NAME.npy", arena memory) and the index of the
 * constant each file is written from. */
typedef struct out_file {
  char *rel;
  size_t from;
} out_file;

static out_file *assign_files(wp_outline_plan *plan, wp_arena *arena, size_t *n_files) {
  out_file *files = wp_xmalloc((plan->n + 1) * sizeof *files);
  size_t nf = 0;
  wp_i64map by_hash; /* hash -> first file + 1 */
  size_t *next_same = wp_xmalloc((plan->n + 1) * sizeof *next_same); /* per file: chain */
  wp_strmap used;    /* lower-cased names taken (case-insensitive file systems) */
  wp_i64map_init(&by_hash);
  wp_strmap_init(&used);
  for (size_t i = 0; i < plan->n; i++) {
    wp_outline_const *c = &plan->c[i];
    int64_t dims[64];
    int rank = dims_of(c->type, dims);
    uint64_t mix = (uint64_t)wp_hash_bytes(c->bytes, (size_t)c->size) ^
                   (uint64_t)wp_hash_bytes(dims, (size_t)rank * sizeof *dims) * 31u ^
                   (uint64_t)c->prim;
    int64_t h = (int64_t)mix;
    int64_t v;
    size_t f = SIZE_MAX;
    if (wp_i64map_get(&by_hash, h, &v))
      for (size_t k = (size_t)v - 1; k != SIZE_MAX && f == SIZE_MAX; k = next_same[k])
        if (same_array(&plan->c[files[k].from], c))
          f = k;
    if (f == SIZE_MAX) {
      f = nf++;
      files[f].from = i;
      next_same[f] = wp_i64map_get(&by_hash, h, &v) ? (size_t)v - 1 : SIZE_MAX;
      wp_i64map_put(&by_hash, h, (int64_t)f + 1);
      char base[WP_MODELW_NAME_MAX], name[WP_MODELW_NAME_MAX + 24];
      wp_modelw_file_name(c->name.data, c->name.length, base);
      snprintf(name, sizeof name, "%s", base);
      for (int k = 2;; k++) {
        size_t len = strlen(name);
        char *lower = wp_arena_strndup(arena, name, len);
        for (size_t j = 0; j < len; j++)
          lower[j] = (char)(lower[j] >= 'A' && lower[j] <= 'Z' ? lower[j] + 32 : lower[j]);
        if (!wp_strmap_get(&used, lower, len, NULL)) {
          wp_strmap_put(&used, lower, len, 1);
          break;
        }
        snprintf(name, sizeof name, "%s-%d", base, k);
      }
      size_t n = strlen(name) + 16;
      files[f].rel = wp_arena_alloc(arena, n);
      snprintf(files[f].rel, n, "weights/%s.npy", name);
    }
    c->file = f;
  }
  wp_i64map_free(&by_hash);
  wp_strmap_free(&used);
  free(next_same);
  *n_files = nf;
  return files;
}

static bool all_digits(MlirStringRef s) {
  for (size_t i = 0; i < s.length; i++)
    if (s.data[i] < '0' || s.data[i] > '9')
      return false;
  return true;
}

/* weight_files by parameter name when every parameter of the new entry
 * has a name inline-weights can look up (non-empty, not all digits, which
 * would be read as a number, unique, UTF-8 as JSON needs); else the list
 * form, indexed by parameter number, which never is ambiguous. */
static bool names_usable(const wp_outline_plan *plan) {
  intptr_t n = mlirBlockGetNumArguments(plan->body);
  MlirAttribute all = wp_attr(plan->entry, "arg_attrs");
  wp_strmap seen;
  wp_strmap_init(&seen);
  bool ok = true;
  for (intptr_t i = 0; i < n && ok; i++) {
    MlirAttribute d = mlirAttributeIsNull(all) ? all : mlirArrayAttrGetElement(all, i);
    MlirAttribute a = wp_dict_get(d, "hlo.name");
    MlirStringRef s = !mlirAttributeIsNull(a) && mlirAttributeIsAString(a)
                          ? wp_str_value(a)
                          : (MlirStringRef){"", 0};
    ok = s.length && !all_digits(s) && !memchr(s.data, 0, s.length) &&
         wp_utf8_valid(s.data, s.length) && !wp_strmap_get(&seen, s.data, s.length, NULL);
    if (ok)
      wp_strmap_put(&seen, s.data, s.length, 1);
  }
  wp_strmap_free(&seen);
  return ok;
}

static char *metadata_text(const wp_outline_plan *plan, const out_file *files) {
  json_t *root = json_object();
  json_t *models = json_array();
  json_array_append_new(models, json_string(MODEL_FILE));
  json_object_set_new(root, "model_files", models);
  json_t *weights;
  if (names_usable(plan)) {
    weights = json_object();
    for (size_t j = 0; j < plan->n; j++) {
      char *key = strndup(plan->c[j].name.data, plan->c[j].name.length);
      if (!key)
        wp_out_of_memory();
      json_object_set_new(weights, key, json_string(files[plan->c[j].file].rel));
      free(key);
    }
  } else {
    weights = json_array();
    for (intptr_t i = 0; i < plan->n_before; i++)
      json_array_append_new(weights, json_null());
    for (size_t j = 0; j < plan->n; j++)
      json_array_append_new(weights, json_string(files[plan->c[j].file].rel));
  }
  json_object_set_new(root, "weight_files", weights);
  char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  json_decref(root);
  if (!text)
    wp_out_of_memory();
  return text;
}

static int write_weights(wp_modelw *w, const wp_outline_plan *plan, const out_file *files,
                         size_t n_files, uint64_t *bytes, wp_error *err) {
  char *head = wp_xmalloc(WP_NPY_MAX_HEADER);
  int rc = 0;
  for (size_t f = 0; f < n_files && rc == 0; f++) {
    const wp_outline_const *c = &plan->c[files[f].from];
    int64_t dims[64];
    int rank = dims_of(c->type, dims);
    size_t hlen = wp_npy_write_header(head, npy_descr(c->prim), dims, rank);
    rc = hlen ? wp_modelw_write(w, files[f].rel, head, hlen, c->bytes, c->size, err)
              : wp_error_set(err, "%s: no .npy header for this shape", files[f].rel);
    *bytes += c->size;
  }
  free(head);
  return rc;
}

int wp_hlo_outline_module(MlirOperation module, const wp_outline_options *opts,
                          wp_outline_stats *stats) {
  memset(stats, 0, sizeof *stats);
  wp_arena *arena = wp_arena_create();
  wp_outline_plan plan;
  if (wp_outline_plan_make(module, opts->min_bytes, arena, &plan)) {
    wp_arena_destroy(arena);
    return -1;
  }
  MlirLocation nowhere = wp_unknown_loc(module);
  wp_error err;
  wp_modelw *w = NULL;
  size_t n_files = 0;
  out_file *files = NULL;
  char *meta = NULL;
  int rc = -1;
  if (wp_modelw_begin(opts->model_dir, &w, &err)) {
    wp_emit_error(nowhere, "outline-weights: %s", err.msg);
    goto out;
  }
  files = assign_files(&plan, arena, &n_files);
  if (write_weights(w, &plan, files, n_files, &stats->bytes, &err)) {
    wp_emit_error(nowhere, "outline-weights: %s", err.msg);
    goto out;
  }
  wp_outline_apply(&plan, arena);
  meta = metadata_text(&plan, files);
  const void *data;
  size_t len;
  MlirLocation where;
  if (wp_hlo_export(mlirModuleFromOperation(module), arena, true, &data, &len, &where, &err)) {
    wp_emit_error(mlirLocationIsNull(where) ? nowhere : where,
                  "outline-weights: the module cannot be written: %s", err.msg);
    goto out;
  }
  if (wp_modelw_write(w, MODEL_FILE, NULL, 0, data, len, &err) ||
      wp_modelw_write(w, "metadata.json", meta, strlen(meta), "\n", 1, &err)) {
    wp_emit_error(nowhere, "outline-weights: %s", err.msg);
    goto out;
  }
  wp_modelw *done = w;
  w = NULL;
  if (wp_modelw_commit(done, &err)) {
    wp_emit_error(nowhere, "outline-weights: %s", err.msg);
    goto out;
  }
  stats->outlined = plan.n;
  stats->first_param = plan.n_before;
  stats->files = n_files;
  stats->kept = plan.kept;
  stats->kept_elsewhere = plan.kept_elsewhere;
  rc = 0;
out:
  wp_modelw_abort(w);
  free(meta);
  free(files);
  wp_outline_plan_free(&plan);
  wp_arena_destroy(arena);
  return rc;
}
