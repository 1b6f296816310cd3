#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ in build-fuzz/ (clang-14, ASan + UBSan) and runs each
# for a bounded time, starting from the example inputs in fuzz/corpus/ (and probes/ for the
# probe target), one target per core at a time. New inputs go to build-fuzz/corpus/, findings to
# build-fuzz/artifacts/.
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 20). Exit 1 when a target finds a
# crash, a sanitizer report, a broken round trip, a timeout or a leak.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
seconds="${1:-20}"
targets=(fuzz_asm fuzz_disasm fuzz_vsharp_text fuzz_vsharp_words fuzz_convert fuzz_probe)

# The two packages the fuzz build needs beyond the project's (both in scripts/packages.txt),
# so that the script also works alone on a fresh machine.
if [ -z "${GCNPROBE_SKIP_APT:-}" ] &&
   { ! command -v clang++-14 >/dev/null || ! dpkg -s libfuzzer-14-dev >/dev/null 2>&1; }; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get install -y clang-14 libfuzzer-14-dev
fi

CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -DGCNPROBE_FUZZ=ON -DGCNPROBE_BUILD_TESTS=OFF \
  -DGCNPROBE_BUILD_BENCH=OFF -DGCNPROBE_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]}"

# One target per core at a time (each is single-threaded): the same SECONDS each, in half the
# wall time on two cores. Each writes its own log, corpus and exit status; the report follows
# in the list's order.
run_target() {
  local t=$1
  mkdir -p "build-fuzz/corpus/$t" build-fuzz/artifacts
  local inputs=("build-fuzz/corpus/$t" "fuzz/corpus/$t")
  [ "$t" = fuzz_probe ] && inputs+=(probes)
  # A probe may legitimately take a moment (16 MiB images); 30 s for one input is a hang.
  local rc=0
  "build-fuzz/fuzz/$t" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$t-" "${inputs[@]}" \
    2>"build-fuzz/$t.log" || rc=$?
  echo "$rc" >"build-fuzz/$t.rc"
}
for t in "${targets[@]}"; do
  rm -f "build-fuzz/$t.rc"
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n || true; done
  run_target "$t" &
done
wait
failed=()
for t in "${targets[@]}"; do
  echo "== $t: ${seconds}s"
  if [ "$(cat "build-fuzz/$t.rc" 2>/dev/null || echo missing)" != 0 ]; then
    failed+=("$t")
    tail -n 40 "build-fuzz/$t.log"
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "build-fuzz/$t.log" || true
done
if [ "${#failed[@]}" -ne 0 ]; then
  echo "fuzz: findings in ${failed[*]} (inputs in build-fuzz/artifacts/)" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, ${seconds}s each, no findings"
