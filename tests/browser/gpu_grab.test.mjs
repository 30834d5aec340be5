// Grabbing on the WebGPU backend (web/src/gpu/gpu_grab.js) against the wasm core, in headless
// Chromium on its software adapter: the same pick, drag and throw on both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowserSuite } from './harness.mjs';
import { openGpuPage } from './gpu_page.mjs';

const suite = useBrowserSuite({ webgpu: true });

test('a box grabbed by a corner, lifted and thrown, moves the same on WebGPU as on wasm', async () => {
  const { page, context, problems } = await openGpuPage(suite.browser, suite);
  try {
    const r = await page.evaluate(async () => {
      const out = { picks: {}, held: {} };
      const run = await runBoth({
        frames: 62,
        samples: [20, 50, 62],
        build: (w) => {
          const b = w.addBox({ cells: [3, 3, 3], size: [0.3, 0.3, 0.3], center: [0, 0.2, 0] });
          b.setParams({ edgeCompliance: 1e-6, volumeCompliance: 1e-9, grabRadius: 0.1 });
          return b;
        },
        // Rests 20 frames; then picked at its top corner (+x, +y, +z) and lifted 0.6 m over 30 frames
        // while swung sideways; released at frame 50 with a throw of (1, 2, 0) m/s, still in the air at frame 62.
        frame: async (w, f, b) => {
          if (f === 21) {
            await stateOf(b); // the pick reads back (the GPU body's nearestVertex uses the last read)
            const v = b.nearestVertex(0.2, 0.4, 0.2);
            const p = b.positions;
            out.picks[w.backend] = v;
            b.grabBegin(v, p[3 * v], p[3 * v + 1], p[3 * v + 2]);
            out.start = [p[3 * v], p[3 * v + 1], p[3 * v + 2]];
          } else if (f > 21 && f <= 50) {
            const t = (f - 21) / 29;
            b.grabMove(out.start[0] + 0.2 * Math.sin(3 * t), out.start[1] + 0.6 * t, out.start[2]);
          }
          if (f === 50) {
            const s = await stateOf(b);
            out.held[w.backend] = Array.from(s.positions.slice(3 * out.picks[w.backend], 3 * out.picks[w.backend] + 3));
            b.grabEnd(1, 2, 0);
          }
        },
      });
      out.samples = run.samples.map((s) => ({ frame: s.frame, diff: s.diff, lowest: Math.min(...s.gpu.positions.filter((_, i) => i % 3 === 1)) }));
      out.grabbedAfter = run.bodies.webgpu.grabbedVertex;
      out.dispatches = run.worlds.webgpu.counters.dispatches;
      try {
        run.bodies.webgpu.grabMove(0, 1, 0);
      } catch (e) {
        out.notGrabbing = `${e.name}: ${e.message}`;
      }
      run.bodies.webgpu.setParam('grabCompliance', 1e-3);
      try {
        run.bodies.webgpu.grabBegin(0, 0, 1, 0);
      } catch (e) {
        out.spring = `${e.name}: ${e.message}`;
      }
      return out;
    });
    console.log(`grab: picked ${r.picks.webgpu} / ${r.picks.wasm}; held vertex at release ${r.held.webgpu.map((v) => v.toFixed(6))} vs ${r.held.wasm.map((v) => v.toFixed(6))} m; ` +
      r.samples.map((s) => `frame ${s.frame}: max |dx| ${s.diff.toExponential(2)} m, lowest y ${s.lowest.toFixed(4)} m`).join('; '));
    assert.equal(r.picks.webgpu, r.picks.wasm, 'the same vertex picked');
    // The held vertex sits on the target (computed in float32 on both): within an ulp of 1 m, 1e-7 m.
    for (let k = 0; k < 3; ++k) assert.ok(Math.abs(r.held.webgpu[k] - r.held.wasm[k]) < 1e-6, `${r.held.webgpu} vs ${r.held.wasm}`);
    const [rest, lifted, thrown] = r.samples;
    // Resting on the ground (friction branches at the impact, as the drop in gpu_backend.test.mjs): 1 mm.
    assert.ok(rest.diff < 1e-3, `resting: ${rest.diff} m`);
    // Lifted off the ground by the corner, and thrown up: still in the air 0.2 s later.
    assert.ok(lifted.lowest > 0.05 && thrown.lowest > 0.05, `lowest y ${lifted.lowest}, ${thrown.lowest} m`);
    // Held and thrown: the held vertices follow the same float32 target on both and the rest hang from
    // them by the same passes; the difference is what the resting state carried in plus rounding.
    // Bound 1 mm (0.3 % of the body's size).
    assert.ok(lifted.diff < 1e-3, `lifted: ${lifted.diff} m`);
    assert.ok(thrown.diff < 1e-3, `thrown: ${thrown.diff} m`);
    assert.equal(r.grabbedAfter, -1);
    assert.match(r.notGrabbing, /SB_ERR_NOT_GRABBING/);
    assert.match(r.spring, /^BackendError: a spring grab/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
