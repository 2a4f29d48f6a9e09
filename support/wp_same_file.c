#include "wp_same_file.h"

#include "wp_error.h"
#include "wp_strmap.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>

/* Below this many names a directory is not worth listing. */
enum { LIST_FROM = 16 };

bool wp_same_file(const char *path, const struct stat *st) {
  struct stat o;
  return stat(path, &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino;
}

/* File systems whose readdir d_ino is the st_ino of the entry (overlayfs,
 * network and FUSE file systems need not be). */
static bool entries_carry_inodes(long type) {
  switch ((unsigned long)type) {
  case 0xEF53UL:     /* ext2/3/4 */
  case 0x58465342UL: /* XFS */
  case 0x9123683EUL: /* Btrfs */
  case 0x01021994UL: /* tmpfs */
    return true;
  default:
    return false;
  }
}

/* The names in directory DIR that could be the file ST describes, in
 * *SUSPECTS (keys owned by *NAMES, which the caller frees with each
 * entry). false when DIR cannot be listed this way: check each path. */
static bool list_suspects(const char *dir, const struct stat *st, wp_strmap *suspects,
                          char ***names, size_t *n_names) {
  DIR *d = opendir(dir);
  if (!d)
    return false;
  struct statfs fs;
  struct stat ds;
  if (fstatfs(dirfd(d), &fs) != 0 || !entries_carry_inodes((long)fs.f_type) ||
      fstat(dirfd(d), &ds) != 0) {
    closedir(d);
    return false;
  }
  size_t cap = 0;
  for (struct dirent *e; (e = readdir(d));) {
    bool maybe = e->d_type == DT_LNK || e->d_type == DT_UNKNOWN ||
                 (e->d_type == DT_REG && e->d_ino == st->st_ino && ds.st_dev == st->st_dev);
    if (!maybe)
      continue;
    if (*n_names == cap) {
      cap = cap ? 2 * cap : 8;
      *names = wp_xrealloc(*names, cap * sizeof **names);
    }
    char *name = wp_xstrdup(e->d_name);
    (*names)[(*n_names)++] = name;
    wp_strmap_put(suspects, name, strlen(name), 1);
  }
  closedir(d);
  return true;
}

/* Where the directory part of PATH ends (the last '/'), or -1. */
static long dir_end(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? (long)(slash - path) : -1;
}

/* The lowest index of group G (indices AT[0..N), all with the directory
 * part DIR_LEN of PATHS[AT[0]]) that is ST's file, or -1. */
static long match_group(const char *const *paths, const size_t *at, size_t n, size_t dir_len,
                        const struct stat *st) {
  wp_strmap suspects;
  wp_strmap_init(&suspects);
  char **names = NULL;
  size_t n_names = 0;
  char *dir = wp_xmalloc(dir_len + 2);
  memcpy(dir, dir_len ? paths[at[0]] : "/", dir_len ? dir_len : 1);
  dir[dir_len ? dir_len : 1] = 0;
  bool listed = n >= LIST_FROM && list_suspects(dir, st, &suspects, &names, &n_names);
  long found = -1;
  for (size_t i = 0; i < n && found < 0; i++) {
    const char *base = paths[at[i]] + dir_len + 1;
    if (listed && base[0] && strcmp(base, ".") && strcmp(base, "..") &&
        !wp_strmap_get(&suspects, base, strlen(base), NULL))
      continue; /* not there, or another file */
    if (wp_same_file(paths[at[i]], st))
      found = (long)at[i];
  }
  for (size_t i = 0; i < n_names; i++)
    free(names[i]);
  free(names);
  free(dir);
  wp_strmap_free(&suspects);
  return found;
}

long wp_same_file_among(const char *const *paths, size_t n, const struct stat *st) {
  /* groups: each directory's indices, in order, one list after another */
  wp_strmap group_of;
  wp_strmap_init(&group_of);
  size_t *count = wp_xcalloc(n + 1, sizeof *count), n_groups = 0;
  size_t *group = wp_xcalloc(n + 1, sizeof *group);
  long found = -1;
  for (size_t i = 0; i < n; i++) {
    long end = dir_end(paths[i]);
    int64_t g;
    if (end < 0) { /* no directory part: alone */
      if (wp_same_file(paths[i], st) && found < 0)
        found = (long)i;
      group[i] = SIZE_MAX;
      continue;
    }
    if (!wp_strmap_get(&group_of, paths[i], (size_t)end, &g)) {
      g = (int64_t)n_groups++;
      wp_strmap_put(&group_of, paths[i], (size_t)end, g);
    }
    group[i] = (size_t)g;
    count[g]++;
  }
  size_t *start = wp_xcalloc(n_groups + 1, sizeof *start), *at = wp_xcalloc(n + 1, sizeof *at);
  for (size_t g = 1; g <= n_groups; g++)
    start[g] = start[g - 1] + count[g - 1];
  memset(count, 0, (n + 1) * sizeof *count);
  for (size_t i = 0; i < n; i++)
    if (group[i] != SIZE_MAX)
      at[start[group[i]] + count[group[i]]++] = i;
  for (size_t g = 0; g < n_groups; g++) {
    const size_t *members = at + start[g];
    long m = match_group(paths, members, count[g], (size_t)dir_end(paths[members[0]]), st);
    if (m >= 0 && (found < 0 || m < found))
      found = m;
  }
  free(at);
  free(start);
  free(group);
  free(count);
  wp_strmap_free(&group_of);
  return found;
}
