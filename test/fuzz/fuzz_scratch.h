/* Where a harness keeps its scratch files: $TMPDIR/wp-fuzz/WHAT (TMPDIR
 * unset: /tmp), made if missing. smoke.sh points TMPDIR into the build
 * directory, so that a run leaves nothing outside it. */
#ifndef FUZZ_SCRATCH_H
#define FUZZ_SCRATCH_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static inline void fuzz_scratch_root(const char *what, char *out, size_t n) {
  const char *tmp = getenv("TMPDIR");
  if (!tmp || !*tmp)
    tmp = "/tmp";
  snprintf(out, n, "%s/wp-fuzz", tmp);
  mkdir(out, 0755); /* EEXIST is fine; any other error shows below */
  snprintf(out, n, "%s/wp-fuzz/%s", tmp, what);
  if (mkdir(out, 0755) != 0 && errno != EEXIST) {
    perror(out);
    abort();
  }
}

#endif
