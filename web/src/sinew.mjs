// sinew for the web: the WebAssembly build of libsinew behind a JavaScript API (docs/web.md).
//
//   import { init } from 'sinew';
//   const sinew = await init();                          // loads sinew.wasm beside this module
//   const data = sinew.loadSkeleton(jsonText, { name: 'hero_ske.json' });
//   const atlas = sinew.loadAtlas(atlasText, { name: 'hero_tex.json' });
//   const hero = data.createInstance({ atlas });
//   hero.play('walk');
//   hero.on('frameEvent', (ev) => console.log(ev.name));
//   hero.update(1 / 60);
//   const list = hero.drawList();                        // typed-array views into wasm memory
//
// Everything here calls the exports of web/wasm/sinew_web.c, which call the public C API.

const STATUS_NAMES = {
  0: 'OK', 1: 'ARG', 10: 'IO', 20: 'PARSE', 21: 'TYPE', 22: 'MISSING', 23: 'REFERENCE', 24: 'RANGE',
  25: 'DUPLICATE', 26: 'LAYOUT', 30: 'VERSION', 31: 'UNSUPPORTED', 40: 'LIMIT', 50: 'NOMEM',
  60: 'NOT_FOUND', 70: 'RENDER', 80: 'EXTERNAL',
};
export const BLEND_MODES = ['normal', 'add', 'alpha', 'darken', 'difference', 'erase', 'hardlight', 'invert',
  'layer', 'lighten', 'multiply', 'overlay', 'screen', 'subtract'];
export const EVENT_TYPES = ['start', 'loopComplete', 'complete', 'fadeIn', 'fadeInComplete', 'fadeOut',
  'fadeOutComplete', 'frameEvent', 'soundEvent'];
const FADE_OUT_MODES = { none: 0, sameLayer: 1, sameGroup: 2, sameLayerAndGroup: 3, all: 4, single: 5 };
const GOTO_UNITS = { time: 0, frame: 1, progress: 2 };
const DISPLAY_TYPES = ['image', 'armature', 'mesh', 'boundingBox', 'path', 'shape'];
const CONSTRAINT_TYPES = ['ik', 'path', 'transform', 'physics'];
// The random source of 6.0 physics: null (the constant 0.5), a number in [0, 1), 'seed:N'
// (mulberry32, as tools/oracle6's --random) or a function returning a number in [0, 1) (called by
// the update, through the module's import sinew.random with the id it is registered under)
// -> [kind, constant, seed or id]
function randomSource(random, id) {
  if (random === null || random === undefined) return [0, 0.5, 0];
  if (typeof random === 'function') return [3, 0, id];
  if (typeof random === 'string' && random.startsWith('seed:')) {
    const n = Number(random.slice(5));
    if (!Number.isInteger(n) || n < 0 || n > 0xFFFFFFFF) throw new SinewError(`bad random seed '${random}'`);
    return [2, 0, n];
  }
  const c = Number(random);
  if (!(c >= 0 && c < 1)) throw new SinewError(`the random source must be a number in [0, 1) or 'seed:N' (${random})`);
  return [1, c, 0];
}

/** An error from sinew: the message, and where in which file (1-based line and column, 0 = unknown). */
export class SinewError extends Error {
  constructor(message, fields = {}) {
    super(message);
    this.name = 'SinewError';
    this.code = fields.code ?? 'ARG';
    this.status = fields.status ?? 1;
    this.file = fields.file ?? '';
    this.line = fields.line ?? 0;
    this.column = fields.column ?? 0;
    this.offset = fields.offset ?? 0;
    this.path = fields.path ?? '';
    this.detail = fields.detail ?? message;
  }
  /** `file:line:col: error: message [path]`, as the sinew command line prints it. */
  toString() {
    let where = this.file;
    if (this.line) where += `:${this.line}:${this.column}`;
    return `${where ? where + ': ' : ''}error: ${this.detail}${this.path ? ` [${this.path}]` : ''}`;
  }
}

// ---- WASI: the few system calls wasi-libc makes, over a read-only in-memory file system --------

const E = { SUCCESS: 0, ACCES: 2, BADF: 8, INVAL: 28, ISDIR: 31, NOENT: 44, NOSYS: 52, NOTDIR: 54, ROFS: 69 };
const FT_CHAR = 2, FT_DIR = 3, FT_FILE = 4;

