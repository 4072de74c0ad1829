#!/usr/bin/env python3
"""sinew_instance_replace_display against the official runtime's factory.replaceSlotDisplay.

Each case plays an animation, replaces displays right after play (the official call through
tests/tools/replace_display.mjs, run in the oracle folder; sinew's through `sinew poses
--replace`), samples it in step mode, and compares the dumps at posediff's default tolerances:
images moved between slots keep their slot's own display transform, as officially. Needs the
official runtime (../shared/tools/oracle); skipped without it.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import SRC, check, finish, need_oracle, posecmp, run_sinew  # noqa: E402

OWN = os.path.join(SRC, "tests", "fixtures", "own")
CASES = [
    # (skeleton, atlas, armature, animation, frames, [(slot, source slot, display, index[, source armature])])
    ("Pip_5.0/pip_ske.json", "Pip_5.0/pip_tex.json", "pip", "idle", 12, [("antenna", "eye", "eye", -1)]),
    ("Pip_5.0/pip_ske.json", "Pip_5.0/pip_tex.json", "pip", "hop", 12, [("eye", "eye", "eye_shut", 0)]),
    ("Pip_5.0/pip_ske.json", "Pip_5.0/pip_tex.json", "pip", "idle", 8,
     [("head", "wing", "wing", -1), ("bulb", "eye", "eye_shut", -1)]),
    ("Pip_4.5/pip_ske.json", "Pip_4.5/pip_tex.json", "pip", "hop", 10, [("shin", "thigh", "thigh", -1)]),
    # displays from another armature of the file (the rotor's), and a replacement replaced again
    ("Pip_5.0/pip_ske.json", "Pip_5.0/pip_tex.json", "pip", "hop", 10,
     [("wing", "blade_a", "blade", -1, "rotor"), ("eye", "hub", "hub", 1, "rotor")]),
    ("Pip_4.5/pip_ske.json", "Pip_4.5/pip_tex.json", "pip", "idle", 8,
     [("antenna", "eye", "eye", -1), ("antenna", "hub", "hub", -1, "rotor")]),
    ("../../../examples/demo/demo_ske.json", "../../../examples/demo/demo_tex.json", "Bolt", "walk", 12,
     [("antenna", "hand_back", "hand", -1)]),
]

odir = need_oracle(len(CASES), "replace_display against the official runtime")
shutil.copy(os.path.join(SRC, "tests", "tools", "replace_display.mjs"), os.path.join(odir, "replace_display.mjs"))
tmp = tempfile.mkdtemp(prefix="sinew_replace_")
for n, (ske, tex, arm, anim, frames, ops) in enumerate(CASES):
    ske, tex = os.path.normpath(os.path.join(OWN, ske)), os.path.normpath(os.path.join(OWN, tex))
    ops_file = os.path.join(tmp, f"ops{n}.json")
    json.dump([dict(zip(("slot", "source", "display", "index", "armature"), op)) for op in ops], open(ops_file, "w"))
    exp, act = os.path.join(tmp, f"exp{n}.json"), os.path.join(tmp, f"act{n}.json")
    with open(exp, "w") as out:
        r = subprocess.run(["node", "replace_display.mjs", ske, tex, arm, anim, str(frames), ops_file], cwd=odir,
                           stdout=out, stderr=subprocess.PIPE, text=True)
    what = f"{os.path.basename(os.path.dirname(ske))} {anim} {ops}"
    if not check(r.returncode == 0, f"{what}: the official runtime: {r.stderr.strip()[:300]}"):
        continue
    args = ["poses", ske, "--atlas", tex, "--armature", arm, "--animation", anim, "--frames", str(frames),
            "--precision", "9", "--out", act]
    for op in ops:
        args += ["--replace", ",".join(str(v) for v in op)]
    r = run_sinew(*args)
    if not check(r.returncode == 0, f"{what}: sinew poses --replace: {r.stderr.strip()[:300]}"):
        continue
    ok, report = posecmp(exp, act)
    check(ok, f"{what}: sinew matches the official replaceSlotDisplay: {report[:400]}")
shutil.rmtree(tmp)
finish()
