// Contact between bodies on the WebGPU backend: each surface vertex against the surface triangles of
// the other bodies its collision filter lets it touch, the core's vertex-triangle rule
// (core/contact/body_contact.cpp: the nearest triangle within gap + search radius, the tie rule,
// C = (x_v - sum b_i x_i) . n - gap, zero compliance, Coulomb friction at mu = sqrt(mu_a mu_b)),
// solved once per substep after the ground and the colliders, then the ground again.
//
// What differs from the core, and why: the core solves the contacts one after another (Gauss-Seidel);
// here all at once (Jacobi), each contact's correction scaled by 1 / (the most contacts any of its
// four vertices takes part in), so a vertex pressed by several contacts is not pushed several times
// over. Both sides of a contact get the same scale, so each contact's corrections still sum to zero
// momentum; they are added with fixed-point atomics (2^-30 m), whose sums are exact.
//
// The triangles are found through a spatial hash rebuilt every substep from the current positions by
// a counting sort: each triangle counted in the cell of its box's centre, the cells given ranges of
// one entry array (a prefix sum per workgroup of cells, each workgroup's block placed by one atomic),
// each triangle written into its cell's range with its box. One entry per triangle, so nothing is
// dropped and the memory is ~40 B per triangle. A vertex searches the cells within (the largest triangle's half box,
// measured each substep) + reach of it. Which slot of its range a triangle lands in depends on the
// atomics' timing, but detect's choice does not: it takes the least (distance step, -clearance,
// triangle index) over all candidates, a total order, so runs repeat to the bit.
import { CLOSEST_ON_TRIANGLE } from './contact_wgsl.js';
import { vertexBases } from './gpu_numbering.js';

const WORKGROUP = 64;
const CELL_GROUP = 256; // cells per workgroup of the allocate kernel (its prefix sum in workgroup memory)
const GAP = 0.005; // m, the core's default BodyContactSettings::thickness
const SEARCH = 0.02; // m, BodyContactSettings::search_radius
// Jacobi rounds per substep: a contact pressed by n others moves 1/n of its depth per round.
const ROUNDS = 8;
// Cells a vertex searches per axis at most: a triangle stretched past ~(MAX_SPAN - 1) cells (an
// exploding body) is not found by every vertex within reach of it.
const MAX_SPAN = 6;
const FIXED = 2 ** 30; // fixed-point units per m for the atomic sums
const ENTRY = 5; // u32s per hash entry: the triangle's index, its box's centre xyz and half size
// Bodies that may touch in one world: the body table is a storage buffer (32 B a body), so the limit
// is the buffers' size, not a uniform's; this bound only keeps a page from asking for the absurd.
export const MAX_BODIES = 65536;
// The hash dispatches per substep (count, allocate, scatter, detect) and per Jacobi round (solve, apply).
export const HASH_DISPATCHES = 4;
export const CONTACT_DISPATCHES = HASH_DISPATCHES + 2 * ROUNDS;

