#!/usr/bin/env python3
"""Generate sinew's demo character "Bolt", a small walking robot, from scratch.

Writes, next to this script:
  demo_tex.png   the texture atlas (every part image, shelf-packed)
  demo_tex.json  the DragonBones atlas description of demo_tex.png
  demo_ske.json  the rig: DragonBones 4.5 JSON (bones, slots, two skins, IK, a mesh, animations)
  parts/*.png    each part image on its own (handy for looking at the art)

Python 3 standard library only. The art is drawn with signed distance functions: every shape
is a distance field, its coverage is clamp(0.5 - distance) per pixel, which gives smooth
anti-aliased edges without supersampling. Shapes are filled with simple shading (a light from the
top left, a cylinder shade on limbs, a soft rim) and a dark outline.

Usage: python3 make_demo.py [--out DIR] [--parts]   (--parts also writes parts/NAME.png)
"""
import json
import math
import os
import struct
import sys
import zlib

# ---------------------------------------------------------------------------------------------
# PNG writing (RGBA8, straight alpha)


def write_png(path, width, height, rgba):
    """rgba: bytes/bytearray, width*height*4, straight alpha."""
    raw = bytearray()
    stride = width * 4
    prev = bytearray(stride)
    for y in range(height):
        row = rgba[y * stride:(y + 1) * stride]
        # filter 1 (Sub) compresses the flat shaded areas well and is simple to compute
        sub = bytearray(stride)
        for i in range(stride):
            left = row[i - 4] if i >= 4 else 0
            sub[i] = (row[i] - left) & 0xFF
        raw.append(1)
        raw += sub
        prev = row
    del prev

    def chunk(tag, data):
        c = struct.pack(">I", len(data)) + tag + data
        return c + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    png += chunk(b"IEND", b"")
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(png)
    os.replace(tmp, path)


# ---------------------------------------------------------------------------------------------
# A tiny premultiplied-alpha canvas with SDF shapes


def clamp01(v):
    return 0.0 if v < 0.0 else (1.0 if v > 1.0 else v)


def mix(a, b, t):
    return tuple(a[i] + (b[i] - a[i]) * t for i in range(3))


def rgb(hexstr):
    hexstr = hexstr.lstrip("#")
    return tuple(int(hexstr[i:i + 2], 16) / 255.0 for i in (0, 2, 4))


def scale_rgb(c, k):
    return tuple(clamp01(v * k) for v in c)


class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = [0.0] * (w * h * 4)  # premultiplied r, g, b, a

    def shape(self, sdf, fill, outline=None, width=2.0, alpha=1.0, bbox=None):
        """Composite a shape over the canvas.

        sdf(x, y) -> signed distance in pixels (negative inside).
        fill: an (r, g, b) tuple or a function f(x, y, d) -> (r, g, b).
        outline: (r, g, b) of a stroke of `width` pixels drawn inside the shape's edge.
        """
        x0, y0, x1, y1 = bbox if bbox else (0, 0, self.w, self.h)
        x0, y0 = max(0, int(x0) - 2), max(0, int(y0) - 2)
        x1, y1 = min(self.w, int(math.ceil(x1)) + 2), min(self.h, int(math.ceil(y1)) + 2)
        px = self.px
        fill_fn = fill if callable(fill) else None
        for y in range(y0, y1):
            fy = y + 0.5
            for x in range(x0, x1):
                fx = x + 0.5
                d = sdf(fx, fy)
                cov = 0.5 - d
                if cov <= 0.0:
                    continue
                if cov > 1.0:
                    cov = 1.0
                col = fill_fn(fx, fy, d) if fill_fn else fill
                if outline is not None:
                    inner = clamp01(0.5 - (d + width))
                    r = outline[0] * (cov - inner) + col[0] * inner
                    g = outline[1] * (cov - inner) + col[1] * inner
                    b = outline[2] * (cov - inner) + col[2] * inner
                else:
                    r, g, b = col[0] * cov, col[1] * cov, col[2] * cov
                a = cov * alpha
                r *= alpha
                g *= alpha
                b *= alpha
                i = (y * self.w + x) * 4
                k = 1.0 - a
                px[i] = r + px[i] * k
                px[i + 1] = g + px[i + 1] * k
                px[i + 2] = b + px[i + 2] * k
                px[i + 3] = a + px[i + 3] * k

    def to_rgba8(self):
        out = bytearray(self.w * self.h * 4)
        px = self.px
        for i in range(0, len(px), 4):
            a = px[i + 3]
            if a <= 0.0:
                continue
            inv = 1.0 / a
            out[i] = int(round(clamp01(px[i] * inv) * 255))
            out[i + 1] = int(round(clamp01(px[i + 1] * inv) * 255))
            out[i + 2] = int(round(clamp01(px[i + 2] * inv) * 255))
            out[i + 3] = int(round(clamp01(a) * 255))
        return out


# Distance functions (pixel units, negative inside) --------------------------------------------


def sd_round_box(cx, cy, hw, hh, r):
    def f(x, y):
        qx = abs(x - cx) - hw + r
        qy = abs(y - cy) - hh + r
        ox, oy = max(qx, 0.0), max(qy, 0.0)
        return math.hypot(ox, oy) + min(max(qx, qy), 0.0) - r
    return f


