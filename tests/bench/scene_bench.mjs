// Benchmark part 6: the page's scenes (issue 25). Each scene is built by the page's own code
// (web/src/simulation.js: Simulation.setScene with the page's defaults and the bunny of
// scene_bodies.js) and stepped through it, in the wasm build under node: rows per scene (pile,
// funnel, obstacles, stairs, paddle) and build (wasm on one thread; the multi-threaded build on 1 and
// 2 threads when built), with the share of the frame spent in contact and what each phase costs:
// between bodies the broad phase (pairing the bodies' bounds), the narrow phase (the rest of the
// per-frame gathering: hash and candidates) and the solve (every substep), per contact solved; with
// the colliders the per-frame gathering (clear radii and candidate faces) and the solve, per particle
// substep tested. Beside them, in the same rounds, one lone body with about the pile's tets (a
// 20 x 20 x 21-cell box, 50,400 tets, made through the page's Simulation.adopt), the issue's yardstick
// (pile at most 1.6x its time), and two bunnies dropped overlapping by half (candidates after a hard
// hit). Frames 0-119 let the scenes fall and meet; the timed frames follow, interleaved batch by
// batch (the order reversed every round). Figures: medians of the per-frame wall times; phase
// figures are means per frame from world.contactStats().
//
//   node tests/bench/bench.mjs --only scenes
//   node tests/bench/scene_bench.mjs --a DIR --b DIR [--rounds N]
//       A/B of two builds (DIR holds softbody.mjs + softbody.wasm, e.g. a copy of web/src/wasm/), one
//       thread, interleaved: ms per frame and the body-contact candidates of each. The collider
//       fields of contactStats are read only from the current build (older builds do not have them).
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { loadSoftbody } from '../../web/src/softbody.js';
import { Simulation } from '../../web/src/simulation.js';
import { addDropBody, bunnyTets } from '../../web/src/scenes/scene_bodies.js';
import { DEFAULTS } from '../../web/src/settings.js';

export const PAGE_SCENES = ['pile', 'funnel', 'obstacles', 'stairs', 'paddle'];
const SETTLE = 120; // frames before timing: the scenes' bodies have landed
const BATCH = 20; // frames per timed batch
const LONE_CELLS = [20, 20, 21]; // 50,400 tets: about the pile's
const MT_DIR = new URL('../../build-wasm/', import.meta.url);

