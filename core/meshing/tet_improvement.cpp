#include "meshing/tet_improvement.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <queue>

#include "math/predicates.h"
#include "meshing/tet_moves.h"
#include "meshing/tetrahedralizer.h"
#include "shapes/tet_mesh.h"

namespace sb {

namespace {

using tet_moves::optimize_vertex;
using tet_moves::quality_of;
using tet_moves::slide_surface_samples;
using tet_moves::star_quality;
using tet_moves::Work;

double volume6_of(const std::vector<double>& p, const uint32_t* t) {
  const double* a = &p[3 * size_t(t[0])];
  double u[3], v[3], w[3];
  for (int k = 0; k < 3; ++k) {
    u[k] = p[3 * size_t(t[1]) + size_t(k)] - a[k];
    v[k] = p[3 * size_t(t[2]) + size_t(k)] - a[k];
    w[k] = p[3 * size_t(t[3]) + size_t(k)] - a[k];
  }
  return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
}

constexpr double kFlatness = 0.25;           // see is_flat
constexpr double kPeelDepthPerEdge = 0.1;    // a film's exposed faces lie this close to the surface (see peel_tets)
constexpr double kWedgeDepthPerEdge = 0.5;   // and a poor tet's that is not flat, to be peeled
constexpr double kImplicitDepthPerEdge = 0.25;  // a boundary face farther from the surface is not on it (see peel_tets)
constexpr double kMinQuality = tet_moves::kMinQuality;  // the least quality the improvement aims to leave
constexpr double kMaxWedgeFraction = 0.005;  // of the mesh's volume, for wedges (see peel_tets)
constexpr double kMaxPeelFraction = 0.02;    // of the mesh's volume, for all peeling
constexpr int64_t kEvaluationsPerTet = 40;    // the improvement's work bound (see Work): measured use
constexpr int64_t kEvaluationsBase = 100000;  // is 0.01-0.5 M on the test shapes (2-60 per tet)

// Whether all four vertices lie nearly in one plane: the smallest height (3 V over the largest face)
// is under kFlatness of the shortest edge. True for slivers and caps, false for needles and wedges
// reaching across a body (which are poor too, but removing them would cut into it).
bool is_flat(const std::vector<double>& p, const uint32_t* t) {
  double largest_area2 = 0, shortest2 = HUGE_VAL;
  for (int s = 0; s < 4; ++s) {
    const double* a = &p[3 * size_t(t[(s + 1) % 4])];
    const double* b = &p[3 * size_t(t[(s + 2) % 4])];
    const double* c = &p[3 * size_t(t[(s + 3) % 4])];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
    largest_area2 = std::max(largest_area2, 0.25 * (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]));
    for (int j = s + 1; j < 4; ++j) {
      double d2 = 0;
      for (int k = 0; k < 3; ++k) d2 += (p[3 * size_t(t[j]) + size_t(k)] - p[3 * size_t(t[s]) + size_t(k)]) * (p[3 * size_t(t[j]) + size_t(k)] - p[3 * size_t(t[s]) + size_t(k)]);
      shortest2 = std::min(shortest2, d2);
    }
  }
  const double h = 0.5 * std::fabs(volume6_of(p, t)) / std::sqrt(largest_area2);  // 3 V / A
  return h < kFlatness * std::sqrt(shortest2);
}

// Whether tet t has vertices on both sides of a part sampled through its thickness (kSideA, kSideB).
bool spans_sides(const std::vector<uint8_t>& fixed, const uint32_t* t) {
  bool a = false, b = false;
  for (int k = 0; k < 4; ++k) {
    a |= fixed[t[k]] == kSideA;
    b |= fixed[t[k]] == kSideB;
  }
  return a && b;
}

// The centre of the sphere through a tet's four vertices; false for a flat tet.
bool circumcentre(const std::vector<double>& p, const uint32_t* t, double out[3]) {
  const double* a = &p[3 * size_t(t[0])];
  double u[3][3];
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) u[i][k] = p[3 * size_t(t[i + 1]) + size_t(k)] - a[k];
  // Solve 2 u_i . x = |u_i|^2 (x relative to a) by Cramer's rule.
  const double r[3] = {0.5 * (u[0][0] * u[0][0] + u[0][1] * u[0][1] + u[0][2] * u[0][2]),
                       0.5 * (u[1][0] * u[1][0] + u[1][1] * u[1][1] + u[1][2] * u[1][2]),
                       0.5 * (u[2][0] * u[2][0] + u[2][1] * u[2][1] + u[2][2] * u[2][2])};
  const double c0[3] = {u[1][1] * u[2][2] - u[1][2] * u[2][1], u[1][2] * u[2][0] - u[1][0] * u[2][2], u[1][0] * u[2][1] - u[1][1] * u[2][0]};
  const double c1[3] = {u[2][1] * u[0][2] - u[2][2] * u[0][1], u[2][2] * u[0][0] - u[2][0] * u[0][2], u[2][0] * u[0][1] - u[2][1] * u[0][0]};
  const double c2[3] = {u[0][1] * u[1][2] - u[0][2] * u[1][1], u[0][2] * u[1][0] - u[0][0] * u[1][2], u[0][0] * u[1][1] - u[0][1] * u[1][0]};
  const double det = u[0][0] * c0[0] + u[0][1] * c0[1] + u[0][2] * c0[2];
  if (!(std::fabs(det) > 0)) return false;
  for (int k = 0; k < 3; ++k) out[k] = a[k] + (r[0] * c0[k] + r[1] * c1[k] + r[2] * c2[k]) / det;
  return std::isfinite(out[0]) && std::isfinite(out[1]) && std::isfinite(out[2]);
}

