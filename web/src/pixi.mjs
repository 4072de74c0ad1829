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
//
// DragonBones 6.0: vector shapes are untextured triangles like any other. Masks: an image mask is
// exact, in the shader (every vertex of a clipped run carries the mask image's page UV at its
// position, an affine map of the position, and the fragment multiplies by the mask texel's alpha,
// 0 outside the image); a shape mask is a Pixi mask (a mesh of its triangles, Pixi's stencil: no
// anti-aliasing, as the official Pixi adapter's Graphics masks). A clipped command can have one of
// each along its chain of masks; a chain with more (a mask clipped by a mask of the same kind) keeps
// the nearest of each, and counts the run in `unsupportedMasks`.

import { Buffer, BufferUsage, Container, Geometry, ImageSource, Mesh, Shader, Texture } from 'pixi.js';
import { BLEND_MODES, DRAW_MASK, DrawList } from './sinew.mjs';

const VERTEX = `in vec2 aPosition; in vec2 aUV; in vec4 aMul; in vec4 aAdd; in vec4 aRegion; in vec2 aMaskUV;
in vec4 aMaskRegion;
out vec2 vUV; out vec4 vMul; out vec4 vAdd; out vec4 vRegion; out vec4 vColor; out vec2 vMaskUV; out vec4 vMaskRegion;
uniform mat3 uProjectionMatrix; uniform mat3 uWorldTransformMatrix; uniform vec4 uWorldColorAlpha;
uniform mat3 uTransformMatrix; uniform vec4 uColor;
void main() {
  mat3 mvp = uProjectionMatrix * uWorldTransformMatrix * uTransformMatrix;
  gl_Position = vec4((mvp * vec3(aPosition, 1.0)).xy, 0.0, 1.0);
  vUV = aUV; vMul = aMul; vAdd = aAdd; vRegion = aRegion; vMaskUV = aMaskUV; vMaskRegion = aMaskRegion;
  vColor = uColor * uWorldColorAlpha;
}`;
const FRAGMENT = `in vec2 vUV; in vec4 vMul; in vec4 vAdd; in vec4 vRegion; in vec4 vColor; in vec2 vMaskUV;
in vec4 vMaskRegion;
uniform sampler2D uTexture; uniform sampler2D uMaskTexture;
out vec4 finalColor;
void main() {
  vec4 t = texture(uTexture, clamp(vUV, vRegion.xy, vRegion.zw));
  vec3 c = t.a > 0.0 ? t.rgb / t.a : vec3(0.0);
  float a = clamp(t.a * vMul.a + vAdd.a, 0.0, 1.0);
  c = clamp(c * vMul.rgb + vAdd.rgb, 0.0, 1.0);
  float m = 1.0;
  if (vMaskRegion.z >= 0.0) { // an image mask: its texel's alpha here, nothing outside its image
    bool inside = all(greaterThanEqual(vMaskUV, vMaskRegion.xy)) && all(lessThanEqual(vMaskUV, vMaskRegion.zw));
    m = inside ? texture(uMaskTexture, vMaskUV).a : 0.0;
  }
  finalColor = vec4(c * a, a) * vColor * m;
}`;
// x y u v, mul rgba, add rgba (0..1), region u0 v0 u1 v1, mask uv, mask region (z < 0: none)
const FLOATS = 22;
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
      aMaskUV: { buffer: vertices, format: 'float32x2', stride: FLOATS * 4, offset: 64 },
      aMaskRegion: { buffer: vertices, format: 'float32x4', stride: FLOATS * 4, offset: 72 },
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
    /** 6.0: runs whose chain of masks had more than one image mask or shape mask (see the top) */
    this.unsupportedMasks = 0;
    this._stencils = [];         // shape masks: a mesh per mask command, by its index
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

  _shader(texture, maskTexture = this._white) {
    let byMask = this._shaders.get(texture);
    if (!byMask) this._shaders.set(texture, byMask = new Map());
    let s = byMask.get(maskTexture);
    if (!s) {
      s = Shader.from({ gl: { vertex: VERTEX, fragment: FRAGMENT, name: 'sinew-armature' },
        resources: { uTexture: texture.source, uSampler: texture.source.style, uMaskTexture: maskTexture.source } });
      byMask.set(maskTexture, s);
    }
    return s;
  }

  /** The image mask and the shape mask along the chain of masks from command `m` (0-based; -1
   *  none), the nearest of each: { image, shape } command indices or -1. */
  _maskChain(list, m) {
    const L = DrawList.layout, w = list.commandWords, stride = list.commandStride;
    let image = -1, shape = -1, extra = false;
    for (; m >= 0; m = w[m * stride + L.mask] - 1) {
      const textured = w[m * stride + L.page] !== 0xffffffff;
      if (textured ? image >= 0 : shape >= 0) extra = true;
      else if (textured) image = m;
      else shape = m;
    }
    if (extra) this.unsupportedMasks++;
    return { image, shape };
  }

  /** The affine map from armature space to page UV of image mask command `m` (its quad), and its
   *  region: [a, b, c, d, e, f, u0, v0, u1, v1] with u = a x + b y + c, v = d x + e y + f. */
  _maskMap(list, m) {
    const L = DrawList.layout, w = list.commandWords, f = list.commandFloats, b = m * list.commandStride;
    const v0 = w[b + L.firstVertex], pos = list.positions, uv = list.uvs;
    const x = [0, 1, 2].map((k) => pos[2 * (v0 + k)]), y = [0, 1, 2].map((k) => pos[2 * (v0 + k) + 1]);
    const det = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
    const out = [0, 0, -1, 0, 0, -1, f[b + L.region], f[b + L.region + 1], f[b + L.region + 2], f[b + L.region + 3]];
    if (!(Math.abs(det) > 1e-12)) return out;
    for (let k = 0; k < 2; k++) {
      const q = [0, 1, 2].map((i) => uv[2 * (v0 + i) + k]);
      const a = ((q[1] - q[0]) * (y[2] - y[0]) - (q[2] - q[0]) * (y[1] - y[0])) / det;
      const bb = ((q[2] - q[0]) * (x[1] - x[0]) - (q[1] - q[0]) * (x[2] - x[0])) / det;
      out[3 * k] = a; out[3 * k + 1] = bb; out[3 * k + 2] = q[0] - a * x[0] - bb * y[0];
    }
    return out;
  }

  /** The Pixi mask (a mesh of its triangles: a stencil) of shape mask command `m`; unused ones
   *  are left without triangles, so that they draw nothing. */
  _stencil(list, m) {
    while (this._stencils.length <= m) {
      const mesh = new Mesh({ geometry: makeGeometry(), shader: this._shader(this._white), texture: this._white });
      mesh._vertices = new Float32Array(64 * FLOATS);
      mesh._indices = new Uint32Array(96);
      this._stencils.push(mesh);
      this.addChild(mesh);
    }
    const mesh = this._stencils[m], L = DrawList.layout, w = list.commandWords, b = m * list.commandStride;
    const v0 = w[b + L.firstVertex], n = w[b + L.vertexCount], i0 = w[b + L.firstIndex], ni = w[b + L.indexCount];
    if (mesh._vertices.length < n * FLOATS) mesh._vertices = new Float32Array(n * FLOATS * 2);
    if (mesh._indices.length < ni) mesh._indices = new Uint32Array(ni * 2);
    mesh._vertices.fill(0, 0, n * FLOATS);
    for (let i = 0; i < n; i++) {
      mesh._vertices[i * FLOATS] = list.positions[2 * (v0 + i)];
      mesh._vertices[i * FLOATS + 1] = list.positions[2 * (v0 + i) + 1];
    }
    for (let i = 0; i < ni; i++) mesh._indices[i] = list.indices[i0 + i] - v0;
    mesh.geometry.buffers[0].data = mesh._vertices.subarray(0, n * FLOATS);
    mesh.geometry.indexBuffer.data = mesh._indices.subarray(0, ni);
    mesh._used = true;
    return mesh;
  }

  /** Rebuilds the meshes from the instance's current draw list (after an update made elsewhere). */
  refresh() {
    const list = this.instance.drawList(), L = DrawList.layout;
    const w = list.commandWords, f = list.commandFloats, stride = list.commandStride;
    const pos = list.positions, uv = list.uvs, idx = list.indices;
    let used = 0;
    for (const m of this._stencils) m._used = false;
    for (let c = 0; c < list.commandCount;) {
      const b = c * stride, page = w[b + L.page], blend = w[b + L.blend], maskWord = w[b + L.mask];
      if (w[b + L.flags] & DRAW_MASK) { c++; continue; } // a mask is not drawn
      let n = c + 1;
      while (n < list.commandCount && w[n * stride + L.page] === page && w[n * stride + L.blend] === blend &&
             w[n * stride + L.mask] === maskWord && !(w[n * stride + L.flags] & DRAW_MASK)) n++;
      const texture = page === 0xffffffff ? this._white : this.textures[page];
      const chain = maskWord ? this._maskChain(list, maskWord - 1) : { image: -1, shape: -1 };
      const imagePage = chain.image >= 0 ? w[chain.image * stride + L.page] : -1;
      const maskTexture = imagePage >= 0 ? this.textures[imagePage] || this._white : this._white;
      const map = chain.image >= 0 ? this._maskMap(list, chain.image) : null;
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
            if (map) { // the image mask's page UV here, and its region
              const x = pos[2 * i], y = pos[2 * i + 1];
              vertices[o + 16] = map[0] * x + map[1] * y + map[2]; vertices[o + 17] = map[3] * x + map[4] * y + map[5];
              vertices[o + 18] = map[6]; vertices[o + 19] = map[7]; vertices[o + 20] = map[8]; vertices[o + 21] = map[9];
            } else { vertices[o + 16] = 0; vertices[o + 17] = 0; vertices[o + 18] = 0; vertices[o + 19] = 0; vertices[o + 20] = -1; vertices[o + 21] = -1; }
          }
        }
        for (let i = i0; i < i1; i++) indices[i - i0] = idx[i] - v0;
        // exactly this run: Pixi draws as many indices as the index data has
        geometry.buffers[0].data = vertices.subarray(0, (v1 - v0) * FLOATS);
        geometry.indexBuffer.data = indices.subarray(0, i1 - i0);
        mesh.shader = this._shader(texture, maskTexture);
        mesh.texture = texture;
        const stencil = chain.shape >= 0 ? this._stencil(list, chain.shape) : null;
        if (mesh.mask !== stencil) mesh.mask = stencil;
        const name = BLEND_MODES[blend] || 'normal';
        const mode = PIXI_BLEND[name];
        if (!mode) this.unsupportedBlendModes.add(name);
        mesh.blendMode = mode || 'normal';
        mesh.visible = true;
      }
      c = n;
    }
    for (let i = used; i < this._meshes.length; i++) {
      this._meshes[i].visible = false;
      if (this._meshes[i].mask) this._meshes[i].mask = null;
    }
    for (const m of this._stencils) if (!m._used) m.geometry.indexBuffer.data = m._indices.subarray(0, 0);
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
    for (const byMask of this._shaders.values()) for (const s of byMask.values()) s.destroy();
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
