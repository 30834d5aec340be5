// Issue 26, item 2: a tet bound the user can trust. max_tets holds on the result, not only on the
// estimate (-42 % / +38 % of the result on the tests' shapes): a meshing over it is redone held
// lower, or refused naming its tets; and ThinParts::Drop, which removes parts thinner than the
// bound can mesh. Shapes at 10 cells unless noted.
#include <doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "meshing/tetrahedralizer.h"
#include "shapes/tet_mesh.h"
#include "softbody.h"
#include "surfaces.h"
#include "tetra_run.h"

using namespace sb;
using namespace testing_surfaces;

namespace {

using testing_tetra::mesh;
using testing_tetra::Result;

// A 1 x 0.6 x 0.5 m block with a fin `thickness` m thick (5 mm unless told) and 0.4 m long standing 0.3 m out of its top (a second box sunk
// 0.2 m into it: a soup, as modellers export attached parts).
Soup finned_block(float thickness = 0.005f) {
  Soup s = box(1.0f, 0.6f, 0.5f);
  append_moved(s, box(thickness, 0.4f, 0.5f), 0.5f - 0.5f * thickness, 0.1f, 0.3f);
  return s;
}

// The same block and fin as one closed surface (the fin's walls meet the block's top along a
// rectangular hole in it): 16 vertices, 28 triangles.
Soup fused_fin_block() {
  Soup s;
  const float outer[4][2] = {{0, 0}, {1, 0}, {1, 0.6f}, {0, 0.6f}};
  const float hole[4][2] = {{0.4975f, 0.1f}, {0.5025f, 0.1f}, {0.5025f, 0.5f}, {0.4975f, 0.5f}};
  for (const auto& q : outer) s.positions.insert(s.positions.end(), {q[0], q[1], 0.0f});  // bottom, 0-3
  for (const auto& q : outer) s.positions.insert(s.positions.end(), {q[0], q[1], 0.5f});  // block top, 4-7
  for (const auto& q : hole) s.positions.insert(s.positions.end(), {q[0], q[1], 0.5f});   // fin foot, 8-11
  for (const auto& q : hole) s.positions.insert(s.positions.end(), {q[0], q[1], 0.8f});   // fin top, 12-15
  auto quad = [&](uint32_t a, uint32_t b, uint32_t c, uint32_t d) { s.triangles.insert(s.triangles.end(), {a, b, c, a, c, d}); };
  quad(3, 2, 1, 0);
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t j = (i + 1) % 4;
    quad(i, j, 4 + j, 4 + i);           // block sides
    quad(4 + i, 4 + j, 8 + j, 8 + i);   // block top, around the hole
    quad(8 + i, 8 + j, 12 + j, 12 + i); // fin walls
  }
  quad(12, 13, 14, 15);
  return s;
}

// What every result within its bound must be: a body the solvers take, one part, no tet below
// quality 0.1, and tets holding the solid's volume within `volume_tolerance` (relative).
void check_within(const Result& r, int64_t bound, double volume_tolerance) {
  REQUIRE(r.status == TetraStatus::Done);
  const MeshCheck c = check_tet_mesh(r.positions.data(), int64_t(r.positions.size() / 3), r.tets.data(),
                                     int64_t(r.tets.size() / 4));
  CHECK(c.problem == MeshProblem::None);
  CHECK(r.stats.tets <= bound);
  CHECK(int64_t(r.tets.size() / 4) == r.stats.tets);
  CHECK(r.stats.parts == 1);
  CHECK(r.stats.min_quality >= 0.1);
  CHECK(r.stats.volume == doctest::Approx(r.stats.surface_volume).epsilon(volume_tolerance).scale(0));
}

// A refusal hands nothing over.
void check_refused(const Result& r) {
  CHECK(r.status == TetraStatus::OverBudget);
  CHECK(r.tets.empty());
  CHECK(r.positions.empty());
  CHECK(r.stats.tets == 0);
}

}  // namespace

