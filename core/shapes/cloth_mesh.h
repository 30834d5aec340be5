// Triangle meshes for cloth bodies: the generators (a rectangle, a disc) and the checks a mesh must
// pass before it becomes a body (finite, in range, no zero-area triangle, manifold and consistently
// wound edges, every vertex used).
#pragma once
#include <cstdint>
#include <vector>

namespace sb {

struct ClothMesh {
  std::vector<float> positions;    // xyz per vertex, m
  std::vector<uint32_t> triangles; // 3 vertex indices per triangle, counter-clockwise seen from the front
};

enum class ClothProblem {
  None,
  NonFiniteVertex,     // a coordinate is NaN or infinite
  IndexOutOfRange,     // a triangle refers to a vertex >= vertex count
  RepeatedIndex,       // a triangle uses the same vertex twice
  DegenerateTriangle,  // area below kDegenerateRelArea x (longest edge)^2, or longest edge below kMinTriangleEdge
  NonManifoldEdge,     // an edge shared by more than two triangles
  InconsistentWinding, // two triangles run along their shared edge in the same direction (normals opposed)
  UnusedVertex,        // a vertex no triangle refers to would have no mass
};

struct ClothCheck {
  ClothProblem problem = ClothProblem::None;
  int64_t index = -1;  // the offending vertex or triangle
};

// 2A / L^2 of an equilateral triangle is 0.87; below this a triangle is treated as flat (its
// cotangents, which the bending model divides by, would exceed ~1e5). Far below what a mesher emits.
constexpr double kDegenerateRelArea = 1e-5;
// m: below it the masses (areal density x area / 3) and bending weights (1/area) leave float range.
constexpr double kMinTriangleEdge = 1e-5;

// Validates raw arrays without copying them, in O(vertices + triangles log triangles).
ClothCheck check_cloth_mesh(const float* positions, int64_t vertex_count, const uint32_t* triangles,
                            int64_t triangle_count);

// A size_u x size_v rectangle of rows of near-equilateral triangles: cells_u triangles' bases
// along u, cells_v rows along v, every other row offset by half a base (half triangles close the
// ends), so the bending and stretch models see the isotropic lattice they are calibrated on
// (cloth_constraints.h). vertical: in the xy plane facing +z; else in the xz plane facing +y.
// centre in m. Vertices are numbered row by row (compact vertex groups, xpbd_partition.h).
ClothMesh make_cloth_rectangle(int cells_u, int cells_v, float size_u, float size_v, float center_x,
                               float center_y, float center_z, bool vertical);

// A disc of `rings` rings of near-equilateral triangles (ring k has 6k vertices), radius in m,
// facing +y (or +z when vertical).
ClothMesh make_cloth_disc(float radius, int rings, float center_x, float center_y, float center_z, bool vertical);

// Each triangle's area, m^2.
std::vector<float> triangle_areas(const float* positions, const uint32_t* triangles, uint32_t triangle_count);

}  // namespace sb
