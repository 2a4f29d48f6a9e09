#include "wp_modelw.h"

#include "wp_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct wp_modelw {
  char *shown;   /* DIR as given, for messages */
  char *target;  /* the path renamed to: DIR, or where its link leads */
  char *tmp;     /* the temporary directory */
  bool existing; /* DIR is an empty directory the rename replaces */
  mode_t mode;   /* its permission bits */
};

static void free_writer(wp_modelw *w) {
  free(w->shown);
  free(w->target);
  free(w->tmp);
  free(w);
}

/* The first entry of directory PATH other than . and .. (NAME, CAP bytes):
 * 1 when there is one, 0 when empty, -1 with errno. */
static int first_entry(const char *path, char *name, size_t cap) {
  DIR *d = opendir(path);
  if (!d)
    return -1;
  int found = 0;
  struct dirent *e;
  errno = 0;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    snprintf(name, cap, "%s", e->d_name);
    found = 1;
    break;
  }
  int saved = errno;
  closedir(d);
  if (!found && saved) {
    errno = saved;
    return -1;
  }
  return found;
}

/* A new directory beside TARGET, named after it; its path (caller frees),
 * or NULL with errno. */
static char *make_temp_dir(const char *target) {
  char *parent = wp_path_dir(target);
  if (!parent)
    return NULL;
  const char *slash = strrchr(target, '/');
  const char *base = slash ? slash + 1 : target;
  size_t n = strlen(parent) + strlen(base) + 40;
  char *tmp = wp_xmalloc(n);
  unsigned long seed = (unsigned long)getpid() * 2654435761ul ^ (unsigned long)time(NULL);
  for (int attempt = 0; attempt < 1000; attempt++) {
    seed = seed * 6364136223846793005ul + 1442695040888963407ul;
    snprintf(tmp, n, "%s/.%.100s.outline-%06lx", parent, base, (seed >> 20) & 0xfffffful);
    if (mkdir(tmp, 0777) == 0) {
      free(parent);
      return tmp;
    }
    if (errno != EEXIST)
      break;
  }
  int saved = errno;
  free(parent);
  free(tmp);
  errno = saved;
  return NULL;
}

int wp_modelw_begin(const char *dir, wp_modelw **out, wp_error *err) {
  *out = NULL;
  if (!dir || !dir[0])
    return wp_error_set(err, "an empty model directory name");
  wp_modelw *w = wp_xcalloc(1, sizeof *w);
  w->shown = wp_xstrdup(dir);
  struct stat st;
  char entry[NAME_MAX + 1];
  if (lstat(dir, &st) == 0) {
    w->target = realpath(dir, NULL);
    if (!w->target) {
      wp_error_errno(err, errno, "%s", dir);
      goto fail;
    }
    if (stat(w->target, &st) != 0) {
      wp_error_errno(err, errno, "%s", dir);
      goto fail;
    }
    if (!S_ISDIR(st.st_mode)) {
      wp_error_set(err, "%s: exists and is not a directory; give a new or empty directory "
                        "for the model", dir);
      goto fail;
    }
    int has = first_entry(w->target, entry, sizeof entry);
    if (has < 0) {
      wp_error_errno(err, errno, "%s", dir);
      goto fail;
    }
    if (has) {
      wp_error_set(err, "%s: is not empty (it holds '%s'); outline-weights writes a new "
                        "model directory and never replaces one: give a new or empty "
                        "directory", dir, entry);
      goto fail;
    }
    if (!strcmp(w->target, "/")) {
      wp_error_set(err, "%s: the root directory cannot be a model directory", dir);
      goto fail;
    }
    w->existing = true;
    w->mode = st.st_mode & 07777;
  } else if (errno == ENOENT) {
    w->target = wp_xstrdup(dir);
    size_t n = strlen(w->target);
    while (n > 1 && w->target[n - 1] == '/')
      w->target[--n] = 0;
    char *parent = wp_path_dir(w->target);
    if (!parent)
      wp_out_of_memory();
    int saved = stat(parent, &st) != 0 ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR : 0;
    if (saved)
      wp_error_errno(err, saved, "%s: its parent directory %s", dir, parent);
    free(parent);
    if (saved)
      goto fail;
  } else {
    wp_error_errno(err, errno, "%s", dir);
    goto fail;
  }
  if (!(w->tmp = make_temp_dir(w->target))) {
    wp_error_errno(err, errno, "%s: cannot make a temporary directory beside it", dir);
    goto fail;
  }
  *out = w;
  return 0;
fail:
  free_writer(w);
  return -1;
}

