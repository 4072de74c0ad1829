# The WebAssembly build of libsinew (make wasm): clang's wasm32-wasi target, Debian's wasi-libc,
# lld, and cJSON and expat from Debian's source packages (tools/wasm-sources.sh), into $(OUT):
#   sinew.wasm        the core library with the exports of web/wasm/sinew_web.c
#   sinew.mjs, *.d.mts the JavaScript API (web/src) and its TypeScript declarations
#   pixi.mjs, webgl.mjs, player.mjs   the renderers and the player element (encode.mjs: its exports)
#   phaser.mjs                        the Phaser 4 / Phaser 3 plugin (sinew/phaser)
#   poses.mjs, bench.mjs              `sinew poses` and `sinew bench` in node, through the JS API
# Called by the top Makefile: make -f web/wasm.mk OUT=build-wasm
OUT      ?= build-wasm
SRCDIR   := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
DEPS     := $(OUT)/deps
OBJ      := $(OUT)/obj
CLANG    ?= clang
WASM_OPT ?= $(shell command -v wasm-opt 2>/dev/null)

# -O2 for the runtime (anim/, curve/: what runs every frame), -Os for the loaders and the rest
# (format/, base/, model/, expat, cJSON: a smaller download; docs/web.md has the figures)
OPT = -Os
$(OBJ)/core/anim/%.o: OPT = -O2
$(OBJ)/core/curve/%.o: OPT = -O2
# The same double arithmetic as the native build (no fused multiply-adds); the features every
# browser since 2021 and node >= 16 have (non-trapping float-to-int, sign extension)
WASM_CFLAGS = --target=wasm32-wasi --sysroot=/usr $(OPT) -ffp-contract=off -ffunction-sections -fdata-sections \
  -mnontrapping-fptoint -msign-ext -mmutable-globals -DNDEBUG \
  -I$(SRCDIR)/include -I$(SRCDIR)/src -I$(OBJ)/include
