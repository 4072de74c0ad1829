#!/usr/bin/env python3
"""DragonBones 6.0: sinew against the official 6.0.2 runtime (tools/oracle6) on the project's own
6.0 fixtures (tests/fixtures/v6, README.md there says what each exercises).

1. The fixtures are what tests/fixtures/v6/make_fixtures.py writes (JSON exactly, PNG pixels
   within 1 level), every one is described in the README, every dump of manifest.json is
   committed and no other, and they cover the 6.0 keys and timelines of
   ../shared/docs/dragonbones-6.0.md sections 2-10 (checked on the files) and do something in
   the official runtime (checked on its committed dumps: masks assigned, shapes and paths that
   move, physics awake and asleep, step-count ties at 30 Hz, the random source acting, NaN where
   the official runtime gives NaN).
2. The comparators (tests/lib/posecmp.py and tests/tools/posecmp) tell a wrong 6.0 dump from a
   right one: masks, shape and path vertices, the constraint state; with ../shared, posediff6.py
   gives the same verdicts where it compares.
3. `sinew poses` with each dump's options (--fps, --mode seek, --cache-fps, --random,
   --constraints) against every committed dump, at posediff's tolerances; the hand-written
   scenario scripts (tests/fixtures/v6/scenarios) through `sinew poses --script` against theirs.
   The fixtures on which the official runtime gives NaN (a documented, deliberate difference in
   sinew): sinew warns, its poses are finite, and the rest of the pose matches.
4. With ../shared: the committed dumps are what the official 6.0 runtime gives now
   (make_expected.py --check), and scenario_gen.py's random game scripts on every fixture run
   through oracle6's scenario.mjs and `sinew poses --script`.

Parts 1-3 need only the repository (a bare clone); part 4 is skipped without ../shared.
usage: v6_conformance.py [--seeds N] [NAME...]   (NAME: fixtures or dumps to run, default all;
random scripts: seeds 1..N, default 2, under ASan+UBSan 1)
"""
import copy
import importlib.util
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (BUILD, SHARED, SRC, check, finish, have_shared, posecmp, same_generated,  # noqa: E402
                     sinew_poses, skip)
import posecmp as pc  # noqa: E402
import scenariokit  # noqa: E402

V6 = os.path.join(SRC, "tests", "fixtures", "v6")
ORACLE6 = os.path.realpath(os.path.join(SHARED, "tools", "oracle6"))  # see make_expected.py
OUT = os.path.join(BUILD, "v6_conformance")
os.makedirs(OUT, exist_ok=True)


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


mx = _load("v6_make_expected", os.path.join(V6, "make_expected.py"))
manifest = mx.manifest()
FIXTURES = manifest["fixtures"]

argv = sys.argv[1:]
SEEDS = 1 if os.environ.get("SINEW_SANITIZE") else 2
if "--seeds" in argv:
    i = argv.index("--seeds")
    SEEDS = int(argv[i + 1])
    del argv[i:i + 2]
only = argv


def wanted(*names):
    return not only or any(n in only for n in names)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def samples(dump):
    for arm in dump["armatures"]:
        for an in arm.get("animations", []):
            for s in an["samples"]:
                yield arm["name"], an["name"], s


def slots_of(dump):
    return (sl for _, _, s in samples(dump) for sl in s["slots"])


# ---- 1. the fixtures --------------------------------------------------------------------------

def fixture_files():
    out = []
    for root, dirs, files in os.walk(V6):
        rel = os.path.relpath(root, V6)
        if rel.split(os.sep)[0] in ("expected", "scenarios", "__pycache__"):
            continue
        out += [os.path.normpath(os.path.join(rel, f)) for f in files]
    return sorted(f for f in out if f not in ("README.md", "make_fixtures.py", "make_expected.py"))


