// The bridge: with collider.js, the only module that calls the wasm exports. It mirrors the C API (emscripten/softbody.h)
// once, as small classes, checks every argument first (bridge_args.js), and hands out zero-copy typed-array views into wasm memory.
//
// Views go stale in two ways: wasm memory grows (the old ArrayBuffer is detached, length 0), or a
// body is destroyed. Getters compare the view's buffer with the module's current buffer and rebuild,
// so `body.positions` is always valid right after it is read; compare it by identity to know when a
// Three.js attribute must be rebound.
import * as arg from './bridge_args.js';
import { Collider } from './collider.js';
import { createWorldOn, probeGpuOn } from './backend.js';
import { THIN_CHOICE_STATS_BYTES, ThinParts, setThinParts, thinChoiceStats } from './tetra_thin_parts.js';
import createSoftbodyModule from './wasm/softbody.mjs';
import { bodyConvergence } from './convergence.js';
import { topologyChanged } from './body_topology.js';

export { Collider, ThinParts };

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

const STATS_BYTES = 104; // sizeof(sb_body_stats): 3 float64 (energies) at 0, 10 float32 at 24, 5 int32 at 64, 3 float32 at 84, 1 int32 at 96
const TETRA_STATS_BYTES = 51 * 4 + THIN_CHOICE_STATS_BYTES; // sizeof(sb_tetra_stats): 14 int32, 5 float32, 3 int32, 1 float32, 14 int32, 6 float32, 6 int32, 2 float32, then tetra_thin_parts.js's
const TETRA_STATS_INTS = ['inputVertices', 'inputTriangles', 'weldedVertices', 'droppedTriangles', 'flippedTriangles', 'openEdges', 'surfacePoints', 'interiorPoints', 'uninsertedPoints', 'delaunayTets', 'slivers', 'vertices', 'tets', 'parts'];
const TETRA_STATS_FLOATS = ['minQuality', 'meanQuality', 'volume', 'surfaceVolume', 'milliseconds'];

// options: { wasmBinary } in node (the module is built for web+worker), { locateFile } in a page,
// or { module }: an already compiled WebAssembly.Module to instantiate (wasm_module.js compiles
// one per page and hands it to workers too).
export async function loadSoftbody(options = {}) {
  // factory: another build's module factory (the default export of softbody-mt.mjs, the
  // multi-threaded build) instead of the single-threaded one.
  const { module, factory = createSoftbodyModule, ...rest } = options;
  if (!module) return new Softbody(await factory(rest));
  return new Promise((resolve, reject) => {
    const instantiateWasm = (imports, receive) => {
      WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), reject);
      return {}; // the exports arrive through receive
    };
    factory({ ...rest, instantiateWasm }).then((M) => resolve(new Softbody(M)), reject);
  });
}

// World.addCollider's shapes.
const COLLIDER_SHAPES = Object.freeze({ plane: 0, sphere: 1, box: 2, capsule: 3, mesh: 4 });

export class Softbody {
  constructor(module) {
    this.M = module;
    this._stats = module._malloc(Math.max(STATS_BYTES, TETRA_STATS_BYTES));
  }

  // The ArrayBuffer behind wasm memory now; replaced whenever memory grows.
  get buffer() {
    return this.M.HEAPF32.buffer;
  }

  // The largest thread count a world of this build accepts (1 in the single-threaded build).
  get maxThreads() {
    return this.M._sb_max_threads();
  }

  // With options ({ backend: 'wasm' | 'webgpu' | 'auto' }, backend.js) a Promise of a world that says its backend.
  createWorld(options) {
    if (options !== undefined) return createWorldOn(this, options);
    return new World(this, this.check(this.M._sb_world_create()));
  }

  // This device's GPU budget (backend_probe.js): Promise of { a, b, estimateFrameMs(tets), largestTetsAt(fps) }.
  probeGpu(options) {
    return probeGpuOn(this, options);
  }

