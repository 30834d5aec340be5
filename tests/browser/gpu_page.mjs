// Shared by the WebGPU backend's page tests (gpu_*.test.mjs): a blank page on the dev server at
// localhost (WebGPU needs a secure context) with helpers that run and compare both backends.
// Not a test file itself.

// init: a script to run before the page's own (e.g. removing navigator.gpu).
export async function openGpuPage(browser, server, init) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  if (init) await page.addInitScript(init);
  const base = server.url.replace('127.0.0.1', 'localhost');
  await page.route(`${base}gpu_test.html`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><link rel="icon" href="data:,"><title>gpu</title>' }));
  await page.goto(`${base}gpu_test.html`);
  await page.evaluate(async () => {
    const { sharedSoftbody } = await import('/src/wasm_module.js');
    const data = await import('/src/body_data.js');
    const { stateStats } = await import('/src/gpu/gpu_world.js');
    window.sb = await sharedSoftbody();
    window.bodyData = data;
    // { positions, velocities } of either backend's body (the GPU's read back).
    window.stateOf = async (body) => (body.read ? body.read() : { positions: body.positions.slice(), velocities: data.bodyVelocities(body).slice() });
    // Sets positions (m) and velocities (m/s) of either backend's body.
    window.writeState = (body, x, v) => {
      if (body.writeState) return body.writeState(x, v);
      body.positions.set(x);
      data.bodyVelocities(body).set(v);
    };
    // Largest coordinate difference between two xyz arrays (m).
    window.maxDiff = (a, b) => {
      let diff = 0;
      for (let i = 0; i < a.length; ++i) diff = Math.max(diff, Math.abs(a[i] - b[i]));
      return diff;
    };
    // The same scene on both backends: build(world) makes it and returns its body; then `frames`
    // frames of 1/60 s, with frame(world, f, body) before each step (moving colliders, grabbing).
    // At each frame listed in `samples`, the max |dx| between the two and both states.
    window.runBoth = async ({ build, frames, samples = [frames], frame = null }) => {
      const worlds = {}, bodies = {};
      for (const backend of ['webgpu', 'wasm']) {
        worlds[backend] = await sb.createWorld({ backend });
        bodies[backend] = await build(worlds[backend]);
      }
      const out = [];
      for (let f = 1; f <= frames; ++f) {
        for (const backend of ['webgpu', 'wasm']) {
          if (frame) await frame(worlds[backend], f, bodies[backend]);
          worlds[backend].step(1 / 60);
        }
        if (samples.includes(f)) {
          const gpu = await stateOf(bodies.webgpu), cpu = await stateOf(bodies.wasm);
          out.push({ frame: f, diff: maxDiff(gpu.positions, cpu.positions), gpu: { positions: Array.from(gpu.positions) }, cpu: { positions: Array.from(cpu.positions) } });
        }
      }
      return { samples: out, worlds, bodies };
    };
    // Elastic energy at k = 1/compliance (J): edges 1/2 (l - l0)^2 / alpha_e, tets 1/2 (6V - 6V0)^2 / alpha_v.
    window.energies = (body, core, { positions, velocities }, gravity) => {
      const rest = data.bodySolverData(core);
      const e = core.edges, t = core.tets, x = positions;
      const ae = core.getParam('edgeCompliance'), av = core.getParam('volumeCompliance');
      let elastic = 0;
      for (let k = 0; k < core.edgeCount; ++k) {
        const a = 3 * e[2 * k], b = 3 * e[2 * k + 1];
        const l = Math.hypot(x[a] - x[b], x[a + 1] - x[b + 1], x[a + 2] - x[b + 2]);
        elastic += (0.5 * (l - rest.edgeRest[k]) ** 2) / ae;
      }
      for (let k = 0; k < core.tetCount; ++k) {
        const [i0, i1, i2, i3] = [0, 1, 2, 3].map((j) => 3 * t[4 * k + j]);
        const d = (i) => [x[i] - x[i0], x[i + 1] - x[i0 + 1], x[i + 2] - x[i0 + 2]];
        const [u, v, w] = [d(i1), d(i2), d(i3)];
        const v6 = (u[1] * v[2] - u[2] * v[1]) * w[0] + (u[2] * v[0] - u[0] * v[2]) * w[1] + (u[0] * v[1] - u[1] * v[0]) * w[2];
        elastic += (0.5 * (v6 - rest.tetRest6[k]) ** 2) / av;
      }
      const mass = Float32Array.from(data.bodyInverseMasses(core), (w) => 1 / w);
      const s = stateStats(positions, velocities, mass, gravity);
      return { ...s, elastic, total: s.kineticEnergy + s.potentialEnergy + elastic };
    };
  });
  return { page, context, problems };
}