const WGSL = /* wgsl */ `
struct World {
  cell: f32,            // m, hash cell size
  reach: f32,           // m, gap + search radius
  gap: f32,             // m
  table: u32,           // hash cells
  triangles: u32,
  surface: u32,         // surface vertices
  vertices: u32,
  tri_at: u32,          // where the triangles start in topo (u32s)
  surface_at: u32,      // where the surface vertices start in topo
  uses_at: u32,         // where the contact uses start in sums
  delta_at: u32,        // where the corrections start in sums
  count_at: u32,        // where the cells' counts (then cursors, then range ends) start in sums
  _pad: vec4u,
}
struct Body { origin: vec3f, friction: f32, group: u32, mask: u32, tri_begin: u32, tri_end: u32 }   // its triangles: [tri_begin, tri_end)
struct Contact { n: vec3f, C: f32, w: vec3f, tri: u32 }   // tri = 0xffffffff: none
@group(0) @binding(0) var<uniform> W: World;
@group(0) @binding(1) var<storage, read_write> x: array<vec4f>;          // every body's x - origin, w = 1/m
@group(0) @binding(2) var<storage, read> prev: array<vec4f>;
@group(0) @binding(3) var<storage, read> bodies: array<Body>;
// The numbering: per vertex its body; per triangle its 3 global vertex ids and body; the surface
// vertices' global ids.
@group(0) @binding(4) var<storage, read> topo: array<u32>;
// Atomic sums: [0] entries placed so far, [1] the largest triangle half box (f32 bits, m), then per
// hash cell its count (then its cursor, then its range's end), then contacts per vertex, then 3
// fixed-point corrections per vertex.
@group(0) @binding(5) var<storage, read_write> sums: array<atomic<i32>>;
// Per hash cell where its range starts; then the entries cell by cell: their triangle indices, then
// their boxes (centre xyz, half size; m) in the same order.
@group(0) @binding(6) var<storage, read_write> cells: array<u32>;
@group(0) @binding(7) var<storage, read_write> contacts: array<Contact>;    // per surface vertex

fn vertex_body(i: u32) -> u32 { return topo[i]; }
fn tri(k: u32) -> vec4u { let a = W.tri_at + 4u * k; return vec4u(topo[a], topo[a + 1u], topo[a + 2u], topo[a + 3u]); }
fn surface(k: u32) -> u32 { return topo[W.surface_at + k]; }
fn uses(i: u32) -> u32 { return u32(atomicLoad(&sums[W.uses_at + i])); }

fn world_pos(i: u32) -> vec3f { return x[i].xyz + bodies[vertex_body(i)].origin; }
fn cell_of(p: vec3f) -> vec3i { return vec3i(floor(p / W.cell)); }
fn hash(c: vec3i) -> u32 {
  // Large odd multipliers spread neighbouring cells over the table (Teschner et al. 2003).
  let h = (u32(c.x) * 92837111u) ^ (u32(c.y) * 689287499u) ^ (u32(c.z) * 283923481u);
  return h % W.table;
}

// A triangle's box: its centre's cell and its half size (m), for count and scatter alike.
struct Box { h: u32, half: f32, centre: vec3f, body: u32 }
fn tri_box(k: u32) -> Box {
  let t = tri(k);
  let a = world_pos(t.x);
  let b = world_pos(t.y);
  let c = world_pos(t.z);
  let lo = min(min(a, b), c);
  let hi = max(max(a, b), c);
  let size = hi - lo;
  let centre = (lo + hi) * 0.5;
  return Box(hash(cell_of(centre)), 0.5 * max(max(size.x, size.y), size.z), centre, t.w);
}

// Counting sort, 1: each triangle counted in its centre's cell; the largest half box kept.
@compute @workgroup_size(64)
fn count(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= W.triangles) { return; }
  let box = tri_box(gid.x);
  if (!(box.half < 1e6)) { return; }   // not finite: a diverged body is not hashed (scatter skips it too)
  atomicAdd(&sums[W.count_at + box.h], 1);
  atomicMax(&sums[1], bitcast<i32>(box.half));   // non-negative floats order as their bits
}

// 2: each cell its range: an exclusive prefix sum of the counts over this workgroup's cells, the
// workgroup's block placed after those already placed (one atomic per workgroup). The count becomes
// the cell's cursor.
var<workgroup> scan: array<u32, ${CELL_GROUP}>;
var<workgroup> block_base: u32;
@compute @workgroup_size(${CELL_GROUP})
fn allocate(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) l: u32) {
  let h = gid.x;
  var n = 0u;
  if (h < W.table) { n = u32(atomicLoad(&sums[W.count_at + h])); }
  scan[l] = n;
  workgroupBarrier();
  // Hillis-Steele inclusive scan over the workgroup's cells.
  for (var step = 1u; step < ${CELL_GROUP}u; step *= 2u) {
    var add = 0u;
    if (l >= step) { add = scan[l - step]; }
    workgroupBarrier();
    scan[l] += add;
    workgroupBarrier();
  }
  if (l == ${CELL_GROUP - 1}u) { block_base = u32(atomicAdd(&sums[0], i32(scan[l]))); }
  let base = workgroupUniformLoad(&block_base);
  if (h < W.table) {
    let start = base + scan[l] - n;
    cells[h] = start;
    atomicStore(&sums[W.count_at + h], i32(start));
  }
}

// 3: each triangle into the next slot of its cell's range; the cursors end at the ranges' ends. An
// entry is the triangle's index and its box (centre and half size, m): detect passes over its own
// body's entries by their index (4 B) and rejects most others by their box (16 B), read in order,
// without gathering their vertices.
@compute @workgroup_size(64)
fn scatter(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= W.triangles) { return; }
  let box = tri_box(gid.x);
  if (!(box.half < 1e6)) { return; }
  let slot = u32(atomicAdd(&sums[W.count_at + box.h], 1));
  cells[W.table + slot] = gid.x;
  let at = W.table + W.triangles + 4u * slot;
  cells[at] = bitcast<u32>(box.centre.x);
  cells[at + 1u] = bitcast<u32>(box.centre.y);
  cells[at + 2u] = bitcast<u32>(box.centre.z);
  cells[at + 3u] = bitcast<u32>(box.half);
}

${CLOSEST_ON_TRIANGLE}

// Each surface vertex: its nearest allowed triangle of another body within the reach (ties to the
// plane it is most clearly in front of or behind); a contact when nearer than the gap.
@compute @workgroup_size(64)
fn detect(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= W.surface) { return; }
  let v = surface(gid.x);
  contacts[gid.x].tri = 0xffffffffu;
  let xv = world_pos(v);
  let A = bodies[vertex_body(v)];
  var best_key = 2147483647;
  var best_clear = -1.0;
  var best_tri = 0xffffffffu;
  let r = W.reach;
  // Every cell a triangle whose box centre is within (largest half box + reach) of the vertex can be
  // listed in (a cell shared through the hash is searched as often as it comes up: the same keys, so
  // the same choice).
  let span = bitcast<f32>(atomicLoad(&sums[1])) + r;
  let lo = cell_of(xv - vec3f(span));
  let hi = min(cell_of(xv + vec3f(span)), lo + vec3i(${MAX_SPAN - 1}));
  for (var ci = lo.x; ci <= hi.x; ci++) {
  for (var cj = lo.y; cj <= hi.y; cj++) {
  for (var ck = lo.z; ck <= hi.z; ck++) {
  let h = hash(vec3i(ci, cj, ck));
  let end = u32(atomicLoad(&sums[W.count_at + h]));
  for (var e = cells[h]; e < end; e++) {
    let ti = cells[W.table + e];
    if (ti >= A.tri_begin && ti < A.tri_end) { continue; }     // no self-collision on the GPU
    // Outside the triangle's box widened by the reach: not within reach (a margin of 10^-5 relative
    // for the rounding of the box's centre and half size; the exact test follows).
    let at = W.table + W.triangles + 4u * e;
    let centre = vec3f(bitcast<f32>(cells[at]), bitcast<f32>(cells[at + 1u]), bitcast<f32>(cells[at + 2u]));
    let off = abs(xv - centre);
    if (max(max(off.x, off.y), off.z) > (bitcast<f32>(cells[at + 3u]) + r) * 1.00001) { continue; }
    let t = tri(ti);
    let B = bodies[t.w];
    if ((A.group & B.mask) == 0u || (B.group & A.mask) == 0u) { continue; }
    let p0 = world_pos(t.x);
    let p1 = world_pos(t.y);
    let p2 = world_pos(t.z);
    let q = closest_on_triangle(xv, p0, p1, p2);
    let d = xv - q.q;
    let d2 = dot(d, d);
    if (!(d2 < r * r)) { continue; }
    let face = cross(p1 - p0, p2 - p0);
    let face_len = length(face);
    var clear = 0.0;
    if (face_len > 0.0) { clear = abs(dot(d, face)) / face_len; }
    // The core's tie rule (distances within 1e-4 relative tie; the tie goes to the plane the vertex
    // is most clearly in front of or behind) made independent of the order the hash lists them in,
    // which comes from atomics: distances compared in steps of 1e-4 relative, then the clearance,
    // then the triangle's index.
    let key = select(i32(floor(log2(d2) * 6932.0)), -2147483647, d2 < 1e-30);
    if (key < best_key || (key == best_key && (clear > best_clear || (clear == best_clear && ti < best_tri)))) {
      best_key = key;
      best_clear = clear;
      best_tri = ti;
    }
  }
  }
  }
  }
  if (best_tri == 0xffffffffu) { return; }
  let t = tri(best_tri);
  let p0 = world_pos(t.x);
  let p1 = world_pos(t.y);
  let p2 = world_pos(t.z);
  let q = closest_on_triangle(xv, p0, p1, p2);
  let face = cross(p1 - p0, p2 - p0);
  let face_len = length(face);
  if (face_len == 0.0) { return; }
  var n = face * (1.0 / face_len);   // outward: surface triangles wind counter-clockwise from outside
  let away = xv - q.q;
  var s = dot(away, n);
  if (!q.in_face) {
    let len = length(away);
    if (len > 1e-7) {
      let side = select(-1.0, 1.0, s >= 0.0);
      n = away * (side / len);
      s = side * len;
    }
  }
  if (!(s < W.gap)) { return; }
  let w_sum = x[v].w + q.w.x * q.w.x * x[t.x].w + q.w.y * q.w.y * x[t.y].w + q.w.z * q.w.z * x[t.z].w;
  if (w_sum == 0.0) { return; }
  contacts[gid.x] = Contact(n, s - W.gap, q.w, best_tri);
  atomicAdd(&sums[W.uses_at + v], 1);
  atomicAdd(&sums[W.uses_at + t.x], 1);
  atomicAdd(&sums[W.uses_at + t.y], 1);
  atomicAdd(&sums[W.uses_at + t.z], 1);
}

fn push(i: u32, d: vec3f) {
  let q = vec3i(round(d * ${FIXED}.0));
  let at = W.delta_at + 3u * i;
  atomicAdd(&sums[at], q.x);
  atomicAdd(&sums[at + 1u], q.y);
  atomicAdd(&sums[at + 2u], q.z);
}

// Each contact: the normal correction and friction, scaled by 1 / (most uses of its vertices); run
// ROUNDS times per substep (with apply between), each from the positions the last one left.
@compute @workgroup_size(64)
fn solve(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= W.surface) { return; }
  let c = contacts[gid.x];
  if (c.tri == 0xffffffffu) { return; }
  let v = surface(gid.x);
  let t = tri(c.tri);
  let scale = 1.0 / f32(max(max(uses(v), uses(t.x)), max(uses(t.y), uses(t.z))));
  let wv = x[v].w;
  let wt = vec3f(x[t.x].w, x[t.y].w, x[t.z].w);
  let b = c.w;
  let w_sum = wv + dot(b * b, wt);
  // C now (the last round's corrections applied), along the normal found by detect.
  let C = dot(world_pos(v) - (world_pos(t.x) * b.x + world_pos(t.y) * b.y + world_pos(t.z) * b.z), c.n) - W.gap;
  if (!(C < 0.0)) { return; }
  let lambda = -C / w_sum * scale;
  // Friction: the substep's relative tangential motion of the vertex against the triangle's point,
  // removed up to mu x the normal correction (static inside the cone, kinetic outside).
  let rel = (x[v].xyz - prev[v].xyz) - (x[t.x].xyz - prev[t.x].xyz) * b.x - (x[t.y].xyz - prev[t.y].xyz) * b.y - (x[t.z].xyz - prev[t.z].xyz) * b.z;
  let tangential = rel - c.n * dot(rel, c.n);
  let slide = length(tangential);
  let mu = sqrt(bodies[vertex_body(v)].friction * bodies[t.w].friction);
  let limit = mu * (-C) * scale;
  var f = vec3f(0.0);
  if (slide > 0.0) { f = tangential * (min(limit / slide, scale) / w_sum); }
  // Momentum: the vertex's change (m_v w_v = 1) and the triangle's (sum b_i = 1) cancel.
  push(v, (c.n * lambda - f) * wv);
  push(t.x, (f - c.n * lambda) * (b.x * wt.x));
  push(t.y, (f - c.n * lambda) * (b.y * wt.y));
  push(t.z, (f - c.n * lambda) * (b.z * wt.z));
}

// Every vertex: the summed corrections, then cleared for the next substep.
@compute @workgroup_size(64)
fn apply(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= W.vertices) { return; }
  let at = W.delta_at + 3u * i;
  let d = vec3f(f32(atomicExchange(&sums[at], 0)), f32(atomicExchange(&sums[at + 1u], 0)), f32(atomicExchange(&sums[at + 2u], 0))) / ${FIXED}.0;
  let xi = x[i];
  x[i] = vec4f(xi.xyz + d, xi.w);
}
`;

