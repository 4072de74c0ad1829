#!/usr/bin/env python3
"""A new user's first hour (issue 27): each point as a user meets it, checked on the CLI.

1. the default armature is the main character (sinew_data_default_armature), in every command;
2. an output that is a folder is refused before rendering, naming it (under ASan in build-asan:
   the error path read a freed name before), for every output kind;
3. `sinew view` starts framed on the animation (a rig far from the origin shows);
4. no silent overwrites: an --out pattern that gives two renders one name, a --sheet --out with
   another format's extension;
5. warnings collapse by kind (--verbose lists them, --quiet silences them), a long one is whole;
6. convert: an unknown --armature lists them, a refusal leaves no folder, an input in the way
   exits 3 naming it, a missing page image reads the same in render, validate (errors) and
   convert (a warning: the converted files only name the page);
7. converted files are named after the input and render with no option;
8. validate says what render needs (a warning; an error with --for render);
9. make installs the viewer's packages with the build's; make demo no test package;
10. a GIF holds a few frames, not all of them (peak memory; not under the sanitizers);
11. --opt=value, --size fits (--crop cuts), the progress line ends a line, input edit --trim
    outside the recording, durations in short digits, "did you mean", examples/input/wave.bin.
"""
import json
import os
import pty
import re
import resource
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import SINEW, SRC, check, corpus_path, finish, have_shared, read_png, run_sinew, skip  # noqa: E402

OWN = os.path.join(SRC, "tests", "fixtures", "own")
PIP_DIR = os.path.join(OWN, "Pip_5.0")
PIP = os.path.join(PIP_DIR, "pip_ske.json")
MRTK = os.path.join(SRC, "examples", "input", "wave.bin")
SANITIZED = os.environ.get("SINEW_SANITIZE") == "1"
tmp = tempfile.mkdtemp(prefix="sinew_first_hour_")


def pip_copy(name, edit=None, with_atlas=True, ske_name="pip_ske.json"):
    """A copy of the own Pip in tmp/NAME (SKE_NAME, its atlas named to match), its skeleton passed
    through edit(dict)."""
    d = os.path.join(tmp, name)
    os.makedirs(d, exist_ok=True)
    with open(PIP) as f:
        data = json.load(f)
    if edit:
        edit(data)
    with open(os.path.join(d, ske_name), "w") as f:
        json.dump(data, f)
    if with_atlas:
        shutil.copy(os.path.join(PIP_DIR, "pip_tex.json"), os.path.join(d, ske_name.replace("_ske.json", "_tex.json")))
        shutil.copy(os.path.join(PIP_DIR, "pip_tex.png"), os.path.join(d, "pip_tex.png"))
    return os.path.join(d, ske_name)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    return struct.unpack(">II", head[16:24])


# ---- 1. the main character by default -----------------------------------------------------------
# the rotor (2 bones, a child armature of pip) first in the file: the first armature is a prop
rotor_first = pip_copy("rotor_first", lambda d: d["armature"].sort(key=lambda a: a["name"] != "rotor"))
a_png, b_png = os.path.join(tmp, "default.png"), os.path.join(tmp, "pip.png")
ra = run_sinew("render", rotor_first, "--out", a_png)
rb = run_sinew("render", rotor_first, "--armature", "pip", "--out", b_png)
check(ra.returncode == 0 and rb.returncode == 0 and open(a_png, "rb").read() == open(b_png, "rb").read(),
      f"render without --armature draws pip, not the rotor listed first ({ra.stderr[-200:]})")
r = run_sinew("poses", rotor_first, "--frames", "1")
arms = [a["name"] for a in json.loads(r.stdout)["armatures"]] if r.returncode == 0 else []
check(arms == ["pip"], f"poses without --armature: pip ({arms})")
# the 5.x `stage` names the armature the editor shows: it wins
staged = pip_copy("staged", lambda d: d.update(stage="rotor"))
r = run_sinew("poses", staged, "--frames", "1")
arms = [a["name"] for a in json.loads(r.stdout)["armatures"]] if r.returncode == 0 else []
check(arms == ["rotor"], f"a file whose stage is 'rotor': rotor by default ({arms})")
# convert --to spine: the main one, one warning for the rest, none when --armature is given
r = run_sinew("convert", rotor_first, "--to", "spine", "--out", os.path.join(tmp, "sp1"))
skel = os.path.join(tmp, "sp1", "pip.json")
bones = len(json.load(open(skel))["bones"]) if os.path.exists(skel) else 0
left_out = [ln for ln in r.stderr.splitlines() if "other armatures" in ln]
check(r.returncode == 0 and bones >= 13 and len(left_out) == 1 and "'rotor'" in left_out[0],
      f"convert --to spine: pip ({bones} bones), one warning naming the rotor ({left_out})")
