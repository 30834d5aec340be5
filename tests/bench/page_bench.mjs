// Part 4 of the benchmark: what an article with figures costs its reader.
//
// - Bytes: the npm package's element + bridge JavaScript as a reader's browser gets it from a
//   production build (minified by Vite, gzip level 6), without three.js; the code that only sample
//   scenes and src files load; the .wasm; and three.js as the same build bundles it (the build with
//   three bundled, minus the build with three external).
// - Time to the first frame of the article's first figure: the static site (npm run build's
//   dist/site) served on localhost, a fresh browser context per round (a first visit: nothing
//   cached), article.html#fig-spring so that figure is in view at load; from navigation start to its
//   `ready` event. As a reader gets it (the page picks its rendering: SwiftShader renders WebGL on
//   the CPU here, so the cheap settings), and with ?test (cheap rendering asked for, as the tests do).
// - Idle cost: the same article after every figure has been seen, scrolled so that none is in
//   view: main-thread task time over 5 s (Chrome DevTools Protocol Performance.getMetrics,
//   TaskDuration) as a fraction of one core, and how many animation frames the page requested.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { buildPackage } from '../../scripts/build_package.mjs';
import { ISOLATION_HEADERS, launchBrowser, serveStatic } from '../browser/harness.mjs';

const gz = (bytes) => gzipSync(bytes, { level: 6 }).length;

// The chunks a build's entry loads: static imports, and (from the entry only, unless
// entryDynamic is false) dynamic ones, which is how <soft-body> loads its runtime; dynamic imports
// deeper down (mesh readers, the bunny) are the "on demand" part. Paths relative to dir.
export function closure(dir, entry, entryDynamic = true) {
  const seen = new Set();
  const visit = (file, followDynamic) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(dir, file), 'utf8');
    const near = (path) => posix.normalize(posix.join(posix.dirname(file), path));
    // Minified output quotes with ", ' or ` alike.
    for (const [, path] of code.matchAll(/(?:from|import)\s*["'`](\.\.?\/[^"'`]+\.js)["'`]/g)) visit(near(path), false);
    if (followDynamic) for (const [, path] of code.matchAll(/import\(\s*["'`](\.\.?\/[^"'`]+\.js)["'`]\s*\)/g)) visit(near(path), false);
  };
  visit(entry, entryDynamic);
  return seen;
}

// A reader's page as an app build makes it (minified; the .wasm and the worker become files of the
// build): once with three.js left out, once bundled.
export async function minifiedSizes(packageDir, work) {
  const out = {};
  for (const [name, external] of [['without-three', [/^three($|\/)/]], ['with-three', []]]) {
    const root = join(work, `app-${name}`);
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'main.js'), `import ${JSON.stringify(join(packageDir, 'index.js'))};\n`);
    writeFileSync(join(root, 'index.html'), '<!doctype html><soft-body></soft-body><script type="module" src="./main.js"></script>');
    const dir = join(root, 'dist');
    await build({
      root,
      configFile: false,
      logLevel: 'error',
      base: './',
      build: { outDir: dir, emptyOutDir: true, rollupOptions: { external } },
      worker: { format: 'es', rollupOptions: { external } },
    });
    const assets = join(dir, 'assets');
    const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    const entry = /src="\.\/assets\/([^"]+\.js)"/.exec(html)[1];
    const loaded = closure(assets, entry);
    const sum = (list) => list.reduce((total, f) => total + gz(readFileSync(join(assets, f))), 0);
    out[name] = { loaded: sum([...loaded]), onDemand: sum(files.filter((f) => !loaded.has(f))), files: [...loaded] };
  }
  return {
    elementBridgeGzip: out['without-three'].loaded,
    onDemandGzip: out['without-three'].onDemand,
    threeGzip: out['with-three'].loaded - out['without-three'].loaded,
    wasmGzip: gz(readFileSync(join(packageDir, 'softbody.wasm'))),
    wasmBytes: readFileSync(join(packageDir, 'softbody.wasm')).length,
    files: out['without-three'].files,
  };
}

