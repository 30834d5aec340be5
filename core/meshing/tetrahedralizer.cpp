#include "meshing/tetrahedralizer.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <numeric>

#include "meshing/delaunay.h"
#include "math/point_grid.h"
#include "meshing/surface_query.h"
#include "meshing/surface_spacing.h"
#include "meshing/tet_improvement.h"
#include "meshing/thickness_rays.h"
#include "meshing/union_find.h"
#include "shapes/tet_mesh.h"

namespace sb {

namespace {

using Clock = std::chrono::steady_clock;

double elapsed_ms(Clock::time_point since) {
  return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

}  // namespace

double tet_quality(const double* a, const double* b, const double* c, const double* d) {
  const double* p[4] = {a, b, c, d};
  double sum2 = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j)
      for (int k = 0; k < 3; ++k) sum2 += (p[i][k] - p[j][k]) * (p[i][k] - p[j][k]);
  const double l_rms = std::sqrt(sum2 / 6.0);
  if (!(l_rms > 0)) return 0.0;
  const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const double w[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
  const double v6 = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
                    u[2] * (v[0] * w[1] - v[1] * w[0]);
  return std::sqrt(2.0) * v6 / (l_rms * l_rms * l_rms);  // 6 sqrt(2) V = sqrt(2) * 6V
}

Tetrahedralizer::Tetrahedralizer(const float* xyz, int64_t vertex_count, const uint32_t* triangles,
                                 int64_t triangle_count, const TetraOptions& options)
    : options_(options), min_quality_(options.min_quality) {
  const auto start = Clock::now();
  stats_.input_vertices = vertex_count;
  stats_.input_triangles = triangle_count;
  problem_ = clean_surface(xyz, vertex_count, triangles, triangle_count, surface_, stats_.cleanup, problem_index_);
  stats_.cleanup_ms = elapsed_ms(start);
  stats_.surface_volume = stats_.cleanup.volume;  // until the Delaunay tets measure overlaps (finish)
  if (problem_ != SurfaceProblem::None) return;

  double lo[3], hi[3];
  for (int k = 0; k < 3; ++k) {
    lo[k] = HUGE_VAL;
    hi[k] = -HUGE_VAL;
  }
  for (size_t i = 0; i < surface_.positions.size(); ++i) {
    lo[i % 3] = std::min(lo[i % 3], surface_.positions[i]);
    hi[i % 3] = std::max(hi[i % 3], surface_.positions[i]);
  }
  const double longest = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
  const int res = options_.resolution;
  cell_ = longest / (res > 0 ? res : 10);
  for (int k = 0; k < 3; ++k) {
    grid_[k] = res > 0 ? std::max<int64_t>(1, int64_t(std::ceil((hi[k] - lo[k]) / cell_ - 1e-9))) : 0;
    // The grid is centred on the box, so its points sit symmetrically inside the shape.
    origin_[k] = 0.5 * (lo[k] + hi[k]) - 0.5 * double(grid_[k]) * cell_;
  }
  for (size_t i = 0; i < surface_.positions.size(); i += 3) to_internal(&surface_.positions[i], &surface_.positions[i]);
  stats_.milliseconds = elapsed_ms(start);
  initial_stats_ = stats_;
}

Tetrahedralizer::~Tetrahedralizer() = default;

void Tetrahedralizer::to_internal(const double* x, double* u) const {
  for (int k = 0; k < 3; ++k) u[k] = (x[k] - origin_[k]) / cell_ - 0.5;
}


int64_t Tetrahedralizer::scan_grid(int64_t work) {
  const int64_t total = grid_[0] * grid_[1] * grid_[2];
  int64_t done = 0;
  for (; grid_next_ < total && done < work; ++grid_next_, ++done) {
    const int64_t i = grid_next_ % grid_[0], j = (grid_next_ / grid_[0]) % grid_[1], k = grid_next_ / (grid_[0] * grid_[1]);
    const double u[3] = {double(i), double(j), double(k)};  // grid points are integers in grid units
    if (query_->any_within(u, 0.5)) continue;               // keep half a cell from the surface
    if (medial_grid_ && medial_grid_->any_near(u, [&](int64_t m) {  // and from medial points
          const double* q = &medial_points_[3 * size_t(m)];
          return (u[0] - q[0]) * (u[0] - q[0]) + (u[1] - q[1]) * (u[1] - q[1]) + (u[2] - q[2]) * (u[2] - q[2]) < 0.25;
        }))
      continue;
    if (query_->winding_number(u) <= 0.5) continue;
    points_.insert(points_.end(), u, u + 3);
    ++stats_.interior_points;
  }
  return done;
}

void Tetrahedralizer::start_delaunay() {
  points_.insert(points_.end(), medial_points_.begin(), medial_points_.end());
  std::vector<double>().swap(medial_points_);  // (v = {} keeps v's capacity)
  medial_grid_.reset();
  delaunay_ = std::make_unique<Delaunay>(points_.data(), int64_t(points_.size() / 3));
}

int64_t Tetrahedralizer::classify(int64_t work) {
  const auto total = int64_t(candidates_.size() / 4);
  int64_t done = 0;
  for (; classify_next_ < total && done < work; ++classify_next_, ++done) {
    const int32_t* t = &candidates_[4 * size_t(classify_next_)];
    double c[3] = {0, 0, 0};
    for (int v = 0; v < 4; ++v)
      for (int k = 0; k < 3; ++k) c[k] += 0.25 * points_[3 * size_t(t[v]) + size_t(k)];
    // A coarse sum first (far clusters as dipoles from 1.5 radii on: about half the work); only
    // near the 0.5 threshold the full-accuracy one decides.
    const double coarse = query_->winding_number(c, 1.5);
    inside_[size_t(classify_next_)] = std::fabs(coarse - 0.5) > 0.25 ? coarse > 0.5 : query_->winding_number(c) > 0.5;
    // Where pieces overlap the winding number is 2 or more, and the clean-up's volume (the
    // divergence theorem over every face) counts that space as often: the tets there say how much.
    // The coarse sum is within 0.08 of the exact one, so rounding it gives the count.
    if (coarse > 1.5) {
      const double* a = &points_[3 * size_t(t[0])];
      const double *b = &points_[3 * size_t(t[1])], *d = &points_[3 * size_t(t[2])], *e = &points_[3 * size_t(t[3])];
      const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]},
                   w[3] = {e[0] - a[0], e[1] - a[1], e[2] - a[2]};
      const double v6 = u[0] * (v[1] * w[2] - v[2] * w[1]) + u[1] * (v[2] * w[0] - v[0] * w[2]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
      overlap_volume_ += (std::round(coarse) - 1.0) * std::fabs(v6) / 6.0;
    }
  }
  return done;
}

void Tetrahedralizer::finish() {
  stats_.surface_volume =
      stats_.cleanup.volume + stats_.thickened_volume - stats_.dropped_volume - overlap_volume_ * cell_ * cell_ * cell_;
  std::vector<uint32_t> inside;
  const auto total = int64_t(candidates_.size() / 4);
  inside.reserve(4 * size_t(std::count(inside_.begin(), inside_.end(), uint8_t(1))));
  for (int64_t t = 0; t < total; ++t)
    if (inside_[size_t(t)]) inside.insert(inside.end(), &candidates_[4 * size_t(t)], &candidates_[4 * size_t(t)] + 4);
  std::vector<int32_t>().swap(candidates_);  // freed: v = {} would keep the capacity (18 bytes per tet)
  std::vector<uint8_t>().swap(inside_);
  // Surface samples stay put; grid points may move.
  std::vector<uint8_t> fixed(points_.size() / 3, 0);
  std::fill(fixed.begin(), fixed.begin() + stats_.surface_points, kFixedPoint);
  for (const auto& [id, side] : lattice_sides_) fixed[size_t(id)] = side;  // a tet joining the two is no film
  const auto improve_start = Clock::now();
  const ImprovementStats improved = improve_tets(points_, inside, fixed, std::max(kImproveQuality, options_.min_quality),
                                                 [&](const double* x, double r) { return query_->any_within(x, r); },
                                                 [&](const double* x) { return query_->winding_number(x, 1.5); },
                                                 slides_.of_point.empty() ? nullptr : &slides_);
  stats_.peeled = improved.peeled;
  stats_.vertices_moved = improved.vertices_moved;
  stats_.improve_evaluations = improved.evaluations;
  stats_.refinement_points = improved.inserted;
  stats_.improve_ms += elapsed_ms(improve_start);  // over every meshing (restart_under_bound)
  const auto point_count = int64_t(points_.size() / 3);

  // Positions in metres, as the solver will see them (float).
  std::vector<float> metres(points_.size());
  for (size_t i = 0; i < points_.size(); ++i)
    metres[i] = float(origin_[i % 3] + (points_[i] + 0.5) * cell_);

  std::vector<uint32_t> kept;
  std::vector<double> quality;
  for (size_t t = 0; t < inside.size() / 4; ++t) {
    const uint32_t* v = &inside[4 * t];
    const double q = tet_quality(&points_[3 * size_t(v[0])], &points_[3 * size_t(v[1])], &points_[3 * size_t(v[2])],
                                 &points_[3 * size_t(v[3])]);
    const uint32_t tet[4] = {uint32_t(v[0]), uint32_t(v[1]), uint32_t(v[2]), uint32_t(v[3])};
    // Also what check_tet_mesh demands, after rounding to float: clearly positive volume.
    const double l2 = longest_edge_sq(metres.data(), tet);
    const double v6 = tet_volume6(metres.data(), tet);
    if (q < options_.min_quality || !(v6 > 2.0 * kDegenerateRelVolume * l2 * std::sqrt(l2))) {
      ++stats_.slivers_removed;
      continue;
    }
    kept.insert(kept.end(), tet, tet + 4);
    quality.push_back(q);
  }
  std::vector<uint32_t>().swap(inside);

  // Connected parts: tets that share a face belong together. Fragments (parts below 1 % of the
  // largest one: single tets or small clusters hanging on by an edge or a vertex) would flop about
  // loose in the simulation, so they are removed; real separate pieces of a model are far larger.
  const size_t candidates = kept.size() / 4;
  const std::vector<int64_t> link = face_links(kept);
  UnionFind parts(candidates);
  for (size_t i = 0; i < link.size(); ++i)
    if (link[i] >= 0) parts.join(int64_t(i / 4), link[i] / 4);
  std::vector<int64_t> part_size(candidates, 0);
  for (size_t t = 0; t < candidates; ++t) ++part_size[size_t(parts.find(int64_t(t)))];
  const int64_t largest = candidates ? *std::max_element(part_size.begin(), part_size.end()) : 0;
  std::vector<uint32_t> solid;
  std::vector<double> solid_quality;
  solid.reserve(kept.size());
  stats_.parts = 0;
  for (size_t t = 0; t < candidates; ++t) {
    const int64_t root = parts.find(int64_t(t));
    if (100 * part_size[size_t(root)] < largest) {
      ++stats_.fragment_tets_removed;
      continue;
    }
    stats_.parts += root == int64_t(t);
    solid.insert(solid.end(), &kept[4 * t], &kept[4 * t] + 4);
    solid_quality.push_back(quality[t]);
  }
  kept.swap(solid);
  quality.swap(solid_quality);

  // Compact: used points only, in point order (surface points first).
  std::vector<int64_t> remap(size_t(point_count), -1);
  for (uint32_t v : kept) remap[v] = 0;
  out_positions_.clear();
  int64_t used = 0;
  for (int64_t i = 0; i < point_count; ++i)
    if (remap[size_t(i)] == 0) {
      remap[size_t(i)] = used++;
      out_positions_.insert(out_positions_.end(), &metres[3 * size_t(i)], &metres[3 * size_t(i)] + 3);
    }
  out_tets_.resize(kept.size());
  for (size_t i = 0; i < kept.size(); ++i) out_tets_[i] = uint32_t(remap[kept[i]]);
  const size_t nt = out_tets_.size() / 4;

  stats_.vertices = used;
  stats_.tets = int64_t(nt);
  stats_.volume = 0;
  for (size_t t = 0; t < nt; ++t) stats_.volume += tet_volume6(out_positions_.data(), &out_tets_[4 * t]) / 6.0;
  for (double q : quality) ++stats_.quality_histogram[std::clamp(int(q * 10), 0, 9)];
  stats_.min_quality = quality.empty() ? 0.0 : *std::min_element(quality.begin(), quality.end());
  stats_.mean_quality = quality.empty() ? 0.0 : std::accumulate(quality.begin(), quality.end(), 0.0) / double(quality.size());
  // Only thin parts sampled coarser than their thickness (the budget) can explain lost volume by
  // thinness; otherwise the 4,096 rays (a winding number per crossing in a soup) measure nothing
  // useful.
  if (!(stats_.volume >= kThinVolumeFraction * stats_.surface_volume) && stats_.thin_samples_needed > 0) estimate_thickness();
  if (stats_.thin_samples_needed > stats_.sample_budget && nt > 0 &&
      !(stats_.volume >= kMinKeptVolumeFraction * stats_.surface_volume)) {
    stats_.discarded_tets = stats_.tets;
    stats_.discarded_volume = stats_.volume;
    out_positions_.clear();
    out_tets_.clear();
    stats_.vertices = stats_.tets = stats_.parts = 0;
    stats_.volume = stats_.min_quality = stats_.mean_quality = 0;
    std::fill(std::begin(stats_.quality_histogram), std::end(stats_.quality_histogram), int64_t(0));
  }
  // The scaffolding is no longer needed.
  rays_.reset();
  query_.reset();
}

void Tetrahedralizer::release_points() {
  std::vector<double>().swap(points_);
  std::vector<double>().swap(medial_points_);
  std::vector<std::pair<int64_t, uint8_t>>().swap(lattice_sides_);
  std::vector<SurfaceSlide>().swap(slides_.of_point);
  out_positions_.shrink_to_fit();  // grown by appending: up to twice the result
  out_tets_.shrink_to_fit();
}

// Local thickness: from the centroid of each face (up to 4096, spread over the surface), the
// distance along the inward normal to the surface's other side. Cavities face inward, so their
// inward normal also points into the material. The area-weighted 10th percentile names the
// thinnest parts (a rod's or a plate's thickness, not its ends'), robust to a few odd faces. Rays
// that leave through a hole find nothing; if that is most of the area there is no estimate.
void Tetrahedralizer::estimate_thickness() {
  const std::vector<double>& p = surface_.positions;  // grid units
  const std::vector<uint32_t>& t = surface_.triangles;
  const auto faces = int64_t(t.size() / 3);
  const int64_t samples = std::min<int64_t>(faces, 4096);
  std::vector<std::pair<double, double>> hits;  // (thickness, area) in grid units
  double sampled_area = 0, hit_area = 0;
  for (int64_t s = 0; s < samples; ++s) {
    const int64_t f = s * faces / samples;
    const double* a = &p[3 * size_t(t[3 * size_t(f)])];
    const double* b = &p[3 * size_t(t[3 * size_t(f) + 1])];
    const double* c = &p[3 * size_t(t[3 * size_t(f) + 2])];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 0)) continue;
    const double o[3] = {(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3};
    sampled_area += 0.5 * len;
    const double hit = rays_->thickness(o, uint32_t(f), 1e300);
    if (hit == HUGE_VAL) continue;
    hits.push_back({hit, 0.5 * len});
    hit_area += 0.5 * len;
  }
  if (hits.empty() || hit_area < 0.5 * sampled_area) return;
  std::sort(hits.begin(), hits.end());
  double below = 0;
  double thickness = hits.back().first;
  for (const auto& [h, area] : hits) {
    below += area;
    if (below >= 0.1 * hit_area) {
      thickness = h;
      break;
    }
  }
  stats_.thin_thickness = thickness * cell_;
}

