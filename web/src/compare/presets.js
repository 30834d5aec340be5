// One-click comparisons that each tell one story. Every number here was tuned by running the
// preset through the same Comparison and Lane code in node: `node scripts/compare_presets.mjs`
// (10 s of simulated time) prints the figures quoted below. Scene: the 1 m box of 5 x 5 x 5 cells
// (216 particles, 750 tets), 1000 kg/m^3 so 1000 kg, mean rest edge L = 0.25 m; dt = 1/60 s.
// "Wobble" is the total energy above the view's energy at 10 s.
import { DEFAULT_SETUP, cloneSetup } from './setup.js';

const view = (solver, substeps = 10, iterations = 1) => ({ solver, substeps, iterations });

const base = (patch) => ({ ...cloneSetup(DEFAULT_SETUP), ...patch });

export const PRESETS = Object.freeze([
  {
    id: 'stiff-jelly',
    title: 'stiff jelly',
    story:
      'k = 10⁴ N/m, no damping. Explicit Euler blows up right after landing; semi-implicit Euler keeps ' +
      'jiggling for seconds (only the ground takes energy out); implicit Euler bleeds the wobble away ' +
      'in under two seconds; XPBD stays stable and stiff.',
    // Measured (10 substeps): explicit Euler exploded at 0.45 s (it lands at 0.32 s; energy
    // non-finite in float32 within 4 frames of leaving its start scale). Wobble at 1 / 2 / 4 s:
    // semi-implicit Euler 2.9 kJ / 1.1 kJ / 0.44 kJ (still 0.26 kJ above rest at 10 s), implicit
    // Euler 1.6 kJ / 65 J / 3 J, XPBD 1.8 kJ / 85 J / 18 J; XPBD max edge strain at rest 6.6 %.
    // (XPBD, one Gauss-Seidel pass per substep, dissipates about like implicit Euler at the same h:
    // the over-damping shows against semi-implicit Euler, not against XPBD.) At k = 5000 with
    // 50 N s/m of spring damping (the page default) all four are stable; at 10^4 with that damping
    // explicit Euler buzzes at twice its start energy, at 2 x 10^4 it explodes at 0.63 s.
    setup: base({
      stiffness: 1e4,
      springDamping: 0,
      drag: 0,
      views: [view('explicitEuler'), view('semiImplicitEuler'), view('implicitEuler'), view('xpbd')],
    }),
  },
  {
    id: 'big-time-step',
    title: 'big time step',
    story:
      'One 16.7 ms step per frame, no substeps. Semi-implicit Euler explodes in mid-air (ωh > 2); ' +
      'RK4 survives (a larger stability region) until k ≈ 7000 N/m; implicit Euler and XPBD are ' +
      'stable at any step, at the price of softness and lost volume.',
    // Measured (k = 5000 N/m, 1 substep): semi-implicit Euler exploded at 0.20 s (before it lands);
    // RK4 stable (at k = 7000 it explodes at 0.28 s); implicit Euler rests at 95.3 % volume with 29 %
    // max strain, XPBD at 94.9 % / 31 %, against 98 % / 12-15 % with 10 substeps.
    setup: base({
      stiffness: 5000,
      springDamping: 0,
      drag: 0,
      views: [view('semiImplicitEuler', 1), view('rk4', 1), view('implicitEuler', 1), view('xpbd', 1)],
    }),
  },
  {
    id: 'energy-drift',
    title: 'energy drift without damping',
    story:
      'No gravity, no damping, a squashed box let go: the exact energy is constant. Semi-implicit ' +
      'Euler keeps it within 1 %; midpoint (RK2) gains energy until it explodes; RK4 loses a few ' +
      'per cent; XPBD loses almost all of it within two seconds.',
    // Measured (k = 10^4 N/m, 10 substeps, start squashed to 70 %, E_start = 8.56 kJ): semi-implicit
    // Euler between 8.43 and 8.68 kJ over 10 s; midpoint 11.0 kJ at 1 s, 57 kJ at 4 s, 212 kJ at
    // 6 s, exploded at 6.90 s; RK4 8.55 kJ at 1 s, 8.39 kJ at 10 s; XPBD 2.3 kJ at 0.5 s, 0.27 kJ
    // at 2 s. (Explicit Euler would explode at 0.15 s, too fast to watch a drift.)
    setup: base({
      stiffness: 1e4,
      springDamping: 0,
      drag: 0,
      gravity: 0,
      start: 'squash',
      views: [view('semiImplicitEuler'), view('midpoint'), view('rk4'), view('xpbd')],
    }),
  },
  {
    id: 'pbd-vs-xpbd',
    title: 'PBD vs XPBD under more substeps',
    story:
      'PBD (stiffness 0.01 per iteration) at 5 and 40 substeps beside XPBD (k = 2000 N/m) at 5 and ' +
      '40: PBD sags at 5 and stands rigid at 40; XPBD sags the same at both, because its compliance ' +
      'is a material property rather than a per-iteration fraction.',
    // Measured (drag 1/s; last second of 10; top of the 1 m box / volume / max edge strain):
    // PBD@5 0.868 m / 92.9 % / 40 %, PBD@40 0.998 m / 99.9 % / 0.6 %; XPBD@5 0.881 m / 93.1 % /
    // 30 %, XPBD@40 0.875 m / 93.3 % / 30 %. (PBD at 10 and 20 substeps: 0.963 m and 0.991 m.)
    setup: base({
      stiffness: 2000,
      springDamping: 0,
      drag: 1,
      pbdStiffness: 0.01,
      views: [view('pbd', 5), view('pbd', 40), view('xpbd', 5), view('xpbd', 40)],
    }),
  },
  {
    id: 'stiff-cantilever',
    title: 'stiff cantilever',
    story:
      'A 1 m beam of E = 10 MPa clamped at one end; the red line is beam theory\'s sag, the green one ' +
      'the static equilibrium of this very mesh (a Newton solve). Implicit Euler solves each step ' +
      'exactly and settles on the green line; VBD with one sweep per substep is far from solved and keeps ' +
      'sagging (three times too soft after 10 s), with 8 sweeps 1.8 times too soft, with 32 on the green line. The gap between the lines is the mesh\'s, ' +
      'not a solver\'s: linear tets are too stiff in bending ("locking"), 61 % of beam theory at this ' +
      'resolution, 96 % at eight times the cells.',
    // Measured (scripts/compare_presets.mjs, last second of 10, 20 x 2 x 2 cells): tip sag implicit
    // Euler 89.2 mm, VBD x1 467.5 mm (101 mm at 1.5 s, still sagging at 10 s), x8 160 mm, x32 92.2 mm;
    // Euler-Bernoulli 147.1 mm. Physics
    // 18 / 0.6 / 4.8 / 19 ms per frame in node. (XPBD runs it too, one block constraint per tet
    // (docs, "Materials in pascals": 616, 239 and 102 mm at 1, 4 and 16 passes, the volume kept);
    // PBD cannot, and the page says so if a view is switched to it.)
    setup: base({
      scene: 'cantilever',
      resolution: 5,
      material: 'neo-hookean',
      youngsModulus: 1e7,
      poissonRatio: 0.3,
      springDamping: 0,
      drag: 5,
      views: [view('implicitEuler'), view('vbd', 10, 1), view('vbd', 10, 8), view('vbd', 10, 32)],
    }),
  },
  {
    id: 'hanging-sheet',
    title: 'hanging sheet (cloth)',
    story:
      'A 1 m sheet of cloth (Y = 100 N/m, 1 kg/m²) held along one edge, let go flat. Explicit Euler ' +
      'gains energy every step and tears the sheet apart before it has swung down; semi-implicit Euler, ' +
      'implicit Euler and XPBD, on the same stretch and bending energy, swing it down to hang at the same stretch.',
    // Measured (scripts/compare_presets.mjs hanging-sheet, 20 substeps, 9 x 10 cells): explicit Euler
    // exploded at 0.40 s; the other three stable, 14 J at the start, wobble 4 J at 0.5 s and 1 J at
    // 4 s (drag 0.5/s), resting max edge strain 14.3-14.4 %; physics 1.0 / 4.8 / 1.0 ms per frame in
    // node. At Y = 200 N/m and 10 substeps explicit Euler exploded at 0.15 s, at Y = 50 and 20 substeps
    // at 0.80 s (the sheet then stretches 24 %).
    setup: base({
      scene: 'sheet',
      stiffness: 100,
      springDamping: 0,
      drag: 0.5,
      views: [view('explicitEuler', 20), view('semiImplicitEuler', 20), view('implicitEuler', 20), view('xpbd', 20)],
    }),
  },
]);

export function findPreset(id) {
  return PRESETS.find((preset) => preset.id === id) ?? null;
}
