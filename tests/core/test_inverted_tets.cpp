// Inverted tets recover (issue 25): the nearest proper rotation, the repair of a region of inverted
// tets (inverted_tets.h), and bodies pressed or flattened to 5 % of their height that must come back
// whole: no tet inverted, no surface passing through itself, their volume, at rest. (The helpers, the
// rotation test and the surface counter come from the `invert` branch, which snapped tet by tet.)
#include <doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "math/rotation.h"
#include "shapes/shapes.h"
#include "solver/inverted_tets.h"
#include "solver/xpbd_constraints.h"
#include "solver/soft_body.h"
#include "surface_intersections.h"

using namespace sb;

namespace {

double det3(const double M[3][3]) {
  return M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
         M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
}

// A rotation about a unit axis by angle a (Rodrigues), row-major.
void rotation(const double axis[3], double a, double R[3][3]) {
  const double c = std::cos(a), s = std::sin(a), t = 1.0 - c;
  const double x = axis[0], y = axis[1], z = axis[2];
  const double M[3][3] = {{t * x * x + c, t * x * y - s * z, t * x * z + s * y},
                          {t * x * y + s * z, t * y * y + c, t * y * z - s * x},
                          {t * x * z - s * y, t * y * z + s * x, t * z * z + c}};
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) R[r][k] = M[r][k];
}

void multiply(const double A[3][3], const double B[3][3], double C[3][3]) {
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) C[r][k] = A[r][0] * B[0][k] + A[r][1] * B[1][k] + A[r][2] * B[2][k];
}

uint32_t inverted_tets(const SoftBody& b) {
  uint32_t n = 0;
  for (uint32_t t = 0; t < b.tet_count(); ++t) n += tet_volume6(b.positions(), b.tets() + 4 * t) <= 0.0 ? 1u : 0u;
  return n;
}

uint32_t surface_intersections(const SoftBody& b) {
  return testing_surfaces::count_surface_intersections(b.positions(), b.surface_triangles(), b.surface_triangle_count());
}

// The page's defaults (web/src/settings.js): the simple model, edge compliance 1e-4 m/N, hard volumes,
// damping 1/s, 10 substeps of 1/60 s, one XPBD pass.
BodyParams page_defaults() {
  BodyParams p;
  p.edge_compliance = 1e-4f;
  p.volume_compliance = 0.0f;
  p.damping = 1.0f;
  return p;
}

enum class Start { Press, Flatten };

struct Outcome {
  uint32_t inverted = 0, intersections = 0;
  double volume = 0.0, kinetic = 0.0, kinetic_peak = 0.0, top = 0.0;  // -, J, J (the last second), m
  bool finite = true;
};

// Squashes the body to 5 % of its height, by the page's press (squash widening to keep the volume,
// then the frictionless plate rising over 0.5 s) or by scaling y alone (the volume goes to 5 %), and
// runs `seconds` at 60 frames per second.
Outcome recover(const TetMesh& mesh, const BodyParams& params, Solver solver, Start start, double seconds) {
  SoftBody body(mesh, params);
  REQUIRE(body.set_solver(solver));
  if (start == Start::Press) {
    REQUIRE(body.press(0.05f, 0.5f));
  } else {
    for (uint32_t i = 0; i < body.vertex_count(); ++i) body.positions()[3 * i + 1] *= 0.05f;
  }
  StepSettings s;
  Outcome o;
  const int frames = int(seconds * 60.0 + 0.5);
  for (int f = 0; f < frames; ++f) {
    body.step(1.0f / 60.0f, s);
    const BodyStats st = body.stats();
    if (f >= frames - 60) o.kinetic_peak = std::max(o.kinetic_peak, st.kinetic_energy);  // the last second
    for (uint32_t i = 0; i < body.vertex_count(); ++i) o.top = std::max(o.top, double(body.positions()[3 * i + 1]));
  }
  const BodyStats st = body.stats();
  o.inverted = inverted_tets(body);
  o.intersections = surface_intersections(body);
  o.volume = st.volume_ratio;
  o.kinetic = st.kinetic_energy;
  o.finite = st.finite;
  return o;
}

// Recovered: finite, no tet inverted, no surface through itself, volume within 2 % of rest, at rest
// (under 1 J in the last second).
void check_recovered(const Outcome& o) {
  CHECK(o.finite);
  CHECK(o.inverted == 0);
  CHECK(o.intersections == 0);
  CHECK(std::fabs(o.volume - 1.0) < 0.02);
  CHECK(o.kinetic_peak < 1.0);
}

}  // namespace

