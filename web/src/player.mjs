// <sinew-player>: the web player as an element (docs/web.md). Drop a rig on it (skeleton + atlas +
// page images, a .dbbin, or an XML rig with its images), pick armature, animation and skin, play,
// pause, scrub, change speed, cross-fade, show bones and bounding boxes; errors read as
// file:line:col. Embed it anywhere:
//
//   <script type="module" src="player.mjs"></script>
//   <sinew-player src="hero_ske.json" atlas="hero_tex.json" animation="walk" controls></sinew-player>
//
// Attributes: src, atlas (default: beside src), armature, animation, skin, frame (shows that frame
// paused), width, height (the canvas, pixels), background (RRGGBB), zoom ("fit" or a scale; default
// fit), speed, controls. Events: "load" (a rig is in),
// "ready" (its first frame is drawn), "error" (detail: the SinewError).

import { init, SinewError } from './sinew.mjs';
import { WebGLRenderer } from './webgl.mjs';
import { centredView, decodeImage, fitScale, parseColor, passBounds, passFrames, stepTo } from './framing.mjs';

let runtime = null;
/** The shared sinew runtime of every player on the page (sinew.wasm beside this module). */
export function sinewRuntime() {
  if (!runtime) runtime = init(new URL('./sinew.wasm', import.meta.url));
  return runtime;
}

const STYLE = `
:host { display: inline-block; font: 13px/1.4 system-ui, sans-serif; color: #ddd; background: #22252b; }
:host([controls]) { border-radius: 6px; overflow: hidden; }
.stage { position: relative; display: flex; justify-content: center; background: repeating-conic-gradient(#2c3038 0% 25%, #353a43 0% 50%) 0 0 / 16px 16px; }
.stage.solid { background: none; }
canvas { display: block; }
canvas.overlay { position: absolute; left: 0; top: 0; pointer-events: none; }
.drop[hidden] { display: none; }
.drop { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; text-align: center;
  color: #9aa3b2; pointer-events: none; padding: 1em; }
.stage.dragging { outline: 3px dashed #6ea8fe; outline-offset: -3px; }
.controls { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; padding: 8px; }
.controls[hidden] { display: none; }
.controls label { display: inline-flex; align-items: center; gap: 4px; }
select, input, button { font: inherit; }
input[type=range].frame { flex: 1 1 200px; }
.error { margin: 0; padding: 6px 8px; background: #5c1f24; color: #ffd7d9; white-space: pre-wrap; font: 12px ui-monospace, monospace; }
.error:empty { display: none; }
.warnings { padding: 0 8px 6px; color: #e8c77a; font: 12px ui-monospace, monospace; white-space: pre-wrap; }
.warnings:empty { display: none; }
`;

const TEMPLATE = `
<div class="stage" part="stage"><canvas class="gl" part="canvas"></canvas><canvas class="overlay"></canvas>
  <div class="drop">Drop a rig here: skeleton + atlas + page images, a .dbbin, or an XML rig with its images</div></div>
<div class="controls" part="controls">
  <label title="the rig's files">Files <input type="file" name="files" multiple></label>
  <label title="a folder with the rig (an XML rig whose images are in subfolders)">Folder <input type="file" name="folder" webkitdirectory></label>
  <label>Armature <select name="armature"></select></label>
  <label>Animation <select name="animation"></select></label>
  <label>Skin <select name="skin"></select></label>
  <button name="play" type="button">Pause</button>
  <input class="frame" type="range" name="frame" min="0" max="0" value="0" aria-label="frame">
  <output name="frameLabel">0 / 0</output>
  <label>Speed <input type="range" name="speed" min="0" max="3" step="0.05" value="1"><output name="speedLabel">1×</output></label>
  <label>Cross-fade to <select name="fadeTo"></select></label>
  <label>in <input type="number" name="fadeTime" min="0" max="5" step="0.05" value="0.3" style="width:4.5em"> s</label>
  <button name="fade" type="button">Fade</button>
  <label><input type="checkbox" name="bones"> bones</label>
  <label><input type="checkbox" name="boxes"> bounding boxes</label>
  <label>Zoom <select name="zoom"><option value="fit">fit</option><option value="0.5">50%</option>
    <option value="1">100%</option><option value="2">200%</option></select></label>
</div>
<pre class="error" role="alert"></pre>
<div class="warnings"></div>`;

