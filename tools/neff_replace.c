/* neff replace-weights: new bytes for a NEFF's weights, without the
 * compiler. The NEFF's own sg00/bir.json (its tensors in the order
 * bir-lower placed them, and bir.lowering) is lowered again with the new
 * bytes (lowering/wp_bir_relower.h), then copy-const-artifacts,
 * dedup-consts and neff-pack run as in a full opt run, so the result is
 * the NEFF that run would write. */
#include "neff_replace.h"

#include "neff_signals.h"

#include "weightpack/weightpack.h"
#include "wp_bir.h"
#include "wp_bir_enums.h"
#include "wp_bir_relower.h"
#include "wp_file.h"
#include "wp_format.h"
#include "wp_hlo_types.h"
#include "wp_hlo_weight.h"
#include "wp_md5.h"
#include "wp_mlir_util.h"
#include "wp_depfile.h"
#include "wp_model_dir.h"
#include "wp_neff_read.h"
#include "wp_npy.h"
#include "wp_run.h"
#include "wp_strmap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <jansson.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct replace {
  const char *in, *model_dir, *out, *compressor;
  wp_depfile_paths *reads; /* the files read, for --depfile */
  char tmp[4096];     /* private working directory, removed at the end */
  wp_model_dir md;
  wp_strmap weights;  /* tensor name -> index into md.weights */
  bool *used;         /* per md.weights: a tensor of the NEFF took it */
  wp_arena *arena;
  json_t *bir_root;
  Wp__Bir__Module *bir;
  const Wp__Bir__Function *fn;
  wp_relower_tensor *tensors;
  size_t n_tensors;
  struct old_member *maps; /* the NEFF's members read for their bytes */
  size_t n_maps;
  wp_strmap members; /* member stem -> index into maps */
  wp_hlo_weight_data **data; /* the new weights */
  size_t n_data;
  bool raw_members;
  int failed_diag;
} replace;

/* The working directory, for the signal handler (the only file-scope
 * state: a handler reaches nothing else). */
static char g_workdir[4096];

/* Removes everything under directory DIRFD with system calls only
 * (async-signal-safe): entries are unlinked, directories emptied first. */
static void remove_under(int dirfd, int depth) {
  char buf[4096];
  for (int pass = 0; pass < 64; pass++) {
    long n = syscall(SYS_getdents64, dirfd, buf, sizeof buf);
    if (n <= 0)
      return;
    for (long off = 0; off < n;) {
      struct dirent64 *d = (struct dirent64 *)(void *)(buf + off);
      off += d->d_reclen;
      if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
        continue;
      if (d->d_type == DT_DIR && depth < 8) {
        int sub = openat(dirfd, d->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub >= 0) {
          remove_under(sub, depth + 1);
          close(sub);
        }
        unlinkat(dirfd, d->d_name, AT_REMOVEDIR);
      } else {
        unlinkat(dirfd, d->d_name, 0);
      }
    }
    lseek(dirfd, 0, SEEK_SET);
  }
}

/* The working directory's removal, from a signal handler. */
static void remove_workdir(void) {
  if (!g_workdir[0])
    return;
  int fd = open(g_workdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) {
    remove_under(fd, 0);
    close(fd);
  }
  rmdir(g_workdir);
}

__attribute__((format(printf, 1, 2))) static int fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return 1;
}

static void print_cb(MlirStringRef s, void *user) { fwrite(s.data, 1, s.length, user); }

/* Errors and warnings of the passes, as opt prints them; the "saved"
 * remark is the compile's, not this command's. */
static MlirLogicalResult on_diagnostic(MlirDiagnostic d, void *user) {
  replace *rp = user;
  MlirDiagnosticSeverity sev = mlirDiagnosticGetSeverity(d);
  if (sev == MlirDiagnosticRemark || sev == MlirDiagnosticNote)
    return mlirLogicalResultSuccess();
  if (sev == MlirDiagnosticError)
    rp->failed_diag = 1;
  fputs(sev == MlirDiagnosticError ? "error: " : "warning: ", stderr);
  mlirDiagnosticPrint(d, print_cb, stderr);
  fputc('\n', stderr);
  return mlirLogicalResultSuccess();
}

/* The model directory's weights by name: replace-weights matches tensors
 * by name, so a list of weights by parameter number cannot be used. */
/* The model directory's weights, by the names of the entry parameters
 * they are for (the model file says which parameters there are, and
 * names those given by number), as inline-weights would plant them: a
 * weight for no entry parameter is refused as opt refuses it. */
