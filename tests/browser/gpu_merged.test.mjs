// A WebGPU world runs batch k of all its bodies in one dispatch (web/src/gpu/gpu_merged.js): each
// body's constraints in the same order as alone, so the same bits as alone, and the constraint
// dispatches per substep those of the body with the most batches, not their sum.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowserSuite } from './harness.mjs';
import { openGpuPage } from './gpu_page.mjs';

const suite = useBrowserSuite({ webgpu: true });

test('three bodies in one world step to the same bits as each alone, with the constraint dispatches of one', async () => {
  const { page, context, problems } = await openGpuPage(suite.browser, suite);
  try {
    const r = await page.evaluate(async () => {
      // Different shapes (so different batch counts), compliances, damping, friction and restitution
      // (read per vertex through its body index); 2 passes, so the multipliers are kept; 0.5 s, so
      // they land on the ground at ~0.25 s.
      const specs = [
        { box: { cells: [4, 4, 4], size: [0.4, 0.4, 0.4], center: [-1, 0.5, 0] }, params: { edgeCompliance: 1e-6, volumeCompliance: 1e-9, iterations: 2, damping: 0.5, friction: 0.2, restitution: 0.3 } },
        { box: { cells: [6, 2, 2], size: [0.6, 0.2, 0.2], center: [0, 0.6, 0] }, params: { edgeCompliance: 1e-4, volumeCompliance: 0, iterations: 2, damping: 0, friction: 1, restitution: 0 } },
        { box: { cells: [3, 5, 3], size: [0.3, 0.5, 0.3], center: [1, 0.7, 0] }, params: { edgeCompliance: 0, volumeCompliance: 1e-7, iterations: 2, damping: 2, friction: 0.6, restitution: 0.8 } },
      ];
      const add = (w, spec, k) => {
        const b = w.addBox(spec.box);
        b.setParams(spec.params);
        b.setCollisionFilter(1 << k, 0); // no contact between them: each moves as it would alone
        return b;
      };
      const together = await sb.createWorld({ backend: 'webgpu' });
      const bodies = specs.map((spec, k) => add(together, spec, k));
      const alone = [];
      for (const [k, spec] of specs.entries()) {
        const w = await sb.createWorld({ backend: 'webgpu' });
        alone.push({ w, b: add(w, spec, k) });
      }
      for (let f = 0; f < 30; ++f) {
        together.step(1 / 60);
        for (const a of alone) a.w.step(1 / 60);
      }
      const diffs = [];
      for (let k = 0; k < specs.length; ++k) diffs.push(maxDiff((await stateOf(bodies[k])).positions, (await stateOf(alone[k].b)).positions));
      const count = (b, kind) => b.ranges.filter((r) => r.kind === kind).length;
      return {
        diffs,
        moved: (await stateOf(bodies[0])).positions[1] - 0.3,
        together: together.counters.dispatches,
        alone: alone.map((a) => a.w.counters.dispatches),
        ranges: together.merged.ranges.length,
        edgeBatches: bodies.map((b) => count(b, 'edges')),
        tetBatches: bodies.map((b) => count(b, 'tets')),
        substeps: together.substeps,
      };
    });
    console.log(`together ${r.together} dispatches per frame (${r.ranges} merged batches; edge batches ${r.edgeBatches}, tet batches ${r.tetBatches}), alone ${r.alone}; max |dx| ${r.diffs}`);
    // The same arithmetic on the same values in the same order: equal to the bit.
    for (const d of r.diffs) assert.equal(d, 0);
    assert.ok(r.moved < 0, 'the bodies fell');
    // Batch k of every body is one dispatch: as many merged batches as the most edge batches plus
    // the most tet batches; per substep one predict and one finish for the three bodies (no
    // colliders, grab or contact: the world's vertex buffers), and 2 passes of the batches.
    assert.equal(r.ranges, Math.max(...r.edgeBatches) + Math.max(...r.tetBatches));
    assert.equal(r.together, r.substeps * (2 + 2 * r.ranges));
    assert.ok(r.together < r.alone.reduce((a, b) => a + b, 0));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('bodies on colliders, one grabbed, with contact among them on: the same bits as each alone, dispatches per substep not growing with the count', async () => {
  const { page, context, problems } = await openGpuPage(suite.browser, suite);
  try {
    const r = await page.evaluate(async () => {
      // Each body falls onto its own collider (sphere: its face levels too; tilted box; capsule),
      // every collider in every world; body 0 is picked at frame 12 and lifted. The bodies may touch
      // (contact between bodies runs every substep) but never come near each other, so each moves as
      // alone. Their origins differ, so the colliders' poses are made relative to each on the GPU.
      const xs = [-1, 0, 1];
      const colliders = (w) => {
        w.addCollider({ shape: 'sphere', radius: 0.2, center: [-1, 0.2, 0] });
        w.addCollider({ shape: 'box', halfExtents: [0.3, 0.05, 0.3], center: [0, 0.2, 0] }).setPose([0, 0.2, 0], [0.1, 0, 0.05, 0.99]);
        w.addCollider({ shape: 'capsule', radius: 0.1, halfLength: 0.3, center: [1, 0.15, 0] }).setPose([1, 0.15, 0], [0, 0.2, 0.7, 0.69]);
      };
      const add = (w, x, z = 0) => {
        const b = w.addBox({ cells: [3, 3, 3], size: [0.3, 0.3, 0.3], center: [x + 0.03, 0.75, z] });
        b.setParams({ edgeCompliance: 1e-6, volumeCompliance: 1e-9, iterations: 2, grabRadius: 0.1 });
        return b;
      };
      const make = async (count) => {
        const w = await sb.createWorld({ backend: 'webgpu' });
        colliders(w);
        const bodies = [];
        for (let k = 0; k < count; ++k) bodies.push(add(w, xs[k % 3], 2 * Math.floor(k / 3)));
        return { w, bodies };
      };
      const together = await make(3);
      const six = await make(6);
      const alone = [];
      for (const x of xs) {
        const w = await sb.createWorld({ backend: 'webgpu' });
        colliders(w);
        alone.push({ w, bodies: [add(w, x)] });
      }
      const worlds = [together, six, ...alone];
      const grabbed = [together.bodies[0], six.bodies[0], alone[0].bodies[0]];
      for (let f = 1; f <= 40; ++f) {
        if (f === 12) {
          for (const b of grabbed) {
            await b.read();
            const v = b.nearestVertex(-1.2, 1, 0);
            b.grabBegin(v, b.positions[3 * v], b.positions[3 * v + 1], b.positions[3 * v + 2]);
          }
        } else if (f > 12) {
          for (const b of grabbed) b.grabMove(-1.2, 0.4 + 0.02 * (f - 12), 0);
        }
        for (const { w } of worlds) w.step(1 / 60);
      }
      const diffs = [];
      for (let k = 0; k < 3; ++k) diffs.push(maxDiff((await stateOf(together.bodies[k])).positions, (await stateOf(alone[k].bodies[0])).positions));
      const lowest = (await stateOf(together.bodies[1])).positions.filter((_, i) => i % 3 === 1).reduce((a, b) => Math.min(a, b));
      return {
        diffs, lowest,
        substeps: together.w.substeps,
        together: together.w.counters.dispatches,
        six: six.w.counters.dispatches,
        alone: alone.map((a) => a.w.counters.dispatches),
        levels: together.w.merged.contacts.faceRanges.length,
        ranges: together.w.merged.ranges.length,
      };
    });
    console.log(`colliders, grab, contact on: max |dx| ${r.diffs} against each alone; dispatches per frame ${r.together} (3 bodies), ${r.six} (6), alone ${r.alone}; ` +
      `${r.ranges} merged batches, ${r.levels} face levels; middle body's lowest vertex ${r.lowest.toFixed(3)} m`);
    // The same arithmetic on the same values in the same order (the collider poses' float32
    // subtraction on the GPU is the CPU's correctly rounded one): equal to the bit.
    for (const d of r.diffs) assert.equal(d, 0);
    // The middle body came down on the tilted box (top at 0.25 m) and rests on it, not the ground.
    assert.ok(r.lowest > 0.1 && r.lowest < 0.45, `lowest vertex ${r.lowest} m`);
    // Per substep: predict, place, the passes, the ground, 3 colliders' particles and the sphere's
    // and capsule's face levels, the contacts (the hash's count, allocate and scatter, detect, 8 rounds
    // of solve and apply), reground, velocities, follow: the count of one world, the same for 6 bodies as for 3.
    assert.equal(r.six, r.together);
    assert.equal(r.together, r.substeps * (1 + 1 + 2 * r.ranges + 1 + 3 + 2 * r.levels + 4 + 2 * 8 + 2 + 1));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
