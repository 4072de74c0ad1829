#!/usr/bin/env python3
"""One set of CLI rules for every command (cli/rules.c, docs/cli.md "Rules every command follows").

- --help of every command and of every `input` subcommand: exit 0, usage, options, examples and
  the exit codes, on stdout;
- numeric options: the same option has the same bound in every command that takes it, and a value
  outside it is a usage error (exit 1) naming the bound;
- the armature: without --armature, the first armature that has --animation (the own fixture Pip
  has "spin" only in its second armature, "rotor"); an animation no armature has is one error,
  worded the same by every command, listing each armature's animations;
- exit codes: a missing file, a folder given as a file: 3 (I/O) in every command;
- `--out DIR` creates a missing folder; a path that exists and is not a folder is an error.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import SRC, check, finish, run_sinew  # noqa: E402

PIP = os.path.join(SRC, "tests", "fixtures", "own", "Pip_5.0", "pip_ske.json")
MRTK = os.path.join(SRC, "tests", "fixtures", "own", "mrtk", "wave_1.1.bin")
tmp = tempfile.mkdtemp(prefix="sinew_rules_")

# ---- help ---------------------------------------------------------------------------------------
top = run_sinew("--help")
commands = re.findall(r"^  ([a-z-]+)\s", top.stdout, re.M)
check(len(commands) >= 10, f"sinew --help lists the commands ({commands})")
helps = [[c] for c in commands] + [["input", s] for s in ("info", "dump", "eval", "convert", "edit", "validate", "render")]
for h in helps:
    r = run_sinew(*h, "--help")
    out = r.stdout
    name = " ".join(h)
    missing = [part for part in ("usage: sinew " + name, "examples:", "exit codes:") if part not in out]
    if h != ["version"]:  # a command with subcommands lists them instead of options
        missing += [] if "options:" in out or (h == ["input"] and "commands:" in out) else ["options:"]
    check(r.returncode == 0 and not missing and not r.stderr,
          f"sinew {name} --help: exit 0, on stdout, with synopsis, options, examples, exit codes"
          + (f" (missing {missing}, exit {r.returncode})" if missing or r.returncode else ""))
    # every example runs the command it documents
    ex = out.split("examples:", 1)[-1].split("exit codes:", 1)[0]
    lines = [ln.strip() for ln in ex.splitlines() if ln.strip()]
    check(lines and all(ln.startswith("sinew " + name) or (name == "version" and ln == "sinew --version") for ln in lines),
          f"sinew {name} --help: its examples are command lines of sinew {name}")

# ---- numeric bounds -------------------------------------------------------------------------------
# (command, option, a bad value); each must exit 1 and name the bound
CASES = [
    (["render", PIP, "--out", f"{tmp}/x.gif"], "--fps", "0"),
    (["poses", PIP], "--fps", "1e9"),
    (["input", "render", MRTK, "--out", f"{tmp}/x.gif"], "--fps", "-1"),
    (["render", PIP, "--out", f"{tmp}/x.gif"], "--cache-fps", "2000"),
    (["poses", PIP], "--cache-fps", "0"),
    (["bench", PIP, "--animation", "idle"], "--cache-fps", "nan"),
    (["poses", PIP], "--frames", "0"),
    (["bench-render", PIP, "--animation", "idle"], "--frames", "200000"),
    (["bench", PIP, "--animation", "idle"], "--runs", "0"),
    (["bench-render", PIP, "--animation", "idle"], "--runs", "1001"),
    (["bench-input"], "--runs", "0"),
    (["render", PIP, "--out", f"{tmp}/x.gif"], "--scale", "0"),
    (["bench-render", PIP, "--animation", "idle"], "--scale", "101"),
    (["render", PIP, "--out", f"{tmp}/x.gif"], "--loops", "1.5"),
    (["bench", PIP, "--animation", "idle"], "--instances", "0"),
    (["bench", PIP, "--animation", "idle"], "--ticks", "x"),
    (["poses", PIP], "--precision", "18"),
    (["render", PIP, "--out", f"{tmp}/x.webp"], "--quality", "101"),
    (["bench-input"], "--seconds", "0"),
    (["bench-input"], "--hz", "1001"),
    (["input", "edit", MRTK, f"{tmp}/e.bin"], "--resample", "0"),
    (["render", PIP, "--out", f"{tmp}/x.gif"], "--size", "0x5"),
    (["bench-render", PIP, "--animation", "idle"], "--size", "20000x10"),
    (["input", "render", MRTK, "--out", f"{tmp}/x.gif"], "--size", "10x"),
]
bound_text = {}
for args, opt, bad in CASES:
    r = run_sinew(*args, opt, bad)
    m = re.search(re.escape(opt) + r" wants (.*), not '" + re.escape(bad) + "'", r.stderr)
    ok = r.returncode == 1 and m is not None
    check(ok, f"sinew {args[0]} {opt} {bad}: usage error naming the bound (exit {r.returncode}: {r.stderr.strip()[:160]})")
    if m:
        bound_text.setdefault(opt, set()).add(m.group(1))
for opt, texts in sorted(bound_text.items()):
    check(len(texts) == 1, f"{opt} has one bound in every command: {sorted(texts)}")
# and the values inside the bounds are taken
r = run_sinew("poses", PIP, "--animation", "idle", "--fps", "1000", "--frames", "2", "--precision", "1")
check(r.returncode == 0, f"poses at the bounds (--fps 1000 --frames 2 --precision 1) runs: {r.stderr[:200]}")

# ---- which armature, and the unknown-animation error -------------------------------------------------
r = run_sinew("poses", PIP, "--animation", "spin", "--frames", "2")
arms = [a["name"] for a in json.loads(r.stdout)["armatures"]] if r.returncode == 0 else []
check(arms == ["rotor"], f"poses --animation spin picks the first armature that has it: {arms} {r.stderr[:200]}")
r = run_sinew("render", PIP, "--animation", "spin", "--out", f"{tmp}/spin.png")
check(r.returncode == 0 and os.path.exists(f"{tmp}/spin.png"), f"render --animation spin: the rotor ({r.stderr[:200]})")
r = run_sinew("bench", PIP, "--animation", "spin", "--instances", "1", "--ticks", "1", "--runs", "1")
check(r.returncode == 0 and "rotor/spin" in r.stdout, f"bench --animation spin: the rotor ({r.stdout[:120]} {r.stderr[:200]})")
r = run_sinew("bench-render", PIP, "--animation", "spin", "--frames", "1", "--runs", "1", "--json")
check(r.returncode == 0 and '"rotor"' in r.stdout, f"bench-render --animation spin: the rotor ({r.stderr[:200]})")

want = (f"{PIP}: error: no armature has an animation named 'walk' "
        "(armature 'pip': 'idle', 'hop'; armature 'rotor': 'still', 'spin')")
for args in (["poses", PIP], ["render", PIP, "--out", f"{tmp}/w.gif"], ["bench", PIP],
             ["bench-render", PIP]):
    r = run_sinew(*args, "--animation", "walk")
    check(r.returncode == 2 and r.stderr.strip() == want,
          f"{args[0]} --animation walk: exit 2, the one wording ({r.returncode}: {r.stderr.strip()[:200]})")
want = f"{PIP}: error: armature 'pip' has no animation named 'spin' (animations: 'idle', 'hop')"
for args in (["poses", PIP], ["render", PIP, "--out", f"{tmp}/w.gif"], ["bench", PIP],
             ["bench-render", PIP]):
    r = run_sinew(*args, "--armature", "pip", "--animation", "spin")
    check(r.returncode == 2 and r.stderr.strip() == want,
          f"{args[0]} --armature pip --animation spin: exit 2, the one wording ({r.returncode}: {r.stderr.strip()[:200]})")

# ---- exit codes for I/O -------------------------------------------------------------------------------
missing = os.path.join(tmp, "no_such_ske.json")
IO_CASES = [["info", "F"], ["validate", "F"], ["poses", "F"], ["render", "F", "--out", f"{tmp}/o.png"],
            ["bench", "F", "--animation", "a"], ["bench", "F", "--load"], ["bench-render", "F", "--animation", "a"],
            ["convert", "F", "--to", "dragonbones", "--out", tmp], ["input", "info", "F"],
            ["input", "render", "F", "--out", f"{tmp}/o.gif"]]
for what, path in (("a missing file", missing), ("a folder", tmp)):
    for case in IO_CASES:
        args = [path if a == "F" else a for a in case]
        r = run_sinew(*args)
        check(r.returncode == 3 and path in r.stderr,
              f"{' '.join(case[:2])} on {what}: exit 3 naming it ({r.returncode}: {r.stderr.strip()[:160]})")

# ---- --out DIR -------------------------------------------------------------------------------------------
new = os.path.join(tmp, "made")
r = run_sinew("convert", os.path.join(SRC, "tests", "fixtures", "own", "Pip_xml", "pip.xml"), "--to", "dragonbones",
              "--out", new + "/")
check(r.returncode == 0 and os.path.isdir(new) and any(f.endswith("_ske.json") for f in os.listdir(new)),
      f"convert --out DIR/ creates the missing folder ({r.returncode}: {r.stderr.strip()[:200]})")
afile = os.path.join(tmp, "a_file")
open(afile, "w").close()
r = run_sinew("convert", PIP, "--to", "dragonbones", "--out", afile)
check(r.returncode == 3 and "exists and is not a folder" in r.stderr,
      f"convert --out FILE: exit 3, says it is not a folder ({r.returncode}: {r.stderr.strip()[:200]})")
r = run_sinew("convert", PIP, "--to", "dragonbones", "--out", os.path.join(tmp, "no", "parent"))
check(r.returncode == 3 and "parent folder does not exist" in r.stderr,
      f"convert --out with a missing parent: exit 3, says so ({r.returncode}: {r.stderr.strip()[:200]})")
subprocess.run(["rm", "-rf", tmp])
finish()
