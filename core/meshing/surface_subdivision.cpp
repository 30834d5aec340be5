#include "meshing/surface_subdivision.h"

#include <cmath>
#include <unordered_map>

namespace sb {

namespace {

double length2(const float* p, uint32_t a, uint32_t b) {
  double s = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double d = double(p[3 * size_t(b) + size_t(k)]) - double(p[3 * size_t(a) + size_t(k)]);
    s += d * d;
  }
  return s;
}

uint64_t edge_key(uint32_t a, uint32_t b) { return a < b ? (uint64_t(a) << 32) | b : (uint64_t(b) << 32) | a; }

}  // namespace

SubdividedSurface subdivide_long_edges(const float* xyz, uint32_t vertex_count, const uint32_t* triangles,
                                       uint32_t triangle_count, double max_edge, uint32_t max_vertices) {
  SubdividedSurface out;
  out.positions.assign(xyz, xyz + 3 * size_t(vertex_count));
  out.triangles.assign(triangles, triangles + 3 * size_t(triangle_count));
  if (!(max_edge > 0.0) || !std::isfinite(max_edge)) return out;
  const double limit2 = max_edge * max_edge;
  std::unordered_map<uint64_t, uint32_t> midpoint;  // edge -> its new vertex, for one pass
  std::vector<uint32_t> next;
  // Each pass at least halves every split edge, so a finite surface needs few passes; the bound
  // only guards against a max_edge far below the surface's size (the vertex cap stops that first).
  for (int pass = 0; pass < 64; ++pass) {
    const float* p = out.positions.data();
    const auto faces = out.triangles.size() / 3;
    // Which edges split, numbered in the order the faces meet them.
    midpoint.clear();
    std::vector<uint64_t> order;
    for (size_t f = 0; f < faces; ++f)
      for (int e = 0; e < 3; ++e) {
        const uint32_t a = out.triangles[3 * f + size_t(e)], b = out.triangles[3 * f + size_t((e + 1) % 3)];
        if (length2(p, a, b) <= limit2) continue;
        if (midpoint.emplace(edge_key(a, b), 0).second) order.push_back(edge_key(a, b));
      }
    if (order.empty()) break;
    const size_t count = out.positions.size() / 3;
    if (count + order.size() > size_t(max_vertices)) {
      out.capped = true;
      break;
    }
    out.positions.reserve(3 * (count + order.size()));
    for (size_t i = 0; i < order.size(); ++i) {
      const auto a = uint32_t(order[i] >> 32), b = uint32_t(order[i] & 0xffffffffu);
      midpoint[order[i]] = uint32_t(count + i);
      for (int k = 0; k < 3; ++k)  // (a + b) / 2 in double, rounded once: the same from either side
        out.positions.push_back(
            float(0.5 * (double(out.positions[3 * size_t(a) + size_t(k)]) + double(out.positions[3 * size_t(b) + size_t(k)]))));
    }
    p = out.positions.data();
    next.clear();
    next.reserve(out.triangles.size() * 2);
    auto emit = [&](uint32_t a, uint32_t b, uint32_t c) { next.insert(next.end(), {a, b, c}); };
    for (size_t f = 0; f < faces; ++f) {
      const uint32_t v[3] = {out.triangles[3 * f], out.triangles[3 * f + 1], out.triangles[3 * f + 2]};
      int64_t m[3];  // m[e]: midpoint of edge v[e] -> v[e+1], or -1
      int splits = 0;
      for (int e = 0; e < 3; ++e) {
        const auto it = midpoint.find(edge_key(v[e], v[(e + 1) % 3]));
        m[e] = it != midpoint.end() ? int64_t(it->second) : -1;
        splits += m[e] >= 0;
      }
      if (splits == 0) {
        emit(v[0], v[1], v[2]);
      } else if (splits == 3) {
        const auto ab = uint32_t(m[0]), bc = uint32_t(m[1]), ca = uint32_t(m[2]);
        emit(v[0], ab, ca);
        emit(ab, v[1], bc);
        emit(ca, bc, v[2]);
        emit(ab, bc, ca);
      } else if (splits == 1) {
        // Rotate so the split edge is a -> b: triangles (a, m, c) and (m, b, c).
        const int e = m[0] >= 0 ? 0 : m[1] >= 0 ? 1 : 2;
        const uint32_t a = v[e], b = v[(e + 1) % 3], c = v[(e + 2) % 3], mid = uint32_t(m[e]);
        emit(a, mid, c);
        emit(mid, b, c);
      } else {
        // Rotate so the unsplit edge is c -> a: the corner (m_ab, b, m_bc) is cut off, and the
        // quad (a, m_ab, m_bc, c) is cut along its shorter diagonal (a - m_bc or m_ab - c).
        const int e = m[0] < 0 ? 1 : m[1] < 0 ? 2 : 0;  // e: first split edge after the unsplit one
        const uint32_t a = v[e], b = v[(e + 1) % 3], c = v[(e + 2) % 3];
        const auto ab = uint32_t(m[e]), bc = uint32_t(m[(e + 1) % 3]);
        emit(ab, b, bc);
        if (length2(p, a, bc) <= length2(p, ab, c)) {
          emit(a, ab, bc);
          emit(a, bc, c);
        } else {
          emit(a, ab, c);
          emit(ab, bc, c);
        }
      }
    }
    out.triangles.swap(next);
    out.passes = pass + 1;
  }
  return out;
}

double mean_tet_edge(const float* positions, const uint32_t* tets, uint32_t tet_count) {
  static const int pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  double sum = 0.0;
  for (uint32_t t = 0; t < tet_count; ++t)
    for (const auto& e : pairs) sum += std::sqrt(length2(positions, tets[4 * size_t(t) + size_t(e[0])], tets[4 * size_t(t) + size_t(e[1])]));
  return tet_count ? sum / (6.0 * tet_count) : 0.0;
}

}  // namespace sb
