#include "neff_unpack.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The signal that asked us to stop, or 0. Checked between writes: files
 * are taken back by the normal failure path, which is not signal-safe. */
static volatile sig_atomic_t g_stop_signal;

static void on_stop_signal(int sig) { g_stop_signal = sig; }

/* SIGPIPE and SIGQUIT too: unpack writes no pipe, so either reaches it
 * only as a request to stop, and dying of it would leave half a tree. */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT};
#define N_STOP_SIGNALS (sizeof stop_signals / sizeof stop_signals[0])

/* No SA_RESTART: a write blocked on a slow device returns EINTR, so the
 * stop is seen at once. */
static void catch_stop_signals(struct sigaction old[N_STOP_SIGNALS]) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < N_STOP_SIGNALS; i++) {
    sigaction(stop_signals[i], NULL, &old[i]);
    if (old[i].sa_handler != SIG_IGN) /* ignored (nohup, a background job): stays so */
      sigaction(stop_signals[i], &sa, NULL);
  }
}

static void restore_stop_signals(const struct sigaction old[N_STOP_SIGNALS]) {
  for (size_t i = 0; i < N_STOP_SIGNALS; i++)
    sigaction(stop_signals[i], &old[i], NULL);
}

/* What an unpack made, newest last: taken back in reverse when it fails,
 * so a bad package leaves nothing behind. */
typedef struct made_list {
  char **paths;
  size_t n, cap;
  bool failed; /* out of memory while remembering */
} made_list;

static void remember(made_list *m, const char *path) {
  if (m->n == m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 16;
    char **p = realloc(m->paths, cap * sizeof *p);
    if (!p) {
      m->failed = true;
      return;
    }
    m->paths = p;
    m->cap = cap;
  }
  if (!(m->paths[m->n] = strdup(path)))
    m->failed = true;
  else
    m->n++;
}

/* Frees M; with UNDO, first removes what it made, newest first. */
static void made_list_end(made_list *m, bool undo) {
  for (size_t i = m->n; i-- > 0;) {
    if (undo && unlink(m->paths[i]) != 0)
      rmdir(m->paths[i]);
    free(m->paths[i]);
  }
  free(m->paths);
}

/* mkdir that records what it made. */
static int make_dir(made_list *m, const char *path) {
  if (mkdir(path, 0755) == 0) {
    remember(m, path);
    return 0;
  }
  return errno == EEXIST ? 0 : -1;
}

typedef struct unpack_state {
  const char *dir;
  char current[PATH_MAX];
  int fd;
  char err[8192];
  made_list made;
  wp_neff_bom *bom; /* the members against bom.json, checked at the end */
} unpack_state;

static int make_parents(unpack_state *s, const char *name) {
  char path[PATH_MAX];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", s->dir, name) >= sizeof path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  for (char *p = path + strlen(s->dir) + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      if (make_dir(&s->made, path) != 0)
        return -1;
      struct stat st;
      if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode)) { /* never through a link */
        errno = ENOTDIR;
        return -1;
      }
      *p = '/';
    }
  return 0;
}

/* All LEN bytes, through short writes (a disk that fills up first writes
 * what fits, and only the next write says ENOSPC). 0, or -1 with errno
 * set (EINTR when a stop signal came). */
