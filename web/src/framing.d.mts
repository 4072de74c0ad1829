// TypeScript declarations of sinew/framing (web/src/framing.mjs): frames and framing as `sinew render` has them.
import type { AnimationInfo, DrawList, Instance, SkeletonData, TextureAtlas } from './sinew.mjs';

export interface Bounds { x0: number; y0: number; x1: number; y1: number }
export declare function passFrames(animation: AnimationInfo, fps: number): { frames: number; playTimes: number };
export declare function stepTo(instance: Instance, animation: string, k: number, fps: number, playTimes: number): void;
export declare function drawListBounds(list: DrawList, into?: Bounds | null): Bounds | null;
export declare function passBounds(data: SkeletonData, options: { armature: string; skin?: string | null; atlas?: TextureAtlas | null;
  animation: string; fps?: number }): Bounds | null;
export declare function centredView(bounds: Bounds | null, width: number, height: number, scale?: number):
  [number, number, number, number, number, number];
export declare function fitScale(bounds: Bounds | null, width: number, height: number, padding?: number): number;
export declare function parseColor(text: string | null | undefined): [number, number, number, number] | null;
export declare function decodeImage(source: Blob | BufferSource, options?: { premultiply?: boolean }): Promise<ImageBitmap>;
