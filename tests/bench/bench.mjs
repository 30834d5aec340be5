// Benchmark, in eight parts (the third, the tetrahedralizer, is in tetra_bench.mjs; the fourth, what
// an article with <soft-body> figures costs its reader, in page_bench.mjs; the fifth, contact between
// bodies, in contact_bench.mjs; the sixth, the page's scenes and their contact phases, in
// scene_bench.mjs; the seventh, the built files' sizes, written into docs/benchmarks.md, in
// size_bench.mjs; the eighth, the WebGPU backend against wasm in Chromium, in gpu_bench.mjs; the
// ninth, issue 28's convergence table and its 10k/50k box rows, written into docs/benchmarks.md, in convergence_bench.mjs; the
// tenth, strain smoothing's cost per tet, written into docs/benchmarks.md, in smoothing_bench.mjs; the
// eleventh, issue 29's cloth sheets with self-collision, and the same sheet against Jolt's cloth, written
// into docs/benchmarks.md, in cloth_bench.mjs and cloth_jolt_bench.mjs).
//
// 1. Our XPBD solver (native build and wasm build under node) against Jolt Physics' soft body (npm
//    jolt-physics: its single-threaded `wasm` build and its SIMD `wasm-multithread` build with 0
//    worker threads), on box lattices of ~9.5k, ~50k and ~151k tets with the tets in shuffled order
//    (as a tetrahedralizer's mesh comes; every engine gets the same shuffled input), resting on the
//    ground, dt = 1/60 s, 10 substeps, zero edge and volume compliance. Threaded rows: native on 2
//    threads and the multi-threaded wasm module (build-wasm/softbody-mt.*, when built) on 1 and 2,
//    each checked to end with the position bits of its one-thread run.
// 2. What each solver costs: the ~10k-tet box (12x12x12 cells, 10,368 tets) under each of the ten
//    sb_solver values (XPBD, PBD, VBD and the seven force integrators), plus the Neo-Hookean material
//    under VBD and implicit Euler, native and wasm, dt = 1/60 s, 10 substeps, one pass or sweep per
//    substep, soft enough that every integrator but explicit Euler runs it stably (below).
//
//   npm run bench                      human-readable tables on stdout, progress on stderr
//   npm run -s bench -- --json         one JSON document on stdout (-s keeps npm's banner off it)
//   node tests/bench/bench.mjs [--json] [--rounds N] [--solver-rounds N] [--quick] [--only jolt|solvers|tetra|page|contact|scenes|sizes|gpu|convergence|smoothing|cloth]
//                                      (after scripts/setup.sh bench)
//
// Method. The builds run in one process tree, interleaved round-robin: for each round, for each
// mesh (part 1) or solver (part 2), for each build (the build order rotates every round), one batch
// of frames is timed, one wall-clock sample per frame. The figure per row is the median over all
// per-frame samples of all rounds; the spread of the per-batch medians is shown next to it. Our wasm
// build and Jolt run in this node process (performance.now() around world.step / JoltInterface.Step),
// each mesh / solver in its own world, warmed up once so the body has landed. The native build
// (build-native/softbody_bench, std::chrono::steady_clock per frame) runs as one long-lived child
// per mesh (part 1) or solver (part 2) (softbody_bench --serve) that warms up once and then times
// one batch per request, like the wasm worlds (a fresh process per batch would spend seconds per
// batch on the 151k box's set-up and warm-up, implicit Euler's warm-up alone seconds too).
// Part 1: projections per second = substeps * (edges + tets) / (seconds per frame).
//
// Part 2 scene: the same 12x12x12 lattice of 0.05 m cells as part 1, edge compliance 1e-3 m/N
// (k = 1000 N/m per spring), volume compliance 2e-8 m^5/N, spring damping 2 N s/m (the value of the
// core's drop test), density 1000. Why these, from trying them (300-600 frames per solver):
// - k = 1000 N/m: semi-implicit Euler, Verlet and RK4 run the box stably at h = 1/600 s even
//   undamped; it still sags visibly (top about 0.57 m of 0.6 m, volume ratio about 0.98).
// - Explicit midpoint and Heun (RK2) gain energy on undamped oscillations: without spring damping
//   they explode within half a second; 1-2 N s/m keeps them finite.
// - A softer volume term (1e-6) gives the box at least two resting shapes (volume ratio ~0.80 and
//   ~0.96) and which one a solver lands in depends on the solver and the damping (Verlet collapsed
//   to half its volume at 1 N s/m); at 2e-8 every solver rests at the same shape.
// With these values every solver but explicit Euler stays finite and rests on the ground at that
// shape (PBD ignores compliance and stays at 0.998). Explicit Euler explodes within the first
// frames whatever the spring damping (0-5 N s/m tried): its row reports the frame it exploded at
// and no time, since a frozen diverged body costs nothing.
// CG iterations (implicit Euler) are read after each frame, so they are those of its last substep.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ErrorCode, Material, Solver } from '../../web/src/softbody.js';
import { load } from '../bridge/load.mjs';
import { JoltBoxScene, loadJolt, vertexInverseMasses } from './jolt_box.mjs';
import { fnv1a, shuffleTets } from './tet_order.mjs';
import { contactReport, runContactPart } from './contact_bench.mjs';
import { runScenesPart, scenesReport } from './scene_bench.mjs';
import { pageReport, pageResults, runPagePart } from './page_bench.mjs';
import { runTetraPart, tetraReport } from './tetra_bench.mjs';
import { runSizesPart, sizesReport, writeSizesTable } from './size_bench.mjs';
import { gpuReport, runGpuPart } from './gpu_bench.mjs';
import { convergenceReport, runConvergencePart, writeConvergenceTable } from './convergence_bench.mjs';
import { runSmoothingPart, smoothingReport, writeSmoothingTable } from './smoothing_bench.mjs';
import { clothReport, runClothPart, SHEETS as CLOTH_SHEETS, writeClothTable } from './cloth_bench.mjs';
import { clothJoltReport, runClothJoltPart, SHEETS as CLOTH_JOLT_SHEETS, writeClothJoltTable } from './cloth_jolt_bench.mjs';

