// Convergence by target through the bridge: Param.stiffnessTarget and Param.maxIterations are
// validated by the C API (a refused value leaves the body as it was), and Body.convergence() reports
// what the last step did.
import assert from 'node:assert/strict';
import test from 'node:test';

import { stiffnessText } from '../../web/src/convergence.js';
import { ErrorCode, Material } from '../../web/src/softbody.js';
import { load } from './load.mjs';

const sb = await load();

test('the target and the budget are validated; a refusal changes nothing', () => {
  const world = sb.createWorld();
  const body = world.addBox({ cells: [2, 2, 2], size: [0.2, 0.2, 0.2], center: [0, 0.5, 0] });
  assert.equal(body.getParam('stiffnessTarget'), 0); // documented default: no target
  assert.equal(body.getParam('maxIterations'), 16);
  for (const bad of [0.005, 1, 2, -0.1]) {
    assert.throws(() => body.setParam('stiffnessTarget', bad), (e) => e.code === ErrorCode.OUT_OF_RANGE && /stiffness target/.test(e.message));
  }
  assert.throws(() => body.setParam('stiffnessTarget', NaN), (e) => e.name === 'SoftbodyError');
  for (const bad of [0, 0.5, 101]) assert.throws(() => body.setParam('maxIterations', bad), (e) => e.code === ErrorCode.OUT_OF_RANGE);
  assert.equal(body.getParam('stiffnessTarget'), 0);
  assert.equal(body.getParam('maxIterations'), 16);
  world.destroy();
});

test('a Neo-Hookean body under a target reports met or budget spent, with the passes it ran', () => {
  const world = sb.createWorld();
  const body = world.addBox({ cells: [3, 3, 3], size: [0.3, 0.3, 0.3], center: [0, 0.3, 0] });
  assert.equal(body.convergence().status, 'notMeasured'); // before any step
  body.setParams({ material: Material.neoHookean, youngsModulus: 1e5, poissonRatio: 0.45, stiffnessTarget: 0.9, maxIterations: 6 });
  world.step(1 / 60);
  const c = body.convergence();
  assert.ok(c.status === 'met' || c.status === 'budgetSpent', c.status);
  assert.equal(c.substeps, 10);
  assert.ok(c.passes >= 10 && c.passes <= 60, String(c.passes));
  assert.ok(c.stiffnessReached >= 0 && c.stiffnessReached <= 1);
  assert.match(stiffnessText(c), /^stiffness reached ≈ \d+ %/);
  // Budget 1 and a target it cannot meet in one pass right after release: spent, and said so.
  body.setParams({ maxIterations: 1, stiffnessTarget: 0.999 });
  world.step(1 / 60);
  assert.equal(body.convergence().status, 'budgetSpent');
  assert.equal(body.convergence().passes, 10);
  assert.match(stiffnessText(body.convergence()), /budget spent/);
  world.destroy();
});
