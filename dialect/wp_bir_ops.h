/* Helpers the BIR passes share: finding ops by name and where a constant
 * file's bytes are. */
#ifndef WP_BIR_OPS_H
#define WP_BIR_OPS_H

#include "wp_arena.h"
#include "wp_error.h"
#include "wp_i64map.h"
#include "wp_diag.h"
#include "wp_place.h"

#include <mlir-c/IR.h>
#include <stdbool.h>

/* The ops named by sym_name inside one BIR function, for lookups by name. */
typedef struct wp_bir_names {
  wp_i64map by_hash; /* hash(sym_name) -> index + 1, or 0 for a shared hash */
  MlirOperation *ops;
  size_t n;
} wp_bir_names;

/* Always 0 (out of memory aborts); free with wp_bir_names_free. */
int wp_bir_names_init(wp_bir_names *names, MlirOperation func, const char *op_name);
void wp_bir_names_free(wp_bir_names *names);
MlirOperation wp_bir_names_find(const wp_bir_names *names, MlirStringRef name);
/* Its index in names->ops, or -1. */
int64_t wp_bir_names_index(const wp_bir_names *names, MlirStringRef name);

/* The next func.func marked bir.function after PREV (null: the first). */
MlirOperation wp_bir_next_function(MlirOperation module, MlirOperation prev);

/* Where const file CF's bytes are: a .npy region, an HLO constant's value
 * (found in MODULE's HLO program), its own data, or (assembled) the values
 * of the tensors placed in it, each at its const_ap_offset. CF is checked
 * BIR (wp_bir_check_module): its one source is not judged again. Memory is
 * borrowed from the IR or ARENA. READ_BACK (BIR read from a file, not
 * lowered in this run): a .npy region must still be the file's payload. */
int wp_bir_const_file_source(MlirOperation module, MlirOperation cf, bool read_back,
                             wp_arena *arena, wp_place_src *src, wp_error *err);


/* String attribute NAME of OP as a NUL-terminated arena string ("" if absent). */
char *wp_bir_str(wp_arena *arena, MlirOperation op, const char *name);

#endif
