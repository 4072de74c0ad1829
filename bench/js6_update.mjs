// Armature-update speed of the official DragonBones 6.0.2 runtime (tools/oracle6's dragonBones.js)
// in node, by the method of ../shared/tools/bench-js/bench.js (docs/performance.md): N armatures
// looping one animation out of phase (gotoAndPlayByTime(anim, i * 0.0371 mod duration, 0)) on the
// runtime's one WorldClock, warm-up max(120, 20000 / N) ticks, then RUNS runs of TICKS ticks of
// DragonBones.advanceTime(1/60); the display adapter computes mesh and vector-shape vertices (what
// a renderer must do anyway) and draws nothing. Math.random is the constant 0.5 (tools/oracle6's
// default), so physics does what `sinew bench` does with its default random source.
//
// usage: node bench/js6_update.mjs SHARED SKE.json ANIMATION [--n=100] [--ticks=300] [--runs=5]
//   SHARED: the ../shared folder (its tools/oracle6/runtime.mjs is loaded). Prints one JSON line:
//   {"ns_per_update" (min over runs), "ns_per_update_median", "bones", "physics" (constraints of
//   the first armature), "physics_awake" (of them, awake at the end), "clock_time", "instances",
//   "ticks", "runs"}.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const pos = args.filter((a) => !a.startsWith('--'));
const opt = (k, d) => { const a = args.find((x) => x.startsWith(`--${k}=`)); return a ? +a.slice(k.length + 3) : d; };
if (pos.length !== 3) {
  process.stderr.write('usage: node js6_update.mjs SHARED SKE.json ANIMATION [--n=100] [--ticks=300] [--runs=5]\n');
  process.exit(1);
}
const [shared, skePath, animName] = pos;
const N = opt('n', 100), TICKS = opt('ticks', 300), RUNS = opt('runs', 5);
// the real path: ../shared is a symlink, and tools/oracle6's modules compare their own URL with
// process.argv[1]'s to tell whether they run as the main module
const runtime = fs.realpathSync(path.join(shared, 'tools', 'oracle6', 'runtime.mjs'));
const { dragonBones: db, setRandom } = await import(pathToFileURL(runtime).href);
setRandom('0.5');
console.info = () => {};

class NullEvents { hasDBEventListener() { return false; } dispatchDBEvent() {} addDBEventListener() {} removeDBEventListener() {} }
class NullProxy extends NullEvents {
  constructor() { super(); this._armature = null; this.children = []; }
  dbInit(a) { this._armature = a; }
  dbClear() { this._armature = null; }
  dbUpdate() {}
  dispose() {}
  get armature() { return this._armature; }
  get animation() { return this._armature.animation; }
}
class NullTextureData extends db.TextureData { static toString() { return '[class NullTextureData6]'; } }
class NullTextureAtlasData extends db.TextureAtlasData {
  static toString() { return '[class NullTextureAtlasData6]'; }
  createTexture() { return db.BaseObject.borrowObject(NullTextureData); }
}

// the vertices of a mesh or shape geometry: weighted through the bones, else the data plus deform
function vertices(slot, out) {
  const g = slot._geometryData;
  if (!g || !g.data) return out;
  const deform = slot._displayFrame !== null ? slot._displayFrame.deformVertices : [];
  const { intArray, floatArray } = g.data;
  const scale = slot._armature._armatureData.scale;
  const count = intArray[g.offset];
  if (!out || out.length !== count * 2) out = new Float32Array(count * 2);
  if (g.weight !== null) {
    const bones = slot._geometryBones;
    let iV = intArray[g.weight.offset + 1];
    if (iV < 0) iV += 65536;
    const hasDeform = deform.length > 0;
    for (let i = 0, iD = 0, iB = g.weight.offset + 2 + bones.length, iF = 0; i < count; ++i) {
      const n = intArray[iB++];
      let x = 0, y = 0;
      for (let j = 0; j < n; ++j) {
        const bone = bones[intArray[iB++]];
        if (!bone) continue;
        const m = bone.globalTransformMatrix, w = floatArray[iV++];
        let xl = floatArray[iV++] * scale, yl = floatArray[iV++] * scale;
        if (hasDeform) { xl += deform[iF++]; yl += deform[iF++]; }
        x += (m.a * xl + m.c * yl + m.tx) * w;
        y += (m.b * xl + m.d * yl + m.ty) * w;
      }
      out[iD++] = x; out[iD++] = y;
    }
    return out;
  }
  let vo = intArray[g.offset + 2];
  if (vo < 0) vo += 65536;
  for (let i = 0; i < count * 2; ++i) out[i] = floatArray[vo + i] * scale + (deform.length > 0 ? deform[i] : 0);
  return out;
}

