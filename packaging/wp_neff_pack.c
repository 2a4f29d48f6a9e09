/* neff-pack: the de-duplicated constant files and the BIR module become a
 * NEFF (sections 4c-4e of the specification). Members, in name order:
 *   kelf-0.json    {"definition": "sg00/def.json", "name": "sg00"}
 *   sg00/<md5>.<dtype>.<memtype>.npy|.bin   one per unique constant file
 *   sg00/bir.json  the BIR module (paths left out: they are not content)
 *   sg00/def.json  the variables
 * and then, as they describe those (each member is hashed as it is
 * written, so the bytes are read once):
 *   neff.json      name, versions, members, IR signature, de-dup counters
 *   bom.json       every other member with its size and MD5 */
#include "wp_pass.h"

#include "wp_bir.h"
#include "wp_bir_ops.h"
#include "wp_file.h"
#include "wp_hlo_types.h"
#include "wp_mlir_util.h"
#include "wp_neff.h"
#include "wp_npy.h"
#include "wp_bir_enums.h"
#include "wp_parallel.h"
#include "wp_place.h"
#include "wp_strmap.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct pack {
  const wp_pass_run *run;
  wp_arena *arena;
  Wp__Bir__Module *bir;
  const char *dir;
  bool npy;
  wp_neff_member *members;
  size_t n_members, cap;
  char npy_scratch[WP_NPY_MAX_HEADER];
  wp_strmap sets; /* set name -> index, per function */
  wp_bir_names names; /* const file ops of function NAMES_FOR */
  const char *names_for;
  wp_neff_member tail[2]; /* neff.json and bom.json, built last */
} pack;

static MlirLocation unknown(MlirOperation op) {
  return mlirLocationUnknownGet(mlirOperationGetContext(op));
}

static wp_neff_member *add_member(pack *p, const char *name) {
  if (p->n_members == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 32;
    wp_neff_member *m = realloc(p->members, p->cap * sizeof *m);
    if (!m)
      return NULL;
    p->members = m;
  }
  wp_neff_member *m = &p->members[p->n_members++];
  memset(m, 0, sizeof *m);
  m->name = wp_arena_strndup(p->arena, name, strlen(name));
  return m;
}

/* JSON member M, serialized deterministically, with its MD5. */
static int json_member(pack *p, wp_neff_member *m, const char *name, json_t *j, wp_error *err) {
  char *text = j ? json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER) : NULL;
  json_decref(j);
  if (!text)
    return wp_error_set(err, "out of memory");
  size_t n = strlen(text);
  char *copy = wp_arena_alloc(p->arena, n + 2);
  memcpy(copy, text, n);
  copy[n] = '\n';
  free(text);
  memset(m, 0, sizeof *m);
  m->name = wp_arena_strndup(p->arena, name, strlen(name));
  m->data = copy;
  m->size = n + 1;
  return wp_neff_member_md5(m, err);
}

static int add_json(pack *p, const char *name, json_t *j, wp_error *err) {
  wp_neff_member *m = add_member(p, name);
  if (!m) {
    json_decref(j);
    return wp_error_set(err, "out of memory");
  }
  return json_member(p, m, name, j, err);
}

/* A growing text buffer; OOM sticks. */
typedef struct text_buf {
  char *p;
  size_t len, cap;
  bool oom;
} text_buf;

static void text_put(text_buf *t, const char *s, size_t n) {
  if (t->oom)
    return;
  if (t->len + n + 1 > t->cap) {
    size_t cap = (t->len + n + 1) * 2;
    char *q = realloc(t->p, cap);
    if (!q) {
      t->oom = true;
      return;
    }
    t->p = q;
    t->cap = cap;
  }
  memcpy(t->p + t->len, s, n);
  t->len += n;
}

static void text_json(text_buf *t, const json_t *j) {
  char *one = json_dumps(j, JSON_ENCODE_ANY | JSON_PRESERVE_ORDER); /* one line */
  if (!one) {
    t->oom = true;
    return;
  }
  text_put(t, one, strlen(one));
  free(one);
}

