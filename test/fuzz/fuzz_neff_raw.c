/* libFuzzer harness: the input is a whole NEFF file (header and gzip
 * payload), run through neff info, ls, verify and unpack. Finds what the
 * header checks and the gzip reader let through; a byte mutator seldom
 * gets past the payload MD5, which fuzz_neff_tar builds around its input. */
#include "fuzz_neff_common.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_neff_check(fuzz_neff_write(data, size));
  return 0;
}