  // Starts a tetrahedralization of a triangle surface (copied in). Nothing is computed until run().
  // positions: xyz floats (m); triangles: 3 indices each. Options mirror sb_tetra_create, plus
  // maxTets (sb_tetra_set_max_tets: the first run() throws TOO_LARGE, naming the estimate, when the
  // estimated tets exceed it; 0 or absent for no bound), and thinParts (sb_tetra_set_thin_parts: 'sample',
  // the default, 'thicken' or 'coarsen': what to do when thin parts take the estimate over maxTets).
  createTetra(positions, triangles, options) {
    const where = 'Softbody.createTetra';
    const { resolution = 10, minQuality = 0.02, thinSurface = true, maxTets = 0, thinParts = 'sample' } = arg.options(where, options);
    positions = arg.floats(where, 'positions', positions, 3, 'vertex');
    triangles = arg.indices(where, 'triangles', triangles, 3, 'triangle');
    arg.integer(where, 'resolution', resolution);
    arg.number(where, 'minQuality', minQuality);
    arg.boolean(where, 'thinSurface', thinSurface);
    arg.integer(where, 'maxTets', maxTets, 0);
    arg.oneOf(where, 'thinParts', thinParts, ThinParts, 'thin-parts choice');
    const v = this.copyIn(positions, Float32Array);
    let t = 0;
    try {
      t = this.copyIn(triangles, Uint32Array);
      const handle = this.check(this.M._sb_tetra_create(v, positions.length / 3, t, triangles.length / 3, resolution, minQuality, thinSurface ? 1 : 0));
      if (maxTets > 0 || thinParts !== 'sample') {
        try {
          this.check(this.M._sb_tetra_set_max_tets(handle, maxTets));
          setThinParts(this, handle, thinParts);
        } catch (error) {
          this.M._sb_tetra_destroy(handle);
          throw error;
        }
      }
      return new Tetra(this, handle);
    } finally {
      this.M._free(v);
      if (t) this.M._free(t);
    }
  }

  lastError() {
    return this.M.UTF8ToString(this.M._sb_last_error());
  }

  // Turns a negative C return code into a SoftbodyError carrying the C message; passes others through.
  check(result) {
    if (result < 0) {
      const name = this.M.UTF8ToString(this.M._sb_error_name(result));
      throw new SoftbodyError(result, name, `${name}: ${this.lastError()}`);
    }
    return result;
  }

  checkPointer(pointer) {
    if (pointer === 0) this.check(this.M._sb_last_error_code());
    return pointer;
  }

  // Copies a typed array into fresh wasm memory; the caller frees it.
  copyIn(array, Type) {
    const data = array instanceof Type ? array : Type.from(array);
    const ptr = this.M._malloc(Math.max(4, data.byteLength));
    if (!ptr) throw new SoftbodyError(ErrorCode.LIMIT, 'SB_ERR_LIMIT', 'out of wasm memory');
    new Type(this.buffer, ptr, data.length).set(data);
    return ptr;
  }
}

export class World {
  constructor(sb, handle) {
    this.sb = sb;
    this.handle = handle;
    this.bodies = new Set();
  }

  setGravity(x, y, z) {
    arg.numbers('World.setGravity', { x, y, z });
    this.sb.check(this.sb.M._sb_world_set_gravity(this.handle, x, y, z));
  }
  setSubsteps(n) {
    arg.integer('World.setSubsteps', 'n', n);
    this.sb.check(this.sb.M._sb_world_set_substeps(this.handle, n));
  }
  get substeps() {
    return this.sb.check(this.sb.M._sb_world_get_substeps(this.handle));
  }
  // Threads stepping this world, [1, sb.maxThreads]: more than 1 only in the multi-threaded build.
  setThreads(n) {
    arg.integer('World.setThreads', 'n', n);
    this.sb.check(this.sb.M._sb_world_set_threads(this.handle, n));
  }
  get threads() {
    return this.sb.check(this.sb.M._sb_world_get_threads(this.handle));
  }
  setGround(enabled) {
    arg.boolean('World.setGround', 'enabled', enabled);
    this.sb.check(this.sb.M._sb_world_set_ground(this.handle, enabled ? 1 : 0));
  }
  get time() {
    return this.sb.M._sb_world_time(this.handle);
  }
  // Contact in the last step. Between bodies (and of bodies with themselves): candidate pairs
  // gathered, vertex contacts solved over the substeps, the wall time of both phases and of the
  // broad phase within the gathering (ms). With colliders (`colliders`): vertex-collider pairs given
  // candidate faces, the faces listed, vertex substeps tested, and the wall time of both phases (ms).
  // With cloth (`cloth`): edge-edge pairs gathered, ms of the gathering and of the bounded motion.
  contactStats() {
    const at = this.sb._stats;
    this.sb.check(this.sb.M._sb_world_get_contact_stats(this.handle, at));
    const u = new Uint32Array(this.sb.buffer, at, 13);
    const f = new Float32Array(this.sb.buffer, at, 13);
    return {
      candidates: u[0], contacts: u[1], gatherMs: f[2], solveMs: f[3], broadMs: f[4],
      colliders: { candidates: u[5], faces: u[6], tested: u[7], gatherMs: f[8], solveMs: f[9] },
      cloth: { edgePairs: u[10], edgeMs: f[11], boundMs: f[12] },
    };
  }
  get bodyCount() {
    return this.sb.check(this.sb.M._sb_world_body_count(this.handle));
  }

  // Advances every body by dt seconds. Throws SoftbodyError (code DIVERGED) when a body went
  // non-finite or blew up in this step; that body is frozen at its last sane shape and the others stepped.
  step(dt) {
    arg.number('World.step', 'dt', dt);
    this.sb.check(this.sb.M._sb_world_step(this.handle, dt));
  }

