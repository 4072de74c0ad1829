#!/usr/bin/env python3
"""DragonBones binary (DBBin): `sinew convert --to dbbin` and sinew's reader.

Without ../shared (a bare clone): every committed fixture and the demo is converted, and `sinew
poses` of the .dbbin must equal `sinew poses` of its JSON (tests/lib/posecmp.py, posediff's
default tolerances); broken binaries (truncated, misaligned, out-of-range offsets, counts and
indices) must fail with an error naming a byte offset.

With ../shared and the live oracle: each skeleton (own fixtures, oracle fixtures, the demo, the
shared characters) is converted to NAME_ske.dbbin, and the official runtime's dump of the JSON must
agree at posediff's default tolerances with both the official runtime's dump of the binary (its
BinaryDataParser) and `sinew poses` of the binary. Files the binary cannot carry must be refused
with an error naming the construct, and nothing written.
"""
import os
import atexit
import json
import shutil
import struct
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (CORPUS, SRC, check, corpus_path, finish, have_shared, need_oracle, posecmp,  # noqa: E402
                     posediff, run_oracle, run_sinew, sinew_poses, skip)

OWN = os.path.join(SRC, "tests", "fixtures", "own")
ORACLE_FIX = os.path.join(SRC, "tests", "fixtures", "oracle")
FIXTURES = [os.path.join(OWN, p) for p in
            ("Pip_4.0/pip.json", "Pip_4.5/pip_ske.json", "Pip_5.0/pip_ske.json", "Pip_5.5/pip_ske.json")]
FIXTURES += [os.path.join(ORACLE_FIX, f) for f in sorted(os.listdir(ORACLE_FIX)) if f.endswith("_ske.json")]
FIXTURES.append(os.path.join(SRC, "examples", "demo", "demo_ske.json"))

# Files the binary cannot carry, and a word the refusal must contain.
REFUSED = {
    os.path.join(OWN, "Pip_4.5_triples", "pip_ske.json"): "weights do not fit",  # the official parser fails too
    os.path.join(ORACLE_FIX, "share_ske.json"): "shared or glued mesh",
    os.path.join(ORACLE_FIX, "path_ske.json"): "path constraints",
}
# Files the binary carries with a warning (what the official parser leaves out, the binary leaves
# out too), and a word the warning must contain.
WARNED = {
    "Knight_4.5": "action frame past the end of the animation left out",
    "late": "action frame past the end of the animation left out",
}

tmp = tempfile.mkdtemp(prefix="sinew_dbbin_")
atexit.register(shutil.rmtree, tmp, True)


def convert(src, tag):
    out = os.path.join(tmp, tag)
    os.makedirs(out, exist_ok=True)
    r = run_sinew("convert", src, "--to", "dbbin", "--out", out, "--name", "x")
    return r, os.path.join(out, "x_ske.dbbin")


def layout_ok(path):
    """The header the official reader expects: DBDT, a JSON header, 4-byte aligned arrays."""
    b = open(path, "rb").read()
    if len(b) < 12 or b[:4] != b"DBDT":
        return False
    (n,) = struct.unpack_from("<I", b, 8)
    return (12 + n) % 4 == 0 and 12 + n <= len(b) and b[12:13] == b"{"


def one(odir, src, tag):
    if tag in REFUSED or src in REFUSED:
        word = REFUSED.get(tag, REFUSED.get(src))
        r, out = convert(src, tag)
        check(r.returncode != 0 and word in r.stderr and not os.path.exists(out),
              f"{tag}: refused naming the construct ({word!r}): rc {r.returncode}, {r.stderr.strip()[:300]}")
        return
    r, out = convert(src, tag)
    if not check(r.returncode == 0 and os.path.exists(out), f"{tag}: sinew convert --to dbbin: {r.stderr.strip()[:300]}"):
        return
    if tag in WARNED:
        check(WARNED[tag] in r.stderr, f"{tag}: converted with the warning ({WARNED[tag]!r}): {r.stderr.strip()[-300:]}")
    check(layout_ok(out), f"{tag}: DBDT tag, header length, aligned arrays")
    a, b = os.path.join(tmp, tag + ".json.poses"), os.path.join(tmp, tag + ".bin.poses")
    ok_a, err_a = run_oracle(odir, src, a, "--armature", "all", "--precision", "9")
    ok_b, err_b = run_oracle(odir, out, b, "--armature", "all", "--precision", "9")
    if not check(ok_a and ok_b, f"{tag}: the official runtime reads both: {(err_a + err_b).strip()[:300]}"):
        return
    ok, rep = posediff(a, b)
    check(ok, f"{tag}: official(JSON) = official(sinew's .dbbin): {rep[-400:]}")
    c = os.path.join(tmp, tag + ".sinew-bin.poses")
    ok, err = sinew_poses(out, c)
    if check(ok, f"{tag}: sinew reads its .dbbin: {err[:300]}"):
        ok, rep = posediff(a, c)
        check(ok, f"{tag}: official(JSON) = sinew(.dbbin): {rep[-400:]}")