def sd_circle(cx, cy, r):
    return lambda x, y: math.hypot(x - cx, y - cy) - r


def sd_ellipse(cx, cy, rx, ry):
    # a first-order approximation: exact on the axes, good enough for anti-aliasing
    def f(x, y):
        dx, dy = (x - cx) / rx, (y - cy) / ry
        k0 = math.hypot(dx, dy)
        if k0 == 0.0:
            return -min(rx, ry)
        k1 = math.hypot(dx / rx, dy / ry)
        return k0 * (k0 - 1.0) / k1
    return f


def sd_capsule(ax, ay, bx, by, ra, rb=None):
    """A segment from a to b with radius ra at a and rb at b (a tapered capsule)."""
    rb = ra if rb is None else rb
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy

    def f(x, y):
        px, py = x - ax, y - ay
        t = clamp01((px * dx + py * dy) / ll) if ll > 0 else 0.0
        return math.hypot(px - dx * t, py - dy * t) - (ra + (rb - ra) * t)
    return f


def sd_arc(cx, cy, r, a0, a1, thick):
    """A circular arc from angle a0 to a1 (radians, y down), stroked `thick` wide, round caps."""
    e0 = (cx + r * math.cos(a0), cy + r * math.sin(a0))
    e1 = (cx + r * math.cos(a1), cy + r * math.sin(a1))

    def f(x, y):
        ang = math.atan2(y - cy, x - cx)
        lo, hi = min(a0, a1), max(a0, a1)
        inside = False
        for k in (-2, 0, 2):
            if lo <= ang + k * math.pi <= hi:
                inside = True
        if inside:
            return abs(math.hypot(x - cx, y - cy) - r) - thick / 2
        return min(math.hypot(x - e0[0], y - e0[1]), math.hypot(x - e1[0], y - e1[1])) - thick / 2
    return f


def sd_union(*fs):
    return lambda x, y: min(f(x, y) for f in fs)


def sd_intersect(a, b):
    return lambda x, y: max(a(x, y), b(x, y))


def sd_subtract(a, b):
    return lambda x, y: max(a(x, y), -b(x, y))


# Shading helpers ---------------------------------------------------------------------------


def shade_lit(base, x0, y0, x1, y1, light=1.12, dark=0.78, rim=0.10):
    """Light from the top left: a diagonal gradient plus a darker rim just inside the edge."""
    lo = scale_rgb(base, dark)
    hi = scale_rgb(base, light)

    def f(x, y, d):
        t = clamp01(((x - x0) / max(1.0, x1 - x0)) * 0.35 + ((y - y0) / max(1.0, y1 - y0)) * 0.65)
        c = mix(hi, lo, t)
        if rim > 0.0:
            edge = clamp01(1.0 + d / 5.0)  # 1 at the edge, 0 five pixels in
            c = scale_rgb(c, 1.0 - rim * edge * t)
        return c
    return f


def shade_cylinder(base, axis_y0, axis_y1):
    """A horizontal cylinder (limbs are drawn along x): bright band above the middle."""
    mid = (axis_y0 + axis_y1) / 2
    half = max(1.0, (axis_y1 - axis_y0) / 2)

    def f(x, y, d):
        t = (y - mid) / half  # -1 top .. 1 bottom
        k = 1.10 - 0.30 * (t + 0.35) ** 2
        return scale_rgb(base, k)
    return f


# ---------------------------------------------------------------------------------------------
# The palette and the parts

OUT = rgb("#232a3b")          # outline
SHELL = rgb("#f1eee6")        # head shell (warm white)
SCREEN = rgb("#1d2740")       # face screen
GLOW = rgb("#7df3ff")         # eyes and mouth
TEAL = rgb("#3fb5b0")         # torso, hands, feet
TEAL_DARK = rgb("#2b7f86")
STEEL = rgb("#c9d2da")        # limbs
STEEL_DARK = rgb("#56667a")   # pelvis, joints
ORANGE = rgb("#ff8c42")       # scarf
ORANGE_DARK = rgb("#d9612b")
LIGHT_RED = rgb("#ff5d5d")

COPPER = rgb("#d98a4e")
COPPER_DARK = rgb("#9b5a33")
BRASS = rgb("#f2c14e")

W = 2.0  # outline width in pixels


def part_head(shell, accent):
    c = Canvas(104, 86)
    box = sd_round_box(52, 43, 49.5, 40.5, 21)
    c.shape(box, shade_lit(shell, 3, 3, 101, 83), OUT, W + 0.5, bbox=(0, 0, 104, 86))
    # ear disc on the back (left) side
    c.shape(sd_circle(19, 46, 11.5), shade_lit(accent, 7, 34, 31, 58, rim=0.0), OUT, W,
            bbox=(6, 33, 32, 59))
    c.shape(sd_circle(19, 46, 4.5), scale_rgb(accent, 0.7), OUT, 1.5, bbox=(13, 40, 25, 52))
    # face screen, shifted to the front (right)
    scr = sd_round_box(63, 42, 31.5, 26.5, 12)

    def screen_fill(x, y, d):
        t = clamp01((y - 16) / 52)
        base = mix(scale_rgb(SCREEN, 1.35), SCREEN, t)
        edge = clamp01(1.0 + d / 4.0)
        return scale_rgb(base, 1.0 - 0.25 * edge)
    c.shape(scr, screen_fill, OUT, W, bbox=(30, 14, 96, 70))
    # glass glare on the screen
    glare = sd_intersect(sd_capsule(44, 27, 55, 21, 2.8), scr)
    c.shape(glare, (1, 1, 1), alpha=0.35, bbox=(39, 16, 60, 32))
    c.shape(sd_circle(60, 19.5, 1.8), (1, 1, 1), alpha=0.30, bbox=(57, 16, 64, 23))
    # a shine on the shell's top-left
    c.shape(sd_capsule(16, 19, 30, 10, 3.0), (1, 1, 1), alpha=0.55, bbox=(11, 5, 35, 24))
    return c