class NullSlot extends db.Slot {
  static toString() { return '[class NullSlot6]'; }
  _initDisplay() {} _disposeDisplay() {} _onUpdateDisplay() { this._renderDisplay = this._display !== null ? this._display : this._rawDisplay; }
  _addDisplay() {} _replaceDisplay() {} _removeDisplay() {} _updateZOrder() {} _updateMask() {} _updateVisible() {}
  _updateBlendMode() {} _updateColor() {} _updateFrame() {} _updateTransform() {} _identityTransform() {}
  _updateMesh() { this._meshDisplay.vertices = vertices(this, this._meshDisplay.vertices); }
  _updateShape() { this._shapeDisplay.vertices = vertices(this, this._shapeDisplay.vertices); }
}

class NullFactory extends db.BaseFactory {
  constructor() { super(null); this._dragonBones = new db.DragonBones(new NullEvents()); }
  get dragonBones() { return this._dragonBones; }
  _buildTextureAtlasData(t) { return t !== null ? t : db.BaseObject.borrowObject(NullTextureAtlasData); }
  _buildArmature(pkg) {
    const a = db.BaseObject.borrowObject(db.Armature);
    const proxy = new NullProxy();
    a.init(pkg.armature, proxy, proxy, this._dragonBones);
    return a;
  }
  _buildSlot(_pkg, slotData, armature) {
    const s = db.BaseObject.borrowObject(NullSlot);
    s.init(slotData, armature, { kind: 'raw' }, { kind: 'mesh', vertices: null }, { kind: 'shape', vertices: null });
    return s;
  }
}

const factory = new NullFactory();
const data = factory.parseDragonBonesData(JSON.parse(fs.readFileSync(skePath, 'utf8')));
const armName = data.armatureNames.find((n) => data.getArmature(n).getAnimation(animName)) ?? data.armatureNames[0];
const dur = data.getArmature(armName).getAnimation(animName).duration;
const arms = [];
for (let i = 0; i < N; i++) {
  const a = factory.buildArmature(armName);
  a.animation.gotoAndPlayByTime(animName, (i * 0.0371) % dur, 0);
  factory.dragonBones.clock.add(a);
  arms.push(a);
}
const run = (ticks) => {
  const t0 = process.hrtime.bigint();
  for (let t = 0; t < ticks; t++) factory.dragonBones.advanceTime(1 / 60);
  return Number(process.hrtime.bigint() - t0);
};
run(Math.max(120, Math.ceil(20000 / N)));
const per = [];
for (let r = 0; r < RUNS; r++) per.push(run(TICKS) / (TICKS * N));
per.sort((a, b) => a - b);
// the physics constraints of the first armature, and how many of them are awake (physics ran)
const physics = arms[0].getBones().map((b) => b._physicsConstraint).filter((p) => p);
process.stdout.write(JSON.stringify({
  ns_per_update: Math.round(per[0]), ns_per_update_median: Math.round(per[per.length >> 1]),
  bones: arms[0].getBones().length, physics: physics.length, physics_awake: physics.filter((p) => !p._sleeping).length,
  clock_time: factory.dragonBones.clock.time, instances: N, ticks: TICKS, runs: RUNS,
}) + '\n');
