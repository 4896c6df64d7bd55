# shellcheck shell=bash
# common.sh - shared by demo.sh and test.sh: configure and build tilec with Ninja.
# Sourced, not run. Honors BUILD_DIR (default ./build) and JOBS (default: all cores).

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-$(nproc)}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH="$CUDA_HOME/bin:$PATH"

configure_and_build() {
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCUDAToolkit_ROOT="$CUDA_HOME" "$@"
  cmake --build "$BUILD_DIR" -j "$JOBS"
}