def part_torso(main, chest, light):
    c = Canvas(82, 70)
    body = sd_round_box(41, 35, 38, 32, 16)
    c.shape(body, shade_lit(main, 3, 3, 79, 67), OUT, W + 0.5, bbox=(0, 0, 82, 70))
    panel = sd_round_box(45, 37, 20, 16, 7)
    c.shape(panel, shade_lit(chest, 25, 21, 65, 53, light=1.05, dark=0.9, rim=0.0), OUT, 1.6,
            bbox=(23, 19, 67, 55))
    # a heart-shaped status light in the middle of the chest panel
    heart = sd_union(sd_circle(41.5, 34, 4.4), sd_circle(48.5, 34, 4.4),
                     sd_intersect(lambda x, y: ((x - 45) * 0.7071 + (y - 45.2) * 0.7071),
                                  lambda x, y: (-(x - 45) * 0.7071 + (y - 45.2) * 0.7071)))
    heart = sd_intersect(heart, sd_round_box(45, 38, 9, 8, 0.1))
    c.shape(heart, shade_lit(light, 36, 29, 54, 46, light=1.2, dark=0.85, rim=0.0), OUT, 1.3,
            bbox=(34, 27, 56, 48))
    c.shape(sd_circle(41, 33, 1.6), (1, 1, 1), alpha=0.7, bbox=(38, 30, 44, 36))
    # rivets
    for x in (12, 70):
        c.shape(sd_circle(x, 14, 2.6), scale_rgb(main, 0.7), OUT, 1.0, bbox=(x - 4, 10, x + 4, 18))
    c.shape(sd_capsule(14, 8, 30, 5, 2.8), (1, 1, 1), alpha=0.35, bbox=(9, 1, 35, 13))
    return c


def part_pelvis(main):
    c = Canvas(62, 26)
    box = sd_round_box(31, 13, 28, 10, 8)
    c.shape(box, shade_lit(main, 3, 3, 59, 23), OUT, W, bbox=(0, 0, 62, 26))
    c.shape(sd_capsule(10, 13, 52, 13, 1.2), scale_rgb(main, 0.65), alpha=0.8, bbox=(7, 10, 55, 16))
    return c


def part_limb(length, r0, r1, main, joint):
    """A limb along +x: a tapered capsule from (pad + r0) to (pad + r0 + length), a joint disc."""
    pad = 3
    w = int(math.ceil(pad * 2 + r0 + r1 + length))
    h = int(math.ceil(pad * 2 + 2 * max(r0, r1)))
    cy = h / 2
    ax = pad + r0
    bx = ax + length
    c = Canvas(w, h)
    cap = sd_capsule(ax, cy, bx, cy, r0, r1)
    c.shape(cap, shade_cylinder(main, cy - r0, cy + r0), OUT, W, bbox=(0, 0, w, h))
    c.shape(sd_circle(ax, cy, r0 * 0.55), shade_cylinder(joint, cy - r0 * 0.55, cy + r0 * 0.55),
            OUT, 1.5, bbox=(ax - r0, cy - r0, ax + r0, cy + r0))
    c.shape(sd_capsule(ax + r0 * 0.9, cy - r0 * 0.45, bx - r1 * 0.3, cy - r1 * 0.45, 1.3),
            (1, 1, 1), alpha=0.45, bbox=(ax, cy - r0, bx, cy))
    # the joint centre in image pixels: where the bone origin goes
    return c, ax


def part_hand(main):
    c = Canvas(30, 30)
    # drawn with the wrist at the top and the fingers pointing down; the thumb faces right
    c.shape(sd_round_box(14, 6, 6, 4, 2), STEEL_DARK, OUT, 1.5, bbox=(6, 0, 22, 12))
    c.shape(sd_capsule(21, 13, 25, 19, 3.6), shade_lit(main, 16, 9, 29, 23, rim=0.0), OUT, 1.6,
            bbox=(15, 7, 30, 25))
    mitt = sd_union(sd_circle(14, 17, 10), sd_round_box(14, 12, 9, 6, 4))
    c.shape(mitt, shade_lit(main, 4, 6, 24, 27), OUT, W, bbox=(2, 4, 26, 30))
    c.shape(sd_circle(10, 13, 2.2), (1, 1, 1), alpha=0.5, bbox=(6, 9, 14, 17))
    return c


