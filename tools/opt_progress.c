#include "opt_progress.h"

#include "opt_config.h"
#include "wp_error.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define NS 1000000000ull
/* Nothing is drawn in a run's first second: a short run prints nothing. */
#define SHOW_AFTER_NS (1 * NS)
/* At most four draws a second (and one at each stage). */
#define REDRAW_NS (NS / 4)

struct opt_progress {
  pthread_mutex_t lock;
  uint64_t start_ns;
  uint64_t show_ns; /* nothing is drawn before this */
  uint64_t due_ns;  /* atomic: no report drawn before this */
  bool shown;      /* a line is on the terminal */
  int width;       /* the terminal's columns */
  char stage[64];
  /* the stage's first counts drawn: its rate is measured from there */
  bool have_base;
  uint64_t base_ns, base_done;
#ifdef WP_TESTING
  unsigned test_sleep_us; /* each report waits this long */
#endif
};

/* The coarse clock: a few nanoseconds to read, and 4 ms is fine enough
 * for a line redrawn four times a second. */
static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
}

bool opt_progress_wanted(int forced) {
  if (forced >= 0)
    return forced != 0;
  const char *term = getenv("TERM");
  return isatty(STDERR_FILENO) && term && term[0] && strcmp(term, "dumb") != 0;
}

opt_progress *opt_progress_create(void) {
  opt_progress *p = wp_xcalloc(1, sizeof *p);
  pthread_mutex_init(&p->lock, NULL);
  p->start_ns = now_ns();
  uint64_t after = SHOW_AFTER_NS;
#ifdef WP_TESTING
  /* Tests draw from the start instead of waiting for a slow run, and
   * slow down the reports to see several. */
  const char *ms = getenv("WP_TEST_PROGRESS_AFTER_MS");
  if (ms)
    after = (uint64_t)strtoull(ms, NULL, 10) * 1000000ull;
  const char *sleep_ms = getenv("WP_TEST_PROGRESS_SLEEP_MS");
  if (sleep_ms)
    p->test_sleep_us = (unsigned)strtoul(sleep_ms, NULL, 10) * 1000u;
#endif
  p->show_ns = p->due_ns = p->start_ns + after;
  struct winsize ws;
  p->width = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20 ? ws.ws_col : 80;
  return p;
}

static void put(const char *s, size_t n) {
  while (n) {
    ssize_t w = write(STDERR_FILENO, s, n);
    if (w <= 0)
      return; /* a progress line is not worth an error */
    s += w;
    n -= (size_t)w;
  }
}

static void clear_locked(opt_progress *p) {
  if (p->shown)
    put("\r\033[K", 4);
  p->shown = false;
}

void opt_progress_clear(opt_progress *p) {
  if (!p)
    return;
  pthread_mutex_lock(&p->lock);
  clear_locked(p);
  pthread_mutex_unlock(&p->lock);
}

void opt_progress_destroy(opt_progress *p) {
  if (!p)
    return;
  opt_progress_clear(p);
  pthread_mutex_destroy(&p->lock);
  free(p);
}

static void size_text(char *buf, size_t n, uint64_t v) {
  if (v >= (1ull << 30))
    snprintf(buf, n, "%.2f GiB", (double)v / (1ull << 30));
  else if (v >= (1ull << 20))
    snprintf(buf, n, "%.1f MiB", (double)v / (1ull << 20));
  else
    snprintf(buf, n, "%.0f KiB", (double)v / 1024);
}

static void time_text(char *buf, size_t n, uint64_t s) {
  if (s >= 3600)
    snprintf(buf, n, "%llu:%02llu:%02llu", (unsigned long long)(s / 3600),
             (unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60));
  else
    snprintf(buf, n, "%llu:%02llu", (unsigned long long)(s / 60), (unsigned long long)(s % 60));
}

/* Draws the line for the stage's DONE of TOTAL (COUNTED: it reported
 * counts) at NOW. */
