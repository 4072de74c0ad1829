// The Phaser examples (phaser4-crowd.html, phaser3-scene.html), for whichever Phaser the page's
// import map names 'phaser': a crowd of the rig (?ske=URL&tex=URL, default the demo character); a
// click on a character cross-fades it to its next animation (the hit test is sinew's, through
// Phaser's input); its events are listed; fps and WebGL draw calls a frame are shown.
//   ?n=N         N armatures (default the page's)
//   ?frame=K&size=WxH&background=RRGGBB&armature=A&animation=N&skin=S
//                one armature at frame K framed as `sinew render --frame K --size WxH` frames it
//                (for tests); body[data-ready="1"] once drawn
//                and, to check the game object's properties: &origin=0.5 (centred origin, placed so
//                the frame is the same), &scroll=1 (a scrolled camera, scroll factor 0), &container=1
//                (inside a container), &alpha=A, &tint=RRGGBB, &blend=add, &visible=0, &slotTexture=SLOT
//                (a magenta texture of the game's in the slot), &shadow=before|depth|over (a black twin
//                under the armature, under it by depth, over it); &decoy=URL: another
//                rig drawn first, off the canvas (two atlas pages in one batch); data-draws
//   after 30 frames: data-draws (WebGL draw calls of the last frame), data-triangles, data-ready
//   ?blend=alternate  every other armature of the crowd drawn with blend mode ADD
// window.sinewStats: { frames, draws (last frame), stepMs (the last frame's update + render, CPU),
//   samples: [[stepMs, draws, the update's ms] a frame] } (web/bench/phaser-bench.mjs reads them)
import * as Phaser from 'phaser';
import { SinewPlugin } from 'sinew/phaser';
import { centredView, fitScale, passBounds, passFrames, stepTo } from 'sinew/framing';
import { params, size, ready, fail } from './common.mjs';

// every WebGL draw call of the page (Phaser's and the plugin's), counted a frame
const stats = { frames: 0, draws: 0, stepMs: 0, armatures: 0, samples: [] };
let draws = 0;
for (const proto of [WebGLRenderingContext.prototype, globalThis.WebGL2RenderingContext?.prototype].filter(Boolean)) {
  for (const name of ['drawElements', 'drawArrays']) {
    const original = proto[name];
    proto[name] = function counted(...args) { draws++; return original.apply(this, args); };
  }
}
window.sinewStats = stats;

const still = params.has('frame');
const background = params.get('background');

class Crowd extends Phaser.Scene {
  constructor(options) { super('crowd'); this.options = options; }

  preload() {
    const ske = params.get('ske') || '../demo/demo_ske.json';
    this.load.sinew('rig', ske, params.get('tex') || undefined);
    if (params.get('decoy')) this.load.sinew('decoy', params.get('decoy'));
    this.load.on('loaderror', (file) => fail(`cannot load ${file.src}`));
  }

  create() {
    try {
      if (still) this.still(); else this.crowd();
    } catch (e) { fail(e); }
  }

