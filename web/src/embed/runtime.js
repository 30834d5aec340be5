// Everything a <soft-body> needs once it comes near the viewport: three.js, the bridge and the
// wasm loader, the shared renderer, the physics and the view. The element module imports this
// file dynamically, so a page pays for it only when a figure is about to be seen.
export { sharedSoftbody } from '../wasm_module.js';
export { pageStage } from './page_stage.js';
export { Figure } from './figure.js';
export { buildOnBackend } from './figure_backend.js';
export { FigureView, VIEW_COLORS } from './figure_view.js';
export { loadMesh, fileNameOf, srcUrls } from './mesh_source.js';
export { Plot } from '../compare/plot.js';
export { ErrorCode, SoftbodyError } from '../softbody.js';
export { bunnyTets } from '../scenes/scene_bodies.js';
export { scenePreset } from '../scenes/scene_presets.js';
// The WebGPU stage (three/webgpu) is loaded only for a figure that runs on WebGPU.
export const gpuStage = (device, options) => import('./gpu_stage.js').then((m) => m.gpuStage(device, options));
