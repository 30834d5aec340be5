// Collider geometry and the contact projection; see collider.h for the contact rule.
#include "contact/collider.h"

#include "contact/mesh_shape.h"
#include "math/closest_points.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace sb {

Vec3 rotate(Quat q, Vec3 v) {
  // v' = v + 2w (u x v) + 2 u x (u x v), u the vector part: two cross products, no matrix.
  const Vec3 u{q.x, q.y, q.z};
  const Vec3 t = cross(u, v) * 2.0f;
  return v + t * q.w + cross(u, t);
}

Quat conjugate(Quat q) { return {-q.x, -q.y, -q.z, q.w}; }

Quat nlerp(Quat a, Quat b, float t) {
  // Take the short way round: q and -q are the same rotation.
  const float sign = (a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w) < 0.0f ? -1.0f : 1.0f;
  Quat q{a.x + (sign * b.x - a.x) * t, a.y + (sign * b.y - a.y) * t, a.z + (sign * b.z - a.z) * t,
         a.w + (sign * b.w - a.w) * t};
  const float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  if (n == 0.0f) return b;
  return {q.x / n, q.y / n, q.z / n, q.w / n};
}

Quat axis_angle(Vec3 axis, float angle) {
  const float s = std::sin(0.5f * angle);
  return {axis.x * s, axis.y * s, axis.z * s, std::cos(0.5f * angle)};
}

Pose interpolate(const Pose& a, const Pose& b, float t) {
  return {a.position + (b.position - a.position) * t, nlerp(a.rotation, b.rotation, t)};
}

Vec3 to_local(const Pose& pose, Vec3 world) { return rotate(conjugate(pose.rotation), world - pose.position); }
Vec3 to_world(const Pose& pose, Vec3 local) { return rotate(pose.rotation, local) + pose.position; }

namespace {

// The unit vector along v, or `fallback` when v is (nearly) zero: a point exactly on a sphere's
// centre or a capsule's axis has no nearest direction, any outward one will do.
Vec3 unit_or(Vec3 v, float len, Vec3 fallback) { return len > 1e-12f ? v * (1.0f / len) : fallback; }

// Box of half extents h, in its own frame (Quilez's box distance, with the normal of the nearest
// face inside and of the nearest feature outside).
float box_distance(Vec3 q, const float* h, Vec3* normal) {
  const Vec3 d{std::fabs(q.x) - h[0], std::fabs(q.y) - h[1], std::fabs(q.z) - h[2]};
  const Vec3 outside{std::max(d.x, 0.0f), std::max(d.y, 0.0f), std::max(d.z, 0.0f)};
  const float out_len = length(outside);
  if (out_len > 0.0f) {
    const Vec3 signed_out{std::copysign(outside.x, q.x), std::copysign(outside.y, q.y), std::copysign(outside.z, q.z)};
    *normal = signed_out * (1.0f / out_len);
    return out_len;
  }
  // Inside (or on the surface): the face whose plane is nearest.
  if (d.x >= d.y && d.x >= d.z) {
    *normal = {std::copysign(1.0f, q.x), 0.0f, 0.0f};
    return d.x;
  }
  if (d.y >= d.z) {
    *normal = {0.0f, std::copysign(1.0f, q.y), 0.0f};
    return d.y;
  }
  *normal = {0.0f, 0.0f, std::copysign(1.0f, q.z)};
  return d.z;
}

}  // namespace

float signed_distance(const Collider& c, const Pose& pose, Vec3 p, Vec3* normal, float limit) {
  Vec3 n_local{0.0f, 1.0f, 0.0f};
  float d = 0.0f;
  switch (c.kind) {
    case ShapeKind::kPlane: {
      const Vec3 n = rotate(pose.rotation, {0.0f, 1.0f, 0.0f});
      *normal = n;
      return dot(p - pose.position, n);
    }
    case ShapeKind::kSphere: {
      const Vec3 v = p - pose.position;  // a sphere needs no rotation
      const float len = length(v);
      *normal = unit_or(v, len, {0.0f, 1.0f, 0.0f});
      return len - c.size[0];
    }
    case ShapeKind::kBox:
      d = box_distance(to_local(pose, p), c.size, &n_local);
      break;
    case ShapeKind::kCapsule: {
      const Vec3 q = to_local(pose, p);
      const Vec3 axis_point{0.0f, std::clamp(q.y, -c.size[1], c.size[1]), 0.0f};
      const Vec3 v = q - axis_point;
      const float len = length(v);
      n_local = unit_or(v, len, {1.0f, 0.0f, 0.0f});
      d = len - c.size[0];
      break;
    }
    case ShapeKind::kMesh:
      d = c.mesh->signed_distance(to_local(pose, p), limit, &n_local);
      break;
  }
  *normal = rotate(pose.rotation, n_local);
  return d;
}

