"""Shared by the browser tests in tests/web/ (browser.py, phaser.py): the page server, the test
characters, `sinew render`'s reference frames, PSNR, and the Chromium driver (browser_driver.mjs).

- serve(web, out): a local HTTP server; / is the web build, /src/ the repository, /shared/ the
  shared characters, /out/ the test's own output folder (files it writes, such as a DBBin).
- characters(out): the characters every browser test draws, as (name, skeleton, atlas, armature,
  animation, another animation, frame K): the demo, Pip 5.5 (rotated regions), Pip 5.5 as a DBBin
  (converted by the native build into out/dbbin) and the Pip XML rig; with ../shared the 8 shared
  characters that have an atlas (their second animation with 2+ frames, K = min(5, frames - 1)).
  Without ../shared it reports the shared part skipped.
- render_ref(...): `sinew render --frame K --size WxH --background C` of one of them.
- run_driver(chromium, jobs, out): tests/web/browser_driver.mjs on the jobs; the results by name.
- need(...): the test's prerequisites; tsc(folder, source): TypeScript's verdict on a file.
"""
import functools
import http.server
import json
import math
import os
import shutil
import subprocess
import threading

from testkit import CORPUS, SHARED, SRC, check, corpus_path, finish, have_shared, run_sinew, skip

WASM = os.environ.get("WASM_BUILD") or os.path.join(SRC, "build-wasm")
WEB = os.environ.get("WEB_BUILD") or os.path.join(SRC, "build-web")
NODE_MODULES = os.path.join(WASM, "npm", "node_modules")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHARED_DB = os.path.join(SHARED, "data", "dragonbones")


def need(*items):
    """Ends the test (failed) unless every (what, path) exists, puppeteer-core and Chromium too."""
    for what, path in items + (("puppeteer-core (make web installs it)", os.path.join(NODE_MODULES, "puppeteer-core")),
                               ("Chromium (apt-get install chromium)", CHROMIUM)):
        if not check(os.path.exists(path), f"{what} not found at {path}"):
            finish()


def tsc(folder, source, name="example.mts"):
    """`tsc --noEmit` (TypeScript from build-wasm/npm, strict, nodenext) on one file written into
    folder, run from folder's parent (a project with node_modules); (exit status, error lines)."""
    os.makedirs(folder)
    with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
        f.write(source)
    config = {"compilerOptions": {"target": "es2022", "module": "nodenext", "moduleResolution": "nodenext", "strict": True,
                                  "noEmit": True, "lib": ["es2022", "dom"], "skipLibCheck": False, "types": []}, "include": [name]}
    with open(os.path.join(folder, "tsconfig.json"), "w", encoding="utf-8") as f:
        json.dump(config, f)
    r = subprocess.run(["node", os.path.join(NODE_MODULES, "typescript", "bin", "tsc"), "-p", folder], cwd=os.path.dirname(folder),
                       capture_output=True, text=True, timeout=600)
    return r.returncode, [line for line in (r.stdout + r.stderr).splitlines() if ": error TS" in line]


def serve(web, out):
    """Starts the server in a thread; returns (server, base URL)."""
    roots = (("/src/", SRC), ("/shared/", SHARED_DB), ("/out/", out))

    class Handler(http.server.SimpleHTTPRequestHandler):
        def translate_path(self, path):
            path = path.split("?", 1)[0].split("#", 1)[0]
            for prefix, root in roots:
                if path.startswith(prefix):
                    return os.path.join(root, *[p for p in path[len(prefix):].split("/") if p not in ("", ".", "..")])
            return super().translate_path(path)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=web))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def rel_url(path, out=None):
    """The server's URL of a file in the repository, ../shared or the output folder."""
    path = os.path.abspath(path)
    if out and path.startswith(os.path.abspath(out) + os.sep):
        return "/out/" + os.path.relpath(path, out)
    if have_shared() and path.startswith(os.path.abspath(SHARED_DB) + os.sep):
        return "/shared/" + os.path.relpath(path, SHARED_DB)
    return "/src/" + os.path.relpath(path, SRC)


def psnr(a, b):
    """PSNR (dB) of two opaque images' RGB."""
    (wa, ha, pa), (wb, hb, pb) = a, b
    if (wa, ha) != (wb, hb):
        return -1.0
    se = 0
    for i in range(0, len(pa), 4):
        for k in range(3):
            d = pa[i + k] - pb[i + k]
            se += d * d
    mse = se / (wa * ha * 3)
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)


