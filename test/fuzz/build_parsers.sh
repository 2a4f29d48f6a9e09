#!/bin/sh
# Builds the libFuzzer harnesses in test/fuzz from the project's sources
# (each .c compiled directly, instrumented; no generated headers needed).
#   test/fuzz/build_parsers.sh [OUTDIR]      (default /tmp/wp-fuzz/parsers/bin)
# Run one, e.g.:
#   /tmp/wp-fuzz/parsers/bin/fuzz_npy -rss_limit_mb=2048 -timeout=10 CORPUS_DIR
# Needs clang with libclang_rt.fuzzer (clang-14 here) and libjansson-dev.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-/tmp/wp-fuzz/parsers/bin}
cc=${CC:-clang}
mkdir -p "$out"
# the project's own definitions and warnings (CMakeLists.txt), then libFuzzer's
flags="-std=c17 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -g -O1 -Wall -Wextra -Wshadow
  -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter -fno-omit-frame-pointer
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
  -I$src/support -I$src/include"
support="$src/support/wp_error.c $src/support/wp_format.c"

# shellcheck disable=SC2086
$cc $flags -o "$out/fuzz_npy" "$src/test/fuzz/fuzz_npy.c" "$src/support/wp_npy.c" \
  "$src/support/wp_file.c" "$src/support/wp_mapreg.c" $support -lpthread
# shellcheck disable=SC2086
$cc $flags -o "$out/fuzz_model_dir" "$src/test/fuzz/fuzz_model_dir.c" \
  "$src/support/wp_model_dir.c" $support -ljansson
echo "built $out/fuzz_npy $out/fuzz_model_dir"
