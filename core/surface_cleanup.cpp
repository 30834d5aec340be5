#include "surface_cleanup.h"

#include "point_grid.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <tuple>

namespace sb {

namespace {

using Key3 = std::array<uint32_t, 3>;

// Cross product of (b - a) and (c - a) in double.
void face_normal(const double* p, const uint32_t* f, double n[3]) {
  const double* a = p + 3 * size_t(f[0]);
  const double* b = p + 3 * size_t(f[1]);
  const double* c = p + 3 * size_t(f[2]);
  const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  n[0] = u[1] * v[2] - u[2] * v[1];
  n[1] = u[2] * v[0] - u[0] * v[2];
  n[2] = u[0] * v[1] - u[1] * v[0];
}

// Signed volume of the cone from `c` over face f, times 6.
double cone_volume6(const double* p, const uint32_t* f, const double c[3]) {
  const double* a = p + 3 * size_t(f[0]);
  const double* b = p + 3 * size_t(f[1]);
  const double* d = p + 3 * size_t(f[2]);
  const double u[3] = {a[0] - c[0], a[1] - c[1], a[2] - c[2]};
  const double v[3] = {b[0] - c[0], b[1] - c[1], b[2] - c[2]};
  const double w[3] = {d[0] - c[0], d[1] - c[1], d[2] - c[2]};
  return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
         u[2] * (v[0] * w[1] - v[1] * w[0]);
}

// Merges vertices closer than `tol`, in index order (the first of a cluster represents it).
// Returns, per input vertex, its representative's input index.
std::vector<int64_t> weld(const float* xyz, int64_t n, const double lo[3], double tol) {
  std::vector<int64_t> rep(static_cast<size_t>(n));
  if (!(tol > 0.0)) {  // a point-sized input: only identical vertices merge
    std::iota(rep.begin(), rep.end(), int64_t(0));
    return rep;
  }
  PointGrid grid(lo, tol);
  const double tol2 = tol * tol;
  for (int64_t i = 0; i < n; ++i) {
    const double p[3] = {xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]};
    int64_t found = -1;
    grid.any_near(p, [&](int64_t j) {
      double d2 = 0;
      for (int k = 0; k < 3; ++k) {
        const double d = p[k] - double(xyz[3 * j + k]);
        d2 += d * d;
      }
      if (d2 <= tol2 && (found < 0 || j < found)) found = j;  // the lowest index, whatever the visit order
      return false;
    });
    rep[size_t(i)] = found >= 0 ? found : i;
    if (found < 0) grid.insert(i, p);
  }
  return rep;
}

}  // namespace

