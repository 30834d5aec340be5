// WGSL compute kernels of the XPBD substep for tet bodies: the same arithmetic as the C++ core
// (core/solver/soft_body_position_based.cpp: predict, update_velocities; core/solver/xpbd_constraints.cpp:
// the edge and volume projections, solve_ground), one invocation per vertex or per constraint.
// Positions are xyzw with the inverse mass in w (1/kg), as the core's packed passes, and relative to
// an origin in the body (gpu_world.js), as the core's passes run on x - origin: float spacing is
// then that of the body's size, not of its distance from the world's origin.

// The body's per-substep parameters (one uniform block, written before each frame).
export const PARAMS = /* wgsl */ `
struct Params {
  gravity: vec3f,        // m/s^2
  h: f32,                // s, substep
  damping: f32,          // exp(-damping h): the velocity kept per substep
  edge_alpha: f32,       // alpha~ = edge compliance (m/N) / h^2
  volume_alpha: f32,     // alpha~ = volume compliance (m^5/N) / h^2
  friction: f32,         // Coulomb coefficient against the ground
  restitution: f32,      // ground bounce, normal speed after / before
  rest_threshold: f32,   // m/s: slower impacts rest (2 |g| h, as the core)
  vertex_count: u32,
  flags: u32,            // 1: ground; 2: multipliers kept (several passes)
  floor_y: f32,          // m: the ground y = 0 in the body's coordinates (positions are x - origin)
}
@group(0) @binding(0) var<uniform> P: Params;
`;

// solve_ground for a vertex below the ground (y < floor_y, m): onto it, and the sliding of this
// substep (from p, m) undone up to friction x the push (m). Shared by finish, the world's merged
// finish and the unfused substep's ground (contact_wgsl.js), so all round alike.
export const GROUND_PUSH = /* wgsl */ `
fn ground_push(x_in: vec4f, p: vec3f, floor_y: f32, friction: f32) -> vec4f {
  var xi = x_in;
  let depth = floor_y - xi.y;
  xi.y = floor_y;
  let dx = xi.x - p.x;
  let dz = xi.z - p.z;
  let slide_sq = dx * dx + dz * dz;
  let limit = friction * depth;
  if (slide_sq <= limit * limit) {
    xi.x = p.x;
    xi.z = p.z;
  } else {
    let k = limit / sqrt(slide_sq);
    xi.x -= dx * k;
    xi.z -= dz * k;
  }
  return xi;
}
`;

