// BodyContact's cloth parts (body_contact.h, cloth_contact.h): the edge-edge pairs of a frame's cloth
// candidates, and the bounded substep motion of every vertex in a pair with a cloth triangle or edge.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "contact/body_contact.h"
#include "contact/cloth_contact.h"
#include "math/closest_points.h"
#include "math/vec3.h"
#include "solver/soft_body.h"

namespace sb {

uint32_t BodyContact::body_of_edge(uint32_t global_edge) const {
  // body_edge_begin_ is non-decreasing with count + 1 entries: the last body whose first edge is <= it.
  return uint32_t(std::upper_bound(body_edge_begin_.begin(), body_edge_begin_.end(), global_edge) - body_edge_begin_.begin()) - 1;
}

namespace {
double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// Sorts keys (a << 32 | b, a and b below `limit`) ascending, as std::sort would: an LSD radix sort
// of a x limit + b in 11-bit digits over the bits it needs (3 passes for ~20k edges), several times
// faster than comparing on the ~10^5 keys a draped sheet's candidates give.
void sort_keys(std::vector<uint64_t>& keys, uint32_t limit, std::vector<uint64_t>& scratch) {
  const uint64_t n = limit;
  for (uint64_t& k : keys) k = (k >> 32) * n + (k & 0xffffffffu);
  int bits = 0;
  while (bits < 64 && (n * n - 1) >> bits) ++bits;
  constexpr int kDigit = 11;
  scratch.resize(keys.size());
  uint32_t count[1u << kDigit];
  for (int shift = 0; shift < bits; shift += kDigit) {
    std::fill(count, count + (1u << kDigit), 0u);
    for (const uint64_t k : keys) ++count[(k >> shift) & ((1u << kDigit) - 1)];
    uint32_t sum = 0;
    for (uint32_t& c : count) {
      const uint32_t here = c;
      c = sum;
      sum += here;
    }
    for (const uint64_t k : keys) scratch[count[(k >> shift) & ((1u << kDigit) - 1)]++] = k;
    keys.swap(scratch);
  }
  for (uint64_t& k : keys) k = (k / n) << 32 | (k % n);
}
}  // namespace

void BodyContact::gather_edge_pairs(SoftBody* const* bodies, uint32_t count, float dt, const BodyContactSettings& settings) {
  const auto began = std::chrono::steady_clock::now();
  // Each taking part body's edges listed per vertex (CSR), and the global numbering of edges and vertices.
  body_ve_begin_.assign(count + 1, 0);
  body_edge_begin_.assign(count + 1, 0);
  body_vertex_begin_.assign(count + 1, 0);
  ve_start_.clear();
  ve_edge_.clear();
  for (uint32_t i = 0; i < count; ++i) {
    const SoftBody* B = bodies[i];
    const bool listed = B && near_[i];
    body_ve_begin_[i + 1] = body_ve_begin_[i] + (listed ? B->vertex_count() + 1 : 0);
    body_edge_begin_[i + 1] = body_edge_begin_[i] + (listed ? B->edge_count() : 0);
    body_vertex_begin_[i + 1] = body_vertex_begin_[i] + (B ? B->vertex_count() : 0);
    if (!listed) continue;
    const uint32_t n = B->vertex_count(), base = uint32_t(ve_start_.size()), edge_base = uint32_t(ve_edge_.size());
    ve_start_.resize(base + n + 1, 0);
    const uint32_t* ids = B->edges();
    for (uint32_t e = 0; e < B->edge_count(); ++e) ++ve_start_[base + ids[2 * e] + 1], ++ve_start_[base + ids[2 * e + 1] + 1];
    ve_start_[base] = edge_base;
    for (uint32_t v = 0; v < n; ++v) ve_start_[base + v + 1] += ve_start_[base + v];
    ve_edge_.resize(ve_start_[base + n]);
    fill_.assign(ve_start_.begin() + base, ve_start_.begin() + base + n);
    for (uint32_t e = 0; e < B->edge_count(); ++e) ve_edge_[fill_[ids[2 * e]]++] = e, ve_edge_[fill_[ids[2 * e + 1]]++] = e;
  }
  // The edge of body b joining u and w (its lists are short: a vertex's valence).
  auto edge_of = [&](uint32_t b, uint32_t u, uint32_t w) {
    const uint32_t base = body_ve_begin_[b];
    const uint32_t* ids = bodies[b]->edges();
    for (uint32_t k = ve_start_[base + u]; k < ve_start_[base + u + 1]; ++k) {
      const uint32_t e = ve_edge_[k];
      if (ids[2 * e] == w || ids[2 * e + 1] == w) return e;
    }
    return ~0u;
  };
  // The edges at each candidate vertex against the edges of its candidate triangles, where either side
  // is a sheet (a sheet's edge draped over a box's edge cuts its corner with no vertex near a face).
  for (size_t k = 0; k + 1 < cand_start_.size(); ++k) {
    const uint32_t a = cand_body_[k], v = cand_vertex_[k];
    const uint32_t* a_ids = bodies[a]->edges();
    const uint32_t a_base = body_ve_begin_[a];
    for (uint32_t c = cand_start_[k]; c < cand_start_[k + 1]; ++c) {
      const uint32_t b = tri_body_[cand_tri_[c]];
      if (!bodies[a]->is_cloth() && !bodies[b]->is_cloth()) continue;
      const uint32_t* tri = bodies[b]->surface_triangles() + 3 * tri_id_[cand_tri_[c]];
      const uint32_t* b_ids = bodies[b]->edges();
      for (int side = 0; side < 3; ++side) {
        const uint32_t eb = edge_of(b, tri[side], tri[(side + 1) % 3]);
        if (eb == ~0u) continue;
        for (uint32_t m = ve_start_[a_base + v]; m < ve_start_[a_base + v + 1]; ++m) {
          const uint32_t ea = ve_edge_[m];
          // Edges that share a vertex meet there: never a contact.
          if (a == b && (a_ids[2 * ea] == b_ids[2 * eb] || a_ids[2 * ea] == b_ids[2 * eb + 1] ||
                         a_ids[2 * ea + 1] == b_ids[2 * eb] || a_ids[2 * ea + 1] == b_ids[2 * eb + 1]))
            continue;
          const uint64_t ga = body_edge_begin_[a] + ea, gb = body_edge_begin_[b] + eb;
          edge_pairs_.push_back(std::min(ga, gb) << 32 | std::max(ga, gb));
        }
      }
    }
  }
  // Once each, in a fixed order (deterministic); an edge pair is met from each candidate at its ends,
  // so the distance tests below run on the unique pairs only.
  sort_keys(edge_pairs_, body_edge_begin_[count], sort_scratch_);
  edge_pairs_.erase(std::unique(edge_pairs_.begin(), edge_pairs_.end()), edge_pairs_.end());
  size_t kept = 0;
  edge_pair_ends_.clear();
  for (const uint64_t key : edge_pairs_) {
    const uint32_t ga = uint32_t(key >> 32), gb = uint32_t(key);
    const uint32_t a = body_of_edge(ga), b = body_of_edge(gb);
    const SoftBody &A = *bodies[a], &B = *bodies[b];
    const uint32_t* ea = A.edges() + 2 * (ga - body_edge_begin_[a]);
    const uint32_t* eb = B.edges() + 2 * (gb - body_edge_begin_[b]);
    const uint32_t i0 = ea[0], i1 = ea[1], j0 = eb[0], j1 = eb[1];
    float s, t;
    float gap = contact_gap(A, B, settings);  // m
    // Near in the rest shape (short edges at a border's half triangles): the gap they have at rest,
    // as for the vertex-triangle pairs (body_contact.cpp).
    if (a == b) {
      const float* rest = A.rest_positions();
      const float exclusion = kClothSelfExclusion * A.self_thickness();
      const float d2 = closest_between_segments(load3(rest, i0), load3(rest, i1), load3(rest, j0), load3(rest, j1), &s, &t);
      if (d2 < exclusion * exclusion) gap = std::min(gap, std::sqrt(d2) / kClothSelfExclusion);
    }
    // Only pairs this frame's motion (predicted from the velocities, as the candidates) can bring
    // within the gap, and half the gap again for what it did not predict. The closest points are
    // blends of the ends, so the fastest relative velocity of an end pair bounds how fast they close.
    const float d = std::sqrt(closest_between_segments(load3(A.positions(), i0), load3(A.positions(), i1), load3(B.positions(), j0),
                                                       load3(B.positions(), j1), &s, &t));
    const float step_a = A.frozen() ? 0.0f : dt, step_b = B.frozen() ? 0.0f : dt;
    const Vec3 va0 = load3(A.velocities(), i0) * step_a, va1 = load3(A.velocities(), i1) * step_a;
    const Vec3 vb0 = load3(B.velocities(), j0) * step_b, vb1 = load3(B.velocities(), j1) * step_b;
    const float motion = std::max({length(va0 - vb0), length(va0 - vb1), length(va1 - vb0), length(va1 - vb1)});
    if (!(d - motion <= 1.5f * contact_gap(A, B, settings))) continue;
    edge_pairs_[kept++] = key;
    edge_pair_ends_.push_back({a, b, i0, i1, j0, j1, gap});
  }
  edge_pairs_.resize(kept);
  // Bodies whose cloth pairs are all with themselves: their bounds are on relative motion.
  own_pairs_only_.assign(count, 1);
  for (size_t k = 0; k + 1 < cand_start_.size(); ++k)
    for (uint32_t c = cand_start_[k]; c < cand_start_[k + 1]; ++c) {
      const uint32_t a = cand_body_[k], b = tri_body_[cand_tri_[c]];
      if (a != b && (bodies[a]->is_cloth() || bodies[b]->is_cloth())) own_pairs_only_[a] = own_pairs_only_[b] = 0;
    }
  for (const EdgePairEnds& e : edge_pair_ends_)
    if (e.a != e.b) own_pairs_only_[e.a] = own_pairs_only_[e.b] = 0;
  bound_.assign(body_vertex_begin_[count], INFINITY);
  bounded_.clear();
  edge_ms_ = ms_since(began);
}

namespace {

// A lower bound on the squared distance between the point sets spanned by a[0 .. na) and b[0 .. nb)
// (m^2): the squared distance between their bounding boxes.
float box_distance_sq(const Vec3* a, int na, const Vec3* b, int nb) {
  const float Vec3::*axes[3] = {&Vec3::x, &Vec3::y, &Vec3::z};
  float gap2 = 0.0f;
  for (const auto axis : axes) {
    float alo = a[0].*axis, ahi = alo, blo = b[0].*axis, bhi = blo;
    for (int i = 1; i < na; ++i) alo = std::min(alo, a[i].*axis), ahi = std::max(ahi, a[i].*axis);
    for (int i = 1; i < nb; ++i) blo = std::min(blo, b[i].*axis), bhi = std::max(bhi, b[i].*axis);
    const float gap = std::max({blo - ahi, alo - bhi, 0.0f});
    gap2 += gap * gap;
  }
  return gap2;
}

// May a pair whose vertices moved at most `moved` (m) in this substep, at least sqrt(lower_sq) (m)
// apart at its start, bound one of them? Its bound is kClothBoundFraction x the start distance, and a
// vertex is only shortened when it moved farther than that; the margins cover the rounding of both.
bool may_bound(float moved, float lower_sq) {
  const float needed = (moved / kClothBoundFraction + 1e-6f) * 1.001f;  // m
  return !(lower_sq > needed * needed);
}

}  // namespace

// The bound of a vertex is kClothBoundFraction x the smallest start distance over its pairs, and it
// matters only where the vertex moved farther than that in the substep. So a pair is measured only
// when one of its vertices moved farther than kClothBoundFraction x a cheap lower bound on its start
// distance (their bounding boxes'): a vertex that is shortened moved farther than its nearest pair's
// bound, so that pair is measured, and its bound comes out exactly as when every pair is measured;
// a vertex some of whose pairs were skipped gets a bound no smaller than its motion, which leaves it
// where it is, as before. A draped sheet moves a fraction of a millimetre per substep against pairs
// centimetres apart: most pairs are skipped.
void BodyContact::apply_bounds(SoftBody* const* bodies, uint32_t count) {
  if (bound_.size() != body_vertex_begin_[count]) return;  // no cloth candidates gathered this frame
  const auto began = std::chrono::steady_clock::now();
  // Each vertex's motion in this substep less its body's shared motion, m; 0 where it cannot be
  // shortened. The shared motion: the mean of the free vertices' (a body with pairs only with
  // itself: every pair's two sides move with it, so it brings none nearer).
  motion_.resize(bound_.size());
  shared_motion_.assign(3 * size_t(count), 0.0f);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t begin = body_vertex_begin_[i], n = body_vertex_begin_[i + 1] - begin;
    if (n == 0) continue;
    const SoftBody& B = *bodies[i];
    const float* x = B.positions();
    const float* p = B.previous_positions();
    const float* w = B.inverse_masses();
    Vec3 shared{0.0f, 0.0f, 0.0f};
    if (own_pairs_only_[i] && !B.frozen()) {
      double sum[3] = {0, 0, 0};
      uint32_t free = 0;
      for (uint32_t v = 0; v < n; ++v) {
        if (w[v] == 0.0f) continue;
        for (int c = 0; c < 3; ++c) sum[c] += double(x[3 * v + c]) - double(p[3 * v + c]);
        ++free;
      }
      // Pinned vertices share no motion: with any, the bound is on the motion itself.
      if (free == n) shared = Vec3{float(sum[0] / n), float(sum[1] / n), float(sum[2] / n)};
    }
    store3(shared_motion_.data(), i, shared);
    for (uint32_t v = 0; v < n; ++v)
      motion_[begin + v] = B.frozen() || w[v] == 0.0f ? 0.0f : length(load3(x, v) - load3(p, v) - shared);
  }
  auto tighten = [&](uint32_t body, uint32_t v, float d) {
    float& b = bound_[body_vertex_begin_[body] + v];
    if (b == INFINITY) bounded_.push_back(body_vertex_begin_[body] + v);
    b = std::min(b, kClothBoundFraction * d);
  };
  auto moved = [&](uint32_t body, uint32_t v) { return motion_[body_vertex_begin_[body] + v]; };
  // Vertex-triangle pairs with a cloth triangle: the vertex and the triangle's corners.
  for (size_t k = 0; k + 1 < cand_start_.size(); ++k) {
    const uint32_t a = cand_body_[k], v = cand_vertex_[k];
    if (bodies[a]->frozen()) continue;
    const float* pa = bodies[a]->previous_positions();
    const Vec3 xv = load3(pa, v);
    for (uint32_t c = cand_start_[k]; c < cand_start_[k + 1]; ++c) {
      const uint32_t b = tri_body_[cand_tri_[c]], t = tri_id_[cand_tri_[c]];
      if (!bodies[b]->is_cloth()) continue;
      const uint32_t* tri = bodies[b]->surface_triangles() + 3 * t;
      const float most = std::max({moved(a, v), moved(b, tri[0]), moved(b, tri[1]), moved(b, tri[2])});
      const float* pb = bodies[b]->previous_positions();
      const Vec3 corners[3] = {load3(pb, tri[0]), load3(pb, tri[1]), load3(pb, tri[2])};
      if (!may_bound(most, box_distance_sq(&xv, 1, corners, 3))) continue;
      const float d = start_distance_vertex_triangle(*bodies[a], v, *bodies[b], t);
      if (!(d == d)) continue;  // NaN: a body diverging now
      tighten(a, v, d);
      for (int i = 0; i < 3; ++i) tighten(b, tri[i], d);
    }
  }
  for (const EdgePairEnds& e : edge_pair_ends_) {
    const uint32_t a = e.a, b = e.b;
    const uint32_t ea[2] = {e.a0, e.a1}, eb[2] = {e.b0, e.b1};
    const float most = std::max({moved(a, ea[0]), moved(a, ea[1]), moved(b, eb[0]), moved(b, eb[1])});
    const float* pa = bodies[a]->previous_positions();
    const float* pb = bodies[b]->previous_positions();
    const Vec3 sa[2] = {load3(pa, ea[0]), load3(pa, ea[1])}, sb[2] = {load3(pb, eb[0]), load3(pb, eb[1])};
    if (!may_bound(most, box_distance_sq(sa, 2, sb, 2))) continue;
    const float d = start_distance_edge_edge(*bodies[a], ea[0], ea[1], *bodies[b], eb[0], eb[1]);
    if (!(d == d)) continue;
    tighten(a, ea[0], d), tighten(a, ea[1], d), tighten(b, eb[0], d), tighten(b, eb[1], d);
  }
  uint32_t body = 0;
  std::sort(bounded_.begin(), bounded_.end());  // grouped by body; the order does not change the result
  for (const uint32_t g : bounded_) {
    while (body + 1 < count && body_vertex_begin_[body + 1] <= g) ++body;
    SoftBody& B = *bodies[body];
    const uint32_t v = g - body_vertex_begin_[body];
    if (!B.frozen() && B.inverse_masses()[v] > 0.0f) bound_motion(B, v, bound_[g], load3(shared_motion_.data(), body));
    bound_[g] = INFINITY;
  }
  bounded_.clear();
  bound_ms_ += ms_since(began);
}

