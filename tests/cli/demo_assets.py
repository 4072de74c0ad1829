#!/usr/bin/env python3
"""The demo character (examples/demo): the committed files are what the generator writes, and
the rig meets the demo's requirements (bones, mesh + ffd, IK, two skins, three looping
animations) with every reference resolving (bones, slots, atlas regions, page size).

Needs only python3; no sinew binary. Env: SRC (repo root), BUILD (scratch space).
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import BUILD, SRC, check, read_png as decode_png, summary  # noqa: E402

DEMO = os.path.join(SRC, "examples", "demo")


def read_png(path):
    """The generator writes 8-bit RGBA, non-interlaced PNGs: anything else is an error."""
    return decode_png(path, colour_types=(6,))


def main():
    ske = json.load(open(os.path.join(DEMO, "demo_ske.json"), encoding="utf-8"))
    tex = json.load(open(os.path.join(DEMO, "demo_tex.json"), encoding="utf-8"))

    # 1. The committed files are the generator's output (so nobody edits them by hand and
    #    forgets the script). JSON must match exactly; pixels within 1 level (libm differences).
    regen = os.path.join(BUILD, "demo_regen")
    r = subprocess.run([sys.executable, os.path.join(DEMO, "make_demo.py"), "--out", regen],
                       capture_output=True, text=True)
    check(r.returncode == 0, "make_demo.py runs: " + r.stderr[-500:])
    if r.returncode == 0:
        for name in ("demo_ske.json", "demo_tex.json"):
            a = json.load(open(os.path.join(DEMO, name), encoding="utf-8"))
            b = json.load(open(os.path.join(regen, name), encoding="utf-8"))
            check(a == b, name + " is up to date with make_demo.py")
        wa, ha, pa = read_png(os.path.join(DEMO, "demo_tex.png"))
        wb, hb, pb = read_png(os.path.join(regen, "demo_tex.png"))
        check((wa, ha) == (wb, hb), "demo_tex.png size matches the generator's")
        if (wa, ha) == (wb, hb):
            worst = max((abs(x - y) for x, y in zip(pa, pb)), default=0)
            check(worst <= 1, f"demo_tex.png pixels match the generator's (worst {worst})")

    # 2. The rig.
    check(ske.get("version") == "4.5", "DragonBones 4.5")
    arms = ske.get("armature", [])
    check(len(arms) == 1, "one armature")
    arm = arms[0]
    bones = {b["name"]: b for b in arm["bone"]}
    order = [b["name"] for b in arm["bone"]]
    check(len(bones) >= 8, f"at least 8 bones ({len(bones)})")
    for i, b in enumerate(arm["bone"]):
        if "parent" in b:
            check(b["parent"] in order[:i], f"bone {b['name']}: parent listed before it")
    slots = {s["name"]: s for s in arm["slot"]}
    for s in arm["slot"]:
        check(s["parent"] in bones, f"slot {s['name']}: parent bone exists")

    skins = {s.get("name", ""): s for s in arm["skin"]}
    check("" in skins and len(skins) >= 2, f"default skin plus a named skin ({list(skins)})")
    check(arm["skin"][0].get("name", "") == "", "the default skin comes first")
    regions = {st["name"]: st for st in tex["SubTexture"]}
    meshes = {}
    for sname, skin in skins.items():
        for sl in skin["slot"]:
            check(sl["name"] in slots, f"skin '{sname}' slot {sl['name']} exists")
            for d in sl["display"]:
                check(d["name"] in regions, f"skin '{sname}' display {d['name']} is in the atlas")
                if d.get("type") == "mesh":
                    meshes[(sname, sl["name"], d["name"])] = d
    named = [n for n in skins if n]
    for n in named:
        swapped = [sl["name"] for sl in skins[n]["slot"]]
        default_slots = [sl["name"] for sl in skins[""]["slot"]]
        check(swapped and all(s in default_slots for s in swapped),
              f"skin '{n}' overlays slots of the default skin")
        check(len(swapped) < len(default_slots), f"skin '{n}' swaps only some slots")

    # the mesh: consistent arrays, triangles in range, and an ffd timeline that moves vertices
    check(len(meshes) >= 1, "at least one mesh")
    for (sname, slot, name), m in meshes.items():
        nv = len(m["vertices"]) // 2
        check(len(m["vertices"]) % 2 == 0 and len(m["uvs"]) == len(m["vertices"]),
              f"mesh {name}: vertices/uvs lengths")
        check(len(m["triangles"]) % 3 == 0 and all(0 <= t < nv for t in m["triangles"]),
              f"mesh {name}: triangle indices")
        check(all(0 <= u <= 1 for u in m["uvs"]), f"mesh {name}: uvs in 0..1")
    ffd_moves = False
    for an in arm["animation"]:
        for tl in an.get("ffd", []):
            k = (tl.get("skin", ""), tl["slot"], tl["name"])
            check(k in meshes, f"ffd timeline {k} names a mesh")
            nv2 = len(meshes[k]["vertices"]) if k in meshes else 0
            for f in tl["frame"]:
                off = f.get("offset", 0)
                check(off + len(f.get("vertices", [])) <= nv2, f"ffd frame fits the mesh {k}")
                if any(abs(v) > 0.5 for v in f.get("vertices", [])):
                    ffd_moves = True
    check(ffd_moves, "an ffd timeline moves vertices")

    iks = arm.get("ik", [])
    check(len(iks) >= 1, "at least one IK constraint")
    for ik in iks:
        check(ik["bone"] in bones and ik["target"] in bones, f"ik {ik['name']}: bones exist")
        if ik.get("chain", 0) >= 1:
            check(bones[ik["bone"]].get("parent") in bones and bones[ik["bone"]].get("length", 0) > 0,
                  f"ik {ik['name']}: two-bone chain with a length")

    anims = {a["name"]: a for a in arm["animation"]}
    for n in ("idle", "walk", "wave"):
        check(n in anims, f"animation {n}")
        if n in anims:
            a = anims[n]
            check(a.get("playTimes", 1) == 0, f"animation {n} loops")
            for tl in a.get("bone", []):
                check(tl["name"] in bones, f"{n}: bone timeline {tl['name']} names a bone")
                total = sum(f.get("duration", 1) for f in tl["frame"])
                check(total == a["duration"], f"{n}: bone timeline {tl['name']} spans the animation")
            for tl in a.get("slot", []):
                check(tl["name"] in slots, f"{n}: slot timeline {tl['name']} names a slot")
                ndisp = None
                for sl in skins[""]["slot"]:
                    if sl["name"] == tl["name"]:
                        ndisp = len(sl["display"])
                for f in tl["frame"]:
                    di = f.get("displayIndex", 0)
                    check(ndisp is not None and -1 <= di < ndisp,
                          f"{n}: slot {tl['name']} displayIndex {di} exists")

    # 3. The atlas: page size, regions inside the page and not empty.
    w, h, px = read_png(os.path.join(DEMO, tex["imagePath"]))
    check((w, h) == (tex["width"], tex["height"]), "atlas width/height match the PNG")
    for st in tex["SubTexture"]:
        inside = st["x"] >= 0 and st["y"] >= 0 and st["x"] + st["width"] <= w and st["y"] + st["height"] <= h
        check(inside, f"region {st['name']} inside the page")
        if not inside:
            continue
        opaque = 0
        for y in range(st["y"], st["y"] + st["height"]):
            row = px[(y * w + st["x"]) * 4:(y * w + st["x"] + st["width"]) * 4]
            opaque += sum(1 for i in range(3, len(row), 4) if row[i] > 200)
        check(opaque > 0.2 * st["width"] * st["height"] or st["name"].startswith(("eyes", "mouth")),
              f"region {st['name']} has art ({opaque} opaque pixels)")
    rects = [(st["x"], st["y"], st["x"] + st["width"], st["y"] + st["height"], st["name"])
             for st in tex["SubTexture"]]
    overlap = [(a[4], b[4]) for i, a in enumerate(rects) for b in rects[i + 1:]
               if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]
    check(not overlap, f"atlas regions do not overlap {overlap[:3]}")

    return summary()


if __name__ == "__main__":
    sys.exit(main())