static void draw_locked(opt_progress *p, uint64_t now, bool counted, uint64_t done,
                        uint64_t total, bool files) {
  char line[512], a[32], b[32], rate[48] = "", left[48] = "", elapsed[32];
  time_text(elapsed, sizeof elapsed, (now - p->start_ns) / NS);
  int len;
  if (!counted) {
    len = snprintf(line, sizeof line, "%s: %s  (%s)", opt_prog, p->stage, elapsed);
  } else {
    if (!p->have_base) {
      p->have_base = true;
      p->base_ns = now;
      p->base_done = done;
    } else if (now > p->base_ns && done > p->base_done) {
      double per_s = (double)(done - p->base_done) / ((double)(now - p->base_ns) / NS);
      if (files)
        snprintf(rate, sizeof rate, "  %.0f files/s", per_s);
      else
        snprintf(rate, sizeof rate, "  %.1f MiB/s", per_s / (1 << 20));
      if (total > done) {
        char t[32];
        time_text(t, sizeof t, (uint64_t)((double)(total - done) / per_s + 0.5));
        snprintf(left, sizeof left, "  %s left", t);
      }
    }
    char pct[16] = "";
    if (total)
      snprintf(pct, sizeof pct, " (%.0f%%)", 100.0 * (double)(done < total ? done : total) /
                                                 (double)total);
    if (files) {
      snprintf(a, sizeof a, "%llu", (unsigned long long)done);
      snprintf(b, sizeof b, "%llu files", (unsigned long long)total);
    } else {
      size_text(a, sizeof a, done);
      size_text(b, sizeof b, total);
    }
    if (total)
      len = snprintf(line, sizeof line, "%s: %s  %s / %s%s%s%s", opt_prog, p->stage, a, b, pct,
                     rate, left);
    else
      len = snprintf(line, sizeof line, "%s: %s  %s%s", opt_prog, p->stage, a, rate);
  }
  if (len < 0)
    return;
  /* one column short of the width: a full line would wrap on some
   * terminals, and '\r' would then redraw only its second row */
  size_t n = (size_t)len < sizeof line ? (size_t)len : sizeof line - 1;
  if (n > (size_t)p->width - 1)
    n = (size_t)p->width - 1;
  char out[600];
  memcpy(out, "\r", 1);
  memcpy(out + 1, line, n);
  memcpy(out + 1 + n, "\033[K", 3);
  put(out, n + 4);
  p->shown = true;
}

static void set_stage_locked(opt_progress *p, const char *stage) {
  snprintf(p->stage, sizeof p->stage, "%s", stage);
  p->have_base = false;
}

void opt_progress_stage(opt_progress *p, const char *stage) {
  uint64_t now = now_ns();
  pthread_mutex_lock(&p->lock);
  set_stage_locked(p, stage);
  /* always, when anything is shown: the stage may report nothing, and
   * the line would go on naming the one before */
  if (now >= p->show_ns)
    draw_locked(p, now, false, 0, 0, false); /* the stage's first counts follow at once */
  pthread_mutex_unlock(&p->lock);
}

void opt_progress_report(void *user, const char *stage, uint64_t done, uint64_t total,
                         bool files) {
  opt_progress *p = user;
#ifdef WP_TESTING
  if (p->test_sleep_us)
    usleep(p->test_sleep_us);
#endif
  uint64_t now = now_ns();
  /* the common case, on any thread: not yet time to draw */
  if (now < __atomic_load_n(&p->due_ns, __ATOMIC_RELAXED) || pthread_mutex_trylock(&p->lock))
    return;
  if (now >= p->due_ns) {
    if (strncmp(p->stage, stage, sizeof p->stage - 1) != 0)
      set_stage_locked(p, stage);
    draw_locked(p, now, true, done, total, files);
    __atomic_store_n(&p->due_ns, now + REDRAW_NS, __ATOMIC_RELAXED);
  }
  pthread_mutex_unlock(&p->lock);
}
