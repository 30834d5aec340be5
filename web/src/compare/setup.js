// What a comparison is: the scene, the shared physical parameters and, per view, the solver and its
// substeps. Plain data, no DOM and no wasm, so node scripts (scripts/compare_presets.mjs) use it too.
// The URL carries a whole setup (see toSearchParams / fromSearchParams), so an article can link
// straight to one comparison.
import { Solver } from '../softbody.js';

export const SOLVERS = Object.keys(Solver); // the bridge's names: 'xpbd', 'explicitEuler', ...

export const SOLVER_LABELS = Object.freeze({
  xpbd: 'XPBD',
  pbd: 'PBD',
  explicitEuler: 'explicit Euler',
  semiImplicitEuler: 'semi-implicit Euler',
  verlet: 'Verlet',
  midpoint: 'midpoint (RK2)',
  heun: 'Heun',
  rk4: 'RK4',
  implicitEuler: 'implicit Euler',
  vbd: 'VBD',
});

export const MIN_VIEWS = 2;
export const MAX_VIEWS = 4;

export const STARTS = Object.freeze({
  drop: 'dropped from 0.5 m',
  squash: 'squashed to 70 %',
});
export const SQUASH_START = 0.7; // the 'squash' start presses the body to 70 % of its height

// What the tets are made of (sb_material): the simple model's one stiffness k, or stable
// Neo-Hookean from E and nu (XPBD within its stiffness number, VBD and the force-based solvers; PBD refuses it).
export const MATERIALS = Object.freeze({
  simple: 'simple (stiffness k)',
  'neo-hookean': 'Neo-Hookean (E, ν)',
});

// Time steps the panel offers, as steps per simulated second (dt = 1/hz). A URL may ask for any
// value in RANGES.hz.
export const TIME_STEPS_HZ = [240, 120, 60, 30, 20];

// What the controls and the URL offer. Inside what the C API takes (softbody.h), so a value from
// here never fails there: stiffness in [1e2, 1e6] N/m keeps both compliances in (0, 10] for every
// scene. Values set from code beyond these go to the C API, which refuses what it cannot take.
export const RANGES = Object.freeze({
  resolution: { min: 2, max: 10, step: 1 },
  stiffness: { min: 1e2, max: 1e6, unit: 'N/m' },
  springDamping: { min: 0, max: 200, step: 1, unit: 'N s/m' },
  drag: { min: 0, max: 10, step: 0.05, unit: '1/s' },
  pbdStiffness: { min: 0, max: 1, step: 0.001 },
  gravity: { min: -30, max: 30, step: 0.01, unit: 'm/s²' },
  pressure: { min: 0, max: 1e5, step: 100, unit: 'J' },
  hz: { min: 10, max: 1000 },
  substeps: { min: 1, max: 200, step: 1 },
  iterations: { min: 1, max: 100, step: 1 },
  youngsModulus: { min: 1e3, max: 1e9, unit: 'Pa' },
  poissonRatio: { min: 0, max: 0.49, step: 0.01 },
});

// The page as it opens without parameters: four common integrators on a jelly box that all of
// them handle (k = 5000 N/m with 50 N s/m of spring damping: measured stable for 8 s, see
// presets.js). Push the stiffness to 1e4 and explicit Euler starts to buzz, at 2e4 it explodes.
export const DEFAULT_SETUP = Object.freeze({
  scene: 'box',
  resolution: 5, // box: cells per side (see scenes.js for the others)
  start: 'drop',
  stiffness: 5000, // N/m per edge spring: edge compliance 1/k, volume compliance L^4/k (lane.js)
  springDamping: 50, // N s/m along each edge
  drag: 0, // 1/s, velocity decay of every particle (the body's 'damping' parameter)
  pbdStiffness: 1, // PBD's fraction of each correction per iteration
  gravity: -9.81, // m/s^2 along y
  pressure: 4000, // J, nRT of the gas in the pressure ball (other scenes ignore it)
  hz: 60, // steps per simulated second: dt = 1/60 s per frame
  material: 'simple', // a MATERIALS key
  youngsModulus: 1e7, // Pa, Neo-Hookean only
  poissonRatio: 0.3, // Neo-Hookean only
  // Per view: the solver, its substeps, and its passes (XPBD/PBD) or sweeps (VBD) per substep.
  views: Object.freeze([
    Object.freeze({ solver: 'explicitEuler', substeps: 10, iterations: 1 }),
    Object.freeze({ solver: 'semiImplicitEuler', substeps: 10, iterations: 1 }),
    Object.freeze({ solver: 'implicitEuler', substeps: 10, iterations: 1 }),
    Object.freeze({ solver: 'xpbd', substeps: 10, iterations: 1 }),
  ]),
});

