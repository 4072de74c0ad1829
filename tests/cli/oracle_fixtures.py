#!/usr/bin/env python3
"""The committed official-runtime dumps are current, and sinew matches the live official runtime.
Needs ../shared (the oracle comes from ../shared/tools/oracle) and node + npm; skipped without it.

1. Every dump in tests/fixtures/own/expected/ is what the official runtime gives now for its
   fixture (tests/fixtures/own/make_expected.py --check: the same set-up, options and trimming as
   `make fixtures`). A stale dump means a fixture changed without `make fixtures`.
2. The project's own DragonBones fixtures and the hand-written rigs of tests/fixtures/oracle/
   (each isolating a behaviour seen in real files: a slot's `actions` driving a child armature,
   numbers written as strings, zOrder quirks, IK weights below 1 and their timeline) at the data's own frame rate (the committed dumps of
   the Pip fixtures sample at 10 fps): the oracle and `sinew poses` agree on every armature and
   animation at posediff's default tolerances.
"""
import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (BUILD, SRC, check, finish, need_oracle, own_manifest, own_path, posecmp,  # noqa: E402
                     run_oracle, sinew_poses)

manifest = own_manifest()
rigs = sorted(glob.glob(os.path.join(SRC, "tests", "fixtures", "oracle", "*_ske.json")))
# (name, file sinew reads, atlas, file the oracle reads): the official runtime cannot read the
# triples weight layout, so that fixture is compared with the oracle on its per-vertex twin
by_name = {e["name"]: e for e in manifest["dragonbones"]}
live = [(e["name"], own_path(e["skeleton"]), own_path(e["atlas"]), own_path(by_name[e["expected"]]["skeleton"]))
        for e in manifest["dragonbones"]]
live += [(os.path.basename(r)[:-len("_ske.json")], r, None, r) for r in rigs]
odir = need_oracle(1 + len(live), "checks against the live official runtime (1 freshness check of the committed "
                                  "dumps, %d fixtures)" % len(live))

# 1. freshness
r = subprocess.run([sys.executable, os.path.join(SRC, "tests", "fixtures", "own", "make_expected.py"), "--check"],
                   capture_output=True, text=True)
check(r.returncode == 0, "the committed dumps are what the official runtime gives now (run `make fixtures`):\n"
      + (r.stdout + r.stderr).strip()[-1500:])

# 2. live comparisons at the data's frame rate
work = os.path.join(BUILD, "oracle_fixtures")
os.makedirs(work, exist_ok=True)
check(len(rigs) >= 2, "hand-written oracle rigs found (%d)" % len(rigs))
for name, ske, atlas, oracle_ske in live:
    expected = os.path.join(work, name + ".oracle.json")
    actual = os.path.join(work, name + ".sinew.json")
    extra = ["--atlas", atlas] if atlas else []
    ok, err = run_oracle(odir, oracle_ske, expected, "--armature", "all", "--precision", "9", *extra)
    if not check(ok, "%s: the official runtime ran (%s)" % (name, err[-300:])):
        continue
    ok, err = sinew_poses(ske, actual, *extra)
    if not check(ok, "%s: sinew poses exits 0 (%s)" % (name, err[-300:])):
        continue
    same, out = posecmp(expected, actual)
    check(same, "%s: sinew matches the official runtime\n%s" % (name, out))
finish()
