/* A run's hold on the artifact directories it writes: two runs sharing
 * one would rename and remove each other's files (dedup-consts turns
 * NAME.bin into its MD5 name), so a run holds an exclusive flock(2) on
 * each directory itself (no lock file is left behind) from the first pass
 * that writes there until the run ends. */
#ifndef WP_DIR_LOCKS_H
#define WP_DIR_LOCKS_H

#include "wp_error.h"
#include "wp_placed.h"

#include <stdbool.h>

typedef struct wp_dir_locks wp_dir_locks;

/* An empty set for the run whose placed files are PLACED (borrowed: it
 * outlives the set). Caller destroys with wp_dir_locks_release. */
wp_dir_locks *wp_dir_locks_create(wp_placed_set *placed);

/* Called before waiting for another run that holds DIR. */
typedef void (*wp_dir_wait_fn)(void *user, const char *dir);

/* Makes DIR when missing (one level; *MADE says so; what this run places
 * in it is then taken back when the run fails) and locks it, once per
 * directory however spelled. Held by another run: with no other lock
 * held, calls ON_WAIT and waits; holding one, fails (two runs waiting for
 * each other's directories would wait forever). -1 with ERR when DIR is
 * no directory, cannot be made or opened, or is busy. */
int wp_dir_locks_add(wp_dir_locks *locks, const char *dir, bool *made, wp_dir_wait_fn on_wait,
                     void *user, wp_error *err);

/* Releases every lock and frees LOCKS (NULL does nothing). When the run
 * FAILED, first takes back the files it placed and removes the
 * directories it made when that empties them; WARN (may be NULL) is told
 * of one that stays. */
void wp_dir_locks_release(wp_dir_locks *locks, bool failed,
                          void (*warn)(void *user, const char *dir, int errnum), void *user);

/* The same take-back for a process killed by a signal while a set is
 * held: async-signal-safe. */
void wp_dir_locks_remove_made_from_signal(void);

#endif
