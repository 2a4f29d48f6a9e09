#include "wp_model_dir.h"

#include "wp_file.h"
#include "wp_metadata.h"

#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Lexical check: relative, and no ".." climbing above the start. */
static int lexically_inside(const char *rel) {
  if (rel[0] == '/' || rel[0] == 0)
    return 0;
  int depth = 0;
  const char *p = rel;
  while (*p) {
    const char *e = strchr(p, '/');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n == 2 && p[0] == '.' && p[1] == '.') {
      if (--depth < 0)
        return 0;
    } else if (n > 0 && !(n == 1 && p[0] == '.')) {
      depth++;
    }
    p += n;
    if (*p == '/')
      p++;
  }
  return 1;
}

/* REAL_PATH (what PATH resolved to) must lie inside REAL_DIR. */
static int check_inside(const char *dir, const char *rel, const char *real_dir,
                        const char *real_path, wp_error *err) {
  size_t n = strlen(real_dir);
  int inside = n == 1 || (strncmp(real_path, real_dir, n) == 0 &&
                         (real_path[n] == '/' || real_path[n] == 0));
  if (!inside)
    return wp_error_set(err, "%s: path '%s' leads outside the model directory (to %s)", dir,
                        rel, real_path);
  return 0;
}

/* Remembers DIR's real path in CACHE. */
static int cache_dir(wp_resolve_cache *cache, const char *dir, wp_error *err) {
  if (strlen(dir) >= sizeof cache->dir)
    return wp_error_set(err, "%s: path too long", dir);
  if (strcmp(cache->dir, dir) != 0 || !cache->real_dir[0]) {
    cache->real_dir[0] = cache->parent[0] = 0;
    if (!realpath(dir, cache->real_dir)) {
      cache->real_dir[0] = 0;
      return wp_error_errno(err, errno, "%s", dir);
    }
    strcpy(cache->dir, dir);
  }
  return 0;
}

/* For PATH (DIR/REL) naming a plain file, not a link: its real path is its
 * directory's, usually the one resolved just before, and its name. 0 and
 * REAL_PATH set; 1 when PATH is no plain name (nothing set); -1 with ERR. */
static int plain_real_path(wp_resolve_cache *cache, const char *dir, const char *rel,
                           const char *path, char real_path[PATH_MAX], wp_error *err) {
  const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
  size_t parent_len = slash ? (size_t)(slash - path) : 0;
  if (!slash || !*base || !strcmp(base, ".") || !strcmp(base, "..") ||
      parent_len >= sizeof cache->parent)
    return 1;
  if (strncmp(cache->parent, path, parent_len) != 0 || cache->parent[parent_len] != 0) {
    memcpy(cache->parent, path, parent_len);
    cache->parent[parent_len] = 0;
    if (!realpath(cache->parent, cache->real_parent)) {
      int e = errno;
      cache->parent[0] = 0;
      return wp_error_errno(err, e, "%s: %s", dir, rel);
    }
  }
  /* REAL_PARENT/BASE ("/" + BASE at the root) */
  size_t np = strcmp(cache->real_parent, "/") ? strlen(cache->real_parent) : 0,
         nb = strlen(base);
  if (np + 1 + nb >= PATH_MAX)
    return wp_error_set(err, "%s: %s: path too long", dir, rel);
  memcpy(real_path, cache->real_parent, np);
  real_path[np] = '/';
  memcpy(real_path + np + 1, base, nb + 1);
  return 0;
}

static bool plain_rel(const char *rel) {
  return memchr(rel, 0, strlen(rel) + 1) == rel + strlen(rel) && lexically_inside(rel);
}

int wp_model_dir_resolve_unchecked(wp_resolve_cache *cache, const char *dir, const char *rel,
                                   char **out) {
  *out = NULL;
  wp_error ignored;
  char real_path[PATH_MAX];
  if (!plain_rel(rel) || cache_dir(cache, dir, &ignored))
    return -1;
  char *path = wp_path_join(dir, rel);
  if (!path || plain_real_path(cache, dir, rel, path, real_path, &ignored) != 0 ||
      check_inside(dir, rel, cache->real_dir, real_path, &ignored)) {
    free(path);
    return -1;
  }
  *out = path;
  return 0;
}

