// Param.strainSmoothing (SB_PARAM_STRAIN_SMOOTHING) through the JS bridge: a cantilever two cells
// thick bends further with it (the C++ suite measures how far: tests/core/test_strain_smoothing.cpp),
// and where it does not run it is refused with its code and nothing changes.
import assert from 'node:assert/strict';
import test from 'node:test';

import { ErrorCode, Material } from '../../web/src/softbody.js';
import { load } from './load.mjs';

const sb = await load();

// 1 m x 0.1 m x 0.1 m, 20 x 2 x 2 cells, clamped at x = -0.5 m, Neo-Hookean 10 MPa under implicit Euler.
function cantilever(world) {
  const body = world.addBox({ cells: [20, 2, 2], size: [1, 0.1, 0.1], center: [0, 1, 0] });
  const x = body.positions;
  for (let i = 0; i < body.vertexCount; ++i) if (x[3 * i] < -0.5 + 1e-5) body.pin(i);
  body.setParams({ edgeCompliance: 1e-3, volumeCompliance: 1e-3 }); // the simple material's, so implicit Euler takes it
  body.setSolver('implicitEuler');
  body.setParams({ youngsModulus: 1e7, poissonRatio: 0.3, material: Material.neoHookean });
  return body;
}

function tipSag(body) {
  const x = body.positions;
  let sum = 0;
  let n = 0;
  for (let i = 0; i < body.vertexCount; ++i) if (x[3 * i] > 0.5 - 1e-3) (sum += 1 - x[3 * i + 1]), ++n;
  return sum / n;
}

test('strainSmoothing: the 2-cell cantilever sags ~1.6x further statically at 0.7 than with plain tets', () => {
  const world = sb.createWorld();
  world.setGround(false);
  world.setGravity(0, -0.5, 0); // m/s^2: beam theory's tip 7.5 mm, small deflection (beam theory is linear)
  const plain = cantilever(world);
  const smoothed = cantilever(world);
  smoothed.setParam('strainSmoothing', 0.7);
  assert.ok(Math.abs(smoothed.getParam('strainSmoothing') - 0.7) < 1e-7);
  plain.solveStatic();
  smoothed.solveStatic();
  // The C++ suite's measured ratios to Timoshenko: 0.604 plain, 0.961 at 0.7 (1.59x); 1.4 to 1.8 here.
  const ratio = tipSag(smoothed) / tipSag(plain);
  assert.ok(ratio > 1.4 && ratio < 1.8, `ratio ${ratio}`);
  world.destroy();
});

test('strainSmoothing is refused under XPBD and VBD, with the simple material and out of [0, 1]; the body is unchanged', () => {
  const world = sb.createWorld();
  const body = world.addBox();
  const refused = (call, code, pattern) => assert.throws(call, (e) => e.code === code && pattern.test(e.message));
  refused(() => body.setParam('strainSmoothing', 0.5), ErrorCode.OUT_OF_RANGE, /Neo-Hookean/);
  body.setParam('material', Material.neoHookean);
  refused(() => body.setParam('strainSmoothing', 0.5), ErrorCode.MATERIAL_SOLVER, /force-based/);
  body.setSolver('implicitEuler');
  refused(() => body.setParam('strainSmoothing', 1.5), ErrorCode.OUT_OF_RANGE, /strain smoothing/);
  assert.equal(body.getParam('strainSmoothing'), 0);
  body.setParam('strainSmoothing', 0.5);
  refused(() => body.setSolver('vbd'), ErrorCode.MATERIAL_SOLVER, /strain smoothing/);
  assert.equal(body.solver, 'implicitEuler');
  world.destroy();
});
