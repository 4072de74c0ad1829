#!/bin/sh
# tools/deps.sh PACKAGE...: makes sure what the named Debian packages provide is there.
#
# Each package is looked for by what it provides, the way the build finds it, so that any Linux
# with the libraries present passes without dpkg and without root: a pkg-config module
# (libcjson-dev -> libcjson), a header the compiler finds (libgif-dev -> gif_lib.h), a command
# (cmake, node, Xvfb) or a file. A package with no such probe counts as present when dpkg-query
# says it is installed; on a system without dpkg-query it is not checked (the build then says what
# it lacks).
# Only when something is missing: as root on Debian (apt-get there) it is installed; otherwise the
# exact apt-get line (or, without apt-get, the Debian package names and what was looked for) is
# printed and the script fails.
missing=""
why=""

# has_pc MODULE...: pkg-config knows every module
has_pc() { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$@" 2>/dev/null; }
# has_header HEADER: the C compiler finds it
has_header() {
  cc=${CC:-cc}; command -v "$cc" >/dev/null 2>&1 || return 1
  printf '#include <%s>\n' "$1" | "$cc" -E -x c - >/dev/null 2>&1
}
has_cmd() { command -v "$1" >/dev/null 2>&1; }
# has_dpkg PACKAGE: installed by dpkg (no dpkg-query: unknown, so present)
has_dpkg() {
  has_cmd dpkg-query || return 0
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

# probe PACKAGE: 0 when what it provides is there; sets $looked to what was looked for
probe() {
  case "$1" in
    build-essential) looked="the commands cc and make"; has_cmd cc && has_cmd make ;;
    cmake|pkg-config|python3|clang|ffmpeg|npm|chromium|lld|xauth)
      looked="the command $1"; has_cmd "$1" ;;
    nodejs) looked="the command node"; has_cmd node ;;
    xvfb) looked="the command Xvfb"; has_cmd Xvfb ;;
    binaryen) looked="the command wasm-opt"; has_cmd wasm-opt ;;
    dpkg-dev) looked="the command dpkg-source"; has_cmd dpkg-source ;;
    locales) looked="the locale sources /usr/share/i18n/locales and localedef"
      has_cmd localedef && [ -d /usr/share/i18n/locales ] ;;
    libcjson-dev) looked="pkg-config libcjson"; has_pc libcjson ;;
    libexpat1-dev) looked="pkg-config expat"; has_pc expat ;;
    libspng-dev) looked="pkg-config spng"; has_pc spng ;;
    libwebp-dev) looked="pkg-config libwebp libwebpmux libwebpdemux"; has_pc libwebp libwebpmux libwebpdemux ;;
    zlib1g-dev) looked="pkg-config zlib"; has_pc zlib ;;
    libcairo2-dev) looked="pkg-config cairo"; has_pc cairo ;;
    libsdl2-dev) looked="pkg-config sdl2 >= 2.0.18"; has_pc "sdl2 >= 2.0.18" ;;
    libsdl2-ttf-dev) looked="pkg-config SDL2_ttf"; has_pc SDL2_ttf ;;
    libimagequant-dev) looked="pkg-config imagequant"; has_pc imagequant ;;
    libgif-dev) looked="the header gif_lib.h"; has_header gif_lib.h ;;
    libgl-dev) looked="the header GL/glcorearb.h"; has_header GL/glcorearb.h ;;
    fonts-dejavu-core) looked="/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
      [ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] ;;
    # runtime parts with nothing to probe for (Mesa's drivers, compiler runtimes, wasi-libc)
    *) looked="the Debian package (dpkg-query)"; has_dpkg "$1" ;;
  esac
}

for p in "$@"; do
  probe "$p" && continue
  missing="$missing $p"
  why="$why
  $p: $looked"
done
[ -z "$missing" ] && exit 0
if has_cmd apt-get; then
  if [ "$(id -u)" = 0 ]; then
    echo "deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
      echo "deps: apt-get install failed for:$missing" >&2; exit 1; }
    exit 0
  fi
  echo "deps: missing:$why" >&2
  echo "deps: run as root:" >&2
  echo "  apt-get install -y$missing" >&2
else
  echo "deps: missing (Debian package: what was looked for):$why" >&2
  echo "deps: install your distribution's packages of these (no apt-get here)" >&2
fi
exit 1
