#!/usr/bin/env python3
"""The player for artists (<sinew-player>, build-web/index.html) in headless Chromium, driven by
tests/web/player_driver.mjs, against `sinew render` of the same frames. The repository's own rigs
(the demo, Pip 5.5, Pip 5.5 as DBBin, the Pip XML rig); with ../shared, shared characters join
the crowd page.

- players: 30 <sinew-player> elements on one page, each paused on its rig's frame K, each
  canvas's picture against `sinew render --frame K --size 160x120 --background C` (every
  fourth player 200x100) (PSNR >=
  MIN_PSNR); the page made one WebGL context, none was lost, no console warning about contexts;
  the context lost and restored on purpose, six players draw the same again; then all 30 play
  and every one moves on.
- export: the PNG zip, GIF and (where Chromium's MediaRecorder can) WebM buttons of a player
  with a transparent background; the downloaded zip parsed by Python's zipfile and its PNGs
  decoded by testkit's reader, the GIF and WebM decoded by ffmpeg; each frame K against
  `sinew render` of the whole animation (composited over C; alpha compared apart).
- pma: a copy of the demo whose page is premultiplied and whose atlas says "premultipliedAlpha":
  the toggle comes up on and the frame is `sinew render`'s of the straight original; toggled off
  it is not; the straight demo forced to pma=true is not either.
- url: the Link button's URL, opened, restores armature, animation, skin, speed, zoom, fit, pan
  and the paused frame (the same picture); for the demo (skin copper) and Pip 5.5 (armature rotor).
- fit: "all animations" frames every frame of every animation inside the canvas with its 4-pixel
  margin (`sinew render --scale S --origin X,Y` of all of them), the same view for each; "this
  animation" differs between them.
Any page error, console error, failed request or HTTP error fails the job it happened in.
"""
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import zipfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import BUILD, CORPUS, SRC, check, corpus_path, finish, have_shared, read_png, run_sinew, skip  # noqa: E402
from webpage import NODE_MODULES, WEB, need, rel_url, serve  # noqa: E402

OUT = os.path.join(BUILD, "web-player")
BG = "203040"
MIN_PSNR = 42.0      # the players' 160x120 and 200x100 canvases; measured 44.4 (Pip DBBin) to 55.7 dB (docs/web.md)
MIN_PNG_PSNR = 50.0  # the zip's frames (lossless PNGs of the WebGL frames); measured 52.6 dB
MIN_GIF_PSNR = 38.0  # 255 colours, no dithering; measured 41.9 dB
MIN_WEBM_PSNR = 34.0  # VP9 at 8 Mbit/s; measured 36.5 dB (alpha 48)
MAX_WRONG_PMA_PSNR = 42.0  # a page premultiplied twice (measured 39.2 dB), or not at all (38.5 dB)
DEMO = os.path.join(SRC, "examples", "demo")
PIP = os.path.join(SRC, "tests", "fixtures", "own", "Pip_5.5")
PIP_XML = os.path.join(SRC, "tests", "fixtures", "own", "Pip_xml", "pip.xml")
PLAYER = "document.querySelector('sinew-player')"
UI = PLAYER + ".shadowRoot.querySelector('{}')"
READY = f"(() => {{ const p = {PLAYER}; return p && (p.error || (p.instance && p.dataset.frame !== undefined)) && document.body.dataset.ready === '1'; }})()"


def render(name, ske, atlas, args, out):
    r = run_sinew("render", ske, *(["--atlas", atlas] if atlas else []), *args, "--out", out)
    check(r.returncode == 0, f"{name}: sinew render {' '.join(args)}: {r.stderr.strip()[:300]}")
    return r.returncode == 0


