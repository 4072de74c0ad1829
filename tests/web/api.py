#!/usr/bin/env python3
"""The JavaScript API of the WebAssembly build in node (tests/web/api.mjs does the work), and what
it gives against the native build:
- every broken skeleton of tests/fixtures/errors: the SinewError reads as `sinew info` prints the
  error (file:line:col: error: message [path]);
- the demo's draw lists (frames 0-4 of walk), read through the typed-array views, equal `sinew poses
  --drawlist` number for number;
- a display replaced with Instance.replaceDisplay equals `sinew poses --replace`;
plus the checks api.mjs makes on its own (events, crowd update, stale views, the first draw list of
200 instances of each rig while the memory grows (with ../shared also you_xin's body), state group
names, long warnings, dispose with live instances, finalizers, hit tests, bone offsets, the
animation calls against the scenario runner, DBBin from an ArrayBuffer).
Env: WASM_BUILD (default SRC/build-wasm) besides testkit's.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import BUILD, SRC, check, corpus_path, finish, have_shared, run_sinew, skip  # noqa: E402

WASM = os.environ.get("WASM_BUILD") or os.path.join(SRC, "build-wasm")
OUT = os.path.join(BUILD, "web-api")
ERRORS = os.path.join(SRC, "tests", "fixtures", "errors")
DEMO = os.path.join(SRC, "examples", "demo")
REPLACE = {"slot": "head", "source": "foot_front", "display": "foot"}


def main():
    if not check(os.path.exists(os.path.join(WASM, "sinew.mjs")), f"{WASM}/sinew.mjs not found: run `make wasm` first"):
        finish()
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(ERRORS, "manifest.txt"), encoding="utf-8") as f:
        error_files = [line.split("\t")[0] for line in f if line.strip() and not line.startswith("#")
                       and line.split("\t")[1] == "skeleton"]
    dbbin_dir = os.path.join(OUT, "dbbin")
    r = run_sinew("convert", os.path.join(SRC, "tests", "fixtures", "own", "Pip_5.5", "pip_ske.json"), "--to", "dbbin",
                  "--out", dbbin_dir, "--name", "pip")
    check(r.returncode == 0, f"sinew convert --to dbbin: {r.stderr.strip()[:300]}")
    ref = {"src": SRC, "errorFiles": error_files, "replace": REPLACE,
           "dbbin": os.path.join(dbbin_dir, "pip_ske.dbbin") if r.returncode == 0 else None, "youXin": None}
    if have_shared():
        ref["youXin"] = {"ske": corpus_path("you_xin_body_5.5"), "tex": corpus_path("you_xin_body_5.5", 1)}
    else:
        skip(2, "the first draw lists of 200 you_xin body instances (../shared)")
    ref_file, out_file = os.path.join(OUT, "ref.json"), os.path.join(OUT, "out.json")
    if os.path.exists(out_file):
        os.remove(out_file)  # a run that dies must not leave the last run's results to be read
    with open(ref_file, "w", encoding="utf-8") as f:
        json.dump(ref, f)
    r = subprocess.run(["node", "--expose-gc", os.path.join(SRC, "tests", "web", "api.mjs"), WASM, ref_file, out_file],
                       capture_output=True, text=True, timeout=600)
    lines = r.stdout.strip().splitlines()
    for line in lines[:-1]:
        print(line)
    tail = lines[-1] if lines else ""
    ok_js = r.returncode == 0 and tail.endswith(" 0 failed")
    check(ok_js, f"api.mjs: {tail or r.stderr.strip()[-600:]}")
    if not os.path.exists(out_file):
        finish()
    with open(out_file, encoding="utf-8") as f:
        out = json.load(f)

    # errors: the same line as the command line's
    for name in error_files:
        native = run_sinew("info", os.path.join(ERRORS, name))
        line = native.stderr.strip().splitlines()[0] if native.stderr.strip() else ""
        line = line.replace(os.path.join(ERRORS, name), name)
        got = out["errors"].get(name)
        check(got is not None and got["text"] == line, f"errors/{name}: the JS error reads {got and got['text']!r}, "
              f"the command line {line!r}")

    # draw lists: sinew poses --drawlist, frames 0-4 of walk at the data's 24 fps
    dump = os.path.join(OUT, "demo.drawlist.json")
    r = run_sinew("poses", os.path.join(DEMO, "demo_ske.json"), "--atlas", os.path.join(DEMO, "demo_tex.json"), "--animation", "walk",
                  "--frames", "5", "--fps", "24", "--drawlist", "--precision", "17", "--out", dump)
    if check(r.returncode == 0, f"sinew poses --drawlist: {r.stderr.strip()[:300]}"):
        with open(dump, encoding="utf-8") as f:
            native = [s["drawlist"] for s in json.load(f)["armatures"][0]["animations"][0]["samples"]]
        check(native == out["drawlists"], "the demo's draw lists through the JS views equal sinew poses --drawlist"
              + ("" if native == out["drawlists"] else f" (first frame differing: "
                 f"{next(i for i, (a, b) in enumerate(zip(native, out['drawlists'])) if a != b)})"))

    # replaceDisplay: sinew poses --replace SLOT,SOURCE,DISPLAY
    dump = os.path.join(OUT, "demo.replace.json")
    r = run_sinew("poses", os.path.join(DEMO, "demo_ske.json"), "--atlas", os.path.join(DEMO, "demo_tex.json"), "--animation", "walk",
                  "--frames", "1", "--precision", "17", "--replace", f"{REPLACE['slot']},{REPLACE['source']},{REPLACE['display']}",
                  "--out", dump)
    if check(r.returncode == 0, f"sinew poses --replace: {r.stderr.strip()[:300]}"):
        with open(dump, encoding="utf-8") as f:
            slots = json.load(f)["armatures"][0]["animations"][0]["samples"][0]["slots"]
        native = [[s["name"], s["display"]["name"] if s["display"] else None, s["displayIndex"], s["matrix"], s.get("pivot")]
                  for s in slots]
        check(native == out["replaced"], "Instance.replaceDisplay shows what sinew poses --replace shows")
    finish()


main()
