#!/usr/bin/env python3
"""The third-party corpus: rigs from public game, tutorial and runtime-port repositories
(../shared/data/wild, SOURCES.md there), files nobody on the project wrote.

Every skeleton the official runtime plays (each top-level folder's skeleton JSON; each binary in
dbbin/, and its JSON twin when there is one) is played by the official runtime (oracle.mjs,
every armature and animation, sampled at the armature's frame rate over one full pass) and by
`sinew poses` with the same options, and the two dumps are compared (tests/tools/posecmp.c:
posediff's default tolerances, plus events, displays and pivots). The official dumps are made in
the test and cached in the build folder ($BUILD/wild-oracle, or $SINEW_WILD_CACHE; keyed by the
files' bytes, the options and the oracle's package lock), so a second run, and `make test`'s ASan
pass, only play sinew.

A file the official runtime refuses (refused/) gets a clear sinew error: exit 2 and a
`file:line:col: error:` line (REFUSED says what it must name). A file the official runtime loads
with a warning gets the warning from sinew too (WARNED).

Skipped without ../shared, as the other corpus tests.
"""
import concurrent.futures
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (BUILD, WILD, check, finish, need_oracle, need_shared, run_sinew, wild_cache,  # noqa: E402
                     wild_corpus, wild_official)

POSECMP = os.environ.get("POSECMP", os.path.join(BUILD, "tests", "posecmp"))
JOBS = max(1, min(4, os.cpu_count() or 1))

# refused/FOLDER: what sinew's error must say (the official runtime fails on the same thing)
REFUSED = {
    "samge333_TestEgretDemo123456_spirte_101303_ske": r"triangles",
    "yzqcode_egret-games_jx001_skeleton": r"version",
}
# FOLDER: a warning sinew must print while loading (the official runtime warns too)
WARNED = {
    "verketh_DragonBones_Laya_jdmachao_ske": r"boundingBox .* polygon without .vertices.",
}


def play(odir, cache, label, ske, atlas):
    """(label, ok, message) for one file: sinew's dump against the official one."""
    theirs, err = wild_official(odir, ske, atlas)
    if not theirs:
        return label, False, "the official runtime failed: " + err
    mine = os.path.join(cache, "sinew-%d-%s.json" % (os.getpid(), re.sub(r"[^\w.-]", "_", label)))
    args = ["poses", ske, "--armature", "all", "--animation", "all", "--precision", "9", "--out", mine]
    if atlas:
        args += ["--atlas", atlas]
    r = run_sinew(*args)
    if r.returncode != 0:
        return label, False, "sinew poses: " + r.stderr.strip()[-800:]
    c = subprocess.run([POSECMP, theirs, mine, "--quiet"], capture_output=True, text=True)
    os.remove(mine)
    summary = c.stdout.strip().splitlines()[-1] if c.stdout.strip() else c.stderr.strip()
    if c.returncode != 0:
        return label, False, "\n".join(c.stdout.strip().splitlines()[-8:])
    for folder, pattern in WARNED.items():
        if label.startswith(folder) or label.startswith("dbbin/" + folder):
            i = run_sinew("info", ske)
            if not re.search(r"warning: .*" + pattern, i.stderr, re.I):
                return label, False, f"sinew info: no warning matching /{pattern}/: {i.stderr.strip()[-400:]}"
    return label, True, summary


# without ../shared: the 58 files SOURCES.md lists (53 rigs, 5 JSON twins) and the 2 refused ones
need_shared(60, "third-party rigs (../shared/data/wild)")
odir = need_oracle(60, "third-party rigs against the official runtime")
# the ASan pass reads the plain pass's dumps (the Makefile points SINEW_WILD_CACHE there)
cache = wild_cache()
os.makedirs(cache, exist_ok=True)
files = wild_corpus()
check(len(files) >= 50, f"the corpus has {len(files)} playable files (SOURCES.md lists 53, and 5 JSON twins)")
with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
    for label, ok, msg in pool.map(lambda f: play(odir, cache, *f), files):
        print(("ok   " if ok else "FAIL ") + label + (": " + msg.splitlines()[-1] if msg else ""))
        check(ok, f"{label}: sinew differs from the official runtime:\n{msg}")

for folder, pattern in REFUSED.items():
    path = os.path.join(WILD, "refused", folder)
    ske = [os.path.join(path, f) for f in sorted(os.listdir(path)) if f.endswith(".json") and "tex" not in f
           and "texture" not in f]
    if not check(len(ske) == 1, f"refused/{folder}: one skeleton file ({ske})"):
        continue
    r = run_sinew("validate", ske[0])
    line = re.search(r"^\S+:\d+:\d+: error: .*$", r.stderr, re.M)
    check(r.returncode == 2 and line is not None and re.search(pattern, line.group(0), re.I) is not None,
          f"refused/{folder}: sinew validate must fail with a file:line:col error naming /{pattern}/ "
          f"(exit {r.returncode}): {r.stderr.strip()[-400:]}")
finish()
