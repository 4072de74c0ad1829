#!/usr/bin/env python3
"""Conformance: `sinew poses` against the official runtime's dumps for every shared set.

For each folder in $SHARED/data/dragonbones/ run
    sinew poses SKE --atlas TEX --armature all --precision 9 --out $BUILD/conformance/NAME.poses.json
(the options the expected dumps were made with; a set without an atlas runs without --atlas)
and compare with $SHARED/data/expected/NAME.poses.json using $SHARED/tools/posediff.py at its
default tolerances. Every armature and every animation must pass.
"""
import os
import subprocess
import sys

SINEW = os.environ.get("SINEW", "sinew")
SHARED = os.environ.get("SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared"))
BUILD = os.environ.get("BUILD", "/tmp")


def find_files(folder):
    files = sorted(f for f in os.listdir(folder) if f.endswith(".json"))
    ske = [f for f in files if f.endswith("_ske.json")]
    tex = [f for f in files if f.endswith("_tex.json")]
    if not ske:  # 4.x demo naming: NAME.json + texture.json / NAME_texture_1.json
        tex = [f for f in files if "texture" in f]
        ske = [f for f in files if f not in tex]
    ske = os.path.join(folder, ske[0]) if ske else None
    tex = os.path.join(folder, tex[0]) if tex else None
    return ske, tex


def main():
    root = os.path.join(SHARED, "data", "dragonbones")
    expected_dir = os.path.join(SHARED, "data", "expected")
    posediff = os.path.join(SHARED, "tools", "posediff.py")
    out_dir = os.path.join(BUILD, "conformance")
    os.makedirs(out_dir, exist_ok=True)
    only = sys.argv[1:]
    passed = failed = 0
    for name in sorted(os.listdir(root)):
        folder = os.path.join(root, name)
        if not os.path.isdir(folder) or (only and name not in only):
            continue
        expected = os.path.join(expected_dir, name + ".poses.json")
        if not os.path.exists(expected):
            continue
        ske, tex = find_files(folder)
        out = os.path.join(out_dir, name + ".poses.json")
        cmd = [SINEW, "poses", ske, "--armature", "all", "--precision", "9", "--out", out]
        if tex:
            cmd[3:3] = ["--atlas", tex]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"FAIL {name}: sinew poses exited {r.returncode}: {r.stderr.strip()[:500]}")
            failed += 1
            continue
        d = subprocess.run([sys.executable, posediff, expected, out, "--quiet"], capture_output=True, text=True)
        lines = d.stdout.strip().splitlines()
        summary = lines[-1] if lines else "(no output)"
        if d.returncode == 0:
            print(f"ok   {name}: {summary}")
            passed += 1
        else:
            print(f"FAIL {name}: {summary}")
            for line in lines[:-1][:40]:
                print("     " + line)
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
