// Drives Debian's Chromium headless with puppeteer-core through the jobs tests/web/browser.py
// gives it, and writes what it saw: screenshots, the texts it read, and every page error, console
// error and failed request of each job.
//   node browser_driver.mjs JOBS.json RESULTS.json   (run with NODE_PATH=build-wasm/npm/node_modules)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(path.join(process.env.NODE_PATH || '.', 'x.js'));
const puppeteer = require('puppeteer-core');
const [jobsFile, resultsFile] = process.argv.slice(2);
const { chromium, jobs } = JSON.parse(fs.readFileSync(jobsFile, 'utf8'));

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sinew-chromium-'));
const browser = await puppeteer.launch({
  executablePath: chromium, headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--enable-unsafe-swiftshader', `--user-data-dir=${profile}`],
});
const results = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const frames = (page, n = 2) => page.evaluate((k) => new Promise((done) => {
  const step = (i) => (i ? requestAnimationFrame(() => step(i - 1)) : done());
  step(k);
}), n);

async function waitPlayer(page, what, timeout = 30000) {
  // the player's state: a rig installed and drawn, or an error shown
  await page.waitForFunction(() => {
    const p = document.querySelector('sinew-player');
    return p && (p.error || (p.instance && p.dataset.frame !== undefined));
  }, { timeout });
  const err = await page.evaluate(() => { const p = document.querySelector('sinew-player'); return p.error ? String(p.error) : null; });
  if (err) throw new Error(`${what}: the player shows an error: ${err}`);
}

async function setSelect(page, name, value) {
  const ok = await page.evaluate((n, v) => {
    const s = document.querySelector('sinew-player').shadowRoot.querySelector(`select[name=${n}]`);
    if (![...s.options].some((o) => o.value === v)) return false;
    s.value = v;
    s.dispatchEvent(new Event('change'));
    return true;
  }, name, value);
  if (!ok) throw new Error(`the ${name} list has no '${value}'`);
}

async function scrub(page, frame) {
  await page.evaluate((k) => {
    const r = document.querySelector('sinew-player').shadowRoot.querySelector('input[name=frame]');
    r.value = String(k);
    r.dispatchEvent(new Event('input'));
  }, frame);
  await page.waitForFunction((k) => document.querySelector('sinew-player').dataset.frame === String(k), { timeout: 10000 }, frame);
  await frames(page);
}

