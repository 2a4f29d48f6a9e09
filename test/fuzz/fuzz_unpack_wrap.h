/* Force-included before tools/neff_unpack.c in the fuzz build (-include):
 * every path unpack creates goes through fuzz_neff_common.c, which aborts
 * when one would land outside the directory the harness gave. The system
 * headers come first so that their own declarations keep the real names. */
#ifndef FUZZ_UNPACK_WRAP_H
#define FUZZ_UNPACK_WRAP_H
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>

int fuzz_unpack_open(const char *path, int flags, ...);
int fuzz_unpack_mkdir(const char *path, mode_t mode);
#define open fuzz_unpack_open
#define mkdir fuzz_unpack_mkdir
#endif
