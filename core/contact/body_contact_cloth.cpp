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
    // Only pairs this frame's motion (predicted from the velocities, as the candidates) can bring
    // within the gap, and half the gap again for what it did not predict. The closest points are
    // blends of the ends, so the fastest relative velocity of an end pair bounds how fast they close.
    const Vec3 x0 = load3(A.positions(), i0), x1 = load3(A.positions(), i1), y0 = load3(B.positions(), j0), y1 = load3(B.positions(), j1);
    const float step_a = A.frozen() ? 0.0f : dt, step_b = B.frozen() ? 0.0f : dt;
    const Vec3 va0 = load3(A.velocities(), i0) * step_a, va1 = load3(A.velocities(), i1) * step_a;
    const Vec3 vb0 = load3(B.velocities(), j0) * step_b, vb1 = load3(B.velocities(), j1) * step_b;
    const float motion = std::max({length(va0 - vb0), length(va0 - vb1), length(va1 - vb0), length(va1 - vb1)});
    const float keep = 1.5f * contact_gap(A, B, settings);  // m
    // The boxes' distance is at most the edges': first that, cheaper (a margin for its rounding).
    const auto axis_gap2 = [](float a0, float a1, float b0, float b1) {
      const float g = std::max(std::min(b0, b1) - std::max(a0, a1), std::min(a0, a1) - std::max(b0, b1));
      return g > 0.0f ? g * g : 0.0f;
    };
    const float box2 = axis_gap2(x0.x, x1.x, y0.x, y1.x) + axis_gap2(x0.y, x1.y, y0.y, y1.y) + axis_gap2(x0.z, x1.z, y0.z, y1.z);  // m^2
    const float box_reach = (keep + motion) * 1.001f + 1e-6f;  // m
    if (box2 > box_reach * box_reach) continue;
    const float d = std::sqrt(closest_between_segments(x0, x1, y0, y1, &s, &t));
    if (!(d - motion <= keep)) continue;
    // The separating direction now, for the solve's quick test (cloth_contact.h).
    const Vec3 away = (x0 + (x1 - x0) * s) - (y0 + (y1 - y0) * t);
    const float away_len = length(away);
    const Vec3 axis = away_len > 0.0f ? away * (1.0f / away_len) : Vec3{0.0f, 0.0f, 0.0f};
    float gap = contact_gap(A, B, settings);  // m
    // Near in the rest shape (short edges at a border's half triangles): the gap they have at rest,
    // as for the vertex-triangle pairs (body_contact.cpp).
    if (a == b) {
      const float* rest = A.rest_positions();
      const float exclusion = kClothSelfExclusion * A.self_thickness();
      const float d2 = closest_between_segments(load3(rest, i0), load3(rest, i1), load3(rest, j0), load3(rest, j1), &s, &t);
      if (d2 < exclusion * exclusion) gap = std::min(gap, std::sqrt(d2) / kClothSelfExclusion);
    }
    edge_pairs_[kept++] = key;
    edge_pair_ends_.push_back({a, b, i0, i1, j0, j1, gap, d == d ? d : -INFINITY, axis});
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
  // Each vertex's cloth pairs (CSR over body_vertex_begin_'s numbering): candidate c as c, edge pair
  // i as kEdgeEntry | i; the bound visits only the pairs of the vertices it may shorten.
  const uint32_t vertices = body_vertex_begin_[count];
  vp_start_.assign(vertices + 1, 0);
  cand_row_.resize(cand_tri_.size());
  auto each_pair = [&](auto&& visit) {
    for (size_t k = 0; k + 1 < cand_start_.size(); ++k)
      for (uint32_t c = cand_start_[k]; c < cand_start_[k + 1]; ++c) {
        const uint32_t a = cand_body_[k], b = tri_body_[cand_tri_[c]];
        if (!bodies[b]->is_cloth()) continue;
        cand_row_[c] = uint32_t(k);
        const uint32_t* tri = bodies[b]->surface_triangles() + 3 * tri_id_[cand_tri_[c]];
        visit(body_vertex_begin_[a] + cand_vertex_[k], c);
        for (int i = 0; i < 3; ++i) visit(body_vertex_begin_[b] + tri[i], c);
      }
    for (uint32_t i = 0; i < uint32_t(edge_pair_ends_.size()); ++i) {
      const EdgePairEnds& e = edge_pair_ends_[i];
      const uint32_t ga = body_vertex_begin_[e.a], gb = body_vertex_begin_[e.b];
      visit(ga + e.a0, kEdgeEntry | i), visit(ga + e.a1, kEdgeEntry | i), visit(gb + e.b0, kEdgeEntry | i), visit(gb + e.b1, kEdgeEntry | i);
    }
  };
  each_pair([&](uint32_t g, uint32_t) { ++vp_start_[g + 1]; });
  for (uint32_t g = 0; g < vertices; ++g) vp_start_[g + 1] += vp_start_[g];
  vp_entry_.resize(vp_start_[vertices]);
  fill_.assign(vp_start_.begin(), vp_start_.end() - 1);
  each_pair([&](uint32_t g, uint32_t entry) { vp_entry_[fill_[g]++] = entry; });
  bound_.assign(body_vertex_begin_[count], INFINITY);
  lower_.assign(body_vertex_begin_[count], INFINITY);
  flagged_.assign(body_vertex_begin_[count], 0);
  lower_pending_ = true;
  step_pos_.clear();  // the frame's first substep carries no bound from a previous one
  stamp_.assign(body_vertex_begin_[count], 0);
  clock_ = 0;
  cand_seen_.assign(cand_tri_.size(), kMeasureAgain);
  edge_seen_.assign(edge_pair_ends_.size(), kMeasureAgain);
  edge_ms_ = ms_since(began);
}

