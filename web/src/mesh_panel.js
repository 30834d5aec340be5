// The panel's "Mesh" folder: tetrahedralizer settings for samples and imported surfaces, the
// exploded tet view, and saving the current body as a tet file. Moving a setting re-meshes the
// current surface (the importer waits until the slider rests).
import { MESH_DEFAULTS, MESH_RANGES, THIN_PARTS_LABELS } from './settings.js';

// view: { showTets } setter object; actions: { remesh(), downloadTets() }. Returns the folder's
// controllers by key (for the panel's set()) and the current tetrahedralizer options.
export function addMeshFolder(gui, { view, actions }) {
  const model = { ...MESH_DEFAULTS, showTets: false };
  const folder = gui.addFolder('Mesh');
  const { meshResolution: cells, minQuality: quality, maxTets: bound } = MESH_RANGES;
  // "grid cells", not "resolution": the lattice's resolution slider has that name.
  const resolution = folder.add(model, 'meshResolution', cells.min, cells.max, cells.step).name('grid cells');
  resolution.domElement.title = 'resolution: interior grid cells along the longest side of the (1 m) mesh';
  const minQuality = folder.add(model, 'minQuality', quality.min, quality.max, quality.step).name('min quality');
  minQuality.domElement.title = 'tets below this quality are removed (1 = regular tet, 0 = flat)';
  for (const controller of [resolution, minQuality]) controller.onChange(() => actions.remesh());
  // Applies to the next import (no re-mesh): estimated above it, an import is refused before it runs.
  const maxTets = folder.add(model, 'maxTets', bound.min, bound.max, bound.step).name('max tets');
  maxTets.domElement.title = 'refuse an import whose tets are estimated above this, before it runs (0: no limit)';
  // Also for the next import: what to do when thin parts take it over max tets.
  const thinParts = folder.add(model, 'thinParts', THIN_PARTS_LABELS).name('thin parts');
  thinParts.domElement.title = 'when thin parts take an import over max tets: ask (more tets, thicken them, or mesh them coarser), or do one at once';
  const showTets = folder.add(model, 'showTets').name('show tets');
  showTets.onChange((on) => (view.showTets = on));
  folder.add({ downloadTets: () => actions.downloadTets() }, 'downloadTets').name('download tets');

  const controllers = new Map();
  for (const [key, controller] of [['meshResolution', resolution], ['minQuality', minQuality], ['maxTets', maxTets], ['thinParts', thinParts], ['showTets', showTets]]) {
    controllers.set(key, { controller, set: (value) => controller.setValue(value) });
  }
  return {
    controllers,
    options: () => ({ resolution: model.meshResolution, minQuality: model.minQuality, maxTets: model.maxTets, thinParts: model.thinParts }),
    // Back to MESH_DEFAULTS without re-meshing (restore defaults builds the default box anyway).
    restore() {
      Object.assign(model, MESH_DEFAULTS);
      resolution.updateDisplay();
      minQuality.updateDisplay();
      maxTets.updateDisplay();
      thinParts.updateDisplay();
    },
  };
}
