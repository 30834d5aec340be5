// Demo defaults and the slider ranges the panel offers. The C API accepts wider ranges
// (emscripten/softbody.h); these are the ones that make an interesting demo.
//
// Defaults were chosen by dropping a 1 m, 8-cell box from 0.5 m in node (10 substeps, 1/60 s
// frames) and lifting it by one particle. Behaviour depends on compliance x density: at 1e-4 m/N
// and 1000 kg/m^3 it lands with a clear jiggle (top +-8 %), settles upright within ~2 s and can
// be lifted by the grabbed particle. At 5e-4 m/N it looks softer at rest but a grab only pulls
// a long spike out of the one-tonne body instead of lifting it.

export const DT = 1 / 60; // s per rendered frame, fixed so a run is deterministic for a given input

export const DEFAULTS = Object.freeze({
  shape: 'box', // 'box' | 'ball' | 'bar' (lattices), or the name of the sample or file the body came from
  resolution: 8, // box: cells per side; ball: cells across the diameter (rounded up to even)
  edgeCompliance: 1e-4, // m/N
  volumeCompliance: 0, // m^5/N, 0 = incompressible
  density: 1000, // kg/m^3
  damping: 1, // 1/s
  grabRadius: 0.15, // m: the pointer holds a patch, not a single particle (which pulls spikes)
  restitution: 0.2,
  friction: 0.5,
  substeps: 10,
  gravity: -9.81, // m/s^2 along y
  selfCollision: false, // every body's surface against itself (sb_body_set_self_collision)
  material: 'simple', // a MATERIAL_PRESETS name: what the bodies are made of, and the solver that runs it
  youngsModulus: 1e5, // Pa, Neo-Hookean presets
  poissonRatio: 0.45, // Neo-Hookean presets
  iterations: 1, // XPBD passes or VBD sweeps per substep, where no target applies (the simple material)
  // Convergence by target (docs/solvers.md): Neo-Hookean bodies under XPBD and VBD run passes until
  // 95 % of their material's stiffness is reached, at most 4 per substep (the page's budget: on the
  // 8-cell 1 m box resting on the ground, node, silicone ran 2.5 passes per substep on average and
  // rubber 3.7, where 8 allowed 5.0 and 7.1 for little visible change; docs/limitations.md).
  stiffnessTarget: 0.95,
  maxIterations: 4,
  plasticYield: 0.1, // equivalent strain past which the rest shape flows
  plasticCreep: 0, // 1/s; 0 = elastic
});

// Materials with real values. The Neo-Hookean ones (neoHookean: true) run under XPBD, one block
// constraint per tet (docs "Materials in pascals"), one pass: on the default 8-cell box dropped from
// 0.5 m (node, 10 substeps) rubber bounces 12 % of its height and settles, and every preset keeps the
// volume VBD keeps (gelatin 0.988 while it slumps, silicone 0.995, rubber 0.999); their stiffness
// numbers (0.1, 0.3, 23) are far below XPBD's limit of 500. A tetrahedralized sample can be past it
// (its smallest, lightest tets: the 1 m bunny in rubber is 37,700, and jitters under XPBD): a body XPBD
// refuses runs the preset under VBD instead (fallback: the sweeps chosen for VBD on the box; at 1 sweep
// rubber bounced 17 % above its height), and the readout names the solver. A 1 m gelatin block cannot
// hold itself up (rho g h ~ E): it slumps to ~75 % of its height, as a real one would. Clay and soft
// metal are the simple model under XPBD with plasticity, measured on the default box in node: clay
// (yield 5 %) dents on landing from 0.5 m (86 % of its height) and keeps a squash to 30 % at 50 %;
// soft metal (yield 2 %, stiffer, 4 passes: at 1e-5 m/N one pass leaves a squashed box tangled)
// lands at 97 % and keeps the squash at 39 %. Reset gives back the creation shape.
export const MATERIAL_PRESETS = Object.freeze({
  simple: { label: 'simple (sliders)', solver: 'xpbd', params: { iterations: 1, plasticCreep: 0 } },
  gelatin: { label: 'gelatin 10 kPa', solver: 'xpbd', neoHookean: true, fallback: { solver: 'vbd', iterations: 2 }, params: { youngsModulus: 1e4, poissonRatio: 0.49, iterations: 1, plasticCreep: 0 } },
  silicone: { label: 'soft silicone 100 kPa', solver: 'xpbd', neoHookean: true, fallback: { solver: 'vbd', iterations: 2 }, params: { youngsModulus: 1e5, poissonRatio: 0.45, iterations: 1, plasticCreep: 0 } },
  rubber: { label: 'rubber 2 MPa', solver: 'xpbd', neoHookean: true, fallback: { solver: 'vbd', iterations: 4 }, params: { youngsModulus: 2e6, poissonRatio: 0.49, iterations: 1, plasticCreep: 0 } },
  clay: { label: 'clay (plastic)', solver: 'xpbd', params: { edgeCompliance: 1e-4, iterations: 1, plasticYield: 0.05, plasticCreep: 60 } },
  softMetal: { label: 'soft metal (plastic)', solver: 'xpbd', params: { edgeCompliance: 1e-5, iterations: 4, plasticYield: 0.02, plasticCreep: 100 } },
});
// Under VBD the simple model's compliances must be > 0 for a moment while the material switches
// (both ways round); the Neo-Hookean body ignores them. Used for both (m/N for edges, m^5/N for tets).
export const VBD_SPARE_COMPLIANCE = 1e-8;

