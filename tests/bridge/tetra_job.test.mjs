// The worker's job (web/src/import/tetra_job.js) against the built wasm module in node: samples
// become tets in slices with rising progress, the same input gives the same tets, the result goes
// straight into a body whose skinned surface follows it, and C API errors come through.
import assert from 'node:assert/strict';
import test from 'node:test';

import { normalizeSurface, parseSurface } from '../../web/src/import/mesh_files.js';
import { sampleSurface } from '../../web/src/import/samples.js';
import { bindSurface, runImport, runTetra } from '../../web/src/import/tetra_job.js';
import { ErrorCode, SoftbodyError } from '../../web/src/softbody.js';
import { load } from './load.mjs';

const sb = await load();
const OPTIONS = { resolution: 8, minQuality: 0.02, thinSurface: true };

test('a sample runs in slices with rising progress and gives positive tets', async () => {
  const surface = await sampleSurface('sphere');
  const progress = [];
  const result = runTetra(sb, surface, OPTIONS, (p) => progress.push(p));
  assert.ok(result.tets.length > 0 && result.tets.length % 4 === 0);
  assert.equal(result.positions.length, 3 * result.stats.vertices);
  assert.equal(result.tets.length, 4 * result.stats.tets);
  assert.equal(progress[0], 0);
  for (let i = 1; i < progress.length; i++) assert.ok(progress[i] >= progress[i - 1], 'progress never goes back');
  assert.ok(progress.every((p) => p >= 0 && p <= 1));
  const s = result.stats;
  assert.equal(s.inputVertices, surface.positions.length / 3);
  assert.ok(s.weldedVertices < s.inputVertices, `seams and poles welded: ${s.inputVertices} -> ${s.weldedVertices}`);
  assert.equal(s.openEdges, 0, 'closed once welded');
  assert.ok(s.minQuality >= OPTIONS.minQuality, `min quality ${s.minQuality}`);
  assert.ok(Number.isInteger(s.fragmentTets) && s.fragmentTets >= 0 && s.fragmentTets < s.tets, `fragments ${s.fragmentTets}`);
  assert.equal(s.parts, 1, 'one piece after loose fragments are removed');
  assert.ok(Math.abs(s.volume - s.surfaceVolume) < 0.1 * s.surfaceVolume, `tet volume ${s.volume} vs surface ${s.surfaceVolume} m^3`);
});

test('the same input gives the same tets, also in a fresh module', async () => {
  const surface = await sampleSurface('torus');
  const a = runTetra(sb, surface, OPTIONS);
  const b = runTetra(sb, surface, OPTIONS);
  const c = runTetra(await load(), surface, OPTIONS);
  for (const other of [b, c]) {
    assert.deepEqual(Array.from(other.positions), Array.from(a.positions));
    assert.deepEqual(Array.from(other.tets), Array.from(a.tets));
  }
});

test('the result becomes a body with its surface skinned to the tets', async () => {
  const surface = await sampleSurface('bunny');
  // Every surface point inserted (no thinning): each surface vertex stays a tet corner (peeling
  // never removes a vertex's last tet), so almost none lies outside the tets; the few that do are
  // midpoints added on long edges where peeling a sliver took the other diagonal of a bent quad,
  // a hair outside. (Thinned, many lie a little outside the coarser tet boundary and are bound to
  // the nearest tet.)
  const { positions, tets } = runTetra(sb, surface, { ...OPTIONS, thinSurface: false });
  const world = sb.createWorld();
  const body = world.addTets(positions, tets);
  const outside = body.setVisual(surface.positions, surface.triangles);
  assert.ok(outside <= 0.005 * (body.visualPositions.length / 3), `${outside} surface vertices outside the tets`);
  for (let v = 0; v < surface.positions.length / 3; v++) {
    // The surface's own vertices are the tets' own points, bit for bit.
    let found = false;
    for (let i = 0; i < positions.length && !found; i += 3)
      found = positions[i] === surface.positions[3 * v] && positions[i + 1] === surface.positions[3 * v + 1] && positions[i + 2] === surface.positions[3 * v + 2];
    assert.ok(found, `surface vertex ${v} is a tet corner`);
  }
  assert.equal(body.hasVisual, true);
  // The bunny's own vertices first, where they were; a few of its longest edges (around the holes
  // in its base) are longer than the tets' mean edge and were split before binding.
  const own = surface.positions.length;
  assert.ok(body.visualPositions.length >= own && body.visualPositions.length < own + 300, `${body.visualPositions.length / 3} visual vertices`);
  for (let i = 0; i < own; i++) assert.ok(Math.abs(body.visualPositions[i] - surface.positions[i]) < 1e-5, `coordinate ${i}`);
  assert.ok(body.visualTriangles.length >= surface.triangles.length);
  const y0 = body.visualPositions[1];
  for (let i = 0; i < 10; i++) world.step(1 / 60);
  assert.ok(body.visualPositions[1] < y0, 'the surface falls with the body');
  assert.ok(body.visualNormals.every(Number.isFinite));
  world.destroy();
});

