#!/usr/bin/env node
// `sinew poses` through the JavaScript API of the WebAssembly build: the same options (those the
// web build has) and the same pose-dump schema (the official runtime oracle's), so any dump sinew
// is checked against checks the web build too (docs/web.md).
//
//   node build-wasm/poses.mjs FILE [--atlas TEX] [--armature NAME|all] [--skin NAME]
//        [--animation NAME|all] [--fps N] [--frames N] [--cache-fps N] [--precision N]
//        [--random C|seed:N] [--mode step|seek] [--constraints] [--out FILE]
//   node build-wasm/poses.mjs FILE --script SCENARIOS.json [--atlas TEX] [--skin NAME]
//        [--max-states N] [--states] [--cache-fps N] [--precision N] [--out FILE]
// (`sinew poses --drawlist` and `--replace` are not here.)
import fs from 'node:fs';
import path from 'node:path';
import { init, SinewError } from './sinew.mjs';

const USAGE = `usage: node poses.mjs FILE [--atlas TEX] [--armature NAME|all] [--skin NAME] [--animation NAME|all]
                     [--fps N] [--frames N] [--cache-fps N] [--precision N] [--random C|seed:N]
                     [--mode step|seek] [--constraints] [--out FILE]
       node poses.mjs FILE --script SCENARIOS.json [--atlas TEX] [--skin NAME] [--max-states N] [--states]
                     [--cache-fps N] [--precision N] [--out FILE]
Samples every chosen animation on a fresh instance of the WebAssembly build: sample 0 after a
zero-time update, then one sample per 1/fps step; or runs scenario scripts. Writes the pose dump of
\`sinew poses\` (the official runtime oracle's schema). Exit codes: 0 ok, 1 usage, 2 bad input, 3 I/O.
`;
const EXIT = { OK: 0, USAGE: 1, INPUT: 2, IO: 3, INTERNAL: 4 };

function usage(msg) {
  process.stderr.write(`poses.mjs: ${msg}\n${USAGE}`);
  process.exit(EXIT.USAGE);
}
function exitFor(err) {
  if (!(err instanceof SinewError)) return EXIT.INTERNAL;
  return err.code === 'IO' ? EXIT.IO : err.code === 'NOMEM' ? EXIT.INTERNAL : err.code === 'ARG' ? EXIT.USAGE : EXIT.INPUT;
}

// ---- options (the bounds of docs/cli.md) --------------------------------------------------------
const op = { precision: 17, fps: 0, frames: 0, maxStates: 0, states: false };
const argv = process.argv.slice(2);
const number = (name, v, lo, hi, whole, loOpen) => {
  const n = Number(v);
  const ok = v !== undefined && v.trim() !== '' && Number.isFinite(n) && (whole ? Number.isInteger(n) : true)
    && (loOpen ? n > lo : n >= lo) && n <= hi;
  if (!ok) usage(`${name} wants ${whole ? 'a whole number' : 'a number'} in ${loOpen ? '(' : '['}${lo}, ${hi}], not '${v}'`);
  return n;
};
for (let i = 0; i < argv.length; i++) {
  const a = argv[i], v = argv[i + 1];
  const take = () => { if (v === undefined) usage(`missing value for ${a}`); i++; return v; };
  if (a === '-h' || a === '--help') { process.stdout.write(USAGE); process.exit(0); }
  else if (a === '--atlas') op.atlas = take();
  else if (a === '--armature') op.armature = take();
  else if (a === '--animation') op.animation = take();
  else if (a === '--skin') { const s = take(); op.skin = s || null; }
  else if (a === '--out') op.out = take();
  else if (a === '--script') op.script = take();
  else if (a === '--states') op.states = true;
  else if (a === '--constraints') op.constraints = true;
  else if (a === '--random') op.random = take();
  else if (a === '--mode') { op.mode = take(); if (op.mode !== 'step' && op.mode !== 'seek') usage('--mode wants step or seek'); }
  else if (a === '--fps') op.fps = number(a, take(), 0, 1000, false, true);
  else if (a === '--frames') op.frames = number(a, take(), 1, 100000, true);
  else if (a === '--precision') op.precision = number(a, take(), 1, 17, true);
  else if (a === '--cache-fps') op.cacheFps = number(a, take(), 0, 1000, false, true);
  else if (a === '--max-states') op.maxStates = number(a, take(), 1, 1024, true);
  else if (a.startsWith('-') && a.length > 1) usage(`unknown option or missing value: ${a}`);
  else if (!op.file) op.file = a;
  else usage(`unexpected argument: ${a}`);
}
if (!op.file) usage('missing FILE');
if (op.script && (op.armature || op.animation || op.fps > 0 || op.frames > 0))
  usage('--script takes its armatures, animations, fps and frames from the script');
