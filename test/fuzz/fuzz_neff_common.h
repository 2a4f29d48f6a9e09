/* What fuzz_neff_raw, fuzz_neff_tar and fuzz_neff_gz share: run the neff
 * tool's commands in process on a NEFF file and check what they did. */
#ifndef FUZZ_NEFF_COMMON_H
#define FUZZ_NEFF_COMMON_H
#include <stddef.h>
#include <sys/types.h>

/* The per-process scratch directory under $TMPDIR/wp-fuzz/neff (made on first use). */
const char *fuzz_neff_dir(void);

/* Writes LEN bytes of DATA to the scratch NEFF and returns its path. */
const char *fuzz_neff_write(const void *data, size_t len);

/* The 1024-byte header neff-pack would write for the N-byte PAYLOAD: the
 * right size, payload MD5 and uuid, so that a payload built by a harness
 * is checked to the end. */
void fuzz_neff_header(const unsigned char *payload, size_t n, unsigned char out[1024]);

/* Runs info, ls, verify and unpack on PATH and aborts on anything the tool
 * must never do: an exit status other than 0 or 1, verify OK but unpack
 * (or ls) failing, a failed unpack that leaves something behind, a file
 * written outside the unpack directory or not a regular file, or unpacked
 * bytes that do not match bom.json. Returns verify's status. */
int fuzz_neff_check(const char *path);

/* open and mkdir as unpack calls them (fuzz_unpack_wrap.h): abort when
 * PATH would land outside the unpack directory. */
int fuzz_unpack_open(const char *path, int flags, ...);
int fuzz_unpack_mkdir(const char *path, mode_t mode);

#endif