float ColliderQuery::distance(Vec3 p, float limit, Vec3* normal) const {
  if (!faces_only || collider->kind != ShapeKind::kMesh) return signed_distance(*collider, pose, p, normal, limit);
  Vec3 n_local{0.0f, 1.0f, 0.0f};
  const float d = collider->mesh->signed_distance_faces(to_local(pose, p), limit, &n_local, faces, face_count);
  *normal = rotate(pose.rotation, n_local);
  return d;
}

namespace {

// Where the segment a -> b (in the frame of the query's pose) first meets the collider, by sphere
// tracing: the signed distance is exact for these shapes, so stepping by it never skips the surface.
// Returns the fraction t in [0, 1) of the hit and the point and normal there, or -1 when the segment
// stays outside. `a` must be outside (distance da > 0).
float first_hit(const ColliderQuery& q, Vec3 a, float da, Vec3 b, Vec3* hit, Vec3* normal) {
  const Vec3 seg = b - a;
  const float len = length(seg);
  // Close enough to call it touching: a micrometre, or a thousandth of the path for long paths.
  const float touch = std::max(1e-6f, 1e-3f * len);
  float t = 0.0f, d = da;
  for (int k = 0; k < 64; ++k) {
    t += d / len;
    if (t >= 1.0f) return -1.0f;
    const Vec3 p = a + seg * t;
    d = q.distance(p, len, normal);
    if (d <= touch) {
      *hit = p;
      return t;
    }
  }
  return -1.0f;  // grazing the surface for 64 steps: treat as a miss (it ends outside anyway)
}

}  // namespace

float bounding_radius(const Collider& c) {
  switch (c.kind) {
    case ShapeKind::kPlane: return INFINITY;
    case ShapeKind::kSphere: return c.size[0];
    case ShapeKind::kBox: return std::sqrt(c.size[0] * c.size[0] + c.size[1] * c.size[1] + c.size[2] * c.size[2]);
    case ShapeKind::kCapsule: return c.size[0] + c.size[1];
    case ShapeKind::kMesh: {
      const Vec3 lo = c.mesh->bounds_lo(), hi = c.mesh->bounds_hi();
      const Vec3 far{std::max(std::fabs(lo.x), std::fabs(hi.x)), std::max(std::fabs(lo.y), std::fabs(hi.y)),
                     std::max(std::fabs(lo.z), std::fabs(hi.z))};
      return length(far) + (c.mesh->closed() ? 0.0f : 0.5f * c.mesh->thickness());
    }
  }
  return INFINITY;
}

void world_box(const Collider& c, const Pose& pose, Vec3* box_lo, Vec3* box_hi) {
  const float bound = bounding_radius(c);
  if (!(bound < INFINITY)) {
    *box_lo = {-INFINITY, -INFINITY, -INFINITY};
    *box_hi = {INFINITY, INFINITY, INFINITY};
    return;
  }
  Vec3 half{bound, bound, bound}, centre{0.0f, 0.0f, 0.0f};
  if (c.kind == ShapeKind::kBox || c.kind == ShapeKind::kCapsule || c.kind == ShapeKind::kMesh) {
    Vec3 lo_local, hi_local;
    if (c.kind == ShapeKind::kBox) {
      hi_local = {c.size[0], c.size[1], c.size[2]};
      lo_local = hi_local * -1.0f;
    } else if (c.kind == ShapeKind::kCapsule) {
      hi_local = {c.size[0], c.size[0] + c.size[1], c.size[0]};
      lo_local = hi_local * -1.0f;
    } else {
      const float t = c.mesh->closed() ? 0.0f : 0.5f * c.mesh->thickness();
      lo_local = c.mesh->bounds_lo() - Vec3{t, t, t};
      hi_local = c.mesh->bounds_hi() + Vec3{t, t, t};
    }
    // |R| applied to the local box's half size, about its rotated centre.
    const Vec3 mid = (lo_local + hi_local) * 0.5f, ext = (hi_local - lo_local) * 0.5f;
    const Vec3 ax = rotate(pose.rotation, {1, 0, 0}), ay = rotate(pose.rotation, {0, 1, 0}),
               az = rotate(pose.rotation, {0, 0, 1});
    half = {std::fabs(ax.x) * ext.x + std::fabs(ay.x) * ext.y + std::fabs(az.x) * ext.z,
            std::fabs(ax.y) * ext.x + std::fabs(ay.y) * ext.y + std::fabs(az.y) * ext.z,
            std::fabs(ax.z) * ext.x + std::fabs(ay.z) * ext.y + std::fabs(az.z) * ext.z};
    centre = rotate(pose.rotation, mid);
  }
  *box_lo = pose.position + centre - half;
  *box_hi = pose.position + centre + half;
}

