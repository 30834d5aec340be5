// The device budget probe's result and what it predicts, without any GPU code (gpu/gpu_probe.js
// measures it): ms per frame on this device's GPU ~ a + b * tets, kept for the browser session
// (sessionStorage) under the adapter it was measured on, so 'auto' can weigh a scene before it
// loads the GPU code.

const STORAGE_KEY = 'softbody.gpuProbe';
export const FRAME_MS_60FPS = 1000 / 60;
// One wasm thread's cost per frame (docs/gpu.md, "When auto takes WebGPU"): ~0.042 us per tet per
// substep at the default 10 substeps.
export const WASM_MS_PER_TET = 0.042e-3 * 10;

// The probe's adapter key: what identifies the device it measured.
export function adapterKey(adapter) {
  return `${adapter?.vendor ?? ''}/${adapter?.architecture ?? ''}`;
}

function storage() {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null; // storage denied (sandboxed iframe, privacy settings): the probe is kept in memory only
  }
}

let memo = null;

// The stored probe result for `key` (any adapter's when null), or null. A malformed entry counts as none.
export function storedProbe(key = null) {
  let probe = memo;
  if (!probe) {
    try {
      probe = JSON.parse(storage()?.getItem(STORAGE_KEY) ?? 'null');
    } catch {
      probe = null;
    }
  }
  if (!probe || !(Number.isFinite(probe.a) && probe.a > 0 && Number.isFinite(probe.b) && probe.b > 0)) return null;
  if (key !== null && probe.key !== key) return null;
  return withEstimates(probe);
}

export function storeProbe(probe) {
  memo = { ...probe };
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(memo));
  } catch {
    // quota or denied: the in-memory copy serves this page
  }
  return withEstimates(memo);
}

// The result with estimateFrameMs(tets) (ms per frame on the GPU) and largestTetsAt(fps).
function withEstimates(probe) {
  return {
    ...probe,
    estimateFrameMs: (tets) => probe.a + probe.b * tets,
    largestTetsAt: (fps) => Math.max(0, Math.floor((1000 / fps - probe.a) / probe.b)),
  };
}

// Why 'auto' keeps wasm for `tets` tets by the probe's estimate, or null when the GPU is faster.
export function probeKeepsWasm(probe, tets) {
  const gpu = probe.estimateFrameMs(tets), cpu = WASM_MS_PER_TET * tets;
  if (gpu < cpu) return null;
  return `${tets.toLocaleString('en')} tets, ~${gpu.toFixed(1)} ms a frame on this GPU against ~${cpu.toFixed(1)} ms on wasm`;
}

// "slow here" and what would run at 60 fps, when the estimate for `tets` is over a 60 fps frame; else ''.
export function slowNote(probe, tets) {
  const ms = probe.estimateFrameMs(tets);
  if (ms <= FRAME_MS_60FPS) return '';
  return `slow here: ~${ms.toFixed(0)} ms a frame; this device runs ${probe.largestTetsAt(60).toLocaleString('en')} tets at 60 fps`;
}
