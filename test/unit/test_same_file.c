/* wp_same_file_among: an output matched against many inputs by listing
 * their directories, as a stat of each would match it: the file itself,
 * a hard link to it, a symbolic link to it, a name in a small group, a
 * path without a directory part, missing files. Files go to a directory
 * under the build's test/unit. */
#include "wp_same_file.h"
#include "wp_test.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { N_FILES = 40 };

static void touch(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* PATHS (N of them) against the file at TARGET: the index found, which
 * must be the first that wp_same_file matches. */
static long among(char **paths, size_t n, const char *target) {
  struct stat st;
  CHECK(stat(target, &st) == 0);
  long want = -1;
  for (size_t i = 0; i < n && want < 0; i++)
    if (wp_same_file(paths[i], &st))
      want = (long)i;
  long got = wp_same_file_among((const char *const *)paths, n, &st);
  CHECK(got == want);
  return got;
}

int main(void) {
  char dir[] = "test_same_file.XXXXXX";
  if (!mkdtemp(dir))
    return 1;
  char *paths[N_FILES + 8];
  size_t n = 0;
  char buf[256];
  for (int i = 0; i < N_FILES; i++) {
    snprintf(buf, sizeof buf, "%s/w%d.npy", dir, i);
    touch(buf, "x");
    paths[n++] = strdup(buf);
  }
  snprintf(buf, sizeof buf, "%s/w7.npy", dir);
  CHECK(among(paths, n, buf) == 7); /* the file itself, in a listed group */
  snprintf(buf, sizeof buf, "%s/hard.neff", dir);
  char w9[256];
  snprintf(w9, sizeof w9, "%s/w9.npy", dir);
  CHECK(link(w9, buf) == 0);
  CHECK(among(paths, n, buf) == 9); /* another name of w9 */
  snprintf(buf, sizeof buf, "%s/out.neff", dir);
  touch(buf, "y");
  CHECK(among(paths, n, buf) == -1); /* a file no input is */
  /* an input that is a symbolic link to the output */
  char link_path[256];
  snprintf(link_path, sizeof link_path, "%s/w3.npy", dir);
  CHECK(unlink(link_path) == 0);
  CHECK(symlink("out.neff", link_path) == 0);
  CHECK(among(paths, n, buf) == 3);
  /* a missing input, an input spelled through "..", a small group and a
   * path without a directory part */
  snprintf(link_path, sizeof link_path, "%s/w5.npy", dir);
  CHECK(unlink(link_path) == 0);
  snprintf(w9, sizeof w9, "%s/../%s/out.neff", dir, dir);
  paths[n++] = strdup(w9);
  paths[n++] = strdup("no-directory-part");
  CHECK(among(paths, n, buf) == 3);
  CHECK(among(paths + 4, n - 4, buf) == (long)(n - 4 - 2));
  CHECK(among(paths + N_FILES, 2, buf) == 0);
  for (size_t i = 0; i < n; i++)
    free(paths[i]);
  snprintf(buf, sizeof buf, "rm -rf %s", dir);
  if (system(buf) != 0)
    wp_test_failed++;
  return wp_test_result("test_same_file");
}
