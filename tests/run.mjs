// Runs every test layer in order and ends with one line: "N passed, N failed".
// Layers: C++ doctest natively (ctest), natively under ASan + UBSan (ctest on build-asan), the fuzz
// corpus replayed, the doctest as wasm32 under node (ctest), the JS bridge (node --test), and the pages
// in headless Chromium (node --test). A layer that crashes counts as a failure.
import { spawnSync } from 'node:child_process';

const layers = [
  { name: 'core + C API, native (doctest via ctest)', cmd: 'ctest', args: ['--test-dir', 'build-native', '-V'], parse: doctest },
  // The same doctest under AddressSanitizer + UBSan (clang, -fno-sanitize-recover: the first error fails).
  { name: 'core + C API, native under ASan + UBSan (doctest via ctest)', cmd: 'ctest', args: ['--test-dir', 'build-asan', '-V'], parse: doctest },
  // Every committed fuzz input (seed corpus and reproducers) once through the libFuzzer harnesses.
  { name: 'fuzz corpus replay, ASan + UBSan (tests/fuzz)', cmd: process.execPath, args: ['tests/fuzz/fuzz.mjs', '--replay'], parse: tap },
  { name: 'core + C API, wasm32 under node (doctest via ctest)', cmd: 'ctest', args: ['--test-dir', 'build-wasm', '-V'], parse: doctest },
  { name: 'JS bridge (node --test)', cmd: process.execPath, args: ['--test', '--test-reporter=tap', 'tests/bridge/'], parse: tap },
  { name: 'pages in Chromium (node --test)', cmd: process.execPath, args: ['--test', '--test-concurrency=1', '--test-reporter=tap', 'tests/browser/'], parse: tap },
];

function doctest(out) {
  const m = /test cases:\s*(\d+)\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed/.exec(out);
  return m ? { passed: Number(m[2]), failed: Number(m[3]) } : null;
}

function tap(out) {
  const pass = /^# pass (\d+)/m.exec(out);
  const fail = /^# fail (\d+)/m.exec(out);
  return pass && fail ? { passed: Number(pass[1]), failed: Number(fail[1]) } : null;
}

let passed = 0;
let failed = 0;
for (const layer of layers) {
  console.log(`\n=== ${layer.name} ===`);
  const started = Date.now();
  const r = spawnSync(layer.cmd, layer.args, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 << 20 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.replace(/\x1b\[[0-9;]*m/g, '');
  process.stdout.write(out);
  const counts = layer.parse(out);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (!counts) {
    console.log(`--- ${layer.name}: no test summary found (exit ${r.status}, ${r.error ?? ''}): counted as 1 failure`);
    failed += 1;
    continue;
  }
  // A runner that exits non-zero with nothing failed still failed (a crash after the summary).
  const crashed = r.status !== 0 && counts.failed === 0 ? 1 : 0;
  passed += counts.passed;
  failed += counts.failed + crashed;
  console.log(`--- ${layer.name}: ${counts.passed} passed, ${counts.failed + crashed} failed in ${seconds} s`);
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
