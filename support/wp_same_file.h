/* Is an output one of many input files? One directory listing per
 * directory instead of one stat per file: a model's 100,000 weights lie in
 * a few directories, and a stat each cost a tenth of a run. */
#ifndef WP_SAME_FILE_H
#define WP_SAME_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* Is PATH the file ST describes (same device and inode, through links)? */
bool wp_same_file(const char *path, const struct stat *st);

/* The lowest index i with PATHS[i] the file ST describes (as
 * wp_same_file), or -1 when none is. Paths are grouped by directory; a
 * large group on a file system whose directory entries carry the inode
 * numbers stat reports (ext4, XFS, Btrfs, tmpfs) is matched by reading
 * the directory once, with a stat only for a name that could be the file
 * (its inode, a symbolic link, an entry of unknown type); anything else is
 * stat'ed path by path. Not seen: a file bind-mounted over an input's
 * name (the directory lists the file beneath it). */
long wp_same_file_among(const char *const *paths, size_t n, const struct stat *st);

#endif
