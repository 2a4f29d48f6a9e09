#include "wp_digest_cache.h"

#include "wp_file.h"
#include "wp_strmap.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEADER "weightpack-digest-cache 1\n"

typedef struct entry {
  char *key; /* "OFFSET LENGTH PREFIX PATH": the map's key, owned */
  const char *path; /* inside KEY */
  char md5[WP_MD5_HEX];
  wp_digest_id id;
  bool fresh; /* put in this run: wins over the file's entry when merged */
  int64_t stamp_sec; /* not fresh: the write time of the file it was read from */
} entry;

struct wp_digest_cache {
  pthread_mutex_t lock;
  char *dir, *file;
  entry *entries;
  size_t n, cap;
  wp_strmap index; /* key -> entry */
  int64_t stamp_sec; /* the file's modification time when read: git's racy limit */
  size_t hits, misses, racy;
};

/* floor division: a time before 1970 is negative */
static int64_t seconds_of(int64_t ns) {
  return ns >= 0 ? ns / 1000000000 : -((-ns + 999999999) / 1000000000);
}

static char *make_key(uint64_t offset, uint64_t length, const char *prefix_md5, const char *path,
                      size_t *path_at) {
  char head[96];
  int n = snprintf(head, sizeof head, "%" PRIu64 " %" PRIu64 " %s ", offset, length,
                   prefix_md5 && prefix_md5[0] ? prefix_md5 : "-");
  char *key = wp_xmalloc((size_t)n + strlen(path) + 1);
  memcpy(key, head, (size_t)n);
  strcpy(key + n, path);
  *path_at = (size_t)n;
  return key;
}

/* Adds or replaces (a fresh entry replaces; a stale one yields) the
 * entry for KEY (taken). Caller holds the lock or owns C alone. */
static void set_entry(wp_digest_cache *c, char *key, size_t path_at, const wp_digest_id *id,
                      const char *md5, bool fresh, int64_t stamp_sec) {
  int64_t at;
  if (wp_strmap_get(&c->index, key, strlen(key), &at)) {
    entry *e = &c->entries[at];
    if (!fresh && e->fresh) {
      free(key);
      return;
    }
    free(key);
    e->id = *id;
    snprintf(e->md5, sizeof e->md5, "%s", md5);
    e->fresh = fresh;
    e->stamp_sec = stamp_sec;
    return;
  }
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 64;
    c->entries = wp_xrealloc(c->entries, c->cap * sizeof *c->entries);
  }
  entry *e = &c->entries[c->n];
  *e = (entry){.key = key, .path = key + path_at, .id = *id, .fresh = fresh,
               .stamp_sec = stamp_sec};
  snprintf(e->md5, sizeof e->md5, "%s", md5);
  wp_strmap_put(&c->index, key, strlen(key), (int64_t)c->n);
  c->n++;
}

static bool is_md5(const char *s) {
  return strlen(s) == 32 && strspn(s, "0123456789abcdef") == 32;
}

/* One line: MD5 DEV INO SIZE MTIME_NS CTIME_NS OFFSET LENGTH PREFIX PATH.
 * 0, or -1 when it is no such line. */
static int parse_line(wp_digest_cache *c, char *line) {
  char md5[64], prefix[64];
  uint64_t dev, ino, size, offset, length;
  int64_t mtime, ctime;
  int used = 0;
  if (sscanf(line, "%40s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNd64 " %" SCNd64 " %" SCNu64
                   " %" SCNu64 " %40s %n",
             md5, &dev, &ino, &size, &mtime, &ctime, &offset, &length, prefix, &used) != 9 ||
      !used || !line[used] || line[used - 1] != ' ' || !is_md5(md5) ||
      (strcmp(prefix, "-") && !is_md5(prefix)))
    return -1;
  wp_digest_id id = {dev, ino, size, mtime, ctime, true};
  size_t path_at;
  char *key = make_key(offset, length, prefix, line + used, &path_at);
  set_entry(c, key, path_at, &id, md5, false, c->stamp_sec);
  return 0;
}

/* Reads FD's text into C. 0; -1 when damaged (C then holds what was
 * read before the damage: the caller empties it). */
static int parse_file(wp_digest_cache *c, int fd) {
  wp_mapped_file f;
  wp_error err;
  if (wp_file_read_stream(fd, c->file, &f, &err))
    return -1;
  int rc = 0;
  size_t hl = strlen(HEADER);
  if (f.size < hl || memcmp(f.data, HEADER, hl) != 0)
    rc = f.size ? -1 : 0;
  for (size_t at = hl; rc == 0 && at < f.size;) {
    const char *nl = memchr(f.data + at, '\n', f.size - at);
    if (!nl) {
      rc = -1; /* a torn last line: never written so by us */
      break;
    }
    size_t len = (size_t)(nl - (const char *)f.data) - at;
    char *line = wp_xmalloc(len + 1);
    memcpy(line, f.data + at, len);
    line[len] = 0;
    rc = parse_line(c, line);
    free(line);
    at += len + 1;
  }
  wp_file_unmap(&f);
  return rc;
}

