#!/usr/bin/env python3
"""The project's own fixtures (tests/fixtures/own) are what their generator writes, exercise what
their README says (seen in the files and in the official runtime's committed dumps), and the
in-repo dump comparator (tests/lib/posecmp.py) can tell a wrong dump from a right one.

1. make_fixtures.py run again writes the committed files: JSON, XML and MRTK bytes exactly, PNG
   pixels within 1 level (libm differences), no file missing or extra.
2. Every fixture of manifest.json is described in README.md; every committed dump exists.
3. Coverage: versions 4.0, 4.5 (both weight layouts), 5.0, 5.5; weighted and unweighted meshes, FFD,
   one- and two-bone IK, a child armature driven by an action, events, sounds, an animation action,
   blend modes, colour, display and zOrder timelines, trimmed and rotated atlas regions (a rotated
   mesh region too), an XML rig with a skin, MRTK 1.0 and 1.1 recordings. Checked on the files and,
   for what the runtime does with them, on the official runtime's committed dumps.
4. The triples twin: the 4.5 file with the seeds' [vertex, bone, weight] layout differs from the
   per-vertex 4.5 fixture only in the weighted mesh's weights and poses, and both describe the
   same mesh (its dump is the per-vertex fixture's, since the official runtime reads only that).
5. posecmp: a dump equals itself; each kind of change beyond the tolerances is reported, changes
   within them are not; tests/tools/posecmp (the C comparator of the scenario tests) gives the same
   verdicts; with ../shared, posediff.py gives the same verdicts where both compare.
Needs python3 only (and ../shared for the posediff agreement, skipped without it).
"""
import copy
import json
import math
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (BUILD, OWN_DIR, SHARED, SRC, check, finish, have_shared, own_expected,  # noqa: E402
                     own_manifest, own_path, same_generated, skip)
import posecmp  # noqa: E402

manifest = own_manifest()
DB = manifest["dragonbones"]


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def committed_files():
    out = []
    for root, _, files in os.walk(OWN_DIR):
        rel = os.path.relpath(root, OWN_DIR)
        if rel.split(os.sep)[0] in ("expected", "__pycache__"):
            continue
        out += [os.path.normpath(os.path.join(rel, f)) for f in files]
    return sorted(f for f in out if f not in ("README.md", "make_fixtures.py", "make_expected.py"))


# ---- 1. the generator -------------------------------------------------------------------------

regen = os.path.join(BUILD, "own_fixtures_regen")
r = subprocess.run([sys.executable, os.path.join(OWN_DIR, "make_fixtures.py"), "--out", regen],
                   capture_output=True, text=True)
if check(r.returncode == 0, "make_fixtures.py runs: " + r.stderr[-500:]):
    mine = committed_files()
    theirs = []
    for root, _, files in os.walk(regen):
        theirs += [os.path.normpath(os.path.join(os.path.relpath(root, regen), f)) for f in files]
    check(sorted(theirs) == mine, f"the generator writes exactly the committed files "
                                  f"(missing {sorted(set(theirs) - set(mine))}, extra {sorted(set(mine) - set(theirs))})")
    stale = [f for f in sorted(set(mine) & set(theirs))
             if not same_generated(os.path.join(OWN_DIR, f), os.path.join(regen, f))]
    check(not stale, f"the committed fixtures are what make_fixtures.py writes (differ: {stale}); "
                     "run python3 tests/fixtures/own/make_fixtures.py, then `make fixtures`")

# ---- 2. README and dumps ------------------------------------------------------------------------

readme = open(os.path.join(OWN_DIR, "README.md"), encoding="utf-8").read()
names = [e["name"] for e in DB + manifest["xml"] + manifest["mrtk"]]
check(all(f"`{n}" in readme for n in names), "README.md describes every fixture: "
      + str([n for n in names if f"`{n}" not in readme]))
SCRIPTS = os.path.join(SRC, "tests", "fixtures", "scenarios")
own_scripts = {"scenarios_" + f[:-5] for f in os.listdir(SCRIPTS)
               if f.endswith(".json")
               and json.load(open(os.path.join(SCRIPTS, f)))["character"].startswith(("own:", "oracle:"))}
