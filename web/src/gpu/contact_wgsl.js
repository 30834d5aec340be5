// WGSL kernels of the substep's contacts with colliders (plane, sphere, box, capsule), the same rules
// and arithmetic as the C++ core (core/contact/collider.cpp: signed_distance, first_hit,
// contact_particle, solve_collider_faces, restitution_velocity; core/math/closest_points.cpp), and
// the XPBD substep's end when colliders are there (soft_body_position_based.cpp: the ground, each
// collider's particles then faces, then the velocities with restitution). Positions are x - origin
// (xpbd_wgsl.js), so the collider poses are written relative to the same origin (gpu_colliders.js).
import { GROUND_PUSH, PARAMS } from './xpbd_wgsl.js';

// Each kernel below is made for one body (its Params, collider poses relative to its origin) or for
// a world's vertex buffers (per-vertex accessors through the vertex's body, collider poses in world
// coordinates, made relative to the vertex's body origin in the kernel): `access` is the WGSL of
// vertex_friction, vertex_restitution, vertex_floor_y and vertex_origin (xpbd_wgsl.js), with the
// bindings it needs (group 0, after the ones here).

// Group 0: the body's buffers. record: per vertex [normal xyz, restitution (-1: no collider contact)]
// and [surface velocity xyz (m/s), 0], as ContactRecord.
const BUFFERS = /* wgsl */ `
@group(0) @binding(1) var<storage, read_write> x: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> prev: array<vec4f>;
@group(0) @binding(3) var<storage, read_write> vel: array<vec4f>;
@group(0) @binding(4) var<storage, read_write> record: array<vec4f>;
@group(0) @binding(5) var<storage, read> tris: array<u32>;   // surface triangles, colour by colour
struct Batch { offset: u32, count: u32 }
@group(1) @binding(0) var<uniform> B: Batch;
// One collider over one substep: its pose at the substep's start (before) and end (after).
struct Shape {
  before_pos: vec3f,   // m, relative to the body's origin (world coordinates in a world's entries)
  kind: u32,           // 0 plane, 1 sphere, 2 box, 3 capsule (ShapeKind)
  before_rot: vec4f,   // unit quaternion xyzw
  after_pos: vec3f,
  moving: u32,         // 1 when the collider moves this frame
  after_rot: vec4f,
  size: vec3f,         // m: radius / half extents / (radius, half length)
  friction: f32,
  restitution: f32,
}
@group(2) @binding(0) var<uniform> C: Shape;
`;

const GEOMETRY = /* wgsl */ `
fn rotate(q: vec4f, v: vec3f) -> vec3f {
  let u = q.xyz;
  let t = cross(u, v) * 2.0;
  return v + t * q.w + cross(u, t);
}
fn conj(q: vec4f) -> vec4f { return vec4f(-q.xyz, q.w); }
fn to_local(pos: vec3f, rot: vec4f, p: vec3f) -> vec3f { return rotate(conj(rot), p - pos); }
fn to_world(pos: vec3f, rot: vec4f, p: vec3f) -> vec3f { return rotate(rot, p) + pos; }
fn sgn(v: f32) -> f32 { return select(1.0, -1.0, v < 0.0); }

struct Dist { d: f32, n: vec3f }

// signed_distance at the pose (pos, rot): m, negative inside, with the outward unit normal.
fn distance(pos: vec3f, rot: vec4f, p: vec3f) -> Dist {
  let kind = C.kind;
  if (kind == 0u) {
    let n = rotate(rot, vec3f(0.0, 1.0, 0.0));
    return Dist(dot(p - pos, n), n);
  }
  if (kind == 1u) {
    let v = p - pos;
    let len = length(v);
    var n = vec3f(0.0, 1.0, 0.0);
    if (len > 1e-12) { n = v * (1.0 / len); }
    return Dist(len - C.size.x, n);
  }
  let q = to_local(pos, rot, p);
  var nl = vec3f(0.0, 1.0, 0.0);
  var d = 0.0;
  if (kind == 2u) {
    // box_distance: the nearest feature outside, the nearest face's plane inside.
    let h = C.size;
    let e = abs(q) - h;
    let outside = max(e, vec3f(0.0));
    let out_len = length(outside);
    if (out_len > 0.0) {
      nl = vec3f(outside.x * sgn(q.x), outside.y * sgn(q.y), outside.z * sgn(q.z)) * (1.0 / out_len);
      d = out_len;
    } else if (e.x >= e.y && e.x >= e.z) {
      nl = vec3f(sgn(q.x), 0.0, 0.0);
      d = e.x;
    } else if (e.y >= e.z) {
      nl = vec3f(0.0, sgn(q.y), 0.0);
      d = e.y;
    } else {
      nl = vec3f(0.0, 0.0, sgn(q.z));
      d = e.z;
    }
  } else {
    let axis_point = vec3f(0.0, clamp(q.y, -C.size.y, C.size.y), 0.0);
    let v = q - axis_point;
    let len = length(v);
    nl = vec3f(1.0, 0.0, 0.0);
    if (len > 1e-12) { nl = v * (1.0 / len); }
    d = len - C.size.x;
  }
  return Dist(d, rotate(rot, nl));
}
`;

