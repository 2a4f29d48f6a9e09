/* neff-pack: the de-duplicated constant files and the BIR module become a
 * NEFF (sections 4c-4e of the specification). Members, in name order:
 *   kelf-N.json    {"definition": "sg00/def.json", "name": "sg00"}, one per function
 *   sg00/<md5>.<dtype>.<memtype>.npy|.bin   one per unique constant file
 *   sg00/bir.json  the BIR module (paths left out: they are not content)
 *   sg00/def.json  the variables
 * and then, as they describe those (each member is hashed as it is
 * written, so the bytes are read once):
 *   neff.json      name, versions, members, IR signature, de-dup counters
 *   bom.json       every other member with its size and MD5 */
#include "wp_neff_pack.h"

#include "wp_bir.h"
#include "wp_diag.h"
#include "wp_bir_check.h"
#include "wp_bir_ops.h"
#include "wp_file.h"
#include "wp_hlo_types.h"
#include "wp_mlir_util.h"
#include "wp_jsonw.h"
#include "wp_ir_files.h"
#include "wp_neff.h"
#include "wp_neff_birjson.h"
#include "wp_neff_texts.h"
#include "wp_npy.h"
#include "wp_bir_enums.h"
#include "wp_parallel.h"
#include "wp_place.h"
#include "wp_strmap.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct pack {
  const wp_neff_pack_options *opts;
  MlirOperation module;
  wp_arena *arena; /* what the members need until the payload is written */
  wp_arena *bir_arena; /* the BIR module as messages: freed once the members are built */
  Wp__Bir__Module *bir; /* in bir_arena; NULL once the members are built */
  /* what the tail needs of the module, kept in arena */
  const char *bir_name;
  size_t n_functions;
  uint64_t unique_files, bytes_saved;
  const char *dir;
  bool npy;
  wp_neff_member *members;
  size_t n_members, cap;
  char npy_scratch[WP_NPY_MAX_HEADER];
  wp_bir_names names; /* const file ops of function NAMES_FOR */
  const char *names_for;
  /* members whose bytes are where their const file op says: found once
   * the module's messages are freed (arena strings) */
  struct in_place {
    size_t member;
    const char *func, *file;
  } *in_place;
  size_t n_in_place, cap_in_place;
  wp_neff_member tail[2]; /* neff.json and bom.json, built last */
  char **texts; /* member texts this pack owns (def.json and bir.json) */
  size_t n_texts;
  wp_jsonw_spill spill; /* where the long ones are */
  wp_neff_bir_text bir_text; /* bir.json, made on a thread of its own */
  size_t def_member; /* 1 + index of the member whose MD5 bir_text.def_hash takes, or 0 */
} pack;

