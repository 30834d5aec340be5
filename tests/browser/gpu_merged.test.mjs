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
