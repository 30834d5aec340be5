// Module worker: one import's heavy work (tetra_job.js runImport: read the file, tetrahedralize,
// bind the surface to the tets) with its own wasm instance, so the page keeps simulating and
// drawing meanwhile and only copies the results. Messages in: { module (the compiled wasm), input:
// { surface } or { file: { name, buffer } }, options }. Out: { type: 'progress', progress } between slices, then
// { type: 'done', surface, positions, tets, stats, visual } (arrays transferred) or
// { type: 'error', error: { name, code, codeName, message, fileName, kind, stats } }. Cancelling =
// terminating the worker.
import { loadSoftbody } from '../softbody.js';
import { runImport } from './tetra_job.js';

// The page compiled the wasm once and sends the WebAssembly.Module with the request
// (wasm_module.js): the worker instantiates it, fetching and compiling nothing.
let softbody = null;

self.onmessage = async ({ data }) => {
  try {
    softbody ??= loadSoftbody({ module: data.module });
    const sb = await softbody;
    const result = await runImport(sb, data.input, data.options, (progress) => self.postMessage({ type: 'progress', progress }));
    const { surface, visual } = result;
    const transfer = [result.positions.buffer, result.tets.buffer];
    // A surface that came in by message is a copy already, so its buffers can go back too.
    if (surface.positions.buffer !== surface.triangles.buffer) transfer.push(surface.positions.buffer, surface.triangles.buffer);
    else transfer.push(surface.positions.buffer);
    if (visual) transfer.push(visual.triangles.buffer, visual.boundVertices.buffer, visual.weights.buffer);
    self.postMessage({ type: 'done', ...result }, transfer);
  } catch (error) {
    const { name = 'Error', code = null, codeName = null, fileName = null, kind = null, stats = null } = error ?? {};
    // An ImportError's message already starts with its file name: send the rest.
    const message = String(error?.message ?? error);
    const bare = name === 'ImportError' && fileName && message.startsWith(`${fileName}: `) ? message.slice(fileName.length + 2) : message;
    self.postMessage({ type: 'error', error: { name, code, codeName, message: bare, fileName, kind, stats } });
  }
};
