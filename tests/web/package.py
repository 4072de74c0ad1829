#!/usr/bin/env python3
"""The npm package: `npm pack` in web/ gives a tarball with the wasm, the modules, the types, a
README and the licence; installed offline into an empty project, a node example plays the demo, a
second loads sinew/pixi with pixi.js and makes a SinewArmature of it, and `tsc --noEmit`
(TypeScript from npm) accepts a TypeScript example using sinew and sinew/pixi, and rejects one
with a type error.
The install reads nothing from npm's cache or the registry: the tarball, and pixi.js from the copy
tools/web-npm.sh's `npm ci` put in WASM_BUILD/npm/node_modules (a folder install, which npm links;
pixi.js's own dependencies resolve beside that copy). An `npm install --offline pixi.js@VERSION`
would need the registry's metadata in ~/.npm, which `npm ci` does not store: it passed only where
an earlier command had left it there (issue 34; .ci/run runs `make test` with an empty HOME and
npm cache so that such a dependence fails in CI too).
Env: WASM_BUILD (default SRC/build-wasm) besides testkit's.
"""
import json
import os
import shutil
import subprocess
import sys
import tarfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import BUILD, SRC, check, finish  # noqa: E402
from webpage import tsc  # noqa: E402

WASM = os.environ.get("WASM_BUILD") or os.path.join(SRC, "build-wasm")
MODULES = os.path.join(WASM, "npm", "node_modules")
OUT = os.path.join(BUILD, "web-package")
WANT = ["package/package.json", "package/README.md", "package/LICENSE", "package/dist/sinew.wasm", "package/dist/sinew.mjs",
        "package/dist/sinew.d.mts", "package/dist/pixi.mjs", "package/dist/pixi.d.mts", "package/dist/webgl.mjs",
        "package/dist/webgl.d.mts", "package/dist/player.mjs", "package/dist/framing.mjs", "package/dist/encode.mjs"]

NODE_EXAMPLE = """import fs from 'node:fs';
import { init, SinewError } from 'sinew';
const sinew = await init();
const dir = process.argv[2];
const data = sinew.loadSkeleton(fs.readFileSync(`${dir}/demo_ske.json`), { name: 'demo_ske.json' });
const atlas = sinew.loadAtlas(fs.readFileSync(`${dir}/demo_tex.json`), { name: 'demo_tex.json' });
const hero = data.createInstance({ atlas });
let events = 0;
hero.on('frameEvent', () => events++);
hero.play('walk');
for (let i = 0; i < 48; i++) hero.update(1 / 24);
const list = hero.drawList();
let bad = '';
try { sinew.loadSkeleton('{"version": "5.5", "armature": [', { name: 'bad.json' }); } catch (e) { bad = e instanceof SinewError ? String(e) : 'not a SinewError'; }
console.log(JSON.stringify({ armatures: data.armatureNames, commands: list.commandCount, vertices: list.vertexCount, events, bad }));
"""

# sinew/pixi and pixi.js (and so pixi.js's own dependencies) loaded in node, one copy of pixi.js:
# SinewArmature is that copy's Container. pixi.js reads `navigator` when its modules load, which
# node 20 does not have; no page textures, so no shader (which needs a renderer).
PIXI_EXAMPLE = """import fs from 'node:fs';
globalThis.navigator ??= { userAgent: 'node' };
const { init } = await import('sinew');
const { Container } = await import('pixi.js');
const { SinewArmature } = await import('sinew/pixi');
const sinew = await init();
const dir = process.argv[2];
const data = sinew.loadSkeleton(fs.readFileSync(`${dir}/demo_ske.json`), { name: 'demo_ske.json' });
const atlas = sinew.loadAtlas(fs.readFileSync(`${dir}/demo_tex.json`), { name: 'demo_tex.json' });
const hero = data.createInstance({ atlas });
hero.play('walk');
const view = new SinewArmature(hero, { textures: [] });
view.update(1 / 24);
console.log(JSON.stringify({ container: view instanceof Container, commands: hero.drawList().commandCount }));
"""

TS_EXAMPLE = """import { init, SinewError, type Instance, type DrawList, type SinewEvent } from 'sinew';
import { SinewArmature, pageTextures } from 'sinew/pixi';
import type { Texture } from 'pixi.js';

export async function start(ske: ArrayBuffer, tex: string): Promise<number> {
  const sinew = await init();
  const data = sinew.loadSkeleton(ske, { name: 'hero_ske.json' });
  const atlas = sinew.loadAtlas(tex, { name: 'hero_tex.json' });
  const hero: Instance = data.createInstance({ atlas, skin: null });
  hero.fadeIn('run', { fadeInTime: 0.2, layer: 1, group: 'legs', fadeOutMode: 'sameGroup' });
  hero.on('frameEvent', (e: SinewEvent) => console.log(e.name, e.instance === hero));
  sinew.update([hero], 1 / 60);
  const list: DrawList = hero.drawList();
  const first = list.commandCount ? list.command(0).blend : 'normal';
  const textures: (Texture | null)[] = [];
  const view = new SinewArmature(hero, { textures });
  view.refresh();
  try { hero.play('nope'); } catch (e) { if (e instanceof SinewError) console.log(e.file, e.line, e.column); }
  return list.positions.length + first.length + view.unsupportedBlendModes.size;
}

export async function fromFiles(files: File[]): Promise<void> {
  const sinew = await init();
  const rig = await sinew.loadFiles(files);
  const textures = await pageTextures(rig);
  console.log(rig.skeleton, textures.length);
}
"""

