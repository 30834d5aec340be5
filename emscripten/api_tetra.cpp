// C API: tetrahedralization jobs (core/meshing/tetrahedralizer.h) behind generation-checked handles.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#include "meshing/surface_spacing.h"
#include "meshing/tetrahedralizer.h"
#include "api_state.h"

using namespace sbapi;

// web/src/softbody.js (TETRA_STATS_BYTES and the tail it reads) depends on this layout.
static_assert(sb::kMaxSurfaceSamples == SB_TETRA_MAX_SURFACE_SAMPLES, "the header states the budget");
static_assert(int(sb::ThinParts::Thicken) == SB_TETRA_THIN_THICKEN && int(sb::ThinParts::Coarsen) == SB_TETRA_THIN_COARSEN &&
                  int(sb::ThinParts::Drop) == SB_TETRA_THIN_DROP,
              "the C choice is the core's");
static_assert(sizeof(sb_tetra_stats) == 62 * 4, "sb_tetra_stats changed: update web/src/softbody.js");

namespace {

struct Slot {
  std::unique_ptr<sb::Tetrahedralizer> job;
  int32_t generation = 0;
};
Slot g_jobs[SB_TETRA_MAX_JOBS];

// handle = generation * SB_TETRA_MAX_JOBS + slot + 1: positive, and stale after destroy.
sb::Tetrahedralizer* find_job(sb_tetra handle) {
  if (handle > 0) {
    const int32_t slot = (handle - 1) % SB_TETRA_MAX_JOBS;
    const int32_t generation = (handle - 1) / SB_TETRA_MAX_JOBS;
    if (g_jobs[slot].job && g_jobs[slot].generation == generation) return g_jobs[slot].job.get();
  }
  fail(SB_ERR_INVALID_TETRA, "tetrahedralization handle %d is not live (never created, or destroyed)", handle);
  return nullptr;
}

sb::Tetrahedralizer* find_finished(sb_tetra handle) {
  sb::Tetrahedralizer* job = find_job(handle);
  if (job && job->status() != sb::TetraStatus::Done) {
    fail(SB_ERR_NOT_READY, "tetrahedralization %d has not finished: call sb_tetra_run until it returns 1", handle);
    return nullptr;
  }
  return job;
}

// Why a job kept no tet, the real cause first and then the setting that would help (or that none
// will), then the counts behind it. The causes, in order: thin parts beyond the sample budget
// (measured, see Tetrahedralizer::estimate_thickness), an open surface, too few points, the quality bar.
int32_t fail_no_inside(const sb::Tetrahedralizer& job) {
  const sb::TetraStats& s = job.stats();
  const sb::TetraOptions& o = job.options();
  char facts[200];
  std::snprintf(facts, sizeof facts,
                " (%lld open edges; %lld Delaunay tets, %lld of them inside but below min quality %g or flat)",
                (long long)s.cleanup.open_edges, (long long)s.delaunay_tets, (long long)s.slivers_removed,
                o.min_quality);
  if (s.thin_thickness > 0 && s.thin_samples_needed > 0) {
    // The budget grows with the resolution (16 x the samples of half-cell spacing) up to
    // SB_TETRA_MAX_SURFACE_SAMPLES; beyond that, no setting reaches what the thin parts need, even
    // sampled as coarsely as still keeps their two sides apart (thin_samples_coarsest).
    const bool reachable = std::min(s.thin_samples_needed, s.thin_samples_coarsest) <= SB_TETRA_MAX_SURFACE_SAMPLES;
    char kept[120] = "kept no tet";
    if (s.discarded_tets > 0 && s.surface_volume > 0)
      std::snprintf(kept, sizeof kept, "their %lld tets held only %.2g %% of its volume (not kept)",
                    (long long)s.discarded_tets, 100.0 * s.discarded_volume / s.surface_volume);
    return fail(SB_ERR_NO_INSIDE_TETS,
                "the surface's thinnest parts are about %.3g mm thick: tets through them need surface points about "
                "%.3g mm apart, about %lld of them, beyond this job's budget of %lld, so they were sampled coarser "
                "and %s; %s%s",
                1000.0 * s.thin_thickness, 500.0 * s.thin_thickness, (long long)s.thin_samples_needed,
                (long long)s.sample_budget, kept,
                reachable ? "a higher resolution raises the budget (up to 150000 samples)"
                          : "no setting will help: thicken them in a modeller",
                facts);
  }
  if (s.cleanup.open_edges > 0)
    return fail(SB_ERR_NO_INSIDE_TETS,
                "the surface is open and the winding number found nothing inside it to fill (an open sheet encloses "
                "nothing): close its holes in a modeller; no setting will help%s",
                facts);
  if (s.delaunay_tets == 0)
    return fail(SB_ERR_NO_INSIDE_TETS,
                "the surface gave only %lld points, too few or too flat to form a single tet: raise the resolution%s",
                (long long)(s.surface_points + s.interior_points), facts);
  if (s.slivers_removed > 0 && o.min_quality > 0)
    return fail(SB_ERR_NO_INSIDE_TETS,
                "every tet inside the surface was below the minimum quality %g: lower it (0 keeps every tet that is "
                "not flat)%s",
                o.min_quality, facts);
  return fail(SB_ERR_NO_INSIDE_TETS, "no tet inside the surface had a clearly positive volume%s", facts);
}

// The estimate is above the job's max_tets: what drives it, and what would help.
int32_t fail_over_budget(const sb::Tetrahedralizer& job) {
  const sb::TetraStats& s = job.stats();
  const sb::ThinParts choice = job.options().thin_parts;
  if (s.over_bound_tets > 0) {
    // The estimate fitted, the result did not (the estimate's error): the result, and how far the
    // choice went (it retries coarser) or that there is none.
    const char* advice = choice == sb::ThinParts::Sample
                             ? "; a thin-parts choice (SB_TETRA_THIN_COARSEN, _THICKEN or _DROP) retries coarser, or lower "
                               "the resolution or raise max_tets"
                             : s.thinnest > 0 ? "; the thin-parts choice could go no further: lower the resolution or raise max_tets"
                                              : "; no part is thin, so the thin-parts choice cannot help: lower the "
                                                "resolution or raise max_tets";
    return fail(SB_ERR_TOO_LARGE,
                "meshed, this surface gave %lld tets at resolution %d, above max_tets = %lld (estimated %lld; %lld "
                "meshings redone); nothing was returned%s",
                (long long)s.over_bound_tets, job.options().resolution, (long long)job.options().max_tets,
                (long long)s.estimated_tets, (long long)s.bound_retries, advice);
  }
  if (choice == sb::ThinParts::Drop && s.choice_floor_tets == 0 && s.dropped_below > 0)
    return fail(SB_ERR_TOO_LARGE,
                "this surface would give about %lld tets at resolution %d, above max_tets = %lld, and every part of it "
                "is thinner than %.3g mm (the thinnest the bound meshes two samples across; its thinnest about %.3g mm): "
                "dropping thin parts would leave nothing; thicken them or mesh them coarser (SB_TETRA_THIN_THICKEN, "
                "_COARSEN), or raise max_tets",
                (long long)s.estimated_tets, job.options().resolution, (long long)job.options().max_tets,
                1000.0 * s.dropped_below, 1000.0 * s.thinnest);
  if (choice != sb::ThinParts::Sample && s.choice_floor_tets > 0) {
    if (choice == sb::ThinParts::Drop)
      return fail(SB_ERR_TOO_LARGE,
                  "this surface would give about %lld tets at resolution %d, above max_tets = %lld; with every part "
                  "thinner than a grid cell (%.3g mm) dropped it would still give about %lld: lower the resolution or "
                  "raise max_tets",
                  (long long)(s.estimated_tets_as_sampled > 0 ? s.estimated_tets_as_sampled : s.estimated_tets),
                  job.options().resolution, (long long)job.options().max_tets, 1000.0 * job.cell_size(),
                  (long long)s.choice_floor_tets);
    if (choice == sb::ThinParts::Thicken) {
      // thickened_to > 0: thickened, and measured again still over; else not even a cell would fit.
      const double to = s.thickened_to > 0 ? s.thickened_to : job.cell_size() * sb::kThickenMargin;
      return fail(SB_ERR_TOO_LARGE,
                  "this surface would give about %lld tets at resolution %d, above max_tets = %lld; with its thin parts "
                  "(about %.3g mm) thickened to %s(%.3g mm) it would still give about %lld: lower the resolution or "
                  "raise max_tets",
                  (long long)(s.estimated_tets_as_sampled > 0 ? s.estimated_tets_as_sampled : s.estimated_tets),
                  job.options().resolution, (long long)job.options().max_tets, 1000.0 * s.thinnest,
                  s.thickened_to > 0 ? "" : "a grid cell ", 1000.0 * to, (long long)s.choice_floor_tets);
    }
    return fail(SB_ERR_TOO_LARGE,
                "this surface would give about %lld tets at resolution %d, above max_tets = %lld; with its thin parts "
                "(about %.3g mm) sampled as coarsely as keeps their two sides apart (%.3g mm, ten times their "
                "thickness) it would still give about %lld: thicken them, lower the resolution or raise max_tets",
                (long long)s.estimated_tets, job.options().resolution, (long long)job.options().max_tets,
                1000.0 * s.thinnest, 10000.0 * s.thinnest, (long long)s.choice_floor_tets);
  }
  char thin[240] = "";
  if (s.thinnest > 0)
    std::snprintf(thin, sizeof thin,
                  "; parts about %.3g mm thick are sampled by their thickness at any resolution (%lld medial points, "
                  "surface samples as close as that), so a lower resolution may not help: thicken them, or raise max_tets",
                  1000.0 * s.thinnest, (long long)s.estimated_medial_points);
  return fail(SB_ERR_TOO_LARGE,
              "this surface would give about %lld tets at resolution %d, above max_tets = %lld (the estimate: about "
              "%lld surface samples, %lld grid points and %lld medial points, %.1f tets each)%s%s",
              (long long)s.estimated_tets, job.options().resolution, (long long)job.options().max_tets,
              (long long)s.estimated_surface_points, (long long)s.estimated_interior_points,
              (long long)s.estimated_medial_points, sb::kTetsPerPoint, thin,
              thin[0] ? "" : "; lower the resolution or raise max_tets");
}

}  // namespace

