// A WebGL 2 renderer for sinew draw lists (the player draws with it; docs/web.md). The same
// shading as sinew's GL backend (src/gl/gl.c) and rasterizer: premultiplied page textures,
// bilinear samples clamped to the command's atlas region, the DragonBones colour transform on
// straight colour (out = c * mul + add / 255), and the blend modes the blend unit can do. 6.0
// masks as the GL backend draws them: a mask's value (its texels' alpha, through its own mask)
// into one of two alpha render targets, multiplied in by the fragment shader of the commands it
// clips; mask commands themselves are not drawn. Vector shapes are untextured triangles.
//
//   const r = new WebGLRenderer(canvas);
//   r.setPage(0, await createImageBitmap(blob));
//   r.clear([0, 0, 0, 0]);
//   r.draw(instance.drawList(), [1, 0, 0, 1, 240, 300]);   // armature origin at pixel (240, 300)

import { BLEND_MODES, DRAW_MASK, DrawList } from './sinew.mjs';

const VERTEX = `#version 300 es
in vec2 a_pos; in vec2 a_uv; in vec4 a_mul; in vec4 a_add; in vec4 a_region;
uniform vec2 u_size; uniform vec3 u_view0; uniform vec3 u_view1;
out vec2 v_uv; out vec4 v_mul; out vec4 v_add; out vec4 v_region;
void main() {
  v_uv = a_uv; v_mul = a_mul; v_add = a_add; v_region = a_region;
  vec2 p = vec2(dot(u_view0, vec3(a_pos, 1.0)), dot(u_view1, vec3(a_pos, 1.0)));
  gl_Position = vec4(p.x / u_size.x * 2.0 - 1.0, 1.0 - p.y / u_size.y * 2.0, 0.0, 1.0);
}`;
const FRAGMENT = `#version 300 es
precision highp float;
uniform sampler2D u_tex; uniform sampler2D u_mask; uniform int u_masked; uniform int u_mode; uniform vec2 u_size;
in vec2 v_uv; in vec4 v_mul; in vec4 v_add; in vec4 v_region;
out vec4 o_color;
void main() {
  vec4 t = texture(u_tex, clamp(v_uv, v_region.xy, v_region.zw));
  float m = u_masked != 0 ? texture(u_mask, gl_FragCoord.xy / u_size).a : 1.0;
  if (u_mode == 1) { o_color = vec4(t.a * m); return; }
  vec3 c = t.a > 0.0 ? t.rgb / t.a : vec3(0.0);
  float a = clamp(t.a * v_mul.a + v_add.a, 0.0, 1.0);
  c = clamp(c * v_mul.rgb + v_add.rgb, 0.0, 1.0);
  o_color = vec4(c * a, a) * m;
}`;
const FLOATS = 16; // x y u v, mul rgba, add rgba, region u0 v0 u1 v1