static int load_weights(replace *rp, MlirContext ctx) {
  wp_error err;
  if (wp_model_dir_load(rp->model_dir, &rp->md, &err))
    return fail("%s", err.msg);
  rp->used = wp_xcalloc(rp->md.n_weights + 1, sizeof *rp->used);
  MlirModule m;
  if (wpOpenModelDir(ctx, rp->model_dir, NULL, &m, &err))
    return fail("%s", err.msg);
  MlirOperation mop = mlirModuleGetOperation(m);
  MlirOperation entry = wp_find_func(mop, wp_symref_value(wp_attr(mop, "hlo.entry")));
  MlirBlock body = mlirOperationIsNull(entry) ? (MlirBlock){NULL} : wp_func_body(entry);
  intptr_t n_args = mlirBlockIsNull(body) ? 0 : mlirBlockGetNumArguments(body);
  int rc = 0;
  for (size_t i = 0; i < rp->md.n_weights && !rc; i++) {
    const wp_weight_ref *w = &rp->md.weights[i];
    MlirStringRef name = {NULL, 0};
    for (intptr_t a = 0; a < n_args && !name.data; a++) {
      MlirAttribute n = wp_dict_get(wp_func_arg_attrs(entry, a), "hlo.name");
      MlirStringRef s = !mlirAttributeIsNull(n) && mlirAttributeIsAString(n)
                            ? wp_str_value(n)
                            : (MlirStringRef){"", 0};
      if (w->param_name ? mlirStringRefEqual(s, wp_sref(w->param_name))
                        : w->param_number == (int64_t)a)
        name = s;
    }
    char num[32];
    snprintf(num, sizeof num, "%lld", (long long)w->param_number);
    if (!name.data) {
      rc = fail("%s/metadata.json names parameter '%s', which the model's entry computation "
                "does not have", rp->model_dir, w->param_name ? w->param_name : num);
      break;
    }
    char *key = wp_arena_strndup(rp->arena, name.data, name.length);
    if (wp_strmap_put(&rp->weights, key, strlen(key), (int64_t)i))
      rc = fail("out of memory");
  }
  mlirModuleDestroy(m);
  return rc;
}

/* Would the output replace a file the run reads (the NEFF, metadata.json,
 * the model file, a weight)? Said, as bad usage, before any work. */
static bool output_is_an_input(replace *rp) {
  const char *what = NULL;
  char *meta = wp_format("%s/metadata.json", rp->model_dir);
  if (wp_same_path_file(rp->out, rp->in))
    what = "the NEFF it reads";
  else if (wp_same_path_file(rp->out, meta))
    what = "the model directory's metadata.json";
  else if (rp->md.model_path && wp_same_path_file(rp->out, rp->md.model_path))
    what = "the model file";
  for (size_t i = 0; !what && i < rp->md.n_weights; i++) {
    char *path;
    wp_error err;
    if (wp_model_dir_resolve(rp->model_dir, rp->md.weights[i].rel_path, 1, &path, &err) == 0) {
      if (wp_same_path_file(rp->out, path))
        what = "a weight it reads";
      free(path);
    }
  }
  free(meta);
  if (what)
    fprintf(stderr, "error: replace-weights: the output '%s' is %s: write a new file\n",
            rp->out, what);
  return what != NULL;
}

/* sg00/bir.json of the NEFF: the module to lower again. */
static int parse_bir(replace *rp, const char *text, size_t len) {
  json_error_t je;
  wp_error err;
  rp->bir_root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
  if (!rp->bir_root)
    return fail("%s: sg00/bir.json: %s", rp->in, je.text);
  if (wp_bir_from_json(rp->arena, rp->bir_root, &rp->bir, &err))
    return fail("%s: sg00/bir.json: %s", rp->in, err.msg);
  if (!rp->bir->lowering)
    return fail("%s: its sg00/bir.json has no \"lowering\" record: it was not written by "
                "this weightpack's bir-lower, so it cannot be re-packed",
                rp->in);
  if (rp->bir->n_functions != 1 || strcmp(rp->bir->functions[0]->name, "sg00") != 0)
    return fail("%s: re-packing takes one BIR function, sg00, as bir-lower makes", rp->in);
  rp->fn = rp->bir->functions[0];
  if (rp->fn->n_kernels != 1 || !rp->fn->kernels[0]->program[0])
    return fail("%s: sg00 has no kernel naming its program", rp->in);
  return 0;
}

/* The member stem ("sg00/<artifact without .bin>") of const file CF;
 * NULL for an artifact name that is not a plain file name. */
