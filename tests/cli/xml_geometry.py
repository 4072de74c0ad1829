#!/usr/bin/env python3
"""XML rig geometry and time, checked against numbers computed by hand from the format page
(tests/fixtures/xml/rigs/align.xml and tween.xml), through `sinew poses` (the runtime) and the
independent reference evaluator (fixtures/xml/reference.py).

align.xml: root 30x40 (pivot = centre 15,20) at (100,100); joint x=2 y=3 with each
halign/valign; children 20x10 whose 'from' joint x=1 y=2 uses the same alignment.
Skin 'big' swaps the root for a 40x60 image: children must stay on the same anchors."""
import json
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import SRC, check, finish, run_sinew  # noqa: E402

sys.path.insert(0, os.path.join(SRC, "tests", "fixtures", "xml"))
import reference  # noqa: E402

RIGS = os.path.join(SRC, "tests", "fixtures", "xml", "rigs")


def near(a, b, tol=1e-3):
    # the same length first: zip alone would let a shorter list (a matrix without its translation) pass
    return len(a) == len(b) and all(abs(x - y) <= tol for x, y in zip(a, b))


# Hand-computed: joint point k on the 30x40 root: left x=2, center 15+2=17, right 30-2=28;
# top y=3, center 20+3=23, bottom 40-3=37. Child origin O = (100,100) + k - (15,20).
# Child pivot on 20x10: left 1, center 11, right 19; top 2, center 7, bottom 10-2=8.
# Slot centre = O + (10,5) - pivot.
ORIGIN = {"lt": (87, 83), "ct": (102, 83), "rt": (113, 83), "lc": (87, 103), "cc": (102, 103),
          "rc": (113, 103), "lb": (87, 117), "cb": (102, 117), "rb": (113, 117)}
CENTRE = {"lt": (96, 86), "ct": (101, 86), "rt": (104, 86), "lc": (96, 101), "cc": (101, 101),
          "rc": (104, 101), "lb": (96, 114), "cb": (101, 114), "rb": (104, 114)}
# Skin 'big' (40x60, pivot 20,30): k: left 2, center 22, right 38; top 3, center 33, bottom 57.
# O = (100,100) + k - (20,30). The root image's top-left is at (80,70), bottom-right at (120,130).
ORIGIN_BIG = {"lt": (82, 73), "ct": (102, 73), "rt": (118, 73), "lc": (82, 103), "cc": (102, 103),
              "rc": (118, 103), "lb": (82, 127), "cb": (102, 127), "rb": (118, 127)}


def first_sample(dump, arm, anim):
    a = [x for x in dump["armatures"] if x["name"] == arm][0]
    return [x for x in a["animations"] if x["name"] == anim][0]["samples"][0]


def angle(m):
    return math.degrees(math.atan2(m[1], m[0]))


