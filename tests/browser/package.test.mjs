// The npm package as a user gets it: `npm run build`'s library (scripts/build_package.mjs), packed
// with `npm pack`, installed into a fresh project in a temporary folder next to three.js, built by
// that project's Vite, served, and opened in Chromium: the element renders, a grab moves the body,
// a sample scene is meshed by the package's worker, and what the module exports is what its types
// declare.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { buildPackage } from '../../scripts/build_package.mjs';
import { FRAME_TIMEOUT, serveStatic, useBrowserSuite } from './harness.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const THREE_VERSION = JSON.parse(readFileSync(join(ROOT, 'node_modules/three/package.json'), 'utf8')).version;

const suite = useBrowserSuite({ server: false });
let work;

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'softbody-package-'));
});

after(async () => {
  if (work) rmSync(work, { recursive: true, force: true });
});

// A TypeScript user of both entries and the element; the lines after @ts-expect-error must fail.
const TYPED_CONSUMER = `import { ATTRIBUTES, ErrorCode, SoftBodyElement, SoftbodyError, sharedSoftbody, type BodyStats, type FigureStats } from 'softbody';
import { loadSoftbody } from 'softbody/bridge';

export async function main(bytes: Uint8Array): Promise<number> {
  const sb = await sharedSoftbody();
  const world = sb.createWorld();
  const body = world.addBox({ cells: [4, 4, 4], center: [0, 1, 0] });
  body.setParam('edgeCompliance', 1e-3);
  body.setSolver('rk4');
  world.step(1 / 60);
  const stats: BodyStats = body.stats();
  const positions: Float32Array = body.positions;
  const figure = document.querySelector('soft-body');
  if (figure) {
    const typed: SoftBodyElement = figure;
    typed.edgeCompliance = 1e-3;
    typed.compare = ['explicitEuler', 'xpbd'];
    typed.addEventListener('exploded', (event) => console.log(event.detail.solver, event.detail.time.toFixed(2)));
    typed.addEventListener('frame', (event) => {
      const now: FigureStats = event.detail;
      console.log(now.views.length, now.energy);
    });
    typed.play();
    typed.step(3);
    const accepted: boolean = typed.setParam('substeps', 20);
    console.log(accepted, typed.world?.substeps, typed.stats?.time);
  }
  try {
    body.setParam('density', -5);
  } catch (error) {
    if (error instanceof SoftbodyError && error.code === ErrorCode.OUT_OF_RANGE) console.log(error.codeName);
  }
  const inNode = await loadSoftbody({ wasmBinary: bytes });
  inNode.createWorld().destroy();
  // @ts-expect-error: not a parameter
  body.setParam('densty', 1);
  // @ts-expect-error: not a solver
  body.setSolver('leapfrog');
  // @ts-expect-error: the live positions are read-only
  body.positions = new Float32Array(3);
  // @ts-expect-error: a step takes seconds as a number
  world.step('1/60');
  console.log(ATTRIBUTES.length, positions.length);
  return stats.center[1];
}
`;

// Names a .d.ts declares as values (export declare const/function/class), following export *.
function declaredValues(file) {
  const text = readFileSync(file, 'utf8');
  const names = [...text.matchAll(/^export declare (?:const|function|class) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]);
  for (const [, from] of text.matchAll(/^export \* from '\.\/([\w]+)\.js';/gm)) names.push(...declaredValues(join(file, '..', `${from}.d.ts`)));
  return names.sort();
}

