#!/usr/bin/env python3
"""sinew/phaser from the npm package: a Phaser 4 game and a Phaser 3 game, each in an empty project
that installs the packed tarball and `phaser` offline, load and play a rig through the plugin.

- The tarball is `npm pack` of web/ (its package.json and prepack script) in a copy of its own,
  so that it does not race web.package for web/dist; it must hold dist/phaser.mjs and its types.
- Each project installs the tarball and phaser from the copies tools/web-npm.sh's `npm ci` made
  in WASM_BUILD/npm/node_modules (phaser 4.2 as `phaser`, phaser 3.90 as `phaser3`, whose
  package.json names it `phaser`): folder installs, which npm links, with --offline: nothing from
  npm's cache or the registry (the method web.package uses for pixi.js; issue 34).
- node resolves `sinew`, `sinew/phaser` and `phaser` in the project as the package's exports say;
  a page whose import map is those files (phaser: its "module" build, what bundlers take) runs a
  game in headless Chromium: the demo (JSON) walks with its frame events, the Pip XML rig hops,
  time advances, the plugin draws, and no page error, console error or failed request happens.
- tsc --noEmit (TypeScript from npm) accepts a TypeScript scene using the plugin's types with each
  Phaser's own types, and rejects one that passes a number as the rig key (errors in Phaser's own
  types/phaser.d.ts, which tsc does not accept from either version, are left out).
Env: WASM_BUILD besides testkit's.
"""
import json
import os
import shutil
import subprocess
import sys
import tarfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import BUILD, SRC, check, finish, read_png  # noqa: E402
from webpage import NODE_MODULES, WASM, need, run_driver, serve, tsc  # noqa: E402

OUT = os.path.join(BUILD, "web-phaser-package")
PHASERS = {"phaser4": ("phaser", "4."), "phaser3": ("phaser3", "3.")}

GAME = """import * as Phaser from 'phaser';
import { SinewPlugin } from 'sinew/phaser';

class Play extends Phaser.Scene {
  preload() {
    this.load.sinew('demo', 'rigs/demo/demo_ske.json');   // demo_tex.json beside it
    this.load.sinew('pip', 'rigs/Pip_xml/pip.xml');        // an XML rig and the images it names
  }
  create() {
    const hero = this.add.sinew(130, 280, 'demo', { animation: 'walk' });
    const pip = this.add.sinew(310, 150, 'pip', { animation: 'hop' }).setOrigin(0.5).setScale(1.2);
    let events = 0;
    hero.on('frameEvent', () => events++);
    this.time.delayedCall(1500, () => {
      const played = (o) => String(o.states()[0].currentPlayTimes * o.states()[0].duration + o.states()[0].currentTime);
      Object.assign(document.body.dataset, { events: String(events), heroTime: played(hero), pipTime: played(pip), draws: String(this.sinew.drawCalls), phaser: Phaser.VERSION,
        plugin: String(SinewPlugin.phaserVersion), ready: '1' });
    });
  }
}
new Phaser.Game({ type: Phaser.WEBGL, width: 400, height: 300, backgroundColor: '#203040', banner: false,
  render: { preserveDrawingBuffer: true }, scene: [Play],
  plugins: { scene: [{ key: 'SinewPlugin', plugin: SinewPlugin, mapping: 'sinew' }] } });
"""

RESOLVE = """const out = {};
for (const name of ['sinew', 'sinew/phaser', 'sinew/sinew.wasm']) out[name] = new URL(import.meta.resolve(name)).pathname;
console.log(JSON.stringify(out));
"""

