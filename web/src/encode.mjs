// Files the player exports, written in the page with no outside code (docs/web.md): PNG (zlib by
// the browser's CompressionStream), a zip of stored entries, and an animated GIF (a median-cut
// palette and an LZW coder of its own). Images are { width, height, data } with straight RGBA
// bytes, rows top to bottom (what WebGLRenderer.readPixels gives).

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (zip, PNG) of `bytes`, continuing from `crc`. */
export function crc32(bytes, crc = 0) {
  let c = ~crc;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 255] ^ (c >>> 8);
  return ~c >>> 0;
}

async function zlib(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A growing byte buffer with little- and big-endian writers. */
class Bytes {
  constructor(size = 1024) { this.a = new Uint8Array(size); this.n = 0; }
  _room(k) {
    if (this.n + k <= this.a.length) return;
    const b = new Uint8Array(Math.max(this.a.length * 2, this.n + k));
    b.set(this.a.subarray(0, this.n));
    this.a = b;
  }
  u8(v) { this._room(1); this.a[this.n++] = v & 255; return this; }
  u16(v) { return this.u8(v).u8(v >>> 8); }
  u32(v) { return this.u16(v & 0xffff).u16(v >>> 16); }
  u32be(v) { return this.u8(v >>> 24).u8(v >>> 16).u8(v >>> 8).u8(v); }
  bytes(b) { this._room(b.length); this.a.set(b, this.n); this.n += b.length; return this; }
  ascii(s) { for (let i = 0; i < s.length; i++) this.u8(s.charCodeAt(i)); return this; }
  done() { return this.a.slice(0, this.n); }
}

/** A PNG (8-bit RGBA, straight alpha, no filter) of the image; resolves to its bytes. */
export async function encodePNG({ width, height, data }) {
  const row = width * 4, raw = new Uint8Array((row + 1) * height);
  for (let y = 0; y < height; y++) raw.set(data.subarray(y * row, (y + 1) * row), y * (row + 1) + 1);
  const out = new Bytes(64 + raw.length / 2).bytes([137, 80, 78, 71, 13, 10, 26, 10]);
  const chunk = (type, body) => {
    const typed = new Bytes(body.length + 4).ascii(type).bytes(body).done();
    out.u32be(body.length).bytes(typed).u32be(crc32(typed));
  };
  chunk('IHDR', new Bytes(13).u32be(width).u32be(height).bytes([8, 6, 0, 0, 0]).done());
  chunk('IDAT', await zlib(raw));
  chunk('IEND', new Uint8Array(0));
  return out.done();
}

/**
 * A zip of `entries` ([{ name, data }]), stored (no compression: PNGs are compressed already),
 * every entry dated `date`. Returns its bytes.
 */
export function zipStored(entries, date = new Date()) {
  const dosTime = (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
  const dosDate = ((Math.max(1980, date.getFullYear()) - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  const out = new Bytes(), central = new Bytes(), enc = new TextEncoder();
  for (const { name, data } of entries) {
    const fname = enc.encode(name), crc = crc32(data), offset = out.n;
    const head = (b) => b.u16(20).u16(0x0800).u16(0).u16(dosTime).u16(dosDate).u32(crc).u32(data.length).u32(data.length)
      .u16(fname.length).u16(0);
    head(out.u32(0x04034b50)).bytes(fname).bytes(data);
    head(central.u32(0x02014b50).u16(20)).u16(0).u16(0).u16(0).u32(0).u32(offset).bytes(fname);
  }
  const cd = central.done(), cdOffset = out.n;
  out.bytes(cd).u32(0x06054b50).u16(0).u16(0).u16(entries.length).u16(entries.length).u32(cd.length).u32(cdOffset).u16(0);
  return out.done();
}

// ---- GIF ----

// the colours of the opaque pixels (alpha >= 128) of every frame, 5 bits a channel:
// count and sums of the full colours per bin
function histogram(frames) {
  const count = new Uint32Array(32768), sum = new Float64Array(32768 * 3);
  for (const { data } of frames) {
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] < 128) continue;
      const key = ((data[i] >> 3) << 10) | ((data[i + 1] >> 3) << 5) | (data[i + 2] >> 3);
      count[key]++;
      sum[key * 3] += data[i]; sum[key * 3 + 1] += data[i + 1]; sum[key * 3 + 2] += data[i + 2];
    }
  }
  return { count, sum };
}

// median cut over the histogram's bins: split the box with the most pixels times its longest
// side at its weighted median until there are `colours` boxes; each box's colour is its mean
function medianCut({ count, sum }, colours) {
  let bins = [];
  for (let k = 0; k < 32768; k++) if (count[k]) bins.push(k);
  const chan = (k, c) => (k >> (10 - 5 * c)) & 31;
  const box = (list) => {
    const lo = [31, 31, 31], hi = [0, 0, 0];
    let n = 0;
    for (const k of list) {
      n += count[k];
      for (let c = 0; c < 3; c++) { const v = chan(k, c); if (v < lo[c]) lo[c] = v; if (v > hi[c]) hi[c] = v; }
    }
    const side = [0, 1, 2].map((c) => hi[c] - lo[c]);
    const axis = side.indexOf(Math.max(...side));
    return { list, n, axis, score: side[axis] ? n * (side[axis] + 1) : 0 };
  };
  const boxes = bins.length ? [box(bins)] : [];
  bins = null;
  while (boxes.length < colours) {
    let best = -1;
    for (let i = 0; i < boxes.length; i++) if (boxes[i].score > 0 && (best < 0 || boxes[i].score > boxes[best].score)) best = i;
    if (best < 0) break;
    const b = boxes[best];
    b.list.sort((x, y) => chan(x, b.axis) - chan(y, b.axis));
    let acc = 0, cut = 1;
    for (; cut < b.list.length - 1; cut++) { acc += count[b.list[cut - 1]]; if (acc * 2 >= b.n) break; }
    boxes.splice(best, 1, box(b.list.slice(0, cut)), box(b.list.slice(cut)));
  }
  return boxes.map(({ list, n }) => {
    const rgb = [0, 0, 0];
    for (const k of list) for (let c = 0; c < 3; c++) rgb[c] += sum[k * 3 + c];
    return rgb.map((v) => Math.round(v / n));
  });
}

// each pixel's palette index: 0 for alpha < 128, else the nearest palette colour (squared
// distance; cached per 24-bit colour)
function indexFrame({ data }, palette, cache) {
  const out = new Uint8Array(data.length / 4);
  for (let i = 0, p = 0; i < data.length; i += 4, p++) {
    if (data[i + 3] < 128) continue;
    const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    let best = cache.get(key);
    if (best === undefined) {
      let d = Infinity;
      for (let j = 1; j < palette.length; j++) {
        const c = palette[j], dr = c[0] - data[i], dg = c[1] - data[i + 1], db = c[2] - data[i + 2];
        const e = dr * dr + dg * dg + db * db;
        if (e < d) { d = e; best = j; }
      }
      cache.set(key, best);
    }
    out[p] = best;
  }
  return out;
}

// GIF's LZW: codes from 9 bits up to 12, a clear code when the table is full, packed from the low
// bit up into sub-blocks of at most 255 bytes
function lzw(indices, out) {
  const min = 8, clear = 1 << min, end = clear + 1;
  let size = min + 1, next = end + 1, table = new Map();
  let acc = 0, bits = 0;
  const block = new Uint8Array(255);
  let fill = 0;
  const flush = () => { if (fill) { out.u8(fill).bytes(block.subarray(0, fill)); fill = 0; } };
  const emit = (code) => {
    acc |= code << bits; bits += size;
    while (bits >= 8) { block[fill++] = acc & 255; acc >>>= 8; bits -= 8; if (fill === 255) flush(); }
  };
  out.u8(min);
  emit(clear);
  let prefix = indices.length ? indices[0] : -1;
  for (let i = 1; i < indices.length; i++) {
    const k = indices[i], key = (prefix << 8) | k, code = table.get(key);
    if (code !== undefined) { prefix = code; continue; }
    emit(prefix);
    if (next === 4096) { emit(clear); table = new Map(); size = min + 1; next = end + 1; }
    else { if (next >= 1 << size) size++; table.set(key, next++); }
    prefix = k;
  }
  if (prefix >= 0) emit(prefix);
  emit(end);
  if (bits > 0) { block[fill++] = acc & 255; if (fill === 255) flush(); }
  flush();
  out.u8(0);
}

/**
 * An animated GIF of equally sized frames: one palette of 255 colours for all of them (median
 * cut) and index 0 transparent (alpha < 128); each frame replaces the last (disposal 2).
 * `fps` sets the delays (hundredths of a second, rounded so their sum keeps time); `loop`: play
 * forever, else once. Returns its bytes.
 */
export function encodeGIF(frames, { fps = 24, loop = true } = {}) {
  const { width, height } = frames[0];
  const palette = [[0, 0, 0]].concat(medianCut(histogram(frames), 255));
  while (palette.length < 256) palette.push([0, 0, 0]);
  const out = new Bytes(width * height).ascii('GIF89a').u16(width).u16(height).u8(0xf7).u8(0).u8(0);
  for (const c of palette) out.u8(c[0]).u8(c[1]).u8(c[2]);
  if (loop) out.u8(0x21).u8(0xff).u8(11).ascii('NETSCAPE2.0').u8(3).u8(1).u16(0).u8(0);
  const cache = new Map();
  frames.forEach((f, k) => {
    const delay = Math.round(((k + 1) * 100) / fps) - Math.round((k * 100) / fps);
    out.u8(0x21).u8(0xf9).u8(4).u8((2 << 2) | 1).u16(delay).u8(0).u8(0);
    out.u8(0x2c).u16(0).u16(0).u16(width).u16(height).u8(0);
    lzw(indexFrame(f, palette, cache), out);
  });
  out.u8(0x3b);
  return out.done();
}
