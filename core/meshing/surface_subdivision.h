// Refining a coarse render surface before it is skinned to tets. Skinning moves only the surface's
// vertices; a 12-triangle cube has 8, so however the tets under it bend, it is drawn as a rigid
// box (with dark bands where normals average across its corners). Splitting its long edges puts
// vertices in the faces about one tet apart, and each then follows the tets around it.
#pragma once
#include <cstdint>
#include <vector>

namespace sb {

struct SubdividedSurface {
  std::vector<float> positions;     // xyz; the input's vertices first, in their order
  std::vector<uint32_t> triangles;  // 3 per face, wound like the face they came from
  int passes = 0;                   // splitting passes made
  bool capped = false;              // stopped by max_vertices with edges still longer than max_edge
};

// Splits every edge longer than max_edge (m) at its midpoint, pass after pass, until none is
// longer; a triangle with 1, 2 or 3 split edges becomes 2, 3 (the quad left over cut along its
// shorter diagonal) or 4 triangles. Whether an edge splits depends only on that edge, so two faces
// sharing it split it alike and a closed surface stays closed; the midpoint of a and b is computed
// symmetrically, so faces that only touch (a corner repeated per face, as exporters write
// hard edges) stay together too. A pass that would take the vertex count above max_vertices is
// not made (capped). Deterministic: new vertices are numbered in the order the faces meet them.
SubdividedSurface subdivide_long_edges(const float* xyz, uint32_t vertex_count, const uint32_t* triangles,
                                       uint32_t triangle_count, double max_edge, uint32_t max_vertices);

// Mean edge length (m) of the tets over their 6 edges each (a shared edge counts once per tet): the
// spacing a skinned surface needs to follow the tets' bending.
double mean_tet_edge(const float* positions, const uint32_t* tets, uint32_t tet_count);

}  // namespace sb
