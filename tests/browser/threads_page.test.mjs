// The multi-threaded build in the browser: a cross-origin isolated page (COOP + COEP, as
// web/vite.config.js serves them) loads it, steps large bodies on more threads when that is faster
// here, and gets the same bits as on one thread; ?threads=1 and pages that are not isolated load
// the single-threaded build. (The static build with the headers: embed_page.test.mjs.)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FRAME_TIMEOUT, launchBrowser, openDemo, startServer } from './harness.mjs';

let isolated;
let plain;
let browser;

before(async () => {
  isolated = await startServer({ isolated: true });
  plain = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await isolated?.server.close();
  await plain?.server.close();
});

test('an isolated page loads the threaded build; a large body gets the faster of many threads and one', async () => {
  const { page, context, problems } = await openDemo(browser, isolated.url);
  try {
    const start = await page.evaluate(() => ({ isolated: crossOriginIsolated, cores: navigator.hardwareConcurrency, ...app.threads() }));
    assert.equal(start.isolated, true);
    assert.equal(start.max, 4, 'the threaded build: its pool of 3 workers plus the page');
    assert.equal(start.count, 1, `the default box (${await page.evaluate(() => app.tetCount())} tets) is below 8k tets: one thread`);
    // 48,000 tets: autoThreads asks for the machine's cores (at most 4); the tuner times them
    // against one thread and keeps the faster (more threads only when 10 % faster).
    await page.evaluate(() => app.set('resolution', 20));
    const wanted = Math.min(4, start.cores);
    await page.waitForFunction(() => !app.threads().trying, null, { timeout: 10 * FRAME_TIMEOUT, polling: 100 });
    const tuned = await page.evaluate(() => app.threads());
    console.log(`threads: wanted ${tuned.wanted}, kept ${tuned.count}, median ${JSON.stringify(tuned.verdict)} ms`);
    assert.equal(tuned.wanted, wanted);
    if (wanted > 1) {
      assert.ok(tuned.verdict.many > 0 && tuned.verdict.one > 0, JSON.stringify(tuned.verdict));
      assert.equal(tuned.count, tuned.verdict.many < 0.9 * tuned.verdict.one ? wanted : 1, JSON.stringify(tuned));
    }
    // The readout averages over half a second: wait for a window that began after the choice.
    const readout = await page.waitForFunction(
      (count) => {
        const text = document.querySelector('[data-field=physics]').textContent;
        const ok = count > 1 ? text.endsWith(`· ${count} threads`) : /^\d+\.\d\d ms$/.test(text);
        return ok && text;
      },
      tuned.count,
      { timeout: FRAME_TIMEOUT, polling: 100 },
    );
    assert.match(await readout.jsonValue(), /^\d+\.\d\d ms/);

    // The same bits on 1, 2 and 3 threads, in this browser: a 16^3-cell box (24,576 tets) whose
    // colours are split among the threads, 20 frames each, in worlds of their own.
    const sums = await page.evaluate(() => {
      const out = [];
      for (const threads of [1, 2, 3]) {
        const world = app.world.sb.createWorld();
        try {
          world.setSubsteps(10);
          const body = world.addBox({ size: [1, 1, 1], center: [0, 1.2, 0], cells: [16, 16, 16] });
          body.setParam('edgeCompliance', 1e-4);
          world.setThreads(threads);
          for (let i = 0; i < 20; i++) world.step(1 / 60);
          out.push({ threads: world.threads, bits: Array.from(new Uint32Array(body.positions.slice().buffer)) });
        } finally {
          world.setThreads(1);
          world.destroy();
        }
      }
      return out;
    });
    assert.deepEqual(sums.map((s) => s.threads), [1, 2, 3]);
    assert.ok(sums[0].bits.length === 3 * 17 ** 3);
    assert.ok(sums[1].bits.every((b, i) => b === sums[0].bits[i]), 'positions on 2 threads equal those on 1, bit for bit');
    assert.ok(sums[2].bits.every((b, i) => b === sums[0].bits[i]), 'positions on 3 threads equal those on 1, bit for bit');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('?threads=1, and a page that is not isolated, load the single-threaded build', async () => {
  for (const [server, query] of [[isolated, '?test&threads=1'], [plain, '?test']]) {
    const { page, context, problems } = await openDemo(browser, server.url, { query });
    try {
      await page.evaluate(() => app.set('resolution', 20));
      const state = await page.evaluate(() => ({ isolated: crossOriginIsolated, ...app.threads() }));
      assert.equal(state.isolated, server === isolated);
      assert.equal(state.max, 1, `${query}: the single-threaded build`);
      assert.equal(state.count, 1);
      assert.equal(state.trying, false);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

// Emscripten's "Blocking on the main thread is very dangerous" came on every load that ran a world
// on 2+ threads (the page's thread waits for its workers by design); scripts/setup.sh takes the call
// out of the glue the pages load (build_progress.sh quiet_blocking_warning).
test('the threaded build runs 2 threads without Emscripten\'s blocking warning', async () => {
  const context = await browser.newContext({ viewport: { width: 480, height: 360 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const warnings = []; // listening from the first line the page runs (the warning came at start-up)
  page.on('console', (message) => {
    if (/Blocking on the main thread/.test(message.text()) || message.type() === 'error') warnings.push(message.text());
  });
  page.on('pageerror', (error) => warnings.push(error.message));
  try {
    await page.goto(`${isolated.url}?test&threads=2`);
    await page.waitForFunction(() => window.app?.ready && app.frames > 40, null, { timeout: FRAME_TIMEOUT });
    await page.evaluate(() => app.press('reset'));
    await page.waitForFunction(() => app.frames > 60, null, { timeout: FRAME_TIMEOUT });
    const threads = await page.evaluate(() => app.threads());
    assert.ok(threads.max === 4 && threads.wanted === 2, JSON.stringify(threads));
    assert.deepEqual(warnings, []);
  } finally {
    await context.close();
  }
});