for (const job of jobs) {
  const result = { name: job.name, problems: [], texts: {}, warnings: [] };
  results.push(result);
  const page = await browser.newPage();
  await page.setViewport({ width: job.viewport?.[0] || 1200, height: job.viewport?.[1] || 900, deviceScaleFactor: 1 });
  page.on('pageerror', (e) => result.problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') result.problems.push(`console error: ${m.text()}`);
    else if (m.type() === 'warn' || m.type() === 'warning') result.warnings.push(m.text());
  });
  page.on('requestfailed', (r) => result.problems.push(`failed request: ${r.url()} (${r.failure()?.errorText})`));
  page.on('response', (r) => { if (r.status() >= 400) result.problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  try {
    await page.goto(job.url, { waitUntil: 'load' });
    if (job.kind === 'url') {
      await page.waitForFunction('document.body.dataset.ready === "1" || !!document.body.dataset.error', { timeout: 60000 });
      result.texts.error = await page.evaluate(() => document.body.dataset.error || null);
      if (!result.texts.error) {
        await frames(page);
        const el = await page.$(job.canvas);
        await el.screenshot({ path: job.out });
      }
      result.texts.dataset = await page.evaluate(() => ({ ...document.body.dataset }));
      if (job.clicks && !result.texts.error) { // clicks at canvas pixels, then what `evaluate` says
        const box = await (await page.$(job.canvas)).boundingBox();
        for (const [x, y] of job.clicks) await page.mouse.click(box.x + x, box.y + y);
        await sleep(job.afterClicks || 300);
      }
      if (job.evaluate && !result.texts.error) result.texts.evaluate = await page.evaluate(job.evaluate);
      if (job.run) { // let an animated page run a while (it must keep working)
        await sleep(job.run);
        result.texts.stats = await page.evaluate(() => (document.getElementById('stats') || {}).textContent || '');
      }
    } else if (job.kind === 'player-files' || job.kind === 'player-error') {
      await page.waitForFunction(() => { const p = document.querySelector('sinew-player'); return p && p.renderer; }, { timeout: 30000 });
      if (job.folder) {
        const input = await page.$('sinew-player >>> input[name=folder]');
        await input.uploadFile(job.folder);
      } else {
        const input = await page.$('sinew-player >>> input[name=files]');
        await input.uploadFile(...job.files);
      }
      if (job.kind === 'player-error') {
        await page.waitForFunction(() => document.querySelector('sinew-player').error, { timeout: 30000 });
        result.texts.error = await page.evaluate(() => document.querySelector('sinew-player').shadowRoot.querySelector('.error').textContent);
      } else {
        await waitPlayer(page, job.name);
        if (job.armature) { await setSelect(page, 'armature', job.armature); await waitPlayer(page, job.name); }
        if (job.switchFrom) await setSelect(page, 'animation', job.switchFrom);
        await setSelect(page, 'animation', job.animation);
        await setSelect(page, 'zoom', 'fit');
        await scrub(page, job.frame);
        if (job.out) {
          const el = await page.$('sinew-player >>> canvas.gl');
          await el.screenshot({ path: job.out });
        }
        result.texts.frameLabel = await page.evaluate(() => document.querySelector('sinew-player').shadowRoot.querySelector('[name=frameLabel]').textContent);
        if (job.interact) {
          // the other controls: play, speed, cross-fade, bones and bounding boxes
          const t = {};
          const ui = (sel) => `document.querySelector('sinew-player').shadowRoot.querySelector('${sel}')`;
          await page.evaluate(`${ui('[name=play]')}.click()`);
          await sleep(300);
          t.playing = await page.evaluate('document.querySelector("sinew-player").playing');
          t.framesMoved = await page.evaluate(`${ui('[name=frame]')}.value !== '${job.frame}'`);
          await page.evaluate(`(() => { const s = ${ui('[name=speed]')}; s.value = '0.5'; s.dispatchEvent(new Event('input')); })()`);
          t.timeScale = await page.evaluate('document.querySelector("sinew-player").instance.timeScale');
          await setSelect(page, 'fadeTo', job.fadeTo);
          await page.evaluate(`${ui('[name=fadeTime]')}.value = '0.5'`);
          await page.evaluate(`${ui('[name=fade]')}.click()`);
          await sleep(100);
          t.states = await page.evaluate('document.querySelector("sinew-player").instance.states().map((s) => [s.name, s.fadingIn, s.fadingOut])');
          await page.evaluate(`${ui('[name=play]')}.click()`);
          t.paused = !(await page.evaluate('document.querySelector("sinew-player").playing'));
          result.texts.interact = t;
        }
        // overlays: pixels each toggle draws on the overlay canvas
        for (const box of job.overlays || []) {
          const ui = (sel) => `document.querySelector('sinew-player').shadowRoot.querySelector('${sel}')`;
          const count = `(() => { const c = ${ui('canvas.overlay')}; const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n; })()`;
          const before = await page.evaluate(count);
          await page.evaluate(`(() => { const c = ${ui(`[name=${box}]`)}; c.checked = true; c.dispatchEvent(new Event('change')); })()`);
          result.texts[box] = [before, await page.evaluate(count)];
          await page.evaluate(`(() => { const c = ${ui(`[name=${box}]`)}; c.checked = false; c.dispatchEvent(new Event('change')); })()`);
        }
      }
    }
  } catch (e) {
    result.problems.push(`driver: ${e.message}`);
  }
  await page.close();
}
await browser.close();
fs.rmSync(profile, { recursive: true, force: true });
fs.writeFileSync(resultsFile, JSON.stringify(results, null, 1));