r = run_sinew("convert", rotor_first, "--to", "spine", "--armature", "pip", "--out", os.path.join(tmp, "sp2"))
check(r.returncode == 0 and "other armatures" not in r.stderr, f"... and none with --armature ({r.stderr[-300:]})")
if have_shared():
    mecha = corpus_path("mecha_1502b_5.5")
    r = run_sinew("render", mecha, "--out", os.path.join(tmp, "mecha.png"))
    w, h = png_size(os.path.join(tmp, "mecha.png")) if r.returncode == 0 else (0, 0)
    check(w > 200 and h > 200, f"mecha_1502b renders the mecha, not the 142x28 bullet ({w}x{h})")
else:
    skip(1, "mecha_1502b by default", "needs ../shared")

# ---- 2. an output that is a folder: refused before rendering, named ----------------------------
for out in ("d.gif", "d.webp", "d.png", "d.mp4", "d.webm", "d_%02d.png", "sheet"):
    first = out.replace("%02d", "00")
    folder = os.path.join(tmp, first + (".png" if out == "sheet" else ""))
    os.makedirs(folder, exist_ok=True)
    args = ["--sheet"] if out == "sheet" else []
    target = os.path.join(tmp, out)
    r = subprocess.run([SINEW, "render", PIP, *args, "--out", target], capture_output=True)
    r.stderr = r.stderr.decode("utf-8", errors="replace")  # a freed name printed garbage before
    want = f"cannot write '{folder}': it is a folder"
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 3 and len(lines) == 1 and lines[0].endswith(want) and lines[0].isprintable(),
          f"render --out {out} onto a folder: exit 3, '{want}' ({r.returncode}: {r.stderr.strip()[-200:]!r})")

# ---- 3. view frames the rig -----------------------------------------------------------------------
probe = run_sinew("view", PIP, "--screenshot", os.path.join(tmp, "probe.png"))
if "built without SDL2" in probe.stderr:
    skip(1, "sinew view framing", "this sinew was built without SDL2 and the GL backend")
