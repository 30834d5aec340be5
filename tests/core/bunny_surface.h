// The Stanford bunny (npm `bunny`, compiled in as bunny_mesh.h) as a triangle soup, for the
// tetrahedralizer's tests, digests and comparisons.
#pragma once
#include <bunny_mesh.h>

#include "surfaces.h"

namespace testing_surfaces {

inline Soup bunny_soup() {
  Soup s;
  s.positions.assign(bunny::kPositions, bunny::kPositions + 3 * bunny::kVertexCount);
  s.triangles.assign(bunny::kTriangles, bunny::kTriangles + 3 * bunny::kTriangleCount);
  return s;
}

}  // namespace testing_surfaces
