// Runs every test layer and ends with one line: "N passed, N failed".
// Layers: C++ doctest natively (ctest), natively under ASan + UBSan (ctest on build-asan), the fuzz
// corpus replayed, the doctest as wasm32 under node (ctest), the JS bridge (node --test), and the pages
// in headless Chromium (node --test). A layer that crashes counts as a failure.
// The machine CI uses has 2 cores and every layer but the threaded tests runs on one: the sanitizer
// layer (the longest) runs beside the native, fuzz, wasm and bridge layers; the pages run alone, last,
// so a browser's frame loop never competes with a test binary. Each layer's output is printed whole
// when it ends. No test asserts a time, so sharing the cores changes no result.
import { spawn } from 'node:child_process';

const layers = {
  native: { name: 'core + C API, native (doctest via ctest)', cmd: 'ctest', args: ['--test-dir', 'build-native', '-V'], parse: doctest },
  // The same doctest under AddressSanitizer + UBSan (clang, -fno-sanitize-recover: the first error fails).
  asan: { name: 'core + C API, native under ASan + UBSan (doctest via ctest)', cmd: 'ctest', args: ['--test-dir', 'build-asan', '-V'], parse: doctest },
  // Every committed fuzz input (seed corpus and reproducers) once through the libFuzzer harnesses.
  fuzz: { name: 'fuzz corpus replay, ASan + UBSan (tests/fuzz)', cmd: process.execPath, args: ['tests/fuzz/fuzz.mjs', '--replay'], parse: tap },
  wasm: { name: 'core + C API, wasm32 under node (doctest via ctest)', cmd: 'ctest', args: ['--test-dir', 'build-wasm', '-V'], parse: doctest },
  bridge: { name: 'JS bridge (node --test)', cmd: process.execPath, args: ['--test', '--test-reporter=tap', 'tests/bridge/'], parse: tap },
  pages: { name: 'pages in Chromium (node --test)', cmd: process.execPath, args: ['--test', '--test-concurrency=1', '--test-reporter=tap', 'tests/browser/'], parse: tap },
};

function doctest(out) {
  const m = /test cases:\s*(\d+)\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed/.exec(out);
  return m ? { passed: Number(m[2]), failed: Number(m[3]) } : null;
}

function tap(out) {
  const pass = /^# pass (\d+)/m.exec(out);
  const fail = /^# fail (\d+)/m.exec(out);
  return pass && fail ? { passed: Number(pass[1]), failed: Number(fail[1]) } : null;
}

function run(layer) {  // resolves with the layer's counts once it exits; output kept until then
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(layer.cmd, layer.args, { env: { ...process.env, NO_COLOR: '1' } });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    const done = (status, error) => {
      const out = Buffer.concat(chunks).toString('utf8').replace(/\x1b\[[0-9;]*m/g, '');
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`\n=== ${layer.name} ===`);
      process.stdout.write(out);
      const counts = layer.parse(out);
      if (!counts) {
        console.log(`--- ${layer.name}: no test summary found (exit ${status}, ${error ?? ''}): counted as 1 failure`);
        resolve({ passed: 0, failed: 1 });
        return;
      }
      // A runner that exits non-zero with nothing failed still failed (a crash after the summary).
      const crashed = status !== 0 && counts.failed === 0 ? 1 : 0;
      console.log(`--- ${layer.name}: ${counts.passed} passed, ${counts.failed + crashed} failed in ${seconds} s`);
      resolve({ passed: counts.passed, failed: counts.failed + crashed });
    };
    child.on('error', (e) => done(null, e));
    child.on('close', (status) => done(status));
  });
}

async function inOrder(...names) {
  const results = [];
  for (const name of names) results.push(await run(layers[name]));
  return results;
}

const results = (await Promise.all([
  inOrder('asan'),
  inOrder('native', 'fuzz', 'wasm', 'bridge'),
])).flat();
results.push(...await inOrder('pages'));
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`\n${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
