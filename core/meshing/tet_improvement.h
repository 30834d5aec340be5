// Improving the tets the Delaunay step left inside a surface, instead of only deleting bad ones:
//   1. peel: a poor tet with a face on the boundary and all four vertices on the surface is a flat
//      sliver lying on the surface (four nearly cocircular surface samples); removing it exposes
//      the tets beneath and loses only its own, tiny volume. Repeated while such tets are exposed.
//   2. refine: a poor tet still there gets a new free vertex at its circumcentre (or centroid),
//      inserted into the tets whose circumspheres hold it (Bowyer-Watson, locally), when that
//      makes the worst tet there better; at most kMaxGrowth more vertices in all.
//   3. smooth: each interior vertex of a poor tet moves, by line searches along the gradient of its
//      worst tet's quality, to where the worst quality of the tets around it is highest, keeping
//      every one of them positive. Surface vertices stay where they are (they sample the surface).
// Smoothing keeps connectivity; peeling only removes tets; refinement adds vertices at the end.
#pragma once
#include <cstdint>
#include <vector>

namespace sb {

struct ImprovementStats {
  int64_t peeled = 0;          // boundary slivers removed
  double peeled_volume = 0;    // their volume, in the positions' units cubed
  int64_t inserted = 0;        // vertices added by refinement
  int64_t vertices_moved = 0;  // smoothing moves accepted (a vertex can move in several passes)
  double min_quality_before = 0, min_quality_after = 0;
};

constexpr double kMaxGrowth = 0.3;  // refinement adds at most this fraction of the vertex count

// positions: xyz doubles, modified by smoothing and grown by refinement (fixed grows with it); tets: 4 ids each, positively oriented, modified by
// peeling; fixed[v] != 0 for vertices that must not move (surface samples). Tets below `target`
// quality (tet_quality) are worked on.
ImprovementStats improve_tets(std::vector<double>& positions, std::vector<uint32_t>& tets,
                              std::vector<uint8_t>& fixed, double target);

}  // namespace sb
