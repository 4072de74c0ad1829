#!/usr/bin/env python3
"""The animation state driven like a game, against the official runtime.

Scripted scenarios (cross-fades, layers, groups, weights, time scales, goto, stop) run in the
official runtime ($SHARED/tools/oracle/scenario.mjs) and in `sinew poses --script`; the dumps
are compared at posediff's default tolerances (positions 0.01, matrix axes 1e-4, colours 1e-3;
display index, draw order and the events exactly), and here the events also in their order.

- random: $SHARED/tools/oracle/scenario_gen.py with fixed seeds on every shared character (all
  seeds of a character in one script, so each side runs once per character);
- hand-written: tests/fixtures/scenarios/*.json, one file per character, a scenario per op and
  fade-out mode (the file's "character" names the shared folder).

usage: scenarios.py [--seeds N] [--first K] [--set NAME]...   (defaults: 10 seeds from 1; under
ASan+UBSan 2 seeds). `make fuzz-scenarios SEEDS=N` runs it with more seeds. Needs $SHARED: skipped
without it.
"""
import json
import math
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import BUILD, SHARED, SRC, check, finish, need_oracle, run_sinew  # noqa: E402

TOL_POS, TOL_AXIS, TOL_COLOR = 0.01, 1e-4, 1e-3
SKIP = 77


def find_files(folder):
    files = sorted(f for f in os.listdir(folder) if f.endswith(".json"))
    ske = [f for f in files if f.endswith("_ske.json")]
    tex = [f for f in files if f.endswith("_tex.json")]
    if not ske:  # 4.x demo naming: NAME.json + texture.json / NAME_texture_1.json
        tex = [f for f in files if "texture" in f]
        ske = [f for f in files if f not in tex]
    return (os.path.join(folder, ske[0]) if ske else None), (os.path.join(folder, tex[0]) if tex else None)


def worst(pairs):
    w = 0.0
    for a, b in pairs:
        if a is None or b is None:
            return math.inf
        d = abs(a - b)
        if d != d:
            return math.inf
        if d > w:
            w = d
    return w


class Diff:
    """What differs in one scenario: the worst errors and the first few hard mismatches."""

    def __init__(self):
        self.pos = self.axis = self.color = 0.0
        self.problems = []

    def problem(self, text):
        if len(self.problems) < 4:
            self.problems.append(text)

    def matrix(self, e, a):
        if a is None or len(a) != 6:
            return self.problem("matrix missing")
        self.axis = max(self.axis, worst(zip(e[:4], a[:4])))
        self.pos = max(self.pos, worst(zip(e[4:], a[4:])))

    def pose(self, where, e, a):
        abones = {b["name"]: b for b in a.get("bones", [])}
        for b in e.get("bones", []):
            ab = abones.get(b["name"])
            if ab is None:
                self.problem(f"{where}: bone '{b['name']}' missing")
            else:
                self.matrix(b["matrix"], ab.get("matrix"))
        aslots = {s["name"]: s for s in a.get("slots", [])}
        for s in e.get("slots", []):
            t = aslots.get(s["name"])
            w = f"{where} slot '{s['name']}'"
            if t is None:
                self.problem(w + " missing")
                continue
            for key in ("displayIndex", "drawIndex"):
                if s.get(key) != t.get(key):
                    self.problem(f"{w}: {key} {t.get(key)} != {s.get(key)}")
            ec, ac = s.get("color") or {}, t.get("color") or {}
            self.color = max(self.color, worst([(ec.get(k, 1), ac.get(k)) for k in ("aM", "rM", "gM", "bM")]),
                             worst([(ec.get(k, 0), ac.get(k)) for k in ("aO", "rO", "gO", "bO")]) / 255.0)
            visible = s.get("displayIndex", 0) >= 0 and s.get("display") is not None
            if visible and (s.get("display") or {}).get("type") != "mesh":
                self.matrix(s["matrix"], t.get("matrix"))
            if visible and "mesh" in s:
                ev, av = s["mesh"]["vertices"], (t.get("mesh") or {}).get("vertices")
                if av is None or len(av) != len(ev):
                    self.problem(w + ": mesh vertices missing or of another length")
                else:
                    self.pos = max(self.pos, worst(zip(ev, av)))
            if s.get("childArmature"):
                if not t.get("childArmature"):
                    self.problem(w + ": child armature missing")
                else:
                    self.pose(w + " child", s["childArmature"]["pose"], t["childArmature"].get("pose", {}))

    def ok(self):
        return not self.problems and self.pos <= TOL_POS and self.axis <= TOL_AXIS and self.color <= TOL_COLOR

    def text(self):
        return (f"pos {self.pos:.3g} axis {self.axis:.3g} color {self.color:.3g}" +
                "".join("\n      " + p for p in self.problems))


def event_list(sample):
    return [(e.get("type"), e.get("name"), e.get("armature"), e.get("animation")) for e in sample.get("events", [])]


