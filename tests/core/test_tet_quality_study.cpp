// Issue 26, quality >= 0.1 on every mesh: studies over shapes nobody tuned for (random corner pulls,
// fins of several thicknesses under several bounds). Skipped by default; run with
//   ./build-native/softbody_tests --no-skip -tc='Study: tet quality*'
// They print the min quality, the tets below 0.1, the count and the volume of each case, and the
// distribution over a family (what docs/limitations.md and docs/tetrahedralizer.md quote).
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "meshing/tetrahedralizer.h"
#include "surfaces.h"
#include "tetra_run.h"

using namespace sb;
using namespace testing_surfaces;

namespace {

// A 1 x 0.6 x 0.5 m block with a fin `thickness` m thick, 0.4 m long, standing 0.3 m out of its top
// (a second box sunk 0.2 m: a soup), as in test_tet_bound.cpp.
Soup study_fin(float thickness) {
  Soup s = box(1.0f, 0.6f, 0.5f);
  append_moved(s, box(thickness, 0.4f, 0.5f), 0.5f - 0.5f * thickness, 0.1f, 0.3f);
  return s;
}

// The same block and fin as one closed surface (the fin's walls on a hole in the block's top), as in
// test_tet_bound.cpp.
Soup study_fused_fin() {
  Soup s;
  const float outer[4][2] = {{0, 0}, {1, 0}, {1, 0.6f}, {0, 0.6f}};
  const float hole[4][2] = {{0.4975f, 0.1f}, {0.5025f, 0.1f}, {0.5025f, 0.5f}, {0.4975f, 0.5f}};
  for (const auto& q : outer) s.positions.insert(s.positions.end(), {q[0], q[1], 0.0f});
  for (const auto& q : outer) s.positions.insert(s.positions.end(), {q[0], q[1], 0.5f});
  for (const auto& q : hole) s.positions.insert(s.positions.end(), {q[0], q[1], 0.5f});
  for (const auto& q : hole) s.positions.insert(s.positions.end(), {q[0], q[1], 0.8f});
  auto quad = [&](uint32_t a, uint32_t b, uint32_t c, uint32_t d) { s.triangles.insert(s.triangles.end(), {a, b, c, a, c, d}); };
  quad(3, 2, 1, 0);
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t j = (i + 1) % 4;
    quad(i, j, 4 + j, 4 + i);
    quad(4 + i, 4 + j, 8 + j, 8 + i);
    quad(8 + i, 8 + j, 12 + j, 12 + i);
  }
  quad(12, 13, 14, 15);
  return s;
}

// The unit cube's corner (1, 1, 1) pulled to within `distance` m of one of its three neighbours
// (chosen at random), in a random direction (uniform on the sphere).
Soup random_pull(Rng& rng, double distance, double* where) {
  const double neighbours[3][3] = {{0, 1, 1}, {1, 0, 1}, {1, 1, 0}};
  const auto n = size_t(rng.next() % 3);
  const double z = 2 * rng.uniform() - 1, phi = 2 * 3.14159265358979323846 * rng.uniform();
  const double r = std::sqrt(std::max(0.0, 1 - z * z));
  for (int k = 0; k < 3; ++k) where[k] = neighbours[n][k] + distance * (k == 0 ? r * std::cos(phi) : k == 1 ? r * std::sin(phi) : z);
  return pulled_box(float(where[0]), float(where[1]), float(where[2]));
}

void summary(const char* what, std::vector<double> q) {
  std::sort(q.begin(), q.end());
  const auto below = std::count_if(q.begin(), q.end(), [](double x) { return x < 0.1; });
  std::printf("%s: %zu cases, %td below 0.1, min %.3f, 10th pct %.3f, median %.3f\n", what, q.size(), below, q.front(),
              q[q.size() / 10], q[q.size() / 2]);
}

}  // namespace

TEST_CASE("Study: tet quality of boxes with a corner pulled close to a neighbour" * doctest::skip()) {
  for (const int resolution : {10, 20})
    for (const uint64_t seed : {1001u, 2002u, 3003u, 4004u}) {
      Rng rng(seed);
      std::vector<double> qualities;
      for (int i = 0; i < 36; ++i) {
        const double distance = i % 2 == 0 ? 0.0076 : 0.002 + 0.023 * rng.uniform();
        double at[3];
        const Soup s = random_pull(rng, distance, at);
        const testing_tetra::Result r = testing_tetra::mesh(s, 0, ThinParts::Sample, resolution);
        const double q = r.status == TetraStatus::Done ? r.stats.min_quality : -1;
        qualities.push_back(q);
        const double volume_error = r.stats.volume / r.stats.cleanup.volume - 1;
        if (q < 0.1 || i < 2)
          std::printf("  r%d seed %llu #%d (%.6f, %.6f, %.6f): min q %.3f, below 0.1 %lld, tets %lld, parts %lld, volume %+.3f %%\n",
                      resolution, (unsigned long long)seed, i, at[0], at[1], at[2], q, (long long)r.stats.quality_histogram[0],
                      (long long)r.stats.tets, (long long)r.stats.parts, 100 * volume_error);
      }
      char label[64];
      std::snprintf(label, sizeof label, "pulled boxes, r%d, seed %llu", resolution, (unsigned long long)seed);
      summary(label, qualities);
    }
}

