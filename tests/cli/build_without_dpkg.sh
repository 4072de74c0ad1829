#!/usr/bin/env bash
# `make` works on any Linux with the libraries present and needs no root (README.md, tools/deps.sh):
# with a PATH that hides dpkg-query, dpkg and apt-get (a folder of links to every other command),
# make's dependency step passes, as root and as an unprivileged user; CMake configures and builds
# the core library into a temporary folder. When a library is missing, tools/deps.sh and CMake say
# what to install (the exact apt-get line where apt-get is, the package and what was looked for
# where it is not) and fail, installing nothing unless root on Debian.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/testkit.sh" # ok, bad, skip, summary
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
shim=$tmp/bin; mkdir -p "$shim"
hidden=" dpkg-query dpkg apt-get apt apt-cache "
IFS=: read -r -a dirs <<< "$PATH"
for d in "${dirs[@]}"; do
  for f in "$d"/*; do
    n=${f##*/}
    [ -f "$f" ] && [ -x "$f" ] || continue
    case "$hidden" in *" $n "*) continue ;; esac
    [ -e "$shim/$n" ] || ln -s "$f" "$shim/$n"
  done
done
PATH="$shim" command -v dpkg-query >/dev/null || PATH="$shim" command -v apt-get >/dev/null \
  && bad "the PATH shim still has dpkg-query or apt-get" || ok
PATH="$shim" command -v cmake >/dev/null && PATH="$shim" command -v cc >/dev/null && ok || bad "the PATH shim lost cmake or cc"

# 1. make's dependency step with everything present: no dpkg needed, nothing installed
out=$(PATH="$shim" make -s -C "$SRC" build-deps 2>&1) && ok || bad "make build-deps without dpkg-query failed: $out"
echo "$out" | grep -q "installing" && bad "make build-deps installed something: $out" || ok
# ... and as an unprivileged user (root not needed), apt-get visible or not
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  asuser() { setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent "$@"; }
  out=$(asuser PATH="$shim" make -s -C "$SRC" build-deps 2>&1) && ok || bad "make build-deps as nobody without dpkg failed: $out"
  out=$(asuser PATH="$PATH" make -s -C "$SRC" build-deps 2>&1) && ok || bad "make build-deps as nobody failed: $out"
  # 2. a missing library as nobody with apt-get: the exact apt-get line, exit 1
  out=$(asuser PATH="$PATH" PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH= sh "$SRC/tools/deps.sh" cmake libcjson-dev 2>&1); rc=$?
  [ $rc = 1 ] && echo "$out" | grep -q "^  apt-get install -y libcjson-dev$" && ok \
    || bad "deps.sh as nobody with libcjson missing: exit $rc, $out"
else
  skip 3 "unprivileged checks" "not root, or no setpriv"
fi
# 3. a missing library without apt-get: what is missing and what was looked for, exit 1
out=$(PATH="$shim" PKG_CONFIG_LIBDIR=$tmp/none PKG_CONFIG_PATH= sh "$SRC/tools/deps.sh" cmake libcjson-dev zlib1g-dev 2>&1); rc=$?
[ $rc = 1 ] && echo "$out" | grep -q "libcjson-dev: pkg-config libcjson" && echo "$out" | grep -q "zlib1g-dev: pkg-config zlib" \
  && ! echo "$out" | grep -q "cmake:" && ok || bad "deps.sh without apt-get, libcjson and zlib missing: exit $rc, $out"

# 4. configure and build the core library with the shim PATH (in the plain build: the ASan pass
# runs the same configure step, and building the core again there proves nothing more)
if [ -n "${SINEW_SANITIZE:-}" ]; then
  PATH="$shim" cmake -S "$SRC" -B "$tmp/b" -DSINEW_TESTS=OFF >"$tmp/cfg.log" 2>&1 && ok \
    || { bad "configure without dpkg-query failed"; tail -20 "$tmp/cfg.log"; }
  echo "NOTE: the core is built without dpkg-query in the plain build's run of this test"
elif PATH="$shim" cmake -S "$SRC" -B "$tmp/b" -DSINEW_TESTS=OFF >"$tmp/cfg.log" 2>&1 \
   && PATH="$shim" cmake --build "$tmp/b" --target sinew -j 2 >"$tmp/build.log" 2>&1; then
  [ -e "$tmp/b/libsinew.so" ] && ok || bad "no libsinew.so after the build"
else
  bad "configure/build without dpkg-query failed"; tail -20 "$tmp/cfg.log" "$tmp/build.log"
fi
# 5. CMake with a library missing: it names the Debian package
out=$(PATH="$shim" PKG_CONFIG_LIBDIR=$tmp/none PKG_CONFIG_PATH= cmake -S "$SRC" -B "$tmp/c" -DSINEW_TESTS=OFF 2>&1); rc=$?
[ $rc != 0 ] && echo "$out" | grep -q "apt-get install libcjson-dev" && ok || bad "configure without cJSON: exit $rc, $(echo "$out" | tail -5)"

summary
