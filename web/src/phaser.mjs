// sinew/phaser: DragonBones (JSON 4.0-5.6, DBBin) and XML rigs in Phaser 4 and Phaser 3.60+, as a
// scene plugin with a loader file type and a game object (docs/web.md).
//
//   import * as Phaser from 'phaser';
//   import { SinewPlugin } from 'sinew/phaser';
//   new Phaser.Game({ type: Phaser.AUTO, scene: [Level],
//     plugins: { scene: [{ key: 'SinewPlugin', plugin: SinewPlugin, mapping: 'sinew' }] } });
//   // in the scene:
//   preload() { this.load.sinew('hero', 'hero_ske.json', 'hero_tex.json'); }
//   create() {
//     const hero = this.add.sinew(400, 300, 'hero', { animation: 'walk' });
//     hero.on('frameEvent', (e) => this.sound.play(e.name));
//     hero.setInteractive().on('pointerdown', () => hero.fadeIn('jump', { fadeInTime: 0.2 }));
//   }
//
// The same class serves both Phaser versions; what differs is how an armature reaches the GPU.
// Phaser 4: a render node of its own (a BatchHandler, registered with the renderer's render node
// manager); Phaser 3: a WebGL pipeline of its own (registered with the pipeline manager). Both take
// every armature's triangles into one vertex buffer, each vertex carrying its command's colour
// transform and atlas region and the object's tint and alpha, so that armatures drawn one after the
// other with the same blend mode share draw calls (several atlas pages too: one texture unit each).
// The shading is sinew/webgl's (premultiplied pages, samples clamped to the region, the DragonBones
// colour transform on straight colour). Phaser's Canvas renderer draws no armature (said once).

import * as Phaser from 'phaser';
import { init, BLEND_MODES, EVENT_TYPES, DrawList, SinewError } from './sinew.mjs';

const MAJOR = Number(String(Phaser.VERSION).split('.')[0]);
const CACHE = 'sinew';
const NO_PAGE = 0xffffffff;

// ---- the runtime: one sinew.wasm for the page -------------------------------------------------

let runtimePromise = null;
/** The sinew runtime the plugin loads with (`init()` of sinew.mjs): a promise, shared by every game. */
export function sinewRuntime() {
  if (!runtimePromise) {
    runtimePromise = init(SinewPlugin.wasm).then((rt) => { SinewPlugin.runtime = rt; return rt; });
  }
  return runtimePromise;
}

// ---- the vertex format, the shaders and the vertex writer (both Phaser versions) ---------------

// 12 words a vertex: x y u v (screen space, page uv), texture unit; region u0 v0 u1 v1 (u16
// normalised); colour multipliers r g b a (u16, x 16384); offsets r g b a (i16, x 128, of 255);
// the object's tint r g b and alpha (u8 normalised)
const WORDS = 12;
const MUL_SCALE = 16384, ADD_SCALE = 128;
const VERTEX_SHADER = `precision highp float;
uniform mat4 uProjectionMatrix;
attribute vec2 inPosition; attribute vec2 inTexCoord; attribute float inTexId;
attribute vec4 inRegion; attribute vec4 inMul; attribute vec4 inAdd; attribute vec4 inTint;
varying vec2 vUV; varying float vTexId; varying vec4 vRegion; varying vec4 vMul; varying vec4 vAdd; varying vec4 vTint;
void main() {
  gl_Position = uProjectionMatrix * vec4(inPosition, 1.0, 1.0);
  vUV = inTexCoord; vTexId = inTexId; vRegion = inRegion;
  vMul = inMul / ${MUL_SCALE}.0; vAdd = inAdd / ${ADD_SCALE * 255}.0; vTint = inTint;
}`;

function fragmentShader(units) {
  let pick = '';
  for (let i = 0; i < units; i++) {
    const read = `t = texture2D(uMainSampler[${i}], uv);`;
    pick += i === 0 ? (units > 1 ? `if (vTexId < 0.5) ${read}\n` : `${read}\n`)
      : i < units - 1 ? `  else if (vTexId < ${i}.5) ${read}\n` : `  else ${read}\n`;
  }
  return `#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif
uniform sampler2D uMainSampler[${units}];
varying vec2 vUV; varying float vTexId; varying vec4 vRegion; varying vec4 vMul; varying vec4 vAdd; varying vec4 vTint;
void main() {
  vec2 uv = clamp(vUV, vRegion.xy, vRegion.zw);
  vec4 t;
  ${pick}
  vec3 c = t.a > 0.0 ? t.rgb / t.a : vec3(0.0);
  float a = clamp(t.a * vMul.a + vAdd.a, 0.0, 1.0);
  c = clamp(c * vMul.rgb + vAdd.rgb, 0.0, 1.0);
  gl_FragColor = vec4(c * vTint.rgb * a, a) * vTint.a;
}`;
}

// the attributes, as [name, components, type, normalised]
const ATTRIBUTES = [['inPosition', 2, 'FLOAT', false], ['inTexCoord', 2, 'FLOAT', false], ['inTexId', 1, 'FLOAT', false],
  ['inRegion', 4, 'UNSIGNED_SHORT', true], ['inMul', 4, 'UNSIGNED_SHORT', false], ['inAdd', 4, 'SHORT', false],
  ['inTint', 4, 'UNSIGNED_BYTE', true]];