class Wasi {
  constructor() {
    this.files = new Map();   // absolute path -> Uint8Array
    this.reader = null;       // path -> Uint8Array | null, asked for files not mounted
    this.fds = new Map();     // fd -> { path, dir, pos }
    this.nextFd = 4;
    this.lines = { 1: '', 2: '' };
    this.memory = null;
    const self = this;
    const dv = () => new DataView(self.memory.buffer);
    const u8 = () => new Uint8Array(self.memory.buffer);
    const str = (p, n) => utf8.decode(u8().subarray(p, p + n));
    const stat = (out, type, size) => {
      const d = dv();
      for (let i = 0; i < 64; i += 8) d.setBigUint64(out + i, 0n, true);
      d.setUint8(out + 16, type);
      d.setBigUint64(out + 24, 1n, true);
      d.setBigUint64(out + 32, BigInt(size), true);
    };
    this.imports = {
      environ_get: () => E.SUCCESS,
      environ_sizes_get: (count, size) => { dv().setUint32(count, 0, true); dv().setUint32(size, 0, true); return E.SUCCESS; },
      fd_write(fd, iovs, n, written) {
        const d = dv(); let total = 0;
        for (let i = 0; i < n; i++) {
          const p = d.getUint32(iovs + 8 * i, true), len = d.getUint32(iovs + 8 * i + 4, true);
          if (fd === 1 || fd === 2) self.print(fd, str(p, len));
          total += len;
        }
        d.setUint32(written, total, true);
        return fd === 1 || fd === 2 ? E.SUCCESS : E.BADF;
      },
      fd_read(fd, iovs, n, nread) {
        const f = self.fds.get(fd);
        if (!f || f.dir) return E.BADF;
        const data = self.files.get(f.path), d = dv(), mem = u8(); let total = 0;
        for (let i = 0; i < n && f.pos < data.length; i++) {
          const p = d.getUint32(iovs + 8 * i, true), len = d.getUint32(iovs + 8 * i + 4, true);
          const chunk = data.subarray(f.pos, Math.min(data.length, f.pos + len));
          mem.set(chunk, p); f.pos += chunk.length; total += chunk.length;
        }
        d.setUint32(nread, total, true);
        return E.SUCCESS;
      },
      fd_seek(fd, offset, whence, out) {
        const f = self.fds.get(fd);
        if (!f || f.dir) return E.BADF;
        const size = self.files.get(f.path).length;
        const base = whence === 0 ? 0 : whence === 1 ? f.pos : size;
        const pos = base + Number(offset);
        if (pos < 0) return E.INVAL;
        f.pos = pos;
        dv().setBigUint64(out, BigInt(pos), true);
        return E.SUCCESS;
      },
      fd_close(fd) { return self.fds.delete(fd) ? E.SUCCESS : E.BADF; },
      fd_fdstat_get(fd, out) {
        const f = self.fds.get(fd);
        const type = fd <= 2 ? FT_CHAR : fd === 3 || (f && f.dir) ? FT_DIR : f ? FT_FILE : -1;
        if (type < 0) return E.BADF;
        const d = dv();
        d.setUint8(out, type); d.setUint16(out + 2, 0, true);
        d.setBigUint64(out + 8, 0xffffffffffffffffn, true); d.setBigUint64(out + 16, 0xffffffffffffffffn, true);
        return E.SUCCESS;
      },
      fd_fdstat_set_flags: () => E.SUCCESS,
      fd_filestat_get(fd, out) {
        const f = self.fds.get(fd);
        if (fd === 3) { stat(out, FT_DIR, 0); return E.SUCCESS; }
        if (!f) return E.BADF;
        stat(out, f.dir ? FT_DIR : FT_FILE, f.dir ? 0 : self.files.get(f.path).length);
        return E.SUCCESS;
      },
      fd_prestat_get(fd, out) {
        if (fd !== 3) return E.BADF;
        dv().setUint8(out, 0); dv().setUint32(out + 4, 1, true);
        return E.SUCCESS;
      },
      fd_prestat_dir_name(fd, p, len) {
        if (fd !== 3) return E.BADF;
        if (len >= 1) u8()[p] = 0x2f; // "/"
        return E.SUCCESS;
      },
      fd_readdir(fd, buf, len, cookie, used) {
        const f = fd === 3 ? { path: '/', dir: true } : self.fds.get(fd);
        if (!f || !f.dir) return E.BADF;
        const names = self.list(f.path), d = dv(), mem = u8();
        let at = 0;
        for (let i = Number(cookie); i < names.length && at < len; i++) {
          const [name, isDir] = names[i];
          const bytes = utf8e.encode(name), head = new Uint8Array(24), hv = new DataView(head.buffer);
          hv.setBigUint64(0, BigInt(i + 1), true); hv.setBigUint64(8, BigInt(i + 1), true);
          hv.setUint32(16, bytes.length, true); hv.setUint8(20, isDir ? FT_DIR : FT_FILE);
          const entry = new Uint8Array(24 + bytes.length); entry.set(head); entry.set(bytes, 24);
          const n = Math.min(entry.length, len - at);
          mem.set(entry.subarray(0, n), buf + at); at += n;
        }
        d.setUint32(used, at, true);
        return E.SUCCESS;
      },
      path_filestat_get(fd, flags, p, n, out) {
        const path = self.resolve(fd, str(p, n));
        if (path === null) return E.BADF;
        const data = self.file(path);
        if (data) stat(out, FT_FILE, data.length);
        else if (self.isDir(path)) stat(out, FT_DIR, 0);
        else return E.NOENT;
        return E.SUCCESS;
      },
      path_open(fd, dirflags, p, n, oflags, rightsBase, rightsInherit, fdflags, out) {
        const path = self.resolve(fd, str(p, n));
        if (path === null) return E.BADF;
        if (oflags & (1 | 4 | 8)) return E.ROFS; // create, exclusive, truncate: nothing is written here
        const isFile = !!self.file(path), isDir = !isFile && self.isDir(path);
        if (!isFile && !isDir) return E.NOENT;
        if ((oflags & 2) && !isDir) return E.NOTDIR;
        const id = self.nextFd++;
        self.fds.set(id, { path, dir: isDir, pos: 0 });
        dv().setUint32(out, id, true);
        return E.SUCCESS;
      },
      proc_exit(code) { throw new Error(`sinew.wasm called exit(${code})`); },
      random_get(p, n) {
        const mem = u8();
        for (let at = 0; at < n; at += 65536) globalThis.crypto.getRandomValues(mem.subarray(p + at, p + Math.min(n, at + 65536)));
        return E.SUCCESS;
      },
    };
  }
  // the file at an absolute path: mounted, else what the reader gives (kept), else undefined
  file(path) {
    let data = this.files.get(path);
    if (data === undefined && this.reader) {
      const got = this.reader(path);
      if (got) { data = toBytes(got); this.files.set(path, data); }
    }
    return data;
  }
  print(fd, text) {
    const all = this.lines[fd] + text, parts = all.split('\n');
    this.lines[fd] = parts.pop();
    for (const line of parts) (fd === 2 ? console.error : console.log)(line);
  }
  resolve(fd, rel) {
    let base;
    if (fd === 3) base = '/';
    else { const f = this.fds.get(fd); if (!f || !f.dir) return null; base = f.path; }
    return normalize(rel.startsWith('/') ? rel : base.replace(/\/?$/, '/') + rel);
  }
  isDir(path) {
    const prefix = path === '/' ? '/' : path + '/';
    for (const k of this.files.keys()) if (k.startsWith(prefix)) return true;
    return false;
  }
  list(dir) {
    const prefix = dir === '/' ? '/' : dir.replace(/\/$/, '') + '/', seen = new Map();
    for (const k of this.files.keys()) {
      if (!k.startsWith(prefix)) continue;
      const rest = k.slice(prefix.length), cut = rest.indexOf('/');
      const name = cut < 0 ? rest : rest.slice(0, cut);
      if (!seen.has(name)) seen.set(name, cut >= 0);
    }
    return [...seen].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
}

function normalize(path) {
  const out = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop(); else out.push(part);
  }
  return '/' + out.join('/');
}

const utf8 = new TextDecoder('utf-8');

// an atlas JSON that says its pages are premultiplied: "premultipliedAlpha" (sinew render --sheet
// --premultiplied writes it) or "pma" (Spine's word), at the top or on a page of "pages"
function atlasPremultiplied(bytes) {
  let json;
  try { json = JSON.parse(utf8.decode(bytes)); } catch (e) { return false; }
  const flagged = (o) => !!o && (o.premultipliedAlpha === true || o.pma === true);
  return flagged(json) || (Array.isArray(json.pages) && json.pages.some(flagged));
}
const utf8e = new TextEncoder();
const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node);

function toBytes(input) {
  if (typeof input === 'string') return utf8e.encode(input);
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw new TypeError('expected a string, an ArrayBuffer or a typed array');
}

// ---- the runtime -------------------------------------------------------------------------------

/**
 * Loads and starts sinew.wasm. `source`: nothing (the file beside this module), a URL or path, a
 * Response, an ArrayBuffer / typed array with the module's bytes, or a compiled WebAssembly.Module.
 */
