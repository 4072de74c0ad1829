#!/usr/bin/env python3
"""Draws the art of examples/xml/cat.xml (python3 stdlib only: zlib + struct).

Run it from anywhere: it writes the PNGs next to itself. Two skins: the ginger cat and a bigger
black cat whose images have other sizes, so the rig's anchored joints matter.
"""
import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def write_png(path, w, h, pixels):
    """pixels: list of rows, each a list of (r, g, b, a)."""
    raw = bytearray()
    for row in pixels:
        raw.append(0)
        for r, g, b, a in row:
            raw += bytes((r, g, b, a))

    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")
    with open(os.path.join(HERE, path), "wb") as f:
        f.write(png)


def canvas(w, h):
    return [[(0, 0, 0, 0) for _ in range(w)] for _ in range(h)]


def ellipse(px, cx, cy, rx, ry, fill, outline=(40, 30, 30, 255), width=1.5):
    h, w = len(px), len(px[0])
    for y in range(h):
        for x in range(w):
            dx, dy = (x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry
            d = math.hypot(dx, dy)
            if d <= 1.0:
                edge = (1.0 - d) * min(rx, ry)
                px[y][x] = outline if edge < width else fill


def triangle(px, pts, fill):
    (x0, y0), (x1, y1), (x2, y2) = pts
    h, w = len(px), len(px[0])
    for y in range(h):
        for x in range(w):
            X, Y = x + 0.5, y + 0.5
            d0 = (x1 - x0) * (Y - y0) - (y1 - y0) * (X - x0)
            d1 = (x2 - x1) * (Y - y1) - (y2 - y1) * (X - x1)
            d2 = (x0 - x2) * (Y - y2) - (y0 - y2) * (X - x2)
            if (d0 >= 0 and d1 >= 0 and d2 >= 0) or (d0 <= 0 and d1 <= 0 and d2 <= 0):
                px[y][x] = fill


def body(w, h, fur, belly):
    px = canvas(w, h)
    ellipse(px, w / 2, h / 2, w / 2 - 0.5, h / 2 - 0.5, fur)
    ellipse(px, w / 2, h * 0.62, w * 0.28, h * 0.3, belly, outline=belly)
    return px


def lids(w, h, fur):
    """Closed eyelids: two fur-coloured ovals with a dark lash line."""
    px = canvas(w, h)
    for cx in (w * 0.2, w * 0.8):
        ellipse(px, cx, h / 2, w * 0.2, h / 2 - 0.5, fur, outline=fur)
        for x in range(int(cx - w * 0.17), int(cx + w * 0.17) + 1):
            px[h // 2][x] = (20, 20, 20, 255)
    return px


def head(w, h, fur, eyes_open=True):
    px = canvas(w, h)
    ear = (40, 30, 30, 255)
    triangle(px, [(w * 0.08, h * 0.45), (w * 0.2, 0), (w * 0.42, h * 0.3)], ear)
    triangle(px, [(w * 0.92, h * 0.45), (w * 0.8, 0), (w * 0.58, h * 0.3)], ear)
    ellipse(px, w / 2, h * 0.6, w / 2 - 0.5, h * 0.4 - 0.5, fur)
    eye = (250, 220, 60, 255) if eyes_open else (40, 30, 30, 255)
    for ex in (0.33, 0.67):
        if eyes_open:
            ellipse(px, w * ex, h * 0.55, w * 0.08, h * 0.09, eye, outline=(20, 20, 20, 255), width=1)
        else:
            for x in range(int(w * ex - w * 0.08), int(w * ex + w * 0.08) + 1):
                px[int(h * 0.56)][x] = eye
    ellipse(px, w / 2, h * 0.72, w * 0.05, h * 0.04, (230, 110, 130, 255), outline=(230, 110, 130, 255))
    return px


def limb(w, h, fur):
    px = canvas(w, h)
    ellipse(px, w / 2, h / 2, w / 2 - 0.5, h / 2 - 0.5, fur)
    ellipse(px, w / 2, h - w / 2, w / 2 - 1.5, w / 2 - 1.5, (245, 240, 235, 255), outline=(40, 30, 30, 255))
    return px


GINGER, CREAM = (235, 140, 50, 255), (250, 215, 160, 255)
BLACK, GREY = (45, 45, 55, 255), (110, 110, 125, 255)

ART = {
    # the ginger cat (the document as written)
    "body.png": (60, 50, lambda w, h: body(w, h, GINGER, CREAM)),
    "head.png": (44, 38, lambda w, h: head(w, h, GINGER)),
    "eyelids.png": (30, 9, lambda w, h: lids(w, h, GINGER)),
    "paw.png": (14, 30, lambda w, h: limb(w, h, GINGER)),
    "tail.png": (12, 40, lambda w, h: limb(w, h, GINGER)),
    # the black cat (skin "black"): bigger pieces
    "black/body.png": (72, 58, lambda w, h: body(w, h, BLACK, GREY)),
    "black/head.png": (52, 44, lambda w, h: head(w, h, BLACK)),
    "black/eyelids.png": (36, 11, lambda w, h: lids(w, h, BLACK)),
    "black/paw.png": (16, 36, lambda w, h: limb(w, h, BLACK)),
    "black/tail.png": (14, 48, lambda w, h: limb(w, h, BLACK)),
}

if __name__ == "__main__":
    os.makedirs(os.path.join(HERE, "black"), exist_ok=True)
    for name, (w, h, draw) in ART.items():
        write_png(name, w, h, draw(w, h))
        print(name, f"{w}x{h}")
