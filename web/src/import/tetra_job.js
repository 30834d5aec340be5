// One import's heavy work, run to the end: read the file (if it is one), tetrahedralize in slices
// reporting progress between them, and bind the render surface to the tets (skinning). The worker
// (tetra_worker.js) runs it off the page's thread, so the page only has to copy the results; node
// tests run it directly.
import { SoftbodyError } from '../softbody.js';

export const SLICE_WORK = 20000; // units per sb_tetra_run call (~one point insertion each): a few ms

// sb: a loaded Softbody; surface: { positions, triangles }; options: { resolution, minQuality,
// thinSurface }. Returns { positions: Float32Array, tets: Uint32Array, stats }. Throws SoftbodyError;
// one from a run that kept no tet carries the job's stats (error.stats: the thickness of thin parts,
// open edges...), which the page's message is made from.
export function runTetra(sb, surface, options, onProgress = () => {}) {
  const tetra = sb.createTetra(surface.positions, surface.triangles, options);
  try {
    onProgress(0);
    try {
      while (!tetra.run(SLICE_WORK)) onProgress(tetra.progress);
    } catch (error) {
      if (error instanceof SoftbodyError) error.stats = tetra.stats();
      throw error;
    }
    const stats = tetra.stats(); // after the run: includes the time spent
    return { ...tetra.result(), stats };
  } finally {
    tetra.destroy();
  }
}

// The skinning binding of `surface` to the tets, as Body.visualBinding() gives it, plus `outside`
// (vertices outside every tet). Made on a body built from the same arrays the page will build its
// body from (same vertex ids, same constraint order), so Body.setVisualBound there gives exactly
// what Body.setVisual would have computed, without the search.
export function bindSurface(sb, positions, tets, surface) {
  const world = sb.createWorld();
  try {
    const body = world.addTets(positions, tets);
    const outside = body.setVisual(surface.positions, surface.triangles);
    return { ...body.visualBinding(), outside };
  } finally {
    world.destroy();
  }
}

// A whole import. input: { surface } (normalized, in m) or { file: { name, buffer } } (a mesh
// file's bytes: read and normalized here, like placement.js places every import); options as for
// runTetra plus skin (default true: also bind the surface). Resolves with { surface, positions,
// tets, stats, visual } (visual: bindSurface's result, or null). Rejects with ImportError (the
// file) or SoftbodyError (the C API).
export async function runImport(sb, input, options, onProgress = () => {}) {
  const { skin = true, ...tetraOptions } = options;
  let surface = input.surface;
  if (input.file) {
    // Loaded only for files: the readers bring Three.js (~290 kB) into the worker.
    const { normalizeSurface, parseSurface } = await import('./mesh_files.js');
    surface = normalizeSurface(await parseSurface(input.file.buffer, input.file.name), input.file.name);
  }
  const result = runTetra(sb, surface, tetraOptions, onProgress);
  const visual = skin ? bindSurface(sb, result.positions, result.tets, surface) : null;
  return { surface, ...result, visual };
}