export async function init(source) {
  if (source && typeof source === 'object' && 'wasm' in source && !(source instanceof URL)) source = source.wasm;
  const wasi = new Wasi();
  const randoms = new Map(); // id -> a createInstance({ random }) function (Sinew._randoms)
  const imports = { wasi_snapshot_preview1: wasi.imports, sinew: { random: (id) => Number(randoms.get(id)()) } };
  let instance;
  if (source === undefined || typeof source === 'string' || source instanceof URL) {
    const url = source === undefined ? new URL('./sinew.wasm', import.meta.url) : source;
    const isFile = isNode && (typeof url === 'string' ? !/^[a-z]+:\/\//i.test(url) || url.startsWith('file:') : url.protocol === 'file:');
    if (isFile) {
      const fs = await import('node:fs/promises');
      const bytes = await fs.readFile(typeof url === 'string' && url.startsWith('file:') ? new URL(url) : url);
      ({ instance } = await WebAssembly.instantiate(bytes, imports));
    } else {
      const response = fetch(url);
      if (WebAssembly.instantiateStreaming) {
        try {
          ({ instance } = await WebAssembly.instantiateStreaming(response, imports));
        } catch (e) {
          // a server that gives .wasm another type: fall back to the bytes
          ({ instance } = await WebAssembly.instantiate(await (await fetch(url)).arrayBuffer(), imports));
        }
      } else {
        ({ instance } = await WebAssembly.instantiate(await (await response).arrayBuffer(), imports));
      }
    }
  } else if (source instanceof WebAssembly.Module) {
    instance = await WebAssembly.instantiate(source, imports);
  } else if (typeof Response !== 'undefined' && source instanceof Response) {
    ({ instance } = await WebAssembly.instantiate(await source.arrayBuffer(), imports));
  } else {
    ({ instance } = await WebAssembly.instantiate(toBytes(source), imports));
  }
  wasi.memory = instance.exports.memory;
  instance.exports._initialize();
  return new Sinew(instance.exports, wasi, randoms);
}

// A native object and what keeps it alive: its JavaScript owner (until its dispose(), or the
// FinalizationRegistry once the owner is forgotten) and the native objects that use it (an
// instance uses its data, atlas and frame cache; a frame cache its data). Freed when the last of
// them lets go, so disposing a data, atlas or frame cache before its instances frees nothing they
// still read (docs/web.md).
class Native {
  constructor(sinew, kind, ptr, uses, rid = 0) {
    this.s = sinew; this.kind = kind; this.ptr = ptr; this.rid = rid; this.holds = 1;
    this.uses = uses.filter(Boolean);
    for (const n of this.uses) n.holds++;
  }
  release() {
    if (--this.holds > 0 || !this.ptr) return;
    const ptr = this.ptr;
    this.ptr = 0;
    this.s._destroy(this.kind, ptr, this.rid);
    for (const n of this.uses) n.release();
    this.uses = [];
  }
}

/** The running module: loads data and atlases, and updates many instances in one call. */
export class Sinew {
  constructor(exports, wasi, randoms = new Map()) {
    this._x = exports;
    this._wasi = wasi;
    this._mounts = 0;
    this._names = new Map();          // string pointer -> decoded string: only strings of a data
                                      // (they never move; cleared when a data is freed, whose
                                      // memory is reused), never those of an instance
    this._instances = new Map();      // pointer -> WeakRef<Instance> (for event delivery)
    this._randoms = randoms;          // id -> an instance's random function (6.0 physics; the
                                      // module's import sinew.random reads it)
    this._randomId = 0;
    this._listPtr = 0; this._listCap = 0;
    this._out = exports.sw_out();
    this._registry = typeof FinalizationRegistry !== 'undefined'
      ? new FinalizationRegistry((native) => native.release()) : null;
    if (!DrawList.layout) {
      const w = this._view(Uint32Array, exports.sw_drawlist_layout(), 15);
      DrawList.layout = {
        page: w[1] / 4, blend: w[2] / 4, color: w[3] / 4, region: w[4] / 4, firstVertex: w[5] / 4, vertexCount: w[6] / 4,
        firstIndex: w[7] / 4, indexCount: w[8] / 4, slot: w[9] / 4, depth: w[10] / 4, armature: w[11] / 4,
        mask: w[12] / 4, flags: w[13] / 4, part: w[14] / 4,
      };
    }
    this.version = this._str(exports.sw_version());
    /** Warnings of the last load, as `file:line:col: warning: message` lines. */
    this.warnings = [];
  }

  get memory() { return this._x.memory; }

  // ---- memory helpers ----
  // A view of wasm memory. Any call into wasm may grow the memory, which detaches every view made
  // before it: make views through this, with the pointer from the call as the argument, so that
  // the buffer is read after the call (new T(x.memory.buffer, x.sw_f(), n) reads it before).
  _view(T, ptr, length) { return new T(this._x.memory.buffer, ptr, length); }
  _u8() { return new Uint8Array(this._x.memory.buffer); }
  _str(ptr) {
    if (!ptr) return null;
    const m = this._u8();
    let end = ptr;
    while (m[end]) end++;
    return utf8.decode(m.subarray(ptr, end));
  }
  // strings that live as long as their data (names in the data): decoded once
  _name(ptr) {
    if (!ptr) return null;
    let s = this._names.get(ptr);
    if (s === undefined) { s = this._str(ptr); this._names.set(ptr, s); }
    return s;
  }
  _alloc(bytes) {
    const p = this._x.sw_alloc(bytes.length);
    if (!p) throw new SinewError('out of memory', { code: 'NOMEM', status: 50 });
    this._u8().set(bytes, p);
    return p;
  }
  _cstr(s) {
    if (s === null || s === undefined) return 0;
    const b = utf8e.encode(String(s));
    const p = this._x.sw_alloc(b.length + 1);
    if (!p) throw new SinewError('out of memory', { code: 'NOMEM', status: 50 });
    const m = this._u8(); m.set(b, p); m[p + b.length] = 0;
    return p;
  }
  // calls fn with C strings for `strings`, freeing them afterwards
  _with(strings, fn) {
    const ptrs = strings.map((s) => this._cstr(s));
    try { return fn(...ptrs); } finally { for (const p of ptrs) if (p) this._x.sw_free(p); }
  }
  _error(status, fallbackFile) {
    const w = this._view(Uint32Array, this._x.sw_error(), 8);
    const code = w[0] || status || 1;
    const file = this._display(this._str(w[1]) || fallbackFile || '');
    const detail = this._str(w[5]) || this._str(this._x.sw_status_str(code));
    const err = new SinewError('', {
      code: STATUS_NAMES[code] || String(code), status: code, file, line: w[2], column: w[3],
      offset: w[6] + w[7] * 4294967296, path: this._str(w[4]) || '', detail,
    });
    err.message = err.toString();
    return err;
  }
  // a load's result: the pointer, or the error thrown (built while the name strings still live)
  _ok(ptr, file, warnings = true) {
    if (warnings) this._takeWarnings();
    if (!ptr) throw this._error(0, this._display(file));
    return ptr;
  }
  _display(path) {
    // files mounted by loadFiles/mount are shown by their own names
    const m = /^\/\.mount\d+\/(.*)$/.exec(path || '');
    return m ? m[1] : path;
  }
  _takeWarnings() {
    const text = this._str(this._x.sw_warnings()) || '';
    this.warnings = text.split('\n').filter(Boolean).map((l) => l.replace(/\/\.mount\d+\//g, ''));
  }
  _destroy(kind, ptr, rid = 0) {
    if (kind === 'instance') { this._instances.delete(ptr); this._x.sw_instance_destroy(ptr); if (rid) this._randoms.delete(rid); }
    else if (kind === 'data') { this._x.sw_data_destroy(ptr); this._names.clear(); } // its strings' memory is reused
    else if (kind === 'atlas') this._x.sw_atlas_destroy(ptr);
    else if (kind === 'script') this._x.sw_script_destroy(ptr);
    else if (kind === 'cache') this._x.sw_frame_cache_destroy(ptr);
  }
  // obj owns the native `ptr`, which uses the natives in `uses` (kept alive as long as it lives)
  // (rid: the id of an instance's random function, forgotten with it)
  _own(obj, kind, ptr, uses = [], rid = 0) {
    obj._ptr = ptr;
    obj._native = new Native(this, kind, ptr, uses, rid);
    if (this._registry) this._registry.register(obj, obj._native, obj);
  }
  // obj's dispose(): the owner lets go (freed now, or when the last native using it is freed)
  _disown(obj) {
    if (!obj._ptr) return;
    if (this._registry) this._registry.unregister(obj);
    obj._ptr = 0;
    obj._native.release();
  }

  // ---- loading ----

  /**
   * Loads a skeleton: DragonBones JSON (4.0-5.6) as text or bytes, DBBin as an ArrayBuffer, or an
   * XML rig (whose images must be mounted: see loadFiles). Throws a SinewError with file, line and
   * column when the input is bad.
   */
  loadSkeleton(input, { name = 'skeleton' } = {}) {
    const bytes = toBytes(input);
    const buf = this._alloc(bytes);
    try {
      const ptr = this._with([name], (n) => this._ok(this._x.sw_data_load(buf, bytes.length, n), name));
      return new SkeletonData(this, ptr, name);
    } finally { this._x.sw_free(buf); }
  }

  /** Loads a texture atlas JSON (text or bytes). Page image paths are kept as written. */
  loadAtlas(input, { name = 'atlas', dir = '' } = {}) {
    const bytes = toBytes(input);
    const buf = this._alloc(bytes);
    try {
      const ptr = this._with([name, dir], (n, d) => this._ok(this._x.sw_atlas_load(buf, bytes.length, n, d), name));
      return new TextureAtlas(this, ptr, name);
    } finally { this._x.sw_free(buf); }
  }

  /**
   * Puts files into sinew's in-memory file system, where the path-based loaders read them (an XML
   * rig reads its images' sizes there; an atlas is found beside its skeleton as `sinew render`
   * finds it). `files`: an object or Map of name -> string | ArrayBuffer | typed array. Returns
   * the folder they are in; `unmount(dir)` removes them.
   */
  mount(files, dir) {
    dir = normalize(dir || `/.mount${++this._mounts}`);
    const entries = files instanceof Map ? [...files] : Object.entries(files);
    for (const [name, data] of entries) this._wasi.files.set(normalize(`${dir}/${name}`), toBytes(data).slice());
    return dir;
  }
  /**
   * Where files that are not mounted come from: `reader(path)` gets an absolute path and returns
   * the file's bytes, or null when there is none (in node: a function over fs.readFileSync).
   */
  setFileReader(reader) { this._wasi.reader = reader; }
  unmount(dir) {
    const prefix = normalize(dir) + '/';
    for (const k of [...this._wasi.files.keys()]) if (k.startsWith(prefix)) this._wasi.files.delete(k);
  }
  /** Loads a mounted skeleton by path. */
  loadSkeletonFile(path) {
    const ptr = this._with([path], (p) => this._ok(this._x.sw_data_load_file(p), path));
    return new SkeletonData(this, ptr, this._display(path));
  }
  /** Loads a mounted atlas by path (an XML rig's path gives its images as pages). */
  loadAtlasFile(path) {
    const ptr = this._with([path], (p) => this._ok(this._x.sw_atlas_load_file(p), path));
    return new TextureAtlas(this, ptr, this._display(path));
  }
  /** The mounted atlas that belongs to a mounted skeleton (X_ske.json -> X_tex.json, ...), or null. */
  findAtlas(skeletonPath) {
    return this._with([skeletonPath], (p) => this._str(this._x.sw_atlas_find_for(p)));
  }
  /**
   * An atlas for a rig that names whole images instead of atlas regions (the Live2D-converted
   * demos): each display's texture name + ".png" looked up in the mounted folder `dir`.
   */
  atlasFromImages(data, dir) {
    const ptr = this._with([dir], (d) => this._ok(this._x.sw_atlas_from_images(data._live(), d), dir));
    return new TextureAtlas(this, ptr, dir);
  }

  /**
   * Loads a rig from a set of files, as a user drops them: a skeleton (`*_ske.json`, any
   * DragonBones JSON, `.dbbin` or `.xml`), its atlas JSON and the page images. `files`: File
   * objects (browser; from a folder their paths inside it count, so an XML rig's subfolders
   * work), or { name, data } objects (name may hold a relative path). Returns { data, atlas, skeleton, atlasFile,
   * pages: [{ index, path, file }] } where `file` is the matching input (for the renderer to
   * decode). Throws a SinewError naming the file that is wrong.
   */
  async loadFiles(files) {
    const list = [];
    for (const f of files) {
      // a path inside a picked or dropped folder (the folder itself left out), else the name
      const rel = f.path || (f.webkitRelativePath ? f.webkitRelativePath.split('/').slice(1).join('/') : '') || f.name;
      const name = rel.replace(/^\/+/, '');
      const data = f.data !== undefined ? toBytes(f.data) : new Uint8Array(await f.arrayBuffer());
      list.push({ name, data, file: f });
    }
    const sniffText = (d) => utf8.decode(d.subarray(0, Math.min(d.length, 4096)));
    const isSkeleton = (e) => {
      if (/\.(dbbin|xml)$/i.test(e.name)) return true;
      if (!/\.json$/i.test(e.name)) return false;
      return /"armature"\s*:/.test(sniffText(e.data)) || /"armature"\s*:/.test(utf8.decode(e.data));
    };
    // top-level files first, then X_ske.* names
    const depth = (e) => e.name.split('/').length;
    const skeletons = list.filter(isSkeleton).sort((a, b) => depth(a) - depth(b)
      || Number(/_ske\./.test(b.name)) - Number(/_ske\./.test(a.name)));
    if (!skeletons.length) {
      throw new SinewError('no skeleton among the files (a DragonBones .json with "armature", a .dbbin or an XML rig)',
        { code: 'MISSING', status: 22, file: list.map((e) => e.name).join(', ') });
    }
    const dir = this.mount(new Map(list.map((e) => [e.name, e.data])));
    try {
      const ske = skeletons[0];
      const data = this.loadSkeletonFile(`${dir}/${ske.name}`);
      const warnings = this.warnings;
      let atlas = null, atlasPath = null;
      try {
        atlasPath = /\.xml$/i.test(ske.name) ? `${dir}/${ske.name}` : this.findAtlas(`${dir}/${ske.name}`);
        if (!atlasPath) {
          const other = list.find((e) => e !== ske && /\.json$/i.test(e.name) && /"SubTexture"/.test(utf8.decode(e.data)));
          if (other) atlasPath = `${dir}/${other.name}`;
        }
        if (atlasPath) atlas = this.loadAtlasFile(atlasPath);
        else if (list.some((e) => /\.png$/i.test(e.name))) atlas = this.atlasFromImages(data, dir);
      } catch (e) { data.dispose(); throw e; }
      this.warnings = warnings.concat(this.warnings);
      const pages = atlas ? atlas.pages.map((p, index) => {
        const path = normalize(p.resolvedPath.startsWith('/') ? p.resolvedPath : `${dir}/${p.resolvedPath}`);
        const entry = list.find((e) => normalize(`${dir}/${e.name}`) === path)
          || list.find((e) => e.name === path.split('/').pop());
        return { index, path: this._display(path), name: p.name, width: p.width, height: p.height,
          file: entry ? entry.file : null, bytes: entry ? entry.data : null };
      }) : [];
      const atlasEntry = atlasPath && !/\.xml$/i.test(atlasPath) ? list.find((e) => normalize(`${dir}/${e.name}`) === normalize(atlasPath)) : null;
      return { data, atlas, skeleton: ske.name, atlasFile: atlasPath ? this._display(atlasPath) : null, pages,
        premultipliedAlpha: atlasEntry ? atlasPremultiplied(atlasEntry.data) : false };
    } finally { this.unmount(dir); }
  }

  /**
   * Fetches and loads a rig by URL: the skeleton (JSON, .dbbin or .xml), the atlas (`atlas`: its URL;
   * default: X_ske.json -> X_tex.json beside it, none for an XML rig) and the page images, which
   * come back as Blobs for the renderer. Returns what loadFiles returns.
   */
  async loadURL(skeletonURL, { atlas: atlasURL, fetch: fetchFn = globalThis.fetch } = {}) {
    const base = typeof location !== 'undefined' ? location.href : undefined;
    const skeURL = new URL(skeletonURL, base);
    const name = decodeURIComponent(skeURL.pathname.split('/').pop() || 'skeleton');
    const get = async (url, what) => {
      const r = await fetchFn(url);
      if (!r.ok) throw new SinewError(`cannot fetch ${what}: HTTP ${r.status}`, { code: 'IO', status: 10, file: String(url) });
      return new Uint8Array(await r.arrayBuffer());
    };
    const files = [{ name, data: await get(skeURL, 'the skeleton') }];
    const pageFiles = async (atlasName, bytes, atlasBase) => {
      let json;
      try { json = JSON.parse(utf8.decode(bytes)); } catch (e) { return; } // the loader reports it
      const pages = Array.isArray(json.pages) ? json.pages.map((p) => p.imagePath) : [json.imagePath];
      for (const p of pages.filter(Boolean)) files.push({ name: p.split('/').pop(), data: await get(new URL(p, atlasBase), `the page image ${p}`) });
    };
    if (/\.xml$/i.test(name)) {
      // an XML rig names its images in image="..." attributes, relative to it
      const text = utf8.decode(files[0].data);
      const seen = new Set();
      // (and a skin's <setter name="image" content="..."/>)
      const images = [...text.matchAll(/\bimage\s*=\s*"([^"]+)"/g)].map((m) => m[1])
        .concat([...text.matchAll(/<setter\b[^>]*>/g)].filter((m) => /\bname\s*=\s*"image"/.test(m[0]))
          .map((m) => (/\bcontent\s*=\s*"([^"]+)"/.exec(m[0]) || [])[1]).filter(Boolean));
      for (const image of images) {
        if (seen.has(image)) continue;
        seen.add(image);
        files.push({ name: image, data: await get(new URL(image, skeURL), `the image ${image}`) });
      }
    } else {
      const texURL = atlasURL ? new URL(atlasURL, base)
        : new URL(name.replace(/_ske\.(json|dbbin)$/i, '_tex.json'), skeURL);
      if (atlasURL || texURL.href !== skeURL.href) {
        let bytes = null;
        try { bytes = await get(texURL, 'the atlas'); } catch (e) { if (atlasURL) throw e; }
        if (bytes) {
          const texName = decodeURIComponent(texURL.pathname.split('/').pop());
          files.push({ name: atlasURL ? texName : name.replace(/_ske\.(json|dbbin)$/i, '_tex.json'), data: bytes });
          await pageFiles(texName, bytes, texURL);
        }
      }
    }
    const rig = await this.loadFiles(files);
    for (const p of rig.pages) if (p.bytes && !p.file?.type) p.file = new Blob([p.bytes], { type: 'image/png' });
    return rig;
  }

  /** Loads a scenario script (the official oracle's format; sinew/script.h) for `data`. */
  loadScript(input, data, { name = 'script' } = {}) {
    const bytes = toBytes(input);
    const buf = this._alloc(bytes);
    try {
      const ptr = this._with([name], (n) => this._ok(this._x.sw_script_load(buf, bytes.length, n, data ? data._live() : 0), name));
      return new Script(this, ptr, name);
    } finally { this._x.sw_free(buf); }
  }

  /**
   * Advances many instances by `dt` seconds in one call into WebAssembly (a crowd: no crossing
   * per instance), then delivers their events to listeners.
   */
  update(instances, dt) {
    const n = instances.length;
    if (n > this._listCap) {
      if (this._listPtr) this._x.sw_free(this._listPtr);
      this._listCap = Math.max(n, 64);
      this._listPtr = this._x.sw_alloc(this._listCap * 4);
    }
    const list = this._view(Uint32Array, this._listPtr, n);
    for (let i = 0; i < n; i++) list[i] = instances[i]._live();
    this._x.sw_update_many(this._listPtr, n, dt);
    for (const inst of instances) inst._generation++; // their draw lists are stale
    this._dispatch();
  }
  /** The same, building every instance's draw list after its update; returns the vertex count. */
  updateWithDrawLists(instances, dt) {
    const n = instances.length;
    if (n > this._listCap) {
      if (this._listPtr) this._x.sw_free(this._listPtr);
      this._listCap = Math.max(n, 64);
      this._listPtr = this._x.sw_alloc(this._listCap * 4);
    }
    const list = this._view(Uint32Array, this._listPtr, n);
    for (let i = 0; i < n; i++) list[i] = instances[i]._live();
    const v = this._x.sw_update_drawlist_many(this._listPtr, n, dt);
    for (const inst of instances) inst._generation++;
    this._dispatch();
    return v;
  }

  _dispatch() {
    const count = this._x.sw_event_count();
    if (!count) return;
    const rec = this._view(Float64Array, this._x.sw_events(), count * 10);
    const events = [];
    for (let i = 0; i < count; i++) {
      const r = i * 10;
      const ref = this._instances.get(rec[r]);
      const inst = ref && ref.deref();
      if (!inst) continue;
      events.push([inst, {
        type: EVENT_TYPES[rec[r + 1]], name: this._name(rec[r + 2]) || '', armature: this._name(rec[r + 3]) || '',
        animation: this._name(rec[r + 4]) || '', bone: this._name(rec[r + 5]), slot: this._name(rec[r + 6]),
        armatureIndex: rec[r + 7], time: rec[r + 8], instance: inst,
      }]);
    }
    this._x.sw_events_clear();
    for (const [inst, ev] of events) inst._emit(ev);
  }
}

/** Immutable skeleton data: armatures, their bones, slots, skins and animations. */
export class SkeletonData {
  constructor(sinew, ptr, name) {
    this._s = sinew; this.name = name;
    sinew._own(this, 'data', ptr);
    const p = sinew._x.sw_data_describe(ptr);
    const info = JSON.parse(sinew._str(p));
    sinew._x.sw_free(p);
    /** "dragonbones" or "xml" */
    this.format = info.format;
    this.version = info.version;
    this.compatibleVersion = info.compatibleVersion;
    this.frameRate = info.frameRate;
    this.dataName = info.name;
    /** [{ name, type, frameRate, bones: [{name, parent, length}], slots, skins, animations:
     *   [{name, frames, duration, playTimes, fadeInTime}], defaultAnimation, userData, canvas }] */
    this.armatures = info.armatures;
    /** The index of the main armature: the one the file names, else the one with the most bones
     *  that no other uses as a child armature (sinew_data_default_armature, docs/cli.md). */
    this.defaultArmature = info.defaultArmature;
  }
  get armatureNames() { return this.armatures.map((a) => a.name); }
  /** The armature named `name` (or the main one, `defaultArmature`), or undefined. */
  armature(name) { return name == null ? this.armatures[this.defaultArmature] : this.armatures.find((a) => a.name === name); }
  animationNames(armature) { const a = this.armature(armature); return a ? a.animations.map((n) => n.name) : []; }
  skinNames(armature) { const a = this.armature(armature); return a ? a.skins : []; }
  /**
   * The armature a skin choice means, as every sinew front end resolves it: for an XML rig the
   * armature NAME@SKIN (no overlay), else the armature itself with the skin overlaid. Returns
   * { armature (index), overlay (skin name or null) }; throws for unknown names.
   */
  resolveSkin(armature = null, skin = null) {
    const s = this._s;
    return s._with([armature, skin], (a, k) => {
      const st = s._x.sw_resolve_skin(this._live(), a, k);
      if (st) throw s._error(st, this.name);
      const u = s._view(Uint32Array, s._out, 2);
      return { armature: u[0], overlay: s._name(u[1]) };
    });
  }
  /** The warnings `sinew validate` gives this skeleton against `atlas` (displays without regions, ...). */
  checkAtlas(atlas) {
    this._s._with([this.name], (f) => this._s._x.sw_data_check_atlas(this._live(), atlas._live(), f));
    this._s._takeWarnings();
    return this._s.warnings;
  }
  /**
   * A playing armature: { armature (default the first), skin (overlaid on the default skin; an
   * XML rig's skin selects NAME@SKIN), atlas (for image placement and UVs), maxStates,
   * defaultActions (run the armature's defaultActions), frameCache, and for DragonBones 6.0
   * physics: random (null: the constant 0.5; a number in [0, 1); 'seed:N'; or a function called once
   * per awake physics constraint per update: an exception it throws leaves that update unfinished)
   * and noClock (off the clock: no physics) }.
   */
  createInstance({ armature = null, skin = null, atlas = null, maxStates = 0, defaultActions = false, frameCache = null,
    random = null, noClock = false } = {}) {
    const s = this._s;
    if (frameCache && frameCache.data !== this) throw new SinewError('the frame cache belongs to another skeleton data');
    const source = randomSource(random, typeof random === 'function' ? ++s._randomId : 0);
    if (source[0] === 3) s._randoms.set(source[2], random);
    let ptr;
    try {
      ptr = s._with([armature, skin], (a, k) => s._ok(s._x.sw_instance_create(this._live(), a, k, atlas ? atlas._live() : 0,
        maxStates, defaultActions ? 1 : 0, frameCache ? frameCache._live() : 0, ...source, noClock ? 1 : 0),
        this.name, false));
    } catch (e) { s._randoms.delete(source[2]); throw e; }
    return new Instance(s, ptr, this, atlas, frameCache, source[0] === 3 ? source[2] : 0);
  }
  /**
   * A frame cache at `fps` cache frames per second (the official cacheFrameRate): instances
   * created with it sample their animation only at cache frames and share computed bones.
   * It lives until its last instance is freed, whenever it is disposed.
   */
  createFrameCache(fps) {
    const s = this._s;
    const ptr = s._ok(s._x.sw_frame_cache_create(this._live(), fps), this.name, false);
    return new FrameCache(s, ptr, this);
  }
  _live() { if (!this._ptr) throw new SinewError('this skeleton data was disposed'); return this._ptr; }
  /**
   * Frees the data, or, while instances or frame caches made from it are live, lets them keep it
   * until the last of them is freed. Nothing new can be made from it after this.
   */
  dispose() { this._s._disown(this); }
}

/** A frame cache (SkeletonData.createFrameCache). */
export class FrameCache {
  constructor(sinew, ptr, data) { this._s = sinew; this.data = data; sinew._own(this, 'cache', ptr, [data._native]); }
  _live() { if (!this._ptr) throw new SinewError('this frame cache was disposed'); return this._ptr; }
  /** Frees the cache, or lets the instances using it keep it until the last of them is freed. */
  dispose() { this._s._disown(this); }
}

/** A texture atlas: its pages (image paths and sizes) and regions. */
export class TextureAtlas {
  constructor(sinew, ptr, name) {
    this._s = sinew; this.name = name;
    sinew._own(this, 'atlas', ptr);
    const p = sinew._x.sw_atlas_describe(ptr);
    const info = JSON.parse(sinew._str(p));
    sinew._x.sw_free(p);
    /** [{ name, imagePath, resolvedPath, width, height, scale }] */
    this.pages = info.pages;
    this.regionCount = info.regionCount;
  }
  _live() { if (!this._ptr) throw new SinewError('this atlas was disposed'); return this._ptr; }
  /** Frees the atlas, or lets the instances drawing with it keep it until the last of them is freed. */
  dispose() { this._s._disown(this); }
}

/** A loaded scenario script (poses.mjs runs them). */
export class Script {
  constructor(sinew, ptr, name) {
    this._s = sinew; this.name = name;
    sinew._own(this, 'script', ptr);
    const x = sinew._x, out = () => sinew._view(Float64Array, sinew._out, 8);
    this.scenarios = [];
    for (let i = 0, n = x.sw_script_count(ptr); i < n; i++) {
      x.sw_script_scenario(ptr, i);
      const d = out();
      const sc = { index: i, name: sinew._str(d[0]), armature: sinew._str(d[1]), fps: d[2], frames: d[3], commands: [] };
      const count = d[4];
      for (let c = 0; c < count; c++) sc.commands.push({ index: c, t: x.sw_script_command_time(ptr, i, c) });
      this.scenarios.push(sc);
    }
  }
  /** Issues command `c` of scenario `i` to an instance (throws for an unknown animation). */
  issue(instance, i, c) {
    const st = this._s._x.sw_script_issue(instance._live(), this._ptr, i, c);
    if (st) throw this._s._error(st, this.name);
  }
  dispose() { this._s._disown(this); }
}

/**
 * A draw list: the frame as textured triangles, back to front (include/sinew/drawlist.h).
 * `positions`, `uvs` and `indices` are views into wasm memory, not copies. They go stale - and
 * must not be read - after the instance's next update() (its own, or sinew.update of a list that
 * holds it), drawList(), bounds() or hitTest(), after it is disposed, and after any call that may
 * grow the wasm memory (loading, creating an instance, another instance's first draw list), which
 * detaches every view; `stale` tells. Take a new draw list each frame.
 */
export class DrawList {
  constructor(inst, words) {
    const buf = inst._s._x.memory.buffer;
    this._inst = inst; this._gen = inst._generation; this._buffer = buf;
    this.vertexCount = words[4];
    this.indexCount = words[5];
    this.commandCount = words[6];
    /** x, y per vertex, armature space (y down) */
    this.positions = new Float32Array(buf, words[0], 2 * words[4]);
    /** u, v per vertex, normalised to the page */
    this.uvs = new Float32Array(buf, words[1], 2 * words[4]);
    /** triangle indices (absolute vertex numbers) */
    this.indices = new Uint32Array(buf, words[2], words[5]);
    const stride = words[7];
    /** the commands as 32-bit words (stride `commandStride`); read with DrawList.layout */
    this.commandWords = new Uint32Array(buf, words[3], (stride / 4) * words[6]);
    this.commandFloats = new Float32Array(buf, words[3], (stride / 4) * words[6]);
    this.commandStride = stride / 4;
  }
  /** True once the views may no longer be read (see the class comment). */
  get stale() {
    return this._inst._generation !== this._gen || this._inst._s._x.memory.buffer !== this._buffer || !this._inst._ptr;
  }
  /** Command i as an object (allocates; renderers read commandWords/commandFloats instead). */
  command(i) {
    const L = DrawList.layout, w = this.commandWords, f = this.commandFloats, b = i * this.commandStride;
    const page = w[b + L.page];
    return {
      page: page === 0xffffffff ? -1 : page,
      blend: BLEND_MODES[w[b + L.blend]] || 'normal',
      color: { aM: f[b + L.color], rM: f[b + L.color + 1], gM: f[b + L.color + 2], bM: f[b + L.color + 3],
        aO: f[b + L.color + 4], rO: f[b + L.color + 5], gO: f[b + L.color + 6], bO: f[b + L.color + 7] },
      region: [f[b + L.region], f[b + L.region + 1], f[b + L.region + 2], f[b + L.region + 3]],
      firstVertex: w[b + L.firstVertex], vertexCount: w[b + L.vertexCount],
      firstIndex: w[b + L.firstIndex], indexCount: w[b + L.indexCount],
      slot: w[b + L.slot], depth: w[b + L.depth], armature: w[b + L.armature],
      mask: w[b + L.mask] - 1, flags: w[b + L.flags], part: w[b + L.part],
    };
  }
}
/** Word offsets of a command's fields in commandWords / commandFloats (set by init()). color holds
 *  aM rM gM bM aO rO gO bO; region u0 v0 u1 v1. page 0xffffffff = untextured. 6.0: mask is 1 + the
 *  index of the mask command clipping it (0 none), flags DRAW_MASK | DRAW_FILL | DRAW_STROKE, part
 *  the shape's path (include/sinew/drawlist.h). */
DrawList.layout = null;
/** DrawList command flags (6.0): a mask (not drawn; it clips the commands naming it), a vector
 *  shape's fill, its stroke. */
export const DRAW_MASK = 1, DRAW_FILL = 2, DRAW_STROKE = 4;

/** A playing armature. */
export class Instance {
  constructor(sinew, ptr, data, atlas, frameCache = null, randomId = 0) {
    this._s = sinew; this.data = data; this.atlas = atlas; this.frameCache = frameCache;
    this._generation = 0;
    this._listeners = new Map();
    sinew._instances.set(ptr, new WeakRef(this));
    sinew._own(this, 'instance', ptr, [data._native, atlas && atlas._native, frameCache && frameCache._native], randomId);
    const arm = data.armature(sinew._name(sinew._x.sw_armature_name(ptr, 0)));
    /** the armature's description (from SkeletonData.armatures) */
    this.armature = arm;
  }
  _live() { if (!this._ptr) throw new SinewError('this instance was disposed'); return this._ptr; }
  _check(st) { if (st) throw this._s._error(st, this.data.name); return st; }

  /** Advances the animation by dt seconds and recomputes the pose; delivers events after. */
  update(dt) {
    this._s._x.sw_update(this._live(), dt);
    this._generation++;
    this._s._dispatch();
  }
  /** Plays an animation from its start (null: resume, or the default animation). */
  play(animation = null, { playTimes = -1, armature = 0 } = {}) {
    this._s._with([animation], (a) => this._check(this._s._x.sw_play(this._live(), armature, a, playTimes)));
  }
  /**
   * Fades an animation in: { fadeInTime (seconds; default the animation's), playTimes, layer,
   * group, fadeOutMode ('none' | 'sameLayer' | 'sameGroup' | 'sameLayerAndGroup' (default) |
   * 'all' | 'single'), weight, timeScale, pauseFadeIn, armature (child armature index) }.
   */
  fadeIn(animation, { fadeInTime = -1, playTimes = -1, layer = 0, group = null, fadeOutMode = 'sameLayerAndGroup',
    weight = 1, timeScale = -100, pauseFadeIn = true, armature = 0 } = {}) {
    const mode = typeof fadeOutMode === 'number' ? fadeOutMode : FADE_OUT_MODES[fadeOutMode];
    if (mode === undefined) throw new SinewError(`unknown fadeOutMode '${fadeOutMode}'`);
    this._s._with([animation, group], (a, g) => this._check(this._s._x.sw_fade_in(this._live(), armature, a, fadeInTime,
      playTimes, layer, g, mode, weight, timeScale, pauseFadeIn ? 1 : 0)));
  }
  /** Plays from a position: { time } seconds, { frame } or { progress } 0..1. */
  gotoAndPlay(animation, at = { time: 0 }, { playTimes = -1, armature = 0 } = {}) {
    const [unit, value] = gotoUnit(at);
    this._s._with([animation], (a) => this._check(this._s._x.sw_goto_and_play(this._live(), armature, a, unit, value, playTimes)));
  }
  /** Shows an animation held at a position: { time }, { frame } or { progress }. */
  gotoAndStop(animation, at = { time: 0 }, { armature = 0 } = {}) {
    const [unit, value] = gotoUnit(at);
    this._s._with([animation], (a) => this._check(this._s._x.sw_goto_and_stop(this._live(), armature, a, unit, value)));
  }
  /** Pauses the state playing `animation` (null: every state). */
  stop(animation = null, { armature = 0 } = {}) {
    this._s._with([animation], (a) => this._s._x.sw_stop(this._live(), armature, a));
  }
  /** The armature-level time scale (multiplies every state's). */
  get timeScale() { return this._timeScale ?? 1; }
  set timeScale(v) { this._timeScale = v; this._s._x.sw_set_time_scale(this._live(), 0, v); }
  setTimeScale(v, { armature = 0 } = {}) { if (!armature) this._timeScale = v; this._s._x.sw_set_time_scale(this._live(), armature, v); }
  /** Replaces the skin overlay (null: the default skin only). */
  setSkin(skin) { this._s._with([skin], (k) => this._check(this._s._x.sw_set_skin(this._live(), k))); }
  /** Shows one slot with the displays another skin gives it. */
  setSlotSkin(slot, skin, { armature = 0 } = {}) {
    this._s._with([slot, skin], (s, k) => this._check(this._s._x.sw_set_slot_skin(this._live(), armature, s, k)));
  }

  /** The animation states, in layer order: [{ name, group, layer, playTimes, currentPlayTimes,
   *  currentTime, duration, weight, fadeProgress, timeScale, playing, completed, fadingIn, fadingOut }]. */
  states({ armature = 0 } = {}) {
    const x = this._s._x, out = [];
    for (let i = 0, n = x.sw_state_count(this._live(), armature); i < n; i++) {
      if (!x.sw_state(this._ptr, armature, i)) continue;
      const d = this._s._view(Float64Array, this._s._out, 11);
      // the group is a copy in the instance's state array (rewritten as states come and go): decoded each time
      out.push({ name: this._s._name(d[9]) || '', group: this._s._str(d[10]) || '', layer: d[0], playTimes: d[1],
        currentPlayTimes: d[2], currentTime: d[3], duration: d[4], weight: d[5], fadeProgress: d[6], timeScale: d[7],
        playing: !!(d[8] & 1), completed: !!(d[8] & 2), fadingIn: !!(d[8] & 4), fadingOut: !!(d[8] & 8) });
    }
    return out;
  }
  /** Sets the weight / time scale of the state playing `animation`; false when none does. */
  setStateWeight(animation, w, { armature = 0 } = {}) {
    return !!this._s._with([animation], (a) => this._s._x.sw_state_set_weight(this._live(), armature, a, w));
  }
  setStateTimeScale(animation, v, { armature = 0 } = {}) {
    return !!this._s._with([animation], (a) => this._s._x.sw_state_set_time_scale(this._live(), armature, a, v));
  }

  // ---- events ----
  /** Listens to events: 'start', 'loopComplete', 'complete', 'fadeIn', 'fadeInComplete',
   *  'fadeOut', 'fadeOutComplete', 'frameEvent', 'soundEvent', or '*' for all. */
  on(type, fn) {
    if (type !== '*' && !EVENT_TYPES.includes(type)) throw new SinewError(`unknown event type '${type}'`);
    if (!this._listeners.has(type)) this._listeners.set(type, new Set());
    this._listeners.get(type).add(fn);
    this._s._x.sw_listen(this._live(), 1);
    return this;
  }
  off(type, fn) {
    const set = this._listeners.get(type);
    if (set) { set.delete(fn); if (!set.size) this._listeners.delete(type); }
    if (!this._listeners.size && this._ptr) this._s._x.sw_listen(this._ptr, 0);
    return this;
  }
  _emit(ev) {
    for (const key of [ev.type, '*']) {
      const set = this._listeners.get(key);
      if (set) for (const fn of set) fn(ev);
    }
  }

  // ---- pose ----
  /** 1 + the child armatures nested in this instance. */
  get armatureCount() { return this._s._x.sw_armature_count(this._live()); }
  armatureName(i = 0) { return this._s._name(this._s._x.sw_armature_name(this._live(), i)); }
  /** Whether armature i is drawn now, and its matrix to the top armature: { shown, matrix }. */
  armaturePlacement(i) {
    const shown = !!this._s._x.sw_armature_placement(this._live(), i);
    return { shown, matrix: Array.from(this._s._view(Float32Array, this._s._out, 6)) };
  }
  /** The bones with their world matrices [a, b, c, d, tx, ty] (armature space). */
  bones({ armature = 0 } = {}) {
    const x = this._s._x, out = [];
    for (let b = 0, n = x.sw_bone_count(this._live(), armature); b < n; b++) {
      if (!x.sw_bone(this._ptr, armature, b)) continue;
      const u = this._s._view(Uint32Array, this._s._out, 8), i = this._s._view(Int32Array, this._s._out, 8);
      const f = this._s._view(Float32Array, this._s._out, 8);
      out.push({ name: this._s._name(u[0]), parent: i[1], matrix: [f[2], f[3], f[4], f[5], f[6], f[7]] });
    }
    return out;
  }
  /** The slots in draw order (back to front), as they are now. */
  slots({ armature = 0 } = {}) {
    const x = this._s._x, s = this._s, out = [];
    for (let k = 0, n = x.sw_slot_count(this._live(), armature); k < n; k++) {
      if (!x.sw_slot(this._ptr, armature, k)) continue;
      const u = s._view(Uint32Array, s._out, 34), i = s._view(Int32Array, s._out, 34), f = s._view(Float32Array, s._out, 34);
      const slot = {
        name: s._name(u[0]), index: u[1], parent: u[2], displayIndex: i[3], displayName: s._name(u[4]),
        displayPath: s._name(u[5]), displayType: i[6] >= 0 ? DISPLAY_TYPES[i[6]] : null, visible: !!u[7], drawIndex: u[8],
        color: { aM: f[9], rM: f[10], gM: f[11], bM: f[12], aO: f[13], rO: f[14], gO: f[15], bO: f[16] },
        blend: BLEND_MODES[u[17]] || 'normal', blendMode: u[17], matrix: [f[18], f[19], f[20], f[21], f[22], f[23]],
        childArmature: i[27], pivot: u[28] ? [f[29], f[30]] : null, mesh: null, shape: null, path: null,
        mask: u[31] ? f[32] : null, maskedBy: i[33],
      };
      const key = { 2: 'mesh', 4: 'path', 5: 'shape' }[i[6]];
      if (u[24] && key) slot[key] = { weighted: !!u[26], vertices: Array.from(s._view(Float32Array, u[24], 2 * u[25])) };
      out.push(slot);
    }
    return out;
  }
  /** The constraints and their state now (IK weights, path values, 6.0 transform and physics
   *  constraints), in the official order (tools/oracle6's --constraints). */
  constraints({ armature = 0 } = {}) {
    const x = this._s._x, s = this._s, out = [];
    for (let k = 0, n = x.sw_constraint_count(this._live(), armature); k < n; k++) {
      if (!x.sw_constraint(this._ptr, armature, k)) continue;
      const u = s._view(Uint32Array, s._out, 8), i = s._view(Int32Array, s._out, 8), d = s._view(Float64Array, s._out, 20);
      out.push({
        type: CONSTRAINT_TYPES[u[0]], name: s._name(u[1]), bone: i[2], target: i[3], weight: d[4], bendPositive: !!u[4],
        position: d[5], spacing: d[6], rotateWeight: d[7], xWeight: d[8], yWeight: d[9], sleeping: !!u[5], reset: !!u[6],
        remaining: d[10], lastTime: d[11], xOffset: d[12], xVelocity: d[13], yOffset: d[14], yVelocity: d[15],
        rotateOffset: d[16], rotateVelocity: d[17], scaleOffset: d[18], scaleVelocity: d[19],
      });
    }
    return out;
  }
  /** The frame's draw list (views into wasm memory: see DrawList). */
  drawList() {
    // sw_drawlist may grow the memory (a first draw list allocates): the views are made after it
    const words = this._s._view(Uint32Array, this._s._x.sw_drawlist(this._live()), 8);
    this._generation++;
    return new DrawList(this, words);
  }
  /** The axis-aligned bounds { x0, y0, x1, y1 } of what the pose draws, or null. */
  bounds() {
    if (!this._s._x.sw_bounds(this._live())) return null;
    const f = this._s._view(Float32Array, this._s._out, 4);
    this._generation++;
    return { x0: f[0], y0: f[1], x1: f[2], y1: f[3] };
  }
  /** The topmost drawn slot at (x, y), armature space: { armature, slot, name } or null. */
  hitTest(x, y) {
    const X = this._s._x;
    const hit = X.sw_hit(this._live(), x, y);
    this._generation++;
    if (!hit) return null;
    const u = this._s._view(Uint32Array, this._s._out, 2);
    const armature = u[0], slot = u[1];
    let name = null;
    for (let k = 0, n = X.sw_slot_count(this._ptr, armature); k < n; k++) {
      if (X.sw_slot(this._ptr, armature, k) && this._s._view(Uint32Array, this._s._out, 2)[1] === slot) {
        name = this._s._name(this._s._view(Uint32Array, this._s._out, 1)[0]);
        break;
      }
    }
    return { armature, slot, name };
  }
  /** The outline of the boundingBox the slot (index) shows, as [x, y, ...] in armature space. */
  boundingBox(slot, { armature = 0 } = {}) {
    const x = this._s._x, cap = 64, p = x.sw_alloc(cap * 8);
    try {
      const n = x.sw_slot_bounding_box(this._live(), armature, slot, p, cap);
      return Array.from(this._s._view(Float32Array, p, 2 * Math.min(n, cap)));
    } finally { x.sw_free(p); }
  }
  /** Whether (x, y) lies in the boundingBox slot `slot` shows. */
  containsPoint(slot, x, y, { armature = 0 } = {}) { return !!this._s._x.sw_slot_contains_point(this._live(), armature, slot, x, y); }
  /** Where a segment crosses boundingBox polygons: { slotA, slotB, a: [x, y], b: [x, y],
   *  normalA, normalB } or null. */
  intersectsSegment(xa, ya, xb, yb, { armature = 0 } = {}) {
    if (!this._s._x.sw_intersects_segment(this._live(), armature, xa, ya, xb, yb)) return null;
    const u = this._s._view(Uint32Array, this._s._out, 8), f = this._s._view(Float32Array, this._s._out, 8);
    return { slotA: u[0], slotB: u[1], a: [f[2], f[3]], b: [f[4], f[5]], normalA: f[6], normalB: f[7] };
  }

  // ---- control ----
  /** A bone's offset on top of its animation: { x, y, rotation, skew (radians), scaleX, scaleY };
   *  null removes it. */
  setBoneOffset(bone, offset, { armature = 0 } = {}) {
    const o = offset || {};
    this._s._with([bone], (b) => this._check(this._s._x.sw_set_bone_offset(this._live(), armature, b, offset ? 0 : 1,
      o.x ?? 0, o.y ?? 0, o.rotation ?? 0, o.skew ?? 0, o.scaleX ?? 1, o.scaleY ?? 1)));
  }
  /** Moves a bone so its origin lands on (x, y), armature space (an IK target following the mouse). */
  boneFollow(bone, x, y, { armature = 0 } = {}) {
    this._s._with([bone], (b) => this._check(this._s._x.sw_bone_follow(this._live(), armature, b, x, y)));
  }
  /**
   * Puts a display of the default skin into a slot (the official replaceSlotDisplay):
   * { sourceSlot (default the same slot), sourceArmature, index (-1: the current one) }.
   * `display` null undoes it.
   */
  replaceDisplay(slot, display, { sourceSlot = null, sourceArmature = null, index = -1, armature = 0 } = {}) {
    this._s._with([slot, sourceArmature, sourceSlot, display], (s, sa, ss, d) => this._check(
      this._s._x.sw_replace_display(this._live(), armature, s, sa, ss, d, index)));
  }
  /**
   * Shows an image of your own in a slot: { page (a page number past the atlas's, that your
   * renderer maps to a texture), pageWidth, pageHeight, x, y, width, height (the image's
   * rectangle in it), pivotX, pivotY (0.5 = centre), index }.
   */
  replaceDisplayRegion(slot, r, { armature = 0 } = {}) {
    this._s._with([slot], (s) => this._check(this._s._x.sw_replace_display_region(this._live(), armature, s, r.page,
      r.pageWidth, r.pageHeight, r.x ?? 0, r.y ?? 0, r.width ?? r.pageWidth, r.height ?? r.pageHeight,
      r.pivotX ?? 0.5, r.pivotY ?? 0.5, r.index ?? -1)));
  }
  /** Bytes of the instance's single allocation. */
  get memoryBytes() { return this._s._x.sw_instance_memory(this._live()); }
  /** Frees the instance now (a FinalizationRegistry frees a forgotten one, later), and with it
   *  a disposed data, atlas or frame cache it was the last to use. */
  dispose() {
    this._s._disown(this);
    this._listeners.clear();
  }
}

function gotoUnit(at) {
  if (typeof at === 'number') return [GOTO_UNITS.time, at];
  for (const k of ['time', 'frame', 'progress']) if (at && typeof at[k] === 'number') return [GOTO_UNITS[k], at[k]];
  throw new SinewError('goto wants { time }, { frame } or { progress }');
}
