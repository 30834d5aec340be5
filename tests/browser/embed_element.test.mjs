// <soft-body> in headless Chromium: lazy loading, one wasm fetch and one WebGL context per page,
// twelve figures on one page, nothing running off-screen, live attributes, messages for bad input,
// page scrolling over inactive figures, grabbing, reduced motion, and a lost WebGL context.
// Test pages are served by intercepting a URL on the Vite server (so their modules resolve there).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FRAME_TIMEOUT, launchBrowser, startServer } from './harness.mjs';

let server;
let url;
let browser;

before(async () => {
  ({ server, url } = await startServer());
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

// Opens `body` (HTML) as a page on the Vite server with <soft-body> registered. Records wasm
// requests, WebGL contexts created, and console/page errors. ?test: cheap rendering.
// An OBJ cube (8 vertices, 12 triangles) the fixtures can point src at.
const CUBE_OBJ = ['v 0 0 0', 'v 1 0 0', 'v 1 1 0', 'v 0 1 0', 'v 0 0 1', 'v 1 0 1', 'v 1 1 1', 'v 0 1 1',
  'f 1 4 3', 'f 1 3 2', 'f 5 6 7', 'f 5 7 8', 'f 1 2 6', 'f 1 6 5', 'f 4 8 7', 'f 4 7 3', 'f 1 5 8', 'f 1 8 4', 'f 2 3 7', 'f 2 7 6'].join('\n');

async function openFixture(body, { viewport = { width: 640, height: 480 }, reducedMotion = 'no-preference', head = '', hasTouch = false } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, reducedMotion, hasTouch });
  const page = await context.newPage();
  const problems = [];
  const warnings = [];
  const wasmRequests = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
    if (message.type() === 'warning' && message.text().startsWith('<soft-body>')) warnings.push(message.text());
  });
  page.on('request', (request) => {
    if (request.url().endsWith('.wasm')) wasmRequests.push(request.url());
  });
  await page.addInitScript(() => {
    // Count WebGL contexts and animation-frame requests made by the page.
    window.__gl = 0;
    window.__raf = 0;
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
      if (type === 'webgl2' || type === 'webgl') window.__gl += 1;
      return getContext.call(this, type, ...rest);
    };
    const raf = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (fn) => {
      window.__raf += 1;
      return raf(fn);
    };
  });
  await page.route('**/fixture.html*', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">${head}
        <style>body { margin: 0; font: 14px sans-serif; } soft-body { width: 320px; }</style></head>
        <body>${body}<script type="module" src="/src/embed/index.js"></script></body></html>`,
    }),
  );
  await page.route('**/meshes/cube.obj', (route) => route.fulfill({ contentType: 'text/plain', body: CUBE_OBJ }));
  await page.route('**/meshes/missing.obj', (route) => route.fulfill({ status: 404, body: 'not here' }));
  // A poster that answers slowly, so the test sees it before the first frame.
  await page.route('**/poster.png', async (route) => route.fulfill({ contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="10"><rect width="16" height="10" fill="#fc8"/></svg>' }));
  await page.goto(`${url}fixture.html?test`);
  await page.waitForFunction(() => customElements.get('soft-body') !== undefined);
  return { page, context, problems, warnings, wasmRequests };
}

// Waits until element `selector` has drawn more than n frames.
async function waitElementFrames(page, selector, n) {
  await page.waitForFunction(([s, k]) => document.querySelector(s)?.frames > k, [selector, n], { timeout: FRAME_TIMEOUT, polling: 50 });
}

// Pixels of element `selector`'s canvas that are clearly coloured (the bodies: coral, blue,
// green, purple) rather than the grey sky, ground and shadows.
function countBodyPixels(page, selector) {
  return page.evaluate((s) => {
    const canvas = document.querySelector(s).shadowRoot.querySelector('canvas.scene');
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
      const max = Math.max(data[i], data[i + 1], data[i + 2]);
      const min = Math.min(data[i], data[i + 1], data[i + 2]);
      if (max - min > 60) count += 1;
    }
    return count;
  }, selector);
}

test('loads nothing until near the viewport, then fetches the wasm once, draws, plays and can be grabbed', async () => {
  const { page, context, problems, wasmRequests } = await openFixture(`
    <div style="height: 2400px">article text</div>
    <soft-body id="a" autoplay></soft-body>
    <soft-body id="b" autoplay scene="ball"></soft-body>
    <div style="height: 600px"></div>`);
  try {
    await page.waitForTimeout(500);
    const before = await page.evaluate(() => ({ frames: document.getElementById('a').frames, loaded: document.getElementById('a').loaded }));
    assert.deepEqual(before, { frames: 0, loaded: false }, 'far below the fold: not loaded');
    assert.equal(wasmRequests.length, 0, 'no wasm fetched while every figure is far away');

    await page.evaluate(() => document.getElementById('a').scrollIntoView());
    await waitElementFrames(page, '#a', 10);
    await waitElementFrames(page, '#b', 3);
    assert.equal(wasmRequests.length, 1, `the wasm is fetched once for two figures (${wasmRequests.join(', ')})`);
    assert.equal(await page.evaluate(() => window.__gl), 1, 'one WebGL context for the page');
    // The stage knows a software renderer when it sees one (and then renders cheaply by itself).
    const renderer = await page.evaluate(() => {
      const stage = customElements.get('soft-body').stage;
      const gl = stage.renderer.getContext();
      const info = gl.getExtension('WEBGL_debug_renderer_info');
      return { name: gl.getParameter(info.UNMASKED_RENDERER_WEBGL), software: stage.software, lowCost: stage.lowCost };
    });
    assert.equal(renderer.software, /swiftshader|llvmpipe|software/i.test(renderer.name), renderer.name);
    assert.equal(renderer.lowCost, true);
    assert.ok((await countBodyPixels(page, '#a')) > 500, 'the body is drawn');
    const t0 = await page.evaluate(() => document.getElementById('a').time);
    await waitElementFrames(page, '#a', 20);
    const state = await page.evaluate(() => {
      const a = document.getElementById('a');
      return { time: a.time, stats: a.stats, bodies: a.bodies.length, world: a.world !== null, role: a.shadowRoot.querySelector('canvas.scene').getAttribute('role') };
    });
    assert.ok(state.time > t0, 'autoplay: simulated time advances');
    assert.equal(state.bodies, 1);
    assert.ok(state.world);
    assert.equal(state.role, 'img');
    assert.ok(Math.abs(state.stats.volumeRatio - 1) < 0.05, `volume kept (${state.stats.volumeRatio})`);

    // Let it settle, then grab the top of the box and lift it: its centre of mass rises.
    await page.evaluate(() => document.getElementById('a').setParam('damping', 5));
    await waitElementFrames(page, '#a', 60);
    const grab = await page.evaluate(() => {
      const a = document.getElementById('a');
      const s = a.stats;
      const top = [s.center[0], s.center[1] + 0.45, s.center[2]];
      const view = a.constructor.stage && a._view;
      return { start: s.center[1], point: view.project(0, top) };
    });
    await page.mouse.move(grab.point.x, grab.point.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) {
      await page.mouse.move(grab.point.x, grab.point.y - 12 * i);
      await waitElementFrames(page, '#a', (await page.evaluate(() => document.getElementById('a').frames)) + 1);
    }
    await waitElementFrames(page, '#a', (await page.evaluate(() => document.getElementById('a').frames)) + 10);
    const lifted = await page.evaluate(() => document.getElementById('a').stats.center[1]);
    await page.mouse.up();
    assert.ok(lifted > grab.start + 0.1, `grabbing lifts the body (${grab.start.toFixed(3)} -> ${lifted.toFixed(3)} m)`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('twelve figures on one page all draw, through one WebGL context', async () => {
  const items = Array.from({ length: 12 }, (_, i) => {
    const scene = ['box', 'ball', 'jelly', 'pressure-ball', 'rope', 'box'][i % 6];
    return `<soft-body id="f${i}" scene="${scene}" resolution="3" autoplay controls="none" style="width: 150px; height: 110px; aspect-ratio: auto; display: inline-block; margin: 2px"></soft-body>`;
  });
  const { page, context, problems, wasmRequests } = await openFixture(items.join(''), { viewport: { width: 640, height: 480 } });
  try {
    for (let i = 0; i < 12; i++) await waitElementFrames(page, `#f${i}`, 2);
    const pixels = [];
    for (let i = 0; i < 12; i++) pixels.push(await countBodyPixels(page, `#f${i}`));
    assert.ok(pixels.every((n) => n > 40), `every figure shows its body (${pixels.join(', ')} px)`);
    assert.equal(await page.evaluate(() => window.__gl), 1, 'one WebGL context for twelve figures');
    assert.equal(wasmRequests.length, 1, 'one wasm fetch');
    const lost = await page.evaluate(() => customElements.get('soft-body').stage.losses);
    assert.equal(lost, 0);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('off-screen figures stand still and resume where they stopped; nothing runs when none is visible', async () => {
  const { page, context, problems } = await openFixture(`
    <soft-body id="top" autoplay></soft-body>
    <div style="height: 1600px"></div>
    <soft-body id="low" autoplay></soft-body>
    <div style="height: 3000px"></div>`);
  try {
    await waitElementFrames(page, '#top', 5);
    await page.evaluate(() => window.scrollTo(0, document.getElementById('low').offsetTop - 40));
    await waitElementFrames(page, '#low', 5);
    const hidden = await page.evaluate(() => ({ frames: document.getElementById('top').frames, time: document.getElementById('top').time }));
    await waitElementFrames(page, '#low', 20);
    const later = await page.evaluate(() => ({ frames: document.getElementById('top').frames, time: document.getElementById('top').time }));
    assert.deepEqual(later, hidden, 'the figure scrolled out of view neither steps nor draws');

    // All off-screen: no animation frame is requested at all.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForTimeout(300);
    const raf0 = await page.evaluate(() => window.__raf);
    await page.waitForTimeout(1000);
    const raf1 = await page.evaluate(() => window.__raf);
    assert.ok(raf1 - raf0 <= 1, `idle page: ${raf1 - raf0} animation frames requested in 1 s`);

    await page.evaluate(() => window.scrollTo(0, 0));
    await waitElementFrames(page, '#top', hidden.frames + 5);
    const resumed = await page.evaluate(() => document.getElementById('top').time);
    assert.ok(resumed > hidden.time && resumed < hidden.time + 1, `resumes from ${hidden.time.toFixed(3)} s, not from 0 (${resumed.toFixed(3)} s)`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('attributes apply live; bad values show a message, warn once and keep the previous value', async () => {
  const { page, context, problems, warnings } = await openFixture(`<soft-body id="a" autoplay controls="edge-compliance substeps"></soft-body>`);
  try {
    await waitElementFrames(page, '#a', 3);
    const live = await page.evaluate(async () => {
      const a = document.getElementById('a');
      const errors = [];
      a.addEventListener('error', (e) => errors.push(e.detail));
      a.setAttribute('edge-compliance', '0.001');
      a.substeps = 20;
      const applied = { edge: a.bodies[0].getParam('edgeCompliance'), substeps: a.world.substeps, reflected: a.getAttribute('substeps') };
      a.setAttribute('density', '-5');
      const density = { attr: a.getAttribute('density'), value: a.density, param: a.bodies[0].getParam('density') };
      const message = a.shadowRoot.querySelector('.message');
      const shown = { hidden: message.hidden, text: message.textContent };
      a.setAttribute('density', '-5'); // the same mistake again: one console warning in all
      a.setAttribute('scene', 'teapot');
      const scene = { attr: a.getAttribute('scene'), text: message.textContent };
      a.setAttribute('solver', 'rk4');
      const solver = a.bodies[0].solver;
      const vertices = a.bodies[0].vertexCount;
      a.setAttribute('scene', 'ball');
      await new Promise((r) => setTimeout(r, 50));
      return { applied, density, shown, scene, solver, vertices, ballVertices: a.bodies[0].vertexCount, errors };
    });
    assert.equal(live.applied.edge, 0.0010000000474974513, 'edge compliance reaches the body (float32)');
    assert.equal(live.applied.substeps, 20);
    assert.equal(live.applied.reflected, '20', 'properties reflect to attributes');
    assert.equal(live.density.attr, null, 'the refused attribute is put back (it was unset)');
    assert.equal(live.density.value, 1000);
    assert.equal(live.density.param, 1000, 'the body keeps its density');
    assert.equal(live.shown.hidden, false);
    assert.match(live.shown.text, /SB_ERR_OUT_OF_RANGE: density \(kg\/m\^3\) must be in \[1, 100000\], got -5/, 'the C API text is shown');
    assert.equal(live.scene.attr, null);
    assert.match(live.scene.text, /scene="teapot" is not one of box, ball/);
    assert.equal(live.solver, 'rk4', 'solver changes live');
    assert.notEqual(live.ballVertices, live.vertices, 'a new scene rebuilds the body');
    assert.equal(live.errors.length, 3, 'an error event per refusal');
    assert.equal(live.errors[0].code, -10);
    assert.equal(live.errors[0].attribute, 'density');
    assert.equal(warnings.filter((w) => w.includes('density')).length, 1, `one console warning for a repeated mistake (${warnings.join(' | ')})`);

    // The slider shows the value and moves by one step of the log scale from the keyboard.
    const slider = await page.evaluate(() => {
      const input = document.getElementById('a').shadowRoot.querySelector('input[aria-label="edge-compliance"]');
      input.focus();
      return { value: input.value, output: input.nextElementSibling.textContent };
    });
    assert.equal(Number(slider.value), -3);
    assert.equal(slider.output, '1.0e-3');
    await page.keyboard.press('ArrowLeft');
    const nudged = await page.evaluate(() => document.getElementById('a').edgeCompliance);
    assert.ok(Math.abs(nudged - 10 ** -3.1) < 1e-9, `one arrow key = one step of the exponent (${nudged})`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('compare shows the solvers side by side with a plot, and an exploding view says so', async () => {
  const { page, context, problems } = await openFixture(
    `<soft-body id="c" style="width: 600px" compare="explicit-euler xpbd" stiffness="20000" damping="0" plot="energy" autoplay></soft-body>`,
  );
  try {
    const exploded = page.evaluate(
      () => new Promise((resolve) => document.getElementById('c').addEventListener('exploded', (e) => resolve(e.detail), { once: true })),
    );
    await waitElementFrames(page, '#c', 3);
    const detail = await exploded;
    assert.equal(detail.solver, 'explicitEuler');
    assert.equal(detail.view, 0);
    const state = await page.evaluate(() => {
      const c = document.getElementById('c');
      const labels = [...c.shadowRoot.querySelectorAll('.label')].map((l) => l.textContent);
      return { views: c.stats.views.map((v) => ({ solver: v.solver, exploded: Boolean(v.exploded), finite: v.finite })), labels, plot: !c.shadowRoot.querySelector('canvas.plot').hidden };
    });
    assert.deepEqual(state.views.map((v) => [v.solver, v.exploded]), [['explicitEuler', true], ['xpbd', false]]);
    assert.match(state.labels[0], /explicit Euler\s*EXPLODED at \d\.\d\d s/);
    assert.match(state.labels[1], /^XPBD$/);
    assert.ok(state.plot);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the wheel scrolls the page over an inactive figure; after a click it zooms the view', async () => {
  const { page, context, problems } = await openFixture(`<div style="height: 200px"></div><soft-body id="a"></soft-body><div style="height: 2000px"></div>`);
  try {
    await waitElementFrames(page, '#a', 1);
    const box = await page.evaluate(() => {
      const r = document.getElementById('a').getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + 30 };
    });
    const distance = () => page.evaluate(() => document.getElementById('a')._view.camera.position.length());
    const d0 = await distance();
    await page.mouse.move(box.x, box.y);
    await page.mouse.wheel(0, 120);
    await page.waitForFunction(() => window.scrollY > 0, null, { timeout: 5000 });
    assert.ok(Math.abs((await distance()) - d0) < 1e-9, 'inactive: the camera did not zoom');
    assert.equal(await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('.hint').classList.contains('shown')), true, 'the hint says how to zoom');

    const scrolled = await page.evaluate(() => window.scrollY);
    const at = await page.evaluate(() => {
      const r = document.getElementById('a').getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + 20 };
    });
    await page.mouse.click(at.x, at.y); // sky: activates without grabbing
    assert.equal(await page.evaluate(() => document.getElementById('a').hasAttribute('active')), true);
    await page.mouse.wheel(0, 120);
    await page.waitForFunction((d) => document.getElementById('a')._view.camera.position.length() > d + 0.01, d0, { timeout: FRAME_TIMEOUT });
    assert.equal(await page.evaluate(() => window.scrollY), scrolled, 'active: the page stays, the wheel zooms out');
    await page.mouse.click(5, 5); // outside: inactive again
    assert.equal(await page.evaluate(() => document.getElementById('a').hasAttribute('active')), false);
    assert.equal(await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('canvas.scene').style.touchAction), 'manipulation', 'inactive: swipes pan the page');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('prefers-reduced-motion starts paused with a play button', async () => {
  const { page, context, problems } = await openFixture(`<soft-body id="a" autoplay></soft-body>`, { reducedMotion: 'reduce' });
  try {
    await waitElementFrames(page, '#a', 0);
    await page.waitForTimeout(300);
    const paused = await page.evaluate(() => {
      const a = document.getElementById('a');
      return { paused: a.paused, time: a.time, play: !a.shadowRoot.querySelector('.play').hidden };
    });
    assert.deepEqual(paused, { paused: true, time: 0, play: true });
    await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('.play').click());
    await waitElementFrames(page, '#a', 5);
    assert.ok((await page.evaluate(() => document.getElementById('a').time)) > 0, 'play starts it');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a lost WebGL context is survived: figures draw again once it is restored', async () => {
  const { page, context, problems } = await openFixture(`<soft-body id="a" autoplay></soft-body>`);
  try {
    await waitElementFrames(page, '#a', 3);
    await page.evaluate(() => {
      const stage = customElements.get('soft-body').stage;
      window.__lose = stage.renderer.getContext().getExtension('WEBGL_lose_context');
      window.__lose.loseContext();
    });
    await page.waitForFunction(() => customElements.get('soft-body').stage.lost === true);
    await page.evaluate(() => window.__lose.restoreContext());
    await page.waitForFunction(() => customElements.get('soft-body').stage.lost === false, null, { timeout: FRAME_TIMEOUT });
    const frames = await page.evaluate(() => document.getElementById('a').frames);
    await waitElementFrames(page, '#a', frames + 3);
    // Clear the canvas so what is counted was drawn after the restore.
    await page.evaluate(() => {
      const canvas = document.getElementById('a').shadowRoot.querySelector('canvas.scene');
      canvas.getContext('2d').clearRect(0, 0, canvas.width, canvas.height);
    });
    // Under load the first frames after a restore can take a while (shaders recompile), so wait
    // for the body to appear rather than a fixed number of frames; a figure that never draws fails.
    let pixels = 0;
    const deadline = Date.now() + FRAME_TIMEOUT;
    while (pixels <= 500 && Date.now() < deadline) {
      await waitElementFrames(page, '#a', (await page.evaluate(() => document.getElementById('a').frames)) + 1);
      pixels = await countBodyPixels(page, '#a');
    }
    assert.ok(pixels > 500, `the body is drawn after the restore (${pixels} coloured pixels)`);
    assert.equal(await page.evaluate(() => customElements.get('soft-body').stage.losses), 1);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('src: a mesh file is tetrahedralized with a progress ring and drawn with its surface; a failed src keeps the body', async () => {
  const { page, context, problems } = await openFixture(`<soft-body id="a" src="/meshes/cube.obj" resolution="6" autoplay poster="/poster.png"></soft-body>`);
  try {
    const poster = await page.evaluate(() => {
      const p = document.getElementById('a').shadowRoot.querySelector('.poster');
      return { hidden: p.hidden, src: p.getAttribute('src') };
    });
    assert.deepEqual(poster, { hidden: false, src: '/poster.png' }, 'the poster holds the place until the first frame');
    await waitElementFrames(page, '#a', 3);
    const built = await page.evaluate(() => {
      const a = document.getElementById('a');
      const body = a.bodies[0];
      return {
        tets: body.tetCount,
        visual: body.visualVertexCount,
        volume: a.stats.volumeRatio,
        posterGone: a.shadowRoot.querySelector('.poster').classList.contains('gone'),
        ringHidden: a.shadowRoot.querySelector('.progress').hidden,
        label: a.shadowRoot.querySelector('canvas.scene').getAttribute('aria-label'),
      };
    });
    assert.ok(built.tets > 50, `the cube was tetrahedralized (${built.tets} tets)`);
    assert.ok(built.visual >= 8, 'its own surface is drawn, skinned to the tets');
    assert.ok(built.posterGone && built.ringHidden);
    assert.match(built.label, /cube\.obj/);

    const before = await page.evaluate(() => document.getElementById('a').bodies[0].tetCount);
    const failure = page.evaluate(() => new Promise((resolve) => document.getElementById('a').addEventListener('error', (e) => resolve(e.detail), { once: true })));
    await page.evaluate(() => document.getElementById('a').setAttribute('src', '/meshes/missing.obj'));
    const detail = await failure;
    assert.match(detail.message, /could not fetch .*missing\.obj: HTTP 404/);
    const after = await page.evaluate(() => ({ tets: document.getElementById('a').bodies[0].tetCount, src: document.getElementById('a').getAttribute('src') }));
    assert.deepEqual(after, { tets: before, src: '/meshes/cube.obj' }, 'the body and the attribute stay as they were');
    // The browser logs the intended 404 itself; nothing else may be logged as an error.
    assert.deepEqual(problems.filter((p) => !/status of 404/.test(p)), []);
  } finally {
    await context.close();
  }
});

// The cube flattened to a 1 m × 1 m plate 5 mm thick, as one data: URL: its thin part is sampled by
// its thickness (two samples across), about 25,000 tets at the default 10 cells.
const PLATE_SRC = `data:model/obj,${encodeURIComponent(CUBE_OBJ.replace(/^v (\S+) (\S+) (\S+)$/gm, (_, x, y, z) => `v ${x} ${Number(y) * 0.005} ${z}`))}`;

test('max-tets and thin-parts: a thin plate over the bound is refused before it is meshed, naming the choice; thicken and coarsen mesh it within the bound', async () => {
  // #b's maxTets is set by a classic script before the element module runs (before the upgrade).
  const { page, context, problems } = await openFixture(`<soft-body id="a" max-tets="15000"></soft-body><soft-body id="b"></soft-body>
    <script>document.getElementById('b').maxTets = 7;</script>`);
  try {
    await waitElementFrames(page, '#a', 1);
    assert.deepEqual(await page.evaluate(() => [document.getElementById('b').maxTets, document.getElementById('b').getAttribute('max-tets')]), [7, '7'], 'set before the upgrade, it reaches the attribute');
    // A lattice figure is not rebuilt (nor restarted) for a bound that only meshes feel.
    const kept = await page.evaluate(async () => {
      const b = document.getElementById('b');
      const body = b.bodies[0];
      b.thinParts = 'thicken';
      b.maxTets = 8;
      await new Promise((r) => setTimeout(r, 200));
      return [b.bodies[0] === body, b.thinParts, b.maxTets];
    });
    assert.deepEqual(kept, [true, 'thicken', 8]);
    const before = await page.evaluate(() => document.getElementById('a').bodies[0].tetCount);
    const failure = page.evaluate(() => new Promise((resolve) => document.getElementById('a').addEventListener('error', (e) => resolve(e.detail), { once: true })));
    await page.evaluate((src) => (document.getElementById('a').src = src), PLATE_SRC);
    const refused = await failure;
    assert.match(refused.message, /^Could not import mesh\.obj: this surface would give about [\d,]+ tets, above the limit of 15,000; parts about 5 mm thick are sampled by their thickness: .* thin-parts="thicken", "coarsen" or "drop" meshes it within max-tets\.$/);
    assert.equal(refused.codeName, 'SB_ERR_TOO_LARGE');
    assert.deepEqual(await page.evaluate(() => [document.getElementById('a').bodies[0].tetCount, document.getElementById('a').src]), [before, null], 'the box and its attributes stay');
    // The bound holds on the result (a result over it is meshed again coarser).
    for (const thinParts of ['thicken', 'coarsen']) {
      const loaded = page.evaluate(() => new Promise((resolve) => document.getElementById('a').addEventListener('load', (e) => resolve(e.detail), { once: true })));
      await page.evaluate(([src, choice]) => Object.assign(document.getElementById('a'), { thinParts: choice, src }), [PLATE_SRC, thinParts]);
      const { tets, src, note } = await loaded;
      assert.ok(src.startsWith('data:model/obj,') && tets > 1000 && tets <= 15000, `${thinParts}: ${tets} tets`);
      // What the choice did, in the load event: thickened by tens of mm, or sampled tens of mm apart.
      assert.match(note, thinParts === 'thicken' ? /^thin parts thickened to \d\d mm \(\+0\.\d+ m³\)$/ : /^thin parts sampled \d\d mm apart$/);
      assert.equal(await page.evaluate(() => document.getElementById('a').getAttribute('thin-parts')), thinParts);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a figure removed from the page frees its worlds; put back, it builds and runs again', async () => {
  const { page, context, problems } = await openFixture(`<div id="holder"><soft-body id="a" autoplay compare="xpbd pbd"></soft-body></div>`);
  try {
    await waitElementFrames(page, '#a', 3);
    const freed = await page.evaluate(async () => {
      const a = document.getElementById('a');
      const worlds = a.bodies.map((b) => b.world);
      a.remove();
      await new Promise((r) => setTimeout(r, 50));
      const gone = worlds.map((w) => {
        try {
          void w.bodyCount;
          return false;
        } catch (error) {
          return error.codeName === 'SB_ERR_INVALID_WORLD';
        }
      });
      document.getElementById('holder').append(a);
      return gone;
    });
    assert.deepEqual(freed, [true, true], 'both views\' worlds were destroyed');
    const frames = await page.evaluate(() => document.getElementById('a').frames);
    await waitElementFrames(page, '#a', frames + 5);
    assert.equal(await page.evaluate(() => document.getElementById('a').bodies.length), 2);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// A one-finger vertical swipe through the browser's own input pipeline (CDP), so touch-action and
// scrolling behave as on a phone.
async function swipe(page, cdp, from, to, steps = 8) {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from.x, y: from.y }] });
  for (let i = 1; i <= steps; i++) {
    const x = from.x + ((to.x - from.x) * i) / steps;
    const y = from.y + ((to.y - from.y) * i) / steps;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
    await page.waitForTimeout(30);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

test('touch: a swipe on an inactive figure scrolls the page, even from the body; after a tap a swipe grabs and never scrolls', async () => {
  const { page, context, problems } = await openFixture(`<div style="height: 60px"></div><soft-body id="a" autoplay damping="5"></soft-body><div style="height: 2000px"></div>`, { hasTouch: true });
  try {
    await waitElementFrames(page, '#a', 40);
    const cdp = await context.newCDPSession(page);
    const sky = await page.evaluate(() => {
      const r = document.getElementById('a').getBoundingClientRect();
      return { x: r.left + 20, y: r.top + 40 };
    });
    await swipe(page, cdp, sky, { x: sky.x, y: sky.y - 120 });
    await page.waitForFunction(() => window.scrollY > 30, null, { timeout: 5000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() => window.scrollY === 0);

    const grab = await page.evaluate(() => {
      const a = document.getElementById('a');
      const s = a.stats;
      return { start: s.center[1], point: a._view.project(0, [s.center[0], s.center[1] + 0.45, s.center[2]]) };
    });
    // A swipe that starts on the body, before any tap: the page scrolls, the body stays down.
    let high = grab.start;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: grab.point.x, y: grab.point.y }] });
    for (let i = 1; i <= 8; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: grab.point.x, y: grab.point.y - 12 * i }] });
      await page.waitForTimeout(30);
      high = Math.max(high, await page.evaluate(() => document.getElementById('a').stats.center[1]));
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.waitForFunction(() => window.scrollY > 30, null, { timeout: 5000 });
    assert.ok(high < grab.start + 0.02, `no grab before a tap (${grab.start.toFixed(3)} -> ${high.toFixed(3)} m)`);
    assert.equal(await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('.hint').textContent), 'tap to grab or turn · swipes scroll the page');
    assert.equal(await page.evaluate(() => document.getElementById('a').hasAttribute('active')), false);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() => window.scrollY === 0);
    // A tap on the sky activates the figure; then a swipe from the body grabs it.
    await page.touchscreen.tap(sky.x, sky.y);
    await page.waitForFunction(() => document.getElementById('a').hasAttribute('active'));
    let peak = grab.start;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: grab.point.x, y: grab.point.y }] });
    for (let i = 1; i <= 10; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: grab.point.x, y: grab.point.y - 10 * i }] });
      const frames = await page.evaluate(() => document.getElementById('a').frames);
      await waitElementFrames(page, '#a', frames + 1);
      peak = Math.max(peak, await page.evaluate(() => document.getElementById('a').stats.center[1]));
    }
    const scrolled = await page.evaluate(() => window.scrollY);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    assert.equal(scrolled, 0, 'the page did not scroll under the grab');
    assert.ok(peak > grab.start + 0.1, `the touch lifted the body (${grab.start.toFixed(3)} -> ${peak.toFixed(3)} m)`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('keyboard: the figure takes focus; Shift+arrows turn, + zooms, G grabs and arrows lift, R resets, Space pauses', async () => {
  const { page, context, problems } = await openFixture(`<soft-body id="a" autoplay damping="5"></soft-body>`);
  try {
    await waitElementFrames(page, '#a', 40);
    await page.keyboard.press('Tab'); // the figure's canvas is in the tab order
    const focused = await page.evaluate(() => {
      const a = document.getElementById('a');
      return { focused: document.activeElement === a, active: document.activeElement?.tagName, label: a.shadowRoot.querySelector('canvas.scene').getAttribute('aria-label') };
    });
    assert.ok(focused.focused, `Tab reaches the figure (${focused.active})`);
    assert.match(focused.label, /Shift\+arrows turn.*G grabs/);
    const camera = () => page.evaluate(() => {
      const v = document.getElementById('a')._view;
      return { x: v.camera.position.x, z: v.camera.position.z, distance: v.camera.position.distanceTo(v.controls.target) };
    });
    const c0 = await camera();
    await page.keyboard.press('Shift+ArrowLeft');
    await page.waitForFunction((x) => Math.abs(document.getElementById('a')._view.camera.position.x - x) > 0.05, c0.x, { timeout: FRAME_TIMEOUT });
    const c1 = await camera();
    await page.keyboard.press('+');
    assert.ok((await camera()).distance < 0.9 * c1.distance, 'zoomed in');

    const start = await page.evaluate(() => document.getElementById('a').stats.center[1]);
    await page.keyboard.press('g');
    let peak = start;
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('ArrowUp');
      const frames = await page.evaluate(() => document.getElementById('a').frames);
      await waitElementFrames(page, '#a', frames + 2);
      peak = Math.max(peak, await page.evaluate(() => document.getElementById('a').stats.center[1]));
    }
    await page.keyboard.press('g');
    assert.ok(peak > start + 0.1, `G and ArrowUp lifted the body (${start.toFixed(3)} -> ${peak.toFixed(3)} m)`);
    await page.keyboard.press('r');
    assert.ok((await page.evaluate(() => document.getElementById('a').time)) < 0.2, 'R reset the figure');
    await page.keyboard.press(' ');
    assert.equal(await page.evaluate(() => document.getElementById('a').paused), true, 'Space paused');
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'no key scrolled the page');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
