"""Shared by the script tests in tests/cli/ (this folder is not globbed as tests).

- the environment every test gets (SINEW, SRC, SHARED, BUILD), with fall-backs for running a
  script by hand from tests/;
- a tally of checks: check(cond, what) counts and prints `FAIL: what`, finish() prints the closing
  `N passed, N failed` line and exits non-zero when anything failed;
- ../shared: have_shared(), skip(count, what) for a part that needs it, need_shared(count, what)
  for a test that is nothing but such a part (it exits with SKIP = 77, which ctest reports as
  skipped). With SINEW_REQUIRE_SHARED=1 (.ci/run) a skip is a failure. CORPUS lists the shared
  DragonBones sets, OWN the project's own fixtures (tests/fixtures/own/manifest.json);
- an uncaught exception ends the test with one line (where and what) and the closing line, not a
  traceback (SINEW_TEST_TRACEBACK=1 shows the traceback);
- run_sinew(...): the CLI with its output captured;
- read_png(path): a stdlib-only decoder for the 8-bit PNGs sinew and the demo generator write;
- the official DragonBones runtime (the oracle): set up once in $BUILD/oracle (a copy of
  $SHARED/tools/oracle plus `npm ci`), run on a skeleton, and posediff.

Use from a script in tests/cli/:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    from testkit import check, finish  # noqa: E402
"""
import fcntl
import json
import os
import shutil
import struct
import subprocess
import sys
import traceback
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SINEW = os.environ.get("SINEW", "sinew")
SRC = os.environ.get("SRC", os.path.normpath(os.path.join(HERE, "..", "..")))
SHARED = os.environ.get("SHARED", os.path.join(SRC, "..", "shared"))
BUILD = os.environ.get("BUILD", "/tmp")
SKIP = 77  # the exit status ctest reports as "skipped" (SKIP_RETURN_CODE in tests/CMakeLists.txt)
REQUIRE_SHARED = os.environ.get("SINEW_REQUIRE_SHARED", "") not in ("", "0")

# The DragonBones sets of ../shared/data/dragonbones: name -> (skeleton, atlas or None). Each has
# the official runtime's dump in ../shared/data/expected/NAME.poses.json.
CORPUS = {
    "CoreElement_4.5": ("CoreElement.json", "CoreElement_texture_1.json"),
    "Knight_4.5": ("Knight.json", "Knight_texture_1.json"),
    "ReplaceSkinMan_4.0": ("man.json", "texture.json"),
    "Robot_4.5": ("robot_ske.json", None),  # its atlas JSON is corrupt upstream and was not copied
    "Ubbie_4.5": ("Ubbie.json", "texture.json"),
    "ZOrder16_4.5": ("16_ske.json", "16_tex.json"),
    "dragon_boy_5.0": ("dragon_boy_ske.json", "dragon_boy_tex.json"),
    "mecha_1502b_5.5": ("mecha_1502b_ske.json", "mecha_1502b_tex.json"),
    "you_xin_body_5.5": ("body_ske.json", "body_tex.json"),
}


def corpus_path(name, which=0):
    """Absolute path of a corpus set's skeleton (which=0) or atlas (1), or None."""
    f = CORPUS[name][which]
    return os.path.join(SHARED, "data", "dragonbones", name, f) if f else None


def corpus_expected(name):
    return os.path.join(SHARED, "data", "expected", name + ".poses.json")


# ---- the tally -------------------------------------------------------------------------------

class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = 0

    def check(self, cond, what):
        """Counts one check; prints `FAIL: what` when cond is false. Returns cond."""
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL:", what, flush=True)
        return cond

    def skip(self, count, what, reason=None):
        """Counts `count` checks (or units: say which in `what`) that cannot run here, with one line
        saying what and why. Under SINEW_REQUIRE_SHARED=1 this is one failed check instead."""
        reason = reason or shared_missing()
        if REQUIRE_SHARED:
            self.check(False, f"{count} {what}: {reason}, and SINEW_REQUIRE_SHARED=1 requires it")
            return
        self.skipped += count
        print(f"SKIP: {count} {what}: {reason}", flush=True)

    def summary(self):
        """Prints the closing line; returns the exit code: 1 when anything failed, SKIP when
        nothing ran because everything was skipped, else 0."""
        tail = f", {self.skipped} skipped" if self.skipped else ""
        print(f"{self.passed} passed, {self.failed} failed{tail}", flush=True)
        if self.failed:
            return 1
        return SKIP if self.skipped and not self.passed else 0

    def finish(self):
        sys.exit(self.summary())


