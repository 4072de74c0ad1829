// TypeScript declarations of sinew's JavaScript API (web/src/sinew.mjs; docs/web.md).

export declare const BLEND_MODES: readonly string[];
export declare const EVENT_TYPES: readonly EventType[];

export type StatusCode = 'OK' | 'ARG' | 'IO' | 'PARSE' | 'TYPE' | 'MISSING' | 'REFERENCE' | 'RANGE' | 'DUPLICATE' | 'LAYOUT'
  | 'VERSION' | 'UNSUPPORTED' | 'LIMIT' | 'NOMEM' | 'NOT_FOUND' | 'RENDER' | 'EXTERNAL';

/** An error from sinew, with where it happened. `String(err)` reads `file:line:col: error: message [path]`. */
export declare class SinewError extends Error {
  readonly code: StatusCode | string;
  /** the C status number */
  readonly status: number;
  readonly file: string;
  /** 1-based; 0 when unknown */
  readonly line: number;
  readonly column: number;
  /** byte offset into a binary input, when known */
  readonly offset: number;
  /** JSON path (`armature[0].bone[3].parent`) or byte description; '' when none */
  readonly path: string;
  /** the message alone */
  readonly detail: string;
}

export type Bytes = string | ArrayBuffer | ArrayBufferView;

/** Loads sinew.wasm (default: beside the module) and returns the runtime. */
export declare function init(source?: string | URL | Response | ArrayBuffer | ArrayBufferView | WebAssembly.Module
  | { wasm: string | URL | Response | ArrayBuffer | ArrayBufferView | WebAssembly.Module }): Promise<Sinew>;

export interface RigPage {
  index: number;
  path: string;
  name: string;
  width: number;
  height: number;
  /** the matching input (a File in browsers), null when the image is missing */
  file: Blob | { name: string; data: Bytes } | null;
  bytes: Uint8Array | null;
}
export interface Rig {
  data: SkeletonData;
  atlas: TextureAtlas | null;
  skeleton: string;
  atlasFile: string | null;
  pages: RigPage[];
  /** the atlas JSON says its page images are premultiplied ("premultipliedAlpha" or "pma": true) */
  premultipliedAlpha: boolean;
}
export interface FileInput { name: string; data: Bytes }

export declare class Sinew {
  readonly version: string;
  readonly memory: WebAssembly.Memory;
  /** warnings of the last load, `file:line:col: warning: message` */
  warnings: string[];
  loadSkeleton(input: Bytes, options?: { name?: string }): SkeletonData;
  loadAtlas(input: Bytes, options?: { name?: string; dir?: string }): TextureAtlas;
  mount(files: Record<string, Bytes> | Map<string, Bytes>, dir?: string): string;
  unmount(dir: string): void;
  setFileReader(reader: ((path: string) => Bytes | null) | null): void;
  loadSkeletonFile(path: string): SkeletonData;
  loadAtlasFile(path: string): TextureAtlas;
  findAtlas(skeletonPath: string): string | null;
  atlasFromImages(data: SkeletonData, dir: string): TextureAtlas;
  loadFiles(files: Iterable<Blob & { name: string }> | Iterable<FileInput>): Promise<Rig>;
  loadURL(skeleton: string | URL, options?: { atlas?: string | URL; fetch?: typeof fetch }): Promise<Rig>;
  loadScript(input: Bytes, data: SkeletonData | null, options?: { name?: string }): Script;
  /** advances every instance by dt seconds in one call into WebAssembly, then delivers events */
  update(instances: readonly Instance[], dt: number): void;
  /** the same, building each instance's draw list; returns the vertices drawn in all */
  updateWithDrawLists(instances: readonly Instance[], dt: number): number;
}

export interface BoneInfo { name: string; parent: number; length: number }
export interface AnimationInfo { name: string; frames: number; duration: number; playTimes: number; fadeInTime: number }
export interface ArmatureInfo {
  name: string;
  type: string;
  frameRate: number;
  defaultAnimation: number | null;
  bones: BoneInfo[];
  slots: string[];
  skins: string[];
  animations: AnimationInfo[];
  userData: string | null;
  canvas: { x: number; y: number; width: number; height: number; color?: number } | null;
}

export interface InstanceOptions {
  armature?: string | null;
  skin?: string | null;
  atlas?: TextureAtlas | null;
  maxStates?: number;
  defaultActions?: boolean;
  frameCache?: FrameCache | null;
  /** DragonBones 6.0 physics' random source: null (the constant 0.5), a number in [0, 1), 'seed:N'
   *  (mulberry32, tools/oracle6's --random seed:N) or a function called once per awake physics
   *  constraint per update (values outside [0, 1) are clamped, NaN is 0) */
  random?: number | string | (() => number) | null;
  /** off the clock (an official armature no WorldClock advances): 6.0 physics never runs */
  noClock?: boolean;
}

