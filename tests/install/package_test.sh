#!/usr/bin/env bash
# Builds the Debian package from a build folder, checks its metadata and contents, unpacks it
# into a temporary root and runs the unpacked program from outside the source tree, without
# GCNPROBE_PROBES_DIR: its summaries must equal the build tree's program's.
# Usage: package_test.sh BUILD_DIR BUILD_TREE_PROGRAM VERSION SOURCE_DIR
set -euo pipefail
build=$1 built=$2 version=$3 src=$4
fail() { echo "package test: $*" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/gcnprobe-package-test-XXXXXX")
trap 'rm -rf "$work"' EXIT
case "$work/" in "$src"/*) fail "the temp dir $work is inside the source tree" ;; esac

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/pkg" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log" >&2; fail "cpack failed"; }
shopt -s nullglob
debs=("$work"/pkg/gcnprobe_*.deb)
[ ${#debs[@]} -eq 1 ] || fail "expected one gcnprobe_*.deb, found: ${debs[*]:-none}"
deb=${debs[0]}
echo "package: $(basename "$deb"), $(stat -c %s "$deb") bytes"

# Metadata.
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = gcnprobe ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version-1" ] || fail "Version: $(field Version), project $version"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || fail "Architecture: $(field Architecture)"
depends=$(field Depends)
echo "Depends: $depends"
for d in libvulkan1 libc6 libstdc++6 libgcc-s1; do
  case ", $depends," in *", $d "* | *", $d,"*) ;; *) fail "Depends lacks $d: $depends" ;; esac
done
# Nothing only the build needs.
for d in -dev glslang cmake gtest cli11 nlohmann spirv clang llvm; do
  if grep -q -- "$d" <<<"$depends"; then fail "Depends names a build-only package ($d): $depends"; fi
done
[ "$(field Recommends)" = mesa-vulkan-drivers ] || fail "Recommends: $(field Recommends)"
grep -qE '^.+ <[^@ ]+@[^> ]+>$' <<<"$(field Maintainer)" || fail "Maintainer: $(field Maintainer)"
[ -n "$(field Section)" ] || fail "no Section"
[ "$(field Description | wc -l)" -ge 3 ] || fail "Description without an extended part"

# Contents.
root="$work/root"
dpkg-deb -x "$deb" "$root"
for f in usr/bin/gcnprobe usr/libexec/gcnprobe/gcnprobe-clrxdisasm usr/share/man/man1/gcnprobe.1.gz \
         usr/share/bash-completion/completions/gcnprobe \
         usr/share/doc/gcnprobe/changelog.Debian.gz usr/share/doc/gcnprobe/copyright \
         usr/share/doc/gcnprobe/README.md usr/share/doc/gcnprobe/docs/install.md; do
  [ -f "$root/$f" ] || fail "the package has no /$f"
done
diff <(cd "$src/probes" && ls -- *.probe) <(cd "$root/usr/share/gcnprobe/probes" && ls) ||
  fail "the packaged probes differ from the source tree's"
# The sources' own terms: the MIT license of LICENSE, which Debian's copyright format calls
# Expat, on the "Files: *" paragraph.
awk '/^Files: \*$/{f=1} f&&/^License:/{print; exit}' "$root/usr/share/doc/gcnprobe/copyright" |
  grep -qx 'License: Expat' || fail "the copyright file does not give the sources the MIT (Expat) terms"
grep -q 'Permission is hereby granted, free of charge' "$src/LICENSE" || fail "LICENSE is not MIT's text"
gzip -dc "$root/usr/share/doc/gcnprobe/changelog.Debian.gz" | head -n 1 |
  grep -q "^gcnprobe ($version-1) " || fail "changelog.Debian.gz's top entry is not $version-1"
gzip -t "$root/usr/share/man/man1/gcnprobe.1.gz" || fail "the man page is not valid gzip"
exe="$root/usr/bin/gcnprobe"
if readelf -d "$exe" | grep -E 'RPATH|RUNPATH'; then fail "the packaged program has a RPATH"; fi
if readelf -S "$exe" | grep -q '\.debug_info'; then fail "the packaged program is not stripped"; fi
# The clrxdisasm stand-in RADV's compiler runs for gfx6/7 listings, where the program looks for
# it (app/clrx_dir.cpp; tests/app/clrx_dir_test.cpp checks the lookup), and it runs.
helper="$root/usr/libexec/gcnprobe/gcnprobe-clrxdisasm"
"$helper" --version || fail "the packaged clrxdisasm stand-in does not run"

# The unpacked program, from outside the source tree and with no variable naming the probes,
# gives the build tree's summaries.
unset GCNPROBE_PROBES_DIR
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$work}"
mkdir "$work/cwd"
cd "$work/cwd"
summary() {  # program suite -> "exit-status last-line-of-stdout"
  local rc=0
  "$1" run --suite "$2" >"$work/out.txt" 2>"$work/err.txt" || rc=$?
  echo "$rc $(tail -n 1 "$work/out.txt")"
}
for suite in storage disputed; do
  installed=$(summary "$exe" "$suite")
  expected=$(summary "$built" "$suite")
  echo "$suite: installed: $installed; build tree: $expected"
  grep -qE '^[01] [0-9]+ passed, [0-9]+ failed, [0-9]+ unsupported$' <<<"$installed" ||
    { cat "$work/err.txt" >&2; fail "$suite: no summary from the installed program: $installed"; }
  [ "$installed" = "$expected" ] || fail "$suite: installed '$installed' != build tree '$expected'"
done

# The disputed suite of the unpacked program reads the unpacked probes, not the source tree's
# (which also exist on this machine): a probe added there (one a route realises, so that the
# suite lists it) shows up in its case list only.
probes="$root/usr/share/gcnprobe/probes"
cp "$probes/ssbo-raw-straddle.probe" "$probes/zz-unpacked-copy.probe"
"$exe" list --suite disputed | grep -q 'zz-unpacked-copy' ||
  fail "the unpacked program does not read $probes"
if "$built" list --suite disputed | grep -q 'zz-unpacked-copy'; then
  fail "the build tree's program reads the unpacked probes"
fi
# The library package: the reference model's headers, static and shared library, CMake package
# and pkg-config file (docs/library.md), depending on the C++ runtime only. The example
# consumer builds against the unpacked tree both ways and answers as the packaged program does.
devs=("$work"/pkg/gcnprobe-dev_*.deb)
[ ${#devs[@]} -eq 1 ] || fail "expected one gcnprobe-dev_*.deb, found: ${devs[*]:-none}"
dev=${devs[0]}
[ "$(dpkg-deb -f "$dev" Package)" = gcnprobe-dev ] || fail "dev Package: $(dpkg-deb -f "$dev" Package)"
[ "$(dpkg-deb -f "$dev" Version)" = "$version-1" ] || fail "dev Version: $(dpkg-deb -f "$dev" Version)"
devdepends=$(dpkg-deb -f "$dev" Depends)
grep -q libvulkan <<<"$devdepends" && fail "gcnprobe-dev depends on Vulkan: $devdepends"
devroot="$work/devroot"
dpkg-deb -x "$dev" "$devroot"
for f in usr/include/gcnprobe/reference/executor.h usr/share/doc/gcnprobe-dev/copyright; do
  [ -f "$devroot/$f" ] || fail "gcnprobe-dev has no /$f"
done
for pattern in 'libgcnprobe-reference.a' 'libgcnprobe-reference.so.*.*.*' 'gcnprobeConfig.cmake'                'gcnprobe-reference.pc'; do
  [ -n "$(find "$devroot" -name "$pattern")" ] || fail "gcnprobe-dev has no $pattern"
done
if [ -n "$(find "$root" -name 'libgcnprobe-reference*' -o -name '*.h' | head -n 1)" ]; then
  fail "the program's package carries library files"
fi
cmake -S "$src/examples/reference-oracle" -B "$work/oracle-cmake" -DCMAKE_PREFIX_PATH="$devroot/usr"   >/dev/null || fail "the example does not configure against gcnprobe-dev"
cmake --build "$work/oracle-cmake" >/dev/null || fail "the example does not build against gcnprobe-dev"
pc_dir=$(dirname "$(find "$devroot" -name gcnprobe-reference.pc)")
so_dir=$(dirname "$(find "$devroot" -name 'libgcnprobe-reference.so.*.*.*')")
c++ -std=c++20 -o "$work/oracle-pc" "$src/examples/reference-oracle/main.cpp"   $(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags --libs gcnprobe-reference) -Wl,-rpath,"$so_dir" ||
  fail "the example does not build through pkg-config against gcnprobe-dev"
want=$("$exe" convert --gen gfx8 --dfmt 8_8_8_8 --nfmt snorm --load 0x807f0181 | awk '{print $1, $2}')
for o in "$work/oracle-cmake/gcnprobe-reference-oracle" "$work/oracle-pc"; do
  got=$("$o" gfx8 8_8_8_8 snorm 0x807f0181)
  [ "$got" = "$want" ] || fail "$o against gcnprobe-dev: '$got', the packaged program: '$want'"
done
echo "gcnprobe-dev: $(basename "$dev"), $(stat -c %s "$dev") bytes; Depends: $devdepends"
echo "package test: ok"
