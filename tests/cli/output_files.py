#!/usr/bin/env python3
"""The files `sinew render` writes, as the file system sees them (docs/architecture.md "Files"):

- modes: a new output gets what open(2) gives with 0666 under the caller's umask (077 -> 0600,
  022 -> 0644); an output that is replaced keeps its permission bits (0600 stays 0600).
Env: SINEW, SRC, BUILD.
"""
import os
import shutil
import signal
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import BUILD, SINEW, SRC, check, finish  # noqa: E402

PIP = os.path.join(SRC, "tests", "fixtures", "own", "Pip_5.5", "pip_ske.json")
OUT = os.path.join(BUILD, "output-files")
shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(OUT)
SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def child_setup(mask):
    """In the child before exec: the umask, and the three signals at their default action (a test
    run under nohup or from a shell that ignores SIGINT would otherwise pass that on)."""
    def setup():
        os.umask(mask)
        for s in SIGNALS:
            signal.signal(s, signal.SIG_DFL)
    return setup


def render(args, mask=0o022):
    return subprocess.run([SINEW, "render", PIP, *args, "--quiet"], capture_output=True, text=True,
                          preexec_fn=child_setup(mask))


def mode(path):
    return os.stat(path).st_mode & 0o7777


# ---- modes ---------------------------------------------------------------------------------------

for mask, want in ((0o077, 0o600), (0o022, 0o644)):
    p = os.path.join(OUT, "new_%03o.png" % mask)
    r = render(["--out", p], mask)
    check(r.returncode == 0 and mode(p) == want,
          f"a new PNG under umask {mask:03o}: mode {mode(p) if os.path.exists(p) else None:o}, want {want:o} "
          f"({r.stderr.strip()})")
# the case: (umask 077; touch secret.png; chmod 600 secret.png; sinew render ... --out secret.png)
secret = os.path.join(OUT, "secret.png")
open(secret, "wb").close()
os.chmod(secret, 0o600)
for mask in (0o077, 0o022, 0o000):
    r = render(["--out", secret], mask)
    check(r.returncode == 0 and os.path.getsize(secret) > 0 and mode(secret) == 0o600,
          f"a 0600 PNG replaced under umask {mask:03o}: mode {mode(secret):o} ({r.stderr.strip()})")
seq = os.path.join(OUT, "modes")
os.makedirs(seq)
open(os.path.join(seq, "m_00.png"), "wb").close()
os.chmod(os.path.join(seq, "m_00.png"), 0o640)
r = render(["--fps", "3", "--out", os.path.join(seq, "m_%02d.png")], 0o077)
modes = {n: "%o" % mode(os.path.join(seq, n)) for n in sorted(os.listdir(seq))}
check(r.returncode == 0 and modes.get("m_00.png") == "640" and modes.get("m_01.png") == "600",
      f"a sequence under umask 077 over one 0640 frame: {modes}")

finish()