static char *member_stem(replace *rp, const Wp__Bir__ConstFile *cf) {
  if (!cf->artifact[0] || strchr(cf->artifact, '/') || !strcmp(cf->artifact, "..") ||
      !strcmp(cf->artifact, "."))
    return NULL;
  char *stem = wp_arena_alloc(rp->arena, strlen(cf->artifact) + 8);
  sprintf(stem, "sg00/%s", cf->artifact);
  char *dot = strrchr(stem, '.');
  if (dot && !strcmp(dot, ".bin"))
    *dot = 0;
  return stem;
}

/* Reading the NEFF: the first read checks the whole package as neff
 * verify does (the stream, every member against bom.json, the header)
 * and keeps bir.json, which tells which members hold bytes that stay
 * (constants the model directory does not name); only those are written
 * out. Members are in name order, so some may pass before bir.json does:
 * a second read, up to the last of them, fetches those, each checked
 * against the MD5 bom.json gave it. */
typedef struct stream {
  replace *rp;
  char *json;
  size_t json_len, json_cap;
  bool parsed, failed;
  wp_strmap needed; /* member name -> index of its stem */
  bool *done;       /* per stem */
  size_t n_stems, left;
  char current[1024];
  FILE *out;
  int64_t out_stem; /* -1: not a needed member (written because bir.json came later) */
  bool seen_payload; /* a constant's member: its suffix tells .npy from raw .bin */
  wp_strmap before;  /* payload members that passed before bir.json */
  bool *missed;      /* per stem: passed before bir.json, fetched by the second read */
  size_t n_missed;
  bool second;       /* the second read */
  wp_neff_bom *bom;  /* the first read's members against bom.json */
  char *bom_json;    /* bom.json's text, for the second read's checks */
  size_t bom_len, bom_cap;
  json_t *bom_root;
  wp_md5 *md5;       /* the member being written by the second read */
} stream;

static void append(char **buf, size_t *len, size_t *cap, const void *data, size_t n) {
  if (*len + n > *cap) {
    *cap = 2 * (*len + n) + 4096;
    *buf = wp_xrealloc(*buf, *cap);
  }
  memcpy(*buf + *len, data, n);
  *len += n;
}

/* bom.json's MD5 of member NAME, or NULL */
static const char *bom_md5(stream *st, const char *name) {
  json_t *members = json_object_get(st->bom_root, "members");
  size_t i;
  json_t *m;
  json_array_foreach(members, i, m) {
    json_t *n = json_object_get(m, "name");
    if (json_is_string(n) && !strcmp(json_string_value(n), name))
      return json_string_value(json_object_get(m, "md5"));
  }
  return NULL;
}

static void plan_members(stream *st) {
  replace *rp = st->rp;
  const Wp__Bir__Function *f = rp->fn;
  st->done = wp_xcalloc(f->n_const_files + 1, sizeof *st->done);
  for (size_t i = 0; i < f->n_locations; i++) {
    const Wp__Bir__MemoryLocation *l = f->locations[i];
    if (!l->const_file[0] || wp_strmap_get(&rp->weights, l->set, strlen(l->set), NULL))
      continue;
    for (size_t k = 0; k < f->n_const_files; k++) {
      char *stem;
      if (strcmp(f->const_files[k]->name, l->const_file) ||
          !(stem = member_stem(rp, f->const_files[k])))
        continue;
      char *npy = wp_format("%s.npy", stem), *bin = wp_format("%s.bin", stem);
      if (!wp_strmap_get(&st->needed, npy, strlen(npy), NULL)) {
        wp_strmap_put(&st->needed, wp_arena_strndup(rp->arena, npy, strlen(npy)), strlen(npy),
                      (int64_t)st->n_stems);
        wp_strmap_put(&st->needed, wp_arena_strndup(rp->arena, bin, strlen(bin)), strlen(bin),
                      (int64_t)st->n_stems);
        st->n_stems++;
        st->left++;
      }
      free(npy);
      free(bin);
    }
  }
}