// The face of tet t (4 ids) opposite slot `skip`, its ids sorted: the same key from either tet.
std::array<uint32_t, 3> face_key(const uint32_t* t, int skip) {
  std::array<uint32_t, 3> f{};
  int m = 0;
  for (int k = 0; k < 4; ++k)
    if (k != skip) f[size_t(m++)] = t[k];
  std::sort(f.begin(), f.end());
  return f;
}

// Keeps the tets (and their qualities) whose alive flag is set, in order; returns their count.
size_t compact_alive(std::vector<uint32_t>& tets, std::vector<double>& quality, const std::vector<uint8_t>& alive) {
  size_t kept = 0;
  for (size_t t = 0; t < tets.size() / 4; ++t)
    if (alive[t]) {
      std::copy(&tets[4 * t], &tets[4 * t] + 4, &tets[4 * kept]);
      quality[kept++] = quality[t];
    }
  tets.resize(4 * kept);
  quality.resize(kept);
  return kept;
}

}  // namespace

std::vector<int64_t> face_links(const std::vector<uint32_t>& tets) {
  const size_t n = tets.size() / 4;
  std::vector<int64_t> link(4 * n, -1);
  if (n == 0) return link;
  // Faces bucketed by their smallest vertex (4 bytes per face, where sorting (key, face) pairs took
  // 24 and was the peak of a large job's memory); a face's twin shares its bucket, and a bucket
  // holds a few dozen faces, sorted by their other two vertices.
  std::vector<uint32_t> start;
  const std::vector<uint32_t> bucket = faces_by_smallest_vertex(tets.data(), int64_t(n), start);
  std::vector<std::pair<uint64_t, uint32_t>> local;  // (the other two vertices, face)
  for (size_t v = 0; v + 1 < start.size(); ++v) {
    local.clear();
    for (uint32_t i = start[v]; i < start[v + 1]; ++i) {
      const auto f = face_key(&tets[4 * size_t(bucket[i] / 4)], int(bucket[i] % 4));
      local.push_back({uint64_t(f[1]) << 32 | f[2], bucket[i]});
    }
    std::sort(local.begin(), local.end());
    for (size_t i = 1; i < local.size(); ++i)
      if (local[i].first == local[i - 1].first) {
        link[local[i].second] = local[i - 1].second;
        link[local[i - 1].second] = local[i].second;
      }
  }
  return link;
}