TS_GOOD = """import * as Phaser from 'phaser';
import { SinewPlugin, SinewGameObject } from 'sinew/phaser';
import type { SinewEvent } from 'sinew';

export class Level extends Phaser.Scene {
  preload(): void {
    this.load.sinew('hero', 'hero_ske.json', 'hero_tex.json');
    this.load.sinew({ key: 'pip', skeleton: 'pip.xml' });
  }
  create(): void {
    const hero: SinewGameObject = this.add.sinew(100, 200, 'hero', { animation: 'walk', skin: null });
    hero.setScale(2).setOrigin(0.5).setDepth(3).setAlpha(0.5).setScrollFactor(0.5).setTint(0xff0000);
    hero.fadeIn('run', { fadeInTime: 0.2, layer: 1, group: 'legs', fadeOutMode: 'sameGroup' }).setTimeScale(1.5);
    hero.on('frameEvent', (e: SinewEvent, obj: SinewGameObject) => console.log(e.name, obj.x));
    hero.setInteractive().on('pointerdown', () => hero.play('jump', { playTimes: 1 }));
    const hit = hero.hitTest(10, 20);
    const bounds: Phaser.Geom.Rectangle = hero.getBounds();
    const made: SinewGameObject = this.make.sinew({ key: 'pip', x: 5, y: 6, animation: null });
    console.log(bounds.width, hit?.name, made.instance.armature.name, this.sinew.get('hero').data.armatureNames, SinewPlugin.runtime?.version);
  }
}
export const config: Phaser.Types.Core.GameConfig = { type: Phaser.AUTO, scene: [Level],
  plugins: { scene: [{ key: 'SinewPlugin', plugin: SinewPlugin, mapping: 'sinew' }] } };
"""

TS_BAD = """import * as Phaser from 'phaser';
import 'sinew/phaser';
export class Level extends Phaser.Scene {
  create(): void { this.add.sinew(1, 2, 3); }
}
"""


def run(cmd, cwd, **kw):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600, **kw)


def pack():
    """npm pack of a copy of web/'s package files; the tarball's path, or None."""
    root = os.path.join(OUT, "pkg")
    web = os.path.join(root, "web")
    os.makedirs(web)
    for f in ("package.json", "README.md"):
        shutil.copyfile(os.path.join(SRC, "web", f), os.path.join(web, f))
    shutil.copytree(os.path.join(SRC, "web", "scripts"), os.path.join(web, "scripts"))
    shutil.copyfile(os.path.join(SRC, "LICENSE"), os.path.join(root, "LICENSE"))
    r = run(["npm", "pack", "--pack-destination", OUT, "--json"], web, env=dict(os.environ, BUILD_WASM=WASM))
    if not check(r.returncode == 0, f"npm pack: {(r.stderr or r.stdout).strip()[-600:]}"):
        return None
    tgz = os.path.join(OUT, json.loads(r.stdout)[0]["filename"])
    with tarfile.open(tgz) as t:
        names = t.getnames()
    check("package/dist/phaser.mjs" in names and "package/dist/phaser.d.mts" in names,
          "the tarball has dist/phaser.mjs and dist/phaser.d.mts")
    return tgz


def project(name, tgz):
    """An empty project with the tarball and a Phaser installed offline; its folder, or None."""
    folder, major = PHASERS[name]
    app = os.path.join(OUT, name)
    os.makedirs(app)
    with open(os.path.join(app, "package.json"), "w", encoding="utf-8") as f:
        json.dump({"name": f"app-{name}", "private": True, "type": "module"}, f)
    phaser = os.path.join(NODE_MODULES, folder)
    r = run(["npm", "install", "--offline", "--ignore-scripts", "--no-audit", "--no-fund", "--no-update-notifier", tgz, phaser], app)
    if not check(r.returncode == 0, f"{name}: npm install --offline of the tarball and {phaser}: {(r.stderr or r.stdout).strip()[-600:]}"):
        return None
    installed = os.path.join(app, "node_modules", "phaser")
    with open(os.path.join(installed, "package.json"), encoding="utf-8") as f:
        meta = json.load(f)
    check(os.path.realpath(installed) == os.path.realpath(phaser) and meta["version"].startswith(major),
          f"{name}: node_modules/phaser is the build-wasm/npm copy of Phaser {major}x ({meta['version']})")
    with open(os.path.join(app, "resolve.mjs"), "w", encoding="utf-8") as f:
        f.write(RESOLVE)
    r = run(["node", "resolve.mjs"], app)
    if not check(r.returncode == 0, f"{name}: node resolves sinew/phaser: {r.stderr.strip()[-400:]}"):
        return None
    paths = json.loads(r.stdout)
    paths["phaser"] = os.path.join(installed, meta["module"])
    imports = {k: "/" + os.path.relpath(v, app) for k, v in paths.items() if k != "sinew/sinew.wasm"}
    check(imports["sinew/phaser"] == "/node_modules/sinew/dist/phaser.mjs" and os.path.exists(paths["sinew/sinew.wasm"]),
          f"{name}: sinew/phaser is the package's dist/phaser.mjs, sinew.wasm beside it ({paths})")
    rigs = os.path.join(app, "rigs")
    shutil.copytree(os.path.join(SRC, "examples", "demo"), os.path.join(rigs, "demo"))
    shutil.copytree(os.path.join(SRC, "tests", "fixtures", "own", "Pip_xml"), os.path.join(rigs, "Pip_xml"))
    with open(os.path.join(app, "game.mjs"), "w", encoding="utf-8") as f:
        f.write(GAME)
    with open(os.path.join(app, "index.html"), "w", encoding="utf-8") as f:
        f.write('<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">'
                f'<script type="importmap">{json.dumps({"imports": imports})}</script></head>'
                '<body style="margin:0"><script type="module" src="game.mjs"></script></body></html>')
    return app


