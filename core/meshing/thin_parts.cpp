// The choice offered when thin parts, sampled by their thickness, would take a job over its
// max_tets (issue 26, item 2): thicken them (offset the thin sheets outward, a documented change of
// the geometry) or mesh them coarser (fewer samples across than two). TetraOptions::thin_parts.
#include <algorithm>
#include <cmath>

#include "meshing/surface_query.h"
#include "meshing/surface_spacing.h"
#include "meshing/tetrahedralizer.h"
#include "meshing/thickness_rays.h"
#include "meshing/union_find.h"

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

// The same with every opening (a loop of edges with one face) closed by a fan from its vertices'
// centroid: exact for a planar opening, as where a dropped fin met a block's face.
double closed_volume(const std::vector<double>& p, const std::vector<uint32_t>& t) {
  double volume = enclosed_volume(p, t);
  std::vector<uint64_t> directed(t.size());
  for (size_t f = 0; f < t.size(); f += 3)
    for (size_t k = 0; k < 3; ++k) directed[f + k] = uint64_t(t[f + k]) << 32 | t[f + (k + 1) % 3];
  std::sort(directed.begin(), directed.end());
  std::vector<std::pair<uint32_t, uint32_t>> open;  // (a, b) of a face, with no face holding (b, a)
  for (uint64_t e : directed) {
    const uint32_t a = uint32_t(e >> 32), b = uint32_t(e);
    if (!std::binary_search(directed.begin(), directed.end(), uint64_t(b) << 32 | a)) open.push_back({a, b});
  }
  if (open.empty()) return volume;
  const size_t n = p.size() / 3;
  UnionFind loops(n);
  for (const auto& [a, b] : open) loops.join(a, b);
  std::vector<double> centre(3 * n, 0.0), count(n, 0.0);
  for (const auto& [a, b] : open) {
    const auto r = size_t(loops.find(a));
    for (int c = 0; c < 3; ++c) centre[3 * r + size_t(c)] += p[3 * size_t(a) + size_t(c)];
    count[r] += 1;
  }
  std::vector<double> lid;  // positions: the surface's, then one centre per loop
  std::vector<uint32_t> fan;
  lid = p;
  std::vector<uint32_t> centre_id(n, 0);
  for (size_t r = 0; r < n; ++r)
    if (count[r] > 0) {
      centre_id[r] = uint32_t(lid.size() / 3);
      for (int c = 0; c < 3; ++c) lid.push_back(centre[3 * r + size_t(c)] / count[r]);
    }
  for (const auto& [a, b] : open) fan.insert(fan.end(), {b, a, centre_id[size_t(loops.find(a))]});
  // enclosed_volume measures about the first vertex, as above: the sums add up.
  return volume + enclosed_volume(lid, fan);
}

// Faces that measured no thickness (0) take a thin neighbour's across an edge where the two are
// coplanar, spreading over the plane: a thin part's wall that runs into another piece (a fin sunk
// into a block) has faces whose rays start inside that piece and measure nothing; offset without
// them, the wall folds along their shared edge (its corners inside the block stay put), and the
// fold's samples made flat tets in the fin (min quality 0.056 thickened under 20,000).
std::vector<double> thickness_across_flat_edges(const std::vector<uint32_t>& t, const std::vector<double>& normal,
                                                std::vector<double> thickness) {
  std::vector<std::pair<uint64_t, uint32_t>> sides;  // (edge, face)
  for (size_t f = 0; f < t.size() / 3; ++f)
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = t[3 * f + size_t(k)], b = t[3 * f + size_t((k + 1) % 3)];
      sides.push_back({uint64_t(std::min(a, b)) << 32 | std::max(a, b), uint32_t(f)});
    }
  std::sort(sides.begin(), sides.end());
  std::vector<std::pair<uint32_t, uint32_t>> flat;  // coplanar faces across an edge
  for (size_t i = 0; i + 1 < sides.size(); ++i) {
    if (sides[i].first != sides[i + 1].first) continue;
    const double* m = &normal[3 * size_t(sides[i].second)];
    const double* n = &normal[3 * size_t(sides[i + 1].second)];
    if (m[0] * n[0] + m[1] * n[1] + m[2] * n[2] > 1 - 1e-6) flat.push_back({sides[i].second, sides[i + 1].second});
  }
  for (bool spread = true; spread;) {
    spread = false;
    for (const auto& [f, g] : flat)
      if ((thickness[f] > 0) != (thickness[g] > 0)) {
        thickness[thickness[f] > 0 ? g : f] = std::max(thickness[f], thickness[g]);
        spread = true;
      }
  }
  return thickness;
}

}  // namespace

