#!/usr/bin/env bash
# test.sh - set up, configure, build and run every test, then the sanitizer build
# (sanitize.sh). GPU tests report "skipped" on a machine without a GPU.
set -euo pipefail
source "$(dirname "$0")/common.sh"

"$ROOT/scripts/setup.sh"
configure_and_build "$@"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS"
# The second build type: ASan + UBSan over the translator and the runtime, and a short fuzzing
# run (SANITIZE=0 skips it).
if [[ ${SANITIZE:-1} != 0 ]]; then
  "$ROOT/scripts/sanitize.sh"
fi