static int member_fn(const char *name, uint64_t size, const void *data, size_t len, void *user) {
  (void)size;
  stream *st = user;
  replace *rp = st->rp;
  bool is_json = !strcmp(name, "sg00/bir.json");
  if (!st->second) {
    wp_neff_bom_feed(name, size, data, len, st->bom);
    if (!strcmp(name, "bom.json") && data)
      append(&st->bom_json, &st->bom_len, &st->bom_cap, data, len);
  }
  if (strcmp(st->current, name) != 0) { /* a new member */
    snprintf(st->current, sizeof st->current, "%s", name);
    int64_t stem = -1;
    size_t n = strlen(name);
    bool payload = !strncmp(name, "sg00/", 5) && !strchr(name + 5, '/') && n > 9 &&
                   (!strcmp(name + n - 4, ".npy") || !strcmp(name + n - 4, ".bin"));
    if (payload && !st->seen_payload) {
      st->seen_payload = true;
      rp->raw_members = !strcmp(name + n - 4, ".bin");
    }
    if (payload && !st->parsed)
      wp_strmap_put(&st->before, wp_arena_strndup(rp->arena, name, n), n, 1);
    bool want = payload && st->parsed && wp_strmap_get(&st->needed, name, n, &stem) &&
                !st->done[stem] && st->missed[stem] == st->second;
    st->out_stem = stem;
    if (want && st->second) {
      wp_error err;
      if (!(st->md5 = wp_md5_create(&err))) {
        fail("%s", err.msg);
        return st->failed = true, 1;
      }
    }
    if (want) {
      char *path = wp_format("%s/neff/%s", rp->tmp, name);
      st->out = fopen(path, "wb");
      free(path);
      if (!st->out) {
        fail("cannot write in %s: %s", rp->tmp, strerror(errno));
        return st->failed = true, 1;
      }
    }
  }
  if (data) {
    if (is_json && !st->parsed) {
      append(&st->json, &st->json_len, &st->json_cap, data, len);
    } else if (st->out && fwrite(data, 1, len, st->out) != len) {
      fail("cannot write in %s: %s", rp->tmp, strerror(errno));
      return st->failed = true, 1;
    }
    if (st->md5 && st->out)
      wp_md5_update(st->md5, data, len);
    return 0;
  }
  /* the member's end */
  if (st->out) {
    if (fclose(st->out)) {
      st->out = NULL;
      fail("cannot write in %s: %s", rp->tmp, strerror(errno));
      return st->failed = true, 1;
    }
    st->out = NULL;
    if (st->md5) {
      char got[WP_MD5_HEX];
      wp_md5_final_hex(st->md5, got);
      wp_md5_destroy(st->md5);
      st->md5 = NULL;
      const char *want = bom_md5(st, name);
      if (!want || strcmp(want, got)) {
        fail("%s: member %s changed since it was checked (MD5 %s, bom.json %s)", rp->in, name,
             got, want ? want : "none");
        return st->failed = true, 1;
      }
    }
    if (st->out_stem >= 0 && !st->done[st->out_stem]) {
      st->done[st->out_stem] = true;
      st->left--;
    }
  }
  if (is_json && !st->parsed) {
    if (parse_bir(rp, st->json, st->json_len))
      return st->failed = true, 1;
    st->parsed = true;
    plan_members(st);
    st->missed = wp_xcalloc(st->n_stems + 1, sizeof *st->missed);
    /* needed members that passed already: the second read's */
    for (size_t k = 0; k < rp->fn->n_const_files; k++) {
      char *stem = member_stem(rp, rp->fn->const_files[k]);
      for (int e = 0; stem && e < 2; e++) {
        char *member = wp_format("%s.%s", stem, e ? "bin" : "npy");
        int64_t i;
        if (wp_strmap_get(&st->before, member, strlen(member), NULL) &&
            wp_strmap_get(&st->needed, member, strlen(member), &i) && !st->missed[i]) {
          st->missed[i] = true;
          st->n_missed++;
        }
        free(member);
      }
    }
  }
  if (st->second)
    return st->left == 0 ? 1 : 0;
  return 0; /* the first read checks the whole package */
}

