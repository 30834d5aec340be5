// What the page says about imports (web/src/import/import_messages.js): one sentence per C API
// code, the file's name in front, the real cause and the setting that would help (from the job's
// stats), warnings, the readout's summary. The last tests run real jobs in the wasm module.
import assert from 'node:assert/strict';
import test from 'node:test';

import { ImportError, ImportErrorKind } from '../../web/src/import/import_error.js';
import {
  describeImportError,
  importWarnings,
  isThinOverBudget,
  thinChoiceMessage,
  thinChoiceNote,
  heavyBodyWarning,
  lostVolumeWarning,
  meshSummary,
  qualityBars,
  openSurfaceWarning,
  tetFileSummary,
} from '../../web/src/import/import_messages.js';
import { runTetra } from '../../web/src/import/tetra_job.js';
import { ErrorCode, SoftbodyError } from '../../web/src/softbody.js';
import { load } from './load.mjs';

test('C API codes become sentences, with the C text kept for details', () => {
  const cases = [
    [ErrorCode.EMPTY_MESH, /no usable triangle/],
    [ErrorCode.FLAT_MESH, /encloses no volume/],
    [ErrorCode.NO_INSIDE_TETS, /no tet ended up inside the surface\.( |$)/],
    [ErrorCode.TOO_LARGE, /at most 1,000,000 vertices and 2,000,000 triangles/],
    [ErrorCode.NOT_FINITE, /not finite numbers/],
    [ErrorCode.INDEX_OUT_OF_RANGE, /refers to a vertex the mesh does not have/],
  ];
  for (const [code, sentence] of cases) {
    const shown = describeImportError(new SoftbodyError(code, 'SB_ERR_X', 'SB_ERR_X: detail from C'), 'cat.obj');
    assert.match(shown.message, /^Could not import cat\.obj: /);
    assert.match(shown.message, sentence);
    assert.match(shown.message, /\(SB_ERR_X: detail from C\)$/);
  }
  assert.equal(describeImportError(new SoftbodyError(ErrorCode.DIVERGED, 'SB_ERR_DIVERGED', 'SB_ERR_DIVERGED: boom'), 'a').message, 'Could not import a: SB_ERR_DIVERGED: boom');
});

test('file errors keep their file name; others get the request name', () => {
  assert.equal(describeImportError(new ImportError('x.stl', 'not an STL file', ImportErrorKind.UNPARSABLE), 'x.stl').message, 'Could not import x.stl: not an STL file');
  assert.equal(describeImportError(new ImportError(null, '2 meshes were given', ImportErrorKind.TOO_MANY), 'a + b').message, 'Could not import a + b: 2 meshes were given');
  assert.equal(describeImportError(new Error('the tetrahedralization worker failed'), 'bunny').message, 'Could not import bunny: the tetrahedralization worker failed');
});