dumps = sorted({e["expected"] for e in DB} | {e["expected"] for e in manifest["xml"]}
               | {e["name"] for e in manifest["extra"] + manifest["xml_dumps"]} | own_scripts
               | {e.get("expected", e["name"]) for e in manifest.get("converted", [])})
check(all(os.path.exists(own_expected(d)) for d in dumps), "every dump is committed: "
      + str([d for d in dumps if not os.path.exists(own_expected(d))]))
check(sorted(f[:-len(".poses.json")] for f in os.listdir(os.path.join(OWN_DIR, "expected"))) == dumps,
      "no stray dump in expected/")

# ---- 3. coverage ---------------------------------------------------------------------------------

check({e["version"] for e in DB} == {"4.0", "4.5", "5.0", "5.5"}, "DragonBones 4.0, 4.5, 5.0 and 5.5")
check({e["layout"] for e in DB if e["version"] == "4.5"} == {"per-vertex", "triples"}, "both 4.5 weight layouts")
for e in DB:
    ske = load(own_path(e["skeleton"]))
    check(ske["version"] == e["version"], f"{e['name']}: version {ske['version']}")
    atlas = load(own_path(e["atlas"]))
    subs = atlas["SubTexture"]
    if e["trimmed"]:
        check(any("frameX" in s and (s["frameWidth"], s["frameHeight"]) != (s["width"], s["height"]) for s in subs),
              f"{e['name']}: trimmed regions")
    if e["rotated"]:
        check({s["name"] for s in subs if s.get("rotated")} == set(e["rotated"]), f"{e['name']}: rotated regions")
covered_rot = {n for e in DB for n in e["rotated"]}
check("tail" in covered_rot or "cape" in covered_rot, "a mesh region is stored rotated")


def by(items, name):
    return [x for x in items if x["name"] == name][0]


def inv_apply(m, x, y):
    a, b, c, d, tx, ty = m
    det = a * d - b * c
    x, y = x - tx, y - ty
    return (d * x - c * y) / det, (-b * x + a * y) / det


