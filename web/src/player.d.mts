// TypeScript declarations of sinew/player (web/src/player.mjs): the <sinew-player> element.
import type { Instance, Rig, Sinew } from './sinew.mjs';

export declare function sinewRuntime(): Promise<Sinew>;
export declare class SinewPlayer extends HTMLElement {
  readonly sinew: Sinew | undefined;
  readonly rig: Rig | null;
  readonly instance: Instance | null;
  readonly ready: Promise<void>;
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
}
declare global {
  interface HTMLElementTagNameMap { 'sinew-player': SinewPlayer }
}