export class SinewPlayer extends HTMLElement {
  static get observedAttributes() {
    return ['src', 'atlas', 'armature', 'animation', 'skin', 'frame', 'width', 'height', 'background', 'zoom', 'speed', 'controls'];
  }

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = `<style>${STYLE}</style>${TEMPLATE}`;
    const $ = (s) => root.querySelector(s);
    this.ui = {
      stage: $('.stage'), canvas: $('canvas.gl'), overlay: $('canvas.overlay'), drop: $('.drop'), controls: $('.controls'),
      files: $('[name=files]'), folder: $('[name=folder]'), armature: $('[name=armature]'), animation: $('[name=animation]'), skin: $('[name=skin]'),
      play: $('[name=play]'), frame: $('[name=frame]'), frameLabel: $('[name=frameLabel]'), speed: $('[name=speed]'),
      speedLabel: $('[name=speedLabel]'), fadeTo: $('[name=fadeTo]'), fadeTime: $('[name=fadeTime]'), fade: $('[name=fade]'),
      bones: $('[name=bones]'), boxes: $('[name=boxes]'), zoom: $('[name=zoom]'), error: $('.error'), warnings: $('.warnings'),
    };
    this.rig = null;          // { data, atlas, pages, skeleton }
    this.instance = null;
    this.playing = true;
    this.frame = 0;           // the frame shown when paused (render's numbering)
    this.frames = 1;
    this.view = [1, 0, 0, 1, 0, 0];
    this._loadToken = 0;
    this._raf = 0;
    this._wire();
  }

  connectedCallback() {
    this._resize();
    this.ui.controls.hidden = !this.hasAttribute('controls');
    if (!this._started) {
      this._started = true;
      this._ready = this._start();
    }
  }
  disconnectedCallback() { cancelAnimationFrame(this._raf); this._raf = 0; }

  attributeChangedCallback(name, old, value) {
    if (!this._started || old === value) return;
    if (name === 'src' || name === 'atlas') this._loadFromAttributes();
    else if (name === 'width' || name === 'height') { this._resize(); this._reframe(); }
    else if (name === 'controls') this.ui.controls.hidden = value === null;
    else if (name === 'animation' && this.rig) this.setAnimation(value);
    else if (name === 'armature' && this.rig) this._choose({ armature: value });
    else if (name === 'skin' && this.rig) this._choose({ skin: value });
    else if (name === 'frame' && this.rig) this.seek(Number(value));
    else if (name === 'speed') this.speed = Number(value);
    else if (name === 'zoom') { this.ui.zoom.value = value; this._reframe(); }
    else if (name === 'background') this._draw();
  }

  async _start() {
    try {
      this.sinew = await sinewRuntime();
      this.renderer = new WebGLRenderer(this.ui.canvas);
    } catch (e) { this._fail(e); return; }
    if (this.getAttribute('zoom')) this.ui.zoom.value = this.getAttribute('zoom');
    if (this.hasAttribute('speed')) this.speed = Number(this.getAttribute('speed'));
    if (this.getAttribute('src')) await this._loadFromAttributes();
  }

  /** Resolves when the player has its runtime (and the first rig its attributes name, if any). */
  get ready() { return this._ready || Promise.resolve(); }

  _resize() {
    const w = Number(this.getAttribute('width')) || 480, h = Number(this.getAttribute('height')) || 360;
    for (const c of [this.ui.canvas, this.ui.overlay]) {
      c.width = w; c.height = h; c.style.width = `${w}px`; c.style.height = `${h}px`;
    }
  }

  _wire() {
    const ui = this.ui;
    ui.files.addEventListener('change', () => { if (ui.files.files.length) this.loadFiles([...ui.files.files]); });
    ui.folder.addEventListener('change', () => { if (ui.folder.files.length) this.loadFiles([...ui.folder.files]); });
    const stage = ui.stage;
    stage.addEventListener('dragover', (e) => { e.preventDefault(); stage.classList.add('dragging'); });
    stage.addEventListener('dragleave', () => stage.classList.remove('dragging'));
    stage.addEventListener('drop', (e) => {
      e.preventDefault();
      stage.classList.remove('dragging');
      if (e.dataTransfer) droppedFiles(e.dataTransfer).then((files) => files.length && this.loadFiles(files), (err) => this._fail(err));
    });
    ui.armature.addEventListener('change', () => this._choose({ armature: ui.armature.value }));
    ui.skin.addEventListener('change', () => this._choose({ skin: ui.skin.value }));
    ui.animation.addEventListener('change', () => this.setAnimation(ui.animation.value));
    ui.play.addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    ui.frame.addEventListener('input', () => this.seek(Number(ui.frame.value)));
    ui.speed.addEventListener('input', () => { this.speed = Number(ui.speed.value); });
    ui.fade.addEventListener('click', () => this.fadeTo(ui.fadeTo.value, Number(ui.fadeTime.value)));
    ui.bones.addEventListener('change', () => this._drawOverlay());
    ui.boxes.addEventListener('change', () => this._drawOverlay());
    ui.zoom.addEventListener('change', () => this._reframe());
  }

  _fail(err) {
    const text = err instanceof SinewError ? String(err) : `error: ${err && err.message ? err.message : err}`;
    this.ui.error.textContent = text;
    this.error = err;
    this.dispatchEvent(new CustomEvent('error', { detail: err }));
  }
  _clearMessages() { this.ui.error.textContent = ''; this.ui.warnings.textContent = ''; this.error = null; }
  _warnings(list) {
    this.ui.warnings.textContent = list.length ? `${list.length} warning${list.length > 1 ? 's' : ''}:\n${list.slice(0, 20).join('\n')}` : '';
  }

  async _loadFromAttributes() {
    const src = this.getAttribute('src');
    if (!src) return;
    const token = ++this._loadToken;
    this._clearMessages();
    try {
      await this.ready0();
      const rig = await this.sinew.loadURL(src, { atlas: this.getAttribute('atlas') || undefined });
      if (token !== this._loadToken) { disposeRig(rig); return; }
      await this._install(rig, {
        armature: this.getAttribute('armature'), animation: this.getAttribute('animation'), skin: this.getAttribute('skin'),
        frame: this.hasAttribute('frame') ? Number(this.getAttribute('frame')) : null,
      });
    } catch (e) { this._fail(e); }
  }
  async ready0() { if (!this.sinew) { this.sinew = await sinewRuntime(); } if (!this.renderer) this.renderer = new WebGLRenderer(this.ui.canvas); }

  /** Loads a rig from File objects (what the file input and a drop give). */
  async loadFiles(files) {
    const token = ++this._loadToken;
    this._clearMessages();
    try {
      await this.ready0();
      const rig = await this.sinew.loadFiles(files);
      if (token !== this._loadToken) { disposeRig(rig); return; }
      await this._install(rig, {});
    } catch (e) { this._fail(e); }
  }

  async _install(rig, { armature = null, animation = null, skin = null, frame = null }) {
    const missing = rig.pages.filter((p) => !p.file).map((p) => p.path);
    if (rig.atlas && missing.length === rig.pages.length && rig.pages.length) {
      const err = new SinewError(`no page image: the atlas wants ${missing.join(', ')}`, { code: 'MISSING', status: 22, file: rig.atlasFile || '' });
      err.message = String(err);
      disposeRig(rig);
      throw err;
    }
    const bitmaps = [];
    for (const p of rig.pages) bitmaps.push(p.file ? await decodeImage(p.file, { premultiply: true }) : null);
    const warnings = this.sinew.warnings.slice();
    if (missing.length) warnings.push(...missing.map((m) => `${rig.atlasFile}: warning: page image '${m}' is missing: what it maps is not drawn`));
    this._disposeRig();
    this.rig = rig;
    bitmaps.forEach((b, i) => this.renderer.setPage(i, b));
    this.ui.drop.hidden = true;
    this._warnings(warnings);
    const data = rig.data;
    const arm = (armature && data.armature(armature)) || data.armatures.find((a) => animation && a.animations.some((n) => n.name === animation)) || data.armature(null);
    fill(this.ui.armature, data.armatures.map((a) => a.name), arm.name);
    this.dispatchEvent(new CustomEvent('load', { detail: rig }));
    this._choose({ armature: arm.name, animation, skin: skin || '', frame });
  }

  _disposeRig() {
    if (this.instance) { this.instance.dispose(); this.instance = null; }
    if (this.rig) { disposeRig(this.rig); this.rig = null; }
  }

  // armature / skin / animation choice -> a fresh instance
  _choose({ armature = this.ui.armature.value, skin = this.ui.skin.value, animation = null, frame = null }) {
    const data = this.rig.data;
    try {
      const isXml = data.format === 'xml';
      // an XML rig keeps each skin as an armature NAME@SKIN: the armature list shows the bases
      const arm = data.armature(armature);
      const skins = isXml ? [''].concat(data.armatures.filter((a) => a.name.startsWith(arm.name + '@')).map((a) => a.name.slice(arm.name.length + 1)))
        : arm.skins;
      if (!skins.includes(skin)) skin = '';
      fill(this.ui.skin, skins, skin, (s) => s || '(default)');
      if (this.instance) { this.instance.dispose(); this.instance = null; }
      const target = data.resolveSkin(arm.name, skin || null);
      const armInfo = data.armatures[target.armature];
      this._instanceOptions = { armature: armInfo.name, skin: target.overlay, atlas: this.rig.atlas };
      this.instance = data.createInstance(this._instanceOptions);
      this.instance.timeScale = this.speed;
      this.armatureInfo = armInfo;
      const names = armInfo.animations.map((n) => n.name);
      const def = armInfo.defaultAnimation !== null ? names[armInfo.defaultAnimation] : names[0];
      const anim = animation && names.includes(animation) ? animation : (names.includes(this.ui.animation.value) && !animation ? this.ui.animation.value : def);
      fill(this.ui.animation, names, anim);
      fill(this.ui.fadeTo, names, names.find((n) => n !== anim) || anim);
      if (animation && !names.includes(animation)) {
        throw new SinewError(`armature '${armInfo.name}' has no animation named '${animation}' (animations: ${names.map((n) => `'${n}'`).join(', ') || 'none'})`,
          { code: 'NOT_FOUND', status: 60, file: this.rig.skeleton });
      }
      this.setAnimation(anim, { frame });
    } catch (e) { this._fail(e); }
  }

  /** Plays an animation from its start (or shows `frame` of it, paused). */
  setAnimation(name, { frame = null } = {}) {
    if (!this.instance) return;
    const info = this.armatureInfo.animations.find((a) => a.name === name);
    this.animation = name || null;
    this.fps = this.armatureInfo.frameRate || 24;
    if (info) {
      const pass = passFrames(info, this.fps);
      this.frames = pass.frames; this.playTimes = pass.playTimes;
      if (this.ui.animation.value !== name) this.ui.animation.value = name;
    } else { this.frames = 1; this.playTimes = 0; }
    this.ui.frame.max = String(Math.max(0, this.frames - 1));
    this._reframe(false);
    if (frame !== null && Number.isFinite(frame)) { this.pause(); this.seek(frame); }
    else { this.seek(0, { keepPlaying: true }); }
    this._announce();
  }

  // the view: zoom fit frames the animation as `sinew render --size WxH` does (scaled to fit, 4 px
  // around it), a number Z as `sinew render --size WxH --scale Z` (centred, cut where it does not fit)
  _reframe(redraw = true) {
    if (!this.instance) return;
    const w = this.ui.canvas.width, h = this.ui.canvas.height;
    let bounds = null;
    try {
      if (this.animation) {
        bounds = passBounds(this.rig.data, { armature: this.armatureInfo.name, skin: this._skinOverlay(), atlas: this.rig.atlas,
          animation: this.animation, fps: this.fps });
      } else {
        this.instance.update(0);
        const b = this.instance.bounds();
        bounds = b;
      }
    } catch (e) { this._fail(e); }
    const zoom = this.ui.zoom.value;
    const scale = zoom === 'fit' ? fitScale(bounds, w, h) : Number(zoom) || 1;
    this.view = centredView(bounds, w, h, scale);
    if (redraw) this._draw();
  }
  _skinOverlay() {
    const t = this.rig.data.resolveSkin(this.ui.armature.value, this.ui.skin.value || null);
    return t.overlay;
  }

  /** Shows frame k of the animation (render's numbering: k steps of 1/fps from the start). */
  seek(k, { keepPlaying = false } = {}) {
    if (!this.instance) return;
    k = Math.max(0, Math.min(this.frames - 1, Math.floor(k) || 0));
    if (!keepPlaying) this.pause();
    try {
      // frame k is the pose `sinew render --frame k` draws: a fresh instance (child armatures
      // start over too) stepped k times by 1/fps at time scale 1
      const fresh = this.rig.data.createInstance(this._instanceOptions);
      this.instance.dispose();
      this.instance = fresh;
      if (this.animation) stepTo(fresh, this.animation, k, this.fps, this.playTimes);
      else fresh.update(0);
      fresh.timeScale = this.speed;
    } catch (e) { this._fail(e); return; }
    this.frame = k;
    this.time = k / this.fps;
    this._showFrame();
    this._draw();
    if (this.playing) this._loop();
  }

  play() {
    this.playing = true;
    this.ui.play.textContent = 'Pause';
    this._loop();
  }
  pause() {
    this.playing = false;
    this.ui.play.textContent = 'Play';
    cancelAnimationFrame(this._raf);
    this._raf = 0;
  }
  get speed() { return this._speed ?? 1; }
  set speed(v) {
    if (!Number.isFinite(v)) return;
    this._speed = v;
    this.ui.speed.value = String(v);
    this.ui.speedLabel.textContent = `${v.toFixed(2).replace(/\.?0+$/, '')}×`;
    if (this.instance) this.instance.timeScale = v;
  }
  /** Cross-fades to another animation over `seconds`. */
  fadeTo(name, seconds = 0.3) {
    if (!this.instance || !name) return;
    try {
      this.instance.fadeIn(name, { fadeInTime: seconds });
      this.animation = name;
      this.ui.animation.value = name;
      if (!this.playing) this.play();
    } catch (e) { this._fail(e); }
  }

  _loop() {
    if (this._raf || !this.playing) return;
    let last = performance.now();
    const tick = (now) => {
      this._raf = 0;
      if (!this.playing || !this.instance) return;
      const dt = Math.min(0.1, (now - last) / 1000);
      last = now;
      this.instance.update(dt);
      this.time = (this.time || 0) + dt * this.speed;
      this.frame = Math.floor(this.time * this.fps + 1e-6) % Math.max(1, this.frames);
      this._showFrame();
      this._draw();
      this._raf = requestAnimationFrame(tick);
    };
    this._raf = requestAnimationFrame(tick);
  }

  _showFrame() {
    this.ui.frame.value = String(this.frame);
    this.ui.frameLabel.textContent = `${this.frame} / ${Math.max(0, this.frames - 1)}`;
    this.dataset.frame = String(this.frame);
  }

  _draw() {
    if (!this.renderer) return;
    const bg = parseColor(this.getAttribute('background'));
    this.ui.stage.classList.toggle('solid', !!bg);
    this.renderer.clear(bg || [0, 0, 0, 0]);
    if (this.instance) this.renderer.draw(this.instance.drawList(), this.view);
    this._drawOverlay();
  }

  _drawOverlay() {
    const c = this.ui.overlay, g = c.getContext('2d');
    g.clearRect(0, 0, c.width, c.height);
    if (!this.instance || (!this.ui.bones.checked && !this.ui.boxes.checked)) return;
    const [a, b, cc, d, tx, ty] = this.view;
    const px = (x, y) => [a * x + cc * y + tx, b * x + d * y + ty];
    if (this.ui.boxes.checked) {
      g.strokeStyle = '#ff5c8a'; g.lineWidth = 1.5;
      for (const s of this.instance.slots()) {
        if (s.displayType !== 'boundingBox' || !s.visible) continue;
        const pts = this.instance.boundingBox(s.index);
        if (pts.length < 4) continue;
        g.beginPath();
        for (let i = 0; i < pts.length; i += 2) { const [x, y] = px(pts[i], pts[i + 1]); i ? g.lineTo(x, y) : g.moveTo(x, y); }
        g.closePath(); g.stroke();
      }
    }
    if (this.ui.bones.checked) {
      const info = this.armatureInfo.bones;
      g.strokeStyle = '#7fd4ff'; g.fillStyle = '#ffe27a'; g.lineWidth = 2;
      for (const bone of this.instance.bones()) {
        const m = bone.matrix, len = (info.find((i) => i.name === bone.name) || {}).length || 0;
        const [x0, y0] = px(m[4], m[5]);
        if (len > 0) {
          const [x1, y1] = px(m[4] + m[0] * len, m[5] + m[1] * len);
          g.beginPath(); g.moveTo(x0, y0); g.lineTo(x1, y1); g.stroke();
        }
        g.beginPath(); g.arc(x0, y0, 2.5, 0, Math.PI * 2); g.fill();
      }
    }
  }

  _announce() {
    // "ready" once a rig's first frame is drawn
    requestAnimationFrame(() => this.dispatchEvent(new CustomEvent('ready', { detail: { frame: this.frame, animation: this.animation } })));
  }
}

