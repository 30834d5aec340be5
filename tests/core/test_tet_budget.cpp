// Issue 26: thin-part sampling only where the solid is thin, a tet count that follows the
// resolution (and an explicit bound, max_tets, refused before anything runs), quality >= 0.1 and
// one part on unions of overlapping shapes, grooved blocks, boxes with a vertex pulled close to a
// neighbour, an open teapot-like mesh with a thin handle, plates and shells.
#include <doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "meshing/tetrahedralizer.h"
#include "shapes/tet_mesh.h"
#include "softbody.h"
#include "surfaces.h"

using namespace sb;
using namespace testing_surfaces;

namespace {

struct Meshed {
  TetraStatus status;
  TetraStats stats;
  int64_t estimate;  // estimate_tets() before running
  std::vector<float> positions;
  std::vector<uint32_t> tets;
};

Meshed mesh(const Soup& s, int resolution, int64_t max_tets = 0) {
  TetraOptions o;
  o.resolution = resolution;
  o.max_tets = max_tets;
  Tetrahedralizer t(s.positions.data(), s.vertex_count(), s.triangles.data(), s.triangle_count(), o);
  REQUIRE(t.problem() == SurfaceProblem::None);
  const int64_t estimate = t.estimate_tets();
  TetraStatus status;
  while ((status = t.run(1 << 20)) == TetraStatus::Working) {
  }
  return {status, t.stats(), estimate, t.positions(), t.tets()};
}

std::array<float, 6> bounds(const Soup& s) {  // lo xyz, hi xyz
  std::array<float, 6> b = {1e30f, 1e30f, 1e30f, -1e30f, -1e30f, -1e30f};
  for (size_t i = 0; i < s.positions.size(); ++i) {
    b[i % 3] = std::min(b[i % 3], s.positions[i]);
    b[3 + i % 3] = std::max(b[3 + i % 3], s.positions[i]);
  }
  return b;
}

// The tets of a plain solid filling the same bounding box at the same resolution: an ellipsoid (a
// UV sphere scaled per axis: the "plain sphere of the same bounding box") or, for boxy
// shapes, the box itself. A box gives 1.5-1.9 times the ellipsoid's tets (6/pi of its volume, and
// its area and edges in surface samples: the unit cube 6,394 against 4,326 at 10 cells), so a block
// with grooves is held to its box, not to the sphere.
int64_t plain_tets(const Soup& s, int resolution, bool boxy) {
  const auto b = bounds(s);
  Soup plain = boxy ? box(b[3] - b[0], b[4] - b[1], b[5] - b[2]) : uv_sphere(0.5f, 48, 24);
  if (!boxy)
    for (size_t i = 0; i < plain.positions.size(); ++i) plain.positions[i] *= b[3 + i % 3] - b[i % 3];
  const Meshed m = mesh(plain, resolution);
  REQUIRE(m.status == TetraStatus::Done);
  return m.stats.tets;
}

// Checks every result must pass: a body the solvers accept, in one part, no tet below quality 0.1,
// and the estimate made before running within the bounds documented for it (-42 % / +38 % measured
// on these and other shapes: checked at -40 % / +100 %).
void check_body(const Meshed& m) {
  REQUIRE(m.status == TetraStatus::Done);
  const MeshCheck c = check_tet_mesh(m.positions.data(), int64_t(m.positions.size() / 3), m.tets.data(),
                                     int64_t(m.tets.size() / 4));
  CHECK(c.problem == MeshProblem::None);
  CHECK(m.stats.parts == 1);
  CHECK(m.stats.min_quality >= 0.1);
  CHECK(m.stats.quality_histogram[0] == 0);
  CHECK(double(m.estimate) >= 0.6 * double(m.stats.tets));
  CHECK(double(m.estimate) <= 2.0 * double(m.stats.tets));
}

// Volume of the union of balls (centre xyz, radius) by the midpoint rule on an n^3 grid over their
// bounds: the error is a boundary layer of cells cut by the surface, whose signed parts cancel to
// well under 0.1 % at n = 160.
double union_of_balls_volume(const std::vector<std::array<double, 4>>& balls, int n) {
  double lo[3] = {1e30, 1e30, 1e30}, hi[3] = {-1e30, -1e30, -1e30};
  for (const auto& b : balls)
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], b[size_t(k)] - b[3]);
      hi[k] = std::max(hi[k], b[size_t(k)] + b[3]);
    }
  const double h[3] = {(hi[0] - lo[0]) / n, (hi[1] - lo[1]) / n, (hi[2] - lo[2]) / n};
  int64_t inside = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const double x[3] = {lo[0] + (i + 0.5) * h[0], lo[1] + (j + 0.5) * h[1], lo[2] + (k + 0.5) * h[2]};
        for (const auto& b : balls) {
          const double dx = x[0] - b[0], dy = x[1] - b[1], dz = x[2] - b[2];
          if (dx * dx + dy * dy + dz * dz < b[3] * b[3]) {
            ++inside;
            break;
          }
        }
      }
  return double(inside) * h[0] * h[1] * h[2];
}

}  // namespace

