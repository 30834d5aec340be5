// The bridge's Body (softbody.js re-exports it): one simulated body of a World, made by World.add*.
// Its getters hand out zero-copy views into wasm memory, rebuilt when memory grows or cloth tears.
import * as arg from './bridge_args.js';
import { ErrorCode, Param, SoftbodyError, Solver } from './bridge_tables.js';
import { bodyConvergence } from './convergence.js';
import { topologyChanged } from './body_topology.js';


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
    const [inverted, asleep] = new Int32Array(this.sb.buffer, this.sb._stats + 96, 2);
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
      asleep: asleep === 1, // not stepped while it and all it may touch rest (World.setSleep)
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