static int read_neff(replace *rp) {
  wp_error err;
  wp_neff_reader *r = wp_neff_open(rp->in, UINT64_MAX, &err);
  if (!r)
    return fail("%s", err.msg);
  char *dir = wp_format("%s/neff/sg00", rp->tmp);
  char *top = wp_format("%s/neff", rp->tmp);
  int rc = mkdir(top, 0700) || mkdir(dir, 0700) ? fail("cannot make %s: %s", dir, strerror(errno))
                                                 : 0;
  free(dir);
  free(top);
  stream st = {.rp = rp};
  wp_strmap_init(&st.needed);
  wp_strmap_init(&st.before);
  if (!rc && !(st.bom = wp_neff_bom_new(NULL, &err)))
    rc = fail("%s", err.msg);
  if (!rc) {
    int each = wp_neff_each_member(r, member_fn, &st, &err);
    if (st.out)
      fclose(st.out), st.out = NULL;
    json_error_t je;
    if (st.failed)
      rc = 1;
    else if (each != 0)
      rc = fail("%s", each < 0 ? err.msg : "reading stopped");
    else if (wp_neff_bom_check(st.bom, rp->in, &err) || wp_neff_header_check(r, &err))
      rc = fail("%s", err.msg);
    else if (!st.parsed)
      rc = fail("%s: no sg00/bir.json to re-pack from", rp->in);
    else if (!(st.bom_root = json_loadb(st.bom_json, st.bom_len, 0, &je)))
      rc = fail("%s: bom.json: %s", rp->in, je.text);
  }
  if (!rc && st.n_missed) {
    wp_neff_close(r);
    if (!(r = wp_neff_open(rp->in, UINT64_MAX, &err)))
      return fail("%s", err.msg);
    st.second = true;
    st.current[0] = 0;
    int each = wp_neff_each_member(r, member_fn, &st, &err);
    if (st.out)
      fclose(st.out), st.out = NULL;
    if (st.failed)
      rc = 1;
    else if (each != 0 && !(each == 1 && st.left == 0))
      rc = fail("%s", each < 0 ? err.msg : "reading stopped");
  }
  if (!rc && st.left)
    rc = fail("%s: %zu member(s) its sg00/bir.json names are missing", rp->in, st.left);
  wp_neff_close(r);
  free(st.json);
  free(st.done);
  free(st.missed);
  free(st.bom_json);
  json_decref(st.bom_root);
  if (st.md5)
    wp_md5_destroy(st.md5);
  wp_neff_bom_free(st.bom);
  wp_strmap_free(&st.needed);
  wp_strmap_free(&st.before);
  return rc;
}

static bool in_list(char **list, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(list[i], name))
      return true;
  return false;
}

static const Wp__Bir__ConstFile *find_file(const Wp__Bir__Function *f, const char *name) {
  for (size_t i = 0; i < f->n_const_files; i++)
    if (!strcmp(f->const_files[i]->name, name))
      return f->const_files[i];
  return NULL;
}

/* A constant's old bytes: its place in the NEFF member of its const file. */
/* A member of the NEFF read for its bytes: mapped and checked once. */
typedef struct old_member {
  char *path;
  uint64_t header; /* its .npy header's size (0: a raw .bin member) */
  wp_mapped_file map;
} old_member;

static old_member *open_member(replace *rp, const Wp__Bir__ConstFile *cf, const char *stem) {
  int64_t k;
  if (wp_strmap_get(&rp->members, stem, strlen(stem), &k))
    return &rp->maps[k];
  old_member *m = &rp->maps[rp->n_maps];
  m->path = wp_arena_alloc(rp->arena, strlen(rp->tmp) + strlen(stem) + 32);
  sprintf(m->path, "%s/neff/%s.npy", rp->tmp, stem);
  wp_error err;
  if (access(m->path, F_OK) == 0) {
    wp_npy_info npy;
    if (wp_npy_file_header(m->path, &npy, &err))
      return fail("%s: %s", rp->in, err.msg), NULL;
    m->header = npy.data_offset;
  } else {
    sprintf(m->path, "%s/neff/%s.bin", rp->tmp, stem);
  }
  if (wp_file_map(m->path, &m->map, &err))
    return fail("%s: %s", rp->in, err.msg), NULL;
  rp->n_maps++;
  /* the bytes must be those its name's MD5 (bir.json's md5) is of, as
   * neff verify checks: a member changed and re-signed is refused */
  char got[WP_MD5_HEX];
  if (cf->md5[0] &&
      (m->map.size < m->header ||
       wp_md5_buffer(m->map.data + m->header, m->map.size - m->header, got, &err) ||
       strcmp(got, cf->md5)))
    return fail("%s: member %s.%s does not hold the bytes its name says (MD5 %s)", rp->in, stem,
                m->header ? "npy" : "bin", cf->md5),
           NULL;
  wp_strmap_put(&rp->members, stem, strlen(stem), (int64_t)(m - rp->maps));
  return m;
}

/* A constant's old bytes: its place in the NEFF member of its const file. */
static int old_bytes(replace *rp, wp_relower_tensor *t, const Wp__Bir__MemoryLocation *l) {
  const Wp__Bir__ConstFile *cf = find_file(rp->fn, l->const_file);
  char *stem = cf ? member_stem(rp, cf) : NULL;
  if (!stem)
    return fail("%s: tensor '%s' names a const file the NEFF does not hold", rp->in, t->name);
  old_member *m = open_member(rp, cf, stem);
  if (!m)
    return 1;
  uint64_t at = m->header + l->const_ap_offset;
  if (at < m->header || at > m->map.size || l->size > m->map.size - at)
    return fail("%s: tensor '%s' lies past the end of its member", rp->in, t->name);
  t->bytes = m->map.data + at;
  t->size = l->size;
  t->file = m->path;
  t->offset = at;
  return 0;
}

