#!/usr/bin/env python3
"""XML rigs checked by the official DragonBones runtime.

For the example rig and each test rig: `sinew convert` to DragonBones 4.5, run the oracle on the
output with --armature all, and compare
  1. an independent reference evaluation of the format page (fixtures/xml/reference.py) with the
     oracle (bones, slots, display indices, draw order; events are not part of the page),
  2. `sinew poses RIG.xml --armature all` with the oracle (default posediff tolerances),
  3. the reference with `sinew poses`.
Needs node + npm (fails, saying how to install them, when they are missing)."""
import json
import os
import subprocess
import sys
import tempfile

SRC = os.environ.get("SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SRC, "tests", "fixtures", "xml"))
import oracle_env  # noqa: E402
import reference  # noqa: E402

SINEW = os.environ.get("SINEW", "sinew")
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

rigs = [os.path.join(SRC, "examples", "xml", "cat.xml")]
rigdir = os.path.join(SRC, "tests", "fixtures", "xml", "rigs")
rigs += sorted(os.path.join(rigdir, n) for n in os.listdir(rigdir) if n.endswith(".xml"))

with tempfile.TemporaryDirectory() as tmp:
    for rig in rigs:
        name = os.path.splitext(os.path.basename(rig))[0]
        out = os.path.join(tmp, name)
        os.makedirs(out)
        r = subprocess.run([SINEW, "convert", rig, "--to", "dragonbones", "--out", out], capture_output=True, text=True)
        check(r.returncode == 0, f"{name}: convert: {r.stderr}")
        if r.returncode != 0:
            continue
        files = r.stdout.split()
        check(len(files) == 3 and all(os.path.exists(f) for f in files), f"{name}: convert wrote {files}")
        check("approximat" not in r.stderr, f"{name}: unexpected approximation warnings: {r.stderr}")
        ske = files[0]
        tex = json.load(open(files[1]))
        rigobj = reference.Rig(rig)
        want_regions = sorted({im[:-4] for lst in [rigobj.display_list(s) for _, s in rigobj.armature_names()]
                               for ims in lst.values() for im in ims})
        check(sorted(s["name"] for s in tex["SubTexture"]) == want_regions, f"{name}: atlas regions")
        opose = os.path.join(out, "oracle.json")
        ok, msg = oracle_env.run_oracle(odir, ske, opose, "--armature", "all", "--atlas", files[1])
        check(ok, f"{name}: oracle: {msg}")
        if not ok:
            continue
        oracle = json.load(open(opose))
        check([a["name"] for a in oracle["armatures"]] == [n for n, _ in rigobj.armature_names()],
              f"{name}: armatures {[a['name'] for a in oracle['armatures']]}")
        ref = os.path.join(out, "reference.json")
        with open(ref, "w") as f:
            json.dump(rigobj.dump_like(oracle), f)
        ok, msg = oracle_env.posediff(ref, opose, "--no-events")
        check(ok, f"{name}: reference vs official runtime on the converted file:\n{msg}")
        spose = os.path.join(out, "sinew.json")
        r = subprocess.run([SINEW, "poses", rig, "--armature", "all", "--out", spose], capture_output=True, text=True)
        check(r.returncode == 0, f"{name}: sinew poses: {r.stderr}")
        if r.returncode == 0:
            ok, msg = oracle_env.posediff(opose, spose)
            check(ok, f"{name}: official runtime (converted) vs sinew poses RIG.xml:\n{msg}")
            ok, msg = oracle_env.posediff(ref, spose, "--no-events")
            check(ok, f"{name}: reference vs sinew poses RIG.xml:\n{msg}")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
