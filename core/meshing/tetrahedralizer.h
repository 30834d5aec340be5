// Any triangle surface -> a tet mesh ready for the solvers. The pipeline:
//   1. clean the surface (surface_cleanup.h): weld, drop degenerate/duplicate faces, orient;
//   2. points: surface samples about half a cell apart, closer where the surface is thin or curved
//      (surface_spacing.h; with thin_surface = false every welded vertex instead; flat faces of a
//      plate thinner than its budget-coarsened spacing on one staggered lattice per side); points on the
//      medial surface of parts under two cells thick; and the centres of a grid with `resolution`
//      cells along the longest side, kept where the generalized winding number says inside and at
//      least half a cell from the surface;
//   3. incremental Delaunay (delaunay.h) of all points;
//   4. keep tets whose centroid is inside (winding number > 0.5);
//   5. improve them (tet_improvement.h: peel, flip, refine, smooth); drop what is still below the
//      min quality; drop fragments; compact.
// Work runs in slices (run(work)) so a caller can report progress and stop early.
#pragma once
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "meshing/surface_cleanup.h"
#include "meshing/surface_spacing.h"
#include "meshing/tet_improvement.h"

namespace sb {

class Delaunay;
class PointGrid;
class SurfaceQuery;
class ThicknessRays;

// What to do when thin parts, sampled by their thickness, would take the estimate above max_tets
// (thin_parts.cpp). Only with max_tets > 0 and thin_surface, and only when the estimate is over it.
enum class ThinParts {
  Sample,   // sample them by their thickness anyway: the job stops with OverBudget
  Thicken,  // offset thin sheets outward to the thinnest thickness the bound can mesh two samples
            // across (a geometric change: stats' thickened_to, thickened_volume)
  Coarsen,  // sample them coarser than their thickness, at the finest spacing the bound allows
            // (not beyond kMaxSpacingPerThickness x their thickness: stats' coarsened_spacing)
  Drop,     // remove the faces of parts thinner than the thinnest the bound meshes two samples across
            // (stats' dropped_below, dropped_faces, dropped_volume); refused when nothing is left
};

// A meshing that comes out over max_tets (the estimate's error) is redone this many times at most,
// each time with the estimate held to the bound scaled by what the last result overshot.
constexpr int kMaxBoundRetries = 3;

// Thicken offsets thin sheets this much beyond a spacing level's lower edge: a thickness measured a
// hair under the edge would fall to the next level (4x the samples); the next level starts at twice.
constexpr double kThickenMargin = 1.15;
// Thicken's continuous thickness between two levels is found by this many bisections of the
// estimate (the interval halves each time: 2^-8 of a level's step).
constexpr int kThickenBisections = 8;
// ... redone with the goal lowered by the overshoot when the thickened surface, measured again, is
// over the bound.
constexpr int kThickenGoalTries = 3;

// Coarsen's continuous spacing between two candidates is found by this many bisections of the
// estimate (of the spacings' logarithm: 2^-8 of a level's step).
constexpr int kCoarsenBisections = 8;

// ThinParts::Coarsen raises min_quality to this: it accepts lower fidelity, not poorer tets.
constexpr double kCoarsenMinQuality = 0.1;

struct TetraOptions {
  int resolution = 10;        // grid cells along the longest side; 0 = surface points only
  double min_quality = 0.02;  // tets below this quality (tet_quality) are removed
  bool thin_surface = true;   // resample the surface about half a cell apart instead of using every vertex
  // > 0: a bound on the output's tets. The job estimates its tets before sampling (estimate_tets)
  // and stops with TetraStatus::OverBudget when the estimate is above it, having done no sampling.
  int64_t max_tets = 0;
  ThinParts thin_parts = ThinParts::Sample;
};

// Tets per estimated point (estimate_tets). Results have 2.8-4.2 tets per point on spheres, cubes,
// unions, plates, shells and the bunny at 10 and 20 cells, but the point estimates run 10-40 % high
// (greedy thinning near edges keeps fewer samples), so 3.0 centres the estimate: measured -42 % to
// +31 % of the result on the tests' shapes.
constexpr double kTetsPerPoint = 3.0;

struct TetraStats {
  int64_t input_vertices = 0, input_triangles = 0;
  CleanupReport cleanup;
  int64_t surface_points = 0, interior_points = 0, uninserted_points = 0;
  int64_t medial_points = 0;  // points on the medial surface of parts under kMedialReach thick
  int64_t delaunay_tets = 0, slivers_removed = 0;
  int64_t peeled = 0, refinement_points = 0, vertices_moved = 0;  // mesh improvement (tet_improvement.h)
  int64_t improve_evaluations = 0;  // its work, in tet quality evaluations
  int64_t fragment_tets_removed = 0;  // tets of parts below 1 % of the largest part
  int64_t vertices = 0, tets = 0, parts = 0;
  double min_quality = 0, mean_quality = 0;
  double volume = 0;          // m^3 of the output tets
  // m^3 the surface's solid holds (where its winding number is over 1/2): cleanup.volume less what
  // overlapping pieces count more than once there (measured on the Delaunay tets, step 4).
  double surface_volume = 0;
  double milliseconds = 0;    // wall time in the constructor and run()
  // Wall time per stage, ms: clean-up (constructor), sampling (surface and grid points), Delaunay
  // insertion, the inside test (winding number per tet), improvement (tet_improvement.h), and the
  // rest of finishing (quality cut, parts, compaction).
  double cleanup_ms = 0, sampling_ms = 0, delaunay_ms = 0, inside_ms = 0, improve_ms = 0, finish_ms = 0;
  // Tets of the result by quality: bin i holds quality in [i/10, (i+1)/10) (bin 9 includes 1).
  int64_t quality_histogram[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  // Measured only when the tets hold under kThinVolumeFraction of the surface's volume (or none) and
  // the sample budget coarsened thin parts (thin_samples_needed > 0):
  double thin_thickness = 0;  // m, thickness of the thinnest parts (see estimate_thickness)
  // Thin parts are sampled by their thickness (surface_spacing.h) at any resolution, within
  // kMaxSurfaceSamples; when they would need more, they are sampled coarser and this says how
  // many samples they wanted (else 0).
  int64_t thin_samples_needed = 0;
  int64_t sample_budget = 0;  // the surface samples this job could place (surface_spacing.h)
  // When coarsened: the samples the thin parts need at the coarsest spacing that still keeps their
  // two sides apart (kMaxSpacingPerThickness x their thickness); a budget this large may mesh them.
  int64_t thin_samples_coarsest = 0;
  // Tets found but not handed over: thin parts sampled coarser than their thickness asks for kept
  // under kMinKeptVolumeFraction of the surface's volume (the job then fails), and their volume, m^3.
  int64_t discarded_tets = 0;
  double discarded_volume = 0;
  // The estimate made before sampling (Tetrahedralizer::estimate_tets): tets, and the points behind it.
  int64_t estimated_tets = 0, estimated_surface_points = 0, estimated_interior_points = 0, estimated_medial_points = 0;
  double thinnest = 0;  // m: the thinnest part the sampling's thickness rays measured, if under a cell (else 0),
                        // on the input surface (before ThinParts::Thicken)
  // The thin-parts choice (ThinParts), when it acted: the estimate before it (thin parts sampled by
  // their thickness), and what it did. thickened_to: m, the thickness thin sheets were offset to;
  // thickened_volume: m^3 the offset added to the solid; coarsened_spacing: m, the spacing thin parts
  // were sampled at. When no choice fits the bound (status OverBudget), choice_floor_tets is the
  // lowest estimate the choice reaches (thickened to a cell, or sampled at the coarsest spacing).
  int64_t estimated_tets_as_sampled = 0, choice_floor_tets = 0;
  double thickened_to = 0, thickened_volume = 0, coarsened_spacing = 0;
  // ThinParts::Drop: faces of parts thinner than dropped_below (m) removed, and the volume they
  // enclosed (m^3; openings left where a dropped part joined the rest closed flat). surface_volume
  // excludes it. All faces dropped (nothing left): status OverBudget.
  int64_t dropped_faces = 0;
  double dropped_below = 0, dropped_volume = 0;
  // The bound on the result (max_tets): meshings redone because a result came out over it, and the
  // tets of the last such result (0: none was over). With status OverBudget and over_bound_tets > 0,
  // the result itself was over and no retry fitted (the choice Sample never retries).
  int64_t bound_retries = 0, over_bound_tets = 0;
};

enum class TetraStatus { Working, Done, NoInsideTets, OverBudget };

// When the tets hold less than this fraction of the surface's volume (or there are none), the
// thickness of the thinnest parts is measured to say why.
constexpr double kThinVolumeFraction = 0.95;
// When the sample budget coarsened thin parts' sampling and the tets hold under this fraction of the
// surface's volume, the job fails (NoInsideTets, naming the thickness) instead of handing over a body
// that is mostly missing (issue 11: a 1000:1000:1 plate "succeeded" with 0.3 % of its volume).
constexpr double kMinKeptVolumeFraction = 0.5;
// Tets below this quality are improved (peeled or smoothed, tet_improvement.h) before the
// min_quality cut.
constexpr double kImproveQuality = 0.15;

// Quality of a tet: 6 sqrt(2) V / l_rms^3, with l_rms the root mean square edge length. 1 for a
// regular tet, 0 for a flat one; scale-invariant. (A volume-to-length measure: it sees slivers,
// whose four vertices are nearly coplanar although no edge is short.)
double tet_quality(const double* a, const double* b, const double* c, const double* d);

class Tetrahedralizer {
 public:
  // Checks and cleans the surface (copied); if problem() != None, nothing else may be called.
  Tetrahedralizer(const float* xyz, int64_t vertex_count, const uint32_t* triangles, int64_t triangle_count,
                  const TetraOptions& options);
  ~Tetrahedralizer();

