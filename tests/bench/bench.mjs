// Benchmark: our XPBD solver (native build and wasm build under node) against Jolt Physics' soft
// body (npm jolt-physics, single-threaded wasm), on box lattices of ~1k, ~10k and ~50k tets resting
// on the ground, dt = 1/60 s, 10 substeps, zero edge and volume compliance.
//
//   npm run bench                      human-readable tables on stdout, progress on stderr
//   npm run -s bench -- --json         one JSON document on stdout (-s keeps npm's banner off it)
//   node tests/bench/bench.mjs [--json] [--rounds N] [--quick]   (after scripts/setup.sh bench)
//
// Method. All three builds run in one process tree, interleaved round-robin: for each round, for
// each mesh, for each build (the build order rotates every round), one batch of frames is timed,
// one wall-clock sample per frame. The figure per (mesh, build) is the median over all per-frame
// samples of all rounds; the spread of the per-batch medians is shown next to it. Our wasm build
// and Jolt run in this node process (performance.now() around world.step / JoltInterface.Step),
// each mesh in its own world, warmed up once so the body has landed; the native build runs as a
// child process per batch (build-native/softbody_bench, std::chrono::steady_clock per frame) that
// warms up the same number of frames before its batch.
// Projections per second = substeps * (edges + tets) / (seconds per frame).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { load } from '../bridge/load.mjs';
import { JoltBoxScene, loadJolt, vertexInverseMasses } from './jolt_box.mjs';

const DT = 1 / 60;
const SUBSTEPS = 10;
const WARMUP = 40; // frames: the box starts DROP above the ground and has landed and settled by then
const CELL = 0.05; // m, cubic cells
const DROP = 0.01; // m; from higher up the stiff box keeps ringing for seconds after the impact
const DENSITY = 1000; // kg/m^3
const BUILDS = ['native', 'wasm', 'jolt-wasm'];
const JOLT_FACTORY_BYTES = 2912;
// Frames per batch, chosen so a full run stays around a minute or two on 2 shared cores; the 50k
// box gets fewer frames per batch, not fewer rounds.
const MESHES = [
  { cells: [6, 6, 5], frames: 200 },
  { cells: [12, 12, 12], frames: 60 },
  { cells: [20, 20, 21], frames: 20 },
];
const NATIVE = fileURLToPath(new URL('../../build-native/softbody_bench', import.meta.url));

function parseArgs(argv) {
  const opts = { json: false, rounds: 15, frameScale: 1 };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--json') opts.json = true;
    else if (a === '--rounds') opts.rounds = Number(argv[++i]);
    else if (a === '--quick') {
      // smoke test: 2 rounds of a quarter of the frames, a few seconds
      opts.rounds = 2;
      opts.frameScale = 0.25;
    }
    else if (a === '--help' || a === '-h') {
      process.stderr.write('usage: node tests/bench/bench.mjs [--json] [--rounds N] [--quick]\n');
      process.exit(0);
    } else throw new Error(`unknown argument ${a} (try --help)`);
  }
  if (!Number.isInteger(opts.rounds) || opts.rounds < 1) throw new Error('--rounds needs a positive integer');
  return opts;
}

const log = (line) => process.stderr.write(`${line}\n`);

