#!/usr/bin/env python3
"""sinew poses / sinew bench: options, bad names, output shape (no timing assertions). Runs on the
project's own fixtures (tests/fixtures/own/Pip_5.0, tests/fixtures/runtime, examples/xml)."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import BUILD, SRC, check, finish, read_png, run_sinew  # noqa: E402

PIP = os.path.join(SRC, "tests", "fixtures", "own", "Pip_5.0", "pip_ske.json")
PIP_BONES = len(json.load(open(PIP, encoding="utf-8"))["armature"][0]["bone"])


def run(*args):
    return run_sinew(*args)


# unknown animation / armature: exit 2, a message naming what exists
r = run("poses", PIP, "--animation", "dance")
check(r.returncode == 2, f"unknown animation exits 2 (got {r.returncode})")
check("dance" in r.stderr and "hop" in r.stderr and "error" in r.stderr, "message lists the animations: " + r.stderr)
r = run("poses", PIP, "--armature", "Nobody")
check(r.returncode == 2 and "pip" in r.stderr, "unknown armature lists the armatures: " + r.stderr)
r = run("poses", os.path.join(BUILD, "no-such-file.json"))
check(r.returncode != 0 and "error" in r.stderr, "missing file is an error")
r = run("poses", PIP, "--fps", "-3")
check(r.returncode == 1, "bad --fps is a usage error")

# frames / fps / precision options and the sample layout
out = os.path.join(BUILD, "runtime_cli_pip.json")
r = run("poses", PIP, "--animation", "hop", "--fps", "10", "--frames", "4", "--precision", "6", "--out", out)
check(r.returncode == 0, "poses --out succeeds: " + r.stderr)
if r.returncode == 0:
    d = json.load(open(out, encoding="utf-8"))
    arm = d["armatures"][0]
    anim = arm["animations"][0]
    check(arm["sampleRate"] == 10 and anim["name"] == "hop", "sample rate and animation")
    check(len(anim["samples"]) == 4, "4 samples")
    s1 = anim["samples"][1]
    check(abs(s1["time"] - 0.1) < 1e-9, "sample 1 at 1/fps")
    check(len(s1["bones"]) == PIP_BONES and all(len(b["matrix"]) == 6 for b in s1["bones"]),
          f"{PIP_BONES} bones with matrices")
    check(sorted(s["drawIndex"] for s in s1["slots"]) == list(range(len(s1["slots"]))), "draw indices")
    ev0 = {(e["type"], e["animation"]) for e in anim["samples"][0]["events"]}
    check(("start", "hop") in ev0, "start event at sample 0")

# bench --json has exactly the documented keys
r = run("bench", PIP, "--animation", "hop", "--instances", "3", "--ticks", "20", "--runs", "2", "--json")
check(r.returncode == 0, "bench runs: " + r.stderr)
if r.returncode == 0:
    j = json.loads(r.stdout)
    check(set(j) == {"ns_per_update", "ns_per_update_median", "ns_per_bone", "bones", "slots", "instances", "ticks",
                     "runs", "events_per_update", "memory_per_instance", "drawlist_vertices"},
          "bench json keys: " + r.stdout)
    check(j["bones"] == PIP_BONES and j["instances"] == 3 and j["ticks"] == 20 and j["runs"] == 2,
          "bench json values")
# bench --load: parse + build from memory, with the atlas found beside the skeleton
r = run("bench", PIP, "--load", "--runs", "3", "--json")
check(r.returncode == 0, "bench --load runs: " + r.stderr)
if r.returncode == 0:
    j = json.loads(r.stdout)
    check(set(j) == {"ms_min", "ms_median", "ske_ms_min", "ske_ms_median", "runs", "ske_bytes", "atlas_bytes",
                     "data_bytes", "peak_bytes"}, "bench --load json keys: " + r.stdout)
    check(j["runs"] == 3 and j["ske_bytes"] == os.path.getsize(PIP) and j["atlas_bytes"] > 0
          and 0 < j["ms_min"] <= j["ms_median"] and j["ske_ms_min"] <= j["ms_min"] and j["data_bytes"] > 0,
          "bench --load json values: " + r.stdout)
# --cache-fps: a frame cache shared by the instances (its poses: cli.conformance)
r = run("bench", PIP, "--animation", "idle", "--instances", "3", "--ticks", "20", "--runs", "1", "--cache-fps", "24",
        "--json")
check(r.returncode == 0, "bench --cache-fps runs: " + r.stderr)
if r.returncode == 0:
    j = json.loads(r.stdout)
    check(j.get("cache_fps") == 24 and j.get("cache_memory", 0) > 0, "bench --cache-fps json: " + r.stdout)
# render --cache-fps 10 at 60 fps: after the first update (a state still fading in is not cached),
# the pose holds while the time stays in cache frame 0 (t = 1/60 .. 6/60, the sum of six 1/60
# steps being just under 0.1 s), then moves
seq = os.path.join(BUILD, "runtime_cli_cache")
os.makedirs(seq, exist_ok=True)
r = run("render", PIP, "--armature", "pip", "--animation", "idle", "--fps", "60", "--cache-fps", "10", "--size", "160x160",
        "--out", os.path.join(seq, "f_%02d.png"), "--quiet")
check(r.returncode == 0, "render --cache-fps runs: " + r.stderr)
if r.returncode == 0:
    frames = [read_png(os.path.join(seq, "f_%02d.png" % k)) for k in range(8)]
    check(all(frames[k] == frames[1] for k in range(2, 7)), "render --cache-fps: frames 1-6 show one cache frame")
    check(frames[7] != frames[6], "render --cache-fps: frame 7 shows the next cache frame")
for bad in ("0", "-5", "abc", "5000"):
    r = run("poses", PIP, "--cache-fps", bad)
    check(r.returncode == 1 and "--cache-fps" in r.stderr, f"poses --cache-fps {bad} is a usage error: {r.stderr}")
r = run("bench", PIP, "--load", "--animation", "hop")
check(r.returncode == 1, "bench --load refuses --animation")
r = run("bench", PIP, "--animation", "fly")
check(r.returncode == 2 and "hop" in r.stderr, "bench unknown animation lists names")

# a missing input and a folder given as the input are I/O (exit 3) in every command, said plainly
folder = os.path.join(BUILD, "runtime_cli_folder")
os.makedirs(folder, exist_ok=True)
for args in (("info",), ("validate",), ("poses",), ("bench", "--animation", "idle"), ("render", "--out",
             os.path.join(BUILD, "runtime_cli_x.png"))):
    for path, what in ((os.path.join(BUILD, "no-such-file.json"), "No such file"), (folder, "it is a folder")):
        r = run(args[0], path, *args[1:])
        check(r.returncode == 3 and what in r.stderr, f"{args[0]} {os.path.basename(path)}: exit 3 saying '{what}' "
              f"({r.returncode}: {r.stderr.strip()[:200]})")

# --skin: DragonBones data overlays the named skin on the default skin
SKINS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "runtime", "skins_ske.json")


def slot_displays(stdout):
    d = json.loads(stdout)
    return [d["armatures"][0]["name"]] + [s["display"]["name"] for s in d["armatures"][0]["animations"][0]["samples"][0]["slots"]]


r = run("poses", SKINS, "--frames", "1")
check(r.returncode == 0 and slot_displays(r.stdout) == ["man", "body_plain", "hand_plain"], "no skin: default displays")
r = run("poses", SKINS, "--frames", "1", "--skin", "gold")
check(r.returncode == 0 and slot_displays(r.stdout) == ["man", "body_plain", "hand_gold"],
      "--skin gold replaces only the slots it has: " + r.stdout[:200] + r.stderr)
r = run("poses", SKINS, "--skin", "silver")
check(r.returncode == 2 and "silver" in r.stderr and "gold" in r.stderr and "error" in r.stderr,
      "unknown DragonBones skin lists the skins: " + r.stderr)
r = run("bench", SKINS, "--animation", "idle", "--skin", "silver", "--instances", "1", "--ticks", "1", "--runs", "1")
check(r.returncode == 2 and "gold" in r.stderr, "bench: unknown skin lists the skins: " + r.stderr)
r = run("bench", SKINS, "--animation", "idle", "--skin", "gold", "--instances", "2", "--ticks", "5", "--runs", "1", "--json")
check(r.returncode == 0 and json.loads(r.stdout)["bones"] == 2, "bench --skin gold runs: " + r.stderr)

# --skin on an XML rig selects the armature NAME@SKIN (docs/xml.md)
CAT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "xml", "cat.xml")
if os.path.exists(CAT):
    plain = run("poses", CAT, "--animation", "wave", "--frames", "3")
    by_skin = run("poses", CAT, "--animation", "wave", "--frames", "3", "--skin", "black")
    by_name = run("poses", CAT, "--animation", "wave", "--frames", "3", "--armature", "cat@black")
    check(by_skin.returncode == 0 and json.loads(by_skin.stdout)["armatures"][0]["name"] == "cat@black",
          "xml --skin black dumps cat@black: " + by_skin.stderr)
    check(by_skin.stdout == by_name.stdout, "xml --skin black == --armature cat@black")
    check(plain.returncode == 0 and plain.stdout != by_skin.stdout, "the black skin differs from the plain cat")
    r = run("poses", CAT, "--armature", "cat", "--skin", "black", "--frames", "1")
    check(r.returncode == 0 and json.loads(r.stdout)["armatures"][0]["name"] == "cat@black", "xml --armature cat --skin black")
    r = run("poses", CAT, "--armature", "all", "--skin", "black", "--frames", "1")
    check(r.returncode == 0 and [a["name"] for a in json.loads(r.stdout)["armatures"]] == ["cat@black"],
          "xml --armature all --skin black: only cat@black")
    r = run("poses", CAT, "--skin", "white")
    check(r.returncode == 2 and "white" in r.stderr and "black" in r.stderr, "xml unknown skin lists the skins: " + r.stderr)
    r = run("bench", CAT, "--animation", "wave", "--skin", "black", "--instances", "2", "--ticks", "5", "--runs", "1")
    check(r.returncode == 0 and "cat@black/wave" in r.stdout, "xml bench --skin black uses cat@black: " + r.stdout + r.stderr)
    r = run("bench", CAT, "--animation", "wave", "--skin", "white", "--instances", "1", "--ticks", "1", "--runs", "1")
    check(r.returncode == 2 and "black" in r.stderr, "xml bench unknown skin: " + r.stderr)
else:
    check(False, "examples/xml/cat.xml is missing")

finish()
