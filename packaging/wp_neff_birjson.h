/* bir.json, the BIR module as the NEFF shows it. */
#ifndef WP_NEFF_BIRJSON_H
#define WP_NEFF_BIRJSON_H

#include "wp_bir.h"
#include "wp_jsonw.h"

/* Each function's memory locations by set, as linked lists: FIRST[f][k]
 * is set K's first location, NEXT[f][j] the one after location J
 * (SIZE_MAX ends a list). Built apart from the text so that the text can
 * be written on another thread while its index's scratch memory is
 * reused. Caller frees with wp_neff_bir_index_free. */
typedef struct wp_neff_bir_index {
  size_t n;
  size_t **first, **next;
} wp_neff_bir_index;
int wp_neff_bir_index_build(const Wp__Bir__Module *m, wp_neff_bir_index *out);
void wp_neff_bir_index_free(wp_neff_bir_index *ix);

/* Writes M to W, one tensor per line, from IX (M's index; NULL builds
 * one); -1 when out of memory. */
int wp_neff_bir_json_lines(wp_jsonw *w, const Wp__Bir__Module *m, const wp_neff_bir_index *ix);

#endif