// Per vertex, one collider: contact_particle with first_hit's sphere tracing.
export const particleWgsl = (access) => /* wgsl */ `${PARAMS}${BUFFERS}${access}${GEOMETRY}
struct Hit { t: f32, p: vec3f, n: vec3f }

// first_hit: where the segment a -> b first meets the collider at its end pose (t < 0: never).
fn first_hit(a: vec3f, da: f32, b: vec3f, after_pos: vec3f) -> Hit {
  let seg = b - a;
  let len = length(seg);
  let touch = max(1e-6, 1e-3 * len);
  var t = 0.0;
  var d = da;
  for (var k = 0; k < 64; k++) {
    t += d / len;
    if (t >= 1.0) { break; }
    let p = a + seg * t;
    let q = distance(after_pos, C.after_rot, p);
    d = q.d;
    if (d <= touch) { return Hit(t, p, q.n); }
  }
  return Hit(-1.0, a, vec3f(0.0, 1.0, 0.0));
}

@compute @workgroup_size(64)
fn particles(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= P.vertex_count) { return; }
  let xw = x[i];
  if (xw.w == 0.0) { return; }   // pinned or held
  // The collider's poses in this vertex's body coordinates (float32 subtraction, correctly rounded:
  // as the CPU's for a body's own entries).
  let o = vertex_origin(i);
  let before_pos = C.before_pos - o;
  let after_pos = C.after_pos - o;
  var xi = xw.xyz;
  let p = prev[i].xyz;
  // The path relative to the collider: its start carried into the collider's end pose.
  var start = p;
  if (C.moving != 0u) { start = to_world(after_pos, C.after_rot, to_local(before_pos, C.before_rot, p)); }
  let path = length(xi - start);
  let on_surface = max(1e-5, 1e-3 * path);
  let now = distance(after_pos, C.after_rot, xi);
  var n = now.n;
  let d = now.d;
  if (d >= 0.0 && path <= d) { return; }
  let s = distance(after_pos, C.after_rot, start);
  var hit = start;
  var n_hit = s.n;
  var entered = false;
  if (s.d > -on_surface) {
    if (s.d <= 0.0) {
      entered = true;
    } else {
      let f = first_hit(start, s.d, xi, after_pos);
      if (f.t >= 0.0) {
        entered = true;
        hit = f.p;
        n_hit = f.n;
      }
    }
  }
  var depth = 0.0;
  if (d >= 0.0) {
    if (!entered) { return; }
    depth = dot(hit - xi, n_hit);
    if (depth <= d + on_surface) { return; }
    n = n_hit;
  } else if (entered && dot(hit - xi, n_hit) > 0.0) {
    n = n_hit;
    depth = dot(hit - xi, n_hit);
  } else {
    depth = -d;
    let back = dot(start - s.n * s.d - xi, s.n);
    if (s.d < 0.0 && d < s.d && back > 0.0) {
      n = s.n;
      depth = back;
    }
  }
  xi = xi + n * depth;
  let surface_motion = xi - to_world(before_pos, C.before_rot, to_local(after_pos, C.after_rot, xi));
  let motion = xi - p - surface_motion;
  let tangential = motion - n * dot(motion, n);
  let slide = length(tangential);
  let limit = C.friction * depth;
  if (slide <= limit) {
    xi = xi - tangential;
  } else if (slide > 0.0) {
    xi = xi - tangential * (limit / slide);
  }
  x[i] = vec4f(xi, xw.w);
  record[2u * i] = vec4f(n, C.restitution);
  record[2u * i + 1u] = vec4f(surface_motion * (1.0 / P.h), 0.0);
}
`;

