#!/usr/bin/env bash
# `make install` layout: installs the build into a temporary, non-default prefix and then moves it
# elsewhere (the package must be relocatable: no path of the build machine in it), then builds the
# C examples against it through pkg-config and through CMake's find_package(sinew COMPONENTS ...):
# examples/c/play.c against the core alone (libsinew: no image, compression or GPL library in its
# ldd) and examples/c/snapshot.c against all three layers (core, render, export); runs them on
# the demo rig; and examples/sdl2/crowd.c and examples/gl/gl_crowd.c against libsinew-sdl2 and
# libsinew-gl (the components sdl2 and gl) when those backends were built. A second CMake project
# links the static targets (core alone; everything), whose dependencies come from imported targets.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/testkit.sh" # ok, bad, skip, summary
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

# An ASan build's library needs the sanitizer runtime in whatever links it.
extra=""
grep -q '^SINEW_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" && extra="-fsanitize=address,undefined"

if cmake --install "$BUILD" --prefix "$tmp/first" >"$tmp/install.log" 2>&1; then ok; else bad "cmake --install"; cat "$tmp/install.log"; fi
mv "$tmp/first" "$prefix"  # relocated: everything below uses the package from where it was moved to
for f in include/sinew/sinew.h include/sinew/data.h include/sinew/instance.h lib/pkgconfig/sinew.pc \
         lib/pkgconfig/sinew-render.pc lib/pkgconfig/sinew-export.pc lib/cmake/sinew/sinewConfig.cmake \
         lib/cmake/sinew/sinewTargets.cmake \
         lib/libsinew.a lib/libsinew-render.a lib/libsinew-export.a lib/libsinew.so lib/libsinew-render.so \
         lib/libsinew-export.so bin/sinew; do
  [ -e "$prefix/$f" ] || [ -e "$prefix/${f/lib\//lib/x86_64-linux-gnu/}" ] && ok || bad "missing $f"