int wp_model_dir_resolve_cached(wp_resolve_cache *cache, const char *dir, const char *rel,
                                int missing_ok, char **out, wp_error *err) {
  *out = NULL;
  if (!rel[0])
    return wp_error_set(err, "%s: the path is empty", dir);
  if (rel[0] == '/') /* even one that leads into the directory */
    return wp_error_set(err, "%s: path '%s' is absolute; paths in metadata.json are relative "
                        "to the model directory", dir, rel);
  if (!plain_rel(rel))
    return wp_error_set(err, "%s: path '%s' leaves the model directory", dir, rel);
  if (cache_dir(cache, dir, err))
    return -1;
  char *path = wp_path_join(dir, rel);
  char real_path[PATH_MAX];
  struct stat st;
  int plain = -1;
  if (lstat(path, &st) == 0 && !S_ISLNK(st.st_mode)) {
    /* Not a link itself: only its directory needs resolving. */
    plain = plain_real_path(cache, dir, rel, path, real_path, err);
    if (plain < 0) {
      free(path);
      return -1;
    }
  }
  if (plain != 0 && !realpath(path, real_path)) {
    int e = errno;
    if (e == ENOENT && missing_ok) {
      *out = path;
      return 0;
    }
    wp_error_errno(err, e, "%s: %s", dir, rel);
    free(path);
    return -1;
  }
  if (check_inside(dir, rel, cache->real_dir, real_path, err)) {
    free(path);
    return -1;
  }
  *out = path;
  return 0;
}

int wp_model_dir_resolve(const char *dir, const char *rel, int missing_ok, char **out,
                         wp_error *err) {
  wp_resolve_cache *cache = wp_xcalloc(1, sizeof *cache);
  int rc = wp_model_dir_resolve_cached(cache, dir, rel, missing_ok, out, err);
  free(cache);
  return rc;
}

void wp_model_dir_drop_weights(wp_model_dir *md) {
  free(md->weights);
  free(md->strings);
  md->weights = NULL;
  md->strings = NULL;
  md->n_weights = 0;
}

void wp_model_dir_free(wp_model_dir *md) {
  free(md->dir);
  free(md->model_path);
  free(md->weights);
  free(md->strings);
  memset(md, 0, sizeof *md);
}

static int is_decimal(const char *s) {
  if (!*s)
    return 0;
  for (; *s; s++)
    if (*s < '0' || *s > '9')
      return 0;
  return 1;
}

/* Room for N weights whose strings take BYTES; *AT is where the first
 * string goes. Bookkeeping (wp_x*): metadata.json was read whole already. */
static void reserve_weights(wp_model_dir *md, size_t n, size_t bytes, char **at) {
  md->weights = wp_xcalloc(n ? n : 1, sizeof *md->weights);
  md->strings = *at = wp_xmalloc(bytes ? bytes : 1);
}

static char *copy_string(char **at, const char *s) {
  size_t n = strlen(s) + 1;
  char *copy = memcpy(*at, s, n);
  *at += n;
  return copy;
}

static void add_weight(wp_model_dir *md, char **at, const char *name, int64_t number,
                       bool number_is_key, const char *path) {
  wp_weight_ref *w = &md->weights[md->n_weights++];
  w->param_name = name ? copy_string(at, name) : NULL;
  w->param_number = number;
  w->number_is_key = number_is_key;
  w->rel_path = copy_string(at, path);
}

/* The object form checked; the bytes its strings take into *BYTES. */
static int check_weight_object(const char *json_path, const wp_md_list *wf, size_t *bytes,
                               wp_error *err) {
  for (size_t i = 0; i < wf->n; i++) {
    const char *key = wf->entries[i].key;
    if (wf->entries[i].kind != WP_MD_STRING)
      return wp_error_set(err, "%s: weight_files[\"%s\"] must be a path string", json_path,
                          key);
    if (!key[0])
      return wp_error_set(err, "%s: weight_files has an empty key; give the parameter's "
                          "name or number", json_path);
    int by_number = is_decimal(key);
    int64_t number = by_number ? strtoll(key, NULL, 10) : -1;
    if (by_number && (number < 0 || strlen(key) > 18))
      return wp_error_set(err, "%s: weight_files key '%s' is not a parameter number",
                          json_path, key);
    *bytes += (by_number ? 0 : strlen(key) + 1) + strlen(wf->entries[i].str) + 1;
  }
  return 0;
}