/* A weight's new bytes, read and checked as inline-weights would. */
static int new_bytes(replace *rp, wp_relower_tensor *t, const char *rel) {
  wp_error err;
  char *path;
  if (wp_model_dir_resolve(rp->model_dir, rel, 0, &path, &err))
    return fail("weight '%s': %s", t->name, err.msg);
  char *kept = wp_arena_strndup(rp->arena, path, strlen(path));
  free(path);
  wp_depfile_paths_add(rp->reads, kept);
  wp_hlo_weight_data *w;
  if (wp_hlo_weight_read(t->type, kept, 0, &w, &err))
    return fail("weight '%s' (%s): %s", t->name, kept, err.msg);
  rp->data[rp->n_data++] = w;
  t->bytes = wp_hlo_weight_data_bytes(w, &t->size);
  wp_npy_info npy;
  if (wp_npy_file_header(kept, &npy, &err))
    return fail("%s", err.msg);
  if (!wp_npy_needs_conversion(&npy)) {
    t->file = kept;
    t->offset = npy.data_offset;
    return 0;
  }
  /* converted (big-endian, Fortran order): its bytes as planted, in a file */
  char *conv = wp_arena_alloc(rp->arena, strlen(rp->tmp) + 48);
  sprintf(conv, "%s/converted-%zu.bin", rp->tmp, rp->n_data);
  FILE *f = fopen(conv, "wb");
  if (!f || fwrite(t->bytes, 1, t->size, f) != t->size || fclose(f))
    return fail("cannot write %s: %s", conv, strerror(errno));
  t->file = conv;
  t->offset = 0;
  return 0;
}

static int tensor_type(replace *rp, MlirContext ctx, const Wp__Bir__MemoryLocationSet *s,
                       MlirType *out) {
  int prim;
  wp_error err;
  if (wp_dtype_parse(s->dtype, strlen(s->dtype), &prim, &err))
    return fail("%s: tensor '%s': %s", rp->in, s->name, err.msg);
  MlirType elt = wp_hlo_prim_to_mlir(ctx, prim);
  if (mlirTypeIsNull(elt))
    return fail("%s: tensor '%s' has a dtype BIR cannot lower", rp->in, s->name);
  *out = mlirRankedTensorTypeGet((intptr_t)s->n_shape, s->shape, elt, mlirAttributeGetNull());
  return 0;
}

/* The tensors in the order of sg00's sets, each with its bytes. */
static int collect_tensors(replace *rp, MlirContext ctx) {
  const Wp__Bir__Function *f = rp->fn;
  const Wp__Bir__Lowering *lw = rp->bir->lowering;
  rp->tensors = wp_xcalloc(f->n_sets + 1, sizeof *rp->tensors);
  rp->maps = wp_xcalloc(f->n_sets + 1, sizeof *rp->maps);
  rp->data = wp_xcalloc(f->n_sets + 1, sizeof *rp->data);
  wp_strmap locs;
  wp_strmap_init(&locs);
  for (size_t i = 0; i < f->n_locations; i++)
    if (!wp_strmap_get(&locs, f->locations[i]->set, strlen(f->locations[i]->set), NULL))
      wp_strmap_put(&locs, f->locations[i]->set, strlen(f->locations[i]->set), (int64_t)i);
  int rc = 1;
  for (size_t i = 0; i < f->n_sets; i++) {
    const Wp__Bir__MemoryLocationSet *s = f->sets[i];
    wp_relower_tensor *t = &rp->tensors[rp->n_tensors++];
    t->name = s->name;
    int64_t li;
    if (!wp_strmap_get(&locs, s->name, strlen(s->name), &li)) {
      fail("%s: tensor '%s' has no memory location", rp->in, s->name);
      goto out;
    }
    const Wp__Bir__MemoryLocation *l = f->locations[li];
    if (tensor_type(rp, ctx, s, &t->type))
      goto out;
    bool neuron = !strcmp(s->tensor_class, "NeuronWeightTensor");
    if (!strcmp(s->tensor_class, "InputTensor")) {
      t->kind = WP_RELOWER_INPUT;
    } else if (!strcmp(s->tensor_class, "OutputTensor")) {
      t->kind = WP_RELOWER_OUTPUT;
    } else if (l->const_file[0]) {
      t->kind = WP_RELOWER_CONSTANT;
      int64_t w;
      bool operand = neuron || in_list(lw->weight_operands, lw->n_weight_operands, s->name);
      if (wp_strmap_get(&rp->weights, s->name, strlen(s->name), &w)) {
        rp->used[w] = true;
        t->planted = true;
        t->weight_operand = operand;
        if (new_bytes(rp, t, rp->md.weights[w].rel_path))
          goto out;
      } else {
        t->planted = operand || in_list(lw->planted, lw->n_planted, s->name);
        t->weight_operand = operand;
        if (old_bytes(rp, t, l))
          goto out;
      }
    } else {
      fail("%s: tensor '%s' is a %s, which bir-lower does not make", rp->in, s->name,
           s->tensor_class);
      goto out;
    }
  }
  for (size_t i = 0; i < rp->md.n_weights; i++)
    if (!rp->used[i]) {
      const wp_weight_ref *w = &rp->md.weights[i];
      char num[32];
      snprintf(num, sizeof num, "%lld", (long long)w->param_number);
      fail("weight '%s' of metadata.json is no constant tensor of %s",
           w->param_name ? w->param_name : num, rp->in);
      goto out;
    }
  rc = 0;
out:
  wp_strmap_free(&locs);
  return rc;
}

