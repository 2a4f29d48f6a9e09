/* The O_DIRECT writer: the file holds exactly the bytes appended, in order,
 * whatever the write sizes around its block and alignment boundaries, with
 * and without O_DIRECT; the descriptor ends without O_DIRECT at the end of
 * the data; a write error comes back as errno. Files live in the test's
 * working directory (the build tree), where O_DIRECT usually works; a file
 * system that refuses it exercises the plain path instead. */
#include "wp_dio.h"
#include "wp_test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1u << 20)

static unsigned char *pattern(size_t n, unsigned seed) {
  unsigned char *p = malloc(n ? n : 1);
  uint32_t x = seed * 2654435761u + 1;
  for (size_t i = 0; i < n; i++) {
    x = x * 1664525u + 1013904223u;
    p[i] = (unsigned char)(x >> 24);
  }
  return p;
}

static int file_equals(const char *path, const unsigned char *want, size_t n) {
  int fd = open(path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || (size_t)st.st_size != n) {
    if (fd >= 0)
      close(fd);
    return 0;
  }
  unsigned char *got = malloc(n ? n : 1);
  size_t done = 0;
  while (done < n) {
    ssize_t k = read(fd, got + done, n - done);
    if (k <= 0)
      break;
    done += (size_t)k;
  }
  close(fd);
  int same = done == n && memcmp(got, want, n) == 0;
  free(got);
  return same;
}

/* Appends TOTAL bytes in pieces of the sizes in STEPS (cycled) after a
 * LEAD of plain bytes already in the file, and checks the file. */
static void round_trip(size_t lead, size_t total, const size_t *steps, size_t n_steps,
                       bool direct) {
  const char *path = "dio-test.bin";
  unsigned char *want = pattern(lead + total, (unsigned)(lead + total + n_steps));
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  CHECK(fd >= 0);
  if (lead)
    CHECK(write(fd, want, lead) == (ssize_t)lead);
  wp_dio *w = wp_dio_create(fd, direct);
  CHECK(w != NULL);
  size_t done = 0;
  for (size_t i = 0; done < total; i++) {
    size_t n = steps[i % n_steps];
    if (n > total - done)
      n = total - done;
    CHECK(wp_dio_write(w, want + lead + done, n) == 0);
    done += n;
  }
  CHECK(wp_dio_size(w) == total);
  CHECK(wp_dio_finish(w) == 0);
  /* The descriptor goes on as a plain one, at the end of the data. */
  CHECK((fcntl(fd, F_GETFL) & O_DIRECT) == 0);
  CHECK(lseek(fd, 0, SEEK_CUR) == (off_t)(lead + total));
  if (!lead && total >= WP_DIO_BLOCK && direct)
    printf("dio: %zu bytes, O_DIRECT %s\n", total, wp_dio_used_direct(w) ? "used" : "refused");
  if (!direct)
    CHECK(!wp_dio_used_direct(w));
  /* An unaligned start never tries O_DIRECT. */
  if (lead % 4096)
    CHECK(!wp_dio_used_direct(w));
  wp_dio_destroy(w);
  close(fd);
  CHECK(file_equals(path, want, lead + total));
  free(want);
  unlink(path);
}

int main(void) {
  const size_t odd[] = {1, 4095, 4097, 3 * MIB + 17, 1024};
  const size_t one[] = {1 << 16};
  const size_t big[] = {9 * MIB};
  for (int direct = 0; direct <= 1; direct++) {
    round_trip(0, 0, one, 1, direct);
    round_trip(0, 1, one, 1, direct);
    round_trip(0, 4096, one, 1, direct);
    round_trip(0, WP_DIO_BLOCK, one, 1, direct);          /* exactly one block */
    round_trip(0, WP_DIO_BLOCK + 1, one, 1, direct);      /* one byte of tail */
    round_trip(0, 3 * WP_DIO_BLOCK, one, 1, direct);      /* whole blocks only */
    round_trip(0, 25 * MIB + 4095, odd, 5, direct);       /* pieces across blocks */
    round_trip(0, 20 * MIB, big, 1, direct);              /* a piece bigger than a block */
    round_trip(4096, 9 * MIB + 100, odd, 5, direct);      /* aligned start past 0 */
    round_trip(1024, 9 * MIB + 100, odd, 5, direct);      /* unaligned start: plain */
  }
  /* Not a regular file: plain writes, no error. */
  int null = open("/dev/null", O_WRONLY);
  wp_dio *w = wp_dio_create(null, true);
  unsigned char *p = pattern(9 * MIB, 3);
  CHECK(wp_dio_write(w, p, 9 * MIB) == 0 && wp_dio_finish(w) == 0);
  CHECK(!wp_dio_used_direct(w));
  wp_dio_destroy(w);
  close(null);
  /* O_APPEND: plain writes after what is there, the position at the end. */
  int ap = open("dio-append.bin", O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
  CHECK(write(ap, p, 10) == 10);
  w = wp_dio_create(ap, true);
  CHECK(wp_dio_write(w, p + 10, 6) == 0 && wp_dio_finish(w) == 0);
  CHECK(!wp_dio_used_direct(w));
  CHECK(lseek(ap, 0, SEEK_CUR) == 16);
  wp_dio_destroy(w);
  close(ap);
  CHECK(file_equals("dio-append.bin", p, 16));
  unlink("dio-append.bin");
  /* A pipe: plain writes in order. */
  int fds[2];
  CHECK(pipe(fds) == 0);
  w = wp_dio_create(fds[1], true);
  CHECK(wp_dio_write(w, p, 3000) == 0 && wp_dio_finish(w) == 0);
  wp_dio_destroy(w);
  close(fds[1]);
  unsigned char back[4096];
  ssize_t got = 0;
  for (ssize_t k; (k = read(fds[0], back + got, sizeof back - (size_t)got)) > 0;)
    got += k;
  close(fds[0]);
  CHECK(got == 3000 && memcmp(back, p, 3000) == 0);
  /* A write that fails reports errno (a read-only descriptor: EBADF). */
  int ro = open("dio-ro.bin", O_RDONLY | O_CREAT, 0644);
  w = wp_dio_create(ro, true);
  int rc = wp_dio_write(w, p, 9 * MIB);
  if (!rc)
    rc = wp_dio_finish(w);
  CHECK(rc == EBADF);
  wp_dio_destroy(w);
  close(ro);
  unlink("dio-ro.bin");
  free(p);
  return wp_test_result("test_dio");
}
