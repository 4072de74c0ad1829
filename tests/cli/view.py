#!/usr/bin/env python3
"""`sinew view`: the preview window and --screenshot (docs/view.md).

- --screenshot draws render's frame through the GL backend: for the same options it matches
  `sinew render ... --out x.png` (PSNR >= 30 dB, composited over grey; same size) on the demo and
  the own Pip, with --size/--origin, --scale/--padding, --background, --skin and --frame, and on
  the 6.0 rigs of tests/fixtures/render6 (vector shapes, masks);
- the window, under Xvfb (xvfb-run; SDL's offscreen driver when Xvfb is not installed), paused,
  captured when it closes (--capture): a rig edited on disk while it runs is reloaded (the picture
  changes, stderr says so); a broken edit keeps the old picture and prints file:line:col: error;
- no display: exit 2 saying so; a bad file: exit 2 before any window.
Skipped when this sinew was built without the viewer (no SDL2 or GL headers).
"""
import json
import math
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import SINEW, SRC, check, finish, read_png, run_sinew, skip  # noqa: E402

# the GL drivers SDL loads leak at exit, out of LeakSanitizer's sight: no leak check here (the GL
# backend's own allocations are counted by backend.gl)
os.environ["ASAN_OPTIONS"] = os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
DEMO = os.path.join(SRC, "examples", "demo", "demo_ske.json")
PIP = os.path.join(SRC, "tests", "fixtures", "own", "Pip_5.0", "pip_ske.json")
R6 = os.path.join(SRC, "tests", "fixtures", "render6")
SHAPES6, MASKS6, TEX6 = (os.path.join(R6, f) for f in ("shapes6_ske.json", "masks6_ske.json", "render6_tex.json"))
tmp = tempfile.mkdtemp(prefix="sinew_view_")

probe = run_sinew("view", DEMO, "--screenshot", os.path.join(tmp, "probe.png"))
if "built without SDL2" in probe.stderr:
    skip(1, "sinew view", "this sinew was built without SDL2 and the GL backend")
    finish()


def psnr_over_grey(a, b, crop_bottom=0):
    wa, ha, pa = a
    wb, hb, pb = b
    if (wa, ha) != (wb, hb):
        return -1.0
    se, n = 0.0, 0
    ca, cb = len(pa) // (wa * ha), len(pb) // (wb * hb)
    for i in range(wa * (ha - crop_bottom)):
        fa = pa[i * ca + 3] / 255 if ca == 4 else 1.0
        fb = pb[i * cb + 3] / 255 if cb == 4 else 1.0
        for c in range(3):
            va = pa[i * ca + c] * fa + 128 * (1 - fa)
            vb = pb[i * cb + c] * fb + 128 * (1 - fb)
            se += (va - vb) ** 2
            n += 1
    return 99.0 if se == 0 else 10 * math.log10(255 ** 2 / (se / n))


# ---- --screenshot against render --------------------------------------------------------------
CASES = [
    (DEMO, ["--animation", "walk", "--frame", "6"]),
    (DEMO, ["--animation", "wave", "--frame", "10", "--size", "200x260", "--origin", "100,230"]),
    (DEMO, ["--animation", "idle", "--skin", "copper", "--scale", "0.5", "--padding", "10"]),
    (DEMO, ["--animation", "walk", "--frame", "3", "--background", "#336699"]),
    (PIP, ["--animation", "hop", "--frame", "8", "--size", "256x256"]),
    # 6.0 vector shapes (the GPU does not anti-alias them: 32.6-32.7 dB when added) and masks
    (SHAPES6, ["--atlas", TEX6, "--animation", "wave", "--frame", "6"]),
    (SHAPES6, ["--atlas", TEX6, "--animation", "bend", "--frame", "8"]),
    (MASKS6, ["--atlas", TEX6, "--animation", "move", "--frame", "6"]),
    (MASKS6, ["--atlas", TEX6, "--animation", "zorder", "--frame", "18"]),
]
for rig, opts in CASES:
    v, r = os.path.join(tmp, "v.png"), os.path.join(tmp, "r.png")
    rv = run_sinew("view", rig, *opts, "--screenshot", v)
    rr = run_sinew("render", rig, *opts, "--out", r)
    ok = rv.returncode == 0 and rr.returncode == 0
    p = psnr_over_grey(read_png(v), read_png(r)) if ok else -1
    check(ok and p >= 30.0, f"view --screenshot {' '.join(opts)} = render's frame: PSNR {p:.2f} dB "
          f"({rv.stderr.strip()[:200]} {rr.stderr.strip()[:200]})")
r = run_sinew("view", DEMO, "--animation", "walk", "--screenshot", os.path.join(tmp, "x.gif"))
check(r.returncode == 1 and ".png" in r.stderr, f"--screenshot wants one .png ({r.returncode}: {r.stderr.strip()[:160]})")

