// The normals the page draws a tet surface with (web/src/surface_normals.js), on a box lattice's
// own surface from the C API: faces get their plane's normal, and every vertex of a box edge gets
// the same diagonal normal whatever way its face triangles are cut. With an odd number of cells
// the two faces at an edge are cut differently, and area weights (three's computeVertexNormals)
// tilt the edge normals by up to 18 degrees, alternately: a dark saw-tooth along each edge of the
// comparison page's 5-cell boxes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { angleWeightedNormals } from '../../web/src/surface_normals.js';
import { load } from './load.mjs';

// Angle in degrees between vertex i's normal and the direction d (unit). The normals are float32:
// a dot product within 6e-8 of 1 is an angle of up to 0.02 degrees, so 0.05 is "the same".
const SAME_DEGREES = 0.05;
function degreesOff(normals, i, d) {
  const dot = normals[3 * i] * d[0] + normals[3 * i + 1] * d[1] + normals[3 * i + 2] * d[2];
  return (Math.acos(Math.min(1, dot)) * 180) / Math.PI;
}

test('angle-weighted normals: face interiors get their plane, every box-edge vertex the same diagonal', async () => {
  const sb = await load();
  const world = sb.createWorld();
  // 1 m cube centred at (0, 1, 0): faces at x = ±0.5, y = 0.5 and 1.5, z = ±0.5.
  const body = world.addBox({ cells: [5, 5, 5], size: [1, 1, 1], center: [0, 1, 0] });
  const positions = body.positions.slice();
  const triangles = body.triangles.slice();
  const normals = angleWeightedNormals(positions, triangles, new Float32Array(positions.length));
  const used = new Set(triangles);
  const on = (value, plane) => Math.abs(value - plane) < 1e-6;
  let faces = 0;
  let edges = 0;
  const area = { worst: 0 };
  // The same surface's area-weighted normals, for contrast: how far its edge normals stray.
  const areaNormals = new Float32Array(positions.length);
  for (let f = 0; f < triangles.length; f += 3) {
    const [a, b, c] = [3 * triangles[f], 3 * triangles[f + 1], 3 * triangles[f + 2]];
    const u = [0, 1, 2].map((k) => positions[b + k] - positions[a + k]);
    const v = [0, 1, 2].map((k) => positions[c + k] - positions[a + k]);
    const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    for (const corner of [a, b, c]) for (let k = 0; k < 3; ++k) areaNormals[corner + k] += n[k];
  }
  for (let i = 0; i < areaNormals.length; i += 3) {
    const l = Math.hypot(areaNormals[i], areaNormals[i + 1], areaNormals[i + 2]);
    for (let k = 0; k < 3; ++k) areaNormals[i + k] /= l || 1;
  }
  for (const i of used) {
    const [x, y, z] = [positions[3 * i], positions[3 * i + 1] - 1, positions[3 * i + 2]];
    // Which faces the vertex lies on, as outward unit directions.
    const planes = [];
    if (on(x, 0.5)) planes.push([1, 0, 0]);
    if (on(x, -0.5)) planes.push([-1, 0, 0]);
    if (on(y, 0.5)) planes.push([0, 1, 0]);
    if (on(y, -0.5)) planes.push([0, -1, 0]);
    if (on(z, 0.5)) planes.push([0, 0, 1]);
    if (on(z, -0.5)) planes.push([0, 0, -1]);
    if (planes.length === 1) {
      faces++;
      assert.ok(degreesOff(normals, i, planes[0]) < SAME_DEGREES, `face vertex ${i}`);
    } else if (planes.length === 2) {
      edges++;
      const d = [0, 1, 2].map((k) => (planes[0][k] + planes[1][k]) / Math.SQRT2);
      // Each face meets an edge vertex over 180 degrees, so its normal is the exact diagonal.
      assert.ok(degreesOff(normals, i, d) < SAME_DEGREES, `edge vertex ${i}: ${degreesOff(normals, i, d)} degrees off the diagonal`);
      area.worst = Math.max(area.worst, degreesOff(areaNormals, i, d));
    }
  }
  assert.equal(edges, 12 * 4); // 4 vertices inside each of the 12 edges of a 5-cell cube
  assert.equal(faces, 6 * 16);
  // What the test guards against: area weights put edge normals well off the diagonal on this mesh.
  assert.ok(area.worst > 5, `area-weighted edge normals stray ${area.worst.toFixed(1)} degrees`);
  world.destroy();
});

test('angle-weighted normals of a bulged box: each edge normal stays in its edge\'s mirror plane', async () => {
  const sb = await load();
  const world = sb.createWorld();
  const body = world.addBox({ cells: [5, 5, 5], size: [1, 1, 1], center: [0, 1, 0] });
  const rest = body.positions.slice();
  const triangles = body.triangles.slice();
  // A barrel: x and z scaled by 1 + 0.3 (1/4 - y²) about the axis (y from the centre), 7.5 % at the
  // waist. The shape is symmetric under x <-> z, so the normal at a vertical edge x = z = ±0.5 must
  // lie in the plane x = ±z; the triangulations of the two faces there are not mirror images.
  const positions = rest.slice();
  for (let i = 0; i < positions.length; i += 3) {
    const y = rest[i + 1] - 1;
    const s = 1 + 0.3 * (0.25 - y * y);
    positions[i] *= s;
    positions[i + 2] *= s;
  }
  const normals = angleWeightedNormals(positions, triangles, new Float32Array(positions.length));
  let checked = 0;
  for (let i = 0; i < rest.length / 3; i++) {
    const [x, y, z] = [rest[3 * i], rest[3 * i + 1] - 1, rest[3 * i + 2]];
    if (Math.abs(Math.abs(x) - 0.5) > 1e-6 || Math.abs(Math.abs(z) - 0.5) > 1e-6 || Math.abs(Math.abs(y) - 0.5) < 1e-6) continue;
    // Distance of the unit normal from the mirror plane x·sign(z) = z·sign(x), as an angle.
    const off = (Math.asin(Math.abs(normals[3 * i] * Math.sign(z) - normals[3 * i + 2] * Math.sign(x)) / Math.SQRT2) * 180) / Math.PI;
    assert.ok(off < SAME_DEGREES, `edge vertex ${i} at y ${y.toFixed(2)}: ${off.toFixed(3)} degrees out of its mirror plane`);
    // And it leans upward on the upper half (the barrel narrows upward), downward below.
    assert.ok(Math.sign(normals[3 * i + 1]) === Math.sign(y) || Math.abs(y) < 1e-6, `edge vertex ${i}`);
    checked++;
  }
  assert.equal(checked, 4 * 4);
  world.destroy();
});
