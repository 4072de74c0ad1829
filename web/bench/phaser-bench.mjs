#!/usr/bin/env node
// make bench-phaser: sinew/phaser's crowd (examples/phaser4-crowd.html, examples/phaser3-scene.html:
// the demo character, each armature its own animation and time) in Debian's Chromium, headless,
// software WebGL (SwiftShader). For N armatures: the WebGL draw calls a frame (every drawElements /
// drawArrays of the page) and the CPU time of a frame's update + render (from Phaser's prestep to
// its postrender: the plugin's one sinew.update call for the scene, every armature's draw list
// into the batch, Phaser's own work; SwiftShader rasterizes in the GPU process, not counted), the
// median and the 90th percentile of the frames after the first second, the update (prestep to
// poststep) and the render apart; and frames a second.
// Figures, not tests; they vary with the machine's load (printed with them).
//   node web/bench/phaser-bench.mjs [--wasm build-wasm] [--web build-web] [--seconds S] [--n 100,1000] [--out FILE]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium, serveRoots } from './chromium.mjs';

const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : d; };
const wasm = path.resolve(opt('--wasm', 'build-wasm'));
const web = path.resolve(opt('--web', 'build-web'));
const seconds = Number(opt('--seconds', '6'));
const counts = opt('--n', '100,1000').split(',').map(Number);
const outFile = path.resolve(opt('--out', path.join(wasm, 'bench-phaser.json')));
const pages = { 'Phaser 4': 'examples/phaser4-crowd.html', 'Phaser 3': 'examples/phaser3-scene.html' };

const loadBefore = os.loadavg();
const { server, base } = await serveRoots({ '/': web });
const browser = await launchChromium(path.join(wasm, 'npm', 'node_modules'));
const rows = [];
const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };
try {
  for (const n of counts) {
    for (const [phaser, page] of Object.entries(pages)) {
      const tab = await browser.newPage();
      await tab.setViewport({ width: 1000, height: 700 });
      tab.on('pageerror', (e) => process.stderr.write(`phaser-bench: page error: ${e.message}\n`));
      await tab.goto(`${base}/${page}?n=${n}`);
      await tab.waitForFunction('document.body.dataset.ready === "1" || !!document.body.dataset.error', { timeout: 600000, polling: 200 });
      const start = await tab.evaluate(() => window.sinewStats.samples.length);
      const t0 = Date.now();
      await new Promise((r) => setTimeout(r, (seconds + 1) * 1000));
      const { samples, triangles } = await tab.evaluate(() => ({ samples: window.sinewStats.samples, triangles: document.body.dataset.triangles }));
      const elapsed = (Date.now() - t0) / 1000;
      // the frames after the first second of the measurement
      const frames = samples.slice(start);
      const kept = frames.slice(Math.round(frames.length / (seconds + 1)));
      const ms = kept.map((s) => s[0]), draws = kept.map((s) => s[1]), update = kept.map((s) => s[2]);
      rows.push({ phaser, n, triangles: Number(triangles), drawCalls: quantile(draws, 0.5), drawCallsMax: Math.max(...draws),
        msMedian: quantile(ms, 0.5), msP90: quantile(ms, 0.9), updateMedian: quantile(update, 0.5),
        renderMedian: quantile(ms.map((m, i) => m - update[i]), 0.5), fps: frames.length / elapsed, frames: kept.length });
      await tab.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
const load = (l) => l.map((x) => x.toFixed(2)).join(' ');
const cpu = os.cpus()[0]?.model || '';
const lines = [`sinew/phaser, a crowd of the demo character; ${os.cpus().length} CPUs (${cpu}), load average ${load(loadBefore)} before, `
  + `${load(os.loadavg())} after`, '', '| Phaser | armatures | triangles | draw calls a frame | update + render, median | 90th percentile | update / render, medians | frames a second |',
'|---|---|---|---|---|---|---|---|'];
for (const r of rows) {
  lines.push(`| ${r.phaser} | ${r.n} | ${r.triangles} | ${r.drawCalls}${r.drawCallsMax !== r.drawCalls ? ` (max ${r.drawCallsMax})` : ''} | `
    + `${r.msMedian.toFixed(2)} ms | ${r.msP90.toFixed(2)} ms | ${r.updateMedian.toFixed(2)} / ${r.renderMedian.toFixed(2)} ms | ${r.fps.toFixed(1)} |`);
}
console.log(lines.join('\n'));
fs.writeFileSync(outFile, JSON.stringify({ loadBefore, loadAfter: os.loadavg(), cpu, rows }, null, 1));
process.stderr.write(`phaser-bench: figures in ${outFile}\n`);
