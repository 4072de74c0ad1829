// TypeScript declarations of sinew/phaser (web/src/phaser.mjs; docs/web.md), for Phaser 4 and
// Phaser 3.60+ (both ship types/phaser.d.ts with a global `Phaser` namespace).
import * as Phaser from 'phaser';
import type { FadeInOptions, GotoPosition, Instance, Sinew, SinewEvent, SkeletonData, StateInfo, TextureAtlas, EventType } from './sinew.mjs';

/** A loaded rig, as this.sinew.get(key) gives it. */
export interface SinewRig {
  data: SkeletonData;
  atlas: TextureAtlas | null;
  /** the Phaser texture keys of the atlas pages, by page index (null: the image is missing) */
  textures: (string | null)[];
  /** warnings of the load, `file:line:col: warning: message` */
  warnings: string[];
  /** the skeleton's file name */
  skeleton: string;
}

/** What this.add.sinew takes after the key. */
export interface SinewObjectOptions {
  /** the armature's name (default: the main one) */
  armature?: string | null;
  /** a skin overlaid on the default skin (an XML rig: its armature NAME@SKIN) */
  skin?: string | null;
  /** the animation to play (default: the armature's default animation; null: none) */
  animation?: string | null;
  playTimes?: number;
}

/** What this.make.sinew takes (Phaser's game object config, and the rig). */
export interface SinewObjectConfig extends Phaser.Types.GameObjects.GameObjectConfig, SinewObjectOptions {
  key: string;
}

/** The DragonBones blend modes drawn as normal: no blend unit can do them. */
export declare const UNSUPPORTED_BLEND_MODES: readonly string[];

/** The sinew runtime the plugin loads (init() of sinew.mjs, SinewPlugin.wasm as its source); shared by every game. */
export declare function sinewRuntime(): Promise<Sinew>;

/**
 * A sinew armature as a Phaser game object. Its size is the bounds of its first pose; its origin
 * puts the armature's (0, 0) at (x, y) until you set another. The animation's events are emitted
 * on it as Phaser events ('frameEvent', 'complete', ...; the listener gets the sinew event and the
 * object).
 */
export declare class SinewGameObject extends Phaser.GameObjects.GameObject {
  constructor(scene: Phaser.Scene, x: number, y: number, key: string, options?: SinewObjectOptions, plugin?: SinewPlugin | null);
  /** the sinew Instance (every method of the JS API) */
  instance: Instance;
  /** the rig key */
  readonly key: string;
  readonly rig: SinewRig;
  /** multiplies the armature's colours (0xRRGGBB) */
  tint: number;
  readonly isTinted: boolean;
  setTint(color?: number): this;
  clearTint(): this;
  /** the size from the current pose's bounds; the origin back at the armature's (0, 0) unless keepOrigin */
  updateSize(options?: { keepOrigin?: boolean }): this;
  worldToArmature(x: number, y: number): { x: number; y: number };
  armatureToWorld(x: number, y: number): { x: number; y: number };

  play(animation?: string | null, options?: { playTimes?: number; armature?: number }): this;
  fadeIn(animation: string, options?: FadeInOptions): this;
  gotoAndPlay(animation: string, at?: GotoPosition, options?: { playTimes?: number; armature?: number }): this;
  gotoAndStop(animation: string, at?: GotoPosition, options?: { armature?: number }): this;
  stop(animation?: string | null, options?: { armature?: number }): this;
  timeScale: number;
  setTimeScale(scale: number): this;
  setSkin(skin: string | null): this;
  setSlotSkin(slot: string, skin: string, options?: { armature?: number }): this;
  states(options?: { armature?: number }): StateInfo[];
  readonly animationNames: string[];

  setBoneOffset(bone: string, offset: { x?: number; y?: number; rotation?: number; skew?: number; scaleX?: number; scaleY?: number } | null,
    options?: { armature?: number }): this;
  /** moves a bone so that its origin lands on the world point (x, y) */
  boneFollow(bone: string, x: number, y: number, options?: { armature?: number }): this;
  replaceDisplay(slot: string, display: string | null, options?: { sourceSlot?: string | null; sourceArmature?: string | null; index?: number; armature?: number }): this;
  /** shows a Phaser texture (or one frame of it) in a slot; null as the key undoes it */
  setSlotTexture(slot: string, key: string | null, frame?: string | number,
    options?: { pivotX?: number; pivotY?: number; index?: number; armature?: number }): this;
  /** the topmost drawn slot at the world point (x, y) */
  hitTest(x: number, y: number): { armature: number; slot: number; name: string | null } | null;

  on(event: EventType, fn: (event: SinewEvent, object: SinewGameObject) => void, context?: unknown): this;
  on(event: string | symbol, fn: (...args: any[]) => void, context?: unknown): this;
  once(event: EventType, fn: (event: SinewEvent, object: SinewGameObject) => void, context?: unknown): this;
  once(event: string | symbol, fn: (...args: any[]) => void, context?: unknown): this;
}
export interface SinewGameObject extends Phaser.GameObjects.Components.AlphaSingle, Phaser.GameObjects.Components.BlendMode,
  Phaser.GameObjects.Components.ComputedSize, Phaser.GameObjects.Components.Depth, Phaser.GameObjects.Components.GetBounds,
  Phaser.GameObjects.Components.Origin, Phaser.GameObjects.Components.ScrollFactor, Phaser.GameObjects.Components.Transform,
  Phaser.GameObjects.Components.Visible {}

/**
 * The scene plugin: `plugins: { scene: [{ key: 'SinewPlugin', plugin: SinewPlugin, mapping: 'sinew' }] }`.
 */
export declare class SinewPlugin extends Phaser.Plugins.ScenePlugin {
  constructor(scene: Phaser.Scene, pluginManager: Phaser.Plugins.PluginManager, pluginKey: string);
  /** where sinew.wasm is (default: beside the module); set before the first game */
  static wasm: string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module | undefined;
  /** the runtime once loaded */
  static runtime: Sinew | null;
  /** the Phaser major version the module runs with */
  static readonly phaserVersion: number;
  readonly runtime: Sinew | null;
  /** a loaded rig (throws its load error, a SinewError) */
  get(key: string): SinewRig;
  /** draw calls of the plugin's batches since the game started */
  readonly drawCalls: number;
  /** the texture units one draw call samples (atlas pages of any rig, 16 at most) */
  readonly textureUnits: number;
}
export default SinewPlugin;

declare global {
  namespace Phaser.Loader {
    interface LoaderPlugin {
      /**
       * A DragonBones skeleton (JSON or DBBin) with its atlas and page images (atlas: default the
       * X_tex.json beside an X_ske.json), or an XML rig with the images it names.
       */
      sinew(key: string, skeletonURL: string, atlasURL?: string, xhrSettings?: Phaser.Types.Loader.XHRSettingsObject): this;
      sinew(config: { key: string; skeleton: string; atlas?: string; xhrSettings?: Phaser.Types.Loader.XHRSettingsObject }
        | { key: string; skeleton: string; atlas?: string }[]): this;
    }
  }
  namespace Phaser.GameObjects {
    interface GameObjectFactory {
      sinew(x: number, y: number, key: string, options?: SinewObjectOptions): SinewGameObject;
    }
    interface GameObjectCreator {
      sinew(config: SinewObjectConfig, addToScene?: boolean): SinewGameObject;
    }
  }
  namespace Phaser {
    interface Scene {
      /** the plugin, with the mapping 'sinew' */
      sinew: SinewPlugin;
    }
  }
}