// closest_on_triangle (core/math/closest_points.cpp): Ericson's Voronoi-region cases, for every
// shader that needs it (the colliders' face pass here, body contact in gpu_body_contact.js).
export const CLOSEST_ON_TRIANGLE = /* wgsl */ `
struct Closest { q: vec3f, w: vec3f, in_face: bool }

fn closest_on_triangle(p: vec3f, a: vec3f, b: vec3f, c: vec3f) -> Closest {
  let ab = b - a;
  let ac = c - a;
  let ap = p - a;
  let d1 = dot(ab, ap);
  let d2 = dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) { return Closest(a, vec3f(1.0, 0.0, 0.0), false); }
  let bp = p - b;
  let d3 = dot(ab, bp);
  let d4 = dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) { return Closest(b, vec3f(0.0, 1.0, 0.0), false); }
  let vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    let t = d1 / (d1 - d3);
    return Closest(a + ab * t, vec3f(1.0 - t, t, 0.0), false);
  }
  let cp = p - c;
  let d5 = dot(ab, cp);
  let d6 = dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) { return Closest(c, vec3f(0.0, 0.0, 1.0), false); }
  let vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    let t = d2 / (d2 - d6);
    return Closest(a + ac * t, vec3f(1.0 - t, 0.0, t), false);
  }
  let va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    let t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return Closest(b + (c - b) * t, vec3f(0.0, 1.0 - t, t), false);
  }
  let denom = 1.0 / (va + vb + vc);
  let w1 = vb * denom;
  let w2 = vc * denom;
  return Closest(a + ab * w1 + ac * w2, vec3f(1.0 - w1 - w2, w1, w2), true);
}
`;

// Per surface triangle of one colour (no two share a vertex), one sphere or capsule:
// solve_collider_faces, with closest_segment_triangle and its helpers.
export const faceWgsl = (access) => /* wgsl */ `${PARAMS}${BUFFERS}${access}${GEOMETRY}
${CLOSEST_ON_TRIANGLE}
struct Segments { d2: f32, s: f32, t: f32 }

fn closest_between_segments(p0: vec3f, p1: vec3f, q0: vec3f, q1: vec3f) -> Segments {
  let d1 = p1 - p0;
  let d2 = q1 - q0;
  let r = p0 - q0;
  let a = dot(d1, d1);
  let e = dot(d2, d2);
  let f = dot(d2, r);
  var s = 0.0;
  var t = 0.0;
  if (a <= 1e-20 && e <= 1e-20) {
  } else if (a <= 1e-20) {
    t = clamp(f / e, 0.0, 1.0);
  } else {
    let c = dot(d1, r);
    if (e <= 1e-20) {
      s = clamp(-c / a, 0.0, 1.0);
    } else {
      let b = dot(d1, d2);
      let denom = a * e - b * b;
      if (denom > 0.0) { s = clamp((b * f - c * e) / denom, 0.0, 1.0); }
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  let g = (p0 + d1 * s) - (q0 + d2 * t);
  return Segments(dot(g, g), s, t);
}

struct SegTri { d2: f32, on: vec3f, w: vec3f }

// closest_segment_triangle: d2 = 0 when the segment pierces the triangle.
fn closest_segment_triangle(a0: vec3f, a1: vec3f, p0: vec3f, p1: vec3f, p2: vec3f) -> SegTri {
  let n = cross(p1 - p0, p2 - p0);
  let s0 = dot(a0 - p0, n);
  let s1 = dot(a1 - p0, n);
  if ((s0 < 0.0 && s1 > 0.0) || (s0 > 0.0 && s1 < 0.0)) {
    let cx = a0 + (a1 - a0) * (s0 / (s0 - s1));
    if (closest_on_triangle(cx, p0, p1, p2).in_face) { return SegTri(0.0, a0, vec3f(0.0)); }
  }
  var best = SegTri(1e38, a0, vec3f(0.0));
  var ends = array<vec3f, 2>(a0, a1);
  for (var k = 0; k < 2; k++) {
    let e = ends[k];
    let c = closest_on_triangle(e, p0, p1, p2);
    let g = e - c.q;
    let d2 = dot(g, g);
    if (d2 < best.d2) { best = SegTri(d2, e, c.w); }
  }
  var corner = array<vec3f, 3>(p0, p1, p2);
  for (var i = 0; i < 3; i++) {
    let j = (i + 1) % 3;
    let sg = closest_between_segments(a0, a1, corner[i], corner[j]);
    if (sg.d2 < best.d2) {
      var w = vec3f(0.0);
      w[i] = 1.0 - sg.t;
      w[j] = sg.t;
      best = SegTri(sg.d2, a0 + (a1 - a0) * sg.s, w);
    }
  }
  return best;
}

@compute @workgroup_size(64)
fn faces(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= B.count) { return; }
  let k = B.offset + gid.x;
  let f = vec3u(tris[3u * k], tris[3u * k + 1u], tris[3u * k + 2u]);
  let o = vertex_origin(f.x);
  let before_pos = C.before_pos - o;
  let after_pos = C.after_pos - o;
  let r = C.size.x;
  let reach = r + max(0.02, r);
  var half = 0.0;
  if (C.kind == 3u) { half = C.size.y; }
  let a0 = to_world(before_pos, C.before_rot, vec3f(0.0, -half, 0.0));
  let a1 = to_world(before_pos, C.before_rot, vec3f(0.0, half, 0.0));
  let lo = min(a0, a1) - vec3f(reach);
  let hi = max(a0, a1) + vec3f(reach);
  let s0 = prev[f.x].xyz;
  let s1 = prev[f.y].xyz;
  let s2 = prev[f.z].xyz;
  if (any(max(max(s0, s1), s2) < lo) || any(min(min(s0, s1), s2) > hi)) { return; }
  let c = closest_segment_triangle(a0, a1, s0, s1, s2);
  let w = c.w;
  if (!(c.d2 > 0.0 && c.d2 < reach * reach) || w.x == 1.0 || w.y == 1.0 || w.z == 1.0) { return; }
  let n = (s0 * w.x + s1 * w.y + s2 * w.z - c.on) * (1.0 / sqrt(c.d2));
  let axis_now = to_world(after_pos, C.after_rot, to_local(before_pos, C.before_rot, c.on));
  var v0 = x[f.x];
  var v1 = x[f.y];
  var v2 = x[f.z];
  let q = v0.xyz * w.x + v1.xyz * w.y + v2.xyz * w.z;
  let C0 = dot(q - axis_now, n) - r;
  if (!(C0 < 0.0)) { return; }
  let wsum = w.x * w.x * v0.w + w.y * w.y * v1.w + w.z * w.z * v2.w;
  if (wsum == 0.0) { return; }
  let lambda = -C0 / wsum;
  v0 = vec4f(v0.xyz + n * (lambda * w.x * v0.w), v0.w);
  v1 = vec4f(v1.xyz + n * (lambda * w.y * v1.w), v1.w);
  v2 = vec4f(v2.xyz + n * (lambda * w.z * v2.w), v2.w);
  let moved = v0.xyz * w.x + v1.xyz * w.y + v2.xyz * w.z - (s0 * w.x + s1 * w.y + s2 * w.z);
  let rel = moved - (axis_now - c.on);
  let tangential = rel - n * dot(rel, n);
  let slide = length(tangential);
  if (slide > 0.0) {
    let kf = min(1.0, C.friction * (-C0) / slide) / wsum;
    v0 = vec4f(v0.xyz - tangential * (kf * w.x * v0.w), v0.w);
    v1 = vec4f(v1.xyz - tangential * (kf * w.y * v1.w), v1.w);
    v2 = vec4f(v2.xyz - tangential * (kf * w.z * v2.w), v2.w);
  }
  x[f.x] = v0;
  x[f.y] = v1;
  x[f.z] = v2;
}
`;