test('open surfaces warn; summaries count in words', () => {
  assert.equal(openSurfaceWarning({ openEdges: 0 }, 'a.obj'), null);
  assert.match(openSurfaceWarning({ openEdges: 1 }, 'a.obj'), /^a\.obj is not a closed surface \(1 open edge\)/);
  assert.match(openSurfaceWarning({ openEdges: 1200 }, 'a.obj'), /\(1,200 open edges\)/);
  const stats = { vertices: 1, tets: 2075, slivers: 1, minQuality: 0.0207, meanQuality: 0.5795, milliseconds: 236.9 };
  assert.equal(meshSummary(stats), '1 vertex · 2,075 tets · 1 sliver removed · quality min 0.02, mean 0.58 · 237 ms');
  // With the improvement counts and the histogram: bars scaled to the tallest bin, empty bins blank.
  const improved = { ...stats, peeledSlivers: 111, refinementPoints: 1, qualityHistogram: [0, 0, 35, 62, 150, 200, 700, 916, 200, 1] };
  assert.equal(
    meshSummary(improved),
    '1 vertex · 2,075 tets · 1 sliver removed · improved: 111 slivers peeled, 1 point added · quality min 0.02, mean 0.58   ▁▁▂▃▆█▃▁ · 237 ms',
  );
  assert.equal(qualityBars([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), '');
  const mesh = { positions: new Float32Array(12), tets: new Uint32Array(4), flipped: 1, unusedVertices: 2 };
  assert.equal(tetFileSummary(mesh), '4 vertices · 1 tet · 1 tet re-oriented · 2 unused vertices dropped');
});

// A failed job's stats, as runTetra attaches them (only the fields the sentences read).
const failed = (stats) => Object.assign(new SoftbodyError(ErrorCode.NO_INSIDE_TETS, 'SB_ERR_NO_INSIDE_TETS', 'SB_ERR_NO_INSIDE_TETS: c'), { stats });
const CLOSED = { openEdges: 0, delaunayTets: 40, slivers: 40, thinThickness: 0, thinSamplesNeeded: 0, sampleBudget: 61200, volume: 0, surfaceVolume: 1 };

test('no tets inside: the real cause first, then the setting within the slider, or that none will help', () => {
  const options = { resolution: 10, minQuality: 0.02 };
  const say = (stats, o = options) => describeImportError(failed({ ...CLOSED, ...stats }), 'part.stl', o).message;
  // A closed part too thin for the sample budget: its thickness and that no setting will help,
  // never "is it closed?".
  const thin = say({ thinThickness: 0.0001, thinSamplesNeeded: 838860808 });
  assert.match(thin, /^Could not import part\.stl: no tet fits inside the surface: its thinnest parts are about 0\.1 mm thick; sampling them finely enough would take about 838,860,808 surface points, beyond this import's budget of 61,200, so no setting will mesh them whole: thicken them in a modeller\. \(SB_ERR/);
  assert.doesNotMatch(thin, /closed\?|min quality/);
  // Within reach of a finer grid: says so.
  assert.match(say({ thinThickness: 0.001, thinSamplesNeeded: 26222, sampleBudget: 10200 }), /about 26,222 surface points, beyond this import's budget of 10,200; more grid cells raise the budget \(up to 150,000\)\. \(SB_ERR/);
  // Thin, but sampled as finely as it needed: not the cause; the quality bar is.
  assert.match(say({ thinThickness: 0.2 }), /every tet inside the surface was below min quality 0\.02: lower min quality/);
  // ...unless the bar is 0 already: then nothing is advised that would not help.
  assert.match(say({}, { resolution: 10, minQuality: 0 }), /: no tet ended up inside the surface\. \(/);
  // Open: the open edges, and no setting.
  assert.match(say({ openEdges: 12 }), /the surface is open \(12 open edges\) and encloses nothing to fill: close its holes in a modeller; no setting will help\./);
  assert.match(say({ delaunayTets: 0, slivers: 0 }), /too few points to form a single tet: raise grid cells\./);
  // Without stats (an older worker): the plain sentence and the C text.
  assert.match(describeImportError(new SoftbodyError(ErrorCode.NO_INSIDE_TETS, 'X', 'X: why'), 'a').message, /^Could not import a: no tet ended up inside the surface\. \(X: why\)$/);
});

test('warnings name the cause of lost volume, cavities kept, and open surfaces', () => {
  const options = { resolution: 20, minQuality: 0.02 };
  const base = { ...CLOSED, volume: 0.9, surfaceVolume: 1, slivers: 3, cavities: 0 };
  assert.deepEqual(importWarnings(base, 'ok.obj', options), []);
  assert.equal(lostVolumeWarning({ ...base, volume: 0.95 }, 'ok.obj', options), null);
  assert.equal(
    lostVolumeWarning({ ...base, volume: 0.003, thinThickness: 0.0001, thinSamplesNeeded: 838860808 }, 'plate.obj', options),
    "plate.obj: the tets hold only 0 % of the surface's volume: parts about 0.1 mm thick got few or no tets; sampling them finely enough would take about 838,860,808 surface points, beyond this import's budget of 61,200, so no setting will mesh them whole: thicken them in a modeller.",
  );
  assert.match(lostVolumeWarning({ ...base, volume: 0.8, thinThickness: 0.3 }, 'b.obj', options), /80 % .*: 3 tets below min quality 0\.02 were removed; a lower min quality keeps more\.$/);
  assert.match(lostVolumeWarning({ ...base, volume: 0.8, slivers: 0 }, 'b.obj', options), /more grid cells follow the surface more closely\.$/);
  assert.equal(lostVolumeWarning({ ...base, volume: 0.1, openEdges: 3 }, 'b.obj', options), null, 'an open surface has its own warning');
  const all = importWarnings({ ...base, openEdges: 4, cavities: 2 }, 'h.obj', options);
  assert.equal(all.length, 2);
  assert.match(all[0], /^h\.obj is not a closed surface \(4 open edges\)/);
  assert.equal(all[1], 'h.obj has 2 closed shells inside another: they bound cavities and were kept hollow, not filled (a shell inside a cavity is solid again).');
  assert.match(importWarnings({ ...base, cavities: 1 }, 'h.obj', options)[0], /1 closed shell inside another: it bounds a cavity and was kept hollow/);
  assert.match(meshSummary({ vertices: 5, tets: 9, slivers: 0, minQuality: 0.1, meanQuality: 0.5, milliseconds: 3, cavities: 1 }), / · 1 cavity · /);
});

// Real jobs in the wasm module: what a user of the page would see.
const sb = await load();
function box(x, y, z) {
  const corners = [];
  for (let i = 0; i < 8; i++) corners.push(i & 1 ? x : 0, i & 2 ? y : 0, i & 4 ? z : 0);
  // Outward faces of the box [0,x] x [0,y] x [0,z] (corner i has bits x, y, z).
  const quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  const triangles = quads.flatMap(([a, b, c, d]) => [a, b, c, a, c, d]);
  return { positions: new Float32Array(corners), triangles: new Uint32Array(triangles) };
}
function importing(surface, options) {
  try {
    return { stats: runTetra(sb, surface, { ...options, thinSurface: true }).stats };
  } catch (error) {
    return { error };
  }
}

test('thin parts mesh whole at any grid: a 1 m rod 10 mm thick and a plate 10 mm thick at 10 cells', () => {
  for (const [name, surface] of [['rod.obj', box(1, 0.01, 0.01)], ['plate.obj', box(1, 1, 0.01)]]) {
    const { stats, error } = importing(surface, { resolution: 10, minQuality: 0.02 });
    assert.ok(stats, `${name}: ${error}`);
    assert.equal(stats.parts, 1, name);
    assert.ok(stats.volume > 0.97 * stats.surfaceVolume, `${name}: ${stats.volume} of ${stats.surfaceVolume} m^3`);
    assert.ok(stats.medialPoints > 0 || stats.thinSamplesNeeded > 0, `${name}: sampled by its thickness`);
    assert.deepEqual(importWarnings(stats, name, { resolution: 10, minQuality: 0.02 }), []);
  }
});

test('a 1 m plate 0.1 mm thick is beyond the sample budget: the message says so and that no setting helps', () => {
  const { error } = importing(box(1, 1, 0.0001), { resolution: 20, minQuality: 0.02 });
  assert.ok(error instanceof SoftbodyError && error.code === ErrorCode.NO_INSIDE_TETS, String(error));
  assert.ok(error.stats.thinSamplesNeeded > 150000, `${error.stats.thinSamplesNeeded} samples needed`);
  assert.match(
    describeImportError(error, 'plate.obj', { resolution: 20, minQuality: 0.02 }).message,
    /^Could not import plate\.obj: no tet fits inside the surface: its thinnest parts are about 0\.1 mm thick; sampling them finely enough would take about [\d,]+ surface points, beyond this import's budget of [\d,]+, so no setting will mesh them whole: thicken them in a modeller\. \(SB_ERR_NO_INSIDE_TETS: /,
  );
});

test('crossing boxes (a soup whose pieces overlap): the tets hold the union, and no lost-volume warning', () => {
  // Two 0.6 x 0.15 x 0.15 m bars crossing at their middles: union 2 x 0.0135 - 0.15^3 = 0.023625 m^3,
  // while the faces' divergence volume counts the shared cube twice (0.027 m^3, the union 88 % of it).
  const a = box(0.6, 0.15, 0.15), b = box(0.15, 0.6, 0.15);
  const shifted = b.positions.map((v, i) => (i % 3 === 0 ? v + 0.225 : i % 3 === 1 ? v - 0.225 : v));
  const surface = {
    positions: Float32Array.from([...a.positions, ...shifted]),
    triangles: Uint32Array.from([...a.triangles, ...Array.from(b.triangles, (v) => v + 8)]),
  };
  const options = { resolution: 10, minQuality: 0.02 };
  const { stats, error } = importing(surface, options);
  assert.ok(stats, String(error));
  // Within 1 %: the tets follow flat faces exactly; the overlap is measured on tets whose faces lie
  // on the crossing's planes, so only float rounding separates it from the exact value.
  assert.ok(Math.abs(stats.surfaceVolume - 0.023625) < 0.01 * 0.023625, `surface volume ${stats.surfaceVolume} m^3`);
  assert.ok(Math.abs(stats.volume - 0.023625) < 0.01 * 0.023625, `tets ${stats.volume} m^3`);
  assert.deepEqual(importWarnings(stats, 'cross.obj', options), []);
});

test('a hollow ball: the cavity is counted and named', async () => {
  const { SphereGeometry } = await import('three');
  const shell = (radius, inward) => {
    const g = new SphereGeometry(radius, 32, 16);
    const triangles = Uint32Array.from(g.index.array);
    if (inward) for (let i = 0; i < triangles.length; i += 3) [triangles[i + 1], triangles[i + 2]] = [triangles[i + 2], triangles[i + 1]];
    return { positions: Float32Array.from(g.attributes.position.array), triangles };
  };
  const outer = shell(0.5, false), inner = shell(0.3, false); // the inner one wound outward, as often exported
  const n = outer.positions.length / 3;
  const surface = {
    positions: Float32Array.from([...outer.positions, ...inner.positions]),
    triangles: Uint32Array.from([...outer.triangles, ...Array.from(inner.triangles, (v) => v + n)]),
  };
  const options = { resolution: 10, minQuality: 0.02 };
  const { stats } = importing(surface, options);
  assert.equal(stats.cavities, 1);
  const shellVolume = (4 / 3) * Math.PI * (0.5 ** 3 - 0.3 ** 3);
  assert.ok(Math.abs(stats.volume - shellVolume) < 0.06 * shellVolume, `${stats.volume} vs ${shellVolume} m^3`);
  assert.deepEqual(importWarnings(stats, 'hollow.glb', options), [
    'hollow.glb has 1 closed shell inside another: it bounds a cavity and was kept hollow, not filled (a shell inside a cavity is solid again).',
  ]);
});

test('a 1 m plate 1 mm thick at 10 cells fails, and the message says more grid cells will mesh it (at 20 it meshes)', () => {
  // Its two sides 1 mm apart want ~1.3e7 samples at full density, but sampled as coarsely as still
  // keeps both sides apart (the core's thin_samples_coarsest) they fit the 150,000 budget that more
  // grid cells give, as the 20-cell import shows.
  const { error } = importing(box(1, 1, 0.001), { resolution: 10, minQuality: 0.02 });
  assert.ok(error instanceof SoftbodyError && error.code === ErrorCode.NO_INSIDE_TETS, String(error));
  assert.ok(error.stats.thinSamplesNeeded > 150000, `${error.stats.thinSamplesNeeded} samples needed`);
  assert.ok(error.stats.thinSamplesCoarsest > 0 && error.stats.thinSamplesCoarsest <= 150000, `${error.stats.thinSamplesCoarsest} at the coarsest`);
  assert.match(error.message, /a higher resolution raises the budget/);
  assert.match(
    describeImportError(error, 'plate.obj', { resolution: 10, minQuality: 0.02 }).message,
    /its thinnest parts are about 1 mm thick; sampling them finely enough would take about [\d,]+ surface points, beyond this import's budget of [\d,]+; more grid cells raise the budget \(up to 150,000\)\./,
  );
  const { stats } = importing(box(1, 1, 0.001), { resolution: 20, minQuality: 0.02 });
  assert.ok(stats && stats.parts === 1 && stats.volume > 0.97 * stats.surfaceVolume, JSON.stringify(stats && { parts: stats.parts, volume: stats.volume }));
});

test('over a tet budget (maxTets) the import says so before it runs: the estimate and the thin parts that drive it', () => {
  // A 1 m plate 5 mm thick at 10 cells: sampled by its thickness, about 20,000 tets, against a
  // bound of 6,000 (about 1.5 x a plain 1 m ball at 10 cells). Refused before any point is placed.
  const options = { resolution: 10, minQuality: 0.02, maxTets: 6000 };
  const { error } = importing(box(1, 1, 0.005), options);
  assert.ok(error instanceof SoftbodyError && error.code === ErrorCode.TOO_LARGE, String(error));
  assert.ok(error.stats.estimatedTets > 6000, `${error.stats.estimatedTets} estimated`);
  assert.equal(error.stats.maxTets, 6000);
  assert.equal(error.stats.surfacePoints, 0, 'nothing sampled');
  assert.ok(Math.abs(error.stats.thinnest - 0.005) < 1e-4, `thinnest ${error.stats.thinnest} m`);
  assert.ok(Math.abs(error.stats.cellSize - 0.1) < 1e-6, `cell ${error.stats.cellSize} m`); // 1 m over 10 cells
  assert.match(error.message, /would give about \d+ tets at resolution 10, above max_tets = 6000/);
  assert.match(
    describeImportError(error, 'plate.obj', options).message,
    /^Could not import plate\.obj: this surface would give about [\d,]+ tets, above the limit of 6,000; parts about 5 mm thick are sampled by their thickness: thicken them to about 100 mm \(a grid cell\), or allow more tets\. \(SB_ERR_TOO_LARGE: /,
  );
  // With the page's step time per tet measured (here 2 us), the estimate's cost per frame too.
  const priced = describeImportError(error, 'plate.obj', { ...options, msPerTet: 0.002 }).message;
  const ms = Number(/about ([\d.]+) ms of physics per frame here/.exec(priced)?.[1]);
  assert.ok(Math.abs(ms - 0.002 * error.stats.estimatedTets) <= 0.05 * ms, priced);
  // Without the bound it meshes, near the estimate (within -42 % / +38 % on the core's test shapes).
  const { stats } = importing(box(1, 1, 0.005), { resolution: 10, minQuality: 0.02 });
  assert.ok(stats.tets > 0.6 * error.stats.estimatedTets && stats.tets < 1.7 * error.stats.estimatedTets, `${stats.tets} tets, ${error.stats.estimatedTets} estimated`);
  // A bound that is not a count is refused by the bridge.
  assert.throws(() => sb.createTetra(box(1, 1, 0.005).positions, box(1, 1, 0.005).triangles, { maxTets: -1 }), /maxTets/);
  assert.throws(() => sb.createTetra(box(1, 1, 0.005).positions, box(1, 1, 0.005).triangles, { maxTets: 1.5 }), /maxTets/);
});

test('thin parts over the limit: the choice offered, what each choice did, and why a choice that cannot fit is refused', () => {
  const options = { resolution: 10, minQuality: 0.02, maxTets: 15000 };
  const { error } = importing(box(1, 1, 0.005), options);
  assert.ok(isThinOverBudget(error), String(error));
  assert.match(
    thinChoiceMessage(error.stats, 'plate.obj', { ...options, msPerTet: 0.002 }),
    /^plate\.obj would give about [\d,]+ tets \(about [\d.]+ ms of physics per frame here\), above the limit of 15,000: its parts about 5 mm thick are sampled by their thickness, two samples across\. Import it with more tets, thicken the thin parts \(the shape changes\), mesh them coarser, or drop them\?$/,
  );
  // Not thin parts (a solid over the bound), or a choice already made: no offer.
  const solid = importing(box(1, 1, 1), { ...options, maxTets: 1000 }).error;
  assert.ok(solid?.code === ErrorCode.TOO_LARGE && !isThinOverBudget(solid), 'a solid over the limit: fewer cells help, nothing to choose');
  // Thickened between two spacing levels (28.75 and 57.5 mm) to land near the limit: measured 48 mm,
  // 14,582 tets of the 15,000 (at 57.5 mm, the coarser level, it was 9,909).
  const thick = importing(box(1, 1, 0.005), { ...options, thinParts: 'thicken' }).stats;
  assert.ok(thick.tets <= 15000 && thick.tets >= 0.6 * 15000, `${thick.tets} tets`);
  assert.match(thinChoiceNote(thick), /^thin parts thickened to 4[6-9] mm \(\+0\.04[2-4] m³\)$/);
  const [warning] = importWarnings(thick, 'plate.obj');
  assert.match(warning, /^plate\.obj: thin parts about 5 mm thick were thickened to 4[6-9] mm to fit the tet limit; the body is 0\.04[2-4] m³ larger than the surface \((?:9\.\d|10)× its volume\)\.$/);
  const coarse = importing(box(1, 1, 0.005), { ...options, thinParts: 'coarsen' }).stats;
  // The spacing is chosen between two levels so the estimate lands at the bound: 16.3 mm measured.
  assert.match(thinChoiceNote(coarse), /^thin parts sampled 1[5-7] mm apart$/);
  assert.equal(importWarnings(coarse, 'plate.obj').length, 0, 'the shape is kept: nothing to warn about');
  // At ten times its thickness (50 mm) the plate's estimate is 1,729: under 1,500 refused.
  const refused = importing(box(1, 1, 0.005), { ...options, maxTets: 1500, thinParts: 'coarsen' }).error;
  assert.ok(!isThinOverBudget(refused), 'a choice was made: no second offer');
  assert.match(
    describeImportError(refused, 'plate.obj', options).message,
    /^Could not import plate\.obj: this surface would give about [\d,]+ tets, above the limit of 1,500, and with its thin parts meshed as coarsely as keeps their two sides apart still about [\d,]+; fewer grid cells give fewer tets, or allow more tets\. \(SB_ERR_TOO_LARGE: .*ten times their thickness/,
  );
});

// Two boxes as one soup: the first's positions and triangles, then the second's moved by (dx, dy, dz).
function joined(a, b, [dx, dy, dz]) {
  const n = a.positions.length / 3;
  return {
    positions: new Float32Array([...a.positions, ...Array.from(b.positions, (v, i) => v + [dx, dy, dz][i % 3])]),
    triangles: new Uint32Array([...a.triangles, ...Array.from(b.triangles, (t) => t + n)]),
  };
}

test('thin parts dropped: a block loses its 5 mm fin and says how much went; a plate alone is refused; a result over the limit is named', () => {
  const options = { resolution: 10, minQuality: 0.02, maxTets: 3000 };
  // A 1 x 0.6 x 0.5 m block with a fin 5 mm thick, 0.4 m long, sunk 0.2 m and standing 0.3 m out.
  const finned = joined(box(1, 0.6, 0.5), box(0.005, 0.4, 0.5), [0.4975, 0.1, 0.3]);
  const { stats, error } = importing(finned, { ...options, thinParts: 'drop' });
  assert.ok(stats, String(error));
  assert.equal(stats.thinParts, 'drop');
  assert.equal(stats.parts, 1);
  assert.ok(stats.tets <= 3000, `${stats.tets} tets`);
  assert.ok(Math.abs(stats.volume - 0.3) < 0.0015, `${stats.volume} m³: the block alone within 0.5 %`);
  assert.equal(stats.droppedFaces, 12);
  assert.ok(Math.abs(stats.droppedVolume - 0.001) < 1e-5, `${stats.droppedVolume} m³: the fin's box`);
  assert.equal(thinChoiceNote(stats), 'parts thinner than 6.3 mm dropped (−0.001 m³)');
  assert.equal(stats.boundRetries, 0);
  assert.equal(stats.overBoundTets, 0);

  const refused = importing(box(1, 1, 0.005), { ...options, maxTets: 8000, thinParts: 'drop' }).error;
  assert.equal(refused?.code, ErrorCode.TOO_LARGE, String(refused));
  assert.ok(!isThinOverBudget(refused), 'a choice was made: no second offer');
  assert.match(
    describeImportError(refused, 'plate.obj', options).message,
    /^Could not import plate\.obj: every part of this surface is thinner than 6\.3 mm \(its thinnest about 5 mm\), so dropping thin parts would leave nothing; thicken them or mesh them coarser, or allow more tets\. \(SB_ERR_TOO_LARGE: .*would leave nothing/,
  );
  // A meshing whose result came out over the limit (the stats of such a refusal), in words.
  const over = new SoftbodyError(ErrorCode.TOO_LARGE, 'SB_ERR_TOO_LARGE', 'SB_ERR_TOO_LARGE: meshed, ...');
  over.stats = { maxTets: 25000, estimatedTets: 20901, overBoundTets: 27081, thinParts: 'sample', thinnest: 0 };
  assert.match(
    describeImportError(over, 'ball.obj', options).message,
    /^Could not import ball\.obj: meshed, this surface gave 27,081 tets, above the limit of 25,000 \(estimated 20,901\); fewer grid cells give fewer tets, or allow more tets\./,
  );
});

test('a body heavier than a 60 Hz frame at the measured step time per tet is named, with what drives its count', () => {
  const stats = { ...CLOSED, volume: 1, tets: 25000, thinnest: 0.005, cellSize: 0.1 };
  assert.equal(heavyBodyWarning(stats, 'plate.obj', { msPerTet: 0.0005 }), null, '12.5 ms fits a frame');
  assert.equal(heavyBodyWarning(stats, 'plate.obj', {}), null, 'nothing measured: nothing said');
  assert.equal(
    heavyBodyWarning(stats, 'plate.obj', { msPerTet: 0.002 }),
    'plate.obj: 25,000 tets take about 50 ms of physics per frame here, more than a 60 Hz frame; parts about 5 mm thick are sampled by their thickness at any grid: thickened in a modeller to about 100 mm (a grid cell), they would cost what a solid does.',
  );
  assert.match(heavyBodyWarning({ ...stats, thinnest: 0 }, 'ball.obj', { msPerTet: 0.002 }), /; fewer grid cells give fewer tets\.$/);
  assert.equal(importWarnings(stats, 'plate.obj', { msPerTet: 0.002 }).length, 1);
});

test('Tetra.estimateTets() before running, and the stats keep it', () => {
  const surface = box(1, 1, 1);
  const tetra = sb.createTetra(surface.positions, surface.triangles, { resolution: 10 });
  try {
    const estimate = tetra.estimateTets();
    assert.ok(Number.isInteger(estimate) && estimate > 0);
    tetra.runAll();
    const stats = tetra.stats();
    assert.equal(stats.estimatedTets, estimate);
    assert.equal(stats.maxTets, 0);
    assert.equal(stats.thinnest, 0, 'nothing under a cell thick');
    assert.ok(stats.tets > 0.6 * estimate && stats.tets < 1.7 * estimate, `${stats.tets} tets, ${estimate} estimated`);
  } finally {
    tetra.destroy();
  }
});