const DT = 1 / 60;
const SUBSTEPS = 10;
const WARMUP = 40; // frames: the box starts DROP above the ground and has landed and settled by then
const CELL = 0.05; // m, cubic cells
const DROP = 0.01; // m; from higher up the stiff box keeps ringing for seconds after the impact
const DENSITY = 1000; // kg/m^3
// Part 1's runs: a build on a number of threads. The threaded rows (native on 2 threads, the
// multi-threaded wasm build softbody-mt on 1 and 2) use sb_world_set_threads; wasm-mt runs only when
// build-wasm/softbody-mt.wasm exists (cmake --build build-wasm --target softbody_wasm_mt).
const RUNS = [
  { key: 'native', build: 'native', threads: 1 },
  { key: 'native 2T', build: 'native', threads: 2 },
  { key: 'wasm', build: 'wasm', threads: 1 },
  { key: 'wasm-mt 1T', build: 'wasm-mt', threads: 1 },
  { key: 'wasm-mt 2T', build: 'wasm-mt', threads: 2 },
  { key: 'jolt-wasm', build: 'jolt-wasm', threads: 1 },
  { key: 'jolt-simd', build: 'jolt-simd', threads: 1 },
];
const MT_WASM = new URL('../../build-wasm/softbody-mt.wasm', import.meta.url);
let BUILDS = RUNS.map((r) => r.key); // the run keys of this benchmark (without wasm-mt if not built)
const JOLT_FLAVOURS = { 'jolt-wasm': 'wasm', 'jolt-simd': 'simd' }; // build -> loadJolt flavour
const SHUFFLE_SEED = 1; // tets in shuffled order (shuffleTets), the same for every build
const JOLT_FACTORY_BYTES = 2912;
// Frames per batch, chosen so a full run stays around a minute or two on 2 shared cores; the big
// boxes get fewer frames per batch, not fewer rounds. The sizes of issue 14: 9,504, 50,400 and
// 151,380 tets.
const MESHES = [
  { cells: [11, 12, 12], frames: 60 },
  { cells: [20, 20, 21], frames: 16 },
  { cells: [29, 29, 30], frames: 6 },
];
const NATIVE = fileURLToPath(new URL('../../build-native/softbody_bench', import.meta.url));

// Part 2: one body per solver, same lattice as part 1's ~10k box (see the header for the values).
const SOLVER_SCENE = {
  cells: [12, 12, 12],
  edgeCompliance: 1e-3, // m/N
  volumeCompliance: 2e-8, // m^5/N
  springDamping: 2, // N s/m
  frames: 20, // per batch; implicit Euler costs ~12x XPBD, so its batches dominate the part's time
  rounds: 15, // the whole part takes about a minute on 2 shared cores
};
const SOLVER_BUILDS = ['native', 'wasm'];
// Work per substep, as the code does it (core/solver/integrators.cpp): f = one force evaluation (springs,
// volume terms, damping, gravity), J p = one product with the force Jacobian.
const SOLVERS = [
  { key: 'xpbd', label: 'XPBD', work: '1 sweep of edges + tets' },
  { key: 'pbd', label: 'PBD', work: '1 sweep of edges + tets' },
  { key: 'explicitEuler', label: 'explicit Euler', work: '1 f' },
  { key: 'semiImplicitEuler', label: 'semi-implicit Euler', work: '1 f' },
  { key: 'verlet', label: 'Verlet', work: '1 f' },
  { key: 'midpoint', label: 'midpoint (RK2)', work: '2 f' },
  { key: 'heun', label: 'Heun', work: '2 f' },
  { key: 'rk4', label: 'RK4', work: '4 f' },
  { key: 'implicitEuler', label: 'implicit Euler', work: '1 f + (CG + 1) J p + diag' },
  { key: 'vbd', label: 'VBD', work: '1 sweep: each vertex gathers its tets and edges' },
  // The Neo-Hookean material at about the simple model's stiffness (k = 1000 N/m on 5 cm edges: E ~ k/l).
  { key: 'xpbd', row: 'xpbdNeoHookean', label: 'XPBD, Neo-Hookean 20 kPa', material: { youngsModulus: 2e4, poissonRatio: 0.45 }, work: '1 pass over tets: a Newton solve of each tet\'s F (9 unknowns)' },
  { key: 'vbd', row: 'vbdNeoHookean', label: 'VBD, Neo-Hookean 20 kPa', material: { youngsModulus: 2e4, poissonRatio: 0.45 }, work: '1 sweep over tets from their vertices' },
  { key: 'implicitEuler', row: 'implicitEulerNeoHookean', label: 'implicit Euler, Neo-Hookean 20 kPa', material: { youngsModulus: 2e4, poissonRatio: 0.45 }, work: '1 f + (CG + 1) J p + diag' },
].map((s) => ({ ...s, id: Solver[s.key], row: s.row ?? s.key }));

function parseArgs(argv) {
  const opts = { json: false, rounds: 15, solverRounds: SOLVER_SCENE.rounds, frameScale: 1, parts: ['jolt', 'solvers', 'tetra', 'page', 'contact', 'scenes', 'sizes', 'gpu', 'convergence', 'smoothing', 'cloth'], tetraRounds: 7, pageRounds: 5 };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--json') opts.json = true;
    else if (a === '--rounds') opts.rounds = Number(argv[++i]);
    else if (a === '--solver-rounds') opts.solverRounds = Number(argv[++i]);
    else if (a === '--only') {
      const part = argv[++i];
      if (!['jolt', 'solvers', 'tetra', 'page', 'contact', 'scenes', 'sizes', 'gpu', 'convergence', 'smoothing', 'cloth'].includes(part)) throw new Error('--only takes jolt, solvers, tetra, page, contact, scenes, sizes, gpu, convergence, smoothing or cloth');
      opts.parts = [part];
    } else if (a === '--quick') {
      // smoke test: 2 rounds of a quarter of the frames, a few seconds
      opts.rounds = 2;
      opts.solverRounds = 2;
      opts.tetraRounds = 2;
      opts.pageRounds = 1;
      opts.frameScale = 0.25;
    } else if (a === '--help' || a === '-h') {
      process.stderr.write('usage: node tests/bench/bench.mjs [--json] [--rounds N] [--solver-rounds N] [--quick] [--only jolt|solvers|tetra|page|contact|scenes|sizes|gpu|convergence|smoothing|cloth]\n');
      process.exit(0);
    } else throw new Error(`unknown argument ${a} (try --help)`);
  }
  for (const k of ['rounds', 'solverRounds']) {
    if (!Number.isInteger(opts[k]) || opts[k] < 1) throw new Error(`--${k === 'rounds' ? 'rounds' : 'solver-rounds'} needs a positive integer`);
  }
  return opts;
}

