#!/usr/bin/env python3
"""`sinew render --animation all` / `--armature all`: one run writes every animation (of every
armature), each to OUT with %a / %r replaced by its names, and each output is byte for byte the
one a render of that armature and animation alone writes."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import SRC, check, finish, run_sinew  # noqa: E402

PIP = os.path.join(SRC, "tests", "fixtures", "own", "Pip_5.0", "pip_ske.json")
ALL = {"pip": ["idle", "hop"], "rotor": ["still", "spin"]}  # the fixture's armatures and animations
tmp = tempfile.mkdtemp(prefix="sinew_render_all_")


def same_file(a, b):
    return os.path.exists(a) and os.path.exists(b) and open(a, "rb").read() == open(b, "rb").read()


r = run_sinew("render", PIP, "--armature", "all", "--animation", "all", "--out", f"{tmp}/all/%r-%a.gif")
check(r.returncode != 0 and "all" in r.stderr, "a missing output folder is an error, as for one render")
os.makedirs(f"{tmp}/all")
r = run_sinew("render", PIP, "--armature", "all", "--animation", "all", "--out", f"{tmp}/all/%r-%a.gif")
want = sorted(f"{arm}-{an}.gif" for arm, ans in ALL.items() for an in ans)
check(r.returncode == 0 and sorted(os.listdir(f"{tmp}/all")) == want,
      f"--armature all --animation all writes {want}: {sorted(os.listdir(f'{tmp}/all'))} ({r.stderr.strip()[:200]})")
check(sorted(os.path.basename(p) for p in r.stdout.split()) == want, "and prints each path it wrote")
for arm, ans in ALL.items():
    for an in ans:
        one = f"{tmp}/{arm}-{an}.gif"
        r1 = run_sinew("render", PIP, "--armature", arm, "--animation", an, "--out", one)
        check(r1.returncode == 0 and same_file(one, f"{tmp}/all/{arm}-{an}.gif"),
              f"{arm}/{an}: the batch output equals the render alone")

# without --armature: the first armature's animations; a PNG sequence pattern keeps its %d
r = run_sinew("render", PIP, "--animation", "all", "--out", f"{tmp}/seq_%a_%03d.png")
names = sorted(f for f in os.listdir(tmp) if f.startswith("seq_"))
check(r.returncode == 0 and any(n.startswith("seq_idle_000") for n in names) and any(n.startswith("seq_hop_0") for n in names)
      and not any("still" in n or "spin" in n for n in names),
      f"--animation all: every animation of the first armature, sequences numbered ({len(names)} files)")

# --armature all with one animation: the armatures that have it
r = run_sinew("render", PIP, "--armature", "all", "--animation", "spin", "--out", f"{tmp}/only_%r.png")
check(r.returncode == 0 and os.path.exists(f"{tmp}/only_rotor.png") and not os.path.exists(f"{tmp}/only_pip.png"),
      f"--armature all --animation spin: only the rotor has it ({r.stderr.strip()[:200]})")

# usage errors: no %a / %r for an 'all', or a name field without 'all'
for args, what in ((["--animation", "all", "--out", f"{tmp}/x.gif"], "%a"),
                   (["--armature", "all", "--out", f"{tmp}/x_%a.gif"], "%r"),
                   (["--animation", "idle", "--out", f"{tmp}/x_%a.gif"], "go with")):
    r = run_sinew("render", PIP, *args)
    check(r.returncode == 1 and what in r.stderr, f"render {' '.join(args)}: usage error mentioning {what!r}")
subprocess.run(["rm", "-rf", tmp])
finish()