TEST_CASE("thin means thin: overlapping spheres and crossing boxes mesh like a plain solid, one part, quality >= 0.1") {
  // sphere_union: three UV spheres 0.6-1 m across overlapping as a soup. Nothing is thin, so the
  // tets stay within 1.5 x the plain ellipsoid of the same bounding box (measured 1.16 at 10 cells
  // and 0.75 at 20; 68,237 tets and min quality 0.020 at 10 cells before, when every face along the
  // creases counted as a thin part and the spheres' inner sheets were sampled).
  const Soup spheres = sphere_union();
  const double pi = 3.14159265358979323846;
  const std::vector<std::array<double, 4>> balls = {{0, 0, 0, 0.5}, {0.6, 0.1, 0, 0.35}, {0.15, 0.45, 0.2, 0.3}};
  double exact_sum = 0;
  for (const auto& b : balls) exact_sum += 4.0 / 3.0 * pi * b[3] * b[3] * b[3];
  const double exact_union = union_of_balls_volume(balls, 160);
  for (int resolution : {10, 20}) {
    CAPTURE(resolution);
    const Meshed m = mesh(spheres, resolution);
    check_body(m);
    CHECK(m.stats.tets <= int64_t(1.5 * double(plain_tets(spheres, resolution, false))));
    CHECK(m.stats.medial_points == 0);
    // The polygonal spheres hold a little less than round ones (the clean-up's volume is their sum,
    // overlaps counted twice): the union is expected to lose the same share. Within 2 %, the bound
    // of a single sphere's test.
    const double expected = exact_union * m.stats.cleanup.volume / exact_sum;
    // .scale(0): doctest's epsilon is then a fraction of the larger side alone; by default it adds an
    // absolute epsilon too, which swamps quantities well below 1 (m, m^3).
    CHECK(m.stats.volume == doctest::Approx(expected).epsilon(0.02).scale(0));
    // The solid's volume counts the overlaps once (the page's lost-volume warning compares with it).
    // The overlap is measured in whole grid cells, so it is coarser than the tets: 3 % (measured
    // -2.2 % at 10 cells, within 2 % at 20).
    CHECK(m.stats.surface_volume == doctest::Approx(expected).epsilon(0.03).scale(0));
    CHECK(m.stats.cleanup.volume > 1.05 * expected);  // the spheres' sum: 10 % more
  }
  // Two boxes crossing in a plus sign: flat creases, exact union volume 0.135 m^3.
  const Soup cross = box_cross();
  for (int resolution : {10, 20}) {
    CAPTURE(resolution);
    const Meshed m = mesh(cross, resolution);
    check_body(m);
    CHECK(m.stats.tets <= int64_t(1.5 * double(plain_tets(cross, resolution, false))));
    CHECK(m.stats.volume == doctest::Approx(0.135).epsilon(0.005).scale(0));  // the tets: 0.5 %
    // Overlap measured in whole grid cells (above): 1 % (measured -0.75 % at 10 cells).
    CHECK(m.stats.surface_volume == doctest::Approx(0.135).epsilon(0.01).scale(0));
  }
}

