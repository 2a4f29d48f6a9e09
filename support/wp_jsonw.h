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

/* Zero-initialize; the caller frees p. Once out of memory, oom stays set
 * and nothing more is appended. */
typedef struct wp_jsonw {
  char *p;
  size_t len, cap;
  bool oom;
} wp_jsonw;

void wp_jsonw_raw(wp_jsonw *w, const char *s, size_t n);
void wp_jsonw_lit(wp_jsonw *w, const char *s); /* raw text, NUL-terminated */
/* A quoted, escaped string. Bytes that are not UTF-8 become U+FFFD (jansson
 * refuses such a string; a record here keeps its field). */
void wp_jsonw_str(wp_jsonw *w, const char *s);
void wp_jsonw_int(wp_jsonw *w, long long v);
void wp_jsonw_bool(wp_jsonw *w, bool v);
void wp_jsonw_int_list(wp_jsonw *w, const int64_t *v, size_t n); /* [1, 2] */

/* Object members: wp_jsonw_key writes the separator (none before the
 * first), the quoted key (plain ASCII) and ": ". */
void wp_jsonw_key(wp_jsonw *w, bool first, const char *key);

#endif