extern "C" {

sb_tetra sb_tetra_create(const float* xyz, int32_t vertex_count, const uint32_t* triangles, int32_t triangle_count,
                         int32_t resolution, float min_quality, int32_t thin_surface) {
  clear_error();
  if (!xyz || !triangles) return fail(SB_ERR_NULL_POINTER, "%s is NULL", !xyz ? "xyz" : "triangles");
  if (vertex_count < 3 || triangle_count < 1)
    return fail(SB_ERR_BAD_COUNT, "a surface needs at least 3 vertices and 1 triangle, got %d and %d", vertex_count,
                triangle_count);
  if (vertex_count > SB_TETRA_MAX_VERTICES)
    return fail(SB_ERR_TOO_LARGE, "%d vertices is more than the limit of %d (SB_TETRA_MAX_VERTICES)", vertex_count,
                SB_TETRA_MAX_VERTICES);
  if (triangle_count > SB_TETRA_MAX_TRIANGLES)
    return fail(SB_ERR_TOO_LARGE, "%d triangles is more than the limit of %d (SB_TETRA_MAX_TRIANGLES)", triangle_count,
                SB_TETRA_MAX_TRIANGLES);
  if (resolution < 0 || resolution > SB_TETRA_MAX_RESOLUTION)
    return fail(SB_ERR_OUT_OF_RANGE, "resolution must be in [0, %d], got %d", SB_TETRA_MAX_RESOLUTION, resolution);
  if (!check_finite(min_quality, "min quality")) return sb_last_error_code();
  if (!(min_quality >= 0.0f && min_quality < 1.0f))
    return fail(SB_ERR_OUT_OF_RANGE, "min quality must be in [0, 1), got %g", double(min_quality));
  if (thin_surface != 0 && thin_surface != 1)
    return fail(SB_ERR_OUT_OF_RANGE, "thin_surface must be 0 or 1, got %d", thin_surface);
  for (int64_t i = 0; i < 3 * int64_t(vertex_count); ++i)
    if (std::isfinite(xyz[i]) && std::fabs(xyz[i]) > SB_TETRA_MAX_COORDINATE)
      return fail(SB_ERR_OUT_OF_RANGE, "vertex %lld has a coordinate of %g m, beyond +-%g m (SB_TETRA_MAX_COORDINATE)",
                  (long long)(i / 3), double(xyz[i]), double(SB_TETRA_MAX_COORDINATE));
  int32_t slot = 0;
  while (slot < SB_TETRA_MAX_JOBS && g_jobs[slot].job) ++slot;
  if (slot == SB_TETRA_MAX_JOBS)
    return fail(SB_ERR_LIMIT, "already %d tetrahedralizations alive (SB_TETRA_MAX_JOBS)", SB_TETRA_MAX_JOBS);

  sb::TetraOptions options;
  options.resolution = resolution;
  options.min_quality = min_quality;
  options.thin_surface = thin_surface == 1;
  auto job = std::make_unique<sb::Tetrahedralizer>(xyz, vertex_count, triangles, triangle_count, options);
  const long long at = job->problem_index();
  switch (job->problem()) {
    case sb::SurfaceProblem::None:
      break;
    case sb::SurfaceProblem::NonFinite:
      return fail(SB_ERR_NOT_FINITE, "vertex %lld has a NaN or infinite coordinate", at);
    case sb::SurfaceProblem::IndexOutOfRange:
      return fail(SB_ERR_INDEX_OUT_OF_RANGE, "triangle %lld refers to a vertex index >= vertex_count (%d)", at, vertex_count);
    case sb::SurfaceProblem::Empty:
      return fail(SB_ERR_EMPTY_MESH, "no triangle has a positive area (all %d repeat a vertex or are collinear)",
                  triangle_count);
    case sb::SurfaceProblem::Flat:
      return fail(SB_ERR_FLAT_MESH, "the surface encloses no volume: its points lie in a plane or its volume is ~0");
  }
  {  // Tets a thousand times smaller than the surface would fall below SB_MIN_TET_EDGE (a body refuses
     // them: their masses underflow float), so a surface must be SB_TETRA_MIN_SIZE across. Measured
     // over the vertices the triangles use: an unused vertex far away does not make a speck larger.
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int64_t i = 0; i < 3 * int64_t(triangle_count); ++i)
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], double(xyz[3 * size_t(triangles[i]) + size_t(k)]));
        hi[k] = std::max(hi[k], double(xyz[3 * size_t(triangles[i]) + size_t(k)]));
      }
    const double across = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
    if (across < SB_TETRA_MIN_SIZE)
      return fail(SB_ERR_OUT_OF_RANGE,
                  "the surface is %g m across, smaller than %g m (SB_TETRA_MIN_SIZE): its tets would be too small to "
                  "simulate in float32; scale it up",
                  across, double(SB_TETRA_MIN_SIZE));
  }
  Slot& s = g_jobs[slot];
  s.job = std::move(job);
  s.generation = (s.generation + 1) % (INT32_MAX / SB_TETRA_MAX_JOBS - 1);
  return s.generation * SB_TETRA_MAX_JOBS + slot + 1;
}

