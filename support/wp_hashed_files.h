/* Which artifact files this run hashed, and whether each is still the
 * file it hashed. copy-const-artifacts hashes a file as it copies it and
 * records the MD5 on the IR; dedup-consts may reuse that MD5 (no second
 * read) only when this run computed it and the file has not changed
 * since. An MD5 that came with IR read from a file, or a file rewritten
 * after it was hashed, is hashed again. */
#ifndef WP_HASHED_FILES_H
#define WP_HASHED_FILES_H

#include <stdbool.h>

/* One run's memo (owned by the run object); every function takes a NULL
 * set as "nothing noted". */
typedef struct wp_hashed_set wp_hashed_set;

/* An empty memo; caller destroys. */
wp_hashed_set *wp_hashed_set_create(void);
void wp_hashed_set_destroy(wp_hashed_set *s);

/* PATH (any name of it) was just written and hashed to MD5 (32 hex
 * digits) by this run. */
void wp_hashed_note(wp_hashed_set *s, const char *path, const char *md5);

/* Did this run hash PATH to MD5, and is it still that file, unchanged
 * (device, inode, size, modification and change times)? */
bool wp_hashed_still(wp_hashed_set *s, const char *path, const char *md5);

/* The files whose bytes dedup-consts hashes, for neff-pack, which packs
 * them later in the run under those MD5s without hashing them again:
 * PATH (as the IR names it) is about to be hashed; its state now (device,
 * inode, size, modification and change times) is what the MD5s describe
 * (noted again by a later run: its state then). */
void wp_hashed_source_note(wp_hashed_set *s, const char *path);

/* Has PATH changed (or gone) since wp_hashed_source_note? False for a path
 * never noted. */
bool wp_hashed_source_changed(wp_hashed_set *s, const char *path);

#endif
