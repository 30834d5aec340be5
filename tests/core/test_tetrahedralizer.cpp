// Surface -> tets: clean-up, winding number, volumes kept, quality, connectivity, determinism and
// the C API's errors for bad input.
#include <doctest.h>


#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "softbody.h"
#include "meshing/surface_cleanup.h"
#include "meshing/surface_query.h"
#include "bunny_surface.h"
#include "surfaces.h"
#include "shapes/tet_mesh.h"
#include "meshing/tetrahedralizer.h"
#include "meshing/tet_improvement.h"
#include "math/predicates.h"

using namespace sb;
using testing_surfaces::Soup;

namespace {

struct Result {
  TetraStatus status;
  TetraStats stats;
  std::vector<float> positions;
  std::vector<uint32_t> tets;
};

Result tetrahedralize(const Soup& s, int resolution, double min_quality = 0.02, bool thin = true, int64_t slice = 5000) {
  TetraOptions o;
  o.resolution = resolution;
  o.min_quality = min_quality;
  o.thin_surface = thin;
  Tetrahedralizer t(s.positions.data(), s.vertex_count(), s.triangles.data(), s.triangle_count(), o);
  REQUIRE(t.problem() == SurfaceProblem::None);
  TetraStatus status;
  double last = -1;
  while ((status = t.run(slice)) == TetraStatus::Working) {
    CHECK(t.progress() >= last);  // progress never goes back
    last = t.progress();
  }
  return {status, t.stats(), t.positions(), t.tets()};
}

using testing_surfaces::bunny_soup;

// Every tet positive and clearly non-flat, every vertex used: what sb_body_create_tets demands.
void check_solver_ready(const Result& r) {
  const MeshCheck c = check_tet_mesh(r.positions.data(), int64_t(r.positions.size() / 3), r.tets.data(),
                                     int64_t(r.tets.size() / 4));
  CHECK(c.problem == MeshProblem::None);
  for (size_t t = 0; t < r.tets.size(); t += 4) REQUIRE(tet_volume6(r.positions.data(), &r.tets[t]) > 0);
}

// An icosphere (an icosahedron subdivided `levels` times, vertices shared, no seams) about
// (cx, cy, cz), wound outward or, with inward = true, inward.
Soup icosphere(double radius, int levels, double cx = 0, double cy = 0, double cz = 0, bool inward = false) {
  const double g = (1 + std::sqrt(5.0)) / 2;
  std::vector<double> p = {-1, g, 0, 1, g, 0, -1, -g, 0, 1, -g, 0, 0, -1, g, 0, 1, g,
                           0, -1, -g, 0, 1, -g, g, 0, -1, g, 0, 1, -g, 0, -1, -g, 0, 1};
  std::vector<uint32_t> t = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
                             3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1};
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> mid;
    auto midpoint = [&](uint32_t a, uint32_t b) {
      const auto key = std::make_pair(std::min(a, b), std::max(a, b));
      auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      for (int k = 0; k < 3; ++k) p.push_back(0.5 * (p[3 * a + k] + p[3 * b + k]));
      return mid[key] = uint32_t(p.size() / 3 - 1);
    };
    std::vector<uint32_t> next;
    for (size_t f = 0; f < t.size(); f += 3) {
      const uint32_t a = t[f], b = t[f + 1], c = t[f + 2];
      const uint32_t ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
      next.insert(next.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
    }
    t.swap(next);
  }
  Soup s;
  for (size_t v = 0; v < p.size(); v += 3) {
    const double n = std::sqrt(p[v] * p[v] + p[v + 1] * p[v + 1] + p[v + 2] * p[v + 2]);
    s.positions.insert(s.positions.end(), {float(cx + radius * p[v] / n), float(cy + radius * p[v + 1] / n),
                                           float(cz + radius * p[v + 2] / n)});
  }
  if (inward)
    for (size_t f = 0; f < t.size(); f += 3) std::swap(t[f + 1], t[f + 2]);
  s.triangles = t;
  return s;
}

// Appends b's vertices and faces to a (one soup, several pieces).
void append(Soup& a, const Soup& b) {
  const auto base = uint32_t(a.vertex_count());
  a.positions.insert(a.positions.end(), b.positions.begin(), b.positions.end());
  for (uint32_t v : b.triangles) a.triangles.push_back(base + v);
}

// The volume of a closed soup by the divergence theorem (as it is, no clean-up), m^3.
double soup_volume(const Soup& s) {
  double v6 = 0;
  for (size_t f = 0; f < s.triangles.size(); f += 3) {
    const float* a = &s.positions[3 * size_t(s.triangles[f])];
    const float* b = &s.positions[3 * size_t(s.triangles[f + 1])];
    const float* c = &s.positions[3 * size_t(s.triangles[f + 2])];
    v6 += double(a[0]) * (double(b[1]) * c[2] - double(b[2]) * c[1]) - double(a[1]) * (double(b[0]) * c[2] - double(b[2]) * c[0]) +
          double(a[2]) * (double(b[0]) * c[1] - double(b[1]) * c[0]);
  }
  return v6 / 6;
}

// Distance from (cx, cy, cz) to the centroid of each tet: the smallest one.
double nearest_tet_centroid(const Result& r, double cx, double cy, double cz) {
  double best = HUGE_VAL;
  for (size_t t = 0; t < r.tets.size(); t += 4) {
    double c[3] = {0, 0, 0};
    for (int v = 0; v < 4; ++v)
      for (int k = 0; k < 3; ++k) c[k] += 0.25 * r.positions[3 * size_t(r.tets[t + size_t(v)]) + size_t(k)];
    best = std::min(best, std::sqrt((c[0] - cx) * (c[0] - cx) + (c[1] - cy) * (c[1] - cy) + (c[2] - cz) * (c[2] - cz)));
  }
  return best;
}

CleanupReport cleanup_report(const Soup& s) {
  Surface out;
  CleanupReport report;
  int64_t at = 0;
  REQUIRE(clean_surface(s.positions.data(), s.vertex_count(), s.triangles.data(), s.triangle_count(), out, report, at) ==
          SurfaceProblem::None);
  return report;
}

}  // namespace

TEST_CASE("clean-up: a 24-vertex cube welds to 8 and a wrongly wound sphere is flipped outward") {
  const Soup cube = testing_surfaces::cube();
  Surface out;
  CleanupReport report;
  int64_t at = 0;
  REQUIRE(clean_surface(cube.positions.data(), cube.vertex_count(), cube.triangles.data(), cube.triangle_count(), out,
                        report, at) == SurfaceProblem::None);
  CHECK(report.welded_vertices == 8);
  CHECK(report.open_edges == 0);
  CHECK(report.flipped_triangles == 0);
  CHECK(report.volume == doctest::Approx(1.0).epsilon(1e-12));

  const Soup sphere = testing_surfaces::uv_sphere(1.0f, 32, 16);
  REQUIRE(clean_surface(sphere.positions.data(), sphere.vertex_count(), sphere.triangles.data(), sphere.triangle_count(),
                        out, report, at) == SurfaceProblem::None);
  CHECK(report.welded_vertices == 32 * 15 + 2);            // seam column and pole rows merged
  CHECK(report.dropped_triangles == 2 * 32);               // the pole triangles have zero area
  CHECK(report.flipped_triangles == sphere.triangle_count() - 2 * 32);  // all were wound inward
  CHECK(report.open_edges == 0);
  CHECK(report.volume > 0.95 * 4.0 / 3.0 * 3.14159265);
}