const log = (line) => process.stderr.write(`${line}\n`);

function median(values) {
  const s = Float64Array.from(values).sort();
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}


// Our wasm build: one world per mesh, params set explicitly even where they are the defaults. The
// body is the box's vertices with its tets in shuffled order (as softbody_bench --shuffle makes it).
function createOurs(sb, mesh) {
  const world = sb.createWorld();
  world.setSubsteps(SUBSTEPS);
  world.setGravity(0, -9.81, 0);
  world.setGround(true);
  const box = world.addBox({ cells: mesh.cells, size: mesh.size, center: mesh.center });
  const positions = box.positions.slice();
  const tets = shuffleTets(box.tets, SHUFFLE_SEED);
  box.destroy();
  const body = world.addTets(positions, tets);
  body.setParams({ edgeCompliance: 0, volumeCompliance: 0, density: DENSITY });
  return { world, body, positions, tets };
}

function nativeJoltArgs(mesh, threads = 1) {
  return ['--cells', ...mesh.cells, '--warmup', WARMUP, '--substeps', SUBSTEPS, '--dt', DT, '--cell-size', CELL,
    '--drop', DROP, '--shuffle', SHUFFLE_SEED, '--threads', threads].map(String);
}

function checkCounts(mesh, out, what) {
  for (const k of ['vertices', 'edges', 'tets']) {
    if (out[k] !== mesh[k]) throw new Error(`${what} ${mesh.name}: ${k} = ${out[k]}, wasm has ${mesh[k]}`);
  }
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

function boxGeometry(cells) {
  const size = cells.map((n) => n * CELL);
  return { name: `box ${cells.join('x')}`, size, center: [0, DROP + size[1] / 2, 0] };
}

// ---- part 1: ours (native, wasm) vs Jolt --------------------------------------------------------

async function runJoltPart(sb, opts, started) {
  let sbMt = null;
  if (existsSync(MT_WASM)) {
    const { softbodyMtOptions } = await import('./softbody_mt_node.mjs');
    const { loadSoftbody } = await import('../../web/src/softbody.js');
    sbMt = await loadSoftbody(await softbodyMtOptions());
  } else {
    BUILDS = BUILDS.filter((k) => !k.startsWith('wasm-mt'));
    log('no build-wasm/softbody-mt.wasm: the wasm-mt rows are left out');
  }
  const runOf = Object.fromEntries(RUNS.map((r) => [r.key, r]));
  const J = {};
  const joltFreeBefore = {};
  for (const [build, flavour] of Object.entries(JOLT_FLAVOURS)) {
    J[build] = await loadJolt(flavour);
    joltFreeBefore[build] = J[build].JoltInterface.prototype.sGetFreeMemory();
  }

  // Build every scene once. The Jolt bodies are made from our body's own input arrays before any
  // step; the native servers warm up in parallel while this process warms up the others.
  const meshes = [];
  for (const m of MESHES) {
    const mesh = { ...m, ...boxGeometry(m.cells) };
    mesh.frames = Math.max(2, Math.round(m.frames * opts.frameScale));
    mesh.servers = Object.fromEntries(BUILDS.filter((k) => runOf[k].build === 'native')
      .map((k) => [k, new NativeServer(nativeJoltArgs(mesh, runOf[k].threads))]));
    const ours = createOurs(sb, mesh);
    const b = ours.body;
    Object.assign(mesh, { vertices: b.vertexCount, edges: b.edgeCount, tets: b.tetCount });
    const { positions, tets } = ours;
    const joltMesh = { positions, tets, edges: b.edges.slice(), triangles: b.triangles.slice(),
      invMass: vertexInverseMasses(positions, tets, DENSITY) };
    mesh.jolt = {};
    for (const build of Object.keys(JOLT_FLAVOURS)) {
      const jolt = new JoltBoxScene(J[build], joltMesh, { substeps: SUBSTEPS, workerThreads: build === 'jolt-simd' ? 0 : null });
      for (const k of ['vertices', 'edges', 'tets']) {
        if (jolt.counts[k] !== mesh[k]) throw new Error(`Jolt ${mesh.name}: ${k} = ${jolt.counts[k]}, ours ${mesh[k]}`);
      }
      for (let f = 0; f < WARMUP; ++f) jolt.step(DT);
      mesh.jolt[build] = jolt;
    }
    for (let f = 0; f < WARMUP; ++f) ours.world.step(DT);
    mesh.ours = ours;
    mesh.worlds = { wasm: ours };
    for (const k of BUILDS.filter((key) => runOf[key].build === 'wasm-mt')) {
      const w = createOurs(sbMt, mesh);
      w.world.setThreads(runOf[k].threads);
      for (let f = 0; f < WARMUP; ++f) w.world.step(DT);
      mesh.worlds[k] = w;
    }
    mesh.samples = Object.fromEntries(BUILDS.map((b) => [b, []]));
    mesh.batchMedians = Object.fromEntries(BUILDS.map((b) => [b, []]));
    mesh.state = {};
    meshes.push(mesh);
    log(`${mesh.name}: ${mesh.vertices} vertices, ${mesh.edges} edges, ${mesh.tets} tets (shuffled), ${mesh.frames} frames per batch (${fmt((Date.now() - started) / 1000, 1)} s)`);
  }
  for (const mesh of meshes) {
    for (const server of Object.values(mesh.servers)) {
      const ready = await server.next();
      checkCounts(mesh, ready, 'native');
      // Same input to the solver: the same tets in the same solve order.
      const hash = fnv1a(mesh.ours.body.tets);
      if (ready.tetsHash !== hash) throw new Error(`native ${mesh.name}: tets in another order than wasm's (hash ${ready.tetsHash}, wasm ${hash})`);
    }
  }

  const runBatch = async (mesh, build) => {
    let samples;
    if (runOf[build].build === 'native') {
      const out = await mesh.servers[build].run(mesh.frames);
      if (!out.finite) throw new Error(`native ${mesh.name}: the body diverged`);
      samples = out.msPerFrame;
      mesh.state[build] = { minY: out.minY, volumeRatio: out.volumeRatio, positionsHash: out.positionsHash };
    } else if (mesh.worlds[build]) {
      const ours = mesh.worlds[build];
      samples = [];
      timeInProcess((dt) => ours.world.step(dt), mesh.frames, samples);
      const st = ours.body.stats();
      mesh.state[build] = { minY: st.minY, volumeRatio: st.volumeRatio, positionsHash: fnv1a(new Uint32Array(ours.body.positions.slice().buffer)) };
    } else {
      samples = [];
      timeInProcess((dt) => mesh.jolt[build].step(dt), mesh.frames, samples);
    }
    mesh.samples[build].push(...samples);
    mesh.batchMedians[build].push(median(samples));
  };

  for (let round = 0; round < opts.rounds; ++round) {
    const order = BUILDS.map((_, i) => BUILDS[(i + round) % BUILDS.length]);
    for (const mesh of meshes) for (const build of order) await runBatch(mesh, build);
    if (round === 0) {
      for (const mesh of meshes) {
        for (const build of Object.keys(JOLT_FLAVOURS)) mesh.state[build] = mesh.jolt[build].state();
        log(sanityLine(mesh, mesh.state));
        for (const b of BUILDS) checkState(mesh, b, mesh.state[b]);
      }
    }
    log(`part 1 round ${round + 1}/${opts.rounds} done (${fmt((Date.now() - started) / 1000, 1)} s)`);
  }

  // Final state, then free everything.
  for (const mesh of meshes) {
    for (const build of Object.keys(JOLT_FLAVOURS)) mesh.state[build] = mesh.jolt[build].state();
    for (const b of BUILDS) checkState(mesh, b, mesh.state[b]);
    // Threads change no result: each threaded run ends with the position bits of its 1-thread run.
    for (const [k, one] of [['native 2T', 'native'], ['wasm-mt 1T', 'wasm'], ['wasm-mt 2T', 'wasm']]) {
      if (!mesh.state[k]) continue;
      const same = mesh.state[k].positionsHash === mesh.state[one].positionsHash;
      mesh.sameBits = { ...mesh.sameBits, [k]: same };
      if (!same) log(`WARNING ${mesh.name}: ${k} ended with other positions than ${one}`);
    }
    for (const jolt of Object.values(mesh.jolt)) jolt.destroy();
    for (const w of Object.values(mesh.worlds)) w.world.destroy();
    for (const server of Object.values(mesh.servers)) await server.close();
  }
  // Every Jolt object we made is destroyed, but the bindings' JoltInterface constructor installs a
  // new global Factory without freeing the previous one, so each interface alive at the same time
  // as another leaks one Factory (2912 bytes in jolt-physics 1.1.0) inside Jolt's heap.
  for (const build of Object.keys(JOLT_FLAVOURS)) {
    const leaked = joltFreeBefore[build] - J[build].JoltInterface.prototype.sGetFreeMemory();
    // The multithread build keeps 8 bytes more after the same calls (measured; its own, not ours).
    const factoryLeak = (meshes.length - 1) * JOLT_FACTORY_BYTES + (build === 'jolt-simd' ? 8 : 0);
    if (leaked > factoryLeak) log(`WARNING: ${build}: ${leaked} bytes of Jolt memory not freed (${factoryLeak} expected from Jolt's Factory)`);
  }

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
        build: runOf[build].build,
        run: build,
        threads: runOf[build].threads,
        tets: mesh.tets,
        tetOrder: 'shuffled',
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
      wasmVsJoltSimd: row['jolt-simd'] / row.wasm, // > 1: our wasm is faster than Jolt's SIMD build
      nativeVsWasm: row.wasm / row.native, // > 1: native is faster than our wasm
      // Thread speed-ups (> 1: 2 threads faster than 1) and whether the positions stayed the same
      native2T: row.native / row['native 2T'],
      wasmMt2T: row['wasm-mt 1T'] ? row['wasm-mt 1T'] / row['wasm-mt 2T'] : null,
      sameBits: mesh.sameBits ?? {},
    });
  }
  const floorMeshes = ratios.filter((r) => r.tets >= 9000);
  const floor = { required: 'ours wasm at least as fast as Jolt wasm on every box',
    met: floorMeshes.every((r) => r.wasmVsJolt >= 1), worstWasmVsJolt: Math.min(...floorMeshes.map((r) => r.wasmVsJolt)) };
  return { meshes, results, ratios, floor,
    jolt: `jolt-physics ${joltVersion()} (jolt-wasm: the single-threaded wasm build; jolt-simd: the wasm-multithread build, SIMD, 0 worker threads)` };
}

