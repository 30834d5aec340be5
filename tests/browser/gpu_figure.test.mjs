// <soft-body backend="wasm|webgpu|auto"> in headless Chromium on its software WebGPU adapter
// (SwiftShader): which backend a figure gets, that its label says which and why, and that whatever
// WebGPU refuses or lacks leaves a figure running on wasm, not a broken one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FRAME_TIMEOUT, useBrowserSuite } from './harness.mjs';

const suite = useBrowserSuite({ webgpu: true });

// `body` as a page on localhost (WebGPU needs a secure context) with <soft-body> registered.
// init: a script run before the page's own (e.g. removing navigator.gpu).
async function openFixture(body, init) {
  const context = await suite.browser.newContext({ viewport: { width: 480, height: 400 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  if (init) await page.addInitScript(init);
  const base = suite.url.replace('127.0.0.1', 'localhost');
  await page.route('**/gpu_fixture.html*', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
        <style>body { margin: 0; } soft-body { width: 320px; }</style></head>
        <body>${body}<script type="module" src="/src/embed/index.js"></script></body></html>`,
    }),
  );
  await page.goto(`${base}gpu_fixture.html?test`);
  return { page, context, problems };
}

// Waits for `n` frames of #id and `t` simulated seconds, then returns what it runs on, its label's
// backend line and stats.
async function figureState(page, id, n, t = 0) {
  await page.waitForFunction(([s, k, t]) => document.getElementById(s)?.frames > k && document.getElementById(s).time >= t, [id, n, t], { timeout: 3 * FRAME_TIMEOUT, polling: 50 }); // a hang, not a speed: SwiftShader on a loaded machine
  return page.evaluate((s) => {
    const el = document.getElementById(s);
    const line = el.shadowRoot.querySelector('.label .backend');
    const st = el.stats;
    return { ...el.activeBackend, label: line && !line.hidden && !line.parentElement.hidden ? line.textContent : null, center: st.center, minY: st.minY, exploded: st.exploded, time: el.time };
  }, id);
}

// The adapter key the device probe files its result under (backend_probe.js), read on a blank page.
async function adapterKeyHere() {
  const { page, context } = await openFixture('');
  try {
    return await page.evaluate(async () => {
      const info = (await navigator.gpu.requestAdapter()).info ?? {};
      return `${info.vendor ?? ''}/${info.architecture ?? ''}`;
    });
  } finally {
    await context.close();
  }
}

// An init script that leaves a device probe result (ms per frame = a + b * tets) in the session.
const fakeProbe = (key, a, b) => `sessionStorage.setItem('softbody.gpuProbe', ${JSON.stringify(JSON.stringify({ key, a, b, samples: [] }))});`;

test('without a probe auto keeps a small scene on wasm by the 30,000-tet threshold; a big one probes the device and follows it', async () => {
  // 6^3 x 6 = 1,296 tets: below the threshold, nothing measured. 18^3 cells x 6 = 34,992 tets: above
  // it, so the first WebGPU use probes; SwiftShader costs ~60 ms + 1.4 us per tet a frame (~110 ms
  // here) against wasm's ~14.7 ms, a margin of 7x, so auto keeps it on wasm and says why.
  const small = await openFixture('<soft-body id="small" backend="auto" interactive="false" autoplay loading="eager"></soft-body>');
  try {
    const state = await figureState(small.page, 'small', 3);
    assert.equal(state.backend, 'wasm');
    assert.equal(state.label, 'wasm · auto: 1,296 tets, below the 30,000 where WebGPU gains');
    assert.deepEqual(small.problems, []);
  } finally {
    await small.context.close();
  }
  const { page, context, problems } = await openFixture('<soft-body id="big" backend="auto" resolution="18" interactive="false" autoplay loading="eager"></soft-body>');
  try {
    const big = await figureState(page, 'big', 3);
    assert.equal(big.backend, 'wasm', big.reason);
    assert.match(big.label, /^wasm · auto: 34,992 tets, ~\d+\.\d ms a frame on this GPU against ~14\.7 ms on wasm$/);
    assert.ok(await page.evaluate(() => sessionStorage.getItem('softbody.gpuProbe') !== null), 'the probe is kept for the session');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('with a probe result in the session auto follows it both ways, and a figure over 16.7 ms a frame says "slow here"', async () => {
  const key = await adapterKeyHere();
  // A fast GPU (0.1 ms + 1 ns per tet): 1,296 tets cost 0.10 ms there against 0.54 ms on wasm.
  const fast = await openFixture('<soft-body id="fig" backend="auto" interactive="false" autoplay loading="eager"></soft-body>', fakeProbe(key, 0.1, 1e-6));
  try {
    const state = await figureState(fast.page, 'fig', 3);
    assert.equal(state.backend, 'webgpu', state.reason);
    assert.match(state.label, /^webgpu · auto: 1,296 tets on WebGPU adapter \S+ \S+$/); // 0.1 ms: no note
    assert.deepEqual(fast.problems, []);
  } finally {
    await fast.context.close();
  }
  // A slow GPU (10 ms + 10 us per tet): 34,992 tets cost 360 ms there against 14.7 ms on wasm.
  const slow = await openFixture('<soft-body id="fig" backend="auto" resolution="18" interactive="false" autoplay loading="eager"></soft-body>', fakeProbe(key, 10, 0.01));
  try {
    const state = await figureState(slow.page, 'fig', 3);
    assert.equal(state.backend, 'wasm');
    assert.equal(state.label, 'wasm · auto: 34,992 tets, ~359.9 ms a frame on this GPU against ~14.7 ms on wasm');
    assert.deepEqual(slow.problems, []);
  } finally {
    await slow.context.close();
  }
  // backend="webgpu" on that slow GPU: 1,296 tets take ~23 ms, over a 60 fps frame; it would run (16.7 - 10) / 0.01 = 666.
  const asked = await openFixture('<soft-body id="fig" backend="webgpu" interactive="false" autoplay loading="eager"></soft-body>', fakeProbe(key, 10, 0.01));
  try {
    const state = await figureState(asked.page, 'fig', 3);
    assert.equal(state.backend, 'webgpu', state.reason);
    assert.match(state.label, /^webgpu · WebGPU adapter \S+ \S+ · slow here: ~23 ms a frame; this device runs 666 tets at 60 fps$/);
    assert.deepEqual(asked.problems, []);
  } finally {
    await asked.context.close();
  }
});

test('a figure on WebGPU falls, lands and comes to rest where the same figure on wasm does', async () => {
  // The default 1 m box (1,296 tets), released at rest with its bottom 0.5 m up, lands at ~0.3 s.
  // damping="6" (1/s): its wobble on the ground (5 cm at 1.25 s undamped) has decayed by e^-16
  // after 3 s, so the two figures compare at rest though they are read at different times and the
  // GPU's stats trail it by a frame or two (at damping 4 and 2 s they were 4.6 mm apart).
  const { page, context, problems } = await openFixture(`
    <soft-body id="gpu" backend="webgpu" damping="6" interactive="false" autoplay loading="eager"></soft-body>
    <soft-body id="cpu" backend="wasm" damping="6" interactive="false" autoplay loading="eager"></soft-body>`);
  try {
    const gpu = await figureState(page, 'gpu', 3, 3);
    const cpu = await figureState(page, 'cpu', 3, 3);
    assert.equal(gpu.backend, 'webgpu', gpu.reason);
    assert.equal(cpu.backend, 'wasm');
    assert.equal(cpu.label, null, 'backend="wasm" asks for no choice: no backend line');
    assert.ok(gpu.time >= 3 && cpu.time >= 3);
    // At rest: centre 0.5 m up less its sag under its own weight.
    assert.ok(Math.abs(cpu.center[1] - 0.5) < 0.05, `wasm centre ${cpu.center[1]} m`);
    // Measured 1e-5 m apart; friction branching at the impact turns rounding into different slides
    // (docs/gpu.md: vertices 2.7e-4 m apart on a settled stiffer box), so the bound is 1 mm.
    assert.ok(Math.abs(gpu.center[1] - cpu.center[1]) < 1e-3, `webgpu ${gpu.center[1]} m, wasm ${cpu.center[1]} m`);
    assert.ok(gpu.minY > -1e-3, `not through the ground: ${gpu.minY} m`);
    assert.equal(gpu.exploded, null);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('an interactive figure on WebGPU is grabbed with the mouse and lifted', async () => {
  const { page, context, problems } = await openFixture('<soft-body id="grab" backend="webgpu" damping="5" autoplay loading="eager"></soft-body>');
  try {
    const state = await figureState(page, 'grab', 3, 2); // 2 s of simulated time: dropped and settled
    assert.equal(state.backend, 'webgpu');
    // Settled on the ground: grab the top of the box (as embed_element.test.mjs does on wasm).
    const grab = await page.evaluate(() => {
      const a = document.getElementById('grab');
      const s = a.stats;
      return { start: s.center[1], point: a._view.project(0, [s.center[0], s.center[1] + 0.45, s.center[2]]) };
    });
    // Simulated time, not frames: on SwiftShader the figure skips frames while the GPU is behind.
    const time = () => page.evaluate(() => document.getElementById('grab').time);
    const waitTime = async (dt) => {
      const t = (await time()) + dt;
      await page.waitForFunction((k) => document.getElementById('grab').time >= k, t, { timeout: 3 * FRAME_TIMEOUT, polling: 50 });
    };
    await page.mouse.move(grab.point.x, grab.point.y);
    await page.mouse.down();
    const held = await page.evaluate(() => document.getElementById('grab').bodies[0].grabbedVertex);
    for (let i = 1; i <= 10; i++) {
      await page.mouse.move(grab.point.x, grab.point.y - 12 * i);
      await waitTime(1 / 60);
    }
    await waitTime(0.5);
    const lifted = await page.evaluate(() => document.getElementById('grab').stats.center[1]);
    await page.mouse.up();
    const released = await page.evaluate(() => document.getElementById('grab').bodies[0].grabbedVertex);
    console.log(`figure grab on WebGPU: vertex ${held}, centre y ${grab.start.toFixed(3)} -> ${lifted.toFixed(3)} m`);
    assert.ok(held >= 0, 'the press grabbed a vertex of the GPU body');
    // Held by its top and dragged 120 px up (measured: the centre rose 1.6 m), well over 0.1 m.
    assert.ok(lifted > grab.start + 0.1, `grabbing lifts the body (${grab.start.toFixed(3)} -> ${lifted.toFixed(3)} m)`);
    assert.equal(released, -1, 'the release lets go');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a scenery of analytic colliders and dropped bodies (paddle) runs on WebGPU; one with a mesh collider (pile) stays on wasm', async () => {
  const { page, context, problems } = await openFixture(`
    <soft-body id="paddle" backend="webgpu" scenery="paddle" interactive="false" autoplay loading="eager"></soft-body>
    <soft-body id="pile" backend="webgpu" scenery="pile" interactive="false" autoplay loading="eager"></soft-body>`);
  try {
    // 0.3 s: a body in free fall has dropped 0.44 m, past the 0.1 m asked below (SwiftShader on a loaded
    // 2-core machine simulated ~0.1 s in 30 s of this scenery, so 1 s did not fit the timeout).
    const paddle = await figureState(page, 'paddle', 3, 0.3);
    // Where each body was made (the core's copy of a GPU body is never stepped).
    const start = await page.evaluate(() => Array.from(document.getElementById('paddle').world.bodies, (b) => b.body.positions[1]));
    const drops = await page.evaluate(() => Array.from(document.getElementById('paddle').world.bodies, (b) => ({ y: b.positions[1], finite: b.positions.every(Number.isFinite) })));
    const pile = await figureState(page, 'pile', 3);
    console.log(`paddle scenery on ${paddle.backend}: first vertex y of each body ${start.map((y) => y.toFixed(2)).join(', ')} -> ${drops.map((d) => d.y.toFixed(2)).join(', ')} m; pile: ${pile.label}`);
    assert.equal(paddle.backend, 'webgpu');
    assert.equal(drops.length, 4, 'the figure\'s body and the scenery\'s three');
    // Every body read back and drawn from the GPU: each has fallen from where it was made (the
    // scenery's drops start 0.7 m and more above where they land), none is left at its creation shape.
    for (let k = 0; k < drops.length; ++k) {
      assert.ok(drops[k].finite);
      assert.ok(drops[k].y < start[k] - 0.1, `body ${k}: y ${start[k]} -> ${drops[k].y} m`);
    }
    assert.equal(pile.backend, 'wasm');
    assert.equal(pile.label, 'wasm · webgpu: WebGPU does not run a mesh collider yet');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('what WebGPU refuses, or a browser without it, leaves a running wasm figure that says why', async () => {
  const { page, context, problems } = await openFixture(`
    <soft-body id="rope" backend="webgpu" scene="rope" interactive="false" autoplay loading="eager"></soft-body>`);
  try {
    // Refused by the build itself (the GPU world has no rope), after the values passed.
    const rope = await figureState(page, 'rope', 3);
    assert.equal(rope.backend, 'wasm');
    assert.equal(rope.label, 'wasm · webgpu: WebGPU does not run a rope (a body without tets) yet');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
  const without = await openFixture(
    '<soft-body id="bigauto" backend="auto" resolution="18" interactive="false" autoplay loading="eager"></soft-body>',
    () => {
      delete Navigator.prototype.gpu;
    });
  try {
    assert.equal(await without.page.evaluate(() => 'gpu' in navigator), false);
    const big = await figureState(without.page, 'bigauto', 3);
    assert.equal(big.backend, 'wasm');
    assert.match(big.label, /^wasm · auto: navigator\.gpu is missing/);
    assert.ok(big.center.every(Number.isFinite));
    assert.deepEqual(without.problems, []);
  } finally {
    await without.context.close();
  }
});

test('scenery="heap" on WebGPU: the heap\'s bodies fall into the pen and the figure\'s body is grabbed', async () => {
  // heap-count="4": the scene's shape at a size SwiftShader steps (a real GPU takes hundreds).
  const { page, context, problems } = await openFixture(`
    <soft-body id="heap" backend="webgpu" scenery="heap" heap-count="4" resolution="3" interactive="false" autoplay loading="eager"></soft-body>`);
  try {
    const state = await figureState(page, 'heap', 3, 0.2);
    // Where each body was made (the core's copy of a GPU body is never stepped).
    const start = await page.evaluate(() => Array.from(document.getElementById('heap').world.bodies, (b) => b.body.positions[1]));
    // Grab the figure's body by its first vertex and hold it 0.3 m above where it is.
    const target = await page.evaluate(async () => {
      const body = document.getElementById('heap').bodies[0];
      await body.read();
      const p = body.positions;
      const t = [p[0], p[1] + 0.3, p[2]];
      body.grabBegin(0, p[0], p[1], p[2]);
      body.grabMove(...t);
      return t;
    });
    const t0 = await page.evaluate(() => document.getElementById('heap').time);
    await page.waitForFunction((k) => document.getElementById('heap').time >= k, t0 + 0.1, { timeout: 3 * FRAME_TIMEOUT, polling: 50 });
    const after = await page.evaluate(async () => {
      const el = document.getElementById('heap');
      const bodies = Array.from(el.world.bodies);
      await el.world.done();
      for (const b of bodies) await b.read();
      return { dispatches: el.world.counters.dispatches, substeps: el.world.substeps, held: el.bodies[0].grabbedVertex, grabbed: Array.from(bodies[0].positions.slice(0, 3)), y: bodies.map((b) => b.positions[1]), finite: bodies.every((b) => b.positions.every(Number.isFinite)) };
    });
    const off = Math.hypot(...after.grabbed.map((x, k) => x - target[k]));
    console.log(`heap of 4 on ${state.backend}: first vertex y of each body ${start.map((y) => y.toFixed(2)).join(', ')} -> ${after.y.map((y) => y.toFixed(2)).join(', ')} m; grabbed vertex ${(1e3 * off).toFixed(2)} mm from its target; ${after.dispatches} dispatches in the last step of ${after.substeps} substeps`);
    assert.equal(state.backend, 'webgpu');
    assert.equal(after.y.length, 5, 'the figure\'s body and the heap\'s four');
    assert.ok(after.finite);
    // The heap's bodies start 0.4 m up and have fallen for 0.3 s: more than 0.1 m down.
    for (let k = 1; k < after.y.length; ++k) assert.ok(after.y[k] < start[k] - 0.1, `body ${k}: y ${start[k]} -> ${after.y[k]} m`);
    // A kinematic grab puts the held vertex on its target (float32 of x - origin: far below 1 mm).
    assert.equal(after.held, 0);
    assert.ok(off < 1e-3, `grabbed vertex ${off} m from its target`);

    // The heap's four bodies are one mesh (one draw call: gpu_world_surface.js), made on the GPU from
    // the world's vertex buffers, or from copies of each body's when those are stale: either way
    // where a read back says the bodies are, with unit normals on every surface vertex.
    const drawn = await page.evaluate(async () => {
      const el = document.getElementById('heap');
      const view = el._view.views[0];
      const heap = view.heap;
      if (!heap) return null;
      const device = el.world.device;
      const read = (buffer) => {
        const staging = device.createBuffer({ size: buffer.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
        const encoder = device.createCommandEncoder();
        encoder.copyBufferToBuffer(buffer, 0, staging, 0, buffer.size);
        device.queue.submit([encoder.finish()]);
        return staging.mapAsync(GPUMapMode.READ).then(() => new Float32Array(staging.getMappedRange().slice(0)));
      };
      const bodies = el._figure.lanes[0].extras;
      const compare = async () => {
        // In one task, so no frame is submitted between the drawn positions and the read backs.
        heap.update();
        const source = heap.surface.lastSource; // a frame may draw (and update) before the reads resolve
        const drawnRead = Promise.all([read(heap.surface.positions), read(heap.surface.normals.normals)]);
        const bodyReads = Promise.all(bodies.map((b) => b.read()));
        const [p, n] = await drawnRead;
        await bodyReads;
        let off = 0, normal = 0;
        bodies.forEach((b, j) => {
          const base = heap.surface.base[j];
          for (let i = 0; i < b.vertexCount; ++i) for (let k = 0; k < 3; ++k) off = Math.max(off, Math.abs(p[4 * (base + i) + k] - b.positions[3 * i + k]));
          for (const i of b.triangles) normal = Math.max(normal, Math.abs(Math.hypot(n[4 * (base + i)], n[4 * (base + i) + 1], n[4 * (base + i) + 2]) - 1));
        });
        return { source, off, normal };
      };
      const world = await compare();
      heap.surface.world.mergedFresh = false; // as after a body's state is written from the CPU
      const copies = await compare();
      const indices = bodies.reduce((sum, b) => sum + b.triangles.length, 0);
      return { world, copies, parts: heap.parts.length, inGroup: heap.mesh.parent === view.group, partsDrawn: heap.parts.filter((m) => m.mesh.parent).length, indexCount: heap.mesh.geometry.index.count, indices };
    });
    console.log(`heap drawn as one mesh: ${JSON.stringify(drawn)}`);
    assert.ok(drawn, 'the heap is one mesh on WebGPU');
    assert.equal(drawn.parts, 4, 'a pick mesh per heap body');
    assert.ok(drawn.inGroup && drawn.partsDrawn === 0, 'one drawn mesh; the pick meshes are not drawn');
    assert.equal(drawn.indexCount, drawn.indices, "every heap body's surface in its index");
    assert.equal(drawn.world.source, 'world');
    assert.equal(drawn.copies.source, 'copies');
    // x - origin + origin in float32 against the read back's float64 sum rounded to float32: a float
    // step of coordinates under 1 m (6e-8 m); 1e-6 m leaves room and catches any wrong vertex.
    for (const r of [drawn.world, drawn.copies]) {
      assert.ok(r.off < 1e-6, `drawn positions ${r.off} m from the read back (${r.source})`);
      assert.ok(r.normal < 1e-4, `normals unit to ${r.normal} (${r.source})`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