def part_foot(main, sole):
    c = Canvas(48, 26)
    upper = sd_union(sd_round_box(22, 13, 19, 9, 8), sd_circle(36, 15, 8.5))
    base = sd_round_box(24, 20, 21, 4, 3.5)
    shoe = sd_union(upper, base)
    c.shape(shoe, shade_lit(main, 3, 3, 46, 24), OUT, W, bbox=(0, 0, 48, 26))
    c.shape(sd_intersect(sd_round_box(24, 20.5, 20, 3.4, 3), shoe), scale_rgb(sole, 1.0), OUT, 1.2,
            bbox=(2, 16, 46, 25))
    c.shape(sd_capsule(12, 9, 24, 7, 2), (1, 1, 1), alpha=0.45, bbox=(9, 4, 27, 12))
    return c


def part_antenna():
    c = Canvas(14, 38)
    stalk = sd_capsule(7, 3, 7, 33, 3.0, 3.6)
    c.shape(stalk, lambda x, y, d: scale_rgb(STEEL, 1.15 - 0.12 * abs(x - 6)), OUT, 1.2,
            bbox=(0, 0, 14, 38))
    c.shape(sd_round_box(7, 34, 5.5, 3, 1.5), STEEL_DARK, OUT, 1.3, bbox=(0, 29, 14, 38))
    return c


def part_antenna_light():
    c = Canvas(28, 28)
    # a soft halo, then the bulb with a highlight
    for r, a in ((13.0, 0.12), (11.5, 0.16), (10.0, 0.2)):
        c.shape(sd_circle(14, 14, r), LIGHT_RED, alpha=a, bbox=(0, 0, 28, 28))
    c.shape(sd_circle(14, 14, 8), shade_lit(LIGHT_RED, 6, 6, 22, 22, light=1.25, dark=0.8, rim=0.0),
            OUT, 1.6, bbox=(5, 5, 23, 23))
    c.shape(sd_circle(11.5, 11, 2.4), (1, 1, 1), alpha=0.85, bbox=(8, 7, 15, 15))
    return c


def glow_stroke(c, sdf, bbox, color=GLOW):
    """A glowing screen mark: a faint wide halo and the crisp stroke."""
    c.shape(lambda x, y: sdf(x, y) - 2.0, color, alpha=0.25, bbox=bbox)
    c.shape(sdf, color, bbox=bbox)


def part_eyes(kind):
    c = Canvas(50, 26)
    for cx in (13, 37):
        if kind == "open":
            eye = sd_round_box(cx, 13, 6, 9, 5.5)
            glow_stroke(c, eye, (cx - 11, 0, cx + 11, 26))
            c.shape(sd_circle(cx + 2, 9, 2.0), (1, 1, 1), alpha=0.9, bbox=(cx - 2, 5, cx + 6, 13))
        elif kind == "blink":
            glow_stroke(c, sd_capsule(cx - 6.5, 15, cx + 6.5, 15, 1.9), (cx - 11, 7, cx + 11, 23))
        else:  # happy: upside-down U arcs
            glow_stroke(c, sd_arc(cx, 17, 7, math.pi * 1.05, math.pi * 1.95, 3.4),
                        (cx - 13, 2, cx + 13, 25))
    return c


def part_mouth(kind):
    c = Canvas(30, 18)
    if kind == "smile":
        glow_stroke(c, sd_arc(15, 2, 9, math.pi * 0.2, math.pi * 0.8, 3.0), (0, 0, 30, 18))
    else:  # open, happy "D"
        m = sd_intersect(sd_circle(15, 4, 11), lambda x, y: 5.0 - y)
        glow_stroke(c, m, (0, 0, 30, 18))
        c.shape(sd_intersect(sd_circle(15, 4, 7.5), lambda x, y: 8.5 - y), SCREEN, alpha=0.55,
                bbox=(5, 4, 25, 13))
    return c


def part_scarf_wrap():
    c = Canvas(72, 24)
    band = sd_round_box(36, 12, 33, 9, 8)

    def stripes(x, y, d):
        base = ORANGE if int((x + y * 0.4) / 7) % 2 == 0 else ORANGE_DARK
        return shade_cylinder(base, 3, 21)(x, y, d)
    c.shape(band, stripes, OUT, W, bbox=(0, 0, 72, 24))
    return c


def part_scarf_tail():
    # drawn along +x: the neck end at the left (u = 0), the fringed free end at the right
    c = Canvas(80, 24)
    body = sd_round_box(38, 12, 36, 9, 4)
    fringe = sd_union(*[sd_capsule(72, 5 + 3.5 * i, 77, 5 + 3.5 * i, 1.4) for i in range(5)])

    def stripes(x, y, d):
        base = ORANGE if int(x / 8) % 2 == 0 else ORANGE_DARK
        return shade_cylinder(base, 3, 21)(x, y, d)
    c.shape(fringe, ORANGE_DARK, OUT, 1.0, bbox=(68, 0, 80, 24))
    c.shape(body, stripes, OUT, W, bbox=(0, 0, 76, 24))
    return c


# ---------------------------------------------------------------------------------------------
# Atlas packing