  // one armature at frame K, as `sinew render --frame K --size WxH` draws it
  still() {
    const { data, atlas } = this.sinew.get('rig');
    const target = data.resolveSkin(params.get('armature'), params.get('skin'));
    const arm = data.armatures[target.armature];
    const names = arm.animations.map((a) => a.name);
    const animation = params.get('animation') || (arm.defaultAnimation !== null ? names[arm.defaultAnimation] : names[0]);
    const [w, h] = [this.scale.width, this.scale.height];
    const bounds = passBounds(data, { armature: arm.name, skin: target.overlay, atlas, animation, fps: arm.frameRate });
    const [s, , , , tx, ty] = centredView(bounds, w, h, fitScale(bounds, w, h));
    // another rig drawn first, off the canvas: the frame's batch holds two pages (texture units)
    if (params.get('decoy')) this.add.sinew(-4000, -4000, 'decoy');
    const twin = () => this.add.sinew(tx + 14, ty + 6, 'rig', { armature: params.get('armature'), skin: params.get('skin'), animation: null });
    const shadow = params.get('shadow') === 'before' ? twin() : null;
    const hero = this.add.sinew(tx, ty, 'rig', { armature: params.get('armature'), skin: params.get('skin'), animation: null });
    hero.setScale(s).setActive(false); // no updates from the game loop: the frame is stepped here
    const info = arm.animations.find((a) => a.name === animation);
    stepTo(hero.instance, animation, Number(params.get('frame')), arm.frameRate, passFrames(info, arm.frameRate).playTimes);
    this.vary(hero, tx, ty);
    window.sinewHero = hero;
    // a black twin, a little offset: added before the hero, or after it with depth -1 (both under
    // it), or after it (over it)
    if (params.has('shadow')) {
      const t = shadow || twin();
      if (params.get('shadow') === 'depth') t.setDepth(-1);
      t.setScale(s).setActive(false).setTint(0x000000);
      stepTo(t.instance, animation, Number(params.get('frame')), arm.frameRate, passFrames(info, arm.frameRate).playTimes);
    }
    // ready once the plugin has drawn (Phaser 4 may compile the shader over a few frames)
    let frames = 0, done = false;
    this.game.events.on('postrender', () => {
      frames++;
      if (!done && frames >= 3 && (this.sinew.drawCalls > 0 || frames > 120)) {
        done = true;
        Object.assign(document.body.dataset, { draws: String(stats.draws), units: String(this.sinew.textureUnits) });
        ready();
      }
    });
  }

  // the same frame through the game object's other properties (see the top of the file)
  vary(hero, tx, ty) {
    if (params.get('origin')) {
      const o = Number(params.get('origin'));
      hero.updateSize();  // the box of this frame's pose, the armature's (0, 0) at (tx, ty)
      const dx = o * hero.width - hero.displayOriginX, dy = o * hero.height - hero.displayOriginY;
      hero.setOrigin(o).setPosition(tx + dx * hero.scaleX, ty + dy * hero.scaleY);
    }
    if (params.get('scroll')) {
      this.cameras.main.setScroll(37, -23);
      hero.setScrollFactor(0);
    }
    if (params.get('container')) {
      hero.setPosition(0, 0);
      this.add.container(tx, ty, [hero]);
    }
    if (params.has('alpha')) hero.setAlpha(Number(params.get('alpha')));
    if (params.has('tint')) hero.setTint(parseInt(params.get('tint'), 16));
    if (params.get('blend') === 'add') hero.setBlendMode(Phaser.BlendModes.ADD);
    if (params.get('visible') === '0') hero.setVisible(false);
    if (params.get('slotTexture')) { // a magenta texture of the game's in a slot
      const t = this.textures.createCanvas('magenta', 32, 32);
      t.context.fillStyle = '#ff00ff';
      t.context.fillRect(0, 0, 32, 32);
      t.refresh();
      hero.setSlotTexture(params.get('slotTexture'), 'magenta');
    }
  }

