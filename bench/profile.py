#!/usr/bin/env python3
"""Where an armature update's time goes, by phase, next to the C floor of each phase.

usage: bench/profile.py --sinew PATH --floor PATH SKELETON --armature NAME --animation NAME
                        [--instances N] [--runs R] [--no-perf] [--cpp BENCH_CPP --atlas TEX]

Phases: timeline sampling (animation states, timelines, blending into the pose), bone transforms,
IK, slots, mesh skinning, draw order, events, per-armature overhead, and the draw list
(sinew_instance_drawlist after each update; not part of `sinew bench` without --drawlist).

1. Instructions per update and phase: callgrind on `sinew bench ... --drawlist` collecting only
   inside sinew_instance_update and sinew_instance_drawlist. Every instruction is charged to the
   source function its line belongs to (so inlined code counts where it was written); helpers
   shared by several phases (matrix product, ...) go to the phase of the function they were
   inlined into; calls into libm/libc (sincosf, atan2f, memset, ...) go to the phase of the line
   that calls them.
2. Time per update and phase: `perf record -e cpu-clock` (hardware counters are not available in
   this VM), each sample charged the same way (libm samples split by the callgrind call shares),
   scaled to the ns per update of an unsampled run; cycles = ns x the core clock bench_floor
   measures. (Sampling slows this VM down a lot, so only the shares are taken from it.)
3. The C floor: bench_floor with this rig's counts (bones, bone/slot/FFD timeline channels of the
   animation, IK constraints, slots, weighted-mesh influences, draw-list quads).

The phase of each function is the table PHASES below; a function it does not know is reported as
"unmapped" with its name, so the script keeps working while src/anim changes.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# source function -> phase. Functions of src/anim/animation.c not listed are timeline sampling;
# of drawlist.c, the draw list.
PHASES = {
    "bone transforms": ["compute_bone", "bone_world_plain", "plain_bone", "sinew__arm_update_bones",
                        "update_bones_no_ik", "bone_global"],
    "IK": ["ik_one", "ik_two", "set_from_global"],
    "slots": ["sinew__arm_update_slots", "slot_update_display", "mesh_bones_changed",
              "sinew__slot_update_display_data", "sinew__slot_set_display_index", "sinew__set_active_tree",
              "deactivate_child"],
    "mesh skinning": ["update_mesh"],
    "draw order": ["sinew__sort_zorder", "z_less", "make_run", "binary_insertion", "merge_runs",
                   "sinew__sort_draw_order"],
    "events": ["sinew__emit", "mark_ended", "sinew_instance_poll_event"],
    "per-armature overhead": ["sinew_instance_update", "sinew__arm_advance", "run_actions", "sinew__arm_fade_in",
                              "sinew__arm_play_default", "sinew__find_animation"],
}
# small helpers inlined into several phases: charged to the function they were inlined into
SHARED = {"tf_matrix", "angle_sincos", "mat_concat", "sinew__mat_to_float", "from_matrix", "get_bone_arrays", "sw_v2",
          "sw_v4"}
ORDER = ["timeline sampling", "bone transforms", "IK", "slots", "mesh skinning", "draw order", "events",
         "per-armature overhead", "unmapped", "draw list"]
FN_PHASE = {f: p for p, fs in PHASES.items() for f in fs}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---- source functions ------------------------------------------------------------------------------

_ranges = {}
DEF_RE = re.compile(r"^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\(")


def func_ranges(path):
    """[(first line, last line, name)] of the function definitions in a C file (column-0 style)."""
    if path in _ranges:
        return _ranges[path]
    out = []
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    except OSError:
        _ranges[path] = out
        return out
    start = name = None
    for i, text in enumerate(lines, 1):
        if name is None:
            m = DEF_RE.match(text)
            if m and not text.rstrip().endswith(";") and not text.startswith(("typedef", "#", "return")):
                start, name = i, m.group(1)
                if "{" in text and text.rstrip().endswith("}"):  # a one-line function
                    out.append((i, i, name))
                    start = name = None
        elif text.startswith("}"):
            out.append((start, i, name))
            start = name = None
        elif text.rstrip().endswith(";") and not text.startswith((" ", "\t")):
            start = name = None  # a prototype spread over lines
    _ranges[path] = out
    return out


def src_function(path, line):
    for a, b, n in func_ranges(path):
        if a <= line <= b:
            return n
    return None


ANIM = os.path.join(ROOT, "src", "anim")
SYM_FILE = {}  # function name -> file name, for every function of src/anim
for _f in sorted(os.listdir(ANIM)) if os.path.isdir(ANIM) else []:
    if _f.endswith(".c"):
        for _a, _b, _n in func_ranges(os.path.join(ANIM, _f)):
            SYM_FILE.setdefault(_n, _f)
OUTSIDE = {"sinew_instance_poll_event", "main", "sinew_cmd_bench", "bench_load"}


def by_name(name, base):
    if not name or name in SHARED:
        return None
    if name in FN_PHASE:
        return FN_PHASE[name]
    base = base or SYM_FILE.get(name)
    if base == "drawlist.c":
        return "draw list"
    if base == "animation.c":
        return "timeline sampling"
    return None


def phase_of(symbol, path, line):
    """Phase of an instruction that runs in `symbol` and whose source line is path:line: the
    source function's phase, else (a shared helper or a header) the phase of the symbol."""
    symbol = (symbol or "").split(".")[0]  # foo.isra.0 -> foo
    fn = src_function(path, line) if path and line else None
    if symbol in OUTSIDE or fn in OUTSIDE or symbol.startswith("(below"):
        return None
    return (by_name(fn, os.path.basename(path) if fn else None) or by_name(symbol, None) or "unmapped")


