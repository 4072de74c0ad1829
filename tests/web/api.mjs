// The JavaScript API of the WebAssembly build, in node (run by tests/web/api.py, which passes the
// native build's outputs to compare with in REF.json): errors, events and listeners, the crowd
// update, the draw-list views and when they go stale, the first draw list of many instances while
// the wasm memory grows, state group names, long warnings, dispose (with live instances too) and
// the FinalizationRegistry, hit tests, bone offsets, display replacement, and every animation call
// (play, fadeIn with layers, groups and weights, gotoAndPlay/Stop, stop, time scales) against the
// scenario runner.
//   node --expose-gc api.mjs BUILD_WASM REF.json OUT.json
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [wasmDir, refFile, outFile] = process.argv.slice(2);
const { init, SinewError, DrawList } = await import(path.resolve(wasmDir, 'sinew.mjs'));
const ref = JSON.parse(fs.readFileSync(refFile, 'utf8'));
const out = {};
let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) passed++; else { failed++; console.log(`FAIL: ${what}`); }
  return ok;
}
const read = (p) => fs.readFileSync(path.join(ref.src, p));

const sinew = await init();
const demoData = () => sinew.loadSkeleton(read('examples/demo/demo_ske.json'), { name: 'demo_ske.json' });
const demoAtlas = () => sinew.loadAtlas(read('examples/demo/demo_tex.json'), { name: 'demo_tex.json' });

// ---- errors: what the command line prints, as SinewError fields ------------------------------
out.errors = {};
for (const name of ref.errorFiles) {
  try {
    sinew.loadSkeleton(read(`tests/fixtures/errors/${name}`), { name });
    out.errors[name] = null;
  } catch (e) {
    check(e instanceof SinewError && e instanceof Error, `${name}: a SinewError (${e})`);
    out.errors[name] = { text: String(e), line: e.line, column: e.column, file: e.file, code: e.code };
  }
}

// ---- the draw list: views into wasm memory, stale when the rule says ----------------------------
const data = demoData(), atlas = demoAtlas();
const inst = data.createInstance({ atlas });
inst.play('walk');
inst.update(0);
let dl = inst.drawList();
check(dl.positions.buffer === sinew.memory.buffer && dl.indices.buffer === sinew.memory.buffer, 'draw-list arrays are views into wasm memory');
check(!dl.stale, 'a new draw list is not stale');
const firstX = dl.positions[0];
inst.update(1 / 24);
check(dl.stale, 'a draw list is stale after its instance updates');
dl = inst.drawList();
check(!dl.stale && dl.positions[0] !== firstX, 'the next draw list has the next pose');
// a load that grows the memory detaches every view
const before = sinew.memory.buffer.byteLength;
const big = [];
while (sinew.memory.buffer.byteLength === before) big.push(sinew.loadSkeleton(read('examples/demo/demo_ske.json'), { name: 'grow.json' }));
check(dl.stale && dl.positions.length === 0, `views go stale (and empty) when the memory grows (${dl.positions.length})`);
for (const d of big) d.dispose();