/* JSON with its outer levels (down to EXPAND) one item per line and
 * everything deeper on that item's line: a BIR module with 100,000 tensors
 * is 200,000 short lines instead of millions of indented ones. */
static void text_json_lines(text_buf *t, const json_t *j, int depth, int expand) {
  static const char spaces[] = "                                ";
  bool obj = json_is_object(j);
  if (depth >= expand || (!obj && !json_is_array(j)) ||
      (obj ? json_object_size(j) : json_array_size(j)) == 0) {
    text_json(t, j);
    return;
  }
  text_put(t, obj ? "{" : "[", 1);
  size_t i = 0, n = obj ? json_object_size(j) : json_array_size(j);
  const char *key;
  const json_t *v;
  void *it = obj ? json_object_iter((json_t *)j) : NULL;
  for (; i < n; i++) {
    text_put(t, i ? ",\n" : "\n", i ? 2 : 1);
    text_put(t, spaces, (size_t)(depth + 1) < sizeof spaces ? (size_t)depth + 1 : 0);
    if (obj) {
      key = json_object_iter_key(it);
      v = json_object_iter_value(it);
      json_t *k = json_string(key);
      text_json(t, k);
      json_decref(k);
      text_put(t, ": ", 2);
      it = json_object_iter_next((json_t *)j, it);
    } else {
      v = json_array_get(j, i);
    }
    text_json_lines(t, v, depth + 1, expand);
  }
  text_put(t, "\n", 1);
  text_put(t, spaces, (size_t)depth < sizeof spaces ? (size_t)depth : 0);
  text_put(t, obj ? "}" : "]", 1);
}

/* "MD5@RUN" from dedup-consts in this very process (not from an IR file,
 * whose bytes may have changed since). */
static bool member_md5_of_this_run(const char *s) {
  return strspn(s, "0123456789abcdef") == 32 && s[32] == '@' &&
         !strcmp(s + 33, wp_pass_run_token());
}

/* A member whose bytes (in the arena) are already serialized. */
static int add_text(pack *p, const char *name, const char *text, size_t len, wp_error *err) {
  wp_neff_member *m = add_member(p, name);
  if (!m)
    return wp_error_set(err, "out of memory");
  m->data = text;
  m->size = len;
  return wp_neff_member_md5(m, err);
}

/* A member from text built in T (freed here; T is emptied). */
static int add_text_buf(pack *p, const char *name, text_buf *t, wp_error *err) {
  size_t len = t->len;
  char *text = t->oom ? NULL : wp_arena_memdup(p->arena, t->p ? t->p : "", len);
  free(t->p);
  *t = (text_buf){0};
  if (!text)
    return wp_error_set(err, "out of memory");
  return add_text(p, name, text, len, err);
}


static const Wp__Bir__MemoryLocationSet *find_set_in(const wp_strmap *sets,
                                                     const Wp__Bir__Function *f, const char *name) {
  int64_t i;
  return wp_strmap_get(sets, name, strlen(name), &i) ? f->sets[i] : NULL;
}
#define find_set(f, name) find_set_in(&p->sets, (f), (name))

static json_t *int_list(const int64_t *v, size_t n) {
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++)
    json_array_append_new(a, json_integer(v[i]));
  return a;
}

/* The fields every variable record has. */
static json_t *var_record(int64_t id, const char *type, uint64_t offset, const char *backing_buf,
                          uint64_t backing_off, bool pointer) {
  json_t *v = json_object();
  json_object_set_new(v, "var_id", json_integer(id));
  json_object_set_new(v, "type", json_string(type));
  json_object_set_new(v, "var_offset", json_integer((json_int_t)offset));
  json_object_set_new(v, "backing_buf", json_string(backing_buf));
  json_object_set_new(v, "backing_variable_off", json_integer((json_int_t)backing_off));
  json_object_set_new(v, "virtual", json_false());
  json_object_set_new(v, "pointer", json_boolean(pointer));
  json_object_set_new(v, "state-buffer", json_false());
  json_object_set_new(v, "remote", json_false());
  json_object_set_new(v, "tmp-buf", json_false());
  return v;
}