TEST_CASE("max_tets holds on the result: a result over it is meshed again coarser, or refused with its count") {
  // A 1 m x 1 m plate 5 mm thick: thickened to 57.5 mm its estimate is 9,677 and its result 9,909.
  // Under 9,800 that result is over; the retry holds the estimate to 9,800 x 9,677 / 9,909 and
  // thickens to the next level, 115 mm (2,633 tets, estimated 2,974).
  const Soup plate = box(1, 1, 0.005f);
  const Result thick = mesh(plate, 9800, ThinParts::Thicken);
  check_within(thick, 9800, 0.02);  // 2 %: as test_thin_choice.cpp's thin bodies
  CHECK(thick.stats.bound_retries == 1);
  CHECK(thick.stats.over_bound_tets > 9800);  // the first result, not handed over
  CHECK(thick.stats.thickened_to > 0.06);     // one level thicker than 57.5 mm
  // Coarsened, the plate's results fall under their estimates: no retry (bounds between levels).
  for (int64_t bound : {8000, 12000}) {
    const Result coarse = mesh(plate, bound, ThinParts::Coarsen);
    check_within(coarse, bound, 0.02);
    CHECK(coarse.stats.bound_retries == 0);
  }

  // A torus knot whose tube is 0.8 cells thick, coarsened to half a cell (no coarser level exists):
  // estimated 2,862, made 3,158. Under 4,000 it is kept; under 3,000 it is refused, naming the count.
  const Soup knot = torus_knot(2.0, 0.25, 128, 12);
  check_within(mesh(knot, 4000, ThinParts::Coarsen), 4000, 0.06);  // 6 %: a round tube sampled under two across
  const Result over = mesh(knot, 3000, ThinParts::Coarsen);
  check_refused(over);
  CHECK(over.stats.over_bound_tets > 3000);
  CHECK(over.stats.bound_retries == 1);  // the retry found no coarser spacing within the bound

  // Overlapping spheres (nothing thin): at 10 cells the result (3,336) is under its estimate (4,177),
  // so a bound just above the estimate holds; the choice has nothing to act on.
  check_within(mesh(sphere_union(), 4200, ThinParts::Coarsen), 4200, 0.02);
}

TEST_CASE("Thicken lands near a bound between two spacing levels") {
  // The estimate steps about 4x from one spacing level to the next, so thickening to the levels'
  // edges alone gave the coarser level under a bound between two: measured before, the 5 mm plate
  // 2,633 tets under 5,000 and under 8,000, the 2 mm plate 1,198 under 3,000 and 4,747 under 8,000,
  // the 20 mm dome 5,249 under 8,000 and under 12,000 (0.33-0.66 of the bound). Now a
  // thickness between the levels, its spacing scaled with it, is chosen from the estimate: measured
  // 4,598 and 7,823; 2,748 and 7,859; 7,217 and 8,346 (0.70-0.98). Checked at 0.6 of the bound
  // (the estimate's error, -42 % / +38 %, is what is left between the goal and the result), the
  // bound itself held on the result, and the thickness strictly between the two levels' targets.
  struct Case {
    Soup surface;
    int64_t bound;
  };
  const Case cases[] = {{box(1, 1, 0.005f), 5000},    {box(1, 1, 0.005f), 8000},
                        {box(1, 0.5f, 0.002f), 3000}, {box(1, 0.5f, 0.002f), 8000},
                        {dome_shell(0.5, 0.02), 8000}, {dome_shell(0.5, 0.02), 12000}};
  for (const Case& c : cases) {
    CAPTURE(c.bound);
    const Result r = mesh(c.surface, c.bound, ThinParts::Thicken);
    CAPTURE(r.stats.thickened_to);
    check_within(r, c.bound, 0.02);  // 2 %: as test_thin_choice.cpp's thin bodies
    CHECK(r.stats.tets >= int64_t(0.6 * double(c.bound)));
    // Not a level's target (1.15 x 2^-l cells of 0.1 m): between two.
    const double level = std::log2(0.115 / r.stats.thickened_to);
    CHECK(std::fabs(level - std::round(level)) > 0.01);
  }
}

