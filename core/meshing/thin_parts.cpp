// The choice offered when thin parts, sampled by their thickness, would take a job over its
// max_tets (issue 26, item 2): thicken them (offset the thin sheets outward, a documented change of
// the geometry) or mesh them coarser (fewer samples across than two). TetraOptions::thin_parts.
#include <algorithm>
#include <cmath>

#include "meshing/surface_query.h"
#include "meshing/surface_spacing.h"
#include "meshing/tetrahedralizer.h"
#include "meshing/thickness_rays.h"

namespace sb {

namespace {

// Volume enclosed by a surface (divergence theorem about its first vertex, which keeps the sum's
// terms small), in the positions' units cubed.
double enclosed_volume(const std::vector<double>& p, const std::vector<uint32_t>& t) {
  if (p.empty()) return 0;
  const double* o = p.data();
  double v6 = 0;
  for (size_t f = 0; f < t.size(); f += 3) {
    const double* a = &p[3 * size_t(t[f])];
    const double* b = &p[3 * size_t(t[f + 1])];
    const double* c = &p[3 * size_t(t[f + 2])];
    const double u[3] = {a[0] - o[0], a[1] - o[1], a[2] - o[2]}, v[3] = {b[0] - o[0], b[1] - o[1], b[2] - o[2]},
                 w[3] = {c[0] - o[0], c[1] - o[1], c[2] - o[2]};
    v6 += u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
  }
  return v6 / 6.0;
}

}  // namespace

bool Tetrahedralizer::fit_thin_parts() {
  if (options_.thin_parts == ThinParts::Sample || !spacing_ || !(spacing_->thinnest > 0) || spacing_->thinnest >= 1.0)
    return false;
  stats_.estimated_tets_as_sampled = stats_.estimated_tets;
  return options_.thin_parts == ThinParts::Thicken ? thicken_thin_parts() : coarsen_thin_parts();
}

// The estimate changes only where a thickness crosses a spacing level's edge (t = 2^-l cells, two
// samples across at 2^-l / 2), so the candidate thicknesses are those: the thinnest that fits wins.
// Then every vertex of a face thinner than it moves outward by half the difference, along the mean
// of its thin faces' normals m scaled by 1 / |m|^2 (a convex edge between two faces at angle a
// needs 1 / cos(a / 2) along the bisector to move each face by the same distance).
bool Tetrahedralizer::thicken_thin_parts() {
  const std::vector<double> thickness = spacing_->face_thickness;  // grid units, 0 where none was measured
  double target = 0;
  for (int level = 0; level <= kMaxSpacingLevel; ++level) {
    const double t = 1.0 / double(int64_t(1) << level);
    if (!(t > spacing_->thinnest)) break;
    SpacingOverrides o;
    o.face_thickness = &thickness;
    o.min_thickness = kThickenMargin * t;
    const int64_t estimate = estimate_with(surface_spacing(surface_.positions, surface_.triangles, *rays_, o));
    if (level == 0) stats_.choice_floor_tets = estimate;
    if (estimate > options_.max_tets) break;
    target = kThickenMargin * t;
  }
  if (!(target > 0)) {
    estimate_with(*spacing_);  // the stats' point estimates back to the surface as sampled
    return false;
  }
  std::vector<double>& p = surface_.positions;
  const std::vector<uint32_t>& t = surface_.triangles;
  const double before = enclosed_volume(p, t);
  std::vector<double> offset(p.size() / 3, 0.0), normal_sum(p.size(), 0.0);
  std::vector<int32_t> thin_faces(p.size() / 3, 0);
  for (size_t f = 0; f < t.size() / 3; ++f) {
    const double h = thickness[f];
    if (!(h > 0) || !(h < target)) continue;
    for (int k = 0; k < 3; ++k) {
      const uint32_t v = t[3 * f + size_t(k)];
      offset[v] = std::max(offset[v], 0.5 * (target - h));
      for (int c = 0; c < 3; ++c) normal_sum[3 * size_t(v) + size_t(c)] += spacing_->face_normal[3 * f + size_t(c)];
      ++thin_faces[v];
    }
  }
  for (size_t v = 0; v < offset.size(); ++v) {
    if (thin_faces[v] == 0) continue;
    double m[3], m2 = 0;
    for (int c = 0; c < 3; ++c) {
      m[c] = normal_sum[3 * v + size_t(c)] / thin_faces[v];
      m2 += m[c] * m[c];
    }
    // |m| under 1/2 (faces folding back on each other): the bisector rule would move the vertex far.
    m2 = std::max(m2, 0.25);
    for (int c = 0; c < 3; ++c) p[3 * v + size_t(c)] += offset[v] * m[c] / m2;
  }
  stats_.thickened_to = target * cell_;
  stats_.thickened_volume = (enclosed_volume(p, t) - before) * cell_ * cell_ * cell_;
  stats_.surface_volume = stats_.cleanup.volume + stats_.thickened_volume;
  // Measure the new surface as the job would have measured the input.
  const double thinnest = stats_.thinnest;  // the input's, which the stats keep
  spacing_.reset();
  rays_.reset();
  query_.reset();
  prepare();
  stats_.thinnest = thinnest;
  stats_.estimated_tets = estimate_with(*spacing_);
  // Measured again, the thickened surface can still be over (its new faces' own thickness, curvature):
  // then that is as far as thickening got.
  stats_.choice_floor_tets = stats_.estimated_tets > options_.max_tets ? stats_.estimated_tets : 0;
  return stats_.estimated_tets <= options_.max_tets;
}

// Levels capped from the finest down: the first cap whose estimate fits is the finest spacing the
// bound allows; none coarser than kMaxSpacingPerThickness x the thinnest part (its two sides would
// merge and its tets would be flatter than the improvement mends).
bool Tetrahedralizer::coarsen_thin_parts() {
  int finest = 0;
  for (uint8_t l : spacing_->face_level) finest = std::max<int>(finest, l);
  for (uint8_t l : spacing_->vertex_level) finest = std::max<int>(finest, l);
  const int coarsest = level_of_spacing(kMaxSpacingPerThickness * spacing_->thinnest);
  const std::vector<double> thickness = spacing_->face_thickness;
  stats_.choice_floor_tets = stats_.estimated_tets;  // when the budget already sampled them that coarsely
  for (int cap = finest - 1; cap >= coarsest; --cap) {
    SpacingOverrides o;
    o.face_thickness = &thickness;
    o.level_cap = cap;
    SurfaceSpacing capped = surface_spacing(surface_.positions, surface_.triangles, *rays_, o);
    const int64_t estimate = estimate_with(capped);
    stats_.choice_floor_tets = estimate;
    if (estimate > options_.max_tets) continue;
    *spacing_ = std::move(capped);
    // Fewer samples across a part than two leave poor tets where it is round rather than flat (a
    // torus knot's tube 0.8 cells thick coarsened to half a cell: min quality 0.022): the choice
    // keeps quality 0.1, cutting what the improvement leaves below it.
    options_.min_quality = std::max(options_.min_quality, kCoarsenMinQuality);
    stats_.coarsened_spacing = spacing_of_level(cap) * cell_;
    stats_.estimated_tets = estimate;
    stats_.choice_floor_tets = 0;  // only a refusal has a floor
    return true;
  }
  estimate_with(*spacing_);
  return false;
}

}  // namespace sb
