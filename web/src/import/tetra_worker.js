// Module worker: tetrahedralizes one surface with its own wasm instance, so the page keeps
// simulating and drawing meanwhile. Messages in: { surface, options }. Out: { type: 'progress',
// progress } between slices, then { type: 'done', positions, tets, stats } (arrays transferred) or
// { type: 'error', error: { name, code, codeName, message } }. Cancelling = terminating the worker.
import wasmUrl from '../wasm/softbody.wasm?url';
import { loadSoftbody } from '../softbody.js';
import { runTetra } from './tetra_job.js';

// Same loading as the page (main.js): Vite serves the .wasm under its own URL.
const softbody = loadSoftbody({ locateFile: (f) => (f.endsWith('.wasm') ? wasmUrl : f) });

self.onmessage = async ({ data }) => {
  try {
    const sb = await softbody;
    const result = runTetra(sb, data.surface, data.options, (progress) => self.postMessage({ type: 'progress', progress }));
    self.postMessage({ type: 'done', ...result }, [result.positions.buffer, result.tets.buffer]);
  } catch (error) {
    const { name = 'Error', code = null, codeName = null } = error ?? {};
    self.postMessage({ type: 'error', error: { name, code, codeName, message: String(error?.message ?? error) } });
  }
};
