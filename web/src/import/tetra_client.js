// The page's side of tetra_worker.js: one worker per request, terminated when it answers or is
// cancelled, so a cancel stops it at once even in the middle of a slice and nothing carries over
// from one run to the next (the same input gives the same tets).
import { SoftbodyError } from '../softbody.js';
import { compiledWasm } from '../wasm_module.js';
import { ImportError } from './import_error.js';

export class TetraCancelled extends Error {
  constructor() {
    super('tetrahedralization cancelled');
    this.name = 'TetraCancelled';
  }
}

export const isCancel = (error) => error instanceof TetraCancelled;

// input: a surface { positions, triangles } (copied to the worker), or { file: { name, buffer } }:
// a mesh file's bytes (the buffer is transferred: read and normalized in the worker, so a big
// file never blocks the page). options: { resolution, minQuality, maxTets, thinSurface, skin } (skin,
// default true: bind the surface to the tets in the worker too). Returns { promise, cancel() };
// the promise resolves to { surface, positions, tets, stats, visual } (surface: normalized, in m;
// visual: a binding for Body.setVisualBound, or null) or rejects with an ImportError (the file), a
// SoftbodyError, a TetraCancelled, or an Error if the worker itself failed.
export function tetrahedralize(input, options, { onProgress = () => {} } = {}) {
  // The literal new Worker(new URL(...)) is what Vite and webpack recognise and bundle.
  const worker = crossOriginSafe(() => new Worker(new URL('./tetra_worker.js', import.meta.url), { type: 'module' }));
  let settle = null; // (resolve or reject, value) until the first answer, then null
  let rejectWith = null;
  const promise = new Promise((resolve, reject) => {
    rejectWith = reject;
    settle = (fn, value) => {
      if (!settle) return;
      settle = null;
      worker.terminate();
      fn(value);
    };
    worker.onmessage = ({ data }) => {
      if (data.type === 'progress') {
        if (settle) onProgress(data.progress);
      } else if (data.type === 'done') {
        const { surface, positions, tets, stats, visual } = data;
        settle?.(resolve, { surface, positions, tets, stats, visual });
      } else {
        settle?.(reject, errorFrom(data.error));
      }
    };
    // A worker that cannot load (missing wasm build, script error) reports here, not by message.
    worker.onerror = (event) => {
      event.preventDefault();
      settle?.(reject, new Error(`the tetrahedralization worker failed: ${event.message || 'it could not be loaded'}`));
    };
  });
  // The worker instantiates the page's compiled module (wasm_module.js) instead of fetching and
  // compiling its own.
  compiledWasm().then(
    (module) => {
      if (!settle) return; // cancelled meanwhile
      if (input.file) {
        const { name, buffer } = input.file;
        worker.postMessage({ module, input: { file: { name, buffer } }, options }, [buffer]);
      } else {
        worker.postMessage({ module, input: { surface: { positions: input.positions, triangles: input.triangles } }, options });
      }
    },
    (error) => settle?.(rejectWith, error),
  );
  return {
    promise,
    // Stops the worker wherever it is and rejects with TetraCancelled; no-op once answered.
    cancel() {
      settle?.(rejectWith, new TetraCancelled());
    },
  };
}

// The element may come from another origin than the page (a CDN, a pasted "copy embed code"
// snippet), and a worker script on another origin cannot be started directly ("Failed to construct
// 'Worker'"). So while start() runs, Worker starts such a script from a same-origin blob that
// imports it (the script needs CORS, as the element's module did). A static import: the worker's
// messages wait until the whole module graph has run and set onmessage.
const bootstraps = new Map(); // script URL -> blob URL
function crossOriginSafe(start) {
  const Native = globalThis.Worker;
  globalThis.Worker = class extends Native {
    constructor(url, options) {
      const script = new URL(String(url), globalThis.location.href);
      if (script.origin !== globalThis.location.origin && options?.type === 'module') {
        if (!bootstraps.has(script.href)) {
          const blob = new Blob([`import ${JSON.stringify(script.href)};\n`], { type: 'text/javascript' });
          bootstraps.set(script.href, URL.createObjectURL(blob));
        }
        url = bootstraps.get(script.href);
      }
      super(url, options);
    }
  };
  try {
    return start();
  } finally {
    globalThis.Worker = Native;
  }
}

// The worker's error record back as the error the import code and its messages expect.
function errorFrom({ name, code, codeName, message, fileName, kind, stats }) {
  if (name === 'ImportError') return new ImportError(fileName, message, kind);
  if (code !== null) return Object.assign(new SoftbodyError(code, codeName, message), stats ? { stats } : {});
  return new Error(message);
}