static wp_neff_member *add_member(pack *p, const char *name) {
  if (p->n_members == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 32;
    p->members = wp_xrealloc(p->members, p->cap * sizeof *p->members);
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
  if (!text) /* jansson out of memory */
    wp_out_of_memory();
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
  return json_member(p, add_member(p, name), name, j, err);
}

/* "MD5@RUN" from dedup-consts in this very run (not from an IR file,
 * whose bytes may have changed since). */
static bool member_md5_of_this_run(const pack *p, const char *s) {
  return p->opts->run_token && strspn(s, "0123456789abcdef") == 32 && s[32] == '@' &&
         !strcmp(s + 33, p->opts->run_token);
}

/* A member whose bytes (in the arena) are already serialized. Its MD5 is
 * taken as it is written (bom.json comes last), not in a pass of its own
 * over what may be 100 MiB of JSON. */
static int add_text(pack *p, const char *name, const char *text, size_t len, wp_error *err) {
  wp_neff_member *m = add_member(p, name);
  m->data = text;
  m->size = len;
  return 0;
}

/* A member from a finished text, which the pack takes: not copied, as
 * these are the largest texts of a big model; a long one is read back
 * from the spill file. */
static int add_finished_text(pack *p, const char *name, wp_neff_text *ft, wp_error *err) {
  char *text = ft->text;
  ft->text = NULL;
  if (ft->where < 0) {
    free(text);
    if (!ft->write_errno) /* the text's writer ran out of memory */
      wp_out_of_memory();
    return wp_error_errno(err, ft->write_errno, "writing %s to a temporary file", name);
  }
  if (ft->where == 1) {
    free(text);
    wp_neff_member *m = add_member(p, name);
    m->path = ft->path;
    m->offset = ft->at;
    m->size = ft->size;
    memcpy(m->md5, ft->md5, sizeof m->md5);
    if (p->opts->debug)
      wp_emit_remark(wp_unknown_loc(p->module), "NeffPack: %s (%llu bytes) kept in a temporary "
                     "file until written", name, (unsigned long long)ft->size);
    return 0;
  }
  p->texts = wp_xrealloc(p->texts, (p->n_texts + 1) * sizeof *p->texts);
  p->texts[p->n_texts++] = text;
  if (add_text(p, name, ft->size ? text : "", (size_t)ft->size, err))
    return -1;
  memcpy(p->members[p->n_members - 1].md5, ft->md5, sizeof ft->md5);
  return 0;
}

/* A member from text built in T, which the pack takes (T is emptied). */
static int add_text_member(pack *p, const char *name, wp_jsonw *t, wp_error *err) {
  wp_neff_text ft;
  wp_neff_text_end(t, &ft);
  return add_finished_text(p, name, &ft, err);
}

/* Location I's set, from bir.json's index (the module is checked: set
 * names are unique), or NULL when it names none. */
#define find_set(f, i) (set_of[(i)] == SIZE_MAX ? NULL : (f)->sets[set_of[(i)]])

/* The const file a location names: FILES maps names to indices; the last
 * hit is tried first (most locations of a function share one file). */
static bool find_file(const wp_strmap *files, const Wp__Bir__Function *f, const char *name,
                      int64_t *last, int64_t *k) {
  if (*last >= 0 && !strcmp(f->const_files[*last]->name, name)) {
    *k = *last;
    return true;
  }
  if (!wp_strmap_get(files, name, strlen(name), k))
    return false;
  *last = *k;
  return true;
}

/* The fields every variable record has; the record stays open for more. */
static void var_record(wp_jsonw *w, size_t *n_vars, int64_t id, const char *type,
                       uint64_t offset, const char *backing_buf, uint64_t backing_off,
                       bool pointer) {
  /* def.json's variables go into its text one per line as they are
   * written: no JSON tree for 100,000 constants. */
  wp_jsonw_lit(w, *n_vars ? ",\n  {" : "  {");
  ++*n_vars;
  wp_jsonw_key(w, true, "var_id");
  wp_jsonw_int(w, id);
  wp_jsonw_key(w, false, "type");
  wp_jsonw_str(w, type);
  wp_jsonw_key(w, false, "var_offset");
  wp_jsonw_int(w, (long long)offset);
  wp_jsonw_key(w, false, "backing_buf");
  wp_jsonw_str(w, backing_buf);
  wp_jsonw_key(w, false, "backing_variable_off");
  wp_jsonw_int(w, (long long)backing_off);
  wp_jsonw_lit(w, ", \"virtual\": false, \"pointer\": ");
  wp_jsonw_bool(w, pointer);
  wp_jsonw_lit(w, ", \"state-buffer\": false, \"remote\": false, \"tmp-buf\": false");
}

static void describe_tensor(wp_jsonw *w, const Wp__Bir__MemoryLocationSet *s, const char *name) {
  wp_jsonw_key(w, false, "name");
  wp_jsonw_str(w, name);
  wp_jsonw_key(w, false, "dtype");
  wp_jsonw_str(w, s->dtype);
  wp_jsonw_key(w, false, "shape");
  wp_jsonw_int_list(w, s->shape, s->n_shape);
}

/* The spec's TypeDescriptor beside a record's access pattern: the dtype
 * and shape its bytes are read as. */
static void type_descriptor(wp_jsonw *w, const char *dtype, const int64_t *shape, size_t n) {
  wp_jsonw_key(w, false, "type_descriptor");
  wp_jsonw_lit(w, "{\"dtype\": ");
  wp_jsonw_str(w, dtype);
  wp_jsonw_lit(w, ", \"shape\": ");
  wp_jsonw_int_list(w, shape, n);
  wp_jsonw_raw(w, "}", 1);
}

/* Row-major element strides of SHAPE. */
static void steps(wp_jsonw *w, const int64_t *shape, size_t n) {
  wp_jsonw_raw(w, "[", 1);
  for (size_t i = 0; i < n; i++) {
    int64_t acc = 1;
    for (size_t j = i + 1; j < n; j++)
      acc *= shape[j] ? shape[j] : 1;
    if (i)
      wp_jsonw_raw(w, ", ", 2);
    wp_jsonw_int(w, (long long)acc);
  }
  wp_jsonw_raw(w, "]", 1);
}

/* Where the bytes of const file FILE of function FUNC are, when they stay
 * in place: its IR op says (a .npy region, or memory the IR owns, which
 * outlives the pass). */
static int in_place_source(pack *p, const char *func_name, const char *file, wp_place_src *src,
                           wp_error *err) {
  MlirOperation module = p->module;
  if (!p->names_for || strcmp(p->names_for, func_name) != 0) {
    wp_bir_names_free(&p->names);
    memset(&p->names, 0, sizeof p->names);
    p->names_for = NULL;
    MlirOperation func = wp_bir_next_function(module, (MlirOperation){NULL});
    for (; !mlirOperationIsNull(func); func = wp_bir_next_function(module, func)) {
      MlirStringRef n;
      if (wp_attr_str(func, "sym_name", &n) && n.length == strlen(func_name) &&
          !memcmp(n.data, func_name, n.length))
        break;
    }
    if (mlirOperationIsNull(func))
      return wp_error_set(err, "function '%s' not found", func_name);
    wp_bir_names_init(&p->names, func, "bir.const_file");
    p->names_for = func_name;
  }
  MlirOperation op = wp_bir_names_find(&p->names, wp_sref(file));
  if (mlirOperationIsNull(op))
    return wp_error_set(err, "const file '%s' not found", file);
  return wp_bir_const_file_source(module, op, p->opts->bir_read_back, p->arena, src, err);
}

/* A constant tensor's pointer must lie inside its file and its set's
 * dtype and shape must fill exactly its bytes: the runtime reads it so,
 * and a typed .npy member is built from them. */
static int check_pointer(const Wp__Bir__MemoryLocation *l, const Wp__Bir__MemoryLocationSet *s,
                         const Wp__Bir__ConstFile *cf, wp_error *err) {
  if (l->const_ap_offset > cf->size || l->size > cf->size - l->const_ap_offset)
    return wp_error_set(err, "memory location '%s' covers bytes %llu to %llu of const file "
                        "'%s', which has %llu", l->name,
                        (unsigned long long)l->const_ap_offset,
                        (unsigned long long)l->const_ap_offset + (unsigned long long)l->size,
                        cf->name, (unsigned long long)cf->size);
  int prim;
  const wp_hlo_prim *info = wp_dtype_parse(s->dtype, strlen(s->dtype), &prim, NULL) == 0
                                ? wp_hlo_prim_info(prim)
                                : NULL;
  if (!info || info->bytes <= 0)
    return 0;
  uint64_t bytes = (uint64_t)info->bytes;
  for (size_t d = 0; d < s->n_shape; d++) {
    uint64_t dim = (uint64_t)s->shape[d];
    if (dim && bytes > UINT64_MAX / dim) {
      bytes = UINT64_MAX;
      break;
    }
    bytes *= dim;
  }
  if (bytes != l->size)
    return wp_error_set(err, "memory location '%s' has %llu bytes, but its set '%s' (%s, %zu "
                        "dimension%s) needs %s%llu", l->name, (unsigned long long)l->size,
                        s->name, s->dtype, s->n_shape, s->n_shape == 1 ? "" : "s",
                        bytes == UINT64_MAX ? "more than " : "",
                        (unsigned long long)bytes);
  return 0;
}

/* A function names its folder in the tar: a path out of the package
 * ("../x", "/x") or an empty name must not get that far. */
static bool plain_folder_name(const char *name) {
  size_t n = strlen(name);
  if (n == 0 || n > 200 || !strcmp(name, ".") || !strcmp(name, ".."))
    return false;
  for (const char *c = name; *c; c++)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
          *c == '_' || *c == '-' || *c == '.'))
      return false;
  return true;
}

