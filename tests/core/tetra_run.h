// Meshing a test surface to completion under a tet bound and a thin-parts choice
// (test_tet_bound.cpp, test_thin_choice.cpp).
#pragma once
#include <doctest.h>

#include <cstdint>
#include <vector>

#include "meshing/tetrahedralizer.h"
#include "surfaces.h"

namespace testing_tetra {

struct Result {
  sb::TetraStatus status;
  sb::TetraStats stats;
  std::vector<float> positions;
  std::vector<uint32_t> tets;
};

inline Result mesh(const testing_surfaces::Soup& s, int64_t max_tets, sb::ThinParts choice, int resolution = 10) {
  sb::TetraOptions o;
  o.resolution = resolution;
  o.max_tets = max_tets;
  o.thin_parts = choice;
  sb::Tetrahedralizer t(s.positions.data(), s.vertex_count(), s.triangles.data(), s.triangle_count(), o);
  REQUIRE(t.problem() == sb::SurfaceProblem::None);
  sb::TetraStatus status;
  while ((status = t.run(1 << 20)) == sb::TetraStatus::Working) {
  }
  return {status, t.stats(), t.positions(), t.tets()};
}

}  // namespace testing_tetra