namespace {

// What peeling may still remove, in volume: wedges, and everything together.
struct PeelBudget {
  double wedges, all;
};

// Peels exposed poor tets, smallest first. Normally only tets of four surface samples that are
// flat: a film (every face it would expose lies on the surface too, within kPeelDepthPerEdge of
// its shortest edge) or else a shallow wedge; and tets of surface samples below kMinQuality that
// are not flat (needles, caps) as wedges. As a last resort (after refinement and smoothing), any
// exposed tet below kMinQuality, as a wedge. Wedges and all peeling are bounded by the budget (a
// coarse input's own faces can make films with real volume: the two diagonals of a bent quad).
void peel_tets(const std::vector<double>& positions, std::vector<uint32_t>& tets, std::vector<double>& quality,
               const std::vector<uint8_t>& fixed, double target,
               const std::function<bool(const double*, double)>& near_surface,
               const std::function<double(const double*)>& winding, bool last_resort, PeelBudget& budget,
               ImprovementStats& stats) {
  size_t n = tets.size() / 4;
  {
    std::vector<int64_t> link = face_links(tets);
    std::vector<uint8_t> alive(n, 1);
    // Tets per vertex: a tet that is the last one of a vertex stays, so every surface sample stays
    // a corner of the mesh (a point dropped would leave the surface there uncovered).
    std::vector<int32_t> uses(positions.size() / 3, 0);
    for (uint32_t v : tets) ++uses[v];
    enum Peel { kKeep, kFilm, kWedge, kImplicit };
    // Whether a boundary face of tet t has its centroid farther than kImplicitDepthPerEdge of its
    // shortest edge from the input surface (a face between surface samples lies within its chord's
    // sag of it) where the winding number is near 1/2 (not a face that peeling exposed inside).
    auto implicit_boundary = [&](size_t t) {
      const uint32_t* v = &tets[4 * t];
      for (int s = 0; s < 4; ++s) {
        if (link[4 * t + size_t(s)] >= 0) continue;
        double centroid[3] = {0, 0, 0}, shortest2 = HUGE_VAL;
        for (int i = 0; i < 4; ++i) {
          if (i == s) continue;
          for (int c = 0; c < 3; ++c) centroid[c] += positions[3 * size_t(v[i]) + size_t(c)] / 3.0;
          for (int j = i + 1; j < 4; ++j) {
            if (j == s) continue;
            double d2 = 0;
            for (int k = 0; k < 3; ++k) {
              const double d = positions[3 * size_t(v[i]) + size_t(k)] - positions[3 * size_t(v[j]) + size_t(k)];
              d2 += d * d;
            }
            shortest2 = std::min(shortest2, d2);
          }
        }
        if (!near_surface(centroid, kImplicitDepthPerEdge * std::sqrt(shortest2)) && std::fabs(winding(centroid) - 0.5) < 0.25)
          return true;
      }
      return false;
    };
    auto classify = [&](size_t t) {
      if (!alive[t] || !(quality[t] < target)) return kKeep;
      const uint32_t* v = &tets[4 * t];
      bool exposed = false;
      for (int s = 0; s < 4; ++s) exposed |= link[4 * t + size_t(s)] < 0;
      if (!exposed) return kKeep;
      const bool flat = is_flat(positions, v);
      // A vertex's last tet stays unless it is below kMinQuality and flat, or shallow in the last
      // resort (the depth tests below): then the vertex is a sample a few mm from the others (a box
      // corner pulled 7.6 mm past its neighbour, whose needle faces meet at a few degrees), its one
      // tet a sliver or needle that nothing can mend, and the corner goes with it (in the budget).
      const bool last_of_vertex = uses[v[0]] < 2 || uses[v[1]] < 2 || uses[v[2]] < 2 || uses[v[3]] < 2;
      if (last_of_vertex && !(quality[t] < kMinQuality && (flat || last_resort) && !spans_sides(fixed, v))) return kKeep;
      // In the last resort, a poor tet with a boundary face away from the input surface lies on the
      // boundary the winding number draws across an open surface's opening (an open bowl's lid,
      // where no sample is): peeling it only moves that boundary, whose place is a guess anyway.
      if (last_resort && winding && quality[t] < kMinQuality && implicit_boundary(t)) return kImplicit;
      // Only a flat tet of surface samples is peeled freely; any other exposed tet only when it is
      // below kMinQuality (what the improvement aims to leave) and shallow (below). A tet joining the
      // two sides of a part sampled through its thickness is flat only because the part is thin:
      // peeled as a film, it would open a hole (the 700:300:1 plate at 10 cells, whose tets are all
      // of quality 0.13-0.2, lost 2 % of its volume so).
      if ((!flat || spans_sides(fixed, v)) && !(quality[t] < kMinQuality)) return kKeep;
      if (!last_resort && !(fixed[v[0]] && fixed[v[1]] && fixed[v[2]] && fixed[v[3]])) return kKeep;
      double shortest2 = HUGE_VAL;
      for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j) {
          double d2 = 0;
          for (int k = 0; k < 3; ++k) {
            const double d = positions[3 * size_t(v[i]) + size_t(k)] - positions[3 * size_t(v[j]) + size_t(k)];
            d2 += d * d;
          }
          shortest2 = std::min(shortest2, d2);
        }
      // How deep the faces it would expose lie: a film's within kPeelDepthPerEdge of its shortest
      // edge, a shallow wedge's within kWedgeDepthPerEdge (a needle reaching across the body is
      // neither, and stays).
      bool film = true;
      for (int s = 0; s < 4; ++s) {
        if (link[4 * t + size_t(s)] < 0) continue;
        double centroid[3] = {0, 0, 0};
        for (int k = 0; k < 4; ++k)
          if (k != s)
            for (int c = 0; c < 3; ++c) centroid[c] += positions[3 * size_t(v[k]) + size_t(c)] / 3.0;
        if (film && near_surface(centroid, kPeelDepthPerEdge * std::sqrt(shortest2))) continue;
        film = false;
        if (!flat && !near_surface(centroid, kWedgeDepthPerEdge * std::sqrt(shortest2))) return kKeep;
      }
      return film && flat && !last_resort ? kFilm : kWedge;
    };
    // Min-heap by volume (ties by index, so the order is deterministic).
    using Entry = std::pair<double, size_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
    for (size_t t = 0; t < n; ++t)
      if (classify(t) != kKeep) heap.push({volume6_of(positions, &tets[4 * t]) / 6.0, t});
    while (!heap.empty()) {
      const auto [volume, t] = heap.top();
      heap.pop();
      const Peel kind = classify(t);
      if (kind == kKeep) continue;
      if (kind == kWedge && budget.wedges < volume) continue;
      if (kind != kImplicit && budget.all < volume) continue;
      if (kind == kWedge) budget.wedges -= volume;
      if (kind != kImplicit) budget.all -= volume;
      alive[t] = 0;
      for (int k = 0; k < 4; ++k) --uses[tets[4 * t + size_t(k)]];
      ++stats.peeled;
      stats.peeled_volume += volume;
      for (int s = 0; s < 4; ++s) {
        const int64_t across = link[4 * t + size_t(s)];
        if (across < 0) continue;
        link[size_t(across)] = -1;  // the neighbour's face is now on the boundary
        const auto u = size_t(across / 4);
        if (classify(u) != kKeep) heap.push({volume6_of(positions, &tets[4 * u]) / 6.0, u});
      }
    }
    n = compact_alive(tets, quality, alive);
  }

}

}  // namespace

