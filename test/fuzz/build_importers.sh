#!/bin/sh
# Builds the libFuzzer harnesses test/fuzz/fuzz_*.c.
#
# Our sources (harness, weightpack, support, generated protobuf-c code) are
# compiled by clang with -fsanitize=fuzzer-no-link,address,undefined; the
# MLIR/LLVM static libraries stay uninstrumented and are linked as the
# CMake build links opt (its link.txt), clang++ -fsanitize=fuzzer doing the
# final link because they are C++.
#
#   test/fuzz/build_importers.sh [BUILD_DIR]     (default /tmp/wp-fuzz/importers/build)
# Binaries: BUILD_DIR/fuzz/fuzz_<name> (and a sanitized BUILD_DIR/bin/opt).
#   fuzz_hlo_import  HloModuleProto/HloProto import, export, round trip
#   fuzz_bir_proto   BIR protobuf import, bir-proto/bir-json output, round trip
#   fuzz_bir_json    BIR JSON import (as opt reads it), bir-json output, round trip
#   fuzz_hlo_text    HLO text reader; printer fixpoint (text -> proto -> text -> proto)
# Run one at a time, from a scratch directory (a weight origin in an input
# names a .npy file relative to it), e.g.:
#   cd /tmp/wp-fuzz/importers/work && nice -n 5 BUILD_DIR/fuzz/fuzz_hlo_import -jobs=1 \
#     -max_total_time=1500 -rss_limit_mb=2048 -timeout=10 \
#     -artifact_prefix=/tmp/wp-fuzz/importers/art/hlo/ /tmp/wp-fuzz/importers/corpus/hlo
# fuzz_bir_json wants -dict=test/fuzz/fuzz_bir_json.dict (jansson, which
# reads the keys, is not instrumented); fuzz_hlo_text -dict=
# test/fuzz/fuzz_hlo_text.dict, seeds test/lit/hlo-text/*.hlo.
# Seeds: /work/shared/data/hlo-real/*.pb, examples/mlp/model.hlo.pb, the .pb
# files the lit tests write, and opt --bir-lower --emit=bir-proto|bir-json
# of those. A crash reproduces with BUILD_DIR/fuzz/fuzz_<name> FILE.
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-/tmp/wp-fuzz/importers/build}
SAN="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
mkdir -p "$BUILD"

# The project sets -Werror and a GCC-only warning option; clang warns where
# GCC does not (missing field initializers), so errors are made warnings
# again after the project's flags, by a launcher appending -Wno-error.
LAUNCH="$BUILD/noerr.sh"
printf '#!/bin/sh\nexec "$@" -Wno-error\n' > "$LAUNCH"
chmod +x "$LAUNCH"
cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_C_COMPILER_LAUNCHER="$LAUNCH" -DCMAKE_CXX_COMPILER_LAUNCHER="$LAUNCH" \
    -DCMAKE_C_FLAGS="$SAN -Wno-unknown-warning-option" \
    -DCMAKE_CXX_FLAGS="-Wno-unknown-warning-option" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=fuzzer-no-link,address,undefined" >/dev/null
# (opt too: a sanitized opt reproduces a finding the way a user meets it)
cmake --build "$BUILD" -j2 --target weightpack wp_support wp_proto wp_opt

# The libraries after ours on opt's link line (MLIR, LLVMSupport, protobuf-c,
# jansson, ...), exactly as CMake resolved them.
LIBS=$(sed 's/.* -o bin\/opt //' "$BUILD/CMakeFiles/wp_opt.dir/link.txt")
mkdir -p "$BUILD/fuzz"
for h in "$SRC"/test/fuzz/fuzz_*.c; do
  name=$(basename "$h" .c)
  clang -std=c17 -g -O1 $SAN -Wall -Wextra -D_GNU_SOURCE \
    -I"$SRC/include" -I"$SRC/support" -I"$SRC/dialect" -I"$SRC/passes" \
    -I"$BUILD/gen" -isystem /usr/lib/llvm-19/include \
    -c "$h" -o "$BUILD/fuzz/$name.o"
  (cd "$BUILD" && clang++ -fsanitize=fuzzer,address,undefined "fuzz/$name.o" -o "fuzz/$name" $LIBS)
  echo "built $BUILD/fuzz/$name"
done