  addBox(options) {
    const where = 'World.addBox';
    const { cells = [4, 4, 4], size = [1, 1, 1], center = [0, 1, 0] } = arg.options(where, options);
    arg.integers(where, 'cells', cells, 3);
    arg.vector(where, 'size', size);
    arg.vector(where, 'center', center);
    const M = this.sb.M;
    return this._adopt(M._sb_body_create_box(this.handle, ...cells, ...size, ...center));
  }

  addBall(options) {
    const where = 'World.addBall';
    const { radius = 0.5, cells = 8, center = [0, 1, 0] } = arg.options(where, options);
    arg.number(where, 'radius', radius);
    arg.integer(where, 'cells', cells);
    arg.vector(where, 'center', center);
    return this._adopt(this.sb.M._sb_body_create_ball(this.handle, radius, cells, ...center));
  }

  // A rope of springs from a pinned anchor along +x (no tets, no triangles: render its edges).
  addRope(options) {
    const where = 'World.addRope';
    const { segments = 20, length = 1, anchor = [0, 1.5, 0] } = arg.options(where, options);
    arg.integer(where, 'segments', segments);
    arg.number(where, 'length', length);
    arg.vector(where, 'anchor', anchor);
    return this._adopt(this.sb.M._sb_body_create_rope(this.handle, segments, length, ...anchor));
  }

  // A cells^3 particle lattice with cross springs (no tets); triangles are its outer faces.
  addJelly(options) {
    const where = 'World.addJelly';
    const { cells = 4, size = 1, center = [0, 1, 0] } = arg.options(where, options);
    arg.integer(where, 'cells', cells);
    arg.number(where, 'size', size);
    arg.vector(where, 'center', center);
    return this._adopt(this.sb.M._sb_body_create_jelly(this.handle, cells, size, ...center));
  }

  // Surface springs only, inflated by an ideal gas: set the 'pressure' parameter (nRT, J).
  addPressureBall(options) {
    const where = 'World.addPressureBall';
    const { radius = 0.5, cells = 8, center = [0, 1, 0], pressure = 0 } = arg.options(where, options);
    arg.number(where, 'radius', radius);
    arg.integer(where, 'cells', cells);
    arg.vector(where, 'center', center);
    arg.number(where, 'pressure', pressure);
    const body = this._adopt(this.sb.M._sb_body_create_pressure_ball(this.handle, radius, cells, ...center));
    try {
      if (pressure) body.setParam('pressure', pressure);
    } catch (error) {
      body.destroy(); // no half-made bodies
      throw error;
    }
    return body;
  }

  // vertices: xyz floats (m); tets: 4 indices each, positively oriented. Both are copied.
  addTets(vertices, tets) {
    return this._addMesh('World.addTets', '_sb_body_create_tets', vertices, tets, 4, 'tet');
  }

  // Cloth (sb_body_create_cloth): vertices xyz floats (m), triangles 3 indices each, counter-clockwise
  // seen from the front, manifold and consistently wound. Both are copied. Runs under every solver but PBD.
  addCloth(vertices, triangles) {
    return this._addMesh('World.addCloth', '_sb_body_create_cloth', vertices, triangles, 3, 'triangle');
  }

  // A body from vertices and elements of `per` indices each, through the C API's create call `create`.
  _addMesh(call, create, vertices, elements, per, element) {
    const sb = this.sb;
    vertices = arg.floats(call, 'vertices', vertices, 3, 'vertex');
    elements = arg.indices(call, `${element}s`, elements, per, element);
    const v = sb.copyIn(vertices, Float32Array);
    const t = sb.copyIn(elements, Uint32Array);
    try {
      return this._adopt(sb.M[create](this.handle, v, vertices.length / 3, t, elements.length / per));
    } finally {
      sb.M._free(v);
      sb.M._free(t);
    }
  }

  // A rectangle of near-equilateral triangles: cells [u, v] (triangle bases along x, rows along v),
  // size [u, v] m; vertical: in the xy plane facing +z, else in the xz plane facing +y.
  addClothRectangle(options) {
    const where = 'World.addClothRectangle';
    const { cells = [16, 16], size = [1, 1], center = [0, 1, 0], vertical = false } = arg.options(where, options);
    arg.integers(where, 'cells', cells, 2);
    arg.vector(where, 'size', size, 2);
    arg.vector(where, 'center', center);
    arg.boolean(where, 'vertical', vertical);
    return this._adopt(this.sb.M._sb_body_create_cloth_rectangle(this.handle, ...cells, ...size, ...center, vertical ? 1 : 0));
  }