regen = os.path.join(OUT, "regen")
r = subprocess.run([sys.executable, os.path.join(V6, "make_fixtures.py"), "--out", regen], capture_output=True, text=True)
if check(r.returncode == 0, "tests/fixtures/v6/make_fixtures.py runs: " + r.stderr[-500:]):
    mine = fixture_files()
    theirs = sorted(f for f in os.listdir(regen) if os.path.isfile(os.path.join(regen, f)))
    check(theirs == mine, f"the generator writes exactly the committed files (missing {sorted(set(theirs) - set(mine))}, "
                          f"extra {sorted(set(mine) - set(theirs))})")
    stale = [f for f in sorted(set(mine) & set(theirs)) if not same_generated(os.path.join(V6, f), os.path.join(regen, f))]
    check(not stale, f"the committed fixtures are what make_fixtures.py writes (differ: {stale}); run "
                     "python3 tests/fixtures/v6/make_fixtures.py, then `make fixtures`")

readme = open(os.path.join(V6, "README.md"), encoding="utf-8").read()
check(all(f"`{e['name']}`" in readme for e in FIXTURES),
      "tests/fixtures/v6/README.md describes every fixture: " + str([e["name"] for e in FIXTURES
                                                                     if f"`{e['name']}`" not in readme]))
JOBS = mx.jobs()
dumps = sorted(j[0] for j in JOBS)
check(len(dumps) == len(set(dumps)), "every dump has its own name")
check(all(os.path.exists(mx.expected_path(d)) for d in dumps),
      "every dump of manifest.json is committed: " + str([d for d in dumps if not os.path.exists(mx.expected_path(d))]))
check(sorted(f[:-len(".poses.json")] for f in os.listdir(mx.EXPECTED)) == dumps, "no stray dump in expected/")
check(sorted("scenarios_" + f[:-5] for f in os.listdir(mx.SCENARIOS) if f.endswith(".json"))
      == sorted(s["name"] for s in manifest["scenarios"]), "manifest.json lists every scenario script")

# coverage on the files: every key of docs/dragonbones-6.0.md sections 2-10
skeletons = {e["name"]: load(os.path.join(SRC, e["skeleton"])) for e in FIXTURES}
check(all(d["version"] == "6.0" for d in skeletons.values()), "every fixture says \"version\": \"6.0\"")
armatures = [a for d in skeletons.values() for a in d["armature"]]
phys = [p for a in armatures for p in a.get("physics", [])]
trans = [t for a in armatures for t in a.get("transform", [])]
paths = [p for a in armatures for p in a.get("path", [])]
displays = [d for a in armatures for sk in a.get("skin", []) for s in sk["slot"] for d in s["display"]]
anims = [an for a in armatures for an in a.get("animation", [])]


def keys_used(objs):
    return {k for o in objs for k in o}


for k in ("x", "y", "rotate", "shearX", "scaleX", "limit", "fps", "inertia", "strength", "damping", "mass", "wind",
          "windDisturbance", "gravity", "weight"):
    check(k in keys_used(phys), f"a physics constraint sets `{k}`")
check({p.get("fps") for p in phys} >= {30, 60, 90, 120, 24, None} and {p["limit"] for p in phys} >= {0, 2}
      and 0 in {p["weight"] for p in phys} and 0 in {p["mass"] for p in phys},
      "physics rates 30/60/90/120/24 and the default, limits 0 and 2, weight 0, mass 0")
for k in ("local", "relative", "translateWeight", "rotateWeight", "scaleWeight"):
    check(k in keys_used(trans), f"a transform constraint sets `{k}`")
check(keys_used(t["offset"] for t in trans) >= {"x", "y", "skX", "scX", "scY"}, "transform offsets x, y, skX, scX, scY")
check({p.get("positionMode") for p in paths} >= {0, 1} and {p.get("spacingMode") for p in paths} >= {0, 1, 2, None}
      and {p.get("rotateMode") for p in paths} >= {0, 1, 2, 3}
      and keys_used(paths) >= {"rotateWeight", "xWeight", "yWeight", "rotateOffset"},
      "path positionMode 0/1, spacingMode 0/1/2/absent, rotateMode 0-3, rotateWeight/xWeight/yWeight/rotateOffset")
