#!/usr/bin/env python3
"""Path constraint cases where the official runtime gives NaN, which posediff cannot compare.

tests/fixtures/runtime/path_nan_ske.json is the oracle_path rig moved onto the official quirks
(docs/runtime.md, "Path constraints"): an unweighted path sampled past its first half, closed and
unweighted paths with constantSpeed (NaN length), points before the start and past the end of
open paths. path_nan.oracle.json is the official runtime's dump of it (oracle.mjs --armature all
--precision 9). `sinew poses` must give NaN (null) exactly where it does, and the same numbers
elsewhere (1e-4). With the official runtime installed, the committed dump must also be current.
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import SRC, check, finish, run_oracle, sinew_poses, try_oracle  # noqa: E402

RIG = os.path.join(SRC, "tests", "fixtures", "runtime", "path_nan_ske.json")
DUMP = os.path.join(SRC, "tests", "fixtures", "runtime", "path_nan.oracle.json")


def compare(expected, actual):
    """(null mismatches, numbers off by more than 1e-4, first differences) over the bones of every
    sample, on the fields both give; the bone matrices must be among them."""
    counts = [0, 0]
    first = []

    def walk(a, b, where):
        if isinstance(a, dict):
            if not isinstance(b, dict):  # a bone (or any object) the official dump has and sinew's lacks
                counts[0] += 1
                if len(first) < 5:
                    first.append("%s: official %s, sinew %r" % (where, "{...}", b))
                return
            for k in a:  # what both dumps give (sinew leaves out some of the oracle's fields)
                if k in b:
                    walk(a[k], b[k], where + "." + k)
        elif isinstance(a, list):
            for i, x in enumerate(a):
                walk(x, b[i] if isinstance(b, list) and i < len(b) else None, "%s[%d]" % (where, i))
        elif a is None or isinstance(a, (int, float)):
            if (a is None) != (b is None) or (a is not None and not isinstance(b, (int, float))):
                counts[0] += 1
            elif a is not None and abs(a - b) > 1e-4:
                counts[1] += 1
            else:
                return
            if len(first) < 5:
                first.append("%s: official %r, sinew %r" % (where, a, b))

    check("matrix" in actual["armatures"][0]["animations"][0]["samples"][0]["bones"][0], "sinew dumps bone matrices")
    names = [(a["name"], [n["name"] for n in a["animations"]]) for a in expected["armatures"]]
    got = [(a["name"], [n["name"] for n in a["animations"]]) for a in actual["armatures"]]
    check(names == got, "the same armatures and animations: official %s, sinew %s" % (names, got))
    for ea, aa in zip(expected["armatures"], actual["armatures"]):
        for en, an in zip(ea["animations"], aa["animations"]):
            check(len(en["samples"]) == len(an["samples"]), "%s: sample count" % en["name"])
            for k, (es, as_) in enumerate(zip(en["samples"], an["samples"])):
                eb, ab = [b["name"] for b in es["bones"]], [b["name"] for b in as_["bones"]]
                if not check(eb == ab, "%s/%s[%d]: the same bones in the same order: official %s, sinew %s"
                             % (ea["name"], en["name"], k, eb, ab)):
                    continue
                walk(es["bones"], as_["bones"], "%s/%s[%d].bones" % (ea["name"], en["name"], k))
    return counts, first


with open(DUMP) as fh:
    expected = json.load(fh)
nulls = json.dumps(expected).count("null")
check(nulls > 100, "the official dump has NaN (null) values to compare (%d)" % nulls)
odir = try_oracle(1, "the committed official dump of path_nan_ske.json is current")
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "sinew.json")
    ok, err = sinew_poses(RIG, out)
    if check(ok, "sinew poses: %s" % err):
        with open(out) as fh:
            (bad_null, bad_num), first = compare(expected, json.load(fh))
        check(bad_null == 0 and bad_num == 0, "sinew vs the official runtime: %d NaN mismatches, %d numbers off:\n%s"
              % (bad_null, bad_num, "\n".join(first)))
    if odir:
        live = os.path.join(tmp, "oracle.json")
        ok, msg = run_oracle(odir, RIG, live, "--armature", "all", "--precision", "9")
        if check(ok, "oracle: %s" % msg[-500:]):
            with open(live) as fh:
                (bad_null, bad_num), first = compare(expected, json.load(fh))
            check(bad_null == 0 and bad_num == 0, "the committed dump is stale:\n%s" % "\n".join(first))
finish()
