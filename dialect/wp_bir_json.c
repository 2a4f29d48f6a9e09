/* wp.bir.Module <-> JSON (jansson). The JSON follows BIR's Set/Location
 * split: each memory_location_set lists its memory_locations. */
#include "wp_bir.h"
#include "wp_i64map.h" /* wp_hash_bytes */
#include "wp_bir_lowering.h"

#include "wp_bir_enums.h"
#include "wp_hex.h"
#include "wp_pb.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *hex(const uint8_t *p, size_t n) {
  char *s = malloc(2 * n + 1);
  if (!s)
    return json_null();
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    s[2 * i] = digits[p[i] >> 4];
    s[2 * i + 1] = digits[p[i] & 15];
  }
  s[2 * n] = 0;
  json_t *j = json_stringn_nocheck(s, 2 * n); /* hex digits: valid UTF-8 */
  free(s);
  return j;
}

static json_t *const_file_json(const Wp__Bir__ConstFile *cf) {
  json_t *j = json_object();
  json_object_set_new(j, "name", json_string(cf->name));
  json_object_set_new(j, "size", json_integer((json_int_t)cf->size));
  switch (cf->bytes_from_case) {
  case WP__BIR__CONST_FILE__BYTES_FROM_SOURCE:
    json_object_set_new(j, "source", json_pack("{s:s,s:I}", "file", cf->source->file, "offset",
                                               (json_int_t)cf->source->offset));
    break;
  case WP__BIR__CONST_FILE__BYTES_FROM_CONSTANT:
    json_object_set_new(j, "constant", json_string(cf->constant));
    break;
  case WP__BIR__CONST_FILE__BYTES_FROM_DATA:
    json_object_set_new(j, "data", hex(cf->data.data, cf->data.len));
    break;
  case WP__BIR__CONST_FILE__BYTES_FROM_ASSEMBLED:
    json_object_set_new(j, "assembled", json_string(cf->assembled));
    break;
  default:
    break;
  }
  if (cf->artifact[0])
    json_object_set_new(j, "artifact", json_string(cf->artifact));
  if (cf->md5[0])
    json_object_set_new(j, "md5", json_string(cf->md5));
  if (cf->artifact_in_place)
    json_object_set_new(j, "artifact_in_place", json_true());
  if (cf->member_md5[0])
    json_object_set_new(j, "member_md5", json_string(cf->member_md5));
  if (cf->member_prefix_md5[0])
    json_object_set_new(j, "member_prefix_md5", json_string(cf->member_prefix_md5));
  return j;
}

static json_t *loc_json(const Wp__Bir__MemoryLocation *l) {
  json_t *j = json_object();
  json_object_set_new(j, "name", json_string(l->name));
  json_object_set_new(j, "memory_type", json_string(l->memory_type));
  json_object_set_new(j, "size", json_integer((json_int_t)l->size));
  json_object_set_new(j, "alignment", json_integer((json_int_t)l->alignment));
  json_object_set_new(j, "placement", json_integer((json_int_t)l->placement));
  if (l->const_file[0]) {
    json_object_set_new(j, "const_file", json_string(l->const_file));
    json_object_set_new(j, "const_ap_offset", json_integer((json_int_t)l->const_ap_offset));
    json_object_set_new(j, "const_sub_tensor_id", json_integer(l->const_sub_tensor_id));
    json_object_set_new(j, "is_regloc_offset", json_boolean(l->is_regloc_offset));
  }
  return j;
}

/* A set's name hash and its index, sorted by both. */
typedef struct name_hash {
  int64_t hash;
  size_t k;
} name_hash;

static int cmp_name_hash(const void *a, const void *b) {
  const name_hash *x = a, *y = b;
  return x->hash != y->hash ? (x->hash < y->hash ? -1 : 1) : (x->k > y->k) - (x->k < y->k);
}

/* The last set of hash H in BY (N of them, sorted), or -1. */
static int64_t last_of_hash(const name_hash *by, size_t n, int64_t h) {
  size_t lo = 0, hi = n; /* the first entry past H */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (by[mid].hash <= h)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo > 0 && by[lo - 1].hash == h ? (int64_t)by[lo - 1].k : -1;
}

