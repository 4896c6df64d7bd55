#!/usr/bin/env bash
# test.sh - set up, configure, build and run every test. GPU tests report "skipped" on a
# machine without a GPU.
set -euo pipefail
source "$(dirname "$0")/common.sh"

"$ROOT/scripts/setup.sh"
configure_and_build "$@"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS"
