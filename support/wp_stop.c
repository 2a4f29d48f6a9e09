#include "wp_stop.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

static int g_stopping; /* a handler's cleanup has begun */
static int g_inside;   /* sections open now */
/* this thread's open sections: a crash (SIGSEGV, SIGABRT) inside one runs
 * the handler there, which must not wait for its own section */
static __thread int t_inside __attribute__((tls_model("initial-exec")));

/* The process dies of its signal once the handler's cleanup ends. */
static void wait_to_die(void) {
  for (;;)
    pause();
}

static void cleanup_signals(sigset_t *set) {
  sigemptyset(set);
  sigaddset(set, SIGINT);
  sigaddset(set, SIGTERM);
  sigaddset(set, SIGHUP);
  sigaddset(set, SIGPIPE);
}

/* errno survives both calls: callers report the failure of the system call
 * the section wraps after closing it */
void wp_stop_enter(wp_stop_section *s) {
  int e = errno;
  sigset_t block;
  cleanup_signals(&block);
  pthread_sigmask(SIG_BLOCK, &block, &s->saved);
  /* with the handler's store-then-load of the opposite pair, sequential
   * consistency makes one side see the other: the handler waits for this
   * section, or this thread sees the stop */
  __atomic_add_fetch(&g_inside, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&g_stopping, __ATOMIC_SEQ_CST)) {
    __atomic_sub_fetch(&g_inside, 1, __ATOMIC_SEQ_CST);
    wait_to_die();
  }
  t_inside++;
  errno = e;
}

void wp_stop_leave(wp_stop_section *s) {
  int e = errno;
  t_inside--;
  __atomic_sub_fetch(&g_inside, 1, __ATOMIC_SEQ_CST);
  bool stop = __atomic_load_n(&g_stopping, __ATOMIC_SEQ_CST);
  pthread_sigmask(SIG_SETMASK, &s->saved, NULL);
  if (stop)
    wait_to_die();
  errno = e;
}

void wp_stop_begin_from_signal(void) {
  __atomic_store_n(&g_stopping, 1, __ATOMIC_SEQ_CST);
  const struct timespec ms = {0, 1000000};
  for (int i = 0; i < 2000 && __atomic_load_n(&g_inside, __ATOMIC_SEQ_CST) > t_inside; i++)
    nanosleep(&ms, NULL);
}