// the files of a drop, folders walked: each File with `path`, its name inside the dropped folder
async function droppedFiles(dt) {
  const entries = [...dt.items].map((i) => (i.webkitGetAsEntry ? i.webkitGetAsEntry() : null)).filter(Boolean);
  if (!entries.length) return [...dt.files];
  const out = [];
  const walk = async (entry, prefix) => {
    if (entry.isFile) {
      const file = await new Promise((ok, bad) => entry.file(ok, bad));
      file.path = prefix + entry.name;
      out.push(file);
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((ok, bad) => reader.readEntries(ok, bad));
        if (!batch.length) break;
        for (const e of batch) await walk(e, entries.length === 1 && prefix === '' && entry === entries[0] ? '' : prefix + entry.name + '/');
      }
    }
  };
  for (const e of entries) await walk(e, '');
  return out;
}

function fill(select, values, chosen, label = (v) => v) {
  select.textContent = '';
  for (const v of values) {
    const o = document.createElement('option');
    o.value = v; o.textContent = label(v);
    select.appendChild(o);
  }
  if (values.includes(chosen)) select.value = chosen;
}

function disposeRig(rig) {
  if (rig.atlas) rig.atlas.dispose();
  if (rig.data) rig.data.dispose();
}

if (!customElements.get('sinew-player')) customElements.define('sinew-player', SinewPlayer);
