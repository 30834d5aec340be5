// The integrator comparison page (web/compare.html) in headless Chromium: it opens with the views
// its URL asks for, the stiff-jelly preset makes explicit Euler explode while XPBD stays finite, a
// grab in one view drives every view, the plot has one line per view, a shared URL restores the
// setup, and C API errors are shown without stopping the page.
// One Vite server and one browser for the whole file; each test opens its own page. Waits are on
// frame counts (app.frames) or simulated time, never on wall time.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { OUT_DIR, openDemo, useBrowserSuite, waitFrames, waitMoreFrames } from './harness.mjs';

const VIEWPORT = { width: 720, height: 540 }; // four views in 2 x 2 beside the panel, small for SwiftShader
const FRAME_TIMEOUT = 60_000;

const suite = useBrowserSuite();
before(() => mkdirSync(OUT_DIR, { recursive: true }));

function openCompare(query, frames = 5) {
  return openDemo(suite.browser, suite.url, { query: `compare.html?test${query}`, frames, viewport: VIEWPORT });
}

test('opens with the number of views the URL asks for, one world and solver each, and one plot line per view', async () => {
  const { page, context, problems } = await openCompare('&views=3', 10);
  try {
    const first = await page.evaluate(() => ({ frames: app.frames, time: app.time }));
    await waitFrames(page, first.frames + 10);
    const info = await page.evaluate(() => ({
      cells: app.cellCount(),
      lanes: app.lanes(),
      worlds: app.comparison.lanes.map((lane) => lane.world.handle),
      menus: [...document.querySelectorAll('.cell select.solver')].map((s) => s.value),
      time: app.time,
      webgl2: app.views.renderer.getContext() instanceof WebGL2RenderingContext,
      errors: app.errors.slice(),
      plot: app.plot.series,
      presets: [...document.querySelectorAll('[data-preset]')].map((b) => b.textContent),
      back: document.querySelector('a.nav-link').getAttribute('href'),
    }));
    assert.equal(info.webgl2, true);
    assert.equal(info.cells, 3, 'three view cells');
    assert.equal(info.lanes.length, 3, 'three simulations');
    assert.equal(new Set(info.worlds).size, 3, 'each view has its own world');
    // ?views=3 without a solver list: the first three default views.
    assert.deepEqual(info.lanes.map((l) => l.solver), ['explicitEuler', 'semiImplicitEuler', 'implicitEuler'], 'solvers read back from the C side');
    assert.deepEqual(info.menus, ['explicitEuler', 'semiImplicitEuler', 'implicitEuler'], 'each view menu shows its solver');
    assert.ok(info.time > first.time, 'simulated time advances with the frames');
    for (const lane of info.lanes) {
      assert.ok(Math.abs(lane.time - info.time) < 1e-5, `every world advanced in lockstep (${lane.time} vs ${info.time} s)`);
      assert.equal(lane.exploded, null);
      assert.equal(lane.vertexCount, 216, 'the same 5 x 5 x 5-cell box in every view');
    }
    assert.deepEqual(info.presets, ['stiff jelly', 'big time step', 'energy drift without damping', 'PBD vs XPBD under more substeps', 'stiff cantilever', 'hanging sheet (cloth)']);
    assert.equal(info.back, './index.html', 'links back to the demo');

    // The plot: one line per view, in the view's colour, fed with that view's numbers every frame.
    assert.equal(info.plot.length, 3, 'one plot line per view');
    assert.equal(new Set(info.plot.map((s) => s.color)).size, 3, 'distinct colours');
    assert.deepEqual(info.plot.map((s) => s.label), ['1 · explicit Euler @10', '2 · semi-implicit Euler @10', '3 · implicit Euler @10']);
    const sampled = await page.evaluate(() => ({ series: app.plot.series, lanes: app.lanes(), frames: app.frames }));
    for (const [i, s] of sampled.series.entries()) {
      assert.ok(s.samples >= 15, `series ${i} has ${s.samples} samples`);
      assert.equal(s.finiteSamples, s.samples);
      assert.ok(Math.abs(s.lastEnergy - sampled.lanes[i].energy) <= 1e-3 * Math.abs(sampled.lanes[i].energy), 'the line ends at the view\'s energy');
      assert.ok(Math.abs(s.lastVolume - sampled.lanes[i].volumeRatio) < 1e-6, "and at its volume ratio");
    }
    // Changing a view's solver relabels its line.
    await page.evaluate(() => app.setView(2, { solver: 'rk4' }));
    const relabelled = await page.evaluate(() => ({ plot: app.plot.series.map((s) => s.label), solver: app.lanes()[2].solver }));
    assert.equal(relabelled.solver, 'rk4');
    assert.equal(relabelled.plot[2], '3 · RK4 @10');
    await page.screenshot({ path: `${OUT_DIR}/compare.png` }); // for a human look; not asserted
    assert.deepEqual(info.errors, [], 'no error toast');
    assert.deepEqual(problems, [], 'no page errors or console errors');
  } finally {
    await context.close();
  }
});

