// backend="wasm|webgpu|auto" of a <soft-body>: which worlds the figure's views run in, and why.
// The WebGPU backend runs a subset of the model (docs/gpu.md); a figure that needs more, or that
// 'auto' finds too small to gain, is built on wasm instead and says why: a figure never breaks on
// the backend. The GPU code is imported only when a figure may use it.
import { BackendError, autoKeepsWasm } from '../backend.js';
import { slowNote } from '../backend_probe.js';

// The first thing this figure needs that the WebGPU backend does not run yet, or null. Only what
// would fail after the build or what is cheaper to see in the values;
// the rest (src skinning, parameters) is refused by the build itself and caught there.
export function gpuRefusal(config) {
  const v = config.values;
  if (config.solvers.some((s) => s !== 'xpbd')) return `the solver ${config.solvers.find((s) => s !== 'xpbd')}`;
  if (v.material !== 'simple') return `the material ${v.material}`;
  if (config.start === 'squash') return 'squash (start="squash")';
  return null;
}

// Tets in the figure's first view (every view has the same bodies).
function figureTets(figure) {
  return figure.lanes[0].all.reduce((sum, { body }) => sum + body.tetCount, 0);
}

// Builds `figure` on the backend `asked` resolves to; returns { backend, reason }. Errors that are
// not the backend's (a value the C API refuses) propagate from the wasm build as before.
export async function buildOnBackend(figure, config, mesh, asked, isCurrent = () => true) {
  const sb = figure.softbody;
  const onWasm = (reason) => {
    figure.makeWorld = () => sb.createWorld();
    if (!figure.built || figure.makeWorldKind !== 'wasm') figure.build(config, mesh);
    figure.makeWorldKind = 'wasm';
    return { backend: 'wasm', reason };
  };
  figure.makeWorldKind = null;
  if (asked === 'wasm') return onWasm('asked for wasm');
  if (asked === 'auto') {
    // The scene's size decides first: counted on the wasm build, which stays when it is small.
    onWasm('');
    const small = autoKeepsWasm(figureTets(figure));
    if (small) return { backend: 'wasm', reason: `auto: ${small}` };
  }
  const refused = gpuRefusal(config);
  if (refused) return onWasm(`${asked}: WebGPU does not run ${refused} yet`);
  const [{ GpuWorld, requestGpu }, { probeGpu }] = await Promise.all([import('../gpu/gpu_world.js'), import('../gpu/gpu_probe.js')]);
  const gpu = (figure.gpu ??= await requestGpu()); // one device per figure, kept across rebuilds
  if (!isCurrent()) return null;
  if (!gpu.device) return onWasm(`${asked}: ${gpu.reason}`);
  // First WebGPU use in this session measures the device (off screen); later figures reuse it.
  const probe = await probeGpu(sb, gpu);
  if (!isCurrent()) return null;
  if (asked === 'auto' && !probe.cached) {
    const slower = autoKeepsWasm(figureTets(figure));
    if (slower) return { backend: 'wasm', reason: `auto: ${slower}` };
  }
  const before = figure.makeWorldKind; // 'wasm' when auto built there to count: a refusal keeps it
  try {
    figure.makeWorld = () => new GpuWorld(sb, gpu);
    figure.makeWorldKind = null;
    figure.build(config, mesh); // all views or none: a refusal leaves the figure as it was
    figure.makeWorldKind = 'webgpu';
  } catch (error) {
    // A value the C API refuses fails the wasm build the same way, which then reports it.
    figure.makeWorldKind = before;
    const what = error instanceof BackendError ? `WebGPU does not run ${error.feature} yet` : `WebGPU failed: ${String(error?.message ?? error)}`;
    return onWasm(`${asked}: ${what}`);
  }
  const slow = slowNote(probe, figureTets(figure));
  return { backend: 'webgpu', reason: `${asked === 'auto' ? `auto: ${figureTets(figure).toLocaleString('en')} tets on ` : ''}${gpu.reason}${slow ? ` · ${slow}` : ''}`, slow: slow || null };
}