  // A disc of `rings` rings of near-equilateral triangles, facing +y (or +z when vertical).
  addClothDisc(options) {
    const where = 'World.addClothDisc';
    const { radius = 0.5, rings = 8, center = [0, 1, 0], vertical = false } = arg.options(where, options);
    arg.number(where, 'radius', radius);
    arg.integer(where, 'rings', rings);
    arg.vector(where, 'center', center);
    arg.boolean(where, 'vertical', vertical);
    return this._adopt(this.sb.M._sb_body_create_cloth_disc(this.handle, radius, rings, ...center, vertical ? 1 : 0));
  }

  // A rigid obstacle every body of this world collides with (sb_collider_*). shape: 'plane'
  // ({ point, normal }), 'sphere' ({ radius, center }), 'box' ({ halfExtents, center }),
  // 'capsule' ({ radius, halfLength, center }, its axis along y until posed) or 'mesh'
  // ({ positions, triangles, thickness, center }: xyz and 3 indices per face, in the collider's
  // frame; closed = solid, open = a shell `thickness` thick). Lengths in m.
  addCollider(options) {
    const where = 'World.addCollider';
    // Only the chosen shape's fields are read (and checked): a scene's spec may carry others.
    const { shape, center = [0, 0, 0], radius = 0.5, halfExtents = [0.5, 0.5, 0.5], halfLength = 0.5, point = [0, 0, 0], normal = [0, 1, 0], positions, triangles, thickness = 0.02 } = arg.options(where, options);
    arg.oneOf(where, 'shape', shape, COLLIDER_SHAPES, 'collider shape');
    if (shape !== 'plane') arg.vector(where, 'center', center);
    const M = this.sb.M;
    const w = this.handle;
    let handle;
    if (shape === 'plane') {
      arg.vector(where, 'point', point);
      arg.vector(where, 'normal', normal);
      handle = M._sb_collider_create_plane(w, ...point, ...normal);
    } else if (shape === 'sphere') {
      handle = M._sb_collider_create_sphere(w, arg.number(where, 'radius', radius), ...center);
    } else if (shape === 'box') {
      handle = M._sb_collider_create_box(w, ...arg.vector(where, 'halfExtents', halfExtents), ...center);
    } else if (shape === 'capsule') {
      handle = M._sb_collider_create_capsule(w, arg.number(where, 'radius', radius), arg.number(where, 'halfLength', halfLength), ...center);
    } else {
      const p = arg.floats(where, 'positions', positions, 3, 'vertex');
      const f = arg.indices(where, 'triangles', triangles, 3, 'triangle');
      arg.number(where, 'thickness', thickness);
      const v = this.sb.copyIn(p, Float32Array);
      let t = 0;
      try {
        t = this.sb.copyIn(f, Uint32Array);
        handle = M._sb_collider_create_mesh(w, v, p.length / 3, t, f.length / 3, thickness, ...center);
      } finally {
        M._free(v);
        if (t) M._free(t);
      }
    }
    return new Collider(this, this.sb.check(handle));
  }

  get colliderCount() {
    return this.sb.check(this.sb.M._sb_world_collider_count(this.handle));
  }

  _adopt(handle) {
    const body = new Body(this, this.sb.check(handle));
    this.bodies.add(body);
    return body;
  }

  destroy() {
    this.sb.check(this.sb.M._sb_world_destroy(this.handle));
    for (const b of this.bodies) b._views = null;
    this.bodies.clear();
  }
}

// One tetrahedralization job (sb_tetra_*): run it in slices, read progress, then copy the result out.
export class Tetra {
  constructor(sb, handle) {
    this.sb = sb;
    this.handle = handle;
  }

  // Does at most `work` units (about one point insertion each); returns true when finished.
  run(work = 20000) {
    arg.integer('Tetra.run', 'work', work, 1);
    return this.sb.check(this.sb.M._sb_tetra_run(this.handle, work)) === 1;
  }

  // About how many tets the job will give, before it runs (sb_tetra_estimate_tets; the first call
  // measures the surface's thickness, which the first run() then reuses).
  estimateTets() {
    return this.sb.check(this.sb.M._sb_tetra_estimate_tets(this.handle));
  }

  // Runs to the end in one call.
  runAll() {
    while (!this.run(1 << 30));
  }

  get progress() {
    const p = this.sb.M._sb_tetra_progress(this.handle);
    if (Number.isNaN(p)) this.sb.check(this.sb.M._sb_last_error_code());
    return p;
  }