pdisp = [d for d in displays if d.get("type") == "path"]
check(any(d["closed"] for d in pdisp) and any(not d["closed"] for d in pdisp) and any("weights" in d for d in pdisp)
      and any(d["constantSpeed"] for d in pdisp), "closed, open, bound and constant-speed paths")
sdisp = [d for d in displays if d.get("type") == "shape"]
styles = [p["style"] for d in sdisp for p in d["shape"]["paths"]]
check(any("weights" in d for d in sdisp) and any("weights" not in d for d in sdisp) and any("transform" in d for d in sdisp)
      and any("fill" in st for st in styles) and any("stroke" in st for st in styles)
      and any("opacity" not in st.get("stroke", {"opacity": 0}) for st in styles)
      and any(len(d["shape"]["paths"]) > 1 for d in sdisp), "shapes: weighted and not, fill, stroke (one without "
                                                             "opacity), a display transform, several paths")
check(any(d.get("mask") and d.get("type") == "shape" for d in displays)
      and any(d.get("mask") and d.get("type", "image") == "image" for d in displays)
      and {d.get("maskRange") for d in displays if d.get("mask")} >= {0, 1, 2, 3, 1000}
      and any("maskRange" in d and not d.get("mask") for d in displays),
      "image and shape masks, maskRange 0, 1, 2, 3, 1000, maskRange without mask")
check(any(t["name"] == d["name"] for an in anims for t in an.get("shape", []) for d in sdisp)
      and any(t["name"] == d["name"] for an in anims for t in an.get("shape", []) for d in pdisp),
      "shape deform and path deform timelines (animation `shape`)")
check(keys_used(t for an in anims for t in an.get("path", [])) >= {"position", "spacing", "weight"},
      "path position, spacing and weight timelines")
config_keys, config_fields = set(), set()
for an in anims:
    for kind in ("bone", "slot", "ffd", "shape", "ik", "path"):
        for t in an.get(kind, []):
            for k, v in t.get("timelineConfig", {}).items():
                config_keys.add((kind, k))
                config_fields |= {(f, v[f]) for f in v}
    if "timelineConfig" in an.get("zOrder", {}):
        config_keys.add(("zOrder", "frame"))
check(config_keys >= {("bone", "translateFrame"), ("bone", "rotateFrame"), ("bone", "scaleFrame"), ("bone", "frame"),
                      ("slot", "displayFrame"), ("slot", "colorFrame"), ("ffd", "frame"), ("shape", "frame"),
                      ("ik", "frame"), ("path", "position"), ("path", "spacing"), ("path", "weight"),
                      ("zOrder", "frame")},
      f"timelineConfig on every kind of timeline ({sorted(config_keys)})")
check({f for f, _ in config_fields} >= {"scale", "offset", "loop"} and {("loop", True), ("loop", False)} <= config_fields
      and any(f == "offset" and v < 0 for f, v in config_fields) and any(f == "scale" and v < 1 for f, v in config_fields)
      and any(f == "scale" and v > 1 for f, v in config_fields), "timelineConfig scale above and below 1, negative "
                                                                   "offsets, loop on and off")
check(any("offset" in t or "scale" in t for an in anims for t in an.get("bone", []) + an.get("slot", [])),
      "4.x-style timeline scale / offset in a 6.0 file")
check(any(k.get("bendPositive") is False for an in anims for t in an.get("ik", []) for k in t["frame"])
      and any(len(t["frame"]) == 1 for an in anims for t in an.get("ik", [])), "IK timelines: bends, a one-key timeline")
trimmed = load(os.path.join(V6, "v6_trimmed_tex.json"))
check(any(e["atlas"].endswith("v6_trimmed_tex.json") for e in FIXTURES)
      and any("frameX" in s and s["frameX"] != 0 for s in trimmed["SubTexture"]), "a trimmed atlas")

# coverage on the official runtime's dumps: the features do something
exp = {j[0]: load(mx.expected_path(j[0])) for j in JOBS if os.path.exists(mx.expected_path(j[0]))}


