#!/bin/sh
# Installs what the web build takes from npm (web/dev/package.json, pinned by its package-lock)
# into DEST/node_modules with `npm ci`, once: again only when the lock file changes. A lock file
# makes concurrent callers (ctest runs tests in parallel) wait for one install.
#   sh tools/web-npm.sh DEST
set -eu
dest=${1:?usage: web-npm.sh DEST}
src=$(cd "$(dirname "$0")/../web/dev" && pwd)
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
install() {
  if [ -f "$dest/node_modules/.package-lock.json" ] && cmp -s "$src/package-lock.json" "$dest/package-lock.json"; then
    return 0
  fi
  cp "$src/package.json" "$src/package-lock.json" "$dest/"
  echo "web-npm: npm ci in $dest"
  (cd "$dest" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error) || {
    rm -f "$dest/package-lock.json"; echo "web-npm: npm ci failed (the npm registry must be reachable the first time)" >&2; exit 1; }
}
if command -v flock >/dev/null 2>&1; then
  exec 9>"$dest/.lock"
  flock 9
fi
install