int32_t sb_tetra_run(sb_tetra handle, int32_t work) {
  clear_error();
  sb::Tetrahedralizer* job = find_job(handle);
  if (!job) return sb_last_error_code();
  if (work < 1) return fail(SB_ERR_OUT_OF_RANGE, "work must be >= 1, got %d", work);
  switch (job->run(work)) {
    case sb::TetraStatus::Working: return 0;
    case sb::TetraStatus::Done: return 1;
    case sb::TetraStatus::NoInsideTets:
      return fail_no_inside(*job);
    case sb::TetraStatus::OverBudget:
      return fail_over_budget(*job);
  }
  return SB_OK;
}

float sb_tetra_progress(sb_tetra handle) {
  clear_error();
  sb::Tetrahedralizer* job = find_job(handle);
  return job ? float(job->progress()) : NAN;
}

int32_t sb_tetra_destroy(sb_tetra handle) {
  clear_error();
  if (!find_job(handle)) return sb_last_error_code();
  g_jobs[(handle - 1) % SB_TETRA_MAX_JOBS].job.reset();
  return SB_OK;
}

int32_t sb_tetra_vertex_count(sb_tetra handle) {
  clear_error();
  sb::Tetrahedralizer* job = find_finished(handle);
  return job ? int32_t(job->positions().size() / 3) : sb_last_error_code();
}