// ---- the first draw list of many instances: views read after the call that grows the memory ---------
// A fresh instance's first drawList() allocates its buffers, which may grow the wasm memory: a view
// made on the buffer from before that call throws (a detached ArrayBuffer). Many instances of each
// rig (with ../shared also you_xin's body, 686 vertices), one fresh drawList() each; the memory
// must have grown during some of those calls, else the check proves nothing.
{
  const rigs = [['demo', 'examples/demo/demo_ske.json', 'examples/demo/demo_tex.json'],
    ['Pip 5.5', 'tests/fixtures/own/Pip_5.5/pip_ske.json', 'tests/fixtures/own/Pip_5.5/pip_tex.json']];
  if (ref.youXin) rigs.push(['you_xin body', ref.youXin.ske, ref.youXin.tex]);
  for (const [label, skePath, texPath] of rigs) {
    const d = sinew.loadSkeleton(fs.readFileSync(path.resolve(ref.src, skePath)), { name: path.basename(skePath) });
    const a = sinew.loadAtlas(fs.readFileSync(path.resolve(ref.src, texPath)), { name: path.basename(texPath) });
    const arm = d.armature(), xs = [];
    for (let i = 0; i < 200; i++) {
      const x = d.createInstance({ atlas: a });
      x.gotoAndPlay(arm.animations[i % arm.animations.length].name, { progress: (i % 7) / 7 });
      x.update(0);
      xs.push(x);
    }
    let threw = 0, grew = 0, empty = 0, first = '';
    for (const x of xs) {
      const before = sinew.memory.buffer.byteLength;
      try {
        const list = x.drawList();
        if (list.stale || !list.vertexCount || list.positions.length !== 2 * list.vertexCount) empty++;
      } catch (e) { threw++; first ||= String(e); }
      if (sinew.memory.buffer.byteLength !== before) grew++;
    }
    check(grew > 0, `${label}: the memory grew during some first drawList() (${grew} of 200)`);
    check(!threw && !empty, `${label}: 200 instances' first drawList() each (${threw} threw, ${empty} unreadable; ${first})`);
    for (const x of xs) x.dispose();
    a.dispose(); d.dispose();
  }
}
// The same in a fresh module (its first Instance; DrawList.layout not yet known), with the heap
// filled to just past a growth and then j KiB more for j = 0..63, so that the first instance and its
// first draw list cross the end of the memory at every offset in one of the rounds.
{
  const wasm = await WebAssembly.compile(fs.readFileSync(path.join(wasmDir, 'sinew.wasm')));
  const url = pathToFileURL(path.resolve(wasmDir, 'sinew.mjs')).href;
  let threw = 0, bad = 0, grewCreate = 0, grewList = 0, first = '';
  for (let j = 0; j < 64; j++) {
    const mod = await import(`${url}?round=${j}`);
    const s = await mod.init(wasm);
    const d = s.loadSkeleton(read('examples/demo/demo_ske.json'), { name: 'demo_ske.json' });
    const a = s.loadAtlas(read('examples/demo/demo_tex.json'), { name: 'demo_tex.json' });
    const len = () => s.memory.buffer.byteLength;
    const b0 = len();
    while (len() === b0) s._x.sw_alloc(1024);
    for (let k = 0; k < j; k++) s._x.sw_alloc(1024);
    const b1 = len();
    try {
      const x = d.createInstance({ atlas: a });
      const b2 = len();
      x.play('walk'); x.update(0);
      const list = x.drawList();
      if (b2 !== b1) grewCreate++;
      if (len() !== b2) grewList++;
      if (list.stale || !list.vertexCount || list.positions.length !== 2 * list.vertexCount) bad++;
    } catch (e) { threw++; first ||= String(e); }
  }
  check(grewList > 0, `a fresh module: the memory grew in the first drawList() of some round (${grewList} of 64; in createInstance: ${grewCreate})`);
  check(!threw && !bad, `a fresh module: the first instance and its first drawList() work wherever the memory grows (${threw} of 64 threw, ${bad} unreadable; ${first})`);
}
// the draw list of frames 0..4 of the demo's walk, for the native comparison
out.drawlists = [];
{
  const d = data.createInstance({ atlas });
  d.play('walk');
  for (let k = 0; k < 5; k++) {
    d.update(k ? 1 / 24 : 0);
    const list = d.drawList(), cmds = [];
    const slots = d.slots();
    for (let c = 0; c < list.commandCount; c++) {
      const cmd = list.command(c);
      const slot = slots.find((s) => s.index === cmd.slot);
      const v = Array.from(list.positions.subarray(2 * cmd.firstVertex, 2 * (cmd.firstVertex + cmd.vertexCount)));
      const uv = Array.from(list.uvs.subarray(2 * cmd.firstVertex, 2 * (cmd.firstVertex + cmd.vertexCount)));
      const col = cmd.color;
      cmds.push({ slot: slot ? slot.name : '', display: slot && slot.displayName ? slot.displayName : '', depth: cmd.depth,
        blend: cmd.blend, color: [col.rM, col.gM, col.bM, col.aM, col.rO, col.gO, col.bO, col.aO], vertices: v, uvs: uv });
    }
    out.drawlists.push(cmds);
  }
  d.dispose();
}