/* The members at the top of the package: a folder of that name would make
 * one path both a member and a folder (neff.json/def.json beside
 * neff.json), which no unpack can lay out and neff verify refuses. */
static bool names_top_member(const char *name) {
  size_t n = strlen(name);
  if (!strcmp(name, "neff.json") || !strcmp(name, "bom.json"))
    return true;
  if (n < 11 || strncmp(name, "kelf-", 5) != 0 || strcmp(name + n - 5, ".json") != 0)
    return false;
  for (size_t i = 5; i < n - 5; i++)
    if (name[i] < '0' || name[i] > '9')
      return false;
  return true;
}

static int pack_function(pack *p, size_t fi, wp_error *err) {
  const Wp__Bir__Function *f = p->bir->functions[fi];
  const char *sg = f->name;
  if (!plain_folder_name(sg))
    return wp_error_set(err, "function '%s' cannot name a folder of the NEFF: its name takes "
                        "1 to 200 letters, digits, '_', '-' and '.' (not '.' or '..')", sg);
  if (names_top_member(sg))
    return wp_error_set(err, "function '%s' cannot name a folder of the NEFF: a member at its "
                        "top has that name (neff.json, bom.json, kelf-N.json)", sg);
  size_t *set_of = wp_xmalloc((f->n_locations + 1) * sizeof *set_of);
  for (size_t i = 0; i < f->n_locations; i++)
    set_of[i] = SIZE_MAX;
  const size_t *first = p->bir_text.index.first[fi], *next = p->bir_text.index.next[fi];
  for (size_t k = 0; k < f->n_sets; k++)
    for (size_t j = first[k]; j != SIZE_MAX; j = next[j])
      set_of[j] = k;
  int64_t last_file = -1;
  wp_jsonw def = {.spill = &p->spill}; /* def.json */
  /* hashed on bir.json's thread as it spills, or here */
  bool def_hashed_there = fi == 0 && wp_neff_bir_text_hash_def(&p->bir_text, &def);
  if (!def_hashed_there)
    def.md5 = wp_md5_create(NULL);
  size_t n_vars = 0;
  wp_jsonw_lit(&def, "{\n \"name\": ");
  wp_jsonw_str(&def, sg);
  wp_jsonw_lit(&def, ",\n \"var\": [\n");
  int64_t next_id = 0;
  /* inputs and outputs */
  for (size_t i = 0; i < f->n_locations; i++) {
    const Wp__Bir__MemoryLocation *l = f->locations[i];
    const char *type = !strcmp(l->memory_type, "ExternalInput") ? "input"
                       : !strcmp(l->memory_type, "ExternalOutput") ? "output"
                                                                    : NULL;
    const Wp__Bir__MemoryLocationSet *s = find_set(f, i);
    if (!type || !s)
      continue;
    var_record(&def, &n_vars, next_id++, type, l->placement, "", 0, false);
    describe_tensor(&def, s, s->name);
    wp_jsonw_int_field(&def, "size", (long long)l->size);
    wp_jsonw_raw(&def, "}", 1);
  }
  /* Per const file, from one pass over the locations: the set that fills
   * it when exactly one kind of tensor does (the .npy member is then
   * typed), and the largest alignment asked of it. */
  size_t nf = f->n_const_files;
  int64_t *file_var = wp_xcalloc(nf + 1, sizeof *file_var);
  const char **file_name = wp_xcalloc(nf + 1, sizeof *file_name); /* arena strings */
  const Wp__Bir__MemoryLocationSet **only = wp_xcalloc(nf + 1, sizeof *only);
  bool *untyped = wp_xcalloc(nf + 1, sizeof *untyped);
  bool *used = wp_xcalloc(nf + 1, sizeof *used);
  uint64_t *align = wp_xcalloc(nf + 1, sizeof *align);
  wp_strmap files;
  wp_strmap_init(&files);
  int rc = -1;
  for (size_t k = 0; k < nf; k++) {
    const char *n = f->const_files[k]->name;
    wp_strmap_put(&files, n, strlen(n), (int64_t)k);
    align[k] = 1;
  }
  for (size_t i = 0; i < f->n_locations; i++) {
    const Wp__Bir__MemoryLocation *l = f->locations[i];
    int64_t k;
    if (!l->const_file[0] || !find_file(&files, f, l->const_file, &last_file, &k))
      continue;
    const Wp__Bir__MemoryLocationSet *s = find_set(f, i), *o = only[k];
    if (!s || l->const_ap_offset != 0 || l->size != f->const_files[k]->size ||
        (o && (strcmp(o->dtype, s->dtype) != 0 || o->n_shape != s->n_shape ||
               memcmp(o->shape, s->shape, s->n_shape * sizeof(int64_t)) != 0)))
      untyped[k] = true;
    only[k] = s;
    used[k] = true;
    if (l->alignment > align[k])
      align[k] = l->alignment;
  }
  /* one file variable (and member) per unique constant file */
  for (size_t k = 0; k < nf; k++) {
    const Wp__Bir__ConstFile *cf = f->const_files[k];
    if (!used[k]) {
      /* no tensor reads it (hand-written BIR; bir-lower makes none): it
       * has no dtype or memory type, so no de-dup key and no name in the
       * NEFF's scheme, and no variable would point into it */
      wp_emit_warning(wp_unknown_loc(p->module), "neff-pack: const file '%s' of function '%s' "
                      "is read by no memory location; it is not packed", cf->name, f->name);
      continue;
    }
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
    if (cf->artifact_in_place) {
      if (p->n_in_place == p->cap_in_place) { /* 49,152 of them in the moe model */
        p->cap_in_place = p->cap_in_place ? 2 * p->cap_in_place : 64;
        p->in_place = wp_xrealloc(p->in_place, p->cap_in_place * sizeof *p->in_place);
      }
      p->in_place[p->n_in_place++] = (struct in_place){
          p->n_members - 1, wp_arena_strndup(p->arena, sg, strlen(sg)),
          wp_arena_strndup(p->arena, cf->name, strlen(cf->name))};
    } else {
      m->path = wp_arena_alloc(p->arena, strlen(p->dir) + strlen(cf->artifact) + 2);
      sprintf((char *)m->path, "%s/%s", p->dir, cf->artifact);
    }
    m->size = cf->size;
    if (p->npy) {
      /* Built in one scratch buffer, kept at its exact size: a model has
       * thousands of members. */
      bool typed = !untyped[k] && only[k];
      m->prefix_len = wp_npy_member_prefix(p->npy_scratch, typed ? only[k]->dtype : NULL,
                                         typed ? only[k]->shape : NULL,
                                         typed ? (int)only[k]->n_shape : 0, cf->size);
      m->prefix = wp_arena_memdup(p->arena, p->npy_scratch, m->prefix_len);
      /* dedup-consts hashed the member already when it guessed this header */
      char prefix_md5[WP_MD5_HEX];
      if (member_md5_of_this_run(p, cf->member_md5) &&
          wp_md5_buffer(m->prefix, m->prefix_len, prefix_md5, NULL) == 0 &&
          !strcmp(prefix_md5, cf->member_prefix_md5))
        memcpy(m->md5, cf->member_md5, 32), m->md5[32] = 0;
    } else if (member_md5_of_this_run(p, cf->member_md5) &&
             !strcmp(cf->member_prefix_md5, WP_MD5_OF_NOTHING))
      /* a raw member: dedup-consts took its key MD5 from these bytes in
       * this run (a key MD5 read from an IR file is never reused) */
      memcpy(m->md5, cf->member_md5, 32), m->md5[32] = 0;
    /* Otherwise hashed as it is written; the MD5 of its bytes the IR
     * records (its name's) is checked then, unless dedup-consts took it
     * from them in this run. */
    if (!member_md5_of_this_run(p, cf->member_md5) && cf->md5[0])
      m->key_md5 = cf->md5;
    file_var[k] = next_id;
    file_name[k] = strchr(m->name, '/') + 1;
    var_record(&def, &n_vars, next_id++, "file", 0, "", 0, false);
    wp_jsonw_str_field(&def, "file_name", file_name[k]);
    wp_jsonw_int_field(&def, "size", (long long)(m->prefix_len + cf->size));
    wp_jsonw_int_field(&def, "data_offset", (long long)m->prefix_len);
    wp_jsonw_int_field(&def, "alignment", (long long)align[k]);
    /* as its .npy header says (typed when one kind of tensor fills it) */
    bool typed = !untyped[k] && only[k] && only[k]->n_shape <= WP_NPY_MAX_DIMS;
    int64_t flat = (int64_t)cf->size;
    type_descriptor(&def, typed ? only[k]->dtype : "uint8", typed ? only[k]->shape : &flat,
                    typed ? only[k]->n_shape : 1);
    wp_jsonw_raw(&def, "}", 1);
  }
  /* one pointer variable per logical constant tensor */
  for (size_t i = 0; i < f->n_locations; i++) {
    const Wp__Bir__MemoryLocation *l = f->locations[i];
    if (!l->const_file[0]) {
      if (!strcmp(l->memory_type, "Const")) {
        wp_error_set(err, "memory location '%s' is Const but names no const file", l->name);
        goto fail;
      }
      continue;
    }
    int64_t k;
    const Wp__Bir__MemoryLocationSet *s = find_set(f, i);
    if (!find_file(&files, f, l->const_file, &last_file, &k) || !s) {
      wp_error_set(err, "memory location '%s' names a missing const file or set", l->name);
      goto fail;
    }
    if (check_pointer(l, s, f->const_files[k], err))
      goto fail;
    /* the member it points into, as the file variable names it */
    var_record(&def, &n_vars, next_id++, "pointer", l->placement, file_name[k],
               l->const_ap_offset, true);
    describe_tensor(&def, s, s->hlo_value[0] ? s->hlo_value : s->name);
    wp_jsonw_int_field(&def, "referenced_var_id", (long long)file_var[k]);
    wp_jsonw_int_field(&def, "size", (long long)l->size);
    wp_jsonw_int_field(&def, "const_ap_offset", (long long)l->const_ap_offset);
    wp_jsonw_int_field(&def, "const_sub_tensor_id", (long long)l->const_sub_tensor_id);
    wp_jsonw_key(&def, false, "is_regloc_offset");
    wp_jsonw_bool(&def, l->is_regloc_offset);
    wp_jsonw_str_field(&def, "tensor_class", s->tensor_class);
    wp_jsonw_str_field(&def, "memtype", l->memory_type);
    type_descriptor(&def, s->dtype, s->shape, s->n_shape);
    wp_jsonw_key(&def, false, "to_sizes");
    wp_jsonw_int_list(&def, s->shape, s->n_shape);
    wp_jsonw_int_field(&def, "to_off", (long long)l->placement);
    wp_jsonw_str_field(&def, "to_dtype", s->dtype);
    wp_jsonw_key(&def, false, "to_steps");
    steps(&def, s->shape, s->n_shape);
    wp_jsonw_int_field(&def, "from_off", (long long)l->const_ap_offset);
    wp_jsonw_str_field(&def, "from_dtype", s->dtype);
    wp_jsonw_key(&def, false, "from_steps");
    steps(&def, s->shape, s->n_shape);
    wp_jsonw_raw(&def, "}", 1);
  }
  wp_jsonw_lit(&def, n_vars ? "\n ]\n}\n" : " ]\n}\n");
  char name[600];
  snprintf(name, sizeof name, "%s/def.json", sg);
  rc = add_text_member(p, name, &def, err);
  if (rc == 0 && def_hashed_there)
    p->def_member = p->n_members; /* its MD5 comes from the other thread */
fail:
  if (def_hashed_there)
    wp_neff_bir_text_def_done(&p->bir_text);
  free(set_of);
  free(def.p);
  wp_md5_destroy(def.md5); /* NULL once the text became a member */
  free(file_var);
  free(file_name);
  free(only);
  free(untyped);
  free(used);
  free(align);
  wp_strmap_free(&files);
  return rc;
}