def pack(images, page_w=512, pad=2):
    """Shelf packing, tallest first. Returns ({name: (x, y, w, h)}, page_w, page_h)."""
    order = sorted(images, key=lambda n: (-images[n].h, -images[n].w, n))
    x = y = pad
    shelf_h = 0
    rects = {}
    for n in order:
        c = images[n]
        if x + c.w + pad > page_w:
            x = pad
            y += shelf_h + pad
            shelf_h = 0
        rects[n] = (x, y, c.w, c.h)
        x += c.w + pad
        shelf_h = max(shelf_h, c.h)
    page_h = y + shelf_h + pad
    h = 1
    while h < page_h:
        h *= 2
    return rects, page_w, h


def blit_atlas(images, rects, page_w, page_h):
    out = bytearray(page_w * page_h * 4)
    for n, (x, y, w, h) in rects.items():
        px = images[n].to_rgba8()
        for row in range(h):
            o = ((y + row) * page_w + x) * 4
            out[o:o + w * 4] = px[row * w * 4:(row + 1) * w * 4]
    return out


# ---------------------------------------------------------------------------------------------
# The rig (DragonBones 4.5)

ARM_UP_LEN, ARM_LO_LEN = 28, 24
THIGH_LEN, SHIN_LEN = 33, 33


def r4(v):
    return round(v, 4)


def tf(x=0.0, y=0.0, rot=0.0, scx=1.0, scy=1.0):
    t = {}
    if x:
        t["x"] = r4(x)
    if y:
        t["y"] = r4(y)
    if rot:
        t["skX"] = r4(rot)
        t["skY"] = r4(rot)
    if scx != 1.0:
        t["scX"] = r4(scx)
    if scy != 1.0:
        t["scY"] = r4(scy)
    return t


def scarf_mesh():
    """The scarf tail: a 7 x 2 strip behind the neck, vertices in the scarf bone's space."""
    cols = 7
    top, bottom, uvs = [], [], []
    for j in range(cols):
        u = j / (cols - 1)
        x = -4 - u * 66
        ty = -11 + u * 8 + 14 * u * u      # droops towards the free end
        by = ty + 24 - 4 * u               # and tapers a little
        top.append((x, ty))
        bottom.append((x, by))
    verts = []
    for x, y in top + bottom:
        verts += [r4(x), r4(y)]
    for j in range(cols):
        uvs += [r4(j / (cols - 1)), 0]
    for j in range(cols):
        uvs += [r4(j / (cols - 1)), 1]
    tris = []
    for j in range(cols - 1):
        tris += [j, j + 1, cols + j, j + 1, cols + j + 1, cols + j]
    return cols, verts, uvs, tris


def scarf_ffd(cols, amp, phase, lift, stretch=0.0):
    """ffd deltas for the scarf: a travelling wave, stronger towards the free end.
    Vertex 0 (top, at the neck) never moves, so frames start at offset 2 (skipping it)."""
    deltas = []
    for row in range(2):
        for j in range(cols):
            u = j / (cols - 1)
            k = u ** 1.3
            dy = amp * k * math.sin(phase - 2.2 * u) - lift * u
            dx = -stretch * u + 0.3 * amp * k * math.cos(phase - 2.2 * u)
            deltas += [r4(dx), r4(dy)]
    assert deltas[0] == 0 and deltas[1] == 0
    return deltas[2:]


def key(duration, ease=0, **kw):
    """A bone keyframe: transform deltas from setup; ease 0 linear, 2 quad in-out, None step."""
    f = {"duration": duration, "transform": tf(**kw)}
    if ease is not None:
        f["tweenEasing"] = ease
    return f