SurfaceProblem clean_surface(const float* xyz, int64_t vertex_count, const uint32_t* triangles,
                             int64_t triangle_count, Surface& out, CleanupReport& report,
                             int64_t& problem_index) {
  report = CleanupReport{};
  problem_index = -1;
  for (int64_t i = 0; i < 3 * vertex_count; ++i)
    if (!std::isfinite(xyz[i])) {
      problem_index = i / 3;
      return SurfaceProblem::NonFinite;
    }
  for (int64_t f = 0; f < triangle_count; ++f)
    for (int k = 0; k < 3; ++k)
      if (triangles[3 * f + k] >= uint64_t(vertex_count)) {
        problem_index = f;
        return SurfaceProblem::IndexOutOfRange;
      }

  // Bounding box of the vertices faces use.
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  for (int64_t i = 0; i < 3 * triangle_count; ++i)
    for (int k = 0; k < 3; ++k) {
      const double x = xyz[3 * size_t(triangles[i]) + size_t(k)];
      lo[k] = std::min(lo[k], x);
      hi[k] = std::max(hi[k], x);
    }
  if (triangle_count == 0) return SurfaceProblem::Empty;
  const double diag = std::sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                                (hi[2] - lo[2]) * (hi[2] - lo[2]));
  const std::vector<int64_t> rep = weld(xyz, vertex_count, lo, kWeldTolerance * diag);

  // Faces on representatives; zero-area ones (a repeated vertex, or collinear) dropped.
  std::vector<double> pos(3 * size_t(vertex_count));
  for (int64_t i = 0; i < 3 * vertex_count; ++i) pos[size_t(i)] = xyz[i];
  const double min_area2 = std::pow(1e-12 * diag * diag, 2);  // |cross|^2 of a face we keep
  std::vector<uint32_t> faces;
  faces.reserve(3 * size_t(triangle_count));
  for (int64_t f = 0; f < triangle_count; ++f) {
    const uint32_t v[3] = {uint32_t(rep[triangles[3 * f]]), uint32_t(rep[triangles[3 * f + 1]]),
                           uint32_t(rep[triangles[3 * f + 2]])};
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) continue;
    double n[3];
    face_normal(pos.data(), v, n);
    if (n[0] * n[0] + n[1] * n[1] + n[2] * n[2] <= min_area2) continue;
    faces.insert(faces.end(), v, v + 3);
  }
  // Duplicates (the same three vertices, either winding): keep the first.
  {
    const size_t nf = faces.size() / 3;
    std::vector<std::pair<Key3, uint32_t>> keys(nf);
    for (size_t f = 0; f < nf; ++f) {
      Key3 k = {faces[3 * f], faces[3 * f + 1], faces[3 * f + 2]};
      std::sort(k.begin(), k.end());
      keys[f] = {k, uint32_t(f)};
    }
    std::sort(keys.begin(), keys.end());
    std::vector<uint8_t> keep(nf, 1);
    for (size_t i = 1; i < nf; ++i)
      if (keys[i].first == keys[i - 1].first) keep[keys[i].second] = 0;
    std::vector<uint32_t> kept;
    kept.reserve(faces.size());
    for (size_t f = 0; f < nf; ++f)
      if (keep[f]) kept.insert(kept.end(), &faces[3 * f], &faces[3 * f] + 3);
    faces.swap(kept);
  }
  report.dropped_triangles = triangle_count - int64_t(faces.size() / 3);
  if (faces.empty()) return SurfaceProblem::Empty;

  // Consistent orientation: across an edge shared by exactly two faces, the faces must run it in
  // opposite directions. Breadth-first over each connected piece, flipping faces that disagree.
  const size_t nf = faces.size() / 3;
  struct HalfEdge {
    uint32_t a, b;  // undirected key a < b
    uint32_t face;
    uint8_t forward;  // the face runs a -> b
    bool operator<(const HalfEdge& o) const { return std::tie(a, b, face) < std::tie(o.a, o.b, o.face); }
  };
  std::vector<HalfEdge> half(3 * nf);
  for (size_t f = 0; f < nf; ++f)
    for (int k = 0; k < 3; ++k) {
      const uint32_t u = faces[3 * f + size_t(k)], w = faces[3 * f + size_t((k + 1) % 3)];
      half[3 * f + size_t(k)] = {std::min(u, w), std::max(u, w), uint32_t(f), uint8_t(u < w)};
    }
  std::sort(half.begin(), half.end());
  // Per face, the neighbour across each manifold edge (and whether both run it the same way).
  std::vector<std::vector<std::pair<uint32_t, uint8_t>>> adjacent(nf);
  for (size_t i = 0; i < half.size();) {
    size_t j = i;
    while (j < half.size() && half[j].a == half[i].a && half[j].b == half[i].b) ++j;
    if (j - i == 1) ++report.open_edges;
    if (j - i == 2) {
      const uint8_t same = half[i].forward == half[i + 1].forward;
      adjacent[half[i].face].push_back({half[i + 1].face, same});
      adjacent[half[i + 1].face].push_back({half[i].face, same});
    }
    i = j;
  }
  std::vector<int8_t> flip(nf, -1);  // -1 unvisited, 0 keep, 1 flip
  std::vector<uint32_t> queue, component;
  double centroid[3] = {0, 0, 0};
  for (size_t f = 0; f < nf; ++f)
    for (int k = 0; k < 3; ++k)
      for (int c = 0; c < 3; ++c) centroid[c] += pos[3 * size_t(faces[3 * f + size_t(k)]) + size_t(c)];
  for (double& c : centroid) c /= double(3 * nf);
  for (size_t seed = 0; seed < nf; ++seed) {
    if (flip[seed] >= 0) continue;
    flip[seed] = 0;
    queue.assign(1, uint32_t(seed));
    component.clear();
    for (size_t q = 0; q < queue.size(); ++q) {
      const uint32_t f = queue[q];
      component.push_back(f);
      for (auto [g, same] : adjacent[f]) {
        const int8_t want = int8_t(flip[f] ^ same);  // same direction: one of the two must turn
        if (flip[g] < 0) {
          flip[g] = want;
          queue.push_back(g);
        }
      }
    }
    // Each connected piece encloses positive volume (outward normals).
    double volume6 = 0;
    for (uint32_t f : component) volume6 += (flip[f] ? -1.0 : 1.0) * cone_volume6(pos.data(), &faces[3 * f], centroid);
    if (volume6 < 0)
      for (uint32_t f : component) flip[f] ^= 1;
  }
  for (size_t f = 0; f < nf; ++f)
    if (flip[f]) {
      std::swap(faces[3 * f + 1], faces[3 * f + 2]);
      ++report.flipped_triangles;
    }

  // Compact: only used vertices, in input order.
  std::vector<int64_t> remap(size_t(vertex_count), -1);
  for (uint32_t v : faces) remap[v] = 0;
  out.positions.clear();
  int64_t used = 0;
  for (int64_t i = 0; i < vertex_count; ++i)
    if (remap[size_t(i)] == 0) {
      remap[size_t(i)] = used++;
      out.positions.insert(out.positions.end(), &pos[3 * size_t(i)], &pos[3 * size_t(i)] + 3);
    }
  out.triangles.resize(faces.size());
  for (size_t i = 0; i < faces.size(); ++i) out.triangles[i] = uint32_t(remap[faces[i]]);
  report.welded_vertices = used;

  double volume6 = 0;
  for (size_t f = 0; f < nf; ++f) volume6 += cone_volume6(out.positions.data(), &out.triangles[3 * f], centroid);
  report.volume = volume6 / 6.0;
  // Flat: a bounding box without thickness, or a volume that is rounding noise of the box's.
  const double thinnest = std::min({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
  const double box_volume = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
  if (thinnest <= 1e-6 * diag || std::fabs(report.volume) <= 1e-9 * box_volume) return SurfaceProblem::Flat;
  return SurfaceProblem::None;
}

}  // namespace sb
