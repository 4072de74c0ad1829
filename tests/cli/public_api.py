#!/usr/bin/env python3
"""Every public function exists and is used (issue: "every public function exists").

Parses include/sinew/*.h for the functions they declare, then checks for each one that
- the built libraries export it (`nm -D --defined-only` of libsinew, libsinew-render and
  libsinew-export in $BUILD), so a program written from the headers links, and
- at least one test (tests/) or example (examples/) calls it by name, so it is exercised by
  something other than the code that defines it.
A declaration may sit inside `#if` blocks for an optional feature; those are checked the same way
(the default build defines them all).
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from testkit import BUILD, SRC, check, finish, skip  # noqa: E402
import api  # noqa: E402  (the header parser, shared with tools/api.py and cli.exported_symbols)

HEADERS = os.path.join(SRC, "include", "sinew")
LIBS = ["libsinew.so", "libsinew-render.so", "libsinew-export.so"]
# backends: headers of their own that include their toolkit's (not in the umbrella header), built
# when the toolkit is there; their functions are checked when the library was built
BACKENDS = {"sdl2.h": "libsinew-sdl2.so", "gl.h": "libsinew-gl.so"}


strip_comments = api.strip_comments
declared = api.declared


def exported():
    names, missing = set(), []
    for lib in LIBS:
        path = os.path.join(BUILD, lib)
        if not os.path.exists(path):
            missing.append(lib)
            continue
        r = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True)
        for line in r.stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TW":
                names.add(parts[2].split("@")[0])  # name@@SINEW_0 (abi/, docs/architecture.md)
    return names, missing


def callers(names):
    """{name: [files]} over tests/ and examples/ (this script excluded)."""
    found = {n: [] for n in names}
    word = re.compile(r"\b(sinew_\w+)\s*\(")
    me = os.path.abspath(__file__)
    for top in ("tests", "examples"):
        for root, _dirs, files in os.walk(os.path.join(SRC, top)):
            for f in files:
                p = os.path.join(root, f)
                if os.path.abspath(p) == me or not f.endswith((".c", ".h", ".cpp", ".py", ".sh")):
                    continue
                text = strip_comments(open(p, encoding="utf-8", errors="replace").read())
                for m in word.finditer(text):
                    if m.group(1) in found:
                        found[m.group(1)].append(os.path.relpath(p, SRC))
    return found


decl = declared()
for header, lib in BACKENDS.items():
    if os.path.exists(os.path.join(BUILD, lib)):
        LIBS.append(lib)
    else:  # not built here: its functions cannot be exported
        skip(sum(1 for h in decl.values() if h == header), f"{header} exports", f"{lib} was not built")
        decl = {n: h for n, h in decl.items() if h != header}
# the umbrella sinew/sinew.h is the core's: it includes every header whose functions libsinew
# exports (the ABI records abi/*.symbols say which), and no header of another library, so that a
# program that includes it and links only libsinew has every function it sees
umbrella = open(os.path.join(HEADERS, "sinew.h"), encoding="utf-8").read()
lib_of = {s: lib for lib, syms in api.abi_lists().items() for s in syms}
header_libs = {}
for n, h in api.declared().items():
    header_libs.setdefault(h, set()).add(lib_of.get(n, "?"))
core_headers = sorted(h for h, libs in header_libs.items() if libs == {"libsinew"})
other_headers = sorted(h for h, libs in header_libs.items() if libs != {"libsinew"})
included = set(re.findall(r'^#include "sinew/([a-z0-9_]+\.h)"', umbrella, flags=re.M))
left_out = [h for h in core_headers if h not in included]
check(not left_out, "the umbrella header sinew/sinew.h includes every header of the core"
      + ("" if not left_out else ": not " + ", ".join(left_out)))
wrong = [h for h in other_headers if h in included]
check(not wrong, "sinew/sinew.h includes no header of another library than libsinew"
      + ("" if not wrong else ": " + ", ".join(f"{h} ({', '.join(sorted(header_libs[h]))})" for h in wrong)))
check(len(core_headers) >= 6 and "render.h" in other_headers, f"headers by library (parser sanity): core {core_headers}")
check(len(decl) > 100, f"the headers declare {len(decl)} functions (parser sanity: more than 100)")
have, missing_libs = exported()
if missing_libs:
    skip(len(decl), "export checks", f"not built in {BUILD}: {', '.join(missing_libs)} (shared libraries)")
else:
    gone = sorted(n for n in decl if n not in have)
    check(not gone, "every declared function is exported by a library"
          + ("" if not gone else ": missing " + ", ".join(f"{n} ({decl[n]})" for n in gone)))
used = callers(decl)
unused = sorted(n for n, files in used.items() if not files)
check(not unused, f"every declared function is called by a test or an example ({len(decl) - len(unused)}/{len(decl)})"
      + ("" if not unused else ": not called: " + ", ".join(f"{n} ({decl[n]})" for n in unused)))
finish()
