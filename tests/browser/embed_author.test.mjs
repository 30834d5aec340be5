// <soft-body>'s author attributes and API, <model-viewer> style, in headless Chromium: alt (the
// figure's accessible name, and the words shown when WebGL fails), loading, reveal and
// dismissPoster(), interactive="false", disable-zoom, the events (load, progress, visibility,
// exploded, error) and toBlob(); and the camera following a thrown body (camera-follow).
// Each test checks that the attribute does what it says, against the browser's own accessibility
// tree, input pipeline and image decoder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FRAME_TIMEOUT, useBrowserSuite } from './harness.mjs';

const suite = useBrowserSuite();

const CUBE_OBJ = ['v 0 0 0', 'v 1 0 0', 'v 1 1 0', 'v 0 1 0', 'v 0 0 1', 'v 1 0 1', 'v 1 1 1', 'v 0 1 1',
  'f 1 4 3', 'f 1 3 2', 'f 5 6 7', 'f 5 7 8', 'f 1 2 6', 'f 1 6 5', 'f 4 8 7', 'f 4 7 3', 'f 1 5 8', 'f 1 8 4', 'f 2 3 7', 'f 2 7 6'].join('\n');

// Opens `body` as a page on the Vite server with <soft-body> registered (?test: cheap rendering).
// noWebGL: the page's canvases give no WebGL context, as on a machine without it. Every event of
// the element's is recorded in window.__events as { id, type, detail }.
async function openFixture(body, { noWebGL = false } = {}) {
  const context = await suite.browser.newContext({ viewport: { width: 640, height: 480 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = [];
  const wasmRequests = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  page.on('request', (request) => {
    if (request.url().endsWith('.wasm')) wasmRequests.push(request.url());
  });
  await page.addInitScript((block) => {
    window.__events = [];
    for (const type of ['load', 'ready', 'progress', 'visibility', 'exploded', 'error']) {
      document.addEventListener(type, (e) => {
        if (e.target.localName === 'soft-body') window.__events.push({ id: e.target.id, type, detail: e.detail });
      }, true);
    }
    if (block) {
      const getContext = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
        return type === 'webgl2' || type === 'webgl' ? null : getContext.call(this, type, ...rest);
      };
    }
  }, noWebGL);
  await page.route('**/fixture.html*', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
        <style>body { margin: 0; font: 14px sans-serif; } soft-body { width: 320px; }</style></head>
        <body>${body}<script type="module" src="/src/embed/index.js"></script></body></html>`,
    }),
  );
  await page.route('**/meshes/cube.obj', (route) => route.fulfill({ contentType: 'text/plain', body: CUBE_OBJ }));
  await page.goto(`${suite.url}fixture.html?test`);
  await page.waitForFunction(() => customElements.get('soft-body') !== undefined);
  return { page, context, problems, wasmRequests };
}

async function waitFrames(page, id, n) {
  await page.waitForFunction(([i, k]) => document.getElementById(i)?.frames > k, [id, n], { timeout: FRAME_TIMEOUT, polling: 50 });
}
const framesOf = (page, id) => page.evaluate((i) => document.getElementById(i).frames, id);
const events = (page, id, type) => page.evaluate(([i, t]) => window.__events.filter((e) => e.id === i && e.type === t).map((e) => e.detail), [id, type]);

test('alt names the figure in the accessibility tree, and is shown with the reason when WebGL fails', async () => {
  const alt = 'A soft red box dropped on the floor, bouncing once and settling';
  const { page, context, problems } = await openFixture(`<soft-body id="a" autoplay alt="${alt}"></soft-body>`);
  try {
    await waitFrames(page, 'a', 2);
    const cdp = await context.newCDPSession(page);
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const figure = nodes.find((n) => n.role?.value === 'figure' && n.name?.value === alt);
    assert.ok(figure, `a figure named by alt in Chromium's accessibility tree (${nodes.filter((n) => n.role?.value === 'figure').map((n) => n.name?.value).join(' | ')})`);
    const label = await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('canvas.scene').getAttribute('aria-label'));
    assert.ok(label.startsWith(`${alt}.`), label);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }

  const failed = await openFixture(`<soft-body id="a" autoplay alt="${alt}"></soft-body>`, { noWebGL: true });
  try {
    await failed.page.waitForFunction(() => window.__events.some((e) => e.type === 'error'), null, { timeout: FRAME_TIMEOUT });
    await failed.page.waitForTimeout(200);
    const shown = await failed.page.evaluate(() => {
      const root = document.getElementById('a').shadowRoot;
      const altText = root.querySelector('.placeholder .alt');
      return { reason: root.querySelector('.loading-text').textContent, alt: altText.hidden ? null : altText.textContent, visible: altText.getBoundingClientRect().height > 0 };
    });
    assert.match(shown.reason, /^the simulation could not start: /);
    assert.equal(shown.alt, alt, 'the alt text stands in for the figure');
    assert.ok(shown.visible);
    const errors = await events(failed.page, 'a', 'error');
    assert.equal(errors.length, 1, 'one error event');
    assert.equal(errors[0].fatal, true);
    assert.equal(errors[0].message, shown.reason.replace('the simulation could not start: ', ''));
  } finally {
    await failed.context.close();
  }
});

