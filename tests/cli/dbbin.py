#!/usr/bin/env python3
"""DragonBones binary (DBBin): `sinew convert --to dbbin` (formats 1 and 2) and sinew's reader.

Without ../shared (a bare clone):
- tests/fixtures/dbbin is what make_dbbin.py makes now (sinew's writer; the 5.6 exporter's
  conventions);
- every "converted" DBBin of tests/fixtures/own/manifest.json (each own fixture, oracle fixture,
  the demo and the fixtures of tests/fixtures/dbbin, written in format 1 and in format 2; the
  committed exporter-style binary; a format-2 file with a colour array) is made, and `sinew poses`
  of it must equal the official runtime's committed dump of it (tests/lib/posecmp.py, posediff's
  default tolerances). cli.oracle_fixtures checks, with ../shared, that each dump is what the
  official runtime gives for that very file;
- the layouts: format 2 (the default) has a 14-number offset table and the version word 0 0 0 2,
  format 1 12 numbers and 0 0 0 1; `--dbbin-format` takes only 1 and 2, with --to dbbin;
- warnings: the action frames the binary leaves out, a polygon bounding box without vertices (in
  the JSON, and in a binary whose polygons are in its arrays, which the official runtime does not
  read), a non-empty colour array, each naming a byte offset where it is in a binary;
- broken binaries (truncated, misaligned, out-of-range offsets, counts and indices, a bad offset
  table) fail with an error naming a byte offset; weighted deforms without slotPose/bonePose are
  read when one delta per vertex explains them, refused otherwise.

With ../shared and the live oracle: each skeleton (own fixtures, oracle fixtures, the demo, the
DBBin fixtures, the shared characters) is converted to NAME_ske.dbbin in both formats; the
official runtime's dump of the JSON must agree at posediff's default tolerances with the official
runtime's dump of the format-2 binary (its BinaryDataParser) and with `sinew poses` of it, and the
format-1 binary must differ from it only in the version word and the offset table. (That the
official runtime gives each fixture's format-1 binary exactly the JSON's dump is
cli.oracle_fixtures' freshness check of the "converted" entries; sinew's reading of it, the bare
part above.) Files the binary cannot carry must be refused with an error naming the construct,
and nothing written; you_xin's binary without slotPose/bonePose plays as its JSON.
"""
import os
import atexit
import json
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (CORPUS, SINEW, SRC, check, converted_args, converted_entries, converted_expected,  # noqa: E402
                     corpus_path, finish, have_shared, make_converted, need_oracle, own_expected, posecmp,
                     posediff, run_oracle, run_sinew, sinew_poses, skip)

OWN = os.path.join(SRC, "tests", "fixtures", "own")
ORACLE_FIX = os.path.join(SRC, "tests", "fixtures", "oracle")
DBBIN_FIX = os.path.join(SRC, "tests", "fixtures", "dbbin")
sys.path.insert(0, DBBIN_FIX)
import dbbin_layout  # noqa: E402

FIXTURES = [os.path.join(OWN, p) for p in
            ("Pip_4.0/pip.json", "Pip_4.5/pip_ske.json", "Pip_5.0/pip_ske.json", "Pip_5.5/pip_ske.json")]
FIXTURES += [os.path.join(ORACLE_FIX, f) for f in sorted(os.listdir(ORACLE_FIX)) if f.endswith("_ske.json")]
FIXTURES += [os.path.join(DBBIN_FIX, f) for f in ("skin_ske.json", "turns_ske.json", "late_ske.json")]
FIXTURES.append(os.path.join(SRC, "examples", "demo", "demo_ske.json"))

# Files the binary cannot carry, and a word the refusal must contain.
REFUSED = {
    os.path.join(OWN, "Pip_4.5_triples", "pip_ske.json"): "weights do not fit",  # the official parser fails too
    os.path.join(ORACLE_FIX, "share_ske.json"): "shared or glued mesh",
    os.path.join(ORACLE_FIX, "path_ske.json"): "path constraints",
}
# Files the binary carries with a warning (what the official parser leaves out, the binary leaves
# out too), and a word the warning must contain.
LATE_WARNING = "action frame past the end of the animation left out"
WARNED = {"Knight_4.5": LATE_WARNING, "late_ske.json": LATE_WARNING, "tests_fixtures_dbbin_late_ske.json": LATE_WARNING}
POLYGON_WARNING = "is a polygon without 'vertices'"

