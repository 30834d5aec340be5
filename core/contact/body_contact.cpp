// Body-against-body and self contact: broad phase over body bounds, a spatial hash of surface
// triangles built once per frame, vertex-triangle constraints with friction (see body_contact.h).
#include "contact/body_contact.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "contact/cloth_contact.h"
#include "math/closest_points.h"
#include "math/vec3.h"
#include "solver/soft_body.h"

namespace sb {

namespace {

bool filter_allows(const SoftBody& a, const SoftBody& b) {
  return (a.collision_group() & b.collision_mask()) != 0 && (b.collision_group() & a.collision_mask()) != 0;
}

uint32_t cell_hash(int32_t ix, int32_t iy, int32_t iz, uint32_t table_size) {
  // Large odd multipliers spread neighbouring cells over the table (Teschner et al. 2003).
  const uint32_t h = (uint32_t(ix) * 92837111u) ^ (uint32_t(iy) * 689287499u) ^ (uint32_t(iz) * 283923481u);
  return h & (table_size - 1);
}

// Clamped, so a body on its way to diverging (huge or NaN coordinates) cannot overflow the cast;
// its distances are NaN or far, so it finds no contact anyway.
int32_t cell_of(float x, float inv_cell) {
  const float c = std::floor(x * inv_cell);
  return c > -1.0e9f && c < 1.0e9f ? int32_t(c) : 0;
}

// m: how far past its predicted motion a pair may still come together within a frame (pruning): the
// search radius, as the box test had. A resting vertex pushed by its own tets and its contacts moves
// millimetres per substep with no velocity to predict it from; with 5 mm a bunny of the page's pile
// kept trembling after 10 s (1.9 J), its nearest triangle now and then not among its candidates.
constexpr float kPruneSlack = 0.02f;

}  // namespace

float contact_gap(const SoftBody& a, const SoftBody& b, const BodyContactSettings& s) {
  if (&a == &b) return a.self_thickness();
  const float half_a = a.is_cloth() ? 0.5f * a.params().thickness : 0.0f;
  const float half_b = b.is_cloth() ? 0.5f * b.params().thickness : 0.0f;
  return s.thickness + half_a + half_b;
}

namespace {

bool takes_part(const SoftBody* b) {
  // A body frozen after diverging (at its last finite shape) or asleep still takes part, as an
  // immovable obstacle: what rested on it keeps resting there.
  return b && b->position_based() && (b->collision_mask() != 0 || b->self_collision()) && b->surface_triangle_count() > 0;
}

// A surface vertex's path over the frame, predicted from its velocity (none for a frozen body).
void path_box(const SoftBody& b, uint32_t v, float dt, float lo[3], float hi[3]) {
  const float* x = b.positions();
  const float* vel = b.velocities();
  const float step = b.frozen() ? 0.0f : dt;
  for (int c = 0; c < 3; ++c) {
    const float from = x[3 * v + c], to = from + vel[3 * v + c] * step;
    lo[c] = std::min(from, to);
    hi[c] = std::max(from, to);
  }
}

bool overlap(const BodyContact::Box& a, const float lo[3], const float hi[3]) {
  return hi[0] >= a.lo[0] && lo[0] <= a.hi[0] && hi[1] >= a.lo[1] && lo[1] <= a.hi[1] && hi[2] >= a.lo[2] && lo[2] <= a.hi[2];
}

}  // namespace

void BodyContact::broad_phase(SoftBody* const* bodies, uint32_t count, float dt, const BodyContactSettings& settings) {
  const auto began = std::chrono::steady_clock::now();
  // The widest reach of any pair: triangles this close to a vertex's path are its candidates.
  reach_ = settings.thickness + settings.search_radius;
  float cloth_halves = 0.0f;  // m, the two thickest sheets' half thicknesses (the widest gap between bodies)
  float thickest = 0.0f;
  cloth_seen_ = false;
  for (uint32_t i = 0; i < count; ++i) {
    if (!takes_part(bodies[i])) continue;
    if (bodies[i]->self_collision()) reach_ = std::max(reach_, bodies[i]->self_thickness() + settings.search_radius);
    if (!bodies[i]->is_cloth()) continue;
    cloth_seen_ = true;
    const float half = 0.5f * bodies[i]->params().thickness;
    cloth_halves = std::max(cloth_halves, thickest + half);
    thickest = std::max(thickest, half);
  }
  reach_ += cloth_halves;
  // Bounds of each body's swept surface, widened by the reach.
  bounds_.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    Box& bb = bounds_[i];
    bb.lo[0] = bb.lo[1] = bb.lo[2] = INFINITY;
    bb.hi[0] = bb.hi[1] = bb.hi[2] = -INFINITY;
    if (!takes_part(bodies[i])) continue;
    const uint32_t* sv = bodies[i]->surface_vertices();
    for (uint32_t k = 0; k < bodies[i]->surface_vertex_count(); ++k) {
      float lo[3], hi[3];
      path_box(*bodies[i], sv[k], dt, lo, hi);
      for (int c = 0; c < 3; ++c) {
        bb.lo[c] = std::min(bb.lo[c], lo[c]);
        bb.hi[c] = std::max(bb.hi[c], hi[c]);
      }
    }
    for (int c = 0; c < 3; ++c) {
      bb.lo[c] -= reach_;
      bb.hi[c] += reach_;
    }
  }
  // The pairs of bodies whose bounds meet (and whose filters allow contact); a self-colliding body
  // is its own pair. Sweep and prune along x: bodies sorted by their bounds' low x (ties by index),
  // each compared only with those whose low x lies within its own extent, so the cost grows with the
  // bodies and the pairs that overlap in x, not with every pair. Bodies far apart end here.
  sweep_.clear();
  pair_keys_.clear();
  for (uint32_t i = 0; i < count; ++i) {
    if (!takes_part(bodies[i])) continue;
    if (bodies[i]->self_collision()) pair_keys_.push_back(uint64_t(i) << 32 | i);
    // NaN bounds (a body diverging now) meet nothing, and would break the sort's ordering.
    if (bounds_[i].lo[0] == bounds_[i].lo[0] && bounds_[i].hi[0] == bounds_[i].hi[0]) sweep_.push_back(i);
  }
  std::sort(sweep_.begin(), sweep_.end(), [&](uint32_t a, uint32_t b) {
    return bounds_[a].lo[0] < bounds_[b].lo[0] || (bounds_[a].lo[0] == bounds_[b].lo[0] && a < b);
  });
  for (size_t k = 0; k < sweep_.size(); ++k) {
    const uint32_t i = sweep_[k];
    for (size_t m = k + 1; m < sweep_.size() && bounds_[sweep_[m]].lo[0] <= bounds_[i].hi[0]; ++m) {
      const uint32_t j = sweep_[m];
      if (!overlap(bounds_[j], bounds_[i].lo, bounds_[i].hi) || !filter_allows(*bodies[i], *bodies[j])) continue;
      pair_keys_.push_back(uint64_t(i) << 32 | j);
      pair_keys_.push_back(uint64_t(j) << 32 | i);
    }
  }
  // Grouped by body, each body's neighbours in increasing order: the order the solve visits them in
  // does not depend on the sweep's.
  std::sort(pair_keys_.begin(), pair_keys_.end());
  broad_count_ = count;
  broad_done_ = true;
  broad_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
}

