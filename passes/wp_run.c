#include "wp_run.h"

#include "wp_error.h"
#include "wp_i64map.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

wp_run *wp_run_create(void) {
  wp_run *run = wp_xcalloc(1, sizeof *run);
  run->refs = 1;
  /* pid, time and the object's own address: two runs of one process, even
   * started in the same nanosecond on two threads, differ */
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  snprintf(run->token, sizeof run->token, "run-%ld-%lld.%09ld-%llu", (long)getpid(),
           (long long)ts.tv_sec, ts.tv_nsec, (unsigned long long)(uintptr_t)run);
  run->placed = wp_placed_set_create();
  run->hashed = wp_hashed_set_create();
  wp_i64map *mapped = wp_xcalloc(1, sizeof *mapped);
  wp_i64map_init(mapped);
  run->mapped = mapped;
  return run;
}

wp_run *wp_run_retain(wp_run *run) {
  if (run)
    __atomic_add_fetch(&run->refs, 1, __ATOMIC_RELAXED);
  return run;
}

void wp_run_release(wp_run *run) {
  if (!run || __atomic_sub_fetch(&run->refs, 1, __ATOMIC_ACQ_REL) != 0)
    return;
  wp_placed_set_destroy(run->placed);
  wp_hashed_set_destroy(run->hashed);
  wp_i64map_free(run->mapped);
  free(run->mapped);
  free(run->model_dir);
  free(run->artifact_dir);
  free(run->neff_output);
  for (size_t i = 0; i < run->n_outputs; i++)
    free(run->outputs[i]);
  free(run->outputs);
  free(run);
}

bool wp_run_bir_read_back(const wp_run *run, MlirOperation module) {
  return run->bir_built_for != module.ptr;
}

/* Attributes are uniqued per context: an address means the same attribute
 * only within one, so a run that meets another context starts over. */
void wp_run_note_mapped(wp_run *run, MlirAttribute attr) {
  if (!run)
    return;
  void *ctx = mlirAttributeGetContext(attr).ptr;
  if (ctx != run->mapped_ctx) {
    wp_i64map_free(run->mapped);
    wp_i64map_init(run->mapped);
    run->mapped_ctx = ctx;
  }
  if (wp_i64map_put(run->mapped, (int64_t)(intptr_t)attr.ptr, 1))
    wp_out_of_memory();
}

bool wp_run_is_mapped(const wp_run *run, MlirAttribute attr) {
  int64_t v;
  return run && mlirAttributeGetContext(attr).ptr == run->mapped_ctx &&
         wp_i64map_get(run->mapped, (int64_t)(intptr_t)attr.ptr, &v) && v == 1;
}