tmp = tempfile.mkdtemp(prefix="sinew_dbbin_")
atexit.register(shutil.rmtree, tmp, True)


def convert(src, tag, fmt=None):
    out = os.path.join(tmp, tag)
    os.makedirs(out, exist_ok=True)
    args = ["convert", src, "--to", "dbbin", "--out", out, "--name", "x"]
    r = run_sinew(*(args + (["--dbbin-format", str(fmt)] if fmt else [])))
    return r, os.path.join(out, "x_ske.dbbin")


def layout(path):
    """(version word, number of offset entries) of a binary, or None when the header the official
    reader expects is not there (DBDT, a JSON header, 4-byte aligned arrays)."""
    b = open(path, "rb").read()
    if len(b) < 12 or b[:4] != b"DBDT":
        return None
    (n,) = struct.unpack_from("<I", b, 8)
    if (12 + n) % 4 or 12 + n > len(b) or b[12:13] != b"{":
        return None
    return tuple(b[4:8]), len(json.loads(b[12:12 + n])["offset"])


# ---- the fixtures of tests/fixtures/dbbin are current ---------------------------------------------
r = subprocess.run([sys.executable, os.path.join(DBBIN_FIX, "make_dbbin.py"), "--check"], capture_output=True,
                   text=True, env=dict(os.environ, SINEW=SINEW))
check(r.returncode == 0, "tests/fixtures/dbbin is what make_dbbin.py makes now:\n" + (r.stdout + r.stderr)[-800:])

# ---- every converted DBBin against the official runtime's committed dump --------------------------
for e in converted_entries():
    if e.get("to") not in (None, "dbbin"):
        continue
    path, err = make_converted(e, os.path.join(tmp, "conv_" + e["name"]))
    if not check(path is not None, f"{e['name']}: sinew makes it: {err[:300]}"):
        continue
    if e.get("to") == "dbbin":
        want = ((0, 0, 0, e["format"]), 14 if e["format"] == 2 else 12)
        got = layout(path)
        check(got == want if not e.get("transform") else got is not None,
              f"{e['name']}: version word and offset table {got}, expected {want}")
    base = os.path.basename(e["source"])
    if base in WARNED:
        check(WARNED[base] in err, f"{e['name']}: converted with the warning ({WARNED[base]!r}): {err[-300:]}")
    out = os.path.join(tmp, e["name"] + ".poses.json")
    r = run_sinew("poses", path, "--armature", "all", "--precision", "9", "--out", out, *converted_args(e))
    if not check(r.returncode == 0, f"{e['name']}: sinew poses: {r.stderr.strip()[:300]}"):
        continue
    ok, rep = posecmp(converted_expected(e), out)
    check(ok, f"{e['name']}: sinew(.dbbin) = the official runtime's dump ({e.get('expected', e['name'])}): "
              f"{rep[-600:]}")
    if "skin" in e["name"]:
        # the polygon without vertices: the official warning, at a byte offset; the exporter's
        # polygons (vertices in the arrays, which the official parser never reads) too
        r = run_sinew("info", path, "--verbose")  # every warning on its own line
        n = 2 if e["name"] == "dbbin_skin_exporter" else 1
        check(r.returncode == 0 and r.stderr.count(POLYGON_WARNING) == n and "byte offset" in r.stderr,
              f"{e['name']}: {n} polygon warning(s) at a byte offset: {r.stderr.strip()[:400]}")
        if e.get("transform") == "colour_array":
            check("colour array (16 bytes) is not read" in r.stderr and r.stderr.count("byte offset") == 2,
                  f"{e['name']}: the colour array is ignored with a warning: {r.stderr.strip()[:400]}")