for e in DB:
    dump = load(own_expected(e["expected"]))
    name = e["name"]
    pip = by(dump["armatures"], "pip")
    idle, hop = by(pip["animations"], "idle"), by(pip["animations"], "hop")
    samples = idle["samples"] + hop["samples"]
    slots = [sl for s in samples for sl in s["slots"]]
    check({1, 10, 12} <= {sl["blendMode"] for sl in slots}, f"{name}: add, multiply and screen blend modes")
    glow = [by(s["slots"], "glow")["color"]["aM"] for s in idle["samples"]]
    check(max(glow) - min(glow) > 0.3, f"{name}: a colour timeline (glow alpha {min(glow):.2f}..{max(glow):.2f})")
    check(any((by(s["slots"], "eye")["display"] or {}).get("name") == "eye_shut" for s in idle["samples"]),
          f"{name}: a display timeline (the eye blinks)")
    star = [by(s["slots"], "star")["displayIndex"] for s in hop["samples"]]
    check(-1 in star and 0 in star, f"{name}: hidden and shown keys (star {star})")
    rotor = [by(s["slots"], "rotor")["childArmature"]["animation"] for s in hop["samples"]]
    check(rotor[0] == "still" and "spin" in rotor, f"{name}: a child armature driven by a slot action ({rotor})")
    events = {(ev["type"], ev["name"]) for s in hop["samples"] for ev in s["events"]}
    check({("frameEvent", "jump"), ("soundEvent", "boing")} <= events, f"{name}: frame and sound events {events}")
    if e["version"] in ("4.0", "5.0"):
        check(any(ev["type"] == "start" and ev["animation"] == "idle" and ev["armature"] == "pip"
                  for s in hop["samples"] for ev in s["events"]), f"{name}: an animation action plays idle")
    if e["version"] != "4.0":
        check(("frameEvent", "land") in events, f"{name}: a bone event with user data")
        check(len({by(s["slots"], "wing")["drawIndex"] for s in hop["samples"]}) > 1, f"{name}: a zOrder timeline")
        cape = [by(s["slots"], "cape")["mesh"] for s in samples]
        check(all(c["weighted"] for c in cape) and len({tuple(c["vertices"]) for c in cape}) > 3,
              f"{name}: a weighted mesh that moves")
        # the tail's vertices in its slot's space move from sample to sample: the ffd
        local = []
        for s in idle["samples"]:
            sl = by(s["slots"], "tail")
            check(not sl["mesh"]["weighted"], f"{name}: the tail mesh is unweighted")
            v = sl["mesh"]["vertices"]
            local.append([inv_apply(sl["matrix"], v[i], v[i + 1]) for i in range(0, len(v), 2)])
        moved = max(math.hypot(p[0] - q[0], p[1] - q[1]) for loc in local for p, q in zip(loc, local[0]))
        check(moved > 1.0, f"{name}: the ffd deforms the tail in slot space ({moved:.2f} px)")
        miss1 = miss2 = 0.0
        reachable = 0
        for s in samples:
            b = {x["name"]: x["matrix"] for x in s["bones"]}
            ant, aim = b["antenna"], b["aim"]
            want = math.atan2(aim[5] - ant[5], aim[4] - ant[4])
            miss1 = max(miss1, abs(math.remainder(math.atan2(ant[1], ant[0]) - want, 2 * math.pi)))
            thigh, shin, foot = b["thigh"], b["shin"], b["foot"]
            # the body's scale keys stretch the leg: only a target within reach is reached
            reach = math.hypot(shin[4] - thigh[4], shin[5] - thigh[5]) + 16 * math.hypot(shin[0], shin[1])
            if math.hypot(foot[4] - thigh[4], foot[5] - thigh[5]) < reach - 0.1:
                reachable += 1
                tip = (shin[4] + shin[0] * 16, shin[5] + shin[1] * 16)
                miss2 = max(miss2, math.hypot(tip[0] - foot[4], tip[1] - foot[5]))
        check(miss1 < 1e-4, f"{name}: one-bone IK points the antenna at its target ({miss1:.2g} rad)")
        check(reachable > 10 and miss2 < 0.01,
              f"{name}: two-bone IK puts the shin tip on the foot ({miss2:.3g} px in {reachable} samples)")

xml = load(own_expected("Pip_xml"))
check([a["name"] for a in xml["armatures"]] == ["pip", "pip@dusk"], "the XML rig has a skin")
flap = by(by(xml["armatures"], "pip")["animations"], "flap")["samples"]
eyes = [by(s["slots"], "eye") for s in flap]
check(any(e_["displayIndex"] == -1 for e_ in eyes) and any((e_["display"] or {}).get("name") == "eye_shut"
                                                            for e_ in eyes), "the XML rig hides and swaps images")
for e in manifest["mrtk"]:
    head = open(own_path(e["file"]), "rb").read(19)
    minor = struct.unpack("<qii", head[:16])[2]
    check(e["name"].endswith("1.%d" % minor), f"{e['name']}: MRTK 1.{minor}")
    if minor == 1:
        check(head[16:19] == b"\x01\x01\x01", f"{e['name']}: camera, hands and eye gaze")

# ---- 4. the triples twin ------------------------------------------------------------------------

pv = load(own_path(by(DB, "Pip_4.5")["skeleton"]))
tr = load(own_path(by(DB, "Pip_4.5_triples")["skeleton"]))


def strip_cape(doc):
    d = copy.deepcopy(doc)
    cape = by(by(d["armature"], "pip")["skin"][0]["slot"], "cape")["display"][0]
    return d, {k: cape.pop(k) for k in ("weights", "slotPose", "bonePose")}


a, wa = strip_cape(pv)
b, wb = strip_cape(tr)
check(a == b, "the triples twin differs from the per-vertex 4.5 fixture only in the cape's weights and poses")


