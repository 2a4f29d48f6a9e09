/* wp_file_batch_read_small: which files it reads (whole regular files of 1
 * to WP_FILE_READ_LIMIT bytes) and which it leaves to wp_file_map_flags;
 * wp_file_batch_read_split: which headers it keeps apart. */
#include "wp_file_batch.h"
#include "wp_npy.h"
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

/* A file of a .npy-like header (VERSION, HEADER_LEN as written in it) of
 * HEAD bytes written, then BODY bytes. */
static void put_npy(int i, const char *name, int version, unsigned header_len, size_t head,
                    size_t body) {
  snprintf(paths[i], sizeof paths[i], "%s/%s", tmp, name);
  path_list[i] = paths[i];
  flags[i] = WP_FILE_SLAB;
  unsigned char bytes[1024] = "\x93NUMPY";
  bytes[6] = (unsigned char)version;
  bytes[7] = 0;
  for (int k = 0; k < (version == 1 ? 2 : 4); k++)
    bytes[8 + k] = (unsigned char)(header_len >> (8 * k));
  for (size_t k = version == 1 ? 10 : 12; k < head; k++)
    bytes[k] = ' ';
  for (size_t k = 0; k < body; k++)
    bytes[head + k] = (unsigned char)(k * 3 + 1);
  FILE *f = fopen(paths[i], "wb");
  CHECK(f != NULL);
  CHECK(fwrite(bytes, 1, head + body, f) == head + body);
  fclose(f);
}

/* wp_file_batch_read_split: a header of 1 to CAP bytes that is not the
 * whole file goes apart; anything else stays whole in the view. */
static void check_split(void) {
  enum { CAP = 256, M = 10 };
  struct {
    const char *name;
    int version;
    unsigned header_len;
    size_t head, body, apart;
  } cases[M] = {
      {"v1", 1, 118, 128, 64, 128},   {"v2", 2, 116, 128, 10, 128},
      {"v3", 3, 52, 64, 1, 64},       {"over-cap", 1, 290, 300, 8, 0},
      {"only-head", 1, 118, 128, 0, 0}, {"cut", 1, 200, 100, 0, 0},
      {"minor", 1, 118, 128, 4, 0},   {"v9", 9, 118, 128, 4, 0},
      {"exact-cap", 1, 246, 256, 2, 256}, {"plain", 0, 0, 0, 50, 0},
  };
  for (int i = 0; i < M; i++) {
    if (cases[i].version)
      put_npy(i, cases[i].name, cases[i].version, cases[i].header_len, cases[i].head,
              cases[i].body);
    else
      put(i, cases[i].name, cases[i].body);
  }
  FILE *f = fopen(paths[6], "r+b"); /* "minor": version 1.1, unknown */
  CHECK(f && fseek(f, 7, SEEK_SET) == 0 && fputc(1, f) == 1);
  fclose(f);
  unsigned char store[M * CAP];
  size_t head_sizes[M];
  wp_file_heads heads = {wp_npy_header_size, CAP, store, head_sizes};
  wp_mapped_file out[M];
  CHECK(wp_file_batch_read_split(path_list, flags, M, out, 1, &heads) == M);
  for (int i = 0; i < M; i++) {
    size_t whole = cases[i].head + cases[i].body;
    CHECK(head_sizes[i] == cases[i].apart);
    CHECK(out[i].data && out[i].size == whole - cases[i].apart && out[i].slab);
    if (cases[i].apart && out[i].data) {
      CHECK(!memcmp(store + (size_t)i * CAP, "\x93NUMPY", 6));
      for (size_t k = 0; k < out[i].size; k++)
        CHECK(out[i].data[k] == (unsigned char)(k * 3 + 1));
    }
    wp_file_unmap(&out[i]);
  }
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

  if (io_uring_works())
    check_split();

  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  CHECK(system(cmd) == 0);
  return wp_test_result("test_file_batch");
}