else:
    def far(d):
        for b in d["armature"][0]["bone"]:
            if "parent" not in b:
                b.setdefault("transform", {})["x"] = 4000
                b["transform"]["y"] = -3000
    far_ske = pip_copy("far", far)
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
    runner = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24"] if shutil.which("xvfb-run") else []
    if not runner:
        env["SDL_VIDEODRIVER"] = "offscreen"
    cap = os.path.join(tmp, "far.png")
    p = subprocess.run(runner + [SINEW, "view", far_ske, "--paused", "--quit-after", "2", "--capture", cap],
                       capture_output=True, text=True, env=env, timeout=120)
    if p.returncode == 0 and os.path.exists(cap):
        w, h, px = read_png(cap)[:3]
        ch = len(px) // (w * h)
        bg = px[0:3]
        drawn = [(i % w, i // w) for i in range(0, w * (h - 30)) if px[i * ch:i * ch + 3] != bg]
        xs, ys = [x for x, _ in drawn], [y for _, y in drawn]
        span = (max(xs) - min(xs), max(ys) - min(ys)) if drawn else (0, 0)
        check(span[0] > w * 0.3 or span[1] > (h - 30) * 0.5,
              f"view: a rig 4000 units off the origin fills the window ({len(drawn)} pixels, span {span})")
        if drawn:
            check(min(xs) > 0 and max(xs) < w - 1 and min(ys) > 0 and max(ys) < h - 31,
                  "... and is whole, above the status line")
    else:
        check(False, f"view runs and captures its window ({p.returncode}: {p.stderr[-300:]})")

# ---- 4. no silent overwrites ----------------------------------------------------------------------
r = run_sinew("render", PIP, "--armature", "all", "--out", os.path.join(tmp, "all_%r.gif"))
check(r.returncode == 1 and "%a" in r.stderr and not any(f.startswith("all_") for f in os.listdir(tmp)),
      f"--armature all into one name per armature: refused before rendering, naming %a ({r.stderr.strip()[:200]})")
r = run_sinew("render", PIP, "--sheet", "--out", os.path.join(tmp, "sh.gif"))
check(r.returncode == 1 and "sh.gif.png" in r.stderr and not os.path.exists(os.path.join(tmp, "sh.gif.png")),
      f"--sheet --out sh.gif: refused, saying what it would write ({r.stderr.strip()[:200]})")

# ---- 5. warnings ------------------------------------------------------------------------------------
def zorder_noise(d):
    arm = d["armature"][0]
    n = len(arm["slot"])
    anim = arm["animation"][0]
    # 30 zOrder keys each moving slot 0 past the end: 30 warnings of one kind
    anim["zOrder"] = {"frame": [{"duration": 1, "zOrder": [0, n + k]} for k in range(30)]}
    anim["duration"] = max(anim.get("duration", 1), 30)
long_name = "a_very_long_slot_name_" + "x" * 300 + "_end"


def long_warning(d):
    d["armature"][0]["slot"][0]["displayIndex"] = 0
    d["armature"][0]["skin"][0]["slot"][0]["display"].append({"name": long_name})
noisy = pip_copy("noisy", zorder_noise)
r = run_sinew("info", noisy)
zl = [ln for ln in r.stderr.splitlines() if "zOrder" in ln]
check(r.returncode == 0 and len(zl) == 1 and "29 more" in zl[0],
      f"30 zOrder warnings: one line with the count ({len(zl)} lines: {zl[:1]})")
r = run_sinew("info", noisy, "--verbose")
zl = [ln for ln in r.stderr.splitlines() if "zOrder" in ln]
check(len(zl) == 30 and len(set(zl)) == 30, f"--verbose lists the 30 ({len(zl)})")
r = run_sinew("render", noisy, "--quiet", "--out", os.path.join(tmp, "q.png"))
check(r.returncode == 0 and "warning" not in r.stderr, f"--quiet silences them ({r.stderr[:200]})")
r = run_sinew("info", noisy, "--quiet")
check(r.returncode == 0 and "warning" not in r.stderr, f"info --quiet too ({r.stderr[:200]})")
lw = pip_copy("longwarn", long_warning)
r = run_sinew("validate", lw)
check(long_name + "'" in r.stderr, f"a warning naming a {len(long_name)}-byte name prints it whole ({r.stderr[-200:]})")
lines = r.stderr.splitlines()
check(len(lines) == len(set(lines)), f"nothing is printed twice ({lines})")

# ---- 6. convert follows the CLI rules ---------------------------------------------------------------
r = run_sinew("convert", PIP, "--to", "spine", "--armature", "nope", "--out", os.path.join(tmp, "cv_unknown"))
check(r.returncode == 2 and "'pip'" in r.stderr and "'rotor'" in r.stderr
      and not os.path.exists(os.path.join(tmp, "cv_unknown")),
      f"an unknown --armature lists the armatures and leaves no folder ({r.returncode}: {r.stderr.strip()[:200]})")
r = run_sinew("convert", os.path.join(OWN, "Pip_xml", "pip.xml"), "--to", "dbbin", "--out", os.path.join(tmp, "cv_xml"))
check(r.returncode == 2 and not os.path.exists(os.path.join(tmp, "cv_xml")),
      f"XML -> dbbin refused, no empty folder ({r.returncode}: {r.stderr.strip()[:200]})")
inplace = pip_copy("inplace")
r = run_sinew("convert", inplace, "--to", "dragonbones", "--out", os.path.dirname(inplace))
check(r.returncode == 3 and re.search(r"^\S+: error: refusing to overwrite '" + re.escape(inplace), r.stderr, re.M),
      f"converting onto the input: exit 3, naming it ({r.returncode}: {r.stderr.strip()[:200]})")
nopage = pip_copy("nopage")
os.remove(os.path.join(os.path.dirname(nopage), "pip_tex.png"))
msgs = set()
for args in (["render", nopage, "--out", os.path.join(tmp, "np.png")], ["validate", nopage]):
    r = run_sinew(*args)
    err = [ln for ln in r.stderr.splitlines() if ": error: " in ln]
    msgs.add((r.returncode, tuple(err)))
check(len(msgs) == 1 and list(msgs)[0][0] == 2 and "texture page 'pip_tex.png' not found" in str(msgs),
      f"a missing page image: one error, exit 2, in render and validate ({msgs})")
# convert writes files that only name the page: a warning (as the Spine writer decided), the same words
r = run_sinew("convert", nopage, "--to", "dbbin", "--out", os.path.join(tmp, "np2"))
check(r.returncode == 0 and "warning: texture page 'pip_tex.png' not found" in r.stderr
      and not os.path.exists(os.path.join(tmp, "np2", "pip_tex.png")),
      f"... and a warning in the same words in convert, the page not copied ({r.returncode}: {r.stderr.strip()[:200]})")

# ---- 7. converted files are named after the input and render as they are ---------------------------
hero = pip_copy("hero", ske_name="hero_ske.json")  # the data's name is "pip"
for to, ske in (("dbbin", "hero_ske.dbbin"), ("dragonbones", "hero_ske.json")):
    out = os.path.join(tmp, "conv_" + to)
    r = run_sinew("convert", hero, "--to", to, "--out", out)
    files = sorted(os.listdir(out)) if os.path.isdir(out) else []
    check(r.returncode == 0 and ske in files and "hero_tex.json" in files and "pip_tex.png" in files,
          f"convert --to {to}: {ske} with its atlas beside it ({files}, {r.stderr.strip()[:200]})")
    r = run_sinew("render", os.path.join(out, ske), "--out", os.path.join(tmp, f"conv_{to}.png"))
    check(r.returncode == 0, f"... which renders with no option ({r.stderr.strip()[:200]})")

# ---- 8. validate says what render needs ---------------------------------------------------------------
bare = pip_copy("bare", with_atlas=False)
r = run_sinew("validate", bare)
check(r.returncode == 0 and "warning: no texture atlas" in r.stderr, f"validate: no atlas is a warning ({r.stderr[:200]})")
r = run_sinew("validate", "--for", "render", bare)
check(r.returncode == 2 and "error: no texture atlas" in r.stderr, f"--for render: an error, exit 2 ({r.stderr[:200]})")
r = run_sinew("render", bare, "--out", os.path.join(tmp, "bare.png"))
check(r.returncode == 2, "... as render has it")

# ---- 9. setting up --------------------------------------------------------------------------------------
mk = subprocess.run(["make", "-n", "-C", SRC, "build-deps", "demo"], capture_output=True, text=True)
deps_lines = [ln for ln in mk.stdout.splitlines() if "deps.sh" in ln]
check(mk.returncode == 0 and deps_lines and all("libsdl2-dev" in ln for ln in deps_lines)
      and not any(p in ln for ln in deps_lines for p in (" clang", " nodejs", " ffmpeg", " xvfb")),
      f"make's packages include the viewer's; make demo adds no test package ({deps_lines})")

# ---- 10. a GIF holds a few frames -------------------------------------------------------------------------
if SANITIZED:
    # not a skip (SINEW_REQUIRE_SHARED=1 would fail it): the plain build of the same suite checks it
    print("NOTE: GIF peak memory is checked in the plain build (the sanitizers' shadow memory makes RSS "
          "meaningless)", flush=True)
else:
    def peak_of(*args):
        """Peak RSS of one sinew run, alone in a fresh process (RUSAGE_CHILDREN keeps the largest child)."""
        code = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True); "
                "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)")
        out = subprocess.run([sys.executable, "-c", code, SINEW, *args], capture_output=True, text=True).stdout.split()
        return int(out[0]), int(out[1])
    gif = os.path.join(tmp, "big.gif")
    common = [PIP, "--animation", "hop", "--scale", "8", "--fps", "48"]
    rc_png, one = peak_of("render", *common, "--out", os.path.join(tmp, "one.png"))
    rc_gif, peak = peak_of("render", *common, "--out", gif)
    with open(gif, "rb") as f:
        w, h = struct.unpack("<HH", f.read(10)[6:10])
    frame = w * h * 4
    check(rc_png == 0 and rc_gif == 0 and peak < one + 6 * frame,
          f"a GIF of {w}x{h} frames peaks at {peak / 2 ** 20:.0f} MB: within 6 frames of one PNG's "
          f"{one / 2 ** 20:.0f} MB ({(one + 6 * frame) / 2 ** 20:.0f} MB; holding its 34 frames takes "
          f"{34 * frame * 1.25 / 2 ** 20:.0f} MB more)")

