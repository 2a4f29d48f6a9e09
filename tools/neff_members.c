#include "neff_members.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool neff_has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* NAME's last component when it starts with 32 lowercase hex digits and a
 * dot and ends in .npy or .bin, else NULL. */
static const char *key_name(const char *name) {
  const char *base = strrchr(name, '/');
  base = base ? base + 1 : name;
  if (strlen(base) < 37 || base[32] != '.' ||
      !(neff_has_suffix(base, ".npy") || neff_has_suffix(base, ".bin")))
    return NULL;
  for (int i = 0; i < 32; i++)
    if (!((base[i] >= '0' && base[i] <= '9') || (base[i] >= 'a' && base[i] <= 'f')))
      return NULL;
  return base;
}

/* Feeds the key hash an .npy member's bytes past its header. AT: how many
 * of the member's bytes came before P. The header is parsed (as
 * inline-weights parses a weight's) once its longest possible length, or
 * the whole member, has come. */
static void feed_key(neff_collect *c, neff_member *cur, const unsigned char *p, size_t len, uint64_t at) {
  if (c->key_bad)
    return;
  if (c->skip == UINT64_MAX) {
    size_t want = cur->size < KEY_HEAD_MAX ? (size_t)cur->size : KEY_HEAD_MAX;
    size_t take = len < want - c->head_n ? len : want - c->head_n;
    memcpy(c->head + c->head_n, p, take);
    c->head_n += take;
    if (c->head_n < want)
      return;
    wp_npy_info npy;
    wp_error err;
    if (wp_npy_parse(c->head, c->head_n, cur->size, &npy, &err)) {
      c->key_bad = true;
      return;
    }
    c->skip = npy.data_offset; /* within HEAD: the parse read the whole header there */
    wp_md5_update(c->key_h, c->head + c->skip, c->head_n - (size_t)c->skip);
    p += take, len -= take, at += take;
  }
  if (at + len > c->skip) {
    uint64_t from = c->skip > at ? c->skip - at : 0;
    wp_md5_update(c->key_h, p + from, len - (size_t)from);
  }
}

/* Starts the key check of a keyed member: a .bin's key MD5 is its own
 * MD5, hashed anyway; an .npy's needs a hash of its own. -1 when out of
 * memory. */
static int start_key(neff_collect *c, neff_member *cur) {
  if (!neff_has_suffix(cur->key, ".npy"))
    return 0;
  wp_error err;
  wp_md5_destroy(c->key_h); /* a fresh one: the last member's may be unfinished */
  if (!(c->key_h = wp_md5_create(&err)) || (!c->head && !(c->head = malloc(KEY_HEAD_MAX))))
    return -1;
  c->skip = UINT64_MAX;
  c->key_bad = false;
  c->head_n = 0;
  return 0;
}

int neff_collect_fn(const char *name, uint64_t size, const void *data, size_t len, void *user) {
  neff_collect *c = user;
  neff_member *cur = c->n ? &c->m[c->n - 1] : NULL;
  if (!cur || strcmp(cur->name, name) != 0 || cur->md5[0]) {
    if (c->n == c->cap) {
      c->cap = c->cap ? 2 * c->cap : 32;
      neff_member *g = realloc(c->m, c->cap * sizeof *g);
      if (!g)
        return 1;
      c->m = g;
    }
    cur = &c->m[c->n++];
    memset(cur, 0, sizeof *cur);
    cur->name = strdup(name);
    cur->size = size;
    /* only these are read (the graphs are small): a package of large JSON
     * members must not be held in memory whole */
    bool graph = c->keep_json && (!strcmp(name, "neff.json") || !strcmp(name, "bom.json") ||
                                  (!strncmp(name, "kelf-", 5) && neff_has_suffix(name, ".json") &&
                                   !strchr(name, '/')));
    bool def = c->keep_defs && (!strcmp(name, "def.json") || neff_has_suffix(name, "/def.json"));
    if ((graph && size <= NEFF_MAX_JSON) || (def && size <= NEFF_MAX_DEF)) {
      cur->text = calloc(1, (size_t)size + 1);
      if (!cur->text)
        return 1;
    } else if (graph || def) {
      cur->too_big = true;
    }
    cur->key = c->check_keys && cur->name ? key_name(cur->name) : NULL;
    if (cur->key && start_key(c, cur))
      return 1;
  }
  bool npy_key = cur->key && neff_has_suffix(cur->key, ".npy");
  if (!data) {
    if (!c->skip_md5)
      wp_md5_final_hex(c->h, cur->md5);
    if (cur->key && !npy_key)
      memcpy(cur->key_md5, cur->md5, WP_MD5_HEX);
    else if (npy_key && !c->key_bad && c->skip != UINT64_MAX)
      wp_md5_final_hex(c->key_h, cur->key_md5);
    return 0;
  }
  if (!c->skip_md5)
    wp_md5_update(c->h, data, len);
  if (npy_key)
    feed_key(c, cur, data, len, cur->seen);
  if (cur->text)
    memcpy(cur->text + cur->seen, data, len);
  cur->seen += len;
  return 0;
}

