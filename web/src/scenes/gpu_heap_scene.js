// The demo page's GPU heap: hundreds of small soft boxes and balls dropped into a pen, every one of
// them grabbable, on WebGPU where there is an adapter. The scene is a <soft-body scenery="heap">
// (embed/) over the page's stage: the element already builds the heap on the GPU world, draws it from
// the solver's buffers and grabs on either backend. Its size comes from the session's device budget
// probe (backend_probe.js: ms per frame ~ a + b · tets): as many bodies as the probe says run at
// 60 fps, 4 to 2,000. Without WebGPU it falls back to a pile sized for one wasm thread, and says so.
import { sceneBounds, scenePreset } from './scene_presets.js';
import { addDropBody } from './scene_bodies.js';

export const GPU_HEAP_SCENE = 'gpu heap';
// Bodies without WebGPU: the page's pile has 20, and one wasm thread steps them (with contact
// between all of them) at about 60 fps (docs/benchmarks.md, scene part).
export const WASM_HEAP_COUNT = 20;
export const MIN_GPU_HEAP = 4; // a heap, even where the probe says the device is slow (its label says what runs at 60 fps)
// heap-count's most (embed/attributes.js): 2,000 bodies of ~273 tets, ~546,000 tets, past the 500,000
// a desktop GPU is meant to run at 60 fps (docs/gpu.md, Speed).
export const MAX_GPU_HEAP = 2000;

// Tets of one heap body on average (the preset alternates boxes and balls), counted on a throwaway
// wasm world the first time.
let tetsPerBody = null;
export function heapTetsPerBody(sb) {
  if (tetsPerBody === null) {
    const world = sb.createWorld();
    try {
      const drops = scenePreset('heap', { heapCount: 2 }).drops;
      tetsPerBody = drops.reduce((n, drop) => n + addDropBody(world, drop, {}).tetCount, 0) / drops.length;
    } finally {
      world.destroy();
    }
  }
  return tetsPerBody;
}

// Which backend and how many bodies: { backend, count, tets, reason }. count (from ?heap=N) fixes
// the body count on WebGPU; the probe is measured (or read from the session) either way.
export async function chooseHeap(sb, { count = null } = {}) {
  const perBody = heapTetsPerBody(sb);
  const onWasm = (why) => ({ backend: 'wasm', count: WASM_HEAP_COUNT, tets: Math.round(WASM_HEAP_COUNT * perBody), reason: why });
  if (typeof navigator === 'undefined' || !navigator.gpu) return onWasm('navigator.gpu is missing (no WebGPU in this browser, or not a secure context)');
  let probe;
  try {
    probe = await sb.probeGpu();
  } catch (error) {
    return onWasm(String(error?.message ?? error).replace(/^Softbody\.probeGpu: /, ''));
  }
  const fits = Math.floor(probe.largestTetsAt(60) / perBody);
  const n = count ?? Math.min(MAX_GPU_HEAP, Math.max(MIN_GPU_HEAP, fits));
  const tets = Math.round(n * perBody);
  const sized = count !== null ? `${n} asked for (?heap=${n})` : fits < MIN_GPU_HEAP ? `the fewest shown; this device runs ${fits} at 60 fps` : fits > MAX_GPU_HEAP ? 'the most the heap takes' : 'what this device runs at 60 fps';
  return { backend: 'webgpu', count: n, tets, probe, reason: `${sized}, by its probe ~${probe.estimateFrameMs(tets).toFixed(1)} ms a frame (${probe.key})` };
}

// The label under the scene: what runs and why, from the choice and the backend the element took.
export function heapLabel(choice, active) {
  const bodies = `${active.count.toLocaleString('en')} bodies, ${active.tets.toLocaleString('en')} tets`;
  if (active.backend === 'webgpu') return `GPU heap on WebGPU: ${bodies} (${choice.reason}) · drag any body`;
  const why = choice.backend === 'wasm' ? `no WebGPU here: ${choice.reason}` : `WebGPU was not used: ${active.reason}`;
  return `GPU heap on wasm (${why}): a pile of ${bodies}, sized for one CPU thread · drag any body`;
}

// The camera on the pen (not on the figure's body, which it would follow): from the front, above,
// far enough for the pen's width. "x y z tx ty tz" in m, the element's camera attribute.
export function heapCamera(count) {
  const { center, halfExtents } = sceneBounds(scenePreset('heap', { heapCount: count }));
  const target = [center[0] + 0.5 * halfExtents[0], 0.3, center[2]]; // the pen's side of the bounds (the figure's body is at x = 0)
  const r = 1.4 + 2.4 * Math.max(halfExtents[2], 0.5); // m
  const position = [target[0] - 0.3 * r, target[1] + 1.1 * r, target[2] + r]; // steep enough to see over the walls
  return [...position, ...target].map((v) => v.toFixed(2)).join(' ');
}

// The scene's overlay: shown over the stage while the scene is chosen.
export class GpuHeapScene {
  // root: the overlay element (its label is .gpu-heap-label); sb: the shared Softbody; count: ?heap=N.
  constructor({ root, sb, count = null, onError }) {
    Object.assign(this, { root, sb, count, onError });
    this.label = root.querySelector('.gpu-heap-label');
    this.element = null;
    this.choice = null;
    this.build = 0; // which show() is current
  }

  get active() {
    return !this.root.hidden;
  }

  // Chooses the backend and size, then puts a <soft-body> in the overlay. Resolves once it is there.
  async show() {
    const build = ++this.build;
    this.root.hidden = false;
    this.label.textContent = 'GPU heap: measuring this device…';
    const [choice] = await Promise.all([chooseHeap(this.sb, { count: this.count }), import('../embed/index.js')]);
    if (build !== this.build) return;
    this.choice = choice;
    this._removeElement();
    const el = document.createElement('soft-body');
    const attributes = { backend: choice.backend, scenery: 'heap', 'heap-count': choice.count, resolution: 3, autoplay: '', loading: 'eager', camera: heapCamera(choice.count), 'camera-follow': 'false' };
    for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, String(value));
    el.className = 'gpu-heap-figure';
    this.element = el;
    this.label.textContent = `GPU heap: building ${choice.count.toLocaleString('en')} bodies on ${choice.backend}…`;
    // The backend the figure took (a GPU build it cannot run falls back to wasm with its reason).
    el.addEventListener('load', () => {
      const active = el.activeBackend ?? { backend: 'wasm', reason: '' };
      const count = el.world ? el.world.bodyCount - 1 : choice.count; // without the figure's own body
      this.active_ = { backend: active.backend, reason: active.reason, count: choice.backend === active.backend ? choice.count : count, tets: choice.tets };
      this.label.textContent = heapLabel(choice, this.active_);
    });
    el.addEventListener('error', (event) => this.onError?.(new Error(`GPU heap: ${event.detail?.message ?? 'the figure failed'}`)));
    this.root.prepend(el);
  }

  hide() {
    ++this.build;
    this._removeElement();
    this.root.hidden = true;
  }

  // For the tests: the element, the choice and the backend it runs on.
  info() {
    return { shown: this.active, choice: this.choice && { backend: this.choice.backend, count: this.choice.count, tets: this.choice.tets }, active: this.active_ ?? null, label: this.label.textContent };
  }

  _removeElement() {
    this.element?.remove();
    this.element = null;
    this.active_ = null;
  }
}