// Keys that rebuild every body (and so restart the comparison) when they change; the others are
// applied to the running bodies, so the stiffness can be pushed up live.
export const REBUILD_KEYS = ['scene', 'resolution', 'material'];
export const RESTART_KEYS = ['start'];

export function cloneSetup(setup) {
  return { ...setup, views: setup.views.map((v) => ({ ...v })) };
}

export function sameSetup(a, b) {
  const keys = Object.keys(DEFAULT_SETUP).filter((key) => key !== 'views');
  return (
    keys.every((key) => a[key] === b[key]) &&
    a.views.length === b.views.length &&
    a.views.every((view, i) => view.solver === b.views[i].solver && view.substeps === b.views[i].substeps && (view.iterations ?? 1) === (b.views[i].iterations ?? 1))
  );
}

// The view a newly added viewport gets: the default of that slot, else XPBD.
export function defaultView(index) {
  return { ...(DEFAULT_SETUP.views[index] ?? { solver: 'xpbd', substeps: 10, iterations: 1 }) };
}

// Short decimal form for the URL: 5000, 0.5, 1e-7 rather than 5000.000000001.
function formatNumber(value) {
  return String(Number(value.toPrecision(6)));
}

// URL parameter names, kept short so links stay readable.
const KEYS = Object.freeze({
  scene: 'scene',
  resolution: 'res',
  start: 'start',
  stiffness: 'k',
  springDamping: 'c',
  drag: 'drag',
  pbdStiffness: 'pbd',
  gravity: 'g',
  pressure: 'p',
  hz: 'hz',
  material: 'mat',
  youngsModulus: 'E',
  poissonRatio: 'nu',
});

// Writes a setup into params (other parameters, such as ?test, are kept).
export function toSearchParams(setup, params = new URLSearchParams()) {
  params.set(KEYS.scene, setup.scene);
  params.set(KEYS.resolution, String(setup.resolution));
  params.set(KEYS.start, setup.start);
  for (const key of ['stiffness', 'springDamping', 'drag', 'pbdStiffness', 'gravity', 'pressure', 'hz']) {
    params.set(KEYS[key], formatNumber(setup[key]));
  }
  params.set('solvers', setup.views.map((v) => v.solver).join(','));
  params.set('substeps', setup.views.map((v) => v.substeps).join(','));
  params.delete('views'); // implied by the solver list
  // Written only when used, so the links of simple comparisons stay as they were.
  if (setup.material !== 'simple') {
    params.set(KEYS.material, setup.material);
    params.set(KEYS.youngsModulus, formatNumber(setup.youngsModulus));
    params.set(KEYS.poissonRatio, formatNumber(setup.poissonRatio));
  } else for (const key of ['material', 'youngsModulus', 'poissonRatio']) params.delete(KEYS[key]);
  if (setup.views.some((v) => (v.iterations ?? 1) !== 1)) params.set('iters', setup.views.map((v) => v.iterations ?? 1).join(','));
  else params.delete('iters');
  return params;
}

