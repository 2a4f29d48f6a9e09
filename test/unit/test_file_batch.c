/* wp_file_batch_read_small: which files it reads (whole regular files of 1
 * to WP_FILE_READ_LIMIT bytes) and which it leaves to wp_file_map_flags. */
#include "wp_file_batch.h"
#include "wp_test.h"

#include <liburing.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define N 24

static char tmp[64];
static char paths[N][128];
static const char *path_list[N];
static int flags[N];
static size_t sizes[N]; /* what a read gives; 0: left empty */

static void put(int i, const char *name, size_t size) {
  snprintf(paths[i], sizeof paths[i], "%s/%s", tmp, name);
  path_list[i] = paths[i];
  flags[i] = WP_FILE_SLAB;
  FILE *f = fopen(paths[i], "wb");
  CHECK(f != NULL);
  for (size_t k = 0; k < size; k++)
    fputc((int)((k * 7 + (size_t)i) & 0xff), f);
  fclose(f);
  sizes[i] = size >= 1 && size <= WP_FILE_READ_LIMIT ? size : 0;
}

static void special(int i, const char *name) {
  snprintf(paths[i], sizeof paths[i], "%s/%s", tmp, name);
  path_list[i] = paths[i];
  flags[i] = WP_FILE_SLAB;
  sizes[i] = 0;
}

static bool holds(const wp_mapped_file *f, int i) {
  if (!f->data || f->size != sizes[i])
    return false;
  for (size_t k = 0; k < f->size; k++)
    if (f->data[k] != (unsigned char)((k * 7 + (size_t)i) & 0xff))
      return false;
  return true;
}

/* The same checks the batch reader's own set-up makes: a test machine whose
 * kernel or seccomp filter refuses io_uring reads every file one by one. */
static bool io_uring_works(void) {
  struct io_uring ring;
  if (io_uring_queue_init(4, &ring, 0) != 0)
    return false;
  bool ok = io_uring_register_files_sparse(&ring, 4) == 0;
  io_uring_queue_exit(&ring);
  return ok;
}

int main(void) {
  snprintf(tmp, sizeof tmp, "%s", "wp-batch-XXXXXX");
  CHECK(mkdtemp(tmp) != NULL);
  const size_t regular[] = {1, 2, 100, 1024, 1152, 4095, WP_FILE_READ_LIMIT,
                            WP_FILE_READ_LIMIT + 1, 70000, 0};
  char name[32];
  int n = 0, f100_at = -1;
  for (size_t k = 0; k < sizeof regular / sizeof *regular; k++) {
    snprintf(name, sizeof name, "f%zu", regular[k]);
    if (regular[k] == 100)
      f100_at = n;
    put(n++, name, regular[k]);
  }
  special(n, "dir");
  CHECK(mkdir(paths[n++], 0755) == 0);
  special(n, "fifo");
  CHECK(mkfifo(paths[n++], 0644) == 0);
  special(n, "missing");
  n++;
  /* a link to f100: read when links are allowed (its bytes are f100's,
   * made with f100's index), not with WP_FILE_NO_LINK */
  int link_at = n;
  special(n, "link");
  CHECK(symlink("f100", paths[n]) == 0);
  sizes[n++] = 100;
  special(n, "link");
  flags[n++] |= WP_FILE_NO_LINK;
  while (n < N) {
    snprintf(name, sizeof name, "more%d", n);
    put(n, name, (size_t)n * 10);
    n++;
  }

  wp_mapped_file out[N];
  size_t want = 0;
  for (int i = 0; i < N; i++)
    want += sizes[i] != 0;
  size_t got = wp_file_batch_read_small(path_list, flags, N, out);
  if (!io_uring_works()) {
    fprintf(stderr, "test_file_batch: io_uring unavailable here; checking the fallback only\n");
    CHECK(got == 0);
  } else {
    CHECK(got == want);
    for (int i = 0; i < N; i++) {
      if (i == link_at) {
        wp_mapped_file copy = out[i];
        CHECK(copy.data && copy.size == 100);
        CHECK(copy.data && !memcmp(copy.data, out[f100_at].data, 100));
        CHECK(copy.slab != NULL);
      } else if (sizes[i]) {
        CHECK(holds(&out[i], i));
        CHECK(out[i].slab != NULL); /* WP_FILE_SLAB, as wp_file_map_flags puts it */
      } else {
        CHECK(out[i].data == NULL);
      }
    }
  }
  for (int i = 0; i < N; i++)
    wp_file_unmap(&out[i]);

  /* Turned off, and too few files to be worth a ring: nothing is read. */
  setenv("WP_NO_IO_URING", "1", 1);
  CHECK(wp_file_batch_read_small(path_list, flags, N, out) == 0);
  for (int i = 0; i < N; i++)
    CHECK(out[i].data == NULL);
  unsetenv("WP_NO_IO_URING");
  CHECK(wp_file_batch_read_small(path_list, flags, 4, out) == 0);

  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  CHECK(system(cmd) == 0);
  return wp_test_result("test_file_batch");
}
