#!/usr/bin/env python3
"""The WebAssembly build in node: its poses, through the JavaScript API (build-wasm/poses.mjs),
against the official DragonBones runtime and against the native build.

1. The project's own fixtures (tests/fixtures/own/manifest.json: every DragonBones fixture, the
   demo, the hand-written oracle rigs, the XML rigs, the frame-cache dumps) against the official
   runtime's committed dumps, with the options they were made with; and the hand-written scenario
   scripts on own fixtures (tests/fixtures/scenarios, "own:" and "oracle:") against theirs; the
   DragonBones 6.0 fixtures (tests/fixtures/v6: step, seek, 30/37/60 Hz, --random and frame-cache
   dumps of tools/oracle6) against theirs. Needs nothing but this repository.
2. With ../shared: the nine shared characters against $SHARED/data/expected (posecmp and
   ../shared/tools/posediff.py), and the hand-written scenario scripts on shared characters
   against the live official runtime (scenario.mjs).
3. Every run above also runs the native `sinew poses` with the same options, both at 17 digits:
   the two dumps must be equal number for number (same IEEE arithmetic; sinew's libm differs
   between glibc and wasi-libc, so equality is what is measured, not assumed).
Env: WASM_BUILD (default SRC/build-wasm) besides testkit's.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (BUILD, CORPUS, SHARED, SRC, check, corpus_expected, corpus_path, finish,  # noqa: E402
                     have_shared, own_expected, own_manifest, own_path, posediff, run_sinew, skip, try_oracle)

WASM = os.environ.get("WASM_BUILD") or os.path.join(SRC, "build-wasm")
POSES = os.path.join(WASM, "poses.mjs")
POSECMP = os.environ.get("POSECMP", os.path.join(BUILD, "tests", "posecmp"))
OUT = os.path.join(BUILD, "web-node")
HAND = os.path.join(SRC, "tests", "fixtures", "scenarios")
only = sys.argv[1:]
stats = {"runs": 0, "numbers": 0, "max_diff": 0.0, "v6_runs": 0, "v6_numbers": 0, "v6_max_rel": 0.0}
# 6.0 physics, path and transform constraints take libm's atan2 (and the decomposition's atan),
# whose last bits differ between glibc and wasi-libc (musl): 6.0 dumps are compared within this
# relative bound (the largest difference measured is printed); 5.x dumps must be equal.
V6_REL = 1e-12
NUMBER = re.compile(r"(?<![\w\"])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def wasm_poses(src, out, args):
    r = subprocess.run(["node", POSES, src, "--precision", "17", "--out", out, *args], capture_output=True, text=True)
    return r.returncode == 0, r.stderr.strip()


def same_numbers(a, b, where="", acc=None, rel=0.0):
    """The first place two parsed dumps differ (None when equal, or all within rel times the larger
    magnitude, at least 1), counting the numbers compared."""
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return f"{where}: keys {sorted(set(a) ^ set(b))}"
        for k in a:
            d = same_numbers(a[k], b[k], f"{where}.{k}", acc, rel)
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} against {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            d = same_numbers(x, y, f"{where}[{i}]", acc, rel)
            if d:
                return d
        return None
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        stats["numbers"] += 1
        if a != b:
            if not rel:
                stats["max_diff"] = max(stats["max_diff"], abs(a - b))
            else:
                r = abs(a - b) / max(1.0, abs(a), abs(b))
                stats["v6_max_rel"] = max(stats["v6_max_rel"], r)
                if r <= rel:
                    return None
            return f"{where}: {a!r} (wasm) against {b!r} (native)"
        return None
    return None if a == b else f"{where}: {a!r} (wasm) against {b!r} (native)"


def against_native(label, src, wasm_out, args, rel=0.0):
    native_out = wasm_out.replace(".wasm.json", ".native.json")
    r = run_sinew("poses", src, "--precision", "17", "--out", native_out, *args)
    if not check(r.returncode == 0, f"{label}: native sinew poses failed: {r.stderr.strip()[-300:]}"):
        return
    with open(wasm_out, encoding="utf-8") as f:
        text = f.read()
    w = json.loads(text)
    with open(native_out, encoding="utf-8") as f:
        n = json.load(f)
    for d in (w, n):  # the runtime's version string is the same; the file names are
        d.pop("oracle", None)
    if w == n:  # equal number for number (parsed at 17 digits); count them from the text
        stats["numbers"] += len(NUMBER.findall(text))
        stats["runs"] += 1
        return
    if rel:
        before = stats["numbers"]
        diff = same_numbers(w, n, "dump", None, rel)
        stats["v6_numbers"] += stats["numbers"] - before
        stats["numbers"] = before
        if diff is None:
            stats["v6_runs"] += 1
            return
        check(False, f"{label}: the wasm build's poses differ from the native build's beyond {rel:g} (relative) at {diff}")
        return
    diff = same_numbers(w, n, "dump")
    check(False, f"{label}: the wasm build's poses differ from the native build's at {diff}")


def run_step(label, expected, src, atlas, args, with_posediff=False, rel=0.0):
    args = (["--atlas", atlas] if atlas else []) + args
    out = os.path.join(OUT, label + ".wasm.json")
    ok, err = wasm_poses(src, out, ["--armature", "all", *args])
    if not check(ok, f"{label}: node poses.mjs failed: {err[-400:]}"):
        return
    compare_dumps(expected, out, label)
    if with_posediff:
        agree, text2 = posediff(expected, out)
        check(agree, f"{label}: ../shared/tools/posediff.py: the wasm build differs from the official runtime:\n{text2}")
    against_native(label, src, out, ["--armature", "all", *args], rel)


def compare_dumps(expected, actual, label):
    """tests/tools/posecmp (posediff's checks at its tolerances, events in order) on two dumps."""
    r = subprocess.run([POSECMP, expected, actual, "--quiet"], capture_output=True, text=True)
    last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else (r.stderr.strip() or "no output")
    print(("ok   " if r.returncode == 0 else "FAIL ") + f"{label}: {last}", flush=True)
    check(r.returncode == 0, f"{label}: the wasm build differs from the official runtime ({os.path.relpath(expected, SRC)}):\n"
          + "\n".join(r.stdout.strip().splitlines()[-12:]))


def run_script(label, expected, ske, tex, script):
    args = ["--script", script] + (["--atlas", tex] if tex else [])
    out = os.path.join(OUT, label + ".wasm.json")
    ok, err = wasm_poses(ske, out, args)
    if not check(ok, f"{label}: node poses.mjs --script failed: {err[-400:]}"):
        return
    compare_dumps(expected, out, label)
    against_native(label, ske, out, args)


def find_set(folder):
    files = sorted(f for f in os.listdir(folder) if f.endswith(".json"))
    ske = [f for f in files if f.endswith("_ske.json")]
    tex = [f for f in files if f.endswith("_tex.json")]
    if not ske:  # 4.x naming: NAME.json + texture.json / NAME_texture_1.json
        tex = [f for f in files if "texture" in f]
        ske = [f for f in files if f not in tex]
    return os.path.join(folder, ske[0]), (os.path.join(folder, tex[0]) if tex else None)


def main():
    if not check(os.path.exists(POSES), f"{POSES} not found: run `make wasm` first"):
        finish()
    os.makedirs(OUT, exist_ok=True)
    m = own_manifest()
    jobs = []
    for e in m["dragonbones"]:
        jobs.append((e["name"], e["expected"], e["skeleton"], e["atlas"], ["--fps", str(e["fps"])] if "fps" in e else []))
    for e in m["extra"]:
        args = ["--fps", str(e["fps"])] if "fps" in e else []
        if "animation" in e:
            args += ["--armature", e["armature"], "--animation", e["animation"]]
        if "cache_fps" in e:
            args += ["--cache-fps", str(e["cache_fps"])]
        jobs.append((e["name"], e["name"], e["skeleton"], e.get("atlas"), args))
    for e in m["xml_dumps"]:
        jobs.append((e["name"], e["name"], e["rig"], None, ["--fps", str(e["fps"])] if "fps" in e else []))
    for label, dump, ske, atlas, args in jobs:
        if not only or label in only:
            # an explicit --armature in args wins over the default --armature all (last one counts)
            run_step(label, own_expected(dump), own_path(ske), own_path(atlas) if atlas else None, args)

    # DragonBones 6.0: every step, seek, random and cache dump of tests/fixtures/v6 (deliberate ones
    # and game scripts aside) against its committed official dump and the native build
    spec = importlib.util.spec_from_file_location("v6_make_expected", os.path.join(SRC, "tests", "fixtures", "v6",
                                                                                    "make_expected.py"))
    mx = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mx)
    for name, entry, kind, _script, args in mx.jobs():
        if kind != "poses" or entry.get("deliberate") or (only and name not in only):
            continue
        run_step("v6_" + name, mx.expected_path(name), os.path.join(SRC, entry["skeleton"]),
                 os.path.join(SRC, entry["atlas"]), ["--animation", "all", *args], rel=V6_REL)

    shared_hand = []
    for fn in sorted(f for f in os.listdir(HAND) if f.endswith(".json")):
        with open(os.path.join(HAND, fn), encoding="utf-8") as f:
            character = json.load(f)["character"]
        if only and fn[:-5] not in only:
            continue
        if character.startswith("oracle:"):
            ske, tex = os.path.join(SRC, "tests", "fixtures", "oracle", character[7:] + "_ske.json"), None
        elif character.startswith("own:"):
            ske, tex = find_set(os.path.join(SRC, "tests", "fixtures", "own", character[4:]))
        else:
            shared_hand.append((fn, character))
            continue
        run_script("scenarios_" + fn[:-5], own_expected("scenarios_" + fn[:-5]), ske, tex, os.path.join(HAND, fn))

    corpus = [n for n in sorted(CORPUS) if not only or n in only]
    if not have_shared():
        skip(len(corpus), "shared characters (against ../shared/data/expected)")
        skip(len(shared_hand), "hand-written scenario scripts on shared characters (against the live official runtime)")
    else:
        for name in corpus:
            ske, tex = corpus_path(name, 0), corpus_path(name, 1)
            run_step(name, corpus_expected(name), ske, tex, [], with_posediff=True)
        odir = try_oracle(len(shared_hand), "hand-written scenario scripts on shared characters")
        if odir and shared_hand:
            for fn, character in shared_hand:
                ske, tex = find_set(os.path.join(SHARED, "data", "dragonbones", character))
                expected = os.path.join(OUT, "hand-" + fn[:-5] + ".oracle.json")
                r = subprocess.run(["node", os.path.join(odir, "scenario.mjs"), ske, os.path.join(HAND, fn),
                                    *(["--atlas", tex] if tex else []), "--precision", "9", "--out", expected],
                                   capture_output=True, text=True)
                if check(r.returncode == 0, f"{fn}: scenario.mjs failed: {r.stderr.strip()[:400]}"):
                    run_script("hand-" + fn[:-5], expected, ske, tex, os.path.join(HAND, fn))
    print(f"web node: {stats['runs']} dumps equal to the native build's ({stats['numbers']} numbers compared; "
          f"largest difference {stats['max_diff']:g})")
    if stats["v6_runs"]:
        print(f"web node: {stats['v6_runs']} DragonBones 6.0 dumps within {V6_REL:g} of the native build's "
              f"({stats['v6_numbers']} numbers compared; largest relative difference "
              f"{stats['v6_max_rel']:g})")
    finish()


main()
