#!/usr/bin/env python3
"""Every command the README and docs/ show works as written.

Each fenced block of README.md and docs/*.md that holds a `sinew` command line is either
- ```sh: commands as a user types them. Every `sinew ...` and `mkdir ...` line is run, in order,
  in a scratch folder where the names the docs use exist: `hero_ske.json` / `hero_tex.json` /
  `hero_tex.png` (the demo character Bolt: animations idle, walk, wave; skin copper), `rec.bin`
  (an MRTK 1.1 recording, tests/fixtures/own/mrtk) and `examples/` (the repository's). A line
  must exit 0, or the status its comment names as `# -> exit 2`; `> FILE` at its end sends stdout
  there. `make ...` lines are not run here (make test is what runs this); comment lines
  (`# ...`) are output or notes.
- ```text: a synopsis or printed output, not run. A ```sh block may not hold synopsis syntax
  (`[--opt]`, `a|b`, `FILE`), and a block with a sinew command must say which of the two it is.
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import SINEW, SRC, check, finish  # noqa: E402

docs = [os.path.join(SRC, "README.md")] + sorted(glob.glob(os.path.join(SRC, "docs", "*.md")))
work = tempfile.mkdtemp(prefix="sinew_docs_")
demo = os.path.join(SRC, "examples", "demo")
for ext, src in (("_ske.json", "demo_ske.json"), ("_tex.json", "demo_tex.json"), ("_tex.png", "demo_tex.png")):
    shutil.copy(os.path.join(demo, src), os.path.join(work, "hero" + ext))
# the atlas names its page: point hero_tex.json at hero_tex.png
tex = open(os.path.join(work, "hero_tex.json")).read().replace("demo_tex.png", "hero_tex.png")
open(os.path.join(work, "hero_tex.json"), "w").write(tex)
shutil.copy(os.path.join(SRC, "tests", "fixtures", "own", "mrtk", "wave_1.1.bin"), os.path.join(work, "rec.bin"))
os.symlink(os.path.join(SRC, "examples"), os.path.join(work, "examples"))
env = dict(os.environ, PATH=os.path.dirname(SINEW) + os.pathsep + os.environ.get("PATH", ""))

SYNOPSIS = re.compile(r"\[-|\b[A-Z]{3,}\b|\w\|\w")
ran = 0
for doc in docs:
    rel = os.path.relpath(doc, SRC)
    text = open(doc, encoding="utf-8").read()
    for m in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.M | re.S):
        lang, body = m.group(1), m.group(2)
        line_no = text[: m.start()].count("\n") + 1
        lines = [ln for ln in body.splitlines() if ln.strip()]
        has_cmd = any(ln.lstrip().startswith("sinew ") for ln in lines)
        if not has_cmd or lang in ("c", "json", "xml", "cmake", "text"):
            continue
        if not check(lang == "sh", f"{rel}:{line_no}: a block with sinew commands is ```sh (run) or ```text (not run)"):
            continue
        for ln in lines:
            cmd = ln.split(" #", 1)[0].strip()
            if not cmd or cmd.startswith("#") or cmd.startswith("make "):
                continue
            if not check(not SYNOPSIS.search(cmd), f"{rel}:{line_no}: '{cmd}' is synopsis syntax in a ```sh block"):
                continue
            want = 0
            note = re.search(r"#\s*->\s*exit (\d)", ln)
            if note:
                want = int(note.group(1))
            args = shlex.split(cmd)
            out_file = None
            if len(args) > 2 and args[-2] == ">":
                out_file, args = args[-1], args[:-2]
            if args[0] not in ("sinew", "mkdir"):
                check(False, f"{rel}:{line_no}: '{cmd}': only sinew and mkdir lines are run; say it in a ```text block")
                continue
            if args[0] == "sinew":
                args[0] = SINEW
            run_env = env
            if len(args) > 1 and args[1] == "view":  # the GL drivers it loads leak at exit (docs/engines.md)
                run_env = dict(env, ASAN_OPTIONS=env.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
            r = subprocess.run(args, cwd=work, capture_output=True, text=True, env=run_env, timeout=600)
            if out_file:
                open(os.path.join(work, out_file), "w").write(r.stdout)
            ran += 1
            check(r.returncode == want,
                  f"{rel}:{line_no}: `{cmd}` exits {r.returncode}, the docs expect {want}: {r.stderr.strip()[:300]}")
check(ran >= 20, f"the docs' command lines were run ({ran})")
shutil.rmtree(work)
finish()
