// Shared set-up for the page tests: a Vite dev server on a free port serving web/, one headless
// Chromium (Debian's, WebGL through SwiftShader), and pages that record console and page errors.
// Not a test file itself (node --test only runs *.test.mjs).
import { createReadStream, statSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { chromium } from 'playwright-core';
import { texPlugin } from '../../web/tex_plugin.js';

const WEB_ROOT = fileURLToPath(new URL('../../web/', import.meta.url));
export const OUT_DIR = fileURLToPath(new URL('./out/', import.meta.url)); // git-ignored screenshots

// Flags from TOOLCHAIN.md section 7: no GPU, no background network chatter.
const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const VIEWPORT = { width: 480, height: 360 };
export const FRAME_TIMEOUT = 60_000; // ms; SwiftShader renders ~5-20 fps, so wait on frame counts

// The headers that make a page cross-origin isolated (as web/vite.config.js sends them): with them
// the pages load the multi-threaded build.
export const ISOLATION_HEADERS = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

// isolated: send ISOLATION_HEADERS (the other tests run the single-threaded build, as most embeds do).
export async function startServer({ isolated = false } = {}) {
  const server = await createServer({
    root: WEB_ROOT,
    configFile: false,
    logLevel: 'error',
    clearScreen: false,
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null, ...(isolated ? { headers: ISOLATION_HEADERS } : {}) },
    // No dependency discovery: three and lil-gui are plain ES modules, and a discovering optimizer
    // can finish after the first load and reload the page under a running test. Only the bunny
    // sample's package is CommonJS: it is converted at start-up, before any page asks for it, so
    // nothing is discovered late (same setting as web/vite.config.js).
    optimizeDeps: { noDiscovery: true, include: ['bunny'] },
    plugins: [texPlugin()], // the article's equations, as web/vite.config.js
  });
  await server.listen();
  const url = server.resolvedUrls.local[0];
  if (!url) throw new Error('vite dev server has no local URL');
  return { server, url };
}

// webgpu: WebGPU on Chromium's software adapter (SwiftShader, TOOLCHAIN.md "WebGPU in headless
// Chromium"); pages must come from localhost (a secure context) to see navigator.gpu. Vulkan on
// SwiftShader with ANGLE on SwiftShader: without them compute runs, but presenting a WebGPU canvas
// (gpu_stage.js draws into one) loses the device ("A valid external Instance reference no longer
// exists").
const WEBGPU_ARGS = ['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader', '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];
export function launchBrowser({ webgpu = false } = {}) {
  const args = webgpu ? [...CHROMIUM_ARGS.filter((a) => a !== '--disable-gpu'), ...WEBGPU_ARGS] : CHROMIUM_ARGS;
  return chromium.launch({ executablePath: '/usr/bin/chromium', args });
}

// Opens a page (the demo unless `query` names another, e.g. 'compare.html?test') in a fresh
// context and waits until it has rendered `frames` frames.
// problems collects page errors and console errors (the page itself reports C API errors as
// warnings plus a toast, so any console error is a real failure).
// init: a script run before the page's own (e.g. removing navigator.gpu).
export async function openDemo(browser, url, { frames = 5, query = '?test', hasTouch = false, viewport = VIEWPORT, init = null } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, hasTouch });
  const page = await context.newPage();
  if (init) await page.addInitScript(init);
  const problems = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  await page.goto(url + query);
  await page.waitForFunction(() => window.app?.ready === true, null, { timeout: FRAME_TIMEOUT });
  await waitFrames(page, frames);
  return { page, context, problems };
}

// Waits until app.frames exceeds `count` (absolute).
export async function waitFrames(page, count) {
  await page.waitForFunction((n) => window.app.frames > n, count, { timeout: FRAME_TIMEOUT, polling: 50 });
}

// Waits `count` more frames from now.
export async function waitMoreFrames(page, count) {
  const now = await page.evaluate(() => window.app.frames);
  await waitFrames(page, now + count);
}

// A minimal static file server for built sites (a sub-folder of root is fine); resolves to the
// listening http.Server on a free port. headers: sent with every file (e.g. ISOLATION_HEADERS).
export function serveStatic(root, { headers = {} } = {}) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json' };
  const httpServer = createHttpServer((request, response) => {
    const path = normalize(join(root, decodeURIComponent(new URL(request.url, 'http://x').pathname)));
    if (!path.startsWith(root)) return void response.writeHead(403).end();
    try {
      if (!statSync(path).isFile()) throw new Error('not a file');
    } catch {
      return void response.writeHead(404).end();
    }
    response.writeHead(200, { ...headers, 'Content-Type': types[extname(path)] ?? 'application/octet-stream' });
    createReadStream(path).pipe(response);
  });
  return new Promise((resolve) => httpServer.listen(0, '127.0.0.1', () => resolve(httpServer)));
}

// The set-up most page tests share: registers before/after hooks (node:test) that start the dev
// server (unless server is false) and Chromium, and close both afterwards. Returns
// { server, url, browser, ready }, filled in `before`, so tests read them as suite.browser etc.
// A file's own before hook does not wait for these (node:test may run it first): one that needs
// the browser or the server awaits suite.ready().
export function useBrowserSuite({ webgpu = false, isolated = false, server = true } = {}) {
  let starting = null;
  const ready = () => (starting ??= (async () => {
    if (server) ({ server: suite.server, url: suite.url } = await startServer({ isolated }));
    suite.browser = await launchBrowser({ webgpu });
  })());
  const suite = { server: null, url: null, browser: null, ready };
  before(ready);
  after(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}