/* The weights are counted and checked first, then copied: one array and
 * one block of strings (a model directory can list 100,000 weights and
 * lives as long as the run). */
static int load_weights(wp_model_dir *md, const char *json_path, const wp_md_list *wf,
                        wp_error *err) {
  size_t n = 0, bytes = 0;
  char *at;
  if (wf->kind == WP_MD_OBJECT) {
    /* Sorted keys (wp_metadata's): the result must not depend on the
     * file's key order. */
    if (check_weight_object(json_path, wf, &bytes, err))
      return -1;
    reserve_weights(md, wf->n, bytes, &at);
    for (size_t i = 0; i < wf->n; i++) {
      const char *key = wf->entries[i].key;
      bool by_number = is_decimal(key);
      add_weight(md, &at, by_number ? NULL : key, by_number ? strtoll(key, NULL, 10) : -1,
                 by_number, wf->entries[i].str);
    }
    return 0;
  }
  if (wf->kind == WP_MD_ARRAY) {
    for (size_t i = 0; i < wf->n; i++) {
      if (wf->entries[i].kind == WP_MD_NULL)
        continue;
      if (wf->entries[i].kind != WP_MD_STRING)
        return wp_error_set(err, "%s: weight_files[%zu] must be a path string or null",
                            json_path, i);
      n++;
      bytes += strlen(wf->entries[i].str) + 1;
    }
    reserve_weights(md, n, bytes, &at);
    for (size_t i = 0; i < wf->n; i++)
      if (wf->entries[i].kind == WP_MD_STRING)
        add_weight(md, &at, NULL, (int64_t)i, false, wf->entries[i].str);
    return 0;
  }
  if (wf->kind == WP_MD_ABSENT)
    return wp_error_set(err, "%s: \"weight_files\" is missing (give {} for a model without "
                        "weights)", json_path);
  return wp_error_set(err, "%s: \"weight_files\" must be an object or a list", json_path);
}

/* What MODE is, for an error about a file that is not a regular one. */
static const char *not_file_kind(mode_t mode) {
  return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" : "a special file";
}

/* DIR/metadata.json (JSON_PATH) checked to be a readable regular file
 * inside DIR and parsed into *ROOT (caller decrefs); *META is its stat. */
static int read_metadata(const char *dir, const char *json_path, struct stat *meta,
                         wp_metadata *md, wp_error *err) {
  memset(md, 0, sizeof *md);
  /* The message's wording is the reference tool's; then which check failed
   * (said of a directory or a FIFO by that name, "exists and has read
   * permissions" was no help). */
  if (stat(json_path, meta) != 0 || access(json_path, R_OK) != 0)
    return wp_error_set(err, "%s: Please ensure metadata.json exists and has read "
                        "permissions. (%s: %s)", dir, json_path, strerror(errno));
  if (!S_ISREG(meta->st_mode))
    return wp_error_set(err, "%s: Please ensure metadata.json exists and has read "
                        "permissions. (%s is %s, not a regular file)", dir, json_path,
                        not_file_kind(meta->st_mode));
  char *checked = NULL;
  if (wp_model_dir_resolve(dir, "metadata.json", 0, &checked, err))
    return -1;
  free(checked);
  wp_mapped_file f;
  if (wp_file_map(json_path, &f, err))
    return -1;
  int rc = wp_metadata_read(json_path, f.data, f.size, md, err);
  wp_file_unmap(&f);
  return rc;
}

/* The first "model_files" entry of MF, joined to DIR into *PATH (malloc'd;
 * caller frees); *WHY (static) says why it is no module: NULL when it is
 * a regular file other than metadata.json (META), "" when it does not
 * exist, else what it is. Only form and place are errors. */
