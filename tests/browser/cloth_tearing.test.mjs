// Cloth on the page: <soft-body scene="cloth"> draws a hanging sheet and steps it, and the demo's
// curtain tears when it is dragged hard (the renderer follows the new vertices and triangles).
// Waits are on frame counts, never on wall time.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { FRAME_TIMEOUT, OUT_DIR, launchBrowser, openDemo, startServer, waitMoreFrames } from './harness.mjs';

let server;
let url;
let browser;

before(async () => {
  mkdirSync(OUT_DIR, { recursive: true });
  ({ server, url } = await startServer());
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('<soft-body scene="cloth">: a sheet hung by its top edge is drawn and steps', async () => {
  const context = await browser.newContext({ viewport: { width: 640, height: 480 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console.error: ${m.text()}`));
  await page.route('**/fixture.html*', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
        <style>body { margin: 0; } soft-body { width: 320px; }</style></head>
        <body><soft-body id="c" autoplay loading="eager" scene="cloth" resolution="10" cloth-pin="top-edge" cloth-size="1" bending-stiffness="1e-4" tear-strain="0.5"></soft-body>
        <script type="module" src="/src/embed/index.js"></script></body></html>`,
    }),
  );
  try {
    await page.goto(`${url}fixture.html?test`);
    await page.waitForFunction(() => document.querySelector('#c')?.frames > 10, null, { timeout: FRAME_TIMEOUT, polling: 50 });
    const s = await page.evaluate(() => {
      const c = document.getElementById('c');
      const body = c.bodies[0];
      return { time: c.time, cloth: body.isCloth, vertices: body.vertexCount, tear: body.getParam('tearStrain'), stats: c.stats };
    });
    assert.equal(s.cloth, true);
    assert.ok(s.vertices > 100, `a 10-cell sheet (${s.vertices} vertices)`);
    assert.ok(Math.abs(s.tear - 0.5) < 1e-6, 'tear-strain reaches the body');
    assert.ok(s.time > 0 && s.stats.finite);
    const drawn = await page.evaluate(() => {
      const canvas = document.getElementById('c').shadowRoot.querySelector('canvas.scene');
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) if (Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 60) count += 1;
      return count;
    });
    assert.ok(drawn > 500, `the sheet is drawn (${drawn} coloured pixels)`);
    await page.screenshot({ path: `${OUT_DIR}/cloth_element.png` });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the curtain scene: dragged hard, the curtain tears and the page draws the torn sheet', async () => {
  const { page, context, problems } = await openDemo(browser, url, { frames: 5 });
  try {
    await page.evaluate(() => app.set('scene', 'curtain'));
    let s = await page.evaluate(() => app.sceneInfo());
    assert.equal(s.scene, 'curtain');
    const before = s.bodies[1].vertices;
    await waitMoreFrames(page, 20); // hangs still from its top edge
    // Press on the curtain's lower middle (1.2 m sheet at x = 1.7, top at 1.6 m) and pull it away
    // and down, a hand's length per frame: the held particle follows the pointer exactly (grab
    // compliance 0), so the edges around it pass the 25 % tear strain.
    const start = await page.evaluate(() => app.project([1.7, 0.8, 0]));
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    const held = await page.evaluate(() => app.grab());
    assert.equal(held.dragging, true, 'the press hit the curtain');
    for (let i = 1; i <= 12; i++) {
      await page.mouse.move(start.x + 15 * i, start.y + 10 * i);
      await waitMoreFrames(page, 1);
    }
    await waitMoreFrames(page, 10);
    s = await page.evaluate(() => app.sceneInfo());
    const torn = s.bodies[1];
    assert.ok(torn.finite);
    assert.ok(torn.vertices > before, `torn: ${before} -> ${torn.vertices} vertices`);
    await page.screenshot({ path: `${OUT_DIR}/curtain_torn.png` });
    await page.mouse.up();
    // The mesh drawn is the torn one: its position buffer holds the new vertex count.
    await waitMoreFrames(page, 1);
    const drawn = await page.evaluate(() => {
      const counts = [];
      app.stage.scene.traverse((o) => o.isMesh && o.geometry?.attributes?.position && counts.push(o.geometry.attributes.position.count));
      return counts;
    });
    const now = (await page.evaluate(() => app.sceneInfo())).bodies[1].vertices;
    assert.ok(drawn.includes(now), `a mesh of ${now} vertices is drawn (${drawn.join(', ')})`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
