"""Game scripts (scenarios) through an official runtime and `sinew poses --script`, compared by
tests/tools/posecmp: the machinery of tests/cli/scenarios.py (DragonBones 4.0-5.6, the official
runtime of tools/oracle) and tests/cli/v6_conformance.py (DragonBones 6.0, tools/oracle6).

A `Side` names the official runtime that plays the scripts: its folder (scenario.mjs), the files
that pin it (the cache key of testkit.run_cached) and options both it and sinew get (6.0: the
random source, the constraint state).
"""
import json
import os
import subprocess
import sys

from testkit import BUILD, check, run_cached, run_sinew

POSECMP = os.environ.get("POSECMP", os.path.join(BUILD, "tests", "posecmp"))
CHUNK = 10  # seeds per script


class Side:
    def __init__(self, folder, pins, args=()):
        self.folder = folder
        self.pins = list(pins)
        self.args = list(args)


def oracle5(odir):
    """tools/oracle set up in odir (testkit.oracle_dir), pinned by its package-lock.json."""
    return Side(odir, [os.path.join(odir, "package-lock.json")])


def out_dir():
    d = os.path.join(BUILD, "scenarios")
    os.makedirs(d, exist_ok=True)
    return d


def find_files(folder):
    files = sorted(f for f in os.listdir(folder) if f.endswith(".json"))
    ske = [f for f in files if f.endswith("_ske.json")]
    tex = [f for f in files if f.endswith("_tex.json")]
    if not ske:  # 4.x demo naming: NAME.json + texture.json / NAME_texture_1.json
        tex = [f for f in files if "texture" in f]
        ske = [f for f in files if f not in tex]
    return (os.path.join(folder, ske[0]) if ske else None), (os.path.join(folder, tex[0]) if tex else None)


def compare(expected, actual, label):
    """Every scenario of EXPECTED against ACTUAL with tests/tools/posecmp (posediff's checks at its
    default tolerances, plus the events in order); one check per scenario. Returns the counts."""
    r = subprocess.run([POSECMP, expected, actual, "--quiet"], capture_output=True, text=True)
    lines = r.stdout.splitlines()
    if not check(bool(lines) and lines[-1].startswith("posecmp:"),
                 f"{label}: posecmp failed ({r.returncode}): {(r.stderr or r.stdout).strip()[:400]}"):
        return 0, 1
    return compare_lines(lines, label)


def compare_lines(lines, label):
    """One check per scenario of a posecmp --quiet output; returns (matched, differing)."""
    block = []
    for line in lines[:-1] + ["FAIL"]:
        if line.startswith(("FAIL", "ok")):
            if block:
                check(False, f"{label} " + "\n".join(block))
            block = [line] if line.startswith("FAIL ") else []
        elif block:
            block.append(line)
    words = lines[-1].split()
    ok, bad = int(words[1]), int(words[3])
    for _ in range(ok):
        check(True, "")
    return ok, bad


def generate(gen, ske, seeds, name, tmp):
    """scenario_gen.py's scripts for `seeds` on a skeleton, each scenario named after its seed ->
    (scenarios, errors)."""
    scenarios, errors = [], []
    for seed in seeds:
        r = subprocess.run([sys.executable, gen, ske, tmp, str(seed)], capture_output=True, text=True)
        if r.returncode != 0:
            errors.append(f"{name}: scenario_gen.py seed {seed} failed: {r.stderr.strip()[:300]}")
            continue
        for s in json.load(open(tmp))["scenarios"]:
            s["name"] = f"seed{seed}:{s['name']}"
            scenarios.append(s)
    if os.path.exists(tmp):
        os.remove(tmp)
    return scenarios, errors


def run_batch(side, gen, chunk, last, char):
    """One batch (seeds chunk..last-1 of a character) through both sides, in a worker thread.
    Returns (errors, posecmp output lines or None); the checks are made by the caller."""
    name, ske, tex = char
    scenarios, errors = generate(gen, ske, range(chunk, last), name, os.path.join(out_dir(), f"{name}.{chunk}.gen.json"))
    if not scenarios:
        return errors, None
    err, lines = compare_scenarios(side, ske, tex, scenarios, f"{name}.{chunk}")
    return errors + err, lines