# ---- callgrind ---------------------------------------------------------------------------------------

def callgrind(cmd, sinew_bin):
    out = tempfile.mktemp(prefix="sinew_cg.")
    r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        "--toggle-collect=sinew_instance_update", "--toggle-collect=sinew_instance_drawlist",
                        "--compress-strings=no", "--compress-pos=no"] + cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("callgrind failed:\n" + r.stderr[-2000:])
    bench = json.loads(r.stdout.strip().splitlines()[-1])
    self_cost = collections.Counter()      # (symbol, file, line) -> Ir, sinew code
    int_calls = collections.Counter()      # (symbol, file, line, callee) -> inclusive Ir, sinew -> sinew
    ext_count = collections.Counter()      # (symbol, file, line, callee) -> calls into libm/libc
    ext_calls = collections.Counter()      # (symbol, file, line, callee, callee object) -> inclusive Ir
    ob = fl = fi = fn = cob = cfn = None
    pending = False
    ncalls = 0
    sinew_ob = os.path.realpath(sinew_bin)
    with open(out) as f:
        for raw in f:
            line = raw.rstrip("\n")
            if not line or line[0] == "#":
                continue
            c = line[0]
            if c.isdigit():
                pos, cost = line.split()[:2]
                pos, cost = int(pos), int(cost)
                if pending:
                    pending = False
                    callee_ob = cob if cob is not None else ob
                    if ob == sinew_ob and callee_ob != sinew_ob:
                        ext_calls[(fn, fi, pos, cfn, callee_ob)] += cost
                        ext_count[(fn, fi, pos, cfn)] += ncalls
                    elif ob == sinew_ob:
                        int_calls[(fn, fi, pos, cfn)] += cost
                    cob = None
                elif ob == sinew_ob:
                    self_cost[(fn, fi, pos)] += cost
                continue
            key, _, val = line.partition("=")
            if key == "ob":
                ob = os.path.realpath(val) if val.startswith("/") else val
            elif key == "fl":
                fl = fi = val
            elif key in ("fi", "fe"):
                fi = val
            elif key == "fn":
                fn, fi = val, fl
            elif key == "cob":
                cob = os.path.realpath(val) if val.startswith("/") else val
            elif key == "cfn":
                cfn = val
            elif key == "calls":
                pending = True
                ncalls = int(val.split()[0])
    os.unlink(out)
    return self_cost, ext_calls, int_calls, ext_count, bench


