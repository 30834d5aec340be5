// The device budget probe: on first WebGPU use, steps a few boxes off screen on this device and fits
// ms per frame ~ a + b * tets (a: the dispatch floor, b: the cost per tet), kept for the session
// under the adapter (backend_probe.js). Frames are timed from submit to queue.onSubmittedWorkDone,
// the GPU's own time for the frame, not the page's.
import { GpuWorld } from './gpu_world.js';
import { adapterKey, storeProbe, storedProbe } from '../backend_probe.js';

// Box sizes (tets, each rounded to 6 n^3) and timed frames per box, after one untimed frame that
// compiles pipelines and uploads the body.
export const PROBE_TETS = [2000, 10000, 50000];
export const PROBE_FRAMES = 3;

let running = null;
export const probeStats = { runs: 0 }; // boxes stepped by this page: the cache's test reads it

// The probe result for the device in `gpu` (from requestGpu()): the session's stored one when there
// is one for this adapter, else measured now. Calls while one runs share it.
export function probeGpu(sb, gpu, { tets = PROBE_TETS, frames = PROBE_FRAMES } = {}) {
  const key = adapterKey(gpu.adapter);
  const stored = storedProbe(key);
  if (stored) return Promise.resolve({ ...stored, cached: true });
  running ??= measure(sb, gpu, key, tets, frames).finally(() => { running = null; });
  return running;
}

async function measure(sb, gpu, key, sizes, frames) {
  const samples = [];
  for (const want of sizes) {
    const n = Math.max(1, Math.round(Math.cbrt(want / 6)));
    const world = new GpuWorld(sb, gpu);
    try {
      world.setGround(false); // free fall: the same work every frame, no contact branches
      world.addBox({ cells: [n, n, n], size: [1, 1, 1], center: [0, 1, 0] });
      probeStats.runs += 1;
      world.step(1 / 60);
      await world.done();
      let best = Infinity; // the least of a few frames: other pages' work only ever adds
      for (let f = 0; f < frames; ++f) {
        const t0 = performance.now();
        world.step(1 / 60);
        await world.done();
        best = Math.min(best, performance.now() - t0);
      }
      samples.push({ tets: 6 * n * n * n, ms: best });
    } finally {
      world.destroy();
    }
  }
  const { a, b } = fitLine(samples);
  return { ...storeProbe({ key, a, b, samples }), cached: false };
}

// Least squares ms = a + b * tets. Both are kept positive: a timer coarser than the floor can fit a
// negative intercept, and noise a flat slope; 0.05 ms and 1 ns per tet are below anything measured.
export function fitLine(samples) {
  const m = samples.length;
  const mx = samples.reduce((s, p) => s + p.tets, 0) / m, my = samples.reduce((s, p) => s + p.ms, 0) / m;
  let sxy = 0, sxx = 0;
  for (const p of samples) {
    sxy += (p.tets - mx) * (p.ms - my);
    sxx += (p.tets - mx) ** 2;
  }
  const b = Math.max(sxx > 0 ? sxy / sxx : 0, 1e-6);
  const a = Math.max(my - b * mx, 0.05);
  return { a, b };
}
