// Shared by the PixiJS examples: the rig named by the page's URL (?ske=URL&tex=URL, default the demo
// character), the options every example page reads, and the page's ready/error flags.
import { init } from 'sinew';

export const params = new URLSearchParams(location.search);
export const size = (() => {
  const m = /^(\d+)x(\d+)$/.exec(params.get('size') || '');
  return m ? [Number(m[1]), Number(m[2])] : null;
})();

export async function loadRig() {
  const sinew = await init(new URL('../sinew.wasm', import.meta.url));
  const ske = params.get('ske') || new URL('../demo/demo_ske.json', import.meta.url).href;
  const rig = await sinew.loadURL(ske, { atlas: params.get('tex') || undefined });
  return { sinew, rig };
}

export function ready() { document.body.dataset.ready = '1'; }
export function fail(err) {
  document.body.dataset.error = String(err);
  const pre = document.createElement('pre');
  pre.className = 'error';
  pre.textContent = String(err);
  document.body.appendChild(pre);
}