// Per vertex, before the colliders: the ground with friction (solve_ground), and the contact record
// cleared. After them: the velocities, with the ground's and the colliders' restitution.
export const contactVertexWgsl = (access) => /* wgsl */ `${PARAMS}${BUFFERS}${access}${GROUND_PUSH}
@compute @workgroup_size(64)
fn ground(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= P.vertex_count) { return; }
  record[2u * i] = vec4f(0.0, 1.0, 0.0, -1.0);
  solve_ground(i);
}

// The ground again after the contacts between bodies moved vertices (resolve_ground).
@compute @workgroup_size(64)
fn reground(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x < P.vertex_count) { solve_ground(gid.x); }
}

fn solve_ground(i: u32) {
  let xi = x[i];
  let floor_y = vertex_floor_y(i);
  if (xi.w == 0.0 || (P.flags & 1u) == 0u || xi.y >= floor_y) { return; }
  x[i] = ground_push(xi, prev[i].xyz, floor_y, vertex_friction(i));
}

@compute @workgroup_size(64)
fn velocities(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= P.vertex_count) { return; }
  let xi = x[i];
  if (xi.w == 0.0) { vel[i] = vec4f(0.0); return; }
  let p = prev[i].xyz;
  let v_before = vel[i].xyz;
  var v = v_before;
  v += (xi.xyz - (p + v * P.h)) * (1.0 / P.h);
  if ((P.flags & 1u) != 0u && xi.y <= vertex_floor_y(i)) {
    v.y = select(0.0, -vertex_restitution(i) * v_before.y, v_before.y < -P.rest_threshold);
  }
  let rec = record[2u * i];
  if (rec.w >= 0.0) {
    // restitution_velocity: relative to the surface, reflect a fast approach, rest a slow one.
    let n = rec.xyz;
    let sv = record[2u * i + 1u].xyz;
    let vn = dot(v - sv, n);
    let approach = dot(v_before - sv, n);
    let wanted = select(0.0, -rec.w * approach, approach < -P.rest_threshold);
    if (vn < wanted) { v = v + n * (wanted - vn); }
  }
  vel[i] = vec4f(v, 0.0);
}
`;
