// One tetrahedralization run to the end in slices, reporting progress between them. The worker
// (tetra_worker.js) runs it off the page's thread; node tests run it directly.
export const SLICE_WORK = 20000; // units per sb_tetra_run call (~one point insertion each): a few ms

// sb: a loaded Softbody; surface: { positions, triangles }; options: { resolution, minQuality,
// thinSurface }. Returns { positions: Float32Array, tets: Uint32Array, stats }. Throws SoftbodyError.
export function runTetra(sb, surface, options, onProgress = () => {}) {
  const tetra = sb.createTetra(surface.positions, surface.triangles, options);
  try {
    onProgress(0);
    while (!tetra.run(SLICE_WORK)) onProgress(tetra.progress);
    const stats = tetra.stats(); // after the run: includes the time spent
    return { ...tetra.result(), stats };
  } finally {
    tetra.destroy();
  }
}