# one tally per test process
tally = Tally()
check = tally.check
skip = tally.skip
summary = tally.summary
finish = tally.finish


def _uncaught(kind, value, tb):
    """An exception nobody caught: one line naming the test line and the error, then the closing
    line (the test failed). SINEW_TEST_TRACEBACK=1 prints the whole traceback as well."""
    if os.environ.get("SINEW_TEST_TRACEBACK"):
        traceback.print_exception(kind, value, tb)
    frames = traceback.extract_tb(tb)
    tests = [f for f in frames if os.path.abspath(f.filename).startswith(os.path.join(SRC, "tests"))]
    mine = [f for f in tests if not os.path.abspath(f.filename).startswith(HERE)] or tests or frames
    where = f"{os.path.relpath(mine[-1].filename, SRC)}:{mine[-1].lineno}: " if mine else ""
    if isinstance(value, KeyboardInterrupt):
        sys.__excepthook__(kind, value, tb)
        return
    text = str(value) or kind.__name__
    if isinstance(value, OSError) and value.filename:
        text = f"{value.strerror}: {value.filename}"
    print(f"FAIL: {where}{kind.__name__}: {text} (the test stopped here; SINEW_TEST_TRACEBACK=1 shows the traceback)",
          flush=True)
    tally.failed += 1
    tally.summary()
    sys.stdout.flush()
    os._exit(1)


sys.excepthook = _uncaught


# ---- ../shared ---------------------------------------------------------------------------------

def load_module(name, path):
    """The Python file at `path` as module `name` (a fixture folder's generator, which is not a
    package)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def have_shared():
    """True when the shared test resource folder (../shared, or $SHARED) exists."""
    return os.path.isdir(SHARED)


def shared_missing():
    return f"../shared not found ({os.path.normpath(SHARED)})"


def need_shared(count, what):
    """For a test that needs ../shared throughout: without it, report `count` skipped checks (or
    units) and exit (SKIP, or a failure under SINEW_REQUIRE_SHARED=1)."""
    if not have_shared():
        skip(count, what)
        finish()


# ---- the project's own fixtures (tests/fixtures/own) --------------------------------------------

OWN_DIR = os.path.join(SRC, "tests", "fixtures", "own")


def own_manifest():
    """tests/fixtures/own/manifest.json (paths in it are relative to SRC)."""
    with open(os.path.join(OWN_DIR, "manifest.json"), encoding="utf-8") as f:
        return json.load(f)


def own_path(rel):
    return os.path.join(SRC, rel) if rel else None


def own_expected(name):
    """The committed official-runtime dump NAME (tests/fixtures/own/expected/NAME.poses.json)."""
    return os.path.join(OWN_DIR, "expected", name + ".poses.json")


def converted_entries(to=None):
    """The manifest's "converted" entries (files sinew's writers make, which the official runtime
    has dumps of), those whose "to" is `to` when given ("dbbin", "dragonbones"; None for the
    committed binaries)."""
    out = own_manifest().get("converted", [])
    return out if to is None else [e for e in out if e.get("to") == to]


def converted_version(entry):
    """The DragonBones version a "to": "dragonbones" entry is written in ("4.5" unless it says)."""
    return str(entry.get("format", "4.5"))


def converted_expected(entry):
    """The committed official dump an entry is compared with (its own, or the one it shares)."""
    return own_expected(entry.get("expected", entry["name"]))


def converted_args(entry):
    """sinew poses / oracle.mjs options for an entry's file: its atlas and sample rate."""
    return (["--atlas", own_path(entry["atlas"])] if entry.get("atlas") else []) + \
        (["--fps", str(entry["fps"])] if "fps" in entry else [])


def make_converted(entry, folder):
    """Makes the file of a "converted" entry in `folder`: `sinew convert SOURCE --to TO` (DBBin
    in its "format"; DragonBones in its "format", 4.5 unless it says), or the committed SOURCE as it
    is, then its "transform" (a
    function of tests/fixtures/dbbin/dbbin_layout.py) -> (path, stderr of the conversion), or
    (None, the error)."""
    src = own_path(entry["source"])
    os.makedirs(folder, exist_ok=True)
    path, err = src, ""
    if entry.get("to"):
        args = ["convert", src, "--to", entry["to"], "--out", folder, "--name", "x"]
        args += (["--dbbin-format", str(entry["format"])] if entry["to"] == "dbbin"
                 else ["--format", converted_version(entry)])
        r = run_sinew(*args)
        if r.returncode != 0:
            return None, r.stderr.strip()
        path, err = r.stdout.split()[0], r.stderr
    if entry.get("transform"):
        sys.path.insert(0, os.path.join(SRC, "tests", "fixtures", "dbbin"))
        import dbbin_layout
        with open(path, "rb") as f:
            data = getattr(dbbin_layout, entry["transform"])(f.read())
        path = os.path.join(folder, "t_ske.dbbin")
        with open(path, "wb") as f:
            f.write(data)
    return path, err


