#include "wp_file.h"

#include "wp_mapreg.h"
#include "wp_stop.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Slabs: bump-allocated, one current per thread; a slab goes when its
 * thread has moved on (or ended) and every file in it is unmapped. */
#define WP_SLAB_SIZE ((size_t)32 << 20)

typedef struct wp_slab {
  unsigned char *base;
  size_t used;
  int refs; /* atomic: files in it, plus one while it is a thread's current */
} wp_slab;

static pthread_key_t g_slab_key;
static pthread_once_t g_slab_once = PTHREAD_ONCE_INIT;
static bool g_slab_key_ok;

static void slab_release(wp_slab *s) {
  if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0) {
    munmap(s->base, WP_SLAB_SIZE);
    free(s);
  }
}

static void slab_thread_exit(void *s) { slab_release(s); }

static void slab_init(void) {
  g_slab_key_ok = pthread_key_create(&g_slab_key, slab_thread_exit) == 0;
}

/* SIZE bytes in the calling thread's slab (NULL: use the heap). */
static void *slab_alloc(size_t size, wp_slab **owner) {
  pthread_once(&g_slab_once, slab_init);
  size_t need = (size + 15) & ~(size_t)15;
  if (!g_slab_key_ok || need > WP_SLAB_SIZE / 64)
    return NULL;
  wp_slab *s = pthread_getspecific(g_slab_key);
  if (!s || s->used + need > WP_SLAB_SIZE) {
    wp_slab *n = malloc(sizeof *n);
    void *base = n ? mmap(NULL, WP_SLAB_SIZE, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                   : MAP_FAILED;
    if (base == MAP_FAILED) {
      free(n);
      return NULL;
    }
    madvise(base, WP_SLAB_SIZE, MADV_HUGEPAGE);
    *n = (wp_slab){base, 0, 1};
    if (pthread_setspecific(g_slab_key, n) != 0) {
      munmap(base, WP_SLAB_SIZE);
      free(n);
      return NULL;
    }
    if (s)
      slab_release(s);
    s = n;
  }
  void *p = s->base + s->used;
  s->used += need;
  __atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
  *owner = s;
  return p;
}

/* Memory for a view of SIZE read bytes: in the thread's slab when IN_SLAB
 * and it fits (*SLAB says which), else the heap; NULL when out of memory. */
static unsigned char *view_memory(size_t size, bool in_slab, wp_slab **slab) {
  *slab = NULL;
  unsigned char *buf = in_slab && size <= WP_FILE_READ_LIMIT ? slab_alloc(size, slab) : NULL;
  return buf ? buf : malloc(size ? size : 1);
}

static int read_whole(int fd, size_t size, bool in_slab, wp_mapped_file *out) {
  wp_slab *slab;
  unsigned char *buf = view_memory(size, in_slab, &slab);
  if (!buf)
    return -1;
  size_t done = 0;
  while (done < size) {
    ssize_t n = pread(fd, buf + done, size - done, (off_t)done);
    if (n <= 0) {
      if (n < 0 && errno == EINTR)
        continue;
      int e = n == 0 ? EIO : errno; /* EIO: the file shrank under us */
      if (slab)
        slab_release(slab);
      else
        free(buf);
      errno = e;
      return -1;
    }
    done += (size_t)n;
  }
  out->data = buf;
  out->size = size;
  out->heap = !slab;
  out->slab = slab;
  return 0;
}

int wp_file_view_copy(const void *bytes, size_t size, int flags, wp_mapped_file *out) {
  wp_slab *slab;
  unsigned char *buf = view_memory(size, flags & WP_FILE_SLAB, &slab);
  if (!buf)
    return -1;
  memcpy(buf, bytes, size);
  *out = (wp_mapped_file){buf, size, !slab, slab};
  return 0;
}

int wp_file_map(const char *path, wp_mapped_file *out, wp_error *err) {
  return wp_file_map_flags(path, 0, out, err);
}

int wp_file_map_flags(const char *path, int flags, wp_mapped_file *out, wp_error *err) {
  out->data = NULL;
  out->size = 0;
  out->heap = 0;
  out->slab = NULL;
  /* O_NONBLOCK: opening a FIFO must not wait for a writer. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
                          (flags & WP_FILE_NO_LINK ? O_NOFOLLOW : 0));
  if (fd < 0) {
    /* a socket cannot be opened at all (ENXIO): say what it is */
    struct stat st;
    if (errno == ENXIO && stat(path, &st) == 0 && !S_ISREG(st.st_mode))
      return wp_error_set(err, "%s: not a regular file", path);
    return wp_error_errno(err, errno, "%s", path);
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return wp_error_errno(err, e, "%s", path);
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    return wp_error_set(err, "%s: is a directory", path);
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return wp_error_set(err, "%s: not a regular file", path);
  }
  if (st.st_size > 0) {
    size_t size = (size_t)st.st_size;
    void *p = size <= WP_FILE_READ_LIMIT ? MAP_FAILED
                                         : mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED) {
      out->data = p;
      out->size = size;
      wp_mapreg_add(p, size, path); /* a SIGBUS there can name the file */
    } else if ((size <= WP_FILE_READ_LIMIT || errno == ENOMEM) &&
               read_whole(fd, size, flags & WP_FILE_SLAB, out) ==
                   0) {
      /* read instead */
    } else {
      int e = errno;
      close(fd);
      return wp_error_errno(err, e, "%s: cannot read", path);
    }
  } else {
    /* A size of 0 is not always empty: procfs and sysfs files say 0 and
     * have bytes to read. */
    wp_mapped_file r;
    if (wp_file_read_stream(fd, path, &r, err)) {
      close(fd);
      return -1;
    }
    if (r.size)
      *out = r;
    else
      free((void *)r.data);
  }
  close(fd);
  return 0;
}