// ---- part 2: cost of each solver on the ~10k box -------------------------------------------------

// softbody_bench --serve: warms up once, then answers each "<frames>\n" on stdin with one JSON line.
class NativeServer {
  constructor(args) {
    this.args = args;
    this.child = spawn(NATIVE, [...args, '--serve'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.lines = [];
    this.waiting = [];
    this.closed = null;
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (d) => { this.stderr += d; });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const w = this.waiting.shift();
      if (w) w.resolve(line);
      else this.lines.push(line);
    });
    this.child.on('error', (e) => this.fail(e));
    // 'close' comes after stdout has ended, so every line has been delivered by then.
    this.child.on('close', (code, signal) => {
      this.closed = { code, signal };
      this.fail(new Error(`${NATIVE} ${args.join(' ')} --serve ended (${signal ?? code}) without answering:\n${this.stderr}`));
    });
  }
  fail(error) {
    this.error = error;
    for (const w of this.waiting.splice(0)) w.reject(error);
  }
  async next() {
    if (this.lines.length) return JSON.parse(this.lines.shift());
    if (this.error) throw this.error;
    return JSON.parse(await new Promise((resolve, reject) => this.waiting.push({ resolve, reject })));
  }
  run(frames) {
    this.child.stdin.write(`${frames}\n`);
    return this.next();
  }
  async close() {
    this.child.stdin.end();
    if (!this.closed) await new Promise((resolve) => this.child.once('close', resolve));
    if (this.closed.code !== 0) throw new Error(`${NATIVE} --serve exited with ${this.closed.signal ?? this.closed.code}:\n${this.stderr}`);
  }
}

