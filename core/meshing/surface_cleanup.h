// Turns a triangle soup into a clean surface for tetrahedralization: welds near-duplicate vertices
// (UV and normal seams split vertices that are one point in space), repairs or drops flat and
// duplicate faces, orients faces consistently across shared edges, and orients each connected
// piece by how closed pieces nest: a piece inside an even number of others faces outward (a solid),
// one inside an odd number faces inward (a cavity), whatever way its author wound it.
#pragma once
#include <cstdint>
#include <vector>

namespace sb {

struct Surface {
  std::vector<double> positions;   // xyz per vertex, m (only vertices some face uses)
  std::vector<uint32_t> triangles; // 3 per face, counter-clockwise seen from outside
};

struct CleanupReport {
  int64_t welded_vertices = 0;   // vertices left
  int64_t dropped_triangles = 0; // zero-area (incl. repeated vertex) and duplicate faces
  int64_t repaired_needles = 0;  // flat faces removed by flipping their long edge (no hole left)
  int64_t flipped_triangles = 0; // faces whose winding was reversed
  int64_t open_edges = 0;        // edges with exactly one face: holes
  int64_t pieces = 0;            // connected pieces (faces joined across manifold edges)
  int64_t closed_pieces = 0;     // pieces whose every edge has exactly two faces
  int64_t cavities = 0;          // closed pieces nested in an odd number of others: face inward
  double volume = 0.0;           // m^3 enclosed (divergence theorem, about the centroid)
};

enum class SurfaceProblem {
  None,
  NonFinite,     // a coordinate is NaN or infinite (index: the vertex)
  IndexOutOfRange,  // a face names a vertex >= count (index: the face)
  Empty,         // no face with positive area is left
  Flat,          // the faces span no volume: the bounding box is flat or the volume is ~0
};

// Relative weld distance: vertices closer than this times the bounding-box diagonal are merged, and
// a face whose smallest height is below it is flat (a vertex lies on the line through the others).
constexpr double kWeldTolerance = 1e-6;

// `problem_index` names the offending vertex or face. On Flat, `out` and `report` hold the cleaned
// sheet (a flat sheet is still a fine obstacle: mesh colliders use it); on other problems `out` is unspecified.
SurfaceProblem clean_surface(const float* xyz, int64_t vertex_count, const uint32_t* triangles,
                             int64_t triangle_count, Surface& out, CleanupReport& report,
                             int64_t& problem_index);

}  // namespace sb
