// A/B of two builds of our solver in one interleaved run: how the docs' speed steps were measured.
//
//   node tests/bench/ab.mjs --a DIR --b DIR [--rounds N] [--sizes 9k,50k,151k] [--only native|wasm]
//                           [--scene plain|damped|pbd|pbdSoft] [--threads-a N] [--threads-b N]
//                           [--split-min-a N] [--split-min-b N]
//
// DIR holds one snapshot of a build: softbody_bench (build-native/) and softbody.mjs + softbody.wasm
// (web/src/wasm/), e.g. `mkdir -p /tmp/ab/a && cp build-native/softbody_bench web/src/wasm/softbody.* /tmp/ab/a`.
// Both wasm binaries run under the current bridge with A's glue (the glue files must be the same).
// --threads-a/-b N: that side's world steps on N threads (native: softbody_bench --threads; wasm:
// the multi-threaded build softbody-mt.mjs/.wasm/.worker.js from DIR, for any N, so A = B = DIR with
// --threads-b 2 measures 2 threads against 1 in the same build). --split-min-a/-b: native only,
// softbody_bench --split-min.
// Scene: part 1's (bench.mjs): box lattices with tets in shuffled order, dt 1/60 s, 10 substeps,
// zero compliance, warmed up 40 frames (--scene damped: part 2's XPBD values instead, edge
// compliance 1e-3 m/N, volume 2e-8 m^5/N, spring damping 2 N s/m; pbd: the PBD solver). Per round, per mesh, the four runs (native A/B, wasm A/B)
// each time one batch, in an order that rotates every round. Prints the median ms per frame of
// each and B/A, and whether A and B ended in bit-identical positions (FNV-1a of the position bits
// after the same frames): a change that only reorders independent work must keep them identical.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { fnv1a, shuffleTets } from './tet_order.mjs';
import { softbodyMtOptions } from './softbody_mt_node.mjs';

const DT = 1 / 60;
const SUBSTEPS = 10;
const WARMUP = 40;
const CELL = 0.05;
const DROP = 0.01;
const SEED = 1;
const SCENES = {
  plain: { params: { edgeCompliance: 0, volumeCompliance: 0 }, args: [] },
  damped: { params: { edgeCompliance: 1e-3, volumeCompliance: 2e-8, springDamping: 2 },
    args: ['--edge-compliance', '1e-3', '--volume-compliance', '2e-8', '--spring-damping', '2'] },
  pbd: { params: { edgeCompliance: 0, volumeCompliance: 0 }, solver: 'pbd', args: ['--solver', '1'] },
  // PBD stiffness below 1 (the scaled loops); softbody_bench has no option for it: use --only wasm
  pbdSoft: { params: { edgeCompliance: 0, volumeCompliance: 0, pbdStiffness: 0.5 }, solver: 'pbd', args: ['--solver', '1'] },
};
const SIZES = {
  '9k': { cells: [11, 12, 12], frames: 40 },
  '50k': { cells: [20, 20, 21], frames: 10 },
  '151k': { cells: [29, 29, 30], frames: 4 },
};