def build_rig(rects, region_size):
    bones = [
        {"name": "root", "transform": {}},
        {"name": "hip", "parent": "root", "transform": tf(0, -76)},
        {"name": "torso", "parent": "hip", "transform": tf(0, -6)},
        {"name": "head", "parent": "torso", "length": 80, "transform": tf(4, -58)},
        {"name": "antenna", "parent": "head", "length": 30, "transform": tf(-8, -78)},
        {"name": "scarf", "parent": "torso", "transform": tf(0, -54)},
        {"name": "arm_back_upper", "parent": "torso", "length": ARM_UP_LEN,
         "transform": tf(-4, -46, 100)},
        {"name": "arm_back_lower", "parent": "arm_back_upper", "length": ARM_LO_LEN,
         "transform": tf(ARM_UP_LEN, 0, -12)},
        {"name": "hand_back", "parent": "arm_back_lower", "transform": tf(ARM_LO_LEN, 0)},
        {"name": "arm_front_upper", "parent": "torso", "length": ARM_UP_LEN,
         "transform": tf(6, -46, 78)},
        {"name": "arm_front_lower", "parent": "arm_front_upper", "length": ARM_LO_LEN,
         "transform": tf(ARM_UP_LEN, 0, -14)},
        {"name": "hand_front", "parent": "arm_front_lower", "transform": tf(ARM_LO_LEN, 0)},
        {"name": "thigh_back", "parent": "hip", "length": THIGH_LEN, "transform": tf(-10, 4, 90)},
        {"name": "shin_back", "parent": "thigh_back", "length": SHIN_LEN, "transform": tf(THIGH_LEN, 0)},
        {"name": "thigh_front", "parent": "hip", "length": THIGH_LEN, "transform": tf(10, 4, 90)},
        {"name": "shin_front", "parent": "thigh_front", "length": SHIN_LEN, "transform": tf(THIGH_LEN, 0)},
        # IK targets: the ankles, children of the root so the feet stay planted on the ground
        {"name": "foot_back", "parent": "root", "transform": tf(-10, -10)},
        {"name": "foot_front", "parent": "root", "transform": tf(10, -10)},
    ]

    back_tint = {"rM": 72, "gM": 76, "bM": 84}
    slots = [
        ("arm_back_upper", "arm_back_upper", back_tint),
        ("arm_back_lower", "arm_back_lower", back_tint),
        ("hand_back", "hand_back", back_tint),
        ("thigh_back", "thigh_back", back_tint),
        ("shin_back", "shin_back", back_tint),
        ("foot_back", "foot_back", back_tint),
        ("scarf_tail", "scarf", None),
        ("antenna", "antenna", None),
        ("antenna_light", "antenna", None),
        ("thigh_front", "thigh_front", None),
        ("shin_front", "shin_front", None),
        ("foot_front", "foot_front", None),
        ("pelvis", "hip", None),
        ("torso", "torso", None),
        ("scarf_wrap", "scarf", None),
        ("head", "head", None),
        ("eyes", "head", None),
        ("mouth", "head", None),
        ("arm_front_upper", "arm_front_upper", None),
        ("arm_front_lower", "arm_front_lower", None),
        ("hand_front", "hand_front", None),
    ]
    slot_json = []
    for z, (name, parent, color) in enumerate(slots):
        s = {"name": name, "parent": parent, "z": z, "displayIndex": 0}
        if color:
            s["color"] = color
        slot_json.append(s)

    # display transforms: where each image's centre sits in its bone's space
    def img(name, x=0.0, y=0.0, rot=0.0):
        d = {"name": name, "type": "image", "transform": tf(x, y, rot)}
        return d

    limb_center = {}
    for part, joint_x in region_size["_joint"].items():
        w = region_size[part][0]
        limb_center[part] = w / 2 - joint_x  # image centre relative to the joint, along the bone

    cols, verts, uvs, tris = scarf_mesh()
    tw, th = region_size["scarf_tail"]
    mesh = {"name": "scarf_tail", "type": "mesh", "width": tw, "height": th,
            "vertices": verts, "uvs": uvs, "triangles": tris,
            "edges": [], "userEdges": []}

    default_skin = {
        "arm_back_upper": [img("arm_upper", limb_center["arm_upper"])],
        "arm_back_lower": [img("arm_lower", limb_center["arm_lower"])],
        "hand_back": [img("hand", 10, 0, -90)],
        "thigh_back": [img("thigh", limb_center["thigh"])],
        "shin_back": [img("shin", limb_center["shin"])],
        "foot_back": [img("foot", 6, -1)],
        "scarf_tail": [mesh],
        "antenna": [img("antenna", 0, -16)],
        "antenna_light": [img("antenna_light", 0, -37)],
        "thigh_front": [img("thigh", limb_center["thigh"])],
        "shin_front": [img("shin", limb_center["shin"])],
        "foot_front": [img("foot", 6, -1)],
        "pelvis": [img("pelvis", 0, 2)],
        "torso": [img("torso", 0, -30)],
        "scarf_wrap": [img("scarf_wrap", 2, 0, -4)],
        "head": [img("head", 9, -39)],
        "eyes": [img("eyes_open", 25, -44), img("eyes_blink", 25, -44), img("eyes_happy", 25, -44)],
        "mouth": [img("mouth_smile", 26, -26), img("mouth_open", 26, -26)],
        "arm_front_upper": [img("arm_upper", limb_center["arm_upper"])],
        "arm_front_lower": [img("arm_lower", limb_center["arm_lower"])],
        "hand_front": [img("hand", 10, 0, -90)],
    }
    copper_skin = {
        "head": [img("copper/head", 9, -39)],
        "torso": [img("copper/torso", 0, -30)],
        "pelvis": [img("copper/pelvis", 0, 2)],
        "hand_back": [img("copper/hand", 10, 0, -90)],
        "hand_front": [img("copper/hand", 10, 0, -90)],
        "foot_back": [img("copper/foot", 6, -1)],
        "foot_front": [img("copper/foot", 6, -1)],
    }

    def skin_json(name, table):
        return {"name": name,
                "slot": [{"name": s, "display": table[s]} for s, _, _ in slots if s in table]}

    ik = [
        {"name": "leg_back_ik", "bone": "shin_back", "target": "foot_back",
         "bendPositive": True, "chain": 1, "weight": 1},
        {"name": "leg_front_ik", "bone": "shin_front", "target": "foot_front",
         "bendPositive": True, "chain": 1, "weight": 1},
    ]

    animations = [anim_idle(cols), anim_walk(cols), anim_wave(cols)]
    armature = {
        "name": "Bolt",
        "type": "Armature",
        "frameRate": 24,
        "defaultActions": [["gotoAndPlay", "idle"]],
        "bone": bones,
        "slot": slot_json,
        "skin": [skin_json("", default_skin), skin_json("copper", copper_skin)],
        "ik": ik,
        "animation": animations,
    }
    return {"name": "demo", "version": "4.5", "frameRate": 24, "isGlobal": 0,
            "armature": [armature]}