function makeKernels(device) {
  const S = GPUShaderStage.COMPUTE;
  const entry = (binding, type) => ({ binding, visibility: S, buffer: { type } });
  const layout = device.createBindGroupLayout({
    entries: [entry(0, 'uniform'), entry(1, 'storage'), entry(2, 'read-only-storage'), entry(3, 'read-only-storage'), entry(4, 'read-only-storage'),
      entry(5, 'storage'), entry(6, 'storage'), entry(7, 'storage')],
  });
  const module = device.createShaderModule({ code: WGSL, label: 'body contact' });
  const pipes = device.createPipelineLayout({ bindGroupLayouts: [layout] });
  const pipeline = (entryPoint) => device.createComputePipeline({ layout: pipes, compute: { module, entryPoint } });
  return { layout, count: pipeline('count'), allocate: pipeline('allocate'), scatter: pipeline('scatter'), detect: pipeline('detect'), solve: pipeline('solve'), apply: pipeline('apply') };
}

// The world's side: every body's vertices and surface in one numbering, rebuilt when the bodies change.
// shared: the world's vertex buffers ({ x, prev } of gpu_merged.js, the same numbering), run on in
// place; without them each body's x and prev are copied in and x back around the contacts.
export class WorldContact {
  constructor(world, bodies, shared = null) {
    const { device } = world;
    this.world = world;
    this.bodies = bodies;
    this.shared = shared;
    this.kernels = (world.bodyContactKernels ??= makeKernels(device));
    const U = GPUBufferUsage;
    const buffer = (bytes, usage, label) => device.createBuffer({ size: Math.max(16, bytes), usage, label });
    const init = (array, label) => {
      const b = buffer(array.byteLength, U.STORAGE | U.COPY_DST, label);
      device.queue.writeBuffer(b, 0, array);
      return b;
    };
    const { base, vertices } = vertexBases(bodies);
    this.base = base;
    this.vertices = vertices;
    const vertexBody = new Uint32Array(vertices);
    const triangles = [];
    const surface = [];
    let longest = 0; // m, the longest rest edge of a surface triangle
    this.triBase = [];
    bodies.forEach((b, k) => {
      this.triBase.push(triangles.length / 4);
      vertexBody.fill(k, this.base[k], this.base[k] + b.vertexCount);
      const seen = new Uint8Array(b.vertexCount);
      const t = b.triangles;
      const p = b.body.positions; // the creation shape
      for (let i = 0; i < t.length; i += 3) {
        triangles.push(this.base[k] + t[i], this.base[k] + t[i + 1], this.base[k] + t[i + 2], k);
        for (let j = 0; j < 3; ++j) {
          if (!seen[t[i + j]]) surface.push(this.base[k] + t[i + j]);
          seen[t[i + j]] = 1;
          const a = 3 * t[i + j], c = 3 * t[i + ((j + 1) % 3)];
          longest = Math.max(longest, Math.hypot(p[a] - p[c], p[a + 1] - p[c + 1], p[a + 2] - p[c + 2]));
        }
      }
    });
    this.triangleCount = triangles.length / 4;
    this.triBase.push(this.triangleCount);
    this.surfaceCount = surface.length;
    // Cells of half the longest rest edge (a triangle's largest half box at rest, in any orientation)
    // plus the reach: a vertex then searches 3 cells per axis while no triangle is stretched. The size
    // only sets the search's cost; what is found does not depend on it (detect widens its search by
    // the largest half box measured each substep).
    this.cell = 0.5 * longest + GAP + SEARCH;
    // Hash cells: 2 per triangle (8 B each: its range's start and end), so collisions rarely share one.
    this.table = Math.ceil(Math.max(CELL_GROUP, 2 * this.triangleCount) / CELL_GROUP) * CELL_GROUP;
    this.uniform = buffer(64, U.UNIFORM | U.COPY_DST, 'body contact world');
    const u = new ArrayBuffer(64);
    new Float32Array(u, 0, 3).set([this.cell, GAP + SEARCH, GAP]);
    const topo = new Uint32Array(vertices + triangles.length + surface.length);
    topo.set(vertexBody, 0);
    topo.set(triangles, vertices);
    topo.set(surface, vertices + triangles.length);
    // sums: [placed, largest half box, 2 unused], counts (table), contact uses (vertices), corrections (3 x vertices).
    this.countAt = 4;
    const usesAt = this.countAt + this.table;
    new Uint32Array(u, 12, 9).set([this.table, this.triangleCount, this.surfaceCount, vertices, vertices, vertices + triangles.length, usesAt, usesAt + vertices, this.countAt]);
    device.queue.writeBuffer(this.uniform, 0, u);
    this.x = shared?.x ?? buffer(16 * vertices, U.STORAGE | U.COPY_DST | U.COPY_SRC, 'all x');
    this.prev = shared?.prev ?? buffer(16 * vertices, U.STORAGE | U.COPY_DST, 'all prev');
    this.bodyInfo = buffer(32 * bodies.length, U.STORAGE | U.COPY_DST, 'bodies');
    this.topo = init(topo, 'vertex bodies, triangles, surface vertices');
    this.sums = buffer(4 * (this.countAt + this.table + 4 * vertices), U.STORAGE | U.COPY_DST | U.COPY_SRC, 'hash counts, contact uses, corrections');
    this.cells = buffer(4 * (this.table + ENTRY * this.triangleCount), U.STORAGE | U.COPY_SRC, 'hash ranges and entries');
    this.contacts = buffer(32 * this.surfaceCount, U.STORAGE | U.COPY_SRC, 'contacts'); // COPY_SRC: the bench counts them
    const list = [this.uniform, this.x, this.prev, this.bodyInfo, this.topo, this.sums, this.cells, this.contacts];
    this.buffers = list.filter((b) => !shared || (b !== shared.x && b !== shared.prev)); // the world's are not ours to destroy
    this.group = device.createBindGroup({ layout: this.kernels.layout, entries: list.map((b, binding) => ({ binding, resource: { buffer: b } })) });
  }