const clampTo = (v, lo, hi) => (v < lo ? lo : v > hi ? hi : v);
const u16 = (v) => Math.round(clampTo(v, 0, 1) * 65535);
const pair = (lo, hi) => ((lo & 0xffff) | ((hi & 0xffff) << 16)) >>> 0;
const mulWord = (x) => Math.round(clampTo(x, 0, 65535 / MUL_SCALE) * MUL_SCALE);
const addWord = (x) => Math.round(clampTo(x, -255, 255) * ADD_SCALE);

/**
 * Writes one armature's draw list into a batch. `sink`: the Phaser version's batch (setBlend(id),
 * take(glTexture, vertices) -> vertices granted, with sink.unit and sink.offset set for them;
 * sink.f32 / sink.u32 the vertex buffer's views). `m`: [a, b, c, d, tx, ty] from armature space to
 * the batch's space.
 */
function drawArmature(obj, list, m, sink, blendIds, tint) {
  const L = DrawList.layout, w = list.commandWords, f = list.commandFloats, stride = list.commandStride;
  const pos = list.positions, uv = list.uvs, idx = list.indices;
  const [a, b, c, d, e, ty] = m;
  for (let k = 0; k < list.commandCount; k++) {
    const base = k * stride, count = w[base + L.indexCount];
    if (!count) continue;
    const page = w[base + L.page];
    const texture = page === NO_PAGE ? sink.white : obj._pageTexture(page);
    if (!texture) continue;
    const blend = w[base + L.blend];
    sink.setBlend(blendIds[blend] ?? -1);
    const col = base + L.color, reg = base + L.region, textured = page !== NO_PAGE;
    // a texture uploaded bottom up (Phaser 4's are): v from the bottom
    const flip = texture.flipY === true, v0 = flip ? 1 : 0, dv = flip ? -1 : 1;
    const r0 = textured ? pair(u16(f[reg]), u16(flip ? 1 - f[reg + 3] : f[reg + 1])) : 0;
    const r1 = textured ? pair(u16(f[reg + 2]), u16(flip ? 1 - f[reg + 1] : f[reg + 3])) : 0xffffffff;
    const m0 = pair(mulWord(f[col + 1]), mulWord(f[col + 2])), m1 = pair(mulWord(f[col + 3]), mulWord(f[col]));
    const a0 = pair(addWord(f[col + 5]), addWord(f[col + 6])), a1 = pair(addWord(f[col + 7]), addWord(f[col + 4]));
    for (let i = w[base + L.firstIndex], end = i + count; i < end;) {
      const n = sink.take(texture, end - i);
      const F = sink.f32, U = sink.u32, unit = sink.unit;
      let o = sink.offset;
      for (const stop = i + n; i < stop; i++) {
        const v = 2 * idx[i], x = pos[v], y = pos[v + 1];
        F[o] = a * x + c * y + e; F[o + 1] = b * x + d * y + ty;
        F[o + 2] = uv[v]; F[o + 3] = v0 + dv * uv[v + 1]; F[o + 4] = unit;
        U[o + 5] = r0; U[o + 6] = r1; U[o + 7] = m0; U[o + 8] = m1; U[o + 9] = a0; U[o + 10] = a1; U[o + 11] = tint;
        o += WORDS;
      }
    }
  }
}

// ---- blend modes: the DragonBones modes a blend unit can do, as blend modes of the renderer ----

const blendTables = new WeakMap();
/** sinew blend mode index -> the renderer's blend mode id (-1: the object's own; normal and layer). */
function blendTable(renderer) {
  let table = blendTables.get(renderer);
  if (table) return table;
  const gl = renderer.gl;
  const add = (eq, s, d, sa, da) => renderer.blendModes.push(MAJOR >= 4
    ? Object.assign({}, renderer.blendModes[0], { color: [0, 0, 0, 0], equation: [eq, eq], func: [s, d, sa, da] })
    : { func: [s, d, sa, da], equation: eq }) - 1;
  const A = gl.FUNC_ADD;
  table = BLEND_MODES.map(() => -1);
  const set = (name, id) => { table[BLEND_MODES.indexOf(name)] = id; };
  set('add', add(A, gl.ONE, gl.ONE, gl.ONE, gl.ONE));
  set('multiply', add(A, gl.DST_COLOR, gl.ONE_MINUS_SRC_ALPHA, gl.DST_COLOR, gl.ONE_MINUS_SRC_ALPHA));
  set('screen', add(A, gl.ONE, gl.ONE_MINUS_SRC_COLOR, gl.ONE, gl.ONE_MINUS_SRC_COLOR));
  // subtract: the destination minus the source's colour, its alpha kept
  set('subtract', add(gl.FUNC_REVERSE_SUBTRACT, gl.ONE, gl.ONE, gl.ZERO, gl.ONE));
  set('erase', add(A, gl.ZERO, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE_MINUS_SRC_ALPHA));
  set('alpha', add(A, gl.ZERO, gl.SRC_ALPHA, gl.ZERO, gl.SRC_ALPHA));
  blendTables.set(renderer, table);
  return table;
}
/** The DragonBones blend modes drawn as normal: no blend unit can do them. */
export const UNSUPPORTED_BLEND_MODES = ['darken', 'difference', 'hardlight', 'invert', 'lighten', 'overlay'];