def has_null(o):
    if o is None:
        return True
    if isinstance(o, dict):
        return any(has_null(v) for k, v in o.items()
                   if k not in ("parent", "maskedBy", "display", "events", "childArmature"))
    if isinstance(o, list):
        return any(has_null(v) for v in o)
    return False


if len(exp) == len(JOBS):
    masks = exp["masks"]
    check({sl.get("maskedBy") for sl in slots_of(masks)} >= {"m_img", "m_shape", "m_over", "m_big"}
          and {sl["mask"] for sl in slots_of(masks) if "mask" in sl} >= {1, 2, 3, 1000},
          "masks: every mask clips something in the official runtime")
    switch = [s for arm, an, s in samples(masks) if an == "switch"]
    check(any(sl["name"] == "a" and sl.get("maskedBy") == "m_img" and
              next(x for x in s["slots"] if x["name"] == "m_img")["displayIndex"] != 0 for s in switch for sl in s["slots"]),
          "masks: a mask slot switched away keeps its clients")
    order = {tuple(sl.get("maskedBy") for sl in s["slots"]) for arm, an, s in samples(masks) if an == "reorder"}
    check(len(order) >= 3, f"masks: zOrder keys reassign the masks ({len(order)} assignments)")
    moving = {}
    for n in ("shapes", "path_closed_bound", "timeline_config_constraints"):
        for arm, an, s in samples(exp[n]):
            for sl in s["slots"]:
                for key in ("shape", "path"):
                    if key in sl:
                        moving.setdefault((n, an, sl["name"], key), set()).add(tuple(sl[key]["vertices"]))
    check(sum(1 for (n, an, sl, key), v in moving.items() if key == "shape" and len(v) > 5) >= 4
          and sum(1 for (n, an, sl, key), v in moving.items() if key == "path" and len(v) > 5) >= 2,
          "shapes and paths move in the official runtime")
    check(any(sl["shape"]["weighted"] for sl in slots_of(exp["shapes"]) if "shape" in sl)
          and any(sl["path"]["weighted"] for sl in slots_of(exp["path_closed_bound"]) if "path" in sl),
          "weighted shapes and paths")
    states = [c for n in exp if n.endswith("_30hz") for _, _, s in samples(exp[n]) for c in s.get("constraints", [])
              if c["type"] == "physics"]
    check(any(c["sleeping"] for c in states) and any(not c["sleeping"] for c in states), "physics asleep and awake")
    ties = 0
    for _, an, s in samples(exp["physics_fps_30hz"]):
        for c in s["constraints"]:
            step = {"phys_f30": 1 / 30, "phys_f60": 1 / 60, "phys_f90": 1 / 90, "phys_f120": 1 / 120}.get(c["name"])
            if step and s["frame"] > 1 and abs(c["remaining"] - step) < 1e-8:
                ties += 1
    check(ties > 5, f"physics at 30 Hz: the clock's sum leaves a whole step unspent ({ties} times)")
    base = [b["matrix"] for _, _, s in samples(exp["physics_wind_30hz"]) for b in s["bones"]]
    for r_ in ("seed1", "seed7", "01", "09"):
        other = [b["matrix"] for _, _, s in samples(exp["physics_wind_random_" + r_]) for b in s["bones"]]
        check(other != base, f"physics_wind --random {r_}: the wind disturbance moves the bones")
    for e in FIXTURES:
        if e.get("deliberate"):
            check(any(has_null(b["matrix"]) for _, _, s in samples(exp[e["name"]]) for b in s["bones"]),
                  f"{e['name']}: the official runtime gives NaN (null) poses")
    nan = [j[0] for j in JOBS if not j[1].get("deliberate")
           and any(has_null(s["bones"]) or has_null(s["slots"]) for _, _, s in samples(exp[j[0]]))]
    check(not nan, f"no NaN in the other dumps ({nan})")

# ---- 2. the comparators -----------------------------------------------------------------------

POSECMP_C = scenariokit.POSECMP
check(os.path.exists(POSECMP_C), f"tests/tools/posecmp is built ({POSECMP_C})")


def by(items, name):
    return next(x for x in items if x["name"] == name)