TetraStatus Tetrahedralizer::run(int64_t work) {
  if (status_ != TetraStatus::Working || problem_ != SurfaceProblem::None) return status_;
  ran_ = true;
  const auto start = Clock::now();
  work = std::max<int64_t>(work, 1);
  while (work > 0 && stage_ != Stage::Over) {
    const auto stage_start = Clock::now();
    const Stage stage = stage_;
    const double improve_before = stats_.improve_ms;
    switch (stage_) {
      case Stage::Surface:
        // Always estimated (a few sums once the spacing is measured), so the stats carry it.
        if (estimate_tets() > bound() && options_.max_tets > 0 && !fit_thin_parts()) {
          stage_ = Stage::Over;
          status_ = TetraStatus::OverBudget;
          release_points();
          break;
        }
        place_surface_points();
        work -= int64_t(surface_.triangles.size() / 3) / 16 + 1;  // roughly its cost in insertions
        stage_ = Stage::Grid;
        break;
      case Stage::Grid:
        work -= scan_grid(work);
        if (grid_next_ >= grid_[0] * grid_[1] * grid_[2]) {
          start_delaunay();
          stage_ = Stage::Insert;
        }
        break;
      case Stage::Insert:
        while (work > 0 && !delaunay_->done()) {
          delaunay_->insert_next();
          --work;
        }
        if (delaunay_->done()) {
          stats_.uninserted_points = int64_t(delaunay_->rejected().size());
          candidates_ = delaunay_->tets();
          delaunay_.reset();  // its links and prepared spheres: 81 bytes per tet, no longer needed
          stats_.delaunay_tets = int64_t(candidates_.size() / 4);
          inside_.assign(candidates_.size() / 4, 0);
          stage_ = Stage::Classify;
        }
        break;
      case Stage::Classify:
        work -= classify(work);
        if (classify_next_ >= int64_t(candidates_.size() / 4)) stage_ = Stage::Finish;
        break;
      case Stage::Finish:
        finish();
        work -= stats_.delaunay_tets / 4 + 1;
        // The bound holds on the result: over it (the estimate's error), mesh again held lower.
        if (options_.max_tets > 0 && stats_.tets > options_.max_tets) {
          if (restart_under_bound()) {
            stage_ = Stage::Surface;
            break;
          }
          stage_ = Stage::Over;
          status_ = TetraStatus::OverBudget;
          release_points();
          break;
        }
        stage_ = Stage::Over;
        status_ = stats_.tets > 0 ? TetraStatus::Done : TetraStatus::NoInsideTets;
        release_points();
        break;
      case Stage::Over:
        break;
    }
    const double ms = elapsed_ms(stage_start);
    switch (stage) {
      case Stage::Surface:
      case Stage::Grid:
        stats_.sampling_ms += ms;
        break;
      case Stage::Insert:
        stats_.delaunay_ms += ms;
        break;
      case Stage::Classify:
        stats_.inside_ms += ms;
        break;
      case Stage::Finish:
        stats_.finish_ms += ms - (stats_.improve_ms - improve_before);  // finish() measured the improvement itself
        break;
      case Stage::Over:
        break;
    }
  }
  stats_.milliseconds += elapsed_ms(start);
  return status_;
}

double Tetrahedralizer::progress() const {
  // Stages by their typical share of the time; within a stage, the fraction done.
  switch (stage_) {
    case Stage::Surface:
      return 0.0;
    case Stage::Grid: {
      const int64_t total = grid_[0] * grid_[1] * grid_[2];
      return 0.05 + 0.25 * (total > 0 ? double(grid_next_) / double(total) : 1.0);
    }
    case Stage::Insert: {
      const int64_t total = delaunay_->point_count();
      return 0.30 + 0.40 * (total > 0 ? double(delaunay_->inserted_count()) / double(total) : 1.0);
    }
    case Stage::Classify: {
      const auto total = int64_t(candidates_.size() / 4);
      return 0.70 + 0.28 * (total > 0 ? double(classify_next_) / double(total) : 1.0);
    }
    case Stage::Finish:
      return 0.98;
    case Stage::Over:
      return 1.0;
  }
  return 1.0;
}

}  // namespace sb
