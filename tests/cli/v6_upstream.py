#!/usr/bin/env python3
"""DragonBones 6.0 files play with upstream DragonBonesJS 5.7 / 6.0.2 semantics wherever the 5.x
reference (the Cocos fork, tools/oracle) differs, as the official 6.0.2 runtime (tools/oracle6)
plays them (docs/runtime.md "Upstream 5.7 semantics").

The 6.0.2 runtime reads 5.x keys whatever the version, so a 5.x rig relabelled 6.0 ("version" set
to "6.0", "compatibleVersion" dropped; tests/fixtures/v6_upstream/make_expected.py relabel()) is a
6.0 file that exercises exactly these semantics and no 6.0-only construct.

1. Every run (a bare clone too): the rigs of tests/fixtures/v6_upstream/make_expected.py (the own
   Pip 4.0-5.5 and the hand-written rigs of tests/fixtures/oracle, relabelled; the hand-made 6.0
   rigs generic and control, which make_rigs.py must write byte for byte) through `sinew poses`
   against the official dumps committed in tests/fixtures/v6_upstream/expected: step mode at the
   file's rate and at 13 Hz, seek mode, and the hand-written game scripts (--script), events
   included. Deliberately different: oracle/path_ske.json relabelled, which the 6.0.2 parser
   cannot load (it throws on weighted paths in the 5.5 layout): sinew warns about it, plays it, and
   its poses are finite.
2. Every run with ../shared: the nine shared characters relabelled, step mode at their rate,
   against tools/oracle6 run live (its dumps cached, testkit.run_cached). Nothing of ../shared is
   committed: the relabelled copies are made in $BUILD at test time.
3. With --live (by hand: 6 to 10 minutes, measured on a busy 2-core machine; too slow for every run): the
   committed dumps are what the official 6.0.2 runtime gives now (make_expected.py --check); the
   shared characters also at 37 Hz and in seek mode; the third-party rigs of ../shared/data/wild
   relabelled (the JSON ones; step, seek); random game scripts of scenario_gen.py (seeds 1..N on
   the relabelled own and oracle rigs and the hand-made rigs, seed 1 on the shared characters)
   through oracle6's scenario.mjs (tests/lib/scenariokit.py).

Excused (EXCUSED below, each bounded, docs/runtime.md "Upstream 5.7 semantics"): the animation
'mixed' of generic_ske.json, which keys b1's translation twice (a legacy translateFrame and a
generic type-11 entry), in seek mode and under game scripts that stop or play it: the official
runtime then adds the legacy x tween from the second sample on, sinew plays only the generic
entry, as both do in step mode (10.8 px in seek mode, up to 11.1 px under the random scripts).

Every comparison is tests/tools/posecmp (posediff's default tolerances, plus the events in order);
the worst errors per corpus are printed at the end.

usage: v6_upstream.py [--live] [--seeds N]   (--live: part 3; random scripts: seeds 1..N, default 2,
                                              under ASan+UBSan 1)
"""
import filecmp
import json
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (BUILD, CORPUS, SHARED, SRC, check, corpus_path, finish, have_shared, load_module,  # noqa: E402
                     run_cached, run_sinew, sinew_poses, skip)
import scenariokit  # noqa: E402

HERE = os.path.join(SRC, "tests", "fixtures", "v6_upstream")
WORK = os.path.join(BUILD, "v6_upstream")
os.makedirs(WORK, exist_ok=True)


mx = load_module("v6_upstream_make_expected", os.path.join(HERE, "make_expected.py"))
ORACLE6 = mx.ORACLE6
PINS = [os.path.join(ORACLE6, f) for f in ("dragonBones.js", "runtime.mjs", "oracle.mjs", "scenario.mjs")]
argv = sys.argv[1:]
LIVE = "--live" in argv
SEEDS = 1 if os.environ.get("SINEW_SANITIZE") else 2
if "--seeds" in argv:
    SEEDS = int(argv[argv.index("--seeds") + 1])

