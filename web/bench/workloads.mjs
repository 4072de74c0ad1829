// The benchmark workloads of `make bench-web` (docs/web.md), the same in node and in a browser:
// sinew's WebAssembly build against the official DragonBones JS runtime (@cocos/dragonbones-js,
// the package the oracle uses) on the same files, armature and animation.
//
// update: N instances playing the animation on a loop from staggered start times (i * 0.0371 s
//   mod duration), warmed up for max(120, 20000 / N) ticks, then R runs of T ticks of 1/60 s;
//   ns per instance update (min and median of the runs). sinew: one sinew.update(list, dt) call a
//   tick; the official runtime: one DragonBones.advanceTime(dt) a tick, its display hooks empty.
// drawlist: the same, and every tick each instance's draw data is made: sinew builds its draw
//   lists (updateWithDrawLists); the official runtime computes every displayed mesh's world
//   vertices and every image's four corners into typed arrays (what its renderers do each frame).
// load: the skeleton and its atlas parsed from memory (sinew: loadSkeleton + loadAtlas of the
//   bytes; the official runtime: JSON.parse + parseDragonBonesData + parseTextureAtlasData),
//   min and median ms of R loads after 5 warm-up loads.

const now = () => performance.now();
const stats = (xs) => { const s = [...xs].sort((a, b) => a - b); return { min: s[0], median: s[s.length >> 1] }; };
const warmTicks = (n) => Math.max(120, Math.ceil(20000 / n));

// ---- sinew ---------------------------------------------------------------------------------------
export function sinewUpdate(sinew, ske, tex, { armature, animation, n, ticks, runs, drawlist = false }) {
  const data = sinew.loadSkeleton(ske, { name: 'skeleton' });
  const atlas = tex ? sinew.loadAtlas(tex, { name: 'atlas' }) : null;
  const arm = armature ? data.armature(armature) : data.armatures.find((a) => a.animations.some((x) => x.name === animation));
  if (!arm) throw new Error(armature ? `no armature '${armature}'` : `no armature has an animation '${animation}'`);
  const info = arm.animations.find((a) => a.name === animation);
  if (!info) throw new Error(`no animation '${animation}'`);
  const list = [];
  for (let i = 0; i < n; i++) {
    const x = data.createInstance({ armature: arm.name, atlas: drawlist ? atlas : null });
    x.gotoAndPlay(animation, { time: (i * 0.0371) % info.duration }, { playTimes: 0 });
    list.push(x);
  }
  const dt = 1 / 60;
  let vertices = 0;
  const tick = drawlist ? () => { vertices += sinew.updateWithDrawLists(list, dt); } : () => sinew.update(list, dt);
  for (let t = 0, w = warmTicks(n); t < w; t++) tick();
  const per = [];
  vertices = 0;
  for (let r = 0; r < runs; r++) {
    const t0 = now();
    for (let t = 0; t < ticks; t++) tick();
    per.push(((now() - t0) * 1e6) / (ticks * n));
  }
  const memory = list[0].memoryBytes, bones = arm.bones.length, slots = arm.slots.length;
  for (const x of list) x.dispose();
  if (atlas) atlas.dispose();
  data.dispose();
  const s = stats(per);
  return { ns_per_update: s.min, ns_per_update_median: s.median, ns_per_bone: s.min / bones, bones, slots, instances: n, ticks,
    runs, memory_per_instance: memory, drawlist_vertices: drawlist ? vertices / (runs * ticks * n) : 0 };
}

export function sinewLoad(sinew, ske, tex, { runs }) {
  const times = [];
  for (let r = 0; r < runs + 5; r++) {
    const t0 = now();
    const d = sinew.loadSkeleton(ske, { name: 'skeleton' });
    const a = tex ? sinew.loadAtlas(tex, { name: 'atlas' }) : null;
    const t1 = now();
    if (a) a.dispose();
    d.dispose();
    if (r >= 5) times.push(t1 - t0);
  }
  const s = stats(times);
  return { ms: s.min, ms_median: s.median, runs };
}