  stats() {
    const M = this.sb.M;
    this.sb.check(M._sb_tetra_get_stats(this.handle, this.sb._stats));
    const ints = new Int32Array(this.sb.buffer, this.sb._stats, TETRA_STATS_INTS.length);
    const floats = new Float32Array(this.sb.buffer, this.sb._stats + 4 * TETRA_STATS_INTS.length, TETRA_STATS_FLOATS.length);
    const out = {};
    TETRA_STATS_INTS.forEach((k, i) => (out[k] = ints[i]));
    TETRA_STATS_FLOATS.forEach((k, i) => (out[k] = floats[i]));
    // Fields added later, at the end of the struct: fragment_tets, cavities, repaired_needles (int32),
    // thin_thickness (float32), cells_for_thin (int32, always 0 now).
    const tail = this.sb._stats + 4 * (TETRA_STATS_INTS.length + TETRA_STATS_FLOATS.length);
    const tailInts = new Int32Array(this.sb.buffer, tail, 5);
    out.fragmentTets = tailInts[0];
    out.cavities = tailInts[1];
    out.repairedNeedles = tailInts[2];
    out.thinThickness = new Float32Array(this.sb.buffer, tail + 12, 1)[0];
    out.cellsForThin = tailInts[4];
    // Then: peeled_slivers, refinement_points, smoothed_vertices, quality_histogram[10] (int32), and
    // the time per stage (float32, ms).
    const more = new Int32Array(this.sb.buffer, tail + 20, 13);
    out.peeledSlivers = more[0];
    out.refinementPoints = more[1];
    out.smoothedVertices = more[2];
    out.qualityHistogram = Array.from(more.subarray(3, 13));
    const times = new Float32Array(this.sb.buffer, tail + 20 + 52, 6);
    out.stageMilliseconds = { cleanup: times[0], sampling: times[1], delaunay: times[2], inside: times[3], improve: times[4], finish: times[5] };
    // Then thin_samples_needed, medial_points, sample_budget and thin_samples_coarsest (int32).
    const last = new Int32Array(this.sb.buffer, tail + 20 + 52 + 24, 4);
    out.thinSamplesNeeded = last[0];
    out.medialPoints = last[1];
    out.sampleBudget = last[2];
    out.thinSamplesCoarsest = last[3];
    // Then estimated_tets and max_tets (int32) and thinnest (float32, m).
    const budget = new Int32Array(this.sb.buffer, tail + 20 + 52 + 24 + 16, 2);
    out.estimatedTets = budget[0];
    out.maxTets = budget[1];
    // Then thinnest and cell_size (float32, m).
    [out.thinnest, out.cellSize] = new Float32Array(this.sb.buffer, tail + 20 + 52 + 24 + 24, 2);
    return Object.assign(out, thinChoiceStats(this.sb.buffer, this.sb._stats));
  }

  // Copies of the finished mesh: { positions: Float32Array (m), tets: Uint32Array }, ready for addTets.
  result() {
    const M = this.sb.M;
    const vertexCount = this.sb.check(M._sb_tetra_vertex_count(this.handle));
    const tetCount = this.sb.check(M._sb_tetra_tet_count(this.handle));
    const p = this.sb.checkPointer(M._sb_tetra_positions(this.handle));
    const t = this.sb.checkPointer(M._sb_tetra_tets(this.handle));
    return {
      positions: new Float32Array(this.sb.buffer, p, 3 * vertexCount).slice(),
      tets: new Uint32Array(this.sb.buffer, t, 4 * tetCount).slice(),
    };
  }

  destroy() {
    this.sb.check(this.sb.M._sb_tetra_destroy(this.handle));
  }
}

export class Body {
  constructor(world, handle) {
    this.world = world;
    this.sb = world.sb;
    this.handle = handle;
    const M = this.sb.M;
    const w = world.handle;
    // Counts change only when cloth tears (body_topology.js).
    this.topologyVersion = 0;
    this.vertexCount = this.sb.check(M._sb_body_vertex_count(w, handle));
    this.triangleCount = this.sb.check(M._sb_body_triangle_count(w, handle));
    this.tetCount = this.sb.check(M._sb_body_tet_count(w, handle));
    this.edgeCount = this.sb.check(M._sb_body_edge_count(w, handle));
    this.isCloth = this.sb.check(M._sb_body_is_cloth(w, handle)) === 1;
    this._views = null;
    this.visualVertexCount = 0;
    this.visualTriangleCount = 0;
  }

  _call(fn, ...args) {
    return this.sb.check(this.sb.M[fn](this.world.handle, this.handle, ...args));
  }

