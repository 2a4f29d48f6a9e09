/* neff: inspect and check NEFF packages.
 *
 *   neff info F          header fields, members, IR signature, de-dup counters
 *   neff ls F            member names and sizes
 *   neff cat F MEMBER    a member's bytes on stdout
 *   neff unpack F DIR    members into DIR (names that would leave it refused)
 *   neff verify F        header MD5, every BOM entry, the IR signature
 *
 * Options (before F): --max-size=BYTES bounds the uncompressed payload.
 * Exit status: 0 fine, 1 a bad or corrupt package, 2 bad usage. */
#include "weightpack/weightpack.h"
#include "wp_format.h"
#include "wp_md5.h"
#include "wp_npy.h"
#include "wp_neff.h"
#include "wp_neff_read.h"
#include "neff_replace.h"
#include "neff_unpack.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_JSON (64u << 20)

static void usage_to(FILE *f) {
  fprintf(f, "usage: neff [--max-size[=]BYTES] [--] info|ls|verify FILE\n"
             "       neff [--max-size[=]BYTES] [--] cat FILE MEMBER\n"
             "       neff [--max-size[=]BYTES] [--] unpack FILE DIR\n"
             "       neff -h | --help | --version\n");
}

/* Bad usage: one error line naming the problem, then the usage; exit 2. */
static int usage_error(const char *fmt, const char *a, const char *b) {
  fputs("error: ", stderr);
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  usage_to(stderr);
  return 2;
}

static int help(void) {
  usage_to(stdout);
  printf("\n"
         "  info     header fields, members, IR signature, de-dup counters\n"
         "  ls       member names and sizes\n"
         "  cat      a member's bytes on standard output\n"
         "  unpack   every member into DIR, all or nothing\n"
         "  verify   the header, the payload, every BOM entry, the IR signature\n"
         "\n"
         "  --max-size=BYTES  bound on the uncompressed payload (cat and unpack:\n"
         "                    default max(4 GiB, 64 x the compressed size));\n"
         "                    also --max-size BYTES\n"
         "  --                ends the options (the command follows)\n"
         "\n"
         "Exit status: 0 fine, 1 a bad or corrupt package, 2 bad usage.\n");
  return 0;
}

/* ---- collecting members ---- */

typedef struct member {
  char *name;
  uint64_t size, seen;
  char md5[WP_MD5_HEX];
  char *text; /* neff.json and bom.json, the members we read */
  bool listed; /* in bom.json */
  /* A constant member is named by its de-dup key, "MD5.dtype.memtype.npy"
   * (or .bin): the MD5 of its bytes, past the .npy header of an .npy
   * member. KEY: that name's last component (verify only), else NULL;
   * KEY_MD5: what the bytes give ("" for an .npy member whose header does
   * not parse). */
  const char *key;
  char key_md5[WP_MD5_HEX];
} member;

/* The first bytes of a keyed .npy member, held until its header parses:
 * as many as the longest header wp_npy_parse takes. */
#define KEY_HEAD_MAX (WP_NPY_MAX_HEADER + 12)

typedef struct collect {
  member *m;
  size_t n, cap;
  wp_md5 *h;
  bool keep_json;
  bool check_keys;      /* verify: check the MD5 constant member names give */
  wp_md5 *key_h;        /* the current .npy member's bytes past SKIP */
  uint64_t skip;        /* its header's length; UINT64_MAX while unparsed */
  bool key_bad;         /* its header does not parse */
  unsigned char *head;  /* its first bytes, KEY_HEAD_MAX at most */
  size_t head_n;
  member **by_name; /* sorted, for lookups: a package may hold 100,000 */
  const char *twice; /* a member name held twice (which copy would a reader take?) */
} collect;

static bool has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* NAME's last component when it starts with 32 lowercase hex digits and a
 * dot and ends in .npy or .bin, else NULL. */
