#!/usr/bin/env python3
"""Sprite sheets that engines read: every --sheet-format, with trimming, padding, extrusion,
power-of-two pages, several pages (--max-size) and premultiplied alpha. Each frame is cut back out
of its page by its own atlas entry (the trim offsets applied) and must equal, pixel for pixel, the
same frame rendered alone (`sinew render --frame K` with the same fixed framing). Bad options and
a frame larger than --max-size are usage / input errors that write nothing.
"""
import glob
import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import BUILD, SRC, check, finish, read_png, run_sinew  # noqa: E402

PIP = os.path.join(SRC, "tests", "fixtures", "own", "Pip_5.0", "pip_ske.json")
FRAMING = ["--armature", "pip", "--animation", "idle", "--fps", "8", "--size", "150x140", "--origin", "75,125"]
OUT = os.path.join(BUILD, "sheets")
shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(OUT)


def png(path):
    w, h, px = read_png(path)
    return w, h, px


# the frames rendered alone
alone = []
for k in range(64):
    p = os.path.join(OUT, "alone_%02d.png" % k)
    r = run_sinew("render", PIP, *FRAMING, "--frame", str(k), "--out", p, "--quiet")
    if r.returncode != 0:
        break
    alone.append(png(p))
check(len(alone) >= 8, f"frames rendered alone ({len(alone)})")


def premultiply(px):
    out = bytearray(px)
    for i in range(0, len(out), 4):
        a = out[i + 3]
        for c in range(3):
            out[i + c] = (out[i + c] * a + 127) // 255
    return bytes(out)


def entries(fmt, base):
    """-> list of (frame index, page path, x, y, w, h, offset x, offset y, source w, source h)"""
    d = os.path.dirname(base)
    out = []
    if fmt == "dragonbones" or fmt == "json-array":
        files = sorted(glob.glob(base + "-*.json")) or [base + ".json"]
        for f in files:
            j = json.load(open(f))
            if fmt == "dragonbones":
                page = os.path.join(d, j["imagePath"])
                for e in j["SubTexture"]:
                    out.append((int(e["name"][6:]), page, e["x"], e["y"], e["width"], e["height"], -e["frameX"],
                                -e["frameY"], e["frameWidth"], e["frameHeight"]))
            else:
                page = os.path.join(d, j["meta"]["image"])
                for e in j["frames"]:
                    out.append(tp(e["filename"], page, e))
    elif fmt == "json-hash":
        j = json.load(open(base + ".json"))
        if "textures" in j:  # Phaser multiatlas
            for t in j["textures"]:
                for e in t["frames"]:
                    out.append(tp(e["filename"], os.path.join(d, t["image"]), e))
        else:
            for name, e in j["frames"].items():
                out.append(tp(name, os.path.join(d, j["meta"]["image"]), e))
    else:  # godot
        text = open(base + ".tres").read()
        pages = {m.group(2): os.path.join(d, m.group(1)) for m in
                 re.finditer(r'\[ext_resource type="Texture2D" path="res://([^"]+)" id="([^"]+)"\]', text)}
        subs = {}
        for m in re.finditer(r'\[sub_resource type="AtlasTexture" id="([^"]+)"\]\natlas = ExtResource\("([^"]+)"\)\n'
                             r'region = Rect2\(([^)]*)\)\nmargin = Rect2\(([^)]*)\)', text):
            reg = [int(float(v)) for v in m.group(3).split(",")]
            mar = [int(float(v)) for v in m.group(4).split(",")]
            subs[m.group(1)] = (pages[m.group(2)], reg, mar)
        order = re.findall(r'"texture": SubResource\("([^"]+)"\)', text)
        for k, sid in enumerate(order):
            page, reg, mar = subs[sid]
            out.append((k, page, reg[0], reg[1], reg[2], reg[3], mar[0], mar[1], reg[2] + mar[2], reg[3] + mar[3]))
    return out


def tp(name, page, e):
    f, s, src = e["frame"], e["spriteSourceSize"], e["sourceSize"]
    return (int(name[6:]), page, f["x"], f["y"], f["w"], f["h"], s["x"], s["y"], src["w"], src["h"])


def rebuild(page_px, pw, x, y, w, h, ox, oy, sw, sh):
    canvas = bytearray(sw * sh * 4)
    for r in range(h):
        src = ((y + r) * pw + x) * 4
        dst = ((oy + r) * sw + ox) * 4
        canvas[dst:dst + w * 4] = page_px[src:src + w * 4]
    return bytes(canvas)


def opt(opts, name, default):
    return int(opts[opts.index(name) + 1]) if name in opts else default


def extrusion_bad(ppx, pw, ph, x, y, w, h, e):
    """The first pixel of the `e`-wide ring around a frame's rectangle that is not the frame's nearest
    edge pixel (or falls off the page), or None."""
    def at(px_, py_):
        o = (py_ * pw + px_) * 4
        return ppx[o:o + 4]
    for yy in range(y - e, y + h + e):
        for xx in range(x - e, x + w + e):
            if x <= xx < x + w and y <= yy < y + h:
                continue
            if not (0 <= xx < pw and 0 <= yy < ph):
                return (xx, yy, "off the page")
            want = at(min(max(xx, x), x + w - 1), min(max(yy, y), y + h - 1))
            if at(xx, yy) != want:
                return (xx, yy, tuple(at(xx, yy)), tuple(want))
    return None


