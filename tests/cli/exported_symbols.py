#!/usr/bin/env python3
"""Each shared library exports its public functions and nothing else (docs/architecture.md
"Exported symbols").

For every library built in $BUILD, `nm -D --defined-only` must list exactly the functions of its
ABI record abi/LIB.symbols, each at version SINEW_0, each declared in include/sinew/; no library
imports an internal (sinew__) function of another. Every prototype in include/sinew/ carries
SINEW_API and is in exactly one record, and the table of public functions in docs/architecture.md
is the one tools/api.py makes.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from testkit import BUILD, check, finish, skip  # noqa: E402
import api  # noqa: E402

decl = api.declared()
records = api.abi_lists()
check(set(records) == set(api.LIBRARIES), f"an ABI record abi/LIB.symbols for each library: {sorted(records)}")

# the records against the headers (no build needed)
owner = {}
for lib, syms in records.items():
    check(syms == sorted(set(syms)), f"abi/{lib}.symbols is sorted, each name once")
    for s in syms:
        check(s not in owner, f"{s} is in abi/{lib}.symbols and abi/{owner.get(s)}.symbols")
        owner.setdefault(s, lib)
        check(s in decl, f"abi/{lib}.symbols lists {s}, which include/sinew/ does not declare")
unlisted = sorted(n for n in decl if n not in owner)
check(not unlisted, "every function of include/sinew/ is in an ABI record"
      + ("" if not unlisted else ": not " + ", ".join(f"{n} ({decl[n]})" for n in unlisted)))
bad = api.unmarked()
check(not bad, "every prototype in include/sinew/ is marked SINEW_API"
      + ("" if not bad else ": not " + ", ".join(f"{n} ({h})" for h, n in bad)))
check(api.doc_table() == api.table(),
      "docs/architecture.md's table of public functions is current (python3 tools/api.py --update)")


def nm(path, *flags):
    r = subprocess.run(["nm", "-D", *flags, path], capture_output=True, text=True)
    check(r.returncode == 0, f"nm -D {path}: {r.stderr.strip()}")
    return [line.split() for line in r.stdout.splitlines()]


# the built libraries against their records
for lib in api.LIBRARIES:
    path = os.path.join(BUILD, lib + ".so")
    if not os.path.exists(path):
        skip(1, f"{lib}.so export checks", f"{lib}.so was not built in {BUILD}")
        continue
    exported, versions = set(), {}
    for parts in nm(path, "--defined-only"):
        if len(parts) != 3 or parts[1] == "A":  # the version node itself (SINEW_0)
            continue
        name, _, ver = parts[2].partition("@")
        exported.add(name)
        versions[name] = ver.lstrip("@")
    listed = set(records.get(lib, []))
    extra = sorted(exported - listed)
    gone = sorted(listed - exported)
    check(not extra, f"{lib}.so exports only what abi/{lib}.symbols lists ({len(exported)} symbols)"
          + ("" if not extra else ": also " + ", ".join(extra[:20]) + (f" and {len(extra) - 20} more" if len(extra) > 20 else "")))
    check(not gone, f"{lib}.so exports all of abi/{lib}.symbols" + ("" if not gone else ": not " + ", ".join(gone)))
    undeclared = sorted(n for n in exported if n not in decl)
    check(not undeclared, f"{lib}.so exports only functions declared in include/sinew/"
          + ("" if not undeclared else ": not declared: " + ", ".join(undeclared[:20])))
    unversioned = sorted(n for n, v in versions.items() if v != "SINEW_0")
    check(not unversioned, f"{lib}.so: every symbol at version SINEW_0" + ("" if not unversioned else ": " + ", ".join(unversioned[:20])))
    imports = sorted(p[-1].split("@")[0] for p in nm(path, "--undefined-only") if p[-1].startswith("sinew__"))
    check(not imports, f"{lib}.so imports no internal function of another library"
          + ("" if not imports else ": " + ", ".join(imports)))
    print(f"{lib}.so: {len(exported)} functions exported")
finish()
