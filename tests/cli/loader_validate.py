#!/usr/bin/env python3
"""`sinew validate` pinpoints every error fixture (file:line:col: error: message [path]) and exits 2;
valid files exit 0; a missing file exits 3; unknown keys are reported as warnings in the same form."""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import check, finish, run_sinew  # noqa: E402

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "errors")


def run(*args):
    return run_sinew(*args, errors="replace")


entries = []
with open(os.path.join(FIX, "manifest.txt")) as fh:
    for line in fh:
        if line.startswith("#") or not line.strip():
            continue
        name, kind, code, ln, col, msg = line.rstrip("\n").split("\t")
        entries.append((name, int(ln), int(col), msg))

# every fixture of the folder is listed (the manifest and its generator aside): none left unchecked
listed = sorted(e[0] for e in entries)
present = sorted(f for f in os.listdir(FIX) if f not in ("manifest.txt", "gen.py"))
check(listed and listed == present, f"manifest.txt lists every error fixture ({len(listed)} listed, {len(present)} files: "
      f"unlisted {sorted(set(present) - set(listed))}, missing {sorted(set(listed) - set(present))})")
diag = re.compile(r"^(.*):(\d+):(\d+): error: (.*?)(?: \[(.*)\])?$")
for name, ln, col, msg in entries:
    path = os.path.join(FIX, name)
    r = run("validate", path)
    check(r.returncode == 2, "%s: exit 2 (got %d)" % (name, r.returncode))
    lines = [l for l in r.stderr.splitlines() if " error: " in l]
    check(len(lines) == 1, "%s: one error line (%r)" % (name, r.stderr))
    if lines:
        m = diag.match(lines[0])
        check(m is not None, "%s: diagnostic form (%r)" % (name, lines[0]))
        if m:
            check(m.group(1) == path and int(m.group(2)) == ln and int(m.group(3)) == col,
                  "%s: at %d:%d (%r)" % (name, ln, col, lines[0]))
            check(msg in m.group(4), "%s: message contains %r (%r)" % (name, msg, m.group(4)))
            if (ln, col) != (1, 1):  # errors about the whole document have no path
                check(bool(m.group(5)), "%s: has a [path] (%r)" % (name, lines[0]))

# several files at once: still exit 2, one diagnostic per bad file
paths = [os.path.join(FIX, e[0]) for e in entries[:5]]
r = run("validate", *paths)
check(r.returncode == 2 and r.stderr.count(" error: ") == 5, "five files, five errors")

# a valid file with an unknown key: exit 0 and a warning in the same form
with tempfile.TemporaryDirectory() as tmp:
    good = os.path.join(tmp, "good_ske.json")
    with open(good, "w") as fh:
        fh.write('{"version": "5.5", "armature": [{"name": "a",\n  "bone": [{"name": "r", "mystery": 1}]}]}\n')
    r = run("validate", good)
    check(r.returncode == 0, "valid file exits 0 (%r)" % r.stderr)
    check(re.search(r"good_ske\.json:2:37: warning: unknown key 'mystery'.*\[armature\[0\]\.bone\[0\]\.mystery\]",
                    r.stderr) is not None, "unknown key warning (%r)" % r.stderr)
    # an IK constraint without a bone key (seen in a real 4.5 CoreElement export): the official
    # parser drops it, so sinew loads the file, warns and has no constraint
    ik = os.path.join(tmp, "ik_ske.json")
    with open(ik, "w") as fh:
        fh.write('{"version": "4.5", "armature": [{"name": "a",\n'
                 '  "bone": [{"name": "r"}, {"name": "c", "parent": "r"}, {"name": "t"}],\n'
                 '  "ik": [{"name": "c", "target": "t", "chain": 1}, {"name": "k", "bone": "c", "target": "t"}]}]}\n')
    r = run("validate", ik)
    check(r.returncode == 0, "IK without a bone: still valid (%r)" % r.stderr)
    check(re.search(r"ik_ske\.json:3:10: warning: IK constraint 'c' has no bone \(ignored", r.stderr) is not None,
          "IK without a bone: a located warning (%r)" % r.stderr)
    r = run("info", ik, "--json")
    check(r.returncode == 0 and '"ik":2' in r.stdout, "IK without a bone: info counts what the file declares (%r)" % r.stdout)
    r = run("info", ik)
    check(r.returncode == 0 and "2 IK (1 ignored)" in r.stdout, "IK without a bone: info says it is ignored (%r)" % r.stdout)
    # 5.5 glue meshes: the official parser reads past glueWeights/glueMeshes, so they load with
    # one warning that says so (not an "unknown key")
    glue = os.path.join(tmp, "glue_ske.json")
    with open(glue, "w") as fh:
        fh.write('{"version": "5.5", "armature": [{"name": "a", "bone": [{"name": "r"}],\n'
                 '  "slot": [{"name": "s", "parent": "r"}], "skin": [{"slot": [{"name": "s", "display": [\n'
                 '  {"type": "mesh", "name": "m", "vertices": [0, 0, 10, 0, 0, 10], "uvs": [0, 0, 1, 0, 0, 1],\n'
                 '   "triangles": [0, 1, 2], "glueWeights": [1], "glueMeshes": ["x"]}]}]}]}]}\n')
    r = run("validate", glue)
    # (it has no atlas: validate says so too, as its own warning; the count is of the load's)
    r.stderr = "\n".join(ln for ln in r.stderr.splitlines() if "no texture atlas" not in ln)
    check(r.returncode == 0 and r.stderr.count(" warning: ") == 1 and "unknown key" not in r.stderr and
          re.search(r"glue_ske\.json:4:\d+: warning: glue mesh data .* not played: the official runtime ignores it "
                    r"too \[armature\[0\]\.skin\[0\]\.slot\[0\]\.display\[0\]\.glueWeights\]", r.stderr) is not None,
          "glue mesh keys: one located warning (%r)" % r.stderr)
    # numbers written as strings (a real 4.5 export writes mesh vertices and uvs so): the official
    # runtime coerces them, and so does sinew; a string that is not a number stays an error
    strnum = os.path.join(tmp, "strnum_ske.json")
    with open(strnum, "w") as fh:
        fh.write('{"version": "4.5", "armature": [{"name": "a", "bone": [{"name": "r",'
                 ' "transform": {"x": "12.50", "y": "-3"}}]}]}\n')
    r = run("validate", strnum)
    check(r.returncode == 0 and " error: " not in r.stderr, "numeric strings are numbers (%r)" % r.stderr)
    with open(strnum, "w") as fh:
        fh.write('{"version": "4.5", "armature": [{"name": "a", "bone": [{"name": "r",'
                 ' "transform": {"x": "12.5px"}}]}]}\n')
    r = run("validate", strnum)
    check(r.returncode == 2 and "'x' must be a number" in r.stderr, "a non-numeric string is an error (%r)" % r.stderr)
    r = run("validate", os.path.join(tmp, "nope.json"))
    check(r.returncode == 3, "missing file exits 3 (got %d)" % r.returncode)
    check("nope.json" in r.stderr, "missing file is named")
    r = run("validate")
    check(r.returncode == 1, "no file: usage exit 1")
    r = run("validate", "--help")
    check(r.returncode == 0 and "usage" in r.stdout, "--help")
    r = run("info", "--help")
    check(r.returncode == 0 and "usage" in r.stdout, "info --help")
    r = run("info", os.path.join(FIX, "bone_cycle.json"))
    check(r.returncode == 2 and "parent cycle" in r.stderr, "info on a bad file exits 2")

finish()
