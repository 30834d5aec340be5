// embed.html, the chrome-less figure for iframes: URL parameters are the element's attributes, it
// answers postMessage commands and reports back; and the static build, served from a sub-folder
// (as a blog or GitHub Pages would), finds its scripts and wasm by relative paths.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { FRAME_TIMEOUT, ISOLATION_HEADERS, launchBrowser, serveStatic, startServer } from './harness.mjs';

const WEB_ROOT = fileURLToPath(new URL('../../web/', import.meta.url));

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

function watch(page) {
  const problems = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  return problems;
}

test('the iframe page takes its attributes from the URL and answers postMessage', async () => {
  const context = await browser.newContext({ viewport: { width: 640, height: 480 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = watch(page);
  try {
    await page.route('**/article-fixture.html', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>
          <p>An article with a figure:</p>
          <iframe id="frame" width="400" height="260" src="/embed.html?test&scene=ball&resolution=6&edge-compliance=0.001&controls=none&autoplay&colour=red"></iframe>
          <script>
            window.__messages = [];
            window.addEventListener('message', (e) => { if (e.data?.source === 'softbody') window.__messages.push(e.data); });
          </script></body></html>`,
      }),
    );
    await page.goto(`${url}article-fixture.html`);
    await page.waitForFunction(() => window.__messages.some((m) => m.softbody === 'ready'), null, { timeout: FRAME_TIMEOUT });
    const frame = page.frames().find((f) => f.url().includes('embed.html'));
    const attrs = await frame.evaluate(() => {
      const f = window.app.figure;
      return { scene: f.scene, edge: f.bodies[0].getParam('edgeCompliance'), controls: f.controls, barHidden: f.shadowRoot.querySelector('.bar').hidden };
    });
    assert.equal(attrs.scene, 'ball');
    assert.equal(attrs.edge, 0.0010000000474974513, 'edge-compliance from the URL reaches the body');
    assert.equal(attrs.controls, 'none');
    assert.equal(attrs.barHidden, true, 'no chrome beyond the controls asked for');
    const errors = await page.evaluate(() => window.__messages.filter((m) => m.softbody === 'error').map((m) => m.message));
    assert.ok(errors.some((m) => /unknown parameter "colour"/.test(m)), `an unknown URL parameter is reported (${errors.join(' | ')})`);

    // pause: the clock stops; setParam: applied; reset: back to the start; play: runs again.
    const send = (message) => page.evaluate((m) => document.getElementById('frame').contentWindow.postMessage(m, '*'), message);
    await send({ softbody: 'pause' });
    await page.waitForTimeout(200);
    const t0 = await frame.evaluate(() => window.app.figure.time);
    await page.waitForTimeout(500);
    assert.equal(await frame.evaluate(() => window.app.figure.time), t0, 'paused by message');
    await send({ softbody: 'setParam', name: 'substeps', value: 25 });
    await send({ softbody: 'step', n: 3 });
    await frame.waitForFunction((t) => Math.abs(window.app.figure.time - (t + 3 / 60)) < 1e-9, t0, { timeout: FRAME_TIMEOUT });
    assert.equal(await frame.evaluate(() => window.app.figure.world.substeps), 25);
    await send({ softbody: 'reset' });
    await frame.waitForFunction(() => window.app.figure.time === 0);
    await send({ softbody: 'stats' });
    await page.waitForFunction(() => window.__messages.some((m) => m.softbody === 'stats'));
    const stats = await page.evaluate(() => window.__messages.find((m) => m.softbody === 'stats').stats);
    assert.equal(stats.time, 0);
    assert.ok(stats.mass > 0);
    await send({ softbody: 'play' });
    await frame.waitForFunction(() => window.app.figure.time > 0.1, null, { timeout: FRAME_TIMEOUT });

    // An explosion is reported to the parent.
    await send({ softbody: 'setParam', name: 'solver', value: 'explicit-euler' });
    await send({ softbody: 'setParam', name: 'stiffness', value: 1e6 });
    await page.waitForFunction(() => window.__messages.some((m) => m.softbody === 'exploded'), null, { timeout: FRAME_TIMEOUT });
    const exploded = await page.evaluate(() => window.__messages.find((m) => m.softbody === 'exploded'));
    assert.equal(exploded.solver, 'explicitEuler');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('an iframe figure scrolled out of the parent page stops, and resumes when scrolled back', async () => {
  const context = await browser.newContext({ viewport: { width: 640, height: 480 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = watch(page);
  try {
    await page.route('**/scroll-fixture.html', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body style="margin:0">
          <iframe id="frame" width="400" height="260" src="/embed.html?test&autoplay&controls=none"></iframe>
          <div style="height: 3000px"></div></body></html>`,
      }),
    );
    await page.goto(`${url}scroll-fixture.html`);
    const frame = () => page.frames().find((f) => f.url().includes('embed.html'));
    await page.waitForFunction(() => document.getElementById('frame').contentWindow.app?.figure?.frames > 5, null, { timeout: FRAME_TIMEOUT });
    await page.evaluate(() => window.scrollTo(0, 2000));
    await page.waitForTimeout(300);
    const hidden = await frame().evaluate(() => ({ frames: window.app.figure.frames, time: window.app.figure.time }));
    await page.waitForTimeout(1500);
    const later = await frame().evaluate(() => ({ frames: window.app.figure.frames, time: window.app.figure.time }));
    assert.deepEqual(later, hidden, 'out of the parent\'s view: no steps, no frames');
    await page.evaluate(() => window.scrollTo(0, 0));
    await frame().waitForFunction((n) => window.app.figure.frames > n + 3, hidden.frames, { timeout: FRAME_TIMEOUT });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the static build works from a sub-folder: the iframe page, the demo and the article', async () => {
  const site = mkdtempSync(join(tmpdir(), 'softbody-site-'));
  const folder = join(site, 'blog', 'figures');
  let httpServer = null;
  let isolatedServer = null;
  let corsServer = null;
  let author = null;
  const context = await browser.newContext({ viewport: { width: 480, height: 320 }, deviceScaleFactor: 1 });
  try {
    await build({ root: WEB_ROOT, configFile: join(WEB_ROOT, 'vite.config.js'), logLevel: 'error', build: { outDir: folder, emptyOutDir: true } });
    httpServer = await serveStatic(site);
    const base = `http://127.0.0.1:${httpServer.address().port}/blog/figures/`;
    const page = await context.newPage();
    const problems = watch(page);
    const failed = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${base}embed.html?test&autoplay&scene=bunny`);
    await page.waitForFunction(() => window.app?.figure?.frames > 5, null, { timeout: FRAME_TIMEOUT });
    const state = await page.evaluate(() => ({ time: window.app.figure.time, tets: window.app.figure.bodies[0].tetCount }));
    assert.ok(state.time > 0);
    assert.ok(state.tets > 1000, `the bunny was tetrahedralized by the built worker (${state.tets} tets)`);
    assert.deepEqual(failed, [], 'every asset found under the sub-folder');
    // The demo's built page too, and the article's first figure (a build that tree-shook the
    // element's registration away once drew nothing here).
    await page.goto(`${base}index.html?test`);
    await page.waitForFunction(() => window.app?.frames > 5, null, { timeout: FRAME_TIMEOUT });
    await page.goto(`${base}article.html?test#fig-spring`);
    await page.waitForFunction(() => document.getElementById('fig-spring')?.frames > 3, null, { timeout: FRAME_TIMEOUT });
    assert.deepEqual(failed, []);
    assert.deepEqual(problems, []);
    assert.equal(await page.evaluate(() => document.getElementById('fig-spring').bodies[0].sb.maxThreads), 1, 'not isolated: one thread');

    // The element alone (softbody.js, what "copy embed code" pastes) from this build, on a page of
    // another origin: its chunks, the wasm and the tetrahedralization worker come across by CORS.
    corsServer = await serveStatic(site, { headers: { 'Access-Control-Allow-Origin': '*' } });
    const script = `http://127.0.0.1:${corsServer.address().port}/blog/figures/softbody.js`;
    author = createServer((request, response) => response.writeHead(200, { 'Content-Type': 'text/html' }).end(
      `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>
      <script type="module" src="${script}"></script><soft-body scene="bunny" resolution="6" autoplay></soft-body></body></html>`,
    ));
    await new Promise((resolve) => author.listen(0, '127.0.0.1', resolve));
    await page.goto(`http://127.0.0.1:${author.address().port}/?test`);
    await page.waitForFunction(() => document.querySelector('soft-body')?.frames > 3, null, { timeout: FRAME_TIMEOUT });
    assert.ok((await page.evaluate(() => document.querySelector('soft-body').bodies[0].tetCount)) > 100, 'the built worker meshed the bunny across origins');
    assert.deepEqual(failed, []);
    assert.deepEqual(problems, []);

    // The same build from a host that sends COOP + COEP: the pages load the threaded build, which
    // the build copied from web/public/wasm-mt/ beside them (its worker and .wasm found by the glue).
    isolatedServer = await serveStatic(site, { headers: ISOLATION_HEADERS });
    const isolatedBase = `http://127.0.0.1:${isolatedServer.address().port}/blog/figures/`;
    await page.goto(`${isolatedBase}index.html?test`);
    await page.waitForFunction(() => window.app?.frames > 5, null, { timeout: FRAME_TIMEOUT });
    assert.deepEqual(await page.evaluate(() => [crossOriginIsolated, app.threads().max]), [true, 4]);
    await page.goto(`${isolatedBase}embed.html?test&autoplay&scene=bunny`);
    await page.waitForFunction(() => window.app?.figure?.frames > 5, null, { timeout: FRAME_TIMEOUT });
    assert.equal(await page.evaluate(() => window.app.figure.bodies[0].sb.maxThreads), 4);
    assert.deepEqual(failed, []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    httpServer?.close();
    isolatedServer?.close();
    corsServer?.close();
    author?.close();
    rmSync(site, { recursive: true, force: true });
  }
});