def to_matrix(p):
    skx, sky = math.radians(p[2]), math.radians(p[3])
    return [p[4] * math.cos(sky), p[4] * math.sin(sky), -p[5] * math.sin(skx), p[5] * math.cos(skx), p[0], p[1]]


check(len(wa["slotPose"]) == len(wb["slotPose"]) == 6
      and max(abs(x - y) for x, y in zip(wa["slotPose"], to_matrix(wb["slotPose"]))) < 1e-5, "same slotPose")
pose_a = {wa["bonePose"][i]: wa["bonePose"][i + 1:i + 7] for i in range(0, len(wa["bonePose"]), 7)}
pose_b = {wb["bonePose"][i]: to_matrix(wb["bonePose"][i + 1:i + 7]) for i in range(0, len(wb["bonePose"]), 7)}
check(len(wa["bonePose"]) == len(wb["bonePose"]) and len(wa["bonePose"]) % 7 == 0 and pose_a.keys() == pose_b.keys()
      and all(len(pose_a[k]) == 6 and max(abs(x - y) for x, y in zip(pose_a[k], pose_b[k])) < 1e-5 for k in pose_a),
      "same bonePose")
infl_a, i = [], 0
while i < len(wa["weights"]):
    n = wa["weights"][i]
    infl_a.append(sorted(zip(wa["weights"][i + 1:i + 1 + 2 * n:2], wa["weights"][i + 2:i + 2 + 2 * n:2])))
    i += 1 + 2 * n
infl_b = [[] for _ in infl_a]
for j in range(0, len(wb["weights"]), 3):
    infl_b[wb["weights"][j]].append((wb["weights"][j + 1], wb["weights"][j + 2]))
check(infl_a == [sorted(x) for x in infl_b], "same influences")
check(wb["weights"] != sorted(wb["weights"][j:j + 3] for j in range(0, len(wb["weights"]), 3)),
      "the triples are not in vertex order (the layout allows any order)")

# ---- 5. posecmp ----------------------------------------------------------------------------------

base = load(own_expected("Pip_5.5"))


def sample(d, anim="hop", k=3):
    return by(by(d["armatures"], "pip")["animations"], anim)["samples"][k]


POSECMP_C = os.environ.get("POSECMP", os.path.join(BUILD, "tests", "posecmp"))
check(os.path.exists(POSECMP_C), f"tests/tools/posecmp is built ({POSECMP_C})")


def mutate(label, fn, fails, posediff_too=True):
    d = copy.deepcopy(base)
    fn(d)
    rep = posecmp.compare(base, d)
    ok = rep.failed == 0
    text = "\n".join(rep.lines())
    check(ok != fails, f"posecmp: {label}: {'reported' if fails else 'accepted'} ({text or rep.summary()})")
    if fails:
        check(len(rep.lines()) <= 8, f"posecmp: {label}: a few lines say what differs ({len(rep.lines())} lines)")
    # the C comparator of the scenario tests: the same verdict
    tmp_a, tmp_b = os.path.join(BUILD, "posecmp_c_a.json"), os.path.join(BUILD, "posecmp_c_b.json")
    json.dump(base, open(tmp_a, "w"))
    json.dump(d, open(tmp_b, "w"))
    r = subprocess.run([POSECMP_C, tmp_a, tmp_b, "--quiet"], capture_output=True, text=True)
    check(r.returncode == (1 if fails else 0),
          f"tests/tools/posecmp: {label}: {'reported' if fails else 'accepted'} ({r.returncode}: {r.stdout.strip()[-300:]})")
    if posediff_too and have_shared():
        tmp_a, tmp_b = os.path.join(BUILD, "posecmp_a.json"), os.path.join(BUILD, "posecmp_b.json")
        json.dump(base, open(tmp_a, "w"))
        json.dump(d, open(tmp_b, "w"))
        r = subprocess.run([sys.executable, os.path.join(SHARED, "tools", "posediff.py"), tmp_a, tmp_b, "--quiet"],
                           capture_output=True, text=True)
        check((r.returncode == 0) == ok, f"posecmp and posediff agree on: {label}")
    return posediff_too


