// Colliders through the bridge (World.addCollider, Collider): a body comes to rest on a box
// obstacle instead of the ground, a moving paddle pushes it, and bad input is a SoftbodyError.
import assert from 'node:assert/strict';
import test from 'node:test';
import { ErrorCode, SoftbodyError } from '../../web/src/softbody.js';
import { load } from './load.mjs';

const sb = await load();

test('a body rests on a box collider, a sweeping paddle pushes it, and bad colliders are refused', () => {
  const world = sb.createWorld();
  const table = world.addCollider({ shape: 'box', halfExtents: [0.5, 0.25, 0.5], center: [0, 0.25, 0] });
  const body = world.addBox({ cells: [3, 3, 3], size: [0.3, 0.3, 0.3], center: [0, 0.8, 0] });
  body.setParam('edgeCompliance', 1e-4);
  for (let i = 0; i < 90; i++) world.step(1 / 60);
  // The table's top is at 0.5 m: the 0.3 m box rests with its centre near 0.65 m, not on the floor.
  const resting = body.stats();
  assert.ok(Math.abs(resting.center[1] - 0.65) < 0.02, `resting on the table (${resting.center[1]})`);
  assert.equal(world.colliderCount, 1);

  // A paddle swept along +x across the table top pushes the body off it. (It is wider than the
  // body: contacts are tested at the particles, so something thinner than their spacing, 10 cm
  // here, can slip between them; see the docs' limitations.)
  const paddle = world.addCollider({ shape: 'box', halfExtents: [0.05, 0.3, 0.4], center: [-0.45, 0.65, 0] });
  for (let i = 1; i <= 30; i++) {
    paddle.setPose([-0.45 + 0.05 * i, 0.65, 0], [0, 0, 0, 1]);
    world.step(1 / 60);
  }
  assert.ok(body.stats().center[0] > 0.3, `pushed along +x (${body.stats().center[0]})`);

  assert.throws(() => world.addCollider({ shape: 'sphere', radius: -1 }), (e) => e instanceof SoftbodyError && e.code === ErrorCode.OUT_OF_RANGE);
  assert.throws(() => world.addCollider({ shape: 'cone' }), /unknown collider shape "cone"/);
  assert.throws(() => paddle.setPose([0, 0, 0], [0, 0, 0, 0]), /unit quaternion/);
  table.destroy();
  assert.throws(() => table.setFriction(0.3), (e) => e.code === ErrorCode.INVALID_COLLIDER);
  assert.equal(world.colliderCount, 1);
  world.destroy();
});

test('collider restitution through the bridge: the contact vertices leave with e times their approach speed', () => {
  // A flat tet (three vertices at the bottom, one 0.1 m above) falls onto a board, one substep per
  // step. Up to the step of impact the runs with e = 0 and e = 1 are identical; in that step the
  // three bottom vertices (3/4 of the mass) leave with e x their approach speed v (the rule the
  // ground uses), so the body's momenta differ by 3/4 M e v. The tolerance (1 %) is float32
  // rounding of momenta summed over four vertices, far below what a wrong rule would give (25 %+).
  const result = {};
  for (const e of [0, 1]) {
    const world = sb.createWorld();
    world.setGround(false);
    world.setSubsteps(1);
    const board = world.addCollider({ shape: 'box', halfExtents: [1, 0.05, 1], center: [0, -0.05, 0] });
    board.setParam('restitution', e);
    assert.equal(board.getParam('restitution'), e);
    assert.equal(board.getParam('friction'), 0.5);
    const h = 0.2;
    const body = world.addTets([0, h, 0, 0.1, h, 0, 0, h, 0.1, 0, h + 0.1, 0], [0, 1, 3, 2]);
    let before = body.stats();
    for (let i = 0; i < 60 && body.stats().minY > 1e-6; i++) {
      before = body.stats();
      world.step(1 / 60);
    }
    const after = body.stats();
    assert.ok(after.minY < 1e-6, 'it reached the board');
    result[e] = { before, after };
    assert.throws(() => board.setParam('bounce', 1), /unknown collider parameter "bounce"/);
    assert.throws(() => board.setParam('restitution', 2), (err) => err.code === ErrorCode.OUT_OF_RANGE);
    assert.equal(board.getParam('restitution'), e);
    world.destroy();
  }
  const mass = result[0].after.mass;
  const approach = -result[0].before.momentum[1] / mass + 9.81 / 60; // m/s, gravity of the impact step included
  const gained = (result[1].after.momentum[1] - result[0].after.momentum[1]) / (0.75 * mass);
  assert.ok(approach > 1.5, `fast enough to bounce (${approach} m/s)`);
  assert.ok(Math.abs(gained - approach) < 0.01 * approach, `bottom vertices gained ${gained} m/s, approach ${approach} m/s`);
});

