/* The files one run placed in artifact directories (a set per run, owned
 * by the run object). wp_place_file and wp_place_alias note each name they
 * create (not one whose bytes were there already), for two decisions:
 *
 *  - dedup-consts removes a duplicate only when this run placed it: one
 *    an earlier run placed may be named by an IR file written then, and
 *    packing that IR again must still find it;
 *  - a failed or interrupted run takes back what it placed in a directory
 *    it created (wp_placed_watch_dir), so that the directory can go too.
 *
 * A file is known by its name and its device and inode, so a hard link
 * this run made to an earlier run's file is its own entry, and the
 * earlier file stays the earlier run's. Every function takes a NULL set
 * as "note nothing, know nothing". */
#ifndef WP_PLACED_H
#define WP_PLACED_H

#include <stdbool.h>
#include <sys/stat.h>

typedef struct wp_placed_set wp_placed_set;

/* An empty set; caller destroys (wp_placed_set_destroy). */
wp_placed_set *wp_placed_set_create(void);
void wp_placed_set_destroy(wp_placed_set *s);

/* PATH (DIR/NAME) was just created by this run; ST describes it. -1
 * when out of memory: the caller removes the file (a failed run could not
 * take it back), then aborts (wp_out_of_memory). */
int wp_placed_note(wp_placed_set *s, const char *path, const struct stat *st);

/* Did this run create PATH, and is it still that file (same name,
 * device and inode)? */
bool wp_placed_here(wp_placed_set *s, const char *path);

/* Files this run placed in DIR are taken back by wp_placed_take_back.
 * -1 (errno set) when DIR cannot be looked at or too many are watched. */
int wp_placed_watch_dir(wp_placed_set *s, const char *dir);

/* Removes every file this run placed in a watched directory that is
 * still the file it placed. Async-signal-safe: a signal handler calls it. */
void wp_placed_take_back(wp_placed_set *s);

#endif
