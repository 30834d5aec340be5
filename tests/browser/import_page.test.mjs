// Importing meshes into the demo page in headless Chromium: a chosen OBJ becomes a simulated body
// drawn with its own (skinned) surface; broken files get their own message while the old body
// keeps running; a slow tetrahedralization shows a progress bar that cancels; the tets download
// as JSON and read back; an open surface warns; dropping files works like choosing them.
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

const IMPORT_TIMEOUT = 45_000; // ms; SwiftShader pages are slow, the worker is not

// An icosphere (icosahedron subdivided once: 42 vertices, 80 triangles) as OBJ text, radius 2 in
// arbitrary units: the import scales it to 1 m.
function icosphereObj() {
  const t = (1 + Math.sqrt(5)) / 2;
  const v = [[-1, t, 0], [1, t, 0], [-1, -t, 0], [1, -t, 0], [0, -1, t], [0, 1, t], [0, -1, -t], [0, 1, -t], [t, 0, -1], [t, 0, 1], [-t, 0, -1], [-t, 0, 1]];
  let f = [[0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6], [7, 1, 8], [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9], [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1]];
  const mid = new Map();
  const middle = (a, b) => {
    const key = a < b ? `${a}_${b}` : `${b}_${a}`;
    if (!mid.has(key)) {
      v.push(v[a].map((c, k) => (c + v[b][k]) / 2));
      mid.set(key, v.length - 1);
    }
    return mid.get(key);
  };
  f = f.flatMap(([a, b, c]) => {
    const ab = middle(a, b), bc = middle(b, c), ca = middle(c, a);
    return [[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]];
  });
  const lines = v.map((p) => {
    const s = 2 / Math.hypot(...p);
    return `v ${p.map((c) => (c * s).toFixed(6)).join(' ')}`;
  });
  return { text: `# icosphere\n${lines.join('\n')}\n${f.map((tri) => `f ${tri.map((i) => i + 1).join(' ')}`).join('\n')}\n`, vertices: v.length, triangles: f.length };
}

// A unit cube's OBJ with one face left out: an open surface.
const OPEN_BOX_OBJ = `v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1
f 1 4 3 2\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n`;

async function chooseFile(page, file) {
  await page.evaluate(() => app.openPanel());
  const chooser = page.waitForEvent('filechooser', { timeout: 10_000 });
  await page.getByRole('button', { name: 'import file…' }).click();
  await (await chooser).setFiles(file);
}

const whenImported = (page) => page.evaluate(() => app.whenImported());

