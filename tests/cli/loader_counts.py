#!/usr/bin/env python3
"""`sinew info --json` agrees with counts computed independently from the raw JSON of every
DragonBones file of the project's own fixtures (tests/fixtures/own) and, with ../shared, of the
shared corpus (and `sinew validate` accepts each file and its atlas)."""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import CORPUS, SHARED, check, finish, have_shared, own_manifest, own_path, run_sinew, skip  # noqa: E402

DATA = os.path.join(SHARED, "data", "dragonbones")


def own_files():
    out = []
    for e in own_manifest()["dragonbones"]:
        path = own_path(e["skeleton"])
        with open(path, encoding="utf-8") as fh:
            out.append((path, json.load(fh)))
    return out


def skeleton_files():
    out = []
    for d in sorted(os.listdir(DATA)):
        p = os.path.join(DATA, d)
        if not os.path.isdir(p):
            continue
        for f in sorted(os.listdir(p)):
            if not f.endswith(".json"):
                continue
            with open(os.path.join(p, f), encoding="utf-8") as fh:
                doc = json.load(fh)
            if "armature" in doc:
                out.append((os.path.join(p, f), doc))
    return out


def expected(doc):
    top_rate = doc.get("frameRate", 24)
    arms = []
    for a in doc.get("armature", []):
        rate = a.get("frameRate", top_rate) or 24
        skins = [s.get("name") or "" for s in a.get("skin", [])]
        # the default skin "" is listed first
        skins = [s for s in skins if s == ""] + [s for s in skins if s != ""]
        displays = [d for s in a.get("skin", []) for sl in s.get("slot", []) for d in sl.get("display", []) if d]
        meshes = sum(1 for d in displays if d.get("type") == "mesh")
        v6 = "6.0" in (str(doc.get("version")), str(doc.get("compatibleVersion")))
        # 6.0: shapes, masks (image and shape displays), transform and physics constraints
        shapes = sum(1 for d in displays if d.get("type") == "shape") if v6 else 0
        masks = sum(1 for d in displays if d.get("mask") is True and d.get("type", "image") in ("image", "shape")) if v6 else 0
        anims = []
        for an in a.get("animation", []):
            frames = an.get("duration", 1)
            # an unnamed animation is called "default", as the official parser names it
            anims.append({"name": an.get("name") or "default", "frames": frames, "duration": frames / rate,
                          "playTimes": an.get("playTimes", 1)})
        # defaultActions as the file writes them: {"gotoAndPlay": NAME} (5.x and real 4.5 files) or
        # ["gotoAndPlay", NAME] (the 4.5 format notes' pairs); "play", "gotoAndStop", "fadeIn" too
        kinds = {"gotoAndPlay": "play", "play": "play", "gotoAndStop": "stop", "stop": "stop", "fadeIn": "fadeIn"}
        actions = []
        for act in a.get("defaultActions", []):
            if isinstance(act, list):
                if act and act[0] in kinds:
                    actions.append({"type": kinds[act[0]], "name": act[1] if len(act) > 1 else ""})
                continue
            for key, kind in kinds.items():
                if key in act:
                    actions.append({"type": kind, "name": act[key] if isinstance(act[key], str) else ""})
                    break
        cv = a.get("canvas")
        canvas = None if cv is None else dict(
            [(k, cv.get(k, 0)) for k in ("x", "y", "width", "height")] + ([("color", cv["color"])] if "color" in cv else []))
        surfaces = sum(1 for b in a.get("bone", []) if b.get("type") in ("surface", 1))
        arms.append({"name": a.get("name", ""), "frameRate": rate, "bones": len(a.get("bone", [])), "surfaces": surfaces,
                     "pathConstraints": len(a.get("path", [])),
                     "defaultActions": actions, "userData": a.get("userData"), "canvas": canvas,
                     "slots": len(a.get("slot", [])), "skins": skins, "ik": len(a.get("ik", [])),
                     "meshes": meshes, "transformConstraints": len(a.get("transform", [])) if v6 else 0,
                     "physicsConstraints": len(a.get("physics", [])) if v6 else 0, "ignoredConstraints": 0,
                     "shapes": shapes, "masks": masks, "animations": anims})
    v6 = "6.0" in (str(doc.get("version")), str(doc.get("compatibleVersion")))
    return {"format": "dragonbones", "version": str(doc["version"]), "name": doc.get("name", ""),
            "frameRate": top_rate, "plays": "6.0" if v6 else "5.x", "armatures": arms}