def render_ref(out, name, ske, atlas, armature, animation, frame, size, background):
    """`sinew render` of frame K into out/NAME.render.png; its path, or None (a failed check)."""
    path = os.path.join(out, name + ".render.png")
    args = [ske] + (["--atlas", atlas] if atlas else []) + (["--armature", armature] if armature else [])
    r = run_sinew("render", *args, "--animation", animation, "--frame", str(frame), "--size", f"{size[0]}x{size[1]}",
                  "--background", "#" + background, "--out", path)
    return path if check(r.returncode == 0, f"{name}: sinew render failed: {r.stderr.strip()[:300]}") else None


def with_references(out, chars, only, size, background, refs):
    """The characters (those named in `only`, when it names any) whose `sinew render` frame was made;
    refs[name] is its path."""
    for c in chars:
        if only and c[0] not in only:
            continue
        ref = render_ref(out, c[0], *c[1:5], c[6], size, background)
        if ref:
            refs[c[0]] = ref
            yield c


def characters(out):
    own = os.path.join(SRC, "tests", "fixtures", "own")
    demo = os.path.join(SRC, "examples", "demo")
    chars = [("demo", os.path.join(demo, "demo_ske.json"), os.path.join(demo, "demo_tex.json"), "Bolt", "walk", "wave", 7),
             ("Pip_5.5", os.path.join(own, "Pip_5.5", "pip_ske.json"), os.path.join(own, "Pip_5.5", "pip_tex.json"),
              "pip", "hop", "idle", 4)]
    # Pip 5.5 as DBBin, converted by the native build
    dbbin = os.path.join(out, "dbbin", "pip_ske.dbbin")
    shutil.rmtree(os.path.dirname(dbbin), ignore_errors=True)
    r = run_sinew("convert", chars[1][1], "--to", "dbbin", "--out", os.path.dirname(dbbin), "--name", "pip")
    if check(r.returncode == 0, f"sinew convert --to dbbin: {r.stderr.strip()[:300]}"):
        chars.append(("Pip_5.5_dbbin", dbbin, chars[1][2], "pip", "hop", "idle", 6))
    # the Pip XML rig (its dusk skin's images are in a subfolder of their own)
    chars.append(("Pip_xml", os.path.join(own, "Pip_xml", "pip.xml"), None, "pip", "hop", "flap", 5))
    if not have_shared():
        skip(8, "shared characters in the browser (against sinew render)")
        return chars
    for name in sorted(CORPUS):
        ske, atlas = corpus_path(name, 0), corpus_path(name, 1)
        if not atlas:
            continue  # Robot has no atlas: nothing to draw
        r = run_sinew("info", ske, "--atlas", atlas, "--json")
        if not check(r.returncode == 0, f"{name}: sinew info: {r.stderr.strip()[:200]}"):
            continue
        arm = json.loads(r.stdout)["armatures"][0]
        anims = [a for a in arm["animations"] if a["frames"] >= 2]
        if not anims:
            continue
        a = anims[1] if len(anims) > 1 else anims[0]
        k = min(5, max(0, int(round(a["duration"] * arm["frameRate"])) - 1))
        chars.append((name, ske, atlas, arm["name"], a["name"], anims[0]["name"], k))
    return chars


def run_driver(jobs, out, timeout=1500):
    """Runs the jobs in headless Chromium; the results by job name, or None (a failed check)."""
    jobs_file, results_file = os.path.join(out, "jobs.json"), os.path.join(out, "results.json")
    with open(jobs_file, "w", encoding="utf-8") as f:
        json.dump({"chromium": CHROMIUM, "jobs": jobs}, f, indent=1)
    env = dict(os.environ, NODE_PATH=NODE_MODULES)
    r = subprocess.run(["node", os.path.join(SRC, "tests", "web", "browser_driver.mjs"), jobs_file, results_file],
                       capture_output=True, text=True, env=env, timeout=timeout)
    if not check(r.returncode == 0 and os.path.exists(results_file), f"the browser driver failed ({r.returncode}): {r.stderr.strip()[-800:]}"):
        return None
    with open(results_file, encoding="utf-8") as f:
        return {x["name"]: x for x in json.load(f)}
