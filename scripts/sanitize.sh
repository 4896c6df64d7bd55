#!/usr/bin/env bash
# sanitize.sh - the second build type: the translator, the runtime and their tests built by
# clang with AddressSanitizer and UBSan (any report fails the test that ran into it), and a
# short run of the translator's fuzzer (tests/fuzz). Its own build folder, so that the Release
# build is untouched: $SANITIZE_BUILD_DIR, default ./build-sanitize.
# FUZZ_SECONDS (default 120) sets the length of the fuzzing run.
set -euo pipefail
source "$(dirname "$0")/common.sh"

dir=${SANITIZE_BUILD_DIR:-$ROOT/build-sanitize}
# The clang of a supported LLVM (setup.sh installs one, with its sanitizer runtimes).
cc="" cxx=""
for v in 19 20 18; do
  if command -v "clang++-$v" >/dev/null; then
    cc=clang-$v cxx=clang++-$v
    break
  fi
done
[[ -n $cxx ]] || { echo "sanitize: no clang++-18/19/20 found (scripts/setup.sh installs one)" >&2; exit 1; }
# -O1: sanitized code runs fast enough and compiles much faster than -O3. --as-needed, as
# Debian's gcc links by default: the driver library is loaded at run time, when there is one.
cmake -S "$ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_FLAGS="-O1 -g1" \
  -DCMAKE_EXE_LINKER_FLAGS=-Wl,--as-needed -DCMAKE_SHARED_LINKER_FLAGS=-Wl,--as-needed \
  -DCMAKE_C_COMPILER=$cc -DCMAKE_CXX_COMPILER=$cxx -DCUDAToolkit_ROOT="$CUDA_HOME" \
  -DTILEC_SANITIZE=ON -DTILEC_FUZZ=ON -DTILEC_BUILD_EXAMPLES=OFF \
  -DTILEC_FUZZ_SECONDS="${FUZZ_SECONDS:-120}"
cmake --build "$dir" -j "$JOBS" --target tilec tilec-opt tilec_unit_tests runtime_tests \
  translate_fuzzer
# clang's front end frees some of its memory only at exit; leaks are not what this looks for.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
# The translator's tests, the runtime's NVRTC-free tests, the corpus and the fuzzer; the
# nvrtc.* compiles spend their time inside NVRTC, which is not instrumented.
ctest --test-dir "$dir" --output-on-failure -j "$JOBS" \
  -R '^(unit|translate|passes|diagnostics|robustness|runtime|fuzz)\.'