TEST_CASE("clean-up: duplicate faces (either winding) are dropped; a hole is counted as open edges") {
  Soup s = testing_surfaces::cube(1.0f, 0);  // no bottom face: a box open at z = 0
  const uint32_t extra[6] = {s.triangles[0], s.triangles[1], s.triangles[2], s.triangles[0], s.triangles[2], s.triangles[1]};
  s.triangles.insert(s.triangles.end(), extra, extra + 6);
  Surface out;
  CleanupReport report;
  int64_t at = 0;
  REQUIRE(clean_surface(s.positions.data(), s.vertex_count(), s.triangles.data(), s.triangle_count(), out, report, at) ==
          SurfaceProblem::None);
  CHECK(report.dropped_triangles == 2);
  CHECK(report.open_edges == 4);
}

TEST_CASE("winding number: 1 inside and 0 outside a closed surface; the hierarchy stays close to exact") {
  const Soup s = bunny_soup();
  Surface out;
  CleanupReport report;
  int64_t at = 0;
  REQUIRE(clean_surface(s.positions.data(), s.vertex_count(), s.triangles.data(), s.triangle_count(), out, report, at) ==
          SurfaceProblem::None);
  SurfaceQuery query(out.positions, out.triangles);
  double lo[3] = {1e30, 1e30, 1e30}, hi[3] = {-1e30, -1e30, -1e30};
  for (size_t i = 0; i < out.positions.size(); ++i) {
    lo[i % 3] = std::min(lo[i % 3], out.positions[i]);
    hi[i % 3] = std::max(hi[i % 3], out.positions[i]);
  }
  testing_surfaces::Rng rng(5);
  double max_error = 0, max_coarse_error = 0;
  int inside = 0, misclassified = 0;
  for (int i = 0; i < 4000; ++i) {
    double q[3];
    if (i < 2000) {
      for (int k = 0; k < 3; ++k) q[k] = lo[k] + (hi[k] - lo[k]) * rng.uniform();
    } else {  // near the surface, where the tets' centroids are: within 2 % of the size of a vertex
      const size_t v = size_t(rng.next() % uint64_t(out.positions.size() / 3));
      for (int k = 0; k < 3; ++k) q[k] = out.positions[3 * v + size_t(k)] + 0.02 * (hi[k] - lo[k]) * (2 * rng.uniform() - 1);
    }
    const double exact = query.winding_number_exact(q), fast = query.winding_number(q), coarse = query.winding_number(q, 1.5);
    // A closed surface: the exact value is an integer (0 or 1) up to rounding.
    CHECK(std::min(std::fabs(exact), std::fabs(exact - 1)) < 1e-9);
    max_error = std::max(max_error, std::fabs(fast - exact));
    max_coarse_error = std::max(max_coarse_error, std::fabs(coarse - exact));
    inside += exact > 0.5;
    misclassified += (fast > 0.5) != (exact > 0.5);
  }
  CAPTURE(max_error);
  CAPTURE(max_coarse_error);
  CHECK(inside > 400);
  CHECK(max_error < 0.1);  // first-order far field at 2 radii: measured ~0.05
  CHECK(misclassified == 0);
  // The classification's first, coarse pass (dipoles from 1.5 radii) is trusted only 0.25 away
  // from the threshold, so its error must stay below that with a margin (measured 0.08).
  CHECK(max_coarse_error < 0.15);
  const double far[3] = {hi[0] + 10 * (hi[0] - lo[0]), hi[1], hi[2]};
  CHECK(std::fabs(query.winding_number(far)) < 1e-3);
}