// ---- events: listeners, the wildcard, off(), the right instance -----------------------------------
{
  const a = data.createInstance({ atlas }), b = data.createInstance({ atlas });
  const got = { a: [], b: [], all: [] };
  const fa = (e) => got.a.push(e), fb = (e) => got.b.push(e);
  a.on('frameEvent', fa).on('*', (e) => got.all.push(e));
  b.on('start', fb);
  a.play('walk'); b.play('wave');
  sinew.update([a, b], 0);
  for (let i = 0; i < 48; i++) sinew.update([a, b], 1 / 24);
  check(got.a.length > 0 && got.a.every((e) => e.type === 'frameEvent' && e.instance === a && e.animation === 'walk'),
    `frame events of walk reach a's listener (${got.a.length})`);
  check(got.all.some((e) => e.type === 'start') && got.all.every((e) => e.instance === a), "a's '*' listener gets all of a's events, none of b's");
  check(got.b.length === 1 && got.b[0].animation === 'wave', `b's start listener fired once (${got.b.length})`);
  out.events = got.all.map((e) => [e.type, e.name, e.animation]);
  const n = got.a.length;
  a.off('frameEvent', fa);
  for (let i = 0; i < 48; i++) sinew.update([a, b], 1 / 24);
  check(got.a.length === n, 'off() stops delivery');
  let threw = false;
  try { a.on('nonsense', () => {}); } catch (e) { threw = e instanceof SinewError; }
  check(threw, 'an unknown event type is an error');
  a.dispose(); b.dispose();
}

// ---- the crowd update: one call, the same poses as one update per instance ---------------------------
{
  const n = 20, one = [], many = [];
  for (let i = 0; i < n; i++) {
    for (const list of [one, many]) {
      const x = data.createInstance({ atlas });
      x.gotoAndPlay('walk', { time: (i * 0.0371) % 1 }, { playTimes: 0 });
      list.push(x);
    }
  }
  for (let t = 0; t < 30; t++) {
    for (const x of one) x.update(1 / 60);
    sinew.update(many, 1 / 60);
  }
  const same = one.every((x, i) => JSON.stringify(x.bones()) === JSON.stringify(many[i].bones()));
  check(same, 'sinew.update(list, dt) moves every instance as its own update(dt) does');
  const vertices = sinew.updateWithDrawLists(many, 1 / 60);
  for (const x of one) x.update(1 / 60);
  const sum = one.reduce((acc, x) => acc + x.drawList().vertexCount, 0);
  check(vertices === sum && sum > 0, `updateWithDrawLists counts the draw lists' vertices (${vertices} = ${sum})`);
  check(one.every((x, i) => JSON.stringify(x.bones()) === JSON.stringify(many[i].bones())), 'updateWithDrawLists updates as update() does');
  for (const x of [...one, ...many]) x.dispose();
}

// a draw list goes stale when a crowd update moves its instance, as after its own update()
{
  const x = data.createInstance({ atlas }), y = data.createInstance({ atlas });
  x.play('walk'); y.play('wave');
  sinew.update([x, y], 0);
  const lx = x.drawList(), ly = y.drawList();
  sinew.update([x, y], 1 / 24);
  check(lx.stale && ly.stale, `draw lists are stale after sinew.update([...], dt) (${lx.stale}, ${ly.stale})`);
  const mx = x.drawList();
  sinew.updateWithDrawLists([x], 1 / 24);
  check(mx.stale, 'and after sinew.updateWithDrawLists');
  x.dispose(); y.dispose();
}

// ---- states(): each state's own group, not one decoded earlier at the same address ----------------
// A state's group is kept in the instance's state array, which fadeOutMode 'all' rewrites (the old
// states leave, the new one moves down) and which a later instance may reuse.
{
  const x = data.createInstance({ atlas });
  const want = { walk: 'upper', wave: 'lower', idle: 'third' };
  const wrong = [];
  const look = (inst, when) => {
    for (const st of inst.states()) if (st.group !== want[st.name]) wrong.push(`${when}: ${st.name} in '${st.group}'`);
  };
  x.fadeIn('walk', { group: 'upper', fadeInTime: 0 });
  x.update(1 / 24);
  look(x, 'walk');
  x.fadeIn('wave', { group: 'lower', fadeOutMode: 'all', fadeInTime: 0.1 });
  for (let k = 0; k < 6; k++) { x.update(1 / 24); look(x, `wave +${k}`); }
  const names = x.states().map((st) => st.name).join(',');
  x.dispose();
  const y = data.createInstance({ atlas });
  y.fadeIn('idle', { group: 'third' });
  y.update(0);
  look(y, 'a new instance');
  check(names === 'wave' && !wrong.length, `states() gives each state its own group (states left: ${names}; ${wrong.slice(0, 4).join('; ')})`);
  y.dispose();
}

