// Skinning a high-resolution render surface onto a tet mesh ("free-form deformation"): each visual
// vertex is bound to one tet with barycentric weights at the rest shape, and afterwards follows
// x = sum_i w_i x_i of that tet's four particles. Vertices outside every tet (a visual surface is
// usually a little larger than the tets) bind to the nearest tet; their weights extrapolate.
//
// Binding is the expensive part (a grid search per vertex); the binding itself (4 particle ids and
// 4 weights per vertex) is plain data, so it can be computed once somewhere else (the page's
// worker) and handed to a body that only copies it (the second constructor).
#pragma once
#include <cstdint>
#include <vector>

namespace sb {

class VisualSkin {
 public:
  // A coarse surface is subdivided to at most this many vertices (or its own count, if more): 2^18
  // is a 1 m cube at the finest grid the page offers with room to spare, and ~10 MB of skin.
  static constexpr uint32_t kMaxSubdividedVertices = 1u << 18;

  VisualSkin() = default;
  // Binds. rest: the tet mesh's rest positions (xyz floats); visual: xyz floats in the same frame;
  // triangles (3 per face, may be empty) are used for the normals. Edges longer than the tets'
  // mean edge are split first (subdivide_long_edges), so the skin may have more vertices and
  // triangles than given: the given vertices come first, in their order.
  // max_tests bounds the search (exact vertex-tet tests, the binding's unit of work): past it the
  // binding stops and complete() is false, so no input can make it run for minutes.
  VisualSkin(const float* rest, uint32_t vertex_count, const uint32_t* tets, uint32_t tet_count,
             const float* visual, uint32_t visual_count, const uint32_t* triangles, uint32_t triangle_count,
             uint64_t max_tests = UINT64_MAX);
  // Takes a binding made earlier (bound_vertices() and weights() of another skin): 4 particle ids
  // and 4 weights per visual vertex. The caller has checked ids and weights; positions and normals
  // are undefined until the first update().
  VisualSkin(const uint32_t* bound, const float* weights, uint32_t visual_count, const uint32_t* triangles,
             uint32_t triangle_count, uint32_t outside_count);

  // Moves the visual vertices with the particles and recomputes area-weighted normals. No allocation.
  void update(const float* positions);

  bool empty() const { return bound_.empty(); }
  bool complete() const { return complete_; }      // false: max_tests ran out, the binding is unusable
  uint64_t tests() const { return tests_; }         // exact vertex-tet tests the binding made
  uint32_t vertex_count() const { return uint32_t(weights_.size() / 4); }
  uint32_t triangle_count() const { return uint32_t(triangles_.size() / 3); }
  uint32_t outside_count() const { return outside_; }  // vertices bound to a tet they are not in
  float* positions() { return positions_.data(); }
  float* normals() { return normals_.data(); }
  const uint32_t* triangles() const { return triangles_.data(); }
  const uint32_t* bound_vertices() const { return bound_.data(); }  // 4 particle ids per visual vertex
  const float* weights() const { return weights_.data(); }          // 4 per visual vertex, sum 1

 private:
  std::vector<uint32_t> bound_;   // 4 particle ids per visual vertex
  std::vector<float> weights_;    // 4 barycentric weights per visual vertex (sum 1)
  std::vector<uint32_t> triangles_;
  std::vector<float> positions_, normals_;
  uint32_t outside_ = 0;
  uint64_t tests_ = 0;
  bool complete_ = true;
};

}  // namespace sb