  // Per frame: each body's origin, friction and filter.
  writeBodies() {
    const data = new ArrayBuffer(32 * this.bodies.length);
    this.bodies.forEach((b, k) => {
      new Float32Array(data, 32 * k, 4).set([...b.origin, b.p.friction]);
      new Uint32Array(data, 32 * k + 16, 4).set([b.group, b.mask, this.triBase[k], this.triBase[k + 1]]);
    });
    this.world.device.queue.writeBuffer(this.bodyInfo, 0, data);
  }

  // Between the bodies' substep ends and their velocities: gather, hash, detect, solve, scatter.
  encode(encoder) {
    if (!this.shared) {
      this.bodies.forEach((b, k) => {
        encoder.copyBufferToBuffer(b.x, 0, this.x, 16 * this.base[k], 16 * b.vertexCount);
        encoder.copyBufferToBuffer(b.prev, 0, this.prev, 16 * this.base[k], 16 * b.vertexCount);
      });
    }
    encoder.clearBuffer(this.sums, 0, 4 * (this.countAt + this.table + this.vertices)); // hash counts and contact uses
    const pass = encoder.beginComputePass({ label: 'body contact' });
    pass.setBindGroup(0, this.group);
    const run = (name, n, group = WORKGROUP) => {
      pass.setPipeline(this.kernels[name]);
      pass.dispatchWorkgroups(Math.max(1, Math.ceil(n / group)));
    };
    run('count', this.triangleCount);
    run('allocate', this.table, CELL_GROUP);
    run('scatter', this.triangleCount);
    run('detect', this.surfaceCount);
    for (let k = 0; k < ROUNDS; ++k) {
      run('solve', this.surfaceCount);
      run('apply', this.vertices);
    }
    pass.end();
    if (!this.shared) this.bodies.forEach((b, k) => encoder.copyBufferToBuffer(this.x, 16 * this.base[k], b.x, 0, 16 * b.vertexCount));
    return CONTACT_DISPATCHES;
  }

  destroy() {
    for (const b of this.buffers) b.destroy();
  }
}
