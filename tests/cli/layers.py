#!/usr/bin/env python3
"""The source folders form layers and the include graph points down only (docs/architecture.md).

Every `#include "FOLDER/..."` in src/FOLDER2/ is an edge FOLDER2 -> FOLDER. The edges must be a
subset of the allowed ones below (so the core never reaches the render or export layers), and the
graph must have no cycle. The libraries follow the folders: libsinew = base model format anim
curve input, libsinew-render = render, libsinew-export = export.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import SRC, check, finish  # noqa: E402

ALLOWED = {
    "base": set(),
    "curve": {"base"},
    "input": {"base"},
    "model": {"base"},
    "format": {"base", "model"},
    "anim": {"base", "model"},
    "render": {"base"},
    "export": {"base", "model", "format", "render"},
    "sdl2": {"base", "render"},  # backends beside the core (libsinew-sdl2, libsinew-gl)
    "gl": {"base", "render"},
}
CORE = {"base", "curve", "input", "model", "format", "anim"}

src = os.path.join(SRC, "src")
folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
check(set(folders) == set(ALLOWED), f"every source folder has a layer: {folders}")
edges = {d: {} for d in folders}
inc = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"', re.M)
for d in folders:
    for fn in sorted(os.listdir(os.path.join(src, d))):
        if not fn.endswith((".c", ".h")):
            continue
        for m in inc.finditer(open(os.path.join(src, d, fn), encoding="utf-8").read()):
            t = m.group(1)
            if t != d and t in ALLOWED:
                edges[d].setdefault(t, fn)
for d in folders:
    for t, fn in sorted(edges[d].items()):
        check(t in ALLOWED.get(d, set()), f"src/{d}/{fn} includes {t}/: {d} may include only {sorted(ALLOWED.get(d, []))}")
        if d in CORE:
            check(t in CORE, f"src/{d}/{fn}: the core (libsinew) includes {t}/, which is not core")

# no cycle (depth-first search)
state = {}


def visit(n, path):
    if state.get(n) == 1:
        check(False, "include cycle between folders: " + " -> ".join(path + [n]))
        return
    if state.get(n) == 2:
        return
    state[n] = 1
    for t in edges.get(n, {}):
        visit(t, path + [n])
    state[n] = 2


for d in folders:
    visit(d, [])
check(all(state.get(d) == 2 for d in folders), "every folder visited")
print("layers: " + "; ".join(f"{d} -> {', '.join(sorted(edges[d])) or '(nothing)'}" for d in folders))
finish()
