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
// fit), fit ("animation": the current one, default; "all": every animation of the armature), pan
// ("X,Y": pixels the view is moved by), pma ("true"/"false": the page images are premultiplied;
// default what the atlas says), speed, controls, share-base (the page a shared link opens; default
// this page). Events: "load" (a rig is in), "ready" (its first frame is drawn), "error" (detail:
// the SinewError), "export" (detail: { kind, name, blob }).
//
// Every player on a page draws through one WebGL context (browsers keep about 16 alive and drop the
// oldest beyond that) and copies its picture to a 2D canvas of its own.

import { init, SinewError } from './sinew.mjs';
import { WebGLRenderer } from './webgl.mjs';
import { centredView, decodeImage, fitScale, parseColor, passBounds, passFrames, stepTo } from './framing.mjs';
import { encodeGIF, encodePNG, zipStored } from './encode.mjs';

let runtime = null;
/** The shared sinew runtime of every player on the page (sinew.wasm beside this module). */
export function sinewRuntime() {
  if (!runtime) runtime = init(new URL('./sinew.wasm', import.meta.url));
  return runtime;
}

// the page's one WebGL context: a canvas that is never shown, sized to the player drawing in it
const shared = { canvas: null, renderer: null, players: new Set() };
function sharedRenderer() {
  if (!shared.renderer) {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    canvas.addEventListener('webglcontextlost', (e) => e.preventDefault());
    canvas.addEventListener('webglcontextrestored', () => {
      shared.renderer = new WebGLRenderer(canvas);
      for (const p of shared.players) p._reupload();
    });
    shared.canvas = canvas;
    shared.renderer = new WebGLRenderer(canvas);
  }
  return shared.renderer;
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
.stage.panning { cursor: grabbing; }
.share { flex: 1 1 200px; min-width: 8em; font: 12px ui-monospace, monospace; }
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
  <label title="what the view fits: the current animation, or every animation of the armature">Fit
    <select name="fit"><option value="animation">this animation</option><option value="all">all animations</option></select></label>
  <label title="the page images' colours are premultiplied by alpha (the atlas's premultipliedAlpha or pma flag sets it)">
    <input type="checkbox" name="pma"> premultiplied alpha</label>
  <span>Export <button name="exportZip" type="button" title="every frame of the animation as PNGs in a zip">PNG zip</button>
    <button name="exportGif" type="button">GIF</button>
    <button name="exportWebm" type="button" title="VP9 or VP8 with alpha, recorded in real time">WebM</button></span>
  <button name="share" type="button" title="a link that opens this rig, animation, skin, speed and view">Link</button>
  <input class="share" name="shareURL" readonly hidden aria-label="link">
  <output name="status"></output>
</div>
<pre class="error" role="alert"></pre>
<div class="warnings"></div>`;

export class SinewPlayer extends HTMLElement {
  static get observedAttributes() {
    return ['src', 'atlas', 'armature', 'animation', 'skin', 'frame', 'width', 'height', 'background', 'zoom', 'speed', 'controls',
      'fit', 'pan', 'pma'];
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
      fit: $('[name=fit]'), pma: $('[name=pma]'), exportZip: $('[name=exportZip]'), exportGif: $('[name=exportGif]'),
      exportWebm: $('[name=exportWebm]'), share: $('[name=share]'), shareURL: $('[name=shareURL]'), status: $('[name=status]'),
    };
    this.ui.exportWebm.hidden = !webmType();
    this.rig = null;          // { data, atlas, pages, skeleton }
    this.instance = null;
    this.playing = true;
    this.frame = 0;           // the frame shown when paused (render's numbering)
    this.frames = 1;
    this.view = [1, 0, 0, 1, 0, 0];
    this.pan = [0, 0];        // pixels the view is moved by (a drag on the stage)
    this._textures = [];      // this player's page textures in the shared context
    this._bounds = new Map(); // framing bounds by armature, skin, animation (or '*': all)
    this._loadToken = 0;
    this._raf = 0;
    this._wire();
  }

  connectedCallback() {
    shared.players.add(this);
    this._resize();
    if (this._bitmaps && this._bitmaps.length && !this._textures.length && shared.renderer) this._reupload();
    this.ui.controls.hidden = !this.hasAttribute('controls');
    if (!this._started) {
      this._started = true;
      this._ready = this._start();
    }
  }
  disconnectedCallback() {
    cancelAnimationFrame(this._raf);
    this._raf = 0;
    shared.players.delete(this);
    // its textures leave the shared context (the decoded pages stay, for when it comes back)
    if (shared.renderer && this._textures.length) { const keep = this._bitmaps; this._setPages([]); this._bitmaps = keep; }
  }

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
    else if (name === 'zoom') { setZoom(this.ui.zoom, value || 'fit'); this._reframe(); }
    else if (name === 'fit') { this.ui.fit.value = value === 'all' ? 'all' : 'animation'; this._reframe(); }
    else if (name === 'pan') { this.pan = parsePan(value); this._reframe(); }
    else if (name === 'pma' && this.rig) this.setPremultiplied(value === null ? this.rig.premultipliedAlpha : value !== 'false');
    else if (name === 'background') this._draw();
  }

  async _start() {
    try {
      await this.ready0();
    } catch (e) { this._fail(e); return; }
    if (this.getAttribute('zoom')) setZoom(this.ui.zoom, this.getAttribute('zoom'));
    if (this.getAttribute('fit') === 'all') this.ui.fit.value = 'all';
    if (this.hasAttribute('pan')) this.pan = parsePan(this.getAttribute('pan'));
    if (this.hasAttribute('speed')) this.speed = Number(this.getAttribute('speed'));
    if (this.getAttribute('src')) await this._loadFromAttributes();
  }

  /** Resolves when the player has its runtime (and the first rig its attributes name, if any). */
  get ready() { return this._ready || Promise.resolve(); }
  /** The page's shared WebGL renderer (null until the player has started). */
  get renderer() { return this._started && shared.renderer ? shared.renderer : null; }

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
    ui.fit.addEventListener('change', () => this._reframe());
    ui.pma.addEventListener('change', () => this.setPremultiplied(ui.pma.checked));
    const exporting = (kind) => () => this.export(kind).catch((e) => this._fail(e));
    ui.exportZip.addEventListener('click', exporting('zip'));
    ui.exportGif.addEventListener('click', exporting('gif'));
    ui.exportWebm.addEventListener('click', exporting('webm'));
    ui.share.addEventListener('click', () => this._showShareURL());
    // a drag on the stage pans the view
    let drag = null;
    stage.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 || !this.instance) return;
      drag = { x: e.clientX, y: e.clientY, pan: this.pan.slice() };
      stage.setPointerCapture(e.pointerId);
      stage.classList.add('panning');
    });
    stage.addEventListener('pointermove', (e) => {
      if (!drag) return;
      this.pan = [drag.pan[0] + e.clientX - drag.x, drag.pan[1] + e.clientY - drag.y];
      this._reframe();
    });
    const stop = () => { drag = null; stage.classList.remove('panning'); };
    stage.addEventListener('pointerup', stop);
    stage.addEventListener('pointercancel', stop);
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
  async ready0() { if (!this.sinew) { this.sinew = await sinewRuntime(); } sharedRenderer(); }

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
    const pmaAttr = this.getAttribute('pma');
    const pma = pmaAttr === null ? !!rig.premultipliedAlpha : pmaAttr !== 'false';
    const bitmaps = await decodePages(rig, pma);
    const warnings = this.sinew.warnings.slice();
    if (missing.length) warnings.push(...missing.map((m) => `${rig.atlasFile}: warning: page image '${m}' is missing: what it maps is not drawn`));
    this._disposeRig();
    this.rig = rig;
    this.premultipliedAlpha = pma;
    this.ui.pma.checked = pma;
    this._setPages(bitmaps);
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
    this._setPages([]);
    this._bounds.clear();
  }

  // this player's page textures in the shared context (the bitmaps kept for a lost context)
  _setPages(bitmaps) {
    const r = shared.renderer;
    r.pages = this._textures;
    for (let i = 0; i < Math.max(bitmaps.length, this._textures.length); i++) r.setPage(i, bitmaps[i] || null);
    this._textures.length = bitmaps.length;
    this._bitmaps = bitmaps;
  }
  _reupload() {
    this._textures = [];
    this._setPages(this._bitmaps || []);
    this._draw();
  }

  /**
   * Whether the page images are premultiplied: true uploads them as they are, false premultiplies
   * them first (the atlas's premultipliedAlpha or pma flag sets it when a rig loads).
   */
  async setPremultiplied(on) {
    on = !!on;
    this.ui.pma.checked = on;
    if (!this.rig || on === this.premultipliedAlpha) return;
    const rig = this.rig, bitmaps = await decodePages(rig, on);
    if (rig !== this.rig) return;
    this.premultipliedAlpha = on;
    this._setPages(bitmaps);
    this._draw();
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
      bounds = this._framingBounds();
    } catch (e) { this._fail(e); }
    const zoom = this.ui.zoom.value;
    const scale = zoom === 'fit' ? fitScale(bounds, w, h) : Number(zoom) || 1;
    this.view = centredView(bounds, w, h, scale);
    this.view[4] += this.pan[0];
    this.view[5] += this.pan[1];
    if (redraw) this._draw();
  }
  // what the view fits: the current animation's frames (as `sinew render` frames them), or the
  // union of every animation's; the pose at time 0 without an animation
  _framingBounds() {
    const names = this.ui.fit.value === 'all' ? this.armatureInfo.animations.map((a) => a.name) : this.animation ? [this.animation] : [];
    if (!names.length) { this.instance.update(0); return this.instance.bounds(); }
    const skin = this._skinOverlay(), key = `${this.armatureInfo.name}\n${skin || ''}\n${this.fps}\n${names.length > 1 ? '*' : names[0]}`;
    if (this._bounds.has(key)) return this._bounds.get(key);
    let bounds = null;
    for (const animation of names) {
      const b = passBounds(this.rig.data, { armature: this.armatureInfo.name, skin, atlas: this.rig.atlas, animation, fps: this.fps });
      if (b) bounds = bounds ? { x0: Math.min(bounds.x0, b.x0), y0: Math.min(bounds.y0, b.y0), x1: Math.max(bounds.x1, b.x1), y1: Math.max(bounds.y1, b.y1) } : b;
    }
    this._bounds.set(key, bounds);
    return bounds;
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
      const dt = Math.max(0, Math.min(0.1, (now - last) / 1000)); // a frame's time can precede the call's
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
    this._render(this.instance);
    const g = this.ui.canvas.getContext('2d');
    g.globalCompositeOperation = 'copy';
    g.drawImage(shared.canvas, 0, 0);
    this._drawOverlay();
  }

  // draws `instance` in the shared context at this player's size, view, pages and background
  _render(instance) {
    const r = shared.renderer, c = shared.canvas, w = this.ui.canvas.width, h = this.ui.canvas.height;
    if (c.width !== w || c.height !== h) { c.width = w; c.height = h; }
    r.pages = this._textures;
    r.clear(parseColor(this.getAttribute('background')) || [0, 0, 0, 0]);
    if (instance) r.draw(instance.drawList(), this.view);
  }

  /**
   * Every frame of the current animation as `sinew render --frame K` poses it (a fresh instance
   * stepped by 1/fps, at time scale 1), drawn at the player's size, view and background: straight
   * RGBA images, rows top to bottom.
   */
  async renderFrames() {
    if (!this.instance || !this.animation) throw new Error('no animation to export');
    const inst = this.rig.data.createInstance(this._instanceOptions), out = [];
    try {
      inst.play(this.animation, { playTimes: this.playTimes });
      inst.update(0);
      for (let k = 0; k < this.frames; k++) {
        if (k) inst.update(1 / this.fps);
        this._render(inst);
        out.push(shared.renderer.readPixels());
        if (k % 8 === 7) await new Promise((r) => setTimeout(r, 0));
      }
    } finally { inst.dispose(); this._draw(); }
    return out;
  }

  /**
   * Exports the current animation: 'zip' (a PNG per frame, NAME_0000.png ...), 'gif' or 'webm'
   * (VP9/VP8 with alpha through MediaRecorder, in real time; where the browser can encode it).
   * Downloads the file (and fires "export"); resolves to { kind, name, blob }.
   */
  async export(kind) {
    const name = `${this.armatureInfo.name}_${this.animation}`.replace(/[\\/:%?*"<>|]/g, '_');
    this.ui.status.value = `exporting ${kind}…`;
    const frames = await this.renderFrames();
    let blob, file;
    if (kind === 'zip') {
      const entries = [];
      for (let k = 0; k < frames.length; k++) entries.push({ name: `${name}_${String(k).padStart(4, '0')}.png`, data: await encodePNG(frames[k]) });
      blob = new Blob([zipStored(entries)], { type: 'application/zip' });
      file = `${name}.zip`;
    } else if (kind === 'gif') {
      blob = new Blob([encodeGIF(frames, { fps: this.fps, loop: this.playTimes === 0 })], { type: 'image/gif' });
      file = `${name}.gif`;
    } else if (kind === 'webm') {
      blob = await recordWebM(frames, this.fps);
      file = `${name}.webm`;
    } else throw new Error(`unknown export '${kind}' (zip, gif, webm)`);
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = file;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 60000);
    this.ui.status.value = `${file}: ${frames.length} frames, ${blob.size} bytes`;
    const detail = { kind, name: file, blob };
    this.dispatchEvent(new CustomEvent('export', { detail }));
    return detail;
  }

  /**
   * A link to the player page (share-base, default this page) that opens this rig with its
   * armature, animation, skin, speed and view (zoom, fit, pan), and the frame when paused. Null
   * for a rig that came from files (it has no URL).
   */
  shareURL() {
    const src = this.getAttribute('src');
    if (!src || !this.instance) return null;
    const abs = (u) => new URL(u, document.baseURI).href;
    const url = new URL(this.getAttribute('share-base') || location.href, document.baseURI);
    const q = new URLSearchParams();
    q.set('ske', abs(src));
    if (this.getAttribute('atlas')) q.set('tex', abs(this.getAttribute('atlas')));
    q.set('armature', this.ui.armature.value);
    if (this.animation) q.set('animation', this.animation);
    if (this.ui.skin.value) q.set('skin', this.ui.skin.value);
    if (this.speed !== 1) q.set('speed', String(this.speed));
    q.set('zoom', this.ui.zoom.value);
    if (this.ui.fit.value !== 'animation') q.set('fit', this.ui.fit.value);
    if (this.pan[0] || this.pan[1]) q.set('pan', `${this.pan[0]},${this.pan[1]}`);
    if (!this.playing) q.set('frame', String(this.frame));
    if (this.getAttribute('pma') !== null) q.set('pma', String(this.premultipliedAlpha));
    q.set('size', `${this.ui.canvas.width}x${this.ui.canvas.height}`);
    if (this.getAttribute('background')) q.set('background', this.getAttribute('background'));
    q.set('controls', this.hasAttribute('controls') ? '1' : '0');
    url.search = q.toString();
    url.hash = '';
    return url.href;
  }
  _showShareURL() {
    const link = this.shareURL();
    this.ui.shareURL.value = link || '';
    this.ui.shareURL.hidden = !link;
    this.ui.status.value = link ? '' : 'a rig from files has no URL to share';
    if (link && navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
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

// the page images of a rig as the renderer wants them: premultiplied (by the decoder, unless they
// are already)
async function decodePages(rig, premultiplied) {
  const out = [];
  for (const p of rig.pages) out.push(p.file ? await decodeImage(p.file, { premultiply: !premultiplied }) : null);
  return out;
}

function parsePan(text) {
  const m = /^\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*$/.exec(text || '');
  return m ? [Number(m[1]), Number(m[2])] : [0, 0];
}

// a zoom select set to any scale (an option is added for one it does not list)
function setZoom(select, value) {
  if (![...select.options].some((o) => o.value === value)) {
    const o = document.createElement('option');
    o.value = value; o.textContent = `${Math.round(Number(value) * 1000) / 10}%`;
    select.appendChild(o);
  }
  select.value = value;
}

// the WebM type MediaRecorder can record with alpha here, or null
function webmType() {
  if (typeof MediaRecorder === 'undefined') return null;
  return ['video/webm;codecs=vp9', 'video/webm;codecs=vp8'].find((t) => MediaRecorder.isTypeSupported(t)) || null;
}

// the frames played into a canvas stream at `fps` and recorded (real time)
async function recordWebM(frames, fps) {
  const type = webmType();
  if (!type) throw new Error('this browser cannot record WebM (MediaRecorder)');
  const { width, height } = frames[0];
  const canvas = document.createElement('canvas');
  canvas.width = width; canvas.height = height;
  const g = canvas.getContext('2d');
  const stream = canvas.captureStream(0), track = stream.getVideoTracks()[0];
  const rec = new MediaRecorder(stream, { mimeType: type, videoBitsPerSecond: 8e6 }), chunks = [];
  rec.ondataavailable = (e) => { if (e.data.size) chunks.push(e.data); };
  const stopped = new Promise((r) => { rec.onstop = r; });
  const show = (k) => { g.putImageData(new ImageData(frames[k].data, width, height), 0, 0); track.requestFrame(); };
  show(0);
  rec.start();
  const t0 = performance.now();
  for (let k = 0; k < frames.length; k++) {
    if (k) show(k);
    const wait = t0 + ((k + 1) * 1000) / fps - performance.now();
    await new Promise((r) => setTimeout(r, Math.max(0, wait)));
  }
  rec.stop();
  await stopped;
  track.stop();
  return new Blob(chunks, { type: 'video/webm' });
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