  crowd() {
    const { data } = this.sinew.get('rig');
    const arm = data.armatures[data.defaultArmature];
    const names = arm.animations.map((a) => a.name);
    const n = Number(params.get('n') || this.options.crowd);
    const [w, h] = [this.scale.width, this.scale.height];
    const cols = Math.max(1, Math.round(Math.sqrt(n * w / h))), rows = Math.ceil(n / cols);
    const log = document.getElementById('events');
    const probe = this.add.sinew(0, 0, 'rig');
    const scale = Math.min(1, (w / cols) / Math.max(1, probe.width), (h / rows) / Math.max(1, probe.height)) * 0.9;
    probe.destroy();
    for (let i = 0; i < n; i++) {
      const x = (i % cols + 0.5) * (w / cols), y = (Math.floor(i / cols) + 0.5) * (h / rows);
      let current = names[i % names.length];
      const hero = this.add.sinew(x, y, 'rig', { animation: current }).setOrigin(0.5).setScale(scale);
      hero.setDepth(y).setTimeScale(0.8 + 0.4 * ((i * 7919) % 100) / 100);
      hero.gotoAndPlay(current, { progress: ((i * 37) % 100) / 100 });
      if (i % 11 === 5) hero.setTint(0x88ccff);
      if (params.get('blend') === 'alternate' && i % 2) hero.setBlendMode(Phaser.BlendModes.ADD);
      hero.setInteractive({ useHandCursor: true }).on('pointerdown', () => {
        current = names[(names.indexOf(current) + 1) % names.length];
        hero.fadeIn(current, { fadeInTime: 0.3 });
      });
      if (i < 3) {
        for (const type of ['frameEvent', 'complete', 'fadeInComplete']) {
          hero.on(type, (e) => {
            const li = document.createElement('li');
            li.textContent = `#${i} ${e.type} ${e.name || e.animation}`;
            log.prepend(li);
            while (log.children.length > 8) log.lastChild.remove();
          });
        }
      }
    }
    stats.armatures = n;
  }
}

// the page: a hint, the game, a line of figures, the events of the first armatures
function page(label) {
  const style = document.createElement('style');
  style.textContent = `body { margin: 0; background: #16181d; color: #ddd; font: 14px system-ui, sans-serif; }
    p { margin: 8px 12px; } canvas { display: block; } .error { color: #ffb4b4; margin: 8px 12px; }
    #events { margin: 4px 12px; padding-left: 20px; font-size: 12px; color: #aab; }`;
  document.head.appendChild(style);
  const hint = document.createElement('p');
  hint.id = 'hint';
  hint.innerHTML = `${label} with sinew/phaser: click a character to cross-fade it to its next animation (0.3 s); `
    + 'its events are listed below. <code>?n=N</code> sets the crowd.';
  const game = document.createElement('div');
  game.id = 'game';
  const stats = document.createElement('p');
  stats.id = 'stats';
  const events = document.createElement('ol');
  events.id = 'events';
  document.body.append(hint, game, stats, events);
}

export function start({ crowd = 40, label = '' } = {}) {
  page(label);
  const [w, h] = size || [960, 600];
  const game = new Phaser.Game({
    type: params.get('canvas') ? Phaser.CANVAS : Phaser.WEBGL,
    parent: 'game', width: w, height: h, backgroundColor: background ? `#${background}` : '#16181d',
    scale: { mode: Phaser.Scale.NONE }, banner: false, render: { preserveDrawingBuffer: true },
    scene: [new Crowd({ crowd })],
    plugins: { scene: [{ key: 'SinewPlugin', plugin: SinewPlugin, mapping: 'sinew' }] },
  });
  let t0 = 0, t1 = 0;
  game.events.on('prestep', () => { t0 = performance.now(); draws = 0; });
  game.events.on('poststep', () => { t1 = performance.now(); });
  game.events.on('postrender', () => {
    stats.stepMs = performance.now() - t0;
    stats.draws = draws;
    stats.frames++;
    if (stats.samples.length < 10000) stats.samples.push([stats.stepMs, draws, t1 - t0]);
    if (!still && stats.frames === 30) {
      let triangles = 0;
      for (const obj of game.scene.scenes[0].children.list) if (obj.instance) triangles += obj.instance.drawList().indexCount / 3;
      Object.assign(document.body.dataset, { draws: String(draws), triangles: String(triangles) });
      ready();
    }
  });
  const line = document.getElementById('stats');
  if (line && !still) {
    setInterval(() => {
      line.textContent = `${label}: ${stats.armatures} armatures, ${game.loop.actualFps.toFixed(0)} fps, `
        + `${stats.draws} draw calls a frame, update + render ${stats.stepMs.toFixed(1)} ms`;
    }, 500);
  }
  if (still) document.getElementById('hint')?.remove();
  window.sinewGame = game;
  return game;
}
