/* libFuzzer harness: the input is the NEFF's uncompressed tar. The harness
 * gzips it and puts a header with the right payload size, MD5 and uuid in
 * front, so every mutation reaches the tar reader, the BOM and signature
 * checks and unpack, instead of dying at the payload MD5. */
#include "fuzz_neff_common.h"

#include <stdint.h>
#include <stdlib.h>
#include <zlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  z_stream z = {0};
  if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    abort();
  size_t cap = 1024 + deflateBound(&z, size);
  unsigned char *file = malloc(cap);
  z.next_in = (unsigned char *)data;
  z.avail_in = (uInt)size;
  z.next_out = file + 1024;
  z.avail_out = (uInt)(cap - 1024);
  if (!file || deflate(&z, Z_FINISH) != Z_STREAM_END)
    abort();
  size_t n = z.total_out;
  deflateEnd(&z);
  fuzz_neff_header(file + 1024, n, file);
  fuzz_neff_check(fuzz_neff_write(file, 1024 + n));
  free(file);
  return 0;
}