static const char *key_name(const char *name) {
  const char *base = strrchr(name, '/');
  base = base ? base + 1 : name;
  if (strlen(base) < 37 || base[32] != '.' ||
      !(has_suffix(base, ".npy") || has_suffix(base, ".bin")))
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
static void feed_key(collect *c, member *cur, const unsigned char *p, size_t len, uint64_t at) {
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
static int start_key(collect *c, member *cur) {
  if (!has_suffix(cur->key, ".npy"))
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

static int collect_fn(const char *name, uint64_t size, const void *data, size_t len, void *user) {
  collect *c = user;
  member *cur = c->n ? &c->m[c->n - 1] : NULL;
  if (!cur || strcmp(cur->name, name) != 0 || cur->md5[0]) {
    if (c->n == c->cap) {
      c->cap = c->cap ? 2 * c->cap : 32;
      member *g = realloc(c->m, c->cap * sizeof *g);
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
    if (c->keep_json &&
        (!strcmp(name, "neff.json") || !strcmp(name, "bom.json") ||
         (!strncmp(name, "kelf-", 5) && has_suffix(name, ".json") && !strchr(name, '/'))) &&
        size <= MAX_JSON)
      cur->text = calloc(1, (size_t)size + 1);
    cur->key = c->check_keys && cur->name ? key_name(cur->name) : NULL;
    if (cur->key && start_key(c, cur))
      return 1;
  }
  bool npy_key = cur->key && has_suffix(cur->key, ".npy");
  if (!data) {
    wp_md5_final_hex(c->h, cur->md5);
    if (cur->key && !npy_key)
      memcpy(cur->key_md5, cur->md5, WP_MD5_HEX);
    else if (npy_key && !c->key_bad && c->skip != UINT64_MAX)
      wp_md5_final_hex(c->key_h, cur->key_md5);
    return 0;
  }
  wp_md5_update(c->h, data, len);
  if (npy_key)
    feed_key(c, cur, data, len, cur->seen);
  if (cur->text)
    memcpy(cur->text + cur->seen, data, len);
  cur->seen += len;
  return 0;
}

static void free_members(collect *c) {
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
  return strcmp((*(member *const *)a)->name, (*(member *const *)b)->name);
}

static int cmp_key_member(const void *key, const void *m) {
  return strcmp(key, (*(member *const *)m)->name);
}

/* Sorts the members by name and notes the first name held twice. -1 when
 * out of memory. */
static int index_members(collect *c) {
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

static member *find(collect *c, const char *name) {
  member **m = bsearch(name, c->by_name, c->n, sizeof *c->by_name, cmp_key_member);
  return m ? *m : NULL;
}

static int read_all(wp_neff_reader *r, collect *c, const char *path) {
  wp_error err;
  c->h = wp_md5_create(&err);
  if (!c->h) {
    fprintf(stderr, "error: %s: %s\n", path, err.msg);
    return 1;
  }
  int rc = wp_neff_each_member(r, collect_fn, c, &err);
  wp_md5_destroy(c->h);
  if (rc == 0 && index_members(c))
    rc = 1;
  if (rc) {
    fprintf(stderr, "error: %s\n", rc < 0 ? err.msg : "out of memory");
    free_members(c);
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
static const char *path_clash(collect *c, const char **inside, bool *oom) {
  for (size_t i = 0; i < c->n; i++) {
    const char *name = c->m[i].name;
    char *folder = strdup(name); /* cut at each '/' in turn: a copy, as NAME is in the index */
    if (!folder) {
      *oom = true;
      return NULL;
    }
    member *m = NULL;
    bool dot = false;
    for (char *p = folder; !m && !dot;) {
      char *slash = strchr(p, '/');
      dot = (slash ? (size_t)(slash - p) : strlen(p)) == 1 && p[0] == '.';
      if (!slash)
        break;
      *slash = 0;
      m = find(c, folder);
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

/* ---- commands ---- */

/* A member name as text a terminal shows as it is: control bytes and DEL
 * (a crafted package's escape sequences) as \xNN, as errors show them. */
static void print_name(const char *name) {
  char *shown = wp_escape_controls(name);
  fputs(shown ? shown : "?", stdout);
  free(shown);
}

/* The header's text fields are NUL-padded, but a crafted one may hold
 * anything before the NUL. */
static void print_field(const char *label, const char *value) {
  printf("%s", label);
  print_name(value);
  putchar('\n');
}

static void hex(const unsigned char *p, size_t n, char *out) {
  for (size_t i = 0; i < n; i++)
    sprintf(out + 2 * i, "%02x", p[i]);
}

/* The header is printed only once the payload has been read and checked:
 * a damaged package gives the error line and nothing on standard output,
 * as with ls. */
static int cmd_info(wp_neff_reader *r, const char *path) {
  const wp_neff_header *h = wp_neff_get_header(r);
  char hash[33], uuid[33];
  hex(h->hash, 16, hash);
  hex(h->uuid, 16, uuid);
  collect c = {0};
  c.keep_json = true;
  if (read_all(r, &c, path))
    return 1;
  printf("file:               %s\n", path);
  printf("pkg_version:        %llu\n", (unsigned long long)h->pkg_version);
  printf("header_size:        %llu\n", (unsigned long long)h->header_size);
  printf("data_size:          %llu\n", (unsigned long long)h->data_size);
  printf("neff_version:       %llu.%llu\n", (unsigned long long)h->version_major,
         (unsigned long long)h->version_minor);
  print_field("neff_build_version: ", h->build_version);
  print_field("name:               ", h->name);
  printf("hash (payload MD5): %s\n", hash);
  printf("uuid:               %s\n", uuid);
  printf("num_tpb:            %u\n", h->num_tpb);
  printf("lnc_size:           %u\n", h->lnc_size);
  uint64_t total = 0;
  for (size_t i = 0; i < c.n; i++)
    total += c.m[i].size;
  printf("members:            %zu (%llu bytes uncompressed)\n", c.n, (unsigned long long)total);
  for (size_t i = 0; i < c.n; i++) {
    printf("  %12llu  ", (unsigned long long)c.m[i].size);
    print_name(c.m[i].name);
    putchar('\n');
  }
  member *nj = find(&c, "neff.json");
  json_t *j = nj && nj->text ? json_loads(nj->text, 0, NULL) : NULL;
  if (j) {
    const char *sig = json_string_value(json_object_get(j, "ir_signature"));
    print_field("ir_signature:       ", sig ? sig : "(none)");
    json_t *d = json_object_get(j, "dedup");
    printf("dedup:              %lld unique files, %lld bytes saved\n",
           (long long)json_integer_value(json_object_get(d, "unique_files")),
           (long long)json_integer_value(json_object_get(d, "bytes_saved")));
    json_decref(j);
  }
  free_members(&c);
  return 0;
}

static int cmd_ls(wp_neff_reader *r, const char *path) {
  collect c = {0};
  if (read_all(r, &c, path))
    return 1;
  for (size_t i = 0; i < c.n; i++) {
    printf("%12llu  ", (unsigned long long)c.m[i].size);
    print_name(c.m[i].name);
    putchar('\n');
  }
  free_members(&c);
  return 0;
}

typedef struct cat_state {
  const char *want;
  bool found, done; /* done: the first copy ended; a second is not written */
  wp_neff_bom *bom;
} cat_state;

static int cat_fn(const char *name, uint64_t size, const void *data, size_t len, void *user) {
  cat_state *s = user;
  wp_neff_bom_feed(name, size, data, len, s->bom);
  if (s->done || strcmp(name, s->want) != 0)
    return 0;
  s->found = true;
  if (!data)
    s->done = true;
  else if (fwrite(data, 1, len, stdout) != len)
    return 1;
  return 0;
}

/* The member's bytes go out as they stream: what is found wrong later (the
 * payload's CRC or MD5, the member's MD5 in bom.json, which comes last)
 * can only make the exit status 1, with the error line. */
static int cmd_cat(wp_neff_reader *r, const char *path, const char *member_name) {
  wp_error err;
  cat_state s = {member_name, false, false, wp_neff_bom_new(member_name, &err)};
  if (!s.bom) {
    fprintf(stderr, "error: %s: %s\n", path, err.msg);
    return 1;
  }
  int rc = wp_neff_each_member(r, cat_fn, &s, &err), failed = 1;
  if (rc > 0)
    fprintf(stderr, "error: %s: member '%s': writing to standard output: %s\n", path,
            member_name, strerror(errno));
  else if (rc < 0)
    fprintf(stderr, "error: %s\n", err.msg);
  else if (!s.found)
    fprintf(stderr, "error: %s: no member '%s'\n", path, member_name);
  else if (wp_neff_bom_check(s.bom, path, &err))
    fprintf(stderr, "error: %s\n", err.msg);
  else
    failed = 0;
  wp_neff_bom_free(s.bom);
  return failed;
}

/* One error line; member names in it come from the package, so control
 * bytes are escaped as in ls. */
static int verify_fail(const char *path, const char *fmt, const char *a, const char *b) {
  wp_error e;
  char what[1024];
  snprintf(what, sizeof what, fmt, a, b);
  wp_error_set(&e, "%s: %s", path, what);
  fprintf(stderr, "error: %s\n", e.msg);
  return 1;
}

/* What neff.json says of the package against what it holds: its member
 * list (every member once), and each graph, whose definition must be a
 * member. A failure's message, or NULL; NAME gets the member named. */
static const char *package_mismatch(collect *c, json_t *neff, const char **name) {
  json_t *list = json_object_get(neff, "members");
  if (list) {
    if (!json_is_array(list) || json_array_size(list) != c->n)
      return "neff.json's member list is not the package's members";
    for (size_t i = 0; i < c->n; i++)
      c->m[i].listed = false;
    for (size_t i = 0; i < json_array_size(list); i++) {
      *name = json_string_value(json_array_get(list, i));
      member *m = *name ? find(c, *name) : NULL;
      if (!m || m->listed)
        return "neff.json's member list names '%s', which is not one member of the package";
      m->listed = true;
    }
  }
  json_t *graphs = json_object_get(neff, "graphs");
  for (size_t i = 0; i < json_array_size(graphs); i++) {
    *name = json_string_value(json_array_get(graphs, i));
    member *g = *name ? find(c, *name) : NULL;
    if (!g || !g->text)
      return "neff.json's graph '%s' is not a member of the package";
    json_t *kelf = json_loads(g->text, 0, NULL);
    const char *def = json_string_value(json_object_get(kelf, "definition"));
    bool ok = def && find(c, def);
    json_decref(kelf);
    if (!ok)
      return "graph '%s' is not JSON naming its definition, a member of the package";
  }
  return NULL;
}

/* Reading the members checks the payload as it streams (gzip, CRCs, the
 * tar's padding, the header's MD5); then the BOM, the IR signature and,
 * last, the header's other fields (a package rebuilt by hand with only
 * its MD5 redone is named by what it changed). */
static int cmd_verify(wp_neff_reader *r, const char *path) {
  const wp_neff_header *h = wp_neff_get_header(r);
  char got[33];
  wp_error err;
  hex(h->hash, 16, got);
  collect c = {0};
  c.keep_json = true;
  c.check_keys = true;
  if (read_all(r, &c, path))
    return 1;
  int rc = 1;
  json_t *bom = NULL, *neff = NULL;
  if (c.twice) {
    verify_fail(path, "member '%s' appears twice%s", c.twice, "");
    goto out;
  }
  bool oom = false;
  const char *inside, *clash = path_clash(&c, &inside, &oom);
  if (oom) {
    verify_fail(path, "%s%s", "out of memory", "");
    goto out;
  }
  if (clash) {
    if (inside)
      verify_fail(path, "member '%s' is also the folder of member '%s'", clash, inside);
    else
      verify_fail(path, "member '%s' has a '.' component in its name%s", clash, "");
    goto out;
  }
  member *bm = find(&c, "bom.json"), *nm = find(&c, "neff.json");
  if (!bm || !bm->text || !(bom = json_loads(bm->text, 0, NULL))) {
    verify_fail(path, "%s%s", "bom.json is missing or not JSON", "");
    goto out;
  }
  if (!nm || !nm->text || !(neff = json_loads(nm->text, 0, NULL))) {
    verify_fail(path, "%s%s", "neff.json is missing or not JSON", "");
    goto out;
  }
  json_t *entries = json_object_get(bom, "members");
  for (size_t i = 0; i < json_array_size(entries); i++) {
    json_t *e = json_array_get(entries, i);
    const char *name = json_string_value(json_object_get(e, "name"));
    const char *md5 = json_string_value(json_object_get(e, "md5"));
    json_t *size = json_object_get(e, "size");
    member *m = name ? find(&c, name) : NULL;
    if (!name || !md5 || !json_is_integer(size)) {
      verify_fail(path, "%s%s", "bom.json has a malformed entry", "");
      goto out;
    }
    if (!m) {
      verify_fail(path, "bom.json lists '%s', which the package does not hold%s", name, "");
      goto out;
    }
    if ((uint64_t)json_integer_value(size) != m->size) {
      verify_fail(path, "member '%s' is not the size bom.json gives%s", name, "");
      goto out;
    }
    if (strcmp(md5, m->md5) != 0) {
      verify_fail(path, "member '%s' does not match its MD5 in bom.json (%s)", name, md5);
      goto out;
    }
    if (m->listed) {
      verify_fail(path, "bom.json lists '%s' twice%s", name, "");
      goto out;
    }
    m->listed = true;
  }
  for (size_t i = 0; i < c.n; i++)
    if (!c.m[i].listed && strcmp(c.m[i].name, "bom.json")) {
      verify_fail(path, "member '%s' is not in bom.json%s", c.m[i].name, "");
      goto out;
    }
  for (size_t i = 0; i < c.n; i++) {
    member *m = &c.m[i];
    if (m->key && !m->key_md5[0]) {
      verify_fail(path, "member '%s' is not an .npy file (its name ends in .npy)%s", m->name, "");
      goto out;
    }
    if (m->key && strncmp(m->key, m->key_md5, 32) != 0) {
      verify_fail(path, "member '%s': its bytes' MD5 is %s, not the one its name gives", m->name,
                  m->key_md5);
      goto out;
    }
  }
  /* The IR signature, recomputed from the members themselves, in name
   * order (the writer sorts; a reader must not trust it). */
  wp_neff_member *sorted = calloc(c.n + 1, sizeof *sorted);
  if (!sorted) {
    verify_fail(path, "%s%s", "out of memory", "");
    goto out;
  }
  for (size_t i = 0; i < c.n; i++) {
    sorted[i].name = c.by_name[i]->name;
    memcpy(sorted[i].md5, c.by_name[i]->md5, WP_MD5_HEX);
  }
  char sig[WP_MD5_HEX];
  wp_neff_signature(sorted, c.n, sig);
  free(sorted);
  const char *stored = json_string_value(json_object_get(neff, "ir_signature"));
  if (!stored || strcmp(stored, sig) != 0) {
    verify_fail(path, "the IR signature in neff.json (%s) does not match the members (%s)",
                stored ? stored : "none", sig);
    goto out;
  }
  const char *named = "";
  const char *mismatch = package_mismatch(&c, neff, &named);
  if (mismatch) {
    verify_fail(path, mismatch, named ? named : "?", "");
    goto out;
  }
  const char *unreproducible = wp_neff_unreproducible(r);
  if (unreproducible) {
    verify_fail(path, "%s%s", unreproducible, "");
    goto out;
  }
  if (wp_neff_header_check(r, &err)) {
    fprintf(stderr, "error: %s\n", err.msg);
    goto out;
  }
  printf("%s: OK (%zu members, payload MD5 %s, IR signature %s)\n", path, c.n, got, sig);
  rc = 0;
out:
  json_decref(bom);
  json_decref(neff);
  free_members(&c);
  return rc;
}

/* What a command takes after FILE: the member's or directory's name. */
static const char *command_operand(const char *cmd) {
  if (!strcmp(cmd, "cat"))
    return "MEMBER";
  if (!strcmp(cmd, "unpack"))
    return "DIR";
  return NULL;
}

static bool known_command(const char *cmd) {
  return !strcmp(cmd, "info") || !strcmp(cmd, "ls") || !strcmp(cmd, "verify") ||
         command_operand(cmd);
}

/* The command and its operands from argv[i]: 0, or 2 after the usage. */
static int check_command(int argc, char **argv, int i) {
  if (i == argc)
    return usage_error("no command given (info, ls, cat, unpack or verify)%s%s", "", "");
  const char *cmd = argv[i], *operand = command_operand(cmd);
  if (!known_command(cmd))
    return usage_error("unknown command '%s'%s (info, ls, cat, unpack or verify)", cmd, "");
  if (argc - i < 2)
    return usage_error("%s: no FILE given%s", cmd, "");
  if (operand && argc - i < 3)
    return usage_error("%s: no %s given", cmd, operand);
  int need = operand ? 3 : 2;
  /* an option after the command was taken for FILE: name it instead */
  for (int k = i + 1; k < argc; k++)
    if ((!strncmp(argv[k], "--max-size", 10) || !strcmp(argv[k], "--help") ||
         !strcmp(argv[k], "-h")) && access(argv[k], F_OK) != 0)
      return usage_error("%s: options go before the command ('%s' after it is read as a "
                         "file name)", cmd, argv[k]);
  if (argc - i > need)
    return usage_error("%s: unexpected argument '%s'", cmd, argv[i + need]);
  if (!strcmp(cmd, "unpack") && !argv[i + 2][0])
    return usage_error("unpack: the directory name is empty%s%s", "", "");
  return 0;
}

/* Output lost (a full disk) is a failure, not a success: RC, or 1 after an
 * error line. */
static int flush_stdout(int rc) {
  errno = 0;
  if (fflush(stdout) || ferror(stdout)) {
    if (rc == 0)
      fprintf(stderr, "error: writing to standard output: %s\n",
              errno ? strerror(errno) : "write error");
    rc = 1;
  }
  return rc;
}

int main(int argc, char **argv) {
  /* past a file size limit a write fails with EFBIG, reported and taken
   * back like any other write error, instead of killing the process */
  signal(SIGXFSZ, SIG_IGN);
  uint64_t max_size = 0;
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "--")) { /* what follows is the command and its operands */
      i++;
      break;
    }
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
      return flush_stdout(help());
    if (!strcmp(argv[i], "--version")) {
      printf("weightpack neff %s\n", wpVersion());
      return flush_stdout(0);
    }
    /* --max-size=BYTES, or as in LLVM's tools --max-size BYTES */
    bool separate = !strcmp(argv[i], "--max-size");
    if (separate && i + 1 >= argc)
      return usage_error("--max-size needs a byte count%s", "", "");
    if (separate || !strncmp(argv[i], "--max-size=", 11)) {
      if (max_size) /* which bound was meant is a guess */
        return usage_error("--max-size given twice%s", "", "");
      const char *v = separate ? argv[++i] : argv[i] + 11;
      char *end;
      errno = 0;
      max_size = strtoull(v, &end, 10);
      /* strtoull takes "-5" as 2^64-5: only plain digits count */
      if (*v < '0' || *v > '9' || *end || errno == ERANGE || !max_size ||
          max_size > (uint64_t)INT64_MAX) {
        char top[32];
        snprintf(top, sizeof top, "%lld", (long long)INT64_MAX);
        return usage_error("--max-size '%s': give a byte count from 1 to %s", v, top);
      }
    } else {
      return usage_error("unknown option '%s'%s", argv[i], "");
    }
  }
  if (i < argc && !strcmp(argv[i], "replace-weights"))
    return flush_stdout(neff_replace_main(argc - i, argv + i));
  int bad = check_command(argc, argv, i);
  if (bad)
    return bad;
  const char *cmd = argv[i], *path = argv[i + 1];
  /* Only what writes the members out needs a bound by default: deflate
   * expands at most about 1032 times, so reading and hashing a payload
   * (info, ls, verify) costs time in proportion to the file anyway, and a
   * NEFF of zero-filled weights legitimately expands far past 64 times. */
  bool writes = command_operand(cmd) != NULL;
  if (!max_size && !writes)
    max_size = UINT64_MAX;
  wp_error err;
  wp_neff_reader *r = wp_neff_open(path, max_size, &err);
  if (!r) {
    fprintf(stderr, "error: %s\n", err.msg);
    return 1;
  }
  int rc;
  if (!strcmp(cmd, "info"))
    rc = cmd_info(r, path);
  else if (!strcmp(cmd, "ls"))
    rc = cmd_ls(r, path);
  else if (!strcmp(cmd, "cat"))
    rc = cmd_cat(r, path, argv[i + 2]);
  else if (!strcmp(cmd, "unpack"))
    rc = neff_unpack(r, argv[i + 2]);
  else
    rc = cmd_verify(r, path);
  wp_neff_close(r);
  return flush_stdout(rc);
}
