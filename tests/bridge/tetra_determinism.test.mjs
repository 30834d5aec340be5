// The tetrahedralizer gives bit-identical output natively and in wasm: the same digest program
// (tests/core/tetra_digest.cpp) is built both ways; every line (Delaunay of random points, cube,
// sphere and bunny tets, positions and indices) must match.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import test from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const native = `${root}build-native/softbody_tetra_digest`;
const wasm = `${root}build-wasm/softbody_tetra_digest.js`;

test('native and wasm builds tetrahedralize to identical bytes', () => {
  assert.ok(existsSync(native) && existsSync(wasm), 'run npm test: it builds both digest programs');
  const a = execFileSync(native, { encoding: 'utf8' });
  const b = execFileSync(process.execPath, ['--no-experimental-fetch', wasm], { encoding: 'utf8' });
  const lines = a.trim().split('\n');
  assert.ok(lines.length >= 6, a);
  assert.ok(lines.every((l) => /digest [0-9a-f]{16}$/.test(l)), a);
  assert.equal(b, a);
});
