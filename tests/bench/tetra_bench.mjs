// Part 3 of the benchmark: the tetrahedralizer, native and wasm (the same C++ program built twice,
// tests/bench/bench_tetra.cpp), interleaved round-robin with the build order rotating per round.
// The wasm build runs twice: under node 20 (wasm) and in headless Chromium (chromium:
// tetra_chromium.mjs), whose V8 is the one the page's import worker uses.
// Each round is one process per build (warmed up by one untimed pass); its JSON lines give one
// sample per case. Reported: the
// median over rounds, Delaunay insertion as points per second, the pipelines (the bunny, issue 26's
// meshes) in ms and per stage, with the tets estimated before running, and the physics per frame of
// bodies made from two of them (step-*: ms per frame and us per tet at the page's defaults).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BUILD = {
  native: [fileURLToPath(new URL('../../build-native/softbody_bench_tetra', import.meta.url))],
  wasm: [process.execPath, '--no-experimental-fetch', fileURLToPath(new URL('../../build-wasm/softbody_bench_tetra.js', import.meta.url))],
  chromium: [process.execPath, fileURLToPath(new URL('./tetra_chromium.mjs', import.meta.url))],
};
// The file each build needs (chromium runs the wasm build's program).
const PROGRAM = { native: BUILD.native[0], wasm: BUILD.wasm[2], chromium: BUILD.wasm[2] };
export const TETRA_CASES = ['delaunay-10000', 'delaunay-100000', 'bunny-10', 'bunny-20', 'union-10', 'groove-10', 'pulled-10', 'teapot-10', 'plate5mm-10', 'dome50mm-10'];

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
};

export function runTetraPart({ rounds, log }) {
  for (const [build, file] of Object.entries(PROGRAM)) {
    if (!existsSync(file)) throw new Error(`${file} is missing (${build}): run bash scripts/setup.sh bench first`);
  }
  const samples = {}; // build -> case -> [{ms, points, tets}]
  const builds = Object.keys(BUILD);
  for (let round = 0; round < rounds; ++round) {
    for (let i = 0; i < builds.length; ++i) {
      const build = builds[(i + round) % builds.length];
      const [exe, ...args] = BUILD[build];
      const r = spawnSync(exe, [...args, '1'], { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (r.status !== 0) throw new Error(`${build} tetra benchmark failed: ${r.stderr}`);
      for (const line of r.stdout.trim().split('\n')) {
        const s = JSON.parse(line);
        ((samples[build] ??= {})[s.case] ??= []).push(s);
      }
    }
    log(`tetra round ${round + 1}/${rounds}`);
  }
  const results = [];
  for (const name of TETRA_CASES)
    for (const build of builds) {
      const list = samples[build][name];
      const ms = median(list.map((s) => s.ms));
      const row = { part: 'tetra', case: name, build, msMedian: ms, msMin: Math.min(...list.map((s) => s.ms)), msMax: Math.max(...list.map((s) => s.ms)), points: list[0].points, tets: list[0].tets, rounds: list.length };
      if (name.startsWith('delaunay')) row.pointsPerSecond = list[0].points / (ms / 1000);
      if (list[0].usPerTet !== undefined) row.usPerTetMedian = (1000 * ms) / list[0].tets;
      if (list[0].stages) {
        // Each stage's median over rounds (ms), so the stages of one row need not add up exactly.
        row.stagesMedian = Object.fromEntries(Object.keys(list[0].stages).map((k) => [k, median(list.map((s) => s.stages[k]))]));
        row.minQuality = list[0].minQuality;
        row.volumeError = list[0].volumeError;
        row.estimatedTets = list[0].estimatedTets;
        row.parts = list[0].parts;
      }
      results.push(row);
    }
  return { results };
}

export function tetraReport({ results }) {
  const lines = ['Tetrahedralizer (median over rounds; the same C++ native, and as wasm under node and in headless Chromium)', ''];
  const head = ['case', 'build', 'points', 'tets', 'median ms', 'min..max ms', 'points/s'];
  const rows = results.map((r) => [r.case, r.build, String(r.points), String(r.tets), r.msMedian.toFixed(1), `${r.msMin.toFixed(1)}..${r.msMax.toFixed(1)}`, r.pointsPerSecond ? Math.round(r.pointsPerSecond).toLocaleString('en-US') : '']);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmtRow = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  lines.push(fmtRow(head), ...rows.map(fmtRow));
  for (const r of results.filter((r) => r.usPerTetMedian !== undefined)) lines.push(`${r.case} ${r.build}: ${r.msMedian.toFixed(2)} ms of physics per frame, ${r.usPerTetMedian.toFixed(3)} us per tet`);
  lines.push('', 'Pipelines: median ms per stage (clean-up, sampling, Delaunay, inside test, improvement, finish)');
  for (const r of results.filter((r) => r.stagesMedian))
    lines.push(`${r.case} ${r.build}: ${Object.entries(r.stagesMedian).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}; min quality ${r.minQuality.toFixed(3)}, volume ${(100 * r.volumeError).toFixed(2)} %${r.estimatedTets !== undefined ? `, ${r.tets} tets (estimated ${r.estimatedTets}), ${r.parts} part(s)` : ''}`);
  lines.push('');
  for (const name of TETRA_CASES) {
    const ms = (build) => results.find((r) => r.case === name && r.build === build).msMedian;
    lines.push(`${name}: wasm / native time ${(ms('wasm') / ms('native')).toFixed(2)}x (node), ${(ms('chromium') / ms('native')).toFixed(2)}x (Chromium)`);
  }
  return lines;
}