namespace {

// May a pair whose vertices moved at most `moved` (m) in this substep, at least sqrt(lower_sq) (m)
// apart at its start, bound one of them? Its bound is kClothBoundFraction x the start distance, and a
// vertex is only shortened when it moved farther than that; the margins cover the rounding of both.
bool may_bound(float moved, float lower_sq) {
  const float needed = (moved / kClothBoundFraction + 1e-6f) * 1.001f;  // m
  return !(lower_sq > needed * needed);
}

}  // namespace

// Once per substep: a lower bound on each cloth pair's distance at the substep's start, from its
// distance at the frame's start less how far its vertices have moved since (the nearest points are
// blends of the corners or ends, so each side's point moved at most as far as its farthest-moved
// vertex), and per vertex the least over its pairs (lower_, squared).
void BodyContact::lower_bounds(SoftBody* const* bodies, uint32_t count) {
  lower_.assign(bound_.size(), INFINITY);
  cand_low_.resize(cand_tri_.size(), -INFINITY);
  edge_low_.resize(edge_pair_ends_.size(), -INFINITY);
  cand_exact_.assign(cand_tri_.size(), 0);
  edge_exact_.assign(edge_pair_ends_.size(), 0);
  since_frame(bodies, count, false);
  // The previous substep's bounds (measured start distances among them) less how far the vertices
  // moved from its start to this one's, where larger (not in a frame's first substep).
  step_moved_.assign(bound_.size(), 0.0f);
  if (step_pos_.size() == 3 * bound_.size()) {
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t begin = body_vertex_begin_[i], n = body_vertex_begin_[i + 1] - begin;
      const float* p = bodies[i]->previous_positions();
      for (uint32_t v = 0; v < n; ++v) step_moved_[begin + v] = length(load3(p, v) - load3(step_pos_.data(), begin + v));
    }
  } else {
    std::fill(cand_low_.begin(), cand_low_.end(), -INFINITY);
    std::fill(edge_low_.begin(), edge_low_.end(), -INFINITY);
  }
  step_pos_.resize(3 * bound_.size());
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t begin = body_vertex_begin_[i], n = body_vertex_begin_[i + 1] - begin;
    std::copy(bodies[i]->previous_positions(), bodies[i]->previous_positions() + 3 * size_t(n), step_pos_.begin() + 3 * size_t(begin));
  }
  auto lower = [&](uint32_t body, uint32_t v, float low) {
    float& l = lower_[body_vertex_begin_[body] + v];
    l = std::min(l, low > 0.0f ? low * low : 0.0f);
  };
  auto fm = [&](uint32_t body, uint32_t v) { return moved_[body_vertex_begin_[body] + v]; };
  auto sm = [&](uint32_t body, uint32_t v) { return step_moved_[body_vertex_begin_[body] + v]; };
  for (size_t k = 0; k + 1 < cand_start_.size(); ++k) {
    const uint32_t a = cand_body_[k], v = cand_vertex_[k];
    if (a >= count || bodies[a]->frozen()) {
      for (uint32_t c = cand_start_[k]; c < cand_start_[k + 1]; ++c) cand_low_[c] = -INFINITY;  // (no bound to carry)
      continue;
    }
    for (uint32_t c = cand_start_[k]; c < cand_start_[k + 1]; ++c) {
      const uint32_t b = tri_body_[cand_tri_[c]], t = tri_id_[cand_tri_[c]];
      if (!bodies[b]->is_cloth()) continue;
      const uint32_t* tri = bodies[b]->surface_triangles() + 3 * t;
      float low = cand_d0_[c] - fm(a, v) - std::max({fm(b, tri[0]), fm(b, tri[1]), fm(b, tri[2])});  // m
      // (std::max keeps the first for a NaN, from a body diverging now.)
      low = std::max(low, cand_low_[c] - sm(a, v) - std::max({sm(b, tri[0]), sm(b, tri[1]), sm(b, tri[2])}));
      if (!(low == low)) low = -INFINITY;  // NaN (a body diverging): no bound, always measured
      cand_low_[c] = low;
      lower(a, v, low);
      for (int i = 0; i < 3; ++i) lower(b, tri[i], low);
    }
  }
  for (size_t i = 0; i < edge_pair_ends_.size(); ++i) {
    const EdgePairEnds& e = edge_pair_ends_[i];
    float low = e.d0 - std::max(fm(e.a, e.a0), fm(e.a, e.a1)) - std::max(fm(e.b, e.b0), fm(e.b, e.b1));  // m
    low = std::max(low, edge_low_[i] - std::max(sm(e.a, e.a0), sm(e.a, e.a1)) - std::max(sm(e.b, e.b0), sm(e.b, e.b1)));
    if (!(low == low)) low = -INFINITY;
    edge_low_[i] = low;
    lower(e.a, e.a0, low), lower(e.a, e.a1, low), lower(e.b, e.b0, low), lower(e.b, e.b1, low);
  }
}

