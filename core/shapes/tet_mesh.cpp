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
  // Each edge's larger vertex in the bucket of its smaller one (4 bytes per tet edge, where sorting
  // 64-bit pairs took 8), then each bucket sorted and deduplicated: the edges in (a, b) order.
  uint32_t top = 0;
  for (int64_t i = 0; i < 4 * tet_count; ++i) top = std::max(top, tets[i]);
  std::vector<uint32_t> start(tet_count > 0 ? size_t(top) + 2 : 1, 0);
  for (int64_t t = 0; t < tet_count; ++t)
    for (const auto& pr : kPairs) ++start[size_t(std::min(tets[4 * t + pr[0]], tets[4 * t + pr[1]])) + 1];
  for (size_t v = 1; v < start.size(); ++v) start[v] += start[v - 1];
  std::vector<uint32_t> other(start.back());
  {
    std::vector<uint32_t> next(start.begin(), start.end() - 1);
    for (int64_t t = 0; t < tet_count; ++t)
      for (const auto& pr : kPairs) {
        const uint32_t a = tets[4 * t + pr[0]], b = tets[4 * t + pr[1]];
        other[next[std::min(a, b)]++] = std::max(a, b);
      }
  }
  // Sorted and deduplicated bucket by bucket, moved down over the duplicates (start becomes the new
  // bucket bounds).
  uint32_t kept = 0, begin = start[0];
  for (size_t v = 0; v + 1 < start.size(); ++v) {
    const uint32_t end = start[v + 1];
    std::sort(other.begin() + begin, other.begin() + end);
    const auto last = std::unique(other.begin() + begin, other.begin() + end);
    start[v] = kept;
    for (auto it = other.begin() + begin; it != last; ++it) other[kept++] = *it;
    begin = end;
  }
  start.back() = kept;
  std::vector<uint32_t> edges;
  edges.reserve(2 * size_t(kept));
  for (size_t v = 0; v + 1 < start.size(); ++v)
    for (uint32_t i = start[v]; i < start[v + 1]; ++i) edges.insert(edges.end(), {uint32_t(v), other[i]});
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

std::vector<uint32_t> faces_by_smallest_vertex(const uint32_t* tets, int64_t tet_count, std::vector<uint32_t>& start) {
  auto smallest = [&](uint32_t face) {
    const uint32_t* t = tets + 4 * size_t(face / 4);
    uint32_t m = UINT32_MAX;
    for (uint32_t k = 0; k < 4; ++k)
      if (k != face % 4) m = std::min(m, t[k]);
    return m;
  };
  uint32_t top = 0;
  for (int64_t i = 0; i < 4 * tet_count; ++i) top = std::max(top, tets[i]);
  start.assign(tet_count > 0 ? size_t(top) + 2 : 1, 0);
  const auto faces = uint32_t(4 * tet_count);
  for (uint32_t f = 0; f < faces; ++f) ++start[size_t(smallest(f)) + 1];
  for (size_t v = 1; v < start.size(); ++v) start[v] += start[v - 1];
  std::vector<uint32_t> bucket(faces);
  std::vector<uint32_t> next(start.begin(), start.end() - 1);
  for (uint32_t f = 0; f < faces; ++f) bucket[next[smallest(f)]++] = f;
  return bucket;
}

std::vector<uint32_t> boundary_triangles(const uint32_t* tets, int64_t tet_count) {
  // For a positively oriented tet (a,b,c,d) these faces have outward normals.
  static const int kFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  // Faces bucketed by their smallest vertex, 4 bytes each (sorting every face's key and winding took
  // 24 and was the peak of a large body's creation); within a bucket (a few dozen faces) the two
  // sides of an inner face have the same other two vertices. Buckets in vertex order, sorted
  // within: the faces come out in the order of their sorted vertex ids.
  std::vector<uint32_t> start;
  const std::vector<uint32_t> bucket = faces_by_smallest_vertex(tets, tet_count, start);
  std::vector<uint32_t> tris;
  std::vector<std::pair<uint64_t, uint32_t>> local;  // (the other two vertices, face)
  for (size_t v = 0; v + 1 < start.size(); ++v) {
    local.clear();
    for (uint32_t i = start[v]; i < start[v + 1]; ++i) {
      const uint32_t* t = tets + 4 * size_t(bucket[i] / 4);
      const int* f = kFaces[bucket[i] % 4];
      std::array<uint32_t, 3> key = {t[f[0]], t[f[1]], t[f[2]]};
      std::sort(key.begin(), key.end());
      local.push_back({uint64_t(key[1]) << 32 | key[2], bucket[i]});
    }
    std::sort(local.begin(), local.end());
    for (size_t i = 0; i < local.size();) {
      size_t j = i + 1;
      while (j < local.size() && local[j].first == local[i].first) ++j;
      if (j - i == 1) {
        const uint32_t* t = tets + 4 * size_t(local[i].second / 4);
        const int* f = kFaces[local[i].second % 4];
        tris.insert(tris.end(), {t[f[0]], t[f[1]], t[f[2]]});
      }
      i = j;
    }
  }
  return tris;
}

}  // namespace sb
