/* neff-pack's two large texts, def.json and bir.json (70 and 40 MB for
 * 100,000 tensors): ended and hashed for the BOM, and bir.json written on
 * a thread of its own while the caller writes def.json, each text then
 * hashed on the other thread, so that neither waits for the other. */
#ifndef WP_NEFF_TEXTS_H
#define WP_NEFF_TEXTS_H

#include "wp_bir.h"
#include "wp_jsonw.h"
#include "wp_md5.h"
#include "wp_neff_birjson.h"
#include "wp_spill_hash.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* An ended text: in memory (TEXT, the caller's to free or hand on) or in
 * its spill file (PATH at AT), or failed (WHERE -1, WRITE_ERRNO when a
 * spill write failed, else out of memory). */
typedef struct wp_neff_text {
  int where; /* 0 memory, 1 spill file, -1 failed */
  int write_errno;
  char *text;
  const char *path;
  uint64_t at, size;
  char md5[WP_MD5_HEX]; /* "" when not hashed here: then hashed as written */
} wp_neff_text;

/* Ends T's text into OUT (T is emptied): hashed when it stays in memory,
 * or from T's md5 (consumed) when it went to the spill file. Touches
 * nothing shared, so any thread may end its own text. */
void wp_neff_text_end(wp_jsonw *t, wp_neff_text *out);

/* bir.json being written beside the caller's work. */
typedef struct wp_neff_bir_text {
  const Wp__Bir__Module *bir;
  wp_neff_bir_index index; /* each function's locations by set, for the caller too */
  wp_spill_hash *def_hash; /* the first function's def.json, hashed on the thread */
  wp_jsonw_spill spill;    /* bir.json's own spill file */
  wp_neff_text out;        /* bir.json, once READY */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool ready, threaded, started;
  pthread_t thread;
} wp_neff_bir_text;
#define WP_NEFF_BIR_TEXT_INIT {.spill = WP_JSONW_SPILL_INIT}

/* Starts writing M's bir.json, on a thread of its own when one starts
 * (here otherwise: the bytes are the same). -1 when a memory location
 * names no set (out of memory aborts). */
int wp_neff_bir_text_start(wp_neff_bir_text *j, const Wp__Bir__Module *m);
/* Has J's thread hash T, the first function's def.json, as it spills
 * (T's md5 stays unset); false when J cannot, and T hashes itself. */
bool wp_neff_bir_text_hash_def(wp_neff_bir_text *j, wp_jsonw *t);
/* The caller's def.json is ended or abandoned (safe to call twice). */
void wp_neff_bir_text_def_done(wp_neff_bir_text *j);
/* Waits for bir.json, hashes it here when HASH (while the thread ends
 * def.json's hash), and joins the thread. J->out is then the text. */
void wp_neff_bir_text_wait(wp_neff_bir_text *j, bool hash);
/* After wait: the MD5 the thread took of def.json's SIZE bytes; false
 * when it has none (the text stayed in memory, or a read failed). */
bool wp_neff_bir_text_def_md5(wp_neff_bir_text *j, uint64_t size, char out[WP_MD5_HEX]);
/* After wait: forgets the module and frees the index of its sets, so
 * that the caller may free the module (the text stays). */
void wp_neff_bir_text_drop_module(wp_neff_bir_text *j);
/* Frees what J holds, its spill file too: after the archive is written
 * (bir.json's member may be read from that file). Safe without start. */
void wp_neff_bir_text_close(wp_neff_bir_text *j);

#endif