if ((op.states || op.maxStates) && !op.script) usage('--states and --max-states go with --script');

// ---- numbers and strings as sinew poses prints them (printf %.*g, no -0) ------------------------
const P = op.precision;
function num(v) {
  if (!Number.isFinite(v)) return 'null';
  if (v === 0) return '0';
  const [m, x] = v.toExponential(P - 1).split('e');
  const X = Number(x);
  if (X < -4 || X >= P) {
    const mant = m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m;
    return `${mant}e${X < 0 ? '-' : '+'}${String(Math.abs(X)).padStart(2, '0')}`;
  }
  let f = v.toFixed(P - 1 - X);
  if (f.includes('.')) f = f.replace(/0+$/, '').replace(/\.$/, '');
  return f === '-0' ? '0' : f;
}
const str = (s) => (s === null || s === undefined ? 'null' : JSON.stringify(s));
const matrix = (m) => `[${m.map(num).join(',')}]`;

// ---- files: the skeleton's and the atlas's folders go into the module's file system ------------
const sinew = await init();
const given = new Map(); // virtual path -> the path as given (for messages)
function mountDir(dir, recursive) {
  const files = new Map();
  const walk = (d, depth) => {
    let entries;
    try { entries = fs.readdirSync(d, { withFileTypes: true }); } catch { return; }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isFile()) {
        try { if (fs.statSync(p).size <= 64 << 20) files.set(p.slice(1), fs.readFileSync(p)); } catch { /* unreadable: left out */ }
      } else if (e.isDirectory() && recursive && depth < 3) walk(p, depth + 1);
    }
  };
  walk(dir, 0);
  sinew.mount(files, '/');
}
function readInput(file) {
  const abs = path.resolve(file);
  let st;
  try { st = fs.statSync(abs); } catch (e) {
    process.stderr.write(`${file}: error: cannot open: ${e.code === 'ENOENT' ? 'No such file or directory' : e.message}\n`);
    process.exit(EXIT.IO);
  }
  if (!st.isFile()) { process.stderr.write(`${file}: error: not a file\n`); process.exit(EXIT.IO); }
  given.set(abs, file);
  return abs;
}
const fail = (err) => {
  let text = String(err);
  for (const [abs, g] of given) text = text.split(abs).join(g);
  process.stderr.write(text + '\n');
  process.exit(exitFor(err));
};
const warn = (lines) => {
  for (let l of lines) { for (const [abs, g] of given) l = l.split(abs).join(g); process.stderr.write(l + '\n'); }
};

// anything else a rig names (an XML rig's images in another folder) is read when it is asked for
sinew.setFileReader((p) => {
  try { return fs.statSync(p).isFile() ? fs.readFileSync(p) : null; } catch { return null; }
});
const skePath = readInput(op.file);
const atlasPath = op.atlas ? readInput(op.atlas) : null;
mountDir(path.dirname(skePath), /\.xml$/i.test(skePath));
if (atlasPath) mountDir(path.dirname(atlasPath), /\.xml$/i.test(atlasPath));
let data, atlas = null, script = null;
try {
  data = sinew.loadSkeletonFile(skePath);
  if (atlasPath) atlas = sinew.loadAtlasFile(atlasPath);
  if (op.script) {
    const scriptPath = readInput(op.script);
    script = sinew.loadScript(fs.readFileSync(scriptPath), data, { name: op.script });
    warn(sinew.warnings);
  }
} catch (e) { fail(e); }