test('a mesh collider through the bridge: a closed mesh is a table, an open bowl holds a body', () => {
  // A 12-triangle box 2 m x 1 m x 2 m (closed: a solid) and a hemispherical bowl (open: a shell).
  const cube = [];
  const tris = [];
  const corners = (x, y, z) => [2 * x, y, 2 * z];
  const faces = [
    [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]], [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]],
    [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]], [[0, 1, 0], [0, 1, 1], [1, 1, 1], [1, 1, 0]],
    [[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 0]], [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 0, 1]],
  ];
  for (const face of faces) {
    const base = cube.length / 3;
    for (const c of face) cube.push(...corners(...c));
    tris.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
  const world = sb.createWorld();
  world.setGround(false);
  const table = world.addCollider({ shape: 'mesh', positions: cube, triangles: tris, center: [-1, 0, -1] });
  assert.equal(table.isSolid, true);
  const body = world.addBox({ cells: [3, 3, 3], size: [0.4, 0.4, 0.4], center: [0, 1.6, 0] });
  body.setParam('edgeCompliance', 1e-4);
  for (let i = 0; i < 90; i++) world.step(1 / 60);
  // Resting on the table's top (1 m): the lowest vertex within 5 mm of it.
  assert.ok(Math.abs(body.stats().minY - 1) < 5e-3, `on the table (${body.stats().minY})`);

  const bowl = [];
  const bowlTris = [];
  const seg = 16;
  const rings = 6;
  for (let j = 0; j <= rings; j++) {
    const theta = Math.PI / 2 + (Math.PI / 2) * (j / rings);
    for (let i = 0; i < seg; i++) {
      const phi = (2 * Math.PI * i) / seg;
      bowl.push(Math.sin(theta) * Math.cos(phi), Math.cos(theta), Math.sin(theta) * Math.sin(phi));
    }
  }
  for (let j = 0; j < rings; j++) {
    for (let i = 0; i < seg; i++) {
      const a = j * seg + i;
      const b = j * seg + ((i + 1) % seg);
      bowlTris.push(a, a + seg, b, b, a + seg, b + seg);
    }
  }
  const shell = world.addCollider({ shape: 'mesh', positions: bowl, triangles: bowlTris, thickness: 0.02, center: [5, 1, 0] });
  assert.equal(shell.isSolid, false);
  const ball = world.addBall({ radius: 0.2, cells: 4, center: [5, 0.6, 0] });
  ball.setParam('edgeCompliance', 1e-4);
  for (let i = 0; i < 120; i++) world.step(1 / 60);
  const c = ball.stats().center;
  assert.ok(c[1] > 0 && c[1] < 0.5, `held in the bowl, above its bottom at 0 m (${c[1]})`);
  assert.ok(Math.hypot(c[0] - 5, c[2]) < 0.8, 'inside the rim');

  assert.throws(() => world.addCollider({ shape: 'mesh', positions: cube }), /triangles must be an array, got undefined/);
  assert.throws(() => world.addCollider({ shape: 'mesh', positions: cube, triangles: [0, 1, 99] }), (e) => e.code === ErrorCode.INDEX_OUT_OF_RANGE);
  assert.throws(() => world.addCollider({ shape: 'mesh', positions: cube, triangles: tris, thickness: 0 }), /thickness/);
  const sphere = world.addCollider({ shape: 'sphere', radius: 0.1, center: [9, 9, 9] });
  assert.throws(() => sphere.isSolid, /not a mesh collider/);
  assert.equal(world.colliderCount, 3);
  world.destroy();
});