def bone_tl(name, frames):
    return {"name": name, "frame": frames}


def ffd_tl(frames):
    return {"name": "scarf_tail", "skin": "", "slot": "scarf_tail", "frame": frames}


def ffd_key(duration, cols, ease=0, **kw):
    f = {"duration": duration, "offset": 2, "vertices": scarf_ffd(cols, **kw)}
    if ease is not None:
        f["tweenEasing"] = ease
    return f


def anim_idle(cols):
    """2 s breathing loop: the hip sinks (IK bends the knees), head and antenna sway, a blink."""
    return {
        "name": "idle", "duration": 48, "playTimes": 0,
        "bone": [
            bone_tl("hip", [key(24, 2), key(24, 2, y=3)]),
            bone_tl("torso", [key(24, 2), key(24, 2, rot=-1.5, scy=1.025)]),
            bone_tl("head", [key(24, 2, rot=-2), key(24, 2, rot=3, y=-1)]),
            bone_tl("antenna", [key(12, 2, rot=-8), key(24, 2, rot=10), key(12, 2, rot=0)]),
            bone_tl("arm_front_upper", [key(24, 2), key(24, 2, rot=-5)]),
            bone_tl("arm_front_lower", [key(24, 2), key(24, 2, rot=-6)]),
            bone_tl("arm_back_upper", [key(24, 2), key(24, 2, rot=5)]),
            bone_tl("arm_back_lower", [key(24, 2), key(24, 2, rot=-4)]),
        ],
        "slot": [
            {"name": "eyes", "frame": [
                {"duration": 30, "displayIndex": 0},
                {"duration": 3, "displayIndex": 1},
                {"duration": 15, "displayIndex": 0}]},
            {"name": "antenna_light", "frame": [
                {"duration": 24, "tweenEasing": 2, "color": {}},
                {"duration": 24, "tweenEasing": 2,
                 "color": {"rM": 55, "gM": 55, "bM": 55, "aM": 80}}]},
        ],
        "ffd": [ffd_tl([ffd_key(24, cols, 2, amp=3.0, phase=0.0, lift=0.0),
                        ffd_key(24, cols, 2, amp=3.0, phase=math.pi, lift=-1.5)])],
    }


def anim_walk(cols):
    """1 s walk cycle in place, facing right. The feet are IK targets that slide back along the
    ground (stance) and lift forward (swing); the hip bobs; the arms swing against the legs."""
    stride = 16
    front = [key(12, 0, x=stride), key(6, 0, x=-stride), key(6, 0, x=0, y=-12, rot=-8)]
    # the back foot runs half a cycle later: at t=0 it is at the end of its stance
    back = [key(6, 0, x=-stride), key(6, 0, x=0, y=-12, rot=-8), key(12, 0, x=stride)]
    # hip: low at each contact (frames 0, 12), high at each passing pose (6, 18)
    hip = [key(6, 2, y=2), key(6, 2, y=-1.5), key(6, 2, y=2), key(6, 2, y=-1.5)]
    swing = 24
    anim = {
        "name": "walk", "duration": 24, "playTimes": 0,
        "frame": [{"duration": 12, "event": "step"}, {"duration": 12, "event": "step"}],
        "bone": [
            bone_tl("foot_front", front),
            bone_tl("foot_back", back),
            bone_tl("hip", hip),
            bone_tl("torso", [key(6, 2, rot=3), key(6, 2, rot=4), key(6, 2, rot=3), key(6, 2, rot=4)]),
            bone_tl("head", [key(6, 2, rot=-2, y=1), key(6, 2, rot=-3), key(6, 2, rot=-2, y=1),
                             key(6, 2, rot=-3)]),
            bone_tl("antenna", [key(6, 2, rot=-6), key(6, 2, rot=8), key(6, 2, rot=-6), key(6, 2, rot=8)]),
            bone_tl("arm_front_upper", [key(12, 2, rot=swing), key(12, 2, rot=-swing)]),
            bone_tl("arm_front_lower", [key(12, 2, rot=-4), key(12, 2, rot=-22)]),
            bone_tl("arm_back_upper", [key(12, 2, rot=-swing), key(12, 2, rot=swing)]),
            bone_tl("arm_back_lower", [key(12, 2, rot=-22), key(12, 2, rot=-4)]),
        ],
        "ffd": [ffd_tl([ffd_key(6, cols, 0, amp=4.5, phase=i * math.pi / 2, lift=5.0, stretch=2.0)
                        for i in range(4)])],
    }
    return anim


