// The physics module, fetched and compiled once per page however many elements there are, and only
// when the first element asks (when it comes near the viewport). The .wasm is found next to this
// script through import.meta.url, which Vite rewrites for the site build and the npm package alike.
import { loadSoftbody } from '../softbody.js';

const WASM_URL = new URL('../wasm/softbody.wasm', import.meta.url).href;

let loading = null;

export function sharedSoftbody() {
  loading ??= loadSoftbody({ locateFile: (file) => (file.endsWith('.wasm') ? WASM_URL : file) });
  // A failed load (offline, missing file) may be retried by the next element.
  loading.catch(() => (loading = null));
  return loading;
}
