#!/usr/bin/env bash
# demo.sh - the whole pipeline on the vector add example: build tilec, translate the
# kernel, show the generated CUDA, compile it with NVRTC, run it and check the results
# (on the GPU when there is one, else in the host interpreter).
set -euo pipefail
source "$(dirname "$0")/common.sh"

step() { printf '\n==== %s\n' "$*"; }

step "1. install what is missing"
"$ROOT/scripts/setup.sh"

step "2. configure and build (Ninja, $BUILD_DIR)"
configure_and_build "$@"

tilec=$BUILD_DIR/translator/tilec
kernel=$ROOT/examples/vector_add/vector_add.cpp
gen=$BUILD_DIR/demo
step "3. translate $kernel"
"$tilec" -o "$gen" "$kernel"
ls -l "$gen"

step "4. the generated CUDA ($gen/vector_add.cu)"
cat "$gen/vector_add.cu"

step "5. compile it with NVRTC for sm_90a"
"$tilec" -o "$gen" --check --arch=sm_90a "$kernel"
echo "NVRTC compiled the generated CUDA for sm_90a"

step "6. run the example and check its results"
"$BUILD_DIR/examples/vector_add/vector_add"