int wp_bir_set_locations(const Wp__Bir__Function *f, size_t *first, size_t *next,
                         wp_error *err) {
  /* a set's name hash -> its index: the last set of a name (two are
   * refused later, as two sets, not as two locations). A sorted array:
   * a hash map of 100,000 sets was 6 MiB at neff-pack's peak. */
  name_hash *by_name = wp_xmalloc((f->n_sets + 1) * sizeof *by_name);
  size_t *last = wp_xmalloc((f->n_sets + 1) * sizeof *last);
  int rc = 0;
  for (size_t k = 0; k < f->n_sets; k++) {
    first[k] = last[k] = SIZE_MAX;
    by_name[k] = (name_hash){wp_hash_bytes(f->sets[k]->name, strlen(f->sets[k]->name)), k};
  }
  qsort(by_name, f->n_sets, sizeof *by_name, cmp_name_hash);
  for (size_t j = 0; j < f->n_locations && !rc; j++) {
    const char *set = f->locations[j]->set;
    int64_t k = last_of_hash(by_name, f->n_sets, wp_hash_bytes(set, strlen(set)));
    next[j] = SIZE_MAX;
    if (k < 0 || strcmp(f->sets[k]->name, set) != 0) {
      /* another name of the same hash, or none */
      for (k = 0; k < (int64_t)f->n_sets && strcmp(f->sets[k]->name, set) != 0; k++)
        ;
      if (k == (int64_t)f->n_sets) {
        if (err)
          rc = wp_error_set(err, "memory location '%s' names no set ('%s')",
                            f->locations[j]->name, set);
        continue;
      }
    }
    if (last[k] == SIZE_MAX)
      first[k] = (size_t)j;
    else
      next[last[k]] = (size_t)j;
    last[k] = (size_t)j;
  }
  free(last);
  free(by_name);
  return rc;
}

json_t *wp_bir_to_json(const Wp__Bir__Module *m) {
  json_t *root = json_object();
  json_object_set_new(root, "name", json_string(m->name));
  json_object_set_new(root, "artifact_path", json_string(m->artifact_path));
  json_t *funcs = json_array();
  for (size_t i = 0; i < m->n_functions; i++) {
    const Wp__Bir__Function *f = m->functions[i];
    json_t *jf = json_object();
    json_object_set_new(jf, "name", json_string(f->name));
    json_t *files = json_array();
    for (size_t k = 0; k < f->n_const_files; k++)
      json_array_append_new(files, const_file_json(f->const_files[k]));
    json_object_set_new(jf, "const_files", files);
    json_t *sets = json_array();
    size_t *first = malloc((f->n_sets + 1) * sizeof *first),
           *next = malloc((f->n_locations + 1) * sizeof *next);
    if (!first || !next || wp_bir_set_locations(f, first, next, NULL)) {
      free(first), free(next);
      json_decref(sets), json_decref(jf), json_decref(funcs), json_decref(root);
      return NULL;
    }
    for (size_t k = 0; k < f->n_sets; k++) {
      const Wp__Bir__MemoryLocationSet *s = f->sets[k];
      json_t *js = json_object();
      json_object_set_new(js, "name", json_string(s->name));
      json_object_set_new(js, "tensor_class", json_string(s->tensor_class));
      json_object_set_new(js, "dtype", json_string(s->dtype));
      json_t *shape = json_array();
      for (size_t d = 0; d < s->n_shape; d++)
        json_array_append_new(shape, json_integer(s->shape[d]));
      json_object_set_new(js, "shape", shape);
      if (s->hlo_value[0])
        json_object_set_new(js, "hlo_value", json_string(s->hlo_value));
      json_t *locs = json_array();
      for (size_t j = first[k]; j != SIZE_MAX; j = next[j])
        json_array_append_new(locs, loc_json(f->locations[j]));
      json_object_set_new(js, "memory_locations", locs);
      json_array_append_new(sets, js);
    }
    free(first), free(next);
    json_object_set_new(jf, "memory_location_sets", sets);
    json_t *kernels = json_array();
    for (size_t k = 0; k < f->n_kernels; k++) {
      const Wp__Bir__Kernel *kn = f->kernels[k];
      json_t *jk = json_object();
      json_object_set_new(jk, "name", json_string(kn->name));
      json_t *cf = json_array();
      for (size_t c = 0; c < kn->n_const_files; c++)
        json_array_append_new(cf, json_string(kn->const_files[c]));
      json_object_set_new(jk, "const_files", cf);
      if (kn->program[0])
        json_object_set_new(jk, "program", json_string(kn->program));
      json_array_append_new(kernels, jk);
    }
    json_object_set_new(jf, "kernels", kernels);
    json_array_append_new(funcs, jf);
  }
  json_object_set_new(root, "functions", funcs);
  json_t *arts = json_array();
  for (size_t i = 0; i < m->n_artifacts; i++)
    json_array_append_new(arts, json_pack("{s:s,s:s}", "artifact_path", m->artifacts[i]->path,
                                          "artifact_info", m->artifacts[i]->info));
  json_object_set_new(root, "artifacts", arts);
  if (m->lowering)
    json_object_set_new(root, "lowering", wp_bir_lowering_to_json(m->lowering));
  if (m->dedup)
    json_object_set_new(root, "dedup", json_pack("{s:I,s:I}", "unique_files",
                                                  (json_int_t)m->dedup->unique_files,
                                                  "bytes_saved", (json_int_t)m->dedup->bytes_saved));
  return root;
}