// Per vertex of a cloth pair, how far it is from where the frame started, m (moved_): at the
// substep's start (previous positions) or now.
void BodyContact::since_frame(SoftBody* const* bodies, uint32_t count, bool now) {
  moved_.assign(bound_.size(), 0.0f);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t begin = body_vertex_begin_[i], n = body_vertex_begin_[i + 1] - begin;
    if (n == 0 || body_pos_begin_[i + 1] == body_pos_begin_[i]) continue;  // (not near another: in no pair)
    const float* x = now ? bodies[i]->positions() : bodies[i]->previous_positions();
    const float* x0 = frame_pos_.data() + 3 * size_t(body_pos_begin_[i]);
    for (uint32_t v = 0; v < n; ++v) moved_[begin + v] = length(load3(x, v) - load3(x0, v));
  }
}

// The bound of a vertex is kClothBoundFraction x the smallest start distance over its pairs, and it
// matters only where the vertex moved farther than that in the substep. So a pair is measured only
// when one of its vertices moved farther than kClothBoundFraction x a lower bound on its start
// distance (lower_bounds), and only in a round where some vertex moved farther than that for its
// least lower bound (flagged): a vertex that is shortened moved farther than its nearest pair's
// bound, so it is flagged and that pair is measured, and its bound comes out exactly as when every
// pair is measured (the positions are the same to the bit); a vertex some of whose pairs were
// skipped gets a bound no smaller than its motion, which leaves it where it is. A draped sheet moves
// a fraction of a millimetre per substep against pairs a spacing apart: most rounds measure nothing.
void BodyContact::apply_bounds(SoftBody* const* bodies, uint32_t count) {
  if (bound_.size() != body_vertex_begin_[count]) return;  // no cloth candidates gathered this frame
  const auto began = std::chrono::steady_clock::now();
  if (lower_pending_) {
    lower_bounds(bodies, count);
    lower_pending_ = false;
  }
  // The shared motion: the mean of the free vertices' (a body with pairs only with itself: every
  // pair's two sides move with it, so it brings none nearer).
  shared_motion_.assign(3 * size_t(count), 0.0f);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t n = body_vertex_begin_[i + 1] - body_vertex_begin_[i];
    if (n == 0 || !own_pairs_only_[i] || bodies[i]->frozen()) continue;
    const SoftBody& B = *bodies[i];
    const float* x = B.positions();
    const float* p = B.previous_positions();
    const float* w = B.inverse_masses();
    double sum[3] = {0, 0, 0};
    uint32_t free = 0;
    for (uint32_t v = 0; v < n; ++v) {
      if (w[v] == 0.0f) continue;
      for (int c = 0; c < 3; ++c) sum[c] += double(x[3 * v + c]) - double(p[3 * v + c]);
      ++free;
    }
    // Pinned vertices share no motion: with any, the bound is on the motion itself.
    if (free == n) store3(shared_motion_.data(), i, Vec3{float(sum[0] / n), float(sum[1] / n), float(sum[2] / n)});
  }
  // Each pair vertex's motion in this substep less its body's shared motion, m (0 where it cannot be
  // shortened): flagged if it may reach the bound of its nearest pair.
  bool any = false;
  motion_.assign(bound_.size(), 0.0f);
  for (uint32_t i = 0; i < count; ++i) {
    const SoftBody& B = *bodies[i];
    const uint32_t begin = body_vertex_begin_[i], n = body_vertex_begin_[i + 1] - begin;
    if (n == 0 || B.frozen()) continue;
    const float* x = B.positions();
    const float* p = B.previous_positions();
    const float* w = B.inverse_masses();
    const Vec3 shared = load3(shared_motion_.data(), i);
    for (uint32_t v = 0; v < n; ++v) {
      const uint32_t g = begin + v;
      if (lower_[g] == INFINITY || w[v] == 0.0f) continue;  // in no cloth pair, or pinned
      const float moved = length(load3(x, v) - load3(p, v) - shared);
      motion_[g] = moved;
      if (!may_bound(moved, lower_[g])) continue;
      flagged_[g] = 1;
      any = true;
    }
  }
  if (!any) {
    bound_ms_ += ms_since(began);
    return;
  }
  auto low_sq = [](float low) { return low > 0.0f ? low * low : 0.0f; };  // m^2
  // Each flagged vertex against its pairs that may bound it (its motion beyond a quarter of their
  // lower bound), each measured once per substep (the start distance does not change in its later
  // rounds), then shortened to the bound where it moved farther (bound_motion compares). A vertex's
  // bound depends only on the start positions and its own motion: the order does not matter.
  for (uint32_t i = 0; i < count; ++i) {
    SoftBody& B = *bodies[i];
    const uint32_t begin = body_vertex_begin_[i], n = body_vertex_begin_[i + 1] - begin;
    if (n == 0) continue;
    const Vec3 shared = load3(shared_motion_.data(), i);
    for (uint32_t v = 0; v < n; ++v) {
      const uint32_t g = begin + v;
      if (!flagged_[g]) continue;
      flagged_[g] = 0;
      float bound = INFINITY;  // m
      for (uint32_t m = vp_start_[g]; m < vp_start_[g + 1]; ++m) {
        const uint32_t entry = vp_entry_[m];
        if (entry & kEdgeEntry) {
          const uint32_t p = entry & ~kEdgeEntry;
          if (!may_bound(motion_[g], low_sq(edge_low_[p]))) continue;
          if (!edge_exact_[p]) {
            const EdgePairEnds& e = edge_pair_ends_[p];
            edge_low_[p] = start_distance_edge_edge(*bodies[e.a], e.a0, e.a1, *bodies[e.b], e.b0, e.b1);
            edge_exact_[p] = 1;
            if (!(edge_low_[p] == edge_low_[p])) edge_low_[p] = -INFINITY;  // NaN: a body diverging now
          }
          if (edge_low_[p] != -INFINITY) bound = std::min(bound, kClothBoundFraction * edge_low_[p]);
        } else {
          const uint32_t c = entry, k = cand_row_[c];
          if (cand_body_[k] >= count || bodies[cand_body_[k]]->frozen()) continue;
          if (!may_bound(motion_[g], low_sq(cand_low_[c]))) continue;
          if (!cand_exact_[c]) {
            cand_low_[c] = start_distance_vertex_triangle(*bodies[cand_body_[k]], cand_vertex_[k], *bodies[tri_body_[cand_tri_[c]]], tri_id_[cand_tri_[c]]);
            cand_exact_[c] = 1;
            if (!(cand_low_[c] == cand_low_[c])) cand_low_[c] = -INFINITY;
          }
          if (cand_low_[c] != -INFINITY) bound = std::min(bound, kClothBoundFraction * cand_low_[c]);
        }
      }
      if (bound < INFINITY && bound_motion(B, v, bound, shared)) touch(i, v);
    }
  }
  bound_ms_ += ms_since(began);
}

