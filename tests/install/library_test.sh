#!/usr/bin/env bash
# The installed reference library (docs/library.md): `cmake --install BUILD --component dev`
# into a fresh prefix; the example consumer (examples/reference-oracle) built against it with
# CMake (static and shared) and with pkg-config; each gives, for several formats, the register
# bits `gcnprobe convert` prints; the shared library exports the gcn namespace and nothing else
# and carries a versioned SONAME; the installed headers need nothing but the standard library.
# Usage: library_test.sh BUILD_DIR GCNPROBE_PROGRAM SOURCE_DIR VERSION
set -euo pipefail
build=$1 gcnprobe=$2 src=$3 version=$4
fail() { echo "library_test: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

cmake --install "$build" --component dev --prefix "$prefix" >/dev/null
pc=$(find "$prefix" -name gcnprobe-reference.pc)
[ -n "$pc" ] || fail "no gcnprobe-reference.pc installed"
config=$(find "$prefix" -name gcnprobeConfig.cmake)
[ -n "$config" ] || fail "no gcnprobeConfig.cmake installed"
[ -f "$prefix/include/gcnprobe/reference/convert.h" ] || fail "no headers under include/gcnprobe/reference"
so=$(find "$prefix" -name 'libgcnprobe-reference.so.*.*.*')
[ -n "$so" ] || fail "no versioned shared library"
soname=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = "libgcnprobe-reference.so.${version%.*}" ] || fail "SONAME '$soname', not libgcnprobe-reference.so.${version%.*}"
# Only the gcn namespace is exported (functions, variables, type information, virtual tables).
others=$(nm -D --defined-only "$so" | awk '{ $1 = ""; $2 = ""; sub(/^  /, ""); print }' | c++filt |
         grep -v -E '^(gcn::|typeinfo for gcn::|typeinfo name for gcn::|vtable for gcn::|non-virtual thunk to gcn::|GCNPROBE_REFERENCE$)' || true)
[ -z "$others" ] || fail "the shared library exports more than the gcn namespace:
$(head -n 5 <<<"$others")"
# The installed headers include only each other and standard headers, and compile so.
bad=$(grep -h '^#include' "$prefix"/include/gcnprobe/reference/*.h | grep -v -E '^#include ("reference/[a-z_0-9]+\.h"|<[a-z_]+>)$' || true)
[ -z "$bad" ] || fail "an installed header includes something else: $bad"
for h in "$prefix"/include/gcnprobe/reference/*.h; do
  echo "#include \"reference/$(basename "$h")\""
done > "$work/all.cpp"
echo 'int main() { return 0; }' >> "$work/all.cpp"
c++ -std=c++20 -fsyntax-only -I"$prefix/include/gcnprobe" "$work/all.cpp" ||
  fail "the installed headers do not compile on their own"

# The example, three ways.
cmake -S "$src/examples/reference-oracle" -B "$work/static" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/static" >/dev/null
cmake -S "$src/examples/reference-oracle" -B "$work/shared" -DCMAKE_PREFIX_PATH="$prefix" \
  -DGCNPROBE_SHARED=ON >/dev/null
cmake --build "$work/shared" >/dev/null
readelf -d "$work/shared/gcnprobe-reference-oracle" | grep -q "NEEDED.*\[$soname\]" ||
  fail "the CMake shared example does not need $soname"
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pc")
c++ -std=c++20 -o "$work/pkgconfig-oracle" "$src/examples/reference-oracle/main.cpp" \
  $(pkg-config --cflags --libs gcnprobe-reference) -Wl,-rpath,"$(dirname "$so")"
readelf -d "$work/pkgconfig-oracle" | grep -q "NEEDED.*\[$soname\]" ||
  fail "the pkg-config example does not need $soname"

n=0
while read -r gen dfmt nfmt words; do
  want=$("$gcnprobe" convert --gen "$gen" --dfmt "$dfmt" --nfmt "$nfmt" --load "$words" | awk '{print $1, $2}')
  [ -n "$want" ] || fail "gcnprobe convert printed nothing for $gen $dfmt $nfmt $words"
  for exe in "$work/static/gcnprobe-reference-oracle" "$work/shared/gcnprobe-reference-oracle" \
             "$work/pkgconfig-oracle"; do
    got=$("$exe" "$gen" "$dfmt" "$nfmt" ${words//,/ })
    [ "$got" = "$want" ] || fail "$exe $gen $dfmt $nfmt $words:
$got
gcnprobe convert:
$want"
  done
  n=$((n + 1))
done <<'CASES'
gfx8 8_8_8_8 unorm 0x80402010
gfx6 16_16 snorm 0x80017fff
gfx9 10_11_11 float 0x7bc003e0
gfx7 32_32 uint 0xdeadbeef,0x12345678
gfx8 2_10_10_10 sscaled 0xc00ffe01
gfx9 16_16_16_16 float 0x3c00bc00,0x7c00fc00
CASES
# A library error crosses into the consumer as gcn::Error.
if "$work/shared/gcnprobe-reference-oracle" gfx8 8_8_8_8 nosuchformat 0 2>"$work/err"; then
  fail "an unknown number format was accepted"
fi
grep -q '^error: ' "$work/err" || fail "the consumer did not catch gcn::Error: $(cat "$work/err")"
echo "library_test: $n formats agree with gcnprobe convert three ways; SONAME $soname"
