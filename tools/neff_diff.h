/* neff diff: what differs between two packages. */
#ifndef NEFF_DIFF_H
#define NEFF_DIFF_H

#include <stdbool.h>
#include <stdint.h>

/* Compares the packages at A and B (MAX_SIZE as for info): header fields,
 * members, variables and tensors, printed sorted (or as one JSON object).
 * As diff(1): 0 the same, 1 different, 2 trouble (after an error line). */
int neff_diff(const char *a, const char *b, uint64_t max_size, bool json);

#endif
