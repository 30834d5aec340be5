// Benchmark part 8: the WebGPU backend (web/src/gpu/) in headless Chromium on whatever adapter it
// has (here SwiftShader, the CPU: its times say nothing of a GPU's), against the wasm build in the
// same page. Box lattices of 0.05 m cells resting on the ground, dt = 1/60 s, 10 substeps, one pass,
// compliance 0 (part 1's scene). A frame is timed from step() to the GPU's "work done" (so it
// includes the submission and the wait, not a readback). Dispatches per substep are counted by the
// backend; bytes per substep follow from the kernels (BYTES below), and a cost model turns both into
// the frame time expected on real GPUs (docs/benchmarks.md "WebGPU backend").
//   npm run bench -- --only gpu        (or node tests/bench/gpu_bench.mjs [--json])
import { launchBrowser, startServer } from '../browser/harness.mjs';

const SUBSTEPS = 10;
const CELL = 0.05; // m
// Box cells per side: 12^3 x 6 = 10,368 tets, 26^3 x 6 = 105,456, 55^3 x 6 = 998,250.
export const SIZES = [
  { label: '10k', cells: 12, frames: 20 },
  { label: '100k', cells: 26, frames: 6 },
  { label: '1M', cells: 55, frames: 2 },
];
// Bytes each kernel moves per item (reads + writes; xpbd_wgsl.js), one pass, no multipliers.
export const BYTES = {
  predict: 16 + 4 + 16 + 16 + 16 + 16, // per vertex: read x, 1/m, v; write prev, v, x
  finish: 16 + 16 + 16 + 16, // per vertex: read x, prev, v; write v (x too on contact: not counted)
  edge: 8 + 4 + 2 * 16 + 2 * 16, // per edge and pass: ids, l0, two vertices read and written
  tet: 16 + 4 + 4 * 16 + 4 * 16, // per tet and pass: ids, 6 V0, four vertices read and written
};
// The cost model's devices: launch = one dispatch plus the barrier before the next in one compute
// pass (s); bandwidth = what scattered 16-byte gathers get of the memory bus (B/s, about half of
// peak). Assumptions to be checked on the hardware, not measurements.
export const DEVICES = [
  { name: 'desktop GPU (RTX 3060 class, 360 GB/s peak)', launch: 4e-6, bandwidth: 180e9 },
  { name: 'integrated GPU (Iris Xe / M1 class, 68 GB/s peak)', launch: 10e-6, bandwidth: 35e9 },
];

// Contact scenes at the 10k size: the box beside a sphere collider it rests on (the collider's
// particle and face passes every substep), and two such boxes stacked (contact between bodies).
export const CONTACT_SCENES = [
  { label: '10k on a sphere', cells: 12, frames: 6, scene: 'sphere' },
  { label: '2 x 10k stacked', cells: 12, frames: 4, scene: 'stack' },
];

// The heap (scene_presets.js 'heap', the demo's "gpu heap" scene): N small boxes and balls dropped
// into a pen of four box walls, contact between all of them, 10 substeps; timed from the 20th frame
// (the layers have landed), so the contacts are busy. Dispatches per frame are counted.
export const HEAP_SCENES = [
  { label: 'heap of 4', count: 4, frames: 3 },
  { label: 'heap of 16', count: 16, frames: 3 },
  { label: 'heap of 64', count: 64, frames: 2 },
  { label: 'heap of 256', count: 256, frames: 1 },
];
const HEAP_SETTLE_FRAMES = 20;

// What drawing a frame moved before zero-copy rendering: positions and velocities read back per
// vertex (vec4 each). Now read back READBACKS_PER_S times a second; the normals kernel (gpu_surface.js)
// reads per corner its id (4), the three corners' positions (48), and writes 16 B per vertex.
export const READBACK_BYTES = 32;
export const READBACKS_PER_S = 4;
export const NORMALS_BYTES = 4 + 3 * 4 + 3 * 16;

