// Every attribute of <soft-body>, in one table: its kebab-case name, the property it is reflected
// as, how its text is read, and what it changes. Plain data and parsing, no DOM and no wasm, so the
// iframe page (URL parameters are exactly the attributes), the docs table and node tests read the
// same list.
//
// Numbers are only checked for being numbers here; their ranges are the C API's, which refuses an
// out-of-range value with its own message (emscripten/softbody.h), so the element shows the C text.
// Values only the page interprets (dt, resolution, the lists) are range-checked here.

// Scene names: lattices and springs built by the C API at once, samples tetrahedralized in a worker.
export const SCENES = Object.freeze(['box', 'ball', 'bar', 'bunny', 'torus', 'sphere', 'rope', 'spring', 'jelly', 'pressure-ball', 'cloth']);
// scene="cloth": where the hanging sheet is held (cloth-pin).
export const CLOTH_PINS = Object.freeze(['top-corners', 'top-edge', 'none']);
export const SAMPLE_SCENES = Object.freeze(['bunny', 'torus', 'sphere']);
// The demo's scenes around the body (web/src/scenes/scene_presets.js SCENES, 'single' named 'none'
// here); kept as a list so this module stays free of the presets' geometry.
export const SCENERIES = Object.freeze(['none', 'pile', 'stairs', 'obstacles', 'funnel', 'paddle', 'heap']);

// Solver names as attributes spell them (kebab-case) -> the bridge's names (softbody.js Solver).
export const SOLVER_NAMES = Object.freeze({
  xpbd: 'xpbd',
  pbd: 'pbd',
  'explicit-euler': 'explicitEuler',
  'semi-implicit-euler': 'semiImplicitEuler',
  verlet: 'verlet',
  midpoint: 'midpoint',
  heun: 'heun',
  rk4: 'rk4',
  'implicit-euler': 'implicitEuler',
  vbd: 'vbd',
});
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
export const MAX_VIEWS = 4; // compare="..." shows 2 to 4 solvers side by side

export const STARTS = Object.freeze(['drop', 'squash']);
// material="..." -> sb_material (softbody.js Material).
export const MATERIALS = Object.freeze(['simple', 'neo-hookean']);
export const SQUASH_START = 0.7; // start="squash": pressed to 70 % of the height, as the comparison page does
export const PLOTS = Object.freeze(['none', 'energy', 'volume', 'both']);
export const LOADINGS = Object.freeze(['lazy', 'eager']);
export const REVEALS = Object.freeze(['auto', 'interaction', 'manual']);
export const BACKENDS = Object.freeze(['wasm', 'webgpu', 'auto']); // backend.js BACKENDS

// Default resolution per scene, in the scene's own unit (see figure.js SCENE_BUILDERS).
export const DEFAULT_RESOLUTION = Object.freeze({
  box: 6, // cells per side
  ball: 8, // cells across the diameter
  bar: 8, // 2n cells along the 1.6 m bar, n/4 across
  jelly: 4, // lattice cells per side
  'pressure-ball': 8, // skin cells across the diameter
  rope: 5, // 4 segments per step
  spring: 1, // springs in series
  cloth: 16, // triangle bases along each side of the sheet
  bunny: 10, // tetrahedralizer grid cells along the longest side
  torus: 10,
  sphere: 10,
  src: 10,
});

