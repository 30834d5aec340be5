// The demo's largest GPU heap (MAX_GPU_HEAP bodies, web/src/scenes/gpu_heap_scene.js) on the WebGPU
// backend: over 500,000 tets, every buffer within WebGPU's default binding limit (128 MiB), and the
// contact hash (gpu_body_contact.js, a counting sort) holding every surface triangle exactly once.
// One substep of one frame: SwiftShader runs this size at seconds a frame.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowserSuite } from './harness.mjs';
import { openGpuPage } from './gpu_page.mjs';

const suite = useBrowserSuite({ webgpu: true });
const DEFAULT_BINDING = 128 * 1024 * 1024; // B: WebGPU's default maxStorageBufferBindingSize

test('the largest gpu heap has >= 500k tets, fits the default buffer limits, and its hash lists every triangle once', async () => {
  const { page, context, problems } = await openGpuPage(suite.browser, suite);
  try {
    const r = await page.evaluate(async () => {
      const { MAX_GPU_HEAP } = await import('/src/scenes/gpu_heap_scene.js');
      const { addSceneColliders, scenePreset } = await import('/src/scenes/scene_presets.js');
      const { addDropBody } = await import('/src/scenes/scene_bodies.js');
      const w = await sb.createWorld({ backend: 'webgpu' });
      // Every buffer the world makes from here on, by size.
      const sizes = [];
      const create = w.device.createBuffer.bind(w.device);
      w.device.createBuffer = (d) => { sizes.push({ size: d.size, label: d.label ?? '' }); return create(d); };
      w.setSubsteps(1);
      const preset = scenePreset('heap', { heapCount: MAX_GPU_HEAP });
      addSceneColliders(w, preset);
      const bodies = preset.drops.map((drop) => addDropBody(w, drop, {}));
      w.step(1 / 60);
      await w.done();
      // The hash after the frame's last substep: the entries placed, and the entry array's contents.
      const c = w.contact;
      const read = async (buffer, bytes) => {
        const staging = w.device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
        const encoder = w.device.createCommandEncoder();
        encoder.copyBufferToBuffer(buffer, 0, staging, 0, bytes);
        w.device.queue.submit([encoder.finish()]);
        await staging.mapAsync(GPUMapMode.READ);
        const out = new Uint32Array(staging.getMappedRange().slice(0));
        staging.destroy();
        return out;
      };
      const placed = (await read(c.sums, 4))[0];
      const entries = (await read(c.cells, 4 * (c.table + c.triangleCount))).subarray(c.table); // the triangle indices
      const seen = new Uint8Array(c.triangleCount);
      let once = 0;
      for (const t of entries) if (t < c.triangleCount && !seen[t]++) once++;
      const first = await bodies[0].read();
      const last = await bodies[bodies.length - 1].read();
      const finite = [first, last].every((s) => s.positions.every(Number.isFinite));
      const largest = sizes.reduce((a, b) => (b.size > a.size ? b : a), { size: 0 });
      const out = { bodies: bodies.length, tets: bodies.reduce((n, b) => n + b.tetCount, 0), triangles: c.triangleCount, table: c.table, placed, once, largest, finite };
      w.destroy();
      return out;
    });
    console.log(`heap of ${r.bodies}: ${r.tets.toLocaleString('en')} tets, ${r.triangles.toLocaleString('en')} surface triangles in ${r.table.toLocaleString('en')} hash cells; ` +
      `${r.placed} entries placed, ${r.once} distinct; largest buffer ${(r.largest.size / 2 ** 20).toFixed(1)} MiB (${r.largest.label})`);
    assert.ok(r.tets >= 500_000, `${r.tets} tets`);
    assert.ok(r.largest.size <= DEFAULT_BINDING, `${r.largest.label}: ${r.largest.size} B`);
    // Counting sort: one entry per triangle, every triangle in it once (none dropped, none twice).
    assert.equal(r.placed, r.triangles);
    assert.equal(r.once, r.triangles);
    assert.ok(r.finite);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