  _currentViews() {
    const buffer = this.sb.buffer;
    const torn = topologyChanged(this); // first: new views need the new counts too
    if (this._views && this._views.buffer === buffer && !torn) return this._views;
    const M = this.sb.M;
    const w = this.world.handle;
    this._views = {
      buffer,
      positions: new Float32Array(buffer, this.sb.checkPointer(M._sb_body_positions(w, this.handle)), 3 * this.vertexCount),
      triangles: new Uint32Array(buffer, this.sb.checkPointer(M._sb_body_triangles(w, this.handle)), 3 * this.triangleCount),
      tets: new Uint32Array(buffer, this.sb.checkPointer(M._sb_body_tets(w, this.handle)), 4 * this.tetCount),
      edges: new Uint32Array(buffer, this.sb.checkPointer(M._sb_body_edges(w, this.handle)), 2 * this.edgeCount),
    };
    if (this.isCloth) this._views.normals = new Float32Array(buffer, this.sb.checkPointer(M._sb_body_normals(w, this.handle)), 3 * this.vertexCount);
    if (this.visualVertexCount > 0) {
      const v = this._views;
      v.visualPositions = new Float32Array(buffer, this.sb.checkPointer(M._sb_body_visual_positions(w, this.handle)), 3 * this.visualVertexCount);
      v.visualNormals = new Float32Array(buffer, this.sb.checkPointer(M._sb_body_visual_normals(w, this.handle)), 3 * this.visualVertexCount);
      v.visualTriangles = this.visualTriangleCount > 0 ? new Uint32Array(buffer, this.sb.checkPointer(M._sb_body_visual_triangles(w, this.handle)), 3 * this.visualTriangleCount) : new Uint32Array(0);
    }
    return this._views;
  }

  // Live xyz positions (m), written by every step. Zero-copy: do not keep it across calls that may
  // grow memory without reading this getter again.
  get positions() {
    return this._currentViews().positions;
  }
  get triangles() {
    return this._currentViews().triangles;
  }
  get tets() {
    return this._currentViews().tets;
  }
  get edges() {
    return this._currentViews().edges;
  }
  // Cloth: live unit vertex normals (zero-copy, updated by every step like positions); null otherwise.
  get normals() {
    return this.isCloth ? this._currentViews().normals : null;
  }

  // Binds a high-resolution render surface (copied in) to the tets at the creation shape; every step
  // then moves it with the body (skinning in C++). Returns how many vertices lay outside every tet.
  setVisual(positions, triangles = null) {
    const sb = this.sb;
    positions = arg.floats('Body.setVisual', 'positions', positions, 3, 'vertex');
    // null (or an empty array): no triangles, no normals.
    if (triangles !== null) triangles = arg.indices('Body.setVisual', 'triangles', triangles, 3, 'triangle');
    const v = sb.copyIn(positions, Float32Array);
    let t = 0;
    try {
      if (triangles && triangles.length) t = sb.copyIn(triangles, Uint32Array);
      const outside = this._call('_sb_body_set_visual', v, positions.length / 3, t, t ? triangles.length / 3 : 0);
      this.visualVertexCount = this._call('_sb_body_visual_vertex_count');
      this.visualTriangleCount = this._call('_sb_body_visual_triangle_count');
      this._views = null;
      return outside;
    } finally {
      sb.M._free(v);
      if (t) sb.M._free(t);
    }
  }
  // Copies of the binding behind the visual: { vertexCount, triangles: Uint32Array,
  // boundVertices: Uint32Array (4 particle ids per visual vertex), weights: Float32Array (4 per
  // vertex) }, for setVisualBound on a body made of the same tets (a worker binds, the page copies).
  visualBinding() {
    if (!this.hasVisual) throw new SoftbodyError(ErrorCode.BAD_COUNT, 'SB_ERR_BAD_COUNT', 'the body has no visual surface');
    const sb = this.sb;
    const n = this.visualVertexCount;
    const ids = sb.checkPointer(this.sb.M._sb_body_visual_bound_vertices(this.world.handle, this.handle));
    const weights = sb.checkPointer(this.sb.M._sb_body_visual_weights(this.world.handle, this.handle));
    return {
      vertexCount: n,
      triangles: this.visualTriangles.slice(),
      boundVertices: new Uint32Array(sb.buffer, ids, 4 * n).slice(),
      weights: new Float32Array(sb.buffer, weights, 4 * n).slice(),
    };
  }

  // Installs a binding from visualBinding() (checked by the C API: ids in range, weights finite and
  // summing to 1) without searching the tets again; outside: the count setVisual returned there.
  setVisualBound(binding, outside = 0) {
    const where = 'Body.setVisualBound';
    let { vertexCount, triangles = null, boundVertices, weights } = arg.options(where, binding, 'the binding', true);
    arg.integer(where, 'vertexCount', vertexCount, 1);
    boundVertices = arg.indices(where, 'boundVertices', boundVertices, 4, 'visual vertex');
    weights = arg.floats(where, 'weights', weights, 4, 'visual vertex');
    if (triangles !== null) triangles = arg.indices(where, 'triangles', triangles, 3, 'triangle');
    arg.integer(where, 'outside', outside, 0);
    if (boundVertices.length !== 4 * vertexCount || weights.length !== 4 * vertexCount) {
      throw new SoftbodyError(ErrorCode.BAD_COUNT, 'SB_ERR_BAD_COUNT', `SB_ERR_BAD_COUNT: ${where}: a binding of ${vertexCount} vertices needs ${4 * vertexCount} ids and weights, got ${boundVertices.length} and ${weights.length}`);
    }
    const sb = this.sb;
    const ids = sb.copyIn(boundVertices, Uint32Array);
    let w = 0;
    let t = 0;
    try {
      w = sb.copyIn(weights, Float32Array);
      if (triangles && triangles.length) t = sb.copyIn(triangles, Uint32Array);
      this._call('_sb_body_set_visual_bound', vertexCount, t, t ? Math.floor(triangles.length / 3) : 0, ids, w, outside);
      this.visualVertexCount = this._call('_sb_body_visual_vertex_count');
      this.visualTriangleCount = this._call('_sb_body_visual_triangle_count');
      this._views = null;
    } finally {
      sb.M._free(ids);
      if (w) sb.M._free(w);
      if (t) sb.M._free(t);
    }
  }