def compare_scenarios(side, ske, tex, scenarios, tag):
    """Both sides on SCENARIOS (one script); returns (errors, posecmp --quiet lines or None). When
    the official side cannot hold the dump in one string (node's limit, ~512 MB, reached by large
    characters), the scenarios are split in halves and run again."""
    script = os.path.join(out_dir(), f"{tag}.script.json")
    json.dump({"scenarios": scenarios}, open(script, "w"))
    pair, err = run_pair_quiet(side, ske, tex, script, tag)
    if not pair:
        if "Invalid string length" in err and len(scenarios) > 1:
            os.remove(script)
            half = len(scenarios) // 2
            e1, l1 = compare_scenarios(side, ske, tex, scenarios[:half], tag + "a")
            e2, l2 = compare_scenarios(side, ske, tex, scenarios[half:], tag + "b")
            if l1 is None or l2 is None:
                return e1 + e2, None
            ok = int(l1[-1].split()[1]) + int(l2[-1].split()[1])
            bad = int(l1[-1].split()[3]) + int(l2[-1].split()[3])
            return e1 + e2, l1[:-1] + l2[:-1] + [f"posecmp: {ok} passed, {bad} failed"]
        return [err], None
    r = subprocess.run([POSECMP, *pair, "--quiet"], capture_output=True, text=True)
    for p in pair:
        os.remove(p)
    lines = r.stdout.splitlines()
    if not lines or not lines[-1].startswith("posecmp:"):
        return [f"{tag}: posecmp failed ({r.returncode}): {(r.stderr or r.stdout).strip()[:400]}"], None
    if lines[-1].split()[3] == "0":
        os.remove(script)
    return [], lines


def run_scenario(side, ske, script, atlas, exp):
    """The official runtime's dump of a script (cached: testkit.run_cached) -> (ok, stderr)."""
    return run_cached(["node", os.path.join(side.folder, "scenario.mjs"), ske, script, *atlas, "--precision", "9",
                       *side.args, "--out", exp], exp, extra_inputs=side.pins)


def sinew_script(side, ske, script, atlas, act):
    """`sinew poses SKE --script SCRIPT` with the side's options -> the completed process."""
    return run_sinew("poses", ske, "--script", script, *atlas, "--precision", "9", *side.args, "--out", act)


def run_pair_quiet(side, ske, tex, script, tag):
    """run_pair for a worker thread: ((expected, actual), None) or (None, error)."""
    exp, act = os.path.join(out_dir(), tag + ".expected.json"), os.path.join(out_dir(), tag + ".sinew.json")
    atlas = ["--atlas", tex] if tex else []
    ok, err = run_scenario(side, ske, script, atlas, exp)
    if not ok:
        return None, f"{tag}: scenario.mjs failed: {err.strip()[:400]}"
    r = sinew_script(side, ske, script, atlas, act)
    if r.returncode != 0:
        return None, f"{tag}: sinew poses --script exited {r.returncode}: {r.stderr.strip()[:400]}"
    return (exp, act), None


def run_pair(side, ske, tex, script, tag):
    """Runs a script through scenario.mjs and sinew (a check each); returns the two dump paths or
    None."""
    exp, act = os.path.join(out_dir(), tag + ".expected.json"), os.path.join(out_dir(), tag + ".sinew.json")
    atlas = ["--atlas", tex] if tex else []
    ok, err = run_scenario(side, ske, script, atlas, exp)
    if not check(ok, f"{tag}: scenario.mjs failed: {err.strip()[:400]}"):
        return None
    r = sinew_script(side, ske, script, atlas, act)
    if not check(r.returncode == 0, f"{tag}: sinew poses --script exited {r.returncode}: {r.stderr.strip()[:400]}"):
        return None
    return exp, act
