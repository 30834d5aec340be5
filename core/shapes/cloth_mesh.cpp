#include "shapes/cloth_mesh.h"

#include <algorithm>
#include <cmath>

namespace sb {

namespace {

struct Point2 {
  float u, v;
};

// Triangles between two rows of points sorted by u (lower row below, upper above in v), counter-
// clockwise in (u, v): walk both rows, always advancing the one whose next point comes first.
void stitch_rows(const std::vector<uint32_t>& lower, const std::vector<uint32_t>& upper, const std::vector<Point2>& p,
                 std::vector<uint32_t>& tris) {
  size_t i = 0, j = 0;
  while (i + 1 < lower.size() || j + 1 < upper.size()) {
    const bool advance_lower =
        j + 1 == upper.size() || (i + 1 < lower.size() && p[lower[i + 1]].u < p[upper[j + 1]].u);
    if (advance_lower) {
      tris.insert(tris.end(), {lower[i], lower[i + 1], upper[j]});
      ++i;
    } else {
      tris.insert(tris.end(), {lower[i], upper[j + 1], upper[j]});
      ++j;
    }
  }
}

// (u, v) in the sheet's plane to xyz: xy facing +z, or xz facing +y (v runs along -z there so that
// counter-clockwise in (u, v) stays counter-clockwise seen from the front).
ClothMesh place(const std::vector<Point2>& p, std::vector<uint32_t> tris, float cx, float cy, float cz, bool vertical) {
  ClothMesh m;
  m.positions.reserve(3 * p.size());
  for (const Point2& q : p) {
    if (vertical) m.positions.insert(m.positions.end(), {cx + q.u, cy + q.v, cz});
    else m.positions.insert(m.positions.end(), {cx + q.u, cy, cz - q.v});
  }
  m.triangles = std::move(tris);
  return m;
}

}  // namespace

ClothMesh make_cloth_rectangle(int cells_u, int cells_v, float size_u, float size_v, float center_x,
                               float center_y, float center_z, bool vertical) {
  const double a = double(size_u) / cells_u, row = double(size_v) / cells_v;
  std::vector<Point2> p;
  std::vector<std::vector<uint32_t>> rows(size_t(cells_v) + 1);
  for (int j = 0; j <= cells_v; ++j) {
    const float v = float(j * row - 0.5 * size_v);
    const auto add = [&](double u) {
      rows[size_t(j)].push_back(uint32_t(p.size()));
      p.push_back({float(u - 0.5 * size_u), v});
    };
    if (j % 2 == 0) {
      for (int i = 0; i <= cells_u; ++i) add(i * a);
    } else {  // offset by half a base, with the ends closed by half triangles
      add(0.0);
      for (int i = 0; i < cells_u; ++i) add((i + 0.5) * a);
      add(size_u);
    }
  }
  std::vector<uint32_t> tris;
  for (int j = 0; j < cells_v; ++j) stitch_rows(rows[size_t(j)], rows[size_t(j) + 1], p, tris);
  return place(p, std::move(tris), center_x, center_y, center_z, vertical);
}

ClothMesh make_cloth_disc(float radius, int rings, float center_x, float center_y, float center_z, bool vertical) {
  constexpr double kTwoPi = 6.283185307179586;
  std::vector<Point2> p = {{0.0f, 0.0f}};
  std::vector<uint32_t> first = {0};  // each ring's first vertex
  for (int k = 1; k <= rings; ++k) {
    first.push_back(uint32_t(p.size()));
    const double r = double(radius) * k / rings;
    for (int i = 0; i < 6 * k; ++i) p.push_back({float(r * std::cos(kTwoPi * i / (6 * k))), float(r * std::sin(kTwoPi * i / (6 * k)))});
  }
  std::vector<uint32_t> tris;
  for (uint32_t i = 0; i < 6; ++i) tris.insert(tris.end(), {0u, 1 + i, 1 + (i + 1) % 6});
  // Ring k-1 (na vertices) to ring k (nb): walk both by angle, counter-clockwise.
  for (int k = 2; k <= rings; ++k) {
    const uint32_t na = uint32_t(6 * (k - 1)), nb = uint32_t(6 * k);
    const uint32_t a0 = first[size_t(k) - 1], b0 = first[size_t(k)];
    uint32_t i = 0, j = 0;
    while (i < na || j < nb) {
      const bool inner = i < na && (j == nb || uint64_t(i + 1) * nb < uint64_t(j + 1) * na);
      if (inner) {
        tris.insert(tris.end(), {a0 + i % na, b0 + j % nb, a0 + (i + 1) % na});
        ++i;
      } else {
        tris.insert(tris.end(), {a0 + i % na, b0 + j % nb, b0 + (j + 1) % nb});
        ++j;
      }
    }
  }
  return place(p, std::move(tris), center_x, center_y, center_z, vertical);
}

std::vector<float> triangle_areas(const float* x, const uint32_t* tris, uint32_t count) {
  std::vector<float> areas(count);
  for (uint32_t t = 0; t < count; ++t) {
    const float* a = x + 3 * size_t(tris[3 * t]);
    const float* b = x + 3 * size_t(tris[3 * t + 1]);
    const float* c = x + 3 * size_t(tris[3 * t + 2]);
    const double e1[3] = {double(b[0]) - a[0], double(b[1]) - a[1], double(b[2]) - a[2]};
    const double e2[3] = {double(c[0]) - a[0], double(c[1]) - a[1], double(c[2]) - a[2]};
    const double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    areas[t] = float(0.5 * std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]));
  }
  return areas;
}

