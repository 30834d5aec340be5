#include "meshing/thickness_rays.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <utility>

#include "meshing/surface_query.h"
#include "meshing/union_find.h"

namespace sb {

namespace {

// At most this many crossings of inner sheets (overlapping pieces) are stepped over per ray.
constexpr int kMaxCrossings = 64;


}  // namespace

ThicknessRays::ThicknessRays(const std::vector<double>& p, const std::vector<uint32_t>& t, const SurfaceQuery& query)
    : t_(t), query_(query) {
  const size_t faces = t.size() / 3;
  normal_.assign(3 * faces, 0.0);
  for (size_t f = 0; f < faces; ++f) {
    const double* a = &p[3 * size_t(t[3 * f])];
    const double* b = &p[3 * size_t(t[3 * f + 1])];
    const double* c = &p[3 * size_t(t[3 * f + 2])];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (len > 0)
      for (int k = 0; k < 3; ++k) normal_[3 * f + size_t(k)] = n[k] / len;
  }
  // A soup: open edges (an edge not on exactly two faces) or more than one piece over shared vertices.
  std::vector<std::array<uint32_t, 2>> edges;
  edges.reserve(t.size());
  for (size_t f = 0; f < faces; ++f)
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = t[3 * f + size_t(k)], b = t[3 * f + size_t((k + 1) % 3)];
      edges.push_back({std::min(a, b), std::max(a, b)});
    }
  std::sort(edges.begin(), edges.end());
  for (size_t i = 0, j = 0; i < edges.size() && !soup_; i = j) {
    for (j = i + 1; j < edges.size() && edges[j] == edges[i]; ++j) {
    }
    soup_ = j - i != 2;
  }
  UnionFind pieces_of(p.size() / 3);
  for (const auto& e : edges) pieces_of.join(e[0], e[1]);
  int64_t pieces = 0;
  std::vector<uint8_t> used(p.size() / 3, 0);
  for (uint32_t v : t) used[v] = 1;
  for (size_t v = 0; v < used.size(); ++v) pieces += used[v] && pieces_of.find(int64_t(v)) == int64_t(v);
  soup_ = soup_ || pieces > 1;
  if (!soup_) return;
  buried_.assign(faces, 0);
  for (size_t f = 0; f < faces; ++f) {
    double c[3];
    for (int k = 0; k < 3; ++k)
      c[k] = (p[3 * size_t(t[3 * f]) + size_t(k)] + p[3 * size_t(t[3 * f + 1]) + size_t(k)] + p[3 * size_t(t[3 * f + 2]) + size_t(k)]) / 3;
    buried_[f] = uint8_t(outside_is_inside(c, uint32_t(f)));
    for (int v = 0; v < 3; ++v) buried_[f] = uint8_t(buried_[f] + outside_is_inside(&p[3 * size_t(t[3 * f + size_t(v)])], uint32_t(f)));
  }
}

// Whether the winding number a thousandth of a cell outside x (grid units, on the face) is > 1/2.
bool ThicknessRays::outside_is_inside(const double x[3], uint32_t face) const {
  const double* n = normal(face);
  if (!(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > 0.5)) return false;
  const double y[3] = {x[0] + 1e-3 * n[0], x[1] + 1e-3 * n[1], x[2] + 1e-3 * n[2]};
  return query_.winding_number(y) > 0.5;
}

bool ThicknessRays::buried_at(const double x[3], uint32_t face) const {
  if (buried_.empty() || buried_[face] == 0) return false;
  if (buried_[face] == kAllBuried) return true;
  return outside_is_inside(x, face);
}

double ThicknessRays::thickness(const double o[3], uint32_t face, double reach) const {
  const double* n = normal(face);
  if (!(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > 0.5)) return HUGE_VAL;
  const double d[3] = {-n[0], -n[1], -n[2]};
  const uint32_t* own = &t_[3 * size_t(face)];
  double from = 1e-9;
  auto skip = int32_t(face);
  for (int crossing = 0; crossing < kMaxCrossings; ++crossing) {
    int32_t hit_face = -1;
    const double hit = query_.ray_hit(o, d, skip, from, reach, &hit_face);
    if (hit == HUGE_VAL || hit_face < 0) return HUGE_VAL;
    const double* m = normal(uint32_t(hit_face));
    const double along = m[0] * d[0] + m[1] * d[1] + m[2] * d[2];  // > 0: the ray leaves through it
    bool way_out = along > 0;
    if (way_out && soup_) {
      // Just beyond the crossing (a thousandth of the distance, at least 1e-6 cell): still inside
      // another piece means an inner sheet of a union.
      const double beyond = hit + std::max(1e-6, 1e-3 * hit);
      const double x[3] = {o[0] + beyond * d[0], o[1] + beyond * d[1], o[2] + beyond * d[2]};
      way_out = query_.winding_number(x) < 0.5;
    }
    if (way_out) {
      const uint32_t* other = &t_[3 * size_t(hit_face)];
      bool neighbour = false;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) neighbour = neighbour || own[i] == other[j];
      return along >= kOpposedCosine && !neighbour ? hit : HUGE_VAL;
    }
    from = hit;
    skip = hit_face;
  }
  return HUGE_VAL;
}

}  // namespace sb