bool Tetrahedralizer::fit_thin_parts() {
  if (options_.thin_parts == ThinParts::Sample || !spacing_ || !(spacing_->thinnest > 0) || spacing_->thinnest >= 1.0)
    return false;
  stats_.estimated_tets_as_sampled = stats_.estimated_tets;
  switch (options_.thin_parts) {
    case ThinParts::Thicken:
      return thicken_thin_parts();
    case ThinParts::Coarsen:
      return coarsen_thin_parts();
    case ThinParts::Drop:
      return drop_thin_parts();
    case ThinParts::Sample:
      break;
  }
  return false;
}

// The changed surface measured as the job measured the input (its stats keep the input's thinnest
// part): new scaffolding and spacing, and the estimate into stats_.estimated_tets.
void Tetrahedralizer::remeasure() {
  const double thinnest = stats_.thinnest;
  spacing_.reset();
  rays_.reset();
  query_.reset();
  prepare();
  stats_.thinnest = thinnest;
  stats_.estimated_tets = estimate_with(*spacing_);
}

// At the spacing levels the estimate changes only where a thickness crosses a level's edge (t = 2^-l
// cells, two samples across at 2^-l / 2): the thinnest level that fits, and between it and the
// next a continuous thickness with its spacing scaled to match (SurfaceSpacing::fine_scale), chosen
// so the estimate lands at the bound. Then every vertex of a face thinner than it moves outward by half the difference, along the mean
// of its thin faces' normals m scaled by 1 / |m|^2 (a convex edge between two faces at angle a
// needs 1 / cos(a / 2) along the bisector to move each face by the same distance).
bool Tetrahedralizer::thicken_thin_parts() {
  const std::vector<double> thickness = spacing_->face_thickness;  // grid units, 0 where none was measured
  // Thicknesses whose estimate fits, thickest first, each with the fine levels' scale it is meshed at.
  std::vector<std::pair<double, double>> fitting;
  auto estimate_at = [&](double target, double scale) {
    SpacingOverrides o;
    o.face_thickness = &thickness;
    o.min_thickness = target;
    o.fine_scale = scale;
    return estimate_with(surface_spacing(surface_.positions, surface_.triangles, *rays_, o));
  };
  bool finer_over = false;  // the level after the last fitting one exists and is over the bound
  for (int level = 0; level <= kMaxSpacingLevel; ++level) {
    const double t = 1.0 / double(int64_t(1) << level);
    if (!(t > spacing_->thinnest)) break;
    const int64_t estimate = estimate_at(kThickenMargin * t, 1.0);
    if (level == 0) stats_.choice_floor_tets = estimate;
    if (estimate > bound()) {
      finer_over = true;
      break;
    }
    fitting.push_back({kThickenMargin * t, 1.0});
  }
  if (fitting.empty()) {
    estimate_with(*spacing_);  // the stats' point estimates back to the surface as sampled
    return false;
  }
  if (!unchanged_) unchanged_ = std::make_unique<Surface>(surface_);  // a retry starts from it
  const std::vector<double> face_normal = spacing_->face_normal;
  const std::vector<double> offset_thickness = thickness_across_flat_edges(surface_.triangles, face_normal, thickness);
  // Every vertex of a face thinner than `target` moved out, the surface measured again: whether its
  // estimate fits.
  auto thicken_to = [&](double target, double scale) {
    fine_scale_ = scale;
    surface_ = *unchanged_;
    std::vector<double>& p = surface_.positions;
    const std::vector<uint32_t>& t = surface_.triangles;
    const double before = enclosed_volume(p, t);
    std::vector<double> offset(p.size() / 3, 0.0), normal_sum(p.size(), 0.0);
    std::vector<int32_t> thin_faces(p.size() / 3, 0);
    for (size_t f = 0; f < t.size() / 3; ++f) {
      const double h = offset_thickness[f];
      if (!(h > 0) || !(h < target)) continue;
      for (int k = 0; k < 3; ++k) {
        const uint32_t v = t[3 * f + size_t(k)];
        offset[v] = std::max(offset[v], 0.5 * (target - h));
        for (int c = 0; c < 3; ++c) normal_sum[3 * size_t(v) + size_t(c)] += face_normal[3 * f + size_t(c)];
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
    remeasure();
    return stats_.estimated_tets <= bound();
  };
  // Between the last fitting level (t_l, its estimate as low as a quarter of the bound) and the next
  // (over it): thicker than the finer level's target m t_(l+1) and under t_l, the faces stay on level
  // l+1, spaced scale = t / (m t_(l+1)) wider: half of t / m apart, as at the levels. The estimate
  // falls with t: bisect for the thinnest t whose estimate fits the goal. Measured again, the
  // thickened surface may come out over (its rim grew: a plate's 5,000 became 5,267): then the goal
  // is lowered by that overshoot and the bisection redone, kThickenGoalTries times at most.
  if (finer_over) {
    const double coarse = fitting.back().first, finer = 0.5 * coarse;  // m t_l, m t_(l+1)
    const double edge = 0.999 * coarse / kThickenMargin;                // just under t_l: still level l+1
    double goal = double(bound());
    for (int attempt = 0; attempt < kThickenGoalTries && estimate_at(edge, edge / finer) <= goal; ++attempt) {
      double lo = finer, hi = edge;  // over the goal at lo, within it at hi
      for (int i = 0; i < kThickenBisections; ++i) {
        const double mid = 0.5 * (lo + hi);
        (double(estimate_at(mid, mid / finer)) <= goal ? hi : lo) = mid;
      }
      if (thicken_to(hi, hi / finer)) {
        stats_.choice_floor_tets = 0;
        return true;
      }
      goal *= double(bound()) / double(stats_.estimated_tets);
    }
  }
  // The levels, thinnest first; measured again, a thickened surface can be over where its estimate
  // without new rays was not (its new faces' own thickness, curvature): then the next thicker.
  for (auto target = fitting.rbegin(); target != fitting.rend(); ++target)
    if (thicken_to(target->first, target->second)) {
      stats_.choice_floor_tets = 0;
      return true;
    }
  // Even the thickest candidate, measured again, is over: that is as far as thickening got.
  stats_.choice_floor_tets = stats_.estimated_tets;
  fine_scale_ = 1.0;
  return false;
}

// The thin faces' spacing h, continuous: the coarsest level whose spacing is at most h, with the
// levels finer than a solid's scaled by h / its spacing (SurfaceSpacing::fine_scale, as Thicken
// scales them). Candidates from the finest level down: the levels, then kMaxSpacingPerThickness x
// the thinnest part (its two sides would merge beyond it, and its tets would be flatter than the
// improvement mends). Between the first that fits and the one before it (over the bound), bisected
// for the finest h whose estimate fits (unless curvature keeps samples on the level in between): the estimate steps about 4x per level, so the levels alone
// landed at a quarter to a half of a bound between two (the 5 mm plate under 8,000: 5,280).
bool Tetrahedralizer::coarsen_thin_parts() {
  int finest = 0;
  for (uint8_t l : spacing_->face_level) finest = std::max<int>(finest, l);
  for (uint8_t l : spacing_->vertex_level) finest = std::max<int>(finest, l);
  const double widest = std::min(kDefaultSpacing, kMaxSpacingPerThickness * spacing_->thinnest);  // grid units
  const std::vector<double> thickness = spacing_->face_thickness;
  auto spaced_at = [&](double h) {
    SpacingOverrides o;
    o.face_thickness = &thickness;
    o.level_cap = level_of_spacing(h);
    o.fine_scale = o.level_cap > 0 ? h / spacing_of_level(o.level_cap) : 1.0;
    o.scaled_to = o.level_cap;
    return surface_spacing(surface_.positions, surface_.triangles, *rays_, o);
  };
  std::vector<double> candidates;  // grid units, finest first
  for (int cap = finest - 1; cap >= level_of_spacing(widest); --cap) candidates.push_back(spacing_of_level(cap));
  if (candidates.empty() || widest > 1.001 * candidates.back()) candidates.push_back(widest);
  stats_.choice_floor_tets = stats_.estimated_tets;  // when the budget already sampled them that coarsely
  double over = spacing_of_level(finest), fits = 0;
  for (double h : candidates) {
    const int64_t estimate = estimate_with(spaced_at(h));
    stats_.choice_floor_tets = estimate;
    if (estimate <= bound()) {
      fits = h;
      break;
    }
    over = h;
  }
  if (!(fits > 0)) {
    estimate_with(*spacing_);
    return false;
  }
  // Scaling the level between them would widen the samples curvature keeps there too (a torus
  // knot's round tube: -10.5 % of its volume instead of -5.2 % at the coarser level): then the level.
  const bool curvature_there = spacing_->curved_finest >= level_of_spacing(std::sqrt(over * fits));
  for (int i = 0; i < kCoarsenBisections && !curvature_there; ++i) {
    const double mid = std::sqrt(over * fits);  // the levels are a factor apart: bisect the logarithm
    (estimate_with(spaced_at(mid)) <= bound() ? fits : over) = mid;
  }
  *spacing_ = spaced_at(fits);
  // Fewer samples across a part than two leave poor tets where it is round rather than flat (a
  // torus knot's tube 0.8 cells thick coarsened to half a cell: min quality 0.022): the choice
  // keeps quality 0.1, cutting what the improvement leaves below it.
  options_.min_quality = std::max(options_.min_quality, kCoarsenMinQuality);
  stats_.coarsened_spacing = fits * cell_;
  stats_.estimated_tets = estimate_with(*spacing_);
  stats_.choice_floor_tets = 0;  // only a refusal has a floor
  return true;
}

// As Thicken chooses its thickness, the thinnest part the bound meshes two samples across: parts
// thinner than it go (their faces, and the faces joining only their vertices). Openings left where
// they joined the rest become the open surface's lids (opening_lids.h). Nothing left: refused.
// The levels' thicknesses (2^-l cells) first, thickest first; then, between the last that fits and
// the next (over), the measured thicknesses in between, bisected for the lowest that fits: a part
// between two levels' thicknesses is kept when the bound holds it.
bool Tetrahedralizer::drop_thin_parts() {
  const std::vector<double> thickness = spacing_->face_thickness;
  auto estimate_below = [&](double below) {
    SpacingOverrides o;
    o.face_thickness = &thickness;
    o.drop_below = below;
    return estimate_with(surface_spacing(surface_.positions, surface_.triangles, *rays_, o));
  };
  double target = 0, over = 0;
  for (int level = 0; level <= kMaxSpacingLevel; ++level) {
    const double t = 1.0 / double(int64_t(1) << level);
    if (!(t > spacing_->thinnest)) break;
    const int64_t estimate = estimate_below(t);
    if (level == 0) stats_.choice_floor_tets = estimate;
    if (estimate > bound()) {
      over = t;
      break;
    }
    target = t;
  }
  if (!(target > 0)) {
    estimate_with(*spacing_);
    return false;
  }
  // Dropping below a thickness x in (over, target) keeps the faces at least x thick: the estimate
  // changes only at the measured thicknesses there.
  std::vector<double> between;
  for (double h : thickness)
    if (h > over && h < target) between.push_back(h);
  std::sort(between.begin(), between.end());
  between.erase(std::unique(between.begin(), between.end()), between.end());
  size_t lo = 0, hi = between.size();  // between[hi] (target when hi = size) fits; below lo is over
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (estimate_below(between[mid]) <= bound())
      hi = mid;
    else
      lo = mid + 1;
  }
  if (hi < between.size()) target = between[hi];
  const std::vector<double>& p = surface_.positions;
  const std::vector<uint32_t>& t = surface_.triangles;
  const std::vector<uint8_t> drop = dropped_faces(p, t, *rays_, thickness, target);
  // Kept faces, over the vertices they use only (sampling offers every input vertex).
  std::vector<uint32_t> kept;
  std::vector<int64_t> remap(p.size() / 3, -1);
  std::vector<double> positions;
  for (size_t f = 0; f < t.size() / 3; ++f) {
    if (drop[f]) continue;
    for (int k = 0; k < 3; ++k) {
      const uint32_t v = t[3 * f + size_t(k)];
      if (remap[v] < 0) {
        remap[v] = int64_t(positions.size() / 3);
        positions.insert(positions.end(), &p[3 * size_t(v)], &p[3 * size_t(v)] + 3);
      }
      kept.push_back(uint32_t(remap[v]));
    }
  }
  const double before = enclosed_volume(p, t), after = kept.empty() ? 0.0 : closed_volume(positions, kept);
  const double cell3 = cell_ * cell_ * cell_;
  stats_.dropped_below = target * cell_;
  stats_.dropped_faces = int64_t(t.size() / 3 - kept.size() / 3);
  stats_.dropped_volume = (before - after) * cell3;
  // Nothing (or a scrap) left: every part is thinner than the bound can mesh.
  if (!(after > 0.01 * before)) {
    stats_.choice_floor_tets = 0;
    stats_.dropped_volume = before * cell3;
    estimate_with(*spacing_);
    return false;
  }
  if (!unchanged_) unchanged_ = std::make_unique<Surface>(surface_);  // a retry starts from it
  surface_.positions = std::move(positions);
  surface_.triangles = std::move(kept);
  stats_.surface_volume = stats_.cleanup.volume - stats_.dropped_volume;
  remeasure();
  stats_.choice_floor_tets = stats_.estimated_tets > bound() ? stats_.estimated_tets : 0;
  return stats_.estimated_tets <= bound();
}

}  // namespace sb
