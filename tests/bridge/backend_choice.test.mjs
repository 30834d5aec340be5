// createWorld({ backend: 'auto', tets }) in node, where there is no WebGPU: the scene's size is
// weighed first (web/src/backend.js GPU_MIN_TETS, derived in docs/gpu.md), then the adapter.
import assert from 'node:assert/strict';
import test from 'node:test';
import { GPU_MIN_TETS, tooSmallForGpu } from '../../web/src/backend.js';
import { load } from './load.mjs';

const sb = await load();

test('auto keeps a scene below GPU_MIN_TETS on wasm and says so; above it, asks for an adapter', async () => {
  const small = await sb.createWorld({ backend: 'auto', tets: 1296 });
  assert.equal(small.backend, 'wasm');
  assert.equal(small.backendReason, 'auto: 1,296 tets, below the 30,000 where WebGPU gains');
  small.destroy();
  assert.equal(tooSmallForGpu(GPU_MIN_TETS), null, 'the threshold itself goes to the GPU');
  assert.notEqual(tooSmallForGpu(GPU_MIN_TETS - 1), null);
  // Big enough: the GPU is asked for, and node has none.
  const big = await sb.createWorld({ backend: 'auto', tets: 100000 });
  assert.equal(big.backend, 'wasm');
  assert.match(big.backendReason, /^auto: navigator\.gpu is missing/);
  big.destroy();
  // 'webgpu' is not weighed: asked for, it is tried (and refused here for the missing GPU, not the size).
  await assert.rejects(sb.createWorld({ backend: 'webgpu', tets: 10 }), /navigator\.gpu is missing/);
});

test('tets must be a whole number of tets', async () => {
  for (const tets of [-1, 1.5, '1000', NaN]) {
    await assert.rejects(async () => sb.createWorld({ backend: 'auto', tets }), TypeError, String(tets));
  }
});