ClothCheck check_cloth_mesh(const float* x, int64_t vertex_count, const uint32_t* tris, int64_t triangle_count) {
  for (int64_t i = 0; i < 3 * vertex_count; ++i)
    if (!std::isfinite(x[i])) return {ClothProblem::NonFiniteVertex, i / 3};
  std::vector<uint8_t> used(size_t(vertex_count), 0);
  for (int64_t t = 0; t < triangle_count; ++t) {
    const uint32_t* id = tris + 3 * t;
    for (int k = 0; k < 3; ++k)
      if (int64_t(id[k]) >= vertex_count) return {ClothProblem::IndexOutOfRange, t};
    if (id[0] == id[1] || id[1] == id[2] || id[0] == id[2]) return {ClothProblem::RepeatedIndex, t};
    double longest = 0.0, e[3][3];
    for (int k = 0; k < 3; ++k) {
      const float* p = x + 3 * size_t(id[k]);
      const float* q = x + 3 * size_t(id[(k + 1) % 3]);
      for (int c = 0; c < 3; ++c) e[k][c] = double(q[c]) - p[c];
      longest = std::max(longest, e[k][0] * e[k][0] + e[k][1] * e[k][1] + e[k][2] * e[k][2]);
    }
    const double n[3] = {e[0][1] * e[1][2] - e[0][2] * e[1][1], e[0][2] * e[1][0] - e[0][0] * e[1][2],
                         e[0][0] * e[1][1] - e[0][1] * e[1][0]};
    const double area2 = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (longest < kMinTriangleEdge * kMinTriangleEdge || area2 <= kDegenerateRelArea * longest)
      return {ClothProblem::DegenerateTriangle, t};
    for (int k = 0; k < 3; ++k) used[id[k]] = 1;
  }
  // Each edge as (low, high, triangle, direction): at most two triangles, running along it in
  // opposite directions (a consistently wound, orientable surface).
  struct Side {
    uint32_t lo, hi;
    int64_t tri;
    bool forward;
  };
  std::vector<Side> sides;
  sides.reserve(size_t(3 * triangle_count));
  for (int64_t t = 0; t < triangle_count; ++t)
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = tris[3 * t + k], b = tris[3 * t + (k + 1) % 3];
      sides.push_back({std::min(a, b), std::max(a, b), t, a < b});
    }
  std::sort(sides.begin(), sides.end(), [](const Side& p, const Side& q) {
    return p.lo != q.lo ? p.lo < q.lo : p.hi != q.hi ? p.hi < q.hi : p.tri < q.tri;
  });
  for (size_t s = 0; s < sides.size();) {
    size_t e = s + 1;
    while (e < sides.size() && sides[e].lo == sides[s].lo && sides[e].hi == sides[s].hi) ++e;
    if (e - s > 2) return {ClothProblem::NonManifoldEdge, sides[s + 2].tri};
    if (e - s == 2 && sides[s].forward == sides[s + 1].forward) return {ClothProblem::InconsistentWinding, sides[s + 1].tri};
    s = e;
  }
  for (int64_t i = 0; i < vertex_count; ++i)
    if (!used[size_t(i)]) return {ClothProblem::UnusedVertex, i};
  return {};
}

}  // namespace sb
