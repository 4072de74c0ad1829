#!/usr/bin/env python3
"""The demo character against the official DragonBones runtime.

The official runtime's dump of examples/demo (6 samples per second, committed by `make fixtures`
as tests/fixtures/own/expected/demo.poses.json) is used to
1. check that the rig does what docs/demo.md says: IK reaches its targets, the ffd moves the
   scarf, displays switch, events fire, the feet stay planted while the hip moves;
2. render demo frames with `sinew render` and compare each with the official pose of that frame
   drawn by the independent Python rasterizer of render_cli.py (PSNR floors within 3 dB of the
   measured values: walk frame 2 54 dB, measured 56.31; wave frame 5 54.5 dB, measured 56.74);
3. compare `sinew poses` of the demo with it (tests/lib/posecmp.py).
With ../shared the official runtime also runs live at the demo's own 24 fps (set up in
$BUILD/oracle by tests/lib/testkit.py; needs node and npm), and 1. and 3. run on that dump too.

Env: SINEW, SRC, SHARED, BUILD.
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (BUILD, SRC, check, finish, own_expected, posecmp, read_png, run_oracle,  # noqa: E402
                     run_sinew, sinew_poses, try_oracle)

DEMO = os.path.join(SRC, "examples", "demo")
SKE = os.path.join(DEMO, "demo_ske.json")
TEX = os.path.join(DEMO, "demo_tex.json")
WORK = os.path.join(BUILD, "demo-conformance")
COMMITTED_FPS = 6


def bone_map(sample):
    return {b["name"]: b for b in sample["bones"]}


def slot_map(sample):
    return {s["name"]: s for s in sample["slots"]}


def inverse_apply(m, x, y):
    a, b, c, d, tx, ty = m
    det = a * d - b * c
    x, y = x - tx, y - ty
    return ((d * x - c * y) / det, (-b * x + a * y) / det)


def oracle_checks(dump, fps):
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
        check(an["playTimes"] == 0 and len(samples) >= round(an["duration"] * fps) + 1,
              f"{name}: loops, {len(samples)} samples (one pass at {fps} per second)")
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
    committed = own_expected("demo")
    dump = json.load(open(committed, encoding="utf-8"))
    oracle_checks(dump, COMMITTED_FPS)

    # 2. sinew's picture of the demo against the official pose drawn by render_cli's independent
    #    reference rasterizer (a walk frame and a wave frame, at the committed dump's sample rate)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import render_cli as rc
    for anim, k, floor in (("walk", 2, 54.0), ("wave", 5, 54.5)):
        an = [a for a in dump["armatures"][0]["animations"] if a["name"] == anim][0]
        w, h, scale, ox, oy = 200, 320, 1.0, 100, 300
        got = os.path.join(WORK, f"demo_{anim}_{k}.png")
        r = run_sinew("render", SKE, "--atlas", TEX, "--animation", anim, "--fps", COMMITTED_FPS, "--frame", k,
                      "--size", f"{w}x{h}", "--origin", f"{ox},{oy}", "--background", "#808080",
                      "--quiet", "--out", got)
        check(r.returncode == 0, f"sinew renders {anim} frame {k}: {r.stderr[-300:]}")
        if r.returncode != 0:
            continue
        gw, gh, gpx = read_png(got)
        ref = rc.Reference(SKE, TEX).render("Bolt", an["samples"][k], w, h, scale, ox, oy)
        p = rc.psnr_rgb(gpx, ref)
        check((gw, gh) == (w, h) and p >= floor,
              f"demo {anim} frame {k} matches the official pose drawn independently (PSNR {p:.2f} dB, floor {floor})")

    # 3. sinew's poses against the committed dump, then (with ../shared) the live runtime at 24 fps
    actual = os.path.join(WORK, "demo.sinew.json")
    ok, err = sinew_poses(SKE, actual, "--atlas", TEX, "--fps", str(COMMITTED_FPS))
    if check(ok, f"sinew poses exits 0: {err[-500:]}"):
        same, msg = posecmp(committed, actual)
        print(msg)
        check(same, "sinew's poses of the demo match the official runtime's (committed dump)")
    oracle = try_oracle(2, "comparisons of the demo with the live official runtime at 24 fps (rig checks, poses)")
    if oracle:
        live = os.path.join(WORK, "demo.oracle.json")
        ok, msg = run_oracle(oracle, SKE, live, "--atlas", TEX, "--armature", "all")
        if check(ok, "the oracle loads and plays the demo: " + msg[-500:]):
            oracle_checks(json.load(open(live, encoding="utf-8")), 24)
            actual = os.path.join(WORK, "demo.sinew24.json")
            ok, err = sinew_poses(SKE, actual, "--atlas", TEX)
            if check(ok, f"sinew poses exits 0: {err[-500:]}"):
                same, msg = posecmp(live, actual)
                print(msg)
                check(same, "sinew's poses of the demo match the live official runtime's at 24 fps")
    finish()


if __name__ == "__main__":
    main()
