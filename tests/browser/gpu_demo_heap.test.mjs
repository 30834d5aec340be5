// The demo page's "gpu heap" scene (web/src/scenes/gpu_heap_scene.js) in headless Chromium on its
// software WebGPU adapter (SwiftShader): sized by the device probe, it runs on WebGPU, steps, and any
// of its bodies is grabbed with the mouse; without navigator.gpu it is a wasm pile, and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FRAME_TIMEOUT, openDemo, useBrowserSuite, waitMoreFrames } from './harness.mjs';

const suite = useBrowserSuite({ webgpu: true });
const localhost = () => suite.url.replace('127.0.0.1', 'localhost'); // WebGPU needs a secure context

// The element's simulated time reaching t s (SwiftShader: the figure steps only as fast as the GPU).
const waitTime = (page, t) => page.waitForFunction((k) => app.gpuHeapElement()?.time >= k, t, { timeout: 3 * FRAME_TIMEOUT, polling: 50 });

test('the gpu heap scene runs on WebGPU, sized by the device probe, and a heap body is grabbed and lifted', async () => {
  // A stored probe result (as gpu_figure.test.mjs does), so the count is known: a = 10 ms and b such
  // that 60 fps fits 5.5 heap bodies' tets, so the probe sizes the heap at 5.
  const probe = await openDemo(suite.browser, localhost());
  let key, perBody;
  try {
    ({ key, perBody } = await probe.page.evaluate(async () => {
      const info = (await navigator.gpu.requestAdapter()).info ?? {};
      const { heapTetsPerBody } = await import('/src/scenes/gpu_heap_scene.js');
      const { sharedSoftbody } = await import('/src/wasm_module.js');
      return { key: `${info.vendor ?? ''}/${info.architecture ?? ''}`, perBody: heapTetsPerBody(await sharedSoftbody()) };
    }));
  } finally {
    await probe.context.close();
  }
  const a = 10, b = (1000 / 60 - a) / (5.5 * perBody);
  const init = `sessionStorage.setItem('softbody.gpuProbe', ${JSON.stringify(JSON.stringify({ key, a, b, samples: [] }))});`;
  const { page, context, problems } = await openDemo(suite.browser, localhost(), { init, viewport: { width: 480, height: 400 } });
  try {
    await page.evaluate(() => app.set('scene', 'gpu heap'));
    await page.evaluate(() => app.whenSceneBuilt());
    await page.waitForFunction(() => app.gpuHeap().active !== null, null, { timeout: 3 * FRAME_TIMEOUT, polling: 50 });
    await waitTime(page, 0.6); // dropped from 0.4-0.7 m: in the pen
    const shown = await page.evaluate(() => ({ ...app.gpuHeap(), bodies: app.gpuHeapElement().world.bodyCount, panel: document.querySelector('.lil-gui select')?.value ?? null }));
    console.log(`gpu heap: ${shown.label}; ${shown.bodies} bodies in the world`);
    assert.equal(shown.choice.backend, 'webgpu');
    assert.equal(shown.active.backend, 'webgpu');
    assert.equal(shown.choice.count, 5, 'the probe sized the heap: 5.5 bodies fit 60 fps');
    assert.equal(shown.bodies, 6, "the heap's 5 and the figure's body");
    assert.match(shown.label, /^GPU heap on WebGPU: 5 bodies, [\d,]+ tets \(what this device runs at 60 fps/);

    // Press on the top of the heap's highest body and drag up: a heap body (that one, or one in front of
    // it: the nearest under the pointer), not the figure's, is held and lifted.
    const target = await page.evaluate(async () => {
      app.closePanel(); // the open panel covers the right of this small window, where the pen may be
      const el = app.gpuHeapElement();
      const extras = el._figure.lanes[0].extras;
      await el.world.done();
      for (const body of extras) await body.read();
      const top = (body) => {
        const p = body.positions;
        let best = 0;
        for (let i = 1; i < body.vertexCount; ++i) if (p[3 * i + 1] > p[3 * best + 1]) best = i;
        return [p[3 * best], p[3 * best + 1], p[3 * best + 2]];
      };
      let k = 0;
      extras.forEach((body, j) => { if (top(body)[1] > top(extras[k])[1]) k = j; });
      const y = [];
      for (const body of extras) y.push((await body.stats()).center[1]);
      return { k, y, point: el._view.project(0, top(extras[k])) };
    });
    await page.mouse.move(target.point.x, target.point.y);
    await waitMoreFrames(page, 2); // hovering: the heap's bodies are read back every frame
    await page.mouse.down();
    const held = await page.evaluate(() => app.gpuHeapElement()._figure.lanes[0].extras.map((b) => b.grabbedVertex));
    const k = held.findIndex((v) => v >= 0);
    const t0 = await page.evaluate(() => app.gpuHeapElement().time);
    for (let i = 1; i <= 8; i++) {
      await page.mouse.move(target.point.x, target.point.y - 10 * i);
      await waitTime(page, t0 + i / 60);
    }
    await waitTime(page, t0 + 0.4);
    const lifted = await page.evaluate(async (k) => (await app.gpuHeapElement()._figure.lanes[0].extras[k].stats()).center[1], Math.max(k, 0));
    await page.mouse.up();
    const after = await page.evaluate(() => ({ figure: app.gpuHeapElement().bodies[0].grabbedVertex, heap: app.gpuHeapElement()._figure.lanes[0].extras.map((b) => b.grabbedVertex) }));
    console.log(`pressed over heap body ${target.k}, grabbed heap body ${k} (held vertices ${held}): centre y ${target.y[Math.max(k, 0)].toFixed(3)} -> ${lifted.toFixed(3)} m`);
    assert.ok(k >= 0, `the press holds a heap body: ${held}`);
    assert.equal(held.filter((v) => v >= 0).length, 1, 'one body held');
    assert.equal(after.figure, -1, "the figure's body was not grabbed");
    // Dragged 80 px up over 0.4 s of simulated time: its centre rises well over 5 cm (its size 0.2 m).
    assert.ok(lifted > target.y[k] + 0.05, `lifted ${target.y[k]} -> ${lifted} m`);
    assert.deepEqual(after.heap.filter((v) => v >= 0), [], 'the release lets go');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('without WebGPU the gpu heap scene is a wasm pile and says why; another scene brings the page back', async () => {
  const init = 'delete Navigator.prototype.gpu;';
  const { page, context, problems } = await openDemo(suite.browser, localhost(), { init });
  try {
    await page.evaluate(() => app.set('scene', 'gpu heap'));
    await page.evaluate(() => app.whenSceneBuilt());
    await page.waitForFunction(() => app.gpuHeap().active !== null, null, { timeout: 3 * FRAME_TIMEOUT, polling: 50 });
    await waitTime(page, 0.2);
    const shown = await page.evaluate(() => ({ ...app.gpuHeap(), bodies: app.gpuHeapElement().world.bodyCount, worldTime: app.world.time }));
    console.log(`without WebGPU: ${shown.label}`);
    assert.equal(shown.choice.backend, 'wasm');
    assert.equal(shown.active.backend, 'wasm');
    assert.equal(shown.bodies, 21, "the pile's 20 and the figure's body");
    assert.match(shown.label, /^GPU heap on wasm \(no WebGPU here: navigator\.gpu is missing.*\): a pile of 20 bodies, [\d,]+ tets, sized for one CPU thread/);
    // The page's own world waits under the heap, and runs again when another scene is chosen.
    await waitMoreFrames(page, 3);
    assert.equal(await page.evaluate(() => app.world.time), shown.worldTime, "the page's world does not step under the heap");
    await page.evaluate(() => app.set('scene', 'single'));
    await waitMoreFrames(page, 3);
    const back = await page.evaluate(() => ({ shown: app.gpuHeap().shown, element: app.gpuHeapElement(), time: app.world.time }));
    assert.equal(back.shown, false);
    assert.equal(back.element, null);
    assert.ok(back.time > shown.worldTime, "the page's world steps again");
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
