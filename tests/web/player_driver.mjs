// Drives Debian's Chromium headless (puppeteer-core) through the jobs tests/web/player.py gives
// it: each job opens a page and runs its steps in order, and the driver writes what it saw (the
// values steps read, screenshots, downloaded files, every page error, console error or warning,
// failed request and HTTP error).
//   node player_driver.mjs JOBS.json RESULTS.json   (NODE_PATH=build-wasm/npm/node_modules)
// Steps: { wait: EXPR, timeout? }, { eval: EXPR, key? }, { shot: SELECTOR, out },
// { download: EXPR (clicks something), key, timeout? }, { drag: SELECTOR, by: [dx, dy] },
// { goto: URL | { key } (a URL a step read) }, { sleep: MS }; any with if: EXPR runs when it is true.
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium } from '../../web/bench/chromium.mjs';

const [jobsFile, resultsFile] = process.argv.slice(2);
const { jobs } = JSON.parse(fs.readFileSync(jobsFile, 'utf8'));
const browser = await launchChromium(process.env.NODE_PATH);
const cdp = await browser.target().createCDPSession();
const downloads = new Map(); // guid -> { file, done }
cdp.on('Browser.downloadWillBegin', (e) => downloads.set(e.guid, { file: e.suggestedFilename, done: false }));
cdp.on('Browser.downloadProgress', (e) => { if (e.state === 'completed' && downloads.has(e.guid)) downloads.get(e.guid).done = true; });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function runStep(page, step, result, dir) {
  if (step.if && !(await page.evaluate(step.if))) return;
  if (step.wait) await page.waitForFunction(step.wait, { timeout: step.timeout || 60000, polling: 100 });
  else if (step.eval) {
    const v = await page.evaluate(step.eval);
    if (step.key) result.texts[step.key] = v;
  } else if (step.shot) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await (await page.$(step.shot)).screenshot({ path: step.out });
  } else if (step.download) {
    const before = new Set(downloads.keys());
    await page.evaluate(step.download);
    const end = Date.now() + (step.timeout || 60000);
    for (;;) {
      const guid = [...downloads.keys()].find((g) => !before.has(g));
      if (guid && downloads.get(guid).done) { result.texts[step.key] = path.join(dir, downloads.get(guid).file); break; }
      if (Date.now() > end) throw new Error(`no download from ${step.download}`);
      await sleep(100);
    }
  } else if (step.drag) {
    const box = await (await page.$(step.drag)).boundingBox();
    const x = box.x + box.width / 2, y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + step.by[0] / 2, y + step.by[1] / 2, { steps: 4 });
    await page.mouse.move(x + step.by[0], y + step.by[1], { steps: 4 });
    await page.mouse.up();
  } else if (step.goto) {
    await page.goto(typeof step.goto === 'string' ? step.goto : result.texts[step.goto.key], { waitUntil: 'load' });
  } else if (step.sleep) await sleep(step.sleep);
}

const results = [];
for (const job of jobs) {
  const result = { name: job.name, problems: [], warnings: [], texts: {} };
  results.push(result);
  const dir = job.downloads || path.dirname(resultsFile);
  fs.mkdirSync(dir, { recursive: true });
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dir, eventsEnabled: true });
  const page = await browser.newPage();
  await page.setViewport({ width: job.viewport?.[0] || 1200, height: job.viewport?.[1] || 900, deviceScaleFactor: 1 });
  const problem = (text) => result.problems.push(text);
  page.on('console', (m) => (m.type() === 'error' ? problem(`console error: ${m.text()}`)
    : /^warn/.test(m.type()) && result.warnings.push(m.text())));
  page.on('pageerror', (e) => problem(`page error: ${e.message}`));
  page.on('response', (r) => r.status() >= 400 && problem(`HTTP ${r.status()}: ${r.url()}`));
  page.on('requestfailed', (r) => problem(`failed request: ${r.url()} (${r.failure()?.errorText})`));
  if (job.init) await page.evaluateOnNewDocument(job.init);
  try {
    await page.goto(job.url, { waitUntil: 'load' });
    for (const [i, step] of job.steps.entries()) {
      try { await runStep(page, step, result, dir); } catch (e) { throw new Error(`step ${i} (${JSON.stringify(step).slice(0, 160)}): ${e.message}`); }
    }
  } catch (e) {
    result.problems.push(`driver: ${e.message}`);
  }
  await page.close();
}
await browser.close();
fs.writeFileSync(resultsFile, JSON.stringify(results, null, 1));
