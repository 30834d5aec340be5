// Runs every test layer and ends with one line: "N passed, N failed".
// Layers: C++ doctest natively (ctest), natively under ASan + UBSan (ctest on build-asan), the fuzz
// corpus replayed, the doctest as wasm32 under node (ctest), the JS bridge (node --test), and the pages
// in headless Chromium (node --test). A layer that crashes counts as a failure.
// The machine CI uses has 2 cores and every layer but the threaded tests runs on one: the sanitizer
// layer (the longest) runs beside the native, fuzz, wasm and bridge layers; the pages run alone, last,
// so a browser's frame loop never competes with a test binary. Each layer's output is printed whole
// when it ends. No test asserts a time, so sharing the cores changes no result.
import { doctest, tap, runLayer } from './run_layer.mjs';

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

async function inOrder(...names) {
  const results = [];
  for (const name of names) results.push(await runLayer(layers[name]));
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
