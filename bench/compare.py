#!/usr/bin/env python3
"""sinew against the official DragonBones runtimes, side by side (make bench-compare).

usage: bench/compare.py --sinew PATH [--floor PATH] [--out DIR] [--shared DIR] [--quick] [--rounds R] [--no-js]

Builds $SHARED/tools/bench-cpp (DragonBonesCPP, -O2, no renderer) into OUT/bench-cpp, sets up
$SHARED/tools/bench-js (DragonBonesJS in node) in OUT/bench-js, then runs the same workloads on
sinew (`sinew bench`) and CPP (`bench-cpp update --adapter compute`), interleaved: every round runs
each workload once on both, alternating which goes first, and the table keeps the best (minimum)
of the rounds' min-of-runs. JS runs once per workload (it is context, and slow). Workloads:
  - the issue's goal rows: mecha_1502b walk N=100, body idle N=100 and N=1000, and the load of
    body_ske.json + body_tex.json from memory (sinew bench --load / bench-cpp load);
  - every shared character (in each set the armature with the most bones) playing its first
    animation at N = 1, 100, 1000 (--quick: N = 100 only);
  - the load of every shared skeleton, with glibc's default heap trimming and with it off;
  - the load of every shared skeleton as sinew's DBBin against its JSON, skeleton alone, on sinew
    and on the official JS runtime (bench/js_load.mjs);
  - crowds (issue 29): the C floor of each goal row (bench_floor with the rig's counts, as
    bench/profile.py gives them; --floor, default bench/bench_floor beside the sinew binary),
    run in the same rounds; body idle with its draw list against CPP's update alone; body idle
    N = 1,000 advanced by sinew_crowd_update on 1 and on 2 threads (`--threads`); and the memory
    of an instance, measured the same way on both sides: the growth of the process's peak RSS
    (wait4) from N = 1 to N = 1,000, per instance, with sinew's memory_per_instance beside it.
Same work on both sides: the same files, armature and animation, N instances on a loop with the
same start phases (i * 0.0371 s mod duration), the same warm-up (max(120, 20000/N) ticks), T ticks
of 1/60 s per run (T = 3000 / 300 / 60 for N = 1 / 100 / 1000), R runs. What each side does that
the other does not is listed in docs/performance.md. Progress goes to stderr, the table to stdout;
every figure is also written to OUT/results.json.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# set dir, skeleton, atlas (None: none shipped), armature, first animation (the armature with the
# most bones of each set and its first animation, in file order)
CHARACTERS = [
    ("mecha_1502b_5.5", "mecha_1502b_ske.json", "mecha_1502b_tex.json", "mecha_1502b", "idle"),
    ("you_xin_body_5.5", "body_ske.json", "body_tex.json", "body", "idle"),
    ("dragon_boy_5.0", "dragon_boy_ske.json", "dragon_boy_tex.json", "DragonBoy", "stand"),
    ("CoreElement_4.5", "CoreElement.json", "CoreElement_texture_1.json", "mecha_1502b", "idle"),
    ("Knight_4.5", "Knight.json", "Knight_texture_1.json", "knight", "stand"),
    ("ReplaceSkinMan_4.0", "man.json", "texture.json", "man", "standFront"),
    ("Robot_4.5", "robot_ske.json", None, "Armature", "animation"),
    ("Ubbie_4.5", "Ubbie.json", "texture.json", "ubbie", "stand"),
    ("ZOrder16_4.5", "16_ske.json", "16_tex.json", "armatureName", "Z国王-定帧"),
]
GOALS = [  # (set, armature, animation, N, how many times faster than CPP sinew must be)
    ("mecha_1502b_5.5", "mecha_1502b", "walk", 100, 3.0),
    ("you_xin_body_5.5", "body", "idle", 100, 3.0),
    ("you_xin_body_5.5", "body", "idle", 1000, 5.0),
]
# the frame cache (both sides at the same cache rate): (set, armature, animation, N, cache fps,
# goal against CPP without its cache, goal against CPP with it)
CACHE_GOALS = [("you_xin_body_5.5", "body", "idle", 1000, 24, 10.0, 2.0)]


def load_profile():
    """bench/profile.py as a module (rig_counts), under a name that is not the stdlib's `profile`."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("sinew_profile", os.path.join(HERE, "profile.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# crowds (issue 29): the rows with a floor, the draw-list row, the threads row and the memory row