static int write_all(int fd, const void *data, uint64_t size) {
  const char *p = data;
  while (size) {
    size_t chunk = size > (1u << 30) ? (1u << 30) : (size_t)size;
    ssize_t n = write(fd, p, chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      if (n == 0)
        errno = EIO;
      return -1;
    }
    p += n;
    size -= (uint64_t)n;
  }
  return 0;
}

int wp_modelw_write(wp_modelw *w, const char *rel, const void *head, size_t head_len,
                    const void *data, uint64_t size, wp_error *err) {
  size_t n = strlen(w->tmp) + strlen(rel) + 2;
  char *path = wp_xmalloc(n);
  snprintf(path, n, "%s/%s", w->tmp, rel);
  char *slash = strchr(path + strlen(w->tmp) + 1, '/');
  if (slash) {
    *slash = 0;
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
      int saved = errno;
      free(path);
      return wp_error_errno(err, saved, "%s/%.*s", w->shown, (int)(strchr(rel, '/') - rel),
                            rel);
    }
    *slash = '/';
  }
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
  int rc = fd < 0 || write_all(fd, head, head_len) || write_all(fd, data, size) ? -1 : 0;
  int saved = errno;
  if (fd >= 0 && close(fd) != 0 && rc == 0) {
    rc = -1;
    saved = errno;
  }
  free(path);
  if (rc)
    return wp_error_errno(err, saved, "%s/%s", w->shown, rel);
  return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  remove(path);
  return 0;
}

void wp_modelw_abort(wp_modelw *w) {
  if (!w)
    return;
  if (w->tmp)
    nftw(w->tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS);
  free_writer(w);
}

int wp_modelw_commit(wp_modelw *w, wp_error *err) {
  int rc = 0;
  if (w->existing) {
    /* rename(2) replaces an empty directory, and only an empty one */
    if (chmod(w->tmp, w->mode) != 0 || rename(w->tmp, w->target) != 0) {
      int saved = errno;
      rc = saved == ENOTEMPTY || saved == EEXIST
               ? wp_error_set(err, "%s: files were put in it while the model was written; "
                                   "nothing was written", w->shown)
               : wp_error_errno(err, saved, "%s", w->shown);
    }
  } else if (renameat2(AT_FDCWD, w->tmp, AT_FDCWD, w->target, RENAME_NOREPLACE) != 0) {
    int saved = errno;
    struct stat st;
    if ((saved == EINVAL || saved == ENOSYS) && lstat(w->target, &st) != 0 && errno == ENOENT) {
      /* a file system without RENAME_NOREPLACE: checked just before */
      if (rename(w->tmp, w->target) == 0)
        saved = 0;
      else
        saved = errno;
    }
    if (saved == EEXIST || saved == ENOTEMPTY || saved == EINVAL)
      rc = wp_error_set(err, "%s: appeared while the model was written; nothing was written",
                        w->shown);
    else if (saved)
      rc = wp_error_errno(err, saved, "%s", w->shown);
  }
  if (rc) {
    wp_modelw_abort(w);
    return rc;
  }
  free_writer(w);
  return 0;
}

void wp_modelw_file_name(const char *name, size_t len, char *buf) {
  bool portable = len > 0 && len <= 160 && name[0] != '.' && name[0] != '-';
  for (size_t i = 0; i < len && portable; i++) {
    unsigned char c = (unsigned char)name[i];
    portable = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-' || c == '.';
  }
  if (portable) {
    memcpy(buf, name, len);
    buf[len] = 0;
    return;
  }
  if (len == 0) {
    snprintf(buf, WP_MODELW_NAME_MAX, "_");
    return;
  }
  size_t n = len > 160 ? 160 : len;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)name[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || ((c == '-' || c == '.') && i > 0);
    buf[i] = ok ? (char)c : '_';
  }
  uint32_t h = 2166136261u; /* FNV-1a: the same name gives the same file every run */
  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char)name[i]) * 16777619u;
  snprintf(buf + n, WP_MODELW_NAME_MAX - n, "-%08x", h);
}
