#!/usr/bin/env python3
"""The project's own MRTK recordings (tests/fixtures/own/mrtk: 1.0 with Hermite and stepped
keys, 1.1 with camera, hands and eye gaze) through `sinew input`: info, validate, eval at 15
times against the values the fixture generator computed by its own reading of Unity's
AnimationCurve rules (NAME.expected.json), and a byte-exact binary -> JSON -> binary round trip."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import check, finish, own_manifest, own_path, run_sinew  # noqa: E402

TOL = 2e-5  # float32 keys, evaluated in single or double precision


def close(a, b):
    return len(a) == len(b) and all(abs(x - y) <= TOL for x, y in zip(a, b))


def diff_sample(exp, got):
    """The first difference between an expected and an evaluated sample, or None."""
    for part in ("position", "rotation"):
        if not close(exp["camera"][part], got["camera"][part]):
            return f"camera {part} {got['camera'][part]}, expected {exp['camera'][part]}"
    for side, hand in exp["hands"].items():
        g = got["hands"][side]
        for flag in ("tracked", "pinch"):
            if hand[flag] != g[flag]:
                return f"{side} {flag} {g[flag]}, expected {hand[flag]}"
        for joint, pose in hand["joints"].items():
            for part in ("position", "rotation"):
                if not close(pose[part], g["joints"][joint][part]):
                    return f"{side} {joint} {part} {g['joints'][joint][part]}, expected {pose[part]}"
    if "eyeGaze" in exp:
        for part in ("origin", "direction"):
            if not close(exp["eyeGaze"][part], got["eyeGaze"][part]):
                return f"eye gaze {part} {got['eyeGaze'][part]}, expected {exp['eyeGaze'][part]}"
    return None


with tempfile.TemporaryDirectory() as tmp:
    for e in own_manifest()["mrtk"]:
        name, path = e["name"], own_path(e["file"])
        exp = json.load(open(own_path(e["expected"]), encoding="utf-8"))
        r = run_sinew("input", "info", path, "--json")
        if check(r.returncode == 0, f"{name}: info: {r.stderr.strip()}"):
            info = json.loads(r.stdout)
            want = exp["info"]
            check(info["version"] == want["version"] and info["layout"] == want["layout"],
                  f"{name}: version {info['version']} ({info['layout']} layout)")
            check(abs(info["duration"] - want["duration"]) < 1e-6, f"{name}: duration {info['duration']}")
            check(info["keys"]["total"] == want["keys"], f"{name}: {info['keys']['total']} keys, expected {want['keys']}")
            check([(m["time"], m["name"]) for m in info["markers"]] == [(m["time"], m["name"]) for m in want["markers"]],
                  f"{name}: markers {info['markers']}")
        r = run_sinew("input", "validate", path)
        check(r.returncode == 0 and "0 warnings" in r.stdout, f"{name}: validates cleanly ({r.stdout}{r.stderr})")
        times = exp["times"]
        step = round(times[1] - times[0], 9)
        r = run_sinew("input", "eval", path, "--times", f"{times[0]}:{times[-1] + step / 2}:{step}", "--json")
        if check(r.returncode == 0, f"{name}: eval: {r.stderr.strip()}"):
            got = json.loads(r.stdout)
            check(len(got) == len(times) and all(abs(g["time"] - t) < 1e-9 for g, t in zip(got, times)),
                  f"{name}: eval at {len(times)} times ({[g['time'] for g in got]})")
            bad = [(t, d) for t, s, g in zip(times, exp["samples"], got) if (d := diff_sample(s, g))]
            check(not bad, f"{name}: {len(bad)} of {len(times)} evaluations differ from the expected values; first at "
                           f"{bad[0][0]} s: {bad[0][1]}" if bad else "")
        j, back = os.path.join(tmp, name + ".json"), os.path.join(tmp, name + ".bin")
        r1 = run_sinew("input", "convert", path, j)
        r2 = run_sinew("input", "convert", j, back)
        check(r1.returncode == 0 and r2.returncode == 0 and open(back, "rb").read() == open(path, "rb").read(),
              f"{name}: binary -> JSON -> binary is byte-exact ({r1.stderr}{r2.stderr})")
finish()
