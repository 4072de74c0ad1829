// TypeScript declarations of sinew/webgl (web/src/webgl.mjs): a WebGL 2 renderer of draw lists.
import type { DrawList } from './sinew.mjs';

export declare class WebGLRenderer {
  constructor(target: HTMLCanvasElement | OffscreenCanvas | WebGL2RenderingContext, options?: { antialias?: boolean });
  readonly gl: WebGL2RenderingContext;
  /** draw calls of the last draw() */
  readonly drawCalls: number;
  /** blend modes drawn as normal */
  readonly unsupported: Set<string>;
  /** an atlas page: a premultiplied ImageBitmap (framing.decodeImage(..., { premultiply: true })), an image or a canvas */
  setPage(index: number, image: TexImageSource | null): void;
  clear(color?: [number, number, number, number]): void;
  draw(list: DrawList, view?: [number, number, number, number, number, number]): void;
  readPixels(): { width: number; height: number; data: Uint8ClampedArray };
  dispose(): void;
}
