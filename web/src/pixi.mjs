// sinew/pixi: a PixiJS v8 display object that draws a sinew instance (docs/web.md).
//
//   import { Application, Assets } from 'pixi.js';
//   import { init } from 'sinew';
//   import { SinewArmature } from 'sinew/pixi';
//   const app = new Application(); await app.init({ preference: 'webgl' });
//   const hero = data.createInstance({ atlas });
//   const view = new SinewArmature(hero, { textures: [await Assets.load('hero_tex.png')] });
//   hero.play('walk');
//   app.stage.addChild(view);
//   app.ticker.add((t) => view.update(t.deltaMS / 1000));
//
// Each frame the instance's draw list (views into wasm memory) becomes a few Pixi meshes: one per
// run of commands that share an atlas page and a blend mode (a character is usually one draw
// call). Every vertex carries its command's colour transform (multipliers and offsets, the
// DragonBones colour transform on straight colour) and its atlas region (samples are clamped to
// it), drawn by one shader; the container's tint, alpha and transform apply on top. Blend modes:
// normal, add, multiply, screen and erase as Pixi has them; the others draw as normal (listed in
// `unsupportedBlendModes`). Needs Pixi's WebGL renderer (WebGL 2).

import { Buffer, BufferUsage, Container, Geometry, ImageSource, Mesh, Shader, Texture } from 'pixi.js';
import { BLEND_MODES, DrawList } from './sinew.mjs';

const VERTEX = `in vec2 aPosition; in vec2 aUV; in vec4 aMul; in vec4 aAdd; in vec4 aRegion;
out vec2 vUV; out vec4 vMul; out vec4 vAdd; out vec4 vRegion; out vec4 vColor;
uniform mat3 uProjectionMatrix; uniform mat3 uWorldTransformMatrix; uniform vec4 uWorldColorAlpha;
uniform mat3 uTransformMatrix; uniform vec4 uColor;
void main() {
  mat3 mvp = uProjectionMatrix * uWorldTransformMatrix * uTransformMatrix;
  gl_Position = vec4((mvp * vec3(aPosition, 1.0)).xy, 0.0, 1.0);
  vUV = aUV; vMul = aMul; vAdd = aAdd; vRegion = aRegion;
  vColor = uColor * uWorldColorAlpha;
}`;
const FRAGMENT = `in vec2 vUV; in vec4 vMul; in vec4 vAdd; in vec4 vRegion; in vec4 vColor;
uniform sampler2D uTexture;
out vec4 finalColor;
void main() {
  vec4 t = texture(uTexture, clamp(vUV, vRegion.xy, vRegion.zw));
  vec3 c = t.a > 0.0 ? t.rgb / t.a : vec3(0.0);
  float a = clamp(t.a * vMul.a + vAdd.a, 0.0, 1.0);
  c = clamp(c * vMul.rgb + vAdd.rgb, 0.0, 1.0);
  finalColor = vec4(c * a, a) * vColor;
}`;
const FLOATS = 16; // x y u v, mul rgba, add rgba (0..1), region u0 v0 u1 v1
// DragonBones blend modes -> Pixi's (premultiplied); null: drawn as normal
const PIXI_BLEND = { normal: 'normal', layer: 'normal', add: 'add', multiply: 'multiply', screen: 'screen', erase: 'erase' };

function makeGeometry() {
  // one interleaved buffer for every attribute
  const vertices = new Buffer({ data: new Float32Array(64 * FLOATS), usage: BufferUsage.VERTEX | BufferUsage.COPY_DST });
  const indices = new Uint32Array(96);
  const geometry = new Geometry({
    attributes: {
      aPosition: { buffer: vertices, format: 'float32x2', stride: FLOATS * 4, offset: 0 },
      aUV: { buffer: vertices, format: 'float32x2', stride: FLOATS * 4, offset: 8 },
      aMul: { buffer: vertices, format: 'float32x4', stride: FLOATS * 4, offset: 16 },
      aAdd: { buffer: vertices, format: 'float32x4', stride: FLOATS * 4, offset: 32 },
      aRegion: { buffer: vertices, format: 'float32x4', stride: FLOATS * 4, offset: 48 },
    },
    indexBuffer: indices,
  });
  return geometry;
}

/** A PixiJS container showing a sinew Instance. */
export class SinewArmature extends Container {
  /**
   * `instance`: a sinew Instance. `textures`: the Pixi textures of its atlas pages, by page index
   * (page numbers you gave replaceDisplayRegion index this array too). `autoUpdate`: update the
   * instance from Pixi's shared ticker (default false: call update(dt), or refresh() after
   * sinew.update(list, dt) for a crowd).
   */
  constructor(instance, { textures = [], autoUpdate = false } = {}) {
    super();
    this.instance = instance;
    this.textures = textures;
    this._meshes = [];
    this._shaders = new Map();   // texture -> shader
    this._white = Texture.WHITE;
    /** DragonBones blend modes met that Pixi cannot do (drawn as normal) */
    this.unsupportedBlendModes = new Set();
    this._autoUpdate = false;
    this._tick = (ticker) => this.update(ticker.deltaMS / 1000);
    this.autoUpdate = autoUpdate;
    this.refresh();
  }

  get autoUpdate() { return this._autoUpdate; }
  set autoUpdate(v) {
    if (v === this._autoUpdate) return;
    this._autoUpdate = v;
    // the shared ticker, when Pixi's ticker plugin is there
    import('pixi.js').then(({ Ticker }) => {
      if (this.destroyed) return;
      if (v) Ticker.shared.add(this._tick); else Ticker.shared.remove(this._tick);
    });
  }