def bone(d, name):
    return by(sample(d)["bones"], name)


def slot(d, name, anim="hop", k=3):
    return by(sample(d, anim, k)["slots"], name)


agreeing = [
    mutate("nothing changed", lambda d: None, False),
    mutate("a bone 0.005 px off", lambda d: bone(d, "shin")["matrix"].__setitem__(4, bone(d, "shin")["matrix"][4] + 0.005),
           False),
    mutate("a bone 0.02 px off", lambda d: bone(d, "shin")["matrix"].__setitem__(5, bone(d, "shin")["matrix"][5] + 0.02),
           True),
    mutate("a bone axis 5e-5 off", lambda d: bone(d, "head")["matrix"].__setitem__(1, bone(d, "head")["matrix"][1] + 5e-5),
           False),
    mutate("a bone axis 2e-4 off", lambda d: bone(d, "head")["matrix"].__setitem__(2, bone(d, "head")["matrix"][2] + 2e-4),
           True),
    mutate("a colour multiplier 2e-3 off", lambda d: slot(d, "glow")["color"].__setitem__("aM", 0.5), True),
    mutate("a colour offset 0.2 off", lambda d: slot(d, "glow")["color"].__setitem__("rO", 0.2), False),
    mutate("a colour offset 0.3 off", lambda d: slot(d, "glow")["color"].__setitem__("rO", 0.3), True),
    mutate("a mesh vertex 0.02 px off",
           lambda d: slot(d, "cape")["mesh"]["vertices"].__setitem__(3, slot(d, "cape")["mesh"]["vertices"][3] + 0.02),
           True),
    mutate("an image slot 0.02 px off",
           lambda d: slot(d, "head")["matrix"].__setitem__(4, slot(d, "head")["matrix"][4] + 0.02), True),
    mutate("the draw order", lambda d: slot(d, "wing").__setitem__("drawIndex", 99), True),
    mutate("a display index", lambda d: slot(d, "eye").__setitem__("displayIndex", 1), True),
    mutate("an event dropped", lambda d: sample(d, "hop", 2)["events"].pop(), True),
    mutate("a sample dropped", lambda d: by(by(d["armatures"], "pip")["animations"], "hop")["samples"].pop(), True),
    mutate("a bone renamed", lambda d: bone(d, "foot").__setitem__("name", "paw"), True),
    mutate("a child armature's bone",
           lambda d: by(slot(d, "rotor")["childArmature"]["pose"]["bones"], "hub")["matrix"].__setitem__(4, 3.0), True),
]
mutate("an event added", lambda d: sample(d, "hop", 1)["events"].append(
    {"type": "frameEvent", "name": "extra", "armature": "pip", "animation": "hop", "time": 0.1}), True, False)
mutate("an event 1e-5 s late", lambda d: sample(d, "hop", 2)["events"][0].__setitem__(
    "time", sample(d, "hop", 2)["events"][0]["time"] + 1e-5), True, False)
mutate("an event of another armature", lambda d: sample(d, "hop", 2)["events"][0].__setitem__("armature", "rotor"),
       True, False)
mutate("the shown display", lambda d: slot(d, "eye", "idle", 0)["display"].__setitem__("name", "eye_shut"), True, False)
mutate("the blend mode", lambda d: slot(d, "glow").__setitem__("blendMode", 0), True, False)
mutate("the child armature's animation", lambda d: slot(d, "rotor").__getitem__("childArmature").__setitem__(
    "animation", "still"), True, False)
# a lookup by name alone would let these pass (posediff.py lets them)
mutate("a bone listed twice", lambda d: sample(d)["bones"].append(copy.deepcopy(bone(d, "head"))), True, False)
mutate("a slot the expected pose lacks", lambda d: sample(d)["slots"].append(
    dict(copy.deepcopy(slot(d, "head")), name="extra")), True, False)
mutate("a slot's visible flag", lambda d: slot(d, "head").__setitem__("visible", False), True, False)
if not have_shared():
    skip(len(agreeing), "comparisons of posecmp's verdicts with ../shared/tools/posediff.py")
finish()
