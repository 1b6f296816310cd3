#!/usr/bin/env bash
# Puts Mesa 25 (lavapipe and RADV from Debian's bookworm-backports suite) beside the system's
# Mesa 22.3 without touching it: the packages are downloaded with apt (a private apt state under
# the target folder, so the system's sources and package lists stay as they are), unpacked
# with dpkg -x, and ICD manifests with absolute library paths are written to DIR/icd.d.
# Select the result with `gcnprobe --driver DIR ...` or GCNPROBE_DRIVER=DIR (docs/drivers.md).
#
# Usage: scripts/mesa25.sh [--dir DIR] [--offline]
#   DIR defaults to build/drivers/mesa25. Prints DIR on success (last line of stdout).
#   Idempotent: a folder that is already complete is reused without any network access.
#   --offline: never download; fail unless the .debs are already in DIR/debs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

dir="$GCNPROBE_ROOT/build/drivers/mesa25"
offline=0
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift ;;
    --offline) offline=1 ;;
    *) echo "mesa25.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
suite=bookworm-backports
packages=(mesa-vulkan-drivers libdrm2 libdrm-amdgpu1)

die() { echo "mesa25.sh: error: $*" >&2; exit 3; }

if [ -f "$dir/COMPLETE" ]; then
  echo "mesa25: $(cat "$dir/VERSION") already in $dir" >&2
  echo "$dir"
  exit 0
fi

mkdir -p "$dir/debs"
if ! ls "$dir"/debs/mesa-vulkan-drivers_*.deb >/dev/null 2>&1; then
  [ "$offline" = 1 ] && die "--offline, and no mesa-vulkan-drivers .deb in $dir/debs"
  command -v apt-get >/dev/null || die "apt-get not found: this needs Debian 12 (bookworm)"
  # The suite comes from the same Debian mirror the system already uses for bookworm: its
  # site is read from apt itself, so a machine behind a local mirror keeps using that mirror.
  site=$(apt-get indextargets --format '$(SITE) $(RELEASE) $(COMPONENT)' 2>/dev/null |
         awk '($2 == "bookworm" || $2 == "stable") && $3 == "main" { print $1; exit }')
  [ -n "$site" ] || die "apt has no Debian bookworm 'main' source to take the mirror from (run apt-get update)"
  keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  [ -f "$keyring" ] || die "$keyring is missing (Debian: debian-archive-keyring)"
  state="$dir/apt"
  rm -rf "$state"
  mkdir -p "$state/lists/partial" "$state/archives/partial" "$state/parts"
  echo "deb [signed-by=$keyring] $site $suite main" > "$state/sources.list"
  apt_opts=(-o "Dir::Etc::SourceList=$state/sources.list" -o "Dir::Etc::SourceParts=$state/parts"
            -o "Dir::State::Lists=$state/lists" -o "Dir::Cache::archives=$state/archives"
            -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=" -o "APT::Sandbox::User=root")
  echo "mesa25: reading $suite from $site" >&2
  apt-get "${apt_opts[@]}" -qq update >&2 ||
    die "cannot read the $suite suite from $site (network or mirror): nothing was changed"
  (cd "$dir/debs" && apt-get "${apt_opts[@]}" -qq download "${packages[@]/%//$suite}" >&2) ||
    die "cannot download ${packages[*]} from $suite"
  rm -rf "$state"
fi

root="$dir/root"
rm -rf "$root"
mkdir -p "$root"
for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$root"; done
version=$(dpkg-deb -f "$(ls "$dir"/debs/mesa-vulkan-drivers_*.deb | head -n 1)" Version)

lib=$(dirname "$(find "$root/usr/lib" -name libvulkan_lvp.so | head -n 1)")
[ -d "$lib" ] || die "the unpacked mesa-vulkan-drivers has no libvulkan_lvp.so"
mkdir -p "$dir/icd.d"
rm -f "$dir"/icd.d/*.json
for icd in lvp radeon; do
  src="$root/usr/share/vulkan/icd.d/${icd}_icd.json"
  [ -f "$src" ] || src=$(ls "$root"/usr/share/vulkan/icd.d/"${icd}"_icd*.json 2>/dev/null | head -n 1)
  [ -f "$src" ] || die "the unpacked mesa-vulkan-drivers has no ${icd}_icd manifest"
  python3 - "$src" "$lib" "$dir/icd.d/${icd}_icd.json" <<'EOF'
import json, os, sys
src, lib, dst = sys.argv[1:4]
m = json.load(open(src))
m["ICD"]["library_path"] = os.path.join(lib, os.path.basename(m["ICD"]["library_path"]))
json.dump(m, open(dst, "w"), indent=4)
EOF
done
echo "$lib" > "$dir/LIBDIR"
echo "Mesa $version" > "$dir/VERSION"
touch "$dir/COMPLETE"
echo "mesa25: Mesa $version unpacked in $dir" >&2
echo "$dir"
