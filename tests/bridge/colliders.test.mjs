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
