// Cloth tearing through the bridge (Param.tearStrain, body_topology.js): when the sheet tears, the
// body's views (positions, triangles, normals) are made again with the new counts, so a renderer
// reading them sees the new vertices; views taken before stay the old length and are not reused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from './load.mjs';

const sb = await load();

test('a torn sheet: new vertices appear in fresh zero-copy views', () => {
  const world = sb.createWorld();
  world.setGravity(0, 0, 0);
  const sheet = world.addClothRectangle({ cells: [8, 4], size: [0.8, 0.4], center: [0, 1, 0], vertical: false });
  sheet.setParam('tearStrain', 0.3);
  assert.ok(Math.abs(sheet.getParam('tearStrain') - 0.3) < 1e-7);
  const n = sheet.vertexCount;
  const before = { positions: sheet.positions, triangles: sheet.triangles, normals: sheet.normals };
  const right = [];
  for (let i = 0; i < n; i++) {
    const x = before.positions[3 * i];
    if (x < -0.399) sheet.pin(i);
    if (x > 0.399) {
      sheet.pin(i); // moved by hand below
      right.push(i);
    }
  }
  // Drag the pinned right edge out 3 cm a frame: the sheet is 30 % longer within 11 frames.
  let frames = 0;
  for (; frames < 60 && sheet.topologyVersion === 0; frames++) {
    const x = sheet.positions;
    for (const i of right) x[3 * i] += 0.03;
    world.step(1 / 60);
    void sheet.positions; // reading a view notices the change (body_topology.js)
  }
  assert.ok(sheet.topologyVersion > 0, 'it tore');
  assert.ok(sheet.vertexCount > n, `vertices ${n} -> ${sheet.vertexCount}`);
  const after = { positions: sheet.positions, triangles: sheet.triangles, normals: sheet.normals };
  assert.equal(after.positions.length, 3 * sheet.vertexCount);
  assert.equal(after.normals.length, 3 * sheet.vertexCount);
  assert.equal(after.triangles.length, 3 * sheet.triangleCount);
  assert.notEqual(after.positions, before.positions);
  assert.equal(after.triangles.buffer, after.positions.buffer); // still views of wasm memory
  // The new vertices are used by triangles and sit where the sheet is (finite, inside its span).
  let usesNew = false;
  for (const v of after.triangles) {
    assert.ok(v < sheet.vertexCount);
    usesNew ||= v >= n;
  }
  assert.ok(usesNew, 'triangles refer to the copies');
  for (let i = n; i < sheet.vertexCount; i++) {
    const x = after.positions[3 * i];
    assert.ok(Number.isFinite(x) && x > -0.5 && x < 1.2, `copy ${i} at x = ${x}`);
  }
  // The same views come back until the next change; reset mends the sheet and the views follow.
  assert.equal(sheet.positions, after.positions);
  sheet.reset();
  assert.equal(sheet.positions.length, 3 * n);
  assert.equal(sheet.vertexCount, n);
  world.destroy();
});