def sample_of(d, anim, k):
    return by(d["armatures"][0]["animations"], anim)["samples"][k]


def as_actual(dump):
    """A committed dump as `sinew poses` writes it: with the identity colours the committed dumps
    leave out."""
    d = copy.deepcopy(dump)
    for _, _, s in samples(d):
        for x in s["slots"]:
            x.setdefault("color", dict(mx.IDENTITY))
    return d


def mutate(base, label, fn, fails, posediff6=False):
    """Both comparators on BASE against a mutated copy of it (as_actual); with posediff6=True
    also posediff6.py."""
    d = as_actual(base)
    fn(d)
    rep = pc.compare(base, d)
    check((rep.failed > 0) == fails, f"posecmp.py: {label}: {'reported' if fails else 'accepted'} "
                                     f"({' / '.join(rep.lines()) or rep.summary()})")
    a, b = os.path.join(OUT, "mut_a.json"), os.path.join(OUT, "mut_b.json")
    json.dump(base, open(a, "w"))
    json.dump(d, open(b, "w"))
    r_ = subprocess.run([POSECMP_C, a, b, "--quiet"], capture_output=True, text=True)
    check(r_.returncode == (1 if fails else 0), f"tests/tools/posecmp: {label}: {'reported' if fails else 'accepted'} "
                                                f"({r_.returncode}: {r_.stdout.strip()[-300:]})")
    if posediff6 and have_shared():
        r_ = subprocess.run([sys.executable, os.path.join(ORACLE6, "posediff6.py"), a, b, "--quiet"],
                            capture_output=True, text=True)
        check((r_.returncode != 0) == fails, f"posediff6.py agrees with posecmp on: {label} ({r_.stdout.strip()[-200:]})")
    return 1 if posediff6 else 0


def shift(lst, i, by_):
    lst[i] += by_


