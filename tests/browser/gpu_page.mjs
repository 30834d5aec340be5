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
    // The deepest any surface vertex of `a` is inside body `b` (m; negative inside, positive: the
    // clearance of the nearest one): its distance to b's surface, signed by whether a ray from it
    // crosses b's closed surface an odd number of times. Bodies: { positions, triangles }.
    window.deepestInside = (a, b) => {
      const P = (x, i) => [x[3 * i], x[3 * i + 1], x[3 * i + 2]];
      const sub = (u, v) => [u[0] - v[0], u[1] - v[1], u[2] - v[2]];
      const dot = (u, v) => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
      const cross = (u, v) => [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      const ray = [0.123, 0.987, 0.0456]; // a direction no face of a lattice is parallel to
      // Distance from p to segment-or-triangle abc, by sampling its nearest point (Ericson 5.1.5).
      const distance = (p, A, B, C) => {
        const ab = sub(B, A), ac = sub(C, A), ap = sub(p, A);
        const d1 = dot(ab, ap), d2 = dot(ac, ap);
        const at = (q) => Math.sqrt(dot(sub(p, q), sub(p, q)));
        if (d1 <= 0 && d2 <= 0) return at(A);
        const bp = sub(p, B), d3 = dot(ab, bp), d4 = dot(ac, bp);
        if (d3 >= 0 && d4 <= d3) return at(B);
        const vc = d1 * d4 - d3 * d2;
        if (vc <= 0 && d1 >= 0 && d3 <= 0) { const t = d1 / (d1 - d3); return at([A[0] + ab[0] * t, A[1] + ab[1] * t, A[2] + ab[2] * t]); }
        const cp = sub(p, C), d5 = dot(ab, cp), d6 = dot(ac, cp);
        if (d6 >= 0 && d5 <= d6) return at(C);
        const vb = d5 * d2 - d1 * d6;
        if (vb <= 0 && d2 >= 0 && d6 <= 0) { const t = d2 / (d2 - d6); return at([A[0] + ac[0] * t, A[1] + ac[1] * t, A[2] + ac[2] * t]); }
        const va = d3 * d6 - d5 * d4;
        if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) { const t = (d4 - d3) / (d4 - d3 + (d5 - d6)); return at([B[0] + (C[0] - B[0]) * t, B[1] + (C[1] - B[1]) * t, B[2] + (C[2] - B[2]) * t]); }
        const den = 1 / (va + vb + vc), v = vb * den, w = vc * den;
        return at([A[0] + ab[0] * v + ac[0] * w, A[1] + ab[1] * v + ac[1] * w, A[2] + ab[2] * v + ac[2] * w]);
      };
      // Does the ray from p cross triangle ABC (Moller-Trumbore)?
      const crosses = (p, A, B, C) => {
        const e1 = sub(B, A), e2 = sub(C, A), h = cross(ray, e2), det = dot(e1, h);
        if (Math.abs(det) < 1e-12) return false;
        const s = sub(p, A), u = dot(s, h) / det;
        if (u < 0 || u > 1) return false;
        const q = cross(s, e1), v = dot(ray, q) / det;
        if (v < 0 || u + v > 1) return false;
        return dot(e2, q) / det > 0;
      };
      let deepest = Infinity;
      for (const i of new Set(a.triangles)) {
        const p = P(a.positions, i);
        let near = Infinity, hits = 0;
        for (let t = 0; t < b.triangles.length; t += 3) {
          const A = P(b.positions, b.triangles[t]), B = P(b.positions, b.triangles[t + 1]), C = P(b.positions, b.triangles[t + 2]);
          near = Math.min(near, distance(p, A, B, C));
          if (crosses(p, A, B, C)) ++hits;
        }
        deepest = Math.min(deepest, hits % 2 === 1 ? -near : near);
      }
      return deepest;
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