static int first_model_file(const char *dir, const char *json_path, const wp_md_list *mf,
                            const struct stat *meta, char **path, const char **why,
                            wp_error *err) {
  *why = NULL;
  const char *rel = NULL;
  if ((mf->kind == WP_MD_STRING || mf->kind == WP_MD_ARRAY) && mf->n > 0 &&
      mf->entries[0].kind == WP_MD_STRING)
    rel = mf->entries[0].str;
  else
    return wp_error_set(err, "%s: \"model_files\" must be a path or a non-empty list of paths",
                        json_path);
  if (wp_model_dir_resolve(dir, rel, 1, path, err))
    return -1;
  struct stat st;
  if (stat(*path, &st) != 0)
    *why = "";
  else if (!S_ISREG(st.st_mode))
    *why = not_file_kind(st.st_mode);
  else if (meta->st_dev == st.st_dev && meta->st_ino == st.st_ino)
    *why = "metadata.json";
  return 0;
}

/* Only the first "model_files" entry is read; the rest must still be paths
 * inside the directory, as the README says (a number, null or an absolute
 * path there was taken without a word). */
static int check_other_model_files(const char *dir, const char *json_path,
                                   const wp_md_list *mf, wp_error *err) {
  for (size_t i = 1; mf->kind == WP_MD_ARRAY && i < mf->n; i++) {
    char *ignored = NULL;
    if (mf->entries[i].kind != WP_MD_STRING)
      return wp_error_set(err, "%s: model_files[%zu] must be a path string", json_path, i);
    wp_error why;
    if (wp_model_dir_resolve(dir, mf->entries[i].str, 1, &ignored, &why))
      return wp_error_set(err, "%s (model_files[%zu])", why.msg, i);
    free(ignored);
  }
  return 0;
}

/* "model_files" of ROOT into OUT->model_path. NEED_MODEL: the module must
 * be there; else model_path stays NULL when the key is missing or names
 * no module, and only its form and place are checked. */
static int load_model_files(wp_model_dir *out, const char *dir, const char *json_path,
                            const wp_metadata *md, const struct stat *meta,
                            bool need_model, wp_error *err) {
  const wp_md_list *mf = &md->model_files;
  if (mf->kind == WP_MD_ABSENT)
    return need_model ? wp_error_set(err, "%s: \"model_files\" is missing", json_path) : 0;
  const char *why;
  char *path = NULL;
  int rc = first_model_file(dir, json_path, mf, meta, &path, &why, err);
  if (rc == 0 && need_model && why && strcmp(why, "metadata.json") != 0) {
    /* the message's wording is the reference tool's; then why */
    if (!why[0])
      rc = wp_error_set(err, "%s: Corrupted input dir, model file does not exist! (%s)", dir,
                        path);
    else
      rc = wp_error_set(err, "%s: Corrupted input dir, model file does not exist! (%s is %s, "
                        "not a regular file)", dir, path, why);
  }
  if (rc == 0)
    rc = check_other_model_files(dir, json_path, mf, err);
  /* read as a module, the metadata would fail as a BIR JSON of no name */
  if (rc == 0 && need_model && why && !strcmp(why, "metadata.json"))
    rc = wp_error_set(err, "%s: model_files names metadata.json itself; name the HLO module "
                      "(an HloModuleProto .pb or HLO text .hlo)", json_path);
  if (rc == 0 && !why)
    out->model_path = path;
  else
    free(path);
  return rc;
}

static int load(const char *dir, bool need_model, wp_model_dir *out, wp_error *err) {
  memset(out, 0, sizeof *out);
  char *json_path = wp_path_join(dir, "metadata.json");
  struct stat meta;
  wp_metadata md;
  int rc = read_metadata(dir, json_path, &meta, &md, err);
  if (rc == 0)
    out->dir = wp_xstrdup(dir);
  if (rc == 0)
    rc = load_model_files(out, dir, json_path, &md, &meta, need_model, err);
  if (rc == 0)
    rc = load_weights(out, json_path, &md.weight_files, err);
  if (rc)
    wp_model_dir_free(out);
  wp_metadata_free(&md);
  free(json_path);
  return rc;
}

int wp_model_dir_load(const char *dir, wp_model_dir *out, wp_error *err) {
  return load(dir, true, out, err);
}

int wp_model_dir_load_weights(const char *dir, wp_model_dir *out, wp_error *err) {
  return load(dir, false, out, err);
}