const float* sb_tetra_positions(sb_tetra handle) {
  clear_error();
  sb::Tetrahedralizer* job = find_finished(handle);
  return job ? job->positions().data() : nullptr;
}

int32_t sb_tetra_tet_count(sb_tetra handle) {
  clear_error();
  sb::Tetrahedralizer* job = find_finished(handle);
  return job ? int32_t(job->tets().size() / 4) : sb_last_error_code();
}

const uint32_t* sb_tetra_tets(sb_tetra handle) {
  clear_error();
  sb::Tetrahedralizer* job = find_finished(handle);
  return job ? job->tets().data() : nullptr;
}

int32_t sb_tetra_get_stats(sb_tetra handle, sb_tetra_stats* out) {
  clear_error();
  sb::Tetrahedralizer* job = find_job(handle);
  if (!job) return sb_last_error_code();
  if (!out) return fail(SB_ERR_NULL_POINTER, "out is NULL");
  const sb::TetraStats& s = job->stats();
  out->input_vertices = int32_t(s.input_vertices);
  out->input_triangles = int32_t(s.input_triangles);
  out->welded_vertices = int32_t(s.cleanup.welded_vertices);
  out->dropped_triangles = int32_t(s.cleanup.dropped_triangles);
  out->flipped_triangles = int32_t(s.cleanup.flipped_triangles);
  out->open_edges = int32_t(s.cleanup.open_edges);
  out->surface_points = int32_t(s.surface_points);
  out->interior_points = int32_t(s.interior_points);
  out->uninserted_points = int32_t(s.uninserted_points);
  out->delaunay_tets = int32_t(s.delaunay_tets);
  out->slivers_removed = int32_t(s.slivers_removed);
  out->vertices = int32_t(s.vertices);
  out->tets = int32_t(s.tets);
  out->parts = int32_t(s.parts);
  out->min_quality = float(s.min_quality);
  out->mean_quality = float(s.mean_quality);
  out->volume = float(s.volume);
  out->surface_volume = float(s.surface_volume);
  out->milliseconds = float(s.milliseconds);
  out->fragment_tets = int32_t(s.fragment_tets_removed);
  out->cavities = int32_t(s.cleanup.cavities);
  out->repaired_needles = int32_t(s.cleanup.repaired_needles);
  out->thin_thickness = float(s.thin_thickness);
  out->cells_for_thin = 0;
  out->peeled_slivers = int32_t(s.peeled);
  out->refinement_points = int32_t(s.refinement_points);
  out->smoothed_vertices = int32_t(std::min<int64_t>(s.vertices_moved, INT32_MAX));
  for (int i = 0; i < 10; ++i) out->quality_histogram[i] = int32_t(s.quality_histogram[i]);
  out->cleanup_ms = float(s.cleanup_ms);
  out->sampling_ms = float(s.sampling_ms);
  out->delaunay_ms = float(s.delaunay_ms);
  out->inside_ms = float(s.inside_ms);
  out->improve_ms = float(s.improve_ms);
  out->finish_ms = float(s.finish_ms);
  out->thin_samples_needed = int32_t(std::min<int64_t>(s.thin_samples_needed, INT32_MAX));
  out->medial_points = int32_t(s.medial_points);
  out->sample_budget = int32_t(s.sample_budget);
  out->thin_samples_coarsest = int32_t(std::min<int64_t>(s.thin_samples_coarsest, INT32_MAX));
  out->estimated_tets = int32_t(std::min<int64_t>(s.estimated_tets, INT32_MAX));
  out->max_tets = int32_t(std::min<int64_t>(job->options().max_tets, INT32_MAX));
  out->thinnest = float(s.thinnest);
  out->cell_size = float(job->cell_size());
  out->thin_parts = int32_t(job->options().thin_parts);
  out->estimated_tets_as_sampled = int32_t(std::min<int64_t>(s.estimated_tets_as_sampled, INT32_MAX));
  out->choice_floor_tets = int32_t(std::min<int64_t>(s.choice_floor_tets, INT32_MAX));
  out->thickened_to = float(s.thickened_to);
  out->thickened_volume = float(s.thickened_volume);
  out->coarsened_spacing = float(s.coarsened_spacing);
  out->dropped_faces = int32_t(std::min<int64_t>(s.dropped_faces, INT32_MAX));
  out->dropped_below = float(s.dropped_below);
  out->dropped_volume = float(s.dropped_volume);
  out->bound_retries = int32_t(s.bound_retries);
  out->over_bound_tets = int32_t(std::min<int64_t>(s.over_bound_tets, INT32_MAX));
  return SB_OK;
}

