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

// The multi-threaded build (softbody-mt.*: pthreads over a SharedArrayBuffer) sits in the site's
// public folder, which Vite serves and copies untouched: its glue then finds its .wasm and its
// worker script next to itself, in the dev server and in any static build. Relative to the page:
// the site's pages all sit at its root. (The npm package ships it in dist/wasm-mt/ and its build
// points this next to the package's own files, scripts/build_package.mjs.)
const THREADED_GLUE = 'wasm-mt/softbody-mt.mjs';
let threadedGlue = THREADED_GLUE;

// Where the threaded glue is (a URL, absolute or relative to the page), or null for one thread
// everywhere. For bundled apps, whose bundler does not copy the package's wasm-mt/ folder: call
// before the first sharedSoftbody(). Returns false once the module is loading (too late).
export function useThreadedBuild(url) {
  if (url !== null && typeof url !== 'string' && !(url instanceof URL)) throw new TypeError('useThreadedBuild: a URL string, a URL or null');
  if (loading) return false;
  threadedGlue = url === null ? null : String(url);
  return true;
}

// ?threads=N in the page's URL: 1 keeps the single-threaded build, N > 1 asks for N threads.
function threadsInUrl() {
  const value = typeof location === 'undefined' ? null : new URLSearchParams(location.search).get('threads');
  const n = value === null ? NaN : Math.floor(Number(value));
  return n >= 1 ? n : null;
}

// Shared memory exists only in cross-origin isolated pages (COOP: same-origin + COEP:
// require-corp, docs "Threads in the browser"); embeds on other people's sites rarely are.
function threadsPossible() {
  return threadedGlue !== null && globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function' && typeof document !== 'undefined';
}

async function loadThreaded() {
  const url = new URL(threadedGlue, document.baseURI).href;
  // A template literal, not a variable: Vite's dev server wraps a variable import() in a helper
  // from its HMR client, and that client then tries to open its websocket on every page that
  // loads this file. The build leaves both alone; webpackIgnore keeps a bundling user's webpack
  // from turning it into an empty context module.
  const { default: factory } = await import(/* @vite-ignore */ /* webpackIgnore: true */ `${url}`);
  return loadSoftbody({ factory });
}

// Promise<Softbody>: the page's one instance. The multi-threaded build when the page can share
// memory (and ?threads=1 does not say otherwise); the single-threaded one otherwise, or when the
// threaded build cannot be loaded (a warning says why; the page runs as before).
export function sharedSoftbody() {
  const single = () => compiledWasm().then((module) => loadSoftbody({ module }));
  loading ??=
    threadsPossible() && threadsInUrl() !== 1
      ? loadThreaded().catch((error) => {
          console.warn(`softbody: the multi-threaded build did not load (${error.message}); using one thread`);
          return single();
        })
      : single();
  loading.catch(() => (loading = null));
  return loading;
}

// World.setThreads' count for a body of `tets` tets: small bodies have too few vertex groups to
// share (a group holds at least 256 vertices; 2 threads gave 1.57x at 9.5k tets natively, docs
// "Threads"), so 1 below 8k tets; above, the build's threads up to the machine's cores.
// ?threads=N overrides (clamped to what the build has).
const THREADS_MIN_TETS = 8000;
export function autoThreads(softbody, tets) {
  const most = softbody.maxThreads;
  const asked = threadsInUrl();
  if (asked !== null) return Math.min(asked, most);
  if (tets < THREADS_MIN_TETS) return 1;
  return Math.max(1, Math.min(most, globalThis.navigator?.hardwareConcurrency ?? 1));
}
