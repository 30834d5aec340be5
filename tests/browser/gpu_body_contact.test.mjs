// Contact between bodies on the WebGPU backend (web/src/gpu/gpu_body_contact.js), in headless
// Chromium on its software adapter: a head-on collision in free space keeps the total momentum, and a
// box dropped on another rests on it, the gap between them kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowserSuite } from './harness.mjs';
import { openGpuPage } from './gpu_page.mjs';

const suite = useBrowserSuite({ webgpu: true });

test('two boxes colliding head-on in free space keep their total momentum and do not pass into each other', async () => {
  const { page, context, problems } = await openGpuPage(suite.browser, suite);
  try {
    const r = await page.evaluate(async () => {
      const w = await sb.createWorld({ backend: 'webgpu' });
      w.setGround(false);
      w.setGravity(0, 0, 0);
      const options = (x) => ({ cells: [3, 3, 3], size: [0.3, 0.3, 0.3], center: [x, 1, 0] });
      const a = w.addBox(options(-0.25)), b = w.addBox(options(0.25));
      for (const body of [a, b]) body.setParams({ edgeCompliance: 1e-6, volumeCompliance: 1e-9 });
      // a at 2 m/s towards b (and a little sideways, so the contact is not symmetric), b at rest.
      const x = a.body.positions.slice();
      const v = new Float32Array(x.length);
      for (let i = 0; i < v.length; i += 3) v.set([2, 0, 0.1], i);
      a.writeState(x, v);
      const total = async () => {
        const [sa, sb2] = [await a.stats(), await b.stats()];
        return { p: sa.momentum.map((m, k) => m + sb2.momentum[k]), ke: sa.kineticEnergy + sb2.kineticEnergy, pa: sa.momentum[0], pb: sb2.momentum[0], mass: sa.mass };
      };
      const before = await total();
      let gapMin = Infinity;
      for (let f = 0; f < 30; ++f) {
        w.step(1 / 60);
        await a.read();
        await b.read();
        const A = { positions: a.positions, triangles: a.triangles }, B = { positions: b.positions, triangles: b.triangles };
        gapMin = Math.min(gapMin, deepestInside(A, B), deepestInside(B, A));
      }
      return { before, after: await total(), gapMin, dispatches: w.counters.dispatches };
    });
    console.log(`head-on: momentum ${r.before.p.map((v) => v.toFixed(6))} -> ${r.after.p.map((v) => v.toFixed(6))} kg m/s (a ${r.before.pa.toFixed(4)} -> ${r.after.pa.toFixed(4)}, b ${r.before.pb.toFixed(4)} -> ${r.after.pb.toFixed(4)}); ` +
      `kinetic ${r.before.ke.toFixed(4)} -> ${r.after.ke.toFixed(4)} J; nearest vertex to the other's surface ${(1e3 * r.gapMin).toFixed(2)} mm; ${r.dispatches} dispatches per frame`);
    // The collision happened: b took most of a's momentum along x.
    assert.ok(r.after.pb > 0.5 * r.before.pa, `b's momentum ${r.after.pb} of a's ${r.before.pa} kg m/s`);
    // Momentum: every contact's corrections sum to zero (equal scale on both sides, exact fixed-point
    // sums); what is left is float32 rounding of x and v per vertex and substep, as in free flight
    // (gpu_backend.test.mjs): 300 substeps x 3e-8 m x 600 /s per unit mass, 5.4e-3 M kg m/s at worst.
    const bound = 5.4e-3 * 2 * r.before.mass;
    for (let k = 0; k < 3; ++k) assert.ok(Math.abs(r.after.p[k] - r.before.p[k]) < bound, `momentum ${r.before.p} -> ${r.after.p}`);
    // No interpenetration: a contact pushes back once a vertex is inside the 5 mm gap, and at 2 m/s
    // the surfaces close 3.3 mm per substep, less than the gap: no vertex inside the other body at
    // any frame (measured: the nearest stays 4.1 mm outside; one passing through would be 0.3 m in).
    assert.ok(r.gapMin > 0, `a vertex ${r.gapMin} m inside the other body`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a box dropped on another comes to rest on it, the contact gap kept between their faces, at the height the wasm core gives', async () => {
  const { page, context, problems } = await openGpuPage(suite.browser, suite);
  try {
    const r = await page.evaluate(async () => {
      const w = await sb.createWorld({ backend: 'webgpu' });
      const options = (y) => ({ cells: [3, 3, 3], size: [0.3, 0.3, 0.3], center: [0, y, 0] });
      const lower = w.addBox(options(0.15)), upper = w.addBox(options(0.6));
      for (const body of [lower, upper]) body.setParams({ edgeCompliance: 1e-6, volumeCompliance: 1e-9, damping: 2 });
      for (let f = 0; f < 120; ++f) w.step(1 / 60);
      const [l, u] = [await lower.stats(), await upper.stats()];
      const A = { positions: upper.positions, triangles: upper.triangles }, B = { positions: lower.positions, triangles: lower.triangles };
      // The same drop on the wasm core.
      const cw = await sb.createWorld({ backend: 'wasm' });
      const [cl, cu] = [cw.addBox(options(0.15)), cw.addBox(options(0.6))];
      for (const body of [cl, cu]) body.setParams({ edgeCompliance: 1e-6, volumeCompliance: 1e-9, damping: 2 });
      for (let f = 0; f < 120; ++f) cw.step(1 / 60);
      const cpu = { upper: cu.stats().center, lower: cl.stats().center };
      return { cpu, upperIn: deepestInside(A, B), lowerIn: deepestInside(B, A), lower: l, upper: u, slid: [u.center[0] - l.center[0], u.center[2] - l.center[2]] };
    });
    const cpuOff = 1e3 * Math.hypot(r.cpu.upper[0] - r.cpu.lower[0], r.cpu.upper[2] - r.cpu.lower[2]);
    console.log(`stack on wasm: upper centre y ${r.cpu.upper[1].toFixed(4)} m, ${cpuOff.toFixed(1)} mm off the lower's axis`);
    console.log(`stack: nearest vertex to the other's surface ${(1e3 * r.upperIn).toFixed(2)} mm (upper's), ${(1e3 * r.lowerIn).toFixed(2)} mm (lower's); upper centre y ${r.upper.center[1].toFixed(4)} m, ` +
      `${(1e3 * Math.hypot(...r.slid)).toFixed(1)} mm off the lower's axis; kinetic ${r.upper.kineticEnergy.toExponential(2)} + ${r.lower.kineticEnergy.toExponential(2)} J`);
    // Resting on it (its centre 0.3 m above the lower's, less the faces' sag), apart by the 5 mm gap
    // the contact keeps: no vertex of either inside the other, none further than the gap plus 2 mm.
    assert.ok(Math.abs(r.upper.center[1] - r.lower.center[1] - 0.3) < 0.02, `centres ${r.upper.center[1]}, ${r.lower.center[1]} m`);
    assert.ok(r.upperIn > 0 && r.lowerIn > 0, `inside by ${r.upperIn}, ${r.lowerIn} m`);
    assert.ok(Math.min(r.upperIn, r.lowerIn) < 0.007, `${r.upperIn}, ${r.lowerIn} m apart`);
    // The wasm core's contacts (one after another, not all at once) bring it to rest at the height
    // the same gap and the same sag under the same weight give: within 1 mm (measured 2e-5 m). Where
    // it comes to rest sideways is the impact's doing on both (1.5 cm and 2 cm off the axis).
    assert.ok(Math.abs(r.upper.center[1] - r.cpu.upper[1]) < 1e-3, `upper centre y ${r.upper.center[1]} vs ${r.cpu.upper[1]} m on wasm`);
    // At rest after 2 s (damping 2 /s): both still, under 1 mJ (the upper box hit at ~2.5 J).
    assert.ok(r.upper.kineticEnergy < 1e-3 && r.lower.kineticEnergy < 1e-3, `${r.upper.kineticEnergy}, ${r.lower.kineticEnergy} J`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