export class WebGLRenderer {
  /** `target`: a canvas (a WebGL 2 context is made with premultiplied alpha) or a WebGL2 context. */
  constructor(target, { antialias = true } = {}) {
    const gl = target instanceof WebGL2RenderingContext ? target
      : target.getContext('webgl2', { premultipliedAlpha: true, alpha: true, antialias, preserveDrawingBuffer: true });
    if (!gl) throw new Error('WebGL 2 is not available');
    this.gl = gl;
    const shader = (kind, src) => {
      const s = gl.createShader(kind);
      gl.shaderSource(s, src);
      gl.compileShader(s);
      if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`sinew webgl: ${gl.getShaderInfoLog(s)}`);
      return s;
    };
    const p = gl.createProgram();
    gl.attachShader(p, shader(gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(p, shader(gl.FRAGMENT_SHADER, FRAGMENT));
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(`sinew webgl: ${gl.getProgramInfoLog(p)}`);
    this.program = p;
    const u = (name) => gl.getUniformLocation(p, name);
    this.u = { size: u('u_size'), view0: u('u_view0'), view1: u('u_view1'), tex: u('u_tex'), mask: u('u_mask'),
      masked: u('u_masked'), mode: u('u_mode') };
    /** 6.0 masks: two render targets of the canvas's size, and the mask command (1 + index) the
     *  one at `last` holds */
    this.masks = { fbo: [null, null], tex: [null, null], w: 0, h: 0, holds: 0, last: -1 };
    this.vao = gl.createVertexArray();
    this.vbo = gl.createBuffer();
    this.ebo = gl.createBuffer();
    gl.bindVertexArray(this.vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.vbo);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.ebo);
    const attr = (name, size, offset) => {
      const loc = gl.getAttribLocation(p, name);
      gl.enableVertexAttribArray(loc);
      gl.vertexAttribPointer(loc, size, gl.FLOAT, false, FLOATS * 4, offset * 4);
    };
    attr('a_pos', 2, 0); attr('a_uv', 2, 2); attr('a_mul', 4, 4); attr('a_add', 4, 8); attr('a_region', 4, 12);
    gl.bindVertexArray(null);
    this.vertices = new Float32Array(1024 * FLOATS);
    this.pages = [];
    this.white = this._texture(new Uint8Array([255, 255, 255, 255]), 1, 1);
    /** draw calls of the last draw() */
    this.drawCalls = 0;
    /** blend modes drawn as normal (the blend unit cannot do them), by name */
    this.unsupported = new Set();
  }

