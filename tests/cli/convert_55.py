#!/usr/bin/env python3
"""`sinew convert FILE --to dragonbones --format 5.5`: the official 5.x runtime plays the 5.5 file
exactly as it plays the input (docs/convert.md "DragonBones 5.5"). tests/lib/convert55.py says
how each file is played and compared; cli.convert_55_wild does the same for ../shared/data/wild.

1. Bare clone. Every own fixture (tests/fixtures/own manifest: the DragonBones ones, the demo, the
   hand-written oracle rigs, the XML rigs) and the DBBin fixtures are converted: the writer warns
   about nothing, `sinew validate` and `sinew info` accept the file, and `sinew poses` on it equals
   the official runtime's committed dump of the input. The manifest's "converted" 5.5 entries
   (v55_*) are made as make_expected.py made them, and sinew on each equals the official runtime's
   committed dump of that very file (cli.oracle_fixtures checks those dumps with ../shared).
2. With ../shared: the official runtime plays each 5.5 file at the input's rate and at 7.7 samples
   a second, against its dump of the input (the committed one, or one made here and cached); the
   nine shared characters too. An input the official runtime cannot read is compared with what
   stands for it: Pip_4.5_triples with Pip_4.5 (the same rig in a layout only sinew reads), an XML
   rig with the official dump of its 4.5 conversion (committed) and, off the grid, with sinew's
   own playing of the rig.
3. Constructs: a 4.x bone whose loop wrap turns more than half a circle keeps its `frame` list (a
   5.5 rotate channel would wrap the short way); an XML rotation that wraps so in an animation played
   a finite number of times is warned about; a JSON source curve of a binary (samples only) is
   written as a curve giving those samples; a 6.0 file is refused naming 5.5; --format takes 4.5
   and 5.5 only.
Prints the per-file table: the largest position error of each comparison and the writer's warnings.
"""
import concurrent.futures
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (CORPUS, SRC, check, check_converted, converted_entries, converted_version,  # noqa: E402
                     corpus_expected, corpus_path, finish, have_shared, own_expected, own_manifest, own_path, posecmp,
                     run_oracle, run_sinew, skip, try_oracle)
import convert55  # noqa: E402

JOBS = max(1, min(4, os.cpu_count() or 1))
manifest = own_manifest()
ORACLE_DIR = os.path.join(SRC, "tests", "fixtures", "oracle")
DBBIN_DIR = os.path.join(SRC, "tests", "fixtures", "dbbin")


def cases():
    """[(label, source, atlas, fps, committed official dump of the input or None, off-grid stand-in)]"""
    out = []
    own = {e["name"]: e for e in manifest["dragonbones"]}
    for e in manifest["dragonbones"]:
        stand_in = None
        if e["expected"] != e["name"]:  # a layout only sinew reads: the rig it stands for
            other = next(o for o in manifest["dragonbones"] if o["name"] == e["expected"])
            stand_in = ("official", own_path(other["skeleton"]), own_path(other["atlas"]))
        out.append((e["name"], own_path(e["skeleton"]), own_path(e["atlas"]), e.get("fps"),
                    own_expected(e["expected"]), stand_in))
    for e in manifest["extra"]:
        if e.get("cache_fps") or not e["skeleton"].startswith(("examples/", "tests/fixtures/oracle/")):
            continue
        out.append((e["name"], own_path(e["skeleton"]), own_path(e.get("atlas")), e.get("fps"),
                    own_expected(e["name"]), None))
    # every hand-written oracle rig, also one without a committed dump (its official dump is made here)
    listed = {os.path.basename(c[1]) for c in out}
    for f in sorted(os.listdir(ORACLE_DIR)):
        if f.endswith("_ske.json") and f not in listed:
            out.append(("oracle_" + f[:-9], os.path.join(ORACLE_DIR, f), None, None, None, None))
    dbbin = {"skin_ske.json": "dbbin_skin", "skin_exporter_ske.dbbin": "dbbin_skin", "turns_ske.json": "dbbin_turns",
             "late_ske.json": "dbbin_late"}
    for f, dump in dbbin.items():
        out.append(("dbbin/" + f, os.path.join(DBBIN_DIR, f), None, 6 if dump == "dbbin_skin" else None,
                    own_expected(dump), None))
    for e in manifest["xml_dumps"]:
        out.append(("xml/" + e["name"], own_path(e["rig"]), None, e.get("fps"), own_expected(e["name"]),
                    ("sinew", own_path(e["rig"]), None)))
    return out


def shared_cases():
    return [(name, corpus_path(name), corpus_path(name, 1), None, corpus_expected(name), None) for name in sorted(CORPUS)]


