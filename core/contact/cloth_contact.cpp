// Two-sided contact with cloth triangles and edges, and the bounded substep motion (cloth_contact.h).
#include "contact/cloth_contact.h"

#include <cmath>

#include "math/closest_points.h"
#include "math/vec3.h"
#include "solver/soft_body.h"

namespace sb {

namespace {

// The triangle's inverse masses; 0 for a frozen body (it does not move).
void triangle_weights(const SoftBody& B, const uint32_t* tri, float wt[3]) {
  for (int i = 0; i < 3; ++i) wt[i] = B.frozen() ? 0.0f : B.inverse_masses()[tri[i]];
}

float weight(const SoftBody& B, uint32_t v) { return B.frozen() ? 0.0f : B.inverse_masses()[v]; }

}  // namespace

float solve_vertex_sheet(SoftBody& A, uint32_t v, SoftBody& B, uint32_t t, float gap) {
  float* xa = A.positions();
  float* xb = B.positions();
  const float* pa = A.previous_positions();
  const float* pb = B.previous_positions();
  const uint32_t* tri = B.surface_triangles() + 3 * t;
  const Vec3 x = load3(xa, v);
  const Vec3 p0 = load3(xb, tri[0]), p1 = load3(xb, tri[1]), p2 = load3(xb, tri[2]);
  float w[3];
  bool in_face;
  const Vec3 q = closest_on_triangle(x, p0, p1, p2, w, &in_face);
  const Vec3 away = x - q;
  const float dist2 = length_sq(away);
  Vec3 n;
  float s;  // signed distance along n, m
  // The same material point of the triangle at the substep's start, and the vertex's offset from it.
  const Vec3 q0 = load3(pb, tri[0]) * w[0] + load3(pb, tri[1]) * w[1] + load3(pb, tri[2]) * w[2];
  const Vec3 away0 = load3(pa, v) - q0;
  if (in_face) {
    const Vec3 face = cross(p1 - p0, p2 - p0);
    const float face_len = length(face);
    if (face_len == 0.0f) return -1.0f;
    n = face * (1.0f / face_len);
    // The side it came from: in front of or behind the plane at the substep's start.
    const Vec3 s0 = load3(pb, tri[0]), s1 = load3(pb, tri[1]), s2 = load3(pb, tri[2]);
    float side0 = dot(away0, cross(s1 - s0, s2 - s0));
    if (side0 == 0.0f) side0 = dot(away, n);
    if (side0 < 0.0f) n = n * -1.0f;
    s = dot(away, n);  // negative: it crossed the mid-surface in this substep, pushed back however deep
  } else {
    // Beside the face: the offset from the nearest edge or corner, in its own direction unless it
    // turned against the start's (went through the border's line in this substep).
    if (!(dist2 < gap * gap)) return -1.0f;
    const float len = std::sqrt(dist2);
    const float len0 = length(away0);
    if (len > 1e-7f && dot(away, away0) >= 0.0f) {
      n = away * (1.0f / len);
    } else if (len0 > 1e-7f) {
      n = away0 * (1.0f / len0);
    } else {
      return -1.0f;  // on the border at both ends of the substep: no direction to push along
    }
    s = dot(away, n);
  }
  if (!(s < gap)) return -1.0f;
  float wt[3];
  triangle_weights(B, tri, wt);
  const float w_v = weight(A, v);
  const float w_sum = w_v + w[0] * w[0] * wt[0] + w[1] * w[1] * wt[1] + w[2] * w[2] * wt[2];
  if (w_sum == 0.0f) return -1.0f;
  const float C = s - gap;  // < 0, m
  const float lambda = -C / w_sum;
  store3(xa, v, x + n * (w_v * lambda));
  for (int i = 0; i < 3; ++i) store3(xb, tri[i], load3(xb, tri[i]) - n * (w[i] * wt[i] * lambda));
  // Friction: the substep's relative tangential motion, removed up to mu x the normal correction.
  const float mu = std::sqrt(A.params().friction * B.params().friction);
  Vec3 rel = load3(xa, v) - load3(pa, v);
  for (int i = 0; i < 3; ++i) rel = rel - (load3(xb, tri[i]) - load3(pb, tri[i])) * w[i];
  const Vec3 tangential = rel - n * dot(rel, n);
  const float slide = length(tangential);
  const float limit = mu * (-C);
  if (slide > 0.0f) {
    const float mu_lambda = (slide <= limit ? 1.0f : limit / slide) / w_sum;
    store3(xa, v, load3(xa, v) - tangential * (w_v * mu_lambda));
    for (int i = 0; i < 3; ++i) store3(xb, tri[i], load3(xb, tri[i]) + tangential * (w[i] * wt[i] * mu_lambda));
  }
  return std::fmax(0.0f, -s);
}

float solve_edge_edge(SoftBody& A, uint32_t a0, uint32_t a1, SoftBody& B, uint32_t b0, uint32_t b1, float gap, Vec3 axis) {
  float* xa = A.positions();
  float* xb = B.positions();
  const Vec3 x0 = load3(xa, a0), x1 = load3(xa, a1), y0 = load3(xb, b0), y1 = load3(xb, b1);
  // Bounding boxes farther apart than the gap (with a margin for the rounding of the distance below):
  // apart, without measuring. Most of a sheet's pairs are its neighbours in the plane.
  const float reach = gap * 1.001f + 1e-6f;  // m
  const auto lo = [](float p, float q) { return p < q ? p : q; };
  const auto hi = [](float p, float q) { return p < q ? q : p; };
  if (lo(x0.x, x1.x) - hi(y0.x, y1.x) > reach || lo(y0.x, y1.x) - hi(x0.x, x1.x) > reach ||
      lo(x0.y, x1.y) - hi(y0.y, y1.y) > reach || lo(y0.y, y1.y) - hi(x0.y, x1.y) > reach ||
      lo(x0.z, x1.z) - hi(y0.z, y1.z) > reach || lo(y0.z, y1.z) - hi(x0.z, x1.z) > reach)
    return -1.0f;
  // Separated along the axis (any unit direction bounds the distance from below): apart.
  const float pa0 = dot(x0, axis), pa1 = dot(x1, axis), pb0 = dot(y0, axis), pb1 = dot(y1, axis);
  if (lo(pa0, pa1) - hi(pb0, pb1) > reach || lo(pb0, pb1) - hi(pa0, pa1) > reach) return -1.0f;
  float s, t;
  const float d2 = closest_between_segments(x0, x1, y0, y1, &s, &t);
  if (!(d2 < gap * gap)) return -1.0f;
  const Vec3 away = (x0 + (x1 - x0) * s) - (y0 + (y1 - y0) * t);
  // The same two points at the substep's start: their offset says which side each edge came from.
  const float* pa = A.previous_positions();
  const float* pb = B.previous_positions();
  const Vec3 away0 = (load3(pa, a0) * (1.0f - s) + load3(pa, a1) * s) - (load3(pb, b0) * (1.0f - t) + load3(pb, b1) * t);
  const float len = std::sqrt(d2), len0 = length(away0);
  Vec3 n;
  if (len > 1e-7f && dot(away, away0) >= 0.0f) n = away * (1.0f / len);
  else if (len0 > 1e-7f) n = away0 * (1.0f / len0);
  else return -1.0f;
  const float dist = dot(away, n);
  if (!(dist < gap)) return -1.0f;
  const float wa0 = weight(A, a0), wa1 = weight(A, a1), wb0 = weight(B, b0), wb1 = weight(B, b1);
  const float w_sum = (1.0f - s) * (1.0f - s) * wa0 + s * s * wa1 + (1.0f - t) * (1.0f - t) * wb0 + t * t * wb1;
  if (w_sum == 0.0f) return -1.0f;
  const float lambda = (gap - dist) / w_sum;  // > 0
  store3(xa, a0, x0 + n * ((1.0f - s) * wa0 * lambda));
  store3(xa, a1, load3(xa, a1) + n * (s * wa1 * lambda));
  store3(xb, b0, load3(xb, b0) - n * ((1.0f - t) * wb0 * lambda));
  store3(xb, b1, load3(xb, b1) - n * (t * wb1 * lambda));
  return std::fmax(0.0f, -dist);
}

float start_distance_vertex_triangle(const SoftBody& A, uint32_t v, const SoftBody& B, uint32_t t) {
  const float* pb = B.previous_positions();
  const uint32_t* tri = B.surface_triangles() + 3 * t;
  float w[3];
  bool in_face;
  const Vec3 x = load3(A.previous_positions(), v);
  return length(x - closest_on_triangle(x, load3(pb, tri[0]), load3(pb, tri[1]), load3(pb, tri[2]), w, &in_face));
}

float start_distance_edge_edge(const SoftBody& A, uint32_t a0, uint32_t a1, const SoftBody& B, uint32_t b0, uint32_t b1) {
  const float* pa = A.previous_positions();
  const float* pb = B.previous_positions();
  float s, t;
  return std::sqrt(closest_between_segments(load3(pa, a0), load3(pa, a1), load3(pb, b0), load3(pb, b1), &s, &t));
}

bool bound_motion(SoftBody& A, uint32_t v, float bound, Vec3 shared) {
  float* x = A.positions();
  const Vec3 p = load3(A.previous_positions(), v) + shared;
  const Vec3 d = load3(x, v) - p;
  const float len = length(d);
  if (!(len > bound)) return false;
  store3(x, v, p + d * (bound / len));
  return true;
}

}  // namespace sb