if len(exp) == len(JOBS):
    M, S, P, F = exp["masks"], exp["shapes"], exp["path_closed_bound"], exp["physics_rotate_30hz"]

    def sl(d, anim, k, name):
        return by(sample_of(d, anim, k)["slots"], name)

    def con(d, anim, k, name):
        return by(sample_of(d, anim, k)["constraints"], name)
    agreeing = sum([
        mutate(M, "nothing changed", lambda d: None, False, True),
        mutate(M, "maskedBy changed", lambda d: sl(d, "reorder", 3, "a").__setitem__("maskedBy", "m_shape"), True, True),
        mutate(M, "maskedBy dropped", lambda d: sl(d, "reorder", 3, "a").pop("maskedBy"), True, True),
        mutate(M, "maskedBy added", lambda d: sl(d, "reorder", 3, "c").__setitem__("maskedBy", "m_img"), True, True),
        mutate(M, "maskRange changed", lambda d: sl(d, "static", 1, "m_img").__setitem__("mask", 3), True, True),
        mutate(M, "mask dropped", lambda d: sl(d, "static", 1, "m_img").pop("mask"), True, True),
        mutate(S, "a shape vertex 0.005 px off", lambda d: shift(sl(d, "wobble", 5, "blob")["shape"]["vertices"], 7, 0.005),
               False, True),
        mutate(S, "a shape vertex 0.02 px off", lambda d: shift(sl(d, "wobble", 5, "flag")["shape"]["vertices"], 3, 0.02),
               True, True),
        mutate(S, "shape vertices missing", lambda d: sl(d, "wobble", 5, "blob").pop("shape"), True, True),
        mutate(S, "a shape slot's matrix (not compared)", lambda d: shift(sl(d, "wobble", 5, "blob")["matrix"], 4, 5.0),
               False, True),
        mutate(P, "a path vertex 0.02 px off", lambda d: shift(sl(d, "morph", 4, "ring")["path"]["vertices"], 0, 0.02),
               True, True),
        mutate(P, "a path vertex 0.005 px off", lambda d: shift(sl(d, "morph", 4, "bound")["path"]["vertices"], 5, 0.005),
               False, True),
    ])
    mutate(S, "the display type shape -> image", lambda d: sl(d, "switch", 2, "swap")["display"].__setitem__("type", "image"),
           True)
    mutate(F, "a physics rotateOffset 5e-5 off", lambda d: shift(con(d, "swing", 9, "phys_rot"), "rotateOffset", 5e-5), False)
    mutate(F, "a physics rotateOffset 5e-4 off", lambda d: shift(con(d, "swing", 9, "phys_rot"), "rotateOffset", 5e-4), True)
    mutate(F, "a physics xVelocity 0.05 off (of 15)", lambda d: shift(con(d, "swing", 9, "phys_rot_xy"), "xVelocity", 0.05),
           False)
    mutate(F, "a physics xVelocity 0.5 off (of 15)", lambda d: shift(con(d, "swing", 9, "phys_rot_xy"), "xVelocity", 0.5),
           True)
    mutate(F, "a physics remaining 1e-7 s off", lambda d: shift(con(d, "swing", 9, "phys_rot"), "remaining", 1e-7), False)
    mutate(F, "a physics remaining 1e-5 s off", lambda d: shift(con(d, "swing", 9, "phys_rot"), "remaining", 1e-5), True)
    mutate(F, "a physics constraint asleep", lambda d: con(d, "swing", 9, "phys_rot").__setitem__("sleeping", True), True)
    mutate(F, "a physics constraint reset", lambda d: con(d, "swing", 9, "phys_rot").__setitem__("reset", True), True)
    mutate(F, "a constraint missing", lambda d: sample_of(d, "swing", 9)["constraints"].pop(), True)
    mutate(F, "a constraint extra", lambda d: sample_of(d, "swing", 9)["constraints"].append(
        dict(con(d, "swing", 9, "phys_rot"), name="extra")), True)
    mutate(F, "the constraint state missing", lambda d: sample_of(d, "swing", 9).pop("constraints"), True)
    ikd = exp["ik_timelines"]
    mutate(ikd, "an IK bend flipped", lambda d: con(d, "tweened", 4, "leg").__setitem__("bendPositive", False), True)
    mutate(ikd, "an IK weight 1e-3 off", lambda d: shift(con(d, "tweened", 4, "leg"), "weight", 1e-3), True)
    mutate(exp["path_modes"], "a path position 1e-3 off",
           lambda d: shift(con(d, "slide", 4, "chn"), "position", 1e-3), True)
    no_state = copy.deepcopy(F)
    for _, _, s in samples(no_state):
        s.pop("constraints")
    rep = pc.compare(no_state, as_actual(F))
    check(rep.failed == 0, "a constraint state only in the actual dump is not compared (the expected has none)")
    if not have_shared():
        skip(agreeing, "comparisons of posecmp's verdicts with ../shared/tools/oracle6/posediff6.py")

# ---- 3. sinew against the committed dumps ------------------------------------------------------

DELIBERATE = {"spacing": "spacing", "constant-speed": "constant", "mass": "mass"}


def without_nan(dump, drop):
    """The dump without the bones and slots of `drop` (names), in every sample."""
    d = copy.deepcopy(dump)
    for _, _, s in samples(d):
        s["bones"] = [b for b in s["bones"] if b["name"] not in drop]
        s["slots"] = [x for x in s["slots"] if x["name"] not in drop]
        s.pop("constraints", None)
    return d


def deliberate(entry, job, expected, out, err):
    """A fixture on which the official runtime gives NaN: sinew warns, stays finite, and matches
    the official runtime everywhere else."""
    word = DELIBERATE[entry["deliberate"]]
    check("warning" in err.lower() and word in err.lower(),
          f"{job[0]}: sinew warns about what the official runtime makes NaN ('{word}'): {err[-300:]!r}")
    actual = load(out)
    check(not has_null([s["bones"] for _, _, s in samples(actual)] + [s["slots"] for _, _, s in samples(actual)]),
          f"{job[0]}: sinew's poses are finite (its documented behaviour instead of NaN)")
    drop = {x["name"] for _, _, s in samples(expected) for x in s["bones"] + s["slots"] if has_null(x.get("matrix"))}
    same, text = posecmp(without_nan(expected, drop), without_nan(actual, drop))
    check(same, f"{job[0]}: sinew matches the official runtime on everything it does not make NaN "
                f"(all but {sorted(drop)}):\n{text}")


