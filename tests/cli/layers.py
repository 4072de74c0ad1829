#!/usr/bin/env python3
"""The source folders form layers and the include graph points down only (docs/architecture.md).

Every `#include "FOLDER/..."` in src/FOLDER2/ is an edge FOLDER2 -> FOLDER. The edges must be a
subset of the allowed ones below (so the core never reaches the render or export layers), and the
graph must have no cycle. The libraries follow the folders: libsinew = base model format anim
curve input, libsinew-render = render, libsinew-export = export.

The public headers count too: `#include "sinew/NAME.h"` (or <sinew/NAME.h>) in src/FOLDER2/ is
allowed when a folder that defines one of the header's functions is FOLDER2 itself, is reachable
from it through the allowed edges, or belongs to a library below FOLDER2's (export may use the
core's public API; format may not include the runtime's instance.h, nor the core a header of
libsinew-export).
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

# public headers: the folders that define each header's functions
sys.path.insert(0, os.path.join(SRC, "tools"))
import api  # noqa: E402

LIBRARY = {d: ("core" if d in CORE else d) for d in ALLOWED}
LIB_BELOW = {"core": set(), "render": {"core"}, "export": {"core", "render"},
             "sdl2": {"core", "render"}, "gl": {"core", "render"}}
decl = api.declared()
defined_in = {}  # function -> folder
fdef = re.compile(r"^[A-Za-z_][\w \*]*?\b(sinew_[a-z0-9_]+)\s*\([^;]*?\)\s*\{", re.M | re.S)
for d in folders:
    for fn in sorted(os.listdir(os.path.join(src, d))):
        if fn.endswith(".c"):
            for m in fdef.finditer(open(os.path.join(src, d, fn), encoding="utf-8").read()):
                if m.group(1) in decl:
                    defined_in[m.group(1)] = d
missing = sorted(n for n in decl if n not in defined_in)
check(not missing, "every public function is defined in a source folder (parser sanity)"
      + ("" if not missing else ": not found: " + ", ".join(missing[:10])))
header_folders = {}
for n, h in decl.items():
    if n in defined_in:
        header_folders.setdefault(h, set()).add(defined_in[n])


def reachable(d):
    seen, todo = set(), [d]
    while todo:
        for t in ALLOWED.get(todo.pop(), set()):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


pub = re.compile(r'^\s*#\s*include\s+["<]sinew/([a-z0-9_]+\.h)[">]', re.M)
public_edges = 0
for d in folders:
    below = reachable(d) | {d}
    for fn in sorted(os.listdir(os.path.join(src, d))):
        if not fn.endswith((".c", ".h")):
            continue
        for m in pub.finditer(open(os.path.join(src, d, fn), encoding="utf-8").read()):
            h = m.group(1)
            owners = header_folders.get(h)
            if h == "sinew.h" or not owners:
                check(False, f"src/{d}/{fn} includes sinew/{h}, which belongs to no layer (the umbrella, or no functions)")
                continue
            public_edges += 1
            ok = any(o in below or LIBRARY[o] in LIB_BELOW[LIBRARY[d]] for o in owners)
            check(ok, f"src/{d}/{fn} includes sinew/{h} (defined in {', '.join(sorted(owners))}): a higher layer "
                  f"than {d} (which may include {sorted(reachable(d))} and the public headers of the libraries below "
                  f"{LIBRARY[d]}: {sorted(LIB_BELOW[LIBRARY[d]]) or 'none'})")
check(public_edges > 20, f"public-header includes found in src/ ({public_edges}; parser sanity)")

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
