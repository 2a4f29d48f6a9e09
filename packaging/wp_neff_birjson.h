/* bir.json, the BIR module as the NEFF shows it. */
#ifndef WP_NEFF_BIRJSON_H
#define WP_NEFF_BIRJSON_H

#include "wp_bir.h"
#include "wp_jsonw.h"

/* Writes M to W, one tensor per line; -1 when out of memory. */
int wp_neff_bir_json_lines(wp_jsonw *w, const Wp__Bir__Module *m);

#endif
