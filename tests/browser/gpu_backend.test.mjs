// The WebGPU backend (web/src/gpu/) against the wasm core, in headless Chromium on its software
// adapter (SwiftShader). Both run the same constraints in the same order: the GPU's batches
// (core/solver/parallel_batches.h) let each constraint see exactly the inputs the core's serial pass
// gives it, so the two differ only by float32 rounding (WGSL may contract a * b + c into one
// rounding, and its division and sqrt are not correctly rounded). Where nothing branches, that
// keeps them within micrometres; contact with friction branches (stick or slide), which turns
// those roundings into different slides, so the drop compares the settled shape and energies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowserSuite } from './harness.mjs';
import { openGpuPage } from './gpu_page.mjs';

const suite = useBrowserSuite({ webgpu: true });

const openBlank = (init) => openGpuPage(suite.browser, suite, init);

test('a box dropped on the ground settles to the same shape, height and energies on WebGPU as on wasm', async () => {
  const { page, context, problems } = await openBlank();
  try {
    const r = await page.evaluate(async () => {
      const gpu = await sb.createWorld({ backend: 'webgpu' });
      const cpu = await sb.createWorld({ backend: 'wasm' });
      // 0.4 m box of 4^3 cells (384 tets), 0.3 m above the ground, soft enough to sag visibly.
      const options = { cells: [4, 4, 4], size: [0.4, 0.4, 0.4], center: [0, 0.5, 0] };
      const params = { edgeCompliance: 1e-6, volumeCompliance: 1e-9, friction: 0.5, restitution: 0.2 };
      const g = gpu.addBox(options), c = cpu.addBox(options);
      g.setParams(params);
      c.setParams(params);
      const gravity = [0, -9.81, 0];
      const log = [];
      for (let f = 1; f <= 180; ++f) {  // 3 s: it lands at 0.25 s and is at rest after 2 s
        gpu.step(1 / 60);
        cpu.step(1 / 60);
        if (f === 12 || f === 180) {
          const a = await stateOf(g), b = await stateOf(c);
          const diff = maxDiff(a.positions, b.positions);
          const ea = energies(g, g.body, a, gravity), eb = energies(c, c, b, gravity);
          // The shape: each vertex relative to the centre of mass (the sideways slide removed).
          let shape = 0;
          for (let i = 0; i < a.positions.length; ++i) shape = Math.max(shape, Math.abs(a.positions[i] - ea.center[i % 3] - (b.positions[i] - eb.center[i % 3])));
          log.push({ frame: f, diff, shape, gpu: ea, cpu: eb });
        }
      }
      return { log, backend: gpu.backend, reason: gpu.backendReason, dispatches: gpu.counters.dispatches, batches: g.ranges.length };
    });
    const [fall, rest] = r.log;
    console.log(`drop: ${r.reason}, ${r.batches} batches, ${r.dispatches} dispatches per frame; before landing max |dx| ${fall.diff.toExponential(2)} m; ` +
      `at rest max |dx| ${rest.diff.toExponential(2)} m, shape ${rest.shape.toExponential(2)} m, centre y ${rest.gpu.center[1].toFixed(7)} vs ${rest.cpu.center[1].toFixed(7)} m, ` +
      `elastic ${rest.gpu.elastic.toExponential(4)} vs ${rest.cpu.elastic.toExponential(4)} J, kinetic ${rest.gpu.kineticEnergy.toExponential(2)} vs ${rest.cpu.kineticEnergy.toExponential(2)} J`);
    assert.equal(r.backend, 'webgpu');
    assert.match(r.reason, /swiftshader/);
    // Free fall (0.2 s, 120 substeps, no contact yet): rounding only. A coordinate of 0.5 m has a
    // float32 step of 6e-8 m; each substep a vertex gets ~40 corrections near rounding level, so
    // the two drift apart as a random walk of ~1e-7 m steps: 1e-5 m is 100 such steps in a row.
    assert.ok(fall.diff < 1e-5, `free fall: ${fall.diff} m`);
    // At rest. Where it came to rest sideways depends on the stick/slide branches of the impact:
    // within 1 mm (a quarter of a percent of its size; measured 0.14 mm). The height of the centre
    // of mass is the balance of the same constraints under the same weight: within 1e-5 m. The
    // shape (vertices about the centre of mass) keeps the spread the base had when static friction
    // caught it, which differs as the slides do: within half the bound on the slides, 5e-4 m.
    assert.ok(rest.diff < 1e-3, `settled positions differ by ${rest.diff} m`);
    assert.ok(Math.abs(rest.gpu.center[1] - rest.cpu.center[1]) < 1e-5, JSON.stringify([rest.gpu.center, rest.cpu.center]));
    assert.ok(rest.shape < 5e-4, `settled shape differs by ${rest.shape} m`);
    // Energies at rest: both still (kinetic < 1 mJ, of ~190 J at impact), the stored elastic
    // energy (its sag under its own 63 kg) the same within 1 %.
    assert.ok(rest.gpu.kineticEnergy < 1e-3 && rest.cpu.kineticEnergy < 1e-3, JSON.stringify([rest.gpu.kineticEnergy, rest.cpu.kineticEnergy]));
    assert.ok(rest.cpu.elastic > 0);
    assert.ok(Math.abs(rest.gpu.elastic - rest.cpu.elastic) < 0.01 * rest.cpu.elastic, JSON.stringify([rest.gpu.elastic, rest.cpu.elastic]));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('in free flight a spinning, stretched box keeps its momentum on WebGPU and loses energy as the wasm core does', async () => {
  const { page, context, problems } = await openBlank();
  try {
    const r = await page.evaluate(async () => {
      const gpu = await sb.createWorld({ backend: 'webgpu' });
      const cpu = await sb.createWorld({ backend: 'wasm' });
      const gravity = [0, -9.81, 0];
      const out = {};
      for (const w of [gpu, cpu]) {
        w.setGround(false);
        const b = w.addBox({ cells: [4, 3, 3], size: [0.4, 0.3, 0.3], center: [0, 1, 0] });
        b.setParams({ edgeCompliance: 1e-5, volumeCompliance: 1e-8, iterations: 2 });
        // Stretched 10 % along x about its middle, moving at (1, 2, 0) m/s and spinning at 3 rad/s about z.
        const core = b.body ?? b;
        const x = core.positions.slice();
        const v = new Float32Array(x.length);
        for (let i = 0; i < x.length; i += 3) {
          x[i] *= 1.1;
          const rx = x[i], ry = x[i + 1] - 1;
          v.set([1 - 3 * ry, 2 + 3 * rx, 0], i);
        }
        writeState(b, x, v);
        const series = [];
        for (let f = 0; f <= 30; ++f) {
          if (f > 0) w.step(1 / 60);
          if (f % 10 === 0) series.push(energies(b, core, await stateOf(b), gravity));
        }
        out[w.backend] = series;
      }
      return out;
    });
    const g = r.webgpu, c = r.wasm;
    const mass = g[0].mass;
    console.log(`free flight: momentum x ${g.map((s) => s.momentum[0].toFixed(5)).join(", ")} / ${c.map((s) => s.momentum[0].toFixed(5)).join(", ")}, y ${c.map((s) => s.momentum[1].toFixed(4)).join(", ")} wasm; y ${g.map((s) => s.momentum[1].toFixed(4)).join(', ')} kg m/s; total energy gpu ${g.map((s) => s.total.toFixed(4)).join(', ')} J, wasm ${c.map((s) => s.total.toFixed(4)).join(', ')} J`);
    // Momentum: the constraints' corrections are weighted by inverse mass, so they sum to zero
    // momentum; only gravity changes it: p = p0 + M g t. What breaks that is float32 rounding of
    // v = (x - prev) / h: up to an ulp of a coordinate (positions are relative to the body's middle,
    // |x| < 0.25 m: 3e-8 m) over h = 1/600 s, per vertex and substep. Even with every rounding the
    // same way, 300 substeps leave at most M x 300 x 3e-8 x 600 = 5.4e-3 M kg m/s (0.19 here).
    const bound = mass * 300 * 3e-8 * 600;
    for (let k = 0; k < g.length; ++k) {
      const t = (10 * k) / 60; // s
      const expected = [mass * 1, mass * (2 - 9.81 * t), 0];
      for (let i = 0; i < 3; ++i) {
        assert.ok(Math.abs(g[k].momentum[i] - expected[i]) < bound, `t ${t}: ${g[k].momentum} vs ${expected}`);
        assert.ok(Math.abs(c[k].momentum[i] - expected[i]) < bound, `wasm, t ${t}: ${c[k].momentum} vs ${expected}`);
      }
      // Energy: the same stretched body in the same passes, so the same energy within 0.5 % of it
      // (the elastic part is a small difference of near-equal lengths, the most rounding-sensitive).
      assert.ok(Math.abs(g[k].total - c[k].total) < 0.005 * Math.abs(c[k].total), `t ${t}: ${g[k].total} vs ${c[k].total} J`);
    }
    // XPBD gains no energy: the spring-back only loses (numerical damping of the implicit step).
    assert.ok(g[3].total <= g[0].total, `${g[0].total} -> ${g[3].total} J`);
    assert.ok(g[0].elastic > 1, `the stretch stores ${g[0].elastic} J`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a box hanging from pins swings the same on WebGPU as on wasm, with two passes per substep', async () => {
  const { page, context, problems } = await openBlank();
  try {
    const r = await page.evaluate(async () => {
      const runs = {};
      for (const backend of ['webgpu', 'wasm']) {
        const w = await sb.createWorld({ backend });
        w.setGround(false);
        const b = w.addBox({ cells: [6, 2, 2], size: [0.6, 0.1, 0.1], center: [0, 1, 0] });
        b.setParams({ edgeCompliance: 1e-4, volumeCompliance: 1e-7, iterations: 2, damping: 0.5 });
        const core = b.body ?? b;
        const x = core.positions;
        const pinned = [];
        for (let i = 0; i < core.vertexCount; ++i) if (x[3 * i] < -0.29) pinned.push(i); // the left end
        for (const i of pinned) b.pin(i);
        const start = x.slice();
        for (let f = 0; f < 60; ++f) w.step(1 / 60);
        const s = await stateOf(b);
        let moved = 0;
        for (const i of pinned) for (let k = 0; k < 3; ++k) moved = Math.max(moved, Math.abs(s.positions[3 * i + k] - start[3 * i + k]));
        runs[backend] = { positions: Array.from(s.positions), moved, pinned: pinned.length, tipY: Math.min(...s.positions.filter((_, i) => i % 3 === 1)) };
      }
      const diff = maxDiff(runs.webgpu.positions, runs.wasm.positions);
      return { diff, gpu: { moved: runs.webgpu.moved, pinned: runs.webgpu.pinned, tipY: runs.webgpu.tipY }, tipY: runs.wasm.tipY };
    });
    console.log(`pinned cantilever, 1 s: max |dx| ${r.diff.toExponential(2)} m; tip y ${r.gpu.tipY.toFixed(5)} vs ${r.tipY.toFixed(5)} m; pinned vertices moved ${r.gpu.moved} m`);
    assert.equal(r.gpu.pinned, 9);
    assert.equal(r.gpu.moved, 0, 'pinned vertices stay where they were, to the bit');
    assert.ok(r.tipY < 0.95, `the free end sags (${r.tipY} m)`);
    // No contact, so no branch: the two stay apart by rounding only (see the file's head). 600
    // substeps of 2 passes, a 0.6 m beam swinging ~10 cm: 1e-4 m is 0.1 % of its travel.
    assert.ok(r.diff < 1e-4, `positions differ by ${r.diff} m`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a 10^3-cell box, whose solve order the core cuts into vertex groups, spins in free flight the same on WebGPU as on wasm', async () => {
  const { page, context, problems } = await openBlank();
  try {
    const r = await page.evaluate(async () => {
      const runs = {};
      for (const backend of ['webgpu', 'wasm']) {
        const w = await sb.createWorld({ backend });
        w.setGround(false);
        const b = w.addBox({ cells: [10, 10, 10], size: [0.5, 0.5, 0.5], center: [0, 1, 0] });
        b.setParams({ edgeCompliance: 1e-5, volumeCompliance: 1e-8 });
        const core = b.body ?? b;
        const x = core.positions.slice();
        const v = new Float32Array(x.length);
        for (let i = 0; i < x.length; i += 3) v.set([-4 * (x[i + 1] - 1), 4 * x[i], 0], i); // 4 rad/s about z
        writeState(b, x, v);
        for (let f = 0; f < 30; ++f) w.step(1 / 60);
        const s = await stateOf(b);
        runs[backend] = { positions: Array.from(s.positions), batches: b.ranges?.length };
      }
      const diff = maxDiff(runs.webgpu.positions, runs.wasm.positions);
      return { diff, batches: runs.webgpu.batches };
    });
    console.log(`10^3 box spinning, 0.5 s: ${r.batches} batches, max |dx| ${r.diff.toExponential(2)} m`);
    // 6,000 tets in 1,331 vertices: more groups than one, so more batches than the 4^3 box's 74.
    assert.ok(r.batches > 74, `${r.batches} batches`);
    // No contact: rounding only. Its floor here is v = (x - prev) / h: an ulp of |x| <= 0.35 m (3e-8 m)
    // over h = 1/600 s is 1.8e-5 m/s per vertex and substep; as a random walk over 300 substeps,
    // ~3e-4 m/s, ~1e-4 m once integrated over 0.5 s, a few times that at the worst of 1,331
    // vertices: 5e-4 m (0.1 % of the box; measured 4.9e-5).
    assert.ok(r.diff < 5e-4, `positions differ by ${r.diff} m`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the WebGPU backend refuses what it does not run yet, with the feature named', async () => {
  const { page, context, problems } = await openBlank();
  try {
    const r = await page.evaluate(async () => {
      const w = await sb.createWorld({ backend: 'webgpu' });
      const b = w.addBox({ cells: [2, 2, 2], size: [0.2, 0.2, 0.2], center: [0, 1, 0] });
      const refusals = {};
      const attempt = (name, fn) => {
        try {
          fn();
          refusals[name] = 'accepted';
        } catch (e) {
          refusals[name] = `${e.name}: ${e.message}`;
        }
      };
      attempt('meshCollider', () => w.addCollider({ shape: 'mesh', positions: [0, 0, 0, 1, 0, 0, 0, 0, 1], triangles: [0, 1, 2] }));
      attempt('cloth', () => w.addClothRectangle({}));
      attempt('neoHookean', () => b.setParam('material', 1));
      attempt('springDamping', () => b.setParam('springDamping', 5));
      attempt('vbd', () => b.setSolver('vbd'));
      attempt('selfCollision', () => b.setSelfCollision(true));
      attempt('edgeCompliance', () => b.setParam('edgeCompliance', 1e-6));
      // Density: the core's masses (density x volume shares) and ours follow; reset: back to the creation shape.
      const before = await b.stats();
      b.setParam('density', 2000);
      w.step(1 / 60);
      const after = await b.stats();
      refusals.massRatio = after.mass / before.mass;
      refusals.fell = before.center[1] - after.center[1];
      b.reset();
      refusals.resetY = (await b.stats()).center[1] - before.center[1];
      const other = w.addBox({ cells: [2, 2, 2], size: [0.2, 0.2, 0.2], center: [1, 1, 0] });
      attempt('twoBodiesTouching', () => w.step(1 / 60));
      other.setCollisionFilter(2, 0);
      attempt('twoBodiesApart', () => w.step(1 / 60));
      // With an adapter there, 'auto' takes WebGPU and names the adapter.
      const auto = await sb.createWorld({ backend: 'auto' });
      refusals.auto = `${auto.backend}: ${auto.backendReason}`;
      return refusals;
    });
    for (const name of ['meshCollider', 'cloth', 'neoHookean', 'springDamping', 'vbd', 'selfCollision'])
      assert.match(r[name], /^BackendError: .* is not supported by the webgpu backend yet/, `${name}: ${r[name]}`);
    assert.equal(r.twoBodiesTouching, 'accepted', 'contact between bodies runs (gpu_body_contact.test.mjs)');
    assert.equal(r.edgeCompliance, 'accepted');
    assert.ok(Math.abs(r.massRatio - 2) < 1e-6, `mass x ${r.massRatio}`);
    assert.ok(r.fell > 0, `one frame of free fall moved it ${r.fell} m`);
    assert.equal(r.resetY, 0);
    assert.equal(r.twoBodiesApart, 'accepted');
    assert.match(r.auto, /^webgpu: auto: WebGPU adapter .*swiftshader/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("'auto' falls back to wasm without navigator.gpu and says so; 'webgpu' then refuses", async () => {
  const { page, context, problems } = await openBlank(() => {
    delete Navigator.prototype.gpu;
  });
  try {
    const r = await page.evaluate(async () => {
      const hasGpu = 'gpu' in navigator;
      const w = await sb.createWorld({ backend: 'auto' });
      const b = w.addBox({});
      w.step(1 / 60);
      let refused = null;
      try {
        await sb.createWorld({ backend: 'webgpu' });
      } catch (e) {
        refused = e.message;
      }
      let bad = null;
      try {
        await sb.createWorld({ backend: 'cuda' });
      } catch (e) {
        bad = e.message;
      }
      return { hasGpu, backend: w.backend, reason: w.backendReason, finite: b.stats().finite, refused, bad };
    });
    assert.equal(r.hasGpu, false);
    assert.equal(r.backend, 'wasm');
    assert.match(r.reason, /^auto: navigator\.gpu is missing/);
    assert.equal(r.finite, true);
    assert.match(r.refused, /backend 'webgpu' is not available here: navigator\.gpu is missing/);
    assert.match(r.bad, /backend must be one of wasm, webgpu, auto/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
