#!/usr/bin/env python3
"""The demo character against the official DragonBones runtime.

1. Runs the oracle (the official JS runtime, headless: $SHARED/tools/oracle, installed into
   $BUILD/oracle with `npm ci` on first use by tests/lib/testkit.py) on examples/demo and checks
   that the rig does what docs/demo.md says: IK reaches its targets, the ffd moves the scarf,
   displays switch, events fire, the feet stay planted while the hip moves.
2. Renders demo frames with `sinew render` and compares each with the oracle's pose of that frame
   drawn by the independent Python rasterizer of render_cli.py (PSNR >= 32 dB).
3. Compares `sinew poses` of the demo with the oracle's dump via $SHARED/tools/posediff.py.

Env: SINEW, SRC, SHARED, BUILD. Needs node and npm (Debian: apt-get install nodejs npm).
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (BUILD, SRC, check, finish, need_oracle, posediff, read_png,  # noqa: E402
                     run_oracle, run_sinew)

DEMO = os.path.join(SRC, "examples", "demo")
SKE = os.path.join(DEMO, "demo_ske.json")
TEX = os.path.join(DEMO, "demo_tex.json")
WORK = os.path.join(BUILD, "demo-conformance")
def bone_map(sample):
    return {b["name"]: b for b in sample["bones"]}


def slot_map(sample):
    return {s["name"]: s for s in sample["slots"]}


def inverse_apply(m, x, y):
    a, b, c, d, tx, ty = m
    det = a * d - b * c
    x, y = x - tx, y - ty
    return ((d * x - c * y) / det, (-b * x + a * y) / det)


def oracle_checks(dump):
    ske = json.load(open(SKE, encoding="utf-8"))
    arm = ske["armature"][0]
    length = {b["name"]: b.get("length", 0) for b in arm["bone"]}
    mesh = None
    for sl in arm["skin"][0]["slot"]:
        for d in sl["display"]:
            if d.get("type") == "mesh":
                mesh = (sl["name"], d["vertices"])
    anims = {a["name"]: a for a in dump["armatures"][0]["animations"]}
    check(set(anims) == {"idle", "walk", "wave"}, f"oracle plays idle, walk, wave ({sorted(anims)})")
    for name, an in anims.items():
        samples = an["samples"]
        check(an["playTimes"] == 0 and len(samples) > 20, f"{name}: loops, {len(samples)} samples")
        first = bone_map(samples[0])
        moved = set()
        ik_miss = 0.0
        ffd = 0.0
        for s in samples:
            bones = bone_map(s)
            for n, b in bones.items():
                if max(abs(p - q) for p, q in zip(b["matrix"], first[n]["matrix"])) > 1e-3:
                    moved.add(n)
            for side in ("front", "back"):
                sh, ft = bones["shin_" + side]["matrix"], bones["foot_" + side]["matrix"]
                tip = (sh[4] + sh[0] * length["shin_" + side], sh[5] + sh[1] * length["shin_" + side])
                ik_miss = max(ik_miss, math.hypot(tip[0] - ft[4], tip[1] - ft[5]))
            # ffd: the scarf vertices relative to their slot, against the setup vertices
            slot = slot_map(s)[mesh[0]]
            v = slot["mesh"]["vertices"]
            for i in range(0, len(v), 2):
                lx, ly = inverse_apply(slot["matrix"], v[i], v[i + 1])
                ffd = max(ffd, math.hypot(lx - mesh[1][i], ly - mesh[1][i + 1]))
        check(ik_miss < 0.01, f"{name}: IK puts both shin tips on their targets (worst {ik_miss:.4f} px)")
        check(ffd > 2.0, f"{name}: the ffd deforms the scarf in slot space ({ffd:.1f} px)")
        check({"hip", "torso", "head", "antenna", "thigh_front", "shin_front"} <= moved,
              f"{name}: body, head, antenna and legs move")
        if name == "walk":
            check({"foot_front", "foot_back"} <= moved, "walk: the feet move")
            events = [(e["name"], round(e["time"], 3)) for s in samples for e in s["events"]
                      if e["type"] == "frameEvent"]
            check(("step", 0.0) in events and ("step", 0.5) in events, f"walk: step events {events}")
        else:
            check(not {"foot_front", "foot_back"} & moved, f"{name}: the feet stay planted")
        shown = {(sl["name"], sl["display"]["name"]) for s in samples for sl in s["slots"]
                 if sl.get("display")}
        want = {"idle": ("eyes", "eyes_blink"), "wave": ("eyes", "eyes_happy"), "walk": ("eyes", "eyes_open")}
        check(want[name] in shown, f"{name}: shows {want[name]}")
        if name == "wave":
            check(("mouth", "mouth_open") in shown, "wave: the mouth opens")
            hand = [bone_map(s)["hand_front"]["matrix"][5] for s in samples]
            head = bone_map(samples[0])["head"]["matrix"][5]
            check(min(hand) < head + 10, "wave: the hand rises to head height")


def main():
    os.makedirs(WORK, exist_ok=True)
    oracle = need_oracle()
    expected = os.path.join(WORK, "demo.oracle.json")
    ok, msg = run_oracle(oracle, SKE, expected, "--atlas", TEX, "--armature", "all")
    check(ok, "the oracle loads and plays the demo: " + msg[-500:])
    if not ok:
        finish()
    oracle_checks(json.load(open(expected, encoding="utf-8")))

    # 2. sinew's picture of the demo against the official pose drawn by render_cli's independent
    #    reference rasterizer (a walk frame and a wave frame)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import render_cli as rc
    dump = json.load(open(expected, encoding="utf-8"))
    for anim, k in (("walk", 5), ("wave", 14)):
        an = [a for a in dump["armatures"][0]["animations"] if a["name"] == anim][0]
        w, h, scale, ox, oy = 200, 320, 1.0, 100, 300
        got = os.path.join(WORK, f"demo_{anim}_{k}.png")
        r = run_sinew("render", SKE, "--atlas", TEX, "--animation", anim, "--frame", k,
                      "--size", f"{w}x{h}", "--origin", f"{ox},{oy}", "--background", "#808080",
                      "--quiet", "--out", got)
        check(r.returncode == 0, f"sinew renders {anim} frame {k}: {r.stderr[-300:]}")
        if r.returncode != 0:
            continue
        gw, gh, gpx = read_png(got)
        ref = rc.Reference(SKE, TEX).render("Bolt", an["samples"][k], w, h, scale, ox, oy)
        p = rc.psnr_rgb(gpx, ref)
        check((gw, gh) == (w, h) and p >= 32.0,
              f"demo {anim} frame {k} matches the official pose drawn independently (PSNR {p:.1f} dB)")

    actual = os.path.join(WORK, "demo.sinew.json")
    r = run_sinew("poses", SKE, "--atlas", TEX, "--armature", "all", "--out", actual)
    check(r.returncode == 0, f"sinew poses exits 0 (got {r.returncode}): {r.stderr[-500:]}")
    if r.returncode == 0:
        ok, msg = posediff(expected, actual, quiet=False)
        print(msg)
        check(ok, "posediff: sinew's poses of the demo match the official runtime's")
    finish()


if __name__ == "__main__":
    main()