test('the stiff-jelly preset: explicit Euler is marked exploded within a bounded number of frames, XPBD stays finite', async () => {
  const { page, context, problems } = await openCompare('', 5);
  try {
    const clicked = await page.evaluate(() => {
      app.preset('stiff-jelly');
      return { frames: app.frames, setup: app.setup(), time: app.time };
    });
    assert.equal(clicked.setup.stiffness, 1e4);
    assert.equal(clicked.time, 0, 'a preset restarts every view');
    assert.deepEqual(clicked.setup.views.map((v) => v.solver), ['explicitEuler', 'semiImplicitEuler', 'implicitEuler', 'xpbd']);
    // Measured in node: explodes 0.45 s after the start (27 frames of 1/60 s), just after landing.
    // Bound: 60 frames (1 s of simulated time); the page is one step per frame.
    await page.waitForFunction(() => app.lanes()[0].exploded !== null || app.time > 1.0, null, { timeout: FRAME_TIMEOUT, polling: 50 });
    const boom = await page.evaluate(() => ({ lanes: app.lanes(), time: app.time }));
    const explicit = boom.lanes[0];
    assert.ok(explicit.exploded, `explicit Euler exploded (time ${boom.time.toFixed(2)} s)`);
    assert.ok(explicit.explodedAt <= 0.75, `within 45 frames: at ${explicit.explodedAt.toFixed(3)} s`);
    assert.match(explicit.label, /EXPLODED at/);
    assert.equal(explicit.hud.state, 'EXPLODED');
    await page.locator('.cell[data-view="0"] .cell-exploded').waitFor({ state: 'visible', timeout: 5_000 });

    // It stays frozen (its world no longer steps) while the others run on for another 60 frames.
    await waitMoreFrames(page, 60);
    const later = await page.evaluate(() => ({
      lanes: app.lanes(),
      time: app.time,
      frozenFinite: Array.from(app.lane(0).body.positions).every(Number.isFinite),
      plot: app.plot.series,
    }));
    assert.equal(later.lanes[0].time, explicit.time, 'the exploded world is not stepped any more');
    // Its numbers are not measurements any more: no 9.67e+124 MJ or 24871.1 % under "frozen".
    assert.deepEqual([later.lanes[0].hud.energy, later.lanes[0].hud.volume, later.lanes[0].hud.strain], ['exploded', '—', '—']);
    assert.match(later.lanes[3].hud.energy, /^-?\d+(\.\d+)? (J|kJ|MJ)$/, 'a stable view keeps its number');
    assert.ok(later.frozenFinite, 'it shows a finite (last sane) shape, not debris');
    const xpbd = later.lanes[3];
    assert.equal(xpbd.exploded, null, 'XPBD stays stable');
    assert.equal(xpbd.finite, true);
    assert.ok(xpbd.energy < 1.01 * 9810, `XPBD's energy ${xpbd.energy.toFixed(0)} J stays below its start (9810 J)`);
    assert.ok(xpbd.maxEdgeStrain < 0.5, `XPBD's max edge strain ${xpbd.maxEdgeStrain.toFixed(2)}`);
    assert.equal(later.lanes[1].exploded, null, 'semi-implicit Euler is stable at this stiffness');
    assert.equal(later.lanes[2].exploded, null, 'so is implicit Euler');
    assert.ok(later.time > explicit.explodedAt + 0.9, 'the other views kept running');
    assert.equal(later.plot[0].exploded, true, 'the plot marks the exploded line');
    assert.equal(later.plot[3].exploded, false);

    // Reset brings it back.
    await page.evaluate(() => app.press('reset'));
    await waitMoreFrames(page, 2);
    const reset = await page.evaluate(() => app.lanes()[0]);
    assert.equal(reset.exploded, null);
    assert.equal(reset.finite, true);
    await page.locator('.cell[data-view="0"] .cell-exploded').waitFor({ state: 'hidden', timeout: 5_000 });
    assert.deepEqual(await page.evaluate(() => app.errors.slice()), [], 'an explosion is a label, not an error toast');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the hanging-sheet preset: cloth in every view, explicit Euler explodes, the others swing the sheet down and keep stepping', async () => {
  const { page, context, problems } = await openCompare('', 5);
  try {
    const clicked = await page.evaluate(() => {
      app.preset('hanging-sheet');
      return {
        setup: app.setup(),
        time: app.time,
        cloth: app.comparison.lanes.map((lane) => lane.body.isCloth),
        lanes: app.lanes(),
      };
    });
    assert.equal(clicked.setup.scene, 'sheet');
    assert.equal(clicked.time, 0, 'a preset restarts every view');
    assert.deepEqual(clicked.setup.views.map((v) => v.solver), ['explicitEuler', 'semiImplicitEuler', 'implicitEuler', 'xpbd']);
    assert.deepEqual(clicked.lanes.map((l) => l.solver), ['explicitEuler', 'semiImplicitEuler', 'implicitEuler', 'xpbd'], 'cloth takes every solver (read back from the C side)');
    assert.deepEqual(clicked.cloth, [true, true, true, true], 'a cloth body in every view');
    assert.equal(new Set(clicked.lanes.map((l) => l.vertexCount)).size, 1, 'the same sheet in every view');
    const startY = clicked.lanes[3].center[1];
    // Measured in node (scripts/compare_presets.mjs hanging-sheet): explicit Euler explodes at
    // 0.40 s (24 frames). Bound: 45 frames; the page is one step per frame.
    await page.waitForFunction(() => app.lanes()[0].exploded !== null || app.time > 1.0, null, { timeout: FRAME_TIMEOUT, polling: 50 });
    const boom = await page.evaluate(() => app.lanes()[0]);
    assert.ok(boom.exploded, 'explicit Euler exploded');
    assert.ok(boom.explodedAt <= 0.75, `within 45 frames: at ${boom.explodedAt.toFixed(3)} s`);
    assert.match(boom.label, /EXPLODED at/);
    await page.locator('.cell[data-view="0"] .cell-exploded').waitFor({ state: 'visible', timeout: 5_000 });
    await waitMoreFrames(page, 30);
    const later = await page.evaluate(() => ({ lanes: app.lanes(), time: app.time }));
    assert.equal(later.lanes[0].time, boom.time, 'the exploded world is not stepped any more');
    for (const lane of later.lanes.slice(1)) {
      assert.equal(lane.exploded, null, `${lane.solver} stays stable`);
      assert.equal(lane.finite, true);
      assert.ok(Math.abs(lane.time - later.time) < 1e-5, `${lane.solver} keeps stepping`);
      // Released flat 1.6 m up and held along one edge, the sheet swings down: by 0.9 s its centre
      // is over 0.2 m lower (measured ~0.45 m in node), and its edges stretch less than 30 % (14 % at rest).
      assert.ok(lane.center[1] < startY - 0.2, `${lane.solver}: centre at ${lane.center[1].toFixed(2)} m, from ${startY.toFixed(2)} m`);
      assert.ok(lane.maxEdgeStrain < 0.3, `${lane.solver}: max edge strain ${lane.maxEdgeStrain.toFixed(2)}`);
    }
    await page.screenshot({ path: `${OUT_DIR}/compare_sheet.png` }); // for a human look; not asserted
    assert.deepEqual(await page.evaluate(() => app.errors.slice()), [], 'no error toast');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the stiff-cantilever preset: each view\'s tip sag beside beam theory\'s line; VBD converges on implicit Euler with sweeps', async () => {
  const { page, context, problems } = await openCompare('', 5);
  try {
    await page.evaluate(() => app.preset('stiff-cantilever'));
    const setup = await page.evaluate(() => app.setup());
    assert.equal(setup.scene, 'cantilever');
    assert.equal(setup.material, 'neo-hookean');
    assert.deepEqual(setup.views.map((v) => [v.solver, v.iterations]), [['implicitEuler', 1], ['vbd', 1], ['vbd', 8], ['vbd', 32]]);
    // 1.5 s of simulated time (drag 5/s: settled within a few per cent, but for VBD x1; node:
    // implicit Euler 87.4 mm, VBD x1 103 mm).
    await page.waitForFunction(() => app.time >= 1.5, null, { timeout: 4 * FRAME_TIMEOUT, polling: 100 });
    await waitMoreFrames(page, 35); // the HUD refreshes twice a second
    const { lanes, guides } = await page.evaluate(() => ({ lanes: app.lanes(), guides: app.guides() }));
    const [implicit, one, eight, many] = lanes;
    for (const lane of lanes) {
      assert.equal(lane.material, 1, 'Neo-Hookean in every view');
      assert.ok(Math.abs(lane.beamSag - 0.1471) < 1e-3, `beam theory 1.5 rho g L^4 / (E h^2) = 147 mm (${lane.beamSag})`);
      assert.match(lane.hud.sag, /^\d+\.\d mm \(static 89\.\d, beam 147\)$/);
      // The static equilibrium on this mesh (Body.solveStatic in a scratch world): 89.19 mm natively.
      assert.ok(Math.abs(lane.staticSag - 0.08919) < 5e-4, `static answer ${lane.staticSag}`);
    }
    assert.deepEqual([one.iterations, eight.iterations, many.iterations], [1, 8, 32]);
    // Implicit Euler: short of beam theory by the linear tets' locking (61 % measured), well above 0.
    assert.ok(implicit.tipSag > 0.45 * implicit.beamSag && implicit.tipSag < 0.75 * implicit.beamSag, `implicit Euler ${implicit.tipSag}`);
    // VBD: off with few sweeps, on implicit Euler with many. One sweep no longer creeps (it went from
    // 101 mm at 1.5 s to 468 mm at 10 s, gaining energy, before each substep's result was checked
    // against its start, solvers.md): it swings about the answer and stays near it (node: 103 mm at
    // 1.5 s, 110.5 mm at 10 s), so read 1.5-2.5 s into the page it lies within 0.8-1.6 times implicit
    // Euler, where the creep was 5 times; 8 forward sweeps settle 1.8 times too soft.
    assert.ok(one.tipSag > 0.8 * implicit.tipSag && one.tipSag < 1.6 * implicit.tipSag, `VBD x1 ${one.tipSag}`);
    assert.ok(eight.tipSag > 1.3 * implicit.tipSag && eight.tipSag > many.tipSag, `VBD x8 ${eight.tipSag}`);
    assert.ok(Math.abs(many.tipSag / implicit.tipSag - 1) < 0.1, `VBD x32 ${many.tipSag} vs implicit Euler ${implicit.tipSag}`);
    // Implicit Euler settles on the static answer of the same mesh (drag 5/s leaves a few per cent
    // of the swing at 1.5 s; node, 150 frames at damping 10/s: 0.24 %).
    assert.ok(Math.abs(implicit.tipSag / implicit.staticSag - 1) < 0.05, `implicit Euler ${implicit.tipSag} vs static ${implicit.staticSag}`);
    // The clamp and the red line at beam theory's height of the free end's axis (1.2 m at rest).
    assert.deepEqual({ clamp: guides.clamp, beam: guides.beam, settled: guides.settled }, { clamp: true, beam: true, settled: true });
    assert.ok(Math.abs(guides.beamY - (1.2 - implicit.beamSag)) < 1e-6);
    assert.ok(Math.abs(guides.settledY - (1.2 - implicit.staticSag)) < 1e-6, 'the green line at the static answer');
    // PBD cannot run this material: switching a view to it is refused with the C API's reason. XPBD
    // can (its stiffness number here, ~60 per substep, is far below its limit of 500).
    await page.evaluate(() => app.setView(1, { solver: 'pbd' }));
    const refused = await page.evaluate(() => ({ errors: app.errors.slice(), solver: app.lanes()[1].solver }));
    assert.equal(refused.solver, 'vbd', 'the view keeps its solver');
    assert.match(refused.errors.at(-1) ?? '', /MATERIAL_SOLVER/);
    await page.evaluate(() => app.setView(1, { solver: 'xpbd' }));
    const accepted = await page.evaluate(() => ({ errors: app.errors.length, lane: app.lanes()[1] }));
    assert.equal(accepted.lane.solver, 'xpbd', 'XPBD runs the Neo-Hookean beam');
    assert.equal(accepted.lane.material, 1);
    assert.equal(accepted.errors, refused.errors.length, 'no new error');
    await page.evaluate(() => app.setView(1, { solver: 'vbd' }));
    // The URL carries the material and the sweeps, and opening it restores them.
    const query = await page.evaluate(() => app.url());
    for (const part of ['scene=cantilever', 'mat=neo-hookean', 'E=10000000', 'nu=0.3', 'iters=1,1,8,32']) assert.ok(query.includes(part), `${part} in ${query}`);
    const again = await openCompare(`&${query.slice(1).replace(/(^|&)test(&|$)/, '$1')}`, 2);
    try {
      const restored = await again.page.evaluate(() => app.setup());
      assert.equal(restored.material, 'neo-hookean');
      assert.equal(restored.youngsModulus, 1e7);
      assert.deepEqual(restored.views.map((v) => v.iterations), [1, 1, 8, 32]);
    } finally {
      await again.context.close();
    }
    // A material button sets real values on every view (rubber: E = 2 MPa, nu = 0.49).
    await page.evaluate(() => app.press('rubber'));
    const rubber = await page.evaluate(() => ({ setup: app.setup(), E: app.lane(0).body.getParam('youngsModulus') }));
    assert.equal(rubber.setup.youngsModulus, 2e6);
    assert.ok(Math.abs(rubber.setup.poissonRatio - 0.49) < 1e-9);
    assert.equal(rubber.E, 2e6, 'the C side holds it');
    // Other scenes draw no guides.
    await page.evaluate(() => app.preset('stiff-jelly'));
    const other = await page.evaluate(() => app.guides());
    assert.equal(other.clamp, false);
    assert.equal(other.beam, false);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a grab in one view drives the same particle along the same path in every view', async () => {
  // Default setup (k = 5000 N/m, damping 50 N s/m): all four solvers stable. Frame 70: landed.
  const { page, context, problems } = await openCompare('', 70);
  try {
    const before = await page.evaluate(() => ({
      lanes: app.lanes(),
      point: app.bodyScreenPoint(2), // press in the third view
      camera: app.views.camera.position.toArray(),
    }));
    await page.mouse.move(before.point.x, before.point.y);
    await page.mouse.down();
    const held = await page.evaluate(() => app.grab());
    assert.equal(held.dragging, true, 'the press hit the body in view 3');
    assert.equal(held.primary, 2);
    assert.equal(held.held, 4, 'the grab went to all four views');
    const grabbed = await page.evaluate(() => app.lanes().map((l) => l.grabbedVertex));
    assert.deepEqual(grabbed, [held.vertex, held.vertex, held.vertex, held.vertex], 'the same particle in every view');
    // Where each view's particle was at the press (held still by the grab until the pointer moves).
    const pressed = await page.evaluate((v) => app.comparison.lanes.map((lane) => Array.from(lane.body.positions.slice(3 * v, 3 * v + 3))), held.vertex);

    // Drag up in 8 steps, one per frame, then hold.
    for (let i = 1; i <= 8; i++) {
      await page.mouse.move(before.point.x, before.point.y - 8 * i);
      await waitMoreFrames(page, 1);
    }
    await waitMoreFrames(page, 20);
    const during = await page.evaluate((v) => ({
      lanes: app.lanes(),
      particles: app.comparison.lanes.map((lane) => Array.from(lane.body.positions.slice(3 * v, 3 * v + 3))),
      camera: app.views.camera.position.toArray(),
    }), held.vertex);
    for (let i = 0; i < 4; i++) {
      const lane = during.lanes[i];
      assert.equal(lane.grabbedVertex, held.vertex, `view ${i + 1} still holds the particle`);
      const rise = lane.center[1] - before.lanes[i].center[1];
      assert.ok(rise > 0.03, `view ${i + 1}: centre of mass rose ${rise.toFixed(3)} m toward the drag`);
    }
    // Same path: every view's particle moved by the same displacement from where it was pressed
    // (the grab is kinematic, so exactly, up to float32 rounding).
    const moved = during.particles.map((p, i) => p.map((c, k) => c - pressed[i][k]));
    assert.ok(moved.every((d) => d[1] > 0.3), `held particles raised by ${moved.map((d) => d[1].toFixed(3)).join(', ')} m`);
    for (const d of moved) {
      for (let k = 0; k < 3; k++) assert.ok(Math.abs(d[k] - moved[0][k]) < 1e-4, `same displacement in every view: ${JSON.stringify(moved)}`);
    }
    assert.deepEqual(during.camera, before.camera, 'the camera does not orbit while dragging');

    await page.mouse.up();
    const released = await page.evaluate(() => ({ grab: app.grab(), grabbed: app.lanes().map((l) => l.grabbedVertex) }));
    assert.equal(released.grab.dragging, false);
    assert.deepEqual(released.grabbed, [-1, -1, -1, -1], 'every view let go');
    assert.deepEqual(await page.evaluate(() => app.errors.slice()), []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a shared URL restores the setup; changes rewrite the URL; bad parameters are reported', async () => {
  const query =
    '&scene=ball&res=4&start=squash&k=20000&c=5&drag=0.5&pbd=0.3&g=-5&p=3000&hz=120&solvers=pbd,rk4&substeps=7,3';
  const first = await openCompare(query, 3);
  let written;
  try {
    const { page } = first;
    const state = await page.evaluate(() => ({
      setup: app.setup(),
      lanes: app.lanes(),
      dt: app.comparison.dt,
      gravity: app.comparison.lanes.map((lane) => lane.gravity),
      cells: app.cellCount(),
      menus: [...document.querySelectorAll('.cell select.solver')].map((s) => s.value),
      substepFields: [...document.querySelectorAll('.cell input[aria-label$=" substeps"]')].map((s) => s.value),
      stiffnessField: document.querySelector('.compare-panel .lil-controller:has(input[readonly]) input').value,
    }));
    assert.deepEqual(state.setup, {
      scene: 'ball',
      resolution: 4,
      start: 'squash',
      stiffness: 20000,
      springDamping: 5,
      drag: 0.5,
      pbdStiffness: 0.3,
      gravity: -5,
      pressure: 3000,
      hz: 120,
      material: 'simple',
      youngsModulus: 1e7,
      poissonRatio: 0.3,
      views: [
        { solver: 'pbd', substeps: 7, iterations: 1 },
        { solver: 'rk4', substeps: 3, iterations: 1 },
      ],
    });
    assert.equal(state.cells, 2);
    assert.deepEqual(state.menus, ['pbd', 'rk4']);
    assert.deepEqual(state.substepFields, ['7', '3']);
    assert.equal(state.stiffnessField, '2.0e4', 'the stiffness slider shows the value');
    assert.equal(state.dt, 1 / 120);
    assert.deepEqual(state.gravity, [-5, -5]);
    // The C side holds it: solver, substeps and the parameters derived from k.
    assert.deepEqual(state.lanes.map((l) => [l.solver, l.substeps]), [['pbd', 7], ['rk4', 3]]);
    for (const lane of state.lanes) {
      assert.ok(Math.abs(lane.params.edgeCompliance - 1 / 20000) < 1e-9, 'edge compliance = 1/k');
      assert.ok(Math.abs(lane.params.volumeCompliance / (lane.meanEdge ** 4 / 20000) - 1) < 1e-5, 'volume compliance = L^4/k');
      assert.equal(lane.params.springDamping, 5);
      assert.equal(lane.params.damping, 0.5);
      assert.ok(Math.abs(lane.params.pbdStiffness - 0.3) < 1e-7);
    }

    // Changes through the controls rewrite the URL...
    await page.evaluate(() => {
      app.set('stiffness', 3000);
      app.setView(1, { solver: 'verlet', substeps: 12 });
    });
    written = await page.evaluate(() => app.url());
    assert.match(written, /[?&]k=3000(&|$)/);
    assert.match(written, /[?&]solvers=pbd,verlet(&|$)/);
    assert.match(written, /[?&]substeps=7,12(&|$)/);
    assert.deepEqual(await page.evaluate(() => app.errors.slice()), []);
    assert.deepEqual(first.problems, []);
  } finally {
    await first.context.close();
  }

  // ...and opening that URL restores exactly that setup.
  const second = await openDemo(suite.browser, suite.url, { query: `compare.html${written}`, frames: 2, viewport: VIEWPORT });
  try {
    const restored = await second.page.evaluate(() => ({ setup: app.setup(), lanes: app.lanes().map((l) => [l.solver, l.substeps]) }));
    assert.equal(restored.setup.stiffness, 3000);
    assert.equal(restored.setup.scene, 'ball');
    assert.equal(restored.setup.hz, 120);
    assert.deepEqual(restored.setup.views, [
      { solver: 'pbd', substeps: 7, iterations: 1 },
      { solver: 'verlet', substeps: 12, iterations: 1 },
    ]);
    assert.deepEqual(restored.lanes, [['pbd', 7], ['verlet', 12]]);
    assert.deepEqual(second.problems, []);
  } finally {
    await second.context.close();
  }

  // A malformed link still opens (defaults in place of what it could not read) and says why.
  const third = await openCompare('&k=abc&views=9&solvers=xpbd,leapfrog,rk4', 2);
  try {
    const bad = await third.page.evaluate(() => ({ setup: app.setup(), errors: app.errors.slice() }));
    assert.equal(bad.setup.stiffness, 5000, 'k falls back to the default');
    assert.equal(bad.setup.views.length, 4, 'views clamped to 4');
    assert.deepEqual(bad.setup.views.slice(0, 2).map((v) => v.solver), ['xpbd', 'rk4'], 'the unknown solver is skipped');
    assert.ok(bad.errors.some((e) => /k=abc is not a number/.test(e)), bad.errors.join('\n'));
    assert.ok(bad.errors.some((e) => /unknown solver "leapfrog"/.test(e)));
    assert.ok(bad.errors.some((e) => /9 views asked for/.test(e)));
    assert.deepEqual(third.problems, [], 'reported as toasts (warnings), never as console errors');
  } finally {
    await third.context.close();
  }
});

test('C API errors show as toasts, the control snaps back, and every view keeps running', async () => {
  const { page, context, problems } = await openCompare('&views=2', 5);
  try {
    // A view's substep field: 0 goes to sb_world_set_substeps, which refuses it.
    await page.evaluate(() => app.setView(1, { substeps: 0 }));
    await page.locator('.toast', { hasText: 'SB_ERR_OUT_OF_RANGE' }).first().waitFor({ timeout: 5_000 });
    let state = await page.evaluate(() => ({
      errors: app.errors.slice(),
      substeps: app.lanes()[1].substeps,
      field: document.querySelector('.cell[data-view="1"] input[aria-label$=" substeps"]').value,
      setup: app.setup(),
    }));
    assert.ok(state.errors.some((e) => /substeps must be in \[1, 200\], got 0/.test(e)), state.errors.join('\n'));
    assert.equal(state.substeps, 10, 'the world keeps its substeps');
    assert.equal(state.field, '10', 'the field snaps back');
    assert.equal(state.setup.views[1].substeps, 10);

    // A shared slider with a value the C API refuses: nothing changes in any view.
    await page.evaluate(() => app.set('springDamping', -3));
    await page.locator('.toast', { hasText: 'got -3' }).first().waitFor({ timeout: 5_000 });
    state = await page.evaluate(() => ({ lanes: app.lanes(), setup: app.setup(), frames: app.frames, time: app.time }));
    assert.deepEqual(state.lanes.map((l) => l.params.springDamping), [50, 50], 'no view changed');
    assert.equal(state.setup.springDamping, 50);

    await waitFrames(page, state.frames + 10);
    const running = await page.evaluate(() => ({ time: app.time, lanes: app.lanes() }));
    assert.ok(running.time > state.time, 'still simulating');
    assert.ok(running.lanes.every((l) => l.finite && !l.exploded));
    assert.deepEqual(problems, [], 'C API errors are warnings plus toasts, never console errors');
  } finally {
    await context.close();
  }
});

// A one-finger swipe through the browser's input pipeline (CDP), so touch-action and scrolling
// behave as on a phone; returns the page's scroll after it.
async function swipe(page, cdp, from, dy) {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from.x, y: from.y }] });
  for (let i = 1; i <= 8; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from.x, y: from.y + (dy * i) / 8 }] });
    await page.waitForTimeout(30);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await page.waitForTimeout(200);
  return page.evaluate(() => document.body.scrollTop); // the page scrolls in its body
}