def conformance(job):
    name, entry, kind, script, args = job
    ske, atlas = mx.fixture_files(entry)
    expected = mx.expected_path(name)
    label = f"{name} ({os.path.basename(ske)} {' '.join(args)})".replace(" )", ")")
    if kind == "scenario":
        side = scenariokit.Side(ORACLE6, [], args)
        act = os.path.join(OUT, name + ".sinew.json")
        r_ = scenariokit.sinew_script(side, ske, script, ["--atlas", atlas], act)
        if check(r_.returncode == 0, f"{label}: sinew poses --script exited {r_.returncode}: {r_.stderr.strip()[-400:]}"):
            ok, bad = scenariokit.compare(expected, act, label)
            print(f"{label}: {ok} scenarios match the official runtime, {bad} differ", flush=True)
        return
    out = os.path.join(OUT, name + ".poses.json")
    ok, err = sinew_poses(ske, out, "--atlas", atlas, "--animation", "all", *args)
    if not check(ok, f"{label}: sinew poses failed: {err[-400:]}"):
        return
    if entry.get("deliberate"):
        deliberate(entry, job, load(expected), out, err)
        return
    same, text = posecmp(expected, out)
    print(("ok   " if same else "FAIL ") + f"{label}: " + text.splitlines()[-1], flush=True)
    check(same, f"{label}: sinew differs from the official 6.0 runtime ({os.path.relpath(expected, SRC)}):\n" + text)


for job in JOBS:
    if wanted(job[0], job[1]["name"]):
        conformance(job)

# ---- 4. with ../shared: fresh dumps, random game scripts ----------------------------------------

if not have_shared() or not os.path.isfile(os.path.join(ORACLE6, "oracle.mjs")):
    skip(1 + len(FIXTURES), "the live official 6.0 runtime (the freshness of the committed dumps; scenario_gen.py's "
                            "random scripts on every fixture)")
    finish()

r = subprocess.run([sys.executable, os.path.join(V6, "make_expected.py"), "--check", *only], capture_output=True,
                   text=True, env=dict(os.environ, SHARED=SHARED, BUILD=BUILD))
check(r.returncode == 0, "the committed 6.0 dumps are what the official 6.0 runtime gives now (run `make fixtures`):\n"
      + (r.stdout + r.stderr).strip()[-1500:])

gen = os.path.join(SHARED, "tools", "oracle", "scenario_gen.py")
pins = [os.path.join(ORACLE6, f) for f in ("dragonBones.js", "runtime.mjs", "oracle.mjs", "scenario.mjs")]
for e in FIXTURES:
    if not wanted(e["name"]):
        continue
    ske, atlas = mx.fixture_files(e)
    if all(len(a.get("animation", [])) < 2 for a in skeletons[e["name"]]["armature"]):
        continue  # scenario_gen.py writes scripts for armatures with two animations or more
    args = ["--random", "seed:5"] if e["name"] == "physics_wind" else []
    side = scenariokit.Side(ORACLE6, pins, args)
    scen, errors = scenariokit.generate(gen, ske, range(1, SEEDS + 1), e["name"],
                                        os.path.join(OUT, e["name"] + ".gen.json"))
    for msg in errors:
        check(False, msg)
    errors, lines = scenariokit.compare_scenarios(side, ske, atlas, scen, "v6-" + e["name"])
    for msg in errors:
        check(False, msg)
    if lines is not None:
        ok, bad = scenariokit.compare_lines(lines, f"{e['name']} (scenario_gen.py seeds 1..{SEEDS})")
        print(f"{e['name']}: random scripts, seeds 1..{SEEDS}: {ok} scenarios match the official 6.0 runtime, "
              f"{bad} differ", flush=True)
finish()
