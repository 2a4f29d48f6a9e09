/* libFuzzer harness: the input is the NEFF's payload, the gzip stream as
 * it is in the file; the harness puts the header that fits in front (its
 * size, MD5 and uuid). Unlike fuzz_neff_raw, a mutation that changes the
 * length still passes the header's size check, so the gzip reader (member
 * headers, flags, CRCs, several members, trailing bytes) is what is
 * exercised, and through it the tar. */
#include "fuzz_neff_common.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  unsigned char *file = malloc(1024 + size);
  if (!file)
    abort();
  memcpy(file + 1024, data, size);
  fuzz_neff_header(file + 1024, size, file);
  fuzz_neff_check(fuzz_neff_write(file, 1024 + size));
  free(file);
  return 0;
}
