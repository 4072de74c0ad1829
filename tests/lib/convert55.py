"""What cli.convert_55 and cli.convert_55_wild share: `sinew convert --to dragonbones --format 5.5`
and the comparisons of what the official 5.x runtime (tools/oracle) and sinew play of the result.

A case is one input file. Its 5.5 conversion is played
- by the official runtime at the case's rate (the file's, or the rate of the committed dump it is
  compared with) and at OFF_GRID samples a second (no sample on a frame of any corpus file's grid),
  each against the official runtime's dump of the input at that rate (cached: testkit.run_oracle, or
  for the third-party corpus the dumps cli.wild keeps);
- by sinew (`sinew poses`) at the case's rate, against the official dump of the input (a bare clone
  has the committed ones of the project's own fixtures).
Every comparison is tests/tools/posecmp (posediff's default tolerances: positions 0.01 px, matrix axes
1e-4, colours 1e-3; displays, draw order, events exactly); the largest position error of each is
kept for the table the tests print.
"""
import json
import os
import re
import subprocess

from testkit import BUILD, run_oracle, run_sinew, sinew_poses

POSECMP = os.environ.get("POSECMP", os.path.join(BUILD, "tests", "posecmp"))
OFF_GRID = 7.7  # samples a second: off the frame grid of every rate in the corpora (10 to 60 fps)
DUMP = ["--armature", "all", "--animation", "all", "--precision", "9"]


def convert(src, folder):
    """`sinew convert SRC --to dragonbones --format 5.5 --out FOLDER --name x` -> (skeleton or None,
    atlas or None, the writer's warnings (each line naming an armature, the approximations), the
    count it reports, stderr)."""
    os.makedirs(folder, exist_ok=True)
    r = run_sinew("convert", src, "--to", "dragonbones", "--format", "5.5", "--out", folder, "--name", "x")
    if r.returncode != 0:
        return None, None, [], 0, r.stderr
    files = r.stdout.splitlines()
    atlas = next((f for f in files[1:] if f.endswith(".json")), None)
    warnings = [line for line in r.stderr.splitlines() if re.match(r"^.*: warning: armature '", line)]
    m = re.search(r"sinew convert: (\d+) construct\(s\)", r.stderr)
    return files[0], atlas, warnings, int(m.group(1)) if m else 0, r.stderr


def compare(expected, actual):
    """posecmp EXPECTED ACTUAL -> (ok, largest position error in px, a few lines saying what differs)."""
    c = subprocess.run([POSECMP, expected, actual], capture_output=True, text=True)
    worst = 0.0
    for line in c.stdout.splitlines():
        m = re.match(r"^(ok  |FAIL) .*: pos (\S+) axis", line)
        if m:
            worst = max(worst, float(m.group(2)))
    bad = [line for line in c.stdout.splitlines() if not line.startswith("ok  ")]
    return c.returncode == 0, worst, "\n".join(bad[:12]) or c.stderr.strip()[-500:]


def validate_errors(path):
    """The codes of the errors `sinew validate --json` finds in a file (and in the atlas found beside
    it), sorted, or None when it does not say."""
    r = run_sinew("validate", "--json", path)
    try:
        return sorted(d["code"] for d in json.loads(r.stdout)["diagnostics"] if d["severity"] == "error")
    except (ValueError, KeyError, TypeError):
        return None


def rate_args(atlas, fps):
    return (["--atlas", atlas] if atlas else []) + (["--fps", str(fps)] if fps else [])


def official(odir, ske, out, atlas=None, fps=None):
    """The official runtime's dump of every armature and animation (cached) -> (ok, stderr)."""
    return run_oracle(odir, ske, out, *DUMP, *rate_args(atlas, fps))


def mine(ske, out, atlas=None, fps=None):
    """sinew's dump, as `official` -> (ok, stderr)."""
    return sinew_poses(ske, out, "--animation", "all", *rate_args(atlas, fps))


