#!/usr/bin/env python3
"""Rotation keys half a turn apart, through the DragonBones 4.5 writer.

The fixtures tests/fixtures/oracle/rotation_{4.0,4.5,5.5}_ske.json step bones by exactly half a
turn (and odd multiples), where the official parser's normalisation of the angle decides which
way the tween turns. `cli.conformance` plays them against the official runtime's committed dumps
and `cli.dbbin` converts them to the binary; this test converts them to DragonBones 4.5 and checks
that the converted file plays as the original did, in sinew (a bare clone) and, with ../shared,
in the official runtime.

A 4.5 file cannot say everything a 5.5 one can: its loop wrap from the last key to the first is
not normalised (a 5.5 rotate timeline's is), and its skew is skX - skY of angles kept within half a
turn. The writer names those bones in approximation warnings. APPROXIMATED lists every one of
them: the warnings must name exactly these, each of them must really differ (no needless
warning), and every other bone must play exactly (posediff's tolerances).
"""
import copy
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import SRC, check, finish, own_expected, posecmp, run_oracle, run_sinew, sinew_poses, try_oracle  # noqa: E402

FIX = os.path.join(SRC, "tests", "fixtures", "oracle")
LAYOUTS = ("4.0", "4.5", "5.5")
# (animation, bone) pairs a 4.5 file can only approximate, per source layout
APPROXIMATED = {
    "4.0": set(),
    "4.5": set(),
    "5.5": {("loop", "third_turn"), ("loop", "wrap_back"), ("loop", "wrap_minus"), ("loop", "quarter_swing"),
            ("loop", "skewed_half"), ("loop", "skew_only"), ("once", "skewed_half"), ("once", "skew_only")},
}
WARNING = re.compile(r"animation '([^']+)': bone '([^']+)': (.*)")


def without(dump, pairs):
    """The dump with the bones of `pairs` taken out of their animation's samples."""
    d = copy.deepcopy(dump)
    for arm in d["armatures"]:
        for an in arm.get("animations", []):
            drop = {b for a, b in pairs if a == an["name"]}
            for s in an["samples"]:
                s["bones"] = [b for b in s["bones"] if b["name"] not in drop]
    return d


def only(dump, pairs):
    """The dump with nothing but the bones of `pairs`, one animation at a time: {pair: dump}."""
    out = {}
    for a, b in pairs:
        d = copy.deepcopy(dump)
        for arm in d["armatures"]:
            arm["animations"] = [an for an in arm.get("animations", []) if an["name"] == a]
            for an in arm["animations"]:
                for s in an["samples"]:
                    s["bones"] = [x for x in s["bones"] if x["name"] == b]
                    s["slots"] = []
        out[(a, b)] = d
    return out


def compare(label, expected, actual, excused):
    ok, msg = posecmp(without(expected, excused), without(actual, excused))
    check(ok, f"{label}: differs from the official runtime on the original beyond the approximated bones:\n{msg}")
    for pair, e in only(expected, excused).items():
        same, _ = posecmp(e, only(actual, {pair})[pair])
        check(not same, f"{label}: {pair[0]}/{pair[1]} is warned as approximated but plays exactly")


odir = try_oracle(len(LAYOUTS), "converted rotation fixtures read by the live official runtime")
with tempfile.TemporaryDirectory() as tmp:
    for layout in LAYOUTS:
        src = os.path.join(FIX, f"rotation_{layout}_ske.json")
        out = os.path.join(tmp, layout)
        r = run_sinew("convert", src, "--to", "dragonbones", "--version", "4.5", "--out", out, "--name", "r", "--verbose")
        if not check(r.returncode == 0, f"{layout}: convert: {r.stderr}"):
            continue
        conv = os.path.join(out, "r_ske.json")
        warned = set()
        for line in r.stderr.splitlines():
            m = WARNING.search(line)
            if m:
                warned.add((m.group(1), m.group(2)))
        check(warned == APPROXIMATED[layout],
              f"{layout}: approximation warnings name {sorted(warned)}, expected {sorted(APPROXIMATED[layout])}")
        with open(own_expected(f"oracle_rotation_{layout}")) as f:
            expected = json.load(f)
        mine = os.path.join(out, "sinew.json")
        ok, err = sinew_poses(conv, mine)
        if check(ok, f"{layout}: sinew poses on the converted file: {err}"):
            with open(mine) as f:
                compare(f"{layout}: sinew on the 4.5 file", expected, json.load(f), APPROXIMATED[layout])
        if odir:
            theirs = os.path.join(out, "oracle.json")
            ok, msg = run_oracle(odir, conv, theirs, "--armature", "all")
            if check(ok, f"{layout}: oracle on the converted file: {msg[-500:]}"):
                with open(theirs) as f:
                    compare(f"{layout}: the official runtime on the 4.5 file", expected, json.load(f),
                            APPROXIMATED[layout])
finish()