bool contact_particle(Vec3* x_io, Vec3 start, Vec3 prev, const ColliderQuery& q, const Pose& before,
                      ParticleContact* out) {
  Vec3 x = *x_io;
  const float path = length(x - start);
  // A particle the last substep left on the surface starts within rounding of it (or a touch
  // inside, where a neighbour's constraint nudged it): that still counts as outside, with the
  // contact at its start. Only one clearly inside (a collider teleported into a body) is not.
  const float on_surface = std::max(1e-5f, 1e-3f * path);
  // Distances beyond path + on_surface decide nothing below, so a mesh need not search further.
  // (A particle deeper inside a mesh than its path started inside too: a mesh collider placed
  // over a body does not push it out; the analytic shapes do.)
  const float reach = path + on_surface;
  Vec3 n;
  const float d = q.distance(x, reach, &n);
  if (d >= 0.0f && path <= d) return false;
  Vec3 n_start;
  const float d_start = q.distance(start, reach, &n_start);
  Vec3 hit = start, n_hit = n_start;
  const bool entered = d_start > -on_surface && (d_start <= 0.0f || first_hit(q, start, d_start, x, &hit, &n_hit) >= 0.0f);
  float depth;  // m: how far the substep's motion went past the surface
  if (d >= 0.0f) {
    // Outside at the end: in contact only if the path went through the collider, i.e. x lies
    // behind the surface where the path entered (a grazing slide along the surface does not).
    if (!entered) return false;
    depth = dot(hit - x, n_hit);
    if (depth <= d + on_surface) return false;
    n = n_hit;
  } else if (entered && dot(hit - x, n_hit) > 0.0f) {
    // Inside, having come in from outside: back out through the face it entered by, not the
    // nearest one (a fast particle deep in a thin board is nearer its far side).
    n = n_hit;
    depth = dot(hit - x, n_hit);
  } else {
    depth = -d;  // started inside (relative) too: out along the nearest normal
    // Unless it started a touch inside (a neighbour's constraint nudged it after the last contact)
    // and went deeper: then back out on the side it started from. The nearest side of x can be the
    // far one of a shell or a thin board (measured: a bunny's vertex pushed out through the bowl's
    // wall, then held there by its own tets).
    const float back = dot(start - n_start * d_start - x, n_start);  // to the start's surface plane
    if (d_start < 0.0f && d < d_start && back > 0.0f) {
      n = n_start;
      depth = back;
    }
  }
  const Pose& after = q.pose;
  // Onto the surface's tangent plane at the contact (for a curved surface, just outside it).
  x = x + n * depth;
  // Where the surface point under x was at the substep's start: the collider's own motion.
  const Vec3 surface_motion = x - to_world(before, to_local(after, x));
  const Vec3 motion = x - prev - surface_motion;  // relative to the surface, m
  const Vec3 tangential = motion - n * dot(motion, n);
  const float slide = length(tangential);
  const float limit = q.collider->friction * depth;  // friction * normal correction of this substep
  if (slide <= limit) {
    x = x - tangential;  // static: moves with the surface
  } else if (slide > 0.0f) {
    x = x - tangential * (limit / slide);  // kinetic: slides, slowed by friction * depth
  }
  *x_io = x;
  out->normal = n;
  out->surface_motion = surface_motion;
  out->depth = depth;
  return true;
}