// ---- the official runtime, with displays that draw nothing ------------------------------------
function officialFactory(db) {
  class Events {
    hasDBEventListener() { return false; }
    dispatchDBEvent() {}
    addDBEventListener() {}
    removeDBEventListener() {}
  }
  class Display extends Events {
    dbInit(armature) { this._armature = armature; }
    dbClear() { this._armature = null; }
    dbUpdate() {}
    dispose() {}
    destroy() {}
    get armature() { return this._armature; }
    get animation() { return this._armature.animation; }
  }
  class BenchTexture extends db.TextureData { static toString() { return '[class BenchTexture]'; } }
  class BenchAtlas extends db.TextureAtlasData {
    static toString() { return '[class BenchAtlas]'; }
    createTexture() { return db.BaseObject.borrowObject(BenchTexture); }
  }
  let draw = false;
  // a slot whose engine hooks do nothing, except (drawlist) make the geometry a renderer needs
  class BenchSlot extends db.Slot {
    static toString() { return '[class BenchSlot]'; }
    _initDisplay() {} _disposeDisplay() {} _addDisplay() {} _replaceDisplay() {} _removeDisplay() {}
    _updateZOrder() {} _updateVisible() {} _updateBlendMode() {} _updateColor() {} _updateFrame() {}
    _identityTransform() {} _updateGlueMesh() {}
    _onUpdateDisplay() { this._renderDisplay = this._display !== null ? this._display : this._rawDisplay; }
    _updateTransform() {
      if (!draw || this._meshData) return;
      // an image: its frame's four corners through the slot's world matrix
      const m = this.globalTransformMatrix, tex = this._textureData;
      if (!tex) return;
      const w = tex.region.width, h = tex.region.height, px = this._pivotX, py = this._pivotY;
      const q = this._quad || (this._quad = new Float32Array(8));
      const xs = [-px, w - px, w - px, -px], ys = [-py, -py, h - py, h - py];
      for (let i = 0; i < 4; i++) { q[2 * i] = m.a * xs[i] + m.c * ys[i] + m.tx; q[2 * i + 1] = m.b * xs[i] + m.d * ys[i] + m.ty; }
    }
    _updateMesh() {
      if (!draw) return;
      // a mesh's world vertices (skinned by its bones, or in the slot's space), plus its deform
      const dv = this._deformVertices, vd = dv.verticesData, scale = this._armature._armatureData.scale;
      const ints = vd.data.intArray, floats = vd.data.floatArray, deform = dv.vertices, bones = dv.bones;
      const weight = vd.weight, useDeform = deform.length > 0 && vd.inheritDeform;
      const count = ints[vd.offset];
      const out = this._verts && this._verts.length === 2 * count ? this._verts : (this._verts = new Float32Array(2 * count));
      if (weight !== null) {
        let fo = ints[weight.offset + 1];
        if (fo < 0) fo += 65536;
        let ib = weight.offset + 2 + bones.length, iv = fo, id = 0;
        for (let i = 0; i < count; i++) {
          const n = ints[ib++];
          let x = 0, y = 0;
          for (let j = 0; j < n; j++) {
            const bone = bones[ints[ib++]];
            if (bone === null) { iv += 3; if (useDeform) id += 2; continue; }
            const m = bone.globalTransformMatrix, w = floats[iv++];
            let lx = floats[iv++] * scale, ly = floats[iv++] * scale;
            if (useDeform) { lx += deform[id++]; ly += deform[id++]; }
            x += (m.a * lx + m.c * ly + m.tx) * w;
            y += (m.b * lx + m.d * ly + m.ty) * w;
          }
          out[2 * i] = x; out[2 * i + 1] = y;
        }
      } else {
        let vo = ints[vd.offset + 2];
        if (vo < 0) vo += 65536;
        const m = this.globalTransformMatrix;
        for (let i = 0; i < 2 * count; i += 2) {
          let x = floats[vo + i] * scale, y = floats[vo + i + 1] * scale;
          if (useDeform) { x += deform[i]; y += deform[i + 1]; }
          out[i] = m.a * x + m.c * y + m.tx; out[i + 1] = m.b * x + m.d * y + m.ty;
        }
      }
    }
  }
  class BenchFactory extends db.BaseFactory {
    constructor() { super(null); this._dragonBones = new db.DragonBones(new Events()); }
    get dragonBones() { return this._dragonBones; }
    _buildTextureAtlasData(data) { return data !== null ? data : db.BaseObject.borrowObject(BenchAtlas); }
    _buildArmature(pack) {
      const armature = db.BaseObject.borrowObject(db.Armature), display = new Display();
      armature.init(pack.armature, display, display, this._dragonBones);
      return armature;
    }
    _buildSlot(pack, slotData, armature) {
      const slot = db.BaseObject.borrowObject(BenchSlot);
      slot.init(slotData, armature, {}, {});
      return slot;
    }
  }
  return { factory: new BenchFactory(), setDraw: (v) => { draw = v; } };
}

