#!/usr/bin/env node
// `sinew bench` for the WebAssembly build in node: instance updates (or loading) through the
// JavaScript API, with the figures of `sinew bench --json` (docs/web.md, docs/cli.md).
//   node build-wasm/bench.mjs FILE --animation A [--armature NAME] [--instances N] [--ticks T]
//        [--runs R] [--drawlist [--atlas TEX]] [--json]
//   node build-wasm/bench.mjs FILE --load [--atlas TEX] [--runs R] [--json]
import fs from 'node:fs';
import path from 'node:path';
import { init } from './sinew.mjs';
import { sinewLoad, sinewUpdate } from './workloads.mjs';

const USAGE = `usage: node bench.mjs FILE --animation A [--armature NAME] [--instances N] [--ticks T] [--runs R]
                     [--drawlist [--atlas TEX]] [--json]
       node bench.mjs FILE --load [--atlas TEX] [--runs R] [--json]
N instances play A looping from staggered start times (i * 0.0371 s mod duration), warm up for
max(120, 20000/N) ticks, then R runs of T ticks of 1/60 s, all instances in one call into
WebAssembly a tick. Prints min and median ns per instance update. --load times loading FILE and
its atlas from memory instead (ms).
`;
const op = { instances: 100, ticks: 300, runs: 0, json: false, drawlist: false, load: false };
const argv = process.argv.slice(2);
const usage = (m) => { process.stderr.write(`bench.mjs: ${m}\n${USAGE}`); process.exit(1); };
const whole = (name, v, lo, hi) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < lo || n > hi) usage(`${name} wants a whole number in [${lo}, ${hi}], not '${v}'`);
  return n;
};
for (let i = 0; i < argv.length; i++) {
  const a = argv[i], take = () => { if (argv[i + 1] === undefined) usage(`missing value for ${a}`); return argv[++i]; };
  if (a === '-h' || a === '--help') { process.stdout.write(USAGE); process.exit(0); }
  else if (a === '--animation') op.animation = take();
  else if (a === '--armature') op.armature = take();
  else if (a === '--atlas') op.atlas = take();
  else if (a === '--instances') op.instances = whole(a, take(), 1, 1000000);
  else if (a === '--ticks') op.ticks = whole(a, take(), 1, 100000000);
  else if (a === '--runs') op.runs = whole(a, take(), 1, 1000);
  else if (a === '--json') op.json = true;
  else if (a === '--drawlist') op.drawlist = true;
  else if (a === '--load') op.load = true;
  else if (a.startsWith('-')) usage(`unknown option or missing value: ${a}`);
  else if (!op.file) op.file = a;
  else usage(`unexpected argument: ${a}`);
}
if (!op.file) usage('missing FILE');
if (!op.load && !op.animation) usage('missing --animation NAME');
const read = (p) => { try { return fs.readFileSync(p); } catch (e) { process.stderr.write(`${p}: error: cannot open: ${e.message}\n`); process.exit(3); } };
const ske = read(op.file);
let atlasPath = op.atlas;
if (!atlasPath && (op.drawlist || op.load)) {
  const guess = op.file.replace(/_ske\.(json|dbbin)$/i, '_tex.json');
  if (guess !== op.file && fs.existsSync(guess)) atlasPath = guess;
}
const tex = atlasPath ? read(atlasPath) : null;
const sinew = await init();
try {
  if (op.load) {
    const r = sinewLoad(sinew, ske, tex, { runs: op.runs || 20 });
    if (op.json) console.log(JSON.stringify({ load_ms: r.ms, load_ms_median: r.ms_median, runs: r.runs }));
    else console.log(`${op.file}${atlasPath ? ` + ${path.basename(atlasPath)}` : ''}: load from memory ${r.ms.toFixed(3)} ms (median ${r.ms_median.toFixed(3)}, ${r.runs} runs)`);
  } else {
    const r = sinewUpdate(sinew, ske, tex, { armature: op.armature, animation: op.animation, n: op.instances, ticks: op.ticks,
      runs: op.runs || 5, drawlist: op.drawlist });
    if (op.json) console.log(JSON.stringify(r));
    else {
      console.log(`${op.file} ${op.animation}: ${r.instances} instances, ${r.runs} runs x ${r.ticks} ticks of update(1/60)${op.drawlist ? ' + draw list' : ''} (WebAssembly, node ${process.version})`);
      console.log(`  ns per update: min ${r.ns_per_update.toFixed(1)}, median ${r.ns_per_update_median.toFixed(1)}`);
      console.log(`  ns per bone:   ${r.ns_per_bone.toFixed(2)} (${r.bones} bones)`);
      console.log(`  memory per instance: ${r.memory_per_instance} bytes`);
    }
  }
} catch (e) { process.stderr.write(`${String(e)}\n`); process.exit(2); }