test('on a phone the stacked views scroll the page by touch; after a tap a touch grabs', async () => {
  const { page, context, problems } = await openDemo(suite.browser, suite.url, { query: 'compare.html?test&views=2', frames: 5, viewport: { width: 390, height: 700 }, hasTouch: true });
  try {
    const cdp = await context.newCDPSession(page);
    const box = await page.evaluate(() => {
      const r = document.querySelector('.views-canvas').getBoundingClientRect();
      // A point of the canvas itself (not a view's menu or heads-up line laid over it).
      const canvas = document.querySelector('.views-canvas');
      for (let y = r.top + 30; y < Math.min(r.bottom, 680); y += 10) {
        for (let x = r.left + 10; x < r.right - 10; x += 10) {
          if (document.elementFromPoint(x, y) === canvas) return { x, y, page: document.body.scrollHeight };
        }
      }
      return null;
    });
    assert.ok(box, 'a point of the views canvas in the first screen');
    assert.ok(box.page > 700, `the page is taller than the phone (${box.page} px)`);
    const scrolled = await swipe(page, cdp, box, -200);
    assert.ok(scrolled > 50, `a swipe over the views scrolls the page (${scrolled} px)`);
    assert.equal(await page.evaluate(() => document.querySelector('.views-canvas').classList.contains('is-active')), false);
    // A tap activates the views: touches then belong to them, and a swipe no longer scrolls.
    await page.evaluate(() => document.body.scrollTo(0, 0));
    await page.waitForFunction(() => document.body.scrollTop === 0);
    await page.touchscreen.tap(box.x, box.y);
    await page.waitForFunction(() => document.querySelector('.views-canvas').classList.contains('is-active'));
    assert.equal(await swipe(page, cdp, box, -200), 0, 'active: the swipe orbits or grabs, the page stays');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the hanging sheet under PBD: the view keeps PBD (read back from the C side), swings the sheet down, finite', async () => {
  const { page, context, problems } = await openCompare('&scene=sheet&solvers=pbd,xpbd', 5);
  try {
    const start = await page.evaluate(() => ({ lanes: app.lanes(), cloth: app.comparison.lanes.map((lane) => lane.body.isCloth) }));
    assert.deepEqual(start.lanes.map((l) => l.solver), ['pbd', 'xpbd'], 'cloth takes PBD');
    assert.deepEqual(start.cloth, [true, true]);
    // Let go flat 1.6 m up and held along one edge: by 0.5 s its centre of mass has fallen (free
    // fall alone: 1.2 m; the held edge keeps it to a swing), under PBD as under XPBD.
    await page.waitForFunction(() => app.time > 0.5, null, { timeout: FRAME_TIMEOUT, polling: 50 });
    const later = await page.evaluate(() => app.lanes());
    for (const [k, lane] of later.entries()) {
      assert.ok(lane.center.every(Number.isFinite), `view ${k} finite`);
      assert.ok(lane.center[1] < start.lanes[k].center[1] - 0.05, `view ${k} swings down: ${start.lanes[k].center[1]} -> ${lane.center[1]}`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
