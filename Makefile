# sinew: the top-level driver. CMake does the real work in build/ (and build-asan/, build-fuzz/).
#   make             build the library (static + shared) and the CLI into build/ (installs the
#                    Debian packages the build lacks, like every target)
#   make test        install missing Debian packages, build with -Werror (and the web build), run
#                    every test, then the same tests under ASan+UBSan (the web tests once), then
#                    each fuzzer for FUZZ_SMOKE_SECONDS (default 10) from its seeds
#   make test-fast   the tests without the sanitizer build
#   make fuzz        build the libFuzzer targets and run each for FUZZ_SECONDS (default 60)
#   make demo        render the example character to demo.gif and demo.webp
#   make install     install headers, libraries, pkg-config file and CMake package config
#   make bench       run the benchmarks
#   make fuzz-scenarios SEEDS=N [FIRST=K] [WILD=1]
#                    random animation-state scenarios (needs ../shared) on every shared character
#                    (WILD=1: every third-party rig of ../shared/data/wild), the official runtime
#                    against sinew, N seeds from K (default 100 from 1000)
#   make bench-compare  sinew against DragonBonesCPP and DragonBonesJS side by side (needs ../shared;
#                    QUICK=1 for a short run; SHARED=DIR to point elsewhere)
#   make wasm        the WebAssembly build, the JavaScript API and its types into build-wasm/
#                    (docs/web.md)
#   make web         the web player and the examples into build-web/; make serve serves them on
#                    127.0.0.1 (PORT=8080)
#   make bench-web   sinew-wasm against the official JS runtime in node and headless Chromium
#                    (needs ../shared)
#   make bench-phaser  sinew/phaser's crowd in Phaser 4 and Phaser 3 in headless Chromium: draw
#                    calls and ms of update + render a frame for 100 and 1,000 armatures
#   make fixtures    remake tests/fixtures/own, dbbin, v6 and v6_upstream (the art and rigs, the
#                    binaries, then the expected poses with the official DragonBones runtimes; needs
#                    ../shared, or SHARED=PATH)

BUILD       ?= build
ASAN_BUILD  ?= build-asan
FUZZ_BUILD  ?= build-fuzz
PREFIX      ?= /usr/local
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 10
SEEDS       ?= 100
FIRST       ?= 1000
CMAKE_FLAGS ?=
# SINEW_IMAGEQUANT=1: GIF palettes from libimagequant (GPL-3.0-or-later: the library and the CLI
# built so are GPL; docs/licensing.md). Default: sinew's own quantizer, nothing GPL is linked.
SINEW_IMAGEQUANT ?= 0
IQ_FLAG = -DSINEW_IMAGEQUANT=$(if $(filter 1 ON on yes YES,$(SINEW_IMAGEQUANT)),ON,OFF)
SHARED      ?= ../shared
WASM_BUILD  ?= build-wasm
WEB_BUILD   ?= build-web
PORT        ?= 8080

# Debian packages (dpkg names): what `make` (the library and the CLI) needs, and what the tests,
# fuzzers and demo add. Every target looks for what they provide (tools/deps.sh: pkg-config modules,
# headers, commands; no dpkg or root needed) and installs only what is missing (apt-get as root on
# Debian, otherwise the exact apt-get line).
# libsdl2-dev and libgl-dev build the SDL2 and GL backends and `sinew view` (libsdl2-ttf-dev and
# fonts-dejavu-core its status line): installed with the build packages, so that `make` builds the
# whole CLI (VIEW=0 leaves them out; the end of `make` then says what is off)
VIEW ?= 1
VIEW_PACKAGES = libsdl2-dev libgl-dev libsdl2-ttf-dev fonts-dejavu-core
BUILD_PACKAGES = build-essential cmake pkg-config libcjson-dev libexpat1-dev libspng-dev libgif-dev \
  libwebp-dev zlib1g-dev libcairo2-dev $(if $(filter -DSINEW_IMAGEQUANT=ON,$(IQ_FLAG)),libimagequant-dev) \
  $(if $(filter 1,$(VIEW)),$(VIEW_PACKAGES))
# Mesa's EGL/GL drivers (llvmpipe) and Xvfb let the viewer's tests draw headless; locales holds the
# definitions unit.locale's locales are made from (tests/lib/make-locales.sh)
TEST_PACKAGES = python3 clang libclang-rt-14-dev libimagequant-dev ffmpeg nodejs npm $(VIEW_PACKAGES) \
  libegl-mesa0 libgl1-mesa-dri xvfb xauth locales
# the WebAssembly build (docs/web.md): clang's wasm32 target, wasi-libc, lld, binaryen's wasm-opt,
# dpkg-source for Debian's cJSON and expat sources; node and npm for the JavaScript side, and
# Chromium for the browser tests
WASM_PACKAGES = clang lld wasi-libc libclang-rt-14-dev-wasm32 binaryen dpkg-dev nodejs npm
WEB_PACKAGES = $(WASM_PACKAGES) chromium
DEB_PACKAGES = $(BUILD_PACKAGES) $(TEST_PACKAGES) $(WEB_PACKAGES)

.PHONY: all build build-deps test test-fast test-asan fuzz fuzz-build fuzz-scenarios demo install bench bench-compare deps clean fixtures \
  wasm web serve bench-web bench-phaser

all: build