void record_contact(ContactRecord* record, uint32_t i, const ParticleContact& contact, float restitution, float inv_h) {
  if (!record) return;
  if (record->normal) store3(record->normal, i, contact.normal);
  if (record->surface_velocity) store3(record->surface_velocity, i, contact.surface_motion * inv_h);
  if (record->restitution) record->restitution[i] = restitution;
  record->max_depth = std::max(record->max_depth, contact.depth);
}

uint32_t solve_collider(float* pos, const float* prev, const float* inv_mass, uint32_t count, const Collider& c,
                        float t0, float t1, float h, ContactRecord* record) {
  const Pose before = interpolate(c.previous, c.pose, t0);
  ColliderQuery query;
  query.collider = &c;
  query.pose = interpolate(c.previous, c.pose, t1);
  const Pose& after = query.pose;
  const float inv_h = 1.0f / h;
  // A collider at rest needs no carrying of the particles' starts into its frame, and a particle
  // farther from its box than its own path cannot touch it: most particles of a scene are rejected
  // here with a few flops, no rotation. (The box, not the bounding sphere: a wall's sphere holds
  // half the scene.)
  const bool moving = std::memcmp(&c.previous, &c.pose, sizeof(Pose)) != 0;
  Vec3 box_lo, box_hi;
  world_box(c, after, &box_lo, &box_hi);
  uint32_t contacts = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (inv_mass[i] == 0.0f) continue;
    Vec3 x = load3(pos, i);
    // The particle's path over the substep relative to the collider: from where it started, carried
    // into the collider's end pose, to where it is. A 1-Lipschitz distance cannot drop by more than
    // the path's length, so particles farther out than their path (all resting ones) stop here.
    const Vec3 p = load3(prev, i);
    const Vec3 start = moving ? to_world(after, to_local(before, p)) : p;
    const float path = length(x - start);
    if (x.x < box_lo.x - path || x.x > box_hi.x + path || x.y < box_lo.y - path || x.y > box_hi.y + path ||
        x.z < box_lo.z - path || x.z > box_hi.z + path)
      continue;
    ParticleContact contact;
    if (!contact_particle(&x, start, p, query, before, &contact)) continue;
    store3(pos, i, x);
    ++contacts;
    record_contact(record, i, contact, c.restitution, inv_h);
  }
  return contacts;
}

