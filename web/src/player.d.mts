// TypeScript declarations of sinew/player (web/src/player.mjs): the <sinew-player> element.
import type { Instance, Rig, Sinew } from './sinew.mjs';
import type { WebGLRenderer } from './webgl.mjs';

export declare function sinewRuntime(): Promise<Sinew>;
export declare class SinewPlayer extends HTMLElement {
  readonly sinew: Sinew | undefined;
  readonly rig: Rig | null;
  readonly instance: Instance | null;
  readonly ready: Promise<void>;
  /** the WebGL renderer every player on the page shares (null until the player has started) */
  readonly renderer: WebGLRenderer | null;
  playing: boolean;
  frame: number;
  frames: number;
  speed: number;
  view: [number, number, number, number, number, number];
  error: unknown;
  loadFiles(files: Iterable<File>): Promise<void>;
  setAnimation(name: string, options?: { frame?: number | null }): void;
  seek(frame: number): void;
  play(): void;
  pause(): void;
  fadeTo(animation: string, seconds?: number): void;
  /** pixels the view is moved by */
  pan: [number, number];
  /** whether the page images are taken as premultiplied */
  readonly premultipliedAlpha: boolean;
  setPremultiplied(on: boolean): Promise<void>;
  /** every frame of the current animation as `sinew render --frame K` draws it, straight RGBA */
  renderFrames(): Promise<{ width: number; height: number; data: Uint8ClampedArray }[]>;
  export(kind: 'zip' | 'gif' | 'webm'): Promise<{ kind: string; name: string; blob: Blob }>;
  /** a link that opens this rig, armature, animation, skin, speed and view; null for a rig from files */
  shareURL(): string | null;
}
declare global {
  interface HTMLElementTagNameMap { 'sinew-player': SinewPlayer }
}
