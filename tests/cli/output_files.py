#!/usr/bin/env python3
"""The files `sinew render` writes, as the file system sees them (docs/architecture.md "Files"):

- modes: a new output gets what open(2) gives with 0666 under the caller's umask (077 -> 0600,
  022 -> 0644); an output that is replaced keeps its permission bits (0600 stays 0600);
- interruptions: SIGTERM, SIGINT or SIGHUP while a long PNG sequence is being written (once its
  first temporary file is there), while a GIF is being encoded or while ffmpeg (a stand-in that
  writes its output by name once its input ends) makes an MP4 ends
  sinew by that signal (the exit status says so) and leaves no temporary file
  (`.NAME.tmp-XXXXXX`), and the previous sequence in that folder byte-identical.
Env: SINEW, SRC, BUILD.
"""
import os
import shutil
import signal
import subprocess
import sys
import time

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


# ---- interruptions -------------------------------------------------------------------------------

def temps(folder):
    return [n for n in os.listdir(folder) if ".tmp-" in n]


def contents(folder):
    return {n: open(os.path.join(folder, n), "rb").read() for n in sorted(os.listdir(folder))}


def interrupt(sig, out, folder, extra, delay=0.0, env=None):
    """Starts a long render into `out`, sends `sig` `delay` seconds after a temporary file is in
    `folder`; returns (exit status, whether a temporary file was seen, stderr)."""
    p = subprocess.Popen([SINEW, "render", PIP, *extra, "--out", out, "--quiet"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, preexec_fn=child_setup(0o022), env=env)
    seen = False
    deadline = time.monotonic() + 120
    while p.poll() is None and time.monotonic() < deadline:
        if temps(folder):
            seen = True
            time.sleep(delay)
            break
        time.sleep(0.005)
    if p.poll() is None:
        p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
    return p.returncode, seen, err


for sig in SIGNALS:
    folder = os.path.join(OUT, "seq_" + sig.name)
    os.makedirs(folder)
    pattern = os.path.join(folder, "f_%05d.png")
    r = render(["--fps", "4", "--out", pattern])
    old = contents(folder)
    check(r.returncode == 0 and len(old) == 4, f"{sig.name}: the first sequence ({len(old)} files, {r.stderr.strip()})")
    # 1000 frames a second for 200 plays of the 1 s animation: far longer than the wait
    rc, seen, err = interrupt(sig, pattern, folder, ["--fps", "1000", "--loops", "200"])
    check(seen, f"{sig.name}: a temporary frame file appeared while the sequence was written")
    check(rc == -sig, f"{sig.name}: sinew ended by the signal (exit status {rc}, want {-sig}; {err.strip()})")
    left = temps(folder)
    check(not left, f"{sig.name}: no temporary file left ({len(left)} left, e.g. {left[:2]})")
    check(contents(folder) == old, f"{sig.name}: the previous sequence is byte-identical "
          f"({len(os.listdir(folder))} files, {len(old)} before)")

# a GIF: its one temporary file exists while the frames are encoded
gif = os.path.join(OUT, "long.gif")
rc, seen, err = interrupt(signal.SIGTERM, gif, OUT, ["--fps", "200", "--loops", "40", "--scale", "0.5"])
check(seen and rc == -signal.SIGTERM and not temps(OUT) and not os.path.exists(gif),
      f"SIGTERM while a GIF is encoded: temporary seen {seen}, exit status {rc}, left {temps(OUT)} ({err.strip()})")

# MP4: ffmpeg writes the temporary file by name, so it could make the file again after sinew
# removed it. A stand-in `ffmpeg` first on PATH does just that (it reads the frames until its
# input ends, then writes its output by name): SIGTERM must stop it before it writes.
bindir = os.path.join(OUT, "bin")
os.makedirs(bindir)
with open(os.path.join(bindir, "ffmpeg"), "w") as f:
    f.write('#!/bin/sh\nfor a; do out=$a; done\ncat >/dev/null\nprintf late >"$out"\n')
os.chmod(os.path.join(bindir, "ffmpeg"), 0o755)
mp4 = os.path.join(OUT, "long.mp4")
env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
rc, seen, err = interrupt(signal.SIGTERM, mp4, OUT, ["--fps", "100", "--loops", "20"], delay=0.3, env=env)
time.sleep(0.5)
check(seen and rc == -signal.SIGTERM and not temps(OUT) and not os.path.exists(mp4),
      f"SIGTERM while ffmpeg writes an MP4: temporary seen {seen}, exit status {rc}, left {temps(OUT)} "
      f"({err.strip()})")

finish()