FLOOR_PHASES = ("timelines", "bones", "ik", "slots", "skinning")
DRAWLIST_GOAL = ("you_xin_body_5.5", "body", "idle", 100)  # update + draw list faster than CPP's update
THREADS_GOAL = ("you_xin_body_5.5", "body", "idle", 1000, 2, 1.8)  # 2 threads >= 1.8x one
MEMORY_ROW = ("you_xin_body_5.5", "body", "idle", 1000, 55000)  # bytes per instance, at most


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def ticks_for(n, quick):
    t = {1: 3000, 100: 300, 1000: 60}.get(n, max(30, 30000 // n))
    return max(30, t // 2) if quick else t


# glibc returns the top of the heap to the OS when more than its trim threshold is free there, so
# a repeated load whose footprint exceeds it page-faults its memory in again every time (on this
# VM a fault costs ~10 us). The "notrim" load rows run both sides with trimming (and mmap for large
# blocks) off, which measures the parse + build work alone.
NOTRIM = {"GLIBC_TUNABLES": "glibc.malloc.trim_threshold=268435456:glibc.malloc.mmap_threshold=268435456"}


def run_json(cmd, cwd=None, timeout=900, env=None):
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=timeout,
                       env=dict(os.environ, **env) if env else None)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:3])}... failed ({r.returncode}): {r.stderr.strip()[-400:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def peak_rss_kb(cmd, env=None, timeout=900):
    """Runs cmd and returns its peak resident set (KB, from wait4) and its last stdout line as JSON."""
    pr = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                          env=dict(os.environ, **env) if env else None)
    out = pr.stdout.read()
    _, status, ru = os.wait4(pr.pid, 0)
    pr.returncode = os.waitstatus_to_exitcode(status)
    if pr.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:3])}... failed ({pr.returncode})")
    return ru.ru_maxrss, json.loads(out.strip().splitlines()[-1])


def setup_cpp(shared, out):
    log("bench-compare: building bench-cpp (DragonBonesCPP) into " + os.path.join(out, "bench-cpp"))
    t0 = time.time()
    r = subprocess.run(["sh", os.path.join(shared, "tools", "bench-cpp", "build.sh"), os.path.join(out, "bench-cpp")],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("bench-compare: bench-cpp did not build:\n" + r.stdout + r.stderr)
    log(f"bench-compare: bench-cpp ready ({time.time() - t0:.0f} s)")
    return os.path.join(out, "bench-cpp", "bench-cpp")


def setup_js(shared, out):
    """OUT/bench-js: bench.js and package.json copied from $SHARED, `npm install` once; one folder
    per set holding a copy of bench.js and data/<armature>_ske.json links (bench.js reads
    data/<name>_ske.json beside itself and picks the armature called <name>). None if unusable."""
    src = os.path.join(shared, "tools", "bench-js")
    if not shutil.which("node") or not shutil.which("npm") or not os.path.isfile(os.path.join(src, "bench.js")):
        return None, "node/npm or $SHARED/tools/bench-js not found"
    dst = os.path.join(out, "bench-js")
    os.makedirs(dst, exist_ok=True)
    for name in ("package.json",):
        shutil.copyfile(os.path.join(src, name), os.path.join(dst, name))
    if not os.path.isdir(os.path.join(dst, "node_modules", "@cocos", "dragonbones-js")):
        log("bench-compare: npm install in " + dst)
        r = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=dst,
                           capture_output=True, text=True)
        if r.returncode != 0:
            return None, "npm install failed (network needed once): " + (r.stderr.strip().splitlines() or [""])[-1]
    return dst, None


