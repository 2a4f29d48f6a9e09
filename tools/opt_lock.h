/* opt's hold on the artifact directories a run writes: concurrent runs
 * sharing one would rename and remove each other's files (dedup-consts
 * turns NAME.bin into its MD5 name), so each run holds an exclusive
 * flock(2) on the directory itself (no lock file is left behind) from
 * before the first pass until it exits. */
#ifndef OPT_LOCK_H
#define OPT_LOCK_H

#include "opt_config.h"
#include "wp_placed.h"

#include <stdbool.h>

typedef struct opt_dir_locks {
  int fds[MAX_PASSES + 1];
  size_t n_fds;
  char *made[MAX_PASSES + 1]; /* directories this run created */
  size_t n_made;
} opt_dir_locks;

/* The run's set of placed files, which the functions below watch and take
 * back (set once, before opt_lock_artifact_dirs). */
void opt_lock_use_placed(wp_placed_set *placed);

/* Creates (one level, as copy-const-artifacts would) and locks the
 * artifact directories the run's passes write (opt_written_artifact_dirs);
 * waits for another run holding one, saying so on stderr. A directory it
 * creates is watched (wp_placed_watch_dir). 0, or EXIT_BAD_INPUT after an
 * error line for one that is no directory or cannot be made or opened
 * (then nothing is locked; opt_unlock_artifact_dirs still undoes what was
 * made). */
int opt_lock_artifact_dirs(const opt_config *cfg, opt_dir_locks *locks);

/* Releases LOCKS; when the run FAILED, first takes back the files it
 * placed in the directories it made (wp_placed.h) and removes those
 * directories when that leaves them empty. Files placed in a directory
 * that was there before stay. */
void opt_unlock_artifact_dirs(opt_dir_locks *locks, bool failed);

/* The same take-back for a run killed by a signal, while LOCKS are held:
 * async-signal-safe. */
void opt_lock_remove_made_from_signal(void);

#endif