def close(a, b):
    return math.isclose(float(a), float(b), rel_tol=1e-6, abs_tol=1e-6)


files = own_files()
check(len(files) == 5, "five own DragonBones fixtures (found %d)" % len(files))
if have_shared():
    corpus = skeleton_files()
    check(len(corpus) == len(CORPUS), "nine shared skeleton files (found %d)" % len(corpus))
    files += corpus
    tiny6 = os.path.join(SHARED, "tools", "oracle6", "testdata", "tiny6_ske.json")  # the 6.0 oracle's own test rig
    if check(os.path.exists(tiny6), "the 6.0 oracle's test rig " + tiny6):
        with open(tiny6, encoding="utf-8") as fh:
            files.append((tiny6, json.load(fh)))
else:
    skip(len(CORPUS), "shared skeleton files (info and validate)")
for path, doc in files:
    name = os.path.relpath(path, DATA) if path.startswith(DATA) else os.path.relpath(path, own_path("tests/fixtures/own"))
    r = run_sinew("info", "--json", path)
    check(r.returncode == 0, "%s: sinew info exits 0 (got %d: %s)" % (name, r.returncode, r.stderr.strip()))
    if r.returncode != 0:
        continue
    got = json.loads(r.stdout)
    exp = expected(doc)
    check(list(got.keys()) == ["format", "version", "name", "frameRate", "plays", "armatures"], name + ": top-level keys")
    for k in ("format", "version", "name", "plays"):
        check(got[k] == exp[k], "%s: %s %r != %r" % (name, k, got[k], exp[k]))
    check(close(got["frameRate"], exp["frameRate"]), name + ": frameRate")
    check(len(got["armatures"]) == len(exp["armatures"]), name + ": armature count")
    for ga, ea in zip(got["armatures"], exp["armatures"]):
        where = "%s: armature %s" % (name, ea["name"])
        check(list(ga.keys()) == ["name", "type", "frameRate", "bones", "surfaces", "pathConstraints", "slots", "skins",
                                  "defaultActions", "userData", "canvas", "ik", "meshes", "transformConstraints",
                                  "physicsConstraints", "ignoredConstraints", "shapes", "masks", "animations"],
              where + ": keys")
        for k in ("name", "bones", "surfaces", "pathConstraints", "slots", "skins", "defaultActions", "userData",
                  "canvas", "ik", "meshes", "transformConstraints", "physicsConstraints", "ignoredConstraints", "shapes",
                  "masks"):
            check(ga[k] == ea[k], "%s: %s %r != %r" % (where, k, ga[k], ea[k]))
        check(close(ga["frameRate"], ea["frameRate"]), where + ": frameRate")
        check(len(ga["animations"]) == len(ea["animations"]), where + ": animation count")
        for gn, en in zip(ga["animations"], ea["animations"]):
            w = "%s animation %s" % (where, en["name"])
            check(list(gn.keys()) == ["name", "frames", "duration", "playTimes"], w + ": keys")
            check(gn["name"] == en["name"], w + ": name")
            check(close(gn["frames"], en["frames"]), w + ": frames %r != %r" % (gn["frames"], en["frames"]))
            check(close(gn["duration"], en["duration"]), w + ": duration %r != %r" % (gn["duration"], en["duration"]))
            check(gn["playTimes"] == en["playTimes"], w + ": playTimes")
    if path.endswith("tiny6_ske.json"):
        continue  # the 6.0 oracle's test rig comes without its texture image: counts only
    # the atlas next to it (Robot_4.5 has none) validates too
    folder = os.path.dirname(path)
    atl = [f for f in os.listdir(folder) if f.endswith(".json") and os.path.join(folder, f) != path]
    for f in atl:
        r = run_sinew("validate", os.path.join(folder, f))
        check(r.returncode == 0, "%s: validate %s (%s)" % (name, f, r.stderr.strip()))
    r = run_sinew("validate", path)
    check(r.returncode == 0 and "error" not in r.stderr, "%s: validate (%s)" % (name, r.stderr.strip()))

finish()
