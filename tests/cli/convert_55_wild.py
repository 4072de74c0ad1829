#!/usr/bin/env python3
"""`sinew convert --to dragonbones --format 5.5` on every file of ../shared/data/wild (the rigs
nobody here wrote: SOURCES.md there; the binaries of dbbin/ and their JSON twins): the writer warns
about nothing, `sinew validate` and `sinew info` accept the file, the official 5.x runtime plays it
at the input's rate exactly as it plays the input (every armature and animation:
tests/lib/convert55.py), and sinew plays it as the official runtime plays the input. The off-grid
rate (7.7 samples a second) is cli.convert_55's: here it would double the official runtime's runs
(most of this test's time) for files whose keys the own fixtures' off-grid runs already cover.
The official dumps of the inputs at their rate are cli.wild's (testkit.wild_official, cached in
$BUILD/wild-oracle); the others are cached with testkit.run_cached. Prints the per-file table.

Skipped without ../shared, as the other corpus tests.
"""
import concurrent.futures
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import check, finish, need_oracle, need_shared, wild_corpus, wild_official  # noqa: E402
import convert55  # noqa: E402

JOBS = max(1, min(4, os.cpu_count() or 1))

# as cli.wild: the 58 files SOURCES.md lists (53 rigs, 5 JSON twins)
need_shared(58, "third-party rigs converted to 5.5 (../shared/data/wild)")
odir = need_oracle(58, "third-party rigs' 5.5 conversions against the official runtime")
files = wild_corpus()
check(len(files) >= 50, f"the corpus has {len(files)} playable files (SOURCES.md lists 53, and 5 JSON twins)")


def play(tmp, label, ske, atlas):
    ref, err = wild_official(odir, ske, atlas)
    if not ref:
        row = convert55.Row(label)
        row.fail("the official runtime on the input", err)
        return row
    folder = os.path.join(tmp, label.replace("/", "_"))
    return convert55.play_case(odir, folder, label, ske, atlas, None, ref, off_grid=False)


with tempfile.TemporaryDirectory() as tmp:
    with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
        rows = list(pool.map(lambda f: play(tmp, *f), files))
for row in rows:
    check(not row.warnings, f"{row.label}: the 5.5 writer warns: {row.warnings}")
    for what, text in row.failures:
        check(False, f"{row.label}: {what}:\n{text}")
    if not row.failures:
        check(True, row.label)
print(convert55.table(rows))
finish()