class Row:
    """One case's line of the table: its largest errors and the writer's warnings."""

    def __init__(self, label):
        self.label = label
        self.rate = None        # official on the 5.5 file at the case's rate, against the input's
        self.off = None         # the same at OFF_GRID
        self.sinew = None       # sinew on the 5.5 file against the official runtime on the input
        self.warnings = []
        self.failures = []      # (what, lines)

    def fail(self, what, text=""):
        self.failures.append((what, text))

    def cell(self, v):
        return "-" if v is None else "0" if v == 0 else "%.2g" % v


def table(rows):
    """The per-file table the tests print (markdown)."""
    out = ["| file | official, its rate (px) | official, %.1f/s (px) | sinew (px) | writer warnings |" % OFF_GRID,
           "|---|---|---|---|---|"]
    for r in rows:
        w = "; ".join(re.sub(r"^.*?: warning: ", "", x) for x in r.warnings) or "none"
        out.append(f"| {r.label} | {r.cell(r.rate)} | {r.cell(r.off)} | {r.cell(r.sinew)} | {w} |")
    return "\n".join(out)


def play_case(odir, folder, label, src, atlas, fps, ref=None, ref_off=None, off_grid=True):
    """Converts one case and compares. `ref`: the official dump of the input at the case's rate
    (None: made here from `src`); `ref_off`: a callable giving (path or None, error) of the reference
    at OFF_GRID (None: the official runtime on `src`); `off_grid` False: the case's rate only.
    Without `odir` only sinew plays. -> Row."""
    row = Row(label)
    conv, conv_atlas, row.warnings, count, err = convert(src, folder)
    if not conv:
        row.fail("sinew convert", err.strip()[-600:])
        return row
    if count != len(row.warnings):
        row.fail("the writer's warnings", f"{count} reported, {len(row.warnings)} printed:\n{err[-600:]}")
    r = run_sinew("info", conv)
    if r.returncode != 0:
        row.fail("sinew info", r.stderr.strip()[-400:])
    # validate: no error the input does not have too (a page image missing beside the input's atlas
    # is missing beside the copy too)
    mine_errors, theirs = validate_errors(conv), validate_errors(src)
    rest, extra = list(theirs or []), []
    for c in mine_errors or []:
        if c in rest:
            rest.remove(c)
        else:
            extra.append(c)
    if mine_errors is None or theirs is None or extra:
        row.fail("sinew validate", f"errors in the 5.5 file {mine_errors}, in the input {theirs}")
    out_atlas = conv_atlas if atlas else None
    if ref is None and odir:
        ref = os.path.join(folder, "in.official.json")
        ok, e = official(odir, src, ref, atlas, fps)
        if not ok:
            row.fail("the official runtime on the input", e[-500:])
            return row
    if ref:
        got = os.path.join(folder, "out.sinew.json")
        ok, e = mine(conv, got, out_atlas, fps)
        if ok:
            ok, row.sinew, text = compare(ref, got)
            if not ok:
                row.fail("sinew on the 5.5 file vs the official runtime on the input", text)
        else:
            row.fail("sinew poses", e[-500:])
    if not odir:
        return row
    rates = ((fps, lambda: (ref, ""), "rate"),) + (((OFF_GRID, ref_off, "off"),) if off_grid else ())
    for rate, reference, attr in rates:
        if reference is None:
            path = os.path.join(folder, "in.official.off.json")
            ok, e = official(odir, src, path, atlas, rate)
            reference = (lambda p=path, o=ok, x=e: (p if o else None, x))
        expected, e = reference()
        if not expected:
            row.fail("the official runtime on the input at %s/s" % rate, e[-500:])
            continue
        got = os.path.join(folder, "out.official.%s.json" % attr)
        ok, e = official(odir, conv, got, out_atlas, rate)
        if not ok:
            row.fail("the official runtime on the 5.5 file at %s/s" % rate, e[-500:])
            continue
        ok, worst, text = compare(expected, got)
        setattr(row, attr, worst)
        if not ok:
            row.fail("the official runtime, input vs 5.5 file, at %s/s" % (rate or "the file's rate"), text)
    return row
