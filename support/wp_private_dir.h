/* A private temporary directory: made in TMPDIR (else /tmp) under a name
 * of its own kind, held by its owner with an exclusive flock(2) on the
 * directory for as long as it lives, and removed with what it holds by its
 * owner. One a killed owner left behind is removed by the next process
 * that makes one of the same kind: its lock is free once the owner is
 * gone, whatever the reason it ended. */
#ifndef WP_PRIVATE_DIR_H
#define WP_PRIVATE_DIR_H

#include "wp_error.h"

typedef struct wp_private_dir wp_private_dir;

/* Makes "$TMPDIR/PREFIX-XXXXXX" and locks it (caller destroys with
 * wp_private_dir_destroy). First removes every PREFIX-* directory of
 * TMPDIR whose lock is free and that is older than a few seconds (a
 * directory just made is not yet locked). NULL with ERR when TMPDIR takes
 * no new directory. */
wp_private_dir *wp_private_dir_create(const char *prefix, wp_error *err);

/* Its path (owned by D). */
const char *wp_private_dir_path(const wp_private_dir *d);

/* Removes the files in D (one level: the directory holds no others) and
 * D itself, releases the lock and frees D. NULL does nothing. */
void wp_private_dir_destroy(wp_private_dir *d);

/* Removes every private directory of this process that is empty once its
 * own lock-holding is ignored (its files go through wp_placed_take_back
 * first). Async-signal-safe: a signal handler calls it. */
void wp_private_dirs_remove_from_signal(void);

#endif