def same_as_json(src, tag):
    """No oracle: sinew's poses of the .dbbin = sinew's poses of the JSON."""
    r, out = convert(src, tag)
    if not check(r.returncode == 0 and os.path.exists(out), f"{tag}: sinew convert --to dbbin: {r.stderr.strip()[:300]}"):
        return
    if tag in WARNED:
        check(WARNED[tag] in r.stderr, f"{tag}: converted with the warning ({WARNED[tag]!r}): {r.stderr.strip()[-300:]}")
    a, b = os.path.join(tmp, tag + ".sj.poses"), os.path.join(tmp, tag + ".sb.poses")
    ok_a, err_a = sinew_poses(src, a)
    ok_b, err_b = sinew_poses(out, b)
    if check(ok_a and ok_b, f"{tag}: sinew reads the JSON and the .dbbin: {(err_a + err_b)[:300]}"):
        ok, rep = posecmp(a, b)
        check(ok, f"{tag}: sinew(.dbbin) = sinew(JSON): {rep[-400:]}")


# Extra turns (5.x clockwise, 4.x tweenRotate): the binary holds the parser's unwrapped rotations,
# which the reader must not unwrap again.
TURNS = os.path.join(tmp, "turns_ske.json")
with open(TURNS, "w") as f:
    json.dump({"name": "turns", "version": "5.5", "frameRate": 24, "armature": [{
        "name": "a", "bone": [{"name": "root"}, {"name": "b", "parent": "root", "length": 40},
                              {"name": "c", "parent": "root", "length": 40}],
        "slot": [{"name": "s", "parent": "b"}],
        "skin": [{"slot": [{"name": "s", "display": [{"name": "i", "type": "boundingBox", "subType": "rectangle",
                                                      "width": 10, "height": 10}]}]}],
        "animation": [{"name": "spin", "duration": 12, "bone": [
            {"name": "b", "rotateFrame": [{"duration": 6, "tweenEasing": 0, "rotate": 0, "clockwise": 2},
                                          {"duration": 6, "tweenEasing": 0, "rotate": 30, "clockwise": -1},
                                          {"duration": 0, "rotate": -20}]},
            {"name": "c", "frame": [{"duration": 6, "tweenEasing": 0, "tweenRotate": 1, "transform": {"skX": 10, "skY": 10}},
                                    {"duration": 6, "tweenEasing": 0, "transform": {"skX": 350, "skY": 350}}]}]}]}]}, f)

# An action frame past the end of its animation (Knight has one): the official parser never reaches
# it, so the binary leaves it out, with a warning, and plays as the JSON does.
LATE = os.path.join(tmp, "late_ske.json")
with open(LATE, "w") as f:
    json.dump({"name": "late", "version": "5.5", "frameRate": 24, "armature": [{
        "name": "a", "bone": [{"name": "root"}],
        "slot": [{"name": "s", "parent": "root"}],
        "skin": [{"slot": [{"name": "s", "display": [{"name": "i", "type": "boundingBox", "subType": "rectangle",
                                                      "width": 10, "height": 10}]}]}],
        "animation": [{"name": "late", "duration": 4,
                       "frame": [{"duration": 2, "events": [{"name": "early"}]}, {"duration": 4, "events": [{"name": "mid"}]},
                                 {"duration": 1, "events": [{"name": "late"}]}],
                       "bone": [{"name": "root", "translateFrame": [{"duration": 4, "tweenEasing": 0, "x": 0},
                                                                    {"duration": 0, "x": 40}]}]}]}]}, f)

