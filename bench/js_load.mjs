// The official runtime's own skeleton load, as JSON and as DBBin: DragonBonesJS (npm
// @cocos/dragonbones-js) parsing one skeleton into its data objects, no factory and no textures.
//
// usage: node js_load.mjs SKE.json SKE.dbbin [--runs=300]
//   JSON: JSON.parse of the text + ObjectDataParser.parseDragonBonesData (what a game that loads a
//   .json does); DBBin: BinaryDataParser.parseDragonBonesData of the file's bytes. Each run parses,
//   then returns the data to the runtime's pools (not timed). Prints one JSON line: the min and
//   median ms of each and their ratio. Run from a folder whose node_modules has the package
//   (bench/compare.py copies it into its bench-js folder).
import * as db from '@cocos/dragonbones-js';
import fs from 'node:fs';

console.info = () => {}; // the runtime's banner
const args = process.argv.slice(2);
const files = args.filter(a => !a.startsWith('--'));
const runsArg = args.find(a => a.startsWith('--runs='));
const RUNS = runsArg ? +runsArg.slice(7) : 300;
if (files.length !== 2 || !(RUNS > 0)) {
  process.stderr.write('usage: node js_load.mjs SKE.json SKE.dbbin [--runs=N]\n');
  process.exit(1);
}
const text = fs.readFileSync(files[0], 'utf8');
const bytes = fs.readFileSync(files[1]);
const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);

function time(prepare, parse) {
  const t = [];
  for (let i = 0; i < RUNS + 20; i++) {
    const input = prepare();
    const t0 = process.hrtime.bigint();
    const data = parse(input);
    const t1 = process.hrtime.bigint();
    if (!data) throw new Error('the runtime rejected the file');
    data.returnToPool();
    if (i >= 20) t.push(Number(t1 - t0) / 1e6); // the first 20: warm-up
  }
  t.sort((a, b) => a - b);
  return { min: t[0], median: t[t.length >> 1] };
}

const json = time(() => text, t => db.ObjectDataParser.getInstance().parseDragonBonesData(JSON.parse(t), 1));
// the binary parser keeps views into the buffer it is given: a fresh copy each run (not timed)
const bin = time(() => buffer.slice(0), b => db.BinaryDataParser.getInstance().parseDragonBonesData(b, 1));
console.log(JSON.stringify({ json_ms_min: json.min, json_ms_median: json.median, dbbin_ms_min: bin.min,
                             dbbin_ms_median: bin.median, ratio: json.min / bin.min }));
