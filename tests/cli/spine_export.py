#!/usr/bin/env python3
"""Spine export: `sinew convert --to spine`, played in the official Spine runtime (spine-core).

Every armature of each rig is exported (DIR/x.json + DIR/x.atlas), loaded headless by
tools/spine-check (spine-core 4.2, pinned by its package-lock.json; `npm ci` runs once in the
build folder) and played against two references:

- the official DragonBones runtime's play mode (oracle.mjs's default, step mode: `play`, then
  `advanceTime(1 / rate)` per sample): each sample's animation clock `stateTime`, times the
  animation's `scale` (DragonBones plays an animation at 1 / scale, the export stretches its key
  times by scale instead), is the Spine time spine-core applies. What the official runtime draws
  is computed here from its dump: an image's region rectangle at (-pivot) in slot space through
  the slot matrix, a mesh's deformed vertices as dumped. Live at 24.329 samples per second with
  ../shared (an animation with a scale is sampled over its stretched duration); the committed dumps
  of the own fixtures and the demo (10 and 6 per second) always, and the committed dumps of the
  rigs of tests/fixtures/spine (24.329 per second; checked current with ../shared);
- sinew's own draw list (`sinew poses --drawlist`), at the same game times.

Per sample the draw lists must hold the same attachments in the same order, every world vertex
within 0.05 px, the colour multipliers within 0.005 (Spine keeps 8 bits), the same blend mode (of
those Spine has), the same frame and sound events fired since the previous sample and, against
sinew, every UV within 1e-4 (spine-core's own region and mesh UV maths on the exported atlas).
Every Spine animation must last the DragonBones duration times the scale. Child armature displays
are dropped by the export (with a warning), so what child armatures draw is left out.

An animation the export warned about in a way that moves geometry is compared up to the time of
that construct: a dropped frame action (e.g. one that switches animation) from the first time it
fires, playTimes N written as a loop from the end of the N-th play, a timeline scale that does not
repeat and a zOrder key whose draw order differs on later plays from the end of the first play,
the other such warnings (surfaces, IK Spine places otherwise, ...) from the start. The test prints
every such EXCUSED animation with its error after that time; an error above 0.05 px (or any other
difference) there is allowed only to the animations listed in EXCUSED, up to the bound given
there. Own fixtures, the demo and its variants always (the variants against the official runtime
only with ../shared); the shared characters when ../shared exists. Prints per rig the max vertex
error against each reference and the warning count.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (BUILD, CORPUS, SRC, check, corpus_path, finish, have_shared, run_oracle,  # noqa: E402
                     run_sinew, skip, try_oracle)

TOL = 0.05
# Samples per second: off every frame grid (24, 30, 60, ... fps), so that no sample sits on a key's
# exact time, where DragonBones' accumulated clock and Spine's float32 key times may round either
# way; between frames the samples also check how tweens were sampled into Spine keys.
FPS = "24.329"
UV_TOL = 1e-4
COLOR_TOL = 0.005  # Spine colours are 8 bits per channel
OWN = os.path.join(SRC, "tests", "fixtures", "own")
SPINE_FIXTURES = os.path.join(SRC, "tests", "fixtures", "spine")
sys.path.insert(0, SPINE_FIXTURES)
import make_dump  # noqa: E402  (the committed official dumps of the rigs there)

RIGS = [
    ("Pip_4.0", os.path.join(OWN, "Pip_4.0", "pip.json"), os.path.join(OWN, "Pip_4.0", "texture.json")),
    ("Pip_4.5", os.path.join(OWN, "Pip_4.5", "pip_ske.json"), os.path.join(OWN, "Pip_4.5", "pip_tex.json")),
    ("Pip_4.5_triples", os.path.join(OWN, "Pip_4.5_triples", "pip_ske.json"),
     os.path.join(OWN, "Pip_4.5_triples", "pip_tex.json")),
    ("Pip_5.0", os.path.join(OWN, "Pip_5.0", "pip_ske.json"), os.path.join(OWN, "Pip_5.0", "pip_tex.json")),
    ("Pip_5.5", os.path.join(OWN, "Pip_5.5", "pip_ske.json"), os.path.join(OWN, "Pip_5.5", "pip_tex.json")),
    ("demo", os.path.join(SRC, "examples", "demo", "demo_ske.json"),
     os.path.join(SRC, "examples", "demo", "demo_tex.json")),
    # the demo's named skin over its default one (against sinew only: the official dumps hold the
    # default skin)
    ("demo@copper", os.path.join(SRC, "examples", "demo", "demo_ske.json"),
     os.path.join(SRC, "examples", "demo", "demo_tex.json"), "copper"),
    # tests/fixtures/spine/README.md: 2-frame loops played at 1 / 20 and 1 / 10, noScale bones under
    # non-uniformly scaled parents (baked by the export); 2-frame loops played at 1 / 15 whose bone
    # timelines have their own scale (1 / 2) and offsets, every tween kind, on baked and plain bones;
    # zOrder keys that move slots out of range (4.0)
] + [(name, fx.rig, fx.atlas) for name, fx in make_dump.FIXTURES.items()]
# The committed official dumps (tests/fixtures/own/expected, tests/fixtures/spine) of the rigs that
# have one, used with and without ../shared.
COMMITTED = {
    "Pip_4.0": os.path.join(OWN, "expected", "Pip_4.0.poses.json"),
    "Pip_4.5": os.path.join(OWN, "expected", "Pip_4.5.poses.json"),
    "Pip_4.5_triples": os.path.join(OWN, "expected", "Pip_4.5.poses.json"),  # the same rig (own README)
    "Pip_5.0": os.path.join(OWN, "expected", "Pip_5.0.poses.json"),
    "Pip_5.5": os.path.join(OWN, "expected", "Pip_5.5.poses.json"),
    "demo": os.path.join(OWN, "expected", "demo.poses.json"),
}
COMMITTED.update({name: fx.dump for name, fx in make_dump.FIXTURES.items()})
# The rigs whose committed dump is already at FPS, over the stretched durations (no live run).
COMMITTED_AT_FPS = set(make_dump.FIXTURES)
# The official runtime reads only the per-vertex mesh layout: the triples twin is played from it.
ORACLE_SKELETON = {"Pip_4.5_triples": os.path.join(OWN, "Pip_4.5", "pip_ske.json")}

# Warnings after which an animation may legitimately differ (the construct is not carried), with the
# game time from which it may (from the match, the frame rate, the duration in the animation's own
# seconds and the animation's scale); GEOMETRY: from the start.
TIMED = [
    (re.compile(r"action '[^']*' at frame ([0-9.eE+-]+) dropped"), lambda m, fr, dur, sc: float(m.group(1)) / fr * sc),
    (re.compile(r"playTimes (\d+) written as a loop"), lambda m, fr, dur, sc: int(m.group(1)) * dur * sc),
    (re.compile(r"a timeline's scale \S+ does not repeat with the animation"), lambda m, fr, dur, sc: dur * sc),
    (re.compile(r"zOrder key at frame \d+: the official runtime draws the slots in another order on the later plays"),
     lambda m, fr, dur, sc: dur * sc),
    # the Spine animation is shorter (its loop wraps earlier): already in Spine's seconds
    (re.compile(r"nothing is keyed up to the animation's end: the Spine animation lasts (\S+) s"),
     lambda m, fr, dur, sc: float(m.group(1))),
]
GEOMETRY = re.compile(r"inheritTranslation false is not carried|surface|path constraint|'scale' is not"
                      r"|IK solver|no effect in Spine|may turn differently|zOrder timeline's scale")
# The animations that differ after such a construct (rig/armature/animation), with the bound on
# their vertex error there and what differs. Every other animation must match to the end; an entry
# whose animation matches to the end is stale (a failure: remove it).
EXCUSED = {
    "Pip_4.0/pip/hop": (0.05, "the dropped frame action plays idle at frame 5: the glow's colour"),
    "Pip_5.0/pip/hop": (5.0, "the dropped frame action plays idle at frame 5: the leg, the glow's colour"),
    "zorder_out/stack/drift": (0.05, "later plays: the slot moved out of range keeps the place the last key gave it"),
    # ../shared
    "CoreElement_4.5/mecha_1502b/attack_02": (1.2, "the dropped frame action plays attack_02_1 at frame 9: the legs"),
}

BLEND = {0: "normal", 1: "add", 10: "multiply", 12: "screen"}  # DragonBones' BlendMode numbers
SPINE_BLEND = {"normal": "normal", "add": "additive", "multiply": "multiply", "screen": "screen"}

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
    """{armature name: {animation name: its scale}} of a DragonBones JSON file, in file order."""
    with open(ske, encoding="utf-8") as f:
        data = json.load(f)
    out = {}
    for a in data.get("armature", []):
        out[a.get("name", "")] = {n.get("name", ""): float(n.get("scale", 1) or 1) for n in a.get("animation", [])}
    return out


def atlas_regions(tex):
    """{region name: (width, height)}: the size an image of that region is drawn at, in armature
    units (dragonbones-semantics §1: the stored size, swapped when rotated, over the atlas scale)."""
    with open(tex, encoding="utf-8") as f:
        data = json.load(f)
    out = {}
    for page in data if isinstance(data, list) else [data]:
        k = 1.0 / float(page.get("scale", 1) or 1)
        for r in page.get("SubTexture", []):
            w, h = float(r["width"]), float(r["height"])
            out[r["name"]] = (h * k, w * k) if r.get("rotated") else (w * k, h * k)
    return out


def official_drawlist(sample, regions):
    """What the official runtime draws at one sample of its dump, in sinew's draw-list schema
    (without UVs): the slots in draw order that show an image with a region or a mesh; an image is
    its region's rectangle with its top-left corner at (-pivot) in slot space, through the slot
    matrix (dragonbones-semantics §1); a mesh is its dumped (armature space) vertices."""
    out = []
    for sl in sorted(sample["slots"], key=lambda s: s["drawIndex"]):
        d = sl.get("display")
        if sl["displayIndex"] < 0 or not d or not sl.get("visible", True) or d["type"] not in ("image", "mesh"):
            continue
        key = d.get("path") or d["name"]
        if key not in regions:
            continue  # no texture: nothing drawn (the export drops it with a warning)
        if d["type"] == "mesh":
            vs = sl.get("mesh", {}).get("vertices")
        else:
            w, h = regions[key]
            px, py = sl["pivot"]
            m = sl["matrix"]
            vs = []
            for x, y in ((-px, -py), (w - px, -py), (w - px, h - py), (-px, h - py)):
                vs += [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]
        c = sl["color"]
        out.append({"slot": sl["name"], "display": d["name"], "blend": BLEND.get(sl["blendMode"], "other"),
                    "color": [c["rM"], c["gM"], c["bM"], c["aM"]], "vertices": vs, "uvs": None})
    return out


# The orders in which a quad's corners may come: its 4 rotations, walked either way.
QUAD_ORDERS = [[(i + k) % 4 for i in range(4)] for k in range(4)] + [[(k - i) % 4 for i in range(4)] for k in range(4)]


def match_quad(a, b):
    """Pairs the 4 vertices of b with those of a (a region's corners come in another order): the
    corner order of b (QUAD_ORDERS) that is closest, as index list."""
    best, best_p = None, None
    for p in QUAD_ORDERS:
        e = max(max(abs(a[2 * i] - b[2 * p[i]]), abs(a[2 * i + 1] - b[2 * p[i] + 1])) for i in range(4))
        if best is None or e < best:
            best, best_p = e, p
    return best_p


def compare(ref, spi):
    """(max vertex error, its slot, max uv error, problem or None) of a reference draw list (sinew's,
    or the official one without UVs) and spine-core's."""
    if len(ref) != len(spi):
        return None, None, None, (f"{len(ref)} attachments drawn by the reference, {len(spi)} by spine-core: "
                                  f"{[c['slot'] for c in ref]} vs {[c['slot'] for c in spi]}")
    verr = uverr = 0.0
    slot = ""
    for a, b in zip(ref, spi):
        name_b = re.sub(r"#\d+$", "", b["attachment"])
        # a named skin keeps the default skin's attachment names; its displays are told by path
        if a["slot"] != b["slot"] or a["display"] not in (name_b, b["path"]):
            return None, None, None, f"order differs: {a['slot']}/{a['display']} vs {b['slot']}/{b['attachment']}"
        blend = SPINE_BLEND.get(a["blend"])
        if blend and blend != b["blend"]:
            return None, None, None, f"{a['slot']}: blend {a['blend']} vs {b['blend']}"
        cerr = max(abs(x - y) for x, y in zip(a["color"][:4], b["color"]))
        if cerr > COLOR_TOL:
            return None, None, None, f"{a['slot']}: colour {a['color'][:4]} vs {b['color']}"
        va, vb, ua, ub = a["vertices"], b["vertices"], a["uvs"], b["uvs"]
        if va is None or len(va) != len(vb):
            return None, None, None, f"{a['slot']}: {len(va or []) // 2} vertices vs {len(vb) // 2}"
        if b["type"] == "region":
            p = match_quad(va, vb)
            vb = [vb[2 * p[i] + k] for i in range(4) for k in range(2)]
            ub = [ub[2 * p[i] + k] for i in range(4) for k in range(2)]
        e = max([0.0] + [abs(x - y) for x, y in zip(va, vb)])
        if e > verr:
            verr, slot = e, a["slot"]
        if ua is not None:
            uverr = max([uverr] + [abs(x - y) for x, y in zip(ua, ub)])
    return verr, slot, uverr, None


def cut_time(warnings, name, fr, dur, scale):
    """(game time from which animation `name` may differ, the warning) after the constructs the
    export warned about (TIMED, GEOMETRY; an armature-wide warning counts for every animation), or
    (inf, None)."""
    best, why = float("inf"), None
    for w in warnings:
        if "animation '" in w and f"animation '{name}'" not in w:
            continue
        t = None
        for rx, when in TIMED:
            m = rx.search(w)
            if m:
                t = when(m, fr, dur, scale)
                break
        if t is None and GEOMETRY.search(w):
            t = 0.0
        if t is not None and t < best:
            best, why = t, w.split("warning: ", 1)[-1]
    return best, why


class Result:
    """One animation against one reference: before and after the time it may differ from."""

    def __init__(self):
        self.err = [0.0, 0.0]       # max vertex error before / after
        self.where = ["", ""]
        self.uv = 0.0
        self.problem = [None, None]  # the first other difference before / after
        self.count = [0, 0]

    def add(self, k, t, part, verr, vslot, uverr, prob, events):
        """Sample k at game time t, before (part 0) or after (1) the cut: compare()'s figures and
        problem, and the events' difference (or None)."""
        self.count[part] += 1
        if (prob or events) and self.problem[part] is None:
            self.problem[part] = f"sample {k} (t = {t:.4f} s): {prob or events}"
        if prob:
            return  # no vertex figures
        if verr > self.err[part]:
            self.err[part], self.where[part] = verr, f"slot {vslot}, sample {k}, t = {t:.4f} s"
        if part == 0:
            self.uv = max(self.uv, uverr)


def judge(tag, arm, ref, anim, res, cut, why, spine_dur, want_dur, seen):
    """Checks one animation's result against one reference and reports it; returns its largest
    vertex error before the cut."""
    key = f"{tag}/{arm}/{anim}"
    what = f"{key} vs {ref}"
    if want_dur is not None:
        check(abs(spine_dur - want_dur) <= 1e-6 * max(1.0, want_dur),
              f"{what}: the Spine animation lasts {spine_dur:.9g} s, the DragonBones one {want_dur:.9g} s (x scale)")
    ok = res.problem[0] is None and res.err[0] <= TOL and res.uv <= UV_TOL
    line = f"{what}: max vertex error {res.err[0]:.3g} px, max uv error {res.uv:.3g}"
    if res.err[0] > TOL:
        line += f" ({res.where[0]})"
    if res.problem[0]:
        line += f"; {res.problem[0]}"
    if cut != float("inf"):
        line += f" (compared up to t = {cut:.4f} s: {why[:110]})"
    check(ok, line)
    if cut == float("inf") or res.count[1] == 0:
        return res.err[0]
    differs = res.problem[1] is not None or res.err[1] > TOL
    after = f"after t = {cut:.4f} s: max vertex error {res.err[1]:.3g} px over {res.count[1]} sample(s)"
    if res.err[1] > TOL:
        after += f" ({res.where[1]})"
    if res.problem[1]:
        after += f"; {res.problem[1]}"
    print(f"EXCUSED {what}: {after}; cause: {why[:140]}", flush=True)
    if differs:
        seen.add(key)
        bound = EXCUSED.get(key)
        check(bound is not None and res.err[1] <= bound[0],
              f"{what}: differs {after}, " + ("not listed in EXCUSED" if bound is None else
                                               f"above its EXCUSED bound {bound[0]} px"))
    return res.err[0]


def spine_play(hdir, out, plan):
    """spine-core's dump of plan (check.mjs), or None after a failed check."""
    with open(os.path.join(out, "plan.json"), "w", encoding="utf-8") as f:
        json.dump(plan, f)
    r = subprocess.run(["node", os.path.join(hdir, "check.mjs"), os.path.join(out, "x.json"),
                        os.path.join(out, "x.atlas"), os.path.join(out, "plan.json")],
                       capture_output=True, text=True)
    if not check(r.returncode == 0, f"{out}: spine-core failed: {r.stderr.strip()[-600:]}"):
        return None
    return json.loads(r.stdout)["animations"]


def official_refs(odir, tag, ske, tex, meta, out):
    """[(label, {armature: [animation dumps]})]: the official runtime's play mode, committed and/or
    live (see the module's doc)."""
    refs = []
    if tag in COMMITTED:
        with open(COMMITTED[tag], encoding="utf-8") as f:
            d = json.load(f)
        rate = d["armatures"][0].get("sampleRate")
        refs.append((f"official (committed, {rate:g}/s)", {a["name"]: a["animations"] for a in d["armatures"]}))
    if odir is None or tag in COMMITTED_AT_FPS:
        return refs
    os.makedirs(out, exist_ok=True)
    ske = ORACLE_SKELETON.get(tag, ske)
    live = os.path.join(out, "oracle.json")
    ok, err = run_oracle(odir, ske, live, "--atlas", tex, "--armature", "all", "--fps", FPS, "--precision", "9")
    if not check(ok, f"{tag}: the official runtime failed: {err.strip()[-400:]}"):
        return refs
    with open(live, encoding="utf-8") as f:
        by_arm = {a["name"]: a["animations"] for a in json.load(f)["armatures"]}
    # an animation with a scale is sampled over its stretched duration (the default covers its
    # duration in the animation's own seconds only)
    for arm, anims in by_arm.items():
        for i, an in enumerate(anims):
            scale = meta.get(arm, {}).get(an["name"], 1.0)
            if scale == 1.0:
                continue
            frames = max(1, round(an["duration"] * scale * float(FPS))) + 1
            one_live = os.path.join(out, "oracle_scaled.json")
            ok, err = run_oracle(odir, ske, one_live, "--atlas", tex, "--armature", arm, "--animation", an["name"],
                                 "--fps", FPS, "--frames", str(frames), "--precision", "9")
            if check(ok, f"{tag}/{arm}/{an['name']}: the official runtime failed: {err.strip()[-400:]}"):
                with open(one_live, encoding="utf-8") as f:
                    anims[i] = json.load(f)["armatures"][0]["animations"][0]
    refs.append((f"official (play mode, {FPS}/s)", by_arm))
    return refs


def one(hdir, odir, tag, ske, tex, skin=None, seen=None):
    """Exports every armature of a rig and compares spine-core's playing of it with each reference;
    prints the rig's figures."""
    total_warn = 0
    worst = {}
    meta = armatures(ske)
    regions = atlas_regions(tex)
    refs = official_refs(odir, tag, ske, tex, meta, os.path.join(tmp, tag)) if not skin else []
    for arm, scales in meta.items():
        out = os.path.join(tmp, tag, re.sub(r"[^A-Za-z0-9_.-]", "_", arm) or "_")
        os.makedirs(out, exist_ok=True)
        # --verbose: every warning on its own line (the per-animation ones excuse that animation)
        r = run_sinew("convert", ske, "--to", "spine", "--armature", arm, "--atlas", tex, "--out", out,
                      "--name", "x", "--verbose")
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
        fr = float(sd.get("frameRate") or 24)
        # (reference label, its animations, their samples' draw lists, the Spine time of each)
        jobs = []
        anims = sd.get("animations", [])
        if anims:
            jobs.append(("sinew", anims, [[[c for c in s["drawlist"] if c["depth"] == 0] for s in a["samples"]]
                                          for a in anims], [[s["time"] for s in a["samples"]] for a in anims]))
        else:  # no animation: the setup pose
            jobs.append(("sinew", [{"name": None, "playTimes": 1, "duration": 0, "samples": [{"time": 0,
                                                                                            "events": []}]}],
                         [[[c for c in sd["setupDrawlist"] if c["depth"] == 0]]], [[0]]))
        for label, by_arm in refs:
            oa = by_arm.get(arm)
            if oa:
                jobs.append((label, oa, [[official_drawlist(s, regions) for s in a["samples"]] for a in oa],
                             [[s["stateTime"] * scales.get(a["name"], 1.0) for s in a["samples"]] for a in oa]))
        plan = {"skin": skin, "animations": [{"name": a["name"], "loop": a["playTimes"] != 1, "times": times}
                                             for _, an, _, tl in jobs for a, times in zip(an, tl)]}
        sp = spine_play(hdir, out, plan)
        if sp is None:
            continue
        it = iter(sp)
        for label, an, dls, _ in jobs:
            for a, dl in zip(an, dls):
                s = next(it)
                name = a["name"] if a["name"] is not None else "(setup)"
                scale = scales.get(a["name"], 1.0)
                cut, why = cut_time(warnings, a["name"], fr, a["duration"], scale)
                res = Result()
                for k, (sa, ref_dl, sb) in enumerate(zip(a["samples"], dl, s["samples"])):
                    ev = sorted(e["name"] for e in sa["events"]
                                if e["type"] in ("frameEvent", "soundEvent") and e.get("armature", arm) == arm)
                    sev = sorted(sb["events"])
                    bad_ev = None if ev == sev else f"events {ev} vs {sev} in spine-core"
                    v, vslot, u, prob = compare(ref_dl, sb["drawlist"])
                    res.add(k, sa["time"], 0 if sa["time"] < cut else 1, v, vslot, u, prob, bad_ev)
                want = a["duration"] * scale if a["name"] is not None and s["samples"] else None
                if why and "nothing is keyed up to the animation's end" in why:
                    want = None  # warned: Spine's animation ends at its last key
                e = judge(tag, arm, label, name, res, cut, why, s["duration"], want, seen)
                kind = "sinew" if label == "sinew" else "official"
                worst[kind] = max(worst.get(kind, 0.0), e)
    figures = ", ".join(f"{worst[k]:.3g} px vs {k}" for k in ("official", "sinew") if k in worst)
    print(f"RIG {tag}: max vertex error {figures}, {total_warn} warning(s)", flush=True)


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


def missing_page():
    """An atlas page image that is not there is a warning: the .atlas (with the page size the atlas
    JSON gives, else the extent of the page's regions, said in a second warning) and the skeleton
    are written, nothing is copied."""
    src = os.path.join(SRC, "examples", "demo")
    with open(os.path.join(src, "demo_tex.json"), encoding="utf-8") as f:
        tex = json.load(f)
    extent = (max(r["x"] + r["width"] for r in tex["SubTexture"]), max(r["y"] + r["height"] for r in tex["SubTexture"]))
    for case, size in (("sized", (tex["width"], tex["height"])), ("unsized", extent)):
        d = os.path.join(tmp, "nopage", case)
        out = os.path.join(d, "out")
        os.makedirs(out, exist_ok=True)
        shutil.copyfile(os.path.join(src, "demo_ske.json"), os.path.join(d, "demo_ske.json"))
        t = dict(tex)
        if case == "unsized":
            del t["width"], t["height"]
        with open(os.path.join(d, "demo_tex.json"), "w", encoding="utf-8") as f:
            json.dump(t, f)
        r = run_sinew("convert", os.path.join(d, "demo_ske.json"), "--to", "spine", "--out", out, "--name", "x")
        warns = [ln for ln in r.stderr.splitlines() if ": warning: " in ln]
        atlas = open(os.path.join(out, "x.atlas"), encoding="utf-8").read() if os.path.exists(
            os.path.join(out, "x.atlas")) else ""
        check(r.returncode == 0 and sorted(os.listdir(out)) == ["x.atlas", "x.json"]
              and any("image" in w and "not found, not copied" in w for w in warns)
              and (case == "sized") != any("extent of its regions" in w for w in warns)
              and atlas.startswith("demo_tex.png\nsize: %d, %d\n" % size),
              f"{case} atlas, its page image missing: a warning, .atlas and .json written: rc {r.returncode}, "
              f"{os.listdir(out)}, {warns}, atlas {atlas[:60]!r}")


def main():
    refused()
    missing_page()
    hdir, why = harness()
    rigs = list(RIGS) + [demo_variant(tag, patch) for tag, patch in VARIANTS]
    odir = try_oracle(len(VARIANTS) + len(make_dump.FIXTURES), "the demo variants against the official runtime's "
                      "play mode, and the freshness of the dumps in tests/fixtures/spine")
    for name, fx in make_dump.FIXTURES.items() if odir else ():
        text, err = make_dump.make(odir, name)
        with open(fx.dump, encoding="utf-8") as f:
            check(err is None and text == f.read(), f"{fx.dump} is current (the official runtime gives the "
                  f"same now; else run tests/fixtures/spine/make_dump.py){': ' + err if err else ''}")
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
    seen, ran = set(), set()
    for tag, ske, tex, *skin in rigs:
        if not only or re.search(only, tag):
            one(hdir, odir, tag, ske, tex, *skin, seen=seen)
            ran.add(tag)
    for key, (bound, what) in sorted(EXCUSED.items()):
        if key.split("/", 1)[0] in ran:
            check(key in seen, f"{key} is listed in EXCUSED ({what}) but matches to the end: remove it")


main()
if not os.environ.get("SINEW_KEEP"):
    shutil.rmtree(tmp, ignore_errors=True)
else:
    print(f"kept {tmp}")
finish()