def same_angle(a, b, tol=1e-3):
    d = (a - b + 180) % 360 - 180
    return abs(d) <= tol


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "align.json")
    r = run_sinew("poses", os.path.join(RIGS, "align.xml"), "--armature", "all", "--out", out)
    check(r.returncode == 0, f"sinew poses align.xml: {r.stderr}")
    dumps = {"sinew poses": json.load(open(out)) if r.returncode == 0 else None}
    rig = reference.Rig(os.path.join(RIGS, "align.xml"))
    dumps["reference"] = {"armatures": [{"name": n, "animations": [
        {"name": "turn", "samples": [rig.pose(s, rig.anims[0], 0.0, 0)]}]} for n, s in rig.armature_names()]}
    for who, dump in dumps.items():
        if dump is None:
            continue
        s = first_sample(dump, "align", "turn")
        bones = {b["name"]: b for b in s["bones"]}
        slots = {x["name"]: x for x in s["slots"]}
        check(near(bones["root"]["matrix"], [1, 0, 0, 1, 100, 100]), f"{who}: root bone")
        check(near(slots["root"]["matrix"][4:], [100, 100]), f"{who}: root slot centre")
        for k in ORIGIN:
            check(near(bones["c_" + k]["matrix"][4:], ORIGIN[k]), f"{who}: c_{k} origin {bones['c_' + k]['matrix'][4:]} != {ORIGIN[k]}")
            check(near(slots["c_" + k]["matrix"][4:], CENTRE[k]), f"{who}: c_{k} slot centre {slots['c_' + k]['matrix'][4:]} != {CENTRE[k]}")
        check([x["name"] for x in sorted(s["slots"], key=lambda x: x["drawIndex"])][0] == "root", f"{who}: draw order by z")
        s = first_sample(dump, "align@big", "turn")
        bones = {b["name"]: b for b in s["bones"]}
        for k in ORIGIN_BIG:
            check(near(bones["c_" + k]["matrix"][4:], ORIGIN_BIG[k]), f"{who}: big c_{k} origin {bones['c_' + k]['matrix'][4:]}")
        # the same anchor: c_rb sits 2 px left of and 3 px above the big image's bottom-right corner
        check(near(bones["c_rb"]["matrix"][4:], (120 - 2, 130 - 3)), f"{who}: big skin anchor")

    # ---- time (tween.xml: frameRate 10, one bone 'r'; rotations in degrees) --------------------
    # fps 40 = 4 samples per frame; each tween spans 4 frames, so p = k/16 at sample k:
    # p = 1/4, 1/2, 3/4, 1 at samples 4, 8, 12, 16.
    c = math.cos
    cases = {
        "lin": (40, 33, [(0, 0), (4, 22.5), (8, 45), (12, 67.5), (16, 90), (24, 90), (32, 90)]),
        "ein": (40, 17, [(0, 0), (4, 6.25), (8, 25), (12, 56.25), (16, 100)]),
        "eout": (40, 17, [(0, 0), (4, 43.75), (8, 75), (12, 93.75), (16, 100)]),
        "einout": (40, 17, [(0, 0), (4, 100 * (1 - c(math.pi / 4)) / 2), (8, 50),
                            (12, 100 * (1 - c(3 * math.pi / 4)) / 2), (16, 100)]),
        # plain numbers: 0 -> 270 then back to 0 (not the short way through 360); fps 20
        "wrap": (20, 9, [(0, 0), (1, 67.5), (2, 135), (3, 202.5), (4, 270), (5, 202.5), (6, 135), (7, 67.5), (8, 0)]),
        # playTimes 2: the first play tweens back to 0, the final play holds 60
        "hold": (10, 12, [(0, 0), (1, 30), (2, 60), (3, 30), (4, 0), (5, 30), (6, 60), (7, 60), (8, 60), (11, 60)]),
        # steps change exactly at frame starts (3), and the loop wraps to frame 0 at 5
        "step": (10, 6, [(0, 0), (1, 0), (2, 0), (3, 45), (4, 45), (5, 0)]),
    }
    trig = reference.Rig(os.path.join(RIGS, "tween.xml"))
    anims = {a["name"]: a for a in trig.anims}
    for anim, (fps, frames, want) in cases.items():
        out = os.path.join(tmp, anim + ".json")
        r = run_sinew("poses", os.path.join(RIGS, "tween.xml"), "--animation", anim, "--fps", fps,
                      "--frames", frames, "--out", out)
        check(r.returncode == 0, f"sinew poses tween.xml {anim}: {r.stderr}")
        samples = json.load(open(out))["armatures"][0]["animations"][0]["samples"] if r.returncode == 0 else None
        for k, deg in want:
            if samples is not None:
                got = angle(samples[k]["bones"][0]["matrix"])
                check(same_angle(got, deg), f"sinew poses {anim} sample {k}: {got:.4f} != {deg:.4f}")
            f = k * 10 / fps
            D = sum(fr["duration"] for fr in anims[anim]["frames"])
            done = int(f // D) if anims[anim]["playTimes"] == 0 or f < D * anims[anim]["playTimes"] else anims[anim]["playTimes"]
            p = trig.pose(None, anims[anim], f - done * D if done < anims[anim]["playTimes"] or anims[anim]["playTimes"] == 0 else D, done)
            got = angle(p["bones"][0]["matrix"])
            check(same_angle(got, deg), f"reference {anim} sample {k}: {got:.4f} != {deg:.4f}")

finish()