def cpp_instructions(cpp, ske, atlas, armature, animation, n, warm, ticks=20):
    """DragonBonesCPP's instructions per armature update: callgrind collecting inside
    DragonBones::advanceTime (one call a tick for every armature; bench-cpp ticks 1 + 5 times for
    its motion check, then the warm-up, then the timed ticks)."""
    out = tempfile.mktemp(prefix="sinew_cg_cpp.")
    cmd = [cpp, "update", ske, atlas or "", armature, animation, str(n), "--adapter", "compute",
           "--ticks", str(ticks), "--runs", "1", "--warmup", str(warm)]
    r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        "--toggle-collect=dragonBones::DragonBones::advanceTime*"] + cmd,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("callgrind on bench-cpp failed:\n" + r.stderr[-2000:])
    total = lib = 0
    ob = None
    objs = {}
    call_line = False  # the cost line after calls= is the call's inclusive cost: not self cost
    with open(out) as f:
        for raw in f:
            if raw.startswith("ob="):
                ob = raw[3:].strip()
                if ob.startswith("("):  # compressed: (id) name, or (id) alone
                    k, _, name = ob.partition(" ")
                    ob = objs.setdefault(k, name) if name else objs.get(k, ob)
            elif raw.startswith("cob="):
                v = raw[4:].strip()
                if v.startswith("(") and " " in v:
                    k, _, name = v.partition(" ")
                    objs.setdefault(k, name)
            elif raw.startswith("calls="):
                call_line = True
            elif raw[:1].isdigit() or raw[:1] in "+-*":
                parts = raw.split()
                if call_line:
                    call_line = False
                elif len(parts) >= 2:
                    total += int(parts[1])
                    if ob and ("libm" in ob or "libc" in ob):
                        lib += int(parts[1])
    os.unlink(out)
    updates = n * (1 + 5 + warm + ticks)
    return total / updates, lib / updates


# ---- perf ------------------------------------------------------------------------------------------

def perf_phases(cmd, sinew_bin, ext_split, split, period=500000):
    """Samples of `cmd` per phase (cpu-clock, one per `period` ns of CPU). Samples in libm/libc are
    split like the callgrind calls into them (ext_split: callee or object -> phase -> Ir)."""
    data = tempfile.mktemp(prefix="sinew_perf.")
    r = subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-c", str(period), "-o", data] + cmd,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("perf record failed: " + r.stderr.strip()[-300:])
    r = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym,symoff,dso"], capture_output=True, text=True)
    os.unlink(data)
    if r.returncode != 0:
        raise RuntimeError("perf script failed: " + r.stderr.strip()[-300:])
    counts = collections.Counter()
    for line in r.stdout.splitlines():
        m = re.match(r"\s*[0-9a-f]+\s+(\S+)\+0x([0-9a-f]+) \((.*)\)", line)
        if m:
            counts[(m.group(1), int(m.group(2), 16), os.path.realpath(m.group(3)) if m.group(3).startswith("/")
                    else m.group(3))] += 1
    syms = {}
    for line in subprocess.run(["nm", "--defined-only", sinew_bin], capture_output=True, text=True).stdout.splitlines():
        p = line.split()
        if len(p) == 3:
            syms.setdefault(p[2], int(p[0], 16))
    real = os.path.realpath(sinew_bin)
    addrs = sorted({syms[s] + off for (s, off, dso) in counts if dso == real and s in syms})
    where = {}
    if addrs:
        a2l = subprocess.run(["addr2line", "-e", sinew_bin] + [hex(x) for x in addrs], capture_output=True, text=True)
        for x, text in zip(addrs, a2l.stdout.splitlines()):
            path, _, ln = text.rpartition(":")
            m = re.match(r"\d+", ln)
            where[x] = (path, int(m.group(0)) if m else 0)
    out = collections.Counter()
    other = collections.Counter()
    for (sym, off, dso), k in counts.items():
        if dso == real and sym in syms:
            path, line = where.get(syms[sym] + off, (None, 0))
            sp = split(sym, path, line)
            if sp:
                for ph, w in sp.items():
                    out[ph] += k * w
            else:
                other["sinew outside the update (bench loop, load)"] += k
            continue
        ext = ext_split.get(sym) or ext_split.get(sym.lstrip("_")) or ext_split.get(dso)
        if ext:
            tot = sum(ext.values())
            for ph, cost in ext.items():
                out[ph] += k * cost / tot
        else:
            other[dso if dso.startswith("[") else os.path.basename(dso)] += k
    return out, other


