#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (clang-14, ASan + UBSan) and runs each for a bounded
# time, starting from the example inputs in fuzz/corpus/ (and probes/ for the probe target), one
# target per core at a time. New inputs go to DIR/corpus/, findings to DIR/artifacts/.
# Usage: scripts/fuzz.sh [--build-dir DIR] [SECONDS_PER_TARGET]   (default 20)
#   DIR: build-fuzz (default), a tree of the fuzz targets alone; or a tree configured already
#   with GCNPROBE_FUZZ=ON, such as the sanitizer build of `scripts/setup.sh --sanitize`
#   (build-asan), whose targets are then only brought up to date (CI runs them there).
# Exit 1 when a target finds a crash, a sanitizer report, a broken round trip, a timeout or a
# leak.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
dir=build-fuzz
if [ "${1:-}" = --build-dir ]; then
  dir="${2:?fuzz.sh: --build-dir needs a folder}"
  shift 2
fi
seconds="${1:-20}"
case "$seconds" in
  '' | *[!0-9]*) echo "fuzz.sh: SECONDS_PER_TARGET must be a whole number, not '$seconds'" >&2; exit 2 ;;
esac
targets=(fuzz_asm fuzz_disasm fuzz_vsharp_text fuzz_vsharp_words fuzz_convert fuzz_probe fuzz_oracle)

# The two packages the fuzz build needs beyond the project's (both in scripts/packages.txt),
# so that the script also works alone on a fresh machine.
if [ -z "${GCNPROBE_SKIP_APT:-}" ] &&
   { ! command -v clang++-14 >/dev/null || ! dpkg -s libfuzzer-14-dev >/dev/null 2>&1; }; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get install -y clang-14 libfuzzer-14-dev
fi

if [ "$dir" = build-fuzz ]; then
  CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -DGCNPROBE_FUZZ=ON -DGCNPROBE_BUILD_TESTS=OFF \
    -DGCNPROBE_BUILD_BENCH=OFF -DGCNPROBE_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
elif ! grep -q '^GCNPROBE_FUZZ:[A-Z]*=ON$' "$dir/CMakeCache.txt" 2>/dev/null; then
  echo "fuzz.sh: $dir is not a build folder configured with GCNPROBE_FUZZ=ON" \
    "(scripts/setup.sh --sanitize makes build-asan one)" >&2
  exit 2
fi
cmake --build "$dir" -j"$(nproc)" --target "${targets[@]}"

# One target per core at a time (each is single-threaded): the same SECONDS each, in half the
# wall time on two cores. Each writes its own log, corpus and exit status; the report follows
# in the list's order.
run_target() {
  local t=$1
  mkdir -p "$dir/corpus/$t" "$dir"/artifacts
  local inputs=("$dir/corpus/$t" "fuzz/corpus/$t")
  [ "$t" = fuzz_probe ] && inputs+=(probes)
  # A probe may legitimately take a moment (16 MiB images); 30 s for one input is a hang.
  local rc=0
  "$dir/fuzz/$t" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$dir/artifacts/$t-" "${inputs[@]}" \
    2>"$dir/$t.log" || rc=$?
  echo "$rc" >"$dir/$t.rc"
}
for t in "${targets[@]}"; do
  rm -f "$dir/$t.rc"
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n || true; done
  run_target "$t" &
done
wait
failed=()
for t in "${targets[@]}"; do
  echo "== $t: ${seconds}s"
  if [ "$(cat "$dir/$t.rc" 2>/dev/null || echo missing)" != 0 ]; then
    failed+=("$t")
    tail -n 40 "$dir/$t.log"
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$dir/$t.log" || true
done
if [ "${#failed[@]}" -ne 0 ]; then
  echo "fuzz: findings in ${failed[*]} (inputs in $dir/artifacts/)" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, ${seconds}s each, no findings"