TEST_CASE("thin means thin: a block with sharp V grooves is not thin") {
  // Three grooves 8 cm wide and 30 cm deep (walls 15 degrees apart) across a 1 x 0.6 x 0.5 m block.
  // The grooves' walls face each other across the gap, but each wall's inward ray runs into the
  // block: no thin part, no medial point. Volume within 2 %: the narrow bottom of each V is under a
  // grid cell wide and tets bridge it (measured +0.9 % at 10 cells, +0.2 % at 20).
  const Soup block = grooved_block(3, 0.08f, 0.3f);
  for (int resolution : {10, 20}) {
    CAPTURE(resolution);
    const Meshed m = mesh(block, resolution);
    check_body(m);
    CHECK(m.stats.medial_points == 0);
    CHECK(m.stats.thinnest == 0.0);
    CHECK(m.stats.tets <= int64_t(1.5 * double(plain_tets(block, resolution, true))));
    CHECK(m.stats.volume == doctest::Approx(m.stats.cleanup.volume).epsilon(0.02).scale(0));
  }
}

TEST_CASE("thin means thin: a 12-triangle box with a vertex pulled 7.6 mm from a neighbour") {
  // The unit cube's corner (1, 1, 1) moved to 7.6 mm from another corner: needle faces and sharp
  // folds, nothing thin. Before, rays from the needles hit the faces across the fold at once and
  // the box was sampled at the finest level with medial points (up to 63,256 tets at 10 cells
  // instead of about 5,000). Now every pull gives the cube's count (within 1.5 x the plain sphere
  // of its bounding box), no medial point, and the exact volume (within 0.5 %, the cube's bound).
  struct Pull {
    float x, y, z;
    int resolution;
  };
  const Pull pulls[] = {
      {0.0076f, 1, 1, 10},                 // along the edge to (0, 1, 1)
      {1, 1, 0.0076f, 10},                 // along the edge to (1, 1, 0)
      {0.9937f, 0.9983f, 0.0039f, 10},     // off the edge near (1, 1, 0): needles folded inward
      {0.0032f, 0.9965f, 1.0059f, 10},     // near (0, 1, 1), out of the top face
      {1.0053f, -0.0035f, 1.0041f, 10},    // near (1, 0, 1), outside the cube
      {-0.0056f, 0.9994f, 1.0051f, 10},    // near (0, 1, 1), outside the cube
      {1.003221f, -0.006881f, 1.000210f, 10},  // near (1, 0, 1), outside in x and y
      {1.003166f, -0.005435f, 1.004266f, 10},  // near (1, 0, 1), outside in x, y and z
      {0.994910f, 0.988418f, -0.001828f, 10},  // near (1, 1, 0), just below the bottom face: 0.051 before
      {-0.002958f, 1.009502f, 1.000967f, 10},  // near (0, 1, 1), outside: a needle of four samples, 0.077 before
      {1.001664f, -0.001171f, 0.998842f, 20},  // near (1, 0, 1): a sliver between two close edges, 0.044 before
  };
  const int64_t sphere = plain_tets(uv_sphere(0.5f, 48, 24), 10, false);
  for (const Pull& pull : pulls) {
    CAPTURE(pull.x);
    CAPTURE(pull.y);
    CAPTURE(pull.z);
    CAPTURE(pull.resolution);
    const Meshed m = mesh(pulled_box(pull.x, pull.y, pull.z), pull.resolution);
    REQUIRE(m.status == TetraStatus::Done);
    CHECK(m.stats.medial_points == 0);
    if (pull.resolution == 10) CHECK(m.stats.tets <= int64_t(1.5 * double(sphere)));
    CHECK(m.stats.parts == 1);
    CHECK(m.stats.volume == doctest::Approx(m.stats.cleanup.volume).epsilon(0.005));
    // Pulled outward past the cube's faces, the corner's one tet was a sliver or needle of four
    // surface samples (0.045-0.060) and stayed as the pulled vertex's last tet; it is peeled with the
    // corner (volume as above). The corners' short edge with two samples 5-10 cm along the edges
    // from them (a needle no inner point reaches), or two edges of a sliver face a few mm apart, left
    // one or two tets at 0.044-0.093 (12 of 288 random pulls at 10 and 20 cells, the study in
    // test_tet_quality_study.cpp); those samples now slide along their edges and faces
    // (tet_improvement.h): min quality 0.101 or more on all 288, so the bound holds here.
    check_body(m);
  }
}