def check_converted(entries, tmp, what):
    """sinew on the file of each "converted" entry (made in tmp) against the official runtime's
    committed dump of that file; `what` names the file in the failures ("4.5 file")."""
    for e in entries:
        conv, err = make_converted(e, os.path.join(tmp, "conv_" + e["name"]))
        if not check(conv is not None, f"{e['name']}: convert: {err}"):
            continue
        out = os.path.join(tmp, e["name"] + ".sinew.json")
        ok, err = sinew_poses(conv, out, *converted_args(e))
        if check(ok, f"{e['name']}: sinew poses: {err}"):
            ok, msg = posecmp(converted_expected(e), out)
            check(ok, f"{e['name']}: sinew on the {what} vs the official runtime on it (committed):\n{msg}")


# ---- running sinew -----------------------------------------------------------------------------

def run_sinew(*args, text=True, **kw):
    """`sinew ARGS...` with stdout/stderr captured (str, or bytes with text=False)."""
    return subprocess.run([SINEW, *[str(a) for a in args]], capture_output=True, text=text, **kw)


# ---- PNG -----------------------------------------------------------------------------------------

def read_png(path, colour_types=(2, 6)):
    """8-bit, non-interlaced PNG -> (w, h, RGBA bytes), zlib only. colour_types: the PNG colour
    types accepted (2 RGB, 6 RGBA); RGB comes back with alpha 255. Raises ValueError otherwise."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(path + ": not a PNG")
    pos, idat, w, ctype = 8, b"", None, None
    while pos < len(data):
        ln, = struct.unpack(">I", data[pos:pos + 4])
        tag, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + ln]
        crc, = struct.unpack(">I", data[pos + 8 + ln:pos + 12 + ln])
        if zlib.crc32(tag + body) & 0xFFFFFFFF != crc:
            raise ValueError(path + ": bad CRC in " + tag.decode("latin-1"))
        pos += 12 + ln
        if tag == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in colour_types or interlace:
                raise ValueError(f"{path}: unsupported PNG (depth {depth}, colour type {ctype}, "
                                 f"interlace {interlace})")
        elif tag == b"IDAT":
            idat += body
    bpp = 4 if ctype == 6 else 3
    raw = zlib.decompress(idat)
    stride = w * bpp
    out = bytearray(w * h * 4)
    prev = bytearray(stride)
    p = 0
    for y in range(h):
        f = raw[p]
        row = bytearray(raw[p + 1:p + 1 + stride])
        p += 1 + stride
        if f == 1:
            for i in range(bpp, stride):
                row[i] = (row[i] + row[i - bpp]) & 255
        elif f == 2:
            for i in range(stride):
                row[i] = (row[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                row[i] = (row[i] + (((row[i - bpp] if i >= bpp else 0) + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = row[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                pp = a + b - c
                pa, pb, pc = abs(pp - a), abs(pp - b), abs(pp - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else (b if pb <= pc else c))) & 255
        if bpp == 4:
            out[y * w * 4:(y + 1) * w * 4] = row
        else:
            for x in range(w):
                out[(y * w + x) * 4:(y * w + x) * 4 + 4] = bytes(row[x * 3:x * 3 + 3]) + b"\xff"
        prev = row
    return w, h, bytes(out)


def same_generated(a, b):
    """Whether a committed fixture file and the one its generator writes now are the same: JSON
    equal as data, PNG pixels within 1 level (libm differences), other files byte for byte."""
    if a.endswith(".json"):
        with open(a, encoding="utf-8") as fa, open(b, encoding="utf-8") as fb:
            return json.load(fa) == json.load(fb)
    if a.endswith(".png"):
        wa, ha, pa = read_png(a, colour_types=(6,))
        wb, hb, pb = read_png(b, colour_types=(6,))
        return (wa, ha) == (wb, hb) and max((abs(x - y) for x, y in zip(pa, pb)), default=0) <= 1
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


# ---- the oracle (official DragonBones runtime) and posediff --------------------------------------

def oracle_dir():
    """Returns the oracle folder ($BUILD/oracle), ready to run; raises RuntimeError saying how to
    fix it. Several tests may ask at once (ctest -j): the set-up runs under a lock."""
    if not have_shared():
        raise RuntimeError("the official runtime (oracle) comes from ../shared/tools/oracle: " + shared_missing())
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        raise RuntimeError("node and npm are needed to run the official DragonBones runtime: "
                           "install them with `apt-get install nodejs npm` (or `make deps`)")
    dst = os.path.join(BUILD, "oracle")
    src = os.path.join(SHARED, "tools", "oracle")
    os.makedirs(dst, exist_ok=True)
    with open(os.path.join(dst, ".setup.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for name in ("oracle.mjs", "scenario.mjs", "package.json", "package-lock.json"):
            s, d = os.path.join(src, name), os.path.join(dst, name)
            if not os.path.exists(d) or open(s, "rb").read() != open(d, "rb").read():
                shutil.copyfile(s, d)
                shutil.rmtree(os.path.join(dst, "node_modules"), ignore_errors=True)
        if not os.path.isdir(os.path.join(dst, "node_modules", "@cocos", "dragonbones-js")):
            r = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=dst,
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(f"`npm ci` in {dst} failed (network needed once):\n{r.stdout}\n{r.stderr}")
    return dst


def need_oracle(count=1, what="checks against the official runtime"):
    """oracle_dir() for a test that needs the oracle throughout. Without ../shared: `count`
    skipped (see need_shared); when it cannot be set up: one failed check. Both end the test."""
    need_shared(count, what)
    try:
        return oracle_dir()
    except RuntimeError as e:
        check(False, str(e))
        finish()


def try_oracle(count, what):
    """oracle_dir() for a test whose oracle part is optional: None (with `count` skipped) without
    ../shared; a failed check and None when the set-up fails."""
    if not have_shared():
        skip(count, what)
        return None
    try:
        return oracle_dir()
    except RuntimeError as e:
        check(False, str(e))
        return None


def oracle_cache():
    """Where the official runtime's outputs are kept between runs: $SINEW_ORACLE_CACHE, else
    $BUILD/oracle-cache (`make test-asan` points it at the first pass's, so the sanitizer pass
    reruns only sinew)."""
    return os.environ.get("SINEW_ORACLE_CACHE") or os.path.join(BUILD, "oracle-cache")


def run_cached(argv, out, cwd=None, extra_inputs=()):
    """Runs a reference program (node SCRIPT ...) that writes OUT, or copies OUT from the cache.
    The key is every argument (a file by its name and bytes, so the same input in another folder
    hits: the dumps name their files by basename), the bytes of
    `extra_inputs` (e.g. the package-lock.json that pins the runtime) and OUT's position; only a
    successful run is kept. -> (ok, stderr)."""
    import hashlib
    h = hashlib.sha256()
    for a in list(argv) + ["--inputs--"] + list(extra_inputs):
        a = str(a)
        if a == out:
            h.update(b"\0OUT")
        elif os.path.isfile(a):
            with open(a, "rb") as f:
                h.update(b"\0F" + os.path.basename(a).encode() + hashlib.sha256(f.read()).digest())
        else:
            h.update(b"\0A" + a.encode())
    cache = oracle_cache()
    key = os.path.join(cache, h.hexdigest()[:32])
    if os.path.exists(key + ".out"):
        shutil.copyfile(key + ".out", out)
        with open(key + ".err", encoding="utf-8", errors="replace") as f:
            return True, f.read()
    r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(out):
        return False, r.stderr
    os.makedirs(cache, exist_ok=True)
    tmp = "%s.%d" % (key, os.getpid())
    with open(tmp + ".err", "w", encoding="utf-8") as f:
        f.write(r.stderr)
    shutil.copyfile(out, tmp + ".out")
    os.replace(tmp + ".err", key + ".err")
    os.replace(tmp + ".out", key + ".out")
    return True, r.stderr


def run_oracle(odir, ske, out, *args):
    """node oracle.mjs SKE --out OUT ARGS... -> (ok, stderr); cached (run_cached)."""
    return run_cached(["node", os.path.join(odir, "oracle.mjs"), ske, "--out", out, *args], out,
                      extra_inputs=[os.path.join(odir, "package-lock.json")])


# ---- the third-party corpus (../shared/data/wild) ------------------------------------------------------

WILD = os.path.join(SHARED, "data", "wild")


def wild_corpus():
    """[(label, skeleton, atlas or None)] for every file of ../shared/data/wild the official runtime
    plays: each top-level folder's skeleton JSON, each binary in dbbin/ and its JSON twin when there
    is one (refused/ holds the two it does not play)."""
    out = []
    folders = [(d, os.path.join(WILD, d)) for d in sorted(os.listdir(WILD))
               if d not in ("dbbin", "refused") and os.path.isdir(os.path.join(WILD, d))]
    folders += [("dbbin/" + d, os.path.join(WILD, "dbbin", d)) for d in sorted(os.listdir(os.path.join(WILD, "dbbin")))]
    for label, path in folders:
        skeletons, atlases = [], []
        for f in sorted(os.listdir(path)):
            p = os.path.join(path, f)
            if f.endswith(".dbbin"):
                skeletons.append(p)
            elif f.endswith(".json"):
                with open(p, encoding="utf-8") as fh:
                    doc = json.load(fh)
                (skeletons if "armature" in doc else atlases).append(p)
        atlas = atlases[0] if atlases else None  # the first page (both players take one)
        for s in skeletons:
            out.append((label if len(skeletons) == 1 else f"{label}/{os.path.basename(s)}", s, atlas))
    return out


def wild_cache():
    """Where cli.wild keeps the official dumps of the corpus ($SINEW_WILD_CACHE, else $BUILD/wild-oracle;
    the ASan pass points it at the plain pass's)."""
    return os.environ.get("SINEW_WILD_CACHE") or os.path.join(BUILD, "wild-oracle")


def _digest(*paths, extra=""):
    import hashlib
    h = hashlib.sha256(extra.encode())
    for p in paths:
        h.update(b"\0")
        if p:
            with open(p, "rb") as f:
                h.update(f.read())
    return h.hexdigest()[:24]


def wild_official(odir, ske, atlas):
    """The official runtime's dump of every armature and animation of a corpus file at its own rate
    (--precision 9), cached in wild_cache() by the files' bytes, the options and the oracle's package
    lock -> (path or None, stderr)."""
    cache = wild_cache()
    os.makedirs(cache, exist_ok=True)
    args = ["--armature", "all", "--animation", "all", "--precision", "9"]
    if atlas:
        args += ["--atlas", atlas]
    key = _digest(ske, atlas, os.path.join(odir, "package-lock.json"), os.path.join(odir, "oracle.mjs"),
                  extra=" ".join(a for a in args if a not in (ske, atlas)))
    out = os.path.join(cache, key + ".json")
    if os.path.exists(out):
        return out, ""
    tmp = out + ".tmp%d" % os.getpid()
    r = subprocess.run(["node", os.path.join(odir, "oracle.mjs"), ske, *args, "--out", tmp],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr[-800:]
    os.replace(tmp, out)
    return out, r.stderr


def posediff(expected, actual, *args, quiet=True):
    """$SHARED/tools/posediff.py EXPECTED ACTUAL ARGS... -> (ok, its output)."""
    cmd = [sys.executable, os.path.join(SHARED, "tools", "posediff.py"), expected, actual]
    r = subprocess.run(cmd + (["--quiet"] if quiet else []) + list(args), capture_output=True, text=True)
    return r.returncode == 0, (r.stdout + r.stderr).strip()


def posecmp(expected, actual, **opts):
    """tests/lib/posecmp.py on two dump files (or already loaded dicts) -> (ok, a few lines saying
    what differs, or the summary when nothing does). opts: pos, axis, color, events, mesh."""
    import posecmp as pc
    try:
        e = expected if isinstance(expected, dict) else pc.load(expected)
        a = actual if isinstance(actual, dict) else pc.load(actual)
    except (OSError, ValueError) as err:
        return False, f"cannot read a dump: {err}"
    rep = pc.compare(e, a, **opts)
    lines = rep.lines()
    return rep.ok, "\n".join(lines[:12] + [rep.summary()])


def sinew_poses(ske, out, *args):
    """`sinew poses SKE --armature all --precision 9 --out OUT ARGS...` -> (ok, stderr)."""
    r = run_sinew("poses", ske, "--armature", "all", "--precision", "9", "--out", out, *args)
    return r.returncode == 0, r.stderr.strip()
