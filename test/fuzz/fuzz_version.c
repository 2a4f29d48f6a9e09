/* neff --version asks wpVersion(), which lives with the MLIR dialects
 * (dialect/wp_dialects.c); the fuzzers link no MLIR, so it is here. */
#include "weightpack/weightpack.h"

const char *wpVersion(void) { return "fuzz"; }