let quietened = false;
function quiet() { if (!quietened) { console.info = () => {}; quietened = true; } }

export function officialUpdate(db, skeText, texText, { armature, animation, n, ticks, runs, drawlist = false }) {
  quiet();
  const { factory, setDraw } = officialFactory(db);
  const data = factory.parseDragonBonesData(JSON.parse(skeText), 'bench');
  if (texText) factory.parseTextureAtlasData(JSON.parse(texText), {}, 'bench');
  const name = armature && data.armatureNames.includes(armature) ? armature
    : data.armatureNames.find((a) => data.getArmature(a).getAnimation(animation)) || data.armatureNames[0];
  const duration = data.getArmature(name).getAnimation(animation).duration;
  setDraw(drawlist);
  const clock = factory.dragonBones.clock, arms = [];
  for (let i = 0; i < n; i++) {
    const a = factory.buildArmature(name, 'bench');
    a.animation.gotoAndPlayByTime(animation, (i * 0.0371) % duration, 0);
    clock.add(a);
    arms.push(a);
  }
  const dt = 1 / 60, dbx = factory.dragonBones;
  for (let t = 0, w = warmTicks(n); t < w; t++) dbx.advanceTime(dt);
  const per = [];
  for (let r = 0; r < runs; r++) {
    const t0 = now();
    for (let t = 0; t < ticks; t++) dbx.advanceTime(dt);
    per.push(((now() - t0) * 1e6) / (ticks * n));
  }
  const bones = arms[0].getBones().length;
  for (const a of arms) { clock.remove(a); a.dispose(); }
  dbx.advanceTime(0);
  factory.clear(true);
  const s = stats(per);
  return { ns_per_update: s.min, ns_per_update_median: s.median, ns_per_bone: s.min / bones, bones, instances: n, ticks, runs };
}

export function officialLoad(db, skeText, texText, { runs }) {
  quiet();
  const { factory } = officialFactory(db);
  const times = [];
  for (let r = 0; r < runs + 5; r++) {
    const t0 = now();
    factory.parseDragonBonesData(JSON.parse(skeText), 'load');
    if (texText) factory.parseTextureAtlasData(JSON.parse(texText), {}, 'load');
    const t1 = now();
    factory.clear(true);
    if (r >= 5) times.push(t1 - t0);
  }
  const s = stats(times);
  return { ms: s.min, ms_median: s.median, runs };
}

/** Every row of the comparison, on one runtime (`env`: 'node' or 'chromium'); between workloads it
 *  yields to the event loop (a page stays responsive to its driver). */
export async function runAll(env, sinew, db, sets, { quick = false, log = () => {} } = {}) {
  const pause = () => new Promise((r) => setTimeout(r, 0));
  const rows = [];
  for (const set of sets) {
    for (const n of [100, 1000]) {
      const ticks = quick ? (n === 100 ? 100 : 20) : (n === 100 ? 300 : 60);
      const runs = quick ? 3 : 5;
      for (const drawlist of [false, true]) {
        const opts = { armature: set.armature, animation: set.animation, n, ticks, runs, drawlist };
        log(`${env}: ${set.name} ${set.animation} N=${n}${drawlist ? ' + draw list' : ''}`);
        await pause();
        const s = sinewUpdate(sinew, set.skeBytes, set.texBytes, opts);
        await pause();
        const o = officialUpdate(db, set.skeText, set.texText, opts);
        rows.push({ env, set: set.name, animation: set.animation, n, kind: drawlist ? 'update + draw list' : 'update',
          sinew_ns: s.ns_per_update, official_ns: o.ns_per_update, ratio: o.ns_per_update / s.ns_per_update });
      }
    }
    const runs = quick ? 10 : 30;
    log(`${env}: ${set.name} load`);
    await pause();
    const s = sinewLoad(sinew, set.skeBytes, set.texBytes, { runs });
    const o = officialLoad(db, set.skeText, set.texText, { runs });
    rows.push({ env, set: set.name, animation: '', n: 0, kind: 'load (ms)', sinew_ns: s.ms, official_ns: o.ms, ratio: o.ms / s.ms });
  }
  return rows;
}