async function firstFigure(browser, base, query, rounds) {
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const context = await browser.newContext({ viewport: { width: 800, height: 700 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.addInitScript(() => {
      document.addEventListener('ready', (e) => (window.__firstReady ??= { id: e.target.id, t: performance.now() }), true);
    });
    await page.goto(`${base}article.html${query}#fig-spring`);
    await page.waitForFunction(() => window.__firstReady, null, { timeout: 120_000 });
    const ready = await page.evaluate(() => window.__firstReady);
    if (ready.id !== 'fig-spring') throw new Error(`the first figure ready was ${ready.id}`);
    times.push(ready.t);
    await context.close();
  }
  return times;
}

async function idleCost(browser, base) {
  const context = await browser.newContext({ viewport: { width: 800, height: 700 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__raf = 0;
    const raf = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (fn) => {
      window.__raf += 1;
      return raf(fn);
    };
  });
  await page.goto(`${base}article.html?test`);
  const ids = await page.evaluate(() => [...document.querySelectorAll('soft-body')].map((f) => f.id));
  for (const id of ids) {
    await page.evaluate((i) => document.getElementById(i).scrollIntoView({ block: 'center' }), id);
    await page.waitForFunction((i) => document.getElementById(i).frames > 2, id, { timeout: 120_000 });
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  const visible = await page.evaluate(() => [...document.querySelectorAll('soft-body, iframe')].filter((f) => {
    const r = f.getBoundingClientRect();
    return r.bottom > 0 && r.top < innerHeight;
  }).length);
  await page.waitForTimeout(1000);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const task = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  const raf0 = await page.evaluate(() => window.__raf);
  const t0 = await task();
  const started = Date.now();
  await page.waitForTimeout(5000);
  const t1 = await task();
  const seconds = (Date.now() - started) / 1000;
  const raf1 = await page.evaluate(() => window.__raf);
  await context.close();
  return { figures: ids.length, visible, seconds, coreFraction: (t1 - t0) / seconds, animationFrames: raf1 - raf0 };
}

// The demo page's own physics timer (world.step wall time, the readout's "physics") for a box of
// `cells`^3 cells (6 tets each) at the default 10 substeps: median over `frames` frames after a
// warm-up, in headless Chromium. threads 0: the single-threaded build; n >= 1: the multi-threaded
// build (base must send ISOLATION_HEADERS) held at n threads once the page's tuner is done.
async function demoPhysics(browser, base, cells, { frames = 90, threads = 0 } = {}) {
  const context = await browser.newContext({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${base}index.html?test${threads ? '' : '&threads=1'}`);
  await page.waitForFunction(() => window.app?.ready, null, { timeout: 120_000 });
  await page.evaluate((n) => app.set('resolution', n), cells);
  const tets = await page.evaluate(() => app.tetCount());
  if (threads) {
    await page.waitForFunction(() => !app.threads().trying, null, { timeout: 600_000, polling: 100 });
    const max = await page.evaluate((n) => (app.world.setThreads(n), app.threads().max), threads);
    if (max < 4) throw new Error('the isolated page did not load the multi-threaded build');
  }
  const start = await page.evaluate(() => app.frames);
  await page.waitForFunction((f) => app.frames >= f, start + 30, { timeout: 600_000, polling: 'raf' });
  const samples = await page.evaluate(
    (n) =>
      new Promise((resolve) => {
        const out = [];
        const tick = () => {
          out.push(app.stepMs());
          if (out.length >= n) resolve(out);
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    frames,
  );
  await context.close();
  return { cells, tets, threads: Math.max(1, threads), build: threads ? 'site-mt' : 'site', ms: median(samples), samples: samples.length };
}

export async function runPagePart({ rounds = 5, log = () => {} } = {}) {
  // Inside the repository, so the builds resolve three.js from its node_modules.
  const cache = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url));
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(join(cache, 'softbody-page-bench-'));
  try {
    log('page: building the package and the site');
    const packageDir = await buildPackage({ outDir: join(work, 'package'), site: true, logLevel: 'error' });
    log('page: minified sizes');
    const sizes = await minifiedSizes(packageDir, work);
    const server = await serveStatic(work);
    const isolatedServer = await serveStatic(work, { headers: ISOLATION_HEADERS });
    const browser = await launchBrowser();
    try {
      const base = `http://127.0.0.1:${server.address().port}/package/site/`;
      log('page: first figure (?test)');
      const cheap = await firstFigure(browser, base, '?test', rounds);
      log('page: first figure (full quality)');
      const full = await firstFigure(browser, base, '', rounds);
      log('page: idle cost');
      const idle = await idleCost(browser, base);
      log('page: the demo\'s physics at 10k and 48k tets, and at 48k on the threaded build (1 and 2 threads)');
      const isolatedBase = `http://127.0.0.1:${isolatedServer.address().port}/package/site/`;
      const physics = [await demoPhysics(browser, base, 12), await demoPhysics(browser, base, 20)];
      for (const threads of [1, 2]) physics.push(await demoPhysics(browser, isolatedBase, 20, { threads }));
      return { sizes, firstFigureMs: { test: cheap, full }, idle, physics, rounds };
    } finally {
      await browser.close();
      server.close();
      isolatedServer.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
};
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

export function pageResults({ sizes, firstFigureMs, idle, physics }) {
  return [
    ...physics.map((p) => ({ name: `demo-physics-${p.tets}`, build: p.build, threads: p.threads, tets: p.tets, msPerFrame: p.ms, samples: p.samples })),
    { name: 'page-weight', build: 'site', elementBridgeGzip: sizes.elementBridgeGzip, onDemandGzip: sizes.onDemandGzip, threeGzip: sizes.threeGzip, wasmGzip: sizes.wasmGzip, wasmBytes: sizes.wasmBytes },
    { name: 'first-figure', build: 'site', msTest: median(firstFigureMs.test), msFull: median(firstFigureMs.full), samplesTest: firstFigureMs.test, samplesFull: firstFigureMs.full },
    { name: 'idle-article', build: 'site', ...idle },
  ];
}

export function pageReport({ sizes, firstFigureMs, idle, physics, rounds }) {
  const target = (ok) => (ok ? 'met' : 'NOT met');
  return [
    'page cost: the npm package in a production build (Vite, minified, gzip -6), the article from npm run build\'s static site, headless Chromium (SwiftShader WebGL)',
    `  element + bridge JS, without three.js: ${kB(sizes.elementBridgeGzip)} gzipped (target 40 kB: ${target(sizes.elementBridgeGzip <= 40000)}); loaded only for sample scenes and src: ${kB(sizes.onDemandGzip)}`,
    `  softbody.wasm: ${kB(sizes.wasmGzip)} gzipped (${kB(sizes.wasmBytes)} raw); three.js as bundled: ${kB(sizes.threeGzip)} gzipped`,
    `  first figure of the article drawn, from navigation (median of ${rounds} fresh visits): ${median(firstFigureMs.full).toFixed(0)} ms as a reader gets it (target 1500 ms: ${target(median(firstFigureMs.full) <= 1500)}), ${median(firstFigureMs.test).toFixed(0)} ms with ?test`,
    `    samples ?test: ${firstFigureMs.test.map((t) => t.toFixed(0)).join(', ')} ms; full: ${firstFigureMs.full.map((t) => t.toFixed(0)).join(', ')} ms`,
    ...physics.map((p) => `  demo physics, ${p.tets.toLocaleString('en-US')} tets (${p.cells}^3 box), 10 substeps, ${p.build === 'site' ? 'single-threaded build' : `threaded build on ${p.threads} thread${p.threads > 1 ? 's' : ''}`}: ${p.ms.toFixed(2)} ms per frame (median of ${p.samples} frames, the page's own timer)${p.tets >= 40000 && p.build === 'site' ? ` (target 8 ms: ${target(p.ms <= 8)})` : ''}`),
    `  idle article (${idle.figures} figures seen, then ${idle.visible} in view): ${(100 * idle.coreFraction).toFixed(2)} % of one core over ${idle.seconds.toFixed(1)} s (target 2 %: ${target(idle.coreFraction <= 0.02)}), ${idle.animationFrames} animation frames requested`,
  ];
}