export const MAX_EXTRA_BODIES = 40; // "add body" and scenes; the pile uses 20

// Parameters that map one-to-one onto Body.setParam names.
export const BODY_PARAMS = ['edgeCompliance', 'volumeCompliance', 'density', 'damping', 'restitution', 'friction', 'grabRadius', 'youngsModulus', 'poissonRatio', 'iterations', 'stiffnessTarget', 'maxIterations', 'plasticYield', 'plasticCreep'];

export const SHAPES = Object.freeze({
  box: { size: [1, 1, 1], center: [0, 1.0, 0] }, // m; bottom starts 0.5 m above the ground
  ball: { radius: 0.55, center: [0, 1.05, 0] },
  // A 1.6 m bar, 2 resolution cells along and a quarter of that across: grab an end and bend it
  // (the soft-metal preset keeps the bend).
  bar: { size: [1.6, 0.2, 0.2], center: [0, 0.6, 0] },
});

// The shape menu: lattices built by the C API at once, then sample surfaces that go through the
// tetrahedralizer like an imported file (import/samples.js).
export const LATTICE_SHAPES = Object.freeze(['box', 'ball', 'bar']);
export const SAMPLE_SHAPES = Object.freeze(['bunny', 'torus', 'sphere']);

// Tetrahedralizer options for samples and imported surfaces (sb_tetra_create).
export const MESH_DEFAULTS = Object.freeze({
  meshResolution: 10, // interior grid cells along the longest side (the mesh is 1 m: 10 cm cells)
  minQuality: 0.02, // tets below this quality are removed; 1 = regular tet, 0 = flat
  // A bound on an import's tets (sb_tetra_set_max_tets): the import is refused before it runs when
  // the estimate is above it, with the estimate and the thin parts that drive it. 0: no bound.
  maxTets: 0,
  // When thin parts take an import over maxTets: 'ask' (offer more tets, thickening or coarser
  // meshing), 'thicken', 'coarsen' or 'drop' at once (sb_tetra_set_thin_parts).
  thinParts: 'ask',
});
// The Mesh folder's labels for thinParts.
export const THIN_PARTS_LABELS = Object.freeze({ 'ask when over max tets': 'ask', 'thicken them': 'thicken', 'mesh them coarser': 'coarsen', 'drop them': 'drop' });
export const MESH_RANGES = Object.freeze({
  meshResolution: { min: 1, max: 40, step: 1 },
  minQuality: { min: 0, max: 0.3, step: 0.005 },
  maxTets: { min: 0, max: 300000, step: 1000 },
});

export const TET_SHRINK = 0.8; // "show tets": each tet drawn at 80 % of its size about its centroid

export const SQUASH_FACTOR = 0.3; // the "squash" button flattens to 30 % of the height
// ...and a plate lets it rise back over this many seconds of simulated time (sb_body_press). Released
// at once (sb_body_squash) the default box's stored energy throws it ~4 m up, out of the picture.
// Measured on the default box (node, 10 substeps): release 0.2 s lifts the centre of mass 12 cm and
// the bottom 11 cm off the ground; 0.3 s: 5.1 cm and 0.6 cm; 0.5 s: 4.2 cm, the bottom stays down and
// the box is back to 95 % of its height after 0.47 s; 1 s: 2.7 cm, but a slow, dull rise.
export const SQUASH_RELEASE_S = 0.5;

// Slider ranges. Log sliders move the exponent (log10 of the value); their leftmost position
// means exactly 0, which is a meaningful setting (rigid edges, incompressible volume).
export const RANGES = Object.freeze({
  resolution: { min: 2, max: 20, step: 1 },
  edgeCompliance: { log: true, min: -7, max: -1, step: 0.1, unit: 'm/N' },
  volumeCompliance: { log: true, min: -10, max: -3, step: 0.1, unit: 'm⁵/N' },
  density: { min: 50, max: 5000, step: 10, unit: 'kg/m³' },
  damping: { min: 0, max: 10, step: 0.05, unit: '1/s' },
  grabRadius: { min: 0, max: 0.5, step: 0.01, unit: 'm' },
  restitution: { min: 0, max: 1, step: 0.01 },
  friction: { min: 0, max: 2, step: 0.01 },
  substeps: { min: 1, max: 50, step: 1 },
  gravity: { min: -30, max: 30, step: 0.01, unit: 'm/s²' },
  youngsModulus: { log: true, min: 3, max: 8, step: 0.05, unit: 'Pa' },
  poissonRatio: { min: 0, max: 0.49, step: 0.01 },
  iterations: { min: 1, max: 32, step: 1 },
  stiffnessTarget: { min: 0, max: 0.99, step: 0.01 }, // 0: `iterations` passes
  maxIterations: { min: 1, max: 32, step: 1 },
  plasticYield: { min: 0, max: 0.3, step: 0.005 },
  plasticCreep: { log: true, min: -1, max: 2.5, step: 0.05, unit: '1/s' },
});