# the worst error per corpus: {corpus: [pos, axis, color, units]}
WORST = {}
UNIT = re.compile(r"^(ok|FAIL) +(\S+): pos (\S+) axis (\S+) colou?r (\S+)")

# Known differences from the official runtime, each bounded: (label pattern, unit pattern, largest
# position error in px, largest matrix-axis error, reason). A unit that matches one and differs
# only in positions and axes within its bounds passes (and is counted as excused); anything
# else in it (draw order, displays, events, colours) fails as usual.
MIXED = ("the animation 'mixed' keys b1's translation twice (a legacy translateFrame and a generic "
         "type-11 entry): where the official runtime seeks into it (gotoAndStop, seek mode) it adds "
         "the legacy x tween from the second sample on; sinew plays the generic entry only, as both "
         "do in step mode")
EXCUSED = [
    (r"^generic_seek$", r"^gen/mixed$", 11.0, 0.3, MIXED),  # measured 10.8 px, 0.298
    # random scripts that play or seek 'mixed' (--live; seeds 1-2 measured up to 11.1 px, 1.14)
    (r"^generic \(scenario_gen", r"^gen/seed\d+:gen#\d+$", 12.0, 1.2, MIXED),
]
EXCUSED_SEEN = []


def excused(label, unit, pos, axis, color, detail):
    """The EXCUSED entry that covers this failing unit, or None."""
    if color > 1e-3 or any(not d.strip().startswith(("pos error", "axis error")) for d in detail):
        return None
    for lab, un, max_pos, max_axis, why in EXCUSED:
        if re.search(lab, label) and re.search(un, unit) and pos <= max_pos and axis <= max_axis:
            return why
    return None


def compare(expected, actual, label, corpus, uses=None):
    """posecmp on two dumps: one check per unit (animation or scenario), the worst errors kept.
    `uses`: {unit: animations its script plays}, to excuse only the units that play 'mixed'."""
    r = subprocess.run([scenariokit.POSECMP, expected, actual], capture_output=True, text=True)
    lines = r.stdout.splitlines()
    if not check(bool(lines) and lines[-1].startswith("posecmp:"),
                 f"{label}: posecmp failed ({r.returncode}): {(r.stderr or r.stdout).strip()[-400:]}"):
        return
    w = WORST.setdefault(corpus, [0.0, 0.0, 0.0, 0])
    for i, line in enumerate(lines[:-1]):
        m = UNIT.match(line)
        if not m:
            continue
        w[3] += 1
        errs = [float(m.group(3 + k)) for k in range(3)]
        for k in range(3):
            w[k] = max(w[k], errs[k])
        detail = []
        for x in lines[i + 1:]:
            if not x.startswith(" "):
                break
            detail.append(x)
        why = None
        if m.group(1) != "ok" and (uses is None or "mixed" in uses.get(m.group(2).split("/", 1)[-1], ())):
            why = excused(label, m.group(2), *errs, detail)
        if why:
            EXCUSED_SEEN.append(f"{label} {m.group(2)}: pos {errs[0]:.3g} px, axis {errs[1]:.3g}")
        check(m.group(1) == "ok" or why is not None,
              f"{label} {m.group(2)} differs from the official 6.0 runtime:\n" + "\n".join([line] + detail[:5]))


# ---- 1. the committed official dumps ------------------------------------------------------------

with tempfile.TemporaryDirectory() as tmp:
    mx_rigs = load_module("v6_upstream_make_rigs", os.path.join(HERE, "make_rigs.py"))
    mx_rigs.main(["make_rigs.py", tmp])
    for name in mx_rigs.RIGS:
        check(filecmp.cmp(os.path.join(tmp, name), os.path.join(HERE, name), shallow=False),
              f"tests/fixtures/v6_upstream/{name} is what make_rigs.py writes")