void BodyContact::begin_frame(SoftBody* const* bodies, uint32_t count, float dt, const BodyContactSettings& settings) {
  sweep_tri_.clear();  // swept once the first substep begins (begin_substep)
  sweep_pending_ = false;
  cand_body_.clear();
  cand_vertex_.clear();
  cand_start_.assign(1, 0);
  cand_tri_.clear();
  edge_pairs_.clear();
  edge_pair_ends_.clear();
  edge_ms_ = bound_ms_ = 0.0;
  any_cloth_ = false;  // set once this frame's cloth pairs are gathered
  lower_pending_ = true;
  if (!broad_done_ || broad_count_ != count) broad_phase(bodies, count, dt, settings);
  broad_done_ = false;  // the next frame's bodies move first
  const float reach = reach_;
  const bool cloth_seen = cloth_seen_;
  // Each body's neighbour list in increasing body order, without the pairs of two frozen bodies
  // (diverged or asleep: neither moves, so nothing between them is solved).
  near_.assign(count, 0);
  pair_start_.assign(count + 1, 0);
  pairs_.clear();
  for (const uint64_t key : pair_keys_) {
    const uint32_t i = uint32_t(key >> 32), j = uint32_t(key);
    if (bodies[i]->frozen() && bodies[j]->frozen()) continue;
    pairs_.push_back(j);
    near_[i] = 1;
    ++pair_start_[i + 1];
  }
  for (uint32_t i = 0; i < count; ++i) pair_start_[i + 1] += pair_start_[i];
  if (pairs_.empty()) return;
  auto path_box = [&](const SoftBody& b, uint32_t v, float lo[3], float hi[3]) { sb::path_box(b, v, dt, lo, hi); };
  // Do the bounds of a neighbour of body i meet this box? Only such vertices and triangles matter.
  auto in_neighbour = [&](uint32_t i, const float lo[3], const float hi[3]) {
    for (uint32_t k = pair_start_[i]; k < pair_start_[i + 1]; ++k)
      if (overlap(bounds_[pairs_[k]], lo, hi)) return true;
    return false;
  };

  // How far each body's triangles reach. A sheet has no inside to find a vertex deep in: its
  // triangles reach half a gap past the widest gap it keeps (to itself or a neighbour), as its self
  // candidates do below, so the hash's work per vertex follows the sheet's thickness, not the search
  // radius. A closed surface's reach the widest of any pair, as before.
  widen_.assign(count, reach);
  for (uint32_t i = 0; i < count; ++i) {
    if (!near_[i] || !bodies[i]->is_cloth()) continue;
    float gap = 0.0f;
    for (uint32_t k = pair_start_[i]; k < pair_start_[i + 1]; ++k) gap = std::max(gap, contact_gap(*bodies[pairs_[k]], *bodies[i], settings));
    widen_[i] = 1.5f * gap;
  }
  // The part of the triangles' widening the vertex queries carry instead (the least of any body's), so
  // the hash holds each triangle in fewer cells.
  float query_widen = INFINITY;
  for (uint32_t i = 0; i < count; ++i)
    if (near_[i]) query_widen = std::min(query_widen, widen_[i]);
  if (!(query_widen < INFINITY)) query_widen = 0.0f;
  // Swept boxes of the triangles near a neighbour, and their typical size for the hash's cells.
  tri_body_.clear();
  tri_id_.clear();
  tri_box_.clear();
  double extent_sum = 0.0, sheet_size_sum = 0.0;  // m
  float extent_max = 0.0f, widened_max = 0.0f;    // m
  body_tri_begin_.assign(count + 1, 0);
  for (uint32_t i = 0; i < count; ++i) {
    body_tri_begin_[i] = uint32_t(tri_box_.size());
    if (!near_[i]) continue;
    const SoftBody& B = *bodies[i];
    const uint32_t* tri = B.surface_triangles();
    for (uint32_t t = 0; t < B.surface_triangle_count(); ++t) {
      Box box;
      path_box(B, tri[3 * t], box.lo, box.hi);
      for (int corner = 1; corner < 3; ++corner) {
        float lo[3], hi[3];
        path_box(B, tri[3 * t + corner], lo, hi);
        for (int c = 0; c < 3; ++c) {
          box.lo[c] = std::min(box.lo[c], lo[c]);
          box.hi[c] = std::max(box.hi[c], hi[c]);
        }
      }
      if (!in_neighbour(i, box.lo, box.hi)) continue;  // no vertex of a neighbour can come near it
      float e = 0.0f;
      for (int c = 0; c < 3; ++c) {
        e = std::max(e, box.hi[c] - box.lo[c]);
        box.lo[c] -= widen_[i] - query_widen;
        box.hi[c] += widen_[i] - query_widen;
      }
      extent_sum += e;
      extent_max = std::max(extent_max, e);
      sheet_size_sum += std::max(e, widen_[i]);
      widened_max = std::max(widened_max, e + 2.0f * widen_[i]);
      tri_body_.push_back(i);
      tri_id_.push_back(t);
      tri_box_.push_back(box);
    }
  }
  const uint32_t triangles = uint32_t(tri_box_.size());
  body_tri_begin_[count] = triangles;
  if (triangles == 0) return;
  // Cells the size of a typical swept triangle (or the reach, if larger); a stretched one spans at
  // most ~10 cells per axis.
  float cell = std::max(reach, float(extent_sum / triangles));
  cell = std::max(cell, extent_max / 8.0f);
  // With a sheet: cells the size of a typical triangle or its reach, whichever is larger, averaged
  // (a fine sheet's are far smaller than the search radius), and no widened box over ~14 cells.
  if (cloth_seen) cell = std::max(float(sheet_size_sum / triangles), widened_max / 14.0f);
  // A few fast bodies among many slow ones (a throw into a pile) sweep long boxes through small
  // cells: coarser cells until the hash holds at most ~64 entries per triangle, so its memory and
  // time stay bounded by the surface whatever the velocities.
  for (int coarser = 0; coarser < 32; ++coarser, cell *= 2.0f) {
    double entries = 0.0;
    for (const Box& box : tri_box_) {
      double cells = 1.0;
      for (int c = 0; c < 3; ++c) cells *= std::min(17.0, std::floor(double(box.hi[c] - box.lo[c]) / cell) + 2.0);
      entries += cells;
    }
    if (!(entries > 64.0 * triangles)) break;
  }
  const float inv_cell = 1.0f / cell;
  uint32_t table_size = 1024;
  while (table_size < 2 * triangles) table_size *= 2;

  // Spatial hash of those triangles (each in every cell its widened box touches), by counting sort,
  // which keeps each cell's entries in triangle order.
  entry_cell_.clear();
  entry_item_.clear();
  for (uint32_t index = 0; index < triangles; ++index) {
    const Box& box = tri_box_[index];
    int32_t lo[3], hi[3];
    for (int c = 0; c < 3; ++c) {
      lo[c] = cell_of(box.lo[c], inv_cell);
      hi[c] = std::min(cell_of(box.hi[c], inv_cell), lo[c] + 16);  // bounded work, whatever the input
    }
    for (int32_t ix = lo[0]; ix <= hi[0]; ++ix)
      for (int32_t iy = lo[1]; iy <= hi[1]; ++iy)
        for (int32_t iz = lo[2]; iz <= hi[2]; ++iz) {
          entry_cell_.push_back(cell_hash(ix, iy, iz, table_size));
          entry_item_.push_back(index);
        }
  }
  cell_start_.assign(table_size + 1, 0);
  for (uint32_t key : entry_cell_) ++cell_start_[key + 1];
  for (uint32_t k = 0; k < table_size; ++k) cell_start_[k + 1] += cell_start_[k];
  entries_.resize(entry_item_.size());
  fill_.assign(cell_start_.begin(), cell_start_.end() - 1);
  for (size_t e = 0; e < entry_item_.size(); ++e) entries_[fill_[entry_cell_[e]]++] = entry_item_[e];

  // The frame-start positions of the bodies near another (the solve's lower bounds are from them).
  body_pos_begin_.assign(count + 1, 0);
  frame_pos_.clear();
  for (uint32_t i = 0; i < count; ++i) {
    body_pos_begin_[i] = uint32_t(frame_pos_.size() / 3);
    if (near_[i]) frame_pos_.insert(frame_pos_.end(), bodies[i]->positions(), bodies[i]->positions() + 3 * size_t(bodies[i]->vertex_count()));
  }
  body_pos_begin_[count] = uint32_t(frame_pos_.size() / 3);
  vertex_motion_.resize(frame_pos_.size() / 3);

  // Each surface vertex's candidates: the triangles whose swept box meets its path.
  seen_.assign(triangles, ~0u);
  uint32_t query = 0;
  for (uint32_t a = 0; a < count; ++a) {
    if (!near_[a] || bodies[a]->frozen()) continue;  // a frozen body's vertices do not move
    const SoftBody& A = *bodies[a];
    const uint32_t* sv = A.surface_vertices();
    const float* xa = A.positions();
    const float* rest = A.rest_positions();
    // Pairs nearer than twice the thickness in the rest shape never touch (a vertex's own
    // neighbourhood on the surface); anything farther may.
    // A sheet (two-sided, with edge-edge contacts) only drops what would touch at rest, with a
    // quarter to spare: its second ring of triangles stays a candidate, so a sharp crease cannot fold
    // through it (cloth_contact.h).
    const float self_exclusion = (A.is_cloth() ? kClothSelfExclusion : 2.0f) * A.self_thickness();
    const uint32_t own_begin = body_tri_begin_[a], own_end = body_tri_begin_[a + 1];  // its triangles in the hash
    for (uint32_t k = 0; k < A.surface_vertex_count(); ++k, ++query) {
      const uint32_t v = sv[k];
      float lo[3], hi[3];
      path_box(A, v, lo, hi);
      if (!in_neighbour(a, lo, hi)) continue;
      for (int c = 0; c < 3; ++c) {
        lo[c] -= query_widen;
        hi[c] += query_widen;
      }
      int32_t clo[3], chi[3];
      for (int c = 0; c < 3; ++c) {
        clo[c] = cell_of(lo[c], inv_cell);
        chi[c] = std::min(cell_of(hi[c], inv_cell), clo[c] + 8);  // a path longer than 8 cells is cut short
      }
      const size_t first = cand_tri_.size();
      bool near_at_rest = false;  // a self candidate of a sheet nearer than the exclusion in the rest shape
      for (int32_t ix = clo[0]; ix <= chi[0]; ++ix)
        for (int32_t iy = clo[1]; iy <= chi[1]; ++iy)
          for (int32_t iz = clo[2]; iz <= chi[2]; ++iz) {
            const uint32_t key = cell_hash(ix, iy, iz, table_size);
            const uint32_t cell_end = cell_start_[key + 1];
            for (uint32_t e = cell_start_[key]; e < cell_end; ++e) {
              const uint32_t index = entries_[e];
              if (index >= own_begin && index < own_end && !A.self_collision()) {
                // A cell's entries are in triangle order, so grouped by body: skip this body's own
                // (most of a cell, in a pile, and never candidates without self-collision).
                e = uint32_t(std::lower_bound(entries_.begin() + e, entries_.begin() + cell_end, own_end) - entries_.begin()) - 1;
                continue;
              }
              if (seen_[index] == query || !overlap(tri_box_[index], lo, hi)) continue;
              seen_[index] = query;
              const uint32_t b = tri_body_[index];
              if (b == a) {
                if (!A.self_collision()) continue;
                const uint32_t* tri = A.surface_triangles() + 3 * tri_id_[index];
                if (tri[0] == v || tri[1] == v || tri[2] == v) continue;
                float w[3];
                bool in_face;
                // (The tests below are filters: the rest shape's, the costlier, after the current ones.)
                // Only from the triangle's outer side at the frame start (a sheet has two).
                const Vec3 x = load3(xa, v), p0 = load3(xa, tri[0]), p1 = load3(xa, tri[1]), p2 = load3(xa, tri[2]);
                const Vec3 q = closest_on_triangle(x, p0, p1, p2, w, &in_face);
                const Vec3 nf = cross(p1 - p0, p2 - p0);
                const float nf_len = length(nf);
                if (nf_len == 0.0f || (!A.is_cloth() && dot(x - q, nf) < 0.0f)) continue;
                // And near enough that this frame's motion can bring it within the reach (a box test
                // alone takes most of a fine surface's neighbourhood).
                // The relative velocity bounds how fast the distance changes (the nearest point is a
                // blend of the corners): a sheet falling as a whole brings no part nearer another.
                const float* vel = A.velocities();
                const Vec3 vv = load3(vel, v);
                const float motion = dt * std::max({length(vv - load3(vel, tri[0])), length(vv - load3(vel, tri[1])),
                                                    length(vv - load3(vel, tri[2]))});
                // A sheet has no inside to find a vertex deep in: only what can come within its gap
                // (and half as much again for motion the velocity did not predict).
                const float slack = A.is_cloth() ? 0.5f * A.self_thickness() : settings.search_radius;
                const float reach_now = A.self_thickness() + slack + motion;
                if (length_sq(x - q) > reach_now * reach_now) continue;
                // Near in the rest shape: a neighbour on the surface or across a thin part, never a contact.
                const Vec3 r = load3(rest, v);
                const Vec3 q0 = closest_on_triangle(r, load3(rest, tri[0]), load3(rest, tri[1]), load3(rest, tri[2]), w, &in_face);
                if (length_sq(r - q0) < self_exclusion * self_exclusion) {
                  // A sheet keeps such a pair (a border's half triangles, an irregular mesh) with a
                  // gap it has at rest: they may not pass through each other either.
                  if (!A.is_cloth()) continue;
                  near_at_rest = true;
                }
              } else if (!filter_allows(A, *bodies[b])) {
                continue;
              }
              cand_tri_.push_back(index);
            }
          }
      if (cand_tri_.size() == first) continue;
      // (prune_far orders what it keeps by distance and index: the result does not depend on the
      // hash's cell order within a vertex's path.)
      // Each candidate's gap: the bodies' (contact_gap); for a sheet's own triangle near the vertex in
      // the rest shape, that rest distance / kClothSelfExclusion if smaller (cloth_contact.h).
      cand_gap_.resize(cand_tri_.size());
      for (size_t e = first; e < cand_tri_.size(); ++e) {
        const uint32_t b = tri_body_[cand_tri_[e]];
        cand_gap_[e] = contact_gap(A, *bodies[b], settings);
        if (near_at_rest && b == a) {
          const uint32_t* tri = A.surface_triangles() + 3 * tri_id_[cand_tri_[e]];
          float w[3];
          bool in_face;
          const Vec3 r = load3(rest, v);
          const float d = length(r - closest_on_triangle(r, load3(rest, tri[0]), load3(rest, tri[1]), load3(rest, tri[2]), w, &in_face));
          cand_gap_[e] = std::min(cand_gap_[e], d / kClothSelfExclusion);
        }
      }
      prune_far(bodies, a, v, first, dt, settings);
      if (cand_tri_.size() == first) continue;
      cand_body_.push_back(a);
      cand_vertex_.push_back(v);
      cand_start_.push_back(uint32_t(cand_tri_.size()));
    }
  }
  any_cloth_ = cloth_seen;
  if (any_cloth_) gather_edge_pairs(bodies, count, dt, settings);
}