void neff_free_members(neff_collect *c) {
  wp_md5_destroy(c->key_h);
  free(c->head);
  for (size_t i = 0; i < c->n; i++) {
    free(c->m[i].name);
    free(c->m[i].text);
  }
  free(c->m);
  free(c->by_name);
}

static int cmp_member_ptr(const void *a, const void *b) {
  return strcmp((*(neff_member *const *)a)->name, (*(neff_member *const *)b)->name);
}

static int cmp_key_member(const void *key, const void *m) {
  return strcmp(key, (*(neff_member *const *)m)->name);
}

/* Sorts the members by name and notes the first name held twice. -1 when
 * out of memory. */
int neff_index_members(neff_collect *c) {
  c->by_name = malloc((c->n + 1) * sizeof *c->by_name);
  if (!c->by_name)
    return -1;
  for (size_t i = 0; i < c->n; i++)
    c->by_name[i] = &c->m[i];
  qsort(c->by_name, c->n, sizeof *c->by_name, cmp_member_ptr);
  for (size_t i = 1; i < c->n && !c->twice; i++)
    if (!strcmp(c->by_name[i]->name, c->by_name[i - 1]->name))
      c->twice = c->by_name[i]->name;
  return 0;
}

neff_member *neff_find(neff_collect *c, const char *name) {
  neff_member **m = bsearch(name, c->by_name, c->n, sizeof *c->by_name, cmp_key_member);
  return m ? *m : NULL;
}

int neff_read_all(wp_neff_reader *r, neff_collect *c, const char *path, wp_error *why) {
  wp_error err;
  c->h = wp_md5_create(&err);
  if (!c->h) {
    wp_error_prefix(&err, "%s", path);
    fprintf(stderr, "error: %s\n", err.msg);
    if (why)
      *why = err;
    return 1;
  }
  int rc = wp_neff_each_member(r, neff_collect_fn, c, &err);
  wp_md5_destroy(c->h);
  if (rc == 0 && neff_index_members(c))
    rc = 1;
  if (rc) {
    if (rc > 0)
      wp_error_set(&err, "out of memory");
    fprintf(stderr, "error: %s\n", err.msg);
    if (why)
      *why = err;
    neff_free_members(c);
    memset(c, 0, sizeof *c);
    return 1;
  }
  return 0;
}

/* Two names for one path, which no unpack can lay out: a name with a '.'
 * component ("./a" is "a"), or a member that is also the folder of
 * another ("a" and "a/b"). NULL when there is none; else the name, and
 * *INSIDE the member under it (NULL for a '.' component); *OOM when out of
 * memory. Needs the index. */
const char *neff_path_clash(neff_collect *c, const char **inside, bool *oom) {
  for (size_t i = 0; i < c->n; i++) {
    const char *name = c->m[i].name;
    char *folder = strdup(name); /* cut at each '/' in turn: a copy, as NAME is in the index */
    if (!folder) {
      *oom = true;
      return NULL;
    }
    neff_member *m = NULL;
    bool dot = false;
    for (char *p = folder; !m && !dot;) {
      char *slash = strchr(p, '/');
      dot = (slash ? (size_t)(slash - p) : strlen(p)) == 1 && p[0] == '.';
      if (!slash)
        break;
      *slash = 0;
      m = neff_find(c, folder);
      *slash = '/';
      p = slash + 1;
    }
    free(folder);
    if (dot || m) {
      *inside = m ? name : NULL;
      return m ? m->name : name;
    }
  }
  return NULL;
}
