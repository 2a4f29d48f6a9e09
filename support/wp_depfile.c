#include "wp_depfile.h"

#include "wp_file.h"
#include "wp_strmap.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct wp_depfile_paths {
  pthread_mutex_t lock;
  char **paths; /* owned; the map's keys borrow them */
  size_t n, cap;
  wp_strmap seen;
};

wp_depfile_paths *wp_depfile_paths_create(void) {
  wp_depfile_paths *p = wp_xcalloc(1, sizeof *p);
  pthread_mutex_init(&p->lock, NULL);
  wp_strmap_init(&p->seen);
  return p;
}

void wp_depfile_paths_destroy(wp_depfile_paths *p) {
  if (!p)
    return;
  wp_strmap_free(&p->seen);
  for (size_t i = 0; i < p->n; i++)
    free(p->paths[i]);
  free(p->paths);
  pthread_mutex_destroy(&p->lock);
  free(p);
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

/* Caller holds the lock. Takes PATH (malloc'd). */
static void add_locked(wp_depfile_paths *p, char *path) {
  int64_t ignored;
  if (wp_strmap_get(&p->seen, path, strlen(path), &ignored)) {
    free(path);
    return;
  }
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 16;
    p->paths = wp_xrealloc(p->paths, p->cap * sizeof *p->paths);
  }
  p->paths[p->n] = path;
  wp_strmap_put(&p->seen, path, strlen(path), (int64_t)p->n);
  p->n++;
}

/* Noting costs a copy and a hash: a 100,000-weight run notes every
 * path whether or not a depfile is asked for. Spelling and links are
 * looked at only by wp_depfile_paths_resolve. */
void wp_depfile_paths_add(wp_depfile_paths *p, const char *path) {
  if (!p || !path || !path[0])
    return;
  char *copy = wp_xstrdup(path);
  pthread_mutex_lock(&p->lock);
  add_locked(p, copy);
  pthread_mutex_unlock(&p->lock);
}

wp_depfile_paths *wp_depfile_paths_resolve(const wp_depfile_paths *p) {
  wp_depfile_paths *r = wp_depfile_paths_create();
  for (size_t i = 0; p && i < p->n; i++) {
    char *abs = absolute(p->paths[i]);
    /* A link's target too: Make and Ninja follow the link when they look
     * at its time, but a tool that does not (or a user reading the list)
     * sees what the bytes came from. */
    struct stat st;
    char *target = lstat(abs, &st) == 0 && S_ISLNK(st.st_mode) ? realpath(abs, NULL) : NULL;
    add_locked(r, abs);
    if (target)
      add_locked(r, target);
  }
  return r;
}

size_t wp_depfile_paths_count(const wp_depfile_paths *p) { return p ? p->n : 0; }

const char *wp_depfile_paths_get(const wp_depfile_paths *p, size_t i) {
  return p && i < p->n ? p->paths[i] : NULL;
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
    if (wp_depfile_escape(f, p->paths[i], err))
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