namespace {

// The open hemisphere of the two tests below (radius 0.5 m, 48 x 12 quads) at `resolution`.
void check_open_hemisphere(int resolution) {
  // One open sheet (radius 0.5 m): the solid is where its winding number is over 1/2, bounded across
  // the opening by no face. Without samples there, tets spanned from the rim to the grid points half
  // a cell below the opening (2 of quality 0.075 at 10 cells, 5 down to 0.077 at 20) and the solid
  // stopped at those grid points (-10 % of the volume at 10 cells). Now the opening's lid is sampled
  // (opening_lids.h): none below 0.15 here, and the hemisphere's volume (the open surface's
  // divergence sum about the origin, which lies on the lid: exact for the closed polyhedron) within
  // 1 % (0.2 % measured).
  double closed = 0;  // m^3
  const Soup b = bowl(0.5f, 48, 12);
  for (size_t f = 0; f < b.triangles.size(); f += 3) {
    const float* x = &b.positions[3 * size_t(b.triangles[f])];
    const float* y = &b.positions[3 * size_t(b.triangles[f + 1])];
    const float* z = &b.positions[3 * size_t(b.triangles[f + 2])];
    closed += (double(x[0]) * (double(y[1]) * z[2] - double(y[2]) * z[1]) - double(x[1]) * (double(y[0]) * z[2] - double(y[2]) * z[0]) +
               double(x[2]) * (double(y[0]) * z[1] - double(y[1]) * z[0])) / 6.0;
  }
  const Meshed m = mesh(b, resolution);
  REQUIRE(m.status == TetraStatus::Done);
  CHECK(m.stats.parts == 1);
  CHECK(m.stats.min_quality >= 0.15);
  CHECK(m.stats.volume == doctest::Approx(std::fabs(closed)).epsilon(0.01).scale(0));
}

}  // namespace

TEST_CASE("an open hemisphere: the tets across its opening are not left as slivers") { check_open_hemisphere(10); }

// 15,680 tets: natively only (the ASan exclusion list in CMakeLists.txt).
TEST_CASE("an open hemisphere at 20 cells: the tets across its opening are not left as slivers") { check_open_hemisphere(20); }

