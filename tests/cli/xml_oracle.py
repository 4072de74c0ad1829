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
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import SRC, check, finish, need_oracle, posediff, run_oracle, run_sinew  # noqa: E402

sys.path.insert(0, os.path.join(SRC, "tests", "fixtures", "xml"))
import reference  # noqa: E402

odir = need_oracle()

rigs = [os.path.join(SRC, "examples", "xml", "cat.xml")]
rigdir = os.path.join(SRC, "tests", "fixtures", "xml", "rigs")
rigs += sorted(os.path.join(rigdir, n) for n in os.listdir(rigdir) if n.endswith(".xml"))

with tempfile.TemporaryDirectory() as tmp:
    for rig in rigs:
        name = os.path.splitext(os.path.basename(rig))[0]
        out = os.path.join(tmp, name)
        os.makedirs(out)
        r = run_sinew("convert", rig, "--to", "dragonbones", "--out", out)
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
        ok, msg = run_oracle(odir, ske, opose, "--armature", "all", "--atlas", files[1])
        check(ok, f"{name}: oracle: {msg}")
        if not ok:
            continue
        oracle = json.load(open(opose))
        check([a["name"] for a in oracle["armatures"]] == [n for n, _ in rigobj.armature_names()],
              f"{name}: armatures {[a['name'] for a in oracle['armatures']]}")
        ref = os.path.join(out, "reference.json")
        with open(ref, "w") as f:
            json.dump(rigobj.dump_like(oracle), f)
        ok, msg = posediff(ref, opose, "--no-events")
        check(ok, f"{name}: reference vs official runtime on the converted file:\n{msg}")
        spose = os.path.join(out, "sinew.json")
        r = run_sinew("poses", rig, "--armature", "all", "--out", spose)
        check(r.returncode == 0, f"{name}: sinew poses: {r.stderr}")
        if r.returncode == 0:
            ok, msg = posediff(opose, spose)
            check(ok, f"{name}: official runtime (converted) vs sinew poses RIG.xml:\n{msg}")
            ok, msg = posediff(ref, spose, "--no-events")
            check(ok, f"{name}: reference vs sinew poses RIG.xml:\n{msg}")

finish()