// Bytes of contact between bodies per substep (gpu_body_contact.js), by kernel: count and scatter
// read a triangle (4 ids, 3 positions, 3 body ids and origins) and add to its cell; allocate reads and
// writes a cell's count and start, scatter also writes the entry (20 B); detect reads per vertex its
// position and each searched cell's range, per listed triangle its index (4 B) and, for another
// body's, its box (16 B), per one whose box is within reach its ids and 3 positions, and writes a contact; per
// round, solve reads each surface vertex's contact record and, for a contact, its ids, 4 positions
// and previous positions and uses, and adds 12 fixed-point corrections; apply reads and writes a vertex.
export const CONTACT_BYTES = {
  triangle: 2 * (16 + 3 * 16 + 3 * 4 + 3 * 16 + 4) + 20, // count + scatter
  cell: 4 + 4 + 4,
  vertex: 16 + 32, // detect: the vertex, its contact
  searchedCell: 8,
  listed: 4, // every entry in a searched cell: its index
  otherListed: 16, // another body's: its box
  candidate: 16 + 3 * 16 + 3 * 4, // another body's triangle whose box is within reach
  round: { surface: 32, contact: 16 + 4 * 16 + 4 * 16 + 4 * 4 + 12 * 4, vertex: 12 + 16 + 16 },
};
export const CONTACT_ROUNDS = 8;
export function contactBytesPerSubstep(h) {
  const B = CONTACT_BYTES;
  return h.triangles * B.triangle + h.table * B.cell + h.surface * (B.vertex + h.cellsPerVertex * B.searchedCell + h.listedPerVertex * B.listed + h.otherListedPerVertex * B.otherListed + h.candidatesPerVertex * B.candidate) +
    CONTACT_ROUNDS * (h.surface * B.round.surface + h.contacts * B.round.contact + h.vertices * B.round.vertex);
}

export function bytesPerSubstep(r) {
  return r.vertices * (BYTES.predict + BYTES.finish) + r.edges * BYTES.edge + r.tets * BYTES.tet;
}
export function modelMs(r, device) {
  return 1e3 * SUBSTEPS * (r.dispatchesPerSubstep * device.launch + bytesPerSubstep(r) / device.bandwidth);
}

export function heapModelMs(r, device) {
  return 1e3 * (r.dispatchesPerFrame * device.launch + r.bytesPerFrame / device.bandwidth);
}

