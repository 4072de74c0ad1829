#!/usr/bin/env python3
"""Spine export: `sinew convert --to spine`, played in the official Spine runtime (spine-core).

Every armature of each rig is exported (DIR/x.json + DIR/x.atlas), loaded headless by
tools/spine-check (spine-core 4.2, pinned by its package-lock.json; `npm ci` runs once in the
build folder) and played at the times `sinew poses --drawlist` samples the original rig. Per sample
the two draw lists must hold the same attachments in the same order, every world vertex within
0.05 px, every UV within 1e-4, the colour multipliers within 0.005 (Spine keeps 8 bits), the same
blend mode (of those Spine has), and the same frame and sound events must fire since the previous
sample (spine-core's own region and mesh UV maths on the exported atlas).
Child armature displays are dropped by the export (with a warning), so sinew's commands drawn by
child armatures are left out of the comparison. Animations the export warned about in a way that
moves geometry (timeline scale/offset, inheritTranslation, surfaces, ...) are reported as
approximated with their error instead of failing. Samples are taken at 24.329 per second (see FPS). Own fixtures and the demo always; the shared
characters when ../shared exists. Prints per rig the max vertex error and the warning count.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (BUILD, CORPUS, SRC, check, corpus_path, finish, have_shared, run_sinew,  # noqa: E402
                     skip)

TOL = 0.05
# Samples per second: off every frame grid (24, 30, 60, ... fps), so that no sample sits on a key's
# exact time, where DragonBones' accumulated clock and Spine's float32 key times may round either
# way; between frames the samples also check how tweens were sampled into Spine keys.
FPS = "24.329"
UV_TOL = 1e-4
COLOR_TOL = 0.005  # Spine colours are 8 bits per channel
OWN = os.path.join(SRC, "tests", "fixtures", "own")
RIGS = [
    ("Pip_4.0", os.path.join(OWN, "Pip_4.0", "pip.json"), os.path.join(OWN, "Pip_4.0", "texture.json")),
    ("Pip_4.5", os.path.join(OWN, "Pip_4.5", "pip_ske.json"), os.path.join(OWN, "Pip_4.5", "pip_tex.json")),
    ("Pip_4.5_triples", os.path.join(OWN, "Pip_4.5_triples", "pip_ske.json"),
     os.path.join(OWN, "Pip_4.5_triples", "pip_tex.json")),
    ("Pip_5.0", os.path.join(OWN, "Pip_5.0", "pip_ske.json"), os.path.join(OWN, "Pip_5.0", "pip_tex.json")),
    ("Pip_5.5", os.path.join(OWN, "Pip_5.5", "pip_ske.json"), os.path.join(OWN, "Pip_5.5", "pip_tex.json")),
    ("demo", os.path.join(SRC, "examples", "demo", "demo_ske.json"),
     os.path.join(SRC, "examples", "demo", "demo_tex.json")),
    # the demo's named skin over its default one
    ("demo@copper", os.path.join(SRC, "examples", "demo", "demo_ske.json"),
     os.path.join(SRC, "examples", "demo", "demo_tex.json"), "copper"),
]
# Warnings after which an animation may legitimately differ (the construct is not carried).
GEOMETRY = re.compile(r"inheritTranslation false is not carried|surface|path constraint|timeline's scale|'scale' is not"
                      r"|IK solver|no effect in Spine|cannot play animations|may turn differently")

tmp = tempfile.mkdtemp(prefix="sinew_spine_")


def harness():
    """tools/spine-check copied into the build folder with its packages installed, or None."""
    src = os.path.join(SRC, "tools", "spine-check")
    dst = os.path.join(BUILD, "spine-check")
    os.makedirs(dst, exist_ok=True)
    for f in ("package.json", "package-lock.json", "check.mjs"):
        shutil.copyfile(os.path.join(src, f), os.path.join(dst, f))
    if os.path.isdir(os.path.join(dst, "node_modules", "@esotericsoftware", "spine-core")):
        return dst, None
    if not shutil.which("node") or not shutil.which("npm"):
        return None, "node/npm not installed"
    try:
        r = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=dst, capture_output=True, text=True,
                           timeout=600)
    except subprocess.TimeoutExpired:
        return None, "npm ci timed out (no network?)"
    if r.returncode != 0:
        return None, "npm ci failed (no network?): " + r.stderr.strip()[-300:]
    return dst, None


def armatures(ske):
    with open(ske, encoding="utf-8") as f:
        return [a.get("name", "") for a in json.load(f).get("armature", [])]


def match_quad(a, b):
    """Pairs the 4 vertices of b with those of a (a region's corners come in another order); the
    permutation of b that is closest, as index list."""
    import itertools
    best, best_p = None, None
    for p in itertools.permutations(range(4)):
        e = max(max(abs(a[2 * i] - b[2 * p[i]]), abs(a[2 * i + 1] - b[2 * p[i] + 1])) for i in range(4))
        if best is None or e < best:
            best, best_p = e, p
    return best_p


def compare(sin, spi):
    """(max vertex error, its slot, max uv error, problem or None) of two draw lists."""
    if len(sin) != len(spi):
        return None, None, None, (f"{len(sin)} attachments drawn by sinew, {len(spi)} by spine-core: "
                            f"{[c['slot'] for c in sin]} vs {[c['slot'] for c in spi]}")
    verr = uverr = 0.0
    slot = ""
    for a, b in zip(sin, spi):
        name_b = re.sub(r"#\d+$", "", b["attachment"])
        # a named skin keeps the default skin's attachment names; its displays are told by path
        if a["slot"] != b["slot"] or a["display"] not in (name_b, b["path"]):
            return None, None, None, f"order differs: {a['slot']}/{a['display']} vs {b['slot']}/{b['attachment']}"
        blend = {"normal": "normal", "add": "additive", "multiply": "multiply", "screen": "screen"}.get(a["blend"])
        if blend and blend != b["blend"]:
            return None, None, None, f"{a['slot']}: blend {a['blend']} vs {b['blend']}"
        cerr = max(abs(x - y) for x, y in zip(a["color"][:4], b["color"]))
        if cerr > COLOR_TOL:
            return None, None, None, f"{a['slot']}: colour {a['color'][:4]} vs {b['color']}"
        va, vb, ua, ub = a["vertices"], b["vertices"], a["uvs"], b["uvs"]
        if len(va) != len(vb):
            return None, None, None, f"{a['slot']}: {len(va) // 2} vertices vs {len(vb) // 2}"
        if b["type"] == "region":
            p = match_quad(va, vb)
            vb = [vb[2 * p[i] + k] for i in range(4) for k in range(2)]
            ub = [ub[2 * p[i] + k] for i in range(4) for k in range(2)]
        e = max([0.0] + [abs(x - y) for x, y in zip(va, vb)])
        if e > verr:
            verr, slot = e, a["slot"]
        uverr = max([uverr] + [abs(x - y) for x, y in zip(ua, ub)])
    return verr, slot, uverr, None


def one(hdir, tag, ske, tex, skin=None):
    total_warn = 0
    worst = 0.0
    for arm in armatures(ske):
        out = os.path.join(tmp, tag, re.sub(r"[^A-Za-z0-9_.-]", "_", arm) or "_")
        os.makedirs(out, exist_ok=True)
        r = run_sinew("convert", ske, "--to", "spine", "--armature", arm, "--atlas", tex, "--out", out,
                      "--name", "x")
        if not check(r.returncode == 0, f"{tag}/{arm}: convert failed: {r.stderr.strip()[:400]}"):
            continue
        warnings = [ln for ln in r.stderr.splitlines() if ": warning: " in ln]
        total_warn += len(warnings)
        dump = os.path.join(out, "sinew.json")
        r = run_sinew("poses", ske, "--atlas", tex, "--armature", arm, "--drawlist", "--fps", FPS, "--out", dump,
                      *(["--skin", skin] if skin else []))
        if not check(r.returncode == 0, f"{tag}/{arm}: sinew poses failed: {r.stderr.strip()[:300]}"):
            continue
        with open(dump, encoding="utf-8") as f:
            sd = json.load(f)["armatures"][0]
        anims = sd.get("animations", [])
        plan = {"animations": [{"name": a["name"], "loop": a["playTimes"] != 1,
                                "times": [s["time"] for s in a["samples"]]} for a in anims]}
        if not anims:  # no animation: the setup pose
            plan = {"animations": [{"name": None, "loop": False, "times": [0]}]}
        plan["skin"] = skin
        with open(os.path.join(out, "plan.json"), "w", encoding="utf-8") as f:
            json.dump(plan, f)
        r = subprocess.run(["node", os.path.join(hdir, "check.mjs"), os.path.join(out, "x.json"),
                            os.path.join(out, "x.atlas"), os.path.join(out, "plan.json")],
                           capture_output=True, text=True)
        if not check(r.returncode == 0, f"{tag}/{arm}: spine-core failed: {r.stderr.strip()[-600:]}"):
            continue
        sp = json.loads(r.stdout)["animations"]
        if not anims:
            anims = [{"name": "(setup)", "samples": [{"drawlist": sd["setupDrawlist"]}]}]
        geometry_warned = [w for w in warnings if GEOMETRY.search(w)]
        for a, s in zip(anims, sp):
            verr = uverr = 0.0
            problem = None
            wslot = ""
            for k, (sa, sb) in enumerate(zip(a["samples"], s["samples"])):
                sin = [c for c in sa["drawlist"] if c["depth"] == 0]
                ev_sinew = sorted(e["name"] for e in sa["events"]
                                  if e["type"] in ("frameEvent", "soundEvent") and e["armature"] == arm)
                if ev_sinew != sorted(sb["events"]):
                    problem = f"sample {k}: events {ev_sinew} vs {sorted(sb['events'])} in spine-core"
                    break
                v, vslot, u, prob = compare(sin, sb["drawlist"])
                if prob:
                    problem = f"sample {k}: {prob}"
                    break
                if v > verr:
                    verr, wslot = v, f"slot {vslot}, sample {k}"
                uverr = max(uverr, u)
            excused = [w for w in geometry_warned if "animation '" not in w or f"animation '{a['name']}'" in w]
            ok = problem is None and verr <= TOL and uverr <= UV_TOL
            what = f"{tag}/{arm}/{a['name']}: max vertex error {verr:.3g} px, max uv error {uverr:.3g}"
            if verr > TOL:
                what += f" ({wslot})"
            if problem:
                what += f"; {problem}"
            if not ok and excused:
                print(f"APPROXIMATED (warned: {excused[0].split('warning: ', 1)[-1][:120]}): {what}")
                continue
            check(ok, what)
            worst = max(worst, verr)
    print(f"RIG {tag}: max vertex error {worst:.3g} px, {total_warn} warning(s)", flush=True)


def demo_variant(tag, patch):
    """The demo with one construct changed by patch(armature), written beside a copy of its atlas:
    constructs the fixtures lack (sinew's own playing of them is checked against the official
    runtime by the conformance tests; here the export of them is checked in spine-core)."""
    out = os.path.join(tmp, "variants", tag)
    os.makedirs(out, exist_ok=True)
    src = os.path.join(SRC, "examples", "demo")
    with open(os.path.join(src, "demo_ske.json"), encoding="utf-8") as f:
        d = json.load(f)
    patch(d["armature"][0])
    ske = os.path.join(out, "demo_ske.json")
    with open(ske, "w", encoding="utf-8") as f:
        json.dump(d, f)
    for n in ("demo_tex.json", "demo_tex.png"):
        shutil.copyfile(os.path.join(src, n), os.path.join(out, n))
    return (f"demo+{tag}", ske, os.path.join(out, "demo_tex.json"))


def bone(arm, name):
    return next(b for b in arm["bone"] if b["name"] == name)


def display(arm, slot):
    return next(s for s in arm["skin"][0]["slot"] if s["name"] == slot)["display"][0]


def set_tf(obj, **kw):
    obj.setdefault("transform", {}).update(kw)


VARIANTS = [
    # an image whose display transform has a skew: written as a 4-vertex mesh
    ("display_skew", lambda a: set_tf(display(a, "arm_back_upper"), skX=20, skY=5)),
    # a bone that inherits no rotation (noRotationOrReflection) under an animated parent
    ("no_inherit_rotation", lambda a: bone(a, "head").update(inheritRotation=False)),
    # inheritScale false under a scaled parent (noScale), and without reflection too; the demo's
    # idle scales the torso non-uniformly, which the export warns about for that animation
    ("no_inherit_scale", lambda a: (set_tf(bone(a, "torso"), scX=1.3, scY=1.3),
                                    bone(a, "head").update(inheritScale=False))),
    ("no_inherit_scale_reflection", lambda a: (set_tf(bone(a, "torso"), scX=1.3, scY=1.3),
                                               bone(a, "head").update(inheritScale=False,
                                                                      inheritReflection=False))),
    # neither (onlyTranslation)
    ("only_translation", lambda a: bone(a, "head").update(inheritRotation=False, inheritScale=False)),
    # a mirrored bone (negative scale) with a skewed child
    ("mirrored", lambda a: (set_tf(bone(a, "torso"), scX=-1), set_tf(bone(a, "head"), skX=15, skY=0))),
    # a display pivot off centre
    ("pivot", lambda a: display(a, "arm_back_upper").update(pivot={"x": 0.2, "y": 0.9})),
]


def refused():
    """A file sinew cannot load is refused before anything is written."""
    out = os.path.join(tmp, "bad")
    os.makedirs(out, exist_ok=True)
    bad = os.path.join(tmp, "bad_ske.json")
    with open(bad, "w", encoding="utf-8") as f:
        f.write('{"name": "bad", "armature": [\n  {"name": "a", "bone": [1, }\n]}\n')
    r = run_sinew("convert", bad, "--to", "spine", "--out", out)
    check(r.returncode != 0 and re.search(r"bad_ske\.json:\d+:\d+: error:", r.stderr) and not os.listdir(out),
          f"a broken file is refused with file:line:col and nothing written: rc {r.returncode}, {r.stderr.strip()}")
    # an output that would replace an input: refused before anything is written
    same = os.path.join(tmp, "same")
    os.makedirs(same, exist_ok=True)
    for n in ("demo_ske.json", "demo_tex.json", "demo_tex.png"):
        shutil.copyfile(os.path.join(SRC, "examples", "demo", n), os.path.join(same, n))
    r = run_sinew("convert", os.path.join(same, "demo_ske.json"), "--to", "spine", "--out", same, "--name", "demo_ske")
    check(r.returncode != 0 and "one of the inputs" in r.stderr and sorted(os.listdir(same)) ==
          ["demo_ske.json", "demo_tex.json", "demo_tex.png"],
          f"an output over the input is refused, nothing written: {r.stderr.strip()} {os.listdir(same)}")
    r = run_sinew("convert", RIGS[1][1], "--to", "spine", "--spine-version", "3.8", "--out", out)
    check(r.returncode != 0 and not os.listdir(out), f"--spine-version 3.8 refused: {r.stderr.strip()}")


def main():
    refused()
    hdir, why = harness()
    rigs = list(RIGS) + [demo_variant(tag, patch) for tag, patch in VARIANTS]
    if have_shared():
        for name in sorted(CORPUS):
            if CORPUS[name][1] is None:
                out = os.path.join(tmp, "noatlas")
                os.makedirs(out, exist_ok=True)
                r = run_sinew("convert", corpus_path(name), "--to", "spine", "--out", out)
                check(r.returncode != 0 and "no texture atlas" in r.stderr and not os.listdir(out),
                      f"{name}: refused without an atlas: {r.stderr.strip()[:200]}")
                continue
            rigs.append((name, corpus_path(name), corpus_path(name, 1)))
    else:
        skip(len(CORPUS), "shared characters")
    if hdir is None:
        skip(len(rigs), "rigs played in spine-core", why)
        return
    only = os.environ.get("SINEW_SPINE_ONLY")  # a regular expression of rig names (debugging)
    for tag, ske, tex, *skin in rigs:
        if not only or re.search(only, tag):
            one(hdir, tag, ske, tex, *skin)


main()
if not os.environ.get("SINEW_KEEP"):
    shutil.rmtree(tmp, ignore_errors=True)
else:
    print(f"kept {tmp}")
finish()
