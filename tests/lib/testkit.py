"""Shared by the script tests in tests/cli/ (this folder is not globbed as tests).

- the environment every test gets (SINEW, SRC, SHARED, BUILD), with fall-backs for running a
  script by hand from tests/;
- a tally of checks: check(cond, what) counts and prints `FAIL: what`, finish() prints the closing
  `N passed, N failed` line and exits non-zero when anything failed;
- run_sinew(...): the CLI with its output captured;
- read_png(path): a stdlib-only decoder for the 8-bit PNGs sinew and the demo generator write;
- the official DragonBones runtime (the oracle): set up once in $BUILD/oracle (a copy of
  $SHARED/tools/oracle plus `npm ci`), run on a skeleton, and posediff.

Use from a script in tests/cli/:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    from testkit import check, finish  # noqa: E402
"""
import fcntl
import os
import shutil
import struct
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SINEW = os.environ.get("SINEW", "sinew")
SRC = os.environ.get("SRC", os.path.normpath(os.path.join(HERE, "..", "..")))
SHARED = os.environ.get("SHARED", os.path.join(SRC, "..", "shared"))
BUILD = os.environ.get("BUILD", "/tmp")


# ---- the tally -------------------------------------------------------------------------------

class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, cond, what):
        """Counts one check; prints `FAIL: what` when cond is false. Returns cond."""
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL:", what, flush=True)
        return cond

    def summary(self):
        """Prints the closing line; returns the exit code (1 when anything failed)."""
        print(f"{self.passed} passed, {self.failed} failed", flush=True)
        return 1 if self.failed else 0

    def finish(self):
        sys.exit(self.summary())


# one tally per test process
tally = Tally()
check = tally.check
summary = tally.summary
finish = tally.finish


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


# ---- the oracle (official DragonBones runtime) and posediff --------------------------------------

def oracle_dir():
    """Returns the oracle folder ($BUILD/oracle), ready to run; raises RuntimeError saying how to
    fix it. Several tests may ask at once (ctest -j): the set-up runs under a lock."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        raise RuntimeError("node and npm are needed to run the official DragonBones runtime: "
                           "install them with `apt-get install nodejs npm` (or `make deps`)")
    dst = os.path.join(BUILD, "oracle")
    src = os.path.join(SHARED, "tools", "oracle")
    os.makedirs(dst, exist_ok=True)
    with open(os.path.join(dst, ".setup.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for name in ("oracle.mjs", "package.json", "package-lock.json"):
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


def need_oracle():
    """oracle_dir(), or (when it cannot be set up) one failed check and the closing line."""
    try:
        return oracle_dir()
    except RuntimeError as e:
        check(False, str(e))
        finish()


def run_oracle(odir, ske, out, *args):
    """node oracle.mjs SKE --out OUT ARGS... -> (ok, stderr)."""
    r = subprocess.run(["node", os.path.join(odir, "oracle.mjs"), ske, "--out", out, *args],
                       capture_output=True, text=True)
    return r.returncode == 0, r.stderr


def posediff(expected, actual, *args, quiet=True):
    """$SHARED/tools/posediff.py EXPECTED ACTUAL ARGS... -> (ok, its output)."""
    cmd = [sys.executable, os.path.join(SHARED, "tools", "posediff.py"), expected, actual]
    r = subprocess.run(cmd + (["--quiet"] if quiet else []) + list(args), capture_output=True, text=True)
    return r.returncode == 0, (r.stdout + r.stderr).strip()