TEST_CASE("closest_rotation: the polar rotation, and for a mirrored matrix the proper one nearest it") {
  const double axis[3] = {0.48, -0.6, 0.64};  // unit
  double Q[3][3];
  rotation(axis, 0.9, Q);
  // A = Q S with S symmetric positive definite: R = Q exactly (to rounding).
  const double S[3][3] = {{2.0, 0.3, -0.1}, {0.3, 0.5, 0.2}, {-0.1, 0.2, 0.05}};
  double A[3][3], R[3][3];
  multiply(Q, S, A);
  closest_rotation(A, R);
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) CHECK(R[r][k] == doctest::Approx(Q[r][k]).epsilon(1e-9));
  // Mirrored (det A < 0): R is proper, and R A^T symmetric (no torque from targets placed by it).
  const double mirror[3][3] = {{1, 0, 0}, {0, -1, 0}, {0, 0, 1}};
  double M[3][3], AM[3][3];
  multiply(A, mirror, M);
  multiply(M, S, AM);
  closest_rotation(AM, R);
  CHECK(det3(R) == doctest::Approx(1.0).epsilon(1e-12));
  double RAt[3][3];
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) RAt[r][k] = R[r][0] * AM[k][0] + R[r][1] * AM[k][1] + R[r][2] * AM[k][2];
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) CHECK(RAt[r][k] == doctest::Approx(RAt[k][r]).epsilon(1e-9));
  // Nearest: no other proper rotation does better on tr(R^T A), e.g. small turns of R about each axis.
  const auto score = [&](const double T[3][3]) {
    double s = 0.0;
    for (int r = 0; r < 3; ++r)
      for (int k = 0; k < 3; ++k) s += T[r][k] * AM[r][k];
    return s;
  };
  for (int a = 0; a < 3; ++a)
    for (double turn : {-0.05, 0.05}) {
      double e[3] = {0, 0, 0}, T[3][3], RT[3][3];
      e[a] = 1.0;
      rotation(e, turn, T);
      multiply(T, R, RT);
      CHECK(score(RT) <= score(R) + 1e-12);
    }
  // Rank one and zero still give rotations.
  const double line[3][3] = {{1, 2, 3}, {2, 4, 6}, {0, 0, 0}}, zero[3][3] = {};
  closest_rotation(line, R);
  CHECK(det3(R) == doctest::Approx(1.0).epsilon(1e-12));
  closest_rotation(zero, R);
  CHECK(det3(R) == doctest::Approx(1.0).epsilon(1e-12));
}

TEST_CASE("the volume pass flags the tets it finds inverted, in one-at-a-time and four-at-a-time loops alike") {
  // Eight copies of one tet (disjoint vertices), the 3rd and 6th mirrored; hard volumes, one pass.
  std::vector<float> xw;
  std::vector<uint32_t> ids;
  std::vector<float> rest6;
  for (uint32_t t = 0; t < 8; ++t) {
    const float z = (t == 2 || t == 5) ? -0.3f : 0.3f;  // corner 3 below the base: inverted
    const float corners[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0.2f, 0.2f, z}};
    for (const auto& c : corners) xw.insert(xw.end(), {c[0] + 3.0f * t, c[1], c[2], 1.0f});
    for (uint32_t k = 0; k < 4; ++k) ids.push_back(4 * t + k);
    rest6.push_back(0.3f);
  }
  for (bool in_colour : {false, true}) {
    CAPTURE(in_colour);
    std::vector<float> x = xw;
    std::vector<uint8_t> flags(8, 0);
    VolumePass p;
    p.xw = x.data();
    p.ids = ids.data();
    p.rest6 = rest6.data();
    p.count = 8;
    p.inverted = flags.data();
    solve_volume_span(p, 0, 8, in_colour);
    for (uint32_t t = 0; t < 8; ++t) CHECK(flags[t] == ((t == 2 || t == 5) ? 1 : 0));
  }
}

