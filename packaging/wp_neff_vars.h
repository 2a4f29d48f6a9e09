/* Reading a NEFF's variables: each function's def.json (see
 * docs/neff-format.md), and the logical tensors its pointer variables
 * place in the constant members. What a reader needs to name a tensor's
 * bytes: the pointer's own "dtype", "shape" and "size", the member of the
 * file variable its "referenced_var_id" names, and the offset there, the
 * file's "data_offset" (its .npy header) plus the pointer's
 * "const_ap_offset" (or "backing_variable_off" when that is missing). No
 * alignment or layout is assumed beyond what the records say. */
#ifndef WP_NEFF_VARS_H
#define WP_NEFF_VARS_H

#include "wp_error.h"

#include <stddef.h>
#include <stdint.h>

struct json_t;

/* One variable record of a def.json. Strings are owned by the table. */
typedef struct wp_neff_var {
  const char *folder; /* the function's folder: "sg00" for "sg00/def.json" */
  const char *type;   /* "input", "output", "file", "pointer", ... ("" when missing) */
  const char *name;   /* "name", or a file variable's "file_name" ("" when missing) */
  struct json_t *rec; /* the record itself */
} wp_neff_var;

/* A logical tensor: one pointer variable. */
typedef struct wp_neff_tensor {
  const char *name, *dtype, *folder;
  int rank;
  const int64_t *shape;
  uint64_t size;    /* bytes */
  const char *member; /* "FOLDER/FILE_NAME": the member its file variable names */
  uint64_t offset;  /* of its first byte in that member */
  uint64_t file_size; /* the file variable's "size", the member's expected size */
  size_t var;       /* its record in the table */
} wp_neff_tensor;

/* Every function's variables, in def.json order (functions in the order
 * added). Zero-initialize. */
typedef struct wp_neff_vars {
  wp_neff_var *var;
  size_t n_var, cap_var;
  wp_neff_tensor *tensor;
  size_t n_tensor, cap_tensor;
  struct json_t **roots;
  size_t n_roots;
  char **owned;
  size_t n_owned;
} wp_neff_vars;

/* Adds the variables of the def.json member DEF_MEMBER ("sg00/def.json"),
 * whose text is TEXT[0, LEN). -1 with ERR (naming DEF_MEMBER and the
 * variable) when it is not JSON, a record lacks what a tensor needs, or a
 * pointer names no file variable or reaches past its file. */
int wp_neff_vars_add(wp_neff_vars *v, const char *def_member, const char *text, size_t len,
                     wp_error *err);
void wp_neff_vars_free(wp_neff_vars *v);

#endif
