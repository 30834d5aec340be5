// Cloth through the bridge (World.addCloth*, Body.normals): the triangles and normals are live views
// of wasm memory (zero-copy, like positions), a horizontal sheet held at two corners swings down with them,
// and a bad mesh is refused with the C API's code and message, making no body.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../web/src/softbody.js';
import { load } from './load.mjs';

const sb = await load();

test('a cloth rectangle: zero-copy triangles and normals that follow the step', () => {
  const world = sb.createWorld();
  const flag = world.addClothRectangle({ cells: [8, 6], size: [1, 0.6], center: [0, 1.5, 0], vertical: false });
  assert.equal(flag.isCloth, true);
  assert.equal(flag.tetCount, 0);
  // The generator's lattice: rows of 9 and 10 vertices, two triangles per base and one more per offset row.
  assert.equal(flag.vertexCount, 4 * 9 + 3 * 10);
  assert.equal(flag.triangles.length, 3 * flag.triangleCount);
  assert.equal(flag.triangles.buffer, flag.positions.buffer); // both views of wasm memory
  const normals = flag.normals;
  assert.equal(normals.length, 3 * flag.vertexCount);
  assert.equal(normals.buffer, flag.positions.buffer);
  for (let i = 0; i < flag.vertexCount; i++) assert.ok(Math.abs(normals[3 * i + 1] - 1) < 1e-6, 'a horizontal sheet faces +y');
  // Pin the corners of its far edge (z = -0.3: rows run along -z), then let it swing for half a second.
  const corners = [];
  for (let i = 0; i < flag.vertexCount; i++) {
    const [x, z] = [flag.positions[3 * i], flag.positions[3 * i + 2]];
    if (Math.abs(z + 0.3) < 1e-6 && Math.abs(Math.abs(x) - 0.5) < 1e-6) corners.push(i);
  }
  assert.equal(corners.length, 2);
  for (const i of corners) flag.pin(i);
  const y0 = flag.stats().center[1];
  for (let f = 0; f < 30; f++) world.step(1 / 60);
  assert.ok(flag.stats().center[1] < y0 - 0.1, 'the free part swings down');
  assert.ok(flag.stats().finite);
  // The same view object sees the new normals: the sheet turned.
  assert.equal(flag.normals, normals);
  let tilted = 0;
  for (let i = 0; i < flag.vertexCount; i++) if (normals[3 * i + 1] < 0.9) tilted++;
  assert.ok(tilted > 0);
  for (let i = 0; i < flag.vertexCount; i++) {
    const n = Math.hypot(normals[3 * i], normals[3 * i + 1], normals[3 * i + 2]);
    assert.ok(Math.abs(n - 1) < 1e-5);
  }
  world.destroy();
});

test('cloth parameters, a disc, and the refusals', () => {
  const world = sb.createWorld();
  const disc = world.addClothDisc({ radius: 0.4, rings: 5, center: [0, 1, 0] });
  assert.equal(disc.vertexCount, 1 + 3 * 5 * 6);
  assert.ok(Math.abs(disc.getParam('arealDensity') - 0.2) < 1e-7);
  disc.setParam('bendingStiffness', 1e-3);
  assert.ok(Math.abs(disc.getParam('bendingStiffness') - 1e-3) < 1e-9);
  disc.setSolver('pbd');  // stretch and bending as PBD stiffness factors (tests/core/test_cloth_pbd.cpp)
  assert.equal(disc.solver, 'pbd');
  disc.setSolver('vbd');  // cloth runs under VBD and the force-based integrators (tests/core/test_cloth_solvers.cpp)
  disc.setSolver('xpbd');
  const box = world.addBox({ cells: [1, 1, 1] });
  assert.equal(box.isCloth, false);
  assert.equal(box.normals, null);
  const bodies = world.bodyCount;
  assert.throws(() => world.addCloth([0, 0, 0, 1, 0, 0, 2, 0, 0], [0, 1, 2]), (e) => e.code === ErrorCode.DEGENERATE_TRIANGLE && /zero area/.test(e.message));
  assert.throws(() => world.addCloth([0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1], [0, 1, 2, 0, 3, 2]), (e) => e.code === ErrorCode.NON_MANIFOLD);
  assert.throws(() => world.addCloth([0, 0, 0, 1, 0, 0, 1, 0, 1], [0, 1, 5]), (e) => e.code === ErrorCode.INDEX_OUT_OF_RANGE);
  assert.equal(world.bodyCount, bodies);
  const sheet = world.addCloth([0, 1, 0, 1, 1, 0, 1, 1, -1, 0, 1, -1], [0, 1, 2, 0, 2, 3]);
  assert.equal(sheet.triangleCount, 2);
  assert.ok(Math.abs(sheet.stats().mass - 0.2) < 1e-6); // 1 m^2 at 0.2 kg/m^2
  world.destroy();
});

test('wind (web/src/wind.js): a sheet with a drag coefficient is carried downwind; a bad wind is refused, nothing changed', async () => {
  const { setWind } = await import('../../web/src/wind.js');
  const world = sb.createWorld();
  world.setGravity(0, 0, 0);
  const sheet = world.addClothRectangle({ cells: [6, 6], size: [0.5, 0.5], center: [0, 1, 0], vertical: true });
  sheet.setParam('dragCoefficient', 1.2);
  assert.throws(() => setWind(world, [0, 0, 1e3]), (e) => e.code === ErrorCode.OUT_OF_RANGE);
  assert.throws(() => setWind(world, [0, 0]), /wind\[2\]/);
  world.step(1 / 60);
  assert.equal(sheet.positions[2], 0, 'no wind set yet: it stays');
  setWind(world, [0, 0, 5], { gust: 0.2, period: 1 });
  for (let f = 0; f < 30; f++) world.step(1 / 60);
  // Quadratic drag from rest (docs/physics.md#cloth): after 0.5 s about 4.5 m/s, ~1.3 m travelled.
  assert.ok(sheet.positions[2] > 0.5, `moved ${sheet.positions[2]} m downwind`);
});