static int write_all(int fd, const char *p, size_t len) {
  while (len > 0) {
    if (g_stop_signal) {
      errno = EINTR;
      return -1;
    }
    ssize_t n = write(fd, p, len);
    if (n < 0) {
      if (errno == EINTR)
        continue; /* the loop's check decides */
      return -1;
    }
    if (n == 0) {
      errno = ENOSPC;
      return -1;
    }
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

static int fail(unpack_state *s, const char *name, const char *what, int e) {
  if (g_stop_signal)
    snprintf(s->err, sizeof s->err, "%s%s%s: interrupted (%s); what was unpacked is removed",
             s->dir, name[0] ? "/" : "", name, strsignal(g_stop_signal));
  else
    snprintf(s->err, sizeof s->err, "%s/%s: %s%s", s->dir, name, what, strerror(e));
  return 1;
}

static int unpack_fn(const char *name, uint64_t size, const void *data, size_t len, void *user) {
  unpack_state *s = user;
  if (g_stop_signal)
    return fail(s, name, "", EINTR);
  wp_neff_bom_feed(name, size, data, len, s->bom);
  if (strcmp(s->current, name) != 0 || s->fd < 0) {
    char path[PATH_MAX];
    /* a cut name would unpack under another name, or reopen the member
     * for each chunk */
    if (strlen(name) >= sizeof s->current ||
        (size_t)snprintf(path, sizeof path, "%s/%s", s->dir, name) >= sizeof path)
      return fail(s, name, "", ENAMETOOLONG);
    strcpy(s->current, name);
    if (make_parents(s, name) != 0 ||
        (s->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)) < 0)
      return fail(s, name, "", errno);
    remember(&s->made, path);
    if (s->made.failed) { /* could not be taken back on a later failure */
      snprintf(s->err, sizeof s->err, "out of memory");
      return 1;
    }
  }
  if (data) {
    if (write_all(s->fd, data, len) != 0)
      return fail(s, name, "write failed: ", errno);
  } else {
    /* a file system may report a full disk (or quota) only here */
    int rc = close(s->fd);
    s->fd = -1;
    s->current[0] = 0;
    if (rc != 0 && errno != EINTR)
      return fail(s, name, "write failed: ", errno);
  }
  return 0;
}

/* The members into DIR (made as needed), then bom.json's word on them:
 * 0, or 1 after an error line. */
static int unpack_members(wp_neff_reader *r, unpack_state *s) {
  wp_error err;
  int each = wp_neff_each_member(r, unpack_fn, s, &err);
  if (s->fd >= 0)
    close(s->fd);
  if (g_stop_signal)
    fail(s, "", "", EINTR);
  if (each != 0 || g_stop_signal) {
    /* S->ERR quotes the member's name raw: through wp_error, which escapes
     * control bytes as every other error line does */
    if (each >= 0 || g_stop_signal)
      wp_error_set(&err, "%s", s->err);
    fprintf(stderr, "error: %s\n", err.msg);
    return 1;
  }
  if (wp_neff_bom_check(s->bom, wp_neff_path(r), &err)) {
    fprintf(stderr, "error: %s\n", err.msg);
    return 1;
  }
  return 0;
}

int neff_unpack(wp_neff_reader *r, const char *dir) {
  wp_error err;
  unpack_state s = {dir, "", -1, "", {0}, wp_neff_bom_new(NULL, &err)};
  if (!s.bom) {
    fprintf(stderr, "error: %s\n", err.msg);
    return 1;
  }
  struct sigaction old[N_STOP_SIGNALS];
  g_stop_signal = 0;
  catch_stop_signals(old);
  char path[PATH_MAX];
  int rc = 0;
  if ((size_t)snprintf(path, sizeof path, "%s/", dir) >= sizeof path) {
    fprintf(stderr, "error: %s: %s\n", dir, strerror(ENAMETOOLONG));
    rc = 1;
  }
  for (char *p = path + 1; *p && rc == 0; p++) /* mkdir -p */
    if (*p == '/') {
      *p = 0;
      if (make_dir(&s.made, path) != 0) {
        fprintf(stderr, "error: %s: %s\n", path, strerror(errno));
        rc = 1;
      }
      *p = '/';
    }
  if (rc == 0)
    rc = unpack_members(r, &s);
  made_list_end(&s.made, rc != 0); /* all or nothing, like opt's outputs */
  wp_neff_bom_free(s.bom);
  restore_stop_signals(old);
  if (g_stop_signal && rc != 0) { /* one after a complete unpack changes nothing */
    signal(g_stop_signal, SIG_DFL);
    raise(g_stop_signal); /* the caller sees how we ended */
  }
  return rc;
}