void BodyContact::resolve_cloth(SoftBody* const* bodies, uint32_t count) {
  for (size_t k = 0; k + 1 < cand_start_.size(); ++k) {
    const uint32_t a = cand_body_[k], v = cand_vertex_[k];
    if (a >= count) continue;
    SoftBody& A = *bodies[a];
    if (A.frozen()) continue;
    const uint32_t at = stamp_[body_vertex_begin_[a] + v];
    for (uint32_t e = cand_start_[k]; e < cand_start_[k + 1]; ++e) {
      const uint32_t b = tri_body_[cand_tri_[e]];
      SoftBody& B = *bodies[b];
      if (!B.is_cloth()) continue;
      const uint32_t* tri = B.surface_triangles() + 3 * tri_id_[cand_tri_[e]];
      const uint32_t* sb = stamp_.data() + body_vertex_begin_[b];
      const uint32_t seen = cand_seen_[e];
      if (seen != kMeasureAgain && at <= seen && sb[tri[0]] <= seen && sb[tri[1]] <= seen && sb[tri[2]] <= seen) continue;
      if (solve_vertex_sheet(A, v, B, tri_id_[cand_tri_[e]], cand_gap_[e]) < 0.0f) {
        cand_seen_[e] = clock_;
        continue;
      }
      cand_seen_[e] = kMeasureAgain;
      touch(a, v);
      for (int i = 0; i < 3; ++i) touch(b, tri[i]);
    }
  }
  for (size_t i = 0; i < edge_pair_ends_.size(); ++i) {
    const EdgePairEnds& e = edge_pair_ends_[i];
    if (e.a >= count || e.b >= count) continue;
    SoftBody& A = *bodies[e.a];
    SoftBody& B = *bodies[e.b];
    if (A.frozen() && B.frozen()) continue;
    const uint32_t* sa = stamp_.data() + body_vertex_begin_[e.a];
    const uint32_t* sb = stamp_.data() + body_vertex_begin_[e.b];
    const uint32_t seen = edge_seen_[i];
    if (seen != kMeasureAgain && sa[e.a0] <= seen && sa[e.a1] <= seen && sb[e.b0] <= seen && sb[e.b1] <= seen) continue;
    if (solve_edge_edge(A, e.a0, e.a1, B, e.b0, e.b1, e.gap, e.axis) < 0.0f) {
      edge_seen_[i] = clock_;
      continue;
    }
    edge_seen_[i] = kMeasureAgain;
    touch(e.a, e.a0), touch(e.a, e.a1), touch(e.b, e.b0), touch(e.b, e.b1);
  }
}

