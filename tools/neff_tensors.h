/* neff: the logical tensors of a package (its def.json pointer
 * variables), listed, and written out one at a time as .npy files. */
#ifndef NEFF_TENSORS_H
#define NEFF_TENSORS_H

#include "neff_members.h"
#include "wp_neff_vars.h"
#include "wp_npy.h"

#include <stdbool.h>

/* The variables of every function C holds (read with keep_json and
 * keep_defs), the def.json members named by neff.json's graphs (or, without
 * neff.json, by every kelf-N.json). Each tensor's member must be in the
 * package and hold its bytes. 0, or 1 after an error line naming PATH. A
 * package that names no graph has no tensors: an error only with NEED. */
int neff_tensors_load(neff_collect *c, const char *path, wp_neff_vars *v, bool need);

/* The tensor NAME: the first of that name in def.json order, else
 * "FOLDER/NAME" for a function's own. -1 when there is none. */
long neff_tensor_find(const wp_neff_vars *v, const char *name);

/* For each tensor, the first tensor (in def.json order) at the same
 * member, offset and size: itself, or the tensor it is tied to. Caller
 * frees. */
size_t *neff_tensor_ties(const wp_neff_vars *v);

/* The .npy header for T's bytes into BUF (WP_NPY_MAX_HEADER bytes): typed
 * as support's writer types a NEFF member (float8 '|V1', bfloat16 '<V2'),
 * or a flat uint8 array when the dtype and shape do not give its size.
 * Its length; INFO describes it. */
size_t neff_tensor_npy(const wp_neff_tensor *t, char *buf, wp_npy_info *info);

/* ls --tensors [--json]. */
int neff_ls_tensors(wp_neff_reader *r, const char *path, bool json);

/* cat F NAME [-o OUT]: the member NAME's bytes, else the tensor NAME as
 * .npy; to OUT (all or nothing) or standard output. MAX_SIZE as given to
 * the first reader, for the second pass a tensor takes. */
int neff_cat(wp_neff_reader *r, const char *path, const char *name, const char *out,
             uint64_t max_size);

/* A name as a terminal shows it (control bytes as \xNN) on standard output. */
void neff_print_name(const char *name);

#endif