// ---- which armatures (cli/rules.c) ---------------------------------------------------------------
const arms = data.armatures;
const allArmatures = op.armature === 'all';
const oneAnimation = !!op.animation && op.animation !== 'all';
function unknownAnimation(armIndex, anim) {
  const list = (a) => (a.animations.length ? a.animations.map((n) => `'${n.name}'`).join(', ') : 'none');
  if (armIndex >= 0) {
    process.stderr.write(`${op.file}: error: armature '${arms[armIndex].name}' has no animation named '${anim}' (animations: ${list(arms[armIndex])})\n`);
  } else {
    process.stderr.write(`${op.file}: error: no armature has an animation named '${anim}' (${arms.map((a) => `armature '${a.name}': ${list(a)}`).join('; ')})\n`);
  }
  process.exit(EXIT.INPUT);
}
if (!op.armature && oneAnimation && !op.script) {
  const a = arms.findIndex((x) => x.animations.some((n) => n.name === op.animation));
  if (a < 0) unknownAnimation(-1, op.animation);
  op.armature = arms[a].name;
}
// whether armature index a is dumped, and with which skin overlay (undefined: not dumped)
function selected(a) {
  if (allArmatures) {
    if (!op.skin) return { overlay: null };
    try { const r = data.resolveSkin(arms[a].name, op.skin); return r.armature === a ? { overlay: r.overlay } : undefined; } catch { return undefined; }
  }
  try { const r = data.resolveSkin(op.armature ?? null, op.skin ?? null); return r.armature === a ? { overlay: r.overlay } : undefined; } catch { return undefined; }
}
if (!op.script) {
  if (!allArmatures) {
    try { data.resolveSkin(op.armature ?? null, op.skin ?? null); } catch (e) { fail(e); }
  } else if (op.skin && !arms.some((_, a) => selected(a))) {
    process.stderr.write(`${op.file}: error: no armature has the skin '${op.skin}'\n`);
    process.exit(EXIT.INPUT);
  }
  if (oneAnimation) {
    arms.forEach((arm, a) => {
      if (selected(a) && !arm.animations.some((n) => n.name === op.animation)) unknownAnimation(a, op.animation);
    });
  }
}

// ---- the dump ------------------------------------------------------------------------------------
const out = [];
const w = (s) => out.push(s);

const CONSTRAINT_NUMBERS = {
  ik: ['weight'], path: ['position', 'spacing', 'rotateWeight', 'xWeight', 'yWeight'], transform: [],
  physics: ['remaining', 'lastTime', 'xOffset', 'xVelocity', 'yOffset', 'yVelocity', 'rotateOffset', 'rotateVelocity',
    'scaleOffset', 'scaleVelocity'],
};
// ,"constraints":[...] (--constraints; tools/oracle6's schema)
function constraintsJson(inst, ai, bones) {
  const list = inst.constraints({ armature: ai }).map((c) => {
    let t = `{"name":${str(c.name)},"type":"${c.type}"`;
    if (c.type === 'ik') t += `,"weight":${num(c.weight)},"bendPositive":${c.bendPositive}`;
    else if (c.type !== 'path') t += `,"bone":${str(c.bone >= 0 ? bones[c.bone].name : null)}`;
    if (c.type === 'path') for (const k of CONSTRAINT_NUMBERS.path) t += `,"${k}":${num(c[k])}`;
    if (c.type === 'transform') t += `,"target":${str(c.target >= 0 ? bones[c.target].name : null)}`;
    if (c.type === 'physics') {
      t += `,"sleeping":${c.sleeping},"reset":${c.reset}`;
      for (const k of CONSTRAINT_NUMBERS.physics) t += `,"${k}":${num(c[k])}`;
    }
    return t + '}';
  });
  return `,"constraints":[${list.join(',')}]`;
}

function poseMembers(inst, ai, depth) {
  const bones = inst.bones({ armature: ai });
  w('"bones":[');
  bones.forEach((b, i) => {
    w(`${i ? ',' : ''}{"name":${str(b.name)},"parent":${str(b.parent >= 0 ? bones[b.parent].name : null)},"matrix":${matrix(b.matrix)}}`);
  });
  w('],"slots":[');
  const slots = inst.slots({ armature: ai });
  const slotName = new Map(slots.map((x) => [x.index, x.name]));
  slots.forEach((s, k) => {
    const c = s.color;
    w(`${k ? ',' : ''}{"name":${str(s.name)},"parent":${str(bones[s.parent] ? bones[s.parent].name : null)},"displayIndex":${s.displayIndex},"display":`);
    w(s.displayName !== null ? `{"name":${str(s.displayName)},"path":${str(s.displayPath)},"type":"${s.displayType || 'image'}"}` : 'null');
    w(`,"visible":${s.visible},"zOrder":${s.drawIndex},"drawIndex":${s.drawIndex},"color":{"aM":${num(c.aM)},"rM":${num(c.rM)},"gM":${num(c.gM)},"bM":${num(c.bM)},"aO":${num(c.aO)},"rO":${num(c.rO)},"gO":${num(c.gO)},"bO":${num(c.bO)}},"blendMode":${s.blendMode},"matrix":${matrix(s.matrix)}`);
    if (s.pivot) w(`,"pivot":[${num(s.pivot[0])},${num(s.pivot[1])}]`);
    if (s.mask !== null) w(`,"mask":${num(s.mask)}`); // 6.0 masks
    if (s.maskedBy >= 0) w(`,"maskedBy":${str(slotName.get(s.maskedBy) ?? null)}`);
    for (const key of ['mesh', 'path', 'shape'])
      if (s[key]) w(`,"${key}":{"weighted":${s[key].weighted},"vertices":[${s[key].vertices.map(num).join(',')}]}`);
    if (s.childArmature >= 0 && depth < 8) {
      const states = inst.states({ armature: s.childArmature });
      w(`,"childArmature":{"name":${str(inst.armatureName(s.childArmature))},"animation":${str(states.length ? states[states.length - 1].name : null)},"pose":{`);
      poseMembers(inst, s.childArmature, depth + 1);
      w('}}');
    }
    w('}');
  });
  w(']');
  if (op.constraints) w(constraintsJson(inst, ai, bones));
}