JOBS = mx.jobs(os.path.join(WORK, "rigs"))
check(len(JOBS) >= 50, f"{len(JOBS)} committed dumps to check")
for name, oracle_argv, opts in JOBS:
    expected = mx.expected_path(name)
    if not check(os.path.isfile(expected), f"{os.path.relpath(expected, SRC)} is committed (make fixtures)"):
        continue
    actual = os.path.join(WORK, name + ".sinew.json")
    ske = oracle_argv[2]
    if "--script" in opts:
        r = run_sinew("poses", ske, *opts, "--precision", "9", "--out", actual)
        ok, err = r.returncode == 0, r.stderr.strip()
    else:
        ok, err = sinew_poses(ske, actual, "--animation", "all", *opts)
    corpus = ("committed scripts" if "--script" in opts else
              "committed hand-made 6.0 rigs" if name.startswith(("control", "generic")) else "committed relabelled rigs")
    if check(ok, f"{name}: sinew poses failed: {err[-400:]}"):
        compare(expected, actual, name, corpus)
print("committed dumps: %d checked" % len(JOBS), flush=True)

# deliberately different: the relabelled rig the official parser rejects
for rejected, why in mx.REJECTED.items():
    ske = mx.relabel(os.path.join(SRC, "tests", "fixtures", "oracle", rejected + "_ske.json"),
                     os.path.join(WORK, "rejected", rejected + "_ske.json"))
    out = os.path.join(WORK, rejected + ".sinew.json")
    ok, err = sinew_poses(ske, out, "--animation", "all")
    check(ok and "bonePose" in err and "warning" in err,
          f"relabelled {rejected} ({why}): sinew warns ('bonePose') and plays it: {err[-300:]!r}")
    if ok:
        text = open(out, encoding="utf-8").read()
        nums = [float(x) for x in re.findall(r'"matrix":\[([^\]]*)\]', text) for x in x.split(",")]
        check(nums and all(math.isfinite(v) for v in nums), f"relabelled {rejected}: sinew's matrices are finite")


# ---- 2. live against the official 6.0 runtime (../shared) ---------------------------------------

def live(label, corpus, ske, atlas, args):
    """tools/oracle6 (cached) and sinew on one relabelled skeleton with `args`: compared."""
    tag = re.sub(r"[^A-Za-z0-9_.]+", "_", label)
    expected, actual = os.path.join(WORK, tag + ".o6.json"), os.path.join(WORK, tag + ".sinew.json")
    at = ["--atlas", atlas] if atlas else []
    ok, err = run_cached(["node", os.path.join(ORACLE6, "oracle.mjs"), ske, *at, "--armature", "all", "--animation",
                          "all", "--precision", "9", *args, "--out", expected], expected, extra_inputs=PINS)
    if not check(ok, f"{label}: the official 6.0 runtime failed: {err.strip()[-400:]}"):
        return
    ok, err = sinew_poses(ske, actual, "--animation", "all", *at, *args)
    if check(ok, f"{label}: sinew poses failed: {err[-400:]}"):
        compare(expected, actual, label, corpus)
        os.remove(actual)


def wild_rigs():
    """[(label, skeleton, atlas or None)]: the JSON rigs of ../shared/data/wild (no DBBin: the 6.0.2
    runtime cannot read it; not the refused ones)."""
    root, out = os.path.join(SHARED, "data", "wild"), []
    for d in sorted(os.listdir(root)):
        folder = os.path.join(root, d)
        if d in ("dbbin", "refused") or not os.path.isdir(folder):
            continue
        docs = {f: json.load(open(os.path.join(folder, f), encoding="utf-8"))
                for f in sorted(os.listdir(folder)) if f.endswith(".json")}
        atlases = [f for f, doc in docs.items() if "armature" not in doc]
        for f, doc in docs.items():
            if "armature" in doc:
                out.append((d + "/" + f, os.path.join(folder, f), os.path.join(folder, atlases[0]) if atlases else None))
    return out


