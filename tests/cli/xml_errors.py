#!/usr/bin/env python3
"""XML rig parser errors: each fixture in tests/fixtures/xml/errors/ must fail to load with the
expected message at the expected line:column (expected.json, columns counted by hand), and with
exit code 2. Also: unknown elements/attributes are warnings, not errors."""
import json
import os
import subprocess
import sys
import tempfile

SINEW = os.environ.get("SINEW", "sinew")
SRC = os.environ.get("SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
FIX = os.path.join(SRC, "tests", "fixtures", "xml")
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL", what)


expected = json.load(open(os.path.join(FIX, "errors", "expected.json")))
with tempfile.TemporaryDirectory() as out:
    for name, exp in sorted(expected.items()):
        path = os.path.join(FIX, "errors", name)
        r = subprocess.run([SINEW, "info", path], capture_output=True, text=True)
        want = f"{path}:{exp['at']}: error: {exp['message']}"
        check(r.returncode == 2 and want in r.stderr, f"{name}: exit {r.returncode}, stderr {r.stderr.strip()!r}, want {want!r}")

    # Warnings: an unknown element and an unknown attribute still load, and are reported.
    rig = os.path.join(out, "warn.xml")
    with open(rig, "w") as f:
        f.write('<project name="w">\n  <project.bones>\n    <bone name="a" width="4" height="4" colour="red"/>\n'
                '    <sparkle/>\n  </project.bones>\n</project>\n')
    r = subprocess.run([SINEW, "info", rig], capture_output=True, text=True)
    check(r.returncode == 0, f"warnings only: exit {r.returncode} {r.stderr!r}")
    check(f"{rig}:3:5: warning: unknown attribute 'colour' on <bone> ignored" in r.stderr, f"attribute warning: {r.stderr!r}")
    check(f"{rig}:4:5: warning: unknown element <sparkle> ignored" in r.stderr, f"element warning: {r.stderr!r}")
    # convert never overwrites its input: a DragonBones file whose output name is its own name
    shared = os.environ.get("SHARED", os.path.join(SRC, "..", "shared"))
    src = os.path.join(shared, "data", "dragonbones", "dragon_boy_5.0", "dragon_boy_ske.json")
    name = json.load(open(src))["name"]
    own = os.path.join(out, name + "_ske.json")
    data = open(src, "rb").read()
    with open(own, "wb") as f:
        f.write(data)
    r = subprocess.run([SINEW, "convert", own, "--to", "dragonbones", "--out", out], capture_output=True, text=True)
    check(r.returncode != 0 and "refusing to overwrite" in r.stderr, f"overwrite refused: {r.returncode} {r.stderr!r}")
    check(open(own, "rb").read() == data, "input unchanged")
    check(not [n for n in os.listdir(out) if ".tmp" in n], "no temporary files left behind")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