def anim_wave(cols):
    """A friendly wave with the front arm; happy eyes and an open smile while waving."""
    up = -85  # raise the front upper arm from hanging down to pointing forward
    return {
        "name": "wave", "duration": 40, "playTimes": 0,
        "bone": [
            bone_tl("arm_front_upper", [key(8, 2), key(24, 2, rot=up), key(8, 2, rot=up)]),
            bone_tl("arm_front_lower", [key(8, 2), key(6, 2, rot=-40), key(6, 2, rot=-6),
                                        key(6, 2, rot=-40), key(6, 2, rot=-6), key(8, 2, rot=-24)]),
            bone_tl("hand_front", [key(8, 2), key(6, 2, rot=-14), key(6, 2, rot=12),
                                   key(6, 2, rot=-14), key(6, 2, rot=12), key(8, 2)]),
            bone_tl("head", [key(8, 2), key(24, 2, rot=-7, y=-1), key(8, 2, rot=-7, y=-1)]),
            bone_tl("torso", [key(8, 2), key(24, 2, rot=-3), key(8, 2, rot=-3)]),
            bone_tl("hip", [key(8, 2), key(6, 2, y=2), key(6, 2, y=-1), key(6, 2, y=2), key(6, 2, y=-1),
                            key(8, 2)]),
            bone_tl("antenna", [key(10, 2, rot=6), key(10, 2, rot=-10), key(10, 2, rot=8),
                                key(10, 2, rot=-6)]),
            bone_tl("arm_back_upper", [key(8, 2), key(24, 2, rot=-6), key(8, 2, rot=-6)]),
        ],
        "slot": [
            {"name": "eyes", "frame": [{"duration": 6, "displayIndex": 0},
                                       {"duration": 30, "displayIndex": 2},
                                       {"duration": 4, "displayIndex": 0}]},
            {"name": "mouth", "frame": [{"duration": 7, "displayIndex": 0},
                                        {"duration": 28, "displayIndex": 1},
                                        {"duration": 5, "displayIndex": 0}]},
        ],
        "ffd": [ffd_tl([ffd_key(20, cols, 2, amp=3.5, phase=0.5, lift=1.0),
                        ffd_key(20, cols, 2, amp=3.5, phase=0.5 + math.pi, lift=0.0)])],
    }


# ---------------------------------------------------------------------------------------------


def main(argv):
    out = os.path.dirname(os.path.abspath(__file__))
    parts = False
    args = argv[1:]
    while args:
        if args[0] == "--out" and len(args) > 1:
            out = args[1]
            args = args[2:]
        elif args[0] == "--parts":
            parts = True
            args = args[1:]
        else:
            print(__doc__.strip(), file=sys.stderr)
            return 1
    os.makedirs(out, exist_ok=True)

    images = {}
    joints = {}
    images["head"] = part_head(SHELL, TEAL)
    images["torso"] = part_torso(TEAL, rgb("#e9f3f1"), LIGHT_RED)
    images["pelvis"] = part_pelvis(STEEL_DARK)
    images["arm_upper"], joints["arm_upper"] = part_limb(ARM_UP_LEN, 8, 7, STEEL, STEEL_DARK)
    images["arm_lower"], joints["arm_lower"] = part_limb(ARM_LO_LEN, 7, 6, STEEL, STEEL_DARK)
    images["thigh"], joints["thigh"] = part_limb(THIGH_LEN, 9, 8, STEEL, STEEL_DARK)
    images["shin"], joints["shin"] = part_limb(SHIN_LEN, 8, 7.5, STEEL, STEEL_DARK)
    images["hand"] = part_hand(TEAL)
    images["foot"] = part_foot(TEAL, TEAL_DARK)
    images["antenna"] = part_antenna()
    images["antenna_light"] = part_antenna_light()
    images["eyes_open"] = part_eyes("open")
    images["eyes_blink"] = part_eyes("blink")
    images["eyes_happy"] = part_eyes("happy")
    images["mouth_smile"] = part_mouth("smile")
    images["mouth_open"] = part_mouth("open")
    images["scarf_wrap"] = part_scarf_wrap()
    images["scarf_tail"] = part_scarf_tail()
    # the "copper" skin
    images["copper/head"] = part_head(COPPER, BRASS)
    images["copper/torso"] = part_torso(COPPER_DARK, rgb("#f6e7c8"), BRASS)
    images["copper/pelvis"] = part_pelvis(COPPER_DARK)
    images["copper/hand"] = part_hand(COPPER)
    images["copper/foot"] = part_foot(COPPER, COPPER_DARK)

    for n, c in images.items() if parts else ():
        os.makedirs(os.path.join(out, "parts"), exist_ok=True)
        write_png(os.path.join(out, "parts", n.replace("/", "_") + ".png"), c.w, c.h, c.to_rgba8())

    rects, pw, ph = pack(images)
    write_png(os.path.join(out, "demo_tex.png"), pw, ph, blit_atlas(images, rects, pw, ph))
    atlas = {"name": "demo", "imagePath": "demo_tex.png", "width": pw, "height": ph,
             "SubTexture": [{"name": n, "x": rects[n][0], "y": rects[n][1],
                             "width": rects[n][2], "height": rects[n][3]} for n in images]}
    with open(os.path.join(out, "demo_tex.json"), "w") as f:
        json.dump(atlas, f, indent=1)
        f.write("\n")

    sizes = {n: (c.w, c.h) for n, c in images.items()}
    sizes["_joint"] = joints
    rig = build_rig(rects, sizes)
    with open(os.path.join(out, "demo_ske.json"), "w") as f:
        json.dump(rig, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {len(images)} parts, atlas {pw}x{ph}, rig with "
          f"{len(rig['armature'][0]['bone'])} bones to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