void BodyContact::prune_far(SoftBody* const* bodies, uint32_t a, uint32_t v, size_t first, float dt,
                            const BodyContactSettings& settings) {
  // The box test above keeps every triangle whose swept box meets the vertex's: deep in another
  // body (two bodies overlapping after a hard hit), that is every triangle around it, and the
  // candidates went from ~2,500 to ~137,000 in the page's pile. What the solve can use is less:
  // the nearest candidate within the reach. From the distances at the frame start (d) and how far
  // each side may move this frame (m = |v| dt, the vertex's plus the triangle's fastest corner),
  // a triangle of another body stays only if it can come within the reach (d - m <= reach) and can
  // be as near as the nearest could then be (d - m <= min(d' + m') + slack). Own triangles
  // (self-collision) keep their rules: the solve may take one it went through, not the nearest.
  const SoftBody& A = *bodies[a];
  const Vec3 x = load3(A.positions(), v);
  const float mv = dt * length(load3(A.velocities(), v));  // m
  const size_t end = cand_tri_.size();
  prune_low_.resize(end - first);
  cand_d0_.resize(end);
  float nearest_high = INFINITY;  // m: the farthest the nearest other-body candidate can be this frame
  for (size_t e = first; e < end; ++e) {
    const uint32_t index = cand_tri_[e];
    const SoftBody& B = *bodies[tri_body_[index]];
    const uint32_t* tri = B.surface_triangles() + 3 * tri_id_[index];
    const float* xb = B.positions();
    const float* vb = B.velocities();
    float w[3];
    bool in_face;
    const Vec3 q = closest_on_triangle(x, load3(xb, tri[0]), load3(xb, tri[1]), load3(xb, tri[2]), w, &in_face);
    const float d = length(x - q);
    cand_d0_[e] = d;  // the solve's lower bound starts from it (NaN: never skipped there)
    if (tri_body_[index] == a) continue;
    const float step = B.frozen() ? 0.0f : dt;
    const float m = mv + step * std::max({length(load3(vb, tri[0])), length(load3(vb, tri[1])), length(load3(vb, tri[2]))});
    prune_low_[e - first] = d - m;
    nearest_high = std::min(nearest_high, d + m);
  }
  size_t kept = first;
  for (size_t e = first; e < end; ++e) {
    const uint32_t index = cand_tri_[e];
    if (tri_body_[index] != a) {
      const float low = prune_low_[e - first];
      const float reach = cand_gap_[e] + settings.search_radius;  // (another body's: contact_gap)
      // (A NaN distance, from a body diverging now, keeps the triangle: the solve skips it.)
      if (low > reach + kPruneSlack || low > nearest_high + kPruneSlack) continue;
    }
    cand_d0_[kept] = cand_d0_[e];
    cand_gap_[kept] = cand_gap_[e];
    cand_tri_[kept++] = index;
  }
  cand_tri_.resize(kept);
  cand_d0_.resize(kept);
  cand_gap_.resize(kept);
  // Nearest first (by the frame start's distance, ties by index; a NaN distance first, as it is
  // never skipped): the solve then finds the nearest early and skips the candidates that cannot come
  // nearer than it without measuring them, and the sweep stops at the first that cannot be reached.
  order_.clear();
  for (size_t e = first; e < kept; ++e)
    order_.push_back({cand_d0_[e] == cand_d0_[e] ? cand_d0_[e] : -1.0f, cand_gap_[e], cand_tri_[e]});
  std::sort(order_.begin(), order_.end(), [](const Ordered& p, const Ordered& q) { return p.d < q.d || (p.d == q.d && p.index < q.index); });
  for (size_t e = first; e < kept; ++e) {
    cand_d0_[e] = order_[e - first].d < 0.0f ? NAN : order_[e - first].d;
    cand_gap_[e] = order_[e - first].gap;
    cand_tri_[e] = order_[e - first].index;
  }
}

