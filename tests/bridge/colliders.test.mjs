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
  // here, can slip between them; see the README's limitations.)
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
