#include "shapes/tet_mesh.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace sb {

double tet_volume6(const float* p, const uint32_t* t) {
  const float* a = p + 3 * t[0];
  const float* b = p + 3 * t[1];
  const float* c = p + 3 * t[2];
  const float* d = p + 3 * t[3];
  double e1[3], e2[3], e3[3];
  for (int k = 0; k < 3; ++k) {
    e1[k] = double(b[k]) - a[k];
    e2[k] = double(c[k]) - a[k];
    e3[k] = double(d[k]) - a[k];
  }
  const double nx = e1[1] * e2[2] - e1[2] * e2[1];
  const double ny = e1[2] * e2[0] - e1[0] * e2[2];
  const double nz = e1[0] * e2[1] - e1[1] * e2[0];
  return nx * e3[0] + ny * e3[1] + nz * e3[2];
}

double longest_edge_sq(const float* p, const uint32_t* t) {
  double longest = 0.0;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) {
        const double d = double(p[3 * t[i] + k]) - p[3 * t[j] + k];
        s += d * d;
      }
      longest = std::max(longest, s);
    }
  return longest;
}

MeshCheck check_tet_mesh(const float* positions, int64_t vertex_count, const uint32_t* tets,
                         int64_t tet_count) {
  for (int64_t i = 0; i < 3 * vertex_count; ++i)
    if (!std::isfinite(positions[i])) return {MeshProblem::NonFiniteVertex, i / 3};

  std::vector<uint8_t> used(size_t(vertex_count), 0);
  for (int64_t t = 0; t < tet_count; ++t) {
    const uint32_t* tet = tets + 4 * t;
    for (int i = 0; i < 4; ++i) {
      if (int64_t(tet[i]) >= vertex_count) return {MeshProblem::IndexOutOfRange, t};
      for (int j = 0; j < i; ++j)
        if (tet[i] == tet[j]) return {MeshProblem::RepeatedIndex, t};
    }
    const double v6 = tet_volume6(positions, tet);
    const double l2 = longest_edge_sq(positions, tet);
    if (l2 < kMinTetEdge * kMinTetEdge) return {MeshProblem::TinyTet, t};
    if (std::fabs(v6) <= kDegenerateRelVolume * l2 * std::sqrt(l2)) return {MeshProblem::DegenerateTet, t};
    if (v6 < 0.0) return {MeshProblem::InvertedTet, t};
    for (int i = 0; i < 4; ++i) used[tet[i]] = 1;
  }
  for (int64_t v = 0; v < vertex_count; ++v)
    if (!used[size_t(v)]) return {MeshProblem::UnusedVertex, v};
  return {};
}

std::vector<uint32_t> unique_edges(const uint32_t* tets, int64_t tet_count) {
  static const int kPairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  std::vector<uint64_t> keys;
  keys.reserve(size_t(6 * tet_count));
  for (int64_t t = 0; t < tet_count; ++t)
    for (const auto& pr : kPairs) {
      uint64_t a = tets[4 * t + pr[0]], b = tets[4 * t + pr[1]];
      if (a > b) std::swap(a, b);
      keys.push_back(a << 32 | b);
    }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<uint32_t> edges;
  edges.reserve(2 * keys.size());
  for (uint64_t k : keys) {
    edges.push_back(uint32_t(k >> 32));
    edges.push_back(uint32_t(k & 0xffffffffu));
  }
  return edges;
}

double enclosed_volume(const float* p, const uint32_t* tris, uint32_t triangle_count) {
  double v = 0.0;
  for (uint32_t t = 0; t < triangle_count; ++t) {
    const float* a = p + 3 * tris[3 * t];
    const float* b = p + 3 * tris[3 * t + 1];
    const float* c = p + 3 * tris[3 * t + 2];
    // a . (b x c) / 6: the signed volume of the tet (origin, a, b, c)
    v += (double(a[0]) * (double(b[1]) * c[2] - double(b[2]) * c[1]) +
          double(a[1]) * (double(b[2]) * c[0] - double(b[0]) * c[2]) +
          double(a[2]) * (double(b[0]) * c[1] - double(b[1]) * c[0])) / 6.0;
  }
  return v;
}

std::vector<uint32_t> boundary_triangles(const uint32_t* tets, int64_t tet_count) {
  // For a positively oriented tet (a,b,c,d) these faces have outward normals.
  static const int kFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  struct Face {
    std::array<uint32_t, 3> key;  // sorted vertex ids: equal for the two sides of an inner face
    std::array<uint32_t, 3> wound;
  };
  std::vector<Face> faces;
  faces.reserve(size_t(4 * tet_count));
  for (int64_t t = 0; t < tet_count; ++t)
    for (const auto& f : kFaces) {
      Face face;
      face.wound = {tets[4 * t + f[0]], tets[4 * t + f[1]], tets[4 * t + f[2]]};
      face.key = face.wound;
      std::sort(face.key.begin(), face.key.end());
      faces.push_back(face);
    }
  std::sort(faces.begin(), faces.end(), [](const Face& a, const Face& b) { return a.key < b.key; });
  std::vector<uint32_t> tris;
  for (size_t i = 0; i < faces.size();) {
    size_t j = i + 1;
    while (j < faces.size() && faces[j].key == faces[i].key) ++j;
    if (j - i == 1) tris.insert(tris.end(), faces[i].wound.begin(), faces[i].wound.end());
    i = j;
  }
  return tris;
}

}  // namespace sb
