// The test runner's per-layer report (tests/run_layer.mjs): each layer is printed and counted once,
// including a runner that cannot be spawned (Node emits 'error' and then 'close' for it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runLayer, tap } from '../run_layer.mjs';

// A spawn failure's 'close' follows its 'error' within a few event-loop turns; 200 ms leaves it ample room
// to report a second time if the guard were missing (checked: without it the first test fails).
const drain = () => new Promise((r) => setTimeout(r, 200));

function capture() {
  const lines = [];
  return { lines, write: (s) => lines.push(s) };
}

test('a runner that fails to spawn is reported once and counted as one failure', async () => {
  const { lines, write } = capture();
  const layer = { name: 'missing runner', cmd: 'softbody-no-such-command', args: [], parse: tap };
  const result = await runLayer(layer, write);
  await drain();
  assert.deepEqual(result, { passed: 0, failed: 1 });
  assert.equal(lines.filter((s) => s.includes('=== missing runner ===')).length, 1);
  assert.equal(lines.filter((s) => s.startsWith('--- missing runner:')).length, 1);
  assert.match(lines.join(''), /ENOENT/);
});

test('a runner that prints a summary and exits 0 is counted from its summary', async () => {
  const { lines, write } = capture();
  const layer = { name: 'ok runner', cmd: process.execPath, args: ['-e', 'console.log("# pass 3\\n# fail 0")'], parse: tap };
  const result = await runLayer(layer, write);
  await drain();
  assert.deepEqual(result, { passed: 3, failed: 0 });
  assert.equal(lines.filter((s) => s.includes('=== ok runner ===')).length, 1);
});

test('a runner that crashes after a clean summary counts one failure', async () => {
  const { write } = capture();
  const layer = { name: 'crash', cmd: process.execPath, args: ['-e', 'console.log("# pass 2\\n# fail 0"); process.exit(3)'], parse: tap };
  assert.deepEqual(await runLayer(layer, write), { passed: 2, failed: 1 });
});