TEST_CASE("a region of inverted tets is put on its rest shape, rigidly, keeping its momentum, and leaves without a kick") {
  // Two tets sharing a face (5 vertices, unequal masses), the second folded through the shared face.
  const float rest[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0.1f, 0.1f, 0.8f, 0.3f, 0.3f, -0.7f};
  const uint32_t tets[8] = {0, 1, 2, 3, 0, 2, 1, 4};  // both positive at rest
  REQUIRE(tet_volume6(rest, tets) > 0.0);
  REQUIRE(tet_volume6(rest, tets + 4) > 0.0);
  // Now: turned and moved, and vertex 4 pushed up through the face 0 1 2.
  float pos[15] = {2, 1, 0, 2, 1, 1, 2, 2, 0, 2.8f, 1.1f, 0.1f, 1.5f, 1.3f, 0.3f};
  REQUIRE(tet_volume6(pos, tets + 4) < 0.0);
  const float mass[5] = {1, 2, 3, 1.5f, 0.5f}, inv_mass[5] = {1, 0.5f, 1.0f / 3.0f, 1.0f / 1.5f, 2};
  float vel[15] = {1, 0, 0, 0, 2, 0, -1, 0, 3, 0, 0, 0, 4, -2, 0};
  InvertedTetRepair repair;
  repair.resize(5, 2);
  repair.flags()[1] = 1;  // as the volume pass would set it
  double centre_before[3] = {0, 0, 0}, momentum_before[3] = {0, 0, 0}, M = 0;
  for (int i = 0; i < 5; ++i) {
    M += mass[i];
    for (int k = 0; k < 3; ++k) centre_before[k] += mass[i] * pos[3 * i + k], momentum_before[k] += mass[i] * vel[3 * i + k];
  }
  CHECK(repair.repair(pos, rest, mass, inv_mass, tets) == 1);
  CHECK(repair.flags()[1] == 0);  // cleared
  // Both tets upright again with their rest volumes: vertex 3 (not in the region) kept its place,
  // the region {0, 1, 2, 4} is a rigid copy of its rest shape.
  CHECK(tet_volume6(pos, tets + 4) == doctest::Approx(tet_volume6(rest, tets + 4)).epsilon(1e-5));
  CHECK(pos[9] == 2.8f);
  CHECK(repair.members().size() == 4);
  for (int k = 0; k < 3; ++k) {
    double c = 0;
    for (int i = 0; i < 5; ++i) c += mass[i] * pos[3 * i + k];
    CHECK(c == doctest::Approx(centre_before[k]).epsilon(1e-6));  // the centre of mass stays
  }
  // The region leaves with its mean velocity: momentum unchanged, no relative motion inside it.
  repair.settle_velocities(vel, mass, inv_mass);
  for (int k = 0; k < 3; ++k) {
    double p = 0;
    for (int i = 0; i < 5; ++i) p += mass[i] * vel[3 * i + k];
    CHECK(p == doctest::Approx(momentum_before[k]).epsilon(1e-6));
    CHECK(vel[k] == vel[3 + k]);
    CHECK(vel[k] == vel[12 + k]);
  }
  CHECK(vel[9] == 0.0f);  // vertex 3 is not in the region
  // Nothing flagged: nothing done.
  CHECK(repair.repair(pos, rest, mass, inv_mass, tets) == 0);
}

// The facts, at the page's defaults. On main the pressed box thrashed for good (measured: ~340
// of 750 tets inverted at every second for 10 s, 6-9 MJ of kinetic energy, up to 19 m high, 8,300
// intersecting surface triangle pairs; flattened the same, up to 34 m); the ball and the bar pressed
// and the 8^3 box likewise (20-50 kJ after 10 s). Now (measured): no tet inverted, no pair, volume
// 0.9996 / 0.9989 / 0.9994 pressed (box / ball / bar), 0.9996 / 0.9985 / 0.9993 flattened, kinetic
// energy in the last second at most 0.001 / 0.006 / 3e-7 J pressed (12 s) and 0.25 / 0.07 / 2e-6 J
// flattened (14 s). Flattened bodies are thrown up first (9-27 m: their tets at 5 % of their volume
// are not inverted, and hard volumes give them back in a substep) and stop after landing.
// Tolerances: the volume within 2 % (the issue's; what is left is the edges' sag and the one pass's
// residual, 0.1 %); at rest: below 1 J of kinetic energy throughout the last second, against ~5 kJ of
// potential energy of the one-tonne box 0.5 m up and the MJ of main.
TEST_CASE("Inverted tets recover: a box, a ball and a bar pressed or flattened to 5 % come back whole and stop") {
  struct Body {
    const char* name;
    TetMesh mesh;
  };
  const Body bodies[] = {
      {"1 m box, 5^3 cells (the issue's)", make_box(5, 5, 5, 1, 1, 1, 0, 0.5f, 0)},
      {"1 m ball, 8 cells across", make_ball(0.5f, 8, 0, 0.5f, 0)},
      {"1.2 m x 0.3 m x 0.3 m bar", make_box(12, 3, 3, 1.2f, 0.3f, 0.3f, 0, 0.15f, 0)},
  };
  for (const Body& b : bodies)
    for (Start start : {Start::Press, Start::Flatten}) {
      const std::string name = std::string(b.name) + (start == Start::Press ? ", pressed" : ", flattened");
      CAPTURE(name);
      const Outcome o = recover(b.mesh, page_defaults(), Solver::Xpbd, start, start == Start::Press ? 12.0 : 14.0);
      check_recovered(o);
    }
}

