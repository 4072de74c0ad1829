// Frames and framing as `sinew render` has them (docs/render-cli.md), for the player and the
// examples: the same frame count, the same pose at frame K, the same view for --size WxH.

const f32 = Math.fround;

/**
 * The frames of one pass of an animation at `fps` (default the armature's), as `sinew render`
 * counts them: round(duration * fps) for a looping animation (its end pose is its first), one more
 * for a finite one; and the playTimes it is played with (0 = forever).
 */
export function passFrames(animation, fps) {
  const looping = animation.playTimes === 0;
  let n = Math.round(animation.duration * fps);
  if (looping && n > 0) return { frames: n, playTimes: 0 };
  return { frames: n + 1, playTimes: 1 };
}

/** Plays `animation` from its start as `sinew render` does and steps it to frame k. */
export function stepTo(instance, animation, k, fps, playTimes) {
  instance.play(animation, { playTimes });
  instance.update(0);
  for (let i = 0; i < k; i++) instance.update(1 / fps);
}

/** The armature-space bounds of a draw list's indexed vertices (sinew_drawlist_bounds), or null. */
export function drawListBounds(list, into = null) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const L = list.constructor.layout, w = list.commandWords, pos = list.positions, idx = list.indices;
  for (let c = 0; c < list.commandCount; c++) {
    const b = c * list.commandStride, first = w[b + L.firstIndex], n = w[b + L.indexCount];
    if (w[b + L.flags] & 1) continue; // a 6.0 mask is not drawn
    for (let k = first; k < first + n; k++) {
      const v = idx[k];
      if (v >= list.vertexCount) continue;
      const x = pos[2 * v], y = pos[2 * v + 1];
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      if (x < x0) x0 = x; if (y < y0) y0 = y; if (x > x1) x1 = x; if (y > y1) y1 = y;
    }
  }
  if (!(x0 <= x1) || !(y0 <= y1)) return into;
  if (!into) return { x0, y0, x1, y1 };
  return { x0: Math.min(into.x0, x0), y0: Math.min(into.y0, y0), x1: Math.max(into.x1, x1), y1: Math.max(into.y1, y1) };
}

/** The union of the bounds of every frame of one pass (what `sinew render` frames). */
export function passBounds(data, { armature, skin, atlas, animation, fps }) {
  const inst = data.createInstance({ armature, skin, atlas });
  try {
    const info = inst.armature.animations.find((a) => a.name === animation);
    const rate = fps || inst.armature.frameRate;
    const { frames, playTimes } = passFrames(info, rate);
    inst.play(animation, { playTimes });
    inst.update(0);
    let bounds = null;
    for (let k = 0; k < frames; k++) {
      if (k) inst.update(1 / rate);
      bounds = drawListBounds(inst.drawList(), bounds);
    }
    return bounds;
  } finally { inst.dispose(); }
}

/**
 * The view of `sinew render --size WxH --scale S` without --origin: the bounds centred in the
 * frame (float arithmetic as the C code does it). Returns [a, b, c, d, tx, ty].
 */
export function centredView(bounds, width, height, scale = 1) {
  const s = f32(scale);
  if (!bounds) return [s, 0, 0, s, f32(width * 0.5), f32(height * 0.5)];
  const cx = f32(f32(f32(bounds.x0 + bounds.x1) * 0.5) * s), cy = f32(f32(f32(bounds.y0 + bounds.y1) * 0.5) * s);
  return [s, 0, 0, s, f32(f32(width * 0.5) - cx), f32(f32(height * 0.5) - cy)];
}

/**
 * The largest scale at which the bounds fit in the frame with `padding` pixels around them, as
 * `sinew render --size WxH` (without --scale, --crop or --origin) computes it: float arithmetic,
 * the padding dropped on a side it would leave no room on, at most 100.
 */
export function fitScale(bounds, width, height, padding = 4) {
  if (!bounds) return 1;
  const bw = f32(bounds.x1 - bounds.x0), bh = f32(bounds.y1 - bounds.y0);
  if (!(bw > 0) || !(bh > 0)) return 1;
  let aw = f32(width - f32(2 * padding)), ah = f32(height - f32(2 * padding));
  if (aw < 1) aw = width;
  if (ah < 1) ah = height;
  return Math.min(Math.min(f32(aw / bw), f32(ah / bh)), 100);
}

/** An RRGGBB (or #RRGGBB, #RGB, RRGGBBAA) colour as straight [r, g, b, a] in 0..1, or null. */
export function parseColor(text) {
  if (!text) return null;
  let s = String(text).trim().replace(/^#/, '');
  if (/^[0-9a-f]{3}$/i.test(s)) s = s.split('').map((c) => c + c).join('');
  if (!/^([0-9a-f]{6}|[0-9a-f]{8})$/i.test(s)) return null;
  const v = (i) => parseInt(s.slice(i, i + 2), 16) / 255;
  return [v(0), v(2), v(4), s.length === 8 ? v(6) : 1];
}

/** Decodes an image (Blob, File or bytes) for a renderer: straight alpha, no colour conversion. */
export async function decodeImage(source, { premultiply = false } = {}) {
  const blob = source instanceof Blob ? source : new Blob([source], { type: 'image/png' });
  return createImageBitmap(blob, { premultiplyAlpha: premultiply ? 'premultiply' : 'none', colorSpaceConversion: 'none' });
}