// Per vertex: predict (v damped, v += g h; prev = x; x += v h) and finish (the ground with friction,
// then v from the substep's motion with the ground's restitution). What differs between bodies
// (damping, friction, restitution, floor_y) comes through accessors of vertex i: one body's Params,
// or, in a world's merged vertex buffers (gpu_merged.js), the parameters of the body owning vertex i.
export const VERTEX_SOLVE = /* wgsl */ `${GROUND_PUSH}
@group(0) @binding(1) var<storage, read_write> x: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> prev: array<vec4f>;
@group(0) @binding(3) var<storage, read_write> vel: array<vec4f>;
@group(0) @binding(4) var<storage, read> inv_mass: array<f32>;  // 1/kg, 0 = pinned

@compute @workgroup_size(64)
fn predict(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= P.vertex_count) { return; }
  let xi = x[i].xyz;
  // The inverse mass goes into w here, so pins and mass changes take effect at the next substep.
  let w = inv_mass[i];
  prev[i] = vec4f(xi, 0.0);
  // A pinned vertex does not move in the substep.
  if (w == 0.0) { x[i] = vec4f(xi, w); return; }
  let v = vel[i].xyz * vertex_damping(i) + P.gravity * P.h;
  vel[i] = vec4f(v, 0.0);
  x[i] = vec4f(xi + v * P.h, w);
}

@compute @workgroup_size(64)
fn finish(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= P.vertex_count) { return; }
  var xi = x[i];
  if (xi.w == 0.0) { vel[i] = vec4f(0.0); return; }
  let p = prev[i].xyz;
  let ground = (P.flags & 1u) != 0u;
  let floor_y = vertex_floor_y(i);
  if (ground && xi.y < floor_y) {
    xi = ground_push(xi, p, floor_y, vertex_friction(i));
    x[i] = xi;
  }
  // v += (x - x_predicted) / h, x_predicted recomputed as predict rounded it (update_velocities).
  var v = vel[i].xyz;
  let pre_vy = v.y;
  let inv_h = 1.0 / P.h;
  v += (xi.xyz - (p + v * P.h)) * inv_h;
  if (ground && xi.y <= floor_y) {
    v.y = select(0.0, -vertex_restitution(i) * pre_vy, pre_vy < -P.rest_threshold);
  }
  vel[i] = vec4f(v, 0.0);
}
`;
// vertex_origin(i): what a collider pose written in world coordinates loses to be in vertex i's
// body coordinates (contact_wgsl.js); a body's own collider entries are already relative: zero.
export const OWN_VERTEX_PARAMS = /* wgsl */ `
fn vertex_damping(i: u32) -> f32 { return P.damping; }
fn vertex_friction(i: u32) -> f32 { return P.friction; }
fn vertex_restitution(i: u32) -> f32 { return P.restitution; }
fn vertex_floor_y(i: u32) -> f32 { return P.floor_y; }
fn vertex_origin(i: u32) -> vec3f { return vec3f(0.0); }
`;
// The world's Params (gravity, h, rest_threshold, vertex_count = all bodies', flags: the ground) and,
// per body, what differs, at group 0's bindings `owners` (per body) and `owner` (per vertex).
export function vertexOwnerParams(owners, owner) {
  return /* wgsl */ `
struct VertexOwner { damping: f32, friction: f32, restitution: f32, floor_y: f32, origin: vec3f, _pad: f32 }
@group(0) @binding(${owners}) var<storage, read> vertex_owners: array<VertexOwner>;  // per body
@group(0) @binding(${owner}) var<storage, read> vertex_owner: array<u32>;            // per vertex: its body
fn vertex_damping(i: u32) -> f32 { return vertex_owners[vertex_owner[i]].damping; }
fn vertex_friction(i: u32) -> f32 { return vertex_owners[vertex_owner[i]].friction; }
fn vertex_restitution(i: u32) -> f32 { return vertex_owners[vertex_owner[i]].restitution; }
fn vertex_floor_y(i: u32) -> f32 { return vertex_owners[vertex_owner[i]].floor_y; }
fn vertex_origin(i: u32) -> vec3f { return vertex_owners[vertex_owner[i]].origin; }
`;
}
export const VERTEX_OWNER_PARAMS = vertexOwnerParams(5, 6);
export const VERTEX_WGSL = `${PARAMS}${OWN_VERTEX_PARAMS}${VERTEX_SOLVE}`;

// One batch of constraints that share no vertex (core/solver/parallel_batches.h): the constraint
// arrays are uploaded batch by batch, so batch b is the range [offset, offset + count).
const BATCH = /* wgsl */ `
struct Batch { offset: u32, count: u32 }
@group(1) @binding(0) var<uniform> B: Batch;
@group(0) @binding(1) var<storage, read_write> x: array<vec4f>;
@group(0) @binding(4) var<storage, read_write> lambda: array<f32>;
`;

// Where a constraint's compliance and flags come from: one body's Params (P), or, in a world's
// merged batches (gpu_merged.js), the parameters of the body that owns constraint k.
const OWN_PARAMS = /* wgsl */ `
fn edge_alpha(k: u32) -> f32 { return P.edge_alpha; }
fn volume_alpha(k: u32) -> f32 { return P.volume_alpha; }
fn flags(k: u32) -> u32 { return P.flags; }
`;
export const OWNER_PARAMS = /* wgsl */ `
struct Owner { edge_alpha: f32, volume_alpha: f32, flags: u32, _pad: u32 }
@group(0) @binding(0) var<storage, read> owners: array<Owner>;   // per body
@group(0) @binding(5) var<storage, read> owner: array<u32>;      // per constraint: its body
fn edge_alpha(k: u32) -> f32 { return owners[owner[k]].edge_alpha; }
fn volume_alpha(k: u32) -> f32 { return owners[owner[k]].volume_alpha; }
fn flags(k: u32) -> u32 { return owners[owner[k]].flags; }
`;