static int pack(replace *rp, MlirContext ctx) {
  MlirModule m = mlirModuleCreateEmpty(
      mlirLocationFileLineColGet(ctx, mlirStringRefCreateFromCString(rp->in), 0, 0));
  MlirOperation mop = mlirModuleGetOperation(m);
  const Wp__Bir__Lowering *lw = rp->bir->lowering;
  wp_relower_spec spec = {
      .name = rp->bir->name,
      .program_entry = rp->fn->kernels[0]->program,
      .shared_dir = rp->tmp,
      .opts = {.const_memory_dram = !strcmp(lw->const_memory, "DRAM"),
               .small_threshold = lw->small_const_threshold,
               .small_weight_threshold = lw->small_weight_threshold,
               .min_align = lw->alignment,
               .table_min = 64},
      .tensors = rp->tensors,
      .n_tensors = rp->n_tensors};
  int rc = 1;
  wp_run *run = NULL;
  MlirPassManager pm = {NULL};
  if (wp_bir_relower_module(mop, &spec))
    goto out;
  wp_error err;
  run = wpRunCreate();
  char art[4200];
  snprintf(art, sizeof art, "%s/art", rp->tmp);
  if (wpRunSetArtifactDir(run, art, &err) || wpRunSetNeffOutput(run, rp->out, &err)) {
    fail("%s", err.msg);
    goto out;
  }
  run->artifact_dir_private = true; /* nobody else sees it: place in place */
  pm = mlirPassManagerCreate(ctx);
  char pack_opts[128];
  snprintf(pack_opts, sizeof pack_opts, "weights-format=%s compressor=%s",
           rp->raw_members ? "bin" : "npy", rp->compressor);
  const char *names[3] = {"copy-const-artifacts", "dedup-consts", "neff-pack"};
  const char *opts[3] = {"", "", pack_opts};
  for (int i = 0; i < 3; i++) {
    MlirPass p = wpRunCreatePass(run, names[i], opts[i], &err);
    if (!p.ptr) {
      fail("%s", err.msg);
      goto out;
    }
    mlirPassManagerAddOwnedPass(pm, p);
  }
  if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, mop)) || rp->failed_diag)
    goto out;
  rc = 0;
out:
  if (!mlirPassManagerIsNull(pm))
    mlirPassManagerDestroy(pm);
  if (run)
    wpRunDestroy(run);
  mlirModuleDestroy(m);
  return rc;
}

/* The depfile: the new NEFF made from the NEFF read, the model
 * directory's metadata.json and the weights read. Written once the NEFF
 * is whole; a failure here is the run's (exit 1), the NEFF stays. */
static int write_depfile(replace *rp, const char *depfile) {
  char *meta = wp_format("%s/metadata.json", rp->model_dir);
  wp_depfile_paths *all = wp_depfile_paths_create();
  wp_depfile_paths_add(all, rp->in);
  wp_depfile_paths_add(all, meta);
  for (size_t i = 0; i < wp_depfile_paths_count(rp->reads); i++)
    wp_depfile_paths_add(all, wp_depfile_paths_get(rp->reads, i));
  free(meta);
  wp_error err;
  int rc = wp_depfile_write(depfile, &rp->out, 1, all, &err);
  wp_depfile_paths_destroy(all);
  return rc ? fail("%s", err.msg) : 0;
}