export declare class SkeletonData {
  readonly name: string;
  readonly format: 'dragonbones' | 'xml';
  readonly version: string;
  readonly compatibleVersion: string | null;
  readonly frameRate: number;
  readonly dataName: string;
  readonly armatures: ArmatureInfo[];
  /** Index of the main armature (the one the file names, else the most bones, not a child). */
  readonly defaultArmature: number;
  readonly armatureNames: string[];
  armature(name?: string | null): ArmatureInfo | undefined;
  animationNames(armature?: string | null): string[];
  skinNames(armature?: string | null): string[];
  resolveSkin(armature?: string | null, skin?: string | null): { armature: number; overlay: string | null };
  checkAtlas(atlas: TextureAtlas): string[];
  createInstance(options?: InstanceOptions): Instance;
  createFrameCache(fps: number): FrameCache;
  /** Frees the data, or, while instances or frame caches made from it are live, lets them keep it
   *  until the last of them is freed; nothing new can be made from it afterwards. */
  dispose(): void;
}

export declare class FrameCache {
  readonly data: SkeletonData;
  /** Frees the cache, or lets the instances using it keep it until the last of them is freed. */
  dispose(): void;
}

export interface AtlasPage { name: string; imagePath: string; resolvedPath: string; width: number; height: number; scale: number }
export declare class TextureAtlas {
  readonly name: string;
  readonly pages: AtlasPage[];
  readonly regionCount: number;
  /** Frees the atlas, or lets the instances drawing with it keep it until the last of them is freed. */
  dispose(): void;
}

export interface Scenario { index: number; name: string; armature: string | null; fps: number; frames: number; commands: { index: number; t: number }[] }
export declare class Script {
  readonly name: string;
  readonly scenarios: Scenario[];
  issue(instance: Instance, scenario: number, command: number): void;
  dispose(): void;
}

/** Word offsets of a command's fields in DrawList.commandWords / commandFloats. */
export interface DrawCommandLayout {
  page: number; blend: number; color: number; region: number; firstVertex: number; vertexCount: number;
  firstIndex: number; indexCount: number; slot: number; depth: number; armature: number;
  /** 6.0: 1 + the index of the mask command clipping it (0 none); DRAW_* flags; the shape's path */
  mask: number; flags: number; part: number;
}
/** DrawCommand flags (6.0): a mask (not drawn: it clips the commands naming it), a vector shape's
 *  fill, its stroke. */
export declare const DRAW_MASK: 1, DRAW_FILL: 2, DRAW_STROKE: 4;
export interface Color { aM: number; rM: number; gM: number; bM: number; aO: number; rO: number; gO: number; bO: number }
export interface DrawCommand {
  /** -1: untextured */
  page: number;
  blend: string;
  color: Color;
  region: [number, number, number, number];
  firstVertex: number; vertexCount: number; firstIndex: number; indexCount: number;
  slot: number; depth: number; armature: number;
  /** 6.0: the index of the mask command clipping it, -1 none */
  mask: number;
  /** DRAW_MASK | DRAW_FILL | DRAW_STROKE (0 for a 4.0-5.6 armature's commands) */
  flags: number;
  /** a vector shape's fill or stroke: its path in the shape */
  part: number;
}

/**
 * The frame as textured triangles, back to front. The arrays are views into wasm memory: read them
 * before the instance's next update() (its own or a sinew.update / updateWithDrawLists of a list
 * holding it), drawList(), bounds() or hitTest(), its dispose(), or any call that may grow the
 * memory (loading, creating instances, another instance's first drawList()). `stale` says when
 * they may no longer be read.
 */
export declare class DrawList {
  static layout: DrawCommandLayout;
  readonly vertexCount: number;
  readonly indexCount: number;
  readonly commandCount: number;
  readonly positions: Float32Array;
  readonly uvs: Float32Array;
  readonly indices: Uint32Array;
  readonly commandWords: Uint32Array;
  readonly commandFloats: Float32Array;
  readonly commandStride: number;
  readonly stale: boolean;
  command(i: number): DrawCommand;
}

export type EventType = 'start' | 'loopComplete' | 'complete' | 'fadeIn' | 'fadeInComplete' | 'fadeOut' | 'fadeOutComplete'
  | 'frameEvent' | 'soundEvent';
