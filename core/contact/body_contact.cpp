// Body-against-body contact: broad phase over body bounds, a spatial hash of surface triangles,
// vertex-triangle constraints with friction (see body_contact.h).
#include "contact/body_contact.h"

#include <algorithm>
#include <cmath>

#include "math/vec3.h"
#include "solver/soft_body.h"

namespace sb {

namespace {

// Closest point to p on triangle abc with its barycentric weights (wa, wb, wc) and whether it lies
// inside the face (not on an edge or a vertex): the Voronoi-region case analysis (Ericson,
// "Real-Time Collision Detection", sec. 5.1.5).
Vec3 closest_on_triangle(Vec3 p, Vec3 a, Vec3 b, Vec3 c, float w[3], bool* in_face) {
  *in_face = false;
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0.0f && d2 <= 0.0f) { w[0] = 1; w[1] = 0; w[2] = 0; return a; }
  const Vec3 bp = p - b;
  const float d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0.0f && d4 <= d3) { w[0] = 0; w[1] = 1; w[2] = 0; return b; }
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
    const float t = d1 / (d1 - d3);
    w[0] = 1 - t; w[1] = t; w[2] = 0;
    return a + ab * t;
  }
  const Vec3 cp = p - c;
  const float d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0.0f && d5 <= d6) { w[0] = 0; w[1] = 0; w[2] = 1; return c; }
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
    const float t = d2 / (d2 - d6);
    w[0] = 1 - t; w[1] = 0; w[2] = t;
    return a + ac * t;
  }
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
    const float t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    w[0] = 0; w[1] = 1 - t; w[2] = t;
    return b + (c - b) * t;
  }
  const float denom = 1.0f / (va + vb + vc);
  w[1] = vb * denom;
  w[2] = vc * denom;
  w[0] = 1.0f - w[1] - w[2];
  *in_face = true;
  return a + ab * w[1] + ac * w[2];
}

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

}  // namespace