  _texture(source, w, h) {
    const gl = this.gl, t = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true);
    gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    if (source instanceof Uint8Array) gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, w, h, 0, gl.RGBA, gl.UNSIGNED_BYTE, source);
    else gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, source);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    return t;
  }

  /**
   * The texture of atlas page `index` (or of a page number you gave replaceDisplayRegion): an
   * ImageBitmap, image, canvas or ImageData, straight alpha (it is premultiplied on upload).
   * null removes it (its commands then draw nothing).
   */
  setPage(index, image) {
    const gl = this.gl;
    if (this.pages[index]) gl.deleteTexture(this.pages[index]);
    this.pages[index] = image ? this._texture(image) : null;
  }

  /** Fills the canvas with a straight RGBA colour, 0..1 per channel. */
  clear([r, g, b, a] = [0, 0, 0, 0]) {
    const gl = this.gl;
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight);
    gl.clearColor(r * a, g * a, b * a, a);
    gl.clear(gl.COLOR_BUFFER_BIT);
  }

  _blend(mode) {
    const gl = this.gl;
    let eq = gl.FUNC_ADD, s = gl.ONE, d = gl.ONE_MINUS_SRC_ALPHA, sa = gl.ONE, da = gl.ONE_MINUS_SRC_ALPHA;
    switch (mode) {
      case 0: case 8: break; // normal, layer
      case 1: d = da = gl.ONE; break; // add
      case 10: s = gl.DST_COLOR; break; // multiply: exact over opaque pixels
      case 12: d = gl.ONE_MINUS_SRC_COLOR; break; // screen
      case 13: eq = gl.FUNC_REVERSE_SUBTRACT; d = gl.ONE; sa = gl.ZERO; da = gl.ONE; break; // subtract
      case 5: s = sa = gl.ZERO; break; // erase
      case 2: s = sa = gl.ZERO; d = da = gl.SRC_ALPHA; break; // alpha (a mask)
      default: this.unsupported.add(BLEND_MODES[mode] || String(mode)); break;
    }
    if (eq === gl.FUNC_REVERSE_SUBTRACT) gl.blendEquationSeparate(eq, gl.FUNC_ADD);
    else gl.blendEquation(eq);
    gl.blendFuncSeparate(s, d, sa, da);
  }

  _maskTargets(w, h) {
    const gl = this.gl, mk = this.masks;
    if (mk.fbo[0] && mk.w === w && mk.h === h) return;
    for (let i = 0; i < 2; i++) {
      if (!mk.tex[i]) { mk.tex[i] = gl.createTexture(); mk.fbo[i] = gl.createFramebuffer(); }
      gl.bindTexture(gl.TEXTURE_2D, mk.tex[i]);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, w, h, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
      gl.bindFramebuffer(gl.FRAMEBUFFER, mk.fbo[i]);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, mk.tex[i], 0);
    }
    mk.w = w; mk.h = h; mk.holds = 0;
  }

  /** The mask target `k` (or none) for the draws that follow; none stays bound otherwise. */
  _useMask(k) {
    const gl = this.gl;
    gl.uniform1i(this.u.masked, k >= 0 ? 1 : 0);
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, k >= 0 ? this.masks.tex[k] : null);
    gl.activeTexture(gl.TEXTURE0);
  }

  /** A mask target holding the value of mask command `m` (1 + its index): the chain from its
   *  outermost mask in, each drawn into a cleared target through the one before. */
  _maskValue(list, m) {
    const gl = this.gl, mk = this.masks, L = DrawList.layout, w = list.commandWords, stride = list.commandStride;
    if (mk.holds === m) return mk.last;
    const dw = gl.drawingBufferWidth, dh = gl.drawingBufferHeight;
    this._maskTargets(dw, dh);
    gl.uniform1i(this.u.mode, 1);
    gl.blendEquation(gl.FUNC_ADD);
    gl.blendFuncSeparate(gl.ONE, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    let k = -1;
    for (let done = 0; done !== m;) {
      let next = m;
      while (w[(next - 1) * stride + L.mask] !== done) next = w[(next - 1) * stride + L.mask];
      const to = k === 0 ? 1 : 0, b = (next - 1) * stride, page = w[b + L.page];
      gl.bindFramebuffer(gl.FRAMEBUFFER, mk.fbo[to]);
      gl.clearColor(0, 0, 0, 0);
      gl.clear(gl.COLOR_BUFFER_BIT);
      this._useMask(k);
      gl.bindTexture(gl.TEXTURE_2D, page === 0xffffffff ? this.white : this.pages[page] || this.white);
      gl.drawElements(gl.TRIANGLES, w[b + L.indexCount], gl.UNSIGNED_INT, w[b + L.firstIndex] * 4);
      k = to;
      done = next;
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.uniform1i(this.u.mode, 0);
    mk.holds = m; mk.last = k;
    return k;
  }

  /**
   * Draws a draw list over what the canvas holds. `view`: [a, b, c, d, tx, ty] from armature space
   * to canvas pixels (default identity).
   */
  draw(list, view = [1, 0, 0, 1, 0, 0]) {
    const gl = this.gl, L = DrawList.layout;
    this.drawCalls = 0;
    if (!list.commandCount) return;
    const need = list.vertexCount * FLOATS;
    if (this.vertices.length < need) this.vertices = new Float32Array(Math.max(need, this.vertices.length * 2));
    const v = this.vertices, pos = list.positions, uv = list.uvs, w = list.commandWords, f = list.commandFloats;
    const stride = list.commandStride;
    for (let c = 0; c < list.commandCount; c++) {
      const b = c * stride, first = w[b + L.firstVertex], count = w[b + L.vertexCount];
      const col = b + L.color, reg = b + L.region;
      const aM = f[col], rM = f[col + 1], gM = f[col + 2], bM = f[col + 3];
      const aO = f[col + 4] / 255, rO = f[col + 5] / 255, gO = f[col + 6] / 255, bO = f[col + 7] / 255;
      const textured = w[b + L.page] !== 0xffffffff;
      for (let i = first; i < first + count; i++) {
        const o = i * FLOATS;
        v[o] = pos[2 * i]; v[o + 1] = pos[2 * i + 1]; v[o + 2] = uv[2 * i]; v[o + 3] = uv[2 * i + 1];
        v[o + 4] = rM; v[o + 5] = gM; v[o + 6] = bM; v[o + 7] = aM;
        v[o + 8] = rO; v[o + 9] = gO; v[o + 10] = bO; v[o + 11] = aO;
        if (textured) { v[o + 12] = f[reg]; v[o + 13] = f[reg + 1]; v[o + 14] = f[reg + 2]; v[o + 15] = f[reg + 3]; }
        else { v[o + 12] = 0; v[o + 13] = 0; v[o + 14] = 1; v[o + 15] = 1; }
      }
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight);
    gl.useProgram(this.program);
    gl.bindVertexArray(this.vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.vbo);
    gl.bufferData(gl.ARRAY_BUFFER, v.subarray(0, need), gl.STREAM_DRAW);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, list.indices, gl.STREAM_DRAW); // the wasm memory view, as is
    gl.uniform2f(this.u.size, gl.drawingBufferWidth, gl.drawingBufferHeight);
    gl.uniform3f(this.u.view0, view[0], view[2], view[4]);
    gl.uniform3f(this.u.view1, view[1], view[3], view[5]);
    gl.uniform1i(this.u.tex, 0);
    gl.uniform1i(this.u.mask, 1);
    gl.uniform1i(this.u.mode, 0);
    this._useMask(-1);
    this.masks.holds = 0;
    gl.activeTexture(gl.TEXTURE0);
    gl.enable(gl.BLEND);
    // runs of commands with the same page, blend mode and mask whose indices follow each other;
    // a mask command is not drawn (its value is, into a target, when a run it clips needs it)
    let masked = false;
    for (let c = 0; c < list.commandCount;) {
      const b = c * stride, page = w[b + L.page], blend = w[b + L.blend], mask = w[b + L.mask];
      if (w[b + L.flags] & DRAW_MASK) { c++; continue; }
      let end = w[b + L.firstIndex] + w[b + L.indexCount], n = c + 1;
      while (n < list.commandCount) {
        const nb = n * stride;
        if (w[nb + L.page] !== page || w[nb + L.blend] !== blend || w[nb + L.mask] !== mask ||
            (w[nb + L.flags] & DRAW_MASK) || w[nb + L.firstIndex] !== end) break;
        end += w[nb + L.indexCount];
        n++;
      }
      if (mask || masked) {
        const k = mask ? this._maskValue(list, mask) : -1;
        this._useMask(k);
        masked = k >= 0;
      }
      const tex = page === 0xffffffff ? this.white : this.pages[page];
      if (tex) {
        gl.bindTexture(gl.TEXTURE_2D, tex);
        this._blend(blend);
        const start = w[b + L.firstIndex];
        gl.drawElements(gl.TRIANGLES, end - start, gl.UNSIGNED_INT, start * 4);
        this.drawCalls++;
      }
      c = n;
    }
    gl.bindVertexArray(null);
  }

  /** The canvas's pixels, RGBA straight alpha, rows top to bottom (for tests and snapshots). */
  readPixels() {
    const gl = this.gl, w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    const px = new Uint8Array(w * h * 4), out = new Uint8ClampedArray(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = ((h - 1 - y) * w + x) * 4, o = (y * w + x) * 4, a = px[i + 3];
        out[o + 3] = a;
        for (let k = 0; k < 3; k++) out[o + k] = a ? Math.min(255, Math.round((px[i + k] * 255) / a)) : 0;
      }
    }
    return { width: w, height: h, data: out };
  }

  dispose() {
    const gl = this.gl;
    for (const t of this.pages) if (t) gl.deleteTexture(t);
    gl.deleteTexture(this.white);
    for (let i = 0; i < 2; i++) {
      if (this.masks.tex[i]) gl.deleteTexture(this.masks.tex[i]);
      if (this.masks.fbo[i]) gl.deleteFramebuffer(this.masks.fbo[i]);
    }
    gl.deleteBuffer(this.vbo); gl.deleteBuffer(this.ebo);
    gl.deleteVertexArray(this.vao); gl.deleteProgram(this.program);
    this.pages = [];
  }
}