/* ---- JSON -> message ---- */

typedef struct from_json {
  wp_arena *arena;
  wp_error *err;
  const char *where;
} from_json;

/* The path of the entity at KEY[I] inside the one F->where names, for
 * messages: "BIR JSON: functions[0].memory_location_sets[3]". Arena
 * memory. */
static const char *nest(from_json *f, const char *key, size_t i) {
  size_t n = strlen(f->where) + strlen(key) + 32;
  char *w = wp_arena_alloc(f->arena, n);
  if (!w)
    return f->where;
  snprintf(w, n, strchr(f->where, ':') ? "%s.%s[%zu]" : "%s: %s[%zu]", f->where, key, i);
  return w;
}

static char *get_str(from_json *f, json_t *obj, const char *key, bool required) {
  json_t *v = json_object_get(obj, key);
  if (json_is_string(v))
    return wp_arena_strndup(f->arena, json_string_value(v), json_string_length(v));
  if (v || required) {
    wp_error_set(f->err, "%s: \"%s\" must be a string", f->where, key);
    return NULL;
  }
  return "";
}

static int get_u64(from_json *f, json_t *obj, const char *key, uint64_t *out) {
  json_t *v = json_object_get(obj, key);
  if (!v) {
    *out = 0;
    return 0;
  }
  if (!json_is_integer(v) || json_integer_value(v) < 0)
    return wp_error_set(f->err, "%s: \"%s\" must be a non-negative integer", f->where, key);
  *out = (uint64_t)json_integer_value(v);
  return 0;
}

static int get_u64_required(from_json *f, json_t *obj, const char *key, uint64_t *out) {
  if (!json_object_get(obj, key))
    return wp_error_set(f->err, "%s: \"%s\" is missing", f->where, key);
  return get_u64(f, obj, key, out);
}

static void **alloc_array(wp_arena *a, size_t n) { return wp_arena_alloc(a, (n + 1) * sizeof(void *)); }

static int unhex(from_json *f, const char *s, ProtobufCBinaryData *out) {
  size_t n = strlen(s);
  if (n % 2)
    return wp_error_set(f->err, "%s: \"data\" must be hex", f->where);
  out->len = n / 2;
  out->data = wp_arena_alloc(f->arena, out->len + 1);
  for (size_t i = 0; i < out->len; i++) {
    int hi = wp_hex_digit(s[2 * i]), lo = wp_hex_digit(s[2 * i + 1]);
    if (hi < 0 || lo < 0) /* (sscanf's %2x took signs and blanks) */
      return wp_error_set(f->err, "%s: \"data\" must be hex", f->where);
    out->data[i] = (uint8_t)(hi << 4 | lo);
  }
  return 0;
}

