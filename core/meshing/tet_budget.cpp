// How many tets a tetrahedralization will give, before it runs (issue 26: a body 30x heavier than
// the resolution suggested, with no warning). Tetrahedralizer::estimate_tets and what it measures.
#include <algorithm>
#include <cmath>

#include "meshing/surface_query.h"
#include "meshing/surface_spacing.h"
#include "meshing/tetrahedralizer.h"
#include "meshing/thickness_rays.h"

namespace sb {

namespace {

// Greedy thinning at spacing s keeps about this many samples per area / s^2 (a hexagonal packing
// would keep 1.15; measured 0.5-0.8 on the shapes of the tests).
constexpr double kSamplesPerEstimate = 0.65;

}  // namespace

void Tetrahedralizer::prepare() {
  if (query_) return;
  query_ = std::make_unique<SurfaceQuery>(surface_.positions, surface_.triangles);
  rays_ = std::make_unique<ThicknessRays>(surface_.positions, surface_.triangles, *query_);
  if (options_.thin_surface) {
    spacing_ = std::make_unique<SurfaceSpacing>(surface_spacing(surface_.positions, surface_.triangles, *rays_));
    // Parts under a cell are the ones sampled by their thickness (finer than half a cell).
    stats_.thinnest = spacing_->thinnest > 0 && spacing_->thinnest < 1.0 ? spacing_->thinnest * cell_ : 0.0;
  }
}

int64_t Tetrahedralizer::estimate_tets() {
  if (problem_ != SurfaceProblem::None) return 0;
  if (stats_.estimated_tets > 0) return stats_.estimated_tets;
  prepare();
  stats_.estimated_tets = spacing_ ? estimate_with(*spacing_) : estimate_with(SurfaceSpacing{});
  return stats_.estimated_tets;
}

int64_t Tetrahedralizer::estimate_with(const SurfaceSpacing& spacing) {
  const bool spaced = bool(spacing_);
  const std::vector<double>& p = surface_.positions;  // grid units
  const std::vector<uint32_t>& t = surface_.triangles;
  double area = 0;  // grid units^2
  for (size_t f = 0; f < t.size(); f += 3) {
    const double* a = &p[3 * size_t(t[f])];
    const double* b = &p[3 * size_t(t[f + 1])];
    const double* c = &p[3 * size_t(t[f + 2])];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    area += 0.5 * std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  }
  // Grid points are kept over half a cell inside: about the volume less a half-cell band under the
  // surface (none in parts under a cell thick, whose area then holds no volume of its own).
  const double volume = std::fabs(stats_.cleanup.volume + stats_.thickened_volume) / (cell_ * cell_ * cell_);  // grid units^3
  const double thick_area = spaced ? std::max(0.0, area - spacing.thin_area) : area;
  const double interior = options_.resolution > 0 ? std::max(0.0, volume - 0.5 * thick_area) : 0.0;
  const double surface = spaced ? kSamplesPerEstimate * spacing.samples_estimate : double(p.size() / 3);
  const double medial = spaced ? kSamplesPerEstimate * spacing.medial_estimate : 0.0;
  stats_.estimated_surface_points = int64_t(surface);
  stats_.estimated_interior_points = int64_t(interior);
  stats_.estimated_medial_points = int64_t(medial);
  return std::max<int64_t>(1, int64_t(std::min(9e18, kTetsPerPoint * (surface + interior + medial))));
}

}  // namespace sb