# ---- errors -----------------------------------------------------------------------------------
env = dict(os.environ)
for k in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
    env.pop(k, None)
r = subprocess.run([SINEW, "view", DEMO, "--quit-after", "5"], capture_output=True, text=True, env=env, timeout=60)
check(r.returncode == 2 and "no display" in r.stderr, f"no display: exit 2 saying so ({r.returncode}: {r.stderr.strip()[-200:]})")
r = run_sinew("view", os.path.join(SRC, "README.md"))
check(r.returncode == 2 and "error:" in r.stderr, f"a bad file: exit 2 ({r.returncode}: {r.stderr.strip()[:160]})")

# ---- the window: hot reload ---------------------------------------------------------------------
rig = os.path.join(tmp, "rig")
shutil.copytree(os.path.join(SRC, "examples", "demo"), rig)
ske = os.path.join(rig, "demo_ske.json")
original = open(ske).read()
if shutil.which("xvfb-run"):
    runner, how = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24"], "Xvfb"
else:
    runner, how = [], "SDL's offscreen driver"
    env["SDL_VIDEODRIVER"] = "offscreen"


def window(edit, capture, *extra):
    """Runs the viewer paused for 4 s; once it shows its first frame (it says so on stderr), waits
    0.5 s and writes EDIT (text) over the skeleton. Waiting for the viewer rather than for a fixed
    time keeps the test right on a slow machine (an edit before the first load is no reload)."""
    with open(ske, "w") as f:
        f.write(original)
    p = subprocess.Popen(runner + [SINEW, "view", ske, "--animation", "walk", "--paused", "--quit-after", "4",
                                   "--capture", capture, *extra], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True, env=env)
    early = ""
    if edit is not None:
        deadline = time.time() + 60
        while time.time() < deadline:
            ready, _, _ = select.select([p.stderr], [], [], 1.0)
            line = p.stderr.readline() if ready else ""
            early += line
            if "showing" in line or (ready and line == ""):  # shown, or it ended
                break
        time.sleep(0.5)
        with open(ske + ".tmp", "w") as f:
            f.write(edit)
        os.replace(ske + ".tmp", ske)
    _, err = p.communicate(timeout=120)
    return p.returncode, early + err


moved = json.loads(original)
for b in moved["armature"][0]["bone"]:
    if "parent" not in b:  # the root bone: move it well to the side
        b.setdefault("transform", {})["x"] = b.get("transform", {}).get("x", 0) + 150
a_png, b_png, c_png = (os.path.join(tmp, n) for n in ("a.png", "b.png", "c.png"))
rc_a, err_a = window(None, a_png)
rc_b, err_b = window(json.dumps(moved), b_png)
rc_c, err_c = window(original[: len(original) // 2], c_png)
check(rc_a == 0 and os.path.exists(a_png), f"the window runs under {how} and is captured ({rc_a}: {err_a[-300:]})")
check(rc_b == 0 and "reloaded" in err_b, f"an edit on disk is reloaded ({rc_b}: {err_b[-300:]})")
if os.path.exists(a_png) and os.path.exists(b_png):
    p = psnr_over_grey(read_png(a_png), read_png(b_png), crop_bottom=30)
    check(p < 25.0, f"... and the new pose shows (PSNR against the old picture {p:.1f} dB)")
else:  # no capture to compare is a failure, not a check left out
    check(False, f"... and the new pose shows: a capture is missing ({a_png}, {b_png})")
check(rc_c == 0 and "error:" in err_c and ":" in err_c.split("error:")[0], f"a broken edit prints file:line:col: error: ({err_c[-300:]})")
if os.path.exists(a_png) and os.path.exists(c_png):
    p = psnr_over_grey(read_png(a_png), read_png(c_png), crop_bottom=30)
    check(p >= 40.0, f"... and the old pose stays (PSNR {p:.1f} dB above the status line)")
else:
    check(False, f"... and the old pose stays: a capture is missing ({a_png}, {c_png})")
# overlays: bones, wireframe and bounds drawn over the same pose
d_png = os.path.join(tmp, "d.png")
rc_d, err_d = window(None, d_png, "--show", "bones,wireframe,bounds")
if rc_d == 0 and os.path.exists(a_png) and os.path.exists(d_png):
    p = psnr_over_grey(read_png(a_png), read_png(d_png), crop_bottom=30)
    check(p < 35.0, f"--show bones,wireframe,bounds draws the overlays (PSNR against the plain picture {p:.1f} dB)")
else:
    check(False, f"the window with overlays ({rc_d}: {err_d[-300:]})")
r = run_sinew("view", DEMO, "--show", "teapots")
check(r.returncode == 1, f"--show with nothing it knows is a usage error ({r.returncode})")
shutil.rmtree(tmp)
finish()
