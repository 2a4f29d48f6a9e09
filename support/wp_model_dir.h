/* The model directory contract (README "Model directory"):
 *
 *   model_dir/metadata.json   {"model_files": ..., "weight_files": ...}
 *   model_dir/<model file>    HloModuleProto, HloProto or HLO text
 *   model_dir/<weights>.npy
 *
 * Paths in metadata.json are relative to the directory and must stay inside
 * it (no absolute paths, no escaping "..", no symbolic links leading out). */
#ifndef WP_MODEL_DIR_H
#define WP_MODEL_DIR_H

#include "wp_error.h"

#include <limits.h>

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

/* A weight's strings live in its wp_model_dir's strings block. Three words
 * (a model directory can list 100,000 weights and lives as long as the
 * run): a key's number has at most 18 digits, so 63 bits hold it. */
typedef struct wp_weight_ref {
  char *param_name; /* set when keyed by instruction name */
  int64_t param_number : 63; /* >= 0 when keyed by number (object key or list index) */
  bool number_is_key : 1;    /* the number was an object key, which a parameter
                                may also have as its name */
  char *rel_path;   /* as written in metadata.json */
} wp_weight_ref;

/* Owns every string, the weights array and the block that holds the
 * weights' strings (one allocation for all: a model directory can list
 * 100,000 weights and lives as long as the run); wp_model_dir_free frees
 * them. */
typedef struct wp_model_dir {
  char *dir;        /* as given */
  char *model_path; /* dir + first model file, a regular file; NULL only from
                       wp_model_dir_load_weights, when there is no module */
  size_t n_weights;
  wp_weight_ref *weights;
  char *strings;    /* the weights' param_name and rel_path, end to end */
} wp_model_dir;

/* Reads DIR/metadata.json of a directory opened as the input (opt DIR,
 * wpOpenModelDir): "model_files" must name the module, a regular file.
 * Errors start with the directory or file name. On success *OUT is the
 * caller's (wp_model_dir_free); on failure it is left empty. */
int wp_model_dir_load(const char *dir, wp_model_dir *out, wp_error *err);
/* The same for the weights of a module that came from elsewhere
 * (inline-weights' model-dir=): "model_files" may be missing or name
 * nothing there (model_path NULL); when present it must still be a path,
 * or a list of paths, inside DIR. */
int wp_model_dir_load_weights(const char *dir, wp_model_dir *out, wp_error *err);
void wp_model_dir_free(wp_model_dir *md);
/* MD without its weights (dir and model_path kept): wp_model_dir_free
 * still frees the rest. */
void wp_model_dir_drop_weights(wp_model_dir *md);

/* Joins DIR and REL after checking REL stays inside DIR (also through
 * symbolic links). *out is malloc'd; caller frees. MISSING_OK: a path that
 * does not exist is returned rather than refused. */
int wp_model_dir_resolve(const char *dir, const char *rel, int missing_ok, char **out,
                         wp_error *err);

/* What wp_model_dir_resolve_cached remembers between calls: the real path
 * of the directory and of the last parent directory resolved. Zero it
 * before the first call; it owns nothing. */
typedef struct wp_resolve_cache {
  char dir[PATH_MAX], real_dir[PATH_MAX];
  char parent[PATH_MAX], real_parent[PATH_MAX];
} wp_resolve_cache;

/* The path wp_model_dir_resolve_cached would give REL, without a system
 * call when REL's directory was resolved before, assuming REL itself is a
 * plain file, not a link: the caller must open it with O_NOFOLLOW (see
 * WP_FILE_NO_LINK) and, when that fails, ask wp_model_dir_resolve_cached,
 * which also gives the error. -1 (no error set) when it cannot tell. */
int wp_model_dir_resolve_unchecked(wp_resolve_cache *cache, const char *dir, const char *rel,
                                   char **out);

/* wp_model_dir_resolve for many paths under one directory: a plain file
 * costs one lstat instead of a realpath walk; symbolic links and odd names
 * still get the full walk. */
int wp_model_dir_resolve_cached(wp_resolve_cache *cache, const char *dir, const char *rel,
                                int missing_ok, char **out, wp_error *err);

#endif
