// The page's side of tetra_worker.js: one worker per request, terminated when it answers or is
// cancelled, so a cancel stops it at once even in the middle of a slice and nothing carries over
// from one run to the next (the same input gives the same tets).
import { SoftbodyError } from '../softbody.js';

export class TetraCancelled extends Error {
  constructor() {
    super('tetrahedralization cancelled');
    this.name = 'TetraCancelled';
  }
}

export const isCancel = (error) => error instanceof TetraCancelled;

// surface: { positions, triangles } (copied to the worker); options: { resolution, minQuality,
// thinSurface }. Returns { promise, cancel() }; the promise resolves to { positions, tets, stats }
// or rejects with a SoftbodyError, a TetraCancelled, or an Error if the worker itself failed.
export function tetrahedralize(surface, options, { onProgress = () => {} } = {}) {
  const worker = new Worker(new URL('./tetra_worker.js', import.meta.url), { type: 'module' });
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
        settle?.(resolve, { positions: data.positions, tets: data.tets, stats: data.stats });
      } else {
        const e = data.error;
        settle?.(reject, e.code !== null ? new SoftbodyError(e.code, e.codeName, e.message) : new Error(e.message));
      }
    };
    // A worker that cannot load (missing wasm build, script error) reports here, not by message.
    worker.onerror = (event) => {
      event.preventDefault();
      settle?.(reject, new Error(`the tetrahedralization worker failed: ${event.message || 'it could not be loaded'}`));
    };
  });
  worker.postMessage({ surface: { positions: surface.positions, triangles: surface.triangles }, options });
  return {
    promise,
    // Stops the worker wherever it is and rejects with TetraCancelled; no-op once answered.
    cancel() {
      settle?.(rejectWith, new TetraCancelled());
    },
  };
}