uint32_t BodyContact::solve(SoftBody* const* bodies, uint32_t count, const BodyContactSettings& settings) {
  const float reach = settings.thickness + settings.search_radius;  // m: triangles this close are found
  bounds_.resize(count);
  auto takes_part = [&](uint32_t i) {
    const SoftBody* b = bodies[i];
    // A body frozen after diverging (at its last finite shape) still takes part, as an immovable
    // obstacle: what rested on it keeps resting there.
    return b && b->position_based() && b->collision_mask() != 0 && b->surface_triangle_count() > 0;
  };
  // Bounds of each body's surface, widened by the reach.
  for (uint32_t i = 0; i < count; ++i) {
    Bounds& bb = bounds_[i];
    bb.lo[0] = bb.lo[1] = bb.lo[2] = INFINITY;
    bb.hi[0] = bb.hi[1] = bb.hi[2] = -INFINITY;
    if (!takes_part(i)) continue;
    const float* x = bodies[i]->positions();
    const uint32_t* sv = bodies[i]->surface_vertices();
    for (uint32_t k = 0; k < bodies[i]->surface_vertex_count(); ++k)
      for (int c = 0; c < 3; ++c) {
        bb.lo[c] = std::min(bb.lo[c], x[3 * sv[k] + c]);
        bb.hi[c] = std::max(bb.hi[c], x[3 * sv[k] + c]);
      }
    for (int c = 0; c < 3; ++c) {
      bb.lo[c] -= reach;
      bb.hi[c] += reach;
    }
  }
  auto overlap = [&](uint32_t i, uint32_t j) {
    for (int c = 0; c < 3; ++c)
      if (bounds_[i].hi[c] < bounds_[j].lo[c] || bounds_[j].hi[c] < bounds_[i].lo[c]) return false;
    return true;
  };
  // Broad phase: the pairs of bodies whose bounds meet (and whose filters allow contact), as a
  // neighbour list per body. Most substeps of a scene where bodies are apart end here.
  near_.assign(count, 0);
  std::vector<uint8_t>& near = near_;
  pair_start_.assign(count + 1, 0);
  pairs_.clear();
  for (uint32_t i = 0; i < count; ++i) {
    pair_start_[i] = uint32_t(pairs_.size());
    if (!takes_part(i)) continue;
    for (uint32_t j = 0; j < count; ++j) {
      if (j == i || !takes_part(j) || !overlap(i, j) || !filter_allows(*bodies[i], *bodies[j])) continue;
      pairs_.push_back(j);
      near[i] = 1;
    }
  }
  pair_start_[count] = uint32_t(pairs_.size());
  if (pairs_.empty()) return 0;
  // Is point x inside the bounds of a neighbour of body i? Only such vertices and triangles matter.
  auto in_neighbour = [&](uint32_t i, const float lo[3], const float hi[3]) {
    for (uint32_t k = pair_start_[i]; k < pair_start_[i + 1]; ++k) {
      const Bounds& bb = bounds_[pairs_[k]];
      if (hi[0] >= bb.lo[0] && lo[0] <= bb.hi[0] && hi[1] >= bb.lo[1] && lo[1] <= bb.hi[1] && hi[2] >= bb.lo[2] &&
          lo[2] <= bb.hi[2])
        return true;
    }
    return false;
  };

  double extent_sum = 0.0;
  float extent_max = 0.0f;
  uint32_t triangles = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (!near[i]) continue;
    const float* x = bodies[i]->positions();
    const uint32_t* tri = bodies[i]->surface_triangles();
    for (uint32_t t = 0; t < bodies[i]->surface_triangle_count(); ++t) {
      float e = 0.0f;
      for (int c = 0; c < 3; ++c) {
        const float a = x[3 * tri[3 * t] + c], b = x[3 * tri[3 * t + 1] + c], d = x[3 * tri[3 * t + 2] + c];
        e = std::max(e, std::max({a, b, d}) - std::min({a, b, d}));
      }
      extent_sum += e;
      extent_max = std::max(extent_max, e);
      ++triangles;
    }
  }
  // Cells the size of a typical triangle (or the reach, if larger). Measured on a pile: cells as large
  // as a triangle's widened box halve the hashing but cost more in queries (more triangles per cell).
  float cell = std::max(reach, float(extent_sum / std::max(1u, triangles)));
  cell = std::max(cell, extent_max / 8.0f);  // a stretched triangle spans at most ~10 cells per axis
  const float inv_cell = 1.0f / cell;
  uint32_t table_size = 1024;
  while (table_size < 2 * triangles) table_size *= 2;

  // Spatial hash of every surface triangle of the bodies near another (each in every cell its
  // widened box touches), by counting sort into dense arrays.
  entry_cell_.clear();
  entry_item_.clear();
  tri_body_.clear();
  tri_id_.clear();
  tri_box_.clear();
  for (uint32_t i = 0; i < count; ++i) {
    if (!near[i]) continue;
    const float* x = bodies[i]->positions();
    const uint32_t* tri = bodies[i]->surface_triangles();
    for (uint32_t t = 0; t < bodies[i]->surface_triangle_count(); ++t) {
      float flo[3], fhi[3];
      for (int c = 0; c < 3; ++c) {
        const float a = x[3 * tri[3 * t] + c], b = x[3 * tri[3 * t + 1] + c], d = x[3 * tri[3 * t + 2] + c];
        flo[c] = std::min({a, b, d});
        fhi[c] = std::max({a, b, d});
      }
      if (!in_neighbour(i, flo, fhi)) continue;  // no other body's vertex can come near it
      int32_t lo[3], hi[3];
      for (int c = 0; c < 3; ++c) {
        lo[c] = cell_of(flo[c] - reach, inv_cell);
        hi[c] = std::min(cell_of(fhi[c] + reach, inv_cell), lo[c] + 16);  // bounded work, whatever the input
      }
      // Its widened box, kept for a cheap test before the exact closest point (positions move by
      // millimetres during the narrow phase; the reach covers that).
      const uint32_t index = uint32_t(tri_body_.size());
      tri_body_.push_back(i);
      tri_id_.push_back(t);
      tri_box_.push_back({{flo[0] - reach, flo[1] - reach, flo[2] - reach}, {fhi[0] + reach, fhi[1] + reach, fhi[2] + reach}});
      for (int32_t ix = lo[0]; ix <= hi[0]; ++ix)
        for (int32_t iy = lo[1]; iy <= hi[1]; ++iy)
          for (int32_t iz = lo[2]; iz <= hi[2]; ++iz) {
            entry_cell_.push_back(cell_hash(ix, iy, iz, table_size));
            entry_item_.push_back(index);
          }
    }
  }
  cell_start_.assign(table_size + 1, 0);
  for (uint32_t key : entry_cell_) ++cell_start_[key + 1];
  for (uint32_t k = 0; k < table_size; ++k) cell_start_[k + 1] += cell_start_[k];
  entries_.resize(entry_item_.size());
  fill_.assign(cell_start_.begin(), cell_start_.end() - 1);
  for (size_t e = 0; e < entry_item_.size(); ++e) entries_[fill_[entry_cell_[e]]++] = entry_item_[e];

  // Narrow phase: each surface vertex against its nearest triangle of another body, solved at once
  // (Gauss-Seidel, in body and vertex order).
  uint32_t solved = 0;
  for (uint32_t a = 0; a < count; ++a) {
    if (!near[a] || bodies[a]->diverged()) continue;  // a frozen body's vertices do not move
    SoftBody& A = *bodies[a];
    float* xa = A.positions();
    const float* pa = A.previous_positions();
    const float* wa = A.inverse_masses();
    const uint32_t* sv = A.surface_vertices();
    uint32_t a_contacts = 0;
    float a_depth = 0.0f;
    for (uint32_t k = 0; k < A.surface_vertex_count(); ++k) {
      const uint32_t v = sv[k];
      const Vec3 x = load3(xa, v);
      const float xp[3] = {x.x, x.y, x.z};
      if (!in_neighbour(a, xp, xp)) continue;
      const uint32_t key = cell_hash(cell_of(x.x, inv_cell), cell_of(x.y, inv_cell), cell_of(x.z, inv_cell), table_size);
      float best = reach * reach;
      uint32_t best_index = ~0u;
      for (uint32_t e = cell_start_[key]; e < cell_start_[key + 1]; ++e) {
        const uint32_t index = entries_[e];
        const TriBox& box = tri_box_[index];
        if (x.x < box.lo[0] || x.x > box.hi[0] || x.y < box.lo[1] || x.y > box.hi[1] || x.z < box.lo[2] || x.z > box.hi[2])
          continue;
        const uint32_t b = tri_body_[index];
        if (b == a || !filter_allows(A, *bodies[b])) continue;
        const uint32_t* tri = bodies[b]->surface_triangles() + 3 * tri_id_[index];
        const float* xb = bodies[b]->positions();
        float w[3];
        bool in_face;
        const Vec3 q = closest_on_triangle(x, load3(xb, tri[0]), load3(xb, tri[1]), load3(xb, tri[2]), w, &in_face);
        const float d2 = length_sq(x - q);
        if (d2 < best) {
          best = d2;
          best_index = index;
        }
      }
      if (best_index == ~0u) continue;
      const uint32_t b = tri_body_[best_index], t = tri_id_[best_index];
      SoftBody& B = *bodies[b];
      float* xb = B.positions();
      const float* pb = B.previous_positions();
      const uint32_t* tri = B.surface_triangles() + 3 * t;
      // Inverse masses of the triangle's vertices; 0 for a frozen body (it does not move).
      const float wt[3] = {B.diverged() ? 0.0f : B.inverse_masses()[tri[0]], B.diverged() ? 0.0f : B.inverse_masses()[tri[1]],
                           B.diverged() ? 0.0f : B.inverse_masses()[tri[2]]};
      const Vec3 p0 = load3(xb, tri[0]), p1 = load3(xb, tri[1]), p2 = load3(xb, tri[2]);
      float w[3];
      bool in_face;
      const Vec3 q = closest_on_triangle(x, p0, p1, p2, w, &in_face);
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
      if (s >= settings.thickness) continue;
      const float C = s - settings.thickness;  // < 0: how far inside the gap, m
      const float w_v = wa[v];
      const float w_sum = w_v + w[0] * w[0] * wt[0] + w[1] * w[1] * wt[1] + w[2] * w[2] * wt[2];
      if (w_sum == 0.0f) continue;  // both sides immovable (pinned)
      const float lambda = -C / w_sum;
      store3(xa, v, x + n * (w_v * lambda));
      for (int i = 0; i < 3; ++i) store3(xb, tri[i], load3(xb, tri[i]) - n * (w[i] * wt[i] * lambda));
      // Friction: the substep's relative tangential motion of the vertex against the triangle's
      // point, removed up to mu x the normal correction (static inside the cone, kinetic outside).
      const float mu = std::sqrt(A.params().friction * B.params().friction);
      Vec3 rel = load3(xa, v) - load3(pa, v);
      for (int i = 0; i < 3; ++i) rel = rel - (load3(xb, tri[i]) - load3(pb, tri[i])) * w[i];
      const Vec3 tangential = rel - n * dot(rel, n);
      const float slide = length(tangential);
      const float limit = mu * (-C);
      if (slide > 0.0f) {
        const float k = slide <= limit ? 1.0f : limit / slide;
        const float mu_lambda = k / w_sum;
        store3(xa, v, load3(xa, v) - tangential * (w_v * mu_lambda));
        for (int i = 0; i < 3; ++i)
          store3(xb, tri[i], load3(xb, tri[i]) + tangential * (w[i] * wt[i] * mu_lambda));
      }
      // Penetration into the other body itself (not into the gap the thickness keeps).
      const float depth = std::max(0.0f, -s);
      ++a_contacts;
      a_depth = std::max(a_depth, depth);
      B.add_contacts(0, depth);
      ++solved;
    }
    A.add_contacts(a_contacts, a_depth);
  }
  return solved;
}

}  // namespace sb