int32_t sb_tetra_estimate_tets(sb_tetra handle) {
  clear_error();
  sb::Tetrahedralizer* job = find_job(handle);
  if (!job) return sb_last_error_code();
  return int32_t(std::min<int64_t>(job->estimate_tets(), INT32_MAX));
}

int32_t sb_tetra_set_max_tets(sb_tetra handle, int32_t max_tets) {
  clear_error();
  sb::Tetrahedralizer* job = find_job(handle);
  if (!job) return sb_last_error_code();
  if (max_tets < 0) return fail(SB_ERR_OUT_OF_RANGE, "max_tets must be >= 0 (0: no bound), got %d", max_tets);
  if (job->started())
    return fail(SB_ERR_NOT_READY, "tetrahedralization %d has started: set max_tets before the first sb_tetra_run", handle);
  job->set_max_tets(max_tets);
  return SB_OK;
}

int32_t sb_tetra_set_thin_parts(sb_tetra handle, int32_t choice) {
  clear_error();
  sb::Tetrahedralizer* job = find_job(handle);
  if (!job) return sb_last_error_code();
  if (choice < SB_TETRA_THIN_SAMPLE || choice > SB_TETRA_THIN_DROP)
    return fail(SB_ERR_OUT_OF_RANGE,
                "choice must be SB_TETRA_THIN_SAMPLE (0), SB_TETRA_THIN_THICKEN (1), SB_TETRA_THIN_COARSEN (2) or "
                "SB_TETRA_THIN_DROP (3), got %d",
                choice);
  if (choice != SB_TETRA_THIN_SAMPLE && !job->options().thin_surface)
    return fail(SB_ERR_OUT_OF_RANGE,
                "tetrahedralization %d uses every surface vertex (thin_surface = 0): thin parts are not sampled by "
                "their thickness, so there is nothing to thicken or coarsen",
                handle);
  if (job->started())
    return fail(SB_ERR_NOT_READY, "tetrahedralization %d has started: set the thin-parts choice before the first sb_tetra_run",
                handle);
  job->set_thin_parts(sb::ThinParts(choice));
  return SB_OK;
}

}  // extern "C"
