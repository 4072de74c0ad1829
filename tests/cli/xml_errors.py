#!/usr/bin/env python3
"""XML rig parser errors: each fixture in tests/fixtures/xml/errors/ must fail to load with the
expected message at the expected line:column (expected.json, columns counted by hand), and with
exit code 2. Also: unknown elements/attributes are warnings, not errors."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import SRC, check, finish, run_sinew  # noqa: E402

FIX = os.path.join(SRC, "tests", "fixtures", "xml")


expected = json.load(open(os.path.join(FIX, "errors", "expected.json")))
present = sorted(f for f in os.listdir(os.path.join(FIX, "errors")) if f != "expected.json")
check(expected and sorted(expected) == present, f"expected.json lists every XML error fixture ({len(expected)} listed, "
      f"unlisted {sorted(set(present) - set(expected))}, missing {sorted(set(expected) - set(present))})")
with tempfile.TemporaryDirectory() as out:
    for name, exp in sorted(expected.items()):
        path = os.path.join(FIX, "errors", name)
        r = run_sinew("info", path)
        want = f"{path}:{exp['at']}: error: {exp['message']}"
        check(r.returncode == 2 and want in r.stderr, f"{name}: exit {r.returncode}, stderr {r.stderr.strip()!r}, want {want!r}")

    # Warnings: an unknown element and an unknown attribute still load, and are reported.
    rig = os.path.join(out, "warn.xml")
    with open(rig, "w") as f:
        f.write('<project name="w">\n  <project.bones>\n    <bone name="a" width="4" height="4" colour="red"/>\n'
                '    <sparkle/>\n  </project.bones>\n</project>\n')
    r = run_sinew("info", rig)
    check(r.returncode == 0, f"warnings only: exit {r.returncode} {r.stderr!r}")
    check(f"{rig}:3:5: warning: unknown attribute 'colour' on <bone> ignored" in r.stderr, f"attribute warning: {r.stderr!r}")
    check(f"{rig}:4:5: warning: unknown element <sparkle> ignored" in r.stderr, f"element warning: {r.stderr!r}")
    # convert never overwrites its input: a DragonBones file whose output name is its own name
    src = os.path.join(SRC, "tests", "fixtures", "own", "Pip_5.5", "pip_ske.json")
    name = json.load(open(src))["name"]
    own = os.path.join(out, name + "_ske.json")
    data = open(src, "rb").read()
    with open(own, "wb") as f:
        f.write(data)
    r = run_sinew("convert", own, "--to", "dragonbones", "--out", out)
    check(r.returncode != 0 and "refusing to overwrite" in r.stderr, f"overwrite refused: {r.returncode} {r.stderr!r}")
    check(open(own, "rb").read() == data, "input unchanged")
    check(not [n for n in os.listdir(out) if ".tmp" in n], "no temporary files left behind")

finish()