done
libdir=$prefix/lib; [ -d "$prefix/lib/x86_64-linux-gnu" ] && libdir=$prefix/lib/x86_64-linux-gnu
# a backend's header, library and targets file are installed together, or none of them
for b in sdl2:Sdl2 gl:Gl; do
  n=${b%%:*}; c=${b##*:}
  if [ -e "$BUILD/libsinew-$n.so" ]; then
    [ -e "$prefix/include/sinew/$n.h" ] && [ -e "$libdir/libsinew-$n.so" ] && [ -e "$libdir/cmake/sinew/sinew${c}Targets.cmake" ] \
      && ok || bad "libsinew-$n was built: its header, library or targets file is not installed"
  else
    [ ! -e "$prefix/include/sinew/$n.h" ] && [ ! -e "$libdir/cmake/sinew/sinew${c}Targets.cmake" ] \
      && ok || bad "libsinew-$n was not built, but sinew/$n.h or its targets file is installed"
  fi
done
# relocatable: the package's CMake files name no absolute path (dependencies are imported targets)
abs=$(grep -nE '(^|[ ";(])/[A-Za-z]' "$libdir"/cmake/sinew/*.cmake)
[ -z "$abs" ] && ok || bad "absolute paths in the installed CMake package: $abs"

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

# the core alone links no image, compression or GPL library
core_ldd=$(ldd "$libdir/libsinew.so")
echo "$core_ldd" | grep -qE "spng|libz\.|webp|gif|imagequant|cairo" && bad "libsinew.so links more than cJSON and expat: $core_ldd" || ok
echo "$core_ldd" | grep -q "libcjson" && echo "$core_ldd" | grep -q "libexpat" && ok || bad "libsinew.so: $core_ldd"
if [ -x "$tmp/play_pc" ]; then
  LD_LIBRARY_PATH=$libdir ldd "$tmp/play_pc" | grep -qE "sinew-render|sinew-export|spng|webp" \
    && bad "play (core only) pulls in a higher layer" || ok
fi

# all three layers: snapshot.c draws a frame and writes a PNG
if cc $extra -std=c11 -o "$tmp/snap_pc" "$SRC/examples/c/snapshot.c" $(pkg-config --cflags --libs sinew-export) 2>"$tmp/cc2.log"; then
  ok
  out=$(LD_LIBRARY_PATH=$libdir "$tmp/snap_pc" "$demo" "$atlas" walk 0.5 "$tmp/snap.png") && ok || bad "snapshot (pkg-config) failed: $out"
  head -c 8 "$tmp/snap.png" 2>/dev/null | od -An -c | grep -q "P   N   G" && ok || bad "snapshot wrote no PNG"
else
  bad "compile snapshot.c with pkg-config sinew-export"; cat "$tmp/cc2.log"
fi
if [ -x "$tmp/ex/snapshot" ]; then
  LD_LIBRARY_PATH=$libdir "$tmp/ex/snapshot" "$demo" "$atlas" wave 0.25 "$tmp/snap2.png" >/dev/null && ok || bad "snapshot (cmake) failed"
else
  bad "snapshot was not built by the CMake example"
fi
# CMake, static: the core alone (only cJSON and expat are looked for), then all five components
mkdir -p "$tmp/st"
cat > "$tmp/st/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(sinew_static_consumer C)
if(ALL)
  find_package(sinew REQUIRED COMPONENTS core render export sdl2 gl)
  add_executable(snapshot "$SRC/examples/c/snapshot.c")
  target_link_libraries(snapshot PRIVATE sinew::export_static)
  add_executable(crowd "$SRC/examples/sdl2/crowd.c")
  target_link_libraries(crowd PRIVATE sinew::sdl2_static)
  add_executable(gl_crowd "$SRC/examples/gl/gl_crowd.c")
  target_link_libraries(gl_crowd PRIVATE sinew::gl sinew::sdl2)
else()
  find_package(sinew REQUIRED COMPONENTS core)
  foreach(t sinew::sdl2 sinew::gl)
    if(TARGET \${t})
      message(FATAL_ERROR "COMPONENTS core defined \${t}")
    endif()
  endforeach()
  add_executable(play "$SRC/examples/c/play.c")
  target_link_libraries(play PRIVATE sinew::sinew_static)
endif()
EOF
if CFLAGS="$extra" LDFLAGS="$extra" cmake -S "$tmp/st" -B "$tmp/st/core" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/st.log" 2>&1 \
   && cmake --build "$tmp/st/core" >>"$tmp/st.log" 2>&1; then
  ok
  out=$("$tmp/st/core/play" "$demo" "$atlas" walk 30) && echo "$out" | grep -q "^draw list: [1-9][0-9]* commands" \
    && ok || bad "play (static core, cmake) printed: $out"
  ldd "$tmp/st/core/play" | grep -q "sinew" && bad "play linked sinew::sinew_static but loads a libsinew" || ok
else
  bad "configure/build the core alone, static, with find_package(sinew COMPONENTS core)"; cat "$tmp/st.log"
fi
if [ -e "$BUILD/libsinew-sdl2.so" ] && [ -e "$BUILD/libsinew-gl.so" ]; then
  if CFLAGS="$extra" LDFLAGS="$extra" cmake -S "$tmp/st" -B "$tmp/st/all" -DALL=ON -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/st2.log" 2>&1 \
     && cmake --build "$tmp/st/all" >>"$tmp/st2.log" 2>&1; then
    ok
    "$tmp/st/all/snapshot" "$demo" "$atlas" walk 0.5 "$tmp/snap3.png" >/dev/null && ok || bad "snapshot (static, cmake) failed"
    out=$(ASAN_OPTIONS=detect_leaks=0 SDL_VIDEODRIVER=offscreen LD_LIBRARY_PATH=$libdir "$tmp/st/all/crowd" "$demo" "$atlas" 2 --frames 3 2>&1) \
      && ok || bad "crowd (static, cmake) failed: $out"
    out=$(ASAN_OPTIONS=detect_leaks=0 SDL_VIDEODRIVER=offscreen LD_LIBRARY_PATH=$libdir "$tmp/st/all/gl_crowd" "$demo" "$atlas" 2 --frames 3 2>&1) \
      && ok || bad "gl_crowd (cmake, components sdl2 gl) failed: $out"
  else
    bad "configure/build with find_package(sinew COMPONENTS core render export sdl2 gl)"; cat "$tmp/st2.log"
  fi
  # a backend asked for where it is not installed is a missing component
  mkdir -p "$tmp/nob" && cp -r "$prefix" "$tmp/nob/p" && rm -f "$tmp/nob/p"/lib*/cmake/sinew/sinewSdl2Targets.cmake "$tmp/nob/p"/lib/*/cmake/sinew/sinewSdl2Targets.cmake
  printf 'cmake_minimum_required(VERSION 3.16)\nproject(x C)\nfind_package(sinew REQUIRED COMPONENTS sdl2)\n' > "$tmp/nob/CMakeLists.txt"
  cmake -S "$tmp/nob" -B "$tmp/nob/b" -DCMAKE_PREFIX_PATH="$tmp/nob/p" >"$tmp/nob.log" 2>&1 \
    && bad "find_package(sinew COMPONENTS sdl2) succeeded without the sdl2 targets" || ok
else
  skip 5 "checks of the components sdl2 and gl" "a backend was not built (libsdl2-dev, libgl-dev: make deps)"
fi

# a component that does not exist is an error
mkdir -p "$tmp/badc" && printf 'cmake_minimum_required(VERSION 3.16)\nproject(x C)\nfind_package(sinew REQUIRED COMPONENTS teleport)\n' > "$tmp/badc/CMakeLists.txt"
cmake -S "$tmp/badc" -B "$tmp/badc/b" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/badc.log" 2>&1 && bad "find_package(sinew COMPONENTS teleport) succeeded" || ok

# the SDL2 backend (when it was built): examples/sdl2/crowd.c through pkg-config sinew-sdl2, run
# headless on SDL's offscreen video driver for 30 frames
if [ -e "$libdir/pkgconfig/sinew-sdl2.pc" ]; then
  if cc $extra -std=c11 -o "$tmp/crowd" "$SRC/examples/sdl2/crowd.c" $(pkg-config --cflags --libs sinew-sdl2) 2>"$tmp/cc3.log"; then
    ok
    out=$(ASAN_OPTIONS=detect_leaks=0 SDL_VIDEODRIVER=offscreen LD_LIBRARY_PATH=$libdir "$tmp/crowd" "$demo" "$atlas" 4 --frames 30 2>&1) && ok || bad "crowd failed: $out"
    echo "$out" | grep -q "^frame 29: 4 instances, [1-9][0-9]* draw calls" && ok || bad "crowd printed: $out"
  else
    bad "compile examples/sdl2/crowd.c with pkg-config sinew-sdl2"; cat "$tmp/cc3.log"
  fi
else
  skip 3 "checks of examples/sdl2/crowd.c" "the SDL2 backend was not built (libsdl2-dev: make deps)"
fi

# the GL backend (when it was built, with SDL2 for the window): examples/gl/gl_crowd.c, headless
if [ -e "$libdir/pkgconfig/sinew-gl.pc" ] && pkg-config --exists sdl2; then
  if cc $extra -std=c11 -o "$tmp/gl_crowd" "$SRC/examples/gl/gl_crowd.c" $(pkg-config --cflags --libs sinew-gl sdl2) 2>"$tmp/cc4.log"; then
    ok
    out=$(ASAN_OPTIONS=detect_leaks=0 SDL_VIDEODRIVER=offscreen LD_LIBRARY_PATH=$libdir "$tmp/gl_crowd" "$demo" "$atlas" 4 --frames 30 2>&1) && ok || bad "gl_crowd failed: $out"
    echo "$out" | grep -q "^frame 29: 4 instances, [1-9][0-9]* draw calls" && ok || bad "gl_crowd printed: $out"
  else
    bad "compile examples/gl/gl_crowd.c with pkg-config sinew-gl sdl2"; cat "$tmp/cc4.log"
  fi
else
  skip 3 "checks of examples/gl/gl_crowd.c" "the GL backend or SDL2 was not built (libgl-dev, libsdl2-dev: make deps)"
fi

# bad input: a clear error and exit 2
LD_LIBRARY_PATH=$libdir "$tmp/play_pc" "$SRC/README.md" >/dev/null 2>"$tmp/err.log"; rc=$?
[ $rc = 2 ] && grep -q "error:" "$tmp/err.log" && ok || bad "bad input: exit $rc, $(cat "$tmp/err.log")"

summary
