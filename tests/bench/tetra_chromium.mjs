// The tetrahedralizer benchmark's wasm build (build-wasm/softbody_bench_tetra.js, the same program
// tetra_bench.mjs runs under node) run in headless Chromium instead: the browser's own V8 is where
// the page's import worker runs the tetrahedralizer, and it is a newer V8 than node 20's.
//   node tests/bench/tetra_chromium.mjs [ROUNDS] [CASE-PREFIX]
// Arguments and output (JSON lines on stdout) are the program's own.
import { fileURLToPath } from 'node:url';
import { launchBrowser, serveStatic } from '../browser/harness.mjs';

const root = fileURLToPath(new URL('../../build-wasm/', import.meta.url));
const args = process.argv.slice(2);
const server = await serveStatic(root);
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const base = `http://127.0.0.1:${server.address().port}/`;
  await page.route(`${base}bench.html`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>tetra</title>' }));
  await page.goto(`${base}bench.html`);
  const lines = await page.evaluate(
    ({ url, args }) =>
      new Promise((resolve, reject) => {
        const out = [];
        // The program returns from main: Emscripten then calls onExit (exit runtime) or nothing;
        // postRun fires either way once main has returned.
        window.Module = { arguments: args, print: (text) => out.push(text), printErr: () => {}, postRun: [() => resolve(out)] };
        const script = document.createElement('script');
        script.src = url;
        script.onerror = () => reject(new Error(`could not load ${url}`));
        document.documentElement.appendChild(script);
      }),
    { url: `${base}softbody_bench_tetra.js`, args },
  );
  if (errors.length) throw new Error(errors.join('\n'));
  process.stdout.write(lines.map((line) => `${line}\n`).join(''));
} finally {
  await browser.close();
  server.close();
}