/* def.json's variables go into its text one per line as they are built: a
 * model with 100,000 constants would otherwise hold millions of JSON nodes
 * at once. Takes V. */
static void add_var(text_buf *t, size_t *n_vars, json_t *v) {
  const char *sep = *n_vars ? ",\n  " : "  ";
  text_put(t, sep, strlen(sep));
  text_json(t, v);
  json_decref(v);
  ++*n_vars;
}

static void describe_tensor(json_t *v, const Wp__Bir__MemoryLocationSet *s) {
  json_object_set_new(v, "name", json_string(s->name));
  json_object_set_new(v, "dtype", json_string(s->dtype));
  json_object_set_new(v, "shape", int_list(s->shape, s->n_shape));
}

/* Row-major element strides of SHAPE. */
static json_t *steps(const int64_t *shape, size_t n) {
  int64_t *st = calloc(n + 1, sizeof *st);
  int64_t acc = 1;
  for (size_t i = n; i-- > 0;) {
    st[i] = acc;
    acc *= shape[i] ? shape[i] : 1;
  }
  json_t *a = int_list(st, n);
  free(st);
  return a;
}

/* Where an in-place constant file's bytes are: its IR op says (a .npy
 * region, or memory the IR owns, which outlives the pass). */
static int in_place_source(pack *p, const Wp__Bir__Function *f, const Wp__Bir__ConstFile *cf,
                           wp_place_src *src, wp_error *err) {
  MlirOperation module = p->run->module;
  if (!p->names_for || strcmp(p->names_for, f->name) != 0) {
    wp_bir_names_free(&p->names);
    memset(&p->names, 0, sizeof p->names);
    p->names_for = NULL;
    MlirOperation func = wp_bir_next_function(module, (MlirOperation){NULL});
    for (; !mlirOperationIsNull(func); func = wp_bir_next_function(module, func)) {
      MlirStringRef n;
      if (wp_attr_str(func, "sym_name", &n) && n.length == strlen(f->name) &&
          !memcmp(n.data, f->name, n.length))
        break;
    }
    if (mlirOperationIsNull(func) || wp_bir_names_init(&p->names, func, "bir.const_file"))
      return wp_error_set(err, "function '%s' not found", f->name);
    p->names_for = f->name;
  }
  MlirOperation op = wp_bir_names_find(&p->names, wp_sref(cf->name));
  if (mlirOperationIsNull(op))
    return wp_error_set(err, "const file '%s' not found", cf->name);
  return wp_bir_const_file_source(module, op, p->arena, src, err);
}

