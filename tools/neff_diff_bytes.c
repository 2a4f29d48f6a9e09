#include "neff_diff_bytes.h"

#include "wp_md5.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- one element ---- */

static double half_to_double(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
  return h & 0x8000 ? -v : v;
}

/* A float element (of size 2, 4 or 8, or bfloat16) as a double. */
static double float_at(const unsigned char *p, int item, bool bf16) {
  if (item == 2) {
    uint16_t h = (uint16_t)(p[0] | p[1] << 8);
    if (!bf16)
      return half_to_double(h);
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, 4);
    return f;
  }
  if (item == 4) {
    float f;
    memcpy(&f, p, 4);
    return f;
  }
  double d;
  memcpy(&d, p, 8);
  return d;
}

static uint64_t le(const unsigned char *p, int item) {
  uint64_t v = 0;
  for (int i = item - 1; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static void note_float(neff_cmp_job *j, double d) {
  j->has_float = true;
  if (isnan(d))
    j->nan = true;
  else if (d > j->max_abs)
    j->max_abs = d;
}

/* Elements A and B, whose bytes differ. */
static void element(neff_cmp_job *j, const unsigned char *a, const unsigned char *b) {
  j->n_diff++;
  if (j->kind == 'f' || (j->kind == 'V' && j->bf16)) {
    note_float(j, fabs(float_at(a, j->item, j->bf16) - float_at(b, j->item, j->bf16)));
  } else if (j->kind == 'c') {
    int part = j->item / 2;
    double re = float_at(a, part, false) - float_at(b, part, false);
    double im = float_at(a + part, part, false) - float_at(b + part, part, false);
    note_float(j, hypot(re, im));
  } else if ((j->kind == 'i' || j->kind == 'u') && j->item <= 8) {
    uint64_t x = le(a, j->item), y = le(b, j->item), d;
    if (j->kind == 'i') { /* sign-extend; |x - y| fits 64 unsigned bits */
      int shift = 64 - 8 * j->item;
      int64_t sx = (int64_t)(x << shift) >> shift, sy = (int64_t)(y << shift) >> shift;
      d = sx > sy ? (uint64_t)sx - (uint64_t)sy : (uint64_t)sy - (uint64_t)sx;
    } else {
      d = x > y ? x - y : y - x;
    }
    j->has_int = true;
    if (d > j->max_int)
      j->max_int = d;
  }
}

/* ---- streaming one side ---- */

typedef struct group {
  const char *member;
  size_t lo, hi, scan; /* its jobs in the side's order, by offset */
  bool done;
} group;

typedef struct side_pass {
  int side;
  neff_cmp_job **order;
  group *g;
  size_t n_g, left;
  group *cur;
  uint64_t seen;
  wp_md5 *h;
  neff_collect *c;
  int fd;                   /* the temporary file (A) */
  const unsigned char *a;   /* its bytes (B) */
  const char *changed;      /* a member whose MD5 is not the first pass's */
  int write_errno;
} side_pass;

static int cmp_order(const void *x, const void *y, int side) {
  const wp_neff_tensor *a = (*(neff_cmp_job *const *)x)->t[side];
  const wp_neff_tensor *b = (*(neff_cmp_job *const *)y)->t[side];
  int c = strcmp(a->member, b->member);
  return c ? c : a->offset < b->offset ? -1 : a->offset > b->offset;
}
static int cmp_a(const void *x, const void *y) { return cmp_order(x, y, 0); }
static int cmp_b(const void *x, const void *y) { return cmp_order(x, y, 1); }

static int cmp_group(const void *key, const void *g) {
  return strcmp(key, ((const group *)g)->member);
}

/* B's bytes P[0, N) of J, from byte REL of its tensor on. */
static void compare(neff_cmp_job *j, const unsigned char *a, const unsigned char *p, size_t n,
                    uint64_t rel) {
  size_t item = (size_t)j->item;
  if (j->carry_n) {
    size_t k = item - (size_t)j->carry_n < n ? item - (size_t)j->carry_n : n;
    memcpy(j->carry + j->carry_n, p, k);
    j->carry_n += (int)k;
    p += k, n -= k, rel += k;
    if ((size_t)j->carry_n == item) {
      const unsigned char *x = a + rel - item;
      if (memcmp(x, j->carry, item))
        element(j, x, j->carry);
      j->carry_n = 0;
    }
  }
  for (; n >= item; p += item, n -= item, rel += item)
    if (memcmp(a + rel, p, item))
      element(j, a + rel, p);
  memcpy(j->carry, p, n);
  j->carry_n = (int)n;
}

static int write_at(int fd, const void *p, size_t n, uint64_t at) {
  while (n) {
    ssize_t w = pwrite(fd, p, n, (off_t)at);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return errno ? errno : EIO;
    p = (const char *)p + w, n -= (size_t)w, at += (uint64_t)w;
  }
  return 0;
}

static int side_fn(const char *name, uint64_t size, const void *data, size_t len, void *user) {
  (void)size;
  side_pass *s = user;
  if (!s->cur) {
    group *g = bsearch(name, s->g, s->n_g, sizeof *g, cmp_group);
    if (!g || g->done)
      return 0;
    s->cur = g;
    s->seen = 0;
  }
  group *g = s->cur;
  if (!data) { /* the member's end */
    char md5[WP_MD5_HEX];
    wp_md5_final_hex(s->h, md5);
    neff_member *m = neff_find(s->c, g->member);
    if (!m || strcmp(m->md5, md5)) {
      s->changed = g->member;
      return 1;
    }
    g->done = true;
    s->cur = NULL;
    return --s->left == 0; /* the rest of the package is not needed */
  }
  wp_md5_update(s->h, data, len);
  uint64_t end = s->seen + len;
  while (g->scan < g->hi && s->order[g->scan]->t[s->side]->offset +
                                    s->order[g->scan]->t[s->side]->size <= s->seen)
    g->scan++;
  for (size_t k = g->scan; k < g->hi; k++) {
    neff_cmp_job *j = s->order[k];
    const wp_neff_tensor *t = j->t[s->side];
    if (t->offset >= end)
      break;
    uint64_t lo = t->offset > s->seen ? t->offset : s->seen;
    uint64_t hi = t->offset + t->size < end ? t->offset + t->size : end;
    if (lo >= hi)
      continue;
    const unsigned char *p = (const unsigned char *)data + (lo - s->seen);
    if (s->side == 0) {
      int e = write_at(s->fd, p, (size_t)(hi - lo), j->spill + (lo - t->offset));
      if (e) {
        s->write_errno = e;
        return 1;
      }
    } else {
      compare(j, s->a + j->spill, p, (size_t)(hi - lo), lo - t->offset);
    }
  }
  s->seen = end;
  return 0;
}

/* Streams the package at PATH for side S of the jobs. */
static int run_side(side_pass *s, neff_cmp_job *jobs, size_t n, const char *path,
                    uint64_t max_size, wp_error *err) {
  s->order = malloc((n + 1) * sizeof *s->order);
  s->g = malloc((n + 1) * sizeof *s->g);
  int rc = -1;
  wp_neff_reader *r = NULL;
  if (!s->order || !s->g || !(s->h = wp_md5_create(err))) {
    if (!s->h)
      wp_error_set(err, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < n; i++)
    s->order[i] = &jobs[i];
  qsort(s->order, n, sizeof *s->order, s->side ? cmp_b : cmp_a);
  for (size_t i = 0; i < n; i++) {
    const char *m = s->order[i]->t[s->side]->member;
    if (!s->n_g || strcmp(s->g[s->n_g - 1].member, m))
      s->g[s->n_g++] = (group){.member = m, .lo = i, .scan = i};
    s->g[s->n_g - 1].hi = i + 1;
  }
  s->left = s->n_g;
  if (!(r = wp_neff_open(path, max_size, err)))
    goto out;
  int got = wp_neff_each_member(r, side_fn, s, err);
  if (s->write_errno)
    wp_error_errno(err, s->write_errno, "writing a temporary file");
  else if (s->changed)
    wp_error_set(err, "%s: member '%s' is not what it was a moment ago (did the file change?)",
                 path, s->changed);
  else if (got >= 0 && s->left)
    wp_error_set(err, "%s: a member went missing (did the file change?)", path);
  else if (got >= 0)
    rc = 0;
out:
  if (r)
    wp_neff_close(r);
  wp_md5_destroy(s->h);
  free(s->order);
  free(s->g);
  return rc;
}

/* An unlinked temporary file in TMPDIR (or /tmp), or -1. */
static int temp_fd(void) {
  const char *dir = getenv("TMPDIR");
  dir = dir && *dir ? dir : "/tmp";
  int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) {
    char path[4096];
    snprintf(path, sizeof path, "%s/neff-diff-XXXXXX", dir);
    fd = mkostemp(path, O_CLOEXEC);
    if (fd >= 0)
      unlink(path);
  }
  return fd;
}

int neff_cmp_run(neff_cmp_job *jobs, size_t n, const char *const path[2], uint64_t max_size,
                 neff_collect *const c[2], wp_error *err) {
  uint64_t total = 0;
  for (size_t i = 0; i < n; i++) {
    jobs[i].spill = total;
    total += jobs[i].t[0]->size;
  }
  if (!total)
    return 0;
  int fd = temp_fd();
  if (fd < 0)
    return wp_error_errno(err, errno, "cannot make a temporary file");
  side_pass a = {.side = 0, .c = c[0], .fd = fd};
  int rc = run_side(&a, jobs, n, path[0], max_size, err);
  void *map = MAP_FAILED;
  if (!rc && (map = mmap(NULL, (size_t)total, PROT_READ, MAP_SHARED, fd, 0)) == MAP_FAILED)
    rc = wp_error_errno(err, errno, "mapping a temporary file");
  close(fd);
  if (!rc) {
    side_pass b = {.side = 1, .c = c[1], .a = map};
    rc = run_side(&b, jobs, n, path[1], max_size, err);
  }
  if (map != MAP_FAILED)
    munmap(map, (size_t)total);
  return rc;
}
