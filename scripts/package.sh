#!/usr/bin/env bash
# Builds gcnprobe's Debian package: a Release build of the program (scripts/setup.sh
# --release, which installs the Debian packages of scripts/packages.txt with apt-get, dpkg-dev
# for dpkg-shlibdeps among them) and CPack's DEB generator. What the package holds and
# depends on: docs/install.md.
# Usage: scripts/package.sh [--build-dir DIR]   (default build-release)
#   writes DIR/gcnprobe_<version>-1_<arch>.deb (the program) and
#   DIR/gcnprobe-dev_<version>-1_<arch>.deb (the reference model as a library: docs/library.md);
#   install them with sudo apt-get install ./DIR/gcnprobe_<version>-1_<arch>.deb
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$GCNPROBE_ROOT"

build_dir=build-release
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build_dir="$2"; shift ;;
    *) echo "package.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done

bash scripts/setup.sh --release --build-dir "$build_dir"
(cd "$build_dir" && cpack -G DEB >/dev/null)
shopt -s nullglob
debs=("$build_dir"/gcnprobe_*.deb "$build_dir"/gcnprobe-dev_*.deb)
[ ${#debs[@]} -gt 0 ] || { echo "package.sh: cpack wrote no package" >&2; exit 3; }
for deb in "${debs[@]}"; do
  echo "package: $deb"
done
