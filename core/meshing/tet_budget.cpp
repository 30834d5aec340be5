// How many tets a tetrahedralization will give, before it runs (issue 26: a body 30x heavier than
// the resolution suggested, with no warning). Tetrahedralizer::estimate_tets and what it measures.
#include <algorithm>
#include <iterator>
#include <cmath>

#include "math/point_grid.h"
#include "meshing/delaunay.h"
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
    SpacingOverrides o;
    o.fine_scale = fine_scale_;
    spacing_ = std::make_unique<SurfaceSpacing>(surface_spacing(surface_.positions, surface_.triangles, *rays_, o));
    // Parts under a cell are the ones sampled by their thickness (finer than half a cell).
    stats_.thinnest = spacing_->thinnest > 0 && spacing_->thinnest < 1.0 ? spacing_->thinnest * cell_ : 0.0;
    // A triangular rod's 60 degree edges, sampled across by its thickness, leave a few flat tets
    // along them that the improvement does not mend (1-4 of 1,600-10,000 at 0.066-0.0999 on rods of
    // 2-5 cm sides): cut as Coarsen cuts them, for -0.12 % of the volume at most (measured).
    if (spacing_->rod_faces > 0) options_.min_quality = std::max(options_.min_quality, kCoarsenMinQuality);
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
  const double volume = std::fabs(stats_.cleanup.volume + stats_.thickened_volume - stats_.dropped_volume) / (cell_ * cell_ * cell_);  // grid units^3
  const double thick_area = spaced ? std::max(0.0, area - spacing.thin_area) : area;
  const double interior = options_.resolution > 0 ? std::max(0.0, volume - 0.5 * thick_area) : 0.0;
  const double surface = spaced ? kSamplesPerEstimate * spacing.samples_estimate : double(p.size() / 3);
  const double medial = spaced ? kSamplesPerEstimate * spacing.medial_estimate : 0.0;
  stats_.estimated_surface_points = int64_t(surface);
  stats_.estimated_interior_points = int64_t(interior);
  stats_.estimated_medial_points = int64_t(medial);
  return std::max<int64_t>(1, int64_t(std::min(9e18, kTetsPerPoint * (surface + interior + medial))));
}

bool Tetrahedralizer::restart_under_bound() {
  const int64_t result = stats_.tets, estimate = stats_.estimated_tets;
  out_positions_.clear();  // a result over the bound is never handed over
  out_tets_.clear();
  if (options_.thin_parts == ThinParts::Sample || stats_.bound_retries >= kMaxBoundRetries || estimate <= 1) {
    stats_.over_bound_tets = result;
    stats_.vertices = stats_.tets = stats_.parts = 0;
    stats_.volume = stats_.min_quality = stats_.mean_quality = 0;
    std::fill(std::begin(stats_.quality_histogram), std::end(stats_.quality_histogram), int64_t(0));
    return false;
  }
  // The estimate missed by result / estimate; the next one must fit the bound scaled by that, and
  // be below this one, so the choice goes one step coarser at least.
  const int64_t next =
      std::min(estimate - 1, int64_t(double(options_.max_tets) * double(estimate) / double(result)));
  TetraStats fresh = initial_stats_;
  fresh.milliseconds = stats_.milliseconds;
  fresh.sampling_ms = stats_.sampling_ms;
  fresh.delaunay_ms = stats_.delaunay_ms;
  fresh.inside_ms = stats_.inside_ms;
  fresh.improve_ms = stats_.improve_ms;
  fresh.finish_ms = stats_.finish_ms;
  fresh.bound_retries = stats_.bound_retries + 1;
  fresh.over_bound_tets = result;
  stats_ = fresh;
  bound_ = std::max<int64_t>(1, next);
  if (unchanged_) surface_ = *unchanged_;
  options_.min_quality = min_quality_;
  fine_scale_ = 1.0;
  spacing_.reset();
  rays_.reset();
  query_.reset();
  points_.clear();
  medial_points_.clear();
  lattice_sides_.clear();
  slides_.of_point.clear();
  medial_grid_.reset();
  delaunay_.reset();
  candidates_.clear();
  inside_.clear();
  classify_next_ = grid_next_ = 0;
  overlap_volume_ = 0;
  return true;
}

}  // namespace sb
