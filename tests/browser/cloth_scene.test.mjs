// The demo page's cloth scene: a cloth sheet (XPBD stretch and bending) falls over a sphere beside the
// page's body, drawn double-sided from the bridge's zero-copy triangles and normals. Waits are on
// frame counts, never on wall time.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { OUT_DIR, launchBrowser, openDemo, startServer, waitMoreFrames } from './harness.mjs';

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

test('the cloth scene: the sheet appears in the body colour, falls and drapes over the sphere', async () => {
  const { page, context, problems } = await openDemo(browser, url, { frames: 5 });
  try {
    const alone = await page.evaluate(() => app.bodyPixels().count);
    await page.evaluate(() => app.set('scene', 'cloth'));
    let s = await page.evaluate(() => app.sceneInfo());
    assert.equal(s.scene, 'cloth');
    assert.equal(s.bodies.length, 2);
    assert.deepEqual(s.colliders.map((c) => c.shape), ['sphere']);
    const cloth = s.bodies[1];
    // Made at 1.3 m; the page keeps stepping while the test reads it.
    assert.ok(cloth.center[1] > 1.2 && cloth.center[1] < 1.3 + 1e-3, `starts near 1.3 m (${cloth.center[1]})`);
    // Seen from the page's camera the 1.4 m sheet adds coral pixels to the page's box.
    const shown = await page.evaluate(() => app.bodyPixels().count);
    await page.screenshot({ path: `${OUT_DIR}/cloth_scene_start.png` });
    assert.ok(shown > 1.1 * alone, `the sheet is drawn (${alone} -> ${shown} body pixels)`);
    await waitMoreFrames(page, 90);
    s = await page.evaluate(() => app.sceneInfo());
    const after = s.bodies[1];
    assert.ok(after.finite);
    // Over a 0.35 m sphere at (1.5, 0.35, 0): the middle rests on its top (0.7 m, plus half the 2 mm
    // thickness), the rim hangs lower, nothing below the ground.
    assert.ok(after.center[1] < 1.0, `fell (${after.center[1]} m)`);
    assert.ok(after.minY > -0.005, `not below the ground (${after.minY})`);
    const draped = await page.evaluate(() => app.bodyPixels().count);
    assert.ok(draped > alone, 'still drawn once draped');
    await page.screenshot({ path: `${OUT_DIR}/cloth_scene.png` });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the flag and drape scenes: the flag streams downwind of its pole, the sheet drapes over the soft box', async () => {
  const { page, context, problems } = await openDemo(browser, url, { frames: 5 });
  try {
    await page.evaluate(() => app.set('scene', 'flag'));
    let s = await page.evaluate(() => app.sceneInfo());
    assert.equal(s.scene, 'flag');
    assert.deepEqual(s.colliders.map((c) => c.shape), ['capsule']);
    const start = s.bodies[1].center[2];
    await waitMoreFrames(page, 120);
    s = await page.evaluate(() => app.sceneInfo());
    // The 6 m/s wind along +z carries the flag's middle downwind of where it started (on the pole's plane).
    assert.ok(s.bodies[1].finite);
    assert.ok(s.bodies[1].center[2] > start + 0.15, `streams downwind (${start} -> ${s.bodies[1].center[2]} m)`);
    await page.screenshot({ path: `${OUT_DIR}/flag_scene.png` });
    await page.evaluate(() => app.set('scene', 'drape'));
    await waitMoreFrames(page, 120);
    s = await page.evaluate(() => app.sceneInfo());
    assert.equal(s.bodies.length, 3);
    const [, box, sheet] = s.bodies;
    assert.ok(box.finite && sheet.finite);
    // The sheet rests above the box's middle (its centre above the box's), not on the ground.
    assert.ok(sheet.center[1] > box.center[1], `on the box (${sheet.center[1]} vs ${box.center[1]} m)`);
    assert.ok(sheet.minY > -0.005, `not below the ground (${sheet.minY})`);
    await page.screenshot({ path: `${OUT_DIR}/drape_scene.png` });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
