#include "wp_parallel.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct loop {
  size_t n;
  size_t next;   /* atomically claimed */
  size_t failed; /* atomically counted */
  wp_parallel_fn fn;
  void *user;
} loop;

static void *worker(void *arg) {
  loop *l = arg;
  for (;;) {
    size_t i = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
    if (i >= l->n)
      return NULL;
    if (l->fn(i, l->user))
      __atomic_fetch_add(&l->failed, 1, __ATOMIC_RELAXED);
  }
}

size_t wp_parallel_for(size_t n, long threads, wp_parallel_fn fn, void *user) {
  loop l = {n, 0, 0, fn, user};
  if (threads < 1)
    threads = 1;
  if ((size_t)threads > n)
    threads = n ? (long)n : 1;
  pthread_t *t = threads > 1 ? calloc((size_t)threads, sizeof *t) : NULL;
  long started = 0;
  for (long i = 1; t && i < threads; i++, started++)
    if (pthread_create(&t[started], NULL, worker, &l) != 0)
      break;
  worker(&l);
  for (long i = 0; i < started; i++)
    pthread_join(t[i], NULL);
  free(t);
  return l.failed;
}

long wp_parallel_cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n;
}