  SurfaceProblem problem() const { return problem_; }
  int64_t problem_index() const { return problem_index_; }

  // Does about `work` units (one point insertion, grid point or tet classification each).
  TetraStatus run(int64_t work);
  TetraStatus status() const { return status_; }
  // About how many tets run() will give (within about 30 % on the shapes of the tests; thin parts
  // beyond the sample budget excepted): kTetsPerPoint x the surface samples its spacing asks for,
  // the grid points over half a cell inside, and the medial points. The first call measures the
  // surface's spacing (its thickness rays: a few to a few hundred ms), which run() then reuses.
  int64_t estimate_tets();
  double progress() const;  // 0..1
  const TetraStats& stats() const { return stats_; }
  const TetraOptions& options() const { return options_; }
  bool started() const { return ran_ || stage_ != Stage::Surface || status_ != TetraStatus::Working; }
  void set_max_tets(int64_t max_tets) { options_.max_tets = max_tets; }  // before run()
  void set_thin_parts(ThinParts choice) { options_.thin_parts = choice; }  // before run()
  double cell_size() const { return cell_; }  // m, the interior grid's spacing

  // The result, once run() returned Done: positively oriented tets, every vertex used.
  const std::vector<float>& positions() const { return out_positions_; }
  const std::vector<uint32_t>& tets() const { return out_tets_; }

