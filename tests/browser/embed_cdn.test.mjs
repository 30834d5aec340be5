// The element served from another origin than the page, as from a CDN or a pasted "copy embed
// code" snippet: the module, its wasm and its tetrahedralization worker all come from the Vite dev
// server (which allows localhost origins by CORS) while the page and its mesh file come from a
// second port. A figure that cannot start says why inside the figure.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { FRAME_TIMEOUT, useBrowserSuite } from './harness.mjs';

const suite = useBrowserSuite();
let site; // the author's page, on its own port
let siteUrl;
let page;
let context;
const problems = [];
const requests = [];

const CUBE_OBJ = ['v 0 0 0', 'v 1 0 0', 'v 1 1 0', 'v 0 1 0', 'v 0 0 1', 'v 1 0 1', 'v 1 1 1', 'v 0 1 1',
  'f 1 4 3', 'f 1 3 2', 'f 5 6 7', 'f 5 7 8', 'f 1 2 6', 'f 1 6 5', 'f 4 8 7', 'f 4 7 3', 'f 1 5 8', 'f 1 8 4', 'f 2 3 7', 'f 2 7 6'].join('\n');

before(async () => {
  await suite.ready();
  const html = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>cdn</title>
    <style>body { margin: 0; } soft-body { width: 300px; }</style></head><body>
    <soft-body id="cube" src="meshes/cube.obj" resolution="6" autoplay controls="none"></soft-body>
    <soft-body id="bunny" scene="bunny" resolution="6" autoplay controls="none"></soft-body>
    <soft-body id="missing" src="meshes/missing.obj"></soft-body>
    <soft-body id="inline" src="data:model/obj,${CUBE_OBJ.replace(/\n/g, '%0A')}" resolution="6" autoplay controls="none"></soft-body>
    <script type="module" src="${suite.url}src/embed/index.js"></script></body></html>`;
  site = createServer((request, response) => {
    if (request.url.startsWith('/meshes/cube.obj')) return void response.writeHead(200, { 'Content-Type': 'text/plain' }).end(CUBE_OBJ);
    if (request.url.startsWith('/meshes/')) return void response.writeHead(404).end('not here');
    response.writeHead(200, { 'Content-Type': 'text/html' }).end(html);
  });
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${site.address().port}/`;
  context = await suite.browser.newContext({ viewport: { width: 640, height: 900 }, deviceScaleFactor: 1 });
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(siteUrl);
});

after(async () => {
  site?.close(); // the suite's hook closes the browser, and with it this page's context
});

test('from another origin, src and sample figures start their tetrahedralization worker and run', async () => {
  assert.notEqual(new URL(siteUrl).origin, new URL(suite.url).origin);
  for (const id of ['cube', 'bunny']) {
    await page.waitForFunction((i) => document.getElementById(i)?.frames > 3, id, { timeout: FRAME_TIMEOUT });
  }
  const tets = await page.evaluate(() => ['cube', 'bunny'].map((id) => document.getElementById(id).bodies[0].tetCount));
  assert.ok(tets.every((n) => n > 50), `both were meshed by the worker (${tets} tets)`);
  // The browser logs the intended 404 of the missing mesh itself; nothing else may be an error.
  assert.deepEqual(problems.filter((p) => !/status of 404/.test(p)), []);
});

test('a figure that cannot start says why inside the figure, with nothing to press', async () => {
  await page.waitForFunction(() => /could not start/.test(document.getElementById('missing').shadowRoot.querySelector('.loading-text').textContent), null, { timeout: FRAME_TIMEOUT });
  const shown = await page.evaluate(() => {
    const root = document.getElementById('missing').shadowRoot;
    return { text: root.querySelector('.loading-text').textContent, play: root.querySelector('.play').hidden, bar: root.querySelector('.bar').hidden, role: root.querySelector('.placeholder').getAttribute('role') };
  });
  assert.match(shown.text, /^the simulation could not start: could not fetch .*missing\.obj: HTTP 404/);
  assert.deepEqual([shown.play, shown.bar, shown.role], [true, true, 'alert']);
});

test('a data: URL in src is one file (spaces and all), named by its MIME type', async () => {
  await page.waitForFunction(() => document.getElementById('inline')?.frames > 3, null, { timeout: FRAME_TIMEOUT });
  assert.ok((await page.evaluate(() => document.getElementById('inline').bodies[0].tetCount)) > 50);
  assert.deepEqual(requests.filter((r) => /\/0$/.test(r)), [], 'not split at its spaces into addresses');
});