// Other cell counts and compliant volumes (the simple model's other form). Measured: 0 inverted, 0
// pairs; volume 0.9998 (4^3), 0.9994 (8^3), 0.9992 (5^3, 1e-8 m^5/N); at most 0.02 J in the last second.
TEST_CASE("Inverted tets recover: boxes of 4^3 and 8^3 cells, and one with compliant volumes, pressed to 5 %") {
  struct Case {
    const char* name;
    int cells;
    float volume_compliance;  // m^5/N
  };
  for (const Case& c : {Case{"4^3", 4, 0.0f}, Case{"8^3", 8, 0.0f}, Case{"5^3, compliant volumes", 5, 1e-8f}}) {
    CAPTURE(c.name);
    BodyParams p = page_defaults();
    p.volume_compliance = c.volume_compliance;
    const Outcome o = recover(make_box(c.cells, c.cells, c.cells, 1, 1, 1, 0, 0.5f, 0), p, Solver::Xpbd, Start::Press, 10.0);
    check_recovered(o);
  }
}

// Neo-Hookean restores through J <= 0 by itself (its energy is defined and pushes back there), and the
// repair is not applied to it: the flattened box comes back under XPBD's block solve and VBD's
// per-vertex Newton. (silicone 100 kPa, nu 0.45, page defaults, VBD 2 sweeps as the preset falls back to.)
TEST_CASE("Inverted tets recover: Neo-Hookean, a box flattened to 5 % under XPBD and VBD") {
  BodyParams p = page_defaults();
  p.material = Material::NeoHookean;
  p.youngs_modulus = 1e5f;
  p.poisson_ratio = 0.45f;
  for (Solver solver : {Solver::Xpbd, Solver::Vbd}) {
    CAPTURE(int(solver));
    p.iterations = solver == Solver::Vbd ? 2 : 1;
    const Outcome o = recover(make_box(5, 5, 5, 1, 1, 1, 0, 0.5f, 0), p, solver, Start::Flatten, 10.0);
    CHECK(o.inverted == 0);
    CHECK(o.intersections == 0);
    CHECK(std::fabs(o.volume - 1.0) < 0.02);
    CHECK(o.kinetic_peak < 5.0);
  }
}

// The surface counter itself: a box's own surface meets itself nowhere; one vertex pushed through the
// opposite face makes pairs.
TEST_CASE("count_surface_intersections: none on a rest box, some once a corner is pushed through") {
  TetMesh m = make_box(2, 2, 2, 1, 1, 1, 0, 0.5f, 0);
  const std::vector<uint32_t> surface = boundary_triangles(m.tets.data(), int64_t(m.tets.size() / 4));
  const uint32_t count = uint32_t(surface.size() / 3);
  CHECK(testing_surfaces::count_surface_intersections(m.positions.data(), surface.data(), count) == 0);
  // The vertex at (-0.5, 1, -0.5) pulled down through the bottom face to y = -0.5.
  for (size_t i = 0; i < m.positions.size() / 3; ++i)
    if (m.positions[3 * i] == -0.5f && m.positions[3 * i + 1] == 1.0f && m.positions[3 * i + 2] == -0.5f)
      m.positions[3 * i + 1] = -0.5f;
  CHECK(testing_surfaces::count_surface_intersections(m.positions.data(), surface.data(), count) > 0);
}