// kind: how the text is read (see parseAttribute). apply: what a change does.
//   'rebuild'  new bodies (scene, src, resolution, compare)
//   'restart'  every view back to its start state (start)
//   'body'     sb_body_set_param on every view's body, live (param: the bridge's name)
//   'world'    a world setting of every view, live
//   'solver'   the body's solver, live
//   'element'  only the element's own behaviour (controls, plot, camera, playback, poster, dt,
//              accessibility, loading and interaction)
// slider: the range a `controls="..."` slider offers (log: the slider moves log10 of the value and
// its leftmost position is exactly 0). unit: shown next to the value.
export const ATTRIBUTES = Object.freeze([
  { name: 'scene', kind: 'enum', values: SCENES, default: 'box', apply: 'rebuild', doc: 'what to simulate' },
  { name: 'scenery', kind: 'enum', values: SCENERIES, default: 'none', apply: 'rebuild', doc: 'the demo\'s scenes around the body, the same in every view: pile (20 boxes, balls and bunnies into a bowl), stairs, obstacles (spheres, capsules, sheets draped over them), funnel, paddle (a turning paddle), heap (heap-count small boxes and balls into a pen of four walls: a scene for backend="webgpu"); the body is grabbed, the rest is scenery, except the heap, whose every body is grabbed' },
  { name: 'heap-count', kind: 'integer', min: 1, max: 2000, default: 100, apply: 'rebuild', doc: 'scenery="heap": how many small boxes and balls are dropped (hundreds are for a GPU; every body may touch every other)' },
  { name: 'src', kind: 'url', default: null, apply: 'rebuild', doc: 'a mesh or tet file to simulate instead of the scene (OBJ, STL, PLY, glTF/GLB, softbody tet JSON, or a TetGen pair "a.node a.ele"; or one data: URL typed model/obj, model/stl, model/x-ply, model/gltf-binary, model/gltf+json or application/json)' },
  { name: 'resolution', kind: 'integer', min: 1, max: 64, default: null, apply: 'rebuild', doc: 'detail, in the scene\'s unit: box cells per side (6), ball/pressure-ball cells across (8), bar 2·n cells along (8), jelly cells (4), rope 4·n segments (5), spring n springs in series (1), cloth n cells along each side (16), tetrahedralizer grid cells for samples and src (10)' },
  { name: 'cloth-size', kind: 'number', min: 0.1, max: 10, default: 1, unit: 'm', apply: 'rebuild', doc: 'scene="cloth": the side of the square sheet, hung facing the camera with its bottom edge 0.2 m above the ground' },
  { name: 'cloth-pin', kind: 'enum', values: CLOTH_PINS, default: 'top-corners', apply: 'rebuild', doc: 'scene="cloth": what holds the sheet: its two top corners, its whole top edge (a curtain), or nothing (it falls)' },
  { name: 'max-tets', kind: 'integer', min: 0, max: 2147483647, default: null, apply: 'rebuild', doc: 'the most tets a src file or sample may give: a surface is refused before it is meshed when its estimate is above this (unless thin-parts chooses), a tet file after it is read; unset or 0: no bound (embed.html: 150,000)' },
  { name: 'thin-parts', kind: 'enum', values: ['sample', 'thicken', 'coarsen', 'drop'], default: 'sample', apply: 'rebuild', doc: 'when thin parts (sampled by their thickness) take a surface over max-tets: sample refuses with the estimate; thicken offsets them outward until the bound meshes them (the shape and volume change); coarsen samples them as far apart as the bound allows; drop removes the parts thinner than the bound meshes (refused when every part is that thin)' },
  { name: 'solver', kind: 'solver', default: 'xpbd', apply: 'solver', doc: 'xpbd, pbd, explicit-euler, semi-implicit-euler, verlet, midpoint, heun, rk4, implicit-euler, vbd' },
  { name: 'compare', kind: 'solvers', default: null, apply: 'rebuild', doc: '2 to 4 solvers side by side, same body, same start, one fair grab (overrides solver)' },
  { name: 'start', kind: 'enum', values: STARTS, default: 'drop', apply: 'restart', doc: 'drop: released at rest 0.5 m up; squash: pressed to 70 % of its height, released at rest' },
  { name: 'stiffness', kind: 'number', default: null, unit: 'N/m', apply: 'body', slider: { log: true, min: 2, max: 6, step: 0.05 }, doc: 'one stiffness k for all: edge compliance 1/k and volume compliance L⁴/k (L the mean rest edge), as on the comparison page; overrides edge-compliance and volume-compliance' },
  { name: 'edge-compliance', param: 'edgeCompliance', kind: 'number', default: 1e-4, unit: 'm/N', apply: 'body', slider: { log: true, min: -7, max: -1, step: 0.1, zero: true }, doc: 'α of every edge, 1/k' },
  { name: 'volume-compliance', param: 'volumeCompliance', kind: 'number', default: null, unit: 'm⁵/N', apply: 'body', slider: { log: true, min: -10, max: -3, step: 0.1, zero: true }, doc: 'α of every tet\'s C = 6(V − V0); unset: 0 (incompressible) under XPBD and PBD, L⁴ × edge compliance under force-based solvers' },
  { name: 'density', param: 'density', kind: 'number', default: 1000, unit: 'kg/m³', apply: 'body', slider: { min: 50, max: 5000, step: 10 }, doc: 'sets the vertex masses' },
  { name: 'damping', param: 'damping', kind: 'number', default: 1, unit: '1/s', apply: 'body', slider: { min: 0, max: 10, step: 0.05 }, doc: 'velocities decay as exp(−damping·t)' },
  { name: 'spring-damping', param: 'springDamping', kind: 'number', default: 0, unit: 'N s/m', apply: 'body', slider: { min: 0, max: 200, step: 1 }, doc: 'f = −c dl/dt along each edge' },
  { name: 'pbd-stiffness', param: 'pbdStiffness', kind: 'number', default: 1, apply: 'body', slider: { min: 0, max: 1, step: 0.01 }, doc: 'PBD only: fraction of each correction per iteration' },
  { name: 'pressure', param: 'pressure', kind: 'number', default: null, unit: 'J', apply: 'body', slider: { min: 0, max: 20000, step: 100 }, doc: 'nRT of the gas inside a closed surface (pressure-ball: 4000 J unless set)' },
  { name: 'restitution', param: 'restitution', kind: 'number', default: 0.2, apply: 'body', slider: { min: 0, max: 1, step: 0.01 }, doc: 'ground bounce' },
  { name: 'friction', param: 'friction', kind: 'number', default: 0.5, apply: 'body', slider: { min: 0, max: 2, step: 0.01 }, doc: 'Coulomb coefficient against the ground' },
  { name: 'grab-radius', param: 'grabRadius', kind: 'number', default: 0.15, unit: 'm', apply: 'body', slider: { min: 0, max: 0.5, step: 0.01 }, doc: 'the pointer holds the particles this close to the grabbed one' },
  { name: 'grab-compliance', param: 'grabCompliance', kind: 'number', default: 0, unit: 'm/N', apply: 'body', slider: { log: true, min: -6, max: 0, step: 0.1, zero: true }, doc: '0: grabbed particles follow the pointer exactly (under vbd at most 10 m/s: a fast pointer is trailed)' },
  { name: 'material', param: 'material', kind: 'enum', values: MATERIALS, default: 'simple', apply: 'body', doc: 'simple: edge and volume compliance (per constraint, so the mesh changes the body); neo-hookean: stable Neo-Hookean tets from youngs-modulus and poisson-ratio, the same body at any resolution (any solver but pbd; under xpbd up to a stiffness number per substep, refused beyond with the substeps it needs)' },
  { name: 'youngs-modulus', param: 'youngsModulus', kind: 'number', min: 1, max: 1e12, default: 1e5, unit: 'Pa', apply: 'body', slider: { log: true, min: 3, max: 8, step: 0.1 }, doc: 'E of neo-hookean: gelatin ~1e4, soft silicone ~1e5, rubber 1e6 to 1e7' },
  { name: 'poisson-ratio', param: 'poissonRatio', kind: 'number', min: 0, max: 0.499, default: 0.45, apply: 'body', slider: { min: 0, max: 0.49, step: 0.01 }, doc: 'ν of neo-hookean, 0 to 0.499 (0.49: nearly incompressible, like rubber)' },
  { name: 'strain-smoothing', param: 'strainSmoothing', kind: 'number', min: 0, max: 1, default: 0, apply: 'body', slider: { min: 0, max: 1, step: 0.05 }, doc: 'neo-hookean under a force-based solver (implicit-euler and the other integrators) only: the share of the energy taken by node-smoothed strain, against linear tets being too stiff in bending (0.7: a beam 2 cells thick bends 0.96 of beam theory where plain tets give 0.6); 0 plain tets, to 1' },
  { name: 'plastic-yield', param: 'plasticYield', kind: 'number', min: 0, max: 10, default: 0.1, apply: 'body', slider: { min: 0, max: 0.3, step: 0.005 }, doc: 'strain past which a tet\'s rest shape flows (plasticity; a uniaxial stretch by e is about e), 0 to 10' },
  { name: 'plastic-creep', param: 'plasticCreep', kind: 'number', min: 0, max: 1000, default: 0, unit: '1/s', apply: 'body', slider: { log: true, min: -1, max: 2.5, step: 0.05, zero: true }, doc: 'how fast the rest shape follows the strain beyond plastic-yield: 0 elastic (default), 60 and up takes it all each frame (clay); bodies with tets only' },
  { name: 'areal-density', param: 'arealDensity', kind: 'number', min: 1e-4, max: 1e3, default: 0.2, unit: 'kg/m²', apply: 'body', slider: { log: true, min: -2, max: 1, step: 0.05 }, doc: 'cloth only: mass per area of the sheet, 1e-4 to 1000' },
  { name: 'bending-stiffness', param: 'bendingStiffness', kind: 'number', min: 0, max: 1e3, default: 1e-5, unit: 'N m', apply: 'body', slider: { log: true, min: -7, max: -1, step: 0.05, zero: true }, doc: 'cloth only: D of the bending energy (cotton 1e-5, card 1e-2), 0 to 1000' },
  { name: 'thickness', param: 'thickness', kind: 'number', min: 0, max: 0.1, default: 0.002, unit: 'm', apply: 'body', slider: { min: 0, max: 0.02, step: 0.0005 }, doc: 'cloth only: half of it is kept from the ground, 0 to 0.1' },
  { name: 'stiffness-target', param: 'stiffnessTarget', kind: 'number', min: 0, max: 0.999, default: 0.95, apply: 'body', slider: { min: 0, max: 0.99, step: 0.01 }, doc: 'neo-hookean under xpbd, and vbd: passes run each substep until this share of the material\'s stiffness is reached (0.95: sags at most about 1/0.95 of the static answer) or max-iterations are spent; 0 runs iterations passes instead' },
  { name: 'max-iterations', param: 'maxIterations', kind: 'integer', min: 1, max: 100, default: 4, apply: 'body', slider: { min: 1, max: 32, step: 1 }, doc: 'the budget of passes or sweeps per substep while stiffness-target is set' },
  { name: 'long-range-stretch', param: 'longRangeStretch', kind: 'number', min: 0, max: 10, default: 0, apply: 'body', slider: { min: 0, max: 1.5, step: 0.01 }, doc: 'cloth only: 0 off; else no particle gets farther from its nearest pinned one than this × its rest distance along the sheet (1: none past it), 0 to 10' },
  { name: 'drag-coefficient', param: 'dragCoefficient', kind: 'number', min: 0, max: 10, default: 0, apply: 'body', slider: { min: 0, max: 3, step: 0.05 }, doc: 'cloth only: C_d of each triangle in the wind (flat plate ~1.2; 0 no air), 0 to 10' },
  { name: 'lift-coefficient', param: 'liftCoefficient', kind: 'number', min: 0, max: 10, default: 0, apply: 'body', slider: { min: 0, max: 2, step: 0.05 }, doc: 'cloth only: C_l, the wind\'s push across its flow, 0 to 10' },
  { name: 'tear-strain', param: 'tearStrain', kind: 'number', min: 0, max: 10, default: 0, apply: 'body', slider: { min: 0, max: 1, step: 0.01 }, doc: 'cloth only: 0 never tears; else an edge stretched past this strain (0.3: 30 % longer than at rest) breaks and the sheet tears across it, 0.01 to 10; reset mends it' },
  { name: 'iterations', param: 'iterations', kind: 'integer', min: 1, max: 100, default: 1, apply: 'body', slider: { min: 1, max: 32, step: 1 }, doc: 'XPBD/PBD passes or VBD sweeps per substep where no stiffness target applies (the simple material, or stiffness-target 0)' },
  { name: 'backend', kind: 'enum', values: BACKENDS, default: 'wasm', apply: 'rebuild', doc: 'wasm (every feature), webgpu (XPBD tet bodies on the GPU, grabbable; sceneries with mesh colliders, cloth or wind stay on wasm: docs/gpu.md) or auto (WebGPU when there is an adapter, the figure runs nothing WebGPU lacks and the scene has 30,000 tets or more); the figure falls back to wasm rather than break, and its label says which it got and why' },
  { name: 'substeps', kind: 'integer', default: 10, apply: 'world', slider: { min: 1, max: 50, step: 1 }, doc: 'substeps per frame' },
  { name: 'gravity', kind: 'number', default: -9.81, unit: 'm/s²', apply: 'world', slider: { min: -30, max: 30, step: 0.1 }, doc: 'along y' },
  { name: 'ground', kind: 'boolean', default: true, apply: 'world', doc: 'the floor y = 0 ("false" removes it)' },
  { name: 'dt', kind: 'number', min: 1e-4, max: 0.1, default: 1 / 60, unit: 's', apply: 'element', slider: { log: true, min: -3, max: -1, step: 0.05 }, doc: 'simulated seconds per frame' },
  { name: 'controls', kind: 'controls', default: 'minimal', apply: 'element', doc: 'none, minimal (play/pause and reset), or attribute names to show as sliders, e.g. "edge-compliance substeps"' },
  { name: 'plot', kind: 'enum', values: PLOTS, default: 'none', apply: 'element', doc: 'a live plot of total energy, volume, or both, one line per view' },
  { name: 'autoplay', kind: 'boolean', default: false, apply: 'element', doc: 'play when first visible (otherwise a play button); prefers-reduced-motion keeps it paused' },
  { name: 'camera', kind: 'camera', default: null, apply: 'element', doc: '"x y z" camera position, or "x y z tx ty tz" with the point it looks at (m)' },
  { name: 'poster', kind: 'url', default: null, apply: 'element', doc: 'an image shown until the first frame' },
  { name: 'alt', kind: 'text', default: null, apply: 'element', doc: 'what the figure shows, in words: its accessible name (the figure\'s aria-label, with role figure), also shown in the box if the simulation cannot start' },
  { name: 'loading', kind: 'enum', values: LOADINGS, default: 'lazy', apply: 'element', doc: 'lazy: load when within about a viewport of being seen; eager: load at once' },
  { name: 'reveal', kind: 'enum', values: REVEALS, default: 'auto', apply: 'element', doc: 'auto: show the simulation once drawn; interaction: nothing is loaded until the reader clicks, taps or presses Enter on the figure, which then plays; manual: until the page calls dismissPoster() (loading="eager" loads in advance for both)' },
  { name: 'interactive', kind: 'boolean', default: true, apply: 'element', doc: '"false": a figure that only plays: no grabbing, orbiting or zooming, not in the tab order, touches scroll the page' },
  { name: 'disable-zoom', kind: 'boolean', default: false, apply: 'element', doc: 'the wheel, pinch and + − never zoom (the wheel always scrolls the page)' },
  { name: 'camera-follow', kind: 'boolean', default: true, apply: 'element', doc: 'the camera glides after a body that leaves the middle of the view and keeps its centre in view ("off" holds it still)' },
]);