TEST_CASE("Study: tet quality of fins sunk into a block, thickened or coarsened under a bound" * doctest::skip()) {
  std::vector<double> qualities;
  for (const ThinParts choice : {ThinParts::Thicken, ThinParts::Coarsen})
    for (const float thickness : {0.002f, 0.003f, 0.005f, 0.008f, 0.010f, 0.020f, 0.0f})  // 0: the fused 5 mm fin
      for (const int64_t bound : {5000, 8000, 12000, 15000, 20000, 30000}) {
        const testing_tetra::Result r =
            testing_tetra::mesh(thickness > 0 ? study_fin(thickness) : study_fused_fin(), bound, choice);
        const double q = r.status == TetraStatus::Done ? r.stats.min_quality : -1;
        if (r.status == TetraStatus::Done) qualities.push_back(q);
        std::printf("  %s fin %.0f mm (0: fused 5 mm) under %lld: %s min q %.3f, below 0.1 %lld, tets %lld, parts %lld, volume %+.3f %%, "
                    "thickened to %.1f mm, spacing %.1f mm\n",
                    choice == ThinParts::Thicken ? "thickened" : "coarsened", 1000 * thickness, (long long)bound,
                    r.status == TetraStatus::Done ? "" : "(not done)", q, (long long)r.stats.quality_histogram[0],
                    (long long)r.stats.tets, (long long)r.stats.parts,
                    100 * (r.stats.volume / r.stats.surface_volume - 1), 1000 * r.stats.thickened_to,
                    1000 * r.stats.coarsened_spacing);
      }
  summary("fins", qualities);
}

TEST_CASE("Study: tet quality of one case from the environment (SB_STUDY_PULL or SB_STUDY_FIN)" * doctest::skip()) {
  if (const char* pull = std::getenv("SB_STUDY_PULL")) {
    double x = 0, y = 0, z = 0;
    int cells = 10;
    std::sscanf(pull, "%lf,%lf,%lf,%d", &x, &y, &z, &cells);
    const testing_tetra::Result r = testing_tetra::mesh(pulled_box(float(x), float(y), float(z)), 0, ThinParts::Sample, cells);
    std::printf("min q %.4f below 0.1 %lld tets %lld peeled %lld refinement %lld volume %+.4f %%\n", r.stats.min_quality,
                (long long)r.stats.quality_histogram[0], (long long)r.stats.tets, (long long)r.stats.peeled,
                (long long)r.stats.refinement_points, 100 * (r.stats.volume / r.stats.cleanup.volume - 1));
  }
  if (const char* fin = std::getenv("SB_STUDY_FIN")) {
    double mm = 5;
    long long bound = 12000;
    char choice = 't';
    std::sscanf(fin, "%lf,%lld,%c", &mm, &bound, &choice);
    const testing_tetra::Result r =
        testing_tetra::mesh(mm > 0 ? study_fin(float(mm / 1000)) : study_fused_fin(), bound,
                            choice == 'c' ? ThinParts::Coarsen : ThinParts::Thicken);
    std::printf("estimate %lld as sampled %lld thinnest %.2f mm ", (long long)r.stats.estimated_tets, (long long)r.stats.estimated_tets_as_sampled, 1000 * r.stats.thinnest);
    std::printf("status %d min q %.4f below 0.1 %lld tets %lld parts %lld peeled %lld refinement %lld volume %+.4f %% thickened %.2f mm spacing %.2f mm retries %lld\n",
                int(r.status), r.stats.min_quality, (long long)r.stats.quality_histogram[0], (long long)r.stats.tets, (long long)r.stats.parts,
                (long long)r.stats.peeled, (long long)r.stats.refinement_points,
                100 * (r.stats.volume / r.stats.surface_volume - 1), 1000 * r.stats.thickened_to,
                1000 * r.stats.coarsened_spacing, (long long)r.stats.bound_retries);
  }
}
