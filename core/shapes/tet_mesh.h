// A tetrahedral mesh (vertex positions + tets) and the checks and derived data every body needs:
// validation, unique edges, outward boundary triangles.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sb {

struct TetMesh {
  std::vector<float> positions;  // xyz per vertex, m
  std::vector<uint32_t> tets;    // 4 vertex indices per tet, positively oriented (see tet_volume6)
  // Optional, for bodies that are not (only) tets (ropes, spring lattices, pressure balls): extra
  // springs as vertex pairs; each vertex's share of the body's volume in m^3, added to its share of
  // the tets (mass = density x share); and the render/pressure surface, outward triangles, when it
  // is not the boundary of the tets. All empty for plain tet meshes.
  std::vector<uint32_t> springs;
  std::vector<float> point_volumes;
  std::vector<uint32_t> surface;
};

// Why a mesh was rejected. `index` in MeshCheck says which vertex or tet.
enum class MeshProblem {
  None,
  NonFiniteVertex,   // a coordinate is NaN or infinite
  IndexOutOfRange,   // a tet refers to a vertex >= vertex count
  RepeatedIndex,     // a tet uses the same vertex twice
  DegenerateTet,     // |6V| below kDegenerateRelVolume * (longest edge)^3
  TinyTet,           // longest edge below kMinTetEdge
  InvertedTet,       // negative volume: vertex order is mirrored
  UnusedVertex,      // a vertex no tet refers to would have no mass
};

struct MeshCheck {
  MeshProblem problem = MeshProblem::None;
  int64_t index = -1;  // offending vertex or tet
};

// 6V / L^3 of a regular tet is 0.71; below this relative size a tet is treated as flat. The bound sits
// far above float rounding of the cross products (~1e-7) and far below any tet a mesher would emit.
constexpr double kDegenerateRelVolume = 1e-6;
// m. Below it a tet's float32 mass (density x V0 / 4) and volume gradients (~edge^2, squared in the
// solver) underflow: a 1e-20 m tet has no mass and its first step divides by zero. With the relative
// rule above, 6V >= 1e-24 m^3, far inside float's range.
constexpr double kMinTetEdge = 1e-6;

// Six times the signed volume, ((b-a) x (c-a)) . (d-a); positive for a positively oriented tet. m^3.
double tet_volume6(const float* positions, const uint32_t* tet);

// The square of a tet's longest edge, m^2 (the scale of the flatness test above).
double longest_edge_sq(const float* positions, const uint32_t* tet);

// Validates raw arrays without copying them; runs in O(vertices + tets).
MeshCheck check_tet_mesh(const float* positions, int64_t vertex_count, const uint32_t* tets,
                         int64_t tet_count);

// Every unique tet edge once, as vertex pairs (a < b), sorted.
std::vector<uint32_t> unique_edges(const uint32_t* tets, int64_t tet_count);

// Volume enclosed by outward triangles (divergence theorem), m^3; 0 for an empty list.
double enclosed_volume(const float* positions, const uint32_t* triangles, uint32_t triangle_count);

// Faces used by exactly one tet, wound counter-clockwise seen from outside (outward normals).
std::vector<uint32_t> boundary_triangles(const uint32_t* tets, int64_t tet_count);
// The faces of tets (face 4 t + s: the one opposite vertex slot s of tet t) grouped by their
// smallest vertex id: bucket v is [start[v], start[v + 1]) of the result, faces ascending within it.
// 4 bytes per face (at most SB_MAX_TETS tets, so 4 t + s fits).
std::vector<uint32_t> faces_by_smallest_vertex(const uint32_t* tets, int64_t tet_count, std::vector<uint32_t>& start);

}  // namespace sb
