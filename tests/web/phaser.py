#!/usr/bin/env python3
"""sinew/phaser in Phaser 4 (npm phaser 4.2) and Phaser 3 (3.90) in headless Chromium (the driver
of web.browser), against `sinew render` of the same frame.

- Both example scenes (examples/phaser4-crowd.html, examples/phaser3-scene.html) load each test
  character through the plugin's loader file type (JSON, DBBin, XML rig; webpage.characters) and
  draw frame K as `sinew render --frame K --size WxH --background C` draws it: PSNR >= 44 dB.
- Many atlas pages in one batch: the Pip XML rig (9 images, 9 pages) drawn first, off the canvas,
  leaves the demo's frame as it was (>= 44 dB), both in one draw call (where the renderer has the
  10 texture units).
- The game object's properties (the demo): a centred origin placed back, a scrolled camera with
  scroll factor 0 and a container give the same frame (>= 44 dB); alpha 0.5, a tint and blend
  mode ADD give what `sinew render` draws of a copy of the demo whose every slot has that alpha
  multiplier, those colour multipliers or that blend mode (>= 44 dB); an invisible armature draws
  nothing; getBounds() after updateSize() holds every drawn pixel, each side within 8 px; a texture
  of the game's in a slot (setSlotTexture) is drawn; a black twin added after the armature with
  depth -1 draws as one added before it (>= 50 dB), unlike one added after it (< 30 dB).
- The animation API through the game object: time scale 2 advances twice as far in the plugin's
  update, fadeIn on another layer and group keeps layer 0, setBoneOffset turns a bone by what it
  says, boneFollow puts a bone on a world point of a scaled and rotated object, replaceDisplay
  shows the display, this.make.sinew makes an object without adding it.
- Batching: the WebGL draw calls of a frame (every drawElements / drawArrays of the page) are the
  same for 100 armatures as for 1 (all share the page and the blend mode); with every other one
  in blend mode ADD they are at least 100 (the count does see draw calls); 1,000 armatures take
  at most the draw calls of 1 plus one per 21,845 triangles (Phaser 4) / 32,768 (Phaser 3).
- Input and events: a click on the character cross-fades it (Phaser's input with sinew's hit
  test), a click beside it does not; the fade's fadeInComplete event arrives as a Phaser event.
- The Canvas renderer says once that it cannot draw armatures, and nothing else goes wrong.
- A broken skeleton: the page shows the command line's error (file:line:col).
Any page error, console error, failed request or HTTP error fails the job it happened in.
Env: WASM_BUILD, WEB_BUILD besides testkit's.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import BUILD, SRC, check, finish, read_png, run_sinew  # noqa: E402
from webpage import WEB, characters, need, psnr, rel_url, render_ref, run_driver, serve, with_references  # noqa: E402

OUT = os.path.join(BUILD, "web-phaser")
W, H, BG = 400, 300, "203040"
MIN_PSNR = 44.0
PAGES = {"phaser4": "examples/phaser4-crowd.html", "phaser3": "examples/phaser3-scene.html"}
TRIANGLES_PER_CALL = {"phaser4": 21845, "phaser3": 32768}
TINT = "66ccff"
only = sys.argv[1:]  # character names: run only those (and the jobs that are not per character)


def still_query(ske, atlas, arm, anim, k):
    q = f"ske={rel_url(ske, OUT)}" + (f"&tex={rel_url(atlas, OUT)}" if atlas else "")
    return q + f"&armature={arm}&animation={anim}&frame={k}&size={W}x{H}&background={BG}"


# the animation API through the game object, in the running scene of the demo's still page
API = """(async () => {
  const scene = window.sinewGame.scene.scenes[0];
  const frames = (n) => new Promise((done) => { const step = (i) => (i ? requestAnimationFrame(() => step(i - 1)) : done()); step(n); });
  const a = scene.add.sinew(-500, -500, 'rig', { animation: 'walk' });
  const b = scene.add.sinew(-500, -500, 'rig', { animation: 'walk' }).setTimeScale(2);
  await frames(8);
  const times = [a.states()[0].currentTime, b.states()[0].currentTime];
  a.fadeIn('wave', { layer: 1, group: 'upper', fadeInTime: 0.05 });
  await frames(8);
  const layered = a.states().map((s) => [s.name, s.layer, s.group]);
  const c = scene.add.sinew(200, 150, 'rig', { animation: null }).setActive(false);
  const bone = (name) => c.instance.bones().find((x) => x.name === name).matrix;
  const angle = () => { const m = bone('head'); return Math.atan2(m[1], m[0]); };
  c.instance.update(0);
  const before = angle();
  c.setBoneOffset('head', { rotation: 0.5 });
  c.instance.update(0);
  const turn = angle() - before;
  c.setScale(1.5).setAngle(20).setPosition(180, 160);
  c.boneFollow('antenna', 230, 120);
  c.instance.update(0);
  const m = bone('antenna'), tip = c.armatureToWorld(m[4], m[5]);
  c.replaceDisplay('eyes', 'eyes_happy');
  c.instance.update(0);
  const eyes = c.instance.slots().find((x) => x.name === 'eyes').displayName;
  const made = scene.make.sinew({ key: 'rig', x: 3, y: 4, animation: 'wave', add: false });
  return { times, layered, turn, tip: [tip.x, tip.y], eyes,
    made: [made.x, made.y, made.states()[0].name, made.instance.armature.name, scene.children.exists(made)] };
})()"""


def api_check(job, got):
    name = job["name"]
    t = got.get("times") or [0, 0]
    check(t[0] > 0.05 and abs(t[1] - 2 * t[0]) < 1e-6, f"{name}: time scale 2 plays twice as fast through the plugin ({t})")
    check(["walk", 0, ""] in got.get("layered", []) and ["wave", 1, "upper"] in got.get("layered", []),
          f"{name}: fadeIn on layer 1, group upper keeps layer 0 playing ({got.get('layered')})")
    check(abs(got.get("turn", 0) - 0.5) < 1e-3, f"{name}: setBoneOffset turns the head by 0.5 rad ({got.get('turn')})")
    tip = got.get("tip") or [0, 0]
    check(abs(tip[0] - 230) < 0.05 and abs(tip[1] - 120) < 0.05, f"{name}: boneFollow puts the antenna at the world point (230, 120) ({tip})")
    check(got.get("eyes") == "eyes_happy", f"{name}: replaceDisplay shows eyes_happy ({got.get('eyes')})")
    check(got.get("made") == [3, 4, "wave", "Bolt", False], f"{name}: this.make.sinew (not added) ({got.get('made')})")


def variant_skeletons(demo_ske):
    """Copies of the demo whose every slot draws as the game object's alpha, tint or blend mode does."""
    with open(demo_ske, encoding="utf-8") as f:
        text = f.read()
    tint = [int(TINT[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    out = {}
    for variant in ("alpha", "tint", "blend"):
        d = json.loads(text)
        for slot in d["armature"][0]["slot"]:
            c = slot.setdefault("color", {})
            if variant == "alpha":
                c["aM"] = c.get("aM", 100) * 0.5
            elif variant == "tint":
                for key, t in zip(("rM", "gM", "bM"), tint):
                    c[key] = c.get(key, 100) * t
            else:
                slot["blendMode"] = "add"
        out[variant] = os.path.join(OUT, f"demo_{variant}_ske.json")
        with open(out[variant], "w", encoding="utf-8") as f:
            json.dump(d, f)
    return out


def bounds_check(job, res):
    """getBounds() after updateSize() against the box of the pixels that differ from the background."""
    w, h, p = read_png(job["out"])
    bg = [int(BG[i:i + 2], 16) for i in (0, 2, 4)]
    xs, ys = [], []
    for y in range(h):
        for x in range(w):
            if any(abs(p[4 * (y * w + x) + k] - bg[k]) > 8 for k in range(3)):
                xs.append(x)
                ys.append(y)
    b = res["texts"].get("evaluate") or {}
    if not check(xs and b, f"{job['name']}: pixels and getBounds() ({b})"):
        return
    got = [b["x"], b["y"], b["x"] + b["width"], b["y"] + b["height"]]
    want = [min(xs), min(ys), max(xs) + 1, max(ys) + 1]
    inside = got[0] <= want[0] + 1 and got[1] <= want[1] + 1 and got[2] >= want[2] - 1 and got[3] >= want[3] - 1
    check(inside and all(abs(g - v) <= 8 for g, v in zip(got, want)),
          f"{job['name']}: getBounds() {got} holds the drawn box {want}, each side within 8 px")


def demo_jobs(base, demo, refs):
    """The demo's frame through the game object's properties, in both Phaser versions."""
    jobs = []
    for variant, ske in variant_skeletons(demo[1]).items():
        refs[f"demo:{variant}"] = render_ref(OUT, f"demo_{variant}", ske, demo[2], *demo[3:5], demo[6], (W, H), BG)
    for v, page in PAGES.items():
        url = f"{base}/{page}?{still_query(*demo[1:5], demo[6])}"
        for variant, extra in (("origin", "origin=0.5"), ("scroll", "scroll=1"), ("container", "container=1")):
            jobs.append({"name": f"{v}:demo:{variant}", "kind": "url", "url": f"{url}&{extra}", "canvas": "canvas",
                         "out": os.path.join(OUT, f"demo.{v}.{variant}.png"), "ref": "demo"})
        for variant, extra in (("alpha", "alpha=0.5"), ("tint", f"tint={TINT}"), ("blend", "blend=add")):
            jobs.append({"name": f"{v}:demo:{variant}", "kind": "url", "url": f"{url}&{extra}", "canvas": "canvas",
                         "out": os.path.join(OUT, f"demo.{v}.{variant}.png"), "ref": f"demo:{variant}"})
        # another rig first in the same batch, the Pip XML rig (an atlas page an image): the demo's
        # triangles take a texture unit after its pages
        pip = os.path.join(SRC, "tests", "fixtures", "own", "Pip_xml", "pip.xml")
        jobs.append({"name": f"{v}:demo:decoy", "kind": "url", "url": f"{url}&decoy={rel_url(pip, OUT)}", "canvas": "canvas",
                     "out": os.path.join(OUT, f"demo.{v}.decoy.png"), "ref": "demo", "oneCall": True})
        jobs.append({"name": f"{v}:demo:hidden", "kind": "url", "url": f"{url}&visible=0", "canvas": "canvas",
                     "out": os.path.join(OUT, f"demo.{v}.hidden.png"), "hidden": True})
        for where in ("before", "depth", "over"):
            jobs.append({"name": f"{v}:demo:shadow:{where}", "kind": "url", "url": f"{url}&shadow={where}", "canvas": "canvas",
                         "out": os.path.join(OUT, f"demo.{v}.shadow.{where}.png")})
        jobs.append({"name": f"{v}:demo:slotTexture", "kind": "url", "url": f"{url}&slotTexture=torso", "canvas": "canvas",
                     "out": os.path.join(OUT, f"demo.{v}.slotTexture.png"), "magenta": True})
        jobs.append({"name": f"{v}:demo:api", "kind": "url", "url": url, "canvas": "canvas", "out": os.path.join(OUT, f"demo.{v}.api.png"),
                     "evaluate": API, "api": True})
        jobs.append({"name": f"{v}:demo:bounds", "kind": "url", "url": url, "canvas": "canvas", "out": os.path.join(OUT, f"demo.{v}.bounds.png"),
                     "bounds": True, "evaluate": "(() => { const h = window.sinewHero; h.updateSize(); "
                     "const b = h.getBounds(); return { x: b.x, y: b.y, width: b.width, height: b.height }; })()"})
    return jobs


def jobs_for(base, chars, refs):
    jobs = []
    for name, ske, atlas, arm, anim, other, k in with_references(OUT, chars, only, (W, H), BG, refs):
        for v, page in PAGES.items():
            jobs.append({"name": f"{v}:{name}", "kind": "url", "url": f"{base}/{page}?{still_query(ske, atlas, arm, anim, k)}",
                         "canvas": "canvas", "out": os.path.join(OUT, f"{name}.{v}.png"), "ref": name})
    if "demo" in refs:
        jobs += demo_jobs(base, chars[0], refs)
    for v, page in PAGES.items():
        # batching: 1, 100 and 1,000 armatures, and 100 that alternate blend modes
        for n, extra in ((1, ""), (100, ""), (1000, ""), (100, "&blend=alternate")):
            jobs.append({"name": f"{v}:crowd:{n}{extra.replace('&blend=', ':')}", "kind": "url", "canvas": "canvas",
                         "url": f"{base}/{page}?n={n}&size=960x600{extra}", "out": os.path.join(OUT, f"crowd.{v}.{n}{extra[7:]}.png"), "crowd": n})
        # a click on the character (one armature filling the canvas) cross-fades it; beside it, nothing
        states = "window.sinewGame.scene.scenes[0].children.list.filter((o) => o.instance)[0].states().map((s) => [s.name, s.fadingIn])"
        events = "[...document.querySelectorAll('#events li')].map((li) => li.textContent)"
        for what, at in (("hit", [W // 2, H // 2]), ("miss", [6, 6])):
            jobs.append({"name": f"{v}:click:{what}", "kind": "url", "canvas": "canvas", "url": f"{base}/{page}?n=1&size={W}x{H}",
                         "out": os.path.join(OUT, f"click.{v}.{what}.png"), "clicks": [at], "afterClicks": 1200,
                         "evaluate": f"({{ states: {states}, events: {events} }})", "click": what})
        jobs.append({"name": f"{v}:canvas", "kind": "url", "canvas": "canvas", "url": f"{base}/{page}?n=3&canvas=1",
                     "out": os.path.join(OUT, f"canvas.{v}.png"), "canvasRenderer": True})
        jobs.append({"name": f"{v}:broken", "kind": "url", "canvas": "canvas", "url": f"{base}/{page}?ske=/out/broken_ske.json&tex=/src/examples/demo/demo_tex.json",
                     "out": os.path.join(OUT, f"broken.{v}.png"), "broken": True})
    return jobs


def check_job(job, res, refs, crowd):
    problems = res["problems"]
    texts = res["texts"]
    if job.get("broken"):  # the loader's console.error of the same message is expected
        problems = [p for p in problems if not (p.startswith("console error") and "broken_ske.json" in p)]
    check(not problems, f"{job['name']}: " + "; ".join(problems[:5]))
    if job.get("broken"):
        native = run_sinew("info", os.path.join(OUT, "broken_ske.json"))
        line = native.stderr.strip().splitlines()[0].replace(os.path.join(OUT, ""), "") if native.stderr.strip() else ""
        check(bool(line) and (texts.get("error") or "").strip() == line,
              f"{job['name']}: the page shows {texts.get('error')!r}, the command line {line!r}")
        return
    if problems or not check(os.path.exists(job["out"]), f"{job['name']}: no screenshot ({texts.get('error')})"):
        return
    if job.get("ref"):
        if not check(refs.get(job["ref"]), f"{job['name']}: no reference"):
            return
        p = psnr(read_png(job["out"]), read_png(refs[job["ref"]]))
        print(f"{'ok  ' if p >= MIN_PSNR else 'FAIL'} {job['name']}: PSNR {p:.1f} dB against sinew render", flush=True)
        check(p >= MIN_PSNR, f"{job['name']}: the frame differs from sinew render's: PSNR {p:.1f} dB < {MIN_PSNR}")
    if job.get("oneCall"):  # Pip's 9 images and the demo's page: one draw call where 10 texture units are there
        d = texts.get("dataset", {})
        want = 1 if int(d.get("units", 0)) >= 10 else 2
        check(d.get("draws") is not None and 1 <= int(d["draws"]) <= want,
              f"{job['name']}: two rigs, 10 atlas pages, in {d.get('draws')} draw calls ({d.get('units')} texture units; want {want})")
    if job.get("hidden"):
        w, h, p = read_png(job["out"])
        bg = [int(BG[i:i + 2], 16) for i in (0, 2, 4)]
        drawn = sum(1 for i in range(w * h) if any(abs(p[4 * i + k] - bg[k]) > 2 for k in range(3)))
        check(drawn == 0, f"{job['name']}: an invisible armature draws nothing ({drawn} pixels)")
    if job.get("bounds"):
        bounds_check(job, res)
    if job.get("api"):
        api_check(job, texts.get("evaluate") or {})
    if job.get("magenta"):
        w, h, p = read_png(job["out"])
        n = sum(1 for i in range(w * h) if p[4 * i] > 230 and p[4 * i + 1] < 25 and p[4 * i + 2] > 230)
        check(n > 500, f"{job['name']}: setSlotTexture draws the game's magenta texture in the torso ({n} pixels)")
    if job.get("crowd"):
        d = texts.get("dataset", {})
        crowd[job["name"]] = (int(d.get("draws", -1)), int(float(d.get("triangles", -1))))
        print(f"     {job['name']}: {crowd[job['name']][0]} draw calls a frame, {crowd[job['name']][1]} triangles", flush=True)
    if job.get("click"):
        # the crowd's first armature plays its first animation (idle); a click fades in the next (walk)
        got = texts.get("evaluate") or {}
        names = [s[0] for s in got.get("states", [])]
        faded = any("fadeInComplete walk" in e for e in got.get("events", []))
        if job["click"] == "hit":
            check(names == ["walk"] and faded, f"{job['name']}: the click cross-faded the character to walk and its fadeInComplete "
                  f"event arrived ({got})")
        else:
            check(names == ["idle"] and not faded, f"{job['name']}: a click beside the character does nothing ({got})")
    if job.get("canvasRenderer"):
        said = [w for w in res["warnings"] if "Canvas renderer" in w]
        check(len(said) == 1 and texts.get("dataset", {}).get("ready") == "1",
              f"{job['name']}: the Canvas renderer is said unsupported once ({said}) and the page runs")


def check_depth(jobs):
    """A twin under the armature by depth is drawn as one added before it; one added after is over it."""
    shots = {j["name"]: j["out"] for j in jobs if os.path.exists(j["out"])}
    for v in PAGES:
        names = [f"{v}:demo:shadow:{w}" for w in ("before", "depth", "over")]
        if not check(all(n in shots for n in names), f"{v}: the depth pages ran"):
            continue
        before, depth, over = (read_png(shots[n]) for n in names)
        same, other = psnr(before, depth), psnr(before, over)
        check(same >= 50 and other < 30, f"{v}: setDepth(-1) puts the twin under the armature ({same:.1f} dB to the one added before, "
              f"{other:.1f} dB to the one over it)")


def check_batching(crowd):
    for v in PAGES:
        one, hundred = crowd.get(f"{v}:crowd:1"), crowd.get(f"{v}:crowd:100")
        thousand, mixed = crowd.get(f"{v}:crowd:1000"), crowd.get(f"{v}:crowd:100:alternate")
        if not check(None not in (one, hundred, thousand, mixed), f"{v}: the crowd pages ran ({crowd})"):
            continue
        check(one[0] >= 1 and hundred[0] == one[0], f"{v}: 100 armatures take the draw calls of 1 ({hundred[0]} and {one[0]})")
        check(mixed[0] >= 100, f"{v}: 100 armatures alternating blend modes take 100+ draw calls ({mixed[0]})")
        limit = one[0] + -(-thousand[1] // TRIANGLES_PER_CALL[v])
        check(1 <= thousand[0] <= limit, f"{v}: 1,000 armatures ({thousand[1]} triangles) take {thousand[0]} draw calls (at most {limit})")


def main():
    need(("build-web/phaser.mjs (make web)", os.path.join(WEB, "phaser.mjs")))
    os.makedirs(OUT, exist_ok=True)
    server, base = serve(WEB, OUT)
    with open(os.path.join(OUT, "broken_ske.json"), "w", encoding="utf-8") as f:
        f.write('{"frameRate": 24, "name": "broken", "version": "5.5",\n "armature": [{"name": "a", "bone": [{"name": "root"},\n'
                '  {"name": "arm", "parent": "nobody"}]}]}\n')
    refs = {}
    jobs = jobs_for(base, characters(OUT), refs)
    results = run_driver(jobs, OUT)
    server.shutdown()
    if results is None:
        finish()
    crowd = {}
    for job in jobs:
        res = results.get(job["name"])
        if check(res is not None, f"{job['name']}: no result"):
            check_job(job, res, refs, crowd)
    if not only:
        check_batching(crowd)
    check_depth([j for j in jobs if ":shadow:" in j["name"]])
    finish()


main()