static int const_file_from(from_json *f, json_t *j, Wp__Bir__ConstFile **out) {
  Wp__Bir__ConstFile *cf = wp_pb_new(f->arena, &wp__bir__const_file__descriptor);
  if (!json_is_object(j))
    return wp_error_set(f->err, "%s: a const file must be an object", f->where);
  if (!(cf->name = get_str(f, j, "name", true)) || get_u64(f, j, "size", &cf->size) ||
      !(cf->artifact = get_str(f, j, "artifact", false)) || !(cf->md5 = get_str(f, j, "md5", false)))
    return -1;
  if (!(cf->member_md5 = get_str(f, j, "member_md5", false)) ||
      !(cf->member_prefix_md5 = get_str(f, j, "member_prefix_md5", false)))
    return -1;
  json_t *in_place = json_object_get(j, "artifact_in_place");
  if (in_place && !json_is_boolean(in_place))
    return wp_error_set(f->err, "%s: const file '%s': artifact_in_place must be true or false",
                        f->where, cf->name);
  cf->artifact_in_place = json_is_true(in_place);
  /* Where the bytes are: the message holds one of four (a second one
   * was ignored); none is wp_bir_verify's to refuse. */
  int n_from = 0;
  for (size_t i = 0; i < WP_BIR_N_BYTE_SOURCES; i++)
    n_from += json_object_get(j, wp_bir_byte_sources[i]) != NULL;
  if (n_from > 1)
    return wp_error_set(f->err, "%s: const file '%s' names " WP_BIR_MANY_SOURCES, f->where,
                        cf->name);
  json_t *src = json_object_get(j, "source");
  if (src && !json_is_object(src))
    return wp_error_set(f->err, "%s: const file '%s': source must be {\"file\": PATH, "
                        "\"offset\": N}", f->where, cf->name);
  if (src) {
    Wp__Bir__NpyPayload *np = wp_pb_new(f->arena, &wp__bir__npy_payload__descriptor);
    if (!(np->file = get_str(f, src, "file", true)) ||
        get_u64_required(f, src, "offset", &np->offset))
      return -1;
    cf->source = np;
    cf->bytes_from_case = WP__BIR__CONST_FILE__BYTES_FROM_SOURCE;
  } else if (json_object_get(j, "constant")) {
    if (!(cf->constant = get_str(f, j, "constant", true)))
      return -1;
    cf->bytes_from_case = WP__BIR__CONST_FILE__BYTES_FROM_CONSTANT;
  } else if (json_object_get(j, "data")) {
    char *d = get_str(f, j, "data", true);
    if (!d || unhex(f, d, &cf->data))
      return -1;
    cf->bytes_from_case = WP__BIR__CONST_FILE__BYTES_FROM_DATA;
  } else if (json_object_get(j, "assembled")) {
    if (!(cf->assembled = get_str(f, j, "assembled", true)))
      return -1;
    cf->bytes_from_case = WP__BIR__CONST_FILE__BYTES_FROM_ASSEMBLED;
  }
  *out = cf;
  return 0;
}

static int loc_from(from_json *f, json_t *j, const char *set, Wp__Bir__MemoryLocation **out) {
  Wp__Bir__MemoryLocation *l = wp_pb_new(f->arena, &wp__bir__memory_location__descriptor);
  if (!json_is_object(j))
    return wp_error_set(f->err, "%s: a memory location must be an object", f->where);
  if (!(l->name = get_str(f, j, "name", true)) ||
      !(l->memory_type = get_str(f, j, "memory_type", true)) ||
      get_u64(f, j, "size", &l->size) || get_u64(f, j, "alignment", &l->alignment) ||
      get_u64(f, j, "placement", &l->placement) ||
      !(l->const_file = get_str(f, j, "const_file", false)) ||
      get_u64(f, j, "const_ap_offset", &l->const_ap_offset))
    return -1;
  l->set = (char *)set;
  json_t *id = json_object_get(j, "const_sub_tensor_id");
  if (id && !json_is_integer(id))
    return wp_error_set(f->err, "%s: \"const_sub_tensor_id\" must be an integer", f->where);
  l->const_sub_tensor_id = id ? json_integer_value(id) : 0;
  json_t *r = json_object_get(j, "is_regloc_offset");
  if (r && !json_is_boolean(r))
    return wp_error_set(f->err, "%s: \"is_regloc_offset\" must be true or false", f->where);
  l->is_regloc_offset = r && json_is_true(r);
  *out = l;
  return 0;
}