static int pack_function(pack *p, const Wp__Bir__Function *f, wp_error *err) {
  const char *sg = f->name;
  wp_strmap_free(&p->sets);
  for (size_t i = 0; i < f->n_sets; i++)
    wp_strmap_put(&p->sets, f->sets[i]->name, strlen(f->sets[i]->name), (int64_t)i);
  text_buf def = {0}; /* def.json */
  size_t n_vars = 0;
  text_put(&def, "{\n \"name\": ", strlen("{\n \"name\": "));
  json_t *jname = json_string(sg);
  text_json(&def, jname);
  json_decref(jname);
  text_put(&def, ",\n \"var\": [\n", strlen(",\n \"var\": [\n"));
  int64_t next_id = 0;
  /* inputs and outputs */
  for (size_t i = 0; i < f->n_locations; i++) {
    const Wp__Bir__MemoryLocation *l = f->locations[i];
    const char *type = !strcmp(l->memory_type, "ExternalInput") ? "input"
                       : !strcmp(l->memory_type, "ExternalOutput") ? "output"
                                                                    : NULL;
    const Wp__Bir__MemoryLocationSet *s = find_set(f, l->set);
    if (!type || !s)
      continue;
    json_t *v = var_record(next_id++, type, l->placement, "", 0, false);
    describe_tensor(v, s);
    json_object_set_new(v, "size", json_integer((json_int_t)l->size));
    add_var(&def, &n_vars, v);
  }
  /* Per const file, from one pass over the locations: the set that fills
   * it when exactly one kind of tensor does (the .npy member is then
   * typed), and the largest alignment asked of it. */
  size_t nf = f->n_const_files;
  int64_t *file_var = calloc(nf + 1, sizeof *file_var);
  const Wp__Bir__MemoryLocationSet **only = calloc(nf + 1, sizeof *only);
  bool *untyped = calloc(nf + 1, sizeof *untyped);
  uint64_t *align = calloc(nf + 1, sizeof *align);
  wp_strmap files;
  wp_strmap_init(&files);
  int rc = -1;
  if (!file_var || !only || !untyped || !align) {
    wp_error_set(err, "out of memory");
    goto fail;
  }
  for (size_t k = 0; k < nf; k++) {
    const char *n = f->const_files[k]->name;
    if (wp_strmap_put(&files, n, strlen(n), (int64_t)k)) {
      wp_error_set(err, "out of memory");
      goto fail;
    }
    align[k] = 1;
  }
  for (size_t i = 0; i < f->n_locations; i++) {
    const Wp__Bir__MemoryLocation *l = f->locations[i];
    int64_t k;
    if (!l->const_file[0] || !wp_strmap_get(&files, l->const_file, strlen(l->const_file), &k))
      continue;
    const Wp__Bir__MemoryLocationSet *s = find_set(f, l->set), *o = only[k];
    if (!s || l->const_ap_offset != 0 || l->size != f->const_files[k]->size ||
        (o && (strcmp(o->dtype, s->dtype) != 0 || o->n_shape != s->n_shape ||
               memcmp(o->shape, s->shape, s->n_shape * sizeof(int64_t)) != 0)))
      untyped[k] = true;
    only[k] = s;
    if (l->alignment > align[k])
      align[k] = l->alignment;
  }
  /* one file variable (and member) per unique constant file */
  for (size_t k = 0; k < nf; k++) {
    const Wp__Bir__ConstFile *cf = f->const_files[k];
    if (!cf->artifact[0]) {
      wp_error_set(err, "const file '%s' has no artifact (run --copy-const-artifacts "
                        "and --dedup-consts first)", cf->name);
      goto fail;
    }
    char base[512];
    snprintf(base, sizeof base, "%s", cf->artifact);
    char *dot = strrchr(base, '.');
    if (dot && !strcmp(dot, ".bin"))
      *dot = 0;
    char member[600];
    snprintf(member, sizeof member, "%s/%s.%s", sg, base, p->npy ? "npy" : "bin");
    wp_neff_member *m = add_member(p, member);
    if (!m) {
      wp_error_set(err, "out of memory");
      goto fail;
    }
    if (cf->artifact_in_place) {
      wp_place_src src;
      if (in_place_source(p, f, cf, &src, err))
        goto fail;
      m->path = src.path;
      m->offset = src.offset;
      m->data = src.data;
    } else {
      m->path = wp_arena_alloc(p->arena, strlen(p->dir) + strlen(cf->artifact) + 2);
      sprintf((char *)m->path, "%s/%s", p->dir, cf->artifact);
    }
    m->size = cf->size;
    if (p->npy) {
      /* Built in one scratch buffer, kept at its exact size: a model has
       * thousands of members. */
      bool typed = !untyped[k] && only[k];
      m->prefix_len = wp_neff_npy_prefix(p->npy_scratch, typed ? only[k]->dtype : NULL,
                                         typed ? only[k]->shape : NULL,
                                         typed ? (int)only[k]->n_shape : 0, cf->size);
      m->prefix = wp_arena_memdup(p->arena, p->npy_scratch, m->prefix_len);
      /* dedup-consts hashed the member already when it guessed this header */
      char prefix_md5[WP_MD5_HEX];
      if (member_md5_of_this_run(cf->member_md5) &&
          wp_md5_buffer(m->prefix, m->prefix_len, prefix_md5, NULL) == 0 &&
          !strcmp(prefix_md5, cf->member_prefix_md5))
        memcpy(m->md5, cf->member_md5, 32), m->md5[32] = 0;
    }
    /* Hashed as it is written, unless dedup-consts hashed this very member
     * in this run (above). The key MD5 (cf->md5) is not reused for a raw
     * member: it may come from an IR file and no longer match the bytes. */
    file_var[k] = next_id;
    json_t *v = var_record(next_id++, "file", 0, "", 0, false);
    json_object_set_new(v, "file_name", json_string(strchr(member, '/') + 1));
    json_object_set_new(v, "size", json_integer((json_int_t)(m->prefix_len + cf->size)));
    json_object_set_new(v, "data_offset", json_integer((json_int_t)m->prefix_len));
    json_object_set_new(v, "alignment", json_integer((json_int_t)align[k]));
    add_var(&def, &n_vars, v);
  }
  /* one pointer variable per logical constant tensor */
  for (size_t i = 0; i < f->n_locations; i++) {
    const Wp__Bir__MemoryLocation *l = f->locations[i];
    if (!l->const_file[0])
      continue;
    int64_t k;
    const Wp__Bir__MemoryLocationSet *s = find_set(f, l->set);
    if (!wp_strmap_get(&files, l->const_file, strlen(l->const_file), &k) || !s) {
      wp_error_set(err, "memory location '%s' names a missing const file or set", l->name);
      goto fail;
    }
    json_t *v = var_record(next_id++, "pointer", l->placement, f->const_files[k]->name,
                           l->const_ap_offset, true);
    describe_tensor(v, s);
    if (s->hlo_value[0])
      json_object_set_new(v, "name", json_string(s->hlo_value));
    json_object_set_new(v, "referenced_var_id", json_integer(file_var[k]));
    json_object_set_new(v, "size", json_integer((json_int_t)l->size));
    json_object_set_new(v, "const_ap_offset", json_integer((json_int_t)l->const_ap_offset));
    json_object_set_new(v, "const_sub_tensor_id", json_integer(l->const_sub_tensor_id));
    json_object_set_new(v, "is_regloc_offset", json_boolean(l->is_regloc_offset));
    json_object_set_new(v, "tensor_class", json_string(s->tensor_class));
    json_object_set_new(v, "memtype", json_string(l->memory_type));
    json_object_set_new(v, "to_sizes", int_list(s->shape, s->n_shape));
    json_object_set_new(v, "to_off", json_integer((json_int_t)l->placement));
    json_object_set_new(v, "to_dtype", json_string(s->dtype));
    json_object_set_new(v, "to_steps", steps(s->shape, s->n_shape));
    json_object_set_new(v, "from_off", json_integer((json_int_t)l->const_ap_offset));
    json_object_set_new(v, "from_dtype", json_string(s->dtype));
    json_object_set_new(v, "from_steps", steps(s->shape, s->n_shape));
    add_var(&def, &n_vars, v);
  }
  const char *end = n_vars ? "\n ]\n}\n" : " ]\n}\n";
  text_put(&def, end, strlen(end));
  char name[600];
  snprintf(name, sizeof name, "%s/def.json", sg);
  rc = add_text_buf(p, name, &def, err);
fail:
  free(def.p);
  free(file_var);
  free(only);
  free(untyped);
  free(align);
  wp_strmap_free(&files);
  return rc;
}

