#!/usr/bin/env python3
"""GPL only by choice: the default build's GIF palettes (sinew's own quantizer, MIT) are within
1 dB PSNR of libimagequant's on every character, and nothing it links is GPL.

1. `sinew version` names the quantizer; with the default one (sinew, MIT) neither the sinew binary
   nor libsinew.so links libimagequant (ldd).
2. For every shared character with an atlas (Robot ships none; the armature and animation that
   make bench-compare uses, at 8 fps; without ../shared the project's own Pip and demo), the frames `sinew render` draws go through tests/tools/quantcmp,
   which builds both palettes from the same histogram as src/export/gif.c and prints the PSNR of
   each (RGB, opaque pixels, no dithering). sinew's must be at least libimagequant's minus 1 dB.
   The figures are in docs/rendering.md ("GIF palettes").
"""
import glob
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (BUILD, CORPUS, SRC, check, corpus_path, finish, have_shared, run_sinew,  # noqa: E402
                     skip)

QUANTCMP = os.environ.get("QUANTCMP", os.path.join(BUILD, "tests", "quantcmp"))
SINEW_LIB = os.environ.get("SINEW_LIB", os.path.join(BUILD, "libsinew.so"))

r = run_sinew("version")
check(r.returncode == 0 and "GIF palettes:" in r.stdout, "sinew version names the GIF quantizer: " + r.stdout)
own = "sinew (MIT)" in r.stdout
if own:
    for path in (shutil.which(os.environ.get("SINEW", "sinew")) or os.environ.get("SINEW", ""), SINEW_LIB):
        # a binary that is not there is a failure, not a check left out
        if check(bool(path) and os.path.exists(path), f"{path or 'sinew'} exists to be checked with ldd"):
            ld = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
            check("imagequant" not in ld, f"{os.path.basename(path)} links no libimagequant (GPL):\n{ld}")

check(os.path.exists(QUANTCMP), f"tests/tools/quantcmp was built (it needs libimagequant-dev: `make deps`): {QUANTCMP}")
if not os.path.exists(QUANTCMP):
    finish()

# the character of each shared set (bench/compare.py's choice: the armature with the most bones)
CHARACTER = {"CoreElement_4.5": ("mecha_1502b", "idle"), "Knight_4.5": ("knight", "stand"),
             "ReplaceSkinMan_4.0": ("man", "standFront"), "Ubbie_4.5": ("ubbie", "stand"),
             "ZOrder16_4.5": ("armatureName", "Z国王-定帧"), "dragon_boy_5.0": ("DragonBoy", "stand"),
             "mecha_1502b_5.5": ("mecha_1502b", "idle"), "you_xin_body_5.5": ("body", "idle")}
rigs = []
if have_shared():
    check(sorted(CHARACTER) == sorted(n for n in CORPUS if CORPUS[n][1]), "every shared set with an atlas is listed")
    rigs = [(name, corpus_path(name, 0), corpus_path(name, 1), CHARACTER[name]) for name in sorted(CHARACTER)]
else:
    skip(len(CORPUS), "shared characters (the own fixtures run instead)")
    own_dir = os.path.join(SRC, "tests", "fixtures", "own", "Pip_5.0")
    rigs = [("Pip_5.0", os.path.join(own_dir, "pip_ske.json"), os.path.join(own_dir, "pip_tex.json"), ("pip", "idle")),
            ("demo", os.path.join(SRC, "examples", "demo", "demo_ske.json"),
             os.path.join(SRC, "examples", "demo", "demo_tex.json"), (None, None))]
rows = []
for name, ske, tex, (arm, anim) in rigs:
    out = os.path.join(BUILD, "quantizer", name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    args = ["render", ske, "--atlas", tex, "--fps", "8", "--out", os.path.join(out, "f_%03d.png"), "--quiet"]
    if arm:
        args += ["--armature", arm, "--animation", anim]
    r = run_sinew(*args)
    if not check(r.returncode == 0, f"{name}: sinew render failed: {r.stderr.strip()[-300:]}"):
        continue
    frames = sorted(glob.glob(os.path.join(out, "f_*.png")))
    q = subprocess.run([QUANTCMP, *frames], capture_output=True, text=True)
    if not check(q.returncode == 0, f"{name}: quantcmp failed: {q.stderr.strip()}"):
        continue
    j = json.loads(q.stdout)
    rows.append((name, j))
    check(j["sinew"] >= j["imagequant"] - 1.0,
          f"{name}: sinew's palette {j['sinew']:.2f} dB is within 1 dB of libimagequant's {j['imagequant']:.2f} dB")
    shutil.rmtree(out, ignore_errors=True)
print("| character | frames' opaque pixels | distinct colours | sinew dB | libimagequant dB | difference |")
print("|---|---:|---:|---:|---:|---:|")
for name, j in rows:
    print(f"| {name} | {j['pixels']:,} | {j['colors']:,} | {j['sinew']:.2f} | {j['imagequant']:.2f} | "
          f"{j['sinew'] - j['imagequant']:+.2f} |")
finish()
