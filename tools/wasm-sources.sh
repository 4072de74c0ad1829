#!/bin/sh
# Brings the sources of cJSON and expat, which the WebAssembly build compiles in, from Debian's
# source packages (`apt-get source`: the same code, with Debian's patches, as the libcjson-dev and
# libexpat1-dev the native build links; signatures checked by apt against the Debian archive key).
#   sh tools/wasm-sources.sh DEST
# Leaves DEST/cjson (cJSON.c, cJSON.h) and DEST/expat (expat/lib/...). Nothing is done when they
# are there already. apt works in DEST/apt with its own source list, so the machine's apt
# configuration is neither needed nor changed; only dpkg-source (dpkg-dev) must be installed.
set -eu
dest=${1:?usage: wasm-sources.sh DEST}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
[ -f "$dest/cjson/cJSON.c" ] && [ -f "$dest/expat/expat/lib/xmlparse.c" ] && exit 0

. /etc/os-release 2>/dev/null || true
suite=${VERSION_CODENAME:-bookworm}
apt="$dest/apt"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/src"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
cat > "$apt/sources.list" <<EOF
deb-src [signed-by=$keyring] http://deb.debian.org/debian $suite main
deb-src [signed-by=$keyring] http://deb.debian.org/debian $suite-updates main
deb-src [signed-by=$keyring] http://deb.debian.org/debian-security $suite-security main
EOF
set -- -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
  -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o APT::Sandbox::User="$(id -un)" -q
echo "wasm-sources: reading Debian's source index ($suite)"
apt-get "$@" update >"$apt/update.log" 2>&1 || {
  echo "wasm-sources: apt-get update of the source index failed:" >&2; tail -5 "$apt/update.log" >&2; exit 1; }

# fetch_one PACKAGE NAME DEV APT-OPTIONS...: the version the installed DEV package has if the
# archive still holds it, else the newest one that downloads (a security version can be listed
# before its files reach the mirror), unpacked into DEST/NAME
fetch_one() {
  pkg=$1 name=$2 dev=$3; shift 3
  [ -d "$dest/$name" ] && return 0
  want=$(dpkg-query -W -f='${Version}' "$dev" 2>/dev/null || true)
  versions=$(apt-cache "$@" showsrc "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | sort -rV | uniq)
  order=$( { printf '%s\n' "$versions" | grep -Fx "$want" || true; printf '%s\n' "$versions"; } | awk 'NF && !seen[$0]++')
  [ -n "$order" ] || { echo "wasm-sources: Debian has no source package '$pkg'" >&2; return 1; }
  for v in $order; do
    rm -rf "$apt/src/$pkg" && mkdir -p "$apt/src/$pkg"
    if (cd "$apt/src/$pkg" && apt-get "$@" source "$pkg=$v" >"$apt/src/$pkg.log" 2>&1); then
      dir=$(find "$apt/src/$pkg" -mindepth 1 -maxdepth 1 -type d | head -n 1)
      [ -n "$dir" ] || continue
      mv "$dir" "$dest/$name"
      echo "$pkg $v" > "$dest/$name/.debian-version"
      echo "wasm-sources: $pkg $v"
      return 0
    fi
  done
  echo "wasm-sources: could not download the source package '$pkg' (tried: $(echo $order)):" >&2
  tail -3 "$apt/src/$pkg.log" >&2
  return 1
}
fetch_one cjson cjson libcjson-dev "$@"
fetch_one expat expat libexpat1-dev "$@"