def typescript(name, app):
    for kind, text, ok in (("good", TS_GOOD, True), ("bad", TS_BAD, False)):
        # Phaser's own types do not pass tsc (4.2.1: TS2526, TS2416; 3.90: TS2304 ActiveXObject):
        # their errors are left out, every other file's count
        _, errors = tsc(os.path.join(app, "ts-" + kind), text, "scene.mts")
        errors = [e for e in errors if "/types/phaser.d.ts(" not in e]
        if ok:
            check(not errors, f"{name}: tsc --noEmit accepts the TypeScript scene:\n" + "\n".join(errors)[-1500:])
        else:
            check(any("scene.mts(4," in e and "TS2345" in e for e in errors), f"{name}: tsc --noEmit rejects a number as the rig key ({errors})")


def main():
    need((f"{WASM}/phaser.mjs (make wasm)", os.path.join(WASM, "phaser.mjs")),
         ("phaser and phaser3 (make web installs them)", os.path.join(NODE_MODULES, "phaser3", "package.json")),
         ("TypeScript (make web installs it)", os.path.join(NODE_MODULES, "typescript", "bin", "tsc")))
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    tgz = pack()
    if not tgz:
        finish()
    servers, jobs = [], []
    for name in PHASERS:
        app = project(name, tgz)
        if not app:
            continue
        typescript(name, app)
        server, base = serve(app, OUT)
        servers.append(server)
        jobs.append({"name": name, "kind": "url", "url": f"{base}/index.html", "canvas": "canvas", "out": os.path.join(OUT, f"{name}.png")})
    results = run_driver(jobs, OUT, timeout=600) if jobs else {}
    for server in servers:
        server.shutdown()
    for job in jobs:
        res = (results or {}).get(job["name"])
        if not check(res is not None, f"{job['name']}: no result"):
            continue
        check(not res["problems"], f"{job['name']}: " + "; ".join(res["problems"][:5]))
        d = res["texts"].get("dataset", {})
        major = PHASERS[job["name"]][1]
        check(d.get("phaser", "").startswith(major) and d.get("plugin") == major[0],
              f"{job['name']}: the game runs Phaser {major}x and the plugin knows it ({d})")
        check(int(d.get("events", 0)) > 0 and float(d.get("heroTime", 0)) > 0.3 and float(d.get("pipTime", 0)) > 0.3
              and int(d.get("draws", 0)) > 0, f"{job['name']}: the rigs play, send frame events and are drawn ({d})")
        if check(os.path.exists(job["out"]), f"{job['name']}: no screenshot"):
            w, h, p = read_png(job["out"])  # the demo on the left half, Pip on the right, over #203040
            drawn = [sum(1 for y in range(h) for x in range(x0, x1) if abs(p[4 * (y * w + x)] - 0x20) + abs(p[4 * (y * w + x) + 2] - 0x40) > 12)
                     for x0, x1 in ((0, w // 2 + 20), (w // 2 + 30, w))]
            check(min(drawn) > 2000, f"{job['name']}: both rigs are drawn ({drawn} pixels)")
    finish()


main()
