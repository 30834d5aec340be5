// The bridge: with the modules it imports (bridge_body.js, collider.js, ...), the only code that calls the
// wasm exports. It mirrors the C API (emscripten/softbody.h) once, as small classes (here Softbody, World
// and Tetra; Body in bridge_body.js, Collider in collider.js), checks every argument first (bridge_args.js),
// and hands out zero-copy typed-array views into wasm memory. The enums and the error class are in
// bridge_tables.js; this module re-exports everything, so importers need only this one.
//
// Views go stale in two ways: wasm memory grows (the old ArrayBuffer is detached, length 0), or a
// body is destroyed. Getters compare the view's buffer with the module's current buffer and rebuild,
// so `body.positions` is always valid right after it is read; compare it by identity to know when a
// Three.js attribute must be rebound.
import * as arg from './bridge_args.js';
import { Body } from './bridge_body.js';
import { ErrorCode, SoftbodyError } from './bridge_tables.js';
import { Collider } from './collider.js';
import { createWorldOn, probeGpuOn } from './backend.js';
import { THIN_CHOICE_STATS_BYTES, ThinParts, setThinParts, thinChoiceStats } from './tetra_thin_parts.js';
import createSoftbodyModule from './wasm/softbody.mjs';

export { Body, Collider, ThinParts };
export { ColliderParam, ErrorCode, Material, POSITION_BASED_SOLVERS, Param, SoftbodyError, Solver, TetraLimits, XPBD_NEO_HOOKEAN_MAX_STIFFNESS } from './bridge_tables.js';


const STATS_BYTES = 104; // sizeof(sb_body_stats): 3 float64 (energies) at 0, 10 float32 at 24, 5 int32 at 64, 3 float32 at 84, 2 int32 at 96
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
  // the default, 'thicken', 'coarsen' or 'drop': what to do when thin parts take the estimate over
  // maxTets; a result over maxTets is meshed again coarser under the last three, else refused).
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
  // Sleep (sb_world_set_sleep): bodies under `speed` m/s (root mean square) for `seconds`, with all
  // they may touch, stop being stepped until something wakes them. speed 0 (the default) turns it off.
  setSleep(speed, seconds = 0.5) {
    arg.numbers('World.setSleep', { speed, seconds });
    this.sb.check(this.sb.M._sb_world_set_sleep(this.handle, speed, seconds));
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