TS_BAD = """import { init } from 'sinew';
const sinew = await init();
const data = sinew.loadSkeleton('{}');
data.createInstance().play(42);
"""


def run(cmd, cwd, **kw):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600, **kw)


def main():
    if not check(os.path.exists(os.path.join(WASM, "sinew.wasm")), f"{WASM}/sinew.wasm not found: run `make wasm` first"):
        finish()
    typescript = os.path.join(MODULES, "typescript", "bin", "tsc")
    if not check(os.path.exists(typescript), f"{typescript} not found: make web installs the npm tools (tools/web-npm.sh)"):
        finish()
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    web = os.path.join(SRC, "web")
    r = run(["npm", "pack", "--pack-destination", OUT, "--json"], web, env=dict(os.environ, BUILD_WASM=WASM))
    if not check(r.returncode == 0, f"npm pack in web/: {(r.stderr or r.stdout).strip()[-600:]}"):
        finish()
    tgz = os.path.join(OUT, json.loads(r.stdout)[0]["filename"])
    with tarfile.open(tgz) as t:
        names = t.getnames()
        wasm_size = t.getmember("package/dist/sinew.wasm").size if "package/dist/sinew.wasm" in names else 0
    missing = [n for n in WANT if n not in names]
    check(not missing, f"the tarball has the wasm, modules, types, README and licence (missing: {missing})")
    check(wasm_size == os.path.getsize(os.path.join(WASM, "sinew.wasm")), "the packed sinew.wasm is the build's")
    print(f"npm pack: {os.path.basename(tgz)}, {os.path.getsize(tgz)} bytes, {len(names)} files")

    # an empty project, installed offline: the tarball, and pixi.js from build-wasm/npm as a folder
    # (npm links it; --ignore-scripts: a folder install would run pixi.js's own `prepare`, husky)
    app = os.path.join(OUT, "app")
    os.makedirs(app)
    with open(os.path.join(app, "package.json"), "w", encoding="utf-8") as f:
        json.dump({"name": "app", "private": True, "type": "module"}, f)
    pixi_dir = os.path.join(MODULES, "pixi.js")
    r = run(["npm", "install", "--offline", "--ignore-scripts", "--no-audit", "--no-fund", "--no-update-notifier", tgz,
             pixi_dir], app)
    if not check(r.returncode == 0, f"npm install --offline of the tarball and {pixi_dir}: {(r.stderr or r.stdout).strip()[-600:]}"):
        finish()
    installed = os.path.join(app, "node_modules", "pixi.js")
    check(os.path.realpath(installed) == os.path.realpath(pixi_dir), f"pixi.js is the build-wasm/npm copy ({installed})")
    with open(os.path.join(app, "example.mjs"), "w", encoding="utf-8") as f:
        f.write(NODE_EXAMPLE)
    r = run(["node", "example.mjs", os.path.join(SRC, "examples", "demo")], app)
    if check(r.returncode == 0, f"the node example: {r.stderr.strip()[-600:]}"):
        got = json.loads(r.stdout.strip().splitlines()[-1])
        check(got["armatures"] == ["Bolt"] and got["commands"] > 10 and got["vertices"] > 40 and got["events"] > 0,
              f"the node example plays the demo through the installed package ({got})")
        check(got["bad"].startswith("bad.json:") and ": error: " in got["bad"], f"errors read file:line:col ({got['bad']!r})")
    with open(os.path.join(app, "pixi-example.mjs"), "w", encoding="utf-8") as f:
        f.write(PIXI_EXAMPLE)
    r = run(["node", "pixi-example.mjs", os.path.join(SRC, "examples", "demo")], app)
    if check(r.returncode == 0, f"the sinew/pixi node example: {r.stderr.strip()[-600:]}"):
        got = json.loads(r.stdout.strip().splitlines()[-1])
        check(got["container"] and got["commands"] > 10, f"sinew/pixi and pixi.js load in the app, one pixi.js ({got})")
    for name, text, ok in (("good", TS_EXAMPLE, True), ("bad", TS_BAD, False)):
        status, errors = tsc(os.path.join(app, "ts-" + name), text)
        if ok:
            check(status == 0 and not errors, "tsc --noEmit accepts the TypeScript example:\n" + "\n".join(errors)[-1500:])
        else:
            check(status != 0 and any("TS2345" in e for e in errors), f"tsc --noEmit rejects play(42) ({errors})")
    finish()


main()
