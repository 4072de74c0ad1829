#!/bin/sh
# Installs the Debian packages given as arguments that are not installed yet.
# As root it runs apt-get; otherwise it prints the exact command and fails.
# A package that provides a command (python3, nodejs -> node, npm, cmake, clang, ffmpeg) also
# counts as present when that command is on PATH from another source (pyenv, nodesource, ...).
missing=""
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && continue
  case "$p" in
    nodejs) cmd=node ;;
    python3|npm|cmake|clang|ffmpeg|pkg-config) cmd=$p ;;
    *) cmd="" ;;
  esac
  [ -n "$cmd" ] && command -v "$cmd" >/dev/null 2>&1 && continue
  missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "deps: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
    echo "deps: apt-get install failed for:$missing" >&2; exit 1; }
else
  echo "deps: missing Debian packages. Run as root:" >&2
  echo "  apt-get install -y$missing" >&2
  exit 1
fi
