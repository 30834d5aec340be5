// scripts/setup.sh talks while it builds (no browser: the shell functions it sources from
// scripts/build_progress.sh, fed ninja's output as `cmake --build` prints it into a pipe).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const bash = (script, input = '') => execFileSync('bash', ['-c', `source scripts/build_progress.sh; ${script}`], { cwd: ROOT, input, encoding: 'utf8' });

test('each build step prints as a line with the step, its share and its file', () => {
  const ninja = [
    '[1/4] Building CXX object CMakeFiles/softbody_core.dir/core/solvers/xpbd.cpp.o',
    'some compiler warning text',
    '[2/4] Building CXX object CMakeFiles/softbody_capi.dir/emscripten/api_state.cpp.o',
    '[3/4] Linking CXX static library libsoftbody_capi.a',
    '[4/4] Linking CXX executable softbody.mjs',
  ].join('\n');
  assert.equal(bash('build_progress "the wasm module"', ninja), [
    'setup: the wasm module  25 % [1/4] xpbd.cpp',
    'setup: the wasm module  50 % [2/4] api_state.cpp',
    'setup: the wasm module  75 % [3/4] linking libsoftbody_capi.a',
    'setup: the wasm module 100 % [4/4] linking softbody.mjs',
    '',
  ].join('\n'));
  assert.equal(bash('build_progress x', 'ninja: no work to do.\n'), '', 'silent when there is nothing to build');
});

test('setup.sh announces a first build and shows its steps', () => {
  const setup = readFileSync(join(ROOT, 'scripts', 'setup.sh'), 'utf8');
  assert.match(setup, /first build of the physics .* this takes"\n.*several minutes/s);
  assert.match(setup, /\| build_progress "\$label"/, 'cmake --build goes through build_progress');
});

test('the threaded glue loses the blocking warning, once and for good', () => {
  const dir = mkdtempSync(join(tmpdir(), 'softbody-glue-'));
  try {
    const glue = join(dir, 'softbody-mt.mjs');
    const before = 'function _emscripten_check_blocking_allowed(){if(ENVIRONMENT_IS_WORKER)return;warnOnce("Blocking on the main thread is very dangerous, see https://emscripten.org/docs/porting/pthreads.html#blocking-on-the-main-browser-thread")}';
    writeFileSync(glue, before);
    bash(`quiet_blocking_warning ${JSON.stringify(glue)}; quiet_blocking_warning ${JSON.stringify(glue)}`);
    assert.equal(readFileSync(glue, 'utf8'), 'function _emscripten_check_blocking_allowed(){if(ENVIRONMENT_IS_WORKER)return;void 0}');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