function solverBodyParams() {
  return {
    edgeCompliance: SOLVER_SCENE.edgeCompliance,
    volumeCompliance: SOLVER_SCENE.volumeCompliance,
    springDamping: SOLVER_SCENE.springDamping,
    density: DENSITY,
  };
}

// The wasm side of one solver row: its own world, stepped until it diverges (then never again).
class WasmSolverBody {
  constructor(sb, geom, solver) {
    this.solver = solver;
    this.world = sb.createWorld();
    this.world.setSubsteps(SUBSTEPS);
    this.world.setGravity(0, -9.81, 0);
    this.world.setGround(true);
    this.body = this.world.addBox({ cells: SOLVER_SCENE.cells, size: geom.size, center: geom.center });
    this.body.setParams(solverBodyParams()); // compliances first: force solvers refuse compliance 0
    this.body.setSolver(solver.key);
    if (solver.material) this.body.setParams({ ...solver.material, material: Material.neoHookean });
    this.stepped = 0;
    this.divergedAtFrame = 0;
  }
  // Steps `frames` frames; with `samples`, times each one (and reads the CG iterations after it).
  run(frames, samples = null, cg = null) {
    const implicit = this.solver.id === Solver.implicitEuler;
    for (let f = 0; f < frames && !this.divergedAtFrame; ++f) {
      const t0 = performance.now();
      let diverged = false;
      try {
        this.world.step(DT);
      } catch (e) {
        if (e.code !== ErrorCode.DIVERGED) throw e;
        diverged = true;
      }
      const t1 = performance.now();
      ++this.stepped;
      if (diverged) this.divergedAtFrame = this.stepped;
      else if (samples) {
        samples.push(t1 - t0);
        cg.push(implicit ? this.body.stats().cgIterations : 0);
      }
    }
  }
  state() {
    const st = this.body.stats();
    const p = this.body.positions;
    let maxY = -Infinity;
    for (let i = 1; i < p.length; i += 3) maxY = Math.max(maxY, p[i]);
    return { minY: st.minY, maxY, volumeRatio: st.volumeRatio, kineticEnergy: st.kineticEnergy,
      finite: st.finite, framesStepped: this.stepped, divergedAtFrame: this.divergedAtFrame };
  }
}

const nativeState = (out) => ({ minY: out.minY, maxY: out.maxY, volumeRatio: out.volumeRatio,
  kineticEnergy: out.kineticEnergy, finite: out.finite, framesStepped: out.framesStepped,
  divergedAtFrame: out.divergedAtFrame });

function solverStateText(s) {
  if (s.divergedAtFrame) return `exploded at frame ${s.divergedAtFrame}`;
  return `lowest y ${fmt(s.minY, 4)} m, top ${fmt(s.maxY, 4)} m, volume ${fmt(s.volumeRatio, 4)}, kinetic ${s.kineticEnergy.toExponential(1)} J`;
}

// Every solver must be simulating the scene: finite, on the ground, box-shaped. Explicit Euler is
// expected to explode (it gains energy every step); any other explosion is a warning.
function checkSolverState(row, build, s, height) {
  const where = `${build} ${row.name}`;
  if (s.divergedAtFrame) {
    if (row.solver.key !== 'explicitEuler') log(`WARNING ${where}: exploded at frame ${s.divergedAtFrame}`);
    return;
  }
  const problems = [];
  if (!(s.minY > -1e-4 && s.minY < 0.01)) problems.push(`lowest vertex at y = ${s.minY} m, not resting on the ground`);
  // Loose bounds: in the first rounds the soft box still rings (top 0.54-0.60 m, volume 0.96-1.0).
  if (!(Math.abs(s.volumeRatio - 1) < 0.1)) problems.push(`volume ratio ${s.volumeRatio}`);
  if (!(s.maxY > 0.8 * height && s.maxY < 1.1 * height + DROP)) problems.push(`top at y = ${s.maxY} m of a ${height} m box`);
  for (const p of problems) log(`WARNING ${where}: ${p}`);
}

