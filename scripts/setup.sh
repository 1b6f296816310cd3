#!/usr/bin/env bash
# Installs every Debian package gcnprobe needs (scripts/packages.txt), puts Mesa 25 beside the
# system's Mesa (scripts/mesa25.sh, into DIR/drivers/mesa25), then configures and builds.
# Usage: scripts/setup.sh [--sanitize | --release | --coverage] [--build-dir DIR] [--target T]...
#   --sanitize: ASan/UBSan Debug build in build-asan with clang-14, instrumented for line
#   coverage too (scripts/coverage.sh reports it), with the libFuzzer targets of fuzz/
#   (scripts/fuzz.sh --build-dir build-asan runs them); --release: Release build of the program alone (no tests,
#   no benchmarks) in build-release, as a packager would build it; --coverage: a Debug build
#   with line coverage and both drivers in build-coverage (scripts/coverage.sh).
# Environment: GCNPROBE_SKIP_APT=1 skips the package step (for machines set up already);
# GCNPROBE_SKIP_MESA25=1 skips Mesa 25. Without CI, a Mesa 25 that cannot be fetched is a
# warning (the tests then run on the system driver only); with CI=true it is an error.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$GCNPROBE_ROOT"

build_dir=build
targets=()
mesa25=1  # the sanitizer and Release builds run no driver checks of their own
# The project's own builds treat warnings as errors; a user's plain cmake build does not.
cmake_args=(-DGCNPROBE_WERROR=ON)
# build/ is a Release build: the packager's flags (so CI's Release check takes its objects from
# ccache) and no debug information, which cost a third of the compile time and most of the link
# (docs/building.md). The sanitizer build keeps full debug information for its reports.
build_type=Release
# Release flags: -O2, as Debian's packages are built (dpkg-buildflags), not CMake's -O3, which
# costs a quarter more compile time (docs/building.md). build/ and build-release/ share them, so
# CI's Release check takes build/'s objects from ccache.
release_flags=(-DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG")
# The sanitizer build is clang's: it compiles the unoptimised, instrumented tree in 40% of GCC's
# time, and the same tree then holds the libFuzzer targets (clang only). The other builds are
# GCC's, so both compilers build every source with warnings as errors.
compiler=default
while [ $# -gt 0 ]; do
  case "$1" in
    --sanitize) build_dir=build-asan; build_type=Debug; compiler=clang; mesa25=0
      cmake_args+=(-DGCNPROBE_SANITIZE=ON -DGCNPROBE_COVERAGE=ON -DGCNPROBE_FUZZ=ON -DGCNPROBE_BUILD_BENCH=OFF) ;;
    --coverage) build_dir=build-coverage; build_type=Debug; cmake_args+=(-DGCNPROBE_COVERAGE=ON -DGCNPROBE_BUILD_BENCH=OFF) ;;
    --release) build_dir=build-release; cmake_args+=(-DGCNPROBE_BUILD_TESTS=OFF -DGCNPROBE_BUILD_BENCH=OFF); mesa25=0 ;;
    --build-dir) build_dir="$2"; shift ;;
    --target) targets+=(--target "$2"); shift ;;
    *) echo "setup.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done

mapfile -t packages < <(grep -v '^\s*#' scripts/packages.txt | grep -v '^\s*$')
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${GCNPROBE_SKIP_APT:-0}" != 1 ] && [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ "$mesa25" = 1 ] && [ "${GCNPROBE_SKIP_MESA25:-0}" != 1 ]; then
  if ! bash scripts/mesa25.sh --dir "$build_dir/drivers/mesa25" >/dev/null; then
    [ "${CI:-}" = true ] && { echo "setup: Mesa 25 is required in CI" >&2; exit 3; }
    echo "setup: warning: no Mesa 25; tests run on the system driver only" >&2
  fi
fi

compiler_env=()
if [ "$compiler" = clang ]; then
  compiler_env=(CC=clang-14 CXX=clang++-14)
  # A folder configured earlier with another compiler keeps it in its cache: start that one anew.
  if [ -f "$build_dir/CMakeCache.txt" ] &&
     ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++-14$' "$build_dir/CMakeCache.txt"; then
    echo "setup: $build_dir was configured with another compiler; configuring it anew with clang-14"
    rm -rf "$build_dir/CMakeCache.txt" "$build_dir/CMakeFiles"
  fi
fi
[ "$build_type" = Release ] && cmake_args+=("${release_flags[@]}")
env "${compiler_env[@]}" cmake -S . -B "$build_dir" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE="$build_type" \
  "${cmake_args[@]}" >/dev/null
cmake --build "$build_dir" -j "$(nproc)" "${targets[@]}"
echo "setup: built in $build_dir"
