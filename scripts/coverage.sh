#!/usr/bin/env bash
# Line coverage of the GPU path (harness/routes, harness/isa, app/isolation.cpp) from a build
# instrumented with GCNPROBE_COVERAGE, as a report (never a gate): per file the lines run, and
# every function of those files that no test ran.
# Usage: scripts/coverage.sh [--build-dir DIR] [--run]
#   --run: first set up and build DIR with scripts/setup.sh --coverage (default build-coverage)
#          and run its tests; without it the report reads what DIR's tests left (CI: build-asan
#          after scripts/test.sh --sanitize).
# Writes DIR/coverage.txt and DIR/coverage.json (gcovr's JSON).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$GCNPROBE_ROOT"

build_dir=build-coverage
run=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build_dir="$2"; shift ;;
    --run) run=1 ;;
    *) echo "coverage.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
if [ "$run" = 1 ]; then
  bash scripts/setup.sh --coverage --build-dir "$build_dir"
  find "$build_dir" -name '*.gcda' -delete
  (cd "$build_dir" && ctest -j "$(nproc)" --output-on-failure -LE browser) || true
fi
command -v gcovr >/dev/null || { echo "coverage.sh: gcovr is missing (scripts/setup.sh installs it)" >&2; exit 3; }
if [ -z "$(find "$build_dir" -name '*.gcda' -print -quit)" ]; then
  echo "coverage.sh: no coverage data in $build_dir (build it with GCNPROBE_COVERAGE=ON and run its tests)" >&2
  exit 3
fi
# Notes files an object no longer has: a source the build once instrumented and has since
# compiled without coverage (only the GPU path is instrumented) keeps its old .gcno beside an
# object that calls no coverage runtime, which gcovr would read and fail to merge with the
# current notes.
while IFS= read -r -d '' note; do
  object="${note%.gcno}.o"
  if [ -f "$object" ] && ! nm -u "$object" 2>/dev/null | grep -q gcov; then rm -f "$note"; fi
done < <(find "$build_dir" -name '*.gcno' -print0)
filters=(--filter 'harness/routes/' --filter 'harness/isa/' --filter 'app/isolation\.cpp')
# The data's format is the compiler's: GCC's gcov reads GCC's, LLVM's `llvm-cov-N gcov` clang-N's
# (the sanitizer build is clang-14's).
gcov=gcov
compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build_dir/CMakeCache.txt" 2>/dev/null || true)
if [[ "$compiler" == *clang* ]]; then
  version=$(sed -n 's/^CMAKE_CXX_COMPILER_VERSION:[A-Z]*=\([0-9]*\).*/\1/p' "$build_dir/CMakeCache.txt")
  [ -n "$version" ] || version=$("$compiler" -dumpversion | cut -d. -f1)
  gcov="llvm-cov-$version gcov"
  command -v "llvm-cov-$version" >/dev/null ||
    { echo "coverage.sh: llvm-cov-$version is missing (scripts/setup.sh installs it)" >&2; exit 3; }
fi
# The build folder as a search path (not --object-directory): gcovr then finds the working
# directory LLVM's gcov needs for the Makefile generator's relative object paths.
# gcov writes its .gcov files into the working folder (the source tree) and gcovr removes them,
# unless it stops half-way: they never stay behind.
trap 'rm -f -- ./*.gcov' EXIT
gcovr -r . --gcov-executable "$gcov" "${filters[@]}" --json "$build_dir/coverage.json" "$build_dir" \
  >/dev/null 2>"$build_dir/coverage.log"
python3 - "$build_dir/coverage.json" "$build_dir/coverage.txt" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
out = []
total = [0, 0]
groups = {}
never = []
for f in sorted(doc["files"], key=lambda f: f["file"]):
    lines = [l for l in f["lines"] if not l.get("gcovr/noncode", False)]
    run = sum(1 for l in lines if l["count"] > 0)
    total[0] += run
    total[1] += len(lines)
    group = "app/isolation.cpp" if f["file"].startswith("app/") else "/".join(f["file"].split("/")[:2])
    g = groups.setdefault(group, [0, 0])
    g[0] += run
    g[1] += len(lines)
    out.append("  %-44s %5d of %5d lines (%5.1f%%)" % (f["file"], run, len(lines), 100.0 * run / max(1, len(lines))))
    seen = set()
    for fn in f.get("functions", []):
        name = fn.get("demangled_name") or fn.get("name")
        if fn.get("execution_count", 0) == 0 and name not in seen:
            seen.add(name)
            never.append("  %s:%s  %s" % (f["file"], fn.get("lineno", "?"), name))
text = ["GPU-path line coverage (gcovr):"]
for g, (r, n) in sorted(groups.items()):
    text.append("  %-44s %5d of %5d lines (%5.1f%%)" % (g, r, n, 100.0 * r / max(1, n)))
text.append("per file:")
text += out
text.append("functions no test ran (%d):" % len(never))
text += never
open(sys.argv[2], "w").write("\n".join(text) + "\n")
print("\n".join(text[: len(groups) + 1]))
print("coverage: %d of %d lines; details in %s" % (total[0], total[1], sys.argv[2]))
# The GPU path is thousands of lines: a handful means the data was not read (coverage.log).
if total[1] < 1000:
    print("coverage.sh: only %d lines of the GPU path were read; gcov's complaints are in %s"
          % (total[1], sys.argv[1].replace("coverage.json", "coverage.log")), file=sys.stderr)
    sys.exit(3)
PY