def spacing_bad(rects, pw, ph, e, pad):
    """Two rectangles (with their extrusion) closer than `pad`, or one closer than `pad` to the
    page's edge: the first such, or None."""
    boxes = sorted({(x - e, y - e, x + w + e, y + h + e) for (x, y, w, h) in rects})
    for i, a in enumerate(boxes):
        if a[0] < pad or a[1] < pad or a[2] > pw - pad or a[3] > ph - pad:
            return ("edge", a)
        for b in boxes[i + 1:]:
            if not (a[2] + pad <= b[0] or b[2] + pad <= a[0] or a[3] + pad <= b[1] or b[3] + pad <= a[1]):
                return (a, b)
    return None


VARIANTS = [
    ("dragonbones", []),
    ("json-hash", ["--sheet-padding", "2", "--extrude", "2"]),
    ("json-hash", ["--max-size", "300x300", "--pow2"]),  # several pages: Phaser multiatlas
    ("json-array", ["--max-size", "300x300", "--extrude", "1"]),
    ("json-array", ["--no-trim", "--premultiplied"]),
    ("godot", ["--max-size", "400x300", "--sheet-padding", "0"]),
    ("dragonbones", ["--max-size", "300x300", "--premultiplied", "--pow2"]),
]
for i, (fmt, opts) in enumerate(VARIANTS):
    label = f"{fmt} {' '.join(opts)}".strip()
    base = os.path.join(OUT, f"v{i}")
    r = run_sinew("render", PIP, *FRAMING, "--sheet", "--sheet-format", fmt, *opts, "--out", base, "--quiet")
    if not check(r.returncode == 0, f"{label}: render --sheet ({r.returncode}: {r.stderr.strip()})"):
        continue
    es = entries(fmt, base)
    check(sorted(e[0] for e in es) == list(range(len(alone))), f"{label}: one atlas entry per frame "
          f"({len(es)} for {len(alone)})")
    pages = {}
    for e in es:
        pages.setdefault(e[1], None)
    for p in pages:
        pages[p] = png(p)
        w, h, _ = pages[p]
        if "--pow2" in opts:
            check(w & (w - 1) == 0 and h & (h - 1) == 0, f"{label}: {os.path.basename(p)} is {w}x{h}, powers of two")
        if "--max-size" in opts:
            mw, mh = map(int, opts[opts.index("--max-size") + 1].split("x"))
            check(w <= mw and h <= mh, f"{label}: {os.path.basename(p)} {w}x{h} within --max-size")
    if "--max-size" in opts:
        check(len(pages) > 1, f"{label}: several pages ({len(pages)})")
    bad = 0
    for (k, p, x, y, w, h, ox, oy, sw, sh) in es:
        if k >= len(alone):
            continue
        aw, ah, apx = alone[k]
        pw, ph, ppx = pages[p]
        want = premultiply(apx) if "--premultiplied" in opts else apx
        if (sw, sh) != (aw, ah) or rebuild(ppx, pw, x, y, w, h, ox, oy, sw, sh) != want:
            bad += 1
    check(bad == 0, f"{label}: every frame cut out of the sheet equals the frame rendered alone ({bad} differ)")
    # the extruded ring repeats each frame's edge; frames and the page edge keep the padding apart
    ext, pad = opt(opts, "--extrude", 0), opt(opts, "--sheet-padding", 1)
    ring = spaced = None
    for p, (pw, ph, ppx) in pages.items():
        rects = [(x, y, w, h) for (k, pp, x, y, w, h, *_rest) in es if pp == p]
        for (x, y, w, h) in rects:
            ring = ring or (ext and extrusion_bad(ppx, pw, ph, x, y, w, h, ext))
        spaced = spaced or spacing_bad(rects, pw, ph, ext, pad)
    check(not ring, f"{label}: the {ext} px around each frame repeat its edge (first difference {ring})")
    check(not spaced, f"{label}: {pad} px of padding between frames and around the page (first too close {spaced})")

# errors: a frame larger than --max-size names the frame and its size; bad values are usage errors
r = run_sinew("render", PIP, *FRAMING, "--sheet", "--max-size", "64x64", "--out", os.path.join(OUT, "small"), "--quiet")
check(r.returncode == 2 and "frame 0" in r.stderr and "--max-size" in r.stderr and not glob.glob(os.path.join(OUT, "small*")),
      f"frame larger than --max-size: exit 2 naming it, nothing written ({r.returncode}: {r.stderr.strip()})")
for args in (["--sheet-format", "plist"], ["--extrude", "-1"], ["--max-size", "0x10"], ["--sheet-padding", "x"]):
    r = run_sinew("render", PIP, "--sheet", *args, "--out", os.path.join(OUT, "bad"), "--quiet")
    check(r.returncode == 1, f"{' '.join(args)}: usage error ({r.returncode}: {r.stderr.strip()})")
r = run_sinew("render", PIP, "--pow2", "--out", os.path.join(OUT, "x.gif"), "--quiet")
check(r.returncode == 1 and "--sheet" in r.stderr, f"a sheet option without --sheet is a usage error: {r.stderr.strip()}")
finish()