# ---- the rig's counts --------------------------------------------------------------------------------

def rig_counts(ske, armature, animation, drawlist_vertices):
    """Counts of the work one update of `armature` playing `animation` touches, child armatures
    (armature displays shown at the slots' setup display index, playing their default animation)
    included: bones, slots, IK constraints, timeline channels (bone translate/rotate/scale, slot
    display/colour, FFD) and their mean key count, weighted-mesh vertices and influences, and the
    draw list's region quads (its vertices minus the mesh vertices, over 4)."""
    j = json.load(open(ske, encoding="utf-8"))
    arms = {x["name"]: x for x in j["armature"]}
    c = collections.Counter()
    keys = []
    mesh_vertices = [0]

    def visit(name, anim_name, depth):
        arm = arms.get(name)
        if not arm or depth > 4:
            return
        anims = arm.get("animation", [])
        if anim_name is None:
            acts = arm.get("defaultActions") or []
            anim_name = next((x.get("gotoAndPlay") for x in acts if x.get("gotoAndPlay")), None)
            if anim_name is None and anims:
                anim_name = anims[0].get("name")
        anim = next((x for x in anims if x.get("name") == anim_name), {})
        c["bones"] += len(arm.get("bone", []))
        c["slots"] += len(arm.get("slot", []))
        c["ik"] += len(arm.get("ik", []))
        for bt in anim.get("bone", []):
            kinds = [k for k in ("translateFrame", "rotateFrame", "scaleFrame") if bt.get(k)]
            c["timelines"] += len(kinds) if kinds else (3 if bt.get("frame") else 0)
            keys.extend(len(bt[k]) for k in ("translateFrame", "rotateFrame", "scaleFrame", "frame") if bt.get(k))
        for st in anim.get("slot", []):
            c["timelines"] += sum(1 for k in ("displayFrame", "colorFrame") if st.get(k)) or (1 if st.get("frame") else 0)
        c["timelines"] += len(anim.get("ffd", [])) + len(anim.get("deform", []))
        slot_index = {x["name"]: x.get("displayIndex", 0) for x in arm.get("slot", [])}
        for skin in arm.get("skin", [])[:1]:
            for sl in skin.get("slot", []):
                disp = sl.get("display", [])
                di = slot_index.get(sl.get("name"), 0)
                if not isinstance(di, int) or di < 0 or di >= len(disp):
                    continue
                d = disp[di]
                if d.get("type") == "armature":
                    visit(d.get("path") or d.get("name"), None, depth + 1)
                elif d.get("type") == "mesh":
                    nv = len(d.get("vertices", [])) // 2
                    mesh_vertices[0] += nv
                    w = d.get("weights")
                    if w:
                        c["vertices"] += nv
                        i = 0
                        for _ in range(nv):  # per vertex: a count, then (bone, weight) pairs
                            if i >= len(w):
                                break
                            c["influences"] += int(w[i])
                            i += 1 + 2 * int(w[i])

    visit(armature, animation, 0)
    c["keys"] = max(1, int(round(sum(keys) / len(keys)))) if keys else 1
    c["quads"] = max(0, int(round((drawlist_vertices - mesh_vertices[0]) / 4))) if drawlist_vertices else 0
    return {k: c[k] for k in ("bones", "slots", "ik", "timelines", "keys", "influences", "vertices", "quads")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("skeleton")
    ap.add_argument("--sinew", required=True)
    ap.add_argument("--floor", required=True)
    ap.add_argument("--armature", required=True)
    ap.add_argument("--animation", required=True)
    ap.add_argument("--instances", type=int, default=100)
    ap.add_argument("--runs", type=int, default=20, help="runs of 300 ticks in each perf run")
    ap.add_argument("--no-perf", action="store_true")
    ap.add_argument("--cpp", help="bench-cpp binary: also count DragonBonesCPP's instructions per update")
    ap.add_argument("--atlas", help="the atlas JSON bench-cpp needs (with --cpp)")
    a = ap.parse_args()
    sinew = os.path.abspath(a.sinew)
    n = a.instances
    base = [sinew, "bench", a.skeleton, "--armature", a.armature, "--animation", a.animation,
            "--instances", str(n), "--json"]
    warm = max(120, 20000 // n)

    # 1. instructions (callgrind): updates run in the warm-up and the timed ticks, draw lists only in the latter
    ticks_cg = 20
    log("profile: callgrind ...")
    self_cost, ext_calls, int_calls, ext_count, _ = callgrind(base + ["--drawlist", "--ticks", str(ticks_cg), "--runs", "1"], sinew)
    calls = {"update": (warm + ticks_cg) * n, "draw list": ticks_cg * n}
    # a function that belongs to no phase by itself (a helper called from several: from_matrix,
    # sinew__js_round, the atlas lookup) is charged to its callers' phases, in proportion
    callers = collections.defaultdict(collections.Counter)  # callee -> (caller sym, file, line) -> Ir
    for (sym, path, line, callee), cost in int_calls.items():
        callers[callee.split(".")[0]][(sym, path, line)] += cost

    def split(sym, path, line, depth=0):
        ph = phase_of(sym, path, line)
        if ph != "unmapped" or depth > 4:
            return collections.Counter({ph: 1.0}) if ph else collections.Counter()
        cs = callers.get((sym or "").split(".")[0])
        if not cs:
            return collections.Counter({"unmapped": 1.0})
        tot = sum(cs.values())
        out = collections.Counter()
        for (s2, p2, l2), c in cs.items():
            for ph2, w in split(s2, p2, l2, depth + 1).items():
                out[ph2] += w * c / tot
        return out
    instr, libc = collections.Counter(), collections.Counter()
    unmapped = collections.Counter()
    ext_split = collections.defaultdict(collections.Counter)  # callee name / object -> phase -> Ir
    for (sym, path, line), cost in self_cost.items():
        for ph, w in split(sym, path, line).items():
            instr[ph] += cost * w
            if ph == "unmapped":
                unmapped[src_function(path, line) or sym] += cost * w
    for (sym, path, line, callee, cob), cost in ext_calls.items():
        for ph, w in split(sym, path, line).items():
            instr[ph] += cost * w
            libc[ph] += cost * w
            ext_split[callee][ph] += cost * w
            ext_split[callee.lstrip("_")][ph] += cost * w
            ext_split[cob][ph] += cost * w
            if ph == "unmapped":
                unmapped[src_function(path, line) or sym] += cost * w
    per_call = lambda ph, v: v / calls["draw list" if ph == "draw list" else "update"]
    lib_calls = collections.defaultdict(collections.Counter)  # phase -> libm/libc function -> calls
    for (sym, path, line, callee), k in ext_count.items():
        for ph, w in split(sym, path, line).items():
            lib_calls[ph][callee] += k * w

    # 2. time: unsampled runs for the totals, perf for the shares
    log("profile: unsampled runs ...")
    run = lambda extra: json.loads(subprocess.run(base + extra, capture_output=True, text=True)
                                   .stdout.strip().splitlines()[-1])
    plain = run(["--ticks", "300", "--runs", "5"])
    plain_dl = run(["--ticks", "300", "--runs", "5", "--drawlist"])
    ns = {}
    perf_note = "not run"
    if not a.no_perf and shutil.which("perf"):
        try:
            log("profile: perf record (update) ...")
            t_upd, other = perf_phases(base + ["--ticks", "300", "--runs", str(a.runs)], sinew, ext_split, split)
            tot = sum(t_upd.values())
            for ph, v in t_upd.items():
                ns[ph] = v / tot * plain["ns_per_update"]
            log("profile: perf record (update + draw list) ...")
            t_dl, other_dl = perf_phases(base + ["--drawlist", "--ticks", "300", "--runs", str(a.runs)], sinew, ext_split,
                                         split)
            # per tick-instance: update samples also cover the warm-up, draw-list ones only the timed ticks
            u = sum(v for ph, v in t_dl.items() if ph != "draw list") / (warm + 300 * a.runs)
            d = t_dl.get("draw list", 0) / (300 * a.runs)
            if u + d:
                ns["draw list"] = d / (u + d) * plain_dl["ns_per_update"]
            perf_note = (f"{int(tot)} samples in the update run; not in the update: " +
                         ", ".join(f"{k} {v}" for k, v in (other + other_dl).most_common(4)))
        except RuntimeError as e:
            perf_note = f"perf failed: {e}"

    # 3. the floor with the rig's counts (it also measures the core clock)
    rc = rig_counts(a.skeleton, a.armature, a.animation, plain_dl.get("drawlist_vertices", 0))
    fargs = [a.floor, "--instances", str(n)]
    for k in ("bones", "timelines", "keys", "ik", "slots", "vertices", "influences", "quads"):
        fargs += [f"--{k}", str(rc[k])]
    log("profile: bench_floor ...")
    fout = subprocess.run(fargs, capture_output=True, text=True).stdout
    floor = {}
    for line in fout.splitlines():
        m = re.match(r"(\w+)\s+([\d.]+) ns", line)
        if m:
            floor[m.group(1)] = float(m.group(2))
    m = re.search(r"core clock ([\d.]+) GHz", fout)
    ghz = float(m.group(1)) if m else 0.0
    fmap = {"timeline sampling": "timelines", "bone transforms": "bones", "IK": "ik", "slots": "slots",
            "mesh skinning": "skinning", "draw list": "drawlist"}

    print(f"{os.path.basename(a.skeleton)} {a.armature} `{a.animation}`, N = {n}: {plain['ns_per_update']:,.0f} ns per "
          f"update (median {plain['ns_per_update_median']:,.0f}); with the draw list {plain_dl['ns_per_update']:,.0f} "
          f"({plain_dl['drawlist_vertices']:.0f} vertices); core clock {ghz:.2f} GHz")
    print(f"rig counts: {rc}")
    print(f"perf: {perf_note}")
    print()
    print("| phase | instructions / update | of which in libm/libc | ns / update | cycles / update | "
          "C floor, ns | sinew / floor |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    tot = collections.Counter()
    for ph in ORDER:
        if ph not in instr and ph not in ns:
            continue
        i, x = per_call(ph, instr.get(ph, 0)), per_call(ph, libc.get(ph, 0))
        t = ns.get(ph)
        f = floor.get(fmap.get(ph, ""))
        if ph != "draw list":
            tot["i"] += i
            tot["t"] += t or 0
            tot["f"] += f or 0
        name = ph + (" (after the update)" if ph == "draw list" else "")
        print(f"| {name} | {i:,.0f} | {x:,.0f} | {'–' if t is None else f'{t:,.0f}'} | "
              f"{'–' if t is None else f'{t * ghz:,.0f}'} | {'–' if f is None else f'{f:,.0f}'} | "
              f"{f'{t / f:.1f}×' if f and t else '–'} |")
    print(f"| **update** | **{tot['i']:,.0f}** | | **{tot['t']:,.0f}** | **{tot['t'] * ghz:,.0f}** | "
          f"**{tot['f']:,.0f}** | **{(tot['t'] / tot['f']) if tot['f'] else 0:.1f}×** |")
    print()
    print("libm/libc calls per update (per draw list for the draw list): " + "; ".join(
        f"{ph}: " + ", ".join(f"{c} {per_call(ph, k):.1f}" for c, k in lib_calls[ph].most_common(4))
        for ph in ORDER if lib_calls.get(ph)))
    if unmapped:
        print()
        print("unmapped (Ir over the run): " + ", ".join(f"{k} {v:,}" for k, v in unmapped.most_common(8)))
    if a.cpp:
        log("profile: callgrind on bench-cpp ...")
        ci, cl = cpp_instructions(a.cpp, a.skeleton, a.atlas, a.armature, a.animation, n, warm)
        print()
        print(f"DragonBonesCPP (bench-cpp --adapter compute, the same workload under callgrind): {ci:,.0f} instructions "
              f"per update, {cl:,.0f} of them in libm/libc; sinew / CPP: {tot['i'] / ci:.2f}")
    print()
    print("```")
    print(" ".join(os.path.basename(x) if x == a.floor else x for x in fargs))
    print(fout.rstrip())
    print("```")


if __name__ == "__main__":
    sys.exit(main())
