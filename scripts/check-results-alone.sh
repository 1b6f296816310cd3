#!/usr/bin/env bash
# Builds the results layer and its tests in a build configured without Vulkan
# (-DGCNPROBE_WITH_VULKAN=OFF: CMake never looks for it), runs those tests, and checks that the
# configuration found no Vulkan. Packages: scripts/setup.sh installs them. docs/architecture.md.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$GCNPROBE_ROOT"
dir=build-novulkan
# Without unity batches too: every source of the reference and the results layer compiles alone,
# as in a user's -DGCNPROBE_UNITY=OFF build (a unity batch can hide a missing #include). Build type
# None: no optimisation flags, which halves the compile time of a check whose tests take 0.1 s.
cmake -S . -B "$dir" -DGCNPROBE_WITH_VULKAN=OFF -DGCNPROBE_WERROR=ON -DGCNPROBE_BUILD_BENCH=OFF \
  -DGCNPROBE_UNITY=OFF \
  -DCMAKE_BUILD_TYPE=None > /dev/null
if grep -qiE '^(Vulkan|volk)[A-Za-z_]*:' "$dir/CMakeCache.txt"; then
  echo "check-results-alone: the configuration without Vulkan looked for it:" >&2
  grep -iE '^(Vulkan|volk)[A-Za-z_]*:' "$dir/CMakeCache.txt" >&2
  exit 1
fi
cmake --build "$dir" -j "$(nproc)" --target gcnprobe_results_tests
ctest --test-dir "$dir" --output-on-failure -j "$(nproc)" -L '^results$'
n=$(ctest --test-dir "$dir" -N -L '^results$' | sed -n 's/^Total Tests: //p')
echo "check-results-alone: the results layer built and ${n} of its tests passed without Vulkan"
