#!/usr/bin/env python3
"""Small hand-written rigs in tests/fixtures/oracle/, each isolating a behaviour seen in real files
(a slot's `actions` driving a child armature, numbers written as strings, an IK constraint without
a bone): the official runtime (the oracle) and `sinew poses` must agree on every armature and
animation at posediff's default tolerances. Needs node + npm (fails, saying how to install them)."""
import glob
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import BUILD, SRC, check, finish, need_oracle, posediff, run_oracle, run_sinew  # noqa: E402

odir = need_oracle()
work = os.path.join(BUILD, "oracle_fixtures")
os.makedirs(work, exist_ok=True)
rigs = sorted(glob.glob(os.path.join(SRC, "tests", "fixtures", "oracle", "*_ske.json")))
check(len(rigs) >= 2, "fixtures found (%d)" % len(rigs))
for rig in rigs:
    name = os.path.basename(rig)[:-len("_ske.json")]
    expected = os.path.join(work, name + ".oracle.json")
    actual = os.path.join(work, name + ".sinew.json")
    ok, err = run_oracle(odir, rig, expected, "--armature", "all", "--precision", "9")
    check(ok, "%s: the official runtime ran (%s)" % (name, err[-300:]))
    r = run_sinew("poses", rig, "--armature", "all", "--precision", "9", "--out", actual)
    check(r.returncode == 0, "%s: sinew poses exits 0 (%s)" % (name, r.stderr[-300:]))
    if ok and r.returncode == 0:
        same, out = posediff(expected, actual, quiet=False)
        check(same, "%s: sinew matches the official runtime\n%s" % (name, out[-1500:]))
finish()
