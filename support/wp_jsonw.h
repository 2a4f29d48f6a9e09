/* A JSON text writer: strings, numbers and literals appended to a growing
 * buffer, formatted exactly as jansson's json_dumps does without an indent
 * (", " between items, ": " after keys, \u001F-style escapes for control
 * characters), so records written here and records dumped from jansson
 * trees read the same. Used where a NEFF has 100,000 records and a tree
 * per record costs more than writing it. */
#ifndef WP_JSONW_H
#define WP_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where long texts go instead of memory: one unlinked temporary file that
 * several texts share, one after another (100,000 tensors make over 100
 * MiB of def.json and bir.json, which would otherwise stay in the heap
 * until the archive is written). Start from WP_JSONW_SPILL_INIT; the file
 * is made when a text first needs it. */
typedef struct wp_jsonw_spill {
  int fd;       /* -1 until made */
  uint64_t end; /* bytes written so far */
  char path[40]; /* "/proc/self/fd/N": the file can be opened by name */
  bool failed;  /* could not be made: texts stay in memory */
} wp_jsonw_spill;
#define WP_JSONW_SPILL_INIT {.fd = -1}
void wp_jsonw_spill_close(wp_jsonw_spill *s);

/* Zero-initialize; the caller frees p. Once out of memory (or a spill
 * write fails: write_errno), oom stays set and nothing more is appended.
 * With SPILL set, a text that grows past WP_JSONW_SPILL_AT bytes moves to
 * the spill file and goes on there. */
#define WP_JSONW_SPILL_AT (1u << 20)
typedef struct wp_jsonw {
  char *p;
  size_t len, cap;
  bool oom;
  int write_errno;
  wp_jsonw_spill *spill;
  bool spilled;                /* the text's start is in the spill file... */
  uint64_t spill_at, spill_len; /* ...at spill_at, spill_len bytes so far */
  /* Optional (the caller's): bytes written to the spill file are hashed
   * into it on their way out, so a spilled text's MD5 needs no second
   * read. Meaningless for a text that ends in memory. */
  struct wp_md5 *md5;
  /* Optional: told after each piece reaches the spill file that the
   * text's first LEN bytes are in FD at AT (wp_spill_hash_note). */
  void (*on_spill)(void *user, int fd, uint64_t at, uint64_t len);
  void *on_spill_user;
} wp_jsonw;

/* Ends a text: its whole size in *SIZE, and 1 when it lives in the spill
 * file at spill_at (p is then free), 0 when it is p[0, len); -1 when out
 * of memory or a spill write failed. */
int wp_jsonw_finish(wp_jsonw *w, uint64_t *size);

void wp_jsonw_raw(wp_jsonw *w, const char *s, size_t n);
void wp_jsonw_lit(wp_jsonw *w, const char *s); /* raw text, NUL-terminated */
/* A quoted, escaped string. Bytes that are not UTF-8 become U+FFFD (jansson
 * refuses such a string; a record here keeps its field). */
void wp_jsonw_str(wp_jsonw *w, const char *s);
/* Are S's N bytes UTF-8 as JSON takes it (jansson's rules)? */
bool wp_utf8_valid(const char *s, size_t n);
void wp_jsonw_int(wp_jsonw *w, long long v);
void wp_jsonw_bool(wp_jsonw *w, bool v);
void wp_jsonw_int_list(wp_jsonw *w, const int64_t *v, size_t n); /* [1, 2] */

/* Object members: wp_jsonw_key writes the separator (none before the
 * first), the quoted key (plain ASCII) and ": ". */
void wp_jsonw_key(wp_jsonw *w, bool first, const char *key);
/* ", KEY: V" (wp_jsonw_key not first, then the value). */
void wp_jsonw_int_field(wp_jsonw *w, const char *key, long long v);
void wp_jsonw_str_field(wp_jsonw *w, const char *key, const char *v);

/* DEPTH spaces (up to 32). */
void wp_jsonw_indent(wp_jsonw *w, int depth);

/* J (jansson) with its levels down to EXPAND one item per line, indented
 * from DEPTH, and everything deeper on its item's line. */
struct json_t;
void wp_jsonw_json_lines(wp_jsonw *w, const struct json_t *j, int depth, int expand);

#endif
