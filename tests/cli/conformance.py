#!/usr/bin/env python3
"""Conformance: `sinew poses` against the official DragonBones runtime's dumps.

1. The project's own fixtures (tests/fixtures/own/manifest.json): every DragonBones fixture, the
   demo, the hand-written oracle rigs and the XML rigs, against the dumps the official runtime
   made and `make fixtures` committed (tests/fixtures/own/expected/), with the options they were
   made with (--armature all --precision 9 [--fps N]). Needs nothing but this repository.
2. With ../shared: every set of $SHARED/data/dragonbones against $SHARED/data/expected (made with
   --atlas TEX --armature all --precision 9), compared by tests/lib/posecmp.py and, as a check of
   that comparator, by $SHARED/tools/posediff.py too. Without ../shared these are skipped.
3. The frame cache (`--cache-fps`): the own fixtures' committed dumps made with the official
   cacheFrameRate (Pip_*_cache20), and with ../shared every set against the live official runtime
   (oracle.mjs --cache-fps) at two cache rates, 24 and 10, sampled at 60 fps.
4. With the oracle: the own Pip fixtures with their atlas given a texture scale of 0.5 (image
   pivots double), against the live official runtime.

Every armature and every animation must pass at posediff's default tolerances. Arguments: names to
run only those (own fixture or corpus names).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (BUILD, CORPUS, OWN_DIR, SHARED, check, corpus_expected, corpus_path, finish,  # noqa: E402
                     have_shared, own_expected, own_manifest, own_path, posecmp, posediff, run_oracle, sinew_poses,
                     skip, try_oracle)

OUT = os.path.join(BUILD, "conformance")
only = sys.argv[1:]


def own_jobs():
    """(dump name, source file, atlas or None, extra args) for every committed dump."""
    m = own_manifest()
    jobs = []
    for e in m["dragonbones"]:
        fps = ["--fps", str(e["fps"])] if "fps" in e else []
        jobs.append((e["name"], e["expected"], own_path(e["skeleton"]), own_path(e["atlas"]), fps))
    for e in m["extra"]:
        args = ["--fps", str(e["fps"])] if "fps" in e else []
        if "animation" in e:
            args += ["--armature", e["armature"], "--animation", e["animation"]]
        if "cache_fps" in e:  # the official frame cache
            args += ["--cache-fps", str(e["cache_fps"])]
        jobs.append((e["name"], e["name"], own_path(e["skeleton"]), own_path(e.get("atlas")), args))
    for e in m["xml_dumps"]:
        fps = ["--fps", str(e["fps"])] if "fps" in e else []
        jobs.append((e["name"], e["name"], own_path(e["rig"]), None, fps))
    return jobs


def run_one(label, expected, src, atlas, args, also_posediff=False):
    out = os.path.join(OUT, label + ".poses.json")
    ok, err = sinew_poses(src, out, *((["--atlas", atlas] if atlas else []) + args))
    if not check(ok, f"{label}: sinew poses failed: {err[-400:]}"):
        return
    same, text = posecmp(expected, out)
    print(("ok   " if same else "FAIL ") + f"{label}: " + text.splitlines()[-1], flush=True)
    check(same, f"{label}: sinew differs from the official runtime ({os.path.relpath(expected)}):\n" + text)
    if also_posediff:
        agree, text2 = posediff(expected, out)
        check(agree == same, f"{label}: posecmp ({same}) and ../shared/tools/posediff.py ({agree}) disagree:\n{text2}")


os.makedirs(OUT, exist_ok=True)
for label, dump, src, atlas, args in own_jobs():
    if only and label not in only:
        continue
    run_one(label, own_expected(dump), src, atlas, args)

corpus = [n for n in sorted(CORPUS) if not only or n in only]
if not have_shared():
    if corpus:
        skip(len(corpus), "shared characters (against ../shared/data/expected)")
else:
    listed = sorted(d for d in os.listdir(os.path.join(SHARED, "data", "dragonbones"))
                    if os.path.isdir(os.path.join(SHARED, "data", "dragonbones", d)))
    check(listed == sorted(CORPUS), f"testkit.CORPUS lists the shared sets: {listed}")
    for name in corpus:
        run_one(name, corpus_expected(name), corpus_path(name, 0), corpus_path(name, 1), [], also_posediff=True)
    # the frame cache against the live official runtime
    odir = try_oracle(2 * len(corpus), "frame-cache runs against the live official runtime") if corpus else None
    for name in corpus if odir else []:
        ske, tex = corpus_path(name, 0), corpus_path(name, 1)
        for rate in ("24", "10"):
            label = f"{name}_cache{rate}"
            args = ["--fps", "60", "--cache-fps", rate]
            expected = os.path.join(OUT, label + ".expected.json")
            ok, err = run_oracle(odir, ske, expected, "--armature", "all", *((["--atlas", tex] if tex else []) + args))
            if check(ok, f"{label}: the official runtime ran ({err[-300:]})"):
                run_one(label, expected, ske, tex, args)

# 4. An atlas with a texture scale (`"scale": 0.5`, half-size pages): image pivots and sizes are in
# armature units, so every pivot doubles. The own fixtures' atlases (trimmed and rotated regions)
# with that scale, against the live official runtime.
SCALED = ("Pip_4.5", "Pip_5.0", "Pip_5.5")
odir = try_oracle(len(SCALED), "atlas texture scale against the live official runtime")
for name in SCALED if odir and not only else []:
    ske, tex = (os.path.join(OWN_DIR, name, f) for f in ("pip_ske.json", "pip_tex.json"))
    with open(tex, encoding="utf-8") as f:
        atlas = json.load(f)
    atlas["scale"] = 0.5
    scaled = os.path.join(OUT, f"{name}_scale05_tex.json")
    with open(scaled, "w", encoding="utf-8") as f:
        json.dump(atlas, f)
    label = f"{name}_atlas_scale05"
    expected = os.path.join(OUT, label + ".expected.json")
    ok, err = run_oracle(odir, ske, expected, "--armature", "all", "--atlas", scaled)
    if check(ok, f"{label}: the official runtime ran ({err[-300:]})"):
        run_one(label, expected, ske, scaled, [])
finish()
