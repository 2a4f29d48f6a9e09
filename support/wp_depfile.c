#include "wp_depfile.h"

#include "wp_file.h"
#include "wp_i64map.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Paths are packed end to end in blocks (no allocation of their own: a
 * run notes one per weight) and named by a locator, block << LOC_BITS |
 * offset; a path longer than a block gets a block to itself. */
enum { LOC_BITS = 16, BLOCK_BYTES = 1 << LOC_BITS };

struct wp_depfile_paths {
  pthread_mutex_t lock;
  char **blocks; /* owned */
  size_t n_blocks, block_used; /* bytes used in the last block */
  uint32_t *locs; /* the paths in the order noted */
  size_t n, cap;
  uint32_t *seen; /* open addressing: index into locs + 1, 0 when free */
  size_t seen_cap; /* a power of two, at least twice n */
};

wp_depfile_paths *wp_depfile_paths_create(void) {
  wp_depfile_paths *p = wp_xcalloc(1, sizeof *p);
  pthread_mutex_init(&p->lock, NULL);
  return p;
}

void wp_depfile_paths_destroy(wp_depfile_paths *p) {
  if (!p)
    return;
  for (size_t i = 0; i < p->n_blocks; i++)
    free(p->blocks[i]);
  free(p->blocks);
  free(p->locs);
  free(p->seen);
  pthread_mutex_destroy(&p->lock);
  free(p);
}

static const char *path_at(const wp_depfile_paths *p, uint32_t loc) {
  return p->blocks[loc >> LOC_BITS] + (loc & (BLOCK_BYTES - 1));
}

/* The slot of PATH (LEN bytes, hash H) in P's set: where it is, or the
 * free slot where it would go. */
static size_t seen_slot(const wp_depfile_paths *p, const char *path, size_t len, uint64_t h) {
  size_t mask = p->seen_cap - 1, i = (size_t)h & mask;
  for (; p->seen[i]; i = (i + 1) & mask) {
    const char *s = path_at(p, p->locs[p->seen[i] - 1]);
    if (strncmp(s, path, len) == 0 && s[len] == 0)
      return i;
  }
  return i;
}

static void seen_grow(wp_depfile_paths *p) {
  free(p->seen);
  p->seen_cap = p->seen_cap ? 2 * p->seen_cap : 64;
  p->seen = wp_xcalloc(p->seen_cap, sizeof *p->seen);
  for (size_t k = 0; k < p->n; k++) {
    const char *s = path_at(p, p->locs[k]);
    size_t len = strlen(s);
    p->seen[seen_slot(p, s, len, (uint64_t)wp_hash_bytes(s, len))] = (uint32_t)k + 1;
  }
}

/* A copy of PATH (LEN bytes and its NUL) in P's blocks: its locator. */
static uint32_t store(wp_depfile_paths *p, const char *path, size_t len) {
  bool fits = p->n_blocks && len < BLOCK_BYTES - p->block_used;
  if (!fits) {
    if (p->n_blocks == (size_t)1 << (32 - LOC_BITS))
      wp_out_of_memory(); /* 4 GiB of paths: no locator left */
    p->blocks = wp_xrealloc(p->blocks, (p->n_blocks + 1) * sizeof *p->blocks);
    p->blocks[p->n_blocks++] = wp_xmalloc(len < BLOCK_BYTES ? BLOCK_BYTES : len + 1);
    p->block_used = 0;
  }
  uint32_t loc = (uint32_t)((p->n_blocks - 1) << LOC_BITS | p->block_used);
  memcpy(p->blocks[p->n_blocks - 1] + p->block_used, path, len + 1);
  /* an oversized block is full */
  p->block_used = len < BLOCK_BYTES ? p->block_used + len + 1 : BLOCK_BYTES;
  return loc;
}

/* Caller holds the lock. */
static void add_locked(wp_depfile_paths *p, const char *path) {
  if (p->n >= UINT32_MAX - 1)
    wp_out_of_memory();
  size_t len = strlen(path);
  uint64_t h = (uint64_t)wp_hash_bytes(path, len);
  size_t slot = p->seen_cap ? seen_slot(p, path, len, h) : 0;
  if (p->seen_cap && p->seen[slot])
    return;
  if ((p->n + 1) * 2 > p->seen_cap) {
    seen_grow(p);
    slot = seen_slot(p, path, len, h);
  }
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 16;
    p->locs = wp_xrealloc(p->locs, p->cap * sizeof *p->locs);
  }
  p->locs[p->n] = store(p, path, len);
  p->seen[slot] = (uint32_t)++p->n;
}

/* PATH made absolute with "." components and doubled slashes dropped:
 * one file noted by two spellings ("m/./w.npy", "/abs/m/w.npy") is one
 * prerequisite. ".." stays: resolved by name it could name another file
 * than the one read (a link before it). Malloc'd. */