TEST_CASE("an open teapot-like mesh with a thin handle: one part, the handle kept, quality >= 0.1") {
  // A ball with a hole, a handle 7 cm thick (under a grid cell of 12 cm at 10 cells) whose ends sink
  // into the ball, and an open spout: overlapping open pieces. The handle is thin and is sampled by
  // its thickness; it joins the ball in one part (before this work too, but with 15,081 tets at 10
  // cells and min quality 0.020, its creases counted as thin and its inner sheets sampled). Its volume beyond x = -0.45 m (the ball reaches
  // -0.4 m) is that of a 12-sided tube of radius 3.5 cm along the arc, within 10 %.
  const Soup teapot = teapot_like();
  const double pi = 3.14159265358979323846;
  double handle = 0;  // m^3 of the tube beyond x = -0.45 m: cross-section area times arc length
  const double section = 0.5 * 12 * 0.035 * 0.035 * std::sin(2 * pi / 12);
  for (int i = 0; i < 10000; ++i) {
    const double ang = pi * (0.4 + 1.2 * (i + 0.5) / 10000);
    if (-0.33 + 0.25 * std::cos(ang) < -0.45) handle += section * 0.25 * 1.2 * pi / 10000;
  }
  for (int resolution : {10, 20}) {
    CAPTURE(resolution);
    const Meshed m = mesh(teapot, resolution);
    check_body(m);
    double beyond = 0;
    for (size_t t = 0; t < m.tets.size(); t += 4) {
      double x = 0;
      for (int v = 0; v < 4; ++v) x += 0.25 * m.positions[3 * size_t(m.tets[t + size_t(v)])];
      if (x < -0.45) beyond += tet_volume6(m.positions.data(), &m.tets[t]) / 6.0;
    }
    CHECK(beyond == doctest::Approx(handle).epsilon(0.1).scale(0));
  }
}

TEST_CASE("triangular rods: sampled by their thickness, one part, quality >= 0.1, their volume") {
  // A rod whose section is one triangle has sides that all share its edges, so the thickness rays'
  // neighbour rule alone would see nothing thin (before: a 1 cm rod at 10 cells 102 tets, 40 below
  // 0.1, -1.8 % of its volume). Measured: 1 cm sides 3,918-3,926 tets at either resolution (sampled
  // by the thickness, not the grid), min quality 0.102; 5 cm sides 1,652-1,669, 0.111-0.154,
  // -0.03 % to -0.12 % of the volume. Volume: within 1 % of the prism (the tests' bound for smooth
  // solids; a prism's flat faces are kept exactly but for the cut slivers along its edges).
  for (const float side : {0.01f, 0.05f})
    for (const bool fan : {true, false})
      for (const int resolution : {10, 20}) {
        CAPTURE(side);
        CAPTURE(fan);
        CAPTURE(resolution);
        const Meshed m = mesh(triangular_rod(1.0f, side, fan), resolution);
        check_body(m);
        const double prism = 1.0 * std::sqrt(3.0) / 4 * double(side) * double(side);  // m^3
        CHECK(m.stats.volume == doctest::Approx(prism).epsilon(0.01).scale(0));
      }
}

TEST_CASE("plates at the default resolution mesh within the sample budget, or say what helps; shells too") {
  // 1 m x 1 m plates 2, 5 and 10 mm thick at 10 cells (the page's default): sampled by a lattice
  // per side within the budget, one part, quality >= 0.1, the whole volume (0.5 %).
  for (float thickness : {0.002f, 0.005f, 0.010f}) {
    CAPTURE(thickness);
    const Meshed m = mesh(box(1, 1, thickness), 10);
    check_body(m);
    CHECK(m.stats.volume == doctest::Approx(m.stats.cleanup.volume).epsilon(0.005).scale(0));
    CHECK(m.stats.thinnest == doctest::Approx(thickness).epsilon(0.01).scale(0));
  }
  // 1 mm: beyond ten times its thickness at that budget; the job fails and says a higher resolution
  // raises the budget (the page's one-click fix; at 20 cells it meshes, test_tetrahedralizer.cpp).
  {
    const Meshed m = mesh(box(1, 1, 0.001f), 10);
    CHECK(m.status == TetraStatus::NoInsideTets);
    CHECK(m.stats.thin_samples_coarsest <= SB_TETRA_MAX_SURFACE_SAMPLES);
  }
  // A dome 50 mm thick (outer radius 0.5 m), under a cell of 10 cm: sampled by its thickness with
  // medial points; one part, quality >= 0.1, its volume within 1 % (a curved shell: chords).
  const Meshed dome = mesh(dome_shell(0.5, 0.05), 10);
  check_body(dome);
  CHECK(dome.stats.volume == doctest::Approx(dome.stats.cleanup.volume).epsilon(0.01).scale(0));
}

