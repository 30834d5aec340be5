// The physics module, fetched and compiled ONCE per page: every page, every <soft-body>, and every
// tetrahedralization worker (which gets the compiled WebAssembly.Module by message) instantiates
// this one compilation. Nothing is fetched until someone asks. The .wasm is found next to this
// script through import.meta.url, which Vite rewrites for the site build, and the npm package
// build points at the .wasm shipped beside its files (scripts/build_package.mjs).
import { loadSoftbody } from './softbody.js';

const WASM_URL = new URL('./wasm/softbody.wasm', import.meta.url).href;

let compiling = null;
let loading = null;

// Promise<WebAssembly.Module>. Streaming compilation needs the application/wasm content type;
// a server that sends another one still works, through the bytes.
export function compiledWasm() {
  compiling ??= (async () => {
    const response = await fetch(WASM_URL);
    if (!response.ok) throw new Error(`could not load the physics module ${WASM_URL}: HTTP ${response.status}`);
    const copy = response.clone();
    try {
      return await WebAssembly.compileStreaming(response);
    } catch {
      return WebAssembly.compile(await copy.arrayBuffer());
    }
  })();
  compiling.catch(() => (compiling = null)); // a failed load may be retried
  return compiling;
}

// Promise<Softbody>: the page's one instance.
export function sharedSoftbody() {
  loading ??= compiledWasm().then((module) => loadSoftbody({ module }));
  loading.catch(() => (loading = null));
  return loading;
}