// Reads a setup from URL parameters over the defaults. Never throws: every parameter that is
// malformed or out of range is replaced (by the default, or clamped into range) and described in
// notes, which the page shows. scenes: the scene names this build offers.
//   scene, res, start, k, c, drag, pbd, g, p, hz   shared values (see KEYS)
//   solvers=xpbd,explicitEuler,...                 one view per entry, 2 to 4
//   substeps=10,10,...                             per view, in the same order
//   iters=1,32,...                                 XPBD passes or VBD sweeps per substep, per view
//   mat=neo-hookean, E, nu                         the material (simple when absent)
//   views=N                                        view count; pads with default views or truncates
export function fromSearchParams(params, { scenes = ['box', 'ball'] } = {}) {
  const setup = cloneSetup(DEFAULT_SETUP);
  const notes = [];

  const scene = params.get(KEYS.scene);
  if (scene !== null) {
    if (scenes.includes(scene)) setup.scene = scene;
    else notes.push(`URL: scene "${scene}" is not available here (${scenes.join(', ')}); showing "${setup.scene}"`);
  }
  const material = params.get(KEYS.material);
  if (material !== null) {
    if (material in MATERIALS) setup.material = material;
    else notes.push(`URL: material "${material}" is not one of ${Object.keys(MATERIALS).join(', ')}`);
  }
  const start = params.get(KEYS.start);
  if (start !== null) {
    if (start in STARTS) setup.start = start;
    else notes.push(`URL: start "${start}" is not one of ${Object.keys(STARTS).join(', ')}`);
  }

  const readNumber = (key, name, { integer = false } = {}) => {
    const text = params.get(name);
    if (text === null) return;
    const value = Number(text);
    const { min, max } = RANGES[key];
    if (text.trim() === '' || !Number.isFinite(value)) {
      notes.push(`URL: ${name}=${text} is not a number; using ${setup[key]}`);
      return;
    }
    let v = integer ? Math.round(value) : value;
    if (v < min || v > max) {
      v = Math.min(max, Math.max(min, v));
      notes.push(`URL: ${name}=${text} is outside [${min}, ${max}]; using ${v}`);
    }
    setup[key] = v;
  };
  readNumber('resolution', KEYS.resolution, { integer: true });
  for (const key of ['stiffness', 'springDamping', 'drag', 'pbdStiffness', 'gravity', 'pressure', 'hz', 'youngsModulus', 'poissonRatio']) readNumber(key, KEYS[key]);

  const solvers = params.get('solvers');
  if (solvers !== null) {
    const views = [];
    for (const name of solvers.split(',')) {
      if (SOLVERS.includes(name)) views.push({ solver: name, substeps: 10, iterations: 1 });
      else notes.push(`URL: unknown solver "${name}" (one of ${SOLVERS.join(', ')})`);
    }
    if (views.length) setup.views = views;
  }
  // Per-view whole numbers, in the views' order: substeps=10,40 and iters=1,32.
  const readPerView = (name, key, what) => {
    const text = params.get(name);
    if (text === null) return;
    text.split(',').forEach((item, i) => {
      if (i >= setup.views.length) return;
      const n = Number(item);
      const { min, max } = RANGES[key];
      if (Number.isInteger(n) && n >= min && n <= max) setup.views[i][key] = n;
      else notes.push(`URL: ${what} "${item}" for view ${i + 1} is not an integer in [${min}, ${max}]`);
    });
  };
  readPerView('substeps', 'substeps', 'substeps');
  readPerView('iters', 'iterations', 'iterations');
  let count = setup.views.length;
  const views = params.get('views');
  if (views !== null) {
    const n = Number(views);
    if (Number.isInteger(n)) count = n;
    else notes.push(`URL: views=${views} is not a whole number`);
  }
  if (count < MIN_VIEWS || count > MAX_VIEWS) {
    const clamped = Math.min(MAX_VIEWS, Math.max(MIN_VIEWS, count));
    notes.push(`URL: ${count} views asked for; the page shows ${MIN_VIEWS} to ${MAX_VIEWS}, so ${clamped}`);
    count = clamped;
  }
  while (setup.views.length < count) setup.views.push(defaultView(setup.views.length));
  setup.views.length = count;

  return { setup, notes };
}

// Checks the values only the page interprets: the time step (dt = 1/hz; a bad one would fail every
// frame's step), the resolution (mapped per scene), the scene and the start. Everything else is
// handed to the C API, which checks it and explains a refusal in its own words (a toast).
export function checkValue(key, value) {
  if (key === 'material' && !(value in MATERIALS)) throw new Error(`material must be one of ${Object.keys(MATERIALS).join(', ')}, got ${value}`);
  if (key === 'scene' || key === 'start' || key === 'views' || key === 'material') return;
  if (key !== 'hz' && key !== 'resolution') return;
  const { min, max } = RANGES[key];
  const whole = key === 'resolution' ? Number.isInteger(value) : true;
  if (!Number.isFinite(value) || !whole || value < min || value > max) {
    throw new Error(`${key} must be ${whole ? '' : 'a whole number '}in [${min}, ${max}], got ${value}`);
  }
}