def js_dir(jsroot, shared, ch):
    setdir, ske, tex, arm, _ = ch
    d = os.path.join(jsroot, setdir)
    os.makedirs(os.path.join(d, "data"), exist_ok=True)
    shutil.copyfile(os.path.join(shared, "tools", "bench-js", "bench.js"), os.path.join(d, "bench.js"))
    for kind, f in (("ske", ske), ("tex", tex)):
        link = os.path.join(d, "data", f"{arm}_{kind}.json")
        if os.path.lexists(link):
            os.remove(link)
        if f:
            os.symlink(os.path.join(shared, "data", "dragonbones", setdir, f), link)
    return d


def fmt(v, nd=0):
    if v is None:
        return "–"
    return f"{v:,.{nd}f}"


def ratio(a, b):
    return a / b if a and b else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sinew", required=True)
    ap.add_argument("--floor", help="bench_floor (default: bench/bench_floor beside the sinew binary)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench-compare"))
    ap.add_argument("--shared", default=os.environ.get("SHARED", os.path.join(os.path.dirname(ROOT), "shared")))
    ap.add_argument("--quick", action="store_true", help="2 rounds of 2 runs, N = 100 only, half the ticks, no JS")
    ap.add_argument("--rounds", type=int, default=0)
    ap.add_argument("--no-js", action="store_true")
    ap.add_argument("--crowds", action="store_true",
                    help="only the goal rows and the crowd rows (floor, draw list, threads, memory): no "
                         "per-character rows, loads or DBBin; no JS")
    a = ap.parse_args()
    shared = os.path.abspath(a.shared)
    db = os.path.join(shared, "data", "dragonbones")
    if not os.path.isdir(db) or not os.path.isfile(os.path.join(shared, "tools", "bench-cpp", "build.sh")):
        log(f"bench-compare: needs the shared resources ({shared}/data/dragonbones and "
            f"{shared}/tools/bench-cpp); set SHARED=DIR to point at them")
        return 2
    sinew = os.path.abspath(a.sinew)
    floor_bin = os.path.abspath(a.floor or os.path.join(os.path.dirname(sinew), "bench", "bench_floor"))
    prof = load_profile()
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    rounds = a.rounds or (2 if a.quick else 3)
    runs = 2 if a.quick else 3
    t_start = time.time()
    cpp = setup_cpp(shared, out)
    skip_js = a.quick or a.no_js or a.crowds
    jsroot, js_why = (None, "--quick" if a.quick else "--crowds" if a.crowds else "--no-js") if skip_js \
        else setup_js(shared, out)
    if js_why:
        log("bench-compare: JS column skipped: " + js_why)
    # an atlas for the set that ships none (Robot): bench-cpp needs one; no regions, so nothing to look up
    empty_tex = os.path.join(out, "empty_tex.json")
    with open(empty_tex, "w") as f:
        f.write('{"name":"none","imagePath":"none.png","width":1,"height":1,"SubTexture":[]}\n')

    def paths(setdir, ske, tex):
        return os.path.join(db, setdir, ske), (os.path.join(db, setdir, tex) if tex else empty_tex)

    chars = {c[0]: c for c in CHARACTERS}
    work = []  # (key, kind, ...)
    for setdir, arm, anim, n, _ in GOALS:
        work.append(("update", setdir, arm, anim, n))
    for setdir, arm, anim, n, fps, _, _ in CACHE_GOALS:
        work.append(("cache", setdir, arm, anim, n, fps))
    if os.path.isfile(floor_bin):
        for setdir, arm, anim, n, _ in GOALS:
            work.append(("floor", setdir, arm, anim, n))
    work.append(("drawlist",) + DRAWLIST_GOAL)
    for t in (1, THREADS_GOAL[4]):
        work.append(("threads",) + THREADS_GOAL[:4] + (t,))
    work.append(("memory",) + MEMORY_ROW[:4])
    for ch in ([] if a.crowds else CHARACTERS):
        for n in ((100,) if a.quick else (1, 100, 1000)):
            w = ("update", ch[0], ch[3], ch[4], n)
            if w not in work:
                work.append(w)
    loads = [("load", c[0], env) for env in ("default", "notrim") for c in CHARACTERS if not a.crowds]
    work += loads
    # DBBin: each skeleton converted by sinew, loaded alone against its JSON
    bins, bin_why = {}, {}
    for ch in ([] if a.crowds else CHARACTERS):
        ske, _ = paths(ch[0], ch[1], ch[2])
        d = os.path.join(out, "dbbin", ch[0])
        os.makedirs(d, exist_ok=True)
        r = subprocess.run([sinew, "convert", ske, "--to", "dbbin", "--out", d, "--name", "x"], capture_output=True,
                           text=True)
        if r.returncode == 0:
            bins[ch[0]] = os.path.join(d, "x_ske.dbbin")
        else:
            bin_why[ch[0]] = (r.stderr.strip().splitlines() or ["refused"])[-1]
    work += [("dbbin", c[0], kind) for kind in ("json", "bin") for c in CHARACTERS if c[0] in bins]

    res = {w: {"sinew": [], "cpp": [], "js": None, "info": {}} for w in work}

    def update_cmd(w, extra=()):
        setdir, arm, anim, n = w[1:5]
        ch = chars[setdir]
        ske, _ = paths(ch[0], ch[1], ch[2])
        return [sinew, "bench", ske, "--armature", arm, "--animation", anim, "--instances", str(n),
                "--ticks", str(ticks_for(n, a.quick)), "--runs", str(runs), "--json", *extra]

    def rss_growth(cmd_for):
        """Peak RSS growth per instance from N = 1 to N (KB -> bytes), and the N-run's JSON."""
        k1, _ = peak_rss_kb(cmd_for(1))
        kn, j = peak_rss_kb(cmd_for(MEMORY_ROW[3]))
        return (kn - k1) * 1024.0 / (MEMORY_ROW[3] - 1), j

    def run_sinew(w):
        if w[0] == "floor":
            ch = chars[w[1]]
            counts = prof.rig_counts(paths(ch[0], ch[1], ch[2])[0], w[2], w[3], 0)
            cmd = [floor_bin, "--instances", str(w[4])]
            for k in ("bones", "timelines", "keys", "ik", "slots", "vertices", "influences"):
                cmd += [f"--{k}", str(counts[k])]
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
            if r.returncode != 0:
                raise RuntimeError("bench_floor failed: " + r.stderr.strip()[-300:])
            ph = {}
            for line in r.stdout.splitlines():
                parts = line.split()
                if len(parts) > 2 and parts[2] == "ns":
                    ph[parts[0]] = float(parts[1])
            return sum(ph.get(k, 0.0) for k in FLOOR_PHASES), {"phases": ph, "counts": counts}
        if w[0] == "drawlist":
            j = run_json(update_cmd(w, ["--drawlist"]))
            return j["ns_per_update"], j
        if w[0] == "threads":
            j = run_json(update_cmd(w, ["--threads", str(w[5])]))
            return j["ns_per_update"], j
        if w[0] == "memory":
            def cmd_for(n):
                c = update_cmd(w)
                c[c.index("--instances") + 1] = str(n)
                c[c.index("--ticks") + 1] = "1"
                c[c.index("--runs") + 1] = "1"
                return c
            v, j = rss_growth(cmd_for)
            return v, j
        if w[0] == "dbbin":
            ch = chars[w[1]]
            ske = paths(ch[0], ch[1], ch[2])[0] if w[2] == "json" else bins[w[1]]
            j = run_json([sinew, "bench", ske, "--load", "--no-atlas", "--runs", "20", "--json"])
            return j["ske_ms_min"], j
        if w[0] == "load":
            ch = chars[w[1]]
            ske, tex = paths(ch[0], ch[1], ch[2])
            cmd = [sinew, "bench", ske, "--load", "--runs", "20", "--json"]
            cmd += ["--atlas", tex] if ch[2] else ["--no-atlas"]
            j = run_json(cmd, env=NOTRIM if w[2] == "notrim" else None)
            return j["ms_min"], j
        setdir, arm, anim, n = w[1:5]
        ch = chars[setdir]
        ske, _ = paths(ch[0], ch[1], ch[2])
        cache = ["--cache-fps", str(w[5])] if w[0] == "cache" else []
        j = run_json([sinew, "bench", ske, "--armature", arm, "--animation", anim, "--instances", str(n),
                      "--ticks", str(ticks_for(n, a.quick)), "--runs", str(runs), "--json", *cache])
        return j["ns_per_update"], j

    def run_cpp(w):
        if w[0] in ("dbbin", "floor", "drawlist", "threads"):  # bench-cpp reads JSON only; the rest are sinew's
            return None, {}
        if w[0] == "memory":
            ch = chars[w[1]]
            ske, tex = paths(ch[0], ch[1], ch[2])
            return rss_growth(lambda n: [cpp, "update", ske, tex, w[2], w[3], str(n), "--adapter", "compute",
                                         "--ticks", "1", "--runs", "1"])
        ch = chars[w[1]]
        ske, tex = paths(ch[0], ch[1], ch[2])
        if w[0] == "load":
            if not ch[2]:
                return None, {}
            j = run_json([cpp, "load", ske, tex, "--runs", "20"], env=NOTRIM if w[2] == "notrim" else None)
            return j["ms_min"], j
        setdir, arm, anim, n = w[1:5]
        cache = ["--cache-fps", str(w[5])] if w[0] == "cache" else []
        j = run_json([cpp, "update", ske, tex, arm, anim, str(n), "--adapter", "compute",
                      "--ticks", str(ticks_for(n, a.quick)), "--runs", str(runs), *cache])
        return j["ns_min"], j

    def run_js_load(w):
        """bench/js_load.mjs in OUT/bench-js: the official runtime's JSON and DBBin loads of one set."""
        ch = chars[w[1]]
        shutil.copyfile(os.path.join(HERE, "js_load.mjs"), os.path.join(jsroot, "js_load.mjs"))
        r = subprocess.run(["node", "js_load.mjs", paths(ch[0], ch[1], ch[2])[0], bins[w[1]], "--runs=100"], cwd=jsroot,
                           capture_output=True, text=True, timeout=900)
        if r.returncode != 0:
            raise RuntimeError("js_load.mjs failed: " + r.stderr.strip()[-300:])
        j = json.loads(r.stdout.strip().splitlines()[-1])
        return j["ratio"], j

    def run_js(w):
        ch = chars[w[1]]
        _, setdir, arm, anim, n = w
        d = js_dir(jsroot, shared, ch)
        jf = os.path.join(out, "js.json")
        if os.path.exists(jf):
            os.remove(jf)
        r = subprocess.run(["node", "bench.js", arm, anim, f"--n={n}", f"--ticks={ticks_for(n, a.quick)}",
                            f"--runs={runs}", f"--json={jf}"], cwd=d, capture_output=True, text=True, timeout=900)
        if r.returncode != 0 or not os.path.exists(jf):
            raise RuntimeError("bench.js failed: " + r.stderr.strip()[-300:])
        j = json.load(open(jf))
        return j["results"][0]["min"], j

    failures = []
    for r in range(rounds):
        order = work if r % 2 == 0 else list(reversed(work))
        for i, w in enumerate(order):
            log(f"bench-compare: round {r + 1}/{rounds}, {i + 1}/{len(order)}: {' '.join(map(str, w[1:]))}")
            sides = [("sinew", run_sinew), ("cpp", run_cpp)]
            if (r + i) % 2:
                sides.reverse()
            for name, fn in sides:
                try:
                    v, j = fn(w)
                    if v is not None:
                        res[w][name].append(v)
                    res[w]["info"][name] = j
                except (RuntimeError, subprocess.TimeoutExpired, ValueError, KeyError) as e:
                    failures.append(f"{name} {w}: {e}")
                    log(f"bench-compare: {name} failed: {e}")
            if r == 0 and jsroot and (w[0] == "update" or (w[0] == "dbbin" and w[2] == "bin")):
                try:
                    res[w]["js"], res[w]["info"]["js"] = run_js(w) if w[0] == "update" else run_js_load(w)
                except (RuntimeError, subprocess.TimeoutExpired, ValueError, KeyError) as e:
                    failures.append(f"js {w}: {e}")
                    log(f"bench-compare: js failed: {e}")

    # ---- the table ----
    best = lambda v: min(v) if v else None
    lines = []
    lines.append(f"sinew vs DragonBonesCPP 5.6 (bench-cpp, --adapter compute) and DragonBonesJS (bench-js, node "
                 f"{subprocess.run(['node', '--version'], capture_output=True, text=True).stdout.strip() if shutil.which('node') else '-'})")
    lines.append(f"{os.uname().sysname} {os.uname().machine}, {os.cpu_count()} cores, load average "
                 f"{open('/proc/loadavg').read().split()[0]}; {rounds} rounds x {runs} runs, best of rounds; "
                 f"{'quick mode; ' if a.quick else ''}update: ns per armature update (lower is better), "
                 f"ratios = other / sinew (higher: sinew faster)")
    lines.append("")
    lines.append("| workload | N | ticks | sinew ns | CPP ns | JS ns | CPP / sinew | JS / sinew | goal |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---|")

    def row(w, goal=None):
        s, c, js = best(res[w]["sinew"]), best(res[w]["cpp"]), res[w]["js"]
        _, setdir, arm, anim, n = w
        g = ""
        if goal:
            rr = ratio(c, s)
            g = f"≥ {goal:g}×: " + ("met" if rr and rr >= goal else "not met")
        lines.append(f"| {setdir} {arm} `{anim}` | {n} | {ticks_for(n, a.quick)} | {fmt(s)} | {fmt(c)} | {fmt(js)} | "
                     f"{fmt(ratio(c, s), 2)}× | {fmt(ratio(js, s), 1)}{'×' if js else ''} | {g} |")

    for setdir, arm, anim, n, goal in GOALS:
        row(("update", setdir, arm, anim, n), goal)
    # crowds (issue 29)
    crowd = []
    for setdir, arm, anim, n, _ in GOALS:
        fw, uw = ("floor", setdir, arm, anim, n), ("update", setdir, arm, anim, n)
        f, s = (best(res[fw]["sinew"]) if fw in res else None), best(res[uw]["sinew"])
        g = f"≤ 1.5×: {'met' if f and s and s / f <= 1.5 else 'not met'}" if n == 100 else ""
        crowd.append(f"| {setdir} {arm} `{anim}`, sinew against the C floor (bench_floor, the rig's counts: "
                     f"timelines + bones + IK + slots + skinning) | {n} | {fmt(s)} | {fmt(f)} | "
                     f"{fmt(ratio(s, f), 2)}{'×' if f else ''} (sinew / floor) | {g} |")
    dw, uw = ("drawlist",) + DRAWLIST_GOAL, ("update",) + DRAWLIST_GOAL
    s_dl, c_u = best(res[dw]["sinew"]), best(res[uw]["cpp"])
    crowd.append(f"| {DRAWLIST_GOAL[0]} {DRAWLIST_GOAL[1]} `{DRAWLIST_GOAL[2]}`, sinew update + draw list against "
                 f"CPP's update alone | {DRAWLIST_GOAL[3]} | {fmt(s_dl)} | {fmt(c_u)} | {fmt(ratio(c_u, s_dl), 2)}"
                 f"{'×' if c_u else ''} (CPP / sinew) | faster than CPP: {'met' if s_dl and c_u and s_dl < c_u else 'not met'} |")
    t1, t2 = (("threads",) + THREADS_GOAL[:4] + (t,) for t in (1, THREADS_GOAL[4]))
    s1, s2 = best(res[t1]["sinew"]), best(res[t2]["sinew"])
    crowd.append(f"| {THREADS_GOAL[0]} {THREADS_GOAL[1]} `{THREADS_GOAL[2]}`, sinew_crowd_update on 1 thread "
                 f"(sinew column) and on {THREADS_GOAL[4]} (next column) | {THREADS_GOAL[3]} | {fmt(s1)} | {fmt(s2)} | "
                 f"{fmt(ratio(s1, s2), 2)}{'×' if s2 else ''} ({THREADS_GOAL[4]} threads / 1) | "
                 f"≥ {THREADS_GOAL[5]:g}×: {'met' if s1 and s2 and s1 / s2 >= THREADS_GOAL[5] else 'not met'} |")
    mw = ("memory",) + MEMORY_ROW[:4]
    m_s, m_c = best(res[mw]["sinew"]), best(res[mw]["cpp"])
    m_api = res[mw]["info"].get("sinew", {}).get("memory_per_instance")
    ok = m_s and m_api and max(m_s, m_api) <= MEMORY_ROW[4] and (not m_c or max(m_s, m_api) <= m_c / 2)
    crowd.append(f"| {MEMORY_ROW[0]} {MEMORY_ROW[1]}, bytes per instance: peak RSS growth from N = 1 to "
                 f"N = {MEMORY_ROW[3]:,} (sinew: memory_per_instance {fmt(m_api)}) | {MEMORY_ROW[3]} | {fmt(m_s)} | "
                 f"{fmt(m_c)} | {fmt(ratio(m_c, m_s), 2)}{'×' if m_c else ''} (CPP / sinew) | ≤ {MEMORY_ROW[4]:,} and ≤ CPP / 2: "
                 f"{'met' if ok else 'not met'} |")
    lines.append("")
    lines.append("Crowds (ns per armature update, best of rounds; memory in bytes):")
    lines.append("")
    lines.append("| workload | N | sinew | other | ratio | goal |")
    lines.append("|---|---:|---:|---:|---:|---|")
    lines += crowd
    lines.append("")
    lines.append("| workload | N | ticks | sinew ns | CPP ns | JS ns | CPP / sinew | JS / sinew | goal |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for setdir, arm, anim, n, fps, g_nocache, g_cache in CACHE_GOALS:
        cw, uw = ("cache", setdir, arm, anim, n, fps), ("update", setdir, arm, anim, n)
        s_c, c_c, c_u = best(res[cw]["sinew"]), best(res[cw]["cpp"]), best(res[uw]["cpp"]) if uw in res else None
        r1, r2 = ratio(c_u, s_c), ratio(c_c, s_c)
        lines.append(f"| {setdir} {arm} `{anim}`, frame cache {fps} fps (CPP column: CPP with its cache) | {n} | "
                     f"{ticks_for(n, a.quick)} | {fmt(s_c)} | {fmt(c_c)} | – | {fmt(r2, 2)}× | | "
                     f"≥ {g_cache:g}× CPP cached: {'met' if r2 and r2 >= g_cache else 'not met'}; "
                     f"≥ {g_nocache:g}× CPP uncached ({fmt(c_u)} ns, {fmt(r1, 1)}×): "
                     f"{'met' if r1 and r1 >= g_nocache else 'not met'} |")
    lines.append("| *every shared character, first animation* | | | | | | | | |")
    for w in work:
        if w[0] == "update" and not any(w == ("update", g[0], g[1], g[2], g[3]) for g in GOALS):
            row(w)
    if not a.crowds:  # the load and DBBin tables
        lines.append("")
        lines.append("Load from memory, skeleton + atlas (sinew bench --load / bench-cpp load, 20 loads each), ms; "
                     "'no trim': both run with glibc's heap trimming off (see docs/performance.md)")
        lines.append("")
        lines.append("| skeleton | bytes | sinew ms | CPP ms | CPP / sinew | sinew ms, no trim | CPP ms, no trim | "
                     "CPP / sinew, no trim | loaded data / JSON | goal |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for ch in CHARACTERS:
            d, n = ("load", ch[0], "default"), ("load", ch[0], "notrim")
            s1, c1, s2, c2 = best(res[d]["sinew"]), best(res[d]["cpp"]), best(res[n]["sinew"]), best(res[n]["cpp"])
            info = res[d]["info"].get("sinew", {})
            size = info.get("ske_bytes", 0)
            mem = f"{info['data_bytes'] / size:.1f}×" if size else "–"
            goal = ""
            if ch[0] == "you_xin_body_5.5":
                goal = "≥ 1×: " + ("met" if ratio(c1, s1) and ratio(c1, s1) >= 1 else "not met")
            elif not ch[2]:
                goal = "(no atlas shipped: CPP not run)"
            lines.append(f"| {ch[0]}/{ch[1]} | {size:,} | {fmt(s1, 3)} | {fmt(c1, 3)} | {fmt(ratio(c1, s1), 2)}{'×' if c1 else ''} | "
                         f"{fmt(s2, 3)} | {fmt(c2, 3)} | {fmt(ratio(c2, s2), 2)}{'×' if c2 else ''} | {mem} | {goal} |")
        lines.append("")
        lines.append("DBBin against JSON, the skeleton alone (sinew: `sinew bench --load --no-atlas`, 20 loads, best of rounds, "
                     "of sinew's own .dbbin of the file; the official runtime: DragonBonesJS JSON.parse + ObjectDataParser "
                     "against BinaryDataParser on the same two files, bench/js_load.mjs, min of 100), ms")
        lines.append("")
        lines.append("| skeleton | JSON bytes | DBBin bytes (header) | sinew JSON | sinew DBBin | sinew JSON / DBBin | "
                     "JS JSON | JS DBBin | JS JSON / DBBin | JS DBBin / sinew DBBin | goal |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for ch in CHARACTERS:
            if ch[0] not in bins:
                lines.append(f"| {ch[0]}/{ch[1]} | | | | | | | | | | not converted: {bin_why.get(ch[0], '?')} |")
                continue
            wj, wb = ("dbbin", ch[0], "json"), ("dbbin", ch[0], "bin")
            sj, sb = best(res[wj]["sinew"]), best(res[wb]["sinew"])
            js = res[wb]["info"].get("js", {})
            jsize = os.path.getsize(paths(ch[0], ch[1], ch[2])[0])
            with open(bins[ch[0]], "rb") as f:
                head = f.read(12)
            bsize, hsize = os.path.getsize(bins[ch[0]]), int.from_bytes(head[8:12], "little") if len(head) == 12 else 0
            rr = ratio(sj, sb)
            lines.append(f"| {ch[0]}/{ch[1]} | {jsize:,} | {bsize:,} ({hsize:,}) | {fmt(sj, 3)} | {fmt(sb, 3)} | "
                         f"{fmt(rr, 2)}× | {fmt(js.get('json_ms_min'), 3)} | {fmt(js.get('dbbin_ms_min'), 3)} | "
                         f"{fmt(js.get('ratio'), 2)}{'×' if js else ''} | {fmt(ratio(js.get('dbbin_ms_min'), sb), 1)}{'×' if js else ''} | "
                         f"≥ 5×: {'met' if rr and rr >= 5 else 'not met'} |")
    lines.append("")
    # what differs between the two sides, measured
    lines.append("Per update, same workloads (sinew `events_per_update`: events sinew queued and the bench polled; "
                 "CPP makes none, having no listener; CPP `mesh_updates_per_arm_update`):")
    for w in work:
        if w[0] != "update" or w[4] != 100:
            continue
        si, ci = res[w]["info"].get("sinew", {}), res[w]["info"].get("cpp", {})
        lines.append(f"- {w[1]} {w[2]} `{w[3]}`: bones sinew {si.get('bones', '?')} / CPP {ci.get('bones', '?')}, "
                     f"slots {si.get('slots', '?')} / {ci.get('slots', '?')}, sinew events {si.get('events_per_update', 0):.3f}, "
                     f"CPP mesh updates {ci.get('mesh_updates_per_arm_update', 0):.2f}")
    if js_why:
        lines.append(f"JS: {js_why}.")
    if failures:
        lines.append("Failures:")
        lines += ["- " + f for f in failures]
    lines.append(f"(bench-compare took {time.time() - t_start:.0f} s)")
    print("\n".join(lines))
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump({" ".join(map(str, k)): v for k, v in res.items()}, f, indent=1, default=str)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