def shared_characters():
    """[(name, relabelled skeleton in $BUILD, atlas)]: the nine shared characters as 6.0 files."""
    out = []
    for name in sorted(CORPUS):
        ske = mx.relabel(corpus_path(name), os.path.join(WORK, "shared", name, os.path.basename(corpus_path(name))))
        out.append((name, ske, corpus_path(name, 1)))
    return out


def random_scripts(characters):
    """scenario_gen.py's random scripts through oracle6's scenario.mjs and sinew --script: the
    relabelled own, oracle and hand-made rigs (seeds 1..SEEDS), the shared characters (seed 1)."""
    gen = os.path.join(SHARED, "tools", "oracle", "scenario_gen.py")
    side = scenariokit.Side(ORACLE6, PINS)
    rigs = {n: (ske, atlas) for n, (ske, atlas, _) in mx.relabelled(os.path.join(WORK, "rigs")).items()}
    batches = [(n, ske, atlas, range(1, SEEDS + 1), "script rigs") for n, (ske, atlas) in sorted(rigs.items())]
    batches += [(n, ske, atlas, range(1, 2), "script shared") for n, ske, atlas in characters]
    for name, ske, atlas, seeds, corpus in batches:
        doc = json.load(open(ske, encoding="utf-8"))
        if all(len(a.get("animation", [])) < 2 for a in doc["armature"]):
            continue  # scenario_gen.py writes scripts for armatures with two animations or more
        scen, errors = scenariokit.generate(gen, ske, seeds, name, os.path.join(WORK, name + ".gen.json"))
        for msg in errors:
            check(False, msg)
        script = os.path.join(WORK, name + ".script.json")
        with open(script, "w", encoding="utf-8") as f:
            json.dump({"scenarios": scen}, f)
        uses = {s["name"]: {c.get("animation") for c in s["commands"]} for s in scen}
        pair, err = scenariokit.run_pair_quiet(side, ske, atlas, script, "v6u-" + name)
        if check(pair is not None, f"{name}: random scripts: {err}"):
            compare(*pair, f"{name} (scenario_gen.py seeds {seeds.start}..{seeds.stop - 1})", corpus, uses)
            for p in pair:
                os.remove(p)


if not have_shared() or not os.path.isfile(os.path.join(ORACLE6, "oracle.mjs")):
    skip(len(CORPUS), "shared characters relabelled 6.0 against the live official 6.0 runtime")
else:
    CHARACTERS = shared_characters()
    for name, ske, atlas in CHARACTERS:
        live(name, "shared characters", ske, atlas, [])
    print("shared characters: done", flush=True)
    if LIVE:
        r = subprocess.run([sys.executable, os.path.join(HERE, "make_expected.py"), "--check"], capture_output=True,
                           text=True, env=dict(os.environ, SHARED=SHARED, BUILD=BUILD))
        check(r.returncode == 0, "the committed dumps are what the official 6.0 runtime gives now (run `make "
              "fixtures`):\n" + (r.stdout + r.stderr).strip()[-1500:])
        for name, ske, atlas in CHARACTERS:
            for suffix, args in ((" 37hz", ["--fps", "37"]), (" seek", ["--mode", "seek"])):
                live(name + suffix, "shared characters", ske, atlas, args)
        for label, src, atlas in wild_rigs():
            ske = mx.relabel(src, os.path.join(WORK, "wild", label))
            for suffix, args in (("", []), (" seek", ["--mode", "seek"])):
                live(label + suffix, "wild", ske, atlas, args)
        print("wild corpus: done", flush=True)
        random_scripts(CHARACTERS)
if not LIVE:
    print("not run (--live, by hand): the freshness of the committed dumps, the shared characters at 37 Hz and "
          "seek, the wild corpus relabelled, random game scripts", flush=True)

for seen in EXCUSED_SEEN:
    print(f"excused (EXCUSED): {seen}")
for corpus, (pos, axis, color, units) in sorted(WORST.items()):
    print(f"worst error, {corpus} ({units} units): pos {pos:.3g} px, axis {axis:.3g}, colour {color:.3g}")
finish()