int neff_replace_weights(const char *in, const char *model_dir, const char *out,
                         const char *compressor, const char *depfile) {
  replace rp = {.in = in, .model_dir = model_dir, .out = out, .compressor = compressor,
                .arena = wp_arena_create(), .reads = wp_depfile_paths_create()};
  wp_strmap_init(&rp.weights);
  wp_strmap_init(&rp.members);
  const char *tmpdir = getenv("TMPDIR");
  snprintf(rp.tmp, sizeof rp.tmp, "%s/neff-replace-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  neff_catch_signals(remove_workdir);
  if (!mkdtemp(rp.tmp)) {
    fail("cannot make a working directory %s: %s", rp.tmp, strerror(errno));
    rp.tmp[0] = 0;
  }
  memcpy(g_workdir, rp.tmp, sizeof g_workdir);
  MlirContext ctx = mlirContextCreate();
  wp_error err;
  int rc = 1;
  if (!rp.tmp[0])
    goto out;
  if (wpLoadDialects(ctx, &err)) {
    fail("%s", err.msg);
    goto out;
  }
  mlirContextAttachDiagnosticHandler(ctx, on_diagnostic, &rp, NULL);
  if (load_weights(&rp, ctx))
    goto out;
  if (output_is_an_input(&rp)) {
    rc = 2;
    goto out;
  }
  if (read_neff(&rp) || collect_tensors(&rp, ctx) || pack(&rp, ctx))
    goto out;
  if (depfile && write_depfile(&rp, depfile))
    goto out;
  rc = 0;
out:
  for (size_t i = 0; i < rp.n_maps; i++)
    wp_file_unmap(&rp.maps[i].map);
  wp_strmap_free(&rp.members);
  for (size_t i = 0; i < rp.n_data; i++)
    wp_hlo_weight_data_free(rp.data[i]);
  free(rp.maps);
  free(rp.data);
  free(rp.tensors);
  free(rp.used);
  json_decref(rp.bir_root);
  if (rp.md.dir)
    wp_model_dir_free(&rp.md);
  wp_strmap_free(&rp.weights);
  wp_depfile_paths_destroy(rp.reads);
  mlirContextDestroy(ctx);
  wp_arena_destroy(rp.arena);
  remove_workdir(); /* the signal handler's removal: one way to do it */
  g_workdir[0] = 0;
  return rc;
}

static int replace_usage(const char *fmt, const char *a) {
  fputs("error: replace-weights: ", stderr);
  fprintf(stderr, fmt, a);
  fputs("\nusage: neff replace-weights IN.neff MODEL_DIR -o OUT.neff [--compressor=isal|zlib]\n"
        "       [--depfile=FILE]\n",
        stderr);
  return 2;
}

int neff_replace_main(int argc, char **argv) {
  const char *pos[2] = {NULL, NULL}, *out = NULL, *compressor = NULL, *depfile = NULL;
  int n_pos = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
      if (i + 1 >= argc)
        return replace_usage("%s needs a file name", a);
      if (out)
        return replace_usage("%s given twice", a);
      out = argv[++i];
    } else if (!strncmp(a, "--output=", 9) || !strncmp(a, "-o", 2)) {
      if (out)
        return replace_usage("%s: the output is given twice", a);
      out = a[1] == 'o' ? a + 2 : a + 9;
    } else if (!strncmp(a, "--depfile=", 10)) {
      if (depfile)
        return replace_usage("%s: --depfile given twice", a);
      depfile = a + 10;
      if (!depfile[0])
        return replace_usage("%s", "--depfile needs a file name");
    } else if (!strncmp(a, "--compressor=", 13)) {
      if (compressor)
        return replace_usage("%s: --compressor given twice", a);
      compressor = a + 13;
      if (strcmp(compressor, "isal") && strcmp(compressor, "zlib"))
        return replace_usage("--compressor=%s: use isal or zlib", compressor);
    } else if (a[0] == '-' && a[1]) {
      return replace_usage("unknown option '%s'", a);
    } else if (n_pos < 2) {
      pos[n_pos++] = a;
    } else {
      return replace_usage("unexpected argument '%s'", a);
    }
  }
  if (n_pos < 2)
    return replace_usage("%s", n_pos ? "no MODEL_DIR given" : "no IN.neff given");
  if (!out || !out[0])
    return replace_usage("%s", "no output given (-o OUT.neff)");
  if (!strcmp(out, pos[0]))
    return replace_usage("the output '%s' is the input: write a new file", out);
  if (depfile && (!strcmp(depfile, out) || !strcmp(depfile, pos[0])))
    return replace_usage("--depfile=%s is the NEFF read or written: give another file", depfile);
  return neff_replace_weights(pos[0], pos[1], out, compressor ? compressor : "isal", depfile);
}