# the JSON's polygon without vertices: the same warning, at its line and column
r = run_sinew("info", os.path.join(DBBIN_FIX, "skin_ske.json"))
check(r.returncode == 0 and "skin_ske.json:" in r.stderr and "boundingBox 'hull' " + POLYGON_WARNING in r.stderr,
      f"skin_ske.json: the polygon warning: {r.stderr.strip()[:300]}")

# ---- the formats on the command line ---------------------------------------------------------------
pip55 = os.path.join(OWN, "Pip_5.5", "pip_ske.json")
for fmt, want in ((None, ((0, 0, 0, 2), 14)), (2, ((0, 0, 0, 2), 14)), (1, ((0, 0, 0, 1), 12))):
    r, out = convert(pip55, "fmt%s" % fmt, fmt)
    check(r.returncode == 0 and layout(out) == want, f"--dbbin-format {fmt}: {layout(out) if r.returncode == 0 else r.stderr}")
for args, word in ((["--dbbin-format", "3"], "1 or 2"), (["--dbbin-format", "x"], "1 or 2"),
                   (["--to", "dragonbones", "--dbbin-format", "1"], "goes with --to dbbin")):
    out = os.path.join(tmp, "badfmt")
    a = ["convert", pip55, "--out", out] + (args if "--to" in args else ["--to", "dbbin"] + args)
    r = run_sinew(*a)
    check(r.returncode == 1 and word in r.stderr and not os.path.exists(os.path.join(out, "pip_ske.dbbin")),
          f"sinew {' '.join(a[3:])}: a usage error ({word!r}): rc {r.returncode}, {r.stderr.strip()[:200]}")
# the official reader ignores the version word; so does sinew's (the layout is the table's)
b = dbbin_layout.Dbbin.parse(open(os.path.join(tmp, "fmt2", "x_ske.dbbin"), "rb").read())
for word in (b"\x05\x05\x00\x00", b"\x00\x00\x00\x01", b"\x00\x00\x00\x03"):
    b.word = word
    data = b.build(2)
    p = os.path.join(tmp, "word_ske.dbbin")
    open(p, "wb").write(data[:4] + word + data[8:])
    out = os.path.join(tmp, "word.poses.json")
    r = run_sinew("poses", p, "--armature", "all", "--precision", "9", "--out", out, "--fps", "10")
    ok, rep = (posecmp(own_expected("Pip_5.5"), out) if r.returncode == 0 else (False, r.stderr))
    check(ok, f"version word {list(word)}: read as format 2: {rep[-300:]}")

