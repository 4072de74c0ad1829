#!/usr/bin/env python3
"""`sinew validate` checks what `render` needs: the atlas pages exist, decode and have the size the
atlas says; every image and mesh display's region is in the atlas; mesh UVs lie in [0, 1]. Each
problem is an error or a warning with its file, line:col and JSON path; --json gives them
machine-readable. Broken copies of the own fixture Pip 5.0 are made here, one problem each; the
clean fixtures (and, with ../shared, the real characters) must pass without errors."""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import SHARED, SRC, check, finish, have_shared, run_sinew, skip  # noqa: E402

OWN = os.path.join(SRC, "tests", "fixtures", "own")
tmp = tempfile.mkdtemp(prefix="sinew_validate_")
pip = os.path.join(tmp, "pip")
shutil.copytree(os.path.join(OWN, "Pip_5.0"), pip)
ske, tex = os.path.join(pip, "pip_ske.json"), os.path.join(pip, "pip_tex.json")
skel = json.load(open(ske))


def validate(*args):
    r = run_sinew("validate", "--json", *args)
    try:
        return r.returncode, json.loads(r.stdout)
    except ValueError:
        # output that is not JSON is a failure here, not an empty (clean) list of diagnostics
        check(False, f"validate --json {' '.join(os.path.basename(a) for a in args)} prints JSON: "
                     f"{(r.stdout + r.stderr).strip()[:300]}")
        return r.returncode, {"files": [], "diagnostics": [], "raw": r.stdout + r.stderr}


def write(path, obj):
    json.dump(obj, open(path, "w"), indent=1)


# the clean fixtures: no error, no warning
for name in sorted(os.listdir(OWN)):
    folder = os.path.join(OWN, name)
    if not os.path.isdir(folder) or name in ("expected", "mrtk"):
        continue
    files = [os.path.join(folder, f) for f in sorted(os.listdir(folder)) if f.endswith((".json", ".xml"))]
    rc, out = validate(*files)
    check(rc == 0 and not out["diagnostics"], f"{name}: validates clean ({rc}: {out['diagnostics'][:2]})")

# a display whose region the atlas does not have: a warning at the display, with line and column
# (nothing is drawn for it; real files have such placeholders)
bad = json.loads(json.dumps(skel))
slot_i = next(i for i, s in enumerate(bad["armature"][0]["skin"][0]["slot"]) if s["name"] == "eye")
bad["armature"][0]["skin"][0]["slot"][slot_i]["display"][0]["path"] = "no_such_region"
write(os.path.join(pip, "region_ske.json"), bad)
rc, out = validate(os.path.join(pip, "region_ske.json"), "--atlas", tex)
d = out["diagnostics"]
check(rc == 0 and len(d) == 1 and d[0]["severity"] == "warning" and d[0]["code"] == "reference"
      and d[0]["path"] == f"armature[0].skin[0].slot[{slot_i}].display[0]" and d[0]["line"] > 1 and d[0]["col"] > 0
      and "no_such_region" in d[0]["message"], f"a missing region is a warning at the display: {d}")
r = run_sinew("validate", os.path.join(pip, "region_ske.json"), "--atlas", tex)
check(r.returncode == 0 and f":{d[0]['line'] if d else 0}:" in r.stderr and "warning:" in r.stderr
      and "ok (1 warning)" in r.stdout, f"... printed as file:line:col: warning: ({r.stderr.strip()[:200]})")

# a mesh UV outside [0, 1]: a warning at the UV, exit 0
bad = json.loads(json.dumps(skel))
mesh = None
for j, s in enumerate(bad["armature"][0]["skin"][0]["slot"]):
    for k, disp in enumerate(s["display"]):
        if disp.get("type") == "mesh" and mesh is None:
            disp["uvs"][3] = -0.5
            mesh = (j, k)
write(os.path.join(pip, "uv_ske.json"), bad)
rc, out = validate(os.path.join(pip, "uv_ske.json"), "--atlas", tex)
d = out["diagnostics"]
check(mesh is not None and rc == 0 and len(d) == 1 and d[0]["severity"] == "warning" and d[0]["code"] == "range"
      and d[0]["path"] == f"armature[0].skin[0].slot[{mesh[0]}].display[{mesh[1]}].uvs[3]" and d[0]["line"] > 1,
      f"a mesh UV outside [0, 1] is a warning at that UV: {d}")

# the atlas: a size that is not the image's (warning), a missing page, a page that does not decode
atl = json.load(open(tex))
atl["width"] = atl["width"] * 2
write(os.path.join(pip, "size_tex.json"), atl)
rc, out = validate(os.path.join(pip, "size_tex.json"))
d = out["diagnostics"]
check(rc == 0 and len(d) == 1 and d[0]["code"] == "page-size" and d[0]["severity"] == "warning",
      f"an atlas size that is not the image's is a warning: {d}")
atl = json.load(open(tex))
atl["imagePath"] = "missing.png"
write(os.path.join(pip, "gone_tex.json"), atl)
rc, out = validate(os.path.join(pip, "gone_tex.json"))
d = out["diagnostics"]
check(rc == 2 and len(d) == 1 and d[0]["code"] == "page-missing" and d[0]["path"] == "imagePath",
      f"a missing page image is an error: {d}")
open(os.path.join(pip, "broken.png"), "wb").write(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
atl["imagePath"] = "broken.png"
write(os.path.join(pip, "broken_tex.json"), atl)
rc, out = validate(os.path.join(pip, "broken_tex.json"))
d = out["diagnostics"]
check(rc == 2 and len(d) == 1 and d[0]["code"] == "page-decode", f"a page that does not decode is an error: {d}")
# a skeleton is checked against the atlas found beside it, pages included
os.remove(os.path.join(pip, "pip_tex.png"))
rc, out = validate(ske)
check(rc == 2 and [x["code"] for x in out["diagnostics"]] == ["page-missing"],
      f"a skeleton whose atlas (found beside it) lacks its page image: {out['diagnostics']}")
check(out["files"] == [{"file": ske, "ok": False, "errors": 1, "warnings": 0}], f"--json files: {out['files']}")
r = run_sinew("info", ske)
check(r.returncode == 0 and "the image is missing" in r.stdout, f"info says the page image is missing: {r.stdout[:300]}")

# the real characters: no errors
if have_shared():
    root = os.path.join(SHARED, "data", "dragonbones")
    for name in sorted(os.listdir(root)):
        folder = os.path.join(root, name)
        if not os.path.isdir(folder):
            continue
        files = [os.path.join(folder, f) for f in sorted(os.listdir(folder)) if f.endswith(".json")]
        rc, out = validate(*files)
        errors = [x for x in out["diagnostics"] if x["severity"] == "error"]
        check(rc == 0 and not errors, f"{name}: no errors ({len(out['diagnostics'])} diagnostics: {errors[:2]})")
else:
    skip(9, "validate on the shared characters", "../shared is not there")
shutil.rmtree(tmp)
finish()