TEST_CASE("Coarsen and Drop land near a bound between two spacing levels") {
  // Coarsening capped the thin faces' spacing at a level and dropping cut at a level's thickness,
  // so a bound between two levels got the coarser one: measured before, the 5 mm plate refused under
  // 4,000 (6,408 at ten times its thickness) and 5,280 under 8,000, the 1 x 0.5 m 2 mm plate refused
  // under 8,000, the sunk fin 2,950 under 5,000 and 4,202 (two parts) under 12,000, the 20 mm dome
  // 5,866 under 20,000, the teapot-like mesh 1,566 under 2,000 and 3,000. Now the spacing (or the
  // thickness dropped below) between two candidates is bisected on the estimate: measured 3,310,
  // 6,398, 6,411, 4,237, 9,482 and 12,757 coarsened; 1,591 and 2,764 dropped. Checked at 0.6 of the
  // bound (the estimate's error is what is left between the goal and the result), the bound itself
  // on the result, and the spacing off the levels. (A round tube, whose section's curvature keeps
  // samples on the level between, stays at the levels.)
  struct Case {
    Soup surface;
    int64_t bound;
  };
  const Case cases[] = {{box(1, 1, 0.005f), 4000},     {box(1, 1, 0.005f), 8000}, {box(1, 0.5f, 0.002f), 8000},
                        {finned_block(), 5000},        {finned_block(), 12000},  {dome_shell(0.5, 0.02), 20000}};
  for (const Case& c : cases) {
    CAPTURE(c.bound);
    const Result r = mesh(c.surface, c.bound, ThinParts::Coarsen);
    CAPTURE(r.stats.coarsened_spacing);
    check_within(r, c.bound, 0.02);  // 2 %: as test_thin_choice.cpp's thin bodies
    CHECK(r.stats.tets >= int64_t(0.6 * double(c.bound)));
    // Not a level's spacing (2^-l of half a cell; a cell is 100 mm on all of these): between two.
    // (The dome lands at 0.64 of its bound: its estimate runs 1.6x high.)
    const double level = std::log2(0.05 / r.stats.coarsened_spacing);
    CHECK(std::fabs(level - std::round(level)) > 0.01);
  }
  for (int64_t bound : {2000, 3000}) {
    CAPTURE(bound);
    const Result pot = mesh(teapot_like(), bound, ThinParts::Drop);
    REQUIRE(pot.status == TetraStatus::Done);
    CHECK(pot.stats.tets <= bound);
    CHECK(pot.stats.tets >= int64_t(0.6 * double(bound)));
    CHECK(pot.stats.parts == 1);
    CHECK(pot.stats.min_quality >= 0.1);
  }
}

TEST_CASE("A fin sunk into a block, thickened, keeps its tets above quality 0.1 where it enters the block") {
  // The fin's walls run into the block below its top: no edge of the surface follows that curve,
  // so samples stopped short of it on both pieces, and the fine samples of the thickened fin met
  // the block's half-cell samples and its grid (half a cell from every face) in needles and
  // slivers: measured before, min quality 0.021 (55 tets below 0.1) under 12,000 and 0.069 under
  // 5,000. Points on the crossing curve and free points graded past it into the block (by their
  // distance to it) mend it: measured 0.127, 0.103 and 0.103 (6,000, 3 mm fin), all within the
  // bound. Under tighter bounds (a thinner offset) the fin's wall triangle whose centroid lies in the
  // block measured no thickness and was sampled half a cell apart above the block: 0.068 under
  // 12,000, 0.042 under 20,000, 0.068 for a 10 mm fin under 15,000. A face crossing into another
  // piece is now measured on its unburied part (surface_spacing.cpp): 0.150, 0.121 and 0.151.
  // A fin fused into the block (one closed surface, its foot an edge) under 12,000: 0.156; under
  // 20,000 two tets below its foot stayed at 0.086-0.089 (0.145 now: the poor tet's movable vertices
  // optimized together, tet_improvement.h). Checked at 0.1, the bound (tet_quality), with
  // one part and the volume within 2 %.
  struct Case {
    Soup surface;
    int64_t bound;
  };
  const Case cases[] = {{finned_block(), 5000},        {finned_block(), 8000},         {finned_block(0.003f), 6000},
                        {finned_block(), 12000},       {finned_block(), 20000},        {finned_block(0.010f), 15000},
                        {fused_fin_block(), 12000},    {fused_fin_block(), 20000}};
  for (const Case& c : cases) {
    CAPTURE(c.bound);
    const Result r = mesh(c.surface, c.bound, ThinParts::Thicken);
    CAPTURE(r.stats.thickened_to);
    check_within(r, c.bound, 0.02);
  }
}

