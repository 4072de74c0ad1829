#!/usr/bin/env bash
# `make install` layout: installs the build into a temporary prefix, then builds the README's
# C example (examples/c/play.c) against it twice, through pkg-config and through CMake's
# find_package(sinew), and runs both on the demo rig.
set -u
pass=0; fail=0
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

# An ASan build's library needs the sanitizer runtime in whatever links it.
extra=""
grep -q '^SINEW_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" && extra="-fsanitize=address,undefined"

if cmake --install "$BUILD" --prefix "$prefix" >"$tmp/install.log" 2>&1; then ok; else bad "cmake --install"; cat "$tmp/install.log"; fi
for f in include/sinew/sinew.h include/sinew/data.h include/sinew/instance.h lib/pkgconfig/sinew.pc \
         lib/cmake/sinew/sinewConfig.cmake lib/libsinew.a bin/sinew; do
  [ -e "$prefix/$f" ] || [ -e "$prefix/${f/lib\//lib/x86_64-linux-gnu/}" ] && ok || bad "missing $f"
done
libdir=$prefix/lib; [ -d "$prefix/lib/x86_64-linux-gnu" ] && libdir=$prefix/lib/x86_64-linux-gnu

demo="$SRC/examples/demo/demo_ske.json"; atlas="$SRC/examples/demo/demo_tex.json"

# pkg-config, shared library
export PKG_CONFIG_PATH=$libdir/pkgconfig
if cc $extra -std=c11 -o "$tmp/play_pc" "$SRC/examples/c/play.c" $(pkg-config --cflags --libs sinew) 2>"$tmp/cc.log"; then
  ok
  out=$(LD_LIBRARY_PATH=$libdir "$tmp/play_pc" "$demo" "$atlas" walk 30) && ok || bad "play (pkg-config) failed"
  echo "$out" | grep -q "^draw list: [1-9][0-9]* commands" && ok || bad "play (pkg-config) printed: $out"
else
  bad "compile with pkg-config"; cat "$tmp/cc.log"
fi

# CMake package config (links the shared library target sinew::sinew)
if CFLAGS="$extra" LDFLAGS="$extra" cmake -S "$SRC/examples/c" -B "$tmp/ex" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cm.log" 2>&1 \
   && cmake --build "$tmp/ex" >>"$tmp/cm.log" 2>&1; then
  ok
  out=$(LD_LIBRARY_PATH=$libdir "$tmp/ex/play" "$demo" "$atlas" wave 30) && ok || bad "play (cmake) failed"
  echo "$out" | grep -q "^draw list: [1-9][0-9]* commands" && ok || bad "play (cmake) printed: $out"
else
  bad "configure/build with find_package(sinew)"; cat "$tmp/cm.log"
fi

# bad input: a clear error and exit 2
LD_LIBRARY_PATH=$libdir "$tmp/play_pc" "$SRC/README.md" >/dev/null 2>"$tmp/err.log"; rc=$?
[ $rc = 2 ] && grep -q "error:" "$tmp/err.log" && ok || bad "bad input: exit $rc, $(cat "$tmp/err.log")"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