test('bodies collide with each other through the bridge; stats report contacts; filters let them pass', () => {
  // A box dropped on another rests on it (its lowest vertex above the lower box's top, within the
  // 5 mm contact gap and 2 mm); with a filter that excludes the pair it falls through to the ground.
  for (const excluded of [false, true]) {
    const world = sb.createWorld();
    const lower = world.addBox({ cells: [3, 3, 3], size: [0.3, 0.3, 0.3], center: [0, 0.16, 0] });
    const upper = world.addBox({ cells: [3, 3, 3], size: [0.3, 0.3, 0.3], center: [0, 0.6, 0] });
    for (const b of [lower, upper]) b.setParams({ edgeCompliance: 1e-5, damping: 0.5 });
    if (excluded) upper.setCollisionFilter(2, 0xfffffffe);
    for (let i = 0; i < 90; i++) world.step(1 / 60);
    const s = upper.stats();
    if (excluded) {
      assert.ok(s.minY < 0.01, `passed through to the ground (${s.minY})`);
    } else {
      assert.ok(s.minY > 0.3 - 0.002 && s.minY < 0.3 + 0.007, `resting on the lower box (${s.minY})`);
      assert.ok(s.contacts > 0, 'contacts counted');
      assert.ok(s.maxPenetration >= 0 && s.maxPenetration < 0.002, `penetration ${s.maxPenetration}`);
      assert.ok(lower.stats().contacts >= 16, 'the lower box touches the ground with its whole bottom face');
    }
    world.destroy();
  }
});

test('self-collision through the bridge: switched and read back, bad values refused, a hairpin arm rests on the other', () => {
  // A 1.0 x 0.3 x 0.1 m lattice with a 0.1 m slot cut between two arms (x > 0.1 m): the soft upper arm
  // sags onto the lower one. With self-collision its tip rests on the lower arm's top (0.1 m, minus the
  // lower arm's compression); without, it falls through to the ground.
  for (const self of [false, true]) {
    const world = sb.createWorld();
    const lattice = world.addBox({ cells: [20, 6, 2], size: [1, 0.3, 0.1], center: [0.5, 0.15, 0] });
    const pos = Array.from(lattice.positions);
    const tets = [];
    const src = lattice.tets;
    for (let t = 0; t < src.length; t += 4) {
      let cx = 0, cy = 0;
      for (let k = 0; k < 4; k++) {
        cx += pos[3 * src[t + k]] / 4;
        cy += pos[3 * src[t + k] + 1] / 4;
      }
      if (cx > 0.1 && cy > 0.1 && cy < 0.2) continue;
      tets.push(src[t], src[t + 1], src[t + 2], src[t + 3]);
    }
    lattice.destroy();
    // Drop the vertices the slot left unused (a body's every vertex needs a tet, for its mass).
    const remap = new Map();
    const vertices = [];
    const used = tets.map((v) => {
      if (!remap.has(v)) {
        remap.set(v, vertices.length / 3);
        vertices.push(pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]);
      }
      return remap.get(v);
    });
    const body = world.addTets(new Float32Array(vertices), new Uint32Array(used));
    body.setParams({ edgeCompliance: 2e-3, damping: 2 });
    assert.deepEqual(body.selfCollision, { enabled: false, thickness: 0.004999999888241291 });
    if (self) {
      body.setSelfCollision(true, 0.01);
      assert.equal(body.selfCollision.enabled, true);
      assert.ok(Math.abs(body.selfCollision.thickness - 0.01) < 1e-9);
      assert.throws(() => body.setSelfCollision(true, -1), (e) => e.code === ErrorCode.OUT_OF_RANGE && /thickness/.test(e.message));
      assert.throws(() => body.setSelfCollision(true, NaN), (e) => e.code === ErrorCode.NOT_FINITE);
      assert.ok(Math.abs(body.selfCollision.thickness - 0.01) < 1e-9, 'a refused call changes nothing');
    }
    for (let i = 0; i < 180; i++) world.step(1 / 60);
    let tip = Infinity;
    const x = body.positions;
    for (let v = 0; v < vertices.length / 3; v++) if (vertices[3 * v] > 0.99 && vertices[3 * v + 1] > 0.19) tip = Math.min(tip, x[3 * v + 1]);
    if (self) assert.ok(tip > 0.09 && tip < 0.15, `the upper arm's tip rests on the lower arm (${tip} m)`);
    else assert.ok(tip < 0.07, `without self-collision the arm sinks through (${tip} m)`);
    world.destroy();
  }
});