  get hasVisual() {
    return this.visualVertexCount > 0;
  }
  // Live skinned positions and normals (zero-copy, like positions); null without a visual.
  get visualPositions() {
    return this.hasVisual ? this._currentViews().visualPositions : null;
  }
  get visualNormals() {
    return this.hasVisual ? this._currentViews().visualNormals : null;
  }
  get visualTriangles() {
    return this.hasVisual ? this._currentViews().visualTriangles : null;
  }

  setParam(name, value) {
    arg.oneOf('Body.setParam', 'name', name, Param, 'parameter', ErrorCode.UNKNOWN_PARAM);
    arg.number('Body.setParam', name, value);
    this._call('_sb_body_set_param', Param[name], value);
  }
  getParam(name) {
    arg.oneOf('Body.getParam', 'name', name, Param, 'parameter', ErrorCode.UNKNOWN_PARAM);
    const value = this.sb.M._sb_body_get_param(this.world.handle, this.handle, Param[name]);
    if (Number.isNaN(value)) this.sb.check(this.sb.M._sb_last_error_code());
    return value;
  }
  // Sets several parameters: names and types are checked first (a bad one changes nothing), then
  // the C API checks each range, in the given order.
  setParams(params) {
    const entries = Object.entries(arg.options('Body.setParams', params, 'the parameters', true));
    for (const [name, value] of entries) {  // every name and type first: a bad one changes nothing
      arg.oneOf('Body.setParams', 'name', name, Param, 'parameter', ErrorCode.UNKNOWN_PARAM);
      arg.number('Body.setParams', name, value);
    }
    for (const [name, value] of entries) this.setParam(name, value);
  }

  // name: a key of Solver ('xpbd', 'rk4', ...).
  setSolver(name) {
    arg.oneOf('Body.setSolver', 'name', name, Solver, 'solver', ErrorCode.UNKNOWN_SOLVER);
    this._call('_sb_body_set_solver', Solver[name]);
  }
  get solver() {
    const id = this._call('_sb_body_get_solver');
    return Object.keys(Solver).find((k) => Solver[k] === id);
  }

  pin(vertex, pinned = true) {
    arg.index('Body.pin', 'vertex', vertex, this.vertexCount);
    arg.boolean('Body.pin', 'pinned', pinned);
    this._call('_sb_body_pin', vertex, pinned ? 1 : 0);
  }
  // Vertex groups (sb_body_set_vertex_scales): the listed vertices' mass x massScale and the stiffness
  // of every edge and tet they belong to x stiffnessScale (each in [1e-3, 1e3]; 1, 1 undoes it).
  setVertexScales(vertices, massScale = 1, stiffnessScale = 1) {
    vertices = arg.indices('Body.setVertexScales', 'vertices', vertices, 1, 'vertex');
    arg.number('Body.setVertexScales', 'massScale', massScale);
    arg.number('Body.setVertexScales', 'stiffnessScale', stiffnessScale);
    const ptr = this.sb.copyIn(vertices, Uint32Array);
    try {
      this._call('_sb_body_set_vertex_scales', ptr, vertices.length, massScale, stiffnessScale);
    } finally {
      this.sb.M._free(ptr);
    }
  }
  // { mass, stiffness }: one vertex's multipliers.
  vertexScales(vertex) {
    arg.index('Body.vertexScales', 'vertex', vertex, this.vertexCount);
    const at = this.sb._stats; // scratch: two floats
    this._call('_sb_body_get_vertex_scales', vertex, at, at + 4);
    const f = new Float32Array(this.sb.buffer, at, 2);
    return { mass: f[0], stiffness: f[1] };
  }
  squash(factor) {
    arg.number('Body.squash', 'factor', factor);
    this._call('_sb_body_squash', factor);
  }
  // Moves the body to its static equilibrium under the world's gravity (pinned vertices held) and
  // stops it: Newton on the energy every solver integrates (sb_body_solve_static). tolerance: the
  // unbalanced force left as a share of the body's weight, [1e-10, 1e-2]. Returns Newton's iterations.
  solveStatic(tolerance = 1e-8) {
    arg.number('Body.solveStatic', 'tolerance', tolerance);
    return this._call('_sb_body_solve_static', tolerance);
  }
  // squash(factor), then a plate holds the body down and rises back to its old top over `seconds` of
  // simulated time (sb_body_press), so it springs back without being thrown.
  press(factor, seconds) {
    arg.number('Body.press', 'factor', factor);
    arg.number('Body.press', 'seconds', seconds);
    this._call('_sb_body_press', factor, seconds);
  }
  reset() {
    this._call('_sb_body_reset');
  }
  nearestVertex(x, y, z) {
    arg.numbers('Body.nearestVertex', { x, y, z });
    return this._call('_sb_body_nearest_vertex', x, y, z);
  }
  grabBegin(vertex, x, y, z) {
    arg.index('Body.grabBegin', 'vertex', vertex, this.vertexCount);
    arg.numbers('Body.grabBegin', { x, y, z });
    this._call('_sb_body_grab_begin', vertex, x, y, z);
  }
  grabMove(x, y, z) {
    arg.numbers('Body.grabMove', { x, y, z });
    this._call('_sb_body_grab_move', x, y, z);
  }
  grabEnd(vx = 0, vy = 0, vz = 0) {
    arg.numbers('Body.grabEnd', { vx, vy, vz });
    this._call('_sb_body_grab_end', vx, vy, vz);
  }