uint32_t BodyContact::solve(SoftBody* const* bodies, uint32_t count, const BodyContactSettings& settings, bool report) {
  // Each candidate vertex against its nearest candidate triangle, solved at once (Gauss-Seidel, in
  // body and vertex order).
  uint32_t solved = 0;
  if (cand_tri_.empty() && !any_cloth_) return 0;
  if (sweep_pending_) {
    sweep(bodies, count, settings);  // the substep's first solve: the passes have moved the bodies by now
    sweep_pending_ = false;
  }
  // How far each vertex has moved since the frame started, m: a candidate that was d0 away then is
  // at least d0 - (its vertex's motion + its triangle's fastest corner's) away now, and one
  // that cannot be within the reach is skipped without measuring it (most of a resting pile's:
  // their distances at the frame start spread out to the reach plus the pruning slack). Not with
  // cloth in the world: its sheet contacts move vertices this bookkeeping does not follow. Only
  // surface vertices are candidates or triangle corners; per body, the most any of them has moved.
  body_motion_.assign(count, 0.0f);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t begin = body_pos_begin_[i];
    if (body_pos_begin_[i + 1] == begin) continue;
    const float* x = bodies[i]->positions();
    const float* x0 = frame_pos_.data() + 3 * size_t(begin);
    const uint32_t* sv = bodies[i]->surface_vertices();
    float largest = 0.0f;
    for (uint32_t k = 0; k < bodies[i]->surface_vertex_count(); ++k) {
      const uint32_t j = sv[k];
      vertex_motion_[begin + j] = length(load3(x, j) - load3(x0, j));
      largest = std::max(largest, vertex_motion_[begin + j]);
    }
    body_motion_[i] = largest;
  }
  // Kept current as the contacts below move vertices.
  auto moved_since_frame = [&](uint32_t body, uint32_t v) {
    const uint32_t at = body_pos_begin_[body] + v;
    vertex_motion_[at] = length(load3(bodies[body]->positions(), v) - load3(frame_pos_.data(), at));
    body_motion_[body] = std::max(body_motion_[body], vertex_motion_[at]);
  };
  for (size_t k = 0; k + 1 < cand_start_.size(); ++k) {
    const uint32_t a = cand_body_[k], v = cand_vertex_[k];
    if (a >= count) continue;
    SoftBody& A = *bodies[a];
    if (A.frozen()) continue;  // asleep, or diverged in this frame's substeps: frozen
    // Cloth triangles first: two-sided, each one within the gap (cloth_contact.h).
    if (any_cloth_) {
      for (uint32_t e = cand_start_[k]; e < cand_start_[k + 1]; ++e) {
        SoftBody& B = *bodies[tri_body_[cand_tri_[e]]];
        if (!B.is_cloth()) continue;
        const float depth = solve_vertex_sheet(A, v, B, tri_id_[cand_tri_[e]], cand_gap_[e]);
        if (depth < 0.0f) {
          cand_seen_[e] = clock_;  // apart: unchanged until one of its vertices moves
          continue;
        }
        cand_seen_[e] = kMeasureAgain;
        touch(a, v);
        const uint32_t* tri = B.surface_triangles() + 3 * tri_id_[cand_tri_[e]];
        for (int i = 0; i < 3; ++i) touch(tri_body_[cand_tri_[e]], tri[i]);
        ++solved;
        if (!report) continue;
        A.add_contacts(1, depth);
        if (&B != &A) {
          B.add_contacts(0, depth);
          A.mark_pressed_by_body();
          B.mark_pressed_by_body();
        }
      }
    }
    float* xa = A.positions();
    const float* pa = A.previous_positions();
    const float* wa = A.inverse_masses();
    const Vec3 x = load3(xa, v);
    const float moved = vertex_motion_[body_pos_begin_[a] + v];  // m, since the frame start
    // The most any triangle this vertex may meet has moved since the frame start, m, and the widest
    // reach of its pairs (no cloth here when it is used).
    float near_moved = 0.0f;
    for (uint32_t j = pair_start_[a]; j < pair_start_[a + 1]; ++j) near_moved = std::max(near_moved, body_motion_[pairs_[j]]);
    const float widest = std::max(settings.thickness, A.self_collision() ? A.self_thickness() : 0.0f) + settings.search_radius;
    // The nearest candidate triangle now. Within one body (self-collision), unless the vertex went
    // through the plane of one of its own candidates in this substep: then the one it went through
    // furthest. A vertex that has just crossed a face near a corner is nearer the corner's other face
    // by now (a hairpin's tip beside its lower arm's end face), and pushing it out through that face
    // carries it along the body, not back out. (Between bodies the nearest is kept: choosing there
    // by the substep's start made piles of small bunnies explode, the triangle nearest then being
    // often not the one pressing on the vertex now; and a crossing rule broke resting stacks, whose
    // aligned side faces are crossed by rounding.)
    const Vec3 x0 = load3(pa, v);
    float best = INFINITY;      // m^2, squared distance of the nearest
    float best_dist = INFINITY; // m, its distance
    float best_clear = -1.0f;   // m, how far in front of or behind the nearest one's plane it is
    float best_cross = 0.0f;    // m, how far through its plane the crossed candidate went
    uint32_t best_index = ~0u, crossed_index = ~0u;
    for (uint32_t e = cand_start_[k]; e < cand_start_[k + 1]; ++e) {
      // The candidates come nearest first (at the frame start): once one cannot be within the reach,
      // or nearer than the nearest so far (own triangles aside), none of the rest can.
      if (!any_cloth_) {
        const float low_all = cand_d0_[e] - moved - near_moved;
        if (low_all > widest * 1.001f + 1e-5f || (!A.self_collision() && low_all > best_dist * 1.001f + 1e-5f)) break;
      }
      const uint32_t index = cand_tri_[e];
      const SoftBody& B = *bodies[tri_body_[index]];
      if (B.is_cloth()) continue;  // solved above
      const float r = cand_gap_[e] + settings.search_radius;  // (not a sheet: contact_gap)
      // Cannot be within the reach (with a margin for the rounding of both distances): not measured.
      const uint32_t* tri = B.surface_triangles() + 3 * tri_id_[index];
      const float* mb = vertex_motion_.data() + body_pos_begin_[tri_body_[index]];
      // Nor one of another body that cannot come nearer than the nearest so far (the candidates come
      // nearest first, so most of a resting pile's are skipped so).
      const float low = cand_d0_[e] - moved - std::max({mb[tri[0]], mb[tri[1]], mb[tri[2]]});
      if (!any_cloth_ && (low > r * 1.001f + 1e-5f || (&B != &A && low > best_dist * 1.001f + 1e-5f))) continue;
      const float* xb = B.positions();
      float w[3];
      bool in_face;
      const Vec3 p0 = load3(xb, tri[0]), p1 = load3(xb, tri[1]), p2 = load3(xb, tri[2]);
      const Vec3 q = closest_on_triangle(x, p0, p1, p2, w, &in_face);
      const float d2 = length_sq(x - q);
      if (!(d2 < r * r)) continue;  // (a NaN distance, from a body diverging now, is never taken)
      const Vec3 face = cross(p1 - p0, p2 - p0);
      const float facing = dot(x - q, face);  // its sign: which side of the plane
      // Within its own surface, a vertex behind a triangle's plane but beside it is where the surface
      // bends (at a convex edge the next face is the one that counts), not a penetration.
      if (&B == &A && !in_face && facing < 0.0f) continue;
      // Triangles sharing the nearest edge or corner tie (the same closest point, d2 equal up to
      // rounding): the tie goes to the one whose plane the vertex is most clearly in front of or
      // behind. For a face at right angles to the vertex's offset the side is rounding noise, and
      // taken as "behind" it pushes the vertex through the other body (two boxes meeting corner
      // to corner were pushed 2 cm into each other when their rounding changed).
      const float face_len = length(face);
      const float clear = face_len > 0.0f ? std::fabs(facing) / face_len : 0.0f;
      const bool tie = d2 <= best * (1.0f + 1e-4f) && d2 >= best * (1.0f - 1e-4f);
      if (tie ? clear > best_clear || (clear == best_clear && index < best_index) : d2 < best) {
        best = d2;
        best_dist = std::sqrt(d2);
        best_clear = clear;
        best_index = index;
      }
      if (facing < 0.0f && &B == &A) {
        // Behind the plane of its own triangle now: was it in front at the substep's start? By how
        // much, through it?
        const float* pb = B.previous_positions();
        const Vec3 s0 = load3(pb, tri[0]), s1 = load3(pb, tri[1]), s2 = load3(pb, tri[2]);
        const Vec3 face0 = cross(s1 - s0, s2 - s0);
        const float len0 = length(face0), len = length(face);
        if (len0 == 0.0f || len == 0.0f) continue;
        const float before = dot(x0 - s0, face0) / len0, after = dot(x - p0, face) / len;  // m
        if (before >= 0.0f && before - after > best_cross) {
          best_cross = before - after;
          crossed_index = index;
        }
      }
    }
    if (crossed_index != ~0u) best_index = crossed_index;
    // No tunnelling: a vertex whose path since the substep's start went through another body's face
    // (found once, at the substep's first solve: body_contact_sweep.cpp) is held in front of that face
    // at the point it went through, while it is not (past a thin slab the far face is nearest, in
    // front of which it sees no contact). Tangled and squeezed vertices were left out there.
    const uint32_t swept = sweep_tri_.empty() ? ~0u : sweep_tri_[k];
    bool tunnelled = false;
    if (swept != ~0u && crossed_index == ~0u) {
      const SoftBody& B = *bodies[tri_body_[swept]];
      const uint32_t* tri = B.surface_triangles() + 3 * tri_id_[swept];
      const float* xb = B.positions();
      const float* w = sweep_w_.data() + 3 * k;
      const Vec3 p0 = load3(xb, tri[0]), p1 = load3(xb, tri[1]), p2 = load3(xb, tri[2]);
      const Vec3 face = cross(p1 - p0, p2 - p0);
      const float face_len = length(face);
      const Vec3 q = p0 * w[0] + p1 * w[1] + p2 * w[2];
      if (face_len > 0.0f && dot(x - q, face) < contact_gap(A, B, settings) * face_len) {
        best_index = swept;
        tunnelled = true;
      }
    }
    if (best_index == ~0u) continue;
    const uint32_t b = tri_body_[best_index], t = tri_id_[best_index];
    SoftBody& B = *bodies[b];
    const float gap = contact_gap(A, B, settings);
    float* xb = B.positions();
    const float* pb = B.previous_positions();
    const uint32_t* tri = B.surface_triangles() + 3 * t;
    // Inverse masses of the triangle's vertices; 0 for a frozen body (it does not move).
    const float wt[3] = {B.frozen() ? 0.0f : B.inverse_masses()[tri[0]], B.frozen() ? 0.0f : B.inverse_masses()[tri[1]],
                         B.frozen() ? 0.0f : B.inverse_masses()[tri[2]]};
    const Vec3 p0 = load3(xb, tri[0]), p1 = load3(xb, tri[1]), p2 = load3(xb, tri[2]);
    float w[3];
    bool in_face;
    Vec3 q = closest_on_triangle(x, p0, p1, p2, w, &in_face);
    if (tunnelled) {
      // The point of the face its path went through, and the face's normal: back out the way it came.
      for (int i = 0; i < 3; ++i) w[i] = sweep_w_[3 * k + i];
      q = p0 * w[0] + p1 * w[1] + p2 * w[2];
      in_face = true;
    }
    const Vec3 face = cross(p1 - p0, p2 - p0);
    const float face_len = length(face);
    if (face_len == 0.0f) continue;
    Vec3 n = face * (1.0f / face_len);  // outward: surface triangles are wound counter-clockwise from outside
    const Vec3 away = x - q;
    float s = dot(away, n);  // signed distance, m: negative inside B
    if (!in_face) {
      // Beside the face (nearest an edge or a corner): the true distance along the true direction.
      const float len = length(away);
      if (len > 1e-7f) {
        const float side = s >= 0.0f ? 1.0f : -1.0f;
        n = away * (side / len);
        s = side * len;
      }
    }
    if (!(s < gap)) continue;  // apart (or NaN: the other body is diverging in this substep)
    const float C = s - gap;  // < 0: how far inside the gap, m
    const float w_v = wa[v];
    const float w_sum = w_v + w[0] * w[0] * wt[0] + w[1] * w[1] * wt[1] + w[2] * w[2] * wt[2];
    if (w_sum == 0.0f) continue;  // both sides immovable (pinned)
    const float lambda = -C / w_sum;
    store3(xa, v, x + n * (w_v * lambda));
    for (int i = 0; i < 3; ++i) store3(xb, tri[i], load3(xb, tri[i]) - n * (w[i] * wt[i] * lambda));
    // Friction: the substep's relative tangential motion of the vertex against the triangle's
    // point, removed up to mu x the normal correction (static inside the cone, kinetic outside).
    const float mu = std::sqrt(A.params().friction * B.params().friction);
    Vec3 rel = load3(xa, v) - x0;
    for (int i = 0; i < 3; ++i) rel = rel - (load3(xb, tri[i]) - load3(pb, tri[i])) * w[i];
    const Vec3 tangential = rel - n * dot(rel, n);
    const float slide = length(tangential);
    const float limit = mu * (-C);
    if (slide > 0.0f) {
      const float k_slide = slide <= limit ? 1.0f : limit / slide;
      const float mu_lambda = k_slide / w_sum;
      store3(xa, v, load3(xa, v) - tangential * (w_v * mu_lambda));
      for (int i = 0; i < 3; ++i) store3(xb, tri[i], load3(xb, tri[i]) + tangential * (w[i] * wt[i] * mu_lambda));
    }
    moved_since_frame(a, v);
    for (int i = 0; i < 3; ++i) moved_since_frame(b, tri[i]);
    if (any_cloth_) {  // (a sheet's vertex against a closed surface: the cloth rounds see it moved)
      touch(a, v);
      for (int i = 0; i < 3; ++i) touch(b, tri[i]);
    }
    ++solved;
    if (!report) continue;
    // Penetration into the other body itself (not into the gap the thickness keeps).
    const float depth = std::max(0.0f, -s);
    A.add_contacts(1, depth);
    if (&B != &A) {
      B.add_contacts(0, depth);
      A.mark_pressed_by_body();
      B.mark_pressed_by_body();
    }
  }
  if (any_cloth_) {
    solved += solve_edge_pairs(bodies, count);
    apply_bounds(bodies, count);
    // The contacts again within the bound, so they have the last word (cloth_contact.h).
    for (int r = 1; r < kClothContactRounds; ++r) {
      resolve_cloth(bodies, count);
      apply_bounds(bodies, count);
    }
  }
  return solved;
}

}  // namespace sb
