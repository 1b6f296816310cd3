#!/usr/bin/env bash
# Sets up (packages + build) and runs the default suite on the best device
# (an AMD GCN GPU if present, else another GPU, else lavapipe). Extra arguments go to
# `gcnprobe run`, e.g. scripts/run.sh --filter 'texel.*' --json out/results.json
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$GCNPROBE_ROOT"
# Only the program (and its clrxdisasm stand-in): the tests are scripts/test.sh's to build.
bash scripts/setup.sh --target gcnprobe
./build/app/gcnprobe devices
exec ./build/app/gcnprobe run "$@"