  /** Advances the instance by dt seconds and redraws. */
  update(dt) {
    this.instance.update(dt);
    this.refresh();
  }

  _shader(texture) {
    let s = this._shaders.get(texture);
    if (!s) {
      s = Shader.from({ gl: { vertex: VERTEX, fragment: FRAGMENT, name: 'sinew-armature' },
        resources: { uTexture: texture.source, uSampler: texture.source.style } });
      this._shaders.set(texture, s);
    }
    return s;
  }

  /** Rebuilds the meshes from the instance's current draw list (after an update made elsewhere). */
  refresh() {
    const list = this.instance.drawList(), L = DrawList.layout;
    const w = list.commandWords, f = list.commandFloats, stride = list.commandStride;
    const pos = list.positions, uv = list.uvs, idx = list.indices;
    let used = 0;
    for (let c = 0; c < list.commandCount;) {
      const b = c * stride, page = w[b + L.page], blend = w[b + L.blend];
      let n = c + 1;
      while (n < list.commandCount && w[n * stride + L.page] === page && w[n * stride + L.blend] === blend) n++;
      const texture = page === 0xffffffff ? this._white : this.textures[page];
      if (texture) {
        // the run's vertices (commands' vertex ranges follow each other) and its indices, rebased
        const v0 = w[b + L.firstVertex];
        const last = (n - 1) * stride;
        const v1 = w[last + L.firstVertex] + w[last + L.vertexCount];
        const i0 = w[b + L.firstIndex], i1 = w[last + L.firstIndex] + w[last + L.indexCount];
        const mesh = this._mesh(used++);
        const geometry = mesh.geometry;
        if (mesh._vertices.length < (v1 - v0) * FLOATS) mesh._vertices = new Float32Array((v1 - v0) * FLOATS * 2);
        if (mesh._indices.length < i1 - i0) mesh._indices = new Uint32Array((i1 - i0) * 2);
        const vertices = mesh._vertices, indices = mesh._indices;
        for (let k = c; k < n; k++) {
          const kb = k * stride, first = w[kb + L.firstVertex], count = w[kb + L.vertexCount];
          const col = kb + L.color, reg = kb + L.region, textured = w[kb + L.page] !== 0xffffffff;
          for (let i = first; i < first + count; i++) {
            const o = (i - v0) * FLOATS;
            vertices[o] = pos[2 * i]; vertices[o + 1] = pos[2 * i + 1];
            vertices[o + 2] = uv[2 * i]; vertices[o + 3] = uv[2 * i + 1];
            vertices[o + 4] = f[col + 1]; vertices[o + 5] = f[col + 2]; vertices[o + 6] = f[col + 3]; vertices[o + 7] = f[col];
            vertices[o + 8] = f[col + 5] / 255; vertices[o + 9] = f[col + 6] / 255; vertices[o + 10] = f[col + 7] / 255;
            vertices[o + 11] = f[col + 4] / 255;
            if (textured) {
              vertices[o + 12] = f[reg]; vertices[o + 13] = f[reg + 1]; vertices[o + 14] = f[reg + 2]; vertices[o + 15] = f[reg + 3];
            } else { vertices[o + 12] = 0; vertices[o + 13] = 0; vertices[o + 14] = 1; vertices[o + 15] = 1; }
          }
        }
        for (let i = i0; i < i1; i++) indices[i - i0] = idx[i] - v0;
        // exactly this run: Pixi draws as many indices as the index data has
        geometry.buffers[0].data = vertices.subarray(0, (v1 - v0) * FLOATS);
        geometry.indexBuffer.data = indices.subarray(0, i1 - i0);
        mesh.shader = this._shader(texture);
        mesh.texture = texture;
        const name = BLEND_MODES[blend] || 'normal';
        const mode = PIXI_BLEND[name];
        if (!mode) this.unsupportedBlendModes.add(name);
        mesh.blendMode = mode || 'normal';
        mesh.visible = true;
      }
      c = n;
    }
    for (let i = used; i < this._meshes.length; i++) this._meshes[i].visible = false;
  }

  _mesh(i) {
    let m = this._meshes[i];
    if (!m) {
      const geometry = makeGeometry();
      m = new Mesh({ geometry, shader: this._shader(this._white), texture: this._white });
      m._vertices = new Float32Array(64 * FLOATS);
      m._indices = new Uint32Array(96);
      this._meshes[i] = m;
      this.addChild(m);
    }
    return m;
  }

  destroy(options) {
    this.autoUpdate = false;
    for (const s of this._shaders.values()) s.destroy();
    this._shaders.clear();
    super.destroy(options);
  }
}

/**
 * The Pixi textures of a rig's atlas pages (what sinew.loadFiles / loadURL return in `pages`), by
 * page index; null for a page whose image is missing.
 */
export async function pageTextures(rig) {
  const out = [];
  for (const p of rig.pages) {
    if (!p.file && !p.bytes) { out.push(null); continue; }
    const blob = p.file instanceof Blob ? p.file : new Blob([p.bytes], { type: 'image/png' });
    // premultiplied here: WebGL does not premultiply ImageBitmaps on upload
    const bitmap = await createImageBitmap(blob, { premultiplyAlpha: 'premultiply', colorSpaceConversion: 'none' });
    out.push(new Texture({ source: new ImageSource({ resource: bitmap, alphaMode: 'premultiplied-alpha' }) }));
  }
  return out;
}