// ---- Phaser 4: a batch handler render node ------------------------------------------------------

const P4_NODE = 'SinewBatchHandler';
function phaser4Node(renderer) {
  const manager = renderer.renderNodes;
  if (!manager.hasNode(P4_NODE)) manager.addNodeConstructor(P4_NODE, makePhaser4Handler());
  return manager.getNode(P4_NODE);
}

function makePhaser4Handler() {
  const { BatchHandler } = Phaser.Renderer.WebGL.RenderNodes;
  const TRIANGLES = 0x0004;
  return class SinewBatchHandler extends BatchHandler {
    constructor(manager, config = {}) {
      const units = Math.max(1, Math.min(manager.maxParallelTextureUnits, 16));
      super(manager, {
        name: P4_NODE, verticesPerInstance: 3, indicesPerInstance: 3, topology: TRIANGLES,
        shaderName: `SinewArmature${units}`, vertexSource: VERTEX_SHADER, fragmentSource: fragmentShader(units),
        vertexBufferLayout: { usage: 'DYNAMIC_DRAW', layout: ATTRIBUTES.map(([name, size, type, normalized]) => ({ name, size, type, normalized })) },
      }, Object.assign({ instancesPerBatch: Math.floor(65536 / 3) }, config));
      this.units = units;
      this.maxTexturesPerBatch = units;
      this.programManager.setUniform('uMainSampler[0]', manager.renderer.textureUnitIndices.slice(0, units));
      this.entry = { start: 0, count: 0, unit: 0, texture: [] };
      this.entries = [];
      this.drawCalls = 0;
    }
    // one triangle an instance, its three vertices written in a row
    _generateElementIndices(instances) {
      const indices = new Uint16Array(instances * 3);
      for (let i = 0; i < indices.length; i++) indices[i] = i;
      return indices.buffer;
    }
    // the shader's sampler count is fixed when the node is made (Phaser calls this from its constructor)
    updateTextureCount() {}
    get f32() { return this.vertexBufferLayout.buffer.viewF32; }
    get u32() { return this.vertexBufferLayout.buffer.viewU32; }
    get white() { return this.manager.renderer.whiteTexture; }

    /** Starts an object: `context` is its drawing context (its blend mode). */
    begin(context) { this.base = context; this.context = context; this.blendId = -1; }
    setBlend(id) {
      if (id === this.blendId) return;
      this.blendId = id;
      const renderer = this.manager.renderer;
      if (this.context !== this.base) this.context.release(); // finishes the batch
      if (id < 0) {
        renderer.renderNodes.finishBatch();
        this.context = this.base;
      } else {
        renderer.renderNodes.finishBatch();
        this.context = this.base.getClone();
        this.context.setBlendMode(id);
        this.context.use();
      }
    }
    end() {
      if (this.context !== this.base) { this.context.release(); this.base.beginDraw(); }
      this.context = this.base = null;
    }
    take(glTexture, vertices) {
      const context = this.context;
      if (this.instanceCount === 0) this.manager.setCurrentBatchNode(this, context);
      if (this.instanceCount === this.instancesPerBatch) this.run(context);
      const triangles = Math.min(vertices / 3, this.instancesPerBatch - this.instanceCount);
      let unit = glTexture.batchUnit;
      if (unit === undefined || unit < 0) {
        if (this.entry.texture.length === this.units) this._pushEntry();
        unit = this.entry.unit++;
        glTexture.batchUnit = unit;
        this.entry.texture[unit] = glTexture;
      }
      this.unit = unit;
      this.offset = this.instanceCount * 3 * WORDS;
      this.instanceCount += triangles;
      this.entry.count += triangles;
      return triangles * 3;
    }
    _pushEntry() {
      const entry = this.entry;
      if (entry.count < 1) return;
      this.entries.push(entry);
      for (const t of entry.texture) t.batchUnit = -1;
      this.entry = { start: this.instanceCount, count: 0, unit: 0, texture: [] };
    }
    run(context) {
      if (this.instanceCount === 0) return;
      this.onRunBegin(context);
      this._pushEntry();
      const renderer = this.manager.renderer, pm = this.programManager;
      this.vertexBufferLayout.buffer.update(this.instanceCount * this.bytesPerInstance);
      renderer.setProjectionMatrixFromDrawingContext(context);
      pm.setUniform('uProjectionMatrix', renderer.projectionMatrix.val);
      const suite = pm.getCurrentProgramSuite();
      for (const entry of this.entries) {
        if (!suite) continue; // the program is still compiling
        pm.applyUniforms(suite.program);
        renderer.drawElements(context, entry.texture, suite.program, suite.vao, entry.count * 3,
          entry.start * this.bytesPerIndexPerInstance, this.topology);
        this.drawCalls++;
      }
      this.instanceCount = 0;
      this.entries.length = 0;
      this.entry.start = 0;
      this.onRunEnd(context);
    }
  };
}