// An OBJ text of the torus sample (its own vertices and triangles), as a file's bytes.
function objBytes(surface) {
  const lines = [];
  for (let i = 0; i < surface.positions.length; i += 3) lines.push(`v ${surface.positions[i]} ${surface.positions[i + 1]} ${surface.positions[i + 2]}`);
  for (let i = 0; i < surface.triangles.length; i += 3) lines.push(`f ${surface.triangles[i] + 1} ${surface.triangles[i + 1] + 1} ${surface.triangles[i + 2] + 1}`);
  return new TextEncoder().encode(lines.join('\n')).buffer;
}

test('a whole import in the worker (file bytes in) gives what the page used to make itself', async () => {
  const buffer = objBytes(await sampleSurface('torus'));
  const done = await runImport(sb, { file: { name: 'torus.obj', buffer: buffer.slice(0) } }, OPTIONS);
  // The page's old path: read and normalize, tetrahedralize, build the body, bind by searching.
  const surface = normalizeSurface(await parseSurface(buffer, 'torus.obj'), 'torus.obj');
  const tetra = runTetra(sb, surface, OPTIONS);
  assert.deepEqual(Array.from(done.surface.positions), Array.from(surface.positions));
  assert.deepEqual(Array.from(done.surface.triangles), Array.from(surface.triangles));
  assert.deepEqual(Array.from(done.positions), Array.from(tetra.positions));
  assert.deepEqual(Array.from(done.tets), Array.from(tetra.tets));
  const world = sb.createWorld();
  world.setGround(false);
  const searched = world.addTets(tetra.positions, tetra.tets);
  const outside = searched.setVisual(surface.positions, surface.triangles);
  // The page now copies the worker's binding into its own body of the same tets.
  const copied = world.addTets(done.positions, done.tets);
  copied.setCollisionFilter(1, 0); // two copies in one place: they must not push each other apart
  copied.setVisualBound(done.visual, done.visual.outside);
  assert.equal(done.visual.outside, outside);
  assert.equal(copied.visualVertexCount, searched.visualVertexCount);
  assert.deepEqual(Array.from(copied.visualTriangles), Array.from(searched.visualTriangles));
  assert.deepEqual(Array.from(copied.visualPositions), Array.from(searched.visualPositions), 'the same floats at rest');
  for (const body of [searched, copied]) body.squash(0.6);
  for (let i = 0; i < 30; i++) world.step(1 / 60);
  assert.deepEqual(Array.from(copied.visualPositions), Array.from(searched.visualPositions), 'and moving');
  assert.deepEqual(Array.from(copied.visualNormals), Array.from(searched.visualNormals));
  // Skinning can be left out (the result is then only tets).
  const bare = await runImport(sb, { surface }, { ...OPTIONS, skin: false });
  assert.equal(bare.visual, null);
  world.destroy();
});

