// The backend choice behind Softbody.createWorld({ backend }): 'wasm' (the C++ core, every feature,
// the reference), 'webgpu' (gpu/gpu_world.js: tet bodies under XPBD on the GPU, a subset that
// refuses the rest) or 'auto' (WebGPU when the browser has an adapter and the scene is big enough
// to gain, else wasm). The world says which it got (world.backend) and why (world.backendReason).

import { probeKeepsWasm, storedProbe } from './backend_probe.js';

export const BACKENDS = Object.freeze(['wasm', 'webgpu', 'auto']);

// Below this many tets 'auto' takes wasm when this session has no device probe (backend_probe.js) (docs/gpu.md, "When auto takes WebGPU"): one wasm thread
// steps ~0.042 us per tet per substep, so 30k tets cost 1.26 ms per substep (12.6 ms per 10-substep
// frame: 60 fps already), while the GPU's floor is ~124 dispatches x 10 us = 1.24 ms per substep on
// an integrated GPU, whatever the size. Below it WebGPU cannot be faster there, only add a readback.
export const GPU_MIN_TETS = 30000;

// Why 'auto' keeps wasm for a scene of `tets` tets, or null when the GPU can gain.
export function tooSmallForGpu(tets) {
  if (tets >= GPU_MIN_TETS) return null;
  return `${tets.toLocaleString('en')} tets, below the ${GPU_MIN_TETS.toLocaleString('en')} where WebGPU gains`;
}

// Why 'auto' keeps wasm for `tets` tets, or null: by this session's device probe when there is one,
// else by GPU_MIN_TETS.
export function autoKeepsWasm(tets) {
  const probe = storedProbe();
  return probe ? probeKeepsWasm(probe, tets) : tooSmallForGpu(tets);
}

// What a backend refuses to run (rather than run it differently); feature names it.
export class BackendError extends Error {
  constructor(feature, backend = 'webgpu') {
    super(`${feature} is not supported by the ${backend} backend yet (use backend: 'wasm'; docs/gpu.md lists what it runs)`);
    this.name = 'BackendError';
    this.feature = feature;
    this.backend = backend;
  }
}

// Resolves to a World (wasm) or a GpuWorld. 'webgpu' without WebGPU rejects, naming why.
export async function createWorldOn(sb, options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new TypeError('Softbody.createWorld: options must be an object like { backend: "auto" }');
  const { backend = 'wasm', tets = null, ...rest } = options;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new TypeError(`Softbody.createWorld: unknown option ${unknown[0]} (known: backend, tets)`);
  if (!BACKENDS.includes(backend)) throw new TypeError(`Softbody.createWorld: backend must be one of ${BACKENDS.join(', ')}, got ${String(backend)}`);
  if (tets !== null && !(Number.isInteger(tets) && tets >= 0)) throw new TypeError(`Softbody.createWorld: tets (the scene's tet count, for 'auto') must be a whole number >= 0, got ${String(tets)}`);
  if (backend === 'wasm') return wasmWorld(sb, 'asked for wasm');
  // 'auto' told the scene's size weighs it before loading any GPU code.
  const small = backend === 'auto' && tets !== null ? autoKeepsWasm(tets) : null;
  if (small) return wasmWorld(sb, `auto: ${small}`);
  // Loaded only here: pages that never ask for WebGPU do not download it.
  const { GpuWorld, requestGpu } = await import('./gpu/gpu_world.js');
  const gpu = await requestGpu();
  if (!gpu.device) {
    if (backend === 'webgpu') throw new Error(`Softbody.createWorld: backend 'webgpu' is not available here: ${gpu.reason}`);
    return wasmWorld(sb, `auto: ${gpu.reason}`);
  }
  const world = new GpuWorld(sb, gpu);
  world.backendReason = `${backend === 'auto' ? 'auto: ' : ''}${gpu.reason}`;
  return world;
}

// The device probe (gpu/gpu_probe.js) for this browser's GPU: { a, b, estimateFrameMs(tets),
// largestTetsAt(fps), cached }, measured on first call and kept for the session; rejects without WebGPU.
export async function probeGpuOn(sb, options) {
  const { probeGpu } = await import('./gpu/gpu_probe.js');
  const { requestGpu } = await import('./gpu/gpu_world.js');
  const gpu = await requestGpu();
  if (!gpu.device) throw new Error(`Softbody.probeGpu: WebGPU is not available here: ${gpu.reason}`);
  try {
    return await probeGpu(sb, gpu, options);
  } finally {
    gpu.device.destroy();
  }
}

function wasmWorld(sb, reason) {
  const world = sb.createWorld();
  world.backend = 'wasm';
  world.backendReason = reason;
  return world;
}
