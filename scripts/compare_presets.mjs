// Runs every preset of the comparison page (web/src/compare/presets.js) in node through the same
// Comparison and Lane code the page uses, and prints what each view did: when it exploded, its
// energy over time, its wobble (energy above its final resting energy), its resting shape.
// The numbers quoted in presets.js come from here.
//   node scripts/compare_presets.mjs [preset-id ...] [--seconds=10]
import { readFileSync } from 'node:fs';
import { loadSoftbody } from '../web/src/softbody.js';
import { Comparison } from '../web/src/compare/comparison.js';
import { PRESETS } from '../web/src/compare/presets.js';
import { DEFAULT_SETUP } from '../web/src/compare/setup.js';

const args = process.argv.slice(2);
const seconds = Number(args.find((a) => a.startsWith('--seconds='))?.split('=')[1] ?? 10);
const ids = args.filter((a) => !a.startsWith('--'));
const wasmBinary = readFileSync(new URL('../web/src/wasm/softbody.wasm', import.meta.url));
const softbody = await loadSoftbody({ wasmBinary });

const MARKS = [0.5, 1, 2, 4, 6, 8, 10];
const kJ = (e) => (Number.isFinite(e) ? `${(e / 1000).toFixed(2)} kJ` : String(e));

function top(body) {
  const p = body.positions;
  let y = -Infinity;
  for (let i = 1; i < p.length; i += 3) y = Math.max(y, p[i]);
  return y;
}

const runs = [{ id: 'default', title: 'page default', setup: DEFAULT_SETUP }, ...PRESETS].filter((p) => !ids.length || ids.includes(p.id));
for (const preset of runs) {
  const comparison = new Comparison(softbody, preset.setup);
  const lanes = comparison.lanes;
  const energies = lanes.map(() => []);
  const ms = lanes.map(() => 0);
  const frames = Math.round(seconds * preset.setup.hz);
  const tail = lanes.map(() => ({ n: 0, top: 0, volume: 0, strain: 0 }));
  for (let f = 0; f < frames; f++) {
    comparison.advance();
    lanes.forEach((lane, i) => {
      energies[i].push(lane.exploded ? NaN : lane.energy);
      ms[i] += lane.stepMs;
      if (!lane.exploded && comparison.time > seconds - 1) {
        const t = tail[i];
        t.n++;
        t.top += top(lane.body);
        t.volume += lane.stats.volumeRatio;
        t.strain += lane.stats.maxEdgeStrain;
      }
    });
  }
  console.log(`\n=== ${preset.title} (${preset.id}): k ${preset.setup.stiffness} N/m, c ${preset.setup.springDamping} N s/m, drag ${preset.setup.drag}/s, g ${preset.setup.gravity}, dt 1/${preset.setup.hz} s, start ${preset.setup.start}`);
  lanes.forEach((lane, i) => {
    const view = preset.setup.views[i];
    const name = `${view.solver}@${view.substeps}${(view.iterations ?? 1) !== 1 ? `x${view.iterations}` : ''}`.padEnd(22);
    const startEnergy = energies[i][0];
    const rest = energies[i][energies[i].length - 1];
    const at = (t) => energies[i][Math.round(t * preset.setup.hz) - 1];
    const marks = MARKS.filter((t) => t <= seconds).map((t) => `${t}s ${kJ(at(t))}`).join(', ');
    const cost = `${(ms[i] / frames).toFixed(2)} ms/frame`;
    if (lane.exploded) {
      console.log(`${name} EXPLODED at ${lane.explodedAt.toFixed(2)} s (${lane.exploded}); ${marks}; ${cost}`);
      return;
    }
    const t = tail[i];
    const wobble = MARKS.filter((m) => m <= seconds / 2).map((m) => `${m}s ${(at(m) - rest).toFixed(0)} J`).join(', ');
    console.log(
      `${name} stable; ${marks}; first frame ${kJ(startEnergy)}; wobble ${wobble}; last second: top ${(t.top / t.n).toFixed(3)} m, volume ${(100 * t.volume / t.n).toFixed(1)} %, max strain ${(100 * t.strain / t.n).toFixed(1)} %${lane.tipSag() !== null ? `; tip sag ${(1000 * lane.tipSag()).toFixed(1)} mm${lane.beamSag ? ` (beam theory ${(1000 * lane.beamSag).toFixed(1)} mm)` : ''}` : ''}; ${cost}`,
    );
  });
  comparison.destroy();
}
