#include "wp_neff_vars.h"

#include "wp_format.h"
#include "wp_i64map.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static const char *str_field(json_t *rec, const char *key) {
  const char *s = json_string_value(json_object_get(rec, key));
  return s ? s : "";
}

/* A non-negative integer field: 0 with *OUT, -1 when missing or not one. */
static int uint_field(json_t *rec, const char *key, uint64_t *out) {
  json_t *j = json_object_get(rec, key);
  if (!json_is_integer(j) || json_integer_value(j) < 0)
    return -1;
  *out = (uint64_t)json_integer_value(j);
  return 0;
}

static char *own(wp_neff_vars *v, char *s) {
  v->owned = wp_xrealloc(v->owned, (v->n_owned + 1) * sizeof *v->owned);
  v->owned[v->n_owned++] = s;
  return s;
}

static int bad(wp_error *err, const char *def, json_t *rec, const char *what) {
  json_t *id = json_object_get(rec, "var_id");
  return wp_error_set(err, "%s: variable %lld ('%s'): %s", def,
                      json_is_integer(id) ? (long long)json_integer_value(id) : -1LL,
                      str_field(rec, "name"), what);
}

/* The pointer REC as a tensor, its file variable found through IDS. */
static int add_tensor(wp_neff_vars *v, const char *def, const char *folder, size_t var,
                      size_t first, const wp_i64map *ids, wp_error *err) {
  json_t *rec = v->var[var].rec;
  wp_neff_tensor t = {.name = str_field(rec, "name"), .folder = folder, .var = var};
  t.dtype = json_string_value(json_object_get(rec, "dtype"));
  json_t *shape = json_object_get(rec, "shape");
  if (!t.dtype || !json_is_array(shape))
    return bad(err, def, rec, "a pointer without its \"dtype\" and \"shape\"");
  size_t rank = json_array_size(shape);
  int64_t *dims = (int64_t *)(void *)own(v, wp_xmalloc((rank + 1) * sizeof *dims));
  for (size_t i = 0; i < rank; i++) {
    json_t *d = json_array_get(shape, i);
    if (!json_is_integer(d) || json_integer_value(d) < 0)
      return bad(err, def, rec, "a \"shape\" that is not a list of sizes");
    dims[i] = (int64_t)json_integer_value(d);
  }
  if (rank > 4096)
    return bad(err, def, rec, "a \"shape\" of more than 4096 dimensions");
  t.rank = (int)rank;
  t.shape = dims;
  uint64_t ap;
  json_t *ref = json_object_get(rec, "referenced_var_id");
  if (uint_field(rec, "size", &t.size) || !json_is_integer(ref) ||
      (uint_field(rec, "const_ap_offset", &ap) && uint_field(rec, "backing_variable_off", &ap)))
    return bad(err, def, rec,
               "a pointer without its \"size\", \"referenced_var_id\" and \"const_ap_offset\"");
  int64_t at;
  if (!wp_i64map_get(ids, json_integer_value(ref), &at) ||
      strcmp(v->var[first + (size_t)at].type, "file") != 0)
    return bad(err, def, rec, "its \"referenced_var_id\" names no file variable");
  json_t *file = v->var[first + (size_t)at].rec;
  const char *file_name = json_string_value(json_object_get(file, "file_name"));
  uint64_t data_offset;
  if (!file_name || !*file_name || uint_field(file, "data_offset", &data_offset) ||
      uint_field(file, "size", &t.file_size))
    return bad(err, def, rec,
               "its file variable lacks \"file_name\", \"data_offset\" or \"size\"");
  if (data_offset > UINT64_MAX - ap || data_offset + ap > t.file_size ||
      t.size > t.file_size - (data_offset + ap))
    return bad(err, def, rec, "its bytes reach past the end of its file variable");
  t.offset = data_offset + ap;
  t.member = *folder ? own(v, wp_format("%s/%s", folder, file_name)) : file_name;
  if (v->n_tensor == v->cap_tensor) {
    v->cap_tensor = v->cap_tensor ? 2 * v->cap_tensor : 64;
    v->tensor = wp_xrealloc(v->tensor, v->cap_tensor * sizeof *v->tensor);
  }
  v->tensor[v->n_tensor++] = t;
  return 0;
}

int wp_neff_vars_add(wp_neff_vars *v, const char *def_member, const char *text, size_t len,
                     wp_error *err) {
  json_error_t je;
  json_t *root = json_loadb(text, len, 0, &je);
  if (!root)
    return wp_error_set(err, "%s: not JSON: line %d: %s", def_member, je.line, je.text);
  v->roots = wp_xrealloc(v->roots, (v->n_roots + 1) * sizeof *v->roots);
  v->roots[v->n_roots++] = root;
  json_t *vars = json_object_get(root, "var");
  if (!json_is_array(vars))
    return wp_error_set(err, "%s: no \"var\" list", def_member);
  const char *slash = strrchr(def_member, '/');
  char *folder = own(v, wp_xstrdup(def_member));
  folder[slash ? (size_t)(slash - def_member) : 0] = 0;
  /* var_id to record, so a pointer finds its file in one look-up (a
   * def.json may hold 100,000 variables) */
  size_t first = v->n_var;
  wp_i64map ids;
  wp_i64map_init(&ids);
  for (size_t i = 0; i < json_array_size(vars); i++) {
    json_t *rec = json_array_get(vars, i);
    json_t *id = json_object_get(rec, "var_id");
    if (!json_is_object(rec) || !json_is_integer(id)) {
      wp_i64map_free(&ids);
      return wp_error_set(err, "%s: variable %zu is not a record with a \"var_id\"", def_member,
                          i);
    }
    if (v->n_var == v->cap_var) {
      v->cap_var = v->cap_var ? 2 * v->cap_var : 64;
      v->var = wp_xrealloc(v->var, v->cap_var * sizeof *v->var);
    }
    const char *type = str_field(rec, "type");
    v->var[v->n_var++] = (wp_neff_var){
        .folder = folder,
        .type = type,
        .name = str_field(rec, strcmp(type, "file") == 0 ? "file_name" : "name"),
        .rec = rec};
    wp_i64map_put(&ids, json_integer_value(id), (int64_t)i);
  }
  int rc = 0;
  for (size_t i = first; i < v->n_var && !rc; i++)
    if (!strcmp(v->var[i].type, "pointer"))
      rc = add_tensor(v, def_member, folder, i, first, &ids, err);
  wp_i64map_free(&ids);
  return rc;
}

void wp_neff_vars_free(wp_neff_vars *v) {
  for (size_t i = 0; i < v->n_roots; i++)
    json_decref(v->roots[i]);
  for (size_t i = 0; i < v->n_owned; i++)
    free(v->owned[i]);
  free(v->roots);
  free(v->owned);
  free(v->var);
  free(v->tensor);
  memset(v, 0, sizeof *v);
}
