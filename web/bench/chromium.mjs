// Shared by the benchmarks that run in Debian's Chromium (bench-web.mjs, phaser-bench.mjs): a
// static file server over a few folders, and headless Chromium through puppeteer-core (from the
// npm tools tools/web-npm.sh installs into build-wasm/npm).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const TYPES = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json',
  '.html': 'text/html', '.png': 'image/png' };

/** Serves `roots` ({ '/prefix/': folder }) on 127.0.0.1; returns { server, base }. */
export async function serveRoots(roots) {
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url.split('?')[0]);
    const prefix = Object.keys(roots).find((p) => url.startsWith(p));
    const file = prefix && path.join(roots[prefix], path.normalize(url.slice(prefix.length)).replace(/^(\.\.[/\\])+/, ''));
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

/** Headless Chromium (software WebGL); `close()` also removes its profile. */
export async function launchChromium(modules) {
  const require = createRequire(path.join(modules, 'x.js'));
  const puppeteer = require('puppeteer-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sinew-bench-'));
  const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, protocolTimeout: 0,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--enable-unsafe-swiftshader', `--user-data-dir=${profile}`] });
  const close = browser.close.bind(browser);
  browser.close = async () => { await close(); fs.rmSync(profile, { recursive: true, force: true }); };
  return browser;
}
