// The backend choice behind Softbody.createWorld({ backend }): 'wasm' (the C++ core, every feature,
// the reference), 'webgpu' (gpu/gpu_world.js: tet bodies under XPBD on the GPU, a subset that
// refuses the rest) or 'auto' (WebGPU when the browser has an adapter, else wasm). The world says
// which it got (world.backend) and why (world.backendReason).

export const BACKENDS = Object.freeze(['wasm', 'webgpu', 'auto']);

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
  const { backend = 'wasm', ...rest } = options;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new TypeError(`Softbody.createWorld: unknown option ${unknown[0]} (known: backend)`);
  if (!BACKENDS.includes(backend)) throw new TypeError(`Softbody.createWorld: backend must be one of ${BACKENDS.join(', ')}, got ${String(backend)}`);
  if (backend === 'wasm') return wasmWorld(sb, 'asked for wasm');
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

function wasmWorld(sb, reason) {
  const world = sb.createWorld();
  world.backend = 'wasm';
  world.backendReason = reason;
  return world;
}