/* The BIR JSON without anything that names a place on this machine. */
static json_t *portable_bir_json(Wp__Bir__Module *m) {
  m->artifact_path = "";
  for (size_t i = 0; i < m->n_functions; i++)
    for (size_t k = 0; k < m->functions[i]->n_const_files; k++) {
      Wp__Bir__ConstFile *cf = m->functions[i]->const_files[k];
      cf->artifact_in_place = false; /* how it was placed, not what it holds */
      cf->member_md5 = cf->member_prefix_md5 = ""; /* bookkeeping of the packer */
      /* the bytes are the member named by artifact: not repeated here */
      cf->bytes_from_case = WP__BIR__CONST_FILE__BYTES_FROM_DATA;
      cf->data.len = 0;
      cf->data.data = NULL;
    }
  json_t *j = wp_bir_to_json(m);
  /* data of const files that are NEFF members is not repeated in bir.json */
  json_t *funcs = json_object_get(j, "functions");
  for (size_t i = 0; i < json_array_size(funcs); i++) {
    json_t *files = json_object_get(json_array_get(funcs, i), "const_files");
    for (size_t k = 0; k < json_array_size(files); k++)
      json_object_del(json_array_get(files, k), "data");
  }
  return j;
}

static int build_members(pack *p, wp_error *err) {
  for (size_t i = 0; i < p->bir->n_functions; i++)
    if (pack_function(p, p->bir->functions[i], err))
      return -1;
  if (p->bir->n_functions == 0)
    return wp_error_set(err, "the BIR module has no function");
  char name[600];
  const char *sg = p->bir->functions[0]->name;
  snprintf(name, sizeof name, "%s/bir.json", sg);
  json_t *bir = portable_bir_json(p->bir);
  text_buf t = {0};
  if (bir)
    text_json_lines(&t, bir, 0, 4); /* module, functions, function, its lists */
  json_decref(bir);
  text_put(&t, "\n", 1);
  t.oom |= !bir;
  if (add_text_buf(p, name, &t, err))
    return -1;
  char def[600];
  snprintf(def, sizeof def, "%s/def.json", sg);
  if (add_json(p, "kelf-0.json", json_pack("{s:s,s:s}", "definition", def, "name", sg), err))
    return -1;
  return 0;
}