let pending = [];
const collect = (ev) => pending.push(ev);
function events() {
  const list = pending.map((e) => `{"type":${str(e.type)},"name":${str(e.name)},"armature":${str(e.armature)},"animation":${str(e.animation)},"time":${num(e.time)}${e.bone !== null ? `,"bone":${str(e.bone)}` : ''}${e.slot !== null ? `,"slot":${str(e.slot)}` : ''}}`);
  pending = [];
  return `"events":[${list.join(',')}]`;
}
function statesJson(inst) {
  return `,"states":[${inst.states().map((s) => `{"name":${str(s.name)},"group":${str(s.group)},"layer":${s.layer},"playTimes":${s.playTimes},"currentPlayTimes":${s.currentPlayTimes},"currentTime":${num(s.currentTime)},"weight":${num(s.weight)},"fadeProgress":${num(s.fadeProgress)},"timeScale":${num(s.timeScale)},"playing":${s.playing},"completed":${s.completed},"fadingIn":${s.fadingIn},"fadingOut":${s.fadingOut}}`).join(',')}]`;
}
const V6 = data.version === '6.0' || data.compatibleVersion === '6.0';
function header(mode) {
  const plays = V6 ? `,"plays":"DragonBones 6.0, as DragonBonesJS 6.0.2 (tools/oracle6)","random":${str(op.random ?? '0.5')}` : '';
  w(`{"oracle":{"version":1,"runtime":"sinew","runtimeVersion":${str(sinew.version)},"yDown":true,"mode":"${mode}","angleUnit":"radian","matrix":"[a,b,c,d,tx,ty]: x' = a*x + c*y + tx, y' = b*x + d*y + ty"${plays}},"input":{"file":${str(path.basename(op.file))},"atlas":${op.atlas ? str(path.basename(op.atlas)) : 'null'},"name":${str(data.dataName)},"version":${str(data.version)},"compatibleVersion":${str(data.compatibleVersion || '')},"frameRate":${num(data.frameRate)}},"armatures":[`);
}
let cache = null;
try { if (op.cacheFps) cache = data.createFrameCache(op.cacheFps); } catch (e) { fail(e); }
const create = (armName, overlay) => {
  const inst = data.createInstance({ armature: armName, skin: overlay, atlas, maxStates: op.maxStates, frameCache: cache,
    random: op.random ?? null, noClock: op.mode === 'seek' });
  inst.on('*', collect);
  return inst;
};