async function runSolverPart(sb, opts, started) {
  const geom = boxGeometry(SOLVER_SCENE.cells);
  const frames = Math.max(3, Math.round(SOLVER_SCENE.frames * opts.frameScale));
  const nativeArgs = ['--cells', ...SOLVER_SCENE.cells, '--warmup', WARMUP, '--substeps', SUBSTEPS, '--dt', DT,
    '--cell-size', CELL, '--drop', DROP, '--edge-compliance', SOLVER_SCENE.edgeCompliance,
    '--volume-compliance', SOLVER_SCENE.volumeCompliance, '--spring-damping', SOLVER_SCENE.springDamping].map(String);

  // The native servers warm up in parallel while this process warms up the wasm bodies; nothing is
  // timed until every one of them is ready.
  const rows = SOLVERS.map((solver) => ({
    solver,
    name: `${geom.name} ${solver.row}`,
    server: new NativeServer([...nativeArgs, '--solver', String(solver.id), ...(solver.material
      ? ['--material', '1', '--youngs-modulus', String(solver.material.youngsModulus), '--poisson-ratio', String(solver.material.poissonRatio)]
      : [])]),
    samples: { native: [], wasm: [] },
    cg: { native: [], wasm: [] },
    batchMedians: { native: [], wasm: [] },
    state: {},
  }));
  for (const row of rows) {
    row.wasm = new WasmSolverBody(sb, geom, row.solver);
    row.wasm.run(WARMUP);
    row.state.wasm = row.wasm.state();
  }
  const b = rows[0].wasm.body;
  const mesh = { name: geom.name, vertices: b.vertexCount, edges: b.edgeCount, tets: b.tetCount };
  for (const row of rows) {
    const ready = await row.server.next();
    checkCounts(mesh, ready, `native ${row.solver.label}`);
    row.state.native = nativeState(ready);
  }
  log(`${mesh.name} by solver: ${mesh.vertices} vertices, ${mesh.edges} edges, ${mesh.tets} tets, ${frames} frames per batch, all warmed up (${fmt((Date.now() - started) / 1000, 1)} s)`);

  const runBatch = async (row, build) => {
    if (row.state[build].divergedAtFrame) return; // frozen: nothing left to time
    let samples = [];
    let cg = [];
    if (build === 'native') {
      const out = await row.server.run(frames);
      samples = out.msPerFrame;
      cg = out.cgIterations;
      row.state.native = nativeState(out);
    } else {
      row.wasm.run(frames, samples, cg);
      row.state.wasm = row.wasm.state();
    }
    row.samples[build].push(...samples);
    row.cg[build].push(...cg);
    if (samples.length) row.batchMedians[build].push(median(samples));
  };

  for (let round = 0; round < opts.solverRounds; ++round) {
    const order = SOLVER_BUILDS.map((_, i) => SOLVER_BUILDS[(i + round) % SOLVER_BUILDS.length]);
    for (const row of rows) for (const build of order) await runBatch(row, build);
    if (round === 0) {
      for (const row of rows) {
        log(`sanity ${row.solver.label}: ${SOLVER_BUILDS.map((bd) => `${bd} ${solverStateText(row.state[bd])}`).join(' | ')}`);
        for (const bd of SOLVER_BUILDS) checkSolverState(row, bd, row.state[bd], geom.size[1]);
      }
    }
    log(`part 2 round ${round + 1}/${opts.solverRounds} done (${fmt((Date.now() - started) / 1000, 1)} s)`);
  }

  for (const row of rows) {
    for (const bd of SOLVER_BUILDS) checkSolverState(row, bd, row.state[bd], geom.size[1]);
    await row.server.close();
    row.wasm.world.destroy();
  }

  // Native and wasm run the same code on the same input; say whether they ended in the same state.
  const sameState = rows.every((r) => ['minY', 'maxY', 'volumeRatio', 'divergedAtFrame'].every((k) => {
    const a = r.state.native[k], w = r.state.wasm[k];
    return a === w || Math.abs(a - w) <= 1e-6 * Math.max(1, Math.abs(a));
  }));

  const results = [];
  for (const build of SOLVER_BUILDS) {
    const xpbdMs = median(rows[0].samples[build]);
    for (const row of rows) {
      const st = row.state[build];
      const exploded = st.divergedAtFrame > 0;
      const s = row.samples[build];
      const ms = exploded || !s.length ? null : median(s);
      const bm = row.batchMedians[build];
      const implicit = row.solver.id === Solver.implicitEuler;
      results.push({
        name: row.name,
        build,
        tets: mesh.tets,
        solver: row.solver.key,
        material: row.solver.material ? 'neoHookean' : 'simple',
        solverId: row.solver.id,
        msPerFrame: ms,
        msPerSubstep: ms === null ? null : ms / SUBSTEPS,
        vsXpbd: ms === null ? null : ms / xpbdMs, // cost relative to XPBD, same build
        cgIterationsMedian: implicit && !exploded ? median(row.cg[build]) : null,
        cgIterationsMin: implicit && !exploded ? Math.min(...row.cg[build]) : null,
        cgIterationsMax: implicit && !exploded ? Math.max(...row.cg[build]) : null,
        exploded,
        explodedAtFrame: exploded ? st.divergedAtFrame : null,
        msPerFrameBeforeExplosion: exploded && s.length ? median(s) : null,
        edges: mesh.edges,
        vertices: mesh.vertices,
        frames: s.length,
        batchMedianMin: bm.length ? Math.min(...bm) : null,
        batchMedianMax: bm.length ? Math.max(...bm) : null,
        minY: exploded ? null : st.minY,
        maxY: exploded ? null : st.maxY,
        volumeRatio: exploded ? null : st.volumeRatio,
        kineticEnergy: exploded ? null : st.kineticEnergy,
      });
    }
  }
  const meta = {
    scene: `${geom.name} (${mesh.tets} tets) of ${CELL} m cells, density ${DENSITY} kg/m^3, dropped ${DROP} m onto the ground y = 0`,
    edgeCompliance: SOLVER_SCENE.edgeCompliance,
    volumeCompliance: SOLVER_SCENE.volumeCompliance,
    springDamping: SOLVER_SCENE.springDamping,
    substeps: SUBSTEPS,
    dt: DT,
    rounds: opts.solverRounds,
    framesPerBatch: frames,
    warmupFrames: WARMUP,
    nativeSameStateAsWasm: sameState,
    statistic: 'msPerFrame is the median of all per-frame samples over all rounds (null when the body exploded: '
      + 'explodedAtFrame counts frames from the start, warm-up included); cgIterations are those of the last substep of each frame',
  };
  return { mesh, rows, results, meta };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!existsSync(NATIVE)) throw new Error(`${NATIVE} is missing: run bash scripts/setup.sh bench first`);
  const started = Date.now();
  const sb = await load();

  const part1 = opts.parts.includes('jolt') ? await runJoltPart(sb, opts, started) : null;
  const part2 = opts.parts.includes('solvers') ? await runSolverPart(sb, opts, started) : null;
  const part3 = opts.parts.includes('tetra') ? runTetraPart({ rounds: opts.tetraRounds, log }) : null;
  const part4 = opts.parts.includes('page') ? await runPagePart({ rounds: opts.pageRounds, log }) : null;
  const part5 = opts.parts.includes('contact') ? await runContactPart(sb, { rounds: 5, log }) : null;
  const part6 = opts.parts.includes('scenes') ? await runScenesPart(sb, { rounds: opts.frameScale < 1 ? 1 : 5, log }) : null;
  const part7 = opts.parts.includes('sizes') ? await runSizesPart({ log }) : null;
  const part8 = opts.parts.includes('gpu') ? await runGpuPart({ log }) : null;
  if (part7) {
    writeSizesTable(part7); // docs/benchmarks.md's size table is this measurement
    log('sizes: wrote the table into docs/benchmarks.md');
  }
  const part9 = opts.parts.includes('convergence') ? runConvergencePart({ log, frames: opts.frameScale < 1 ? 60 : 180 }) : null;
  if (part9) {
    writeConvergenceTable(part9); // docs/benchmarks.md's convergence table is this measurement
    log('convergence: wrote the table into docs/benchmarks.md');
  }
  const part10 = opts.parts.includes('smoothing') ? runSmoothingPart({ log }) : null;
  if (part10) {
    writeSmoothingTable(part10); // docs/benchmarks.md's strain smoothing table is this measurement
    log('smoothing: wrote the table into docs/benchmarks.md');
  }
  // --quick: the 64-across sheet only, and the table is left as it is.
  const part11 = opts.parts.includes('cloth') ? await runClothPart(sb, { log, sheets: opts.frameScale < 1 ? CLOTH_SHEETS.slice(0, 1) : CLOTH_SHEETS }) : null;
  if (part11 && opts.frameScale === 1) {
    writeClothTable(part11); // docs/benchmarks.md's cloth table is this measurement
    log('cloth: wrote the table into docs/benchmarks.md');
  }
  const part11b = opts.parts.includes('cloth') ? await runClothJoltPart(sb, { log, sheets: opts.frameScale < 1 ? CLOTH_JOLT_SHEETS.slice(0, 1) : CLOTH_JOLT_SHEETS }) : null;
  if (part11b && opts.frameScale === 1) {
    writeClothJoltTable(part11b); // and its table against Jolt's cloth
    log('cloth vs Jolt: wrote the table into docs/benchmarks.md');
  }

  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    substeps: SUBSTEPS,
    dt: DT,
    compliance: 0,
    scene: `box lattice of ${CELL} m cubic cells (6 tets each), density ${DENSITY} kg/m^3, resting on the ground y = 0, gravity -9.81`,
    jolt: part1?.jolt ?? null,
    rounds: opts.rounds,
    warmupFrames: WARMUP,
    statistic: 'msPerFrame is the median of all per-frame samples over all rounds; batchMedianMin/Max bound the per-batch medians',
    solverSection: part2?.meta ?? null,
    seconds: (Date.now() - started) / 1000,
  };

  if (opts.json) {
    const results = [...(part1?.results ?? []), ...(part2?.results ?? []), ...(part3?.results ?? []), ...(part4 ? pageResults(part4) : []), ...(part5?.results ?? []), ...(part6 ? [...part6.results, { part: 'scenes', scene: 'two bunnies overlapping', ...part6.overlap }, { part: 'scenes', scene: 'pile at rest', ...part6.rest }] : []), ...(part7 ? part7.rows.map((r) => ({ part: 'sizes', ...r })) : []), ...(part8?.rows ?? []), ...(part9 ? [...part9.rows.map((r) => ({ part: 'convergence', ...r })), ...part9.boxes.map((r) => ({ part: 'convergence boxes', ...r }))] : []), ...(part10 ? part10.rows.map((r) => ({ part: 'smoothing', ...r })) : []), ...(part11?.rows ?? []), ...(part11b ? part11b.rows.map((r) => ({ part: 'cloth vs jolt', ...r })) : [])];
    const doc = { ...meta, results };
    if (part1) Object.assign(doc, { ratios: part1.ratios, floor: part1.floor });
    process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  } else {
    const lines = [];
    if (part1) lines.push(...joltReport(meta, part1));
    if (part2) lines.push(...(part1 ? [''] : []), ...solverReport(part2));
    if (part3) lines.push(...(part1 || part2 ? [''] : []), ...tetraReport(part3));
    if (part4) lines.push(...(part1 || part2 || part3 ? [''] : []), ...pageReport(part4));
    if (part5) lines.push(...(part1 || part2 || part3 || part4 ? [''] : []), ...contactReport(part5));
    if (part6) lines.push(...(part1 || part2 || part3 || part4 || part5 ? [''] : []), ...scenesReport(part6));
    if (part7) lines.push(...(lines.length ? [''] : []), ...sizesReport(part7));
    if (part8) lines.push(...(lines.length ? [''] : []), ...gpuReport(part8));
    if (part9) lines.push(...(lines.length ? [''] : []), ...convergenceReport(part9));
    if (part10) lines.push(...(lines.length ? [''] : []), ...smoothingReport(part10));
    if (part11) lines.push(...(lines.length ? [''] : []), ...clothReport(part11));
    if (part11b) lines.push(...(lines.length ? [''] : []), ...clothJoltReport(part11b));
    lines.push(`total ${fmt(meta.seconds, 1)} s`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}

function joltVersion() {
  const pkg = new URL('../../node_modules/jolt-physics/package.json', import.meta.url);
  return JSON.parse(readFileSync(pkg, 'utf8')).version;
}

// Right-aligned columns after a left-aligned first one.
function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')}`;
  return [line(header), ...rows.map(line)];
}