// ---- warnings: a long one stays one line, the next its own ---------------------------------------
{
  const spec = JSON.parse(read('examples/demo/demo_ske.json'));
  const displays = spec.armature[0].skin[0].slot.map((sl) => sl.display[0]);
  const long = 'L'.repeat(701);
  Object.assign(displays[0], { name: long }); delete displays[0].path;
  Object.assign(displays[1], { name: 'second_missing' }); delete displays[1].path;
  const d = sinew.loadSkeleton(JSON.stringify(spec), { name: 'long_ske.json' });
  const clean = demoData();
  check(clean.checkAtlas(atlas).length === 0, `the demo has every region of its atlas (${sinew.warnings.length})`);
  const w = d.checkAtlas(atlas);
  check(w.length === 2 && w[0].includes('L'.repeat(600)) && w[0].includes(': warning: ') && !w[0].includes('second_missing')
    && w[1].startsWith('long_ske.json') && w[1].includes("'second_missing'"),
    `a ${long.length}-byte display name and a second missing display give two warnings (${w.length}: ${w.map((l) => l.slice(0, 60) + '...' + l.slice(-60)).join(' | ')})`);
  d.dispose(); clean.dispose();
}

// ---- every animation call through the JS methods = the scenario runner (sinew_script_issue) -------------
{
  const pip = sinew.loadSkeleton(read('tests/fixtures/own/Pip_5.0/pip_ske.json'), { name: 'pip_ske.json' });
  const pipAtlas = sinew.loadAtlas(read('tests/fixtures/own/Pip_5.0/pip_tex.json'), { name: 'pip_tex.json' });
  const text = read('tests/fixtures/scenarios/pip.json');
  const script = sinew.loadScript(text, pip, { name: 'pip.json' });
  const spec = JSON.parse(text);
  const modes = ['none', 'sameLayer', 'sameGroup', 'sameLayerAndGroup', 'all', 'single'];
  let compared = 0, differ = [];
  script.scenarios.forEach((sc, si) => {
    const cmds = spec.scenarios[si].commands.map((c, i) => ({ ...c, index: i })).sort((x, y) => x.t - y.t);
    const viaScript = pip.createInstance({ armature: sc.armature, atlas: pipAtlas });
    const viaApi = pip.createInstance({ armature: sc.armature, atlas: pipAtlas });
    const issueApi = (c) => {
      const unit = { [c.unit ?? 'time']: c.value ?? 0 };
      const opts = { playTimes: c.playTimes ?? -1 };
      switch (c.op) {
        case 'play': viaApi.play(c.animation ?? null, opts); break;
        case 'fadeIn':
          viaApi.fadeIn(c.animation, { fadeInTime: c.fadeInTime ?? -1, playTimes: c.playTimes ?? -1, layer: c.layer ?? 0,
            group: c.group ?? null, fadeOutMode: c.fadeOutMode !== undefined ? modes[['None', 'SameLayer', 'SameGroup', 'SameLayerAndGroup', 'All', 'Single'].indexOf(c.fadeOutMode)] ?? c.fadeOutMode : 'sameLayerAndGroup' });
          // the official scenario sets weight and time scale on the new state afterwards
          if (c.weight !== undefined) viaApi.setStateWeight(c.animation, c.weight);
          if (c.timeScale !== undefined) viaApi.setStateTimeScale(c.animation, c.timeScale);
          break;
        case 'gotoAndPlay': viaApi.gotoAndPlay(c.animation, unit, opts); break;
        case 'gotoAndStop': viaApi.gotoAndStop(c.animation, unit); break;
        case 'stop': viaApi.stop(c.animation ?? null); break;
        case 'timeScale': viaApi.timeScale = c.value; break;
        case 'stateWeight': viaApi.setStateWeight(c.animation, c.value); break;
        case 'stateTimeScale': viaApi.setStateTimeScale(c.animation, c.value); break;
        default: throw new Error(`op ${c.op}`);
      }
    };
    let ci = 0;
    const due = (t) => {
      while (ci < cmds.length && cmds[ci].t <= t + 1e-9) {
        script.issue(viaScript, si, ci);
        issueApi(cmds[ci]);
        ci++;
      }
    };
    due(0);
    viaScript.update(0); viaApi.update(0);
    for (let k = 0; k < sc.frames; k++) {
      if (k) { due((k - 1) / sc.fps); viaScript.update(1 / sc.fps); viaApi.update(1 / sc.fps); }
      const a = JSON.stringify([viaScript.bones(), viaScript.slots(), viaScript.states()]);
      const b = JSON.stringify([viaApi.bones(), viaApi.slots(), viaApi.states()]);
      compared++;
      if (a !== b) { differ.push(`${sc.name} sample ${k}`); break; }
    }
    viaScript.dispose(); viaApi.dispose();
  });
  check(!differ.length, `the JS animation calls give the scenario runner's poses (${compared} samples; differ: ${differ.slice(0, 3)})`);
  script.dispose(); pipAtlas.dispose(); pip.dispose();
}

