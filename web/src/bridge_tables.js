// The bridge's tables (softbody.js re-exports every one): the C API's enums and limits as frozen
// name -> id maps (emscripten/softbody.h), and the error class every refusal throws. No imports, so
// bridge_args.js, collider.js and bridge_body.js take them from here without an import cycle.

// sb_collider_param
export const ColliderParam = Object.freeze({ friction: 0, restitution: 1 });

export const Param = Object.freeze({
  edgeCompliance: 0, // m/N
  volumeCompliance: 1, // m^5/N
  density: 2, // kg/m^3
  damping: 3, // 1/s
  restitution: 4,
  friction: 5,
  grabCompliance: 6, // m/N
  grabRadius: 7, // m: vertices this close to the grabbed one are held with it
  springDamping: 8, // N s/m along each edge
  pbdStiffness: 9, // PBD only, 0..1
  pressure: 10, // nRT of the gas inside a closed surface, J
  iterations: 11, // XPBD/PBD passes or VBD sweeps per substep, 1..100 (stats().residual says how far from solved)
  material: 12, // Material.simple or Material.neoHookean
  youngsModulus: 13, // Pa, Neo-Hookean
  poissonRatio: 14, // [0, 0.499], Neo-Hookean
  plasticYield: 15, // equivalent strain past which tets flow, [0, 10]
  plasticCreep: 16, // 1/s, how fast the rest shape follows (0 = elastic), [0, 1000]
  // Cloth only (World.addCloth*); for cloth, edgeCompliance is the sheet's in-plane compliance 1/Y (m/N).
  arealDensity: 17, // kg/m^2, [1e-4, 1e3]
  bendingStiffness: 18, // N m, D of 1/2 D kappa^2 per m^2, [0, 1e3]
  thickness: 19, // m, half of it kept from the ground, [0, 0.1]
  stiffnessTarget: 20, // 0 (off: `iterations` passes) or [0.01, 0.999]: passes run until reached (convergence.js)
  maxIterations: 21, // 1..100, the budget of passes or sweeps per substep while a target is set
  longRangeStretch: 22, // 0 = off; else no vertex farther from its nearest pin than this x its rest distance along the sheet, [0, 10]
  dragCoefficient: 23, // C_d of each triangle in the wind (World.setWind, web/src/wind.js), [0, 10]
  liftCoefficient: 24, // C_l, [0, 10]
  tearStrain: 26, // 0 = never; else an edge stretched past this strain breaks and the sheet tears, [0.01, 10]
  strainSmoothing: 27, // [0, 1], Neo-Hookean under a force-based solver: node-smoothed share of the energy against bending locking (0.7: a beam 2 cells thick bends 0.96 of theory)
});

// sb_material: the simple model (edge and volume compliance, mesh-dependent) or stable Neo-Hookean
// tets from Young's modulus and Poisson's ratio (the same body at any resolution; VBD or an integrator).
export const Material = Object.freeze({ simple: 0, neoHookean: 1 });

export const ErrorCode = Object.freeze({
  OK: 0,
  INVALID_WORLD: -1,
  INVALID_BODY: -2,
  NULL_POINTER: -3,
  BAD_COUNT: -4,
  INDEX_OUT_OF_RANGE: -5,
  NOT_FINITE: -6,
  DEGENERATE_TET: -7,
  INVERTED_TET: -8,
  UNUSED_VERTEX: -9,
  OUT_OF_RANGE: -10,
  UNKNOWN_PARAM: -11,
  LIMIT: -12,
  DIVERGED: -13,
  NOT_GRABBING: -14,
  UNKNOWN_SOLVER: -15,
  NEEDS_COMPLIANCE: -16,
  EMPTY_MESH: -17,
  FLAT_MESH: -18,
  NO_INSIDE_TETS: -19,
  TOO_LARGE: -20,
  INVALID_TETRA: -21,
  NOT_READY: -22,
  INVALID_COLLIDER: -23,
  MATERIAL_SOLVER: -24,
  DEGENERATE_TRIANGLE: -25,
  NON_MANIFOLD: -26,
  NOT_CLOTH: -27,
});

// XPBD runs the Neo-Hookean material up to this stiffness number per substep (SB_XPBD_NEO_HOOKEAN_MAX_STIFFNESS;
// Body.stats().stiffnessNumber); calls that would exceed it throw SB_ERR_MATERIAL_SOLVER naming the substeps needed.
export const XPBD_NEO_HOOKEAN_MAX_STIFFNESS = 500;

// Input limits of the tetrahedralizer (SB_TETRA_MAX_* in emscripten/softbody.h).
export const TetraLimits = Object.freeze({ maxVertices: 1000000, maxTriangles: 2000000, maxResolution: 64 });

// sb_solver: how a body is advanced (all simulate the same model, see emscripten/softbody.h).
export const Solver = Object.freeze({
  xpbd: 0,
  pbd: 1,
  explicitEuler: 2,
  semiImplicitEuler: 3,
  verlet: 4,
  midpoint: 5,
  heun: 6,
  rk4: 7,
  implicitEuler: 8,
  vbd: 9, // Vertex Block Descent: implicit Euler's energy, per-vertex Newton sweeps (Param.iterations)
});

// The solvers that move positions directly: they count contacts and report a residual, and take
// Param.iterations; the integrators (force-based) do neither.
export const POSITION_BASED_SOLVERS = new Set(['xpbd', 'pbd', 'vbd']);

export class SoftbodyError extends Error {
  constructor(code, codeName, message) {
    super(message);
    this.name = 'SoftbodyError';
    this.code = code; // one of ErrorCode
    this.codeName = codeName; // "SB_ERR_..."
  }
}