# ---- 11. the smaller ones -----------------------------------------------------------------------------------
r = run_sinew("render", PIP, "--out=" + os.path.join(tmp, "eq.gif"), "--fps=12")
check(r.returncode == 0 and os.path.exists(os.path.join(tmp, "eq.gif")), f"--out=x.gif --fps=12 ({r.stderr[:200]})")
r = run_sinew("render", PIP, "--quiet=1", "--out", os.path.join(tmp, "x.gif"))
check(r.returncode == 1 and "takes no value" in r.stderr, f"a flag with =value is a usage error ({r.stderr[:120]})")


def visible_box(path):
    w, h, px = read_png(path)[:3]
    ch = len(px) // (w * h)
    pts = [(i % w, i // w) for i in range(w * h) if px[i * ch + 3] > 0]
    return w, h, (min(x for x, _ in pts), min(y for _, y in pts), max(x for x, _ in pts), max(y for _, y in pts))


fit, crop = os.path.join(tmp, "fit.png"), os.path.join(tmp, "crop.png")
run_sinew("render", PIP, "--size", "60x60", "--out", fit)
run_sinew("render", PIP, "--size", "60x60", "--crop", "--out", crop)
w, h, box = visible_box(fit)
check((w, h) == (60, 60) and box[0] > 0 and box[1] > 0 and box[2] < 59 and box[3] < 59,
      f"--size 60x60 fits the character inside ({box})")
w, h, box = visible_box(crop)
check(box[0] == 0 or box[1] == 0 or box[2] == 59 or box[3] == 59, f"--crop cuts it at the edges ({box})")

# the progress bar, on a terminal: its last state is a whole line naming the output
pid, fd = pty.fork()
if pid == 0:
    os.execv(SINEW, [SINEW, "render", PIP, "--out", os.path.join(tmp, "tty.gif")])
out = b""
while True:
    try:
        ready, _, _ = select.select([fd], [], [], 60)
        chunk = os.read(fd, 65536) if ready else b""
    except OSError:
        chunk = b""
    if not chunk:
        break
    out += chunk
os.waitpid(pid, 0)
last = out.decode(errors="replace").split("\r")[-2:] if out else []
check(out.endswith(b"\n") and "tty.gif" in "".join(last), f"the progress line ends a line, naming the output ({last})")

r = run_sinew("input", "edit", MRTK, os.path.join(tmp, "empty.bin"), "--trim", "50:60")
check(r.returncode == 2 and "outside the recording" in r.stderr and not os.path.exists(os.path.join(tmp, "empty.bin")),
      f"input edit --trim past the end: an error, no file ({r.returncode}: {r.stderr.strip()[:200]})")
r = run_sinew("input", "edit", MRTK, os.path.join(tmp, "trim.bin"), "--trim", "0.3:1.7")
check(r.returncode == 0 and "duration 1.4 s" in r.stdout, f"durations in short digits ({r.stdout.strip()})")
r = run_sinew("input", "info", os.path.join(tmp, "trim.bin"))
check("duration:  1.4 s" in r.stdout, f"... in input info too ({r.stdout[:160]})")
r = run_sinew("rendr", PIP)
check(r.returncode == 1 and "did you mean 'render'" in r.stderr, f"a mistyped command ({r.stderr[:100]})")
r = run_sinew("render", PIP, "--anmation", "idle", "--out", os.path.join(tmp, "x.gif"))
check(r.returncode == 1 and "did you mean '--animation'" in r.stderr, f"a mistyped option ({r.stderr[:100]})")
r = run_sinew("input", "evl", MRTK)
check(r.returncode == 1 and "did you mean 'eval'" in r.stderr, f"a mistyped input command ({r.stderr[:100]})")
r = run_sinew("input", "info", MRTK)
check(r.returncode == 0 and "eye gaze yes" in r.stdout, f"examples/input/wave.bin is there to try ({r.stderr[:100]})")

shutil.rmtree(tmp, ignore_errors=True)
finish()