def over(img, bg):
    """An RGBA image composited over an opaque colour (straight alpha): (w, h, RGBA)."""
    w, h, px = img
    out, alpha = bytearray(b"\xff" * len(px)), px[3::4]
    for k in range(3):
        out[k::4] = bytes([(c * a + bg[k] * (255 - a) + 127) // 255 for c, a in zip(px[k::4], alpha)])
    return w, h, bytes(out)


def _psnr(se, n):
    return 99.0 if se == 0 else 10 * math.log10(255 * 255 * n / se)


def psnr(a, b, channels=(0, 1, 2)):
    """PSNR (dB) of two images' channels (RGB by default; as webpage.psnr, faster)."""
    if a[:2] != b[:2]:
        return -1.0
    se = sum(sum((x - y) * (x - y) for x, y in zip(a[2][k::4], b[2][k::4])) for k in channels)
    return _psnr(se, a[0] * a[1] * len(channels))


def alpha_psnr(a, b):
    return psnr(a, b, (3,))


def ffmpeg_frames(path, size, extra=()):
    """Every frame ffmpeg decodes from path, as (w, h, RGBA) images."""
    r = subprocess.run(["ffmpeg", "-v", "error", *extra, "-i", path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgba", "-"],
                       capture_output=True, timeout=120)
    if not check(r.returncode == 0, f"ffmpeg could not decode {os.path.basename(path)}: {r.stderr.decode()[-300:]}"):
        return []
    n = size[0] * size[1] * 4
    return [(size[0], size[1], r.stdout[i:i + n]) for i in range(0, len(r.stdout) - n + 1, n)]


def gif_timing(path):
    """The GIF's blocks walked: (frame delays in 1/100 s, their disposal methods, loops forever)."""
    d = open(path, "rb").read()
    pos = 13 + (3 << ((d[10] & 7) + 1) if d[10] & 0x80 else 0)
    delays, disposals, loops = [], [], False

    def blocks(p):
        data = b""
        while d[p]:
            data, p = data + d[p + 1:p + 1 + d[p]], p + 1 + d[p]
        return data, p + 1
    while pos < len(d) and d[pos] != 0x3B:
        if d[pos] == 0x21:
            label, (body, pos) = d[pos + 1], blocks(pos + 2)
            if label == 0xF9:
                delays.append(body[1] | body[2] << 8)
                disposals.append(body[0] >> 2 & 7)
            elif label == 0xFF and body[:11] == b"NETSCAPE2.0":
                loops = body[12] | body[13] << 8 == 0
        elif d[pos] == 0x2C:
            flags = d[pos + 9]
            pos += 10 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0) + 1
            _, pos = blocks(pos)
        else:
            raise ValueError(f"{path}: byte {pos}: not a GIF block ({d[pos]:#x})")
    return delays, disposals, loops


def write_png(path, w, h, rgba):
    raw = b"".join(b"\0" + rgba[y * w * 4:(y + 1) * w * 4] for y in range(h))

    def chunk(tag, body):
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def rgb(hexcolour):
    return [int(hexcolour[i:i + 2], 16) for i in (0, 2, 4)]


# ---- the 30 players --------------------------------------------------------------------------------

def crowd_rigs():
    """(name, skeleton, atlas, armature, animation, frames) of the crowd page's rigs."""
    dbbin = os.path.join(OUT, "dbbin", "pip_ske.dbbin")
    shutil.rmtree(os.path.dirname(dbbin), ignore_errors=True)
    rigs = [("demo", os.path.join(DEMO, "demo_ske.json"), os.path.join(DEMO, "demo_tex.json"), "Bolt", "walk"),
            ("demo_wave", os.path.join(DEMO, "demo_ske.json"), os.path.join(DEMO, "demo_tex.json"), "Bolt", "wave"),
            ("Pip_5.5", os.path.join(PIP, "pip_ske.json"), os.path.join(PIP, "pip_tex.json"), "pip", "hop"),
            ("Pip_rotor", os.path.join(PIP, "pip_ske.json"), os.path.join(PIP, "pip_tex.json"), "rotor", "spin"),
            ("Pip_xml", PIP_XML, None, "pip", "flap")]
    r = run_sinew("convert", rigs[2][1], "--to", "dbbin", "--out", os.path.dirname(dbbin), "--name", "pip")
    if check(r.returncode == 0, f"sinew convert --to dbbin: {r.stderr.strip()[:300]}"):
        rigs.append(("Pip_dbbin", dbbin, rigs[2][2], "pip", "idle"))
    if not have_shared():
        skip(3, "shared characters among the 30 players (against sinew render)")
    else:  # the first armature of three shared characters, its first animation of 2 frames or more
        for name in sorted(CORPUS)[:3]:
            ske, atlas = corpus_path(name, 0), corpus_path(name, 1)
            info = run_sinew("info", ske, "--atlas", atlas, "--json") if atlas else None
            if info is not None and info.returncode == 0:
                arm = json.loads(info.stdout)["armatures"][0]
                anims = [a for a in arm["animations"] if a["frames"] >= 2]
                if anims:
                    rigs.append((name, ske, atlas, arm["name"], anims[0]["name"]))
    out = []
    for name, ske, atlas, arm, anim in rigs:
        info = run_sinew("info", ske, *(["--atlas", atlas] if atlas else []), "--json")
        if check(info.returncode == 0, f"{name}: sinew info: {info.stderr.strip()[:200]}"):
            a = [x for x in json.loads(info.stdout)["armatures"] if x["name"] == arm][0]
            out.append((name, ske, atlas, arm, anim, [x for x in a["animations"] if x["name"] == anim][0]["frames"]))
    return out


def crowd_job(base):
    rigs, players, refs = crowd_rigs(), [], {}
    tags = []
    for i in range(30):
        name, ske, atlas, arm, anim, frames = rigs[i % len(rigs)]
        k = (i * 7) % frames
        size = (200, 100) if i % 4 == 3 else (160, 120)  # the shared canvas is resized between players
        ref = os.path.join(OUT, f"crowd_{name}_{k}_{size[0]}.render.png")
        if ref not in refs.values() and not render(name, ske, atlas, ["--armature", arm, "--animation", anim, "--frame", str(k),
                                                                      "--size", "%dx%d" % size, "--background", "#" + BG], ref):
            continue
        refs[i] = ref
        att = f' atlas="{rel_url(atlas, OUT)}"' if atlas else ""
        tags.append(f'<sinew-player id="p{i}" src="{rel_url(ske, OUT)}"{att} armature="{arm}" animation="{anim}" frame="{k}" '
                    f'width="{size[0]}" height="{size[1]}" background="{BG}"></sinew-player>')
        players.append((i, name, k))
    with open(os.path.join(OUT, "crowd.html"), "w", encoding="utf-8") as f:
        f.write('<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>30 players</title>'
                '<link rel="icon" href="data:,"><script type="module" src="/player.mjs"></script>'
                '<style>body { margin: 0; } sinew-player { margin: 1px; }</style></head>\n<body>\n'
                + "\n".join(tags) + "\n</body></html>\n")
    every = "[...document.querySelectorAll('sinew-player')]"
    steps = [{"wait": f"{every}.length === {len(players)} && {every}.every((p) => p.error || (p.instance && p.dataset.frame !== undefined))",
              "timeout": 90000},
             {"eval": f"{every}.map((p) => p.error ? String(p.error) : null).filter(Boolean)", "key": "errors"}]
    for i, name, k in players:
        steps.append({"shot": f"#p{i} >>> canvas.gl", "out": os.path.join(OUT, f"crowd_{i}.png")})
    steps.append({"eval": "({ ...window.__gl })", "key": "gl"})
    # the shared context lost and restored (WEBGL_lose_context): every player uploads its pages
    # again and draws the same picture
    renderer = "document.querySelector('sinew-player').renderer"
    steps += [{"eval": f"(() => {{ window.__old = {renderer}; window.__lose = window.__old.gl.getExtension('WEBGL_lose_context'); "
                       "window.__lose.loseContext(); })()"},
              {"wait": f"{renderer}.gl.isContextLost()"}, {"eval": "window.__lose.restoreContext()"},
              {"wait": f"{renderer} !== window.__old && !{renderer}.gl.isContextLost()"},
              {"eval": "({ ...window.__gl })", "key": "glRestored"},
              {"eval": f"{every}.slice(0, {LOST_SHOTS}).forEach((p) => p.seek(p.frame))"}]  # drawn afresh, not the old picture
    for i, name, k in players[:LOST_SHOTS]:
        steps.append({"shot": f"#p{i} >>> canvas.gl", "out": os.path.join(OUT, f"crowd_{i}.restored.png")})
    # a player taken off the page gives its textures back; put back, it draws as before
    steps += [{"eval": "(() => { const p = document.getElementById('p0'); p.remove(); const n = p._textures.length; "
                       "document.body.appendChild(p); p.seek(p.frame); return [n, p._textures.length]; })()", "key": "detached"},
              {"shot": "#p0 >>> canvas.gl", "out": os.path.join(OUT, "crowd_0.reattached.png")}]
    steps += [{"eval": f"{every}.map((p) => p.time)", "key": "before"},
              {"eval": f"{every}.forEach((p) => p.play())"}, {"sleep": 1500},
              {"eval": f"{every}.map((p) => p.time)", "key": "after"}]
    init = """window.__gl = { contexts: 0, lost: 0 };
const get = HTMLCanvasElement.prototype.getContext;
HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
  const ctx = get.call(this, type, ...rest);
  if (ctx && /webgl/.test(type) && !this.__sinewCounted) {
    this.__sinewCounted = true;
    window.__gl.contexts++;
    this.addEventListener('webglcontextlost', () => window.__gl.lost++);
  }
  return ctx;
};"""
    return {"name": "players", "url": f"{base}/out/crowd.html", "init": init, "steps": steps, "viewport": [1100, 800]}, players, refs


LOST_SHOTS = 6  # players screenshot again after the shared context was lost and restored


def check_crowd(res, players, refs):
    gl = res["texts"].get("gl") or {}
    check(gl.get("contexts") == 1, f"players: {len(players)} players made {gl.get('contexts')} WebGL contexts (want 1)")
    check(gl.get("lost") == 0, f"players: {gl.get('lost')} WebGL contexts were lost")
    # Chromium's "Too many active WebGL contexts. Oldest context will be lost." and the like (its
    # "GPU stall due to ReadPixels" notes are not about contexts)
    lost = [w for w in res["warnings"] if re.search(r"context|lost", w, re.I)]
    check(not lost, f"players: console warnings: {lost[:3]}")
    check(not res["texts"].get("errors"), f"players: errors shown: {res['texts'].get('errors')}")
    worst, by_rig = 99.0, {}
    for i, name, k in players:
        shot = os.path.join(OUT, f"crowd_{i}.png")
        if not check(os.path.exists(shot), f"players: #p{i} ({name}): no screenshot"):
            continue
        p = psnr(read_png(shot), read_png(refs[i]))
        worst = min(worst, p)
        by_rig[name] = min(by_rig.get(name, 99.0), p)
        check(p >= MIN_PSNR, f"players: #p{i} ({name}, frame {k}) differs from sinew render: PSNR {p:.1f} dB < {MIN_PSNR}")
    print(f"players: {len(players)} players, {gl.get('contexts')} WebGL context(s): the worst PSNR against sinew render {worst:.1f} dB",
          flush=True)
    print("players: the worst PSNR by rig: " + ", ".join(f"{n} {p:.1f}" for n, p in by_rig.items()), flush=True)
    restored = res["texts"].get("glRestored") or {}
    check(restored.get("lost") == 1 and restored.get("contexts") == 1, f"players: the context lost on purpose: {restored}")
    for i, name, k in players[:LOST_SHOTS]:
        shot = os.path.join(OUT, f"crowd_{i}.restored.png")
        p = psnr(read_png(shot), read_png(refs[i])) if os.path.exists(shot) else -1.0
        check(p >= MIN_PSNR, f"players: #p{i} ({name}) after the context was restored: PSNR {p:.1f} dB < {MIN_PSNR}")
    detached = res["texts"].get("detached")
    check(detached and detached[0] == 0 and detached[1] > 0, f"players: #p0's textures off the page and back: {detached}")
    shot = os.path.join(OUT, "crowd_0.reattached.png")
    p = psnr(read_png(shot), read_png(refs[0])) if os.path.exists(shot) else -1.0
    check(p >= MIN_PSNR, f"players: #p0 put back on the page: PSNR {p:.1f} dB < {MIN_PSNR}")
    before, after = res["texts"].get("before") or [], res["texts"].get("after") or []
    moved = sum(1 for a, b in zip(before, after) if a is not None and b is not None and b > a)
    check(len(after) == len(players) and moved == len(players), f"players: {moved} of {len(players)} moved on when played")


# ---- export ----------------------------------------------------------------------------------------

EXPORT_SIZE = (200, 150)


def export_job(base):
    ske, atlas = os.path.join(DEMO, "demo_ske.json"), os.path.join(DEMO, "demo_tex.json")
    q = f"ske={rel_url(ske)}&tex={rel_url(atlas)}&animation=walk&size={EXPORT_SIZE[0]}x{EXPORT_SIZE[1]}&controls=1"
    steps = [{"wait": READY}, {"eval": f"!{UI.format('[name=exportWebm]')}.hidden", "key": "webm"},
             {"download": f"{UI.format('[name=exportZip]')}.click()", "key": "zip"},
             {"download": f"{UI.format('[name=exportGif]')}.click()", "key": "gif"},
             {"eval": f"{UI.format('[name=status]')}.value", "key": "status"}]
    steps.append({"if": f"!{UI.format('[name=exportWebm]')}.hidden", "download": f"{UI.format('[name=exportWebm]')}.click()",
                  "key": "webmFile", "timeout": 30000})
    return {"name": "export", "url": f"{base}/index.html?{q}", "steps": steps, "downloads": os.path.join(OUT, "downloads")}


def check_export(res):
    ske = os.path.join(DEMO, "demo_ske.json")
    refdir = os.path.join(OUT, "export-ref")
    shutil.rmtree(refdir, ignore_errors=True)
    os.makedirs(refdir)
    if not render("export", ske, None, ["--animation", "walk", "--size", "%dx%d" % EXPORT_SIZE], os.path.join(refdir, "f_%04d.png")):
        return
    refs = [read_png(os.path.join(refdir, f)) for f in sorted(os.listdir(refdir))]
    bg = rgb(BG)
    refs_over = [over(r, bg) for r in refs]
    t = res["texts"]

    def compare(kind, frames, minimum, alpha=True):
        if not check(len(frames) == len(refs), f"export {kind}: {len(frames)} frames, sinew render has {len(refs)}"):
            return
        rgb_p = [psnr(over(f, bg), r) for f, r in zip(frames, refs_over)]
        a_p = [alpha_psnr(f, r) for f, r in zip(frames, refs)] if alpha else [99.0]
        print(f"export {kind}: {len(frames)} frames, PSNR against sinew render: colour min {min(rgb_p):.1f} / mean "
              f"{sum(rgb_p) / len(rgb_p):.1f} dB, alpha min {min(a_p):.1f} dB", flush=True)
        check(min(rgb_p) >= minimum and min(a_p) >= minimum,
              f"export {kind}: frame {rgb_p.index(min(rgb_p))} differs from sinew render: {min(rgb_p):.1f} dB (alpha {min(a_p):.1f}) < {minimum}")

    if check(t.get("zip") and os.path.exists(t["zip"]), f"export: no zip downloaded ({t.get('zip')})"):
        with zipfile.ZipFile(t["zip"]) as z:
            check(z.testzip() is None, "export zip: a CRC does not match")
            names = z.namelist()
            check(names == [f"Bolt_walk_{k:04d}.png" for k in range(len(names))], f"export zip: names {names[:3]}...")
            frames = []
            for n in names:
                path = os.path.join(OUT, "zip-" + n)
                with open(path, "wb") as f:
                    f.write(z.read(n))
                frames.append(read_png(path))
        compare("PNG zip", frames, MIN_PNG_PSNR)
    if check(t.get("gif") and os.path.exists(t["gif"]), f"export: no GIF downloaded ({t.get('gif')})"):
        gif = ffmpeg_frames(t["gif"], EXPORT_SIZE)
        compare("GIF", gif, MIN_GIF_PSNR, alpha=False)
        delays, disposals, loops = gif_timing(t["gif"])
        check(sum(delays) == round(len(refs) * 100 / 24) and max(delays) - min(delays) <= 1 and set(disposals) == {2} and loops,
              f"export GIF: delays {delays} (1/100 s; walk is {len(refs)} frames at 24 fps), disposal {set(disposals)}, loops {loops}")
        if gif:  # 1-bit transparency: alpha 0 where sinew render's is below 128, 255 where it is 128 or more
            w, h, px = gif[0]
            ref = refs[0][2]
            wrong = sum(1 for i in range(3, len(px), 4) if (px[i] >= 128) != (ref[i] >= 128))
            check(wrong <= len(px) // 4 // 200, f"export GIF: {wrong} pixels' transparency differs from sinew render's frame 0")
    if t.get("webm"):
        path = t.get("webmFile")
        if check(path and path.endswith(".webm") and os.path.exists(path), f"export: no WebM downloaded ({path})"):
            frames = ffmpeg_frames(path, EXPORT_SIZE, ["-c:v", "libvpx-vp9"] if open(path, "rb").read().find(b"V_VP9") >= 0 else ["-c:v", "libvpx"])
            # recorded in real time: a busy machine drops frames, so each decoded frame is matched
            # with the render frame it is closest to, and those must come in order
            check(len(frames) >= len(refs) // 3, f"export WebM: {len(frames)} frames for {len(refs)}")
            if frames:
                match = []
                for f in frames:
                    ps = [psnr(over(f, bg), r) for r in refs_over]
                    match.append(max(range(len(ps)), key=lambda i: ps[i]))
                    match[-1] = (match[-1], ps[match[-1]], alpha_psnr(f, refs[match[-1]]))
                worst, alpha = min(m[1] for m in match), min(m[2] for m in match)
                print(f"export WebM: {len(frames)} of {len(refs)} frames decoded (real time); each against its closest render "
                      f"frame: colour min {worst:.1f} dB, alpha min {alpha:.1f} dB", flush=True)
                check(worst >= MIN_WEBM_PSNR and alpha >= MIN_WEBM_PSNR, f"export WebM: a frame matches no sinew render frame "
                      f"({worst:.1f} dB, alpha {alpha:.1f} dB)")
                order = [m[0] for m in match]
                check(order == sorted(order), f"export WebM: the frames are out of order: {order}")
    else:
        print("export WebM: this Chromium's MediaRecorder records no WebM: the button is hidden", flush=True)


# ---- premultiplied alpha ----------------------------------------------------------------------------

PMA_SIZE, PMA_FRAME = (400, 300), 5


def pma_rig():
    """A copy of the demo whose page is premultiplied ((c * a + 127) / 255, as `sinew render --sheet
    --premultiplied` writes) and whose atlas says so."""
    folder = os.path.join(OUT, "pma")
    os.makedirs(folder)
    shutil.copyfile(os.path.join(DEMO, "demo_ske.json"), os.path.join(folder, "demo_ske.json"))
    with open(os.path.join(DEMO, "demo_tex.json"), encoding="utf-8") as f:
        tex = json.load(f)
    tex["premultipliedAlpha"] = True
    with open(os.path.join(folder, "demo_tex.json"), "w", encoding="utf-8") as f:
        json.dump(tex, f)
    w, h, px = read_png(os.path.join(DEMO, tex["imagePath"]))
    pm, alpha = bytearray(px), px[3::4]
    for k in range(3):
        pm[k::4] = bytes([(c * a + 127) // 255 for c, a in zip(px[k::4], alpha)])
    write_png(os.path.join(folder, tex["imagePath"]), w, h, bytes(pm))
    return os.path.join(folder, "demo_ske.json"), os.path.join(folder, "demo_tex.json")


def pma_jobs(base):
    ske, atlas = pma_rig()
    q = f"animation=walk&frame={PMA_FRAME}&size={PMA_SIZE[0]}x{PMA_SIZE[1]}&background={BG}&controls=1"
    toggle = f"(() => {{ const c = {UI.format('[name=pma]')}; c.checked = !c.checked; c.dispatchEvent(new Event('change')); }})()"
    flag = f"[{UI.format('[name=pma]')}.checked, {PLAYER}.premultipliedAlpha]"
    shot = "sinew-player >>> canvas.gl"
    premultiplied = {"name": "pma", "url": f"{base}/index.html?ske={rel_url(ske, OUT)}&tex={rel_url(atlas, OUT)}&{q}", "steps": [
        {"wait": READY}, {"eval": flag, "key": "auto"}, {"shot": shot, "out": os.path.join(OUT, "pma_on.png")},
        {"eval": toggle}, {"wait": f"{PLAYER}.premultipliedAlpha === false"}, {"eval": flag, "key": "off"},
        {"shot": shot, "out": os.path.join(OUT, "pma_off.png")}]}
    demo = os.path.join(DEMO, "demo_ske.json")
    forced = {"name": "pma:forced", "url": f"{base}/index.html?ske={rel_url(demo)}&tex={rel_url(os.path.join(DEMO, 'demo_tex.json'))}&{q}&pma=true",
              "steps": [{"wait": READY}, {"eval": flag, "key": "auto"}, {"shot": shot, "out": os.path.join(OUT, "pma_forced.png")}]}
    return [premultiplied, forced]


def check_pma(results):
    ref = os.path.join(OUT, "pma.render.png")
    if not render("pma", os.path.join(DEMO, "demo_ske.json"), None, ["--animation", "walk", "--frame", str(PMA_FRAME), "--size",
                  "%dx%d" % PMA_SIZE, "--background", "#" + BG], ref):
        return
    want = read_png(ref)
    shots = {}
    for name in ("pma_on", "pma_off", "pma_forced"):
        path = os.path.join(OUT, name + ".png")
        shots[name] = psnr(read_png(path), want) if os.path.exists(path) else -1.0
    print("pma: PSNR against sinew render of the straight demo: premultiplied page, flag honoured %.1f dB; toggled off %.1f dB; "
          "the straight page taken as premultiplied %.1f dB" % (shots["pma_on"], shots["pma_off"], shots["pma_forced"]), flush=True)
    t = results.get("pma", {}).get("texts", {})
    check(t.get("auto") == [True, True], f"pma: the atlas's premultipliedAlpha does not set the toggle ({t.get('auto')})")
    check(t.get("off") == [False, False], f"pma: the toggle does not turn it off ({t.get('off')})")
    check((results.get("pma:forced", {}).get("texts", {}).get("auto")) == [True, True], "pma: pma=true does not set the toggle")
    check(shots["pma_on"] >= MIN_PSNR, f"pma: the premultiplied page differs from sinew render: {shots['pma_on']:.1f} dB < {MIN_PSNR}")
    check(shots["pma_off"] < MAX_WRONG_PMA_PSNR, f"pma: toggled off, the premultiplied page still matches: {shots['pma_off']:.1f} dB")
    check(shots["pma_forced"] < MAX_WRONG_PMA_PSNR, f"pma: a straight page taken as premultiplied still matches: {shots['pma_forced']:.1f} dB")


# ---- the shared link ----------------------------------------------------------------------------------

STATE = f"""(() => {{ const p = {PLAYER}, u = (s) => p.shadowRoot.querySelector(s);
  return {{ armature: u('[name=armature]').value, animation: p.animation, skin: u('[name=skin]').value, speed: p.speed,
    timeScale: p.instance.timeScale, zoom: u('[name=zoom]').value, fit: u('[name=fit]').value, pan: p.pan, frame: p.frame,
    playing: p.playing, view: p.view }}; }})()"""


def select(name, value):
    return {"eval": f"(() => {{ const s = {UI.format(f'[name={name}]')}; if (![...s.options].some((o) => o.value === '{value}')) "
                    f"throw new Error('no {value} in {name}'); s.value = '{value}'; s.dispatchEvent(new Event('change')); }})()"}


def url_job(base, name, ske, atlas, choices, pan, frame):
    steps = [{"wait": READY}]
    for key, value in choices:
        steps.append(select(key, value))
    steps.append({"eval": f"(() => {{ const s = {UI.format('[name=speed]')}; s.value = '0.5'; s.dispatchEvent(new Event('input')); }})()"})
    if pan:
        steps.append({"drag": "sinew-player >>> .stage", "by": pan})
    if frame is not None:
        steps += [{"eval": f"{PLAYER}.pause()"},
                  {"eval": f"(() => {{ const r = {UI.format('[name=frame]')}; r.value = '{frame}'; r.dispatchEvent(new Event('input')); }})()"},
                  {"shot": "sinew-player >>> canvas.gl", "out": os.path.join(OUT, f"{name}_before.png")}]
    steps += [{"eval": STATE, "key": "before"}, {"eval": f"{UI.format('[name=share]')}.click()"},
              {"eval": f"{UI.format('[name=shareURL]')}.value", "key": "link"}, {"goto": {"key": "link"}}, {"wait": READY}]
    if frame is not None:
        steps.append({"shot": "sinew-player >>> canvas.gl", "out": os.path.join(OUT, f"{name}_after.png")})
    steps.append({"eval": STATE, "key": "after"})
    q = f"ske={rel_url(ske)}&tex={rel_url(atlas)}&size=400x300&background={BG}&controls=1"
    return {"name": name, "url": f"{base}/index.html?{q}", "steps": steps}


def url_jobs(base):
    demo, pip = (os.path.join(DEMO, "demo_ske.json"), os.path.join(DEMO, "demo_tex.json")), (os.path.join(PIP, "pip_ske.json"), os.path.join(PIP, "pip_tex.json"))
    return [url_job(base, "url:demo", *demo, [("skin", "copper"), ("animation", "wave"), ("zoom", "2"), ("fit", "all")], [30, -20], 7),
            url_job(base, "url:pip", *pip, [("armature", "rotor"), ("animation", "spin"), ("zoom", "0.5")], None, None)]


def check_url(res, frame_given):
    t = res["texts"]
    before, after, link = t.get("before"), t.get("after"), t.get("link") or ""
    print(f"{res['name']}: {link.split('?', 1)[-1]}", flush=True)
    if not check(before and after, f"{res['name']}: no state read"):
        return
    for key in ("armature", "animation", "skin", "speed", "timeScale", "zoom", "fit", "pan", "playing") + (("frame",) if frame_given else ()):
        check(before[key] == after[key], f"{res['name']}: {key} {before[key]!r} came back as {after[key]!r}")
    check(all(abs(a - b) < 1e-3 for a, b in zip(before["view"], after["view"])), f"{res['name']}: view {before['view']} came back as {after['view']}")
    check(before["speed"] == 0.5 and before["zoom"] != "fit", f"{res['name']}: the controls did not change the state ({before})")
    # a playing player's frame: never before the start (it once read -3 when the first frame's
    # time preceded the call that started the loop)
    check(0 <= after["frame"] and 0 <= before["frame"], f"{res['name']}: frame {before['frame']} / {after['frame']}")
    if frame_given:
        a, b = os.path.join(OUT, f"{res['name']}_before.png"), os.path.join(OUT, f"{res['name']}_after.png")
        if check(os.path.exists(a) and os.path.exists(b), f"{res['name']}: no screenshots"):
            p = psnr(read_png(a), read_png(b))
            check(p >= 60, f"{res['name']}: the restored frame differs: {p:.1f} dB")


# ---- framing -------------------------------------------------------------------------------------------

FIT_SIZE = (200, 150)


def fit_job(base):
    ske, atlas = os.path.join(DEMO, "demo_ske.json"), os.path.join(DEMO, "demo_tex.json")
    steps = [{"wait": READY}]
    for fit in ("all", "animation"):
        steps.append(select("fit", fit))
        for anim in ("idle", "walk", "wave"):
            steps += [select("animation", anim), {"eval": f"{PLAYER}.view", "key": f"{fit}:{anim}"}]
    q = f"ske={rel_url(ske)}&tex={rel_url(atlas)}&size={FIT_SIZE[0]}x{FIT_SIZE[1]}&controls=1&fit=all"
    return {"name": "fit", "url": f"{base}/index.html?{q}", "steps": steps}


def alpha_box(img):
    """(x0, y0, x1, y1) of the pixels with alpha > 0 (x1, y1 exclusive), or None."""
    w, h, px = img
    alpha = px[3::4]
    box = None
    for y in range(h):
        row = alpha[y * w:(y + 1) * w]
        if row.count(0) == w:
            continue
        x0, x1 = w - len(row.lstrip(b"\0")), len(row.rstrip(b"\0"))
        box = (x0, y, x1, y + 1) if box is None else (min(box[0], x0), box[1], max(box[2], x1), y + 1)
    return box


def check_fit(res):
    t = res["texts"]
    anims = ("idle", "walk", "wave")
    views = [t.get(f"all:{a}") for a in anims]
    if not check(all(views), f"fit: views not read ({t})"):
        return
    check(all(max(abs(x - y) for x, y in zip(v, views[0])) < 1e-4 for v in views), f"fit all: the view changes with the animation: {views}")
    own = [t.get(f"animation:{a}") for a in anims]
    check(len({tuple(round(x, 3) for x in v) for v in own}) > 1, f"fit animation: every animation has the same view: {own}")
    s, tx, ty = views[0][0], views[0][4], views[0][5]
    refdir = os.path.join(OUT, "fit-ref")
    os.makedirs(refdir, exist_ok=True)
    if not render("fit", os.path.join(DEMO, "demo_ske.json"), None, ["--animation", "all", "--size", "%dx%d" % FIT_SIZE, "--scale", "%.6f" % s,
                  "--origin", "%.3f,%.3f" % (tx, ty)], os.path.join(refdir, "%a_%04d.png")):
        return
    union = None
    for a in anims:
        for img in ffmpeg_frames(os.path.join(refdir, a + "_%04d.png"), FIT_SIZE):
            b = alpha_box(img)
            if b:
                union = b if union is None else (min(union[0], b[0]), min(union[1], b[1]), max(union[2], b[2]), max(union[3], b[3]))
    w, h = FIT_SIZE
    margins = (union[0], union[1], w - union[2], h - union[3]) if union else None
    print(f"fit all: scale {s:.4f}; every frame of {len(anims)} animations drawn by sinew render at that view: margins {margins} px", flush=True)
    check(margins and min(margins) >= 2, f"fit all: a frame leaves the canvas or its margin: {margins}")
    check(margins and min(margins[0], margins[2]) <= 6 or min(margins[1], margins[3]) <= 6, f"fit all: not a tight fit: {margins}")


def main():
    need(("build-web/index.html (make web)", os.path.join(WEB, "index.html")))
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    server, base = serve(WEB, OUT)
    jobs = []
    crowd, players, refs = crowd_job(base)
    jobs.append(crowd)
    jobs.append(export_job(base))
    jobs += pma_jobs(base)
    jobs += url_jobs(base)
    jobs.append(fit_job(base))

    results = run_jobs(jobs)
    server.shutdown()
    if results is None:
        finish()
    for job in jobs:
        res = results.get(job["name"])
        if check(res is not None, f"{job['name']}: no result"):
            check(not res["problems"], f"{job['name']}: " + "; ".join(res["problems"][:5]))
    if results.get("players"):
        check_crowd(results["players"], players, refs)
    if results.get("export") and not results["export"]["problems"]:
        check_export(results["export"])
    check_pma(results)
    for name, framed in (("url:demo", True), ("url:pip", False)):
        if results.get(name):
            check_url(results[name], framed)
    if results.get("fit") and not results["fit"]["problems"]:
        check_fit(results["fit"])
    finish()


def run_jobs(jobs):
    jobs_file, results_file = os.path.join(OUT, "jobs.json"), os.path.join(OUT, "results.json")
    with open(jobs_file, "w", encoding="utf-8") as f:
        json.dump({"jobs": jobs}, f, indent=1)
    env = dict(os.environ, NODE_PATH=NODE_MODULES)
    r = subprocess.run(["node", os.path.join(SRC, "tests", "web", "player_driver.mjs"), jobs_file, results_file],
                       capture_output=True, text=True, env=env, timeout=600)
    if not check(r.returncode == 0 and os.path.exists(results_file), f"the player driver failed ({r.returncode}): {r.stderr.strip()[-800:]}"):
        return None
    with open(results_file, encoding="utf-8") as f:
        return {x["name"]: x for x in json.load(f)}


if __name__ == "__main__":
    main()