function parse(argv) {
  const o = { rounds: 9, sizes: ['9k', '50k', '151k'], only: null, scene: 'plain', threads: { A: 1, B: 1 }, splitMin: {}, mt: { A: false, B: false } };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--a') o.a = argv[++i];
    else if (a === '--b') o.b = argv[++i];
    else if (a === '--rounds') o.rounds = Number(argv[++i]);
    else if (a === '--sizes') o.sizes = argv[++i].split(',');
    else if (a === '--only') o.only = argv[++i];
    else if (a === '--scene') o.scene = argv[++i];
    else if (a === '--threads-a' || a === '--threads-b') {
      const v = a.endsWith('a') ? 'A' : 'B';
      o.threads[v] = Number(argv[++i]);
      o.mt[v] = true;
    } else if (a === '--split-min-a') o.splitMin.A = Number(argv[++i]);
    else if (a === '--split-min-b') o.splitMin.B = Number(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  if (!o.a || !o.b) throw new Error('usage: ab.mjs --a DIR --b DIR [--rounds N] [--sizes 9k,50k,151k] [--only native|wasm]');
  for (const s of o.sizes) if (!SIZES[s]) throw new Error(`unknown size ${s}`);
  if (!SCENES[o.scene]) throw new Error(`unknown scene ${o.scene}`);
  return o;
}

// The 10th percentile of the frame times, printed beside the medians: on a shared machine a frame
// in which another process took one of our cores is slow, so the fast tenth shows what the build
// does with the cores it asked for (the medians stay the figures to quote).
const p10 = (v) => Float64Array.from(v).sort()[Math.floor(v.length / 10)];
const median = (v) => {
  const s = Float64Array.from(v).sort();
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

class Server { // softbody_bench --serve
  constructor(exe, args) {
    this.child = spawn(exe, [...args, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.waiting = [];
    this.lines = [];
    createInterface({ input: this.child.stdout }).on('line', (l) => {
      const w = this.waiting.shift();
      if (w) w(JSON.parse(l));
      else this.lines.push(JSON.parse(l));
    });
  }
  next() {
    return this.lines.length ? Promise.resolve(this.lines.shift()) : new Promise((r) => this.waiting.push(r));
  }
  run(frames) {
    this.child.stdin.write(`${frames}\n`);
    return this.next();
  }
  close() {
    this.child.stdin.end();
  }
}

async function wasmBody(dir, cells, scene, threads, mt) {
  const { loadSoftbody } = await import('../../web/src/softbody.js');
  const sb = await loadSoftbody(mt ? await softbodyMtOptions(dir) : { wasmBinary: readFileSync(new URL('softbody.wasm', dir)) });
  const world = sb.createWorld();
  if (mt) world.setThreads(threads);
  world.setSubsteps(SUBSTEPS);
  world.setGravity(0, -9.81, 0);
  world.setGround(true);
  const size = cells.map((n) => n * CELL);
  const box = world.addBox({ cells, size, center: [0, DROP + size[1] / 2, 0] });
  const positions = box.positions.slice();
  const tets = shuffleTets(box.tets, SEED);
  box.destroy();
  const body = world.addTets(positions, tets);
  body.setParams({ ...scene.params, density: 1000 });
  if (scene.solver) body.setSolver(scene.solver);
  for (let f = 0; f < WARMUP; ++f) world.step(DT);
  return {
    run(frames) {
      const ms = [];
      for (let f = 0; f < frames; ++f) {
        const t0 = performance.now();
        world.step(DT);
        ms.push(performance.now() - t0);
      }
      return ms;
    },
    hash: () => fnv1a(new Uint32Array(body.positions.slice().buffer)),
  };
}

async function main() {
  const o = parse(process.argv.slice(2));
  const dirs = { A: pathToFileURL(`${o.a}/`), B: pathToFileURL(`${o.b}/`) };
  if (!o.mt.A && !o.mt.B && readFileSync(new URL('softbody.mjs', dirs.A), 'utf8') !== readFileSync(new URL('softbody.mjs', dirs.B), 'utf8'))
    process.stderr.write('WARNING: A and B have different wasm glue; both run with the bridge\'s\n');
  const runs = [];
  for (const v of ['A', 'B']) {
    if (o.only !== 'wasm') runs.push({ kind: 'native', v });
    if (o.only !== 'native') runs.push({ kind: 'wasm', v });
  }
  const meshes = [];
  for (const key of o.sizes) {
    const { cells, frames } = SIZES[key];
    const mesh = { key, cells, frames, runs: {} };
    for (const r of runs) {
      const id = `${r.kind} ${r.v}`;
      const args = ['--cells', ...cells, '--warmup', WARMUP, '--substeps', SUBSTEPS, '--dt', DT, '--cell-size', CELL,
        '--drop', DROP, '--shuffle', SEED, ...SCENES[o.scene].args,
        ...(o.mt[r.v] ? ['--threads', o.threads[r.v]] : []), ...(o.splitMin[r.v] !== undefined ? ['--split-min', o.splitMin[r.v]] : [])].map(String);
      mesh.runs[id] = { ...r, samples: [],
        impl: r.kind === 'native' ? new Server(new URL('softbody_bench', dirs[r.v]).pathname, args) : await wasmBody(dirs[r.v], cells, SCENES[o.scene], o.threads[r.v], o.mt[r.v]) };
      if (r.kind === 'native') mesh.runs[id].last = await mesh.runs[id].impl.next();
    }
    meshes.push(mesh);
  }
  const ids = Object.keys(meshes[0].runs);
  for (let round = 0; round < o.rounds; ++round) {
    for (const mesh of meshes) {
      for (let i = 0; i < ids.length; ++i) {
        const run = mesh.runs[ids[(i + round) % ids.length]];
        if (run.kind === 'native') {
          run.last = await run.impl.run(mesh.frames);
          run.samples.push(...run.last.msPerFrame);
        } else run.samples.push(...run.impl.run(mesh.frames));
      }
    }
    process.stderr.write(`round ${round + 1}/${o.rounds}\n`);
  }
  for (const mesh of meshes) {
    const line = [`${mesh.key} (${mesh.cells.join('x')})`];
    for (const kind of ['native', 'wasm']) {
      const a = mesh.runs[`${kind} A`], b = mesh.runs[`${kind} B`];
      if (!a) continue;
      const ma = median(a.samples), mb = median(b.samples);
      const ha = kind === 'native' ? a.last.positionsHash : a.impl.hash();
      const hb = kind === 'native' ? b.last.positionsHash : b.impl.hash();
      const qa = p10(a.samples), qb = p10(b.samples);
      line.push(`${kind} A ${ma.toFixed(3)} B ${mb.toFixed(3)} ms  B/A ${(mb / ma).toFixed(3)} (p10 ${qa.toFixed(3)} / ${qb.toFixed(3)}: ${(qb / qa).toFixed(3)})  ${ha === hb ? 'same bits' : 'positions differ'}`);
    }
    process.stdout.write(`${line.join(' | ')}\n`);
  }
  for (const mesh of meshes) for (const r of Object.values(mesh.runs)) if (r.kind === 'native') r.impl.close();
}

main().catch((e) => {
  process.stderr.write(`${e.stack}\n`);
  process.exit(1);
});
