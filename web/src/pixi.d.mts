// TypeScript declarations of sinew/pixi (web/src/pixi.mjs; docs/web.md).
import type { Container, Texture } from 'pixi.js';
import type { Instance, Rig } from './sinew.mjs';

/** A PixiJS v8 container that draws a sinew Instance (WebGL renderer). */
export declare class SinewArmature extends Container {
  constructor(instance: Instance, options?: { textures?: (Texture | null)[]; autoUpdate?: boolean });
  instance: Instance;
  /** the atlas page textures, by page index */
  textures: (Texture | null)[];
  /** DragonBones blend modes met that Pixi cannot draw (drawn as normal) */
  readonly unsupportedBlendModes: Set<string>;
  /** 6.0: runs clipped by a chain of masks with more than one image mask or shape mask (the nearest
   *  of each is drawn) */
  readonly unsupportedMasks: number;
  /** update from Pixi's shared ticker */
  autoUpdate: boolean;
  /** advance the instance by dt seconds and redraw */
  update(dt: number): void;
  /** redraw from the instance's current pose (after sinew.update(list, dt)) */
  refresh(): void;
}

/** The Pixi textures of a rig's atlas pages, by page index (null where an image is missing). */
export declare function pageTextures(rig: Rig): Promise<(Texture | null)[]>;