function joltReport(meta, { meshes, results, ratios, floor }) {
  const lines = [];
  lines.push(`softbody benchmark: dt ${fmt(meta.dt, 6)} s (1/60), ${meta.substeps} substeps, compliance 0, box resting on the ground`);
  lines.push(`${meta.date}, node ${meta.node}, ${meta.cpu} x${meta.cores}, Jolt = ${meta.jolt}`);
  lines.push(`${meta.rounds} rounds, interleaved round-robin; median of all per-frame samples (batch medians: min-max)`);
  const header = ['build', 'tets', 'median ms/frame', 'projections/s', 'vs Jolt', 'vs Jolt SIMD', 'batch medians ms', 'frames'];
  for (const mesh of meshes) {
    const rows = results.filter((r) => r.name === mesh.name);
    const jolt = rows.find((r) => r.build === 'jolt-wasm').msPerFrame;
    const joltSimd = rows.find((r) => r.build === 'jolt-simd').msPerFrame;
    const cells = rows.map((r) => [
      r.run,
      String(r.tets),
      fmt(r.msPerFrame, 3),
      `${fmt(r.projPerSec / 1e6, 1)} M/s`,
      `${fmt(jolt / r.msPerFrame, 2)}x`,
      `${fmt(joltSimd / r.msPerFrame, 2)}x`,
      `${fmt(r.batchMedianMin, 3)}-${fmt(r.batchMedianMax, 3)}`,
      String(r.frames),
    ]);
    const ratio = ratios.find((r) => r.name === mesh.name);
    lines.push('');
    lines.push(`${mesh.name}: ${mesh.vertices} vertices, ${mesh.edges} edges, ${mesh.tets} tets (shuffled)`);
    lines.push(...table(header, cells));
    lines.push(`  ratios: ours wasm / Jolt wasm speed-up ${fmt(ratio.wasmVsJolt, 2)}x, / Jolt SIMD ${fmt(ratio.wasmVsJoltSimd, 2)}x, native / wasm speed-up ${fmt(ratio.nativeVsWasm, 2)}x`);
    const bits = Object.entries(ratio.sameBits).map(([k, same]) => `${k} ${same ? 'same bits' : 'POSITIONS DIFFER'}`).join(', ');
    lines.push(`  threads: native 2T speed-up ${fmt(ratio.native2T, 2)}x${ratio.wasmMt2T ? `, wasm-mt 2T / 1T ${fmt(ratio.wasmMt2T, 2)}x` : ''}; ${bits}`);
  }
  lines.push('');
  const margins = ratios.filter((r) => r.tets >= 9000).map((r) => `${r.name} ${fmt(r.wasmVsJolt, 2)}x`).join(', ');
  lines.push(`floor (${floor.required}): ${floor.met ? 'MET' : 'NOT MET'} (${margins})`);
  return lines;
}

