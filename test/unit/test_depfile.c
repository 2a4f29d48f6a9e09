/* Depfiles (escaping, the record resolved, writing whole) and the digest
 * cache (hit, identity, racy rule, a round trip through its file, damage,
 * trust) below the passes. Files go to a directory under the build's
 * test/unit. */
#include "wp_depfile.h"
#include "wp_digest_cache.h"
#include "wp_run.h"
#include "weightpack/weightpack.h"
#include "wp_test.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char *escaped(const char *name) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  wp_error err;
  int rc = wp_depfile_escape(f, name, &err);
  fclose(f);
  if (rc) {
    free(buf);
    return NULL;
  }
  return buf;
}

static void test_escape(void) {
  const char *cases[][2] = {{"a b", "a\\ b"}, {"c#d", "c\\#d"}, {"e$f", "e$$f"},
                            {"g:h", "g\\:h"}, {"/x/y.npy", "/x/y.npy"}, {"a\\b", "a\\b"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *e = escaped(cases[i][0]);
    CHECK_STR(e, cases[i][1]);
    free(e);
  }
  /* what neither Make nor Ninja can read back */
  const char *bad[] = {"a\nb", "a\tb", "a\\ b", "a\\", "a\\#", ""};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *e = escaped(bad[i]);
    CHECK(e == NULL);
    free(e);
  }
}

static void test_resolve(void) {
  wp_depfile_paths *p = wp_depfile_paths_create();
  wp_depfile_paths_add(p, "/m/./w.npy");
  wp_depfile_paths_add(p, "/m//w.npy"); /* another spelling: one line */
  wp_depfile_paths_add(p, "/m/w.npy");
  wp_depfile_paths_add(p, "/m/../n/x.npy"); /* ".." kept */
  CHECK(wp_depfile_paths_count(p) == 4);
  wp_depfile_paths *r = wp_depfile_paths_resolve(p);
  CHECK(wp_depfile_paths_count(r) == 2);
  CHECK_STR(wp_depfile_paths_get(r, 0), "/m/w.npy");
  CHECK_STR(wp_depfile_paths_get(r, 1), "/m/../n/x.npy");
  CHECK(wp_depfile_paths_get(r, 2) == NULL);
  wp_depfile_paths_destroy(r);
  wp_depfile_paths_destroy(p);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *buf = calloc(1, 4096);
  fread(buf, 1, 4095, f);
  fclose(f);
  return buf;
}

/* Many paths: blocks fill, the set grows, a path longer than a block
 * gets one of its own; each spelling once, in the order first noted. */
static void test_many(void) {
  enum { N = 150000 };
  wp_depfile_paths *p = wp_depfile_paths_create();
  char path[64];
  size_t long_len = 70000;
  char *long_path = malloc(long_len + 1);
  memset(long_path, 'x', long_len);
  long_path[0] = '/';
  long_path[long_len] = 0;
  for (int round = 0; round < 2; round++)
    for (int i = 0; i < N; i++) {
      snprintf(path, sizeof path, "/model/weights/w%d.npy", i);
      wp_depfile_paths_add(p, path);
      if (i == N / 2)
        wp_depfile_paths_add(p, long_path);
    }
  CHECK(wp_depfile_paths_count(p) == N + 1);
  int bad = 0;
  for (size_t i = 0; i < N + 1; i++) {
    size_t w = i <= N / 2 ? i : i - 1;
    snprintf(path, sizeof path, "/model/weights/w%zu.npy", w);
    const char *got = wp_depfile_paths_get(p, i);
    bad += i == N / 2 + 1 ? strcmp(got, long_path) != 0 : strcmp(got, path) != 0;
  }
  CHECK(bad == 0);
  CHECK(wp_depfile_paths_get(p, N + 1) == NULL);
  free(long_path);
  wp_depfile_paths_destroy(p);
}

static void test_write(const char *dir) {
  char path[512];
  snprintf(path, sizeof path, "%s/x.d", dir);
  wp_depfile_paths *p = wp_depfile_paths_create();
  wp_depfile_paths_add(p, "/a b/w.npy");
  const char *targets[] = {"out.neff"};
  wp_error err;
  CHECK(wp_depfile_write(path, targets, 1, p, &err) == 0);
  char *text = slurp(path);
  CHECK_STR(text, "out.neff: \\\n  /a\\ b/w.npy\n");
  free(text);
  /* a name it cannot write: an error, and the old file stays whole */
  wp_depfile_paths_add(p, "/bad\nname");
  CHECK(wp_depfile_write(path, targets, 1, p, &err) == -1);
  CHECK_CONTAINS(err.msg, "cannot be written in a depfile");
  text = slurp(path);
  CHECK_STR(text, "out.neff: \\\n  /a\\ b/w.npy\n");
  free(text);
  CHECK(wp_depfile_write(path, targets, 0, p, &err) == -1);
  wp_depfile_paths_destroy(p);
}

static void write_file(const char *path, const char *bytes, time_t mtime) {
  FILE *f = fopen(path, "wb");
  fputs(bytes, f);
  fclose(f);
  struct timespec t[2] = {{mtime, 0}, {mtime, 0}};
  utimensat(AT_FDCWD, path, t, 0);
}

