/* Depfiles: the files a run read, as Make and Ninja read a dependency
 * list ("TARGET...: PREREQ..."), so a build system rebuilds a NEFF when,
 * and only when, one of them changes (docs/build-systems.md).
 *
 * wp_depfile_paths is the record: paths in the order first noted, each
 * spelling once. The run object owns one (wp_run.reads); the code that
 * reads a file notes it there. What a depfile lists is that record
 * resolved (wp_depfile_paths_resolve): absolute (the working directory
 * in front of a relative path, "." components dropped, ".." and links
 * kept as the run named them), each once, a symbolic link's target after
 * it. */
#ifndef WP_DEPFILE_H
#define WP_DEPFILE_H

#include "wp_error.h"

#include <stddef.h>
#include <stdio.h>

typedef struct wp_depfile_paths wp_depfile_paths;

/* An empty record; the caller destroys it (NULL is fine). */
wp_depfile_paths *wp_depfile_paths_create(void);
void wp_depfile_paths_destroy(wp_depfile_paths *p);

/* Notes PATH (copied) unless noted before. Thread-safe: a pass may note
 * files from its worker threads. */
void wp_depfile_paths_add(wp_depfile_paths *p, const char *path);

/* P resolved as a depfile lists it (above), in a new record the caller
 * destroys; relative paths are taken from the working directory now. */
wp_depfile_paths *wp_depfile_paths_resolve(const wp_depfile_paths *p);

/* The I-th path noted (borrowed, valid until P is destroyed); count. */
size_t wp_depfile_paths_count(const wp_depfile_paths *p);
const char *wp_depfile_paths_get(const wp_depfile_paths *p, size_t i);

/* Writes NAME escaped as Make and Ninja 1.10+ read a depfile's names:
 * "\ " for a space, "\#", "\:" and "$$". -1 (nothing written) with ERR
 * for a name no depfile can hold (a newline, a tab, a backslash before a
 * space, '#' or ':', or at the end). */
int wp_depfile_escape(FILE *out, const char *name, wp_error *err);

/* Writes the depfile FILE: TARGETS (N_TARGETS of them, at least one) as
 * the rule's targets, P's paths resolved as its prerequisites. Whole or not at all
 * (a temporary beside FILE, renamed into place); 0, or -1 with ERR naming
 * the file at fault, and FILE as it was. */
int wp_depfile_write(const char *file, const char *const *targets, size_t n_targets,
                     const wp_depfile_paths *p, wp_error *err);

#endif