function median(values) {
  const s = Float64Array.from(values).sort();
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function loadFrom(dir) {
  const { default: factory } = await import(pathToFileURL(`${dir}/softbody.mjs`).href);
  return loadSoftbody({ factory, wasmBinary: readFileSync(`${dir}/softbody.wasm`) });
}

// The page's simulation of a scene, held at `threads` (the page's tuner would try more itself).
function pageScene(sb, name, bunny, threads) {
  const sim = new Simulation(sb);
  sim.setScene(name, { bunny });
  sim.threads.trial = null;
  sim.world.setThreads(threads);
  return sim;
}

// The lone body: the page's simulation with a 20 x 20 x 21-cell box adopted as its body.
function loneBody(sb, threads) {
  const sim = new Simulation(sb);
  const maker = sb.createWorld();
  const box = maker.addBox({ cells: LONE_CELLS, size: LONE_CELLS.map((n) => n * 0.05), center: [0, 0.55, 0] });
  const source = { kind: 'tets', name: 'lone box', positions: box.positions.slice(), tets: box.tets.slice() };
  maker.destroy();
  sim.adopt(source);
  sim.threads.trial = null;
  sim.world.setThreads(threads);
  return sim;
}

// Two bunnies dropped from 1 m, the second's centre 0.15 m from the first's (half inside it): how
// many candidates a hard overlap makes. Not timed per frame: candidates over the first frames.
function overlappedBunnies(sb, bunny) {
  const world = sb.createWorld();
  world.setSubsteps(DEFAULTS.substeps);
  const bodies = [[0, 1, 0], [0.15, 1.02, 0.03]].map((at) => addDropBody(world, { kind: 'bunny', at, size: 0.55 }, { bunny }));
  for (const b of bodies) b.setParams({ edgeCompliance: DEFAULTS.edgeCompliance, damping: DEFAULTS.damping, friction: DEFAULTS.friction, restitution: DEFAULTS.restitution });
  const candidates = [];
  const ms = [];
  for (let f = 0; f < 30; f++) {
    const t0 = performance.now();
    world.step(1 / 60);
    ms.push(performance.now() - t0);
    candidates.push(world.contactStats().candidates);
  }
  world.destroy();
  return { maxCandidates: Math.max(...candidates), firstFrames: candidates.slice(0, 5), msFirst10: ms.slice(0, 10).reduce((a, b) => a + b, 0) / 10 };
}

// The pile left to rest (the page's pile sleeps: scene_presets.js SLEEP): when all its bodies are
// asleep (at most 20 s of simulated time), and the median ms per frame of 30 frames after.
export function pileAtRest(sb, bunny) {
  const sim = pageScene(sb, 'pile', bunny, 1);
  let frames = 0;
  const allAsleep = () => sim.bodies.every((b) => b.stats().asleep);
  while (frames < 1200 && !allAsleep()) {
    sim.step();
    frames++;
  }
  const ms = [];
  for (let f = 0; f < 30; f++) {
    sim.step();
    ms.push(sim.stepMs);
  }
  const bodies = sim.bodies.length;
  const asleepAfterS = allAsleep() ? frames / 60 : null;
  sim.world.destroy();
  return { asleepAfterS, msPerFrame: median(ms), bodies };
}

function emptyPhases() {
  return { candidates: 0, contacts: 0, gatherMs: 0, solveMs: 0, broadMs: 0, colliders: { candidates: 0, faces: 0, tested: 0, gatherMs: 0, solveMs: 0 }, frameMs: 0, frames: 0 };
}

function addPhases(sum, c, ms, withColliders) {
  sum.candidates += c.candidates;
  sum.contacts += c.contacts;
  sum.gatherMs += c.gatherMs;
  sum.solveMs += c.solveMs;
  sum.frameMs += ms;
  sum.frames += 1;
  if (!withColliders) return;
  sum.broadMs += c.broadMs;
  for (const k of Object.keys(sum.colliders)) sum.colliders[k] += c.colliders[k];
}

function meanPhases(sum) {
  const n = Math.max(1, sum.frames);
  const out = { candidates: sum.candidates / n, contacts: sum.contacts / n, gatherMs: sum.gatherMs / n, solveMs: sum.solveMs / n, broadMs: sum.broadMs / n, frameMs: sum.frameMs / n };
  out.colliders = Object.fromEntries(Object.entries(sum.colliders).map(([k, v]) => [k, v / n]));
  out.contactMs = out.gatherMs + out.solveMs + out.colliders.gatherMs + out.colliders.solveMs;
  out.share = out.contactMs / out.frameMs;
  return out;
}

// runs: [{ key, build, threads, sim, tets, bodies, current }]; times them interleaved.
function timeInterleaved(runs, rounds, log) {
  for (const run of runs) for (let f = 0; f < SETTLE; f++) run.sim.step();
  const samples = new Map(runs.map((r) => [r.key, []]));
  const sums = new Map(runs.map((r) => [r.key, emptyPhases()]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...runs].reverse() : runs;
    for (const run of order) {
      for (let f = 0; f < BATCH; f++) {
        run.sim.step();
        samples.get(run.key).push(run.sim.stepMs);
        addPhases(sums.get(run.key), run.sim.world.contactStats(), run.sim.stepMs, run.current);
      }
    }
    log(`scenes round ${round + 1}/${rounds}`);
  }
  return runs.map((run) => ({ ...run, msPerFrame: median(samples.get(run.key)), phases: meanPhases(sums.get(run.key)) }));
}

function describe(sim) {
  let tets = 0;
  for (const b of sim.bodies) tets += b.tetCount;
  return { tets, bodies: sim.bodies.length };
}

// The page's scenes in this checkout's wasm build (and the threaded build when it is there).
export async function runScenesPart(sb, { rounds = 5, log = () => {} } = {}) {
  const bunny = await bunnyTets(sb);
  const builds = [{ build: 'wasm', sb, threads: 1 }];
  if (existsSync(new URL('softbody-mt.wasm', MT_DIR))) {
    const { softbodyMtOptions } = await import('./softbody_mt_node.mjs');
    const sbMt = await loadSoftbody(await softbodyMtOptions());
    builds.push({ build: 'wasm-mt', sb: sbMt, threads: 1 }, { build: 'wasm-mt', sb: sbMt, threads: 2 });
  } else {
    log('no build-wasm/softbody-mt.wasm: the two-thread rows are left out');
  }
  const runs = [];
  for (const b of builds) {
    for (const scene of PAGE_SCENES) {
      const sim = pageScene(b.sb, scene, bunny, b.threads);
      runs.push({ key: `${scene} ${b.build} ${b.threads}T`, scene, build: b.build, threads: b.threads, sim, current: true, ...describe(sim) });
    }
    const lone = loneBody(b.sb, b.threads);
    runs.push({ key: `lone ${b.build} ${b.threads}T`, scene: 'lone box', build: b.build, threads: b.threads, sim: lone, current: true, ...describe(lone) });
  }
  const timed = timeInterleaved(runs, rounds, log);
  const overlap = overlappedBunnies(sb, bunny);
  log('scenes: the pile left to rest');
  const rest = pileAtRest(sb, bunny);
  // The threaded build's worlds are left to the process's end: destroying one joins its workers on
  // this thread, which under node's worker shim did not return.
  for (const run of runs) if (run.build === 'wasm') run.sim.world.destroy();
  const results = timed.map(({ sim, current, key, ...row }) => ({ part: 'scenes', ...row }));
  return { results, overlap, rest };
}

export function scenesReport({ results, overlap, rest }) {
  const f = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '-');
  const us = (ms, n) => (n > 0 ? f((1000 * ms) / n, 2) : '-');
  const lines = [];
  lines.push(`Part 6: the page's scenes through web/src/simulation.js (page defaults, ${DEFAULTS.substeps} substeps), median ms/frame after ${SETTLE} frames`);
  lines.push('  scene      build       tets    bodies  ms/frame  contact  body: broad narrow solve ms  cand.  contacts  us/contact narrow solve  colliders: gather solve ms  pairs  tested  us/tested');
  for (const r of results) {
    const p = r.phases;
    const narrow = p.gatherMs - p.broadMs;
    lines.push(`  ${r.scene.padEnd(10)} ${`${r.build} ${r.threads}T`.padEnd(10)} ${String(r.tets).padStart(6)} ${String(r.bodies).padStart(6)}  ${f(r.msPerFrame).padStart(8)}  ${f(100 * p.share, 0).padStart(5)} %  ${f(p.broadMs, 3).padStart(11)} ${f(narrow).padStart(6)} ${f(p.solveMs).padStart(5)}  ${String(Math.round(p.candidates)).padStart(6)} ${String(Math.round(p.contacts)).padStart(8)}  ${us(narrow, p.contacts).padStart(17)} ${us(p.solveMs, p.contacts).padStart(5)}  ${f(p.colliders.gatherMs).padStart(17)} ${f(p.colliders.solveMs).padStart(5)}  ${String(Math.round(p.colliders.candidates)).padStart(5)} ${String(Math.round(p.colliders.tested)).padStart(7)}  ${us(p.colliders.solveMs, p.colliders.tested).padStart(9)}`);
  }
  for (const build of new Set(results.map((r) => `${r.build} ${r.threads}T`))) {
    const pile = results.find((r) => r.scene === 'pile' && `${r.build} ${r.threads}T` === build);
    const lone = results.find((r) => r.scene === 'lone box' && `${r.build} ${r.threads}T` === build);
    if (pile && lone) lines.push(`  ${build}: pile ${f(pile.msPerFrame)} ms (${pile.tets} tets, ${pile.bodies} bodies) = ${f(pile.msPerFrame / lone.msPerFrame)}x the lone ${lone.tets}-tet box's ${f(lone.msPerFrame)} ms (target <= 1.6x, pile <= 8 ms on one thread)`);
  }
  if (rest) lines.push(`  the pile left to rest (wasm 1T, sleep on as in the page): ${rest.asleepAfterS === null ? 'not all asleep after 20 s' : `all ${rest.bodies} bodies asleep ${f(rest.asleepAfterS, 1)} s after the drop`}, then ${f(rest.msPerFrame, 3)} ms per frame`);
  lines.push(`  two bunnies dropped overlapping by half: at most ${overlap.maxCandidates} body-contact candidates per frame (first frames ${overlap.firstFrames.join(', ')}), ${f(overlap.msFirst10)} ms per frame over the first 10`);
  return lines;
}

