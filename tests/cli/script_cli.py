#!/usr/bin/env python3
"""sinew poses --script: bad scripts are `file:line:col: error:` with exit 2 (at the exact place),
good ones give the oracle's scenario dump shape. Runs on the demo character (in the repository);
whether the poses are right is cli.scenarios' job (against the official runtime)."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import BUILD, SRC, check, finish, run_sinew  # noqa: E402

RIG = os.path.join(SRC, "examples", "demo", "demo_ske.json")
OUT = os.path.join(BUILD, "script_cli")
os.makedirs(OUT, exist_ok=True)


def write(name, text):
    path = os.path.join(OUT, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def where(text, needle):
    """1-based line and column of the first occurrence of needle in text."""
    i = text.index(needle)
    line = text.count("\n", 0, i) + 1
    col = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, col


def expect_error(name, text, needle, words, code=2):
    path = write(name, text)
    r = run_sinew("poses", RIG, "--script", path)
    check(r.returncode == code, f"{name}: exit {r.returncode}, expected {code}: {r.stderr.strip()}")
    if needle is not None:
        line, col = where(text, needle)
        prefix = f"{path}:{line}:{col}: error:"
        check(r.stderr.startswith(prefix), f"{name}: error at {prefix!r}, got {r.stderr.strip()!r}")
    for w in words:
        check(w in r.stderr, f"{name}: message mentions {w!r}: {r.stderr.strip()!r}")
    check("Traceback" not in r.stderr and "Assertion" not in r.stderr, f"{name}: a clean error")


GOOD_CMDS = '''[
      {"t": 0, "op": "play", "animation": "idle"},
      {"t": 0.2, "op": "fadeIn", "animation": "walk", "fadeInTime": 0.2, "layer": 1, "group": "legs",
       "fadeOutMode": "SameLayer", "weight": 0.5, "timeScale": 2, "playTimes": 0},
      {"t": 0.4, "op": "gotoAndPlay", "animation": "wave", "unit": "frame", "value": 3},
      {"t": 0.5, "op": "gotoAndStop", "animation": "idle", "unit": "progress", "value": 0.5},
      {"t": 0.6, "op": "stop"},
      {"t": 0.7, "op": "play"},
      {"t": 0.8, "op": "timeScale", "value": -0.5},
      {"t": 0.9, "op": "stateWeight", "animation": "idle", "value": 0.3},
      {"t": 1.0, "op": "stateTimeScale", "animation": "idle", "value": 1.5}
    ]'''

# -- malformed and wrong scripts ---------------------------------------------------------------------
expect_error("not-json.json", '{"scenarios": [\n  {"name": "a",, "frames": 3}]}\n', None, ["invalid JSON"])
check(run_sinew("poses", RIG, "--script", os.path.join(OUT, "not-json.json")).stderr.startswith(
    os.path.join(OUT, "not-json.json") + ":2:"), "a JSON syntax error names its line")
expect_error("no-scenarios.json", '{"tests": []}\n', None, ["scenarios"])
bad_op = '{"scenarios": [{"name": "a", "fps": 30, "frames": 3, "commands": [\n  {"t": 0, "op": "dance", "animation": "idle"}]}]}\n'
expect_error("bad-op.json", bad_op, '"dance"', ["unknown op 'dance'", "fadeIn"])
bad_anim = '{"scenarios": [{"name": "a", "fps": 30, "frames": 3, "commands": [\n  {"t": 0, "op": "fadeIn", "animation": "run"}]}]}\n'
expect_error("bad-animation.json", bad_anim, '"run"', ["no animation 'run'", "walk"])
bad_arm = '{"scenarios": [{"name": "a", "armature": "Nobody", "fps": 30, "frames": 3, "commands": []}]}\n'
expect_error("bad-armature.json", bad_arm, '"Nobody"', ["no armature 'Nobody'", "Bolt"])
bad_mode = '{"scenarios": [{"name": "a", "fps": 30, "frames": 3, "commands": [\n  {"t": 0, "op": "fadeIn", "animation": "idle", "fadeOutMode": "Most"}]}]}\n'
expect_error("bad-mode.json", bad_mode, '"Most"', ["fadeOutMode", "SameLayerAndGroup"])
bad_unit = '{"scenarios": [{"name": "a", "fps": 30, "frames": 3, "commands": [\n  {"t": 0, "op": "gotoAndPlay", "animation": "idle", "unit": "beats", "value": 1}]}]}\n'
expect_error("bad-unit.json", bad_unit, '"beats"', ["unit", "progress"])
no_frames = '{"scenarios": [{"name": "a", "fps": 30, "commands": []}]}\n'
expect_error("no-frames.json", no_frames, '{"name"', ["frames"])
zero_fps = '{"scenarios": [{"name": "a", "fps": 0, "frames": 3, "commands": []}]}\n'
expect_error("zero-fps.json", zero_fps, '0, "frames"', ["fps"])
no_value = '{"scenarios": [{"name": "a", "fps": 30, "frames": 3, "commands": [\n  {"t": 0, "op": "stateWeight", "animation": "idle"}]}]}\n'
expect_error("no-value.json", no_value, '{"t"', ["value"])
no_anim = '{"scenarios": [{"name": "a", "fps": 30, "frames": 3, "commands": [\n  {"t": 0, "op": "fadeIn"}]}]}\n'
expect_error("no-animation.json", no_anim, '{"t"', ["animation"])
str_t = '{"scenarios": [{"name": "a", "fps": 30, "frames": 3, "commands": [\n  {"t": "soon", "op": "play"}]}]}\n'
expect_error("string-time.json", str_t, '"soon"', ["t"])
huge = '{"scenarios": [{"name": "a", "fps": 30, "frames": 1e12, "commands": []}]}\n'
expect_error("huge-frames.json", huge, "1e12", ["frames"])
r = run_sinew("poses", RIG, "--script", os.path.join(OUT, "does-not-exist.json"))
check(r.returncode == 3 and "error" in r.stderr, f"missing script: exit 3 (got {r.returncode}): {r.stderr.strip()}")
r = run_sinew("poses", RIG, "--script", write("ok.json", '{"scenarios": []}'), "--animation", "idle")
check(r.returncode == 1, f"--script with --animation is a usage error (got {r.returncode})")

# -- a good script: the scenario.mjs dump shape ------------------------------------------------------
good = ('{"scenarios": [\n  {"name": "every-op", "fps": 30, "frames": 45, "commands": ' + GOOD_CMDS + '},\n'
        '  {"name": "default-fps", "frames": 5, "commands": [{"t": 0, "op": "play", "animation": "wave"}]}]}\n')
path = write("good.json", good)
out = os.path.join(OUT, "good.poses.json")
r = run_sinew("poses", RIG, "--script", path, "--states", "--out", out)
check(r.returncode == 0, f"good script runs: {r.stderr.strip()}")
if r.returncode == 0:
    d = json.load(open(out))
    check(d["oracle"]["mode"] == "scenario", "mode 'scenario'")
    arms = d["armatures"]
    check(len(arms) == 1 and arms[0]["name"] == "Bolt", "one armature entry, the first armature")
    anims = arms[0]["animations"]
    check([a["name"] for a in anims] == ["every-op", "default-fps"], "one animation entry per scenario, in order")
    check(len(anims[0]["samples"]) == 45 and len(anims[1]["samples"]) == 5, "frames samples each")
    check(anims[0]["frameCount"] == 45 and abs(anims[0]["duration"] - 1.5) < 1e-12, "frameCount and duration")
    check(arms[0]["sampleRate"] == 30, "sampleRate is the first scenario's fps")
    s = anims[0]["samples"]
    check([x["frame"] for x in s] == list(range(45)), "frames numbered from 0")
    check(all(abs(x["time"] - x["frame"] / 30) < 1e-12 for x in s), "time = frame / fps")
    check(any(e["type"] == "start" and e["animation"] == "idle" for e in s[0]["events"]),
          "the t=0 play fires start in sample 0")
    # the fadeIn at t=0.2 is issued after the sample at 0.2 (frame 6): its fadeIn event comes in frame 7
    fr = [x["frame"] for x in s if any(e["type"] == "fadeIn" and e["animation"] == "walk" for e in x["events"])]
    check(fr[:1] == [7], f"a command at t is issued right after the sample at t (fadeIn event in {fr[:1]})")
    walk = [st for st in s[8]["states"] if st["name"] == "walk"]
    check(len(walk) == 1 and walk[0]["layer"] == 1 and walk[0]["group"] == "legs" and walk[0]["weight"] == 0.5
          and walk[0]["timeScale"] == 2, f"fadeIn fields reach the state: {walk}")
    idle = [st for st in s[31]["states"] if st["name"] == "idle"]
    check(idle and abs(idle[-1]["weight"] - 0.3) < 1e-12 and abs(idle[-1]["timeScale"] - 1.5) < 1e-12,
          f"stateWeight / stateTimeScale set the newest 'idle' state: {idle}")
    check(all(len(x["bones"]) > 0 and "slots" in x for x in s), "every sample has bones and slots")
    r2 = run_sinew("poses", RIG, "--script", path, "--out", os.path.join(OUT, "good2.json"))
    d2 = json.load(open(os.path.join(OUT, "good2.json")))
    check("states" not in d2["armatures"][0]["animations"][0]["samples"][0], "states only with --states")
    # the rig's own frame rate, read from its JSON (not from sinew's dump of it)
    rate = json.load(open(RIG))["armature"][0].get("frameRate") or json.load(open(RIG)).get("frameRate", 24)
    times = [x["time"] for x in anims[1]["samples"]]
    check(len(times) == 5 and all(abs(t - k / rate) < 1e-12 for k, t in enumerate(times)),
          f"a scenario without fps samples at the armature's frame rate ({rate}: {times})")

# -- the state limit is reported, never silent ----------------------------------------------------------
many = {"scenarios": [{"name": "many", "fps": 30, "frames": 20, "commands":
                       [{"t": 0, "op": "play", "animation": "idle"}] +
                       [{"t": 0.01 * i, "op": "fadeIn", "animation": ["walk", "wave", "idle"][i % 3],
                         "fadeInTime": 1, "fadeOutMode": "None", "layer": i} for i in range(1, 8)]}]}
path = write("many.json", json.dumps(many))
r = run_sinew("poses", RIG, "--script", path, "--max-states", "4", "--out", os.path.join(OUT, "many4.json"))
check(r.returncode == 0 and "warning" in r.stderr and "dropped" in r.stderr and "--max-states" in r.stderr,
      f"going past --max-states is a warning: {r.stderr.strip()}")
r = run_sinew("poses", RIG, "--script", path, "--out", os.path.join(OUT, "many16.json"))
check(r.returncode == 0 and "dropped" not in r.stderr, f"8 states fit the default of 16: {r.stderr.strip()}")
r = run_sinew("poses", RIG, "--script", path, "--max-states", "0")
check(r.returncode == 1, "--max-states 0 is a usage error")

finish()
