// npm pack / npm publish: dist/ from the WebAssembly build (make wasm), and the licence.
//   BUILD_WASM=DIR overrides ../build-wasm.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const web = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const root = path.dirname(web);
const build = path.resolve(process.env.BUILD_WASM || path.join(root, 'build-wasm'));
if (!process.env.BUILD_WASM) execFileSync('make', ['-C', root, '--no-print-directory', 'wasm'], { stdio: 'inherit' });
const files = ['sinew.wasm', 'sinew.mjs', 'sinew.d.mts', 'pixi.mjs', 'pixi.d.mts', 'webgl.mjs', 'webgl.d.mts',
  'framing.mjs', 'framing.d.mts', 'encode.mjs', 'player.mjs', 'player.d.mts', 'phaser.mjs', 'phaser.d.mts'];
const dist = path.join(web, 'dist');
fs.rmSync(dist, { recursive: true, force: true });
fs.mkdirSync(dist);
for (const f of files) {
  const src = path.join(build, f);
  if (!fs.existsSync(src)) throw new Error(`${src} not found: run make wasm`);
  fs.copyFileSync(src, path.join(dist, f));
}
fs.copyFileSync(path.join(root, 'LICENSE'), path.join(web, 'LICENSE'));