int wp_file_read_stream(int fd, const char *label, wp_mapped_file *out, wp_error *err) {
  out->data = NULL;
  out->size = 0;
  out->heap = 1;
  out->slab = NULL;
  size_t cap = 1 << 16, size = 0;
  unsigned long long limit = wp_input_limit(); /* the stream decides its size */
  unsigned char *buf = wp_xmalloc(cap);
  for (;;) {
    if (size > limit) {
      free(buf);
      return wp_error_set(err, "%s: more than %llu bytes, the limit (RAM plus swap)", label,
                          limit);
    }
    if (size == cap) {
      /* a documented exception: within the limit, yet it may not fit */
      unsigned char *g = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
      if (!g) {
        free(buf);
        return wp_error_set(err, "%s: out of memory for %zu bytes", label, cap * 2);
      }
      buf = g;
      cap *= 2;
    }
    ssize_t n = read(fd, buf + size, cap - size);
    if (n == 0)
      break;
    if (n < 0) {
      if (errno == EINTR)
        continue;
      int e = errno;
      free(buf);
      return wp_error_errno(err, e, "%s", label);
    }
    size += (size_t)n;
  }
  out->data = buf;
  out->size = size;
  return 0;
}

void wp_file_slab_release(struct wp_slab *slab) {
  if (slab)
    slab_release(slab);
}

void wp_file_unmap(wp_mapped_file *file) {
  if (file->slab)
    slab_release(file->slab);
  else if (file->heap)
    free((void *)file->data);
  else if (file->data) {
    wp_mapreg_remove(file->data);
    munmap((void *)file->data, file->size);
  }
  file->heap = 0;
  file->slab = NULL;
  file->data = NULL;
  file->size = 0;
}

char *wp_path_dir(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
}