def compare(expected, actual, label):
    """Every scenario of EXPECTED against ACTUAL; one check per scenario. Returns the counts."""
    e, a = json.load(open(expected)), json.load(open(actual))
    aarms = {x["name"]: {y["name"]: y for y in x["animations"]} for x in a.get("armatures", [])}
    ok = bad = 0
    for arm in e["armatures"]:
        for an in arm["animations"]:
            d = Diff()
            got = aarms.get(arm["name"], {}).get(an["name"])
            if got is None:
                d.problem("scenario missing from sinew's dump")
            else:
                es, gs = an["samples"], got["samples"]
                if len(es) != len(gs):
                    d.problem(f"{len(gs)} samples, expected {len(es)}")
                for k, (se, sa) in enumerate(zip(es, gs)):
                    d.pose(f"frame {k}", se, sa)
                    ee, ae = event_list(se), event_list(sa)
                    if ee != ae:
                        if sorted(ee) == sorted(ae):
                            d.problem(f"frame {k}: events in another order: {ae} != {ee}")
                        else:
                            d.problem(f"frame {k}: events {ae} != {ee}")
            good = d.ok()
            ok += good
            bad += not good
            check(good, f"{label} {arm['name']}/{an['name']}: {d.text()}")
    return ok, bad


def run_pair(odir, ske, tex, script, tag):
    """Runs a script through scenario.mjs and sinew; returns the two dump paths or None."""
    out_dir = os.path.join(BUILD, "scenarios")
    os.makedirs(out_dir, exist_ok=True)
    exp, act = os.path.join(out_dir, tag + ".expected.json"), os.path.join(out_dir, tag + ".sinew.json")
    atlas = ["--atlas", tex] if tex else []
    r = subprocess.run(["node", os.path.join(odir, "scenario.mjs"), ske, script, *atlas, "--precision", "9",
                        "--out", exp], capture_output=True, text=True)
    if not check(r.returncode == 0, f"{tag}: scenario.mjs failed: {r.stderr.strip()[:400]}"):
        return None
    r = run_sinew("poses", ske, "--script", script, *atlas, "--precision", "9", "--out", act)
    if not check(r.returncode == 0, f"{tag}: sinew poses --script exited {r.returncode}: {r.stderr.strip()[:400]}"):
        return None
    return exp, act


def main(argv):
    seeds, first, only = None, 1, []
    i = 0
    while i < len(argv):
        if argv[i] == "--seeds":
            seeds = int(argv[i + 1])
            i += 2
        elif argv[i] == "--first":
            first = int(argv[i + 1])
            i += 2
        elif argv[i] == "--set":
            only.append(argv[i + 1])
            i += 2
        else:
            print(__doc__)
            return 1
    if seeds is None:
        seeds = 2 if os.environ.get("SINEW_SANITIZE") else 10
    root = os.path.join(SHARED, "data", "dragonbones")
    if not os.path.isdir(root):
        print(f"SKIP: {root} does not exist (the scenario tests need ../shared: the official runtime "
              f"and its characters)")
        return SKIP
    odir = need_oracle()
    for name in ("scenario.mjs",):
        shutil.copyfile(os.path.join(SHARED, "tools", "oracle", name), os.path.join(odir, name))
    gen = os.path.join(SHARED, "tools", "oracle", "scenario_gen.py")
    total_ok = total_bad = 0
    # hand-written scenarios
    hand_dir = os.path.join(SRC, "tests", "fixtures", "scenarios")
    for fn in sorted(os.listdir(hand_dir)):
        if not fn.endswith(".json"):
            continue
        spec = json.load(open(os.path.join(hand_dir, fn)))
        if only and spec["character"] not in only:
            continue
        ske, tex = find_files(os.path.join(root, spec["character"]))
        pair = run_pair(odir, ske, tex, os.path.join(hand_dir, fn), "hand-" + fn[:-5])
        if pair:
            ok, bad = compare(*pair, fn)
            print(f"hand-written {fn}: {ok} scenarios match, {bad} differ", flush=True)
            total_ok, total_bad = total_ok + ok, total_bad + bad
    # random scenarios, every seed of a character in one script
    for name in sorted(os.listdir(root)):
        folder = os.path.join(root, name)
        if not os.path.isdir(folder) or (only and name not in only):
            continue
        ske, tex = find_files(folder)
        scenarios = []
        tmp = os.path.join(BUILD, "scenarios", name + ".gen.json")
        os.makedirs(os.path.dirname(tmp), exist_ok=True)
        for seed in range(first, first + seeds):
            r = subprocess.run([sys.executable, gen, ske, tmp, str(seed)], capture_output=True, text=True)
            if not check(r.returncode == 0, f"{name}: scenario_gen.py seed {seed} failed: {r.stderr.strip()[:300]}"):
                continue
            for s in json.load(open(tmp))["scenarios"]:
                s["name"] = f"seed{seed}:{s['name']}"
                scenarios.append(s)
        if not scenarios:
            continue
        script = os.path.join(BUILD, "scenarios", name + ".script.json")
        json.dump({"scenarios": scenarios}, open(script, "w"))
        pair = run_pair(odir, ske, tex, script, name)
        if pair:
            ok, bad = compare(*pair, name)
            print(f"{name}: seeds {first}..{first + seeds - 1}: {ok} scenarios match, {bad} differ", flush=True)
            total_ok, total_bad = total_ok + ok, total_bad + bad
            for p in pair:
                os.remove(p)
    print(f"scenarios: {total_ok} match the official runtime, {total_bad} differ")
    finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
