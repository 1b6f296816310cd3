#!/usr/bin/env bash
# Sets up (packages + build) and runs every test with ctest.
# Usage: scripts/test.sh [--sanitize]   (--sanitize: ASan/UBSan build in build-asan)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$GCNPROBE_ROOT"
build_dir=build
[ "${1:-}" = "--sanitize" ] && build_dir=build-asan
bash scripts/setup.sh "$@"
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