for f in FIXTURES + [TURNS, LATE]:
    rel = os.path.relpath(f, SRC) if f not in (TURNS, LATE) else ("turns" if f == TURNS else "late")
    if f not in REFUSED:
        same_as_json(f, "self_" + rel.replace("/", "_") if f != LATE else "late")

# The reader: broken binaries are errors naming a byte offset, never a crash.
demo_bin = os.path.join(tmp, "self_examples_demo_demo_ske.json", "x_ske.dbbin")
if check(os.path.exists(demo_bin), "the demo's .dbbin exists for the reader checks"):
    data = open(demo_bin, "rb").read()
    (hl,) = struct.unpack_from("<I", data, 8)
    head = data[12:12 + hl]
    arrays = data[12 + hl:]
    offs = json.loads(head)["offset"]

    def with_header(h):
        h = h.encode() if isinstance(h, str) else h
        h += b" " * (-(12 + len(h)) % 4)
        return data[:8] + struct.pack("<I", len(h)) + h + arrays

    def poke(array, index, value, fmt="<h"):
        """The file with element `index` of array number `array` (0 intArray .. 5 timelineArray) set."""
        b = bytearray(data)
        struct.pack_into(fmt, b, 12 + hl + offs[2 * array] + index * struct.calcsize(fmt), value)
        return bytes(b)

    mesh_off = json.loads(head)["armature"][0]["skin"][0]["slot"]
    mesh_off = [d["offset"] for s in mesh_off for d in s["display"] if "offset" in d][0]
    cases = {
        "truncated header": data[:10],
        "truncated JSON header": data[:100],
        "truncated arrays": data[:-6],
        "misaligned arrays": data[:8] + struct.pack("<I", hl + 2) + data[12:12 + hl] + b"  " + data[12 + hl:],
        "bad JSON header": data[:12] + b"[" + data[13:],
        "an array offset past the end": with_header(json.dumps(dict(json.loads(head), offset=[4000000] + offs[1:]))),
        "an odd array length": with_header(json.dumps(dict(json.loads(head), offset=offs[:1] + [offs[1] - 1] + offs[2:]))),
        "a mesh vertex count that overflows": poke(0, mesh_off, -2),
        "a triangle index past the vertices": poke(0, mesh_off + 4, 30000),
        "a timeline key count past the array": poke(5, 2, 60000, "<H"),
        "a key offset past frameArray": poke(5, 5, 65000, "<H"),
    }
    for what, blob in cases.items():
        p = os.path.join(tmp, "bad.dbbin")
        open(p, "wb").write(blob)
        for cmd in ("info", "poses"):
            r = run_sinew(cmd, p)
            check(r.returncode not in (0,) and r.returncode < 128 and "byte offset" in r.stderr,
                  f"reader, {what} ({cmd}): rc {r.returncode}, {r.stderr.strip()[:200]}")
    r = run_sinew("info", demo_bin)
    check(r.returncode == 0 and "Bolt" in r.stdout, f"reader: info reads the demo's .dbbin: {r.stderr.strip()[:200]}")


# Beside its atlas (X_ske.dbbin -> X_tex.json), the demo's .dbbin renders the JSON's image.
demo_dir = os.path.join(tmp, "demo_atlas")
os.makedirs(demo_dir, exist_ok=True)
for f in ("demo_ske.json", "demo_tex.json", "demo_tex.png"):
    shutil.copy(os.path.join(SRC, "examples", "demo", f), demo_dir)