/* neff.json and bom.json describe the other members, so they are built
 * once those are written (and hashed on the way) and go last. MEMBERS is
 * sorted by name. */
static int build_tail(void *user, const wp_neff_member *members, size_t n,
                      wp_neff_member **tail, size_t *n_tail, wp_error *err) {
  pack *p = user;
  char sig[WP_MD5_HEX];
  wp_neff_signature(members, n, sig); /* over the signed members, in name order */
  json_t *names = json_array(); /* every member, in archive order */
  for (size_t i = 0; i < n; i++)
    json_array_append_new(names, json_string(members[i].name));
  json_array_append_new(names, json_string("neff.json"));
  json_array_append_new(names, json_string("bom.json"));
  json_t *neff = json_object();
  json_object_set_new(neff, "name", json_string(p->bir->name));
  json_object_set_new(neff, "neff_version", json_pack("{s:i,s:i}", "major", WP_NEFF_VERSION_MAJOR,
                                                      "minor", WP_NEFF_VERSION_MINOR));
  json_object_set_new(neff, "producer", json_string("weightpack " WP_VERSION));
  json_object_set_new(neff, "graphs", json_pack("[s]", "kelf-0.json"));
  json_object_set_new(neff, "members", names);
  json_object_set_new(neff, "ir_signature", json_string(sig));
  json_object_set_new(neff, "ir_signature_rule",
                      json_string("MD5 over 'NAME\\nMD5\\n' of each member ending in .npy or "
                                  "containing .dbg, in name order"));
  json_object_set_new(neff, "dedup",
                      json_pack("{s:I,s:I}", "unique_files",
                                (json_int_t)(p->bir->dedup ? p->bir->dedup->unique_files : 0),
                                "bytes_saved",
                                (json_int_t)(p->bir->dedup ? p->bir->dedup->bytes_saved : 0)));
  if (json_member(p, &p->tail[0], "neff.json", neff, err))
    return -1;
  json_t *bom = json_array();
  for (size_t i = 0; i <= n; i++) {
    const wp_neff_member *m = i < n ? &members[i] : &p->tail[0];
    json_array_append_new(bom, json_pack("{s:s,s:I,s:s}", "name", m->name, "size",
                                         (json_int_t)(m->prefix_len + m->size), "md5", m->md5));
  }
  if (json_member(p, &p->tail[1], "bom.json", json_pack("{s:o}", "members", bom), err))
    return -1;
  *tail = p->tail;
  *n_tail = 2;
  return 0;
}

