#!/usr/bin/env bash
# Peak resident memory of `gcnprobe run` (in-process, on the default device), per suite and
# for the whole default run: what a runner must have free. GNU time's %M (maximum RSS, KiB).
# Usage: bench/run_memory.sh [GCNPROBE_BINARY]   (default build/app/gcnprobe)
set -euo pipefail
bin="${1:-$(dirname "${BASH_SOURCE[0]}")/../build/app/gcnprobe}"
[ -x /usr/bin/time ] || { echo "run_memory: needs GNU time (apt-get install time)" >&2; exit 3; }
for suite in texel storage atomic vertex ""; do
  args=(run --isolate off --quiet)
  [ -n "$suite" ] && args+=(--suite "$suite")
  stats=$(mktemp)
  /usr/bin/time -o "$stats" -f "%M %e" "$bin" "${args[@]}" >/dev/null 2>&1 || true
  # The last line: GNU time puts "Command exited with non-zero status N" before it.
  read -r kib seconds < <(tail -n 1 "$stats")
  rm -f "$stats"
  printf '%-8s peak RSS %6d MB  %5.2f s\n' "${suite:-all}" $((kib / 1024)) "$seconds"
done
