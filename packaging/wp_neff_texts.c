#include "wp_neff_texts.h"

#include "wp_place.h"

#include <stdlib.h>

void wp_neff_text_end(wp_jsonw *t, wp_neff_text *out) {
  *out = (wp_neff_text){0};
  wp_md5 *spilled_md5 = t->md5;
  out->where = wp_jsonw_finish(t, &out->size);
  out->text = t->p;
  out->write_errno = t->write_errno;
  out->at = t->spill_at;
  out->path = t->spill ? t->spill->path : NULL;
  *t = (wp_jsonw){0};
  if (out->where == 0 && wp_md5_buffer(out->text ? out->text : "", out->size, out->md5, NULL))
    out->md5[0] = 0;
  if (out->where == 1 && spilled_md5)
    wp_md5_final_hex(spilled_md5, out->md5);
  wp_md5_destroy(spilled_md5);
}

static void *bir_text_thread(void *arg) {
  wp_neff_bir_text *j = arg;
  /* hashed as it spills only when nobody else will hash it */
  wp_jsonw t = {.spill = &j->spill, .md5 = j->def_hash ? NULL : wp_md5_create(NULL)};
  t.oom |= wp_neff_bir_json_lines(&t, j->bir, &j->index) != 0;
  wp_neff_text_end(&t, &j->out);
  pthread_mutex_lock(&j->mu);
  j->ready = true;
  pthread_cond_signal(&j->cv);
  pthread_mutex_unlock(&j->mu);
  if (j->def_hash)
    wp_spill_hash_run(j->def_hash);
  return NULL;
}

int wp_neff_bir_text_start(wp_neff_bir_text *j, const Wp__Bir__Module *m) {
  j->bir = m;
  /* built before the thread starts: built inside it, its scratch map
   * would live beside def.json's work and raise the peak memory */
  if (wp_neff_bir_index_build(m, &j->index))
    return -1;
  j->def_hash = wp_spill_hash_create();
  pthread_mutex_init(&j->mu, NULL);
  pthread_cond_init(&j->cv, NULL);
  j->started = true;
  j->threaded = pthread_create(&j->thread, NULL, bir_text_thread, j) == 0;
  if (!j->threaded) {
    wp_spill_hash_destroy(j->def_hash);
    j->def_hash = NULL;
    bir_text_thread(j);
  }
  return 0;
}

bool wp_neff_bir_text_hash_def(wp_neff_bir_text *j, wp_jsonw *t) {
  if (!j->def_hash)
    return false;
  t->on_spill = wp_spill_hash_note;
  t->on_spill_user = j->def_hash;
  return true;
}

void wp_neff_bir_text_def_done(wp_neff_bir_text *j) {
  if (j->def_hash)
    wp_spill_hash_end(j->def_hash);
}

void wp_neff_bir_text_wait(wp_neff_bir_text *j, bool hash) {
  if (!j->started)
    return;
  wp_neff_bir_text_def_done(j); /* also when no def.json was written */
  pthread_mutex_lock(&j->mu);
  while (!j->ready)
    pthread_cond_wait(&j->cv, &j->mu);
  pthread_mutex_unlock(&j->mu);
  wp_neff_text *ft = &j->out;
  wp_place_src src = {.path = ft->path, .offset = ft->at, .size = ft->size};
  wp_error ignored;
  if (hash && !ft->md5[0] && ft->where == 1 && wp_place_md5(NULL, 0, &src, ft->md5, &ignored))
    ft->md5[0] = 0; /* hashed as it is written */
  if (j->threaded)
    pthread_join(j->thread, NULL);
  j->threaded = false;
}

bool wp_neff_bir_text_def_md5(wp_neff_bir_text *j, uint64_t size, char out[WP_MD5_HEX]) {
  return j->def_hash && wp_spill_hash_result(j->def_hash, size, out);
}

void wp_neff_bir_text_drop_module(wp_neff_bir_text *j) {
  wp_neff_bir_index_free(&j->index);
  j->bir = NULL;
}

void wp_neff_bir_text_close(wp_neff_bir_text *j) {
  if (j->started) {
    wp_neff_bir_text_wait(j, false);
    pthread_cond_destroy(&j->cv);
    pthread_mutex_destroy(&j->mu);
  }
  wp_neff_bir_index_free(&j->index);
  wp_spill_hash_destroy(j->def_hash);
  free(j->out.text);
  wp_jsonw_spill_close(&j->spill);
  *j = (wp_neff_bir_text)WP_NEFF_BIR_TEXT_INIT;
}
