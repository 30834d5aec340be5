// Moving the vertices of a tet mesh to raise the quality of its worst tets (tet_improvement.h, step
// 3): a free inner vertex anywhere, a surface sample along its edge or within its face
// (SurfaceSlide). Shared by the improvement's steps; split from tet_improvement.cpp by job.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "meshing/tet_improvement.h"
#include "meshing/tetrahedralizer.h"

namespace sb::tet_moves {

constexpr double kMinQuality = 0.1;  // the least quality the improvement aims to leave

inline double quality_of(const std::vector<double>& p, const uint32_t* t) {
  return tet_quality(&p[3 * size_t(t[0])], &p[3 * size_t(t[1])], &p[3 * size_t(t[2])], &p[3 * size_t(t[3])]);
}

// The improvement's work, in tets evaluated (quality of a star, tets replaced or made, cavity tets),
// with a bound so that no input can make it run long: once spent, nothing more is tried.
struct Work {
  int64_t left;
};

// The worst quality of the tets listed in star (0 or less when one is flat or inverted).
inline double star_quality(const std::vector<double>& p, const std::vector<uint32_t>& tets, const uint32_t* star, size_t count,
                           Work& work, uint32_t* worst = nullptr) {
  work.left -= int64_t(count);
  double m = HUGE_VAL;
  for (size_t i = 0; i < count; ++i) {
    const double q = quality_of(p, &tets[4 * size_t(star[i])]);
    if (q < m) {
      m = q;
      if (worst) *worst = star[i];
    }
  }
  return m;
}

struct SlideFrame;  // where a surface sample may move (tet_moves.cpp)

// Moves vertex v to raise the worst quality of the tets in its star (all of the tets using v):
// first to its neighbours' centroid if that helps (Laplacian smoothing), then by line searches
// along the gradient of the worst tet's quality, which may change from step to step. Every step
// is accepted only if the star's worst quality rises, so no tet turns flat or inverted. Returns
// the star's worst quality at the end.
// With `slide`, v is a surface sample and every position tried is moved onto its edge or face first
// (the gradient made tangent to it).
double optimize_vertex(std::vector<double>& positions, const std::vector<uint32_t>& tets, uint32_t v,
                       const uint32_t* star, size_t count, Work& work, const SlideFrame* slide = nullptr);

// Step 3's last part (tet_improvement.h): the surface samples of tets below kMinQuality slide along
// the surface, with the free inner vertices around them (tet_moves.cpp). star_start / star: the
// tets of each vertex (CSR); pinned: the vertices on the mesh's boundary or fixed. `unslid` gets the
// positions before, if anything moved (else it is left empty).
void slide_surface_samples(std::vector<double>& positions, const std::vector<uint32_t>& tets,
                           const std::vector<uint8_t>& fixed, const std::vector<uint8_t>& pinned,
                           const std::vector<uint32_t>& star_start, const std::vector<uint32_t>& star, double target,
                           const SurfaceSlides& slides, std::vector<double>& unslid, Work& work, ImprovementStats& stats);

}  // namespace sb::tet_moves
