// BodyContact's swept test (body_contact.h, "No tunnelling"): at the first contact solve of each
// substep, each candidate vertex's straight path from the substep's start to where the passes have
// put it, against the paths of its candidate triangles of other bodies. A vertex whose path went
// through a face by more than the gap is held on that face's front side for the rest of the substep,
// whatever face is nearest by then (past a thin slab, the far face, in front of which it sees no
// contact; deep in a stiff body hit at one pass, a side face that would push it on through).
#include <algorithm>
#include <cmath>

#include "contact/body_contact.h"
#include "math/closest_points.h"
#include "math/vec3.h"
#include "solver/soft_body.h"

namespace sb {

namespace {

// Substeps of crossings (net of substeps without) after which a vertex is left to the nearest face.
constexpr uint16_t kSweepStreakMax = 40;

// Where the straight path x0 -> x1 of a vertex passes through a triangle moving straight from s to e
// (each corner), if it is in front of the start plane and more than `gap` behind the end plane: the
// fraction of the substep and the barycentric point. The moving plane is taken as the start and end
// planes' blend, so the crossing is found to first order in the triangle's turning.
bool crossing(Vec3 x0, Vec3 x1, const Vec3 s[3], const Vec3 e[3], float gap, float* when, float w[3]) {
  const Vec3 n0 = cross(s[1] - s[0], s[2] - s[0]), n1 = cross(e[1] - e[0], e[2] - e[0]);
  const float len0 = length(n0), len1 = length(n1);
  if (!(len0 > 0.0f && len1 > 0.0f)) return false;
  const float before = dot(x0 - s[0], n0) / len0, after = dot(x1 - e[0], n1) / len1;  // m
  if (!(before >= 0.0f && after < -gap)) return false;
  const float t = before / (before - after);
  // The triangle and the vertex at that moment; is the vertex inside it?
  const Vec3 c0 = s[0] + (e[0] - s[0]) * t, c1 = s[1] + (e[1] - s[1]) * t, c2 = s[2] + (e[2] - s[2]) * t;
  const Vec3 y = x0 + (x1 - x0) * t;
  const Vec3 e1 = c1 - c0, e2 = c2 - c0, d = y - c0;
  const float a11 = dot(e1, e1), a12 = dot(e1, e2), a22 = dot(e2, e2), b1 = dot(d, e1), b2 = dot(d, e2);
  const float det = a11 * a22 - a12 * a12;
  if (!(det > 0.0f)) return false;
  const float u = (a22 * b1 - a12 * b2) / det, v = (a11 * b2 - a12 * b1) / det;
  if (!(u >= 0.0f && v >= 0.0f && u + v <= 1.0f)) return false;
  *when = t;
  w[0] = 1.0f - u - v;
  w[1] = u;
  w[2] = v;
  return true;
}

}  // namespace

void BodyContact::sweep(SoftBody* const* bodies, uint32_t count, const BodyContactSettings& settings) {
  const size_t vertices = cand_start_.size() - 1;
  sweep_tri_.assign(vertices, ~0u);
  sweep_w_.resize(3 * vertices);
  // Per vertex of the bodies near another: how far it moved from the frame start to this substep's
  // start, and since, m (lower bounds for the pairs' distances).
  sweep_len_.resize(2 * vertex_motion_.size());
  // Per body the largest of those motions over its vertices, m; per body, the largest over its neighbours.
  body_motion_max_.assign(2 * count, 0.0f);
  near_motion_max_.assign(2 * count, 0.0f);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t begin = body_pos_begin_[i];
    if (body_pos_begin_[i + 1] == begin) continue;
    const float* x = bodies[i]->positions();
    const float* p = bodies[i]->previous_positions();
    const float* f = frame_pos_.data() + 3 * size_t(begin);
    const uint32_t* sv = bodies[i]->surface_vertices();
    for (uint32_t q = 0; q < bodies[i]->surface_vertex_count(); ++q) {
      const uint32_t j = sv[q];
      sweep_len_[2 * (begin + j)] = length(load3(p, j) - load3(f, j));
      sweep_len_[2 * (begin + j) + 1] = length(load3(x, j) - load3(p, j));
      body_motion_max_[2 * i] = std::max(body_motion_max_[2 * i], sweep_len_[2 * (begin + j)]);
      body_motion_max_[2 * i + 1] = std::max(body_motion_max_[2 * i + 1], sweep_len_[2 * (begin + j) + 1]);
    }
  }
  for (uint32_t i = 0; i < count; ++i)
    for (uint32_t k = pair_start_[i]; k < pair_start_[i + 1]; ++k) {
      near_motion_max_[2 * i] = std::max(near_motion_max_[2 * i], body_motion_max_[2 * pairs_[k]]);
      near_motion_max_[2 * i + 1] = std::max(near_motion_max_[2 * i + 1], body_motion_max_[2 * pairs_[k] + 1]);
    }
  for (size_t k = 0; k < vertices; ++k) {
    const uint32_t a = cand_body_[k], v = cand_vertex_[k];
    if (a >= count) continue;
    const SoftBody& A = *bodies[a];
    // Cloth pairs have their bounded displacement instead (cloth_contact.h). A vertex of a tet the
    // passes left inverted is in a tangle whose volume constraints push it through faces every
    // substep: held back the way it came each time, the tangles of a landed pile grew (the nearest
    // face lets it slip out sideways).
    if (A.frozen() || A.is_cloth() || A.in_inverted_tet(v)) continue;
    const float* sa = sweep_len_.data() + 2 * size_t(body_pos_begin_[a] + v);
    const float start_max = near_motion_max_[2 * a], step_max = near_motion_max_[2 * a + 1];  // m
    // Through a face by more than the gap needs the vertex and the face to close by more than it in
    // this substep; the gap between closed bodies is at least the thickness.
    if (sa[1] + step_max <= settings.thickness) continue;
    const Vec3 x0 = load3(A.previous_positions(), v), x1 = load3(A.positions(), v);
    float first = 2.0f;  // the earliest crossing's fraction of the substep
    for (uint32_t e = cand_start_[k]; e < cand_start_[k + 1]; ++e) {
      // The candidates come nearest first (at the frame start): once even the fastest triangle
      // cannot have closed the distance, none of the rest can.
      if (cand_d0_[e] - sa[0] - start_max > sa[1] + step_max + 1e-5f) break;
      const uint32_t index = cand_tri_[e], b = tri_body_[index];
      const SoftBody& B = *bodies[b];
      if (&B == &A || B.is_cloth()) continue;
      const float gap = cand_gap_[e];  // (not a sheet: contact_gap)
      const uint32_t* tri = B.surface_triangles() + 3 * tri_id_[index];
      // Through by more than the gap needs the two paths to close by more than it, and their distance
      // at the substep's start (at least the frame start's less both motions since) to be covered.
      const float* sb = sweep_len_.data() + 2 * size_t(body_pos_begin_[b]);
      const float tri_start = std::max({sb[2 * tri[0]], sb[2 * tri[1]], sb[2 * tri[2]]});
      const float tri_step = std::max({sb[2 * tri[0] + 1], sb[2 * tri[1] + 1], sb[2 * tri[2] + 1]});
      if (sa[1] + tri_step <= gap) continue;
      if (cand_d0_[e] - sa[0] - tri_start > sa[1] + tri_step + 1e-5f) continue;
      if (B.in_inverted_tet(tri[0]) || B.in_inverted_tet(tri[1]) || B.in_inverted_tet(tri[2])) continue;
      const float* pb = B.previous_positions();
      const float* xb = B.positions();
      Vec3 s[3], end[3];
      for (int i = 0; i < 3; ++i) {
        s[i] = load3(pb, tri[i]);
        end[i] = load3(xb, tri[i]);
      }
      float when, w[3];
      if (!crossing(x0, x1, s, end, gap, &when, w) || !(when < first)) continue;
      first = when;
      sweep_tri_[k] = index;
      std::copy(w, w + 3, sweep_w_.begin() + 3 * k);
    }
    if (sweep_tri_[k] == ~0u) continue;
    // Only from outside: a vertex already inside another body at the substep's start (behind the
    // nearest of its candidate faces there) is tangled, and its way out is the nearest face, not back.
    float best = INFINITY, side = 0.0f;
    uint32_t nearest = ~0u;  // (ties, such as the faces around a corner, go to the lowest index)
    for (uint32_t e = cand_start_[k]; e < cand_start_[k + 1]; ++e) {
      const uint32_t index = cand_tri_[e];
      const SoftBody& B = *bodies[tri_body_[index]];
      if (&B == &A || B.is_cloth()) continue;
      const uint32_t* tri = B.surface_triangles() + 3 * tri_id_[index];
      const float* pb = B.previous_positions();
      const Vec3 p0 = load3(pb, tri[0]), p1 = load3(pb, tri[1]), p2 = load3(pb, tri[2]);
      float w[3];
      bool in_face;
      const Vec3 q = closest_on_triangle(x0, p0, p1, p2, w, &in_face);
      const float d2 = length_sq(x0 - q);
      if (!(d2 < best || (d2 == best && index < nearest))) continue;
      best = d2;
      nearest = index;
      side = dot(x0 - q, cross(p1 - p0, p2 - p0));
    }
    if (side < 0.0f) sweep_tri_[k] = ~0u;
  }
  // Transients only: each vertex's count of substeps with a crossing goes up by one with each and
  // down by one without. An impact crosses for a few dozen substeps (head-on balls up to 27); a vertex
  // squeezed between bodies in a resting pile crosses nearly every substep for good, and held back the
  // way it came each time it keeps the pile buzzing (the nearest face lets it settle).
  for (size_t k = 0; k < vertices; ++k) {
    const uint32_t a = cand_body_[k];
    if (a >= count || bodies[a]->frozen() || bodies[a]->is_cloth()) continue;
    uint16_t& streak = bodies[a]->sweep_streak(cand_vertex_[k]);
    if (sweep_tri_[k] == ~0u) {
      if (streak > 0) --streak;
      continue;
    }
    if (streak < kSweepStreakMax + kSweepStreakMax) ++streak;
    if (streak > kSweepStreakMax) sweep_tri_[k] = ~0u;
  }
}

}  // namespace sb