 private:
  enum class Stage { Surface, Grid, Insert, Classify, Finish, Over };
  void prepare();  // query_, rays_ and spacing_, once
  void place_surface_points();
  int64_t scan_grid(int64_t work);
  void start_delaunay();
  int64_t classify(int64_t work);
  void finish();
  void estimate_thickness();
  // Tets for a spacing of the current surface (estimate_tets' sums); fills the stats' point estimates.
  int64_t estimate_with(const SurfaceSpacing& spacing);
  // The thin-parts choice (thin_parts.cpp), when the estimate is over max_tets: true if it now fits.
  bool fit_thin_parts();
  void remeasure();  // after a thin-parts choice changed the surface (thin_parts.cpp)
  bool thicken_thin_parts();
  bool coarsen_thin_parts();
  bool drop_thin_parts();
  // A result over max_tets: back to the start with the estimate held lower (true), or false when the
  // choice cannot go coarser (the job then stops with OverBudget).
  bool restart_under_bound();
  int64_t bound() const { return bound_ > 0 ? bound_ : options_.max_tets; }  // what the estimate must fit
  // The job is over: its points (8 bytes per tet on a ball) and scratch freed, the result's
  // arrays trimmed to their size; the finished job holds its result and the cleaned surface.
  void release_points();
  void to_internal(const double* x, double* u) const;  // m -> grid units (grid points are integers)

  TetraOptions options_;
  double min_quality_ = 0;      // options_.min_quality as given (Coarsen raises it)
  int64_t bound_ = 0;           // > 0: the estimate's bound after a retry (below max_tets)
  double fine_scale_ = 1.0;     // SurfaceSpacing::fine_scale Thicken chose (1: levels as they are)
  TetraStats initial_stats_;    // after the clean-up: what a retry starts from
  bool ran_ = false;            // run() was called (a retry goes back to Stage::Surface)
  std::unique_ptr<Surface> unchanged_;  // the cleaned surface, when Thicken or Drop changed surface_
  SurfaceProblem problem_ = SurfaceProblem::None;
  int64_t problem_index_ = -1;
  TetraStatus status_ = TetraStatus::Working;
  Stage stage_ = Stage::Surface;
  TetraStats stats_;
  Surface surface_;             // cleaned, in internal units
  double origin_[3] = {0, 0, 0};  // m: internal u maps to origin + (u + 0.5) * cell
  double cell_ = 1.0;           // m per grid cell
  int64_t grid_[3] = {0, 0, 0}; // grid points per axis
  int64_t grid_next_ = 0;       // next grid point to test (linear index)
  std::unique_ptr<SurfaceQuery> query_;
  std::unique_ptr<ThicknessRays> rays_;  // over query_'s surface
  std::unique_ptr<SurfaceSpacing> spacing_;  // with thin_surface
  std::vector<double> points_;  // internal units: surface points first, then interior points
  std::vector<double> medial_points_;  // appended to points_ after the grid
  // Surface samples of faces sampled on a lattice per side, and their side (kSideA or kSideB).
  std::vector<std::pair<int64_t, uint8_t>> lattice_sides_;
  SurfaceSlides slides_;  // where each surface sample may slide in the improvement
  std::unique_ptr<PointGrid> medial_grid_;  // over medial_points_, while the grid is scanned
  std::unique_ptr<Delaunay> delaunay_;
  std::vector<int32_t> candidates_;  // Delaunay tets, 4 ids each
  std::vector<uint8_t> inside_;      // per candidate tet
  int64_t classify_next_ = 0;
  double overlap_volume_ = 0;        // grid units^3 counted more than once by overlapping pieces
  std::vector<float> out_positions_;
  std::vector<uint32_t> out_tets_;
};

}  // namespace sb
