#!/usr/bin/env bash
# Times the README's commands as a new user meets them: a fresh clone of HEAD in a temp folder,
# an empty ccache, then `scripts/run.sh` (to its first result: the default suite's summary),
# `scripts/test.sh` after it (the same build folder, as a user runs them), and with --ci the
# whole of `.ci/run` in a second fresh clone. Prints one line per command and fails when one
# took longer than README.md's table "How long the commands take" allows (its bound column, in
# minutes). Packages are what this machine has: on a machine without them, add the time
# `apt-get install` takes (measured in docs/building.md).
# Usage: scripts/measure-commands.sh [--ci] [--keep]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
ci=0 keep=0
for a in "$@"; do
  case "$a" in
    --ci) ci=1 ;;
    --keep) keep=1 ;;
    *) echo "measure-commands.sh: unknown argument '$a'" >&2; exit 2 ;;
  esac
done

# README.md's row of a command: "| `scripts/run.sh` ... | <measured> | <bound> min |".
bound() {
  awk -F'|' -v name="\`$1\`" '$2 ~ "^ " name " $" { v = $(NF - 1); gsub(/[^0-9]/, "", v); print v; exit }' \
    "$GCNPROBE_ROOT/README.md"
}

work=$(mktemp -d "${TMPDIR:-/tmp}/gcnprobe-measure-XXXXXX")
# Kept when a command failed, for its log.
trap '[ "$keep" = 1 ] || [ "$failed" = 1 ] || rm -rf "$work"' EXIT
failed=0
export CCACHE_DIR="$work/ccache"
measure() {  # name dir command...
  local name=$1 dir=$2
  shift 2
  local start end rc=0
  start=$(date +%s)
  (cd "$dir" && "$@") >"$work/$(basename "$name").log" 2>&1 || rc=$?
  end=$(date +%s)
  local s=$((end - start)) b
  b=$(bound "$name")
  printf '%-18s %4d s (%d min %02d s), exit %d, README bound: %s min\n' "$name" "$s" $((s / 60)) \
    $((s % 60)) "$rc" "${b:-none}"
  if [ "$rc" -ne 0 ]; then
    tail -n 20 "$work/$(basename "$name").log" >&2
    failed=1
  elif [ -z "$b" ]; then
    echo "measure-commands.sh: README.md states no bound for $name" >&2
    failed=1
  elif [ "$s" -gt $((b * 60)) ]; then
    echo "measure-commands.sh: $name took longer than README.md says ($b min)" >&2
    failed=1
  fi
}

git clone -q "$GCNPROBE_ROOT" "$work/clone"
measure scripts/run.sh "$work/clone" bash scripts/run.sh
measure scripts/test.sh "$work/clone" bash scripts/test.sh
if [ "$ci" = 1 ]; then
  git clone -q "$GCNPROBE_ROOT" "$work/clone-ci"
  rm -rf "$CCACHE_DIR"
  measure .ci/run "$work/clone-ci" env CI=true bash .ci/run
fi
[ "$keep" = 1 ] && echo "logs and clones in $work"
exit "$failed"