# ---- the reader: broken binaries are errors naming a byte offset, never a crash --------------------
demo_bin = os.path.join(tmp, "conv_dbbin_demo", "x_ske.dbbin")
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

    def with_offsets(o):
        return with_header(json.dumps(dict(json.loads(head), offset=o)))

    def poke(array, index, value, fmt="<h"):
        """The file with element `index` of array number `array` (0 intArray .. 5 timelineArray) set."""
        b = bytearray(data)
        struct.pack_into(fmt, b, 12 + hl + offs[2 * array] + index * struct.calcsize(fmt), value)
        return bytes(b)

    mesh_off = json.loads(head)["armature"][0]["skin"][0]["slot"]
    mesh_off = [d["offset"] for s in mesh_off for d in s["display"] if "offset" in d][0]
    end = offs[10] + offs[11]
    cases = {
        "truncated header": data[:10],
        "truncated JSON header": data[:100],
        "truncated arrays": data[:-6],
        "misaligned arrays": data[:8] + struct.pack("<I", hl + 2) + data[12:12 + hl] + b"  " + data[12 + hl:],
        "bad JSON header": data[:12] + b"[" + data[13:],
        "an array offset past the end": with_offsets([4000000] + offs[1:]),
        "an odd array length": with_offsets(offs[:1] + [offs[1] - 1] + offs[2:]),
        "an offset table of 13 numbers": with_offsets(offs[:13]),
        "an offset table of 16 numbers": with_offsets(offs + [end, 0]),
        "a colour array past the end": with_offsets(offs[:12] + [end, 64]),
        "a colour array at a negative offset": with_offsets(offs[:12] + [-4, 0]),
        "a misaligned colour array": with_offsets(offs[:12] + [end - 1, 2]),
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


def without_poses(path, out, edit=None):
    """The .dbbin at `path` with its meshes' slotPose/bonePose taken out of the header (as the
    official exporters write it); `edit(b)` may change it further."""
    b = dbbin_layout.Dbbin.parse(open(path, "rb").read())
    for _, d in b.meshes():
        d.pop("slotPose", None)
        d.pop("bonePose", None)
    if edit:
        edit(b)
    open(out, "wb").write(b.build())


# Weighted deforms without the poses: each vertex's delta is its first influence's offsets, the
# other influences' maps are fitted to the keys (Pip's cape: the same offsets over its bones; the
# skin's sleeve: bones turned and scaled apart), with the official runtime's poses.
for tag, src_bin, dump, args in (
        ("Pip 5.5", os.path.join(tmp, "conv_dbbin_Pip_5.5", "x_ske.dbbin"), own_expected("Pip_5.5"),
         ["--fps", "10"]),
        ("skin", os.path.join(DBBIN_FIX, "skin_ske.dbbin"), own_expected("dbbin_skin"), ["--fps", "6"])):
    np_bin, np_poses = os.path.join(tmp, "np_ske.dbbin"), os.path.join(tmp, "np.poses")
    without_poses(src_bin, np_bin)
    ok, err = sinew_poses(np_bin, np_poses, *args)
    if check(ok, f"{tag} without slotPose/bonePose is read: {err[:300]}"):
        ok, rep = posecmp(dump, np_poses)
        check(ok, f"{tag} without slotPose/bonePose = the official runtime's dump: {rep[-400:]}")


def break_sleeve(b):
    """Offsets no per-vertex delta explains: in a key where a vertex of the sleeve has its first
    influence still, its second one moves."""
    A, anim = b.arrays, b.header["armature"][0]["animation"][0]
    ia, ffa = A["intArray"], A["frameFloatArray"]
    mesh = [d for _, d in b.meshes() if d["name"] == "sleeve"][0]
    wo = ia[mesh["offset"] + 3]
    # the first influence of each vertex on two bones or more (influences are numbered in vertex
    # order)
    at, first, inf = wo + 2 + ia[wo], 0, []
    for v in range(ia[mesh["offset"]]):
        k = ia[at]
        if k >= 2:
            inf.append(first)
        first += k
        at += 1 + k
    pairs = anim["slot"]["sleeve"]
    tl = pairs[pairs.index(22) + 1]
    keys, start = A["timelineArray"][tl + 2], anim["offset"][1] + A["timelineArray"][tl + 4]
    n = A["frameIntArray"][anim["offset"][0] + A["timelineArray"][tl + 3] + 1]
    for k in range(keys):
        for i in inf:
            q = start + k * n + 2 * i
            if ffa[q] == 0 and ffa[q + 1] == 0:
                ffa[q + 2] = 5.0
                return
    raise AssertionError("no still first influence in the sleeve's keys")


bad_bin = os.path.join(tmp, "np_bad_ske.dbbin")
without_poses(os.path.join(DBBIN_FIX, "skin_ske.dbbin"), bad_bin, break_sleeve)
r = run_sinew("poses", bad_bin)
check(r.returncode not in (0,) and r.returncode < 128 and "differ between its bones" in r.stderr
      and "byte offset" in r.stderr, f"skin with an unexplained offset is refused: rc {r.returncode}, "
                                     f"{r.stderr.strip()[:300]}")


# ---- the live official runtime -----------------------------------------------------------------------
def same_but_layout(f1, f2):
    """Two binaries of one JSON, in formats 1 and 2: the same but for the version word and the
    offset table's seventh array."""
    a, b = dbbin_layout.Dbbin.parse(open(f1, "rb").read()), dbbin_layout.Dbbin.parse(open(f2, "rb").read())
    return a.format == 1 and b.format == 2 and b.arrays.get("colorArray") == [] and \
        {k: v for k, v in a.arrays.items()} == {k: v for k, v in b.arrays.items() if k != "colorArray"} and \
        {k: v for k, v in a.header.items() if k != "offset"} == {k: v for k, v in b.header.items() if k != "offset"}


def one(odir, src, tag, live=(2,)):
    """src converted in both formats: the official runtime's poses of each binary in `live` and
    sinew's equal the official runtime's poses of the JSON; the two binaries differ only in their
    layout."""
    if tag in REFUSED or src in REFUSED:
        word = REFUSED.get(tag, REFUSED.get(src))
        r, out = convert(src, tag)
        check(r.returncode != 0 and word in r.stderr and not os.path.exists(out),
              f"{tag}: refused naming the construct ({word!r}): rc {r.returncode}, {r.stderr.strip()[:300]}")
        return
    a = os.path.join(tmp, tag + ".json.poses")
    ok_a, err_a = run_oracle(odir, src, a, "--armature", "all", "--precision", "9")
    if not check(ok_a, f"{tag}: the official runtime reads the JSON: {err_a.strip()[:300]}"):
        return
    for fmt in (1, 2):
        t = "%s_f%d" % (tag, fmt)
        r, out = convert(src, t, fmt)
        if not check(r.returncode == 0 and os.path.exists(out), f"{t}: sinew convert --to dbbin: {r.stderr.strip()[:300]}"):
            continue
        w = WARNED.get(tag, WARNED.get(os.path.basename(src)))
        if w:
            check(w in r.stderr, f"{t}: converted with the warning ({w!r}): {r.stderr.strip()[-300:]}")
        check(layout(out) == ((0, 0, 0, fmt), 14 if fmt == 2 else 12), f"{t}: format {fmt} layout: {layout(out)}")
        if fmt == 2:
            check(same_but_layout(os.path.join(tmp, tag + "_f1", "x_ske.dbbin"), out),
                  f"{tag}: formats 1 and 2 differ only in the version word and the offset table")
        if fmt not in live:
            continue
        b = os.path.join(tmp, t + ".bin.poses")
        ok_b, err_b = run_oracle(odir, out, b, "--armature", "all", "--precision", "9")
        if check(ok_b, f"{t}: the official runtime reads the .dbbin: {err_b.strip()[:300]}"):
            ok, rep = posediff(a, b)
            check(ok, f"{t}: official(JSON) = official(sinew's .dbbin): {rep[-400:]}")
        c = os.path.join(tmp, t + ".sinew-bin.poses")
        ok, err = sinew_poses(out, c)
        if check(ok, f"{t}: sinew reads its .dbbin: {err[:300]}"):
            ok, rep = posediff(a, c)
            check(ok, f"{t}: official(JSON) = sinew(.dbbin): {rep[-400:]}")


odir = need_oracle(len(FIXTURES) + 1 + len(CORPUS), "DBBin against the official runtime")
for f in FIXTURES:
    rel = os.path.relpath(f, SRC)
    one(odir, f, rel.replace("/", "_"))
one(odir, os.path.join(OWN, "Pip_4.5_triples", "pip_ske.json"), "Pip_4.5_triples")

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
    # fits the maps between them to the keys, and plays what the official runtime plays
    yx = os.path.join(tmp, "you_xin_body_5.5_f2", "x_ske.dbbin")
    if check(os.path.exists(yx), "you_xin's .dbbin exists"):
        np_bin, np_poses = os.path.join(tmp, "np_yx_ske.dbbin"), os.path.join(tmp, "np_yx.poses")
        without_poses(yx, np_bin)
        ok, err = sinew_poses(np_bin, np_poses)
        if check(ok, f"you_xin without slotPose/bonePose is read: {err[:300]}"):
            ok, rep = posediff(os.path.join(tmp, "you_xin_body_5.5.json.poses"), np_poses)
            check(ok, f"you_xin without slotPose/bonePose = official(JSON): {rep[-400:]}")
else:
    skip(len(CORPUS), "DBBin of the shared characters")
shutil.rmtree(tmp)
finish()