  stats() {
    const M = this.sb.M;
    this._call('_sb_body_get_stats', this.sb._stats);
    // Energies are doubles (a finite state can hold more than a float's 3.4e38 J); _stats comes from
    // malloc, so it is 8-byte aligned.
    const energies = new Float64Array(this.sb.buffer, this.sb._stats, 3);
    const f = new Float32Array(this.sb.buffer, this.sb._stats + 24, 10);
    const i = new Int32Array(this.sb.buffer, this.sb._stats + 64, 5);
    const tail = new Float32Array(this.sb.buffer, this.sb._stats + 84, 3);
    const inverted = new Int32Array(this.sb.buffer, this.sb._stats + 96, 1)[0];
    return {
      volumeRatio: f[0],
      kineticEnergy: energies[0], // J
      mass: f[1], // kg
      minY: f[2], // m
      maxEdgeStrain: f[3],
      center: [f[4], f[5], f[6]], // m
      momentum: [f[7], f[8], f[9]], // kg m/s
      finite: i[0] === 1,
      grabbedVertex: i[1],
      elasticEnergy: energies[1], // J
      potentialEnergy: energies[2], // J, gravity relative to y = 0
      solver: Object.keys(Solver).find((k) => Solver[k] === i[2]),
      cgIterations: i[3],
      contacts: i[4], // particles touching the ground, colliders or other bodies (XPBD/PBD, last substep)
      maxPenetration: tail[0], // m, deepest contact of the last step
      residual: tail[1], // XPBD: largest relative |C + alpha~ lambda|; VBD: relative force imbalance (0 = solved)
      stiffnessNumber: tail[2], // XPBD with Neo-Hookean: tet stiffness x h^2 / mass of the last substep (allowed up to XPBD_NEO_HOOKEAN_MAX_STIFFNESS); else 0
      invertedTets: inverted, // tets with signed volume <= 0 now (inside out or flat)
    };
  }

  // What the last step did about the stiffness target (convergence.js).
  convergence() {
    return bodyConvergence(this);
  }

  // Contact with other bodies: bodies touch when (groupA & maskB) and (groupB & maskA) are nonzero.
  // Default group 1, mask 0xffffffff; mask 0 = this body touches no other body.
  setCollisionFilter(group = 1, mask = 0xffffffff) {
    arg.uint32('Body.setCollisionFilter', 'group', group);
    arg.uint32('Body.setCollisionFilter', 'mask', mask);
    this._call('_sb_body_set_collision_filter', group >>> 0, mask >>> 0);
  }

  // Self-collision (off by default): the surface keeps `thickness` m (default 1 cm) from its own parts
  // that were not its neighbours in the rest shape. Best about 0.4-1 x the surface's vertex spacing.
  setSelfCollision(enabled, thickness = 0.01) {
    arg.boolean('Body.setSelfCollision', 'enabled', enabled);
    arg.number('Body.setSelfCollision', 'thickness', thickness);
    this._call('_sb_body_set_self_collision', enabled ? 1 : 0, thickness);
  }

  get selfCollision() {
    const at = this.sb._stats; // scratch: int32 enabled, float32 thickness
    this._call('_sb_body_get_self_collision', at, at + 4);
    return { enabled: new Int32Array(this.sb.buffer, at, 1)[0] === 1, thickness: new Float32Array(this.sb.buffer, at + 4, 1)[0] };
  }

  destroy() {
    this._call('_sb_body_destroy');
    this.world.bodies.delete(this);
    this._views = null;
  }
}