static int run_neff_pack(const wp_pass_run *run) {
  MlirOperation module = run->module;
  MlirModule m = mlirModuleFromOperation(module);
  if (!wp_bir_module_is_bir(m)) {
    wp_emit_error(mlirOperationGetLocation(module), "neff-pack: the module is not BIR (run "
                  "--bir-lower first)");
    return -1;
  }
  const char *out = wp_pass_option(run, "output");
  if (!out[0] && run->hooks && run->hooks->neff_output)
    out = run->hooks->neff_output;
  if (!out[0] || !strcmp(out, "-")) {
    wp_emit_error(unknown(module), "neff-pack: no output file; give -o FILE or "
                                   "--neff-pack=\"output=FILE\"");
    return -1;
  }
  const char *fmt = wp_pass_option(run, "weights-format");
  if (fmt[0] && strcmp(fmt, "npy") && strcmp(fmt, "bin")) {
    wp_emit_error(unknown(module), "neff-pack: weights-format=%s: use npy or bin", fmt);
    return -1;
  }
  const char *comp = wp_pass_option(run, "compressor");
  wp_neff_compress how = {.zlib = !strcmp(comp, "zlib"), .threads = (int)wp_parallel_cores()};
  if (comp[0] && strcmp(comp, "zlib") && strcmp(comp, "isal")) {
    wp_emit_error(unknown(module), "neff-pack: compressor=%s: use isal or zlib", comp);
    return -1;
  }
  long long threads;
  if (wp_pass_option_count(run, "threads", 1, 64, how.threads, &threads))
    return -1;
  how.threads = (int)threads;
  pack p = {.run = run, .arena = wp_arena_create(), .npy = strcmp(fmt, "bin") != 0};
  wp_error err;
  int rc = -1;
  wp_output *o = NULL;
  if (mlirAttributeIsNull(wp_attr(module, "bir.dedup"))) {
    wp_emit_error(unknown(module), "neff-pack: constants are not de-duplicated yet (run "
                                   "--copy-const-artifacts --dedup-consts first)");
    goto out;
  }
  if (!(p.bir = wp_bir_to_proto(m, p.arena, false, &err))) {
    wp_emit_error(unknown(module), "neff-pack: %s", err.msg);
    goto out;
  }
  p.dir = p.bir->artifact_path;
  if (build_members(&p, &err)) {
    wp_emit_error(unknown(module), "neff-pack: %s", err.msg);
    goto out;
  }
  if (!(o = wp_output_open(out, &err))) {
    wp_emit_error(unknown(module), "%s", err.msg);
    goto out;
  }
  FILE *f = wp_output_stream(o);
  fflush(f);
  if (wp_neff_write_payload(fileno(f), p.members, p.n_members, p.bir->name, how,
                            build_tail, &p, &err)) {
    wp_emit_error(unknown(module), "%s: %s", out, err.msg);
    wp_output_abort(o);
    o = NULL;
    goto out;
  }
  /* Keep the stdio position in step with what was written through the fd. */
  fseeko(f, 0, SEEK_END);
  if (wp_output_commit(o, &err)) {
    o = NULL;
    wp_emit_error(unknown(module), "%s", err.msg);
    goto out;
  }
  o = NULL;
  rc = 0;
out:
  wp_output_abort(o);
  free(p.members);
  wp_strmap_free(&p.sets);
  wp_bir_names_free(&p.names);
  wp_arena_destroy(p.arena);
  return rc;
}

const wp_pass_info wp_neff_pack_pass = {
    .name = "neff-pack",
    .title = "NeffPack",
    .description = "write the NEFF: a 1024-byte header and a deterministic gzip PAX tar of "
                   "the unique constant files, variable definitions, BOM and BIR "
                   "(copy-const-artifacts and dedup-consts run first when not named)",
    .options = {{"output", "the NEFF file (default: opt's -o)"},
                {"weights-format", "npy (default; signed members numpy.load reads) or bin"},
                {"compressor", "isal (default: ISA-L level 1 in parallel chunks) or zlib "
                               "(libarchive's gzip filter)"},
                {"threads", "compression threads (default: the core count); the NEFF is the "
                            "same for any count"}},
    .run = run_neff_pack,
};
