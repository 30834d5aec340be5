// Where an imported mesh goes: scaled uniformly so its longest bounding-box side is 1 m, centred
// over the origin in x and z, its bottom 0.5 m above the ground (y = 0) — the same size and drop
// height as the default 1 m box (settings.js SHAPES).
import { ImportError, ImportErrorKind } from './import_error.js';

export const TARGET_SIZE = 1; // m, longest side after import
export const DROP_HEIGHT = 0.5; // m, bottom above the ground

function bounds(positions) {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const v = positions[i + k];
      if (v < min[k]) min[k] = v;
      if (v > max[k]) max[k] = v;
    }
  }
  return { min, max };
}

// Returns new positions (Float32Array, m). A mesh whose vertices are all at one point cannot be
// scaled: that is an error; a flat mesh (one side zero) is left for the C API to reject, since
// only it knows whether anything encloses volume.
export function placeOnStage(positions, fileName = null) {
  const { min, max } = bounds(positions);
  const size = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  if (!(size > 0) || !Number.isFinite(size)) {
    throw new ImportError(fileName, 'the mesh has no size: all its vertices are at one point', ImportErrorKind.FLAT);
  }
  const scale = TARGET_SIZE / size;
  const shift = [-0.5 * (min[0] + max[0]) * scale, DROP_HEIGHT - min[1] * scale, -0.5 * (min[2] + max[2]) * scale];
  const out = new Float32Array(positions.length);
  for (let i = 0; i < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) out[i + k] = positions[i + k] * scale + shift[k];
  }
  return out;
}