def play(odir, tmp, case):
    label, src, atlas, fps, ref, stand_in = case
    folder = os.path.join(tmp, label.replace("/", "_"))
    os.makedirs(folder, exist_ok=True)
    ref_off = None
    if stand_in:
        kind, ske, tex = stand_in

        def ref_off():
            path = os.path.join(folder, "stand_in.off.json")
            if kind == "sinew":
                ok, err = convert55.mine(ske, path, tex, convert55.OFF_GRID)
            else:
                ok, err = convert55.official(odir, ske, path, tex, convert55.OFF_GRID)
            return (path if ok else None), err
    if stand_in is None and ref is None and not odir:
        return None
    return convert55.play_case(odir, folder, label, src, atlas, fps, ref, ref_off)


def report(rows):
    for row in rows:
        if row is None:
            continue
        check(not row.warnings, f"{row.label}: the 5.5 writer warns: {row.warnings}")
        for what, text in row.failures:
            check(False, f"{row.label}: {what}:\n{text}")
        if not row.failures:
            check(True, row.label)


odir = try_oracle(len(cases()), "own fixtures' 5.5 conversions played by the live official runtime")
rows = []
with tempfile.TemporaryDirectory() as tmp:
    # 1 and 2: the own fixtures, the oracle rigs, the DBBin fixtures, the XML rigs
    todo = cases()
    if have_shared():
        todo += shared_cases()
    else:
        skip(len(CORPUS), "shared characters converted to 5.5 and played by the official runtime")
    with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
        rows = list(pool.map(lambda c: play(odir, tmp, c), todo))
    report(rows)

    # 1: the committed official dumps of 5.5 files (the manifest's v55_* entries)
    v55 = [e for e in converted_entries("dragonbones") if converted_version(e) == "5.5"]
    check(len(v55) >= 6, f"committed official dumps of 5.5 conversions ({len(v55)})")
    check_converted(v55, tmp, "5.5 file")

    # 3. a 4.x bone whose loop wrap turns 270 degrees back (from 270 to 0): the 4.x frame list turns
    # that way, a rotate channel would take the short way; the bone keeps its frame list, the others
    # are split (one with the tweenEasing -2 the official parser reads as no tween); the official
    # runtime plays both files alike
    wrap = os.path.join(tmp, "wrap_ske.json")
    with open(wrap, "w") as fh:
        json.dump({"version": "4.5", "name": "wrap", "frameRate": 10, "armature": [{
            "name": "w", "bone": [{"name": "root"}, {"name": "spin", "parent": "root", "length": 40},
                                  {"name": "still", "parent": "root", "length": 40},
                                  {"name": "eased", "parent": "root", "length": 40}],
            "animation": [{"name": "loop", "duration": 8, "playTimes": 0, "bone": [
                {"name": "spin", "frame": [
                    {"duration": 4, "tweenEasing": 0, "tweenRotate": 1, "transform": {"x": 3}},
                    {"duration": 4, "tweenEasing": 0, "transform": {"skX": 270, "skY": 270, "x": 6}}]},
                {"name": "still", "frame": [
                    {"duration": 4, "tweenEasing": 0, "transform": {"skX": 10, "skY": 10}},
                    {"duration": 4, "tweenEasing": 0, "transform": {"skX": 100, "skY": 100, "scX": 2}}]},
                {"name": "eased", "frame": [  # -2 is the official parser's "no tween"; 2.5 in-out at 1.5
                    {"duration": 3, "tweenEasing": -2, "transform": {"y": 5}},
                    {"duration": 5, "tweenEasing": 2.5, "transform": {"y": 25}}]}]}]}]}, fh)
    conv, _, warnings, _, err = convert55.convert(wrap, os.path.join(tmp, "wrap_out"))
    if check(conv is not None and not warnings, f"wrap: converted without warnings: {err}"):
        with open(conv) as fh:
            tls = {t["name"]: t for t in json.load(fh)["armature"][0]["animation"][0]["bone"]}
        check("frame" in tls.get("spin", {}) and "rotateFrame" not in tls.get("spin", {}),
              f"wrap: the bone turning 270 degrees back at the wrap keeps its frame list: {tls.get('spin')}")
        check("rotateFrame" in tls.get("still", {}) and "frame" not in tls.get("still", {}),
              f"wrap: the other bone is split into channels: {tls.get('still')}")
        if odir:
            a, b = os.path.join(tmp, "wrap_in.json"), os.path.join(tmp, "wrap_out.json")
            ok_a, e_a = run_oracle(odir, wrap, a, "--fps", "7.7", "--frames", "30")
            ok_b, e_b = run_oracle(odir, conv, b, "--fps", "7.7", "--frames", "30")
            if check(ok_a and ok_b, f"wrap: the official runtime: {e_a[-300:]} {e_b[-300:]}"):
                ok, msg = posecmp(a, b)
                check(ok, f"wrap: the official runtime, input vs 5.5 file:\n{msg}")
        else:
            skip(1, "wrap: the official runtime on the input and the 5.5 file")

    # an XML rotation wrapping 270 degrees back in an animation played twice: the end-of-loop key an
    # endless loop gets would turn the final play too, so the writer warns
    xml = os.path.join(tmp, "twice.xml")
    with open(xml, "w") as fh:
        fh.write('<?xml version="1.0"?>\n<project name="twice" frameRate="10"><project.bones>'
                 '<bone name="r" width="10" height="10"/></project.bones><project.animations>'
                 '<animation name="twice" playTimes="2"><animation.frames><frame duration="2" tween="linear"/>'
                 '<frame duration="2" tween="linear"><frame.setters><setter subject="bone" target="r" name="rotation" '
                 'content="270"/></frame.setters></frame></animation.frames></animation></project.animations>'
                 '</project>\n')
    conv, _, warnings, count, err = convert55.convert(xml, os.path.join(tmp, "twice_out"))
    check(conv is not None and count == 1 and len(warnings) == 1 and "animation 'twice': bone 'r': the wrap from "
          "the last rotation key to the first turns more than half a circle and the animation plays 2 times" in
          warnings[0], f"twice: the XML wrap in a finite loop is warned about: {err}")

    # a binary's curves are samples: Pip 5.5 (four curves) as DBBin, then as 5.5 JSON, plays as the
    # JSON did (sinew, against the official runtime's committed dump of the JSON)
    pip = next(e for e in manifest["dragonbones"] if e["name"] == "Pip_5.5")
    binf = os.path.join(tmp, "bin")
    os.makedirs(binf)
    r = run_sinew("convert", own_path(pip["skeleton"]), "--to", "dbbin", "--out", binf, "--name", "p")
    if check(r.returncode == 0, f"Pip_5.5 to DBBin: {r.stderr}"):
        row = play(odir, tmp, ("Pip_5.5_via_DBBin", os.path.join(binf, "p_ske.dbbin"), own_path(pip["atlas"]),
                               pip["fps"], own_expected("Pip_5.5"), ("official", own_path(pip["skeleton"]),
                                                                     own_path(pip["atlas"]))))
        report([row])
        rows.append(row)
        with open(os.path.join(tmp, "Pip_5.5_via_DBBin", "x_ske.json")) as fh:
            text = fh.read()
        check(text.count('"curve"') == 4, f"Pip_5.5_via_DBBin: its four curves written ({text.count('curve')})")

    # a 6.0 file is refused, naming the version; --format takes 4.5 and 5.5
    v6 = os.path.join(tmp, "v6_ske.json")
    with open(v6, "w") as fh:
        json.dump({"version": "6.0", "name": "v6", "armature": [{"name": "a", "bone": [{"name": "root"}]}]}, fh)
    r = run_sinew("convert", v6, "--to", "dragonbones", "--format", "5.5", "--out", os.path.join(tmp, "v6_out"))
    check(r.returncode == 2 and "does not convert 6.0 to DragonBones 5.5 yet" in r.stderr,
          f"a 6.0 file is refused: {r.returncode} {r.stderr!r}")
    for args, what in ((["--format", "6.0"], "--format 6.0"), (["--format", "5.5", "--to", "spine"], "spine"),
                       (["--format", "5.5", "--to", "dbbin"], "dbbin")):
        argv = ["convert", own_path(pip["skeleton"]), "--out", os.path.join(tmp, "usage")] + args
        if "--to" not in args:
            argv += ["--to", "dragonbones"]
        r = run_sinew(*argv)
        check(r.returncode == 1 and "--format" in r.stderr, f"{what}: a usage error: {r.returncode} {r.stderr!r}")
    r = run_sinew("convert", own_path(pip["skeleton"]), "--to", "dragonbones", "--format", "4.5", "--out",
                  os.path.join(tmp, "v45"))
    with open(os.path.join(tmp, "v45", "pip_ske.json")) as fh:
        check(r.returncode == 0 and json.load(fh)["version"] == "4.5", f"--format 4.5 writes 4.5: {r.stderr}")

print(convert55.table([r for r in rows if r is not None]))
finish()
