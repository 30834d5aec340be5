// The device budget probe (gpu/gpu_probe.js, backend_probe.js) in headless Chromium on SwiftShader:
// it measures, fits a line with finite positive coefficients, keeps it for the session, and 'auto'
// (Softbody.createWorld and <soft-body>) decides by it when it exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FRAME_TIMEOUT, useBrowserSuite } from './harness.mjs';
import { openGpuPage } from './gpu_page.mjs';

const suite = useBrowserSuite({ webgpu: true });

test('the probe steps boxes, fits ms = a + b * tets with finite positive a and b, and a second call reuses it', async () => {
  const { page, context, problems } = await openGpuPage(suite.browser, suite);
  try {
    const r = await page.evaluate(async () => {
      const { probeStats } = await import('/src/gpu/gpu_probe.js');
      const t0 = performance.now();
      const first = await sb.probeGpu();
      const ms = performance.now() - t0;
      const runs = probeStats.runs;
      const second = await sb.probeGpu();
      return {
        first: { a: first.a, b: first.b, samples: first.samples, cached: first.cached, key: first.key, at1k: first.estimateFrameMs(1000), largest: first.largestTetsAt(60) },
        second: { a: second.a, b: second.b, cached: second.cached }, runs, runsAfter: probeStats.runs, ms,
        stored: JSON.parse(sessionStorage.getItem('softbody.gpuProbe')),
      };
    });
    console.log(`probe (${r.first.key}): a ${r.first.a.toFixed(3)} ms, b ${(r.first.b * 1e3).toFixed(4)} us/tet; samples ${r.first.samples.map((s) => `${s.tets}: ${s.ms.toFixed(1)} ms`).join(', ')}; 60 fps up to ${r.first.largest} tets; took ${r.ms.toFixed(0)} ms`);
    assert.equal(r.first.cached, false);
    assert.equal(r.runs, 3); // one box per size
    assert.ok(Number.isFinite(r.first.a) && r.first.a > 0, `a = ${r.first.a}`);
    assert.ok(Number.isFinite(r.first.b) && r.first.b > 0, `b = ${r.first.b}`);
    // The largest box costs more than the smallest: 25x the tets cannot run in less time on any GPU.
    const [small, , big] = r.first.samples;
    assert.ok(big.ms > small.ms, JSON.stringify(r.first.samples));
    // The fitted line is consistent with its own inverse: largestTetsAt(60) costs 1/60 s.
    assert.ok(Math.abs(r.first.a + r.first.b * r.first.largest - 1000 / 60) < r.first.b + 1e-9 || r.first.largest === 0);
    // Cached: same coefficients, marked so, no box stepped, and kept in sessionStorage.
    assert.deepEqual([r.second.a, r.second.b, r.second.cached, r.runsAfter], [r.first.a, r.first.b, true, 3]);
    assert.equal(r.stored.a, r.first.a);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("auto decides by a probe result when the session has one: a fast GPU takes a 1,000-tet scene, a slow one keeps 100,000 on wasm", async () => {
  const { page, context, problems } = await openGpuPage(suite.browser, suite);
  try {
    const r = await page.evaluate(async () => {
      const { storeProbe } = await import('/src/backend_probe.js');
      const out = {};
      // Without a probe: the fixed threshold (30,000 tets).
      const none = await sb.createWorld({ backend: 'auto', tets: 1000 });
      out.none = [none.backend, none.backendReason];
      // A fast GPU: 0.1 ms floor + 1 ns per tet, against wasm's 0.42 us per tet: 1,000 tets is 0.101 vs 0.42 ms.
      storeProbe({ key: 'fake/fast', a: 0.1, b: 1e-6, samples: [] });
      const fast = await sb.createWorld({ backend: 'auto', tets: 1000 });
      out.fast = [fast.backend, fast.backendReason];
      // A slow GPU: 1 s floor; 100,000 tets is 42 ms on wasm.
      storeProbe({ key: 'fake/slow', a: 1000, b: 1e-3, samples: [] });
      const slow = await sb.createWorld({ backend: 'auto', tets: 100000 });
      out.slow = [slow.backend, slow.backendReason];
      return out;
    });
    assert.deepEqual(r.none, ['wasm', 'auto: 1,000 tets, below the 30,000 where WebGPU gains']);
    assert.equal(r.fast[0], 'webgpu', r.fast[1]);
    assert.equal(r.slow[0], 'wasm');
    assert.equal(r.slow[1], 'auto: 100,000 tets, ~1100.0 ms a frame on this GPU against ~42.0 ms on wasm');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
