#!/usr/bin/env python3
"""The web player and the PixiJS renderer in a real browser: Debian's Chromium, headless, driven by
puppeteer-core (tests/web/browser_driver.mjs), against `sinew render` of the same frame.

- The player (build-web/index.html) loads each character through its file input (skeleton, atlas,
  page images; a .dbbin; an XML rig with its images), switches animation, scrubs to frame K at
  fit zoom, and a screenshot of its canvas must match `sinew render --frame K --size WxH
  --background C` with PSNR >= 30 dB. Without ../shared: the demo, Pip 5.5 (rotated regions),
  Pip 5.5 as .dbbin, the Pip XML rig and the own 6.0 rigs (tests/fixtures/render6: vector shapes,
  masks); with it, the 8 shared characters that have an atlas too.
- The page opened from its URL (?ske=&tex=&animation=&frame=&size=&background=) shows that frame
  framed as the render, and sets data-ready; a bad URL sets data-error.
- The PixiJS example (examples/pixi-crossfade.html, sinew/pixi) draws the same frame, same check;
  the crowd example runs.
- The player's other controls (play, speed, cross-fade, bones, bounding boxes) do what they say; a
  broken skeleton shows the error the command line prints (file:line:col).
Any page error, console error, failed request or HTTP error fails the job it happened in.
Env: WASM_BUILD, WEB_BUILD (defaults SRC/build-wasm, SRC/build-web) besides testkit's.
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import BUILD, SRC, check, finish, read_png, run_sinew  # noqa: E402
from webpage import WEB, characters, need, psnr, rel_url, run_driver, serve, with_references  # noqa: E402

OUT = os.path.join(BUILD, "web-browser")
W, H, BG = 400, 300, "203040"
only = sys.argv[1:]  # character names: run only those (and the jobs that are not per character)
MIN_PSNR = 44.0  # the issue asks for 30 dB; measured 47.8 to 71 dB (docs/web.md)
# the own 6.0 rigs, floors within 3 dB of their worst job when set: vector shapes have only the
# canvas's multisampling for their edges (42.5 dB), masks are bare-edged render targets in WebGL
# (44.5 dB; the Pixi renderer's image masks in its shader 49.9)
RIG_PSNR = {"shapes6": 40.0, "masks6": 42.0}


def character_files(ske, atlas):
    """The files a user drops for a rig: the skeleton, the atlas and its page images (or, for an XML
    rig, the images it names)."""
    files = [ske]
    if atlas:
        files.append(atlas)
        with open(atlas, encoding="utf-8") as f:
            tex = json.load(f)
        pages = [p["imagePath"] for p in tex["pages"]] if "pages" in tex else [tex["imagePath"]]
        files += [os.path.join(os.path.dirname(atlas), p) for p in pages]
    return files


def main():
    need(("build-web/index.html (make web)", os.path.join(WEB, "index.html")))
    os.makedirs(OUT, exist_ok=True)
    server, base = serve(WEB, OUT)
    chars = characters(OUT)
    # the own 6.0 rigs: vector shapes (untextured triangles) and masks
    r6 = os.path.join(SRC, "tests", "fixtures", "render6")
    for stem, arm, anim, other in (("shapes6", "shapes", "wave", "bend"), ("masks6", "masks", "move", "zorder")):
        chars.append((stem, os.path.join(r6, stem + "_ske.json"), os.path.join(r6, "render6_tex.json"), arm, anim,
                      other, 6))

    jobs, refs = [], {}
    for name, ske, atlas, arm, anim, other, k in with_references(OUT, chars, only, (W, H), BG, refs):
        if ske.endswith(".xml"):
            files, folder = [], os.path.dirname(ske)
        else:
            # copies: Chromium will not read a file whose folder it may not write (../shared is read-only)
            files, folder = [], None
            for src in character_files(ske, atlas):
                fname = os.path.basename(src)
                if src == atlas and ske.endswith("_ske.json"):  # the name the player looks for beside it
                    fname = os.path.basename(ske)[:-len("_ske.json")] + "_tex.json"
                dst = os.path.join(OUT, "upload", name, fname)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copyfile(src, dst)
                files.append(dst)
        jobs.append({"name": "player:" + name, "kind": "player-files", "url": f"{base}/index.html?demo=0&size={W}x{H}&background={BG}",
                     "files": files, "folder": folder, "armature": arm, "animation": anim, "switchFrom": other, "frame": k,
                     "out": os.path.join(OUT, name + ".player.png"), "interact": name == "demo", "fadeTo": other,
                     "overlays": ["bones"] if name == "demo" else []})
        if ske.endswith(".json"):  # the URL mode (the page finds X_tex.json itself when tex is left out)
            q = f"ske={rel_url(ske)}&tex={rel_url(atlas)}&armature={arm}&animation={anim}&frame={k}&size={W}x{H}&background={BG}"
            jobs.append({"name": "url:" + name, "kind": "url", "url": f"{base}/index.html?{q}", "canvas": "sinew-player >>> canvas.gl",
                         "out": os.path.join(OUT, name + ".url.png")})
            jobs.append({"name": "pixi:" + name, "kind": "url", "url": f"{base}/examples/pixi-crossfade.html?{q}", "canvas": "canvas",
                         "out": os.path.join(OUT, name + ".pixi.png")})
    jobs.append({"name": "pixi-crowd", "kind": "url", "url": f"{base}/examples/pixi-crowd.html?n=50", "canvas": "canvas",
                 "out": os.path.join(OUT, "crowd.png"), "run": 4000})
    jobs.append({"name": "url:missing", "kind": "url", "url": f"{base}/index.html?ske=/src/no/such_ske.json&size={W}x{H}",
                 "canvas": "canvas", "out": os.path.join(OUT, "missing.png"), "expect_http_error": True})
    # bounding boxes: a rig of one boundingBox slot (nothing in the repository or ../shared has one)
    boxes = os.path.join(OUT, "boxes_ske.json")
    with open(boxes, "w", encoding="utf-8") as f:
        json.dump({"frameRate": 24, "name": "boxes", "version": "5.5", "compatibleVersion": "5.5", "armature": [{
            "type": "Armature", "frameRate": 24, "name": "boxes", "bone": [{"name": "root"}],
            "slot": [{"name": "hit", "parent": "root"}],
            "skin": [{"slot": [{"name": "hit", "display": [{"type": "boundingBox", "name": "hit", "subType": "polygon",
                                                              "vertices": [-60, -40, 60, -40, 60, 40, -60, 40]}]}]}],
            "animation": [{"duration": 10, "name": "spin", "bone": [{"name": "root", "rotateFrame": [
                {"duration": 10, "tweenEasing": 0, "rotate": 0}, {"duration": 0, "rotate": 90}]}]}]}]}, f)
    jobs.append({"name": "player:boxes", "kind": "player-files", "url": f"{base}/index.html?demo=0&size={W}x{H}",
                 "files": [boxes], "animation": "spin", "frame": 3, "overlays": ["boxes"]})
    # a broken skeleton dropped on the player: the error reads as the command line prints it
    bad = os.path.join(OUT, "broken_ske.json")
    with open(bad, "w", encoding="utf-8") as f:
        f.write('{"frameRate": 24, "name": "broken", "version": "5.5",\n "armature": [{"name": "a", "bone": [{"name": "root"},\n'
                '  {"name": "arm", "parent": "nobody"}]}]}\n')
    jobs.append({"name": "player:error", "kind": "player-error", "url": f"{base}/index.html?demo=0", "files": [bad]})

    results = run_driver(jobs, OUT)
    if results is None:
        finish()
    server.shutdown()

    for job in jobs:
        res = results.get(job["name"])
        if not check(res is not None, f"{job['name']}: no result"):
            continue
        problems = res["problems"]
        if job.get("expect_http_error"):  # the missing skeleton: a 404 and the error flag, nothing else
            problems = [p for p in problems if not (p.startswith("HTTP 404") and "such_ske.json" in p)
                        and not (p.startswith("console error") and "404" in p)]
            check(bool(res["texts"].get("error")) and "HTTP 404" in res["texts"]["error"],
                  f"{job['name']}: data-error names the failed fetch: {res['texts'].get('error')!r}")
        check(not problems, f"{job['name']}: " + "; ".join(problems[:5]))
        for box in job.get("overlays", []):
            before, after = res["texts"].get(box, [None, None])
            check(before == 0 and (after or 0) > 100, f"{job['name']}: the {box} overlay draws ({before} -> {after} pixels)")
        if job["kind"] == "player-error":
            native = run_sinew("info", bad)
            line = native.stderr.strip().splitlines()[0] if native.stderr.strip() else ""
            shown = (res["texts"].get("error") or "").strip()
            check(bool(line) and shown == line.replace(bad, "broken_ske.json"),
                  f"player:error: the player shows {shown!r}, the command line {line!r}")
            continue
        name = job["name"].split(":", 1)[-1]
        if job["name"] == "pixi-crowd":
            check(os.path.exists(job["out"]) and "fps" in res["texts"].get("stats", ""),
                  f"pixi-crowd: the crowd ran ({res['texts'].get('stats')!r})")
            continue
        if name not in refs or "out" not in job or (problems and not os.path.exists(job["out"])):
            continue
        if not check(os.path.exists(job["out"]), f"{job['name']}: no screenshot"):
            continue
        p, floor = psnr(read_png(job["out"]), read_png(refs[name])), RIG_PSNR.get(name, MIN_PSNR)
        print(f"{'ok  ' if p >= floor else 'FAIL'} {job['name']}: PSNR {p:.1f} dB against sinew render --frame {job.get('frame', '')}",
              flush=True)
        check(p >= floor, f"{job['name']}: the browser's frame differs from sinew render's: PSNR {p:.1f} dB < {floor}")
        if job.get("interact"):
            t = res["texts"].get("interact", {})
            check(t.get("playing") and t.get("framesMoved"), f"player: Play plays ({t})")
            check(t.get("timeScale") == 0.5, f"player: the speed slider sets the time scale ({t.get('timeScale')})")
            states = t.get("states") or []
            check(any(s[0] == job["fadeTo"] and s[1] for s in states) and any(s[2] for s in states),
                  f"player: Fade cross-fades to {job['fadeTo']} ({states})")
            check(t.get("paused"), "player: Pause pauses")
    finish()


main()