/* Graph I's member: kelf-I.json. */
static void kelf_name(char out[32], size_t i) { snprintf(out, 32, "kelf-%zu.json", i); }

static int build_members(pack *p, wp_error *err) {
  if (p->bir->n_functions == 0)
    return wp_error_set(err, "the BIR module has no function");
  /* bir.json on a thread of its own while def.json is written here */
  if (wp_neff_bir_text_start(&p->bir_text, p->bir))
    return wp_error_set(err, "a memory location names no set");
  p->def_member = 0;
  int rc = 0;
  for (size_t i = 0; i < p->bir->n_functions && rc == 0; i++)
    rc = pack_function(p, i, err);
  wp_neff_bir_text_wait(&p->bir_text, rc == 0);
  if (rc)
    return -1;
  if (p->def_member) {
    wp_neff_member *m = &p->members[p->def_member - 1];
    if (!m->md5[0] && !wp_neff_bir_text_def_md5(&p->bir_text, m->size, m->md5))
      m->md5[0] = 0; /* hashed as it is written */
  }
  char name[600];
  const char *sg = p->bir->functions[0]->name;
  snprintf(name, sizeof name, "%s/bir.json", sg);
  if (add_finished_text(p, name, &p->bir_text.out, err))
    return -1;
  /* one graph per function (subgraph folder), each named by a kelf-N.json */
  for (size_t i = 0; i < p->bir->n_functions; i++) {
    const char *fn = p->bir->functions[i]->name;
    char def[600], kelf[32];
    snprintf(def, sizeof def, "%s/def.json", fn);
    kelf_name(kelf, i);
    if (add_json(p, kelf, json_pack("{s:s,s:s}", "definition", def, "name", fn), err))
      return -1;
  }
  return 0;
}