TEST_CASE("A fin sunk into a block and coarsened beyond its thickness meets the block along both walls: one part") {
  // Coarsened to a spacing h above its thickness, the fin's two walls cross the block's top closer
  // than h, and the points on their crossing curves were thinned as points without a side: the
  // first wall's crowded out the second's, so the fin met the block along one wall only and came
  // out a part of its own (measured before: 2 mm under 5,000 at 18.5 mm, 2, 3 and 4 mm under
  // 6,000 at 15.4 mm; 3 mm under 6,000: 1,539 of 4,652 tets in the fin's part). Now each wall keeps
  // its curve (measured one part, min quality 0.101-0.134).
  struct Case {
    float thickness;  // m
    int64_t bound;
  };
  for (const Case c : {Case{0.002f, 5000}, Case{0.003f, 6000}, Case{0.004f, 6000}}) {
    CAPTURE(c.thickness);
    CAPTURE(c.bound);
    const Result r = mesh(finned_block(c.thickness), c.bound, ThinParts::Coarsen);
    CAPTURE(r.stats.coarsened_spacing);
    REQUIRE(r.stats.coarsened_spacing > c.thickness);  // coarsened beyond the thickness: the case at hand
    check_within(r, c.bound, 0.02);  // one part among the rest
    // Vertices on each wall's crossing curve (the block's top, z = 0.5 m), along the fin's 0.4 m:
    // at least one per two spacings on each wall (the curve is sampled about a spacing apart).
    int on_wall[2] = {0, 0};
    for (size_t i = 0; i < r.positions.size(); i += 3) {
      if (std::fabs(r.positions[i + 2] - 0.5f) > 1e-4f) continue;
      for (int side = 0; side < 2; ++side)
        if (std::fabs(r.positions[i] - (0.5f + (side ? 0.5f : -0.5f) * c.thickness)) < 1e-4f) ++on_wall[side];
    }
    const int least = int(0.4 / (2 * r.stats.coarsened_spacing));
    CHECK(on_wall[0] >= least);
    CHECK(on_wall[1] >= least);
  }
}

TEST_CASE("max_tets holds on the result: without a thin-parts choice a result over it is refused, naming its tets") {
  // A UV sphere at 20 cells: estimated 20,901 (under 25,000), made 27,081.
  const Soup sphere = uv_sphere(0.5f, 48, 24);
  sb_tetra job = sb_tetra_create(sphere.positions.data(), sphere.vertex_count(), sphere.triangles.data(),
                                 sphere.triangle_count(), 20, 0.02f, 1);
  REQUIRE(job > 0);
  CHECK(sb_tetra_set_max_tets(job, 25000) == SB_OK);
  CHECK(sb_tetra_estimate_tets(job) <= 25000);
  CHECK(sb_tetra_run(job, 1 << 30) == SB_ERR_TOO_LARGE);
  const std::string message = sb_last_error();
  CAPTURE(message);
  CHECK(message.find("meshed, this surface gave") != std::string::npos);
  CHECK(message.find("above max_tets = 25000") != std::string::npos);
  CHECK(message.find("SB_TETRA_THIN_COARSEN") != std::string::npos);  // what would retry
  sb_tetra_stats stats{};
  CHECK(sb_tetra_get_stats(job, &stats) == SB_OK);
  CHECK(stats.over_bound_tets > 25000);
  CHECK(stats.bound_retries == 0);
  CHECK(stats.tets == 0);
  CHECK(sb_tetra_tet_count(job) == SB_ERR_NOT_READY);
  CHECK(sb_tetra_destroy(job) == SB_OK);

  // Run in slices, a job that meshes twice (the thickened plate under 9,800: above) takes no new
  // bound or choice between slices, the restart included.
  const Soup plate = box(1, 1, 0.005f);
  job = sb_tetra_create(plate.positions.data(), plate.vertex_count(), plate.triangles.data(), plate.triangle_count(), 10,
                        0.02f, 1);
  REQUIRE(job > 0);
  CHECK(sb_tetra_set_max_tets(job, 9800) == SB_OK);
  CHECK(sb_tetra_set_thin_parts(job, SB_TETRA_THIN_THICKEN) == SB_OK);
  int32_t status = 0, slices = 0;
  bool refused = true;
  while ((status = sb_tetra_run(job, 5000)) == 0) {
    ++slices;
    refused = refused && sb_tetra_set_max_tets(job, 100000) == SB_ERR_NOT_READY &&
              sb_tetra_set_thin_parts(job, SB_TETRA_THIN_SAMPLE) == SB_ERR_NOT_READY;
  }
  CHECK(status == 1);
  CHECK(slices > 2);
  CHECK(refused);
  CHECK(sb_tetra_get_stats(job, &stats) == SB_OK);
  CHECK(stats.bound_retries == 1);
  CHECK(stats.over_bound_tets > 9800);
  CHECK(stats.tets <= 9800);
  CHECK(sb_tetra_tet_count(job) == stats.tets);
  CHECK(sb_tetra_destroy(job) == SB_OK);
}

