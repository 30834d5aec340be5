// embed.html, the chrome-less figure for iframes: URL parameters are the element's attributes, it
// answers postMessage commands and reports back; and the static build, served from a sub-folder
// (as a blog or GitHub Pages would), finds its scripts and wasm by relative paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { FRAME_TIMEOUT, ISOLATION_HEADERS, serveStatic, useBrowserSuite } from './harness.mjs';

const WEB_ROOT = fileURLToPath(new URL('../../web/', import.meta.url));

const suite = useBrowserSuite();

function watch(page) {
  const problems = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  return problems;
}

test('the iframe page takes its attributes from the URL and answers postMessage', async () => {
  const context = await suite.browser.newContext({ viewport: { width: 640, height: 480 }, deviceScaleFactor: 1 });
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
    await page.goto(`${suite.url}article-fixture.html`);
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
  const context = await suite.browser.newContext({ viewport: { width: 640, height: 480 }, deviceScaleFactor: 1 });
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
    await page.goto(`${suite.url}scroll-fixture.html`);
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
  const context = await suite.browser.newContext({ viewport: { width: 480, height: 320 }, deviceScaleFactor: 1 });
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
    // The built demo's "copy embed code" names the build's softbody.js, which is there.
    await page.evaluate(() => app.press('copyEmbed'));
    const snippet = await page.evaluate(() => document.querySelector('[data-snippet="element"]').value);
    assert.ok(snippet.startsWith(`<script type="module" src="${base}softbody.js"></script>\n<soft-body `), snippet);
    assert.equal(await page.evaluate(async (u) => (await fetch(u)).status, `${base}softbody.js`), 200);
    // The docs as pages (web/docs_plugin.js), from the demo's link, with the README's image.
    await page.goto(await page.evaluate(() => document.querySelector('a[href="./docs/index.html"]').href)); // the embed dialog is open
    await page.waitForFunction(() => document.querySelector('main img')?.complete);
    assert.ok(await page.evaluate(() => document.querySelector('main img').naturalWidth > 0), 'the docs index and its image are in the build');
    await page.click('nav a[href="embedding.html"]');
    assert.equal(await page.evaluate(() => document.querySelector('h1').textContent), 'Embedding figures in an article');
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

// A tiny server of its own origin: routes { path: [type, body] }, with CORS like a CDN.
function serveOrigin(routes) {
  const httpServer = createServer((request, response) => {
    const route = routes[new URL(request.url, 'http://x').pathname];
    if (!route) return void response.writeHead(404).end();
    response.writeHead(200, { 'Content-Type': route[0], 'Access-Control-Allow-Origin': '*' }).end(route[1]);
  });
  return new Promise((resolve) => httpServer.listen(0, '127.0.0.1', () => resolve({ httpServer, origin: `http://127.0.0.1:${httpServer.address().port}` })));
}

const CUBE_OBJ = ['v 0 0 0', 'v 1 0 0', 'v 1 1 0', 'v 0 1 0', 'v 0 0 1', 'v 1 0 1', 'v 1 1 1', 'v 0 1 1',
  'f 1 4 3', 'f 1 3 2', 'f 5 6 7', 'f 5 7 8', 'f 1 2 6', 'f 1 6 5', 'f 4 8 7', 'f 4 7 3', 'f 1 5 8', 'f 1 8 4', 'f 2 3 7', 'f 2 7 6'].join('\n');

test('locked down: only the parent drives the frame, replies go to its origin, fetches stay on allowed origins, detail is capped, junk is ignored', async () => {
  // Three origins: the article (parent), the figure's site (the dev server), and a third party that
  // hosts a mesh and a hostile frame beside the figure.
  const third = await serveOrigin({
    '/cube.obj': ['text/plain', CUBE_OBJ],
    '/pixel.svg': ['image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'],
    '/evil.html': ['text/html', '<!doctype html><title>ad</title><p>an ad'],
  });
  const embed = `${suite.url}embed.html?test&controls=none`;
  const parent = await serveOrigin({
    '/article.html': ['text/html', `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>
      <iframe id="frame" width="320" height="200" src="${embed}&autoplay&scene=spring&resolution=64&asset-origin=${third.origin}"></iframe>
      <iframe id="strict" width="320" height="200" src="${embed}&origin=http://127.0.0.1:1&src=${third.origin}/cube.obj"></iframe>
      <iframe id="evil" width="100" height="50" src="${third.origin}/evil.html"></iframe>
      <iframe id="data" width="320" height="200" src="${embed}&src=${encodeURIComponent('data:text/plain,v 0 0 0 f 1 1 1')}"></iframe>
      <script>
        window.__messages = [];
        window.addEventListener('message', (e) => { if (e.data?.source === 'softbody') window.__messages.push({ ...e.data, from: [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === e.source)?.id }); });
      </script></body></html>`],
  });
  const context = await suite.browser.newContext({ viewport: { width: 700, height: 500 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = watch(page);
  const requests = [];
  page.on('request', (request) => requests.push(request.url()));
  try {
    await page.goto(`${parent.origin}/article.html`);
    await page.waitForFunction(() => window.__messages.some((m) => m.softbody === 'ready' && m.from === 'frame'), null, { timeout: FRAME_TIMEOUT });
    const figure = page.frames().find((f) => f.url().includes('scene=spring'));
    const strict = page.frames().find((f) => f.url().includes('&origin=http'));
    const evil = page.frames().find((f) => f.url().endsWith('/evil.html'));
    const data = page.frames().find((f) => f.url().includes('src=data'));
    assert.ok(figure && strict && evil && data);
    const message = (frame) => frame.evaluate(() => window.app.figure.shadowRoot.querySelector('.message span').textContent);

    // Replies go to the parent's origin, not '*'; resolution is capped with a word.
    assert.equal(await figure.evaluate(() => window.app.replyOrigin), parent.origin);
    assert.equal(await figure.evaluate(() => window.app.figure.resolution), 24);
    const capped = await page.evaluate(() => window.__messages.filter((m) => m.softbody === 'error').map((m) => m.message));
    assert.ok(capped.some((m) => /resolution=64 is more than this frame builds; using 24/.test(m)), capped.join(' | '));

    // The parent drives it; a sibling frame on another origin cannot.
    const send = (m) => page.evaluate((msg) => document.getElementById('frame').contentWindow.postMessage(msg, '*'), m);
    await send({ softbody: 'setParam', name: 'gravity', value: -3 });
    await figure.waitForFunction(() => window.app.figure.gravity === -3);
    await evil.evaluate(() => window.parent.frames[0].postMessage({ softbody: 'setParam', name: 'gravity', value: 5 }, '*'));
    await evil.evaluate(() => window.parent.frames[0].postMessage({ softbody: 'pause' }, '*'));
    await page.waitForTimeout(300);
    assert.deepEqual(await figure.evaluate(() => [window.app.figure.gravity, window.app.figure.paused]), [-3, false], 'the sibling changed nothing');

    // Malformed messages are ignored without a word (and throw nothing).
    const errorsBefore = await page.evaluate(() => window.__messages.filter((m) => m.softbody === 'error').length);
    for (const junk of [null, 'play', [1, 2], { softbody: 5 }, { softbody: 'step', n: 'x' }, { softbody: 'step', n: -1 }, { softbody: 'setParam', name: {}, value: 1 },
      { softbody: 'setParam', name: 'gravity', value: { x: 1 } }, { softbody: 'setParam', name: 'toString', value: 1 }, { softbody: 'setParam', name: 'gravity' }]) await send(junk);
    await page.waitForTimeout(300);
    assert.equal(await figure.evaluate(() => window.app.figure.gravity), -3);
    assert.equal(await page.evaluate(() => window.__messages.filter((m) => m.softbody === 'error').length), errorsBefore, 'no replies to junk');

    // src and poster by message: another origin is refused unless listed (asset-origin), data: too.
    for (const [name, value, pattern] of [
      ['src', 'http://127.0.0.1:9/far.obj', /src: http:\/\/127\.0\.0\.1:9\/far\.obj is on another origin/],
      ['poster', 'http://127.0.0.1:9/pixel.gif', /poster: .* is on another origin/],
      ['src', 'data:text/plain,v 0 0 0', /data: URLs are not taken/],
    ]) {
      await send({ softbody: 'setParam', name, value });
      await figure.waitForFunction((p) => new RegExp(p).test(window.app.figure.shadowRoot.querySelector('.message span').textContent), pattern.source);
    }
    await send({ softbody: 'setParam', name: 'src', value: `${third.origin}/cube.obj` });
    await figure.waitForFunction(() => window.app.figure.bodies[0]?.tetCount > 50, null, { timeout: FRAME_TIMEOUT });
    assert.ok(!requests.some((r) => r.startsWith('http://127.0.0.1:9/')), 'nothing fetched from a refused origin');
    // (The strict frame below screened the same address from its URL at load.)
    assert.equal(requests.filter((r) => r === `${third.origin}/cube.obj`).length, 1, 'only the frame that lists its origin fetched the cube');
    // The parent hears the meshing progress and each build's load, with what was built.
    const tets = await figure.evaluate(() => window.app.figure.bodies[0].tetCount);
    await page.waitForFunction(() => window.__messages.some((m) => m.softbody === 'load' && m.from === 'frame' && m.src), null, { timeout: FRAME_TIMEOUT });
    const heard = await page.evaluate(() => window.__messages.filter((m) => m.from === 'frame' && (m.softbody === 'load' || m.softbody === 'progress')));
    assert.deepEqual(heard.filter((m) => m.softbody === 'load').map((m) => [m.scene, m.src, m.views]), [['spring', null, 1], [null, `${third.origin}/cube.obj`, 1]]);
    assert.equal(heard.find((m) => m.src).tets, tets);
    const progress = heard.filter((m) => m.softbody === 'progress');
    assert.ok(progress.length >= 2 && progress.every((m) => m.label === 'meshing cube.obj' && m.fraction >= 0 && m.fraction <= 1), JSON.stringify(progress));
    assert.equal(progress.at(-1).fraction, 1);
    // The tet cap (150,000 here): a message may lower it, never lift it. Lowered to 10, the cube's
    // estimate is refused before it is meshed, and the body and the cap stay as they were.
    await send({ softbody: 'setParam', name: 'max-tets', value: 1e9 });
    await figure.waitForFunction(() => /max-tets=1000000000: this frame builds at most 150,000 tets/.test(window.app.figure.shadowRoot.querySelector('.message span').textContent));
    assert.equal(await figure.evaluate(() => window.app.figure.maxTets), 150000);
    await send({ softbody: 'setParam', name: 'max-tets', value: 10 });
    await figure.waitForFunction(() => /cube\.obj: this surface would give about [\d,]+ tets, above the limit of 10;/.test(window.app.figure.shadowRoot.querySelector('.message span').textContent), null, { timeout: FRAME_TIMEOUT });
    assert.deepEqual(await figure.evaluate(() => [window.app.figure.bodies[0].tetCount, window.app.figure.maxTets]), [tets, 150000]);

    // A parent not in origin=...: commands are refused and nothing is sent to it.
    assert.equal(await strict.evaluate(() => window.app.replyOrigin), null);
    await strict.waitForFunction(() => window.app.figure.loaded, null, { timeout: FRAME_TIMEOUT });
    await page.evaluate(() => document.getElementById('strict').contentWindow.postMessage({ softbody: 'setParam', name: 'gravity', value: -1 }, '*'));
    await page.waitForTimeout(300);
    assert.notEqual(await strict.evaluate(() => window.app.figure.gravity), -1);
    assert.match(await message(strict), /src: .*cube\.obj is on another origin/, 'src from the URL is screened too');
    assert.ok(!(await page.evaluate(() => window.__messages.some((m) => m.from === 'strict'))), 'the strict frame told nothing to a parent it does not know');

    // A data: URL in src is refused in one clear sentence, and nothing like /0 is fetched.
    assert.match(await message(data), /src: data: URLs are not taken by embed\.html/);
    assert.ok(!requests.some((r) => /\/0$/.test(r)), requests.filter((r) => /\/0$/.test(r)).join(', '));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    third.httpServer.close();
    parent.httpServer.close();
  }
});
