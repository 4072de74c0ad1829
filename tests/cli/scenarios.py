#!/usr/bin/env python3
"""The animation state driven like a game, against the official runtime.

Scripted scenarios (cross-fades, layers, groups, weights, time scales, goto, stop) run in the
official runtime ($SHARED/tools/oracle/scenario.mjs) and in `sinew poses --script`; the dumps
are compared at posediff's default tolerances (positions 0.01, matrix axes 1e-4, colours 1e-3;
display index, draw order and the events exactly), and here the events also in their order.

- random: $SHARED/tools/oracle/scenario_gen.py with fixed seeds on every shared character (all
  seeds of a character in one script, so each side runs once per character);
- hand-written: tests/fixtures/scenarios/*.json, one file per character, a scenario per op and
  fade-out mode (the file's "character" names the shared folder, "oracle:NAME" the rig
  tests/fixtures/oracle/NAME_ske.json, or "own:NAME" the project's
  fixture tests/fixtures/own/NAME).

A script on an own fixture is compared with its official dump committed by `make fixtures`
(tests/fixtures/own/expected/scenarios_FILE.poses.json; oracle_fixtures checks it is current),
so that part runs on a bare clone; the rest needs $SHARED and is skipped without it.

usage: scenarios.py [--seeds N] [--first K] [--set NAME]... [--random-only] [--wild] [--jobs J]
(defaults: 10 seeds from 1, under ASan+UBSan 2; 1 job). `make fuzz-scenarios SEEDS=N [FIRST=K]` runs
the random part with more seeds; `--wild` (`make fuzz-scenarios WILD=1`) plays them on the third-party
rigs of $SHARED/data/wild (the JSON ones; a folder holding only DBBin is left out) instead of the
shared characters. A script that differs is kept in $BUILD/scenarios/ to rerun.
"""
import concurrent.futures
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import BUILD, SHARED, SRC, check, finish, have_shared, need_oracle, own_expected, run_sinew, skip  # noqa: E402
from scenariokit import CHUNK, compare, compare_lines, find_files, oracle5, run_batch, run_pair  # noqa: E402


def main(argv):
    seeds, first, only, hand, jobs, wild = None, 1, [], True, 1, False
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
        elif argv[i] == "--random-only":
            hand = False
            i += 1
        elif argv[i] == "--wild":
            wild, hand = True, False
            i += 1
        elif argv[i] == "--jobs":
            jobs = max(1, int(argv[i + 1]))
            i += 2
        else:
            print(__doc__)
            return 1
    if seeds is None:
        seeds = 2 if os.environ.get("SINEW_SANITIZE") else 10
    total_ok = total_bad = 0
    hand_dir = os.path.join(SRC, "tests", "fixtures", "scenarios")
    hand_files = sorted(f for f in os.listdir(hand_dir) if f.endswith(".json")) if hand else []
    # hand-written scenarios on the project's own fixtures, against their committed official dumps
    shared_hand = []
    for fn in hand_files:
        spec = json.load(open(os.path.join(hand_dir, fn)))
        if only and spec["character"] not in only:
            continue
        if spec["character"].startswith("oracle:"):  # a hand-written rig of tests/fixtures/oracle
            ske, tex = os.path.join(SRC, "tests", "fixtures", "oracle", spec["character"][7:] + "_ske.json"), None
        elif spec["character"].startswith("own:"):
            ske, tex = find_files(os.path.join(SRC, "tests", "fixtures", "own", spec["character"][4:]))
        else:
            shared_hand.append(fn)
            continue
        out_dir = os.path.join(BUILD, "scenarios")
        os.makedirs(out_dir, exist_ok=True)
        act = os.path.join(out_dir, "own-" + fn[:-5] + ".sinew.json")
        r = run_sinew("poses", ske, "--script", os.path.join(hand_dir, fn), *(["--atlas", tex] if tex else []),
                      "--precision", "9", "--out", act)
        if check(r.returncode == 0, f"{fn}: sinew poses --script exited {r.returncode}: {r.stderr.strip()[:400]}"):
            ok, bad = compare(own_expected("scenarios_" + fn[:-5]), act, fn)
            print(f"hand-written {fn} (committed official dump): {ok} scenarios match, {bad} differ", flush=True)
            total_ok, total_bad = total_ok + ok, total_bad + bad
    root = os.path.join(SHARED, "data", "wild" if wild else "dragonbones")
    if not have_shared():
        skip(len(shared_hand) + (1 if not only else 0),
             "scenario runs against the live official runtime (the hand-written scripts on shared characters and "
             "scenario_gen.py's random ones on every shared character)")
        print(f"scenarios: {total_ok} match the official runtime, {total_bad} differ")
        finish()
    side = oracle5(need_oracle())
    gen = os.path.join(SHARED, "tools", "oracle", "scenario_gen.py")
    # hand-written scenarios on the shared characters
    for fn in shared_hand:
        spec = json.load(open(os.path.join(hand_dir, fn)))
        ske, tex = find_files(os.path.join(root, spec["character"]))
        pair = run_pair(side, ske, tex, os.path.join(hand_dir, fn), "hand-" + fn[:-5])
        if pair:
            ok, bad = compare(*pair, fn)
            print(f"hand-written {fn}: {ok} scenarios match, {bad} differ", flush=True)
            total_ok, total_bad = total_ok + ok, total_bad + bad
    # random scenarios: the seeds of a character in batches of CHUNK, one script (so one run of each
    # side) per batch; batches go seed-major (every character gets the first seeds before any gets
    # the next), `jobs` at a time, so a long run stopped early has covered every character alike
    chars = []
    for name in sorted(os.listdir(root)):
        folder = os.path.join(root, name)
        if os.path.isdir(folder) and (not only or name in only):
            ske, tex = find_files(folder)
            if ske:
                chars.append((name, ske, tex))
    batches = [(chunk, min(chunk + CHUNK, first + seeds), c) for chunk in range(first, first + seeds, CHUNK)
               for c in chars]
    per_char = {c[0]: [0, 0] for c in chars}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for (chunk, last, (name, _, _)), res in zip(batches, pool.map(lambda b: run_batch(side, gen, *b), batches)):
            errors, lines = res
            for e in errors:
                check(False, e)
            ok, bad = (compare_lines(lines, name) if lines is not None else (0, 0))
            per_char[name][0] += ok
            per_char[name][1] += bad
            total_ok, total_bad = total_ok + ok, total_bad + bad
            if jobs > 1 or seeds > CHUNK:  # a long run: progress per batch
                print(f"{name}: seeds {chunk}..{last - 1}: {ok} scenarios match, {bad} differ "
                      f"(all so far: {total_ok} match, {total_bad} differ)", flush=True)
    for name, (ok, bad) in per_char.items():
        print(f"{name}: seeds {first}..{first + seeds - 1}: {ok} scenarios match, {bad} differ", flush=True)
    print(f"scenarios: {total_ok} match the official runtime, {total_bad} differ")
    finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
