#!/bin/sh
# Builds the NEFF reading fuzzers (libFuzzer, ASan, UBSan) with clang into
# $OUT (default /tmp/wp-fuzz/neff/build): fuzz_neff_raw, fuzz_neff_tar, fuzz_neff_gz and
# fuzz_neff_json. The project's sources are compiled directly, instrumented,
# into a static library the harnesses pull what they need from; libarchive,
# jansson, ISA-L, zlib and OpenSSL are the system's, uninstrumented.
# Run one at a time (each unpacks into its own /tmp/wp-fuzz/neff/run-PID/jail):
#   test/fuzz/build_neff.sh
#   cd /tmp/wp-fuzz/neff && nice -n 5 build/fuzz_neff_tar -jobs=1 -max_total_time=1200 \
#     -rss_limit_mb=2048 -timeout=10 -close_fd_mask=2 -artifact_prefix=art/tar/ corpus/tar
# Seeds: NEFFs from build/bin/opt (examples/mlp, test/lit/Inputs/npymodel.py
# models) for raw, their payloads (tail -c +1025) for gz, those gunzipped
# for tar; for json a byte 0 and a BIR JSON (opt --emit=bir-json, or a
# NEFF's sg00/bir.json), or a byte 1 and a NEFF's bom.json.
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/wp-fuzz/neff/build}
CC=${CC:-/usr/bin/clang}
mkdir -p "$OUT/obj" "$OUT/gen"

protoc-c --c_out="$OUT/gen" -I "$SRC/dialect" "$SRC/dialect/bir.proto" "$SRC/dialect/hlo.proto"

SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
CFLAGS="-std=c17 -g -O1 $SAN -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -DWP_VERSION=\"fuzz\"
  -I$SRC/include -I$SRC/support -I$SRC/packaging -I$SRC/dialect -I$SRC/passes -I$SRC/tools
  -I$SRC/test/fuzz -isystem $OUT/gen -isystem /usr/lib/llvm-19/include
  $(pkg-config --cflags jansson libarchive libprotobuf-c)"
LIBS="$(pkg-config --libs jansson libarchive libprotobuf-c) -lisal -lz -lcrypto -lpthread"

# the project, instrumented for coverage (fuzzer-no-link: no main of its own)
cc_obj() { # OBJ SRC [flags]
  o=$1 s=$2; shift 2
  $CC $CFLAGS -fsanitize=fuzzer-no-link -w "$@" -c "$s" -o "$OUT/obj/$o.o"
}
rm -f "$OUT/obj/"*.o "$OUT/libwp_fuzz.a"
for s in "$SRC"/support/*.c "$SRC"/packaging/wp_neff_read.c "$SRC"/packaging/wp_neff_archive.c \
         "$SRC"/packaging/wp_pgzip.c "$SRC"/passes/wp_hashed_files.c \
         "$SRC"/dialect/wp_bir_json.c "$SRC"/dialect/wp_bir_enums.c \
         "$OUT"/gen/bir.pb-c.c "$OUT"/gen/hlo.pb-c.c; do
  cc_obj "$(basename "$s" .c)" "$s"
done
# neff's main is called once per input; unpack's file creation is checked
cc_obj neff "$SRC/tools/neff.c" -Dmain=neff_main
cc_obj neff_unpack "$SRC/tools/neff_unpack.c" -include "$SRC/test/fuzz/fuzz_unpack_wrap.h"
ar rcs "$OUT/libwp_fuzz.a" "$OUT"/obj/*.o

# the harnesses, warnings on
HW="-Wall -Wextra -Werror"
$CC $CFLAGS $HW -c "$SRC/test/fuzz/fuzz_neff_common.c" -o "$OUT/fuzz_neff_common.o"
$CC $CFLAGS $HW -c "$SRC/test/fuzz/fuzz_version.c" -o "$OUT/fuzz_version.o"
for h in raw tar gz; do
  $CC $CFLAGS $HW -fsanitize=fuzzer "$SRC/test/fuzz/fuzz_neff_$h.c" "$OUT/fuzz_neff_common.o" \
      "$OUT/fuzz_version.o" "$OUT/libwp_fuzz.a" $LIBS -o "$OUT/fuzz_neff_$h"
done
$CC $CFLAGS $HW -fsanitize=fuzzer "$SRC/test/fuzz/fuzz_neff_json.c" "$OUT/fuzz_version.o" \
    "$OUT/libwp_fuzz.a" $LIBS -o "$OUT/fuzz_neff_json"
echo "built: $OUT/fuzz_neff_{raw,tar,gz,json}"
