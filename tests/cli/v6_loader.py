#!/usr/bin/env python3
"""DragonBones 6.0 at load (docs/loader.md "DragonBones 6.0"): `sinew info --json` counts a 6.0
rig's constraints, shapes and masks, with the entries the official parser drops left out (a
physics constraint without its bone, a constraint whose name is taken) and a warning for each; a
5.x file with 6.0 keys plays as 5.x (the keys are not read, one warning says so); a 6.0 path
constraint's 5.x mode names read as 0 with a warning; every converter refuses a 6.0 file, naming
its 6.0 constructs. Inputs are written here (no ../shared needed).
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import check, finish, run_sinew  # noqa: E402


def rig(version, extra_armature, display_extra=""):
    return {
        "name": "r", "version": version, "frameRate": 24,
        "armature": [dict({
            "name": "a",
            "bone": [{"name": "root"}, {"name": "b1", "parent": "root", "length": 20},
                     {"name": "b2", "parent": "b1", "length": 20, "transform": {"x": 20}}],
            "slot": [{"name": "s1", "parent": "b1"}, {"name": "s2", "parent": "b2"}, {"name": "p", "parent": "root"}],
            "skin": [{"name": "", "slot": [
                {"name": "s1", "display": [dict({"name": "blob", "type": "shape",
                                                 "shape": {"vertices": [0, -5, 0, -5, 5, 0, 5, 0, 5, 0, 0, 5],
                                                           "paths": [{"indexes": [0, 1, 0, 9],
                                                                      "style": {"fill": {"color": 255}}}]}},
                                                **display_extra)]},
                {"name": "s2", "display": [{"name": "img", "mask": True, "maskRange": 1}]},
                {"name": "p", "display": [{"name": "p", "type": "path", "lengths": [30],
                                           "vertices": [0, 0, 0, 0, 10, 0, 20, 0, 30, 0, 30, 0]}]}]}],
            "animation": [{"name": "idle", "duration": 4}],
        }, **extra_armature)]}


V6_CONSTRAINTS = {
    "transform": [{"name": "t", "target": "b2", "bones": ["b1"], "offset": {}, "rotateWeight": 1},
                  {"name": "7", "target": "b1", "bones": ["b2", "nobody"], "offset": {"skX": 30}}],
    "physics": [{"name": "ph", "bone": "b2", "rotate": 1, "mass": 1, "weight": 1},
                {"name": "nobone", "x": 1},
                {"name": "t", "bone": "b1", "mass": 1}],  # "t" is a transform constraint's name
    "path": [{"name": "pc", "target": "p", "bones": ["b1"], "positionMode": "percent", "spacingMode": 0}],
}


def write(tmp, name, doc):
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh)
    return path


with tempfile.TemporaryDirectory() as tmp:
    v6 = write(tmp, "six_ske.json", rig("6.0", V6_CONSTRAINTS, {"mask": True, "maskRange": 2}))
    r = run_sinew("info", "--json", v6)
    if check(r.returncode == 0, "info of a 6.0 rig exits 0 (%s)" % r.stderr.strip()):
        got = json.loads(r.stdout)
        a = got["armatures"][0]
        want = {"transformConstraints": 2, "physicsConstraints": 1, "ignoredConstraints": 2, "shapes": 1,
                "masks": 2, "meshes": 0, "pathConstraints": 1}
        check(got["plays"] == "6.0", "a 6.0 file plays as 6.0 (%r)" % got["plays"])
        for k, v in want.items():
            check(a[k] == v, "6.0 rig: %s %r, want %r" % (k, a[k], v))
    err = r.stderr
    check("physics constraint 'nobone': no 'bone'" in err, "the bone-less physics constraint is dropped with a warning")
    check("physics constraint 't': an earlier constraint has this name" in err,
          "a physics constraint named like a transform constraint is dropped with a warning")
    check("bone 'nobody' does not exist" in err, "a transform constraint's unknown bone is named")
    check("shape path index 9 names no Bezier point" in err, "a shape index past the points is warned about")
    check("'positionMode' is not a number" in err and "reads this one as 0" in err,
          "a 5.x path mode name in a 6.0 file reads as 0 with a warning")

    # the same keys in a 5.5 file are not read, with one warning each kind
    v5 = write(tmp, "five_ske.json", rig("5.5", {k: v for k, v in V6_CONSTRAINTS.items() if k != "path"},
                                           {"mask": True}))
    r = run_sinew("info", "--json", v5)
    if check(r.returncode == 0, "info of a 5.5 rig with 6.0 keys exits 0 (%s)" % r.stderr.strip()):
        a = json.loads(r.stdout)["armatures"][0]
        check(json.loads(r.stdout)["plays"] == "5.x", "a 5.5 file plays as 5.x")
        check((a["transformConstraints"], a["physicsConstraints"], a["masks"]) == (0, 0, 0),
              "a 5.5 file's 6.0 constraints and masks are not read (%r)" % a)
        check(r.stderr.count("DragonBones 6.0 data") == 2 and "reported once per file" in r.stderr,
              "one warning for the constraints, one for the masks (%r)" % r.stderr)

    # every converter refuses a 6.0 file and names what it holds; nothing is written
    out = os.path.join(tmp, "out")
    os.mkdir(out)
    for to in ("dragonbones", "dbbin", "spine"):
        r = run_sinew("convert", v6, "--to", to, "--out", out)
        check(r.returncode == 2 and "a DragonBones 6.0 file (2 transform constraint(s), 1 physics constraint(s), "
              "1 vector shape(s), 2 mask(s))" in r.stderr and "does not convert 6.0" in r.stderr,
              "convert --to %s refuses the 6.0 file (%d: %s)" % (to, r.returncode, r.stderr.strip()))
    check(os.listdir(out) == [], "nothing written by the refused conversions (%r)" % os.listdir(out))

finish()