// ---- Phaser 3: a WebGL pipeline -------------------------------------------------------------------

const P3_PIPELINE = 'SinewPipeline';
function phaser3Pipeline(renderer) {
  const manager = renderer.pipelines;
  return manager.has(P3_PIPELINE) ? manager.get(P3_PIPELINE) : manager.add(P3_PIPELINE, new (makePhaser3Pipeline())(renderer.game));
}

function makePhaser3Pipeline() {
  const W = Phaser.Renderer.WebGL;
  return class SinewPipeline extends W.WebGLPipeline {
    constructor(game) {
      const units = Math.max(1, Math.min(game.renderer.maxTextures, 16));
      super({
        game, name: P3_PIPELINE, vertShader: VERTEX_SHADER, fragShader: fragmentShader(units), batchSize: 16384,
        attributes: ATTRIBUTES.map(([name, size, type, normalized]) => ({ name, size, type: W[type], normalized })),
      });
      this.units = units;
      this.drawCalls = 0;
    }
    boot() {
      super.boot();
      this.set1iv('uMainSampler', this.renderer.textureIndexes.slice(0, this.units));
    }
    flush(isPostFlush) {
      if (this.vertexCount > 0 && this.active) this.drawCalls += this.batch.length;
      return super.flush(isPostFlush);
    }
    get f32() { return this.vertexViewF32; }
    get u32() { return this.vertexViewU32; }
    get white() { return this.renderer.whiteTexture; }
    begin(context) { this.objectBlend = context; this.blendId = -2; }
    setBlend(id) {
      if (id === this.blendId) return;
      this.blendId = id;
      this.renderer.setBlendMode(id < 0 ? this.objectBlend : id);
    }
    end() {}
    take(glTexture, vertices) {
      if (this.vertexCapacity - this.vertexCount < 3) this.flush();
      const room = this.vertexCapacity - this.vertexCount;
      const n = Math.min(vertices, room - (room % 3));
      // a batch holds up to maxTextures textures; the shader reads `units` of them
      if (this.currentBatch && this.currentBatch.texture.length >= this.units && !this.currentBatch.texture.includes(glTexture)) {
        this.createBatch(glTexture);
      }
      this.unit = this.pushBatch(glTexture);
      this.offset = this.vertexCount * WORDS;
      this.vertexCount += n;
      this.currentBatch.count = this.vertexCount - this.currentBatch.start;
      return n;
    }
  };
}

// ---- the loader: this.load.sinew(key, skeletonURL, atlasURL) ------------------------------------

const utf8 = new TextDecoder();
const fileName = (url) => {
  const path = String(url).split(/[?#]/)[0];
  try { return decodeURIComponent(path.split('/').pop()); } catch (e) { return path.split('/').pop(); }
};
const absolute = (relative, base) => new URL(relative, new URL(base, document.baseURI)).href;
const normalizePath = (path) => {
  const out = [];
  for (const part of String(path).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop(); else out.push(part);
  }
  return out.join('/');
};

/** The images an XML rig names (image="..." attributes and image setters), relative to it. */
function xmlImages(text) {
  const found = new Set();
  for (const m of text.matchAll(/\bimage\s*=\s*"([^"]+)"/g)) found.add(m[1]);
  for (const m of text.matchAll(/<setter\b[^>]*>/g)) {
    if (!/\bname\s*=\s*"image"/.test(m[0])) continue;
    const content = /\bcontent\s*=\s*"([^"]+)"/.exec(m[0]);
    if (content) found.add(content[1]);
  }
  return [...found];
}