static char *absolute(const char *path) {
  char cwd[PATH_MAX];
  bool rel = path[0] != '/' && getcwd(cwd, sizeof cwd);
  size_t n = (rel ? strlen(cwd) + 1 : 0) + strlen(path) + 2;
  char *joined = wp_xmalloc(n), *out = joined;
  snprintf(joined, n, "%s%s%s", rel ? cwd : "", rel ? "/" : "", path);
  for (const char *s = joined; *s;) {
    const char *end = strchr(s, '/');
    size_t len = end ? (size_t)(end - s) : strlen(s);
    if (len && !(len == 1 && s[0] == '.')) {
      *out++ = '/';
      memmove(out, s, len);
      out += len;
    }
    s += len + (end != NULL);
  }
  if (out == joined)
    *out++ = '/';
  *out = 0;
  return joined;
}

/* Noting costs a copy and a hash: a 100,000-weight run notes every
 * path whether or not a depfile is asked for. Spelling and links are
 * looked at only by wp_depfile_paths_resolve. */
void wp_depfile_paths_add(wp_depfile_paths *p, const char *path) {
  if (!p || !path || !path[0])
    return;
  pthread_mutex_lock(&p->lock);
  add_locked(p, path);
  pthread_mutex_unlock(&p->lock);
}

wp_depfile_paths *wp_depfile_paths_resolve(const wp_depfile_paths *p) {
  wp_depfile_paths *r = wp_depfile_paths_create();
  for (size_t i = 0; p && i < p->n; i++) {
    char *abs = absolute(path_at(p, p->locs[i]));
    /* A link's target too: Make and Ninja follow the link when they look
     * at its time, but a tool that does not (or a user reading the list)
     * sees what the bytes came from. */
    struct stat st;
    char *target = lstat(abs, &st) == 0 && S_ISLNK(st.st_mode) ? realpath(abs, NULL) : NULL;
    add_locked(r, abs);
    if (target)
      add_locked(r, target);
    free(abs);
    free(target);
  }
  return r;
}

size_t wp_depfile_paths_count(const wp_depfile_paths *p) { return p ? p->n : 0; }

const char *wp_depfile_paths_get(const wp_depfile_paths *p, size_t i) {
  return p && i < p->n ? path_at(p, p->locs[i]) : NULL;
}

/* Can NAME be written so that Make and Ninja read it back as it is? A
 * backslash is kept as it stands by both unless it comes before a
 * character they unescape (or ends the line). */
static bool escapable(const char *name) {
  if (!name[0])
    return false;
  for (const char *s = name; *s; s++) {
    if (*s == '\n' || *s == '\r' || *s == '\t')
      return false;
    if (*s == '\\' && (!s[1] || strchr(" #:$\\", s[1])))
      return false;
  }
  return true;
}

int wp_depfile_escape(FILE *out, const char *name, wp_error *err) {
  if (!escapable(name))
    return wp_error_set(err, "'%s' cannot be written in a depfile (a newline, a tab, or a "
                        "backslash before a space, '#', ':', '$' or the end)", name);
  for (const char *s = name; *s; s++) {
    if (*s == ' ' || *s == '#' || *s == ':')
      fputc('\\', out);
    else if (*s == '$')
      fputc('$', out);
    fputc(*s, out);
  }
  return 0;
}

static int write_rule(FILE *f, const char *const *targets, size_t n_targets,
                      const wp_depfile_paths *p, wp_error *err) {
  for (size_t i = 0; i < n_targets; i++) {
    if (i)
      fputc(' ', f);
    if (wp_depfile_escape(f, targets[i], err))
      return -1;
  }
  fputc(':', f);
  for (size_t i = 0; p && i < p->n; i++) {
    fputs(" \\\n  ", f);
    if (wp_depfile_escape(f, path_at(p, p->locs[i]), err))
      return -1;
  }
  fputc('\n', f);
  return 0;
}

int wp_depfile_write(const char *file, const char *const *targets, size_t n_targets,
                     const wp_depfile_paths *p, wp_error *err) {
  if (!file || !file[0] || !n_targets)
    return wp_error_set(err, "depfile: %s", !n_targets ? "no target to name" : "an empty name");
  wp_output *o = wp_output_open(file, err);
  if (!o)
    return -1;
  wp_error why;
  wp_depfile_paths *r = wp_depfile_paths_resolve(p);
  int rc = write_rule(wp_output_stream(o), targets, n_targets, r, &why);
  wp_depfile_paths_destroy(r);
  if (rc) {
    wp_output_abort(o);
    return wp_error_set(err, "%s: %s", file, why.msg);
  }
  return wp_output_commit(o, err);
}