// Whether p lies inside the sphere through a, b, c, d (a positive tet), in plain floating point: the
// cavity it grows is only a proposal, checked as a re-tiling before it is used, so the exact
// predicate (slow on the degenerate inputs where it matters) is not needed here.
bool in_circumsphere(const double* a, const double* b, const double* c, const double* d, const double* p) {
  double m[4][4];
  const double* q[4] = {a, b, c, d};
  for (int i = 0; i < 4; ++i) {
    for (int k = 0; k < 3; ++k) m[i][k] = q[i][k] - p[k];
    m[i][3] = m[i][0] * m[i][0] + m[i][1] * m[i][1] + m[i][2] * m[i][2];
  }
  auto det3 = [&](int r0, int r1, int r2, int c0, int c1, int c2) {
    return m[r0][c0] * (m[r1][c1] * m[r2][c2] - m[r1][c2] * m[r2][c1]) -
           m[r0][c1] * (m[r1][c0] * m[r2][c2] - m[r1][c2] * m[r2][c0]) +
           m[r0][c2] * (m[r1][c0] * m[r2][c1] - m[r1][c1] * m[r2][c0]);
  };
  // Laplace expansion along the lifted column: negative inside for a positively oriented tet.
  const double det = -m[0][3] * det3(1, 2, 3, 0, 1, 2) + m[1][3] * det3(0, 2, 3, 0, 1, 2) -
                     m[2][3] * det3(0, 1, 3, 0, 1, 2) + m[3][3] * det3(0, 1, 2, 0, 1, 2);
  return det < 0;
}

