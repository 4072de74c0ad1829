#!/usr/bin/env python3
"""`sinew convert FILE --to dragonbones --version 4.5` on every shared DragonBones file (4.0, 4.5,
5.0, 5.5) must not change the poses:
  1. the official runtime on the converted file equals the reference dump of the original
     ($SHARED/data/expected/NAME.poses.json), events included;
  2. `sinew poses` on the converted file equals `sinew poses` on the original.
Needs node + npm (fails, saying how to install them, when they are missing)."""
import os
import subprocess
import sys
import tempfile

SRC = os.environ.get("SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SRC, "tests", "fixtures", "xml"))
import oracle_env  # noqa: E402

SINEW = os.environ.get("SINEW", "sinew")
DATA = os.path.join(oracle_env.SHARED, "data")
SETS = {
    "CoreElement_4.5": "CoreElement.json", "Knight_4.5": "Knight.json", "ReplaceSkinMan_4.0": "man.json",
    "Robot_4.5": "robot_ske.json", "Ubbie_4.5": "Ubbie.json", "ZOrder16_4.5": "16_ske.json",
    "dragon_boy_5.0": "dragon_boy_ske.json", "mecha_1502b_5.5": "mecha_1502b_ske.json",
    "you_xin_body_5.5": "body_ske.json",
}
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL", what)


try:
    odir = oracle_env.oracle_dir()
except RuntimeError as e:
    print(f"FAIL {e}")
    print("0 passed, 1 failed")
    sys.exit(1)

with tempfile.TemporaryDirectory() as tmp:
    for name, ske in sorted(SETS.items()):
        src = os.path.join(DATA, "dragonbones", name, ske)
        out = os.path.join(tmp, name)
        os.makedirs(out)
        r = subprocess.run([SINEW, "convert", src, "--to", "dragonbones", "--version", "4.5", "--out", out],
                           capture_output=True, text=True)
        check(r.returncode == 0, f"{name}: convert: {r.stderr}")
        if r.returncode != 0:
            continue
        check("approximat" not in r.stderr, f"{name}: approximation warnings: {r.stderr}")
        conv = r.stdout.split()[0]
        opose = os.path.join(out, "oracle.json")
        ok, msg = oracle_env.run_oracle(odir, conv, opose, "--armature", "all")
        check(ok, f"{name}: oracle on the converted file: {msg}")
        if ok:
            ok, msg = oracle_env.posediff(os.path.join(DATA, "expected", name + ".poses.json"), opose)
            check(ok, f"{name}: official runtime, original vs converted:\n{msg}")
        a, b = os.path.join(out, "sinew_orig.json"), os.path.join(out, "sinew_conv.json")
        ra = subprocess.run([SINEW, "poses", src, "--armature", "all", "--out", a], capture_output=True, text=True)
        rb = subprocess.run([SINEW, "poses", conv, "--armature", "all", "--out", b], capture_output=True, text=True)
        check(ra.returncode == 0 and rb.returncode == 0, f"{name}: sinew poses: {ra.stderr} {rb.stderr}")
        if ra.returncode == 0 and rb.returncode == 0:
            ok, msg = oracle_env.posediff(a, b)
            check(ok, f"{name}: sinew poses, original vs converted:\n{msg}")
        for f in (opose, a, b):
            if os.path.exists(f):
                os.remove(f)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