test('loading="eager" loads far below the fold; reveal="interaction" loads nothing until clicked, then plays; reveal="manual" waits for dismissPoster()', async () => {
  const lazy = await openFixture(`<soft-body id="i" reveal="interaction"></soft-body>`);
  try {
    await lazy.page.waitForTimeout(800);
    const waiting = await lazy.page.evaluate(() => {
      const i = document.getElementById('i');
      const play = i.shadowRoot.querySelector('.play');
      return { loaded: i.loaded, frames: i.frames, play: !play.hidden, label: play.getAttribute('aria-label'), tab: i.tabIndex };
    });
    assert.deepEqual(waiting, { loaded: false, frames: 0, play: true, label: 'load and play the simulation', tab: 0 });
    assert.equal(lazy.wasmRequests.length, 0, 'in view, but nothing fetched before the click');
    await lazy.page.click('#i');
    await waitFrames(lazy.page, 'i', 5);
    const playing = await lazy.page.evaluate(() => ({ paused: document.getElementById('i').paused, time: document.getElementById('i').time }));
    assert.equal(playing.paused, false, 'the click plays it');
    assert.ok(playing.time > 0);
    assert.equal(lazy.wasmRequests.length, 1);
    assert.deepEqual(lazy.problems, []);
  } finally {
    await lazy.context.close();
  }

  const { page, context, problems } = await openFixture(`
    <soft-body id="m" reveal="manual" loading="eager" autoplay></soft-body>
    <div style="height: 3000px"></div>
    <soft-body id="e" loading="eager"></soft-body>`);
  try {
    await page.waitForFunction(() => document.getElementById('m').loaded && document.getElementById('e').loaded, null, { timeout: FRAME_TIMEOUT });
    await page.waitForTimeout(500);
    const before = await page.evaluate(() => {
      const m = document.getElementById('m');
      return { m: m.frames, e: document.getElementById('e').frames, time: m.time, placeholder: m.shadowRoot.querySelector('.placeholder').classList.contains('gone'), play: !m.shadowRoot.querySelector('.play').hidden };
    });
    assert.deepEqual(before, { m: 0, e: 0, time: 0, placeholder: false, play: false }, 'both built in advance; manual stays behind its placeholder, eager below the fold draws nothing');
    await page.evaluate(() => document.getElementById('m').dismissPoster());
    await waitFrames(page, 'm', 5);
    assert.ok(await page.evaluate(() => document.getElementById('m').time > 0), 'revealed, it plays (autoplay)');
    assert.equal((await events(page, 'm', 'load')).length, 1);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('interactive="false": a drag neither grabs nor turns, the figure is not in the tab order; disable-zoom: the wheel never zooms', async () => {
  // Twins: the same figure twice, stepped frame by frame together; one is dragged across.
  const { page, context, problems } = await openFixture(`
    <div style="height: 40px"></div>
    <soft-body id="a" interactive="false"></soft-body>
    <soft-body id="t" interactive="false"></soft-body>
    <soft-body id="z" disable-zoom autoplay></soft-body>
    <div style="height: 2000px"></div>`);
  try {
    await waitFrames(page, 'a', 0);
    await waitFrames(page, 't', 0);
    const stepBoth = async (n) => {
      const [fa, ft] = [await framesOf(page, 'a'), await framesOf(page, 't')];
      await page.evaluate((k) => ['a', 't'].forEach((i) => document.getElementById(i).step(k)), n);
      await waitFrames(page, 'a', fa + n - 1);
      await waitFrames(page, 't', ft + n - 1);
    };
    await stepBoth(30); // landed
    const start = await page.evaluate(() => {
      const a = document.getElementById('a');
      const s = a.stats;
      return { camera: a._view.camera.position.toArray(), point: a._view.project(0, [s.center[0], s.center[1] + 0.45, s.center[2]]) };
    });
    await page.mouse.move(start.point.x, start.point.y);
    await page.mouse.down();
    let grabbed = -1;
    for (let i = 1; i <= 10; i++) {
      await page.mouse.move(start.point.x + 8 * i, start.point.y - 12 * i);
      await stepBoth(1);
      grabbed = Math.max(grabbed, await page.evaluate(() => document.getElementById('a').stats.grabbedVertex));
    }
    await page.mouse.up();
    await stepBoth(5);
    const end = await page.evaluate(() => {
      const [a, t] = ['a', 't'].map((i) => document.getElementById(i));
      const pa = a.bodies[0].positions;
      const pt = t.bodies[0].positions;
      let differ = 0;
      for (let i = 0; i < pa.length; i++) if (pa[i] !== pt[i]) differ += 1;
      return { differ, time: [a.time, t.time], camera: a._view.camera.position.toArray() };
    });
    assert.equal(grabbed, -1, 'no vertex was grabbed');
    assert.equal(end.time[0], end.time[1]);
    assert.equal(end.differ, 0, 'every vertex is where the undragged twin has it, to the bit');
    assert.deepEqual(end.camera, start.camera, 'the camera did not turn');
    const access = await page.evaluate(() => {
      const a = document.getElementById('a');
      return { tabindex: a.getAttribute('tabindex'), label: a.shadowRoot.querySelector('canvas.scene').getAttribute('aria-label'), touch: a.shadowRoot.querySelector('canvas.scene').style.touchAction };
    });
    assert.equal(access.tabindex, null, 'not in the tab order');
    assert.doesNotMatch(access.label, /Drag|Shift/, 'the name promises no interaction');
    assert.equal(access.touch, 'auto', 'touches pan and zoom the page');

    // disable-zoom: activated by a click, the wheel still leaves the camera where it was.
    await page.evaluate(() => document.getElementById('z').scrollIntoView({ block: 'center' }));
    await waitFrames(page, 'z', (await framesOf(page, 'z')) + 3);
    const sky = await page.evaluate(() => {
      const r = document.getElementById('z').getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + 20 };
    });
    const distance = () => page.evaluate(() => {
      const v = document.getElementById('z')._view;
      return v.camera.position.distanceTo(v.controls.target);
    });
    await page.mouse.click(sky.x, sky.y);
    assert.equal(await page.evaluate(() => document.getElementById('z').hasAttribute('active')), true);
    const d0 = await distance();
    const y0 = await page.evaluate(() => window.scrollY);
    await page.mouse.wheel(0, 240); // would zoom out
    await page.keyboard.press('+');
    await waitFrames(page, 'z', (await framesOf(page, 'z')) + 5);
    assert.equal(await distance(), d0, 'the camera distance is unchanged');
    await page.waitForFunction((y) => window.scrollY !== y, y0, { timeout: 5000 });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('events: load once per build with what was built, progress up to 1, visibility, exploded once per view', async () => {
  const { page, context, problems } = await openFixture(`
    <soft-body id="a" autoplay></soft-body>
    <soft-body id="s" src="/meshes/cube.obj" resolution="5"></soft-body>
    <soft-body id="c" compare="explicit-euler xpbd" stiffness="20000" damping="0" autoplay></soft-body>`);
  try {
    await waitFrames(page, 'a', 10);
    await waitFrames(page, 's', 0);
    await waitFrames(page, 'c', 30);
    const loads = await events(page, 'a', 'load');
    assert.equal(loads.length, 1, 'one load for one build');
    const tets = await page.evaluate(() => document.getElementById('a').bodies[0].tetCount);
    assert.deepEqual({ ...loads[0], ms: 0 }, { scene: 'box', src: null, views: 1, vertices: 343, tets, ms: 0, note: null });
    assert.ok(loads[0].ms > 0);
    assert.equal((await events(page, 'a', 'ready')).length, 1);
    assert.deepEqual(await events(page, 'a', 'visibility'), [{ visible: true }]);

    const progress = (await events(page, 's', 'progress')).map((p) => p.fraction);
    assert.ok(progress.length >= 2, `progress events (${progress.join(', ')})`);
    assert.ok(progress.every((f, i) => i === 0 || f >= progress[i - 1]), `never backwards (${progress.join(', ')})`);
    assert.equal(progress.at(-1), 1);
    assert.equal(await page.evaluate(() => document.getElementById('s').shadowRoot.querySelector('.progress').hidden), true, 'the ring is gone once done');
    const sLoad = await events(page, 's', 'load');
    assert.equal(sLoad.length, 1);
    assert.equal(sLoad[0].src, '/meshes/cube.obj');

    const exploded = await events(page, 'c', 'exploded');
    assert.equal(exploded.length, 1, 'explicit Euler explodes once, XPBD not at all');
    assert.equal(exploded[0].solver, 'explicitEuler');
    assert.equal(typeof exploded[0].diverged, 'boolean');
    assert.equal(exploded[0].diverged, /non-finite/.test(exploded[0].reason));

    // A new scene is a new build: a second load, of the ball.
    await page.evaluate(() => document.getElementById('a').setAttribute('scene', 'ball'));
    await page.waitForFunction(() => window.__events.filter((e) => e.id === 'a' && e.type === 'load').length === 2, null, { timeout: FRAME_TIMEOUT });
    assert.equal((await events(page, 'a', 'load'))[1].scene, 'ball');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('toBlob(): a decodable PNG (or JPEG) of the figure at its size, showing the body and the plot; refused before loading', async () => {
  const { page, context, problems } = await openFixture(`
    <soft-body id="a" autoplay plot="energy"></soft-body>
    <soft-body id="m" reveal="manual"></soft-body>`);
  try {
    await waitFrames(page, 'a', 20);
    const result = await page.evaluate(async () => {
      const a = document.getElementById('a');
      const decode = async (blob) => {
        const bytes = new Uint8Array(await blob.arrayBuffer());
        const bitmap = await createImageBitmap(blob);
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const ctx = canvas.getContext('2d');
        ctx.drawImage(bitmap, 0, 0);
        const { data } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
        let coloured = 0;
        let plotInk = 0;
        const viewsHeight = a.shadowRoot.querySelector('canvas.scene').height;
        for (let i = 0; i < data.length; i += 4) {
          const max = Math.max(data[i], data[i + 1], data[i + 2]);
          const min = Math.min(data[i], data[i + 1], data[i + 2]);
          if (max - min > 60) coloured += 1;
          if ((i / 4) / bitmap.width >= viewsHeight && max < 200) plotInk += 1; // axes, text, the line
        }
        return { type: blob.type, head: [...bytes.slice(0, 4)], width: bitmap.width, height: bitmap.height, coloured, plotInk };
      };
      const png = await decode(await a.toBlob());
      const jpeg = await decode(await a.toBlob({ type: 'image/jpeg', quality: 0.8 }));
      let refused = null;
      try {
        await document.getElementById('m').toBlob();
      } catch (error) {
        refused = error.message;
      }
      return { png, jpeg, size: [a.clientWidth, a.clientHeight], refused };
    });
    assert.equal(result.png.type, 'image/png');
    assert.deepEqual(result.png.head, [0x89, 0x50, 0x4e, 0x47], 'the PNG signature');
    assert.deepEqual([result.png.width, result.png.height], result.size, 'the figure\'s size (device pixel ratio 1)');
    assert.ok(result.png.coloured > 500, `the body is in the image (${result.png.coloured} coloured pixels)`);
    assert.ok(result.png.plotInk > 200, `the plot is in the image (${result.png.plotInk} dark pixels below the views)`);
    assert.equal(result.jpeg.type, 'image/jpeg');
    assert.deepEqual(result.jpeg.head.slice(0, 3), [0xff, 0xd8, 0xff], 'the JPEG signature');
    assert.deepEqual([result.jpeg.width, result.jpeg.height], result.size);
    assert.match(result.refused ?? '', /has not loaded yet/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// Throws the whole body up and sideways (every vertex within grab-radius 3 m of the grabbed one
// released at the same velocity) and follows its centre in clip space every frame for 3 s of
// simulated time. Returns the largest |x| and |y| of the centre's normalized device coordinates
// (within [-1, 1]: on screen) and the peak height.
async function throwAndWatch(page, id) {
  return page.evaluate(async (i) => {
    const a = document.getElementById(i);
    a.setParam('grab-radius', 3);
    const body = a.bodies[0];
    const view = a._view;
    let worst = 0;
    let peak = 0;
    const original = a.frame.bind(a);
    a.frame = (now) => {
      original(now);
      const c = a.stats.center;
      const r = view.rects[0];
      view.rig.fit(r.width / r.height);
      const ndc = new view.camera.position.constructor(...c).project(view.camera);
      worst = Math.max(worst, Math.abs(ndc.x), Math.abs(ndc.y));
      peak = Math.max(peak, c[1]);
    };
    const s = a.stats;
    const v = body.nearestVertex(...s.center);
    body.grabBegin(v, ...s.center);
    body.grabEnd(4, 11, 0); // m/s: its centre rises about 5 m (damping 0.5) and travels sideways
    const t0 = a.time;
    await new Promise((resolve) => {
      const check = () => (a.time > t0 + 3 ? resolve() : setTimeout(check, 50));
      check();
    });
    a.frame = original;
    return { worst, peak };
  }, id);
}

test('camera-follow: a body thrown hard keeps its centre in view; with camera-follow="off" it leaves', async (t) => {
  const { page, context, problems } = await openFixture(`<soft-body id="a" autoplay damping="0.5"></soft-body><soft-body id="b" autoplay damping="0.5" camera-follow="off"></soft-body>`);
  try {
    await waitFrames(page, 'a', 30);
    const followed = await throwAndWatch(page, 'a');
    assert.ok(followed.peak > 4, `thrown high (${followed.peak.toFixed(2)} m)`);
    assert.ok(followed.worst <= 1, `the centre stayed in the view (largest |ndc| ${followed.worst.toFixed(3)})`);
    await page.evaluate(() => document.getElementById('b').scrollIntoView());
    await waitFrames(page, 'b', 30);
    const still = await throwAndWatch(page, 'b');
    assert.ok(still.peak > 4);
    assert.ok(still.worst > 1, `without follow the same throw leaves the view (largest |ndc| ${still.worst.toFixed(3)})`);
    t.diagnostic(`followed: peak ${followed.peak.toFixed(2)} m, largest |ndc| ${followed.worst.toFixed(3)}; off: peak ${still.peak.toFixed(2)} m, largest |ndc| ${still.worst.toFixed(3)}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