// ---- A/B of two builds on the page's scenes --------------------------------------------------

async function abMain(argv) {
  const o = { rounds: 5 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--a') o.a = argv[++i];
    else if (argv[i] === '--b') o.b = argv[++i];
    else if (argv[i] === '--rounds') o.rounds = Number(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!o.a || !o.b) throw new Error('usage: scene_bench.mjs --a DIR --b DIR [--rounds N]');
  const log = (m) => process.stderr.write(`${m}\n`);
  const sides = { A: await loadFrom(o.a), B: await loadFrom(o.b) };
  const bunny = await bunnyTets(sides.A);
  const runs = [];
  for (const scene of PAGE_SCENES) {
    for (const [side, sb] of Object.entries(sides)) {
      const sim = pageScene(sb, scene, bunny, 1);
      runs.push({ key: `${scene} ${side}`, scene, build: side, threads: 1, sim, current: false, ...describe(sim) });
    }
  }
  for (const [side, sb] of Object.entries(sides)) {
    const sim = loneBody(sb, 1);
    runs.push({ key: `lone ${side}`, scene: 'lone box', build: side, threads: 1, sim, current: false, ...describe(sim) });
  }
  const timed = timeInterleaved(runs, o.rounds, log);
  const overlaps = Object.fromEntries(Object.entries(sides).map(([side, sb]) => [side, overlappedBunnies(sb, bunny)]));
  const f = (x, d = 2) => x.toFixed(d);
  const lines = [`A/B on the page's scenes, one thread, ${o.rounds} rounds of ${BATCH} frames after ${SETTLE}; A = ${o.a}, B = ${o.b}`];
  lines.push('  scene       tets  A ms/frame  B ms/frame   B/A   A cand.  B cand.  A body gather+solve  B body gather+solve');
  for (const scene of [...PAGE_SCENES, 'lone box']) {
    const a = timed.find((r) => r.scene === scene && r.build === 'A');
    const b = timed.find((r) => r.scene === scene && r.build === 'B');
    lines.push(`  ${scene.padEnd(10)} ${String(a.tets).padStart(6)}  ${f(a.msPerFrame).padStart(10)}  ${f(b.msPerFrame).padStart(10)}  ${f(b.msPerFrame / a.msPerFrame, 3).padStart(5)}  ${String(Math.round(a.phases.candidates)).padStart(7)}  ${String(Math.round(b.phases.candidates)).padStart(7)}  ${f(a.phases.gatherMs + a.phases.solveMs).padStart(19)}  ${f(b.phases.gatherMs + b.phases.solveMs).padStart(19)}`);
  }
  for (const side of ['A', 'B']) {
    const pile = timed.find((r) => r.scene === 'pile' && r.build === side);
    const lone = timed.find((r) => r.scene === 'lone box' && r.build === side);
    lines.push(`  ${side}: pile / lone box = ${f(pile.msPerFrame / lone.msPerFrame)}; two bunnies overlapping by half: at most ${overlaps[side].maxCandidates} candidates per frame (first frames ${overlaps[side].firstFrames.join(', ')}), ${f(overlaps[side].msFirst10)} ms per frame over the first 10`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  for (const run of runs) run.sim.world.destroy();
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await abMain(process.argv.slice(2));