let loaderClasses = null;
function loaderTypes() {
  if (loaderClasses) return loaderClasses;
  const { BinaryFile, TextFile, ImageFile } = Phaser.Loader.FileTypes;
  const PROCESSING = Phaser.Loader.FILE_PROCESSING;

  // the skeleton: its bytes (JSON, DBBin or XML); processed once the runtime is there
  class SkeletonFile extends BinaryFile {
    onProcess() {
      this.state = PROCESSING;
      sinewRuntime().then(() => BinaryFile.prototype.onProcess.call(this), (err) => {
        console.error(`sinew/phaser: ${err}`);
        this.onProcessError();
      });
    }
  }
  // a page image: a texture, and its bytes (the loaders read the images' sizes when the atlas or
  // the XML rig does not give them)
  class PageFile extends ImageFile {
    onProcess() {
      this.state = PROCESSING;
      const response = this.xhrLoader && this.xhrLoader.response;
      const bytes = response instanceof Blob ? response.arrayBuffer() : fetch(this.src).then((r) => r.arrayBuffer());
      bytes.then((b) => { this.bytes = new Uint8Array(b); ImageFile.prototype.onProcess.call(this); }, () => this.onProcessError());
    }
    onProcessImage() {
      fetch(this.src).then((r) => r.arrayBuffer()).then((b) => { this.bytes = new Uint8Array(b); ImageFile.prototype.onProcessImage.call(this); },
        () => this.onProcessError());
    }
  }

  class SinewFile extends Phaser.Loader.MultiFile {
    constructor(loader, key, skeletonURL, atlasURL, xhrSettings, cache) {
      const ske = new SkeletonFile(loader, { key: `${key}!skeleton`, url: skeletonURL, xhrSettings, extension: 'json' });
      const xml = /\.xml$/i.test(fileName(skeletonURL));
      let atlas = null;
      if (!xml) {
        const guess = String(skeletonURL).replace(/_ske\.(json|dbbin)(?=$|[?#])/i, '_tex.json');
        const url = atlasURL || (guess !== String(skeletonURL) ? guess : null);
        if (url) atlas = new TextFile(loader, { key: `${key}!atlas`, url, xhrSettings, extension: 'json' });
      }
      super(loader, 'sinew', key, atlas ? [ske, atlas] : [ske]);
      this.sinewCache = cache;
      this.skeletonFile = ske;
      this.atlasFile = atlas;
      this.xml = xml;
      this.pageFiles = new Map(); // path as the rig or atlas names it -> PageFile
      this.pageXhr = xhrSettings;
    }
    onFileComplete(file) {
      if (!this.files.includes(file)) return;
      this.pending--;
      if (file === this.atlasFile) {
        let pages = [];
        try {
          const json = JSON.parse(file.data);
          pages = Array.isArray(json.pages) ? json.pages.map((p) => p && p.imagePath) : [json.imagePath];
        } catch (e) { /* the atlas loader reports it, with line and column */ }
        for (const p of pages) if (p) this._page(p, file.src);
      } else if (file === this.skeletonFile && this.xml) {
        for (const p of xmlImages(utf8.decode(file.data))) this._page(p, file.src);
      }
    }
    _page(path, base) {
      path = normalizePath(path);
      if (this.pageFiles.has(path)) return;
      const page = new PageFile(this.loader, { key: `sinew:${this.key}:${this.pageFiles.size}`, url: absolute(path, base), xhrSettings: this.pageXhr });
      this.pageFiles.set(path, page);
      this.addToMultiFile(page);
      this.loader.addFile(page);
    }
    addToCache() {
      if (!this.isReadyToProcess()) return;
      let entry;
      try { entry = this._load(); } catch (err) {
        console.error(`sinew/phaser: '${this.key}': ${err}`);
        entry = { error: err };
      }
      this.sinewCache.add(this.key, entry);
      this.complete = true;
    }
    // the skeleton, the atlas and the pages on the runtime's file system, loaded by path as `sinew
    // render` loads them (an XML rig's atlas is the rig itself)
    _load() {
      const rt = SinewPlugin.runtime, name = fileName(this.skeletonFile.src);
      const atlasName = this.atlasFile ? fileName(this.atlasFile.src) : null;
      const files = new Map([[name, new Uint8Array(this.skeletonFile.data)]]);
      if (atlasName) files.set(atlasName, this.atlasFile.data);
      for (const [path, file] of this.pageFiles) if (file.bytes) files.set(path, file.bytes);
      const dir = rt.mount(files);
      let data = null, atlas = null;
      try {
        data = rt.loadSkeletonFile(`${dir}/${name}`);
        const warnings = rt.warnings;
        if (this.xml || atlasName) atlas = rt.loadAtlasFile(`${dir}/${this.xml ? name : atlasName}`);
        rt.warnings = warnings.concat(rt.warnings);
      } catch (e) { if (data) data.dispose(); throw e; } finally { rt.unmount(dir); }
      const inDir = (path) => normalizePath(path.startsWith(`${dir}/`) ? path.slice(dir.length + 1) : path);
      const paths = atlas ? atlas.pages.map((p) => inDir(p.resolvedPath)) : [];
      const warnings = rt.warnings.slice();
      const textures = paths.map((path) => {
        const file = this.pageFiles.get(path);
        if (!file || !file.data) return null;
        if (!file.cache.exists(file.key)) file.addToCache();
        return file.key;
      });
      return { data, atlas, textures, warnings, skeleton: name };
    }
  }
  loaderClasses = { SinewFile };
  return loaderClasses;
}

// ---- the game object ----------------------------------------------------------------------------

let unsupportedSaid = false;
function sayCanvasUnsupported() {
  if (unsupportedSaid) return;
  unsupportedSaid = true;
  console.warn('sinew/phaser: Phaser\'s Canvas renderer cannot draw sinew armatures: they animate, send their events and '
    + 'answer hit tests, but draw nothing. Start the game with type Phaser.WEBGL (or Phaser.AUTO where WebGL is available).');
}

/**
 * A sinew armature as a Phaser game object (`this.add.sinew(x, y, key, options)`). Its size is the
 * bounds of its first pose; by default its origin is the armature's own (0, 0) at (x, y). Events
 * of the animation are emitted as Phaser events on the object: 'start', 'loopComplete',
 * 'complete', 'fadeIn', 'fadeInComplete', 'fadeOut', 'fadeOutComplete', 'frameEvent',
 * 'soundEvent' (the listener gets the sinew event and the object).
 */
export class SinewGameObject extends Phaser.GameObjects.GameObject {
  /**
   * `key`: a rig loaded by this.load.sinew. Options: { armature (name; default the main one),
   * skin, animation (name; default the armature's default animation; null: none), playTimes }.
   */
  constructor(scene, x = 0, y = 0, key, { armature = null, skin = null, animation, playTimes = -1 } = {}, plugin = null) {
    super(scene, 'Sinew');
    const cache = scene.sys.game.cache.custom[CACHE];
    const entry = cache && cache.get(key);
    if (!entry) throw new SinewError(`no sinew rig '${key}' is loaded (this.load.sinew('${key}', skeletonURL, atlasURL) in preload)`);
    if (entry.error) throw entry.error;
    this.plugin = plugin || SinewPlugin._of(scene);
    this.key = key;
    this.rig = entry;
    const target = entry.data.resolveSkin(armature, skin);
    /** The sinew Instance: every method of the JS API (docs/web.md). */
    this.instance = entry.data.createInstance({ armature: entry.data.armatures[target.armature].name, skin: target.overlay, atlas: entry.atlas });
    this._sources = entry.textures.map((k) => (k && scene.textures.exists(k) ? scene.textures.get(k).source[0] : null));
    this._forwarding = false;
    this.tint = 0xffffff;
    this.setPosition(x, y);
    if (animation !== null) this.instance.play(animation ?? null, { playTimes });
    this.instance.update(0);
    this.updateSize();
  }

  // ---- size and coordinates ----
  /**
   * Sets the object's size to the bounds of the current pose, the origin kept where the
   * armature's (0, 0) is unless `keepOrigin`.
   */
  updateSize({ keepOrigin = false } = {}) {
    const b = this.instance.bounds() || { x0: 0, y0: 0, x1: 0, y1: 0 };
    this._x0 = b.x0; this._y0 = b.y0;
    this.width = b.x1 - b.x0;
    this.height = b.y1 - b.y0;
    if (keepOrigin) return this.updateDisplayOrigin();
    // the armature's (0, 0) at the object's position
    this.originX = this.width ? -b.x0 / this.width : 0;
    this.originY = this.height ? -b.y0 / this.height : 0;
    this._displayOriginX = -b.x0;
    this._displayOriginY = -b.y0;
    return this;
  }
  /** Armature space -> the object's local space (before its transform). */
  get _ox() { return -this._x0 - this.displayOriginX; }
  get _oy() { return -this._y0 - this.displayOriginY; }
  /** A point of the world (the scene's coordinates) in armature space: { x, y }. */
  worldToArmature(x, y) {
    const p = this.getWorldTransformMatrix().applyInverse(x, y);
    return { x: p.x - this._ox, y: p.y - this._oy };
  }
  /** A point of armature space in the world: { x, y }. */
  armatureToWorld(x, y) {
    const p = this.getWorldTransformMatrix().transformPoint(x + this._ox, y + this._oy);
    return { x: p.x, y: p.y };
  }

  // ---- tint ----
  /** Multiplies the armature's colours by `color` (0xRRGGBB). */
  setTint(color = 0xffffff) { this.tint = color & 0xffffff; return this; }
  clearTint() { return this.setTint(0xffffff); }
  get isTinted() { return this.tint !== 0xffffff; }

  // ---- playing ----
  play(animation = null, options) { this.instance.play(animation, options); return this; }
  fadeIn(animation, options) { this.instance.fadeIn(animation, options); return this; }
  gotoAndPlay(animation, at, options) { this.instance.gotoAndPlay(animation, at, options); return this; }
  gotoAndStop(animation, at, options) { this.instance.gotoAndStop(animation, at, options); return this; }
  stop(animation = null, options) { this.instance.stop(animation, options); return this; }
  get timeScale() { return this.instance.timeScale; }
  set timeScale(v) { this.instance.timeScale = v; }
  setTimeScale(v) { this.instance.timeScale = v; return this; }
  setSkin(skin) { this.instance.setSkin(skin); return this; }
  setSlotSkin(slot, skin, options) { this.instance.setSlotSkin(slot, skin, options); return this; }
  /** The animation states (Instance.states). */
  states(options) { return this.instance.states(options); }
  /** The names of the armature's animations. */
  get animationNames() { return this.instance.armature.animations.map((a) => a.name); }

  // ---- control ----
  setBoneOffset(bone, offset, options) { this.instance.setBoneOffset(bone, offset, options); return this; }
  /** Moves a bone so that its origin lands on the world point (x, y). */
  boneFollow(bone, x, y, options) {
    const p = this.worldToArmature(x, y);
    this.instance.boneFollow(bone, p.x, p.y, options);
    return this;
  }
  replaceDisplay(slot, display, options) { this.instance.replaceDisplay(slot, display, options); return this; }
  /**
   * Shows a Phaser texture (or one frame of it) in a slot: { pivotX, pivotY (0.5 = centre), index,
   * armature }. null as the key undoes it.
   */
  setSlotTexture(slot, key, frame, { pivotX = 0.5, pivotY = 0.5, index = -1, armature = 0 } = {}) {
    if (key === null) { this.instance.replaceDisplay(slot, null, { armature }); return this; }
    const fr = this.scene.textures.getFrame(key, frame);
    if (!fr) throw new SinewError(`no texture '${key}'${frame !== undefined ? ` frame '${frame}'` : ''}`);
    let page = this._sources.indexOf(fr.source, this.rig.textures.length);
    if (page < 0) { page = Math.max(this._sources.length, this.rig.textures.length); this._sources[page] = fr.source; }
    this.instance.replaceDisplayRegion(slot, { page, pageWidth: fr.source.width, pageHeight: fr.source.height,
      x: fr.cutX, y: fr.cutY, width: fr.cutWidth, height: fr.cutHeight, pivotX, pivotY, index }, { armature });
    return this;
  }
  /** The topmost drawn slot at the world point (x, y): { armature, slot, name } or null. */
  hitTest(x, y) {
    const p = this.worldToArmature(x, y);
    return this.instance.hitTest(p.x, p.y);
  }
  /**
   * Phaser's setInteractive. Without a hit area of yours, a pointer is over the object where it
   * draws a slot (sinew's hit test of the current pose), not anywhere in its box.
   */
  setInteractive(hitArea, hitAreaCallback, dropZone) {
    const config = hitArea && typeof hitArea === 'object' && !hitArea.setTo && !hitArea.contains ? hitArea : null;
    if (hitArea === undefined || (config && !config.hitArea && !config.pixelPerfect)) {
      return super.setInteractive(Object.assign({}, config, {
        hitArea: new Phaser.Geom.Rectangle(0, 0, this.width, this.height),
        hitAreaCallback: (area, x, y, obj) => !!obj.instance.hitTest(x + obj._x0, y + obj._y0),
      }));
    }
    return super.setInteractive(hitArea, hitAreaCallback, dropZone);
  }

  // ---- events: the instance's, as Phaser events of the object (forwarded once one is listened to) ----
  _forward(type) {
    if (this._forwarding || (type !== '*' && !EVENT_TYPES.includes(type)) || !this.instance) return;
    this._forwarding = true;
    this.instance.on('*', (ev) => this.emit(ev.type, ev, this));
  }
  on(type, fn, context) { this._forward(type); return super.on(type, fn, context); }
  addListener(type, fn, context) { this._forward(type); return super.addListener(type, fn, context); }
  once(type, fn, context) { this._forward(type); return super.once(type, fn, context); }

  // ---- updates and drawing ----
  preUpdate(time, delta) {
    if (this.plugin) this.plugin._queue(this, delta);
    else this.instance.update(delta / 1000);
  }
  _pageTexture(page) {
    const s = this._sources[page];
    return s ? s.glTexture : null;
  }
  _tint(camera) {
    const t = this.tint, a = Math.round(clampTo(camera.alpha * this.alpha, 0, 1) * 255);
    return ((t >> 16) & 255) | (((t >> 8) & 255) << 8) | ((t & 255) << 16) | ((a << 24) >>> 0);
  }
  _matrix(calc) {
    const { a, b, c, d } = calc, ox = this._ox, oy = this._oy;
    return [a, b, c, d, a * ox + c * oy + calc.tx, b * ox + d * oy + calc.ty];
  }
  renderWebGL(renderer, src, context, parentMatrix) {
    if (!src.instance || !src.instance._ptr) return;
    const list = src.instance.drawList();
    if (MAJOR >= 4) {
      const camera = context.camera;
      camera.addToRenderList(src);
      const node = phaser4Node(renderer);
      const calc = renderer.renderNodes.getNode('TransformerVertex').setupMatrix(context, src, parentMatrix);
      node.begin(context);
      drawArmature(src, list, src._matrix(calc), node, blendTable(renderer), src._tint(camera));
      node.end();
    } else {
      const camera = context;
      camera.addToRenderList(src);
      const pipeline = renderer.pipelines.set(phaser3Pipeline(renderer), src);
      const calc = Phaser.GameObjects.GetCalcMatrix(src, camera, parentMatrix).calc;
      pipeline.begin(src.blendMode);
      drawArmature(src, list, src._matrix(calc), pipeline, blendTable(renderer), src._tint(camera));
    }
  }
  renderCanvas() { sayCanvasUnsupported(); }

  preDestroy() {
    if (this.plugin) this.plugin._forget(this);
    if (this.instance) this.instance.dispose();
    this.instance = null;
  }
}
// Phaser's components, as Phaser.Class mixes them in (Phaser 3's ES module has no Phaser.Class):
// { get, set } objects become accessors; the class's own members stay
for (const name of ['AlphaSingle', 'BlendMode', 'ComputedSize', 'Depth', 'GetBounds', 'Origin', 'ScrollFactor', 'Transform', 'Visible']) {
  const component = Phaser.GameObjects.Components[name], proto = SinewGameObject.prototype;
  for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(component))) {
    if (Object.prototype.hasOwnProperty.call(proto, key)) continue;
    const v = d.value;
    if (v && typeof v === 'object' && (typeof v.get === 'function' || typeof v.set === 'function')) {
      Object.defineProperty(proto, key, { get: v.get, set: v.set, configurable: true });
    } else Object.defineProperty(proto, key, Object.assign(d, { configurable: true }));
  }
}

// ---- the scene plugin ---------------------------------------------------------------------------

/**
 * The scene plugin: `plugins: { scene: [{ key: 'SinewPlugin', plugin: SinewPlugin, mapping: 'sinew' }] }`
 * gives every scene `this.load.sinew(...)`, `this.add.sinew(...)`, `this.make.sinew(...)` and
 * `this.sinew` (this plugin: the runtime, the loaded rigs).
 */
export class SinewPlugin extends Phaser.Plugins.ScenePlugin {
  constructor(scene, pluginManager, pluginKey) {
    super(scene, pluginManager, pluginKey);
    this.game = pluginManager.game;
    this.key = pluginKey;
    /** The loaded rigs: key -> { data, atlas, textures (the pages' texture keys), warnings } or { error }. */
    this.cache = this.game.cache.addCustom(CACHE);
    this._pending = [];
    this._dt = 0;
    sinewRuntime();
    const cache = this.cache;
    pluginManager.registerFileType('sinew', function load(key, skeletonURL, atlasURL, xhrSettings) {
      const list = Array.isArray(key) ? key : [typeof key === 'object' ? key : { key, skeleton: skeletonURL, atlas: atlasURL, xhrSettings }];
      const { SinewFile } = loaderTypes();
      for (const c of list) {
        if (cache.exists(c.key)) { console.warn(`sinew/phaser: '${c.key}' is loaded already`); continue; }
        this.addFile(new SinewFile(this, c.key, c.skeleton ?? c.url, c.atlas, c.xhrSettings, cache).files);
      }
      return this;
    }, scene);
    const build = (scene, x, y, rig, options) => new SinewGameObject(scene, x, y, rig, options, SinewPlugin._of(scene));
    pluginManager.registerGameObject('sinew', function add(x, y, rig, options) {
      const obj = build(this.scene, x, y, rig, options);
      this.displayList.add(obj);
      this.updateList.add(obj);
      return obj;
    }, function make(config, addToScene) {
      const obj = build(this.scene, config.x ?? 0, config.y ?? 0, config.key, config);
      if (addToScene !== undefined) config.add = addToScene;
      Phaser.GameObjects.BuildGameObject(this.scene, obj, config);
      this.updateList.add(obj);
      return obj;
    });
  }

  static _of(scene) {
    for (const k of Object.keys(scene.sys)) if (scene.sys[k] instanceof SinewPlugin) return scene.sys[k];
    return null;
  }

  boot() {
    const events = this.systems.events;
    // after the update list's: objects queue themselves in preUpdate, then one call advances them
    events.on('start', this._start, this);
    events.on('shutdown', this._shutdown, this);
    events.once('destroy', this._destroy, this);
    this.game.events.once('destroy', this._gameDestroy, this);
    const renderer = this.game.renderer;
    if (renderer && renderer.gl) {
      blendTable(renderer);
      if (MAJOR >= 4) phaser4Node(renderer); else phaser3Pipeline(renderer);
    } else if (renderer) sayCanvasUnsupported();
  }
  _start() { this.systems.events.on('update', this._flush, this); }
  _shutdown() { this.systems.events.off('update', this._flush, this); this._pending.length = 0; }
  _destroy() { this._shutdown(); this.systems.events.off('start', this._start, this); this.systems.events.off('shutdown', this._shutdown, this); }
  // the rigs' memory is freed by the runtime's finalizers once nothing holds them
  _gameDestroy() { this.pluginManager.removeGameObject('sinew', true, true); }
  _queue(obj, delta) { this._pending.push(obj); this._dt = delta / 1000; }
  _forget(obj) { const i = this._pending.indexOf(obj); if (i >= 0) this._pending.splice(i, 1); }
  // every armature that asked this frame, advanced in one call into WebAssembly
  _flush() {
    const list = this._pending;
    if (!list.length) return;
    const instances = list.map((o) => o.instance);
    list.length = 0;
    SinewPlugin.runtime.update(instances, this._dt);
  }

  /** The sinew runtime (sinew.mjs's Sinew), once loaded (after the first preload with a rig). */
  get runtime() { return SinewPlugin.runtime; }
  /** A loaded rig: { data (SkeletonData), atlas, textures, warnings } (throws its load error). */
  get(key) {
    const e = this.cache.get(key);
    if (!e) throw new SinewError(`no sinew rig '${key}' is loaded`);
    if (e.error) throw e.error;
    return e;
  }
  /**
   * Draw calls of the plugin's own batches since the game started (Phaser 4: its render node;
   * Phaser 3: its pipeline), for measurements.
   */
  get drawCalls() { return this._batcher()?.drawCalls ?? 0; }
  /** The texture units one of its draw calls samples (atlas pages of any rig, 16 at most). */
  get textureUnits() { return this._batcher()?.units ?? 0; }
  _batcher() {
    const r = this.game.renderer;
    if (!r || !r.gl) return null;
    return MAJOR >= 4 ? phaser4Node(r) : phaser3Pipeline(r);
  }
}
/** Where sinew.wasm is (default: beside this module), as init() of sinew.mjs takes it; set before the first game. */
SinewPlugin.wasm = undefined;
/** The sinew runtime once loaded (sinewRuntime() gives the promise). */
SinewPlugin.runtime = null;
/** The Phaser major version this module runs with (3 or 4). */
SinewPlugin.phaserVersion = MAJOR;

export default SinewPlugin;