function median(values) {
  const s = Float64Array.from(values).sort();
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// Our wasm build: one world per mesh, params set explicitly even where they are the defaults.
function createOurs(sb, mesh) {
  const world = sb.createWorld();
  world.setSubsteps(SUBSTEPS);
  world.setGravity(0, -9.81, 0);
  world.setGround(true);
  const body = world.addBox({ cells: mesh.cells, size: mesh.size, center: mesh.center });
  body.setParams({ edgeCompliance: 0, volumeCompliance: 0, density: DENSITY });
  return { world, body };
}

function runNative(mesh, frames) {
  const args = ['--cells', ...mesh.cells, '--frames', frames, '--warmup', WARMUP, '--substeps', SUBSTEPS,
    '--dt', DT, '--cell-size', CELL, '--drop', DROP].map(String);
  const r = spawnSync(NATIVE, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${NATIVE} ${args.join(' ')} exited with ${r.status}:\n${r.stderr}`);
  const out = JSON.parse(r.stdout);
  for (const k of ['vertices', 'edges', 'tets']) {
    if (out[k] !== mesh[k]) throw new Error(`native ${mesh.name}: ${k} = ${out[k]}, wasm has ${mesh[k]}`);
  }
  if (!out.finite) throw new Error(`native ${mesh.name}: the body diverged`);
  return out;
}

function timeInProcess(step, frames, samples) {
  for (let f = 0; f < frames; ++f) {
    const t0 = performance.now();
    step(DT);
    samples.push(performance.now() - t0);
  }
}

function fmt(x, digits) {
  return x.toFixed(digits);
}

function sanityLine(mesh, state) {
  const part = (b) => `${b} lowest y ${fmt(state[b].minY, 4)} m, volume ${fmt(state[b].volumeRatio, 4)}`;
  return `sanity ${mesh.name}: ${BUILDS.map(part).join(' | ')}`;
}

// Both engines must be simulating the same thing: resting on y = 0 with the volume kept.
function checkState(mesh, build, s) {
  const problems = [];
  if (!(Math.abs(s.minY) < 0.01)) problems.push(`lowest vertex at y = ${s.minY} m, not resting on the ground`);
  if (!(Math.abs(s.volumeRatio - 1) < 0.02)) problems.push(`volume ratio ${s.volumeRatio}`);
  if (s.active === false) problems.push('Jolt put the body to sleep');
  for (const p of problems) log(`WARNING ${build} ${mesh.name}: ${p}`);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!existsSync(NATIVE)) throw new Error(`${NATIVE} is missing: run bash scripts/setup.sh bench first`);
  const started = Date.now();

  const sb = await load();
  const J = await loadJolt();
  const joltFreeBefore = J.JoltInterface.prototype.sGetFreeMemory();

  // Build every scene once. The Jolt body is made from our body's own arrays before any step.
  const meshes = [];
  for (const m of MESHES) {
    const size = m.cells.map((n) => n * CELL);
    const mesh = { ...m, name: `box ${m.cells.join('x')}`, size, center: [0, DROP + size[1] / 2, 0] };
    mesh.frames = Math.max(3, Math.round(m.frames * opts.frameScale));
    const ours = createOurs(sb, mesh);
    const b = ours.body;
    Object.assign(mesh, { vertices: b.vertexCount, edges: b.edgeCount, tets: b.tetCount });
    const positions = b.positions.slice();
    const tets = b.tets.slice();
    const jolt = new JoltBoxScene(J, {
      positions, tets, edges: b.edges.slice(), triangles: b.triangles.slice(),
      invMass: vertexInverseMasses(positions, tets, DENSITY),
    }, { substeps: SUBSTEPS });
    for (const k of ['vertices', 'edges', 'tets']) {
      if (jolt.counts[k] !== mesh[k]) throw new Error(`Jolt ${mesh.name}: ${k} = ${jolt.counts[k]}, ours ${mesh[k]}`);
    }
    for (let f = 0; f < WARMUP; ++f) ours.world.step(DT);
    for (let f = 0; f < WARMUP; ++f) jolt.step(DT);
    mesh.ours = ours;
    mesh.jolt = jolt;
    mesh.samples = Object.fromEntries(BUILDS.map((b) => [b, []]));
    mesh.batchMedians = Object.fromEntries(BUILDS.map((b) => [b, []]));
    mesh.state = {};
    meshes.push(mesh);
    log(`${mesh.name}: ${mesh.vertices} vertices, ${mesh.edges} edges, ${mesh.tets} tets, ${mesh.frames} frames per batch`);
  }

  const runBatch = (mesh, build) => {
    let samples;
    if (build === 'native') {
      const out = runNative(mesh, mesh.frames);
      samples = out.msPerFrame;
      mesh.state.native = { minY: out.minY, volumeRatio: out.volumeRatio };
    } else if (build === 'wasm') {
      samples = [];
      timeInProcess((dt) => mesh.ours.world.step(dt), mesh.frames, samples);
      const st = mesh.ours.body.stats();
      mesh.state.wasm = { minY: st.minY, volumeRatio: st.volumeRatio };
    } else {
      samples = [];
      timeInProcess((dt) => mesh.jolt.step(dt), mesh.frames, samples);
    }
    mesh.samples[build].push(...samples);
    mesh.batchMedians[build].push(median(samples));
  };

  for (let round = 0; round < opts.rounds; ++round) {
    const order = BUILDS.map((_, i) => BUILDS[(i + round) % BUILDS.length]);
    for (const mesh of meshes) for (const build of order) runBatch(mesh, build);
    if (round === 0) {
      for (const mesh of meshes) {
        mesh.state['jolt-wasm'] = mesh.jolt.state();
        log(sanityLine(mesh, mesh.state));
        for (const b of BUILDS) checkState(mesh, b, mesh.state[b]);
      }
    }
    log(`round ${round + 1}/${opts.rounds} done (${fmt((Date.now() - started) / 1000, 1)} s)`);
  }

  // Final state, then free everything.
  for (const mesh of meshes) {
    mesh.state['jolt-wasm'] = mesh.jolt.state();
    for (const b of BUILDS) checkState(mesh, b, mesh.state[b]);
    mesh.jolt.destroy();
    mesh.ours.world.destroy();
  }
  // Every Jolt object we made is destroyed, but the bindings' JoltInterface constructor installs a
  // new global Factory without freeing the previous one, so each interface alive at the same time
  // as another leaks one Factory (2912 bytes in jolt-physics 1.1.0) inside Jolt's heap.
  const leaked = joltFreeBefore - J.JoltInterface.prototype.sGetFreeMemory();
  const factoryLeak = (meshes.length - 1) * JOLT_FACTORY_BYTES;
  if (leaked > factoryLeak) log(`WARNING: ${leaked} bytes of Jolt memory not freed (${factoryLeak} expected from Jolt's Factory)`);

  const results = [];
  const ratios = [];
  for (const mesh of meshes) {
    const row = {};
    for (const build of BUILDS) {
      const ms = median(mesh.samples[build]);
      row[build] = ms;
      const bm = mesh.batchMedians[build];
      results.push({
        name: mesh.name,
        build,
        tets: mesh.tets,
        msPerFrame: ms,
        projPerSec: (SUBSTEPS * (mesh.edges + mesh.tets)) / (ms / 1000),
        edges: mesh.edges,
        vertices: mesh.vertices,
        frames: mesh.samples[build].length,
        batchMedianMin: Math.min(...bm),
        batchMedianMax: Math.max(...bm),
        minY: mesh.state[build].minY,
        volumeRatio: mesh.state[build].volumeRatio,
      });
    }
    ratios.push({
      name: mesh.name,
      tets: mesh.tets,
      wasmVsJolt: row['jolt-wasm'] / row.wasm, // > 1: our wasm is faster than Jolt's
      nativeVsWasm: row.wasm / row.native, // > 1: native is faster than our wasm
    });
  }
  const floorMeshes = ratios.filter((r) => r.tets >= 10000);
  const floor = { required: 'ours wasm at least as fast as Jolt wasm on the ~10k and ~50k boxes',
    met: floorMeshes.every((r) => r.wasmVsJolt >= 1), worstWasmVsJolt: Math.min(...floorMeshes.map((r) => r.wasmVsJolt)) };

  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    substeps: SUBSTEPS,
    dt: DT,
    compliance: 0,
    scene: `box lattice of ${CELL} m cubic cells (6 tets each), density ${DENSITY} kg/m^3, resting on the ground y = 0, gravity -9.81`,
    jolt: `jolt-physics ${joltVersion()} (wasm, single-threaded)`,
    rounds: opts.rounds,
    warmupFrames: WARMUP,
    statistic: 'msPerFrame is the median of all per-frame samples over all rounds; batchMedianMin/Max bound the per-batch medians',
    seconds: (Date.now() - started) / 1000,
  };

  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ ...meta, results, ratios, floor }, null, 2)}\n`);
  } else {
    process.stdout.write(humanReport(meta, meshes, results, ratios, floor));
  }
}

function joltVersion() {
  const pkg = new URL('../../node_modules/jolt-physics/package.json', import.meta.url);
  return JSON.parse(readFileSync(pkg, 'utf8')).version;
}

function humanReport(meta, meshes, results, ratios, floor) {
  const lines = [];
  lines.push(`softbody benchmark: dt ${fmt(meta.dt, 6)} s (1/60), ${meta.substeps} substeps, compliance 0, box resting on the ground`);
  lines.push(`${meta.date}, node ${meta.node}, ${meta.cpu} x${meta.cores}, Jolt = ${meta.jolt}`);
  lines.push(`${meta.rounds} rounds, interleaved round-robin; median of all per-frame samples (batch medians: min-max)`);
  const header = ['build', 'tets', 'median ms/frame', 'projections/s', 'vs Jolt', 'batch medians ms', 'frames'];
  for (const mesh of meshes) {
    const rows = results.filter((r) => r.name === mesh.name);
    const jolt = rows.find((r) => r.build === 'jolt-wasm').msPerFrame;
    const table = rows.map((r) => [
      r.build,
      String(r.tets),
      fmt(r.msPerFrame, 3),
      `${fmt(r.projPerSec / 1e6, 1)} M/s`,
      `${fmt(jolt / r.msPerFrame, 2)}x`,
      `${fmt(r.batchMedianMin, 3)}-${fmt(r.batchMedianMax, 3)}`,
      String(r.frames),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
    const line = (cells) => `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')}`;
    const ratio = ratios.find((r) => r.name === mesh.name);
    lines.push('');
    lines.push(`${mesh.name}: ${mesh.vertices} vertices, ${mesh.edges} edges, ${mesh.tets} tets`);
    lines.push(line(header));
    for (const row of table) lines.push(line(row));
    lines.push(`  ratios: ours wasm / Jolt wasm speed-up ${fmt(ratio.wasmVsJolt, 2)}x, native / wasm speed-up ${fmt(ratio.nativeVsWasm, 2)}x`);
  }
  lines.push('');
  const margins = ratios.filter((r) => r.tets >= 10000).map((r) => `${r.name} ${fmt(r.wasmVsJolt, 2)}x`).join(', ');
  lines.push(`floor (${floor.required}): ${floor.met ? 'MET' : 'NOT MET'} (${margins})`);
  lines.push(`total ${fmt(meta.seconds, 1)} s`);
  return `${lines.join('\n')}\n`;
}

main().catch((e) => {
  process.stderr.write(`bench: ${e.stack ?? e}\n`);
  process.exit(1);
});