test('the packed package installs into a fresh project, builds with its Vite, renders and can be grabbed', async () => {
  await buildPackage({ site: false, logLevel: 'error' });
  const dist = join(ROOT, 'dist');
  for (const file of ['index.js', 'bridge.js', 'tetra_worker.js', 'softbody.wasm', 'index.d.ts', 'bridge.d.ts']) {
    assert.ok(existsSync(join(dist, file)), `dist/${file}`);
  }

  // npm pack, as a publisher would; the tarball holds the library, not the sources or the site.
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const tarball = join(work, packed[0].filename);
  const files = packed[0].files.map((f) => f.path);
  assert.ok(files.includes('dist/softbody.wasm') && files.includes('dist/index.d.ts') && files.includes('dist/tetra_worker.js'), files.join(', '));
  assert.ok(!files.some((f) => f.startsWith('core/') || f.startsWith('web/') || f.startsWith('dist/site/')), 'sources and the site stay out of the package');

  // A fresh project: the tarball and three.js (the peer dependency), nothing else.
  const project = join(work, 'fixture');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fixture', private: true, type: 'module' }, null, 2));
  writeFileSync(
    join(project, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>
      <soft-body id="box" autoplay controls="none" style="width: 480px"></soft-body>
      <soft-body id="bunny" scene="bunny" resolution="6" autoplay controls="none" style="width: 240px"></soft-body>
      <script type="module" src="./main.js"></script></body></html>`,
  );
  writeFileSync(join(project, 'main.js'), `import * as softbody from 'softbody';\nwindow.pkg = { exports: Object.keys(softbody).sort() };\n`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball, `three@${THREE_VERSION}`], { cwd: project, stdio: 'ignore' });

  // The types, checked by TypeScript as the project would use them: correct use compiles, and each
  // misuse marked @ts-expect-error must be an error (tsc fails if one is not).
  writeFileSync(join(project, 'consumer.ts'), TYPED_CONSUMER);
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const flags = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--lib', 'es2022,dom', 'consumer.ts'];
  try {
    execFileSync(process.execPath, [tsc, ...flags], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    assert.fail(`the package's types do not check:\n${error.stdout}${error.stderr}`);
  }
  await build({ root: project, configFile: false, logLevel: 'error', base: './', build: { outDir: join(project, 'dist'), emptyOutDir: true } });
  const built = readdirSync(join(project, 'dist', 'assets'));
  assert.ok(built.some((f) => f.endsWith('.wasm')), `the project's build copied the .wasm (${built.join(', ')})`);

  // Served from a sub-folder of the server, like a real site.
  const server = await serveStatic(work);
  const context = await suite.browser.newContext({ viewport: { width: 640, height: 480 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    const problems = [];
    const failed = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`http://127.0.0.1:${server.address().port}/fixture/dist/index.html`);
    await page.waitForFunction(() => document.getElementById('box')?.frames > 20, null, { timeout: FRAME_TIMEOUT });
    const exported = await page.evaluate(() => window.pkg.exports);
    assert.deepEqual(exported, declaredValues(join(dist, 'index.d.ts')), 'the module exports what index.d.ts declares');

    // Grab the top of the settled box and lift it.
    const grab = await page.evaluate(() => {
      const box = document.getElementById('box');
      const s = box.stats;
      return { start: s.center[1], point: box._view.project(0, [s.center[0], s.center[1] + 0.45, s.center[2]]) };
    });
    await page.mouse.move(grab.point.x, grab.point.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) {
      await page.mouse.move(grab.point.x, grab.point.y - 12 * i);
      const frames = await page.evaluate(() => document.getElementById('box').frames);
      await page.waitForFunction((n) => document.getElementById('box').frames > n, frames, { timeout: FRAME_TIMEOUT });
    }
    const lifted = await page.evaluate(() => document.getElementById('box').stats.center[1]);
    await page.mouse.up();
    assert.ok(lifted > grab.start + 0.1, `a grab lifts the body (${grab.start.toFixed(3)} -> ${lifted.toFixed(3)} m)`);

    // The bunny was tetrahedralized by the package's worker, which the project's build bundled.
    await page.waitForFunction(() => document.getElementById('bunny')?.frames > 3, null, { timeout: FRAME_TIMEOUT });
    assert.ok((await page.evaluate(() => document.getElementById('bunny').bodies[0].tetCount)) > 100);
    assert.deepEqual(failed, []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    server.close();
  }
});

test('the bridge entry loads in node with the wasm bytes, and exports what bridge.d.ts declares', async () => {
  const dist = join(ROOT, 'dist');
  if (!existsSync(join(dist, 'bridge.js'))) await buildPackage({ site: false, logLevel: 'error' });
  const bridge = await import(join(dist, 'bridge.js'));
  assert.deepEqual(Object.keys(bridge).sort(), declaredValues(join(dist, 'bridge.d.ts')));
  const sb = await bridge.loadSoftbody({ wasmBinary: readFileSync(join(dist, 'softbody.wasm')) });
  const world = sb.createWorld();
  const body = world.addBox({ cells: [2, 2, 2] });
  world.step(1 / 60);
  assert.ok(body.stats().finite);
  assert.throws(() => body.setParam('density', -5), (error) => error instanceof bridge.SoftbodyError && error.code === bridge.ErrorCode.OUT_OF_RANGE);
  world.destroy();
});

test('without a build step: dist/ served as it is, three.js through an import map', async () => {
  const dist = join(ROOT, 'dist');
  if (!existsSync(join(dist, 'index.js'))) await buildPackage({ site: false, logLevel: 'error' });
  const server = await serveStatic(ROOT); // serves dist/ and node_modules/three/ as a site would host them
  const context = await suite.browser.newContext({ viewport: { width: 640, height: 480 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
    });
    const base = `http://127.0.0.1:${server.address().port}`;
    await page.route(`${base}/no-build.html`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
          <script type="importmap">{ "imports": { "three": "/node_modules/three/build/three.module.js", "three/addons/": "/node_modules/three/examples/jsm/" } }</script>
          </head><body><soft-body id="ball" scene="ball" autoplay></soft-body>
          <script type="module" src="/dist/index.js"></script></body></html>`,
      }),
    );
    await page.goto(`${base}/no-build.html`);
    await page.waitForFunction(() => document.getElementById('ball')?.frames > 10, null, { timeout: FRAME_TIMEOUT });
    const state = await page.evaluate(() => ({ time: document.getElementById('ball').time, volume: document.getElementById('ball').stats.volumeRatio }));
    assert.ok(state.time > 0.1 && Math.abs(state.volume - 1) < 0.05, JSON.stringify(state));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    server.close();
  }
});

// A page that shares memory (COOP + COEP on every response) gets the threaded build shipped in
// dist/wasm-mt/, found beside the package's files; useThreadedBuild(null) keeps one thread there.
test('without a build step, cross-origin isolated: the package loads its multi-threaded build', async () => {
  const dist = join(ROOT, 'dist');
  if (!existsSync(join(dist, 'wasm-mt', 'softbody-mt.mjs'))) await buildPackage({ site: false, logLevel: 'error' });
  const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
  const server = await serveStatic(ROOT, { headers: isolation });
  const context = await suite.browser.newContext({ viewport: { width: 640, height: 480 }, deviceScaleFactor: 1 });
  const base = `http://127.0.0.1:${server.address().port}`;
  // The page: an import map for three.js, one figure, and a world of its own on 2 threads.
  const html = (setup) => `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <script type="importmap">{ "imports": { "three": "/node_modules/three/build/three.module.js", "three/addons/": "/node_modules/three/examples/jsm/" } }</script>
    </head><body><soft-body id="ball" scene="ball" autoplay></soft-body>
    <script type="module">
      import { sharedSoftbody, useThreadedBuild } from '/dist/index.js';
      ${setup}
      const sb = await sharedSoftbody();
      const world = sb.createWorld();
      const body = world.addBox({ cells: [6, 6, 6], center: [0, 1, 0] });
      world.setThreads(Math.min(2, sb.maxThreads));
      for (let i = 0; i < 20; i++) world.step(1 / 60);
      window.result = { isolated: crossOriginIsolated, maxThreads: sb.maxThreads, threads: world.threads, finite: body.stats().finite, y: body.stats().center[1] };
    </script></body></html>`;
  try {
    const heights = [];
    for (const [setup, expected] of [['', 4], ['useThreadedBuild(null);', 1]]) {
      const page = await context.newPage();
      const problems = [];
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      page.on('console', (message) => {
        // Errors, and our fallback's warning ("softbody: the multi-threaded build did not load").
        if (message.type() === 'error' || message.text().startsWith('softbody:')) problems.push(`console.${message.type()}: ${message.text()}`);
      });
      await page.route(`${base}/isolated.html`, (route) => route.fulfill({ contentType: 'text/html', headers: isolation, body: html(setup) }));
      await page.goto(`${base}/isolated.html`);
      await page.waitForFunction(() => window.result && document.getElementById('ball')?.frames > 10, null, { timeout: FRAME_TIMEOUT });
      const result = await page.evaluate(() => window.result);
      assert.equal(result.isolated, true);
      assert.equal(result.maxThreads, expected, JSON.stringify(result));
      assert.equal(result.threads, Math.min(2, expected));
      // The same physics on 2 threads of the threaded build as on the single-threaded build's one:
      // the same centre to the bit after 20 frames of falling onto the ground.
      assert.ok(result.finite && result.y < 0.9, JSON.stringify(result));
      heights.push(result.y);
      assert.deepEqual(problems, []);
      await page.close();
    }
    assert.equal(heights[0], heights[1]);
  } finally {
    await context.close();
    server.close();
  }
});