WARN := -Wall -Wextra -Werror -Wno-unused-parameter
# the core library (docs/architecture.md) without src/input (MRTK input animations) and
# base/atomic.c (writing files): neither is on the web
CORE_SRC := $(filter-out %/base/atomic.c,$(sort $(wildcard $(addprefix $(SRCDIR)/src/,$(addsuffix /*.c,base model format anim curve)))))
CORE_OBJ := $(patsubst $(SRCDIR)/src/%.c,$(OBJ)/core/%.o,$(CORE_SRC))
EXPAT_OBJ := $(OBJ)/expat/xmlparse.o $(OBJ)/expat/xmlrole.o $(OBJ)/expat/xmltok.o
CJSON_OBJ := $(OBJ)/cjson/cJSON.o
GLUE_OBJ := $(OBJ)/sinew_web.o
JS_SRC := $(wildcard $(SRCDIR)/web/src/*.mjs $(SRCDIR)/web/src/*.d.mts $(SRCDIR)/web/tools/*.mjs) $(SRCDIR)/web/bench/workloads.mjs
JS_OUT := $(addprefix $(OUT)/,$(notdir $(JS_SRC)))

all: $(OUT)/sinew.wasm $(JS_OUT) $(OUT)/package.json

$(DEPS)/.done:
	@sh $(SRCDIR)/tools/wasm-sources.sh $(DEPS)
	@touch $@

# headers of the two libraries where sinew includes them (<cjson/cJSON.h>, <expat.h>), and
# expat's configuration (what Debian's libexpat1 is built with: DTDs and namespaces, 1 KiB of
# context; salts from the host's random numbers)
$(OBJ)/include/.done: $(DEPS)/.done $(lastword $(MAKEFILE_LIST))
	@mkdir -p $(OBJ)/include/cjson
	@cp $(DEPS)/cjson/cJSON.h $(OBJ)/include/cjson/
	@cp $(DEPS)/expat/expat/lib/expat.h $(DEPS)/expat/expat/lib/expat_external.h $(OBJ)/include/
	@printf '%s\n' '#define XML_DTD 1' '#define XML_GE 1' '#define XML_CONTEXT_BYTES 1024' \
	  '#define BYTEORDER 1234' '#define HAVE_ARC4RANDOM_BUF 1' > $(OBJ)/include/expat_config.h
	@touch $@

$(OBJ)/core/%.o: $(SRCDIR)/src/%.c $(OBJ)/include/.done
	@mkdir -p $(dir $@)
	@echo "wasm  $<"
	@$(CLANG) $(WASM_CFLAGS) $(WARN) -MMD -MP -c $< -o $@
$(OBJ)/sinew_web.o: $(SRCDIR)/web/wasm/sinew_web.c $(OBJ)/include/.done
	@mkdir -p $(dir $@)
	@echo "wasm  $<"
	@$(CLANG) $(WASM_CFLAGS) $(WARN) -MMD -MP -c $< -o $@
$(OBJ)/expat/%.o: $(OBJ)/include/.done
	@mkdir -p $(dir $@)
	@echo "wasm  expat/$*.c"
	@$(CLANG) $(WASM_CFLAGS) -w -c $(DEPS)/expat/expat/lib/$*.c -o $@
$(OBJ)/cjson/cJSON.o: $(OBJ)/include/.done
	@mkdir -p $(dir $@)
	@echo "wasm  cJSON.c"
	@$(CLANG) $(WASM_CFLAGS) -w -c $(DEPS)/cjson/cJSON.c -o $@

# A reactor (no main; _initialize runs the constructors), 1 MiB of stack, memory that grows
$(OUT)/sinew.wasm: $(CORE_OBJ) $(EXPAT_OBJ) $(CJSON_OBJ) $(GLUE_OBJ)
	@echo "link  $@"
	@$(CLANG) --target=wasm32-wasi --sysroot=/usr -mexec-model=reactor -Wl,--gc-sections -Wl,--strip-all \
	  -Wl,-z,stack-size=1048576 -Wl,--initial-memory=4194304 -Wl,--max-memory=2147483648 \
	  -o $@.tmp $^
	@if [ -n "$(WASM_OPT)" ]; then $(WASM_OPT) -O2 --enable-bulk-memory --enable-nontrapping-float-to-int \
	  --enable-sign-ext --enable-mutable-globals $@.tmp -o $@.opt && mv $@.opt $@.tmp; fi
	@mv $@.tmp $@

$(OUT)/%.mjs: $(SRCDIR)/web/src/%.mjs
	@mkdir -p $(OUT) && cp $< $@
$(OUT)/%.d.mts: $(SRCDIR)/web/src/%.d.mts
	@mkdir -p $(OUT) && cp $< $@
$(OUT)/%.mjs: $(SRCDIR)/web/tools/%.mjs
	@mkdir -p $(OUT) && cp $< $@
# build-wasm is a module folder of its own ("type": "module"), so node runs its files as ES modules
$(OUT)/package.json:
	@mkdir -p $(OUT) && printf '{"type": "module", "private": true}\n' > $@

-include $(CORE_OBJ:.o=.d) $(GLUE_OBJ:.o=.d)

.PHONY: all

# ---- make web: the player page, the PixiJS and Phaser examples, a static site in $(WEB) ---------
WEB ?= build-web
WEB_MODULES := sinew.mjs sinew.wasm webgl.mjs framing.mjs encode.mjs player.mjs pixi.mjs phaser.mjs
PIXI_DIST := $(OUT)/npm/node_modules/pixi.js/dist
PHASER_DIST := $(OUT)/npm/node_modules/phaser/dist
PHASER3_DIST := $(OUT)/npm/node_modules/phaser3/dist
web: all
	@mkdir -p $(WEB)/examples $(WEB)/demo
	@cp $(addprefix $(OUT)/,$(WEB_MODULES)) $(WEB)/
	@cp $(SRCDIR)/web/player/index.html $(WEB)/index.html
	@cp $(SRCDIR)/web/examples/*.html $(SRCDIR)/web/examples/*.mjs $(WEB)/examples/
	@cp $(SRCDIR)/examples/demo/demo_ske.json $(SRCDIR)/examples/demo/demo_tex.json $(SRCDIR)/examples/demo/demo_tex.png $(WEB)/demo/
	@cp $(PIXI_DIST)/pixi.min.mjs $(PIXI_DIST)/pixi.min.mjs.map $(WEB)/
	@cp $(PHASER_DIST)/phaser.esm.min.js $(WEB)/phaser-4.esm.min.js
	@cp $(PHASER3_DIST)/phaser.esm.min.js $(WEB)/phaser-3.esm.min.js
	@echo "web   $(WEB)/index.html"
.PHONY: web
$(OUT)/workloads.mjs: $(SRCDIR)/web/bench/workloads.mjs
	@mkdir -p $(OUT) && cp $< $@
