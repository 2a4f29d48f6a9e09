#!/usr/bin/env bash
# weightpack setup: install the Debian packages the build needs (only those
# missing), configure and build, then run what was asked for.
#
#   ./setup.sh example   build, then run the pipeline on examples/mlp
#                        (inline-weights, bir-lower, neff-pack) and print neff info
#   ./setup.sh test      build, run every test, then the same suite under
#                        AddressSanitizer + UndefinedBehaviorSanitizer, then
#                        check that a Release (-O3) build compiles warning-free,
#                        check it holds no test hook, run the two-thread test
#                        under ThreadSanitizer, then build the fuzz harnesses
#                        (clang) and run each briefly
#   ./setup.sh build     only install and build
#
# Environment: BUILD_DIR (default build), ASAN_BUILD_DIR (default build-asan),
# RELEASE_BUILD_DIR (default build-release), FUZZ_BUILD_DIR (default build-fuzz),
# JOBS (default: number of cores), WP_SKIP_ASAN=1 to skip the sanitizer build,
# WP_SKIP_FUZZ=1 to skip the fuzz harnesses, TSAN_BUILD_DIR (default
# build-tsan), WP_SKIP_TSAN=1 to skip the ThreadSanitizer run of the
# two-thread test.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
build=${BUILD_DIR:-build}
asan_build=${ASAN_BUILD_DIR:-build-asan}
release_build=${RELEASE_BUILD_DIR:-build-release}
fuzz_build=${FUZZ_BUILD_DIR:-build-fuzz}
tsan_build=${TSAN_BUILD_DIR:-build-tsan}
jobs=${JOBS:-$(nproc)}

packages=(
  gcc g++ make cmake python3 python3-numpy
  libmlir-19-dev mlir-19-tools llvm-19-dev llvm-19-tools
  libprotobuf-c-dev protobuf-c-compiler protobuf-compiler
  libarchive-dev libssl-dev libjansson-dev libyajl-dev libisal-dev liburing-dev time isal pkg-config
  bsdutils  # script(1): the progress test's pseudo-terminal
  ninja-build      # weightpack_add_neff's test: a Ninja build reading opt's depfile
  bazel-bootstrap  # the Bazel rule's test (Debian's Bazel 4.2.3)
  nginx            # its HTTP remote cache (WebDAV PUT), on 127.0.0.1 for the test only
)

install_packages() {
  local missing=()
  for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$p")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "setup: installing ${missing[*]}" >&2
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q \
    --no-install-recommends "${missing[@]}"
}

configure_and_build() { # dir, extra cmake args...
  local dir=$1; shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}

run_tests() { # dir
  (cd "$1" && ctest --output-on-failure -j "$jobs")
}

cmd=${1:-build}
case "$cmd" in
  build)
    install_packages
    configure_and_build "$build"
    ;;
  example)
    install_packages
    configure_and_build "$build"
    mkdir -p "$build/example"
    echo "== $build/bin/opt examples/mlp --inline-weights --bir-lower --neff-pack -o $build/example/mlp.neff" >&2
    "$build/bin/opt" examples/mlp --inline-weights --bir-lower --neff-pack -o "$build/example/mlp.neff"
    echo "== $build/bin/neff info $build/example/mlp.neff" >&2
    "$build/bin/neff" info "$build/example/mlp.neff"
    echo "== $build/bin/neff ls --tensors $build/example/mlp.neff" >&2
    "$build/bin/neff" ls --tensors "$build/example/mlp.neff"
    ;;
  test)
    if [ "${WP_SKIP_FUZZ:-0}" != 1 ]; then # clang, libFuzzer; zlib for fuzz_neff_tar
      packages+=(clang libclang-rt-dev zlib1g-dev)
    fi
    install_packages
    configure_and_build "$build"
    run_tests "$build"
    if [ "${WP_SKIP_ASAN:-0}" != 1 ]; then
      configure_and_build "$asan_build" -DWP_SANITIZE=ON
      run_tests "$asan_build"
    fi
    # -O3 finds warnings (so errors) the other builds do not; build only.
    echo "setup: a Release build must compile without warnings too" >&2
    cmake -S . -B "$release_build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$release_build" -j "$jobs"
    # Test hooks (WP_TEST_*) are compiled into test builds only.
    # (grep -c reads all: grep -q would end strings with SIGPIPE, which
    # pipefail turns into a failed test that passes)
    hooks=$(strings "$release_build/bin/opt" "$release_build/lib/libweightpack.so" | grep -c WP_TEST_ || true)
    if [ "$hooks" != 0 ]; then
      echo "setup: $hooks WP_TEST_ strings in the Release opt and libweightpack.so" >&2
      exit 1
    fi
    # Two pipelines on two threads of one process, under ThreadSanitizer
    # (weightpack's code instrumented; MLIR's is not).
    if [ "${WP_SKIP_TSAN:-0}" != 1 ]; then
      tsan=-fsanitize=thread
      cmake -S . -B "$tsan_build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS=$tsan \
        -DCMAKE_CXX_FLAGS=$tsan -DCMAKE_EXE_LINKER_FLAGS=$tsan \
        -DCMAKE_SHARED_LINKER_FLAGS=$tsan >/dev/null
      cmake --build "$tsan_build" -j "$jobs" --target wp_opt test_capi_threads
      mkdir -p "$tsan_build/tmp"
      (cd "$tsan_build/test/unit" && TMPDIR="$PWD/../../tmp" \
        TSAN_OPTIONS=halt_on_error=1:exitcode=66 ./test_capi_threads)
    fi
    # Every fuzz harness builds and survives a short run on its seeds
    # (test/fuzz/smoke.sh, 12 s each).
    if [ "${WP_SKIP_FUZZ:-0}" != 1 ]; then
      cmake -S . -B "$fuzz_build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWP_FUZZ=ON \
        -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
      cmake --build "$fuzz_build" -j "$jobs" --target wp_fuzz
      test/fuzz/smoke.sh "$fuzz_build" 12
    fi
    ;;
  *)
    echo "usage: ./setup.sh [build|example|test]" >&2
    exit 2
    ;;
esac