// ---- hit test, bounds, bone offsets, display replacement -----------------------------------------
{
  const x = data.createInstance({ atlas });
  x.play('idle'); x.update(0);
  const list = x.drawList(), c = list.command(list.commandCount - 1);
  const i0 = list.indices[c.firstIndex], i1 = list.indices[c.firstIndex + 1], i2 = list.indices[c.firstIndex + 2];
  const cx = (list.positions[2 * i0] + list.positions[2 * i1] + list.positions[2 * i2]) / 3;
  const cy = (list.positions[2 * i0 + 1] + list.positions[2 * i1 + 1] + list.positions[2 * i2 + 1]) / 3;
  const hit = x.hitTest(cx, cy);
  const topSlot = x.slots().find((s) => s.index === c.slot);
  check(hit && hit.slot === c.slot && hit.name === topSlot.name, `hitTest finds the topmost slot (${JSON.stringify(hit)}, ${topSlot.name})`);
  check(x.hitTest(1e6, 1e6) === null, 'hitTest off the character is null');
  const b = x.bounds();
  check(b && b.x0 <= cx && cx <= b.x1 && b.y0 <= cy && cy <= b.y1, 'bounds hold the drawn triangles');
  const root = x.bones()[0];
  x.setBoneOffset(root.name, { x: 10, y: -5 });
  x.update(0);
  const moved = x.bones()[0];
  check(Math.abs(moved.matrix[4] - root.matrix[4] - 10) < 1e-4 && Math.abs(moved.matrix[5] - root.matrix[5] + 5) < 1e-4,
    `setBoneOffset moves the root bone (${root.matrix.slice(4)} -> ${moved.matrix.slice(4)})`);
  x.setBoneOffset(root.name, null);
  x.update(0);
  check(JSON.stringify(x.bones()[0].matrix) === JSON.stringify(root.matrix), 'setBoneOffset(null) removes the offset');
  let threw = null;
  try { x.setBoneOffset('no-such-bone', { x: 1 }); } catch (e) { threw = e; }
  check(threw instanceof SinewError && threw.code === 'NOT_FOUND', `an unknown bone is a NOT_FOUND SinewError (${threw})`);
  x.dispose();
}
// display replacement: poses with --replace, for the native comparison
{
  const x = data.createInstance({ atlas });
  x.play('walk');
  x.replaceDisplay(ref.replace.slot, ref.replace.display, { sourceSlot: ref.replace.source });
  x.update(0);
  out.replaced = x.slots().map((s) => [s.name, s.displayName, s.displayIndex, Array.from(s.matrix), s.pivot]);
  x.dispose();
}

// ---- dispose and the FinalizationRegistry --------------------------------------------------------
{
  const x = data.createInstance({ atlas });
  x.dispose();
  let threw = null;
  try { x.update(1); } catch (e) { threw = e; }
  check(threw instanceof SinewError && /disposed/.test(threw.message), 'a disposed instance says so');
  x.dispose(); // twice is fine
  const live = () => sinew._instances.size;
  const start = live();
  (() => { for (let i = 0; i < 40; i++) data.createInstance({ atlas }); })();
  check(live() === start + 40, 'forty instances are live');
  for (let round = 0; round < 50 && live() > start; round++) {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 20));
  }
  check(live() === start, `the FinalizationRegistry frees forgotten instances (${live() - start} left)`);
}
inst.dispose(); atlas.dispose(); data.dispose();

