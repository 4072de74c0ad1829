#!/usr/bin/env node
// make bench-web: sinew's WebAssembly build against the official DragonBones JS runtime
// (@cocos/dragonbones-js, what the oracle runs) on the same workloads (web/bench/workloads.mjs),
// in node and in Debian's Chromium (headless, puppeteer-core), one table with the ratios of this
// run. Figures, not tests. Needs ../shared (mecha_1502b walk and you_xin body idle).
//   node web/bench/bench-web.mjs --wasm build-wasm --web build-web --shared ../shared [--quick] [--out FILE]
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium, serveRoots } from './chromium.mjs';

const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : d; };
const quick = argv.includes('--quick');
const wasm = path.resolve(opt('--wasm', 'build-wasm'));
const web = path.resolve(opt('--web', 'build-web'));
const shared = path.resolve(opt('--shared', '../shared'));
const outFile = path.resolve(opt('--out', path.join(wasm, 'bench-web.json')));
const here = path.dirname(new URL(import.meta.url).pathname);
const modules = path.join(wasm, 'npm', 'node_modules');
const data = path.join(shared, 'data', 'dragonbones');
const log = (m) => process.stderr.write(m + '\n');

if (!fs.existsSync(data)) {
  log(`bench-web: ${data} not found: the workloads are shared characters (make bench-web SHARED=DIR)`);
  process.exit(2);
}
const SETS = [
  { name: 'mecha_1502b', dir: 'mecha_1502b_5.5', ske: 'mecha_1502b_ske.json', tex: 'mecha_1502b_tex.json', armature: 'mecha_1502b', animation: 'walk' },
  { name: 'you_xin body', dir: 'you_xin_body_5.5', ske: 'body_ske.json', tex: 'body_tex.json', armature: 'body', animation: 'idle' },
];

// ---- node --------------------------------------------------------------------------------------
const { init } = await import(pathToFileURL(path.join(wasm, 'sinew.mjs')).href);
const { runAll } = await import(pathToFileURL(path.join(here, 'workloads.mjs')).href);
const db = await import(pathToFileURL(path.join(modules, '@cocos', 'dragonbones-js', 'out', 'dragonBones.js')).href);
const sets = SETS.map((s) => {
  const ske = fs.readFileSync(path.join(data, s.dir, s.ske)), tex = fs.readFileSync(path.join(data, s.dir, s.tex));
  return { ...s, skeBytes: ske, texBytes: tex, skeText: ske.toString('utf8'), texText: tex.toString('utf8') };
});
const sinew = await init();
const rows = await runAll('node', sinew, db, sets, { quick, log });

// ---- Chromium ----------------------------------------------------------------------------------
const roots = { '/web/': web, '/bench/': here, '/data/': data, '/db/': path.join(modules, '@cocos', 'dragonbones-js', 'out') };
const { server, base } = await serveRoots(roots);
const browser = await launchChromium(modules);
let chromeVersion = '';
try {
  chromeVersion = await browser.version();
  const page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'log') log(m.text()); });
  page.on('pageerror', (e) => log(`bench page error: ${e.message}`));
  await page.goto(`${base}/bench/bench.html?quick=${quick ? 1 : 0}&sets=${encodeURIComponent(JSON.stringify(SETS))}`);
  await page.waitForFunction('window.benchResult || window.benchError', { timeout: 1800000, polling: 1000 });
  const err = await page.evaluate('window.benchError');
  if (err) throw new Error(err);
  rows.push(...await page.evaluate('window.benchResult'));
} finally {
  await browser.close();
  server.close();
}

// ---- the table -----------------------------------------------------------------------------------
const fmt = (v, kind) => (kind.startsWith('load') ? v.toFixed(2) : Math.round(v).toLocaleString('en-US'));
const lines = [`sinew ${sinew.version} (WebAssembly) against @cocos/dragonbones-js 1.0.2; node ${process.version}, ${chromeVersion}${quick ? ' (--quick)' : ''}`,
  '', '| runtime | workload | N | sinew-wasm | official JS | official / sinew |', '|---|---|---|---|---|---|'];
for (const r of rows) {
  const unit = r.kind.startsWith('load') ? 'ms' : 'ns';
  lines.push(`| ${r.env} | ${r.set} ${r.animation} ${r.kind} | ${r.n || ''} | ${fmt(r.sinew_ns, r.kind)} ${unit} | ${fmt(r.official_ns, r.kind)} ${unit} | ${r.ratio.toFixed(1)}× |`);
}
console.log(lines.join('\n'));
fs.writeFileSync(outFile, JSON.stringify({ node: process.version, chromium: chromeVersion, quick, rows }, null, 1));
log(`bench-web: figures in ${outFile}`);