r, _ = convert(os.path.join(demo_dir, "demo_ske.json"), "demo_atlas")
shutil.move(os.path.join(tmp, "demo_atlas", "x_ske.dbbin"), os.path.join(demo_dir, "demo_ske.dbbin"))
r = run_sinew("info", os.path.join(demo_dir, "demo_ske.dbbin"))
check(r.returncode == 0 and "demo_tex.json" in r.stdout, f"the atlas is found beside a .dbbin: {r.stdout[:200]}")
pngs = []
for src in ("demo_ske.json", "demo_ske.dbbin"):
    out = os.path.join(demo_dir, src + ".png")
    r = run_sinew("render", os.path.join(demo_dir, src), "--out", out)
    pngs.append(open(out, "rb").read() if r.returncode == 0 and os.path.exists(out) else None)
check(pngs[0] is not None and pngs[0] == pngs[1], "render: the demo's .dbbin draws the JSON's image, byte for byte")


def without_poses(path, out):
    """The .dbbin at `path` with its meshes' slotPose/bonePose taken out of the header (as another
    tool might write it)."""
    b = open(path, "rb").read()
    (n,) = struct.unpack_from("<I", b, 8)
    h = json.loads(b[12:12 + n])
    for a in h["armature"]:
        for sk in a.get("skin", []):
            for sl in sk.get("slot", []):
                for d in sl.get("display", []):
                    d.pop("slotPose", None)
                    d.pop("bonePose", None)
    t = json.dumps(h).encode()
    t += b" " * (-(12 + len(t)) % 4)
    open(out, "wb").write(b[:8] + struct.pack("<I", len(t)) + t + b[12 + n:])


# Weighted deforms without the poses: read when each vertex's offsets agree over its bones (Pip's),
# with the JSON's poses.
tag = "self_tests_fixtures_own_Pip_5.5_pip_ske.json"
pip_bin = os.path.join(tmp, tag, "x_ske.dbbin")
if check(os.path.exists(pip_bin), "Pip 5.5's .dbbin exists"):
    np_bin, np_poses = os.path.join(tmp, "np_ske.dbbin"), os.path.join(tmp, "np.poses")
    without_poses(pip_bin, np_bin)
    ok, err = sinew_poses(np_bin, np_poses)
    if check(ok, f"Pip 5.5 without slotPose/bonePose is read: {err[:300]}"):
        ok, rep = posecmp(os.path.join(tmp, tag + ".sj.poses"), np_poses)
        check(ok, f"Pip 5.5 without slotPose/bonePose = its JSON: {rep[-400:]}")

odir = need_oracle(len(FIXTURES) + 4 + len(CORPUS), "DBBin against the official runtime")
for f in FIXTURES:
    rel = os.path.relpath(f, SRC)
    one(odir, f, rel.replace("/", "_"))
for f in (os.path.join(OWN, "Pip_4.5_triples", "pip_ske.json"),):
    one(odir, f, "Pip_4.5_triples")
one(odir, TURNS, "turns")
one(odir, LATE, "late")

# An XML rig is refused (DBBin is written from DragonBones JSON), nothing written.
xml = os.path.join(OWN, "Pip_xml")
xml_files = [os.path.join(xml, f) for f in sorted(os.listdir(xml)) if f.endswith(".xml")] if os.path.isdir(xml) else []
if xml_files:
    r, out = convert(xml_files[0], "xml")
    check(r.returncode != 0 and "DragonBones JSON only" in r.stderr and not os.path.exists(out),
          f"an XML rig is refused: {r.stderr.strip()[:200]}")

if have_shared():
    for name in sorted(CORPUS):
        one(odir, corpus_path(name), name)
    # you_xin's weighted deforms differ between a vertex's bones: without the poses the reader
    # cannot turn them into per-vertex deltas, and refuses naming the byte
    yx = os.path.join(tmp, "you_xin_body_5.5", "x_ske.dbbin")
    if check(os.path.exists(yx), "you_xin's .dbbin exists"):
        np_bin = os.path.join(tmp, "np_yx_ske.dbbin")
        without_poses(yx, np_bin)
        r = run_sinew("poses", np_bin)
        check(r.returncode not in (0,) and r.returncode < 128 and "differ between its bones" in r.stderr
              and "byte offset" in r.stderr,
              f"you_xin without slotPose/bonePose is refused: rc {r.returncode}, {r.stderr.strip()[:300]}")
else:
    skip(len(CORPUS), "DBBin of the shared characters")
shutil.rmtree(tmp)
finish()