TEST_CASE("tet_quality: 1 for a regular tet, 0 when flat, scale-free") {
  const double a[3] = {1, 1, 1}, b[3] = {1, -1, -1}, c[3] = {-1, 1, -1}, d[3] = {-1, -1, 1};
  CHECK(tet_quality(a, b, d, c) == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(tet_quality(a, b, c, d) == doctest::Approx(-1.0).epsilon(1e-12));  // signed: mirrored is negative
  const double a2[3] = {7, 7, 7}, b2[3] = {7, 5, 5}, c2[3] = {5, 7, 5}, d2[3] = {5, 5, 7};
  CHECK(tet_quality(a2, b2, d2, c2) == doctest::Approx(1.0).epsilon(1e-12));
  const double flat[3] = {0, 0, 0};
  const double p[3] = {1, 0, 0}, q[3] = {0, 1, 0}, r[3] = {1, 1, 0};
  CHECK(tet_quality(flat, p, q, r) == 0.0);
}

TEST_CASE("a cube tetrahedralizes to the cube's volume within 0.5 %, every tet positive, one part") {
  for (int resolution : {0, 4, 10}) {
    CAPTURE(resolution);
    const Result r = tetrahedralize(testing_surfaces::cube(), resolution);
    REQUIRE(r.status == TetraStatus::Done);
    CHECK(r.stats.volume == doctest::Approx(1.0).epsilon(0.005));
    CHECK(r.stats.parts == 1);
    CHECK(r.stats.uninserted_points == 0);
    CHECK(r.stats.min_quality >= 0.02);
    check_solver_ready(r);
  }
}

TEST_CASE("a sphere's tets hold its surface-enclosed volume within 2 %") {
  const Soup sphere = testing_surfaces::uv_sphere(0.5f, 48, 24);
  for (int resolution : {8, 16}) {
    CAPTURE(resolution);
    const Result r = tetrahedralize(sphere, resolution);
    REQUIRE(r.status == TetraStatus::Done);
    CHECK(r.stats.volume == doctest::Approx(r.stats.cleanup.volume).epsilon(0.02));
    CHECK(r.stats.parts == 1);
    CHECK(r.stats.interior_points > 0);
    check_solver_ready(r);
  }
}

TEST_CASE("the Stanford bunny becomes one connected part of positive tets") {
  const Result r = tetrahedralize(bunny_soup(), 10);
  REQUIRE(r.status == TetraStatus::Done);
  CHECK(r.stats.parts == 1);
  CHECK(r.stats.uninserted_points == 0);
  CHECK(r.stats.tets > 1000);
  CHECK(r.stats.volume == doctest::Approx(r.stats.cleanup.volume).epsilon(0.03));
  check_solver_ready(r);
}

TEST_CASE("loose fragments are removed: a torus is one part at every resolution") {
  const Soup torus = testing_surfaces::torus(0.35f, 0.15f, 48, 24);
  int64_t fragments = 0;
  for (int resolution : {6, 8, 12, 16}) {
    CAPTURE(resolution);
    const Result r = tetrahedralize(torus, resolution);
    REQUIRE(r.status == TetraStatus::Done);
    CHECK(r.stats.parts == 1);
    fragments += r.stats.fragment_tets_removed;
    // The exact torus holds 2 pi^2 R r^2; the faceted surface a little less. Fragments are tiny.
    CHECK(r.stats.volume == doctest::Approx(r.stats.cleanup.volume).epsilon(0.05));
    check_solver_ready(r);
  }
  MESSAGE("fragment tets removed over the four resolutions: " << fragments);
}

TEST_CASE("an open box (one face missing) still tetrahedralizes through the winding number") {
  const Result r = tetrahedralize(testing_surfaces::cube(1.0f, 2), 6);
  REQUIRE(r.status == TetraStatus::Done);
  CHECK(r.stats.cleanup.open_edges == 4);
  CHECK(r.stats.volume == doctest::Approx(1.0).epsilon(0.1));
  check_solver_ready(r);
}

TEST_CASE("without thinning every welded vertex is a point; with it, the sphere is resampled") {
  const Soup sphere = testing_surfaces::uv_sphere(0.5f, 48, 24);
  const Result raw = tetrahedralize(sphere, 0, 0.02, false);
  CHECK(raw.stats.surface_points == raw.stats.cleanup.welded_vertices);
  const Result thinned = tetrahedralize(sphere, 5, 0.02, true);
  CHECK(thinned.stats.surface_points < thinned.stats.cleanup.welded_vertices);
}

TEST_CASE("output is identical across runs and slice sizes") {
  const Result a = tetrahedralize(bunny_soup(), 12, 0.02, true, 1000);
  const Result b = tetrahedralize(bunny_soup(), 12, 0.02, true, 1 << 30);
  CHECK(a.positions == b.positions);
  CHECK(a.tets == b.tets);
}

TEST_CASE("C API: a tetrahedralization job from surface to body") {
  const Soup s = testing_surfaces::cube();
  const sb_tetra job = sb_tetra_create(s.positions.data(), s.vertex_count(), s.triangles.data(), s.triangle_count(), 6, 0.02f, 1);
  REQUIRE(job > 0);
  CHECK(sb_tetra_vertex_count(job) == SB_ERR_NOT_READY);
  CHECK(sb_tetra_positions(job) == nullptr);
  CHECK(sb_last_error_code() == SB_ERR_NOT_READY);
  CHECK(sb_tetra_run(job, 0) == SB_ERR_OUT_OF_RANGE);
  int32_t rc;
  float last = 0;
  while ((rc = sb_tetra_run(job, 100)) == 0) {
    CHECK(sb_tetra_progress(job) >= last);
    last = sb_tetra_progress(job);
  }
  REQUIRE(rc == 1);
  CHECK(sb_tetra_progress(job) == 1.0f);
  sb_tetra_stats stats{};
  REQUIRE(sb_tetra_get_stats(job, &stats) == SB_OK);
  CHECK(stats.welded_vertices == 8);
  CHECK(stats.tets == sb_tetra_tet_count(job));
  CHECK(stats.volume == doctest::Approx(1.0).epsilon(0.005));
  const sb_world w = sb_world_create();
  const sb_body body = sb_body_create_tets(w, sb_tetra_positions(job), sb_tetra_vertex_count(job), sb_tetra_tets(job),
                                           sb_tetra_tet_count(job));
  CHECK(body > 0);
  CHECK(sb_tetra_destroy(job) == SB_OK);
  CHECK(sb_tetra_run(job, 1) == SB_ERR_INVALID_TETRA);  // stale handle
  CHECK(sb_tetra_destroy(job) == SB_ERR_INVALID_TETRA);
  sb_world_destroy(w);
}

TEST_CASE("C API: each kind of bad surface gets its own error and message") {
  const Soup cube = testing_surfaces::cube();
  const float* p = cube.positions.data();
  const uint32_t* t = cube.triangles.data();
  const int32_t nv = cube.vertex_count(), nt = cube.triangle_count();
  CHECK(sb_tetra_create(nullptr, nv, t, nt, 5, 0.02f, 1) == SB_ERR_NULL_POINTER);
  CHECK(sb_tetra_create(p, nv, nullptr, nt, 5, 0.02f, 1) == SB_ERR_NULL_POINTER);
  CHECK(sb_tetra_create(p, 0, t, nt, 5, 0.02f, 1) == SB_ERR_BAD_COUNT);
  CHECK(sb_tetra_create(p, nv, t, 0, 5, 0.02f, 1) == SB_ERR_BAD_COUNT);
  CHECK(sb_tetra_create(p, SB_TETRA_MAX_VERTICES + 1, t, nt, 5, 0.02f, 1) == SB_ERR_TOO_LARGE);
  CHECK(std::string(sb_last_error()).find("SB_TETRA_MAX_VERTICES") != std::string::npos);
  CHECK(sb_tetra_create(p, nv, t, SB_TETRA_MAX_TRIANGLES + 1, 5, 0.02f, 1) == SB_ERR_TOO_LARGE);
  CHECK(sb_tetra_create(p, nv, t, nt, -1, 0.02f, 1) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_tetra_create(p, nv, t, nt, SB_TETRA_MAX_RESOLUTION + 1, 0.02f, 1) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_tetra_create(p, nv, t, nt, 5, 1.0f, 1) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_tetra_create(p, nv, t, nt, 5, NAN, 1) == SB_ERR_NOT_FINITE);
  CHECK(sb_tetra_create(p, nv, t, nt, 5, 0.02f, 2) == SB_ERR_OUT_OF_RANGE);

  Soup bad = cube;
  bad.positions[7] = NAN;
  CHECK(sb_tetra_create(bad.positions.data(), nv, t, nt, 5, 0.02f, 1) == SB_ERR_NOT_FINITE);
  CHECK(std::string(sb_last_error()).find("vertex 2") != std::string::npos);
  bad = cube;
  bad.positions[0] = 1e9f;
  CHECK(sb_tetra_create(bad.positions.data(), nv, t, nt, 5, 0.02f, 1) == SB_ERR_OUT_OF_RANGE);
  bad = cube;
  bad.triangles[5] = uint32_t(nv);
  CHECK(sb_tetra_create(p, nv, bad.triangles.data(), nt, 5, 0.02f, 1) == SB_ERR_INDEX_OUT_OF_RANGE);
  CHECK(std::string(sb_last_error()).find("triangle 1") != std::string::npos);

  // Zero area: every face repeats a vertex or is collinear.
  const float line[9] = {0, 0, 0, 1, 0, 0, 2, 0, 0};
  const uint32_t degenerate[6] = {0, 1, 2, 0, 0, 1};
  CHECK(sb_tetra_create(line, 3, degenerate, 2, 5, 0.02f, 1) == SB_ERR_EMPTY_MESH);
  // Zero volume: a flat square, and a closed but flattened cube.
  const float square[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  const uint32_t two[6] = {0, 1, 2, 0, 2, 3};
  CHECK(sb_tetra_create(square, 4, two, 2, 5, 0.02f, 1) == SB_ERR_FLAT_MESH);
  bad = cube;
  for (size_t i = 2; i < bad.positions.size(); i += 3) bad.positions[i] = 0;
  CHECK(sb_tetra_create(bad.positions.data(), nv, t, nt, 5, 0.02f, 1) == SB_ERR_FLAT_MESH);

  // No tet survives: an open two-triangle tent, its four corners only (no grid, no resampling), so
  // Delaunay makes one tet, and that is below a demanding quality bar. The run reports it.
  const float tent[12] = {0, 0, 0, 1, 0, 0, 0.5f, 1, 0.5f, 0.5f, 0, 1};
  const uint32_t sides[6] = {0, 1, 2, 1, 3, 2};
  const sb_tetra job = sb_tetra_create(tent, 4, sides, 2, 0, 0.99f, 0);
  REQUIRE(job > 0);
  int32_t rc;
  while ((rc = sb_tetra_run(job, 1000)) == 0) {
  }
  CHECK(rc == SB_ERR_NO_INSIDE_TETS);
  CHECK(std::string(sb_last_error()).find("the surface is open") != std::string::npos);
  CHECK(std::string(sb_last_error()).find("no setting will help (4 open edges;") != std::string::npos);
  CHECK(std::string(sb_last_error()).find("min quality 0.99") != std::string::npos);
  CHECK(sb_tetra_tet_count(job) == SB_ERR_NOT_READY);
  CHECK(sb_tetra_run(job, 1) == SB_ERR_NO_INSIDE_TETS);  // stays failed
  CHECK(sb_tetra_destroy(job) == SB_OK);

  // One grid cell: the torus's tube (0.3 m across, thinner than the 1 m cell) is sampled by its
  // thickness and curvature instead, so it still becomes a torus of tets.
  const Soup torus = testing_surfaces::torus(0.35f, 0.15f, 48, 24);
  const sb_tetra coarse = sb_tetra_create(torus.positions.data(), torus.vertex_count(), torus.triangles.data(),
                                          torus.triangle_count(), 1, 0.02f, 1);
  REQUIRE(coarse > 0);
  while ((rc = sb_tetra_run(coarse, 100000)) == 0) {
  }
  CHECK(rc == 1);
  sb_tetra_stats coarse_stats{};
  REQUIRE(sb_tetra_get_stats(coarse, &coarse_stats) == SB_OK);
  CHECK(coarse_stats.parts == 1);
  CHECK(coarse_stats.volume >= 0.97f * coarse_stats.surface_volume);
  CHECK(sb_tetra_destroy(coarse) == SB_OK);
}

TEST_CASE("C API: jobs are limited and handles do not alias after destroy") {
  const Soup cube = testing_surfaces::cube();
  std::vector<sb_tetra> jobs;
  for (int i = 0; i < SB_TETRA_MAX_JOBS; ++i)
    jobs.push_back(sb_tetra_create(cube.positions.data(), cube.vertex_count(), cube.triangles.data(), cube.triangle_count(), 2, 0.02f, 1));
  for (sb_tetra j : jobs) CHECK(j > 0);
  CHECK(sb_tetra_create(cube.positions.data(), cube.vertex_count(), cube.triangles.data(), cube.triangle_count(), 2, 0.02f, 1) ==
        SB_ERR_LIMIT);
  CHECK(sb_tetra_destroy(jobs[0]) == SB_OK);
  const sb_tetra again =
      sb_tetra_create(cube.positions.data(), cube.vertex_count(), cube.triangles.data(), cube.triangle_count(), 2, 0.02f, 1);
  CHECK(again > 0);
  CHECK(again != jobs[0]);
  CHECK(sb_tetra_progress(jobs[0]) != sb_tetra_progress(jobs[0]));  // NaN: the old handle is dead
  jobs[0] = again;
  for (sb_tetra j : jobs) CHECK(sb_tetra_destroy(j) == SB_OK);
}

TEST_CASE("nesting: a hollow ball keeps its cavity, whichever way the inner shell is wound") {
  const Soup outer = icosphere(0.5, 3);
  const double shell = soup_volume(outer) - soup_volume(icosphere(0.3, 3));
  for (bool inward : {true, false}) {  // inward: as it should be; outward: the usual authoring mistake
    CAPTURE(inward);
    Soup s = outer;
    append(s, icosphere(0.3, 3, 0, 0, 0, inward));
    const CleanupReport report = cleanup_report(s);
    CHECK(report.pieces == 2);
    CHECK(report.closed_pieces == 2);
    CHECK(report.cavities == 1);
    CHECK(report.flipped_triangles == (inward ? 0 : 1280));
    CHECK(report.volume == doctest::Approx(shell).epsilon(1e-9));
    for (int resolution : {10, 20}) {
      CAPTURE(resolution);
      const Result r = tetrahedralize(s, resolution);
      REQUIRE(r.status == TetraStatus::Done);
      CHECK(r.stats.volume == doctest::Approx(shell).epsilon(0.04));
      CHECK(r.stats.parts == 1);
      // No tet in the cavity: the inner icosphere's faces are at least 0.3 cos(ish) from the centre.
      CHECK(nearest_tet_centroid(r, 0, 0, 0) > 0.29);
      check_solver_ready(r);
    }
  }
}

TEST_CASE("nesting: a ball with two bubbles; a ball in a bubble in a ball is solid again") {
  Soup bubbles = icosphere(0.5, 3);
  append(bubbles, icosphere(0.15, 2, -0.22, 0, 0, false));
  append(bubbles, icosphere(0.15, 2, 0.22, 0.05, 0, true));
  CHECK(cleanup_report(bubbles).cavities == 2);
  const double holed = soup_volume(icosphere(0.5, 3)) - 2 * soup_volume(icosphere(0.15, 2));
  const Result r = tetrahedralize(bubbles, 20);
  REQUIRE(r.status == TetraStatus::Done);
  CHECK(r.stats.volume == doctest::Approx(holed).epsilon(0.04));
  CHECK(nearest_tet_centroid(r, -0.22, 0, 0) > 0.13);
  CHECK(nearest_tet_centroid(r, 0.22, 0.05, 0) > 0.13);
  check_solver_ready(r);

  Soup three = icosphere(0.5, 3);  // every shell wound outward, as a modeller would leave them
  append(three, icosphere(0.35, 3));
  append(three, icosphere(0.2, 3));
  const CleanupReport report = cleanup_report(three);
  CHECK(report.cavities == 1);
  CHECK(report.flipped_triangles == 1280);  // the middle shell only
  const double expected = soup_volume(icosphere(0.5, 3)) - soup_volume(icosphere(0.35, 3)) + soup_volume(icosphere(0.2, 3));
  CHECK(report.volume == doctest::Approx(expected).epsilon(1e-9));
  const Result nested = tetrahedralize(three, 20);
  REQUIRE(nested.status == TetraStatus::Done);
  CHECK(nested.stats.parts == 2);  // the shell and the ball inside it
  CHECK(nested.stats.volume == doctest::Approx(expected).epsilon(0.05));
  CHECK(nearest_tet_centroid(nested, 0, 0, 0) < 0.1);  // the innermost ball has tets
  check_solver_ready(nested);
}

TEST_CASE("nesting: disjoint and intersecting pieces stay separate outward solids") {
  Soup two = icosphere(0.3, 3, -0.4, 0, 0);
  append(two, icosphere(0.3, 3, 0.4, 0, 0, true));  // wound inward, but inside nothing: a solid
  CleanupReport report = cleanup_report(two);
  CHECK(report.cavities == 0);
  CHECK(report.volume == doctest::Approx(2 * soup_volume(icosphere(0.3, 3))).epsilon(1e-6));  // moved floats
  const Result r = tetrahedralize(two, 10);
  REQUIRE(r.status == TetraStatus::Done);
  CHECK(r.stats.parts == 2);

  // Two balls that overlap, and a small ball crossing a big one's surface: no piece is inside
  // another, so none is a cavity; the winding number unites them.
  Soup overlap = icosphere(0.3, 3, -0.15, 0, 0);
  append(overlap, icosphere(0.3, 3, 0.15, 0, 0));
  append(overlap, icosphere(0.1, 2, 0.15, 0.3, 0));
  report = cleanup_report(overlap);
  CHECK(report.cavities == 0);
  CHECK(report.flipped_triangles == 0);
  const Result u = tetrahedralize(overlap, 12);
  REQUIRE(u.status == TetraStatus::Done);
  CHECK(u.stats.parts == 1);
  CHECK(u.stats.volume < report.volume);  // the overlaps count once in the tets
  CHECK(nearest_tet_centroid(u, 0, 0, 0) < 0.1);

  // An open piece (a hemisphere) inside a closed one takes no part in nesting.
  Soup open = icosphere(0.5, 3);
  Soup cap = icosphere(0.2, 2);
  std::vector<uint32_t> half;
  for (size_t f = 0; f < cap.triangles.size(); f += 3)
    if (cap.positions[3 * cap.triangles[f] + 1] > 0 && cap.positions[3 * cap.triangles[f + 1] + 1] > 0 &&
        cap.positions[3 * cap.triangles[f + 2] + 1] > 0)
      half.insert(half.end(), &cap.triangles[f], &cap.triangles[f] + 3);
  cap.triangles = half;
  append(open, cap);
  report = cleanup_report(open);
  CHECK(report.closed_pieces == 1);
  CHECK(report.cavities == 0);
  CHECK(report.open_edges > 0);
}

TEST_CASE("needles: collinear faces closing T-junctions are repaired, so a closed sphere stays closed") {
  // Split faces of a closed sphere at an edge's midpoint, rounded to float as a file stores it, and
  // close each T-junction with the zero-area "needle" (a, b, m) a modeller leaves there.
  const Soup sphere = icosphere(0.5, 3);
  Soup s = sphere;
  std::map<std::pair<uint32_t, uint32_t>, int> used;
  int needles = 0, above_old_bar = 0;
  const double diag = std::sqrt(3.0);  // of the sphere's bounding box, m
  const size_t faces = s.triangles.size() / 3;
  for (size_t f = 0; f < faces; f += 5) {
    uint32_t* t = &s.triangles[3 * f];
    bool free = true;
    for (int k = 0; k < 3; ++k) free = free && !used.count({std::min(t[k], t[(k + 1) % 3]), std::max(t[k], t[(k + 1) % 3])});
    if (!free) continue;
    const uint32_t a = t[0], b = t[1], c = t[2];
    for (int k = 0; k < 3; ++k) used[{std::min(t[k], t[(k + 1) % 3]), std::max(t[k], t[(k + 1) % 3])}] = 1;
    const auto m = uint32_t(s.vertex_count());
    for (int k = 0; k < 3; ++k) s.positions.push_back(0.5f * (s.positions[3 * a + k] + s.positions[3 * b + k]));
    t[1] = m;                                            // (a, m, c)
    s.triangles.insert(s.triangles.end(), {m, b, c, a, b, m});  // (m, b, c) and the needle
    ++needles;
    // The needle's area, as the old test saw it: |cross|^2 against (1e-12 diag^2)^2.
    const float* pa = &s.positions[3 * a];
    const float* pb = &s.positions[3 * b];
    const float* pm = &s.positions[3 * m];
    const double u[3] = {double(pb[0]) - pa[0], double(pb[1]) - pa[1], double(pb[2]) - pa[2]};
    const double v[3] = {double(pm[0]) - pa[0], double(pm[1]) - pa[1], double(pm[2]) - pa[2]};
    const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    above_old_bar += n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > std::pow(1e-12 * diag * diag, 2);
  }
  REQUIRE(needles > 100);
  CHECK(above_old_bar > needles / 2);  // most would have passed the old absolute area test
  const CleanupReport report = cleanup_report(s);
  CHECK(report.open_edges == 0);
  CHECK(report.repaired_needles == needles);
  CHECK(report.volume == doctest::Approx(soup_volume(sphere)).epsilon(1e-6));
  const Result plain = tetrahedralize(sphere, 10);
  const Result r = tetrahedralize(s, 10);
  REQUIRE(r.status == TetraStatus::Done);
  CHECK(r.stats.cleanup.open_edges == 0);
  CHECK(r.stats.volume == doctest::Approx(plain.stats.volume).epsilon(0.01));
  CHECK(r.stats.volume == doctest::Approx(soup_volume(sphere)).epsilon(0.02));
  check_solver_ready(r);

  // A flat face whose long edge has no other face cannot be repaired: it is dropped.
  const float line[12] = {0, 0, 0, 1, 0, 0, 0.5f, 1e-9f, 0, 0.5f, 0.5f, 1};
  const uint32_t tris[6] = {0, 1, 2, 0, 2, 3};  // the second shares a short edge only
  Surface out;
  CleanupReport lone;
  int64_t at = 0;
  clean_surface(line, 4, tris, 2, out, lone, at);
  CHECK(lone.repaired_needles == 0);
  CHECK(lone.dropped_triangles == 1);
}

namespace {

using testing_surfaces::box;

// Runs a C API job to the end; returns its final code, with its stats and last message.
int32_t run_job(const Soup& s, int resolution, float min_quality, sb_tetra_stats& stats, std::string& message) {
  const sb_tetra job = sb_tetra_create(s.positions.data(), s.vertex_count(), s.triangles.data(), s.triangle_count(),
                                       resolution, min_quality, 1);
  REQUIRE(job > 0);
  int32_t rc;
  while ((rc = sb_tetra_run(job, 100000)) == 0) {
  }
  message = sb_last_error();
  REQUIRE(sb_tetra_get_stats(job, &stats) == SB_OK);
  sb_tetra_destroy(job);
  return rc;
}

}  // namespace

TEST_CASE("thin parts: rods and plates far thinner than a grid cell mesh whole, as one part") {
  // Sampled two points across their thickness plus points on their medial surface
  // (surface_spacing.h), at any resolution. Volume within 3 %: a square rod meshed from its four
  // edge lines and two points across each face can lose a little at its ends and corners, and the
  // improvement's wedge budget is 0.5 % (measured: 0.0 to 1.7 %, the plate 1 x 1 x 0.01 at 10
  // cells the most). One part: nothing breaks apart.
  sb_tetra_stats stats{};
  std::string message;
  struct Case {
    float x, y, z;
    int resolution;
  };
  for (const Case& c : {Case{1, 0.05f, 0.05f, 5}, Case{1, 0.01f, 0.01f, 5}, Case{1, 0.01f, 0.01f, 10},
                        Case{1, 1, 0.05f, 5}, Case{1, 1, 0.01f, 10}, Case{1, 1, 0.01f, 20}}) {
    CAPTURE(c.y);
    CAPTURE(c.z);
    CAPTURE(c.resolution);
    REQUIRE(run_job(box(c.x, c.y, c.z), c.resolution, 0.02f, stats, message) == 1);
    CHECK(stats.parts == 1);
    CHECK(stats.volume >= 0.97f * stats.surface_volume);
    CHECK(stats.volume <= 1.001f * stats.surface_volume);
    CHECK(stats.thin_thickness == 0.0f);  // measured only when volume is lost
    CHECK(stats.cells_for_thin == 0);
  }
  // The 1000:1000:1 plate would need 2 points across 1 mm, about 13 million: the budget samples
  // it coarser, 6.25 mm apart. Its two faces and the two edges of its rim still keep their own
  // samples (the thinning keeps opposite sides apart down to a tenth of the spacing), and each face
  // is sampled on a lattice of its own, staggered against the other's, so its tets run through it,
  // none below quality 0.1 (measured 0.177 and its whole volume; 0.107 and -1.9 % when the two
  // faces' samples interleaved at random; 0.096 and -3.4 % when the top edges of its rim were
  // thinned away by the bottom ones and the rim's tets cut across).
  REQUIRE(run_job(box(1, 1, 0.001f), 20, 0.02f, stats, message) == 1);
  CHECK(stats.thin_samples_needed > SB_TETRA_MAX_SURFACE_SAMPLES);
  CHECK(stats.surface_points <= SB_TETRA_MAX_SURFACE_SAMPLES);
  CHECK(stats.volume >= 0.99f * stats.surface_volume);
  CHECK(stats.volume <= 1.001f * stats.surface_volume);
  CHECK(stats.parts == 1);
  CHECK(stats.min_quality >= 0.1f);
  CHECK(stats.quality_histogram[0] == 0);
  // A 1000:1:1 rod at 10 cells is beyond the budget at that resolution (it grows with the grid),
  // but its four edge lines, 1 mm apart, are kept whole: prisms along it, exact volume (it used to
  // keep no tet when they thinned each other out).
  REQUIRE(run_job(box(1, 0.001f, 0.001f), 10, 0.02f, stats, message) == 1);
  CHECK(stats.thin_samples_needed > stats.sample_budget);
  CHECK(stats.thin_samples_needed <= SB_TETRA_MAX_SURFACE_SAMPLES);
  CHECK(stats.parts == 1);
  CHECK(stats.volume >= 0.97f * stats.surface_volume);
  CHECK(stats.volume <= 1.001f * stats.surface_volume);
  CHECK(stats.min_quality >= 0.1f);
  // The 1000:1000:1 plate at 10 cells: its budget spaces samples about 25 mm apart, 25 times its
  // thickness, so its faces thin each other out and the few tets found hold a few per cent of its
  // volume. That is a failure, not a body (the issue: such a plate once "succeeded" with 0.3 % of
  // its volume); at 20 cells it meshes (above), so the message says a higher resolution helps.
  CHECK(run_job(box(1, 1, 0.001f), 10, 0.02f, stats, message) == SB_ERR_NO_INSIDE_TETS);
  CAPTURE(message);
  CHECK(stats.tets == 0);
  // .scale(0): doctest's epsilon is then a fraction of the larger side alone; by default it adds an
  // absolute epsilon too, which swamps quantities well below 1 (m, m^3).
  CHECK(stats.thin_thickness == doctest::Approx(0.001).epsilon(0.01).scale(0));
  CHECK(message.find("of its volume (not kept); a higher resolution raises the budget") != std::string::npos);
}

TEST_CASE("thin parts beyond the sample budget: the failure names their thickness and that no setting will help") {
  sb_tetra_stats stats{};
  std::string message;
  // A 1 m plate 0.1 mm thick: two points across would mean points 0.05 mm apart, ~8e8 of them.
  const Soup plate = box(1, 1, 0.0001f);
  CHECK(run_job(plate, 20, 0.02f, stats, message) == SB_ERR_NO_INSIDE_TETS);
  CAPTURE(message);
  CHECK(stats.open_edges == 0);
  CHECK(stats.thin_thickness == doctest::Approx(0.0001).epsilon(0.01).scale(0));
  CHECK(stats.thin_samples_needed > 100 * SB_TETRA_MAX_SURFACE_SAMPLES);
  CHECK(message.find("the surface's thinnest parts are about 0.1 mm thick: tets through them need surface points about "
                     "0.05 mm apart") != std::string::npos);
  CHECK(message.find("beyond this job's budget of " + std::to_string(stats.sample_budget)) != std::string::npos);
  CHECK(stats.sample_budget > 10000);
  CHECK(stats.sample_budget <= SB_TETRA_MAX_SURFACE_SAMPLES);
  CHECK(message.find("no setting will help: thicken them in a modeller (0 open edges;") != std::string::npos);
  CHECK(message.find("Is it closed") == std::string::npos);

  // The bunny keeps its volume at 10 cells: nothing is measured (no time spent).
  const Result bunny = tetrahedralize(bunny_soup(), 10);
  CHECK(bunny.stats.thin_thickness == 0.0);
  CHECK(bunny.stats.thin_samples_needed == 0);
}

TEST_CASE("C API stats: cavities and repaired needles are counted") {
  Soup hollow = icosphere(0.5, 3);
  append(hollow, icosphere(0.3, 3));
  sb_tetra_stats stats{};
  std::string message;
  REQUIRE(run_job(hollow, 10, 0.02f, stats, message) == 1);
  CHECK(stats.cavities == 1);
  CHECK(stats.repaired_needles == 0);
  CHECK(stats.surface_volume < 0.85f * 4.18879f * 0.125f);  // the shell, not the ball
}

namespace {

// The volume a closed triangle surface encloses (divergence theorem), in double.
double enclosed_volume(const std::vector<float>& p, const std::vector<std::array<uint32_t, 3>>& faces) {
  double v6 = 0;
  for (const auto& f : faces) {
    const float* a = &p[3 * f[0]];
    const float* b = &p[3 * f[1]];
    const float* c = &p[3 * f[2]];
    v6 += double(a[0]) * (double(b[1]) * c[2] - double(b[2]) * c[1]) - double(a[1]) * (double(b[0]) * c[2] - double(b[2]) * c[0]) +
          double(a[2]) * (double(b[0]) * c[1] - double(b[1]) * c[0]);
  }
  return v6 / 6;
}

// The boundary of a tet mesh: faces used by one tet, wound outward (as the tet sees them).
std::vector<std::array<uint32_t, 3>> boundary_faces(const std::vector<uint32_t>& tets) {
  static const int kFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};  // outward for a positive tet
  std::map<std::array<uint32_t, 3>, std::pair<int, std::array<uint32_t, 3>>> seen;
  for (size_t t = 0; t < tets.size(); t += 4)
    for (const auto& f : kFaces) {
      const std::array<uint32_t, 3> face = {tets[t + size_t(f[0])], tets[t + size_t(f[1])], tets[t + size_t(f[2])]};
      std::array<uint32_t, 3> key = face;
      std::sort(key.begin(), key.end());
      auto& entry = seen[key];
      ++entry.first;
      entry.second = face;
    }
  std::vector<std::array<uint32_t, 3>> out;
  for (const auto& [key, entry] : seen) {
    REQUIRE(entry.first <= 2);  // a face shared by three tets would mean overlapping tets
    if (entry.first == 1) out.push_back(entry.second);
  }
  return out;
}

}  // namespace

using testing_surfaces::two_spheres;

// The target for closed meshes. Improvement (peeling surface slivers, refinement at
// circumcentres, smoothing interior points) must not overlap tets: the sum of the tets' volumes
// equals the volume their own boundary encloses (to float rounding, 1e-6 relative), which fails
// if any two tets overlap or a tet is inverted.
namespace {

Result check_quality(const Soup& soup, int resolution) {
  Result r = tetrahedralize(soup, resolution);
  REQUIRE(r.status == TetraStatus::Done);
  CHECK(r.stats.min_quality >= 0.1);
  CHECK(r.stats.quality_histogram[0] == 0);
  int64_t binned = 0;
  for (int64_t n : r.stats.quality_histogram) binned += n;
  CHECK(binned == r.stats.tets);
  const int64_t before = r.stats.surface_points + r.stats.interior_points;
  CHECK(r.stats.refinement_points <= int64_t(0.3 * double(before)) + 1);
  CHECK(r.stats.slivers_removed == 0);  // nothing left for the 0.02 cut
  const double by_boundary = enclosed_volume(r.positions, boundary_faces(r.tets));
  CHECK(r.stats.volume == doctest::Approx(by_boundary).epsilon(1e-5));
  check_solver_ready(r);
  // Volume: within 1 % of the surface's at 20 cells and 2 % at 10 (the bounds).
  CHECK(std::fabs(r.stats.volume / r.stats.cleanup.volume - 1) <= (resolution == 20 ? 0.01 : 0.02));
  return r;
}

}  // namespace

TEST_CASE("quality: no tet below 0.1 at 10 and 20 cells, at most 30 % more points, the tets tile their boundary") {
  const std::pair<const char*, Soup> shapes[] = {
      {"bunny", bunny_soup()},
      {"sphere", testing_surfaces::uv_sphere(1.0f, 48, 24)},
      {"torus", testing_surfaces::torus(1.0f, 0.35f, 64, 24)},
      {"cube", testing_surfaces::cube()},
      {"icosphere", icosphere(0.5, 3)},
      {"two spheres", two_spheres()},
  };
  for (const auto& shape : shapes)
    for (int resolution : {10, 20}) {
      const char* name = shape.first;
      CAPTURE(name);
      CAPTURE(resolution);
      check_quality(shape.second, resolution);
    }
}

TEST_CASE("quality: closed square rods L x 1 x 1 (L 10 to 100) meet the same bounds at 10 and 20 cells") {
  // A rod's faces are two long triangles each; their diagonals used to crowd the samples off the
  // rod's corners (min quality 0.02-0.03, volume -3 %). Also one turned off the axes, whose flat
  // faces are coplanar only to float rounding.
  for (float length : {10.0f, 20.0f, 40.0f, 100.0f})
    for (int resolution : {10, 20}) {
      CAPTURE(length);
      CAPTURE(resolution);
      check_quality(box(length, 1, 1), resolution);
    }
  Soup turned = box(20, 1, 1);
  for (size_t i = 0; i < turned.positions.size(); i += 3) {
    const double x = turned.positions[i], y = turned.positions[i + 1], z = turned.positions[i + 2];
    const double c = std::cos(0.3), s = std::sin(0.3), c2 = std::cos(0.7), s2 = std::sin(0.7);
    const double x1 = c * x - s * y, y1 = s * x + c * y;
    turned.positions[i] = float(x1);
    turned.positions[i + 1] = float(c2 * y1 - s2 * z);
    turned.positions[i + 2] = float(s2 * y1 + c2 * z);
  }
  for (int resolution : {10, 20}) {
    CAPTURE(resolution);
    check_quality(turned, resolution);
  }
}

TEST_CASE("quality: a 1 m x 0.5 m x 1 mm plate, sampled coarser than its thickness, meets the bounds at 20 cells") {
  // Issue 11's last case. Its budget spaces samples 6.25 mm apart, 6 times its thickness, so its
  // tets run from one face to the other; their quality is about 1.6 times the thickness over the
  // distance between samples of one face. When the two faces' samples interleaved at random, the
  // first rows beside the rim's edge samples were left 11-17 mm from them on one face, and the tets
  // spanning that gap were slivers: 257 below 0.1, min 0.024, volume -2.0 % (films peeled). With a
  // lattice per face, staggered and continuing the rim's samples: min 0.177, volume -0.00 %.
  const Soup plate = box(1, 0.5f, 0.001f);
  const Result r = check_quality(plate, 20);
  CHECK(r.stats.thin_samples_needed > r.stats.sample_budget);  // sampled coarser than its thickness
  CHECK(r.stats.parts == 1);
  CHECK(r.stats.min_quality >= 0.15);
  CHECK(r.stats.peeled == 0);  // tets from one face to the other are the plate, not films on it
  // At 10 cells its budget allows 12.5 mm, beyond ten times its thickness (kMaxSpacingPerThickness),
  // where its faces thin each other out: that fails, naming the thickness and a higher resolution.
  sb_tetra_stats stats{};
  std::string message;
  CHECK(run_job(plate, 10, 0.02f, stats, message) == SB_ERR_NO_INSIDE_TETS);
  CAPTURE(message);
  CHECK(message.find("the surface's thinnest parts are about 1 mm thick") != std::string::npos);
  CHECK(message.find("a higher resolution raises the budget") != std::string::npos);
}

TEST_CASE("Thin plates: budget-coarsened plates of other shapes meet the bounds at 20 cells, and at 10 where the budget allows") {
  // Slow (2-3 s natively, most of it the 1 m square plate's 79,000 tets): left out under the
  // sanitizers (CMakeLists.txt), where the 1000:500:1 plate above stands for them. Widths whose
  // lattices do not divide the plate evenly (0.333, 0.75) and a plate twice as thick (its tets
  // twice as good). Measured: min quality 0.176-0.206 at 20 cells (0.127-0.176 at 10), volume
  // within 0.03 %; before the per-face lattices 0.020-0.127 (0.020-0.030 at 10) and -0.05 to -18.7 %.
  struct Case {
    float x, y, z;
    int resolution;
  };
  for (const Case& c : {Case{1, 0.25f, 0.001f, 20}, Case{1, 0.333f, 0.001f, 20}, Case{1, 0.75f, 0.001f, 20},
                        Case{0.7f, 0.3f, 0.001f, 20}, Case{1, 0.5f, 0.002f, 20}, Case{1, 1, 0.001f, 20},
                        Case{1, 0.25f, 0.001f, 10}, Case{0.7f, 0.3f, 0.001f, 10}, Case{1, 0.5f, 0.002f, 10}}) {
    CAPTURE(c.x);
    CAPTURE(c.y);
    CAPTURE(c.z);
    CAPTURE(c.resolution);
    const Soup plate = box(c.x, c.y, c.z);
    check_quality(plate, c.resolution);
  }
  // The 1000:500:1 plate with faces of many triangles: a 4 x 4 grid of quads, and a 10 x 10 one with
  // its inner corners moved by up to 30 % of a quad. Each flat face is one plane with one lattice,
  // whatever its triangles (measured: min quality 0.177 for both; when each triangle had a lattice of
  // its own, 0.150 and, on the irregular one, 4,522 tets below 0.1; before any lattice 1,599 and
  // 10,523 below 0.1, -2.0 and -2.5 % of the volume).
  for (const auto& tiling : {std::pair{4, 0.0}, std::pair{10, 0.6}}) {
    const int n = tiling.first;
    const double jitter = tiling.second;
    CAPTURE(n);
    CAPTURE(jitter);
    const Result r = check_quality(testing_surfaces::tiled_box(1, 0.5f, 0.001f, n, jitter), 20);
    CHECK(r.stats.min_quality >= 0.15);
  }
}

TEST_CASE("quality: a thin curved tube (a (2,3) torus knot, tube 1/13 of its size) keeps its volume") {
  // The tube is 0.77 cells across at 10 cells and 1.5 at 20, so it is sampled at the spacing its
  // thickness asks for, about its input vertices, at both resolutions (the same tets come out).
  // On a surface bent this much (tube radius 0.25 m, vertices 0.1-0.12 m apart) the Delaunay step
  // leaves flat tets of four samples lying inside it; peeled, each costs its volume (1.05 % in all
  // when they were peeled before flips were tried; measured now: -0.82 %, min quality 0.127).
  // The bounds (1 % at 20 cells, 2 % at 10), checked by check_quality, leave 0.18 % of
  // margin at 20 cells: a change that peels a fifth more of these tets fails here.
  const Soup knot = testing_surfaces::torus_knot(2, 0.25, 256, 16);
  for (int resolution : {10, 20}) {
    CAPTURE(resolution);
    check_quality(knot, resolution);
    const Result r = tetrahedralize(knot, resolution);
    CHECK(r.stats.parts == 1);
  }
}

TEST_CASE("quality: peeling removes only flat surface tets; needles across a body stay") {
  // A cube from its surface samples alone (resolution 0: no grid points) is made of tets reaching
  // across it; many are poor but not flat, and removing them would cut the cube away. Its volume
  // must stay within 0.5 %, as without improvement.
  const Result r = tetrahedralize(testing_surfaces::cube(), 0);
  REQUIRE(r.status == TetraStatus::Done);
  CHECK(r.stats.volume == doctest::Approx(1.0).epsilon(0.005));
  check_solver_ready(r);
}

TEST_CASE("stats: the stage times add up to the total and every stage is counted") {
  const Result r = tetrahedralize(bunny_soup(), 10);
  REQUIRE(r.status == TetraStatus::Done);
  const TetraStats& s = r.stats;
  const double stages = s.cleanup_ms + s.sampling_ms + s.delaunay_ms + s.inside_ms + s.improve_ms + s.finish_ms;
  for (double ms : {s.cleanup_ms, s.sampling_ms, s.delaunay_ms, s.inside_ms, s.improve_ms, s.finish_ms}) CHECK(ms >= 0);
  CHECK(s.delaunay_ms > 0);
  CHECK(s.inside_ms > 0);
  // The stages are timed inside the same calls as the total; what is outside them (the loop,
  // progress bookkeeping) is a few per cent at most, plus a millisecond for clock granularity.
  CHECK(stages <= s.milliseconds + 1e-9);
  CHECK(stages >= 0.9 * s.milliseconds - 1.0);
}

TEST_CASE("improvement's fast in-sphere test agrees with the exact one away from ties") {
  testing_surfaces::Rng rng(11);
  int compared = 0;
  for (int n = 0; n < 20000; ++n) {
    double p[5][3];
    for (auto& x : p)
      for (double& c : x) c = 2 * rng.uniform() - 1;
    const int o = orient3d(p[0], p[1], p[2], p[3]);
    if (o == 0) continue;
    if (o < 0) std::swap(p[0], p[1]);
    const int exact = insphere(p[0], p[1], p[2], p[3], p[4]);
    if (exact == 0) continue;
    CHECK((exact > 0) == in_circumsphere(p[0], p[1], p[2], p[3], p[4]));
    ++compared;
  }
  CHECK(compared > 19000);
}