test('an OBJ chosen in the file dialog becomes a body drawn with its own surface', async () => {
  const { page, context, problems } = await openDemo(browser, url, { frames: 5 });
  try {
    const ico = icosphereObj();
    await chooseFile(page, { name: 'ico.obj', mimeType: 'text/plain', buffer: Buffer.from(ico.text) });
    const state = await whenImported(page);
    assert.equal(state.status, 'done', JSON.stringify(state));
    const info = await page.evaluate(() => app.bodyInfo());
    assert.equal(info.shape, 'ico.obj');
    assert.equal(info.source, 'surface');
    assert.ok(info.tets > 0, `${info.tets} tets`);
    assert.equal(info.skinned, true, 'the mesh draws the skinned surface');
    // The OBJ's 80 faces (edges ~0.3 m) are larger than the tets (~0.1 m): they are subdivided
    // before skinning (two passes of 1-to-4: 42 -> 162 -> 642 vertices), so the surface bends with the tets.
    assert.ok(info.visualVertices > 10 * ico.vertices, `the visual is subdivided: ${info.visualVertices} vertices`);
    assert.equal(info.visualTriangles, 2 * (info.visualVertices - 2), 'still one closed surface (Euler: F = 2V - 4)');
    assert.equal(info.meshVertices, info.visualVertices, 'the Three.js mesh wraps the visual directly');
    assert.equal(state.stats.openEdges, 0);
    assert.deepEqual(await page.evaluate(() => app.errors.slice()), []);
    assert.equal(await page.locator('.toast').count(), 0, 'a closed surface: no warning');

    // It starts 0.5 m up and falls.
    const start = await page.evaluate(() => ({ y: app.stats().center[1], frames: app.frames }));
    await waitMoreFrames(page, 15);
    const later = await page.evaluate(() => ({ y: app.stats().center[1], finite: app.stats().finite }));
    assert.ok(later.finite);
    assert.ok(later.y < start.y - 0.05, `centre fell from ${start.y.toFixed(3)} to ${later.y.toFixed(3)} m`);
    const pixels = await page.evaluate(() => app.bodyPixels().count);
    assert.ok(pixels > 500, `${pixels} body-coloured pixels`);
    // The readout says what the tetrahedralizer made (refreshed at once, not on the half second).
    // The quality histogram's ten bars: improvement leaves no tet below 0.1, so the first bar is a gap.
    const summary = await page.evaluate(() => app.meshSummary());
    const parsed = /^[\d,]+ vertices · [\d,]+ tets · [\d,]+ slivers? removed( · improved: [\d,]+ slivers? peeled, [\d,]+ points? added)? · quality min ([\d.]+), mean [\d.]+ ([ ▁▂▃▄▅▆▇█]{10}) · \d+ ms$/.exec(summary);
    assert.ok(parsed, summary);
    assert.ok(Number(parsed[2]) >= 0.1, `min quality ${parsed[2]}`);
    assert.equal(parsed[3][0], ' ', `no tet below quality 0.1: ${parsed[3]}`);
    await page.screenshot({ path: `${OUT_DIR}/import_ico.png` });

    // The grabber picks the skinned surface.
    await waitMoreFrames(page, 40);
    await page.evaluate(() => app.closePanel()); // it covers the body in this small window
    const point = await page.evaluate(() => app.bodyScreenPoint());
    await page.mouse.move(point.x, point.y);
    await page.mouse.down();
    const grab = await page.evaluate(() => app.grab());
    assert.equal(grab.dragging, true, 'a press on the skinned body grabs it');
    await page.mouse.move(point.x, point.y - 60, { steps: 5 });
    await page.mouse.up();
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('broken files show their own message and the old body keeps running', async () => {
  const { page, context, problems } = await openDemo(browser, url, { frames: 5 });
  try {
    await page.evaluate(() => (window.bodyBefore = app.body));
    const noise = Buffer.alloc(2000, 0).map((_, i) => (i * 7919) % 251);
    await chooseFile(page, { name: 'noise.stl', mimeType: 'application/octet-stream', buffer: noise });
    let state = await whenImported(page);
    assert.equal(state.status, 'failed');
    const toast = page.locator('.toast').first();
    await toast.waitFor({ state: 'visible', timeout: 5_000 });
    assert.match(await toast.locator('.toast-text').textContent(), /^Could not import noise\.stl: not an STL file/);

    // An OBJ with vertices but no faces, dropped on the page: the drop overlay shows while dragging.
    const drop = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(['v 0 0 0\nv 1 0 0\nv 0 1 0\n'], 'points.obj'));
      return data;
    });
    await page.dispatchEvent('body', 'dragenter', { dataTransfer: drop });
    assert.equal(await page.locator('#drop-overlay').isVisible(), true, 'drop overlay while dragging files');
    await page.dispatchEvent('body', 'drop', { dataTransfer: drop });
    assert.equal(await page.locator('#drop-overlay').isVisible(), false);
    state = await whenImported(page);
    assert.equal(state.status, 'failed');
    await page.locator('.toast', { hasText: 'points.obj: the file contains only points or lines, no triangles' }).waitFor({ timeout: 5_000 });

    // A flat square reaches the tetrahedralizer, which refuses it (SB_ERR_FLAT_MESH, from the worker).
    await page.evaluate(() => app.importFile('square.obj', 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n'));
    state = await whenImported(page);
    assert.equal(state.status, 'failed');
    assert.match(state.error, /^Could not import square\.obj: the surface encloses no volume .*SB_ERR_FLAT_MESH/);

    // A TetGen .node without its .ele.
    await page.evaluate(() => app.importFile('lonely.node', '4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n'));
    state = await whenImported(page);
    assert.match(state.error, /lonely\.node: a TetGen mesh needs its \.ele file too/);

    const before = await page.evaluate(() => ({ frames: app.frames, time: app.world.time }));
    await waitMoreFrames(page, 10);
    const after = await page.evaluate(() => ({ frames: app.frames, time: app.world.time, same: app.body === window.bodyBefore, info: app.bodyInfo(), finite: app.stats().finite }));
    assert.ok(after.frames > before.frames && after.time > before.time, 'frames and simulated time go on');
    assert.equal(after.same, true, 'the same body');
    assert.equal(after.info.shape, 'box');
    assert.equal(after.info.vertices, 729);
    assert.equal(after.finite, true);
    assert.equal(await page.evaluate(() => app.errors.length), 4, 'one message per failure');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a slow tetrahedralization shows progress, cancels, and a newer request replaces an older one', async () => {
  const { page, context, problems } = await openDemo(browser, url, { frames: 5 });
  try {
    await page.evaluate(() => app.openPanel());
    await page.evaluate(() => app.set('meshResolution', 40)); // stored for the next import: the box is a lattice
    await page.locator('.lil-controller').filter({ has: page.locator('.lil-name', { hasText: 'shape' }) }).locator('select').selectOption('sphere');
    const bar = page.locator('#import-progress');
    await bar.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await bar.locator('.import-label').textContent(), /tetrahedralizing sphere/);
    // Cancel as soon as the worker reported progress (or right away if it is quick to start).
    await page.waitForFunction(() => app.importState().progress > 0, null, { timeout: 20_000 }).catch(() => {});
    const framesAtCancel = await page.evaluate(() => app.frames);
    await bar.locator('.import-cancel').click();
    const state = await whenImported(page);
    assert.equal(state.status, 'cancelled');
    await bar.waitFor({ state: 'hidden', timeout: 5_000 });
    await waitMoreFrames(page, 5);
    const info = await page.evaluate(() => ({ ...app.bodyInfo(), shown: document.querySelector('.lil-controller select').value, frames: app.frames }));
    assert.equal(info.shape, 'box', 'the old body is still there');
    assert.equal(info.shown, 'box', 'and the shape menu shows it again');
    assert.equal(info.vertices, 729);
    assert.ok(info.frames > framesAtCancel);
    assert.equal(await page.evaluate(() => app.errors.length), 0, 'cancelling is not an error');

    // Two requests in a row: the second cancels the first, only it lands.
    await page.evaluate(() => app.set('meshResolution', 6));
    await page.evaluate(() => {
      app.importSample('bunny');
      app.importSample('torus');
    });
    const last = await whenImported(page);
    assert.equal(last.status, 'done');
    assert.equal(last.name, 'torus');
    assert.equal(await page.evaluate(() => app.bodyInfo().shape), 'torus');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('mesh settings re-mesh, show tets, download tets, and the JSON reads back with its surface', async () => {
  const { page, context, problems } = await openDemo(browser, url, { frames: 5 });
  try {
    await page.evaluate(() => app.importSample('torus'));
    assert.equal((await whenImported(page)).status, 'done');
    const coarse = await page.evaluate(() => app.bodyInfo());
    // A new mesh setting re-meshes the same surface (once the slider rests).
    await page.evaluate(() => app.set('meshResolution', 13));
    await page.waitForFunction((tets) => app.bodyInfo().tets !== tets && app.importState().status === 'done', coarse.tets, { timeout: IMPORT_TIMEOUT, polling: 100 });
    const torus = await page.evaluate(() => app.bodyInfo());
    assert.ok(torus.tets > coarse.tets, `13 cells: ${torus.tets} tets, 10 cells: ${coarse.tets}`);
    assert.deepEqual([torus.shape, torus.visualVertices, torus.skinned], ['torus', coarse.visualVertices, true], 'same surface');

    await page.evaluate(() => app.set('showTets', true));
    await waitMoreFrames(page, 2);
    const exploded = await page.evaluate(() => ({ info: app.bodyInfo(), pixels: app.bodyPixels().count, tetVertices: app.bodyMesh.tetView.mesh.geometry.attributes.position.count }));
    assert.equal(exploded.info.showTets, true);
    assert.equal(exploded.tetVertices, 12 * torus.tets, '4 faces x 3 corners per tet');
    assert.ok(exploded.pixels > 300, `the tets are drawn (${exploded.pixels} px)`);
    await page.screenshot({ path: `${OUT_DIR}/import_tets.png` });

    await page.evaluate(() => app.openPanel());
    const download = page.waitForEvent('download', { timeout: 10_000 });
    await page.getByRole('button', { name: 'download tets' }).click();
    const file = await download;
    assert.equal(file.suggestedFilename(), 'torus.tets.json');
    const chunks = [];
    for await (const chunk of await file.createReadStream()) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('utf8');
    const doc = JSON.parse(text);
    assert.equal(doc.format, 'softbody-tets');
    assert.equal(doc.vertices.length, 3 * torus.vertices);
    assert.equal(doc.tets.length, 4 * torus.tets);
    assert.equal(doc.surface.vertices.length, 3 * torus.visualVertices);

    await page.evaluate(() => app.set('shape', 'ball'));
    await chooseFile(page, { name: 'torus.tets.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    assert.equal((await whenImported(page)).status, 'done');
    const back = await page.evaluate(() => app.bodyInfo());
    assert.equal(back.source, 'tets');
    assert.deepEqual([back.vertices, back.tets, back.visualVertices, back.skinned], [torus.vertices, torus.tets, torus.visualVertices, true]);
    assert.deepEqual(await page.evaluate(() => app.errors.slice()), []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('an open surface imports with a warning, not an error', async () => {
  const { page, context, problems } = await openDemo(browser, url, { frames: 5 });
  try {
    await page.evaluate((text) => app.importFile('open_box.obj', text), OPEN_BOX_OBJ);
    const state = await whenImported(page);
    assert.equal(state.status, 'done', state.error ?? '');
    assert.ok(state.stats.openEdges > 0);
    const warning = page.locator('.toast.warn');
    await warning.waitFor({ timeout: 5_000 });
    assert.match(await warning.textContent(), /open_box\.obj is not a closed surface \(\d+ open edges\)/);
    assert.deepEqual(await page.evaluate(() => app.errors.slice()), [], 'no error');
    assert.ok((await page.evaluate(() => app.bodyInfo().tets)) > 0);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// A 1 m x 1 m plate 5 mm thick: sampled by its thickness, about 20,000 tets at 10 cells (25,128 estimated).
const PLATE_OBJ = ['v 0 0 0', 'v 1 0 0', 'v 0 0.005 0', 'v 1 0.005 0', 'v 0 0 1', 'v 1 0 1', 'v 0 0.005 1', 'v 1 0.005 1',
  'f 1 3 4', 'f 1 4 2', 'f 5 6 8', 'f 5 8 7', 'f 1 2 6', 'f 1 6 5', 'f 3 7 8', 'f 3 8 4', 'f 1 5 7', 'f 1 7 3', 'f 2 4 8', 'f 2 8 6'].join('\n');

test('max tets: thin parts over the bound offer a choice before anything runs; each choice imports within it or says why not', async () => {
  const { page, context, problems } = await openDemo(browser, url, { frames: 5 });
  try {
    await page.evaluate(() => app.openPanel());
    await page.evaluate(() => app.set('maxTets', 15000));
    await page.evaluate((text) => app.importFile('plate.obj', text), PLATE_OBJ);
    let state = await whenImported(page);
    assert.equal(state.status, 'failed');
    assert.equal(await page.evaluate(() => app.bodyInfo().shape), 'box', 'the old body stays');
    // Priced at the step time per tet the page measured on its running box (its first frames).
    const choice = page.locator('.thin-choice');
    assert.match(await choice.textContent(), /^plate\.obj would give about 25,128 tets \(about [\d.]+ ms of physics per frame here\), above the limit of 15,000: its parts about 5 mm thick are sampled by their thickness/);

    // Four choices: more tets, thickened, coarser, dropped (a plate alone is all thin: 'drop' is refused).
    assert.deepEqual(await choice.locator('[data-choice]').evaluateAll((buttons) => buttons.map((b) => b.dataset.choice)), ['more', 'thicken', 'coarsen', 'drop', 'cancel']);
    // Meshed coarser: the plate's shape, within the bound.
    await choice.locator('[data-choice="coarsen"]').click();
    state = await whenImported(page);
    assert.equal(state.status, 'done', state.error);
    assert.ok(state.stats.tets <= 15000 && state.stats.tets > 1000, `${state.stats.tets} tets`);
    assert.ok(state.stats.minQuality >= 0.1);
    assert.equal(state.stats.thickenedVolume, 0);
    // At the spacing whose estimate lands at the bound, between two levels (16.3 mm natively).
    assert.match(state.summary, /thin parts sampled 1[5-7] mm apart/);

    // Thickened: within the bound, and the import says by how much the volume grew.
    await page.evaluate((text) => app.importFile('plate.obj', text), PLATE_OBJ);
    await whenImported(page);
    await page.locator('.thin-choice [data-choice="thicken"]').click();
    state = await whenImported(page);
    assert.equal(state.status, 'done', state.error);
    // Near the bound (the bridge measured 14,582 at 48 mm): a thickness between the spacing levels'
    // 28.75 and 57.5 mm, and the 1 m² plate grows by 1 m² x (T - 5 mm).
    assert.ok(state.stats.tets <= 15000 && state.stats.tets >= 0.6 * 15000, `${state.stats.tets} tets`);
    const thickMm = state.stats.thickenedTo * 1000;
    assert.ok(thickMm > 28.75 && thickMm < 57.5, `${thickMm} mm`);
    const grown = (state.stats.thickenedTo - 0.005).toFixed(3);
    assert.ok(state.summary.includes(`thin parts thickened to ${Math.round(thickMm)} mm (+${grown} m³)`), state.summary);
    const warnings = await page.locator('.toast.warn .toast-text').allTextContents();
    assert.ok(warnings.some((w) => w.startsWith(`plate.obj: thin parts about 5 mm thick were thickened to ${Math.round(thickMm)} mm to fit the tet limit; the body is ${grown} m³ larger than the surface`)), warnings.join(' | '));

    // More tets: as sampled, above the bound.
    await page.evaluate((text) => app.importFile('plate.obj', text), PLATE_OBJ);
    await whenImported(page);
    await page.locator('.thin-choice [data-choice="more"]').click();
    state = await whenImported(page);
    assert.equal(state.status, 'done', state.error);
    assert.ok(state.stats.tets > 15000, `${state.stats.tets} tets`);

    // Dropped: a plate alone is all thin, so dropping its thin parts is refused, saying why.
    await page.evaluate((text) => app.importFile('plate.obj', text), PLATE_OBJ);
    await whenImported(page);
    await page.locator('.thin-choice [data-choice="drop"]').click();
    state = await whenImported(page);
    assert.equal(state.status, 'failed');
    assert.match(state.error, /^Could not import plate\.obj: every part of this surface is thinner than [\d.]+ mm \(its thinnest about 5 mm\), so dropping thin parts would leave nothing/);

    // Chosen in the Mesh folder beforehand, a choice that cannot fit says why, without a panel.
    await page.evaluate(() => app.set('maxTets', 1000));
    await page.evaluate(() => app.set('thinParts', 'thicken'));
    await page.evaluate((text) => app.importFile('plate.obj', text), PLATE_OBJ);
    state = await whenImported(page);
    assert.equal(state.status, 'failed');
    assert.match(state.error, /^Could not import plate\.obj: this surface would give about 25,128 tets, above the limit of 1,000, and with its thin parts thickened to a grid cell still about [\d,]+; /);
    assert.equal(await page.locator('.thin-choice').count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