/* The members hold all they need of the module (key MD5s are copied):
 * its messages (23 MiB for 100,000 tensors) and the index of its sets go
 * before the in-place sources are assembled and compression starts, whose
 * buffers would otherwise come on top of them. */
static void drop_module(pack *p) {
  const Wp__Bir__Module *bir = p->bir;
  p->bir_name = wp_arena_strndup(p->arena, bir->name, strlen(bir->name));
  p->n_functions = bir->n_functions;
  p->unique_files = bir->dedup ? bir->dedup->unique_files : 0;
  p->bytes_saved = bir->dedup ? bir->dedup->bytes_saved : 0;
  for (size_t i = 0; i < p->n_members; i++) {
    wp_neff_member *m = &p->members[i];
    if (m->key_md5)
      m->key_md5 = wp_arena_strndup(p->arena, m->key_md5, strlen(m->key_md5));
  }
  wp_neff_bir_text_drop_module(&p->bir_text);
  p->bir = NULL;
  p->dir = NULL;
  wp_arena_destroy(p->bir_arena);
  p->bir_arena = NULL;
}

/* The in-place members' bytes, found after drop_module: assembling a
 * shared const file's pieces takes memory of its own for a while. */
static int find_in_place(pack *p, wp_error *err) {
  for (size_t i = 0; i < p->n_in_place; i++) {
    wp_neff_member *m = &p->members[p->in_place[i].member];
    wp_place_src src;
    if (in_place_source(p, p->in_place[i].func, p->in_place[i].file, &src, err))
      return -1;
    m->path = src.path;
    m->offset = src.offset;
    m->data = src.data;
    m->pieces = src.pieces;
    m->n_pieces = src.n_pieces;
  }
  wp_bir_names_free(&p->names);
  memset(&p->names, 0, sizeof p->names);
  p->names_for = NULL;
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
  json_object_set_new(neff, "name", json_string(p->bir_name));
  json_object_set_new(neff, "neff_version", json_pack("{s:i,s:i}", "major", WP_NEFF_VERSION_MAJOR,
                                                      "minor", WP_NEFF_VERSION_MINOR));
  json_object_set_new(neff, "producer", json_string("weightpack " WP_VERSION));
  json_t *graphs = json_array();
  for (size_t i = 0; i < p->n_functions; i++) {
    char kelf[32];
    kelf_name(kelf, i);
    json_array_append_new(graphs, json_string(kelf));
  }
  json_object_set_new(neff, "graphs", graphs);
  json_object_set_new(neff, "members", names);
  json_object_set_new(neff, "ir_signature", json_string(sig));
  json_object_set_new(neff, "ir_signature_rule",
                      json_string("MD5 over 'NAME\\nMD5\\n' of each member whose base name "
                                  "ends in .npy or contains .dbg, in name order"));
  json_object_set_new(neff, "dedup",
                      json_pack("{s:I,s:I}", "unique_files", (json_int_t)p->unique_files,
                                "bytes_saved", (json_int_t)p->bytes_saved));
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

/* -1 after an error when OUT lies in the module's artifact directory
 * under a name ending in .bin, as every constant file's there (bir-lower's
 * and dedup-consts' names): the NEFF would replace one, or a later run's
 * would replace the NEFF. opt finds it before any pass runs; a driver's
 * pipeline, here. */
static int output_takes_const_name(MlirOperation module, const char *out) {
  MlirStringRef adir;
  if (!wp_attr_str(module, "bir.artifact_path", &adir) || !adir.length)
    return 0;
  char *dir = strndup(adir.data, adir.length);
  char *base = dir ? wp_output_name_in(out, dir) : NULL;
  size_t n = base ? strlen(base) : 0;
  bool clash = n >= 4 && !strcmp(base + n - 4, ".bin");
  if (clash)
    wp_emit_error(wp_unknown_loc(module), "neff-pack: output %s is in the artifact directory "
                  "%s, where constant files are placed under names ending in .bin: it could "
                  "replace one, or be replaced; give the output another name or directory",
                  out, dir);
  free(base);
  free(dir);
  return clash ? -1 : 0;
}

int wp_neff_pack_module(MlirOperation module, const wp_neff_pack_options *opts) {
  MlirModule m = mlirModuleFromOperation(module);
  if (!wp_bir_module_is_bir(m)) {
    wp_emit_error(mlirOperationGetLocation(module), "neff-pack: the module is not BIR (run "
                  "--bir-lower first)");
    return -1;
  }
  if (wp_bir_check_module(module, "neff-pack", opts->bir_read_back))
    return -1;
  const char *out = opts->output ? opts->output : "";
  if (!strcmp(out, "-")) {
    wp_emit_error(wp_unknown_loc(module), "neff-pack: a NEFF cannot go to standard output (its "
                  "header is written last); give output=FILE");
    return -1;
  }
  if (!out[0]) {
    wp_emit_error(wp_unknown_loc(module), "neff-pack: no output file; give the pass option "
                                   "output=FILE (opt: -o FILE)");
    return -1;
  }
  if (output_takes_const_name(module, out))
    return -1;
  wp_neff_compress how = opts->how;
  bool used_direct = false;
  how.used_direct = &used_direct;
  pack p = {.opts = opts, .module = module, .arena = wp_arena_create(),
            .bir_arena = wp_arena_create(), .npy = !opts->raw_members,
            .spill = WP_JSONW_SPILL_INIT, .bir_text = WP_NEFF_BIR_TEXT_INIT};
  wp_error err;
  int rc = -1;
  wp_output *o = NULL;
  if (mlirAttributeIsNull(wp_attr(module, "bir.dedup"))) {
    wp_emit_error(wp_unknown_loc(module), "neff-pack: constants are not de-duplicated yet (run "
                                   "--copy-const-artifacts --dedup-consts first)");
    goto out;
  }
  MlirLocation where;
  if (!(p.bir = wp_bir_to_proto(m, p.bir_arena, WP_BIR_CHECKED, &where, &err))) {
    wp_emit_error(where, "neff-pack: %s", err.msg);
    goto out;
  }
  p.dir = p.bir->artifact_path;
  if (build_members(&p, &err)) {
    wp_emit_error(wp_unknown_loc(module), "neff-pack: %s", err.msg);
    goto out;
  }
  drop_module(&p);
  if (find_in_place(&p, &err)) {
    wp_emit_error(wp_unknown_loc(module), "neff-pack: %s", err.msg);
    goto out;
  }
  /* the NEFF must not replace a file the IR reads (opt checks this
   * before any pass runs, and says so) */
  struct stat out_st;
  char clash[PATH_MAX + 512];
  if (!opts->outputs_checked && stat(out, &out_st) == 0 && S_ISREG(out_st.st_mode) &&
      wp_ir_input_file(m, NULL, &out_st, clash, sizeof clash)) {
    wp_emit_error(wp_unknown_loc(module), "neff-pack: output %s would replace %s, an input of this "
                  "run; give another output", out, clash);
    goto out;
  }
  if (!(o = wp_output_open(out, &err))) {
    wp_emit_error(wp_unknown_loc(module), "%s", err.msg);
    goto out;
  }
  FILE *f = wp_output_stream(o);
  fflush(f);
  if (lseek(fileno(f), 0, SEEK_CUR) < 0) { /* a pipe or FIFO */
    wp_emit_error(wp_unknown_loc(module), "%s: a NEFF needs an output it can seek in (its header "
                  "is written last): give a file", out);
    goto out;
  }
  if (wp_neff_write_payload(fileno(f), p.members, p.n_members, p.bir_name, how,
                            build_tail, &p, &err)) {
    wp_emit_error(wp_unknown_loc(module), "%s: %s", out, err.msg);
    wp_output_abort(o);
    o = NULL;
    goto out;
  }
  if (opts->debug)
    wp_emit_remark(wp_unknown_loc(module), "NeffPack: %s written %s", out,
                   used_direct ? "with O_DIRECT" : "with plain writes");
  /* Keep the stdio position in step with what was written through the fd. */
  fseeko(f, 0, SEEK_END);
  if (wp_output_commit(o, &err)) {
    o = NULL;
    wp_emit_error(wp_unknown_loc(module), "%s", err.msg);
    goto out;
  }
  o = NULL;
  rc = 0;
out:
  wp_output_abort(o);
  free(p.members);
  free(p.in_place);
  for (size_t i = 0; i < p.n_texts; i++)
    free(p.texts[i]);
  free(p.texts);
  wp_jsonw_spill_close(&p.spill);
  wp_neff_bir_text_close(&p.bir_text);
  wp_bir_names_free(&p.names);
  wp_arena_destroy(p.bir_arena);
  wp_arena_destroy(p.arena);
  return rc;
}