function solverReport({ mesh, rows, results, meta }) {
  const lines = [];
  lines.push(`cost per solver: ${mesh.name}, ${mesh.vertices} vertices, ${mesh.edges} edges, ${mesh.tets} tets; dt ${fmt(meta.dt, 6)} s (1/60), ${meta.substeps} substeps`);
  lines.push(`  edge compliance ${meta.edgeCompliance} m/N, volume compliance ${meta.volumeCompliance} m^5/N, spring damping ${meta.springDamping} N s/m, density ${DENSITY} kg/m^3`);
  lines.push(`  ${meta.rounds} rounds of ${meta.framesPerBatch} frames, native and wasm interleaved; median ms per simulated frame (batch medians: min-max)`);
  const header = ['solver', 'work per substep', 'native ms/frame', 'wasm ms/frame', 'x XPBD nat / wasm',
    'CG its nat / wasm', 'native batch medians', 'wasm batch medians', 'frames'];
  const cells = [];
  const notes = [];
  for (const row of rows) {
    const r = Object.fromEntries(SOLVER_BUILDS.map((bd) => [bd, results.find((x) => x.name === row.name && x.build === bd)]));
    const ms = (x) => (x.exploded ? `exploded @${x.explodedAtFrame}` : fmt(x.msPerFrame, 3));
    const vs = (x) => (x.exploded ? '-' : fmt(x.vsXpbd, 2));
    const spread = (x) => (x.batchMedianMin === null ? '-' : `${fmt(x.batchMedianMin, 3)}-${fmt(x.batchMedianMax, 3)}`);
    const cg = r.native.cgIterationsMedian === null && r.wasm.cgIterationsMedian === null ? '-'
      : SOLVER_BUILDS.map((bd) => (r[bd].cgIterationsMedian === null ? '-' : String(r[bd].cgIterationsMedian))).join(' / ');
    cells.push([row.solver.label, row.solver.work, ms(r.native), ms(r.wasm), `${vs(r.native)} / ${vs(r.wasm)}`, cg,
      spread(r.native), spread(r.wasm), `${r.native.frames} / ${r.wasm.frames}`]);
    for (const bd of SOLVER_BUILDS) {
      if (r[bd].exploded) {
        const at = r[bd].explodedAtFrame;
        notes.push(`  ${row.solver.label} (${bd}) exploded at frame ${at} (t = ${fmt(at * meta.dt, 2)} s${at <= meta.warmupFrames ? ', during the warm-up' : ''}): not timed`);
      }
    }
  }
  lines.push(...table(header, cells));
  lines.push('  x XPBD: ms/frame over XPBD\'s, same build. f = one force evaluation, J p = one product with the force Jacobian.');
  lines.push('  CG its: implicit Euler\'s conjugate-gradient iterations per substep (median over frames of the last substep\'s).');
  lines.push(...notes);
  lines.push(`  end state: ${rows.filter((r) => !r.state.wasm.divergedAtFrame).map((r) => `${r.solver.label} top ${fmt(r.state.wasm.maxY, 3)} m vol ${fmt(r.state.wasm.volumeRatio, 3)}`).join(', ')} (wasm; ${meta.nativeSameStateAsWasm ? 'native ended in the same state' : 'native differs, see --json'})`);
  return lines;
}

main().catch((e) => {
  process.stderr.write(`bench: ${e.stack ?? e}\n`);
  process.exit(1);
});