ImprovementStats improve_tets(std::vector<double>& positions, std::vector<uint32_t>& tets,
                              std::vector<uint8_t>& fixed, double target,
                              const std::function<bool(const double*, double)>& near_surface,
                              const std::function<double(const double*)>& winding, const SurfaceSlides* slides) {
  ImprovementStats stats;
  size_t n = tets.size() / 4;
  const int64_t work_given = kEvaluationsPerTet * int64_t(n) + kEvaluationsBase;
  Work work{work_given};
  std::vector<double> quality(n);
  for (size_t t = 0; t < n; ++t) quality[t] = quality_of(positions, &tets[4 * t]);

  // 1. Flip (below), then peel exposed slivers of surface samples (see peel_tets): a flip keeps the
  // volume, a peel loses the tet's. On a curved surface the Delaunay step makes flat tets of four
  // samples whose outer faces are the surface's own (a convex bent quad: real volume, not a film
  // outside it); peeled first, they cost the torus knot (a tube 1/13 of its size) 0.85 % of its
  // volume (1,045 tets), of which flipping first keeps a quarter (498 peeled, 0.62 %), and the
  // torus at 10 cells 1.6 -> 0.9 %.
  double volume = 0;
  for (size_t t = 0; t < n; ++t) volume += volume6_of(positions, &tets[4 * t]) / 6.0;
  PeelBudget budget{kMaxWedgeFraction * volume, kMaxPeelFraction * volume};

  // 2. Flip and refine: a poor tet (a sliver inside, or one with free vertices) is first flipped
  // away with its neighbours (2-3, 3-2); else (once peeling is done) it gets a new free vertex at its
  // circumcentre (or the fallbacks below), inserted Bowyer-Watson style into the tets whose
  // circumspheres hold it. A change is kept only when every new tet is positive and the worst of
  // them (after placing the new vertex best) beats the worst tet it replaces.
  auto flip_and_refine = [&](bool refine) {
    // Before peeling, a flip must leave nothing below kMinQuality: a flat sliver peeling would
    // remove is otherwise traded for a poor tet that is not flat, which nothing removes later
    // (measured: the 1000:1000:1 plate at 20 cells went from min quality 0.096 to 0.075).
    const double least_new = refine ? -HUGE_VAL : kMinQuality;
    std::vector<int64_t> link = face_links(tets);
    std::vector<uint8_t> alive(n, 1), in_cavity(n, 0);
    const size_t insert_budget = size_t(kMaxGrowth * double(positions.size() / 3)) + 1;
    std::vector<size_t> cavity;
    std::vector<std::pair<size_t, int>> boundary;  // cavity tet, slot facing out
    std::vector<std::pair<std::array<uint32_t, 2>, int64_t>> open_faces;
    // Replaces the tets `old_tets` by `fresh` (4 ids each) when that is a valid re-tiling that
    // raises the worst quality: every new tet positive, the new tets' faces pairing up among
    // themselves or with the old tets' outer faces one for one, and the volume unchanged.
    std::vector<std::pair<std::array<uint32_t, 3>, int64_t>> face_keys;
    auto replace = [&](const std::vector<size_t>& old_tets, std::vector<uint32_t> fresh) {
      work.left -= int64_t(old_tets.size() + fresh.size() / 4);
      double worst_old = HUGE_VAL, worst_new = HUGE_VAL, volume_old = 0, volume_new = 0;
      for (size_t c : old_tets) {
        worst_old = std::min(worst_old, quality[c]);
        volume_old += volume6_of(positions, &tets[4 * c]);
      }
      for (size_t i = 0; i < fresh.size(); i += 4) {
        uint32_t* v = &fresh[i];
        const int o = orient3d(&positions[3 * size_t(v[0])], &positions[3 * size_t(v[1])], &positions[3 * size_t(v[2])],
                               &positions[3 * size_t(v[3])]);
        if (o == 0) return false;
        if (o < 0) std::swap(v[0], v[1]);
        worst_new = std::min(worst_new, quality_of(positions, v));
        volume_new += volume6_of(positions, v);
      }
      if (!(worst_new > worst_old) || !(worst_new >= least_new) ||
          !(std::fabs(volume_new - volume_old) <= 1e-9 * std::fabs(volume_old)))
        return false;
      // Tags: >= 0 an outside link (4 t + s) or -1 - (4 c + s) for an old tet's face with nothing
      // beyond; new faces are tagged by their index among the new faces, offset past both.
      face_keys.clear();
      for (size_t c : old_tets)
        for (int s = 0; s < 4; ++s) {
          const int64_t across = link[4 * c + size_t(s)];
          if (across >= 0 && std::find(old_tets.begin(), old_tets.end(), size_t(across / 4)) != old_tets.end()) continue;
          face_keys.push_back({face_key(&tets[4 * c], s), across >= 0 ? across : -1 - int64_t(4 * c + size_t(s))});
        }
      const int64_t new_base = int64_t(1) << 60;
      for (size_t i = 0; i < fresh.size() / 4; ++i)
        for (int s = 0; s < 4; ++s) face_keys.push_back({face_key(&fresh[4 * i], s), new_base + int64_t(4 * i) + s});
      std::sort(face_keys.begin(), face_keys.end());
      for (size_t i = 0; i < face_keys.size(); i += 2)
        if (i + 1 >= face_keys.size() || face_keys[i].first != face_keys[i + 1].first || face_keys[i + 1].second < new_base ||
            (i + 2 < face_keys.size() && face_keys[i + 2].first == face_keys[i].first))
          return false;
      // Commit.
      const size_t first = tets.size() / 4;
      tets.insert(tets.end(), fresh.begin(), fresh.end());
      link.resize(tets.size(), -1);
      for (size_t i = 0; i < fresh.size() / 4; ++i) {
        quality.push_back(quality_of(positions, &tets[4 * (first + i)]));
        alive.push_back(1);
        in_cavity.push_back(0);
      }
      for (size_t i = 0; i < face_keys.size(); i += 2) {
        const int64_t b = int64_t(4 * first) + (face_keys[i + 1].second - new_base);
        const int64_t a = face_keys[i].second;
        if (a >= new_base) {
          const int64_t other = int64_t(4 * first) + (a - new_base);
          link[size_t(b)] = other;
          link[size_t(other)] = b;
        } else if (a >= 0) {
          link[size_t(b)] = a;
          link[size_t(a)] = b;
        } else {
          link[size_t(b)] = -1;
        }
      }
      for (size_t c : old_tets) alive[c] = 0;
      n = tets.size() / 4;
      ++stats.flips;
      return true;
    };
    // Flips that remove a sliver without new vertices: 2-3 (it and a face neighbour become three
    // tets around the edge joining their far vertices) and 3-2 (three tets around one of its edges
    // become two, sharing the triangle of the ring).
    auto try_flips = [&](size_t t0) {
      for (int s = 0; s < 4; ++s) {
        const int64_t across = link[4 * t0 + size_t(s)];
        if (across < 0) continue;
        const auto u = size_t(across / 4);
        const uint32_t a = tets[4 * t0 + size_t(s)], b = tets[4 * u + size_t(across % 4)];
        uint32_t f[3];
        int m = 0;
        for (int k = 0; k < 4; ++k)
          if (k != s) f[m++] = tets[4 * t0 + size_t(k)];
        if (replace({t0, u}, {a, b, f[0], f[1], a, b, f[1], f[2], a, b, f[2], f[0]})) return true;
      }
      for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j) {
          // The ring around edge (i, j) is t0 and its neighbours across the faces opposite the
          // other two slots; it has three tets when those two neighbours are neighbours.
          int others[2], m = 0;
          for (int k = 0; k < 4; ++k)
            if (k != i && k != j) others[m++] = k;
          const int64_t l1 = link[4 * t0 + size_t(others[0])], l2 = link[4 * t0 + size_t(others[1])];
          if (l1 < 0 || l2 < 0) continue;
          const auto n1 = size_t(l1 / 4), n2 = size_t(l2 / 4);
          bool adjacent = false;
          for (int k = 0; k < 4; ++k) adjacent |= link[4 * n1 + size_t(k)] >= 0 && size_t(link[4 * n1 + size_t(k)] / 4) == n2;
          if (!adjacent) continue;
          const uint32_t vi = tets[4 * t0 + size_t(i)], vj = tets[4 * t0 + size_t(j)];
          const uint32_t k0 = tets[4 * t0 + size_t(others[0])], k1 = tets[4 * t0 + size_t(others[1])];
          const uint32_t k2 = tets[4 * n1 + size_t(l1 % 4)];  // n1's vertex off t0's face
          if (k2 != tets[4 * n2 + size_t(l2 % 4)]) continue;   // not a ring of three
          if (replace({t0, n1, n2}, {k0, k1, k2, vi, k0, k1, k2, vj})) return true;
        }
      return false;
    };
    for (int round = 0; round < 2; ++round) {
      std::vector<size_t> poor;
      for (size_t t = 0; t < n; ++t)
        if (alive[t] && quality[t] < target) poor.push_back(t);
      for (size_t t0 : poor) {
        if (work.left <= 0) break;
        if (!alive[t0] || !(quality[t0] < target)) continue;
        if (try_flips(t0)) continue;
        if (!refine) continue;
        if (stats.inserted >= int64_t(insert_budget)) continue;
        double centre[3], centroid[3];
        const bool has_centre = circumcentre(positions, &tets[4 * t0], centre);
        for (int k = 0; k < 3; ++k)
          centroid[k] = 0.25 * (positions[3 * size_t(tets[4 * t0]) + size_t(k)] + positions[3 * size_t(tets[4 * t0 + 1]) + size_t(k)] +
                                positions[3 * size_t(tets[4 * t0 + 2]) + size_t(k)] + positions[3 * size_t(tets[4 * t0 + 3]) + size_t(k)]);
        // Where to insert: the circumcentre, else the centroid, else halfway between (for a
        // circumcentre outside the mesh, the cavity truncated at its boundary is not star-shaped).
        double halfway[3];
        for (int k = 0; k < 3; ++k) halfway[k] = 0.5 * (centre[k] + centroid[k]);
        // Last, the centroid into a small cavity: the tet and its face neighbours (where the mesh
        // is no longer Delaunay, or a circumsphere reaches the boundary, the grown cavity can fail
        // to be star-shaped, while this one rarely does once the new vertex is optimized).
        // Then (attempt 4) the centre of the union of its vertices' stars, into that union: a
        // larger ball around the sliver, which is star-shaped from near its middle far more often.
        for (int attempt = has_centre ? 0 : 1; attempt < 5; ++attempt) {
          if (attempt == 2 && !has_centre) continue;
          const double* p = attempt == 0 ? centre : attempt == 2 ? halfway : centroid;
          cavity.assign(1, t0);
          in_cavity[t0] = 1;
          double blob[3] = {0, 0, 0};  // attempt 3: the mean of the small cavity's tets' centroids
          if (attempt == 3) {
            for (int s = 0; s < 4; ++s) {
              const int64_t across = link[4 * t0 + size_t(s)];
              if (across >= 0 && !in_cavity[size_t(across / 4)]) {
                in_cavity[size_t(across / 4)] = 1;
                cavity.push_back(size_t(across / 4));
              }
            }
            for (size_t c : cavity)
              for (int k = 0; k < 4; ++k)
                for (int d = 0; d < 3; ++d) blob[d] += positions[3 * size_t(tets[4 * c + size_t(k)]) + size_t(d)] / double(4 * cavity.size());
            p = blob;
          }
          if (attempt == 4) {
            const uint32_t* w = &tets[4 * t0];
            const uint32_t corners[4] = {w[0], w[1], w[2], w[3]};
            auto touches = [&](size_t u) {
              for (int k = 0; k < 4; ++k)
                for (uint32_t c : corners)
                  if (tets[4 * u + size_t(k)] == c) return true;
              return false;
            };
            for (size_t i = 0; i < cavity.size() && cavity.size() < 256; ++i)
              for (int s = 0; s < 4; ++s) {
                const int64_t across = link[4 * cavity[i] + size_t(s)];
                if (across < 0 || in_cavity[size_t(across / 4)] || !touches(size_t(across / 4))) continue;
                in_cavity[size_t(across / 4)] = 1;
                cavity.push_back(size_t(across / 4));
              }
            for (size_t c : cavity)
              for (int k = 0; k < 4; ++k)
                for (int d = 0; d < 3; ++d) blob[d] += positions[3 * size_t(tets[4 * c + size_t(k)]) + size_t(d)] / double(4 * cavity.size());
            p = blob;
          }
          // Else grow the cavity from t0 over tets whose circumsphere holds p.
          for (size_t i = 0; attempt < 3 && i < cavity.size() && cavity.size() < 64; ++i)
            for (int s = 0; s < 4; ++s) {
              const int64_t across = link[4 * cavity[i] + size_t(s)];
              if (across < 0) continue;
              const auto u = size_t(across / 4);
              if (in_cavity[u]) continue;
              const uint32_t* v = &tets[4 * u];
              work.left -= 1;
              if (in_circumsphere(&positions[3 * size_t(v[0])], &positions[3 * size_t(v[1])], &positions[3 * size_t(v[2])],
                                  &positions[3 * size_t(v[3])], p)) {
                in_cavity[u] = 1;
                cavity.push_back(u);
              }
            }
          work.left -= int64_t(cavity.size());
          // The new tets: each boundary face joined to p; all positive and better than the worst replaced.
          double worst_old = HUGE_VAL, worst_new = HUGE_VAL;
          boundary.clear();
          for (size_t c : cavity) {
            worst_old = std::min(worst_old, quality[c]);
            for (int s = 0; s < 4; ++s) {
              const int64_t across = link[4 * c + size_t(s)];
              if (across >= 0 && in_cavity[size_t(across / 4)]) continue;
              boundary.push_back({c, s});
            }
          }
          const auto pid = uint32_t(positions.size() / 3);
          positions.insert(positions.end(), p, p + 3);
          bool valid = true;
          const size_t first_new = tets.size() / 4;
          for (const auto& [c, s] : boundary) {
            uint32_t v[4];
            std::copy(&tets[4 * c], &tets[4 * c] + 4, v);
            v[s] = pid;
            const double* x[4] = {&positions[3 * size_t(v[0])], &positions[3 * size_t(v[1])], &positions[3 * size_t(v[2])],
                                  &positions[3 * size_t(v[3])]};
            if (orient3d(x[0], x[1], x[2], x[3]) <= 0) {
              valid = false;
              break;
            }
            tets.insert(tets.end(), v, v + 4);
          }
          if (valid) {
            // The new vertex is free: place it where its tets are best before judging the insertion.
            std::vector<uint32_t> new_star(boundary.size());
            for (size_t i = 0; i < new_star.size(); ++i) new_star[i] = uint32_t(first_new + i);
            worst_new = optimize_vertex(positions, tets, pid, new_star.data(), new_star.size(), work);
          }
          tets.resize(4 * first_new);
          if (!valid || !(worst_new > worst_old)) {
            positions.resize(positions.size() - 3);
            for (size_t c : cavity) in_cavity[c] = 0;
            continue;
          }
          // Commit: new tets appended, linked to the outside and to each other.
          fixed.push_back(0);
          open_faces.clear();
          for (const auto& [c, s] : boundary) {
            const size_t t = tets.size() / 4;
            uint32_t v[4];
            std::copy(&tets[4 * c], &tets[4 * c] + 4, v);
            v[s] = pid;
            tets.insert(tets.end(), v, v + 4);
            quality.push_back(quality_of(positions, v));
            alive.push_back(1);
            in_cavity.push_back(0);
            const int64_t outside = link[4 * c + size_t(s)];
            link.insert(link.end(), {-1, -1, -1, -1});
            link[4 * t + size_t(s)] = outside;
            if (outside >= 0) link[size_t(outside)] = int64_t(4 * t) + s;
            for (int k = 0; k < 4; ++k) {
              if (k == s) continue;
              std::array<uint32_t, 2> e{};
              int m = 0;
              for (int j = 0; j < 4; ++j)
                if (j != k && j != s) e[size_t(m++)] = v[j];
              if (e[0] > e[1]) std::swap(e[0], e[1]);
              open_faces.push_back({e, int64_t(4 * t) + k});
            }
          }
          std::sort(open_faces.begin(), open_faces.end());
          for (size_t i = 1; i < open_faces.size(); ++i)
            if (open_faces[i].first == open_faces[i - 1].first) {
              link[size_t(open_faces[i].second)] = open_faces[i - 1].second;
              link[size_t(open_faces[i - 1].second)] = open_faces[i].second;
            }
          for (size_t c : cavity) {
            alive[c] = 0;
            in_cavity[c] = 0;
          }
          n = tets.size() / 4;
          ++stats.inserted;
          break;
        }
      }
    }
    n = compact_alive(tets, quality, alive);
  };
  flip_and_refine(false);
  peel_tets(positions, tets, quality, fixed, target, near_surface, winding, false, budget, stats);
  n = tets.size() / 4;
  flip_and_refine(true);

  // 3. Smooth the free vertices of poor tets, except those on the boundary. Star of each vertex in
  // CSR form.
  std::vector<uint8_t> pinned(fixed);
  {
    const std::vector<int64_t> link = face_links(tets);
    for (size_t i = 0; i < link.size(); ++i)
      if (link[i] < 0)
        for (int k = 0; k < 4; ++k)
          if (k != int(i % 4)) pinned[tets[4 * (i / 4) + size_t(k)]] = 1;
  }
  const size_t vertex_count = positions.size() / 3;
  std::vector<uint32_t> star_start(vertex_count + 1, 0), star;
  for (uint32_t v : tets) ++star_start[v + 1];
  for (size_t v = 0; v < vertex_count; ++v) star_start[v + 1] += star_start[v];
  star.resize(tets.size());
  {
    std::vector<uint32_t> fill(star_start.begin(), star_start.end() - 1);
    for (size_t i = 0; i < tets.size(); ++i) star[fill[tets[i]]++] = uint32_t(i / 4);
  }
  for (int pass = 0; pass < 4; ++pass) {
    int64_t moved = 0;
    for (uint32_t v = 0; v < vertex_count; ++v) {
      if (pinned[v] || star_start[v] == star_start[v + 1]) continue;
      if (work.left <= 0) break;
      const double before = star_quality(positions, tets, &star[star_start[v]], star_start[v + 1] - star_start[v], work);
      if (!(before < target)) continue;
      if (optimize_vertex(positions, tets, v, &star[star_start[v]], star_start[v + 1] - star_start[v], work) > before) ++moved;
    }
    stats.vertices_moved += moved;
    if (moved == 0) break;
  }
  // Surface samples of tets still below kMinQuality slide along the surface (SurfaceSlide): at a
  // corner pulled a few mm from its neighbour, the corners' short edge and two samples 5-10 cm along
  // the edges from them made a needle of four surface samples that no inner point reaches and
  // peeling may not take, and two edges of a sliver face a few mm apart made slivers between their
  // samples (0.044-0.096 in 12 of 288 random pulls at 10 and 20 cells); the samples moved along
  // their edges and faces mend them, and each stays on the surface, so the boundary does too.
  std::vector<double> unslid;  // the positions before, when anything slid
  if (slides) slide_surface_samples(positions, tets, fixed, pinned, star_start, star, target, *slides, unslid, work, stats);
  quality.resize(n);
  if (!unslid.empty()) {
    // Mending a poor tet partly can leave a poor tet that the last resort cannot peel where it would
    // have peeled one (an exposed poor tet mended above a poor one it would have exposed): the
    // sliding is kept only if the last resort then leaves a better worst tet (or as good, fewer
    // below kMinQuality).
    auto after_last_resort = [&](const std::vector<double>& at) {
      std::vector<uint32_t> trial(tets);
      std::vector<double> trial_quality(n);
      for (size_t t = 0; t < n; ++t) trial_quality[t] = quality_of(at, &trial[4 * t]);
      PeelBudget trial_budget = budget;
      ImprovementStats trial_stats;
      peel_tets(at, trial, trial_quality, fixed, target, near_surface, winding, true, trial_budget, trial_stats);
      double worst = HUGE_VAL;
      int64_t below = 0;
      for (double q : trial_quality) {
        worst = std::min(worst, q);
        below += q < kMinQuality;
      }
      return std::make_pair(worst, -below);
    };
    if (!(after_last_resort(positions) > after_last_resort(unslid))) {
      positions.swap(unslid);
      stats.slid = 0;
    }
  }
  // 4. Last resort: exposed tets still below kMinQuality, within what is left of the budget.
  for (size_t t = 0; t < n; ++t) quality[t] = quality_of(positions, &tets[4 * t]);
  peel_tets(positions, tets, quality, fixed, target, near_surface, winding, true, budget, stats);
  n = tets.size() / 4;

  stats.evaluations = work_given - work.left;
  return stats;
}

}  // namespace sb
