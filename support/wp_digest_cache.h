/* The digest cache: the MD5 of a file's bytes (a region of it, after a
 * given prefix) remembered across runs, trusted while the file's identity
 * is unchanged, the way git's index trusts a file's stat data
 * (docs/build-systems.md, "The digest cache").
 *
 * Identity: device, inode, size, modification and change times in
 * nanoseconds. Racy entries (git's rule): an entry whose file was
 * modified in the same second as the cache file was written, or later, is
 * not trusted: a rewrite within the timestamp granularity could leave the
 * identity as it was. Such a file is hashed again (and trusted once a
 * later write of the cache is a second past it). An entry racy for the
 * file it was read from is left out when the cache is written again (git
 * smudges it), so a later write's time never makes it look trusted.
 *
 * Storage: one text file, DIR/digests, rewritten whole (a temporary
 * beside it, renamed) under an exclusive flock(2) on DIR, merged with what
 * another run wrote meanwhile: runs sharing a cache never see a torn file
 * and keep each other's entries. A damaged file is ignored with a warning
 * (and rewritten). A DIR or file writable by another user is refused: an
 * entry there would decide what goes into a NEFF. */
#ifndef WP_DIGEST_CACHE_H
#define WP_DIGEST_CACHE_H

#include "wp_error.h"
#include "wp_md5.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wp_digest_cache wp_digest_cache;

/* What a lookup found out about a file: its identity then, which a later
 * wp_digest_cache_put must see unchanged to store the MD5. */
typedef struct wp_digest_id {
  uint64_t dev, ino, size;
  int64_t mtime_ns, ctime_ns;
  bool valid; /* the file could be looked at */
} wp_digest_id;

typedef enum wp_digest_result {
  WP_DIGEST_HIT,   /* known: the MD5 is given */
  WP_DIGEST_MISS,  /* not known, or the file changed since */
  WP_DIGEST_RACY,  /* known, but changed too close to the cache's write */
} wp_digest_result;

/* Opens the cache in DIR, made (one level, 0755) when missing. NULL with
 * ERR when DIR cannot be one or is writable by another user. *WARNING
 * (WARNING_SIZE bytes) gets a message when the file was damaged and is
 * ignored ("" otherwise). The caller closes it. */
wp_digest_cache *wp_digest_cache_open(const char *dir, char *warning, size_t warning_size,
                                      wp_error *err);
void wp_digest_cache_close(wp_digest_cache *c);

/* The MD5 of the bytes of PATH at [OFFSET, OFFSET + LENGTH) after a
 * prefix whose MD5 is PREFIX_MD5 ("" for none). *ID gets the file's
 * identity now. Thread-safe. */
wp_digest_result wp_digest_cache_get(wp_digest_cache *c, const char *path, uint64_t offset,
                                     uint64_t length, const char *prefix_md5, wp_digest_id *id,
                                     char out[WP_MD5_HEX]);

/* Remembers MD5 for that region, when PATH still has identity ID (a file
 * that changed while hashed is not remembered). Thread-safe. */
void wp_digest_cache_put(wp_digest_cache *c, const char *path, uint64_t offset, uint64_t length,
                         const char *prefix_md5, const wp_digest_id *id, const char *md5);

/* Writes what was put since opening, merged with the file as it is now.
 * 0, or -1 with ERR (the cache is as before). */
int wp_digest_cache_save(wp_digest_cache *c, wp_error *err);

/* Counts for a report: hits, misses, racy entries. */
void wp_digest_cache_counts(const wp_digest_cache *c, size_t *hits, size_t *misses,
                            size_t *racy);

#endif