// Distance per edge, C = |xa - xb| - l0 (EdgePass): delta_lambda = (-C - alpha~ lambda) / (w + alpha~).
export const EDGE_SOLVE = /* wgsl */ `${BATCH}
@group(0) @binding(2) var<storage, read> ids: array<vec2u>;
@group(0) @binding(3) var<storage, read> rest: array<f32>;   // l0, m

@compute @workgroup_size(64)
fn solve(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= B.count) { return; }
  let k = B.offset + gid.x;
  let id = ids[k];
  let xa = x[id.x];
  let xb = x[id.y];
  let wa = xa.w;
  let wb = xb.w;
  let w = wa + wb;
  if (w == 0.0) { return; }
  let d = xa.xyz - xb.xyz;
  let len = sqrt(dot(d, d));
  if (len == 0.0) { return; }
  let C = len - rest[k];
  let alpha = edge_alpha(k);
  let keep = (flags(k) & 2u) != 0u;
  var lam = 0.0;
  if (keep) { lam = lambda[k]; }
  let s = (-C - alpha * lam) / ((w + alpha) * len);  // delta_lambda / len
  if (keep) { lambda[k] = lam + s * len; }
  x[id.x] = vec4f(xa.xyz + d * (s * wa), wa);
  x[id.y] = vec4f(xb.xyz - d * (s * wb), wb);
}
`;

// Volume per tet, C = 6 (V - V0) (VolumePass): gradients g1 = e2 x e3, g2 = e3 x e1, g3 = e1 x e2,
// g0 = -(g1 + g2 + g3).
export const TET_SOLVE = /* wgsl */ `${BATCH}
@group(0) @binding(2) var<storage, read> ids: array<vec4u>;
@group(0) @binding(3) var<storage, read> rest6: array<f32>;  // 6 V0, m^3

@compute @workgroup_size(64)
fn solve(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= B.count) { return; }
  let k = B.offset + gid.x;
  let id = ids[k];
  let x0 = x[id.x];
  let x1 = x[id.y];
  let x2 = x[id.z];
  let x3 = x[id.w];
  let e1 = x1.xyz - x0.xyz;
  let e2 = x2.xyz - x0.xyz;
  let e3 = x3.xyz - x0.xyz;
  let g1 = cross(e2, e3);
  let g2 = cross(e3, e1);
  let g3 = cross(e1, e2);
  let g0 = -(g1 + g2 + g3);
  let vol6 = dot(g3, e3);
  let w = x0.w * dot(g0, g0) + x1.w * dot(g1, g1) + x2.w * dot(g2, g2) + x3.w * dot(g3, g3);
  if (w == 0.0) { return; }
  let C = vol6 - rest6[k];
  let alpha = volume_alpha(k);
  let keep = (flags(k) & 2u) != 0u;
  var lam = 0.0;
  if (keep) { lam = lambda[k]; }
  let s = (-C - alpha * lam) / (w + alpha);  // delta_lambda
  if (keep) { lambda[k] = lam + s; }
  x[id.x] = vec4f(x0.xyz + g0 * (s * x0.w), x0.w);
  x[id.y] = vec4f(x1.xyz + g1 * (s * x1.w), x1.w);
  x[id.z] = vec4f(x2.xyz + g2 * (s * x2.w), x2.w);
  x[id.w] = vec4f(x3.xyz + g3 * (s * x3.w), x3.w);
}
`;

// One body's constraint kernels (its own buffers, its Params).
export const EDGE_WGSL = `${PARAMS}${OWN_PARAMS}${EDGE_SOLVE}`;
export const TET_WGSL = `${PARAMS}${OWN_PARAMS}${TET_SOLVE}`;