// ---- dispose with live instances: the data, atlas and frame cache live on until their last user ---------
// (docs/web.md): the instance keeps playing exactly as a twin whose data was never disposed, while
// other loads take the freed memory; nothing new can be made from a disposed data; the native side
// is freed when the last instance goes, by dispose() or by the FinalizationRegistry.
{
  const pip = () => [sinew.loadSkeleton(read('tests/fixtures/own/Pip_5.5/pip_ske.json'), { name: 'pip_ske.json' }),
    sinew.loadAtlas(read('tests/fixtures/own/Pip_5.5/pip_tex.json'), { name: 'pip_tex.json' })];
  const [d, a] = pip(), [td, ta] = pip();
  const cache = d.createFrameCache(30), tcache = td.createFrameCache(30);
  const x = d.createInstance({ atlas: a, frameCache: cache }), twin = td.createInstance({ atlas: ta, frameCache: tcache });
  for (const i of [x, twin]) { i.play('hop'); i.update(0); }
  cache.dispose(); a.dispose(); d.dispose();
  const filler = [];
  for (let i = 0; i < 6; i++) filler.push(demoData(), demoAtlas());
  const pose = (i) => { const l = i.drawList(); return JSON.stringify([i.bones(), i.slots(), Array.from(l.positions), Array.from(l.uvs)]); };
  let differ = -1, err = '';
  try {
    for (let k = 0; k < 30 && differ < 0; k++) {
      x.update(1 / 30); twin.update(1 / 30);
      if (pose(x) !== pose(twin)) differ = k;
    }
  } catch (e) { err = String(e); }
  check(differ < 0 && !err, `an instance whose data, atlas and frame cache were disposed plays as its twin (differs at ${differ}; ${err})`);
  let threw = [];
  for (const [what, fn] of [['createInstance', () => d.createInstance()], ['createFrameCache', () => d.createFrameCache(30)],
    ['checkAtlas', () => td.checkAtlas(a)]]) {
    try { fn(); } catch (e) { if (e instanceof SinewError && /disposed/.test(e.message)) threw.push(what); }
  }
  check(threw.length === 3, `a disposed data or atlas makes nothing new (threw: ${threw})`);
  check(d._native?.ptr && a._native?.ptr && cache._native?.ptr, 'their native side lives while the instance does');
  x.dispose();
  check(!d._native?.ptr && !a._native?.ptr && !cache._native?.ptr, 'and is freed with the last instance');
  twin.dispose(); tcache.dispose(); ta.dispose(); td.dispose();
  for (const f of filler) f.dispose();
  // forgotten instances of a disposed data: the FinalizationRegistry frees them, then the data
  const [g, ga] = pip();
  (() => { for (let i = 0; i < 10; i++) g.createInstance({ atlas: ga }).play('hop'); })();
  g.dispose(); ga.dispose();
  for (let round = 0; round < 50 && g._native?.ptr; round++) {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 20));
  }
  check(g._native && !g._native.ptr && !ga._native.ptr, 'a disposed data and atlas are freed once their forgotten instances are collected');
}

// ---- DBBin from an ArrayBuffer ------------------------------------------------------------------------
if (ref.dbbin) {
  const bytes = fs.readFileSync(ref.dbbin);
  const d = sinew.loadSkeleton(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), { name: 'pip_ske.dbbin' });
  const j = sinew.loadSkeleton(read('tests/fixtures/own/Pip_5.5/pip_ske.json'), { name: 'pip_ske.json' });
  const pose = (dd) => { const x = dd.createInstance(); x.play('hop'); x.update(0); x.update(0.2); const p = JSON.stringify(x.bones()); x.dispose(); return p; };
  check(JSON.stringify(d.armatureNames) === JSON.stringify(j.armatureNames) && pose(d) === pose(j), 'a .dbbin from an ArrayBuffer plays as its JSON');
  d.dispose(); j.dispose();
}

fs.writeFileSync(outFile, JSON.stringify(out));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