test('a binding is checked before a body takes it', async () => {
  const surface = await sampleSurface('sphere');
  const { positions, tets } = runTetra(sb, surface, OPTIONS);
  const visual = bindSurface(sb, positions, tets, surface);
  const world = sb.createWorld();
  const body = world.addTets(positions, tets);
  const bad = (changes) => ({ ...visual, ...changes });
  const ids = visual.boundVertices.slice();
  ids[3] = positions.length / 3; // one past the last particle
  assert.throws(() => body.setVisualBound(bad({ boundVertices: ids })), (e) => e.code === ErrorCode.INDEX_OUT_OF_RANGE);
  const weights = visual.weights.slice();
  weights[0] = Infinity;
  assert.throws(() => body.setVisualBound(bad({ weights })), (e) => e.code === ErrorCode.NOT_FINITE);
  assert.throws(() => body.setVisualBound(bad({ weights: visual.weights.subarray(4) })), (e) => e.code === ErrorCode.BAD_COUNT);
  assert.equal(body.hasVisual, false, 'refused bindings change nothing');
  body.setVisualBound(visual, visual.outside);
  assert.equal(body.visualVertexCount, visual.vertexCount);
  world.destroy();
});

test('C API errors come through as SoftbodyError', () => {
  const square = { positions: Float32Array.of(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0), triangles: Uint32Array.of(0, 1, 2, 0, 2, 3) };
  assert.throws(() => runTetra(sb, square, OPTIONS), (e) => e instanceof SoftbodyError && e.code === ErrorCode.FLAT_MESH);
  const degenerate = { positions: Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0), triangles: Uint32Array.of(0, 0, 1, 1, 2, 2) };
  assert.throws(() => runTetra(sb, degenerate, OPTIONS), (e) => e instanceof SoftbodyError && e.code === ErrorCode.EMPTY_MESH);
  const nan = { positions: Float32Array.of(0, 0, 0, 1, 0, 0, 0, NaN, 0, 0, 0, 1), triangles: Uint32Array.of(0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3) };
  assert.throws(() => runTetra(sb, nan, OPTIONS), (e) => e instanceof SoftbodyError && e.code === ErrorCode.NOT_FINITE);
});

// A 1 m x 1 m plate 5 mm thick (two triangles a face): at 8 cells its thin faces, sampled by their
// thickness, want far more tets than a 10,000-tet bound.
function plate(thickness) {
  const positions = [0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, thickness, 0, 1, thickness, 0, 1, thickness, 1, 0, thickness, 1];
  const triangles = [0, 1, 2, 0, 2, 3, 4, 6, 5, 4, 7, 6, 0, 4, 5, 0, 5, 1, 1, 5, 6, 1, 6, 2, 2, 6, 7, 2, 7, 3, 3, 7, 4, 3, 4, 0];
  return { positions, triangles };
}

test('thin parts over maxTets: refused as sampled; thickened or meshed coarser within the bound, the stats say how', () => {
  const options = { ...OPTIONS, maxTets: 10000 };
  assert.throws(() => runTetra(sb, plate(0.005), options), (error) => {
    assert.equal(error.code, ErrorCode.TOO_LARGE);
    assert.ok(error.stats.estimatedTets > 10000 && error.stats.thinnest > 0);
    assert.equal(error.stats.thinParts, 'sample');
    return true;
  });
  const thick = runTetra(sb, plate(0.005), { ...options, thinParts: 'thicken' }).stats;
  assert.equal(thick.thinParts, 'thicken');
  assert.ok(thick.tets <= 10000 && thick.minQuality >= 0.1 && thick.parts === 1, JSON.stringify(thick));
  assert.ok(thick.estimatedTetsAsSampled > 10000);
  // Both faces moved out by half the difference: 1 m^2 x (T - 5 mm) more volume (float32 stats).
  assert.ok(Math.abs(thick.thickenedVolume - (thick.thickenedTo - 0.005)) < 1e-5, `${thick.thickenedVolume} m^3 at ${thick.thickenedTo} m`);
  const coarse = runTetra(sb, plate(0.005), { ...options, thinParts: 'coarsen' }).stats;
  assert.ok(coarse.tets <= 10000 && coarse.minQuality >= 0.1 && coarse.parts === 1, JSON.stringify(coarse));
  assert.equal(coarse.thickenedVolume, 0);
  assert.ok(coarse.coarsenedSpacing > 0.0025 && coarse.coarsenedSpacing <= 0.05, `${coarse.coarsenedSpacing} m`);
  assert.ok(Math.abs(coarse.volume - 0.005) < 0.02 * 0.005, `${coarse.volume} m^3`);
});
