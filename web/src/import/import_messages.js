// What the page says about an import: a sentence per failure (the C API's code names are for
// developers; its own message is kept after the sentence for the details), the warning for an
// open surface, and the one-line summary of a finished tetrahedralization.
import { ErrorCode, SoftbodyError, TetraLimits } from '../softbody.js';

const count = (n) => Number(n).toLocaleString('en-US');
// "1 tet", "2 tets"; "1 vertex", "2 vertices".
const counted = (n, one, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

const SENTENCES = {
  [ErrorCode.EMPTY_MESH]: 'the surface has no usable triangle: every face repeats a vertex or has no area.',
  [ErrorCode.FLAT_MESH]: 'the surface encloses no volume (it is flat, or its faces cancel out), so there is nothing to fill with tets.',
  [ErrorCode.NO_INSIDE_TETS]: 'no tet ended up inside the surface. Is it closed? A higher mesh resolution or a lower min quality may help.',
  [ErrorCode.TOO_LARGE]: `the mesh is too large: at most ${count(TetraLimits.maxVertices)} vertices and ${count(TetraLimits.maxTriangles)} triangles are accepted.`,
  [ErrorCode.NOT_FINITE]: 'the mesh has coordinates that are not finite numbers (NaN or infinity).',
  [ErrorCode.INDEX_OUT_OF_RANGE]: 'a triangle or tet refers to a vertex the mesh does not have.',
  [ErrorCode.DEGENERATE_TET]: 'a tet is flat (zero volume) or uses a vertex twice.',
  [ErrorCode.INVERTED_TET]: 'a tet is inside out (negative volume).',
  [ErrorCode.UNUSED_VERTEX]: 'a vertex belongs to no tet.',
  [ErrorCode.BAD_COUNT]: 'the mesh has no vertices or no triangles.',
  [ErrorCode.LIMIT]: 'the mesh is too large for the memory or the limits of the simulation.',
};

// An Error whose message is meant for the toast. name: the file or sample being imported.
export function describeImportError(error, name) {
  if (error instanceof SoftbodyError) {
    const sentence = SENTENCES[error.code];
    if (sentence) return new Error(`Could not import ${name}: ${sentence} (${error.message})`);
    return new Error(`Could not import ${name}: ${error.message}`);
  }
  // ImportError messages start with their file's name when they have one; other errors (a
  // worker that would not load) get the request's name here.
  if (error?.name === 'ImportError' && error.fileName) return new Error(`Could not import ${error.message}`);
  return new Error(`Could not import ${name}: ${error?.message ?? error}`);
}

// stats: sb_tetra_stats (Tetra.stats()). Null when the surface was closed.
export function openSurfaceWarning(stats, name) {
  if (!(stats.openEdges > 0)) return null;
  return `${name} is not a closed surface (${counted(stats.openEdges, 'open edge')}): inside and outside were guessed from the winding number. If the body looks wrong, close the holes in a modeller.`;
}

// One line for the readout, e.g. "2,345 vertices · 9,876 tets · 12 slivers removed · quality
// min 0.05, mean 0.61 · 340 ms".
export function meshSummary(stats) {
  return [
    counted(stats.vertices, 'vertex', 'vertices'),
    counted(stats.tets, 'tet'),
    `${counted(stats.slivers, 'sliver')} removed`,
    ...(stats.fragmentTets ? [`${counted(stats.fragmentTets, 'loose tet')} removed`] : []),
    `quality min ${stats.minQuality.toFixed(2)}, mean ${stats.meanQuality.toFixed(2)}`,
    `${Math.round(stats.milliseconds)} ms`,
  ].join(' · ');
}

// The same for a tet file: what was read and fixed.
export function tetFileSummary({ positions, tets, flipped, unusedVertices }) {
  const parts = [counted(positions.length / 3, 'vertex', 'vertices'), counted(tets.length / 4, 'tet')];
  if (flipped) parts.push(`${counted(flipped, 'tet')} re-oriented`);
  if (unusedVertices) parts.push(`${counted(unusedVertices, 'unused vertex', 'unused vertices')} dropped`);
  return parts.join(' · ');
}
