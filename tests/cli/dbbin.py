#!/usr/bin/env python3
"""DragonBones binary (DBBin): `sinew convert --to dbbin` against the official runtime.

Each skeleton is converted to NAME_ske.dbbin, the official runtime (the oracle, whose
BinaryDataParser reads .dbbin files) plays both the source JSON and the binary, and the two dumps
must agree at posediff's default tolerances. Files the binary cannot carry must be refused with an
error naming the construct, and nothing written. Own fixtures always (skipped only without the
live oracle); the shared characters when ../shared exists.
"""
import os
import shutil
import struct
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import (CORPUS, SRC, check, corpus_path, finish, have_shared, need_oracle, posediff,  # noqa: E402
                     run_oracle, run_sinew, skip)

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
    "Knight_4.5": "action frames past the end",
}

tmp = tempfile.mkdtemp(prefix="sinew_dbbin_")


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
    check(layout_ok(out), f"{tag}: DBDT tag, header length, aligned arrays")
    a, b = os.path.join(tmp, tag + ".json.poses"), os.path.join(tmp, tag + ".bin.poses")
    ok_a, err_a = run_oracle(odir, src, a, "--armature", "all", "--precision", "9")
    ok_b, err_b = run_oracle(odir, out, b, "--armature", "all", "--precision", "9")
    if not check(ok_a and ok_b, f"{tag}: the official runtime reads both: {(err_a + err_b).strip()[:300]}"):
        return
    ok, rep = posediff(a, b)
    check(ok, f"{tag}: official(JSON) = official(sinew's .dbbin): {rep[-400:]}")


odir = need_oracle(len(FIXTURES) + 2 + len(CORPUS), "DBBin against the official runtime")
for f in FIXTURES:
    rel = os.path.relpath(f, SRC)
    one(odir, f, rel.replace("/", "_"))
for f in (os.path.join(OWN, "Pip_4.5_triples", "pip_ske.json"),):
    one(odir, f, "Pip_4.5_triples")

# An XML rig is refused (DBBin is written from DragonBones JSON), nothing written.
xml = os.path.join(OWN, "Pip_xml")
xml_files = [os.path.join(xml, f) for f in sorted(os.listdir(xml)) if f.endswith(".xml")] if os.path.isdir(xml) else []
if xml_files:
    r, out = convert(xml_files[0], "xml")
    check(r.returncode != 0 and "DragonBones JSON only" in r.stderr and not os.path.exists(out),
          f"an XML rig is refused: {r.stderr.strip()[:200]}")

# The reader: layout errors name a byte offset; a consistent file is refused (not read yet).
demo_bin = os.path.join(tmp, "examples_demo_demo_ske.json", "x_ske.dbbin")
if check(os.path.exists(demo_bin), "the demo's .dbbin exists for the reader checks"):
    data = open(demo_bin, "rb").read()
    (hl,) = struct.unpack_from("<I", data, 8)
    cases = {
        "truncated header": data[:10],
        "truncated JSON header": data[:100],
        "truncated arrays": data[:-6],
        "misaligned arrays": data[:8] + struct.pack("<I", hl + 2) + data[12:12 + hl] + b"  " + data[12 + hl:],
        "bad JSON header": data[:12] + b"[" + data[13:],
    }
    for what, blob in cases.items():
        p = os.path.join(tmp, "bad.dbbin")
        open(p, "wb").write(blob)
        r = run_sinew("info", p)
        check(r.returncode != 0 and "at byte offset" in r.stderr, f"reader, {what}: {r.stderr.strip()[:200]}")
    r = run_sinew("poses", demo_bin)
    check(r.returncode != 0 and "not implemented yet" in r.stderr,
          f"reader: a consistent file is refused, not read: {r.stderr.strip()[:200]}")

if have_shared():
    for name in sorted(CORPUS):
        one(odir, corpus_path(name), name)
else:
    skip(len(CORPUS), "DBBin of the shared characters")
shutil.rmtree(tmp)
finish()
