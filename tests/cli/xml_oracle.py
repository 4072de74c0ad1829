#!/usr/bin/env python3
"""XML rigs checked against the official DragonBones runtime.

For each XML rig of tests/fixtures/own/manifest.json ("xml_dumps": the example cat, the test rigs
of tests/fixtures/xml/rigs, the own fixture Pip_xml): `sinew convert` it to DragonBones 4.5 (three
files, the atlas holds every image, no approximation warnings) and compare
  1. an independent reference evaluation of the format page (fixtures/xml/reference.py) with the
     official runtime's dump of the converted file (committed by `make fixtures` in
     tests/fixtures/own/expected/; bones, slots, display indices, draw order; events are not part
     of the page),
  2. `sinew poses RIG.xml --armature all` (at the dump's sample rate) with that dump,
  3. the reference with `sinew poses`.
With ../shared the official runtime also runs live on the file converted now, at the rig's own
frame rate, against `sinew poses` and the reference (skipped without it).
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (SRC, check, finish, own_expected, own_manifest, own_path, posecmp,  # noqa: E402
                     run_oracle, run_sinew, sinew_poses, try_oracle)

sys.path.insert(0, os.path.join(SRC, "tests", "fixtures", "xml"))
import reference  # noqa: E402

rigs = own_manifest()["xml_dumps"]
odir = try_oracle(len(rigs), "XML rigs against the live official runtime")


def compare_three(name, rigobj, oracle, spose, what):
    ref = rigobj.dump_like(oracle)
    ok, msg = posecmp(ref, oracle, events=False)
    check(ok, f"{name}: reference vs official runtime ({what}):\n{msg}")
    ok, msg = posecmp(oracle, spose)
    check(ok, f"{name}: official runtime ({what}) vs sinew poses RIG.xml:\n{msg}")
    ok, msg = posecmp(ref, spose, events=False)
    check(ok, f"{name}: reference vs sinew poses RIG.xml ({what}):\n{msg}")


with tempfile.TemporaryDirectory() as tmp:
    for entry in rigs:
        name, rig = entry["name"], own_path(entry["rig"])
        fps = ["--fps", str(entry["fps"])] if "fps" in entry else []
        out = os.path.join(tmp, name)
        os.makedirs(out)
        rigobj = reference.Rig(rig)
        r = run_sinew("convert", rig, "--to", "dragonbones", "--out", out)
        if check(r.returncode == 0, f"{name}: convert: {r.stderr}"):
            files = r.stdout.split()
            check(len(files) == 3 and all(os.path.exists(f) for f in files), f"{name}: convert wrote {files}")
            check("approximat" not in r.stderr, f"{name}: unexpected approximation warnings: {r.stderr}")
            tex = json.load(open(files[1], encoding="utf-8"))
            want_regions = sorted({im[:-4] for lst in [rigobj.display_list(s) for _, s in rigobj.armature_names()]
                                   for ims in lst.values() for im in ims})
            check(sorted(s["name"] for s in tex["SubTexture"]) == want_regions, f"{name}: atlas regions")
        else:
            files = None

        # the committed dump of the official runtime
        committed = json.load(open(own_expected(name), encoding="utf-8"))
        check([a["name"] for a in committed["armatures"]] == [n for n, _ in rigobj.armature_names()],
              f"{name}: armatures {[a['name'] for a in committed['armatures']]}")
        spose = os.path.join(out, "sinew.json")
        ok, err = sinew_poses(rig, spose, *fps)
        if check(ok, f"{name}: sinew poses: {err}"):
            compare_three(name, rigobj, committed, json.load(open(spose, encoding="utf-8")), "committed dump")

        # the live official runtime, at the rig's own frame rate
        if odir and files:
            opose = os.path.join(out, "oracle.json")
            ok, msg = run_oracle(odir, files[0], opose, "--armature", "all", "--atlas", files[1])
            if check(ok, f"{name}: oracle: {msg}"):
                spose = os.path.join(out, "sinew_native.json")
                ok, err = sinew_poses(rig, spose)
                if check(ok, f"{name}: sinew poses: {err}"):
                    compare_three(name, rigobj, json.load(open(opose, encoding="utf-8")),
                                  json.load(open(spose, encoding="utf-8")), "live")

finish()