int wp_is_directory(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int wp_dir_ensure(const char *dir, bool *made, wp_error *err) {
  struct stat st;
  *made = false;
  if (stat(dir, &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return 0;
    return wp_error_set(err, "%s: the artifact directory is not a directory", dir);
  }
  int e = errno;
  /* the link itself: a trailing slash would have lstat follow it */
  char link[PATH_MAX], target[PATH_MAX];
  size_t len = strlen(dir);
  while (len > 1 && dir[len - 1] == '/')
    len--;
  if (len >= sizeof link)
    len = 0;
  memcpy(link, dir, len);
  link[len] = 0;
  ssize_t n;
  if (e == ENOENT && len && lstat(link, &st) == 0 && S_ISLNK(st.st_mode) &&
      (n = readlink(link, target, sizeof target - 1)) >= 0) {
    target[n] = 0;
    return wp_error_set(err, "%s: the artifact directory is a symbolic link to '%s', which "
                        "does not exist", dir, target);
  }
  if (e != ENOENT)
    return wp_error_errno(err, e, "%s: cannot use the artifact directory", dir);
  if (mkdir(dir, 0755) == 0) {
    *made = true;
    return 0;
  }
  e = errno;
  if (e == EEXIST && wp_is_directory(dir))
    return 0; /* another run made it just now */
  return wp_error_errno(err, e, "%s: cannot create the artifact directory", dir);
}

/* ---- all-or-nothing outputs ---- */

/* outputs, and the temporaries of up to 1024 placing threads */
#define WP_MAX_OPEN_OUTPUTS 1100

struct wp_output {
  FILE *stream;
  char *path;   /* where the file appears (a symlink's target) */
  char *tmp;    /* its temporary name; NULL for stdout and special files */
  bool anon;    /* the temporary has no name yet (O_TMPFILE) */
  bool direct;  /* a device or FIFO: written in place, nothing to rename */
  int slot;
};

/* Temporary names still on disk, for the signal handler. Slots are taken
 * and given back atomically (library users may write from several
 * threads); read with async-signal-safe calls only. */
static char *volatile g_open_tmps[WP_MAX_OPEN_OUTPUTS];

void wp_output_abort_all_from_signal(void) {
  for (int i = 0; i < WP_MAX_OPEN_OUTPUTS; i++) {
    char *t = g_open_tmps[i];
    if (t)
      unlink(t);
  }
}

static void remember_tmp(wp_output *out) { out->slot = wp_output_track(out->tmp); }

/* In a section: a signal handler that read the name from the list holds
 * this thread up before the name is freed. */
static void forget_tmp(wp_output *out) {
  wp_stop_section section;
  wp_stop_enter(&section);
  wp_output_untrack(out->slot);
  wp_stop_leave(&section);
  out->slot = -1;
}

static void free_output(wp_output *out) {
  free(out->path);
  free(out->tmp);
  free(out);
}

/* Where a dangling symlink PATH points (relative to the link's
 * directory), so the output creates that file as a shell's > would, and
 * keeps the link. NULL when it cannot be read. Caller frees. */
static char *dangling_target(const char *path) {
  char link[PATH_MAX];
  ssize_t n = readlink(path, link, sizeof link - 1);
  if (n <= 0)
    return NULL;
  link[n] = 0;
  const char *slash = strrchr(path, '/');
  size_t dirlen = link[0] == '/' || !slash ? 0 : (size_t)(slash - path) + 1;
  char *t = malloc(dirlen + (size_t)n + 1);
  if (t) {
    memcpy(t, path, dirlen);
    memcpy(t + dirlen, link, (size_t)n + 1);
  }
  return t;
}

/* The missing file a dangling chain of links ends at (a -> b -> c, c
 * missing: c), so that the file is created there and no link of the chain
 * is replaced. Caller frees; NULL when out of memory. stat() already
 * failed with ENOENT, so the chain is finite. */
static char *dangling_end(const char *path) {
  char *t = dangling_target(path);
  struct stat st;
  for (int hops = 0; t && hops < 64 && lstat(t, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
    char *next = dangling_target(t);
    free(t);
    t = next;
  }
  return t;
}

int wp_output_track(const char *tmp_path) {
  for (int i = 0; i < WP_MAX_OPEN_OUTPUTS; i++) {
    char *expected = NULL;
    if (__atomic_compare_exchange_n(&g_open_tmps[i], &expected, (char *)tmp_path, false,
                                    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
      return i;
  }
  return -1;
}

void wp_output_untrack(int slot) {
  if (slot >= 0)
    __atomic_store_n(&g_open_tmps[slot], NULL, __ATOMIC_SEQ_CST);
}

/* Removes OUT's named temporary (if any) and frees OUT; the stream is
 * closed already. */
static void wp_output_abort_named(wp_output *out) {
  if (out->tmp && !out->anon)
    unlink(out->tmp);
  forget_tmp(out);
  free_output(out);
}

/* A fresh name beside PATH: ".NAME.XXXXXX", or ".wp.XXXXXX" when NAME is
 * too long to take six more characters. Caller frees. */
static char *temp_name(const char *path) {
  const char *slash = strrchr(path, '/');
  const char *base = slash ? slash + 1 : path;
  int dirlen = (int)(base - path);
  size_t n = strlen(path) + 24;
  char *tmp = malloc(n);
  if (!tmp)
    return NULL;
  static unsigned long counter;
  unsigned long salt = __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED) * 2654435761ul ^
                       (unsigned long)getpid() * 40503ul ^ (unsigned long)(uintptr_t)tmp;
  char suffix[7];
  static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (int i = 0; i < 6; i++, salt /= 36)
    suffix[i] = digits[salt % 36];
  suffix[6] = 0;
  if (strlen(base) + 9 <= NAME_MAX)
    snprintf(tmp, n, "%.*s.%s.%s", dirlen, path, base, suffix);
  else
    snprintf(tmp, n, "%.*s.wp.%s", dirlen, path, suffix);
  return tmp;
}

int wp_temp_beside(const char *path, char **tmp) {
  *tmp = NULL;
  for (int tries = 0; tries < 100; tries++) {
    free(*tmp);
    if (!(*tmp = temp_name(path))) {
      errno = ENOMEM;
      return -1;
    }
    /* the kernel applies the umask to 0666, as for any file a tool makes */
    int fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) {
      if (fd < 0) {
        int e = errno;
        free(*tmp);
        *tmp = NULL;
        errno = e;
      }
      return fd;
    }
  }
  free(*tmp);
  *tmp = NULL;
  errno = EEXIST;
  return -1;
}

char *wp_output_path(const char *path) {
  struct stat st, link_st;
  bool exists = stat(path, &st) == 0; /* what the path names, through links */
  char *target = NULL;
  if (lstat(path, &link_st) == 0 && S_ISLNK(link_st.st_mode))
    target = !exists ? dangling_end(path)
             : S_ISREG(st.st_mode) ? realpath(path, NULL)
                                   : NULL;
  return target ? target : strdup(path);
}

char *wp_output_name_in(const char *path, const char *dir) {
  char *final = wp_output_path(path);
  char *where = final ? wp_path_dir(final) : NULL;
  struct stat st, a, b;
  char *name = NULL;
  if (where && !(stat(final, &st) == 0 && !S_ISREG(st.st_mode)) && stat(where, &a) == 0 &&
      stat(dir, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
    const char *slash = strrchr(final, '/');
    name = strdup(slash ? slash + 1 : final);
  }
  free(where);
  free(final);
  return name;
}

wp_output *wp_output_open(const char *path, wp_error *err) {
  wp_output *out = wp_xcalloc(1, sizeof *out);
  out->slot = -1;
  if (strcmp(path, "-") == 0) {
    out->stream = stdout;
    return out;
  }
  /* What is at PATH decides how it is written: a device or FIFO (such as
   * /dev/null) is written in place, never replaced by a file; through a
   * symlink the file it names is replaced, not the link. */
  struct stat st;
  bool exists = stat(path, &st) == 0; /* what the path names, through links */
  if (!exists && errno == ELOOP) {
    /* writing would replace one link of the loop with a file */
    free(out);
    wp_error_errno(err, ELOOP, "%s: cannot open output", path);
    return NULL;
  }
  int fd = -1;
  if (exists && S_ISDIR(st.st_mode)) {
    free(out);
    wp_error_set(err, "%s: is a directory", path);
    return NULL;
  }
  if (exists && !S_ISREG(st.st_mode)) {
    /* O_NONBLOCK: a FIFO nobody reads must fail now, not hang */
    fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
      if (errno == ENXIO)
        wp_error_set(err, "%s: a FIFO that nobody reads", path);
      else
        wp_error_errno(err, errno, "%s: cannot open output", path);
      free(out);
      return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    out->direct = true;
    out->path = strdup(path);
  } else {
    /* where the file lands, as the checks before any pass saw it */
    out->path = wp_output_path(path);
    if (!out->path)
      wp_out_of_memory();
    /* Unnamed until committed, so even a killed run leaves nothing; else
     * a named temporary that the signal handler removes. Either way the
     * kernel applies the umask to 0666: no process-wide umask change. */
    char *dir = wp_path_dir(out->path);
    /* the unnamed file is named at commit through /proc/self/fd: without
     * /proc (a chroot), a named temporary from the start */
    if (dir && access("/proc/self/fd", X_OK) == 0)
      fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    free(dir);
    out->anon = fd >= 0;
    wp_stop_section section;
    wp_stop_enter(&section);
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
      free(out->tmp);
      if (!(out->tmp = temp_name(out->path)))
        break;
      fd = open(out->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd < 0 && errno != EEXIST)
        break;
    }
    if (fd >= 0 && !out->anon)
      remember_tmp(out);
    wp_stop_leave(&section);
    if (fd < 0) {
      wp_error_errno(err, errno, "%s: cannot create output", path);
      free_output(out);
      return NULL;
    }
  }
  out->stream = fdopen(fd, "wb");
  if (!out->stream) {
    wp_error_errno(err, errno, "%s", path);
    close(fd);
    wp_output_abort_named(out);
    return NULL;
  }
  return out;
}

FILE *wp_output_stream(wp_output *out) { return out->stream; }

/* Gives the unnamed temporary of OUT a name beside its path. */
static int name_anon(wp_output *out) {
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fileno(out->stream));
  for (int tries = 0; tries < 100; tries++) {
    free(out->tmp);
    if (!(out->tmp = temp_name(out->path))) {
      errno = ENOMEM;
      return -1;
    }
    wp_stop_section section;
    wp_stop_enter(&section);
    bool named = linkat(AT_FDCWD, proc, AT_FDCWD, out->tmp, AT_SYMLINK_FOLLOW) == 0;
    int e = errno;
    if (named)
      remember_tmp(out);
    wp_stop_leave(&section);
    if (named)
      return 0;
    if (e != EEXIST)
      break;
  }
  free(out->tmp);
  out->tmp = NULL;
  return -1;
}

int wp_output_commit(wp_output *out, wp_error *err) {
  int rc = 0;
  if (!out->path || out->direct) {
    if (fflush(out->stream) != 0 || ferror(out->stream))
      rc = wp_error_errno(err, errno ? errno : EIO, "%s",
                          out->path ? out->path : "<stdout>");
    if (out->direct && fclose(out->stream) != 0 && rc == 0)
      rc = wp_error_errno(err, errno, "%s: write failed", out->path);
    free_output(out);
    return rc;
  }
  /* No fsync: like a compiler's output, the rename makes the file appear
   * whole or not at all to other processes; flushing hundreds of MiB to the
   * disk before going on would cost more than the rest of the packing. */
  if (fflush(out->stream) != 0 || ferror(out->stream))
    rc = wp_error_errno(err, errno ? errno : EIO, "%s: write failed", out->path);
  /* A file replaced keeps its permission bits (not set-id ones), as one
   * written over in place would; only one that was ours, with our group:
   * the new file is, and another group's bits would widen its access. */
  struct stat old;
  if (rc == 0 && stat(out->path, &old) == 0 && S_ISREG(old.st_mode) &&
      old.st_uid == geteuid() && old.st_gid == getegid())
    fchmod(fileno(out->stream), old.st_mode & 0777);
  if (rc == 0 && out->anon && name_anon(out) != 0)
    rc = wp_error_errno(err, errno, "%s: cannot create output", out->path);
  if (fclose(out->stream) != 0 && rc == 0)
    rc = wp_error_errno(err, errno, "%s: write failed", out->path);
  if (rc == 0 && rename(out->tmp, out->path) != 0)
    rc = wp_error_errno(err, errno, "%s: cannot rename into place", out->path);
  if (rc != 0 && out->tmp)
    unlink(out->tmp);
  forget_tmp(out);
  free_output(out);
  return rc;
}

void wp_output_abort(wp_output *out) {
  if (!out)
    return;
  if (out->path)
    fclose(out->stream);
  wp_output_abort_named(out);
}

bool wp_same_path_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

/* By hand: a path per weight, and snprintf was half of resolving one. */
char *wp_path_join(const char *dir, const char *rel) {
  size_t nd = strlen(dir), nr = strlen(rel);
  bool slash = !(nd && dir[nd - 1] == '/');
  char *p = wp_xmalloc(nd + nr + 2);
  memcpy(p, dir, nd);
  p[nd] = '/';
  memcpy(p + nd + slash, rel, nr + 1);
  return p;
}