export const ATTRIBUTE_NAMES = Object.freeze(ATTRIBUTES.map((a) => a.name));
const BY_NAME = new Map(ATTRIBUTES.map((a) => [a.name, a]));

export function attributeInfo(name) {
  return BY_NAME.get(name) ?? null;
}

// 'edge-compliance' -> 'edgeCompliance'
export function propertyName(name) {
  return name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
}
// 'edgeCompliance' or 'edge-compliance' -> 'edge-compliance'
export function attributeName(name) {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

// A solver name as written in an attribute, kebab-case or the bridge's camelCase.
function readSolver(text) {
  const key = text.trim();
  if (key in SOLVER_NAMES) return SOLVER_NAMES[key];
  if (Object.values(SOLVER_NAMES).includes(key)) return key;
  throw new Error(`unknown solver "${key}" (one of ${Object.keys(SOLVER_NAMES).join(', ')})`);
}

function words(text) {
  return text.split(/[\s,]+/).filter(Boolean);
}

// Reads an attribute's text into its value. null text (the attribute removed) gives the default.
// Throws an Error whose message is the short sentence the element shows.
export function parseAttribute(name, text) {
  const info = BY_NAME.get(name);
  if (!info) throw new Error(`unknown attribute "${name}"`);
  if (text === null || text === undefined) return info.default;
  const raw = String(text).trim();
  switch (info.kind) {
    case 'enum':
      if (!info.values.includes(raw)) throw new Error(`${name}="${raw}" is not one of ${info.values.join(', ')}`);
      return raw;
    case 'url':
    case 'text':
      return raw === '' ? null : raw;
    case 'boolean':
      // HTML style: present means true; "false", "off", "0" and "no" mean false.
      return !['false', 'off', '0', 'no'].includes(raw.toLowerCase());
    case 'number':
    case 'integer': {
      const value = Number(raw);
      if (raw === '' || !Number.isFinite(value)) throw new Error(`${name}="${raw}" is not a number`);
      if (info.kind === 'integer' && !Number.isInteger(value)) throw new Error(`${name}="${raw}" is not a whole number`);
      if (info.min !== undefined && (value < info.min || value > info.max)) {
        throw new Error(`${name} must be in [${info.min}, ${info.max}], got ${raw}`);
      }
      return value;
    }
    case 'solver':
      return readSolver(raw);
    case 'solvers': {
      if (raw === '') return null;
      const list = words(raw).map(readSolver);
      if (list.length < 2 || list.length > MAX_VIEWS) throw new Error(`compare needs 2 to ${MAX_VIEWS} solvers, got ${list.length}`);
      return list;
    }
    case 'controls': {
      const list = words(raw);
      if (list.length === 0 || (list.length === 1 && list[0] === 'minimal')) return 'minimal';
      if (list.length === 1 && list[0] === 'none') return 'none';
      for (const item of list) {
        if (!BY_NAME.get(item)?.slider) {
          const offered = ATTRIBUTES.filter((a) => a.slider).map((a) => a.name);
          throw new Error(`controls: "${item}" has no slider (none, minimal, or any of ${offered.join(', ')})`);
        }
      }
      return list;
    }
    case 'camera': {
      const numbers = words(raw).map(Number);
      if ((numbers.length !== 3 && numbers.length !== 6) || !numbers.every(Number.isFinite)) {
        throw new Error(`camera="${raw}" needs 3 numbers (position) or 6 (position, then target), in m`);
      }
      return { position: numbers.slice(0, 3), target: numbers.length === 6 ? numbers.slice(3) : null };
    }
    default:
      throw new Error(`attribute "${name}" has no reader`);
  }
}

// The value as attribute text (for reflecting properties and for "copy embed code").
export function formatAttribute(name, value) {
  const info = BY_NAME.get(name);
  if (value === null || value === undefined) return null;
  switch (info.kind) {
    case 'boolean':
      return value ? '' : 'false';
    case 'solver':
      return attributeName(value);
    case 'solvers':
      return value.map(attributeName).join(' ');
    case 'controls':
      return Array.isArray(value) ? value.join(' ') : value;
    case 'camera':
      return [...value.position, ...(value.target ?? [])].map((v) => String(Number(v.toPrecision(6)))).join(' ');
    case 'number':
    case 'integer':
      return String(Number(value.toPrecision(6)));
    default:
      return String(value);
  }
}