void BodyContact::resolve_cloth(SoftBody* const* bodies, uint32_t count) {
  for (size_t k = 0; k + 1 < cand_start_.size(); ++k) {
    const uint32_t a = cand_body_[k], v = cand_vertex_[k];
    if (a >= count) continue;
    SoftBody& A = *bodies[a];
    if (A.frozen()) continue;
    for (uint32_t e = cand_start_[k]; e < cand_start_[k + 1]; ++e) {
      SoftBody& B = *bodies[tri_body_[cand_tri_[e]]];
      if (!B.is_cloth()) continue;
      solve_vertex_sheet(A, v, B, tri_id_[cand_tri_[e]], cand_gap_[e]);
    }
  }
  for (const EdgePairEnds& e : edge_pair_ends_) {
    if (e.a >= count || e.b >= count) continue;
    SoftBody& A = *bodies[e.a];
    SoftBody& B = *bodies[e.b];
    if (A.frozen() && B.frozen()) continue;
    solve_edge_edge(A, e.a0, e.a1, B, e.b0, e.b1, e.gap);
  }
}

uint32_t BodyContact::solve_edge_pairs(SoftBody* const* bodies, uint32_t count) {
  uint32_t solved = 0;
  for (const EdgePairEnds& e : edge_pair_ends_) {
    if (e.a >= count || e.b >= count) continue;
    SoftBody& A = *bodies[e.a];
    SoftBody& B = *bodies[e.b];
    if (A.frozen() && B.frozen()) continue;
    const uint32_t ea[2] = {e.a0, e.a1}, eb[2] = {e.b0, e.b1};
    const float depth = solve_edge_edge(A, ea[0], ea[1], B, eb[0], eb[1], e.gap);
    if (depth < 0.0f) continue;
    A.add_contacts(0, depth);
    ++solved;
  }
  return solved;
}

}  // namespace sb