function runSteps() {
  header(op.mode === 'seek' ? 'seek' : 'step');
  let firstArm = true;
  arms.forEach((arm, a) => {
    const sel = selected(a);
    if (!sel) return;
    const fps = op.fps > 0 ? op.fps : arm.frameRate, dt = 1 / fps;
    w(`${firstArm ? '' : ','}{"name":${str(arm.name)},"frameRate":${num(arm.frameRate)},"sampleRate":${num(fps)}`);
    firstArm = false;
    if (!arm.animations.length) {
      const inst = create(arm.name, sel.overlay);
      inst.update(0);
      pending = [];
      w(',"setupPose":{');
      poseMembers(inst, 0, 0);
      w('}');
      inst.dispose();
    }
    w(',"animations":[');
    let firstAnim = true;
    for (const an of arm.animations) {
      if (oneAnimation && an.name !== op.animation) continue;
      const framesF = an.frames >= 1 ? Math.floor(an.frames) : 1;
      const duration = framesF / arm.frameRate;
      const frames = op.frames > 0 ? op.frames : Math.max(1, Math.floor(duration * fps + 0.5)) + 1;
      const inst = create(arm.name, sel.overlay);
      const seek = op.mode === 'seek'; // each sample a gotoAndStop off the clock (the oracles' seek mode)
      if (!seek) {
        inst.play(an.name);
        inst.update(0);
      }
      w(`${firstAnim ? '' : ','}{"name":${str(an.name)},"duration":${num(duration)},"frameCount":${framesF},"playTimes":${an.playTimes},"samples":[`);
      firstAnim = false;
      for (let k = 0; k < frames; k++) {
        if (seek) {
          inst.gotoAndStop(an.name, { time: k * dt });
          inst.update(0);
          pending = [];
        } else if (k > 0) {
          inst.update(dt);
        }
        let st = { currentTime: 0, playTimes: 0 };
        for (const s of inst.states()) if (s.name === an.name) st = s;
        w(`${k ? ',' : ''}{"frame":${k},"time":${num(k * dt)},"stateTime":${num(st.currentTime)},"playTimes":${st.playTimes},${events()},`);
        poseMembers(inst, 0, 0);
        w('}');
      }
      w(']}');
      inst.dispose();
    }
    w(']}');
  });
  w(']}\n');
}

// One scenario as the oracle's scenario.mjs runs it: the commands due at t <= 0, a zero-time update
// and sample 0; before each later sample k the commands with t <= (k-1)/fps not issued yet, and one
// update of 1/fps.
function runScenario(sc, armIndex, first) {
  const arm = arms[armIndex];
  let target = armIndex, overlay = null;
  if (op.skin) ({ armature: target, overlay } = data.resolveSkin(arm.name, op.skin));
  const inst = create(arms[target].name, overlay);
  const dt = 1 / sc.fps;
  let ci = 0;
  const issueDue = (t) => {
    while (ci < sc.commands.length && sc.commands[ci].t <= t + 1e-9) script.issue(inst, sc.index, sc.commands[ci++].index);
  };
  issueDue(0);
  inst.update(0);
  w(`${first ? '' : ','}{"name":${str(sc.name)},"duration":${num(sc.frames / sc.fps)},"frameCount":${sc.frames},"playTimes":0,"samples":[`);
  for (let k = 0; k < sc.frames; k++) {
    if (k > 0) { issueDue((k - 1) * dt); inst.update(dt); }
    w(`${k ? ',' : ''}{"frame":${k},"time":${num(k * dt)},${events()}${op.states ? statesJson(inst) : ''},`);
    poseMembers(inst, 0, 0);
    w('}');
  }
  w(']}');
  inst.dispose();
}

function runScript() {
  header('scenario');
  const scs = script.scenarios;
  const armOf = (sc) => (sc.armature ? arms.findIndex((a) => a.name === sc.armature) : 0);
  let firstArm = true;
  scs.forEach((sc, i) => {
    const a = armOf(sc);
    if (scs.slice(0, i).some((p) => armOf(p) === a) || a < 0) return;
    const arm = arms[a];
    w(`${firstArm ? '' : ','}{"name":${str(arm.name)},"frameRate":${num(arm.frameRate)},"sampleRate":${num(sc.fps)},"animations":[`);
    firstArm = false;
    let first = true;
    for (const s of scs.slice(i)) {
      if (armOf(s) !== a) continue;
      runScenario(s, a, first);
      first = false;
    }
    w(']}');
  });
  w(']}\n');
}

try {
  if (script) runScript(); else runSteps();
} catch (e) { fail(e); }
const text = out.join('');
if (op.out) {
  const dest = path.resolve(op.out);
  if (dest === skePath || dest === atlasPath) { process.stderr.write(`${op.out}: error: refusing to overwrite an input\n`); process.exit(EXIT.INPUT); }
  const tmp = `${dest}.tmp-${process.pid}`;
  try { fs.writeFileSync(tmp, text); fs.renameSync(tmp, dest); } catch (e) {
    try { fs.unlinkSync(tmp); } catch { /* nothing to remove */ }
    process.stderr.write(`${op.out}: error: cannot write: ${e.message}\n`);
    process.exit(EXIT.IO);
  }
} else {
  process.stdout.write(text);
}