static int set_from(from_json *f, json_t *j, Wp__Bir__Function *fn) {
  Wp__Bir__MemoryLocationSet *s = wp_pb_new(f->arena, &wp__bir__memory_location_set__descriptor);
  if (!json_is_object(j))
    return wp_error_set(f->err, "%s: a memory location set must be an object", f->where);
  /* the message's fields: their values (enum names, dimensions) are
   * wp_bir_verify's to judge */
  if (!(s->name = get_str(f, j, "name", true)) ||
      !(s->tensor_class = get_str(f, j, "tensor_class", true)) ||
      !(s->dtype = get_str(f, j, "dtype", true)) ||
      !(s->hlo_value = get_str(f, j, "hlo_value", false)))
    return -1;
  json_t *shape = json_object_get(j, "shape");
  if (!json_is_array(shape))
    return wp_error_set(f->err, "%s: set '%s': \"shape\" must be a list", f->where, s->name);
  s->n_shape = json_array_size(shape);
  s->shape = wp_arena_alloc(f->arena, (s->n_shape + 1) * sizeof(int64_t));
  for (size_t d = 0; d < s->n_shape; d++) {
    json_t *dim = json_array_get(shape, d);
    if (!json_is_integer(dim))
      return wp_error_set(f->err, "%s: set '%s': bad dimension", f->where, s->name);
    s->shape[d] = json_integer_value(dim);
  }
  fn->sets[fn->n_sets++] = s;
  json_t *locs = json_object_get(j, "memory_locations");
  if (locs && !json_is_array(locs))
    return wp_error_set(f->err, "%s: \"memory_locations\" must be a list", f->where);
  const char *outer = f->where;
  for (size_t k = 0; locs && k < json_array_size(locs); k++) {
    Wp__Bir__MemoryLocation *l = NULL;
    f->where = nest(f, "memory_locations", k);
    if (loc_from(f, json_array_get(locs, k), s->name, &l))
      return -1;
    fn->locations[fn->n_locations++] = l;
  }
  f->where = outer;
  return 0;
}

static int kernel_from(from_json *f, json_t *j, Wp__Bir__Kernel **out) {
  Wp__Bir__Kernel *k = wp_pb_new(f->arena, &wp__bir__kernel__descriptor);
  if (!json_is_object(j) || !(k->name = get_str(f, j, "name", true)) ||
      !(k->program = get_str(f, j, "program", false)))
    return json_is_object(j) ? -1 : wp_error_set(f->err, "%s: a kernel must be an object", f->where);
  json_t *files = json_object_get(j, "const_files");
  if (files && !json_is_array(files))
    return wp_error_set(f->err, "%s: kernel \"const_files\" must be a list", f->where);
  k->n_const_files = files ? json_array_size(files) : 0;
  k->const_files = (char **)alloc_array(f->arena, k->n_const_files);
  for (size_t i = 0; i < k->n_const_files; i++) {
    json_t *s = json_array_get(files, i);
    if (!json_is_string(s))
      return wp_error_set(f->err, "%s: kernel const_files must be names", f->where);
    k->const_files[i] = wp_arena_strndup(f->arena, json_string_value(s), json_string_length(s));
  }
  *out = k;
  return 0;
}

static size_t count_locations(json_t *sets) {
  size_t n = 0;
  for (size_t i = 0; i < json_array_size(sets); i++) {
    json_t *l = json_object_get(json_array_get(sets, i), "memory_locations");
    n += json_is_array(l) ? json_array_size(l) : 0;
  }
  return n;
}