uint32_t BodyContact::solve_edge_pairs(SoftBody* const* bodies, uint32_t count) {
  uint32_t solved = 0;
  if (bound_.size() != body_vertex_begin_[count]) return 0;  // no cloth candidates gathered this frame
  if (lower_pending_) {
    const auto began = std::chrono::steady_clock::now();
    lower_bounds(bodies, count);
    lower_pending_ = false;
    bound_ms_ += ms_since(began);
  }
  // How far each vertex of a pair has moved since the frame's start, m: a pair d0 apart then is at
  // least d0 less its two edges' farthest-moved ends' motions apart now, and one that cannot be
  // within its gap is apart without measuring it (until one of its ends moves, stamp_). Most of a
  // draped sheet's pairs are its neighbours in the plane, a spacing apart.
  since_frame(bodies, count, true);
  const uint32_t measured_at = clock_;
  for (size_t i = 0; i < edge_pair_ends_.size(); ++i) {
    const EdgePairEnds& e = edge_pair_ends_[i];
    if (e.a >= count || e.b >= count) continue;
    SoftBody& A = *bodies[e.a];
    SoftBody& B = *bodies[e.b];
    if (A.frozen() && B.frozen()) continue;
    {
      const uint32_t ga = body_vertex_begin_[e.a], gb = body_vertex_begin_[e.b];
      const float low = e.d0 - std::max(moved_[ga + e.a0], moved_[ga + e.a1]) - std::max(moved_[gb + e.b0], moved_[gb + e.b1]);
      // (A margin for the rounding of the distances and motions, m.)
      if (low > e.gap * 1.001f + 1e-5f && stamp_[ga + e.a0] <= measured_at && stamp_[ga + e.a1] <= measured_at &&
          stamp_[gb + e.b0] <= measured_at && stamp_[gb + e.b1] <= measured_at) {
        edge_seen_[i] = clock_;
        continue;
      }
    }
    const float depth = solve_edge_edge(A, e.a0, e.a1, B, e.b0, e.b1, e.gap, e.axis);
    if (depth < 0.0f) {
      edge_seen_[i] = clock_;  // apart: unchanged until one of its ends moves
      continue;
    }
    edge_seen_[i] = kMeasureAgain;
    touch(e.a, e.a0), touch(e.a, e.a1), touch(e.b, e.b0), touch(e.b, e.b1);
    A.add_contacts(0, depth);
    ++solved;
  }
  return solved;
}

}  // namespace sb