uint32_t solve_collider_faces(float* pos, const float* prev, const float* inv_mass, const uint32_t* triangles,
                              uint32_t triangle_count, const Collider& c, float t0, float t1, float* max_depth) {
  if (c.kind != ShapeKind::kSphere && c.kind != ShapeKind::kCapsule) return 0;
  const Pose before = interpolate(c.previous, c.pose, t0);
  const Pose after = interpolate(c.previous, c.pose, t1);
  const float r = c.size[0];             // m
  const float reach = r + std::max(0.02f, r);  // m: triangles this near at the substep's start are tested
  const float half = c.kind == ShapeKind::kCapsule ? c.size[1] : 0.0f;
  const Vec3 a0 = to_world(before, {0.0f, -half, 0.0f}), a1 = to_world(before, {0.0f, half, 0.0f});
  Vec3 lo{std::min(a0.x, a1.x), std::min(a0.y, a1.y), std::min(a0.z, a1.z)};
  Vec3 hi{std::max(a0.x, a1.x), std::max(a0.y, a1.y), std::max(a0.z, a1.z)};
  lo = lo - Vec3{reach, reach, reach};
  hi = hi + Vec3{reach, reach, reach};
  uint32_t touching = 0;
  for (uint32_t t = 0; t < triangle_count; ++t) {
    const uint32_t* f = triangles + 3 * t;
    // Where the triangle was at the substep's start (outside, before this substep's motion): the
    // side it is pushed back to and the point that is pushed, as for contact between bodies.
    const Vec3 s0 = load3(prev, f[0]), s1 = load3(prev, f[1]), s2 = load3(prev, f[2]);
    if (std::max({s0.x, s1.x, s2.x}) < lo.x || std::min({s0.x, s1.x, s2.x}) > hi.x || std::max({s0.y, s1.y, s2.y}) < lo.y ||
        std::min({s0.y, s1.y, s2.y}) > hi.y || std::max({s0.z, s1.z, s2.z}) < lo.z || std::min({s0.z, s1.z, s2.z}) > hi.z)
      continue;  // most triangles of a scene end here
    Vec3 on_axis;
    float w[3];
    const float d2 = closest_segment_triangle(a0, a1, s0, s1, s2, &on_axis, w);
    // Pierced already (no side to push to), far, NaN, or nearest at a vertex (the particle pass's).
    if (!(d2 > 0.0f && d2 < reach * reach) || w[0] == 1.0f || w[1] == 1.0f || w[2] == 1.0f) continue;
    const Vec3 n = (s0 * w[0] + s1 * w[1] + s2 * w[2] - on_axis) * (1.0f / std::sqrt(d2));  // axis -> triangle
    // Now: that point of the triangle against that point of the axis, carried with the collider.
    const Vec3 axis_now = to_world(after, to_local(before, on_axis));
    const Vec3 q = load3(pos, f[0]) * w[0] + load3(pos, f[1]) * w[1] + load3(pos, f[2]) * w[2];
    const float C = dot(q - axis_now, n) - r;  // m, < 0: inside the shape
    if (!(C < 0.0f)) continue;
    const float wsum = w[0] * w[0] * inv_mass[f[0]] + w[1] * w[1] * inv_mass[f[1]] + w[2] * w[2] * inv_mass[f[2]];
    if (wsum == 0.0f) continue;  // pinned or held: left alone
    const float lambda = -C / wsum;
    for (int i = 0; i < 3; ++i) store3(pos, f[i], load3(pos, f[i]) + n * (lambda * w[i] * inv_mass[f[i]]));
    // Coulomb friction on the point's substep motion relative to the collider's surface, up to
    // friction x the correction (as for particles): a sheet draped over a rod does not slide off.
    const Vec3 moved = load3(pos, f[0]) * w[0] + load3(pos, f[1]) * w[1] + load3(pos, f[2]) * w[2] - (s0 * w[0] + s1 * w[1] + s2 * w[2]);
    const Vec3 rel = moved - (axis_now - on_axis);
    const Vec3 tangential = rel - n * dot(rel, n);
    const float slide = length(tangential);
    if (slide > 0.0f) {
      const float k = std::min(1.0f, c.friction * (-C) / slide) / wsum;
      for (int i = 0; i < 3; ++i) store3(pos, f[i], load3(pos, f[i]) - tangential * (k * w[i] * inv_mass[f[i]]));
    }
    *max_depth = std::max(*max_depth, -C);
    ++touching;
  }
  return touching;
}

Vec3 restitution_velocity(Vec3 v, Vec3 v_before, Vec3 normal, Vec3 surface_velocity, float restitution,
                          float rest_speed) {
  const Vec3 relative = v - surface_velocity;
  const float vn = dot(relative, normal);
  const float approach = dot(v_before - surface_velocity, normal);  // < 0: moving into the surface
  const float wanted = approach < -rest_speed ? -restitution * approach : 0.0f;
  // Only ever adds outward speed: a particle already leaving faster (pushed out by its neighbours'
  // constraints) keeps it.
  return vn < wanted ? v + normal * (wanted - vn) : v;
}

uint32_t collide_velocity_level(float* pos, float* vel, const float* inv_mass, uint32_t count, const Collider& c,
                                float t0, float t1, float h, float rest_speed) {
  const Pose before = interpolate(c.previous, c.pose, t0);
  const Pose after = interpolate(c.previous, c.pose, t1);
  uint32_t contacts = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (inv_mass[i] == 0.0f) continue;
    Vec3 x = load3(pos, i);
    Vec3 n;
    const float d = signed_distance(c, after, x, &n);
    if (d >= 0.0f) continue;
    x = x + n * (-d);
    store3(pos, i, x);
    ++contacts;
    const Vec3 surface_velocity = (x - to_world(before, to_local(after, x))) * (1.0f / h);
    Vec3 relative = load3(vel, i) - surface_velocity;
    const float vn = dot(relative, n);
    if (vn >= 0.0f) continue;  // already leaving
    const float vn_after = vn < -rest_speed ? -c.restitution * vn : 0.0f;
    relative = relative - n * vn;  // tangential part
    const float vt = length(relative);
    if (vt > 0.0f) relative = relative * std::max(0.0f, 1.0f - c.friction * (vn_after - vn) / vt);
    store3(vel, i, relative + n * vn_after + surface_velocity);
  }
  return contacts;
}

}  // namespace sb