build: build-deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(IQ_FLAG) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)
	@grep -q '^SDL2_FOUND:INTERNAL=1' $(BUILD)/CMakeCache.txt || echo "make: built without SDL2: no 'sinew view' and no" \
	  "libsinew-sdl2; 'make VIEW=1' (or: apt-get install $(VIEW_PACKAGES)) turns them on" >&2
	@echo "make: the CLI is $(BUILD)/sinew (run it from there, or 'make install' puts it on PATH)"

deps:
	@sh tools/deps.sh $(DEB_PACKAGES)

build-deps:
	@sh tools/deps.sh $(BUILD_PACKAGES)

test: deps
	@$(MAKE) --no-print-directory test-fast CMAKE_FLAGS="-DSINEW_WERROR=ON $(CMAKE_FLAGS)"
	@$(MAKE) --no-print-directory test-asan
	@$(MAKE) --no-print-directory fuzz-build
	@sh tools/run-fuzzers.sh $(FUZZ_BUILD) $(FUZZ_SMOKE_SECONDS) --seeds-only

test-fast: build web
	@cd $(BUILD) && { WASM_BUILD=$(abspath $(WASM_BUILD)) WEB_BUILD=$(abspath $(WEB_BUILD)) ctest --output-on-failure -j $(JOBS); \
	  rc=$$?; sh $(CURDIR)/tests/lib/skipped.sh .; exit $$rc; }

test-asan:
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" -DSINEW_SANITIZE=ON -DSINEW_WERROR=ON $(IQ_FLAG) >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	@cd $(ASAN_BUILD) && { ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  SINEW_WILD_CACHE=$(abspath $(BUILD))/wild-oracle SINEW_ORACLE_CACHE=$(abspath $(BUILD))/oracle-cache \
	  ctest --output-on-failure -j $(JOBS) -LE web -E '^cli\.convert_55_wild$$'; rc=$$?; sh $(CURDIR)/tests/lib/skipped.sh .; exit $$rc; }

fuzz: deps
	@$(MAKE) --no-print-directory fuzz-build
	@sh tools/run-fuzzers.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

fuzz-build:
	@CC=clang cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=Debug -DSINEW_FUZZ=ON -DSINEW_TESTS=OFF >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzzers

fuzz-scenarios: deps build
	@cd tests && SINEW=$(abspath $(BUILD))/sinew POSECMP=$(abspath $(BUILD))/tests/posecmp \
	  BUILD=$(abspath $(BUILD)) SRC=$(CURDIR) python3 cli/scenarios.py --random-only $(if $(WILD),--wild) --seeds $(SEEDS) --first $(FIRST) --jobs $(JOBS)

# the demo needs what the CLI needs, nothing of the test packages
demo: build
	@sh examples/demo.sh $(BUILD)/sinew

install: build
	@cmake --install $(BUILD)

bench: deps build
	@sh bench/run.sh $(BUILD)/sinew

bench-compare: deps build
	@python3 bench/compare.py --sinew $(BUILD)/sinew --out $(BUILD)/bench-compare $(if $(QUICK),--quick)

# The expected poses come from the official runtime in ../shared/tools/oracle, set up in
# $(BUILD)/oracle as the tests set it up (tests/lib/testkit.py: a copy, then npm ci).
fixtures:
	@test -d "$(SHARED)" || { echo "make fixtures: $(SHARED) not found: the expected poses are made by the" \
	  "official DragonBones runtime in ../shared/tools/oracle (put the shared folder next to the" \
	  "repository, or run make fixtures SHARED=PATH)" >&2; exit 2; }
	@$(MAKE) --no-print-directory build
	@python3 tests/fixtures/own/make_fixtures.py
	@SINEW="$(abspath $(BUILD))/sinew" python3 tests/fixtures/dbbin/make_dbbin.py
	@SHARED="$(abspath $(SHARED))" BUILD="$(abspath $(BUILD))" SINEW="$(abspath $(BUILD))/sinew" \
	  python3 tests/fixtures/own/make_expected.py
	@python3 tests/fixtures/v6/make_fixtures.py
	@SHARED="$(abspath $(SHARED))" BUILD="$(abspath $(BUILD))" python3 tests/fixtures/v6/make_expected.py
	@python3 tests/fixtures/v6_upstream/make_rigs.py
	@SHARED="$(abspath $(SHARED))" BUILD="$(abspath $(BUILD))" python3 tests/fixtures/v6_upstream/make_expected.py

wasm:
	@sh tools/deps.sh $(WASM_PACKAGES)
	@$(MAKE) --no-print-directory -f web/wasm.mk OUT=$(WASM_BUILD) -j $(JOBS)

web: wasm
	@sh tools/web-npm.sh $(WASM_BUILD)/npm
	@$(MAKE) --no-print-directory -f web/wasm.mk OUT=$(WASM_BUILD) WEB=$(WEB_BUILD) web

bench-web: web
	@node web/bench/bench-web.mjs --wasm $(WASM_BUILD) --web $(WEB_BUILD) --shared $(SHARED) $(if $(QUICK),--quick)

bench-phaser: web
	@node web/bench/phaser-bench.mjs --wasm $(WASM_BUILD) --web $(WEB_BUILD)

serve: web
	@echo "sinew player: http://127.0.0.1:$(PORT)/ (Ctrl-C stops it)"
	@python3 -m http.server $(PORT) --bind 127.0.0.1 --directory $(WEB_BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(WASM_BUILD) $(WEB_BUILD)