static int function_from(from_json *f, json_t *j, Wp__Bir__Function **out) {
  if (!json_is_object(j))
    return wp_error_set(f->err, "%s: a function must be an object", f->where);
  Wp__Bir__Function *fn = wp_pb_new(f->arena, &wp__bir__function__descriptor);
  if (!(fn->name = get_str(f, j, "name", true)))
    return -1;
  json_t *files = json_object_get(j, "const_files"), *sets = json_object_get(j, "memory_location_sets"),
         *kernels = json_object_get(j, "kernels");
  if ((files && !json_is_array(files)) || (sets && !json_is_array(sets)) ||
      (kernels && !json_is_array(kernels)))
    return wp_error_set(f->err, "%s: function '%s': const_files, memory_location_sets and "
                        "kernels must be lists", f->where, fn->name);
  fn->const_files = (Wp__Bir__ConstFile **)alloc_array(f->arena, json_array_size(files));
  fn->sets = (Wp__Bir__MemoryLocationSet **)alloc_array(f->arena, json_array_size(sets));
  fn->locations = (Wp__Bir__MemoryLocation **)alloc_array(f->arena, count_locations(sets));
  fn->kernels = (Wp__Bir__Kernel **)alloc_array(f->arena, json_array_size(kernels));
  const char *outer = f->where;
  for (size_t i = 0; i < json_array_size(files); i++) {
    f->where = nest(f, "const_files", i);
    if (const_file_from(f, json_array_get(files, i), &fn->const_files[fn->n_const_files++]))
      return -1;
    f->where = outer;
  }
  for (size_t i = 0; i < json_array_size(sets); i++) {
    f->where = nest(f, "memory_location_sets", i);
    if (set_from(f, json_array_get(sets, i), fn))
      return -1;
    f->where = outer;
  }
  for (size_t i = 0; i < json_array_size(kernels); i++) {
    f->where = nest(f, "kernels", i);
    if (kernel_from(f, json_array_get(kernels, i), &fn->kernels[fn->n_kernels++]))
      return -1;
    f->where = outer;
  }
  *out = fn;
  return 0;
}

int wp_bir_from_json(wp_arena *arena, json_t *root, Wp__Bir__Module **out, wp_error *err) {
  from_json f = {arena, err, "BIR JSON"};
  if (!json_is_object(root))
    return wp_error_set(err, "BIR JSON: the top level must be an object");
  /* a model directory's metadata.json given in place of its directory */
  if (!json_object_get(root, "name") &&
      (json_object_get(root, "model_files") || json_object_get(root, "weight_files")))
    return wp_error_set(err, "a model directory's metadata.json, not a BIR JSON module: give "
                             "the directory that holds it as the input");
  Wp__Bir__Module *m = wp_pb_new(arena, &wp__bir__module__descriptor);
  m->schema = WP_BIR_SCHEMA;
  if (!(m->name = get_str(&f, root, "name", true)) ||
      !(m->artifact_path = get_str(&f, root, "artifact_path", false)))
    return -1;
  json_t *funcs = json_object_get(root, "functions"), *arts = json_object_get(root, "artifacts");
  if ((funcs && !json_is_array(funcs)) || (arts && !json_is_array(arts)))
    return wp_error_set(err, "BIR JSON: \"functions\" and \"artifacts\" must be lists");
  m->functions = (Wp__Bir__Function **)alloc_array(arena, json_array_size(funcs));
  for (size_t i = 0; i < json_array_size(funcs); i++) {
    f.where = nest(&f, "functions", i);
    if (function_from(&f, json_array_get(funcs, i), &m->functions[m->n_functions++]))
      return -1;
    f.where = "BIR JSON";
  }
  m->artifacts = (Wp__Bir__Artifact **)alloc_array(arena, json_array_size(arts));
  for (size_t i = 0; i < json_array_size(arts); i++) {
    json_t *a = json_array_get(arts, i);
    Wp__Bir__Artifact *art = wp_pb_new(arena, &wp__bir__artifact__descriptor);
    if (!json_is_object(a) || !(art->path = get_str(&f, a, "artifact_path", true)) ||
        !(art->info = get_str(&f, a, "artifact_info", false)))
      return json_is_object(a) ? -1 : wp_error_set(err, "BIR JSON: an artifact must be an object");
    m->artifacts[m->n_artifacts++] = art;
  }
  json_t *lw = json_object_get(root, "lowering");
  if (lw && wp_bir_lowering_from_json(lw, arena, &m->lowering, err))
    return -1;
  json_t *dd = json_object_get(root, "dedup");
  if (dd) {
    if (!json_is_object(dd))
      return wp_error_set(err, "BIR JSON: \"dedup\" must be an object");
    m->dedup = wp_pb_new(arena, &wp__bir__dedup_stats__descriptor);
    if (get_u64(&f, dd, "unique_files", &m->dedup->unique_files) ||
        get_u64(&f, dd, "bytes_saved", &m->dedup->bytes_saved))
      return -1;
  }
  *out = m;
  return 0;
}