static void test_digest_cache(const char *dir) {
  char cache[512], file[512], warning[512];
  snprintf(cache, sizeof cache, "%s/dc", dir);
  snprintf(file, sizeof file, "%s/w.bin", dir);
  time_t old = time(NULL) - 3600;
  write_file(file, "0123456789", old);
  wp_error err;
  wp_digest_cache *c = wp_digest_cache_open(cache, warning, sizeof warning, &err);
  CHECK(c != NULL && warning[0] == 0);
  char md5[WP_MD5_HEX];
  wp_digest_id id;
  const char *digest = "0123456789abcdef0123456789abcdef";
  CHECK(wp_digest_cache_get(c, file, 2, 8, "", &id, md5) == WP_DIGEST_MISS);
  wp_digest_cache_put(c, file, 2, 8, "", &id, digest);
  CHECK(wp_digest_cache_save(c, &err) == 0);
  wp_digest_cache_close(c);
  /* read back: a hit for that region and prefix only */
  c = wp_digest_cache_open(cache, warning, sizeof warning, &err);
  CHECK(wp_digest_cache_get(c, file, 2, 8, "", &id, md5) == WP_DIGEST_HIT);
  CHECK_STR(md5, digest);
  CHECK(wp_digest_cache_get(c, file, 0, 10, "", &id, md5) == WP_DIGEST_MISS);
  CHECK(wp_digest_cache_get(c, file, 2, 8, digest, &id, md5) == WP_DIGEST_MISS);
  wp_digest_cache_close(c);
  /* other bytes under the same size and time: the change time moved */
  write_file(file, "9876543210", old);
  c = wp_digest_cache_open(cache, warning, sizeof warning, &err);
  CHECK(wp_digest_cache_get(c, file, 2, 8, "", &id, md5) == WP_DIGEST_MISS);
  /* git's racy rule: modified after the cache was written */
  write_file(file, "9876543210", time(NULL) + 3600);
  CHECK(wp_digest_cache_get(c, file, 2, 8, "", &id, md5) == WP_DIGEST_MISS);
  wp_digest_cache_put(c, file, 2, 8, "", &id, digest);
  CHECK(wp_digest_cache_save(c, &err) == 0);
  wp_digest_cache_close(c);
  c = wp_digest_cache_open(cache, warning, sizeof warning, &err);
  CHECK(wp_digest_cache_get(c, file, 2, 8, "", &id, md5) == WP_DIGEST_RACY);
  size_t hits, misses, racy;
  wp_digest_cache_counts(c, &hits, &misses, &racy);
  CHECK(hits == 0 && misses == 0 && racy == 1);
  /* written again for another file: the racy entry is left out (smudged) */
  char other[512];
  snprintf(other, sizeof other, "%s/other.bin", dir);
  write_file(other, "abc", old);
  CHECK(wp_digest_cache_get(c, other, 0, 3, "", &id, md5) == WP_DIGEST_MISS);
  wp_digest_cache_put(c, other, 0, 3, "", &id, digest);
  CHECK(wp_digest_cache_save(c, &err) == 0);
  wp_digest_cache_close(c);
  char digests_path[600];
  snprintf(digests_path, sizeof digests_path, "%s/digests", cache);
  char *text = slurp(digests_path);
  CHECK_CONTAINS(text, "/other.bin");
  CHECK(text && !strstr(text, "/w.bin"));
  free(text);
  /* damaged: a warning and an empty cache */
  char digests[600];
  snprintf(digests, sizeof digests, "%s/digests", cache);
  write_file(digests, "weightpack-digest-cache 1\nnot a line\n", old);
  c = wp_digest_cache_open(cache, warning, sizeof warning, &err);
  CHECK(c != NULL);
  CHECK_CONTAINS(warning, "is damaged; ignored");
  wp_digest_cache_close(c);
  /* writable by others: refused */
  chmod(digests, 0666);
  CHECK(wp_digest_cache_open(cache, warning, sizeof warning, &err) == NULL);
  CHECK_CONTAINS(err.msg, "writable by another user");
  chmod(digests, 0644);
  chmod(cache, 0775);
  CHECK(wp_digest_cache_open(cache, warning, sizeof warning, &err) == NULL);
  chmod(cache, 0755);
}

/* The C API's face of a run's record: one free()able block; a depfile
 * for the targets named; null arguments refused. */
static void test_capi(const char *dir) {
  wp_run *run = wpRunCreate();
  wp_run_note_read(run, "/m/metadata.json");
  wp_run_note_read(run, "/m/./w.npy");
  wp_run_note_read(run, "/m/w.npy");
  char **paths = NULL;
  size_t n = 0;
  wp_error err;
  CHECK(wpRunDependencies(run, &paths, &n, &err) == 0);
  CHECK(n == 2 && paths[2] == NULL);
  CHECK_STR(paths[0], "/m/metadata.json");
  CHECK_STR(paths[1], "/m/w.npy");
  free(paths);
  char path[512];
  snprintf(path, sizeof path, "%s/capi.d", dir);
  const char *targets[] = {"a.neff", "b.neff"};
  CHECK(wpRunWriteDepfile(run, path, targets, 2, &err) == 0);
  char *text = slurp(path);
  CHECK_STR(text, "a.neff b.neff: \\\n  /m/metadata.json \\\n  /m/w.npy\n");
  free(text);
  CHECK(wpRunWriteDepfile(run, path, targets, 0, &err) == -1);
  CHECK(wpRunWriteDepfile(NULL, path, targets, 1, &err) == -1);
  CHECK(wpRunDependencies(run, NULL, &n, &err) == -1);
  wpRunDestroy(run);
}

int main(void) {
  char dir[] = "test_depfile.XXXXXX";
  if (!mkdtemp(dir))
    return 1;
  test_escape();
  test_resolve();
  test_many();
  test_write(dir);
  test_digest_cache(dir);
  test_capi(dir);
  char cmd[64];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0)
    wp_test_failed++;
  return wp_test_result("test_depfile");
}