TEST_CASE("max_tets: thin parts that need more than the budget are refused before anything is sampled") {
  // The bound a user might set: 1.5 x the plain sphere of the same bounding box at 10 cells. Plates
  // and shells under a cell thick need more (they are sampled by their thickness); the job says so
  // at once, naming the estimate and the thickness, and places no point.
  const int64_t bound = int64_t(1.5 * double(plain_tets(uv_sphere(0.5f, 48, 24), 10, false)));
  for (const Soup& thin : {box(1, 1, 0.005f), dome_shell(0.5, 0.02), dome_shell(0.5, 0.005)}) {
    const Meshed m = mesh(thin, 10, bound);
    CHECK(m.status == TetraStatus::OverBudget);
    CHECK(m.stats.estimated_tets > bound);
    CHECK(m.stats.surface_points == 0);
    CHECK(m.stats.delaunay_tets == 0);
    CHECK(m.stats.thinnest > 0);
  }
  // Shapes with nothing thin run under the same bound.
  for (const Soup& thick : {sphere_union(), pulled_box(0.0076f, 1, 1)}) {
    const Meshed m = mesh(thick, 10, bound);
    CHECK(m.status == TetraStatus::Done);
    CHECK(m.stats.tets <= bound);
  }
}

TEST_CASE("C API: sb_tetra_estimate_tets and sb_tetra_set_max_tets") {
  const Soup plate = box(1, 1, 0.005f);
  sb_tetra job = sb_tetra_create(plate.positions.data(), plate.vertex_count(), plate.triangles.data(),
                                 plate.triangle_count(), 10, 0.02f, 1);
  REQUIRE(job > 0);
  CHECK(sb_tetra_set_max_tets(job, -1) == SB_ERR_OUT_OF_RANGE);
  const int32_t estimate = sb_tetra_estimate_tets(job);
  CHECK(estimate > 10000);
  CHECK(sb_tetra_set_max_tets(job, 6000) == SB_OK);
  CHECK(sb_tetra_run(job, 1 << 20) == SB_ERR_TOO_LARGE);
  const std::string message = sb_last_error();
  CAPTURE(message);
  CHECK(message.find("would give about " + std::to_string(estimate) + " tets at resolution 10, above max_tets = 6000") !=
        std::string::npos);
  CHECK(message.find("parts about 5 mm thick") != std::string::npos);
  sb_tetra_stats stats{};
  CHECK(sb_tetra_get_stats(job, &stats) == SB_OK);
  CHECK(stats.estimated_tets == estimate);
  CHECK(stats.max_tets == 6000);
  CHECK(stats.thinnest == doctest::Approx(0.005).epsilon(0.01).scale(0));
  CHECK(stats.cell_size == doctest::Approx(0.1).epsilon(1e-6));  // the 1 m plate over 10 cells
  CHECK(sb_tetra_set_max_tets(job, 0) == SB_ERR_NOT_READY);  // too late: the job has run
  CHECK(sb_tetra_destroy(job) == SB_OK);
  // Within the bound, the job runs as without one.
  job = sb_tetra_create(plate.positions.data(), plate.vertex_count(), plate.triangles.data(), plate.triangle_count(), 10,
                        0.02f, 1);
  REQUIRE(job > 0);
  CHECK(sb_tetra_set_max_tets(job, 2 * estimate) == SB_OK);
  CHECK(sb_tetra_run(job, 1 << 30) == 1);
  CHECK(sb_tetra_get_stats(job, &stats) == SB_OK);
  CHECK(stats.tets > 0);
  CHECK(stats.tets <= 2 * estimate);
  CHECK(sb_tetra_destroy(job) == SB_OK);
  CHECK(sb_tetra_estimate_tets(job) == SB_ERR_INVALID_TETRA);
}