export interface SinewEvent {
  type: EventType;
  name: string;
  armature: string;
  animation: string;
  bone: string | null;
  slot: string | null;
  armatureIndex: number;
  time: number;
  instance: Instance;
}
export interface StateInfo {
  name: string; group: string; layer: number; playTimes: number; currentPlayTimes: number; currentTime: number;
  duration: number; weight: number; fadeProgress: number; timeScale: number;
  playing: boolean; completed: boolean; fadingIn: boolean; fadingOut: boolean;
}
export type Matrix = [number, number, number, number, number, number];
export interface SlotState {
  name: string; index: number; parent: number; displayIndex: number; displayName: string | null; displayPath: string | null;
  displayType: 'image' | 'armature' | 'mesh' | 'boundingBox' | 'path' | 'shape' | null; visible: boolean; drawIndex: number;
  color: Color; blend: string; blendMode: number; matrix: Matrix; childArmature: number; pivot: [number, number] | null;
  mesh: { weighted: boolean; vertices: number[] } | null;
  /** 6.0: a vector shape's control points (3 per Bezier point), a path's points (3 per anchor), armature space */
  shape: { weighted: boolean; vertices: number[] } | null;
  path: { weighted: boolean; vertices: number[] } | null;
  /** 6.0: the maskRange of a mask slot (else null), and the slot index masking this one (-1 none) */
  mask: number | null;
  maskedBy: number;
}
export interface ConstraintState {
  type: 'ik' | 'path' | 'transform' | 'physics'; name: string; bone: number; target: number;
  weight: number; bendPositive: boolean; position: number; spacing: number; rotateWeight: number; xWeight: number; yWeight: number;
  sleeping: boolean; reset: boolean; remaining: number; lastTime: number; xOffset: number; xVelocity: number; yOffset: number;
  yVelocity: number; rotateOffset: number; rotateVelocity: number; scaleOffset: number; scaleVelocity: number;
}
export type FadeOutMode = 'none' | 'sameLayer' | 'sameGroup' | 'sameLayerAndGroup' | 'all' | 'single';
export interface FadeInOptions {
  fadeInTime?: number; playTimes?: number; layer?: number; group?: string | null; fadeOutMode?: FadeOutMode | number;
  weight?: number; timeScale?: number; pauseFadeIn?: boolean; armature?: number;
}
export type GotoPosition = number | { time: number } | { frame: number } | { progress: number };

export declare class Instance {
  readonly data: SkeletonData;
  readonly atlas: TextureAtlas | null;
  readonly armature: ArmatureInfo;
  frameCache: FrameCache | null;
  update(dt: number): void;
  play(animation?: string | null, options?: { playTimes?: number; armature?: number }): void;
  fadeIn(animation: string, options?: FadeInOptions): void;
  gotoAndPlay(animation: string, at?: GotoPosition, options?: { playTimes?: number; armature?: number }): void;
  gotoAndStop(animation: string, at?: GotoPosition, options?: { armature?: number }): void;
  stop(animation?: string | null, options?: { armature?: number }): void;
  timeScale: number;
  setTimeScale(scale: number, options?: { armature?: number }): void;
  setSkin(skin: string | null): void;
  setSlotSkin(slot: string, skin: string, options?: { armature?: number }): void;
  states(options?: { armature?: number }): StateInfo[];
  setStateWeight(animation: string, weight: number, options?: { armature?: number }): boolean;
  setStateTimeScale(animation: string, scale: number, options?: { armature?: number }): boolean;
  on(type: EventType | '*', listener: (event: SinewEvent) => void): this;
  off(type: EventType | '*', listener: (event: SinewEvent) => void): this;
  readonly armatureCount: number;
  armatureName(index?: number): string | null;
  armaturePlacement(index: number): { shown: boolean; matrix: Matrix };
  bones(options?: { armature?: number }): { name: string; parent: number; matrix: Matrix }[];
  slots(options?: { armature?: number }): SlotState[];
  constraints(options?: { armature?: number }): ConstraintState[];
  drawList(): DrawList;
  bounds(): { x0: number; y0: number; x1: number; y1: number } | null;
  hitTest(x: number, y: number): { armature: number; slot: number; name: string | null } | null;
  boundingBox(slot: number, options?: { armature?: number }): number[];
  containsPoint(slot: number, x: number, y: number, options?: { armature?: number }): boolean;
  intersectsSegment(xa: number, ya: number, xb: number, yb: number, options?: { armature?: number }):
    { slotA: number; slotB: number; a: [number, number]; b: [number, number]; normalA: number; normalB: number } | null;
  setBoneOffset(bone: string, offset: { x?: number; y?: number; rotation?: number; skew?: number; scaleX?: number; scaleY?: number } | null,
    options?: { armature?: number }): void;
  boneFollow(bone: string, x: number, y: number, options?: { armature?: number }): void;
  replaceDisplay(slot: string, display: string | null, options?: { sourceSlot?: string | null; sourceArmature?: string | null;
    index?: number; armature?: number }): void;
  replaceDisplayRegion(slot: string, region: { page: number; pageWidth: number; pageHeight: number; x?: number; y?: number;
    width?: number; height?: number; pivotX?: number; pivotY?: number; index?: number }, options?: { armature?: number }): void;
  readonly memoryBytes: number;
  /** Frees the instance, and a disposed data, atlas or frame cache it was the last to use. */
  dispose(): void;
}