static void clear_entries(wp_digest_cache *c) {
  for (size_t i = 0; i < c->n; i++)
    free(c->entries[i].key);
  c->n = 0;
  wp_strmap_free(&c->index);
  wp_strmap_init(&c->index);
}

/* Another user could have written it: owned by us or root, and writable
 * by nobody else. */
static int check_trusted(const char *what, const struct stat *st, wp_error *err) {
  if ((st->st_uid != geteuid() && st->st_uid != 0) || (st->st_mode & (S_IWGRP | S_IWOTH)))
    return wp_error_set(err, "digest cache %s is writable by another user (owner %ld, mode "
                        "%04o); it is not trusted: make it yours and chmod go-w, or give "
                        "another directory", what, (long)st->st_uid,
                        (unsigned)(st->st_mode & 07777));
  return 0;
}

/* Opens DIR/digests read-only (not following a link); -1 with errno
 * ENOENT when there is none. */
static int open_file(const wp_digest_cache *c, struct stat *st, wp_error *err) {
  int fd = open(c->file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno != ENOENT)
      wp_error_errno(err, errno, "digest cache %s", c->file);
    return -1;
  }
  if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) || check_trusted(c->file, st, err)) {
    if (!S_ISREG(st->st_mode))
      wp_error_set(err, "digest cache %s is no regular file", c->file);
    close(fd);
    errno = EPERM;
    return -1;
  }
  return fd;
}

static int load(wp_digest_cache *c, char *warning, size_t warning_size, wp_error *err) {
  struct stat st;
  int fd = open_file(c, &st, err);
  if (fd < 0)
    return errno == ENOENT ? 0 : -1;
  c->stamp_sec = (int64_t)st.st_mtim.tv_sec;
  if (parse_file(c, fd)) {
    clear_entries(c);
    snprintf(warning, warning_size, "digest cache %s is damaged; ignored (every file is "
             "hashed, and the cache written anew)", c->file);
  }
  close(fd);
  return 0;
}

wp_digest_cache *wp_digest_cache_open(const char *dir, char *warning, size_t warning_size,
                                      wp_error *err) {
  warning[0] = 0;
  if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
    wp_error_errno(err, errno, "digest cache %s", dir);
    return NULL;
  }
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    wp_error_set(err, "digest cache %s is no directory", dir);
    return NULL;
  }
  if (check_trusted(dir, &st, err))
    return NULL;
  wp_digest_cache *c = wp_xcalloc(1, sizeof *c);
  pthread_mutex_init(&c->lock, NULL);
  c->dir = wp_xstrdup(dir);
  c->file = wp_xmalloc(strlen(dir) + sizeof "/digests");
  sprintf(c->file, "%s/digests", dir);
  wp_strmap_init(&c->index);
  if (load(c, warning, warning_size, err)) {
    wp_digest_cache_close(c);
    return NULL;
  }
  return c;
}

void wp_digest_cache_close(wp_digest_cache *c) {
  if (!c)
    return;
  clear_entries(c);
  wp_strmap_free(&c->index);
  free(c->entries);
  free(c->dir);
  free(c->file);
  pthread_mutex_destroy(&c->lock);
  free(c);
}

