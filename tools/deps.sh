#!/bin/sh
# Installs the Debian packages given as arguments that are not installed yet.
# As root it runs apt-get; otherwise it prints the exact command and fails.
missing=""
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
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