TEST_CASE("Thin parts dropped: a block keeps its body and loses its 5 mm fin") {
  const Soup fin = finned_block();
  check_refused(mesh(fin, 3000, ThinParts::Sample));  // as sampled: about 43,000 tets
  const Result r = mesh(fin, 3000, ThinParts::Drop);
  // The block alone, 0.3 m^3: the tets hold it within 0.5 % (the block by itself meshes exactly).
  check_within(r, 3000, 0.005);
  CHECK(r.stats.volume == doctest::Approx(0.3).epsilon(0.005).scale(0));
  CHECK(r.stats.dropped_faces == 12);                 // the fin's box, its sunk faces too
  CHECK(r.stats.dropped_below > 0.005);               // thinner than what the bound meshes
  CHECK(r.stats.dropped_below <= 0.1 + 1e-9);        // at most a cell (100 mm)
  CHECK(r.stats.dropped_volume == doctest::Approx(0.005 * 0.4 * 0.5).epsilon(1e-3).scale(0));  // the fin's box
  CHECK(r.stats.thickened_volume == 0);

  // Fused: the fin's 10 faces go and the hole its foot leaves in the block's top is closed flat (the
  // lids), so the block is whole; the volume dropped is the fin's, 5 mm x 0.4 m x 0.3 m.
  const Result fused = mesh(fused_fin_block(), 3000, ThinParts::Drop);
  check_within(fused, 3000, 0.005);
  CHECK(fused.stats.volume == doctest::Approx(0.3).epsilon(0.005).scale(0));
  CHECK(fused.stats.dropped_faces == 10);
  CHECK(fused.stats.dropped_volume == doctest::Approx(0.005 * 0.4 * 0.3).epsilon(1e-3).scale(0));

  // An open teapot-like mesh (a thin handle and spout) under a bound below its estimate (3,073):
  // the handle and spout go, the pot stays one part.
  const Result pot = mesh(teapot_like(), 3000, ThinParts::Drop);
  REQUIRE(pot.status == TetraStatus::Done);
  CHECK(pot.stats.tets <= 3000);
  CHECK(pot.stats.parts == 1);
  CHECK(pot.stats.dropped_faces > 0);
  CHECK(pot.stats.min_quality >= 0.1);
}

TEST_CASE("Thin parts dropped: a plate alone, all thin, is refused with a clear message") {
  const Soup plate = box(1, 1, 0.005f);
  check_refused(mesh(plate, 8000, ThinParts::Drop));
  sb_tetra job = sb_tetra_create(plate.positions.data(), plate.vertex_count(), plate.triangles.data(),
                                 plate.triangle_count(), 10, 0.02f, 1);
  REQUIRE(job > 0);
  CHECK(sb_tetra_set_max_tets(job, 8000) == SB_OK);
  CHECK(sb_tetra_set_thin_parts(job, SB_TETRA_THIN_DROP) == SB_OK);
  CHECK(sb_tetra_run(job, 1 << 30) == SB_ERR_TOO_LARGE);
  const std::string message = sb_last_error();
  CAPTURE(message);
  CHECK(message.find("every part of it is thinner than") != std::string::npos);
  CHECK(message.find("would leave nothing") != std::string::npos);
  CHECK(message.find("its thinnest about 5 mm") != std::string::npos);
  sb_tetra_stats stats{};
  CHECK(sb_tetra_get_stats(job, &stats) == SB_OK);
  CHECK(stats.thin_parts == SB_TETRA_THIN_DROP);
  CHECK(stats.dropped_below > 0.005f);
  CHECK(stats.tets == 0);
  CHECK(sb_tetra_destroy(job) == SB_OK);
}