static wp_digest_id identity(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return (wp_digest_id){.valid = false};
  return (wp_digest_id){(uint64_t)st.st_dev, (uint64_t)st.st_ino, (uint64_t)st.st_size,
                        (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec,
                        (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec, true};
}

static bool same_id(const wp_digest_id *a, const wp_digest_id *b) {
  return a->valid && b->valid && a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
         a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns;
}

wp_digest_result wp_digest_cache_get(wp_digest_cache *c, const char *path, uint64_t offset,
                                     uint64_t length, const char *prefix_md5, wp_digest_id *id,
                                     char out[WP_MD5_HEX]) {
  *id = identity(path);
  size_t path_at;
  char *key = make_key(offset, length, prefix_md5, path, &path_at);
  wp_digest_result r = WP_DIGEST_MISS;
  pthread_mutex_lock(&c->lock);
  int64_t at;
  if (id->valid && wp_strmap_get(&c->index, key, strlen(key), &at) &&
      same_id(&c->entries[at].id, id)) {
    /* git's racy rule: a write in the second the cache was written (or
     * later) may hide another write with the same identity. The change
     * time is not asked (git does not either): cp, touch and chmod move it
     * without touching bytes, and it is part of the identity anyway. */
    const entry *e = &c->entries[at];
    if (seconds_of(e->id.mtime_ns) >= c->stamp_sec) {
      r = WP_DIGEST_RACY;
    } else {
      r = WP_DIGEST_HIT;
      memcpy(out, e->md5, WP_MD5_HEX);
    }
  }
  c->hits += r == WP_DIGEST_HIT;
  c->misses += r == WP_DIGEST_MISS;
  c->racy += r == WP_DIGEST_RACY;
  pthread_mutex_unlock(&c->lock);
  free(key);
  return r;
}

void wp_digest_cache_put(wp_digest_cache *c, const char *path, uint64_t offset, uint64_t length,
                         const char *prefix_md5, const wp_digest_id *id, const char *md5) {
  wp_digest_id now = identity(path);
  if (!same_id(id, &now) || !is_md5(md5) || strchr(path, '\n'))
    return; /* changed while hashed, or a name a line cannot hold */
  size_t path_at;
  char *key = make_key(offset, length, prefix_md5, path, &path_at);
  pthread_mutex_lock(&c->lock);
  set_entry(c, key, path_at, id, md5, true, 0);
  pthread_mutex_unlock(&c->lock);
}

static void write_entries(FILE *f, const wp_digest_cache *c) {
  fputs(HEADER, f);
  for (size_t i = 0; i < c->n; i++) {
    const entry *e = &c->entries[i];
    /* git's smudging: an entry racy for the file it came from would look
     * trusted under this later write; it is left out (hashed again) */
    if (!e->fresh && seconds_of(e->id.mtime_ns) >= e->stamp_sec)
      continue;
    /* KEY is "OFFSET LENGTH PREFIX PATH": the line's last four fields */
    fprintf(f, "%s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRId64 " %" PRId64 " %s\n", e->md5,
            e->id.dev, e->id.ino, e->id.size, e->id.mtime_ns, e->id.ctime_ns, e->key);
  }
}

/* Under the lock: the file as another run may have left it, our fresh
 * entries over it, written to a temporary and renamed into place. */
static int merge_and_write(wp_digest_cache *c, wp_error *err) {
  wp_digest_cache *disk = wp_xcalloc(1, sizeof *disk);
  disk->file = c->file;
  wp_strmap_init(&disk->index);
  struct stat st;
  int fd = open_file(disk, &st, err);
  if (fd < 0 && errno != ENOENT) {
    disk->file = NULL;
    wp_digest_cache_close(disk);
    return -1;
  }
  if (fd >= 0) {
    disk->stamp_sec = (int64_t)st.st_mtim.tv_sec;
    if (parse_file(disk, fd))
      clear_entries(disk); /* damaged: ours replace it */
    close(fd);
  }
  for (size_t i = 0; i < c->n; i++) {
    const entry *e = &c->entries[i];
    set_entry(disk, wp_xstrdup(e->key), (size_t)(e->path - e->key), &e->id, e->md5, e->fresh,
              e->stamp_sec);
  }
  char *tmp = NULL;
  int tfd = wp_temp_beside(c->file, &tmp);
  int rc = -1;
  if (tfd >= 0) /* never group- or other-writable, whatever the umask: we would refuse it */
    fchmod(tfd, 0644);
  FILE *f = tfd < 0 ? NULL : fdopen(tfd, "w");
  if (!f) {
    wp_error_errno(err, errno, "digest cache %s: cannot write", c->file);
    if (tfd >= 0)
      close(tfd);
  } else {
    write_entries(f, disk);
    if (fflush(f) != 0 || ferror(f) || fclose(f) != 0)
      wp_error_errno(err, errno ? errno : EIO, "digest cache %s: write failed", c->file);
    else if (rename(tmp, c->file) != 0)
      wp_error_errno(err, errno, "digest cache %s", c->file);
    else
      rc = 0;
    f = NULL;
  }
  if (rc && tmp)
    unlink(tmp);
  free(tmp);
  disk->file = NULL;
  wp_digest_cache_close(disk);
  return rc;
}

int wp_digest_cache_save(wp_digest_cache *c, wp_error *err) {
  bool any = false;
  for (size_t i = 0; i < c->n && !any; i++)
    any = c->entries[i].fresh;
  if (!any)
    return 0; /* nothing learned: the file stays as it is, and so does its time */
  int dfd = open(c->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return wp_error_errno(err, errno, "digest cache %s", c->dir);
  int rc = -1;
  if (flock(dfd, LOCK_EX) != 0)
    wp_error_errno(err, errno, "digest cache %s: cannot lock", c->dir);
  else
    rc = merge_and_write(c, err);
  close(dfd); /* and the lock with it */
  return rc;
}

void wp_digest_cache_counts(const wp_digest_cache *c, size_t *hits, size_t *misses,
                            size_t *racy) {
  *hits = c->hits;
  *misses = c->misses;
  *racy = c->racy;
}
