// Points on the lids of an open surface's openings: where the generalized winding number draws the
// solid's boundary across a hole of the surface, no face is, so no sample was, and the tets there
// spanned from the rim to grid points half a cell below (an open hemisphere kept tets of quality
// 0.075 there). Each loop of open edges is spanned by a fan from its centroid and sampled like a
// face; the caller keeps the points where the winding number is near 1/2 (a planar loop's fan lies
// on that level; a tube end sunk inside another piece does not bound the solid).
#pragma once
#include <cstdint>
#include <vector>

namespace sb {

struct LidCandidates {
  std::vector<double> points;   // xyz, the surface's units
  std::vector<double> normals;  // per point, the lid's outward unit normal (the loop's)
};

// positions and outward triangles of a cleaned surface; spacing: between candidates (same units).
LidCandidates opening_lid_candidates(const std::vector<double>& positions, const std::vector<uint32_t>& triangles,
                                     double spacing);

}  // namespace sb