export async function runGpuPart({ log = () => {}, sizes = SIZES, contact = CONTACT_SCENES, heap = HEAP_SCENES } = {}) {
  const { server, url } = await startServer();
  const browser = await launchBrowser({ webgpu: true });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const base = url.replace('127.0.0.1', 'localhost'); // a secure context: WebGPU
    await page.route(`${base}gpu_bench.html`, (r) => r.fulfill({ contentType: 'text/html', body: '<!doctype html><link rel="icon" href="data:,"><title>gpu bench</title>' }));
    await page.goto(`${base}gpu_bench.html`);
    const rows = [];
    const contactRows = [];
    for (const size of [...sizes, ...contact]) {
      log(`gpu: ${size.label} tets...`);
      const row = await page.evaluate(
        async ({ size, SUBSTEPS, CELL }) => {
          const { sharedSoftbody } = await import('/src/wasm_module.js');
          const sb = await sharedSoftbody();
          const n = size.cells;
          const box = { cells: [n, n, n], size: [n * CELL, n * CELL, n * CELL], center: [0, (n * CELL) / 2 + 0.01, 0] };
          const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
          const out = {};
          for (const backend of ['webgpu', 'wasm']) {
            const w = await sb.createWorld({ backend });
            w.setSubsteps(SUBSTEPS);
            const side = n * CELL; // m
            if (size.scene === 'sphere') {
              box.center = [0, side + 0.2 + 0.01, 0];
              w.addCollider({ shape: 'sphere', radius: 0.4, center: [0, side / 2 - 0.2, 0] });
            }
            const body = w.addBox(box);
            if (size.scene === 'stack') w.addBox({ ...box, center: [0, 1.5 * side + 0.02, 0] });
            if (backend === 'webgpu') {
              const k = w.bodyCount; // the stack: both bodies' constraints
              Object.assign(out, { adapter: w.backendReason, vertices: k * body.vertexCount, edges: k * body.edgeCount, tets: k * body.tetCount, batches: body.ranges.length, scene: size.scene ?? null });
              w.step(1 / 60); // pipelines warm
              await w.done();
            } else w.step(1 / 60);
            const times = [];
            for (let f = 0; f < size.frames; ++f) {
              const t0 = performance.now();
              w.step(1 / 60);
              if (backend === 'webgpu') await w.done();
              times.push(performance.now() - t0);
            }
            out[backend] = median(times);
            if (backend === 'webgpu') out.dispatchesPerSubstep = w.counters.dispatches / SUBSTEPS;
            w.destroy();
          }
          return out;
        },
        { size, SUBSTEPS, CELL },
      );
      (size.scene ? contactRows : rows).push({ part: 'gpu', label: size.label, ...row, bytesPerSubstep: bytesPerSubstep(row), projectionsPerSecond: (SUBSTEPS * (row.edges + row.tets)) / (row.webgpu / 1e3) });
      log(`gpu: ${size.label}: webgpu ${row.webgpu.toFixed(1)} ms, wasm ${row.wasm.toFixed(1)} ms per frame`);
    }
    const heapRows = [];
    for (const scene of heap) {
      log(`gpu: ${scene.label}...`);
      const row = await page.evaluate(
        async ({ scene, SUBSTEPS, HEAP_SETTLE_FRAMES }) => {
          const { sharedSoftbody } = await import('/src/wasm_module.js');
          const { addSceneColliders, scenePreset } = await import('/src/scenes/scene_presets.js');
          const { addDropBody } = await import('/src/scenes/scene_bodies.js');
          const sb = await sharedSoftbody();
          const preset = scenePreset('heap', { heapCount: scene.count });
          const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
          const out = { bodies: scene.count };
          for (const backend of ['webgpu', 'wasm']) {
            const w = await sb.createWorld({ backend });
            w.setSubsteps(SUBSTEPS);
            addSceneColliders(w, preset);
            const bodies = preset.drops.map((drop) => addDropBody(w, drop, {}));
            out.tets = bodies.reduce((n, b) => n + b.tetCount, 0);
            for (let f = 0; f < HEAP_SETTLE_FRAMES; ++f) w.step(1 / 60);
            if (backend === 'webgpu') await w.done();
            const times = [];
            for (let f = 0; f < scene.frames; ++f) {
              const t0 = performance.now();
              w.step(1 / 60);
              if (backend === 'webgpu') await w.done();
              times.push(performance.now() - t0);
            }
            out[backend] = median(times);
            if (backend === 'webgpu') {
              out.dispatchesPerFrame = w.counters.dispatches;
              // The model's counts: constraints, and the hash's search on the heap as it is now
              // (searched cells and candidates per surface vertex, counted on the CPU from a read back
              // with the GPU's cell size and the largest triangle half box, as detect searches).
              Object.assign(out, { vertices: bodies.reduce((n, b) => n + b.vertexCount, 0), edges: bodies.reduce((n, b) => n + b.edgeCount, 0) });
              const c = w.contact;
              // Contacts of the frame's last substep, from the contact records.
              const staging = w.device.createBuffer({ size: 32 * c.surfaceCount, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
              const encoder = w.device.createCommandEncoder();
              encoder.copyBufferToBuffer(c.contacts, 0, staging, 0, 32 * c.surfaceCount);
              w.device.queue.submit([encoder.finish()]);
              await staging.mapAsync(GPUMapMode.READ);
              const records = new Uint32Array(staging.getMappedRange());
              let contacts = 0;
              for (let k = 7; k < records.length; k += 8) if (records[k] !== 0xffffffff) contacts++;
              staging.destroy();
              out.contacts = contacts;
              const pos = [];
              for (const b of bodies) pos.push((await b.read()).positions);
              const tris = [];
              let half = 0;
              bodies.forEach((b, k) => {
                const t = b.triangles, p = pos[k];
                for (let i = 0; i < t.length; i += 3) {
                  const lo = [0, 1, 2].map((a) => Math.min(p[3 * t[i] + a], p[3 * t[i + 1] + a], p[3 * t[i + 2] + a]));
                  const hi = [0, 1, 2].map((a) => Math.max(p[3 * t[i] + a], p[3 * t[i + 1] + a], p[3 * t[i + 2] + a]));
                  half = Math.max(half, ...[0, 1, 2].map((a) => (hi[a] - lo[a]) / 2));
                  const centre = [0, 1, 2].map((a) => (lo[a] + hi[a]) / 2);
                  tris.push({ cell: centre.map((q) => Math.floor(q / c.cell)), body: k, centre, half: Math.max(...[0, 1, 2].map((a) => (hi[a] - lo[a]) / 2)) });
                }
              });
              const byCell = new Map();
              for (const t of tris) { const key = t.cell.join(); if (!byCell.has(key)) byCell.set(key, []); byCell.get(key).push(t); }
              const span = half + 0.025; // m: + the reach (gap + search radius)
              let cells = 0, candidates = 0, listed = 0, others = 0, surface = 0;
              bodies.forEach((b, k) => {
                const seen = new Set(b.triangles);
                for (const v of seen) {
                  const x = [0, 1, 2].map((a) => pos[k][3 * v + a]);
                  const lo = x.map((q) => Math.floor((q - span) / c.cell)), hi = x.map((q) => Math.floor((q + span) / c.cell));
                  surface++;
                  for (let i = lo[0]; i <= hi[0]; i++) for (let j = lo[1]; j <= hi[1]; j++) for (let l = lo[2]; l <= hi[2]; l++) {
                    cells++;
                    for (const t of byCell.get(`${i},${j},${l}`) ?? []) {
                      listed++;
                      if (t.body !== k) others++;
                      if (t.body !== k && Math.max(...[0, 1, 2].map((a) => Math.abs(x[a] - t.centre[a]))) <= t.half + 0.025) candidates++;
                    }
                  }
                }
              });
              Object.assign(out, { triangles: c.triangleCount, table: c.table, surface, cellsPerVertex: cells / surface, candidatesPerVertex: candidates / surface, listedPerVertex: listed / surface, otherListedPerVertex: others / surface, largestCell: Math.max(...[...byCell.values()].map((a) => a.length)) });
            }
            w.destroy();
          }
          return out;
        },
        { scene, SUBSTEPS, HEAP_SETTLE_FRAMES },
      );
      const bytesPerFrame = SUBSTEPS * (bytesPerSubstep(row) + contactBytesPerSubstep(row));
      heapRows.push({ part: 'gpu', label: scene.label, ...row, bytesPerFrame });
      log(`gpu: ${scene.label}: ${row.dispatchesPerFrame} dispatches per frame, ${(bytesPerFrame / 1e6).toFixed(1)} MB per frame, webgpu ${row.webgpu.toFixed(1)} ms, wasm ${row.wasm.toFixed(1)} ms per frame`);
    }
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    return { rows, contactRows, heapRows, adapter: (rows[0] ?? contactRows[0] ?? heapRows[0])?.adapter ?? '' };
  } finally {
    await browser.close();
    await server.close();
  }
}

export function gpuReport(part) {
  const lines = [`Part 8: WebGPU backend, ${part.adapter}; box on the ground, ${SUBSTEPS} substeps, one pass; ms per frame (median)`];
  lines.push('  tets        vertices  batches  dispatches/substep  MB/substep  webgpu ms  wasm ms  webgpu projections/s');
  for (const r of part.rows)
    lines.push(`  ${r.tets.toLocaleString('en-US').padEnd(10)} ${r.vertices.toLocaleString('en-US').padStart(9)} ${String(r.batches).padStart(8)} ${String(r.dispatchesPerSubstep).padStart(19)} ${(r.bytesPerSubstep / 1e6).toFixed(1).padStart(11)} ${r.webgpu.toFixed(1).padStart(10)} ${r.wasm.toFixed(1).padStart(8)} ${(r.projectionsPerSecond / 1e6).toFixed(1).padStart(12)} M`);
  if (part.contactRows?.length) {
    lines.push('  with contact (the contact kernels\' bytes are not in the model: launches only):');
    for (const r of part.contactRows)
      lines.push(`  ${r.label.padEnd(18)} ${String(r.dispatchesPerSubstep).padStart(6)} dispatches/substep  webgpu ${r.webgpu.toFixed(1)} ms  wasm ${r.wasm.toFixed(1)} ms; launches ${DEVICES.map((d) => `${(1e3 * SUBSTEPS * r.dispatchesPerSubstep * d.launch).toFixed(1)} ms`).join(' / ')} (desktop / integrated)`);
  }
  if (part.heapRows?.length) {
    lines.push(`  the heap (N boxes and balls in a pen of 4 box walls, contact among all; after ${HEAP_SETTLE_FRAMES} frames): dispatches per frame counted, MB per frame from the kernels (the hash's candidates counted), model = dispatches x launch + bytes / bandwidth:`);
    for (const r of part.heapRows)
      lines.push(`  ${r.label.padEnd(12)} ${r.tets.toLocaleString('en-US').padStart(7)} tets ${String(r.dispatchesPerFrame).padStart(6)} dispatches/frame ${(r.bytesPerFrame / 1e6).toFixed(1).padStart(6)} MB/frame (${r.listedPerVertex.toFixed(1)} listed in ${r.cellsPerVertex.toFixed(1)} cells, ${r.otherListedPerVertex.toFixed(1)} of other bodies, ${r.candidatesPerVertex.toFixed(1)} within reach of their box, per surface vertex; at most ${r.largestCell} triangles a cell; ${r.contacts} contacts)  webgpu ${r.webgpu.toFixed(1)} ms  wasm ${r.wasm.toFixed(1)} ms; model ${DEVICES.map((d) => `${heapModelMs(r, d).toFixed(1)} ms`).join(' / ')} (desktop / integrated)`);
  }
  // A <soft-body> on WebGPU draws from the solver's buffers (embed/gpu_stage.js): positions and
  // velocities (16 B each per vertex) are read back 4 times a second for its readout, not per frame.
  lines.push(`  drawn in a <soft-body>: read back per frame ${part.rows.map((r) => `${r.label} 0 MB (was ${((READBACK_BYTES * r.vertices) / 1e6).toFixed(2)})`).join(', ')}; ${READBACKS_PER_S} read backs a second for the readout; the normals pass reads x and the surface's corners (~${NORMALS_BYTES} B per surface corner)`);
  lines.push('  cost model, ms per frame = substeps x (dispatches x launch + bytes / bandwidth):');
  for (const d of DEVICES) lines.push(`    ${d.name}, ${d.launch * 1e6} us per dispatch, ${d.bandwidth / 1e9} GB/s: ${part.rows.map((r) => `${r.label} ${modelMs(r, d).toFixed(2)} ms`).join(', ')}`);
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const part = await runGpuPart({ log: (l) => process.stderr.write(`${l}\n`) });
  process.stdout.write(process.argv.includes('--json') ? `${JSON.stringify(part, null, 2)}\n` : `${gpuReport(part).join('\n')}\n`);
}
