// The stable Neo-Hookean material (materials/neo_hookean.h) and XPBD's iterations and residual.
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "cantilever.h"
#include "materials/neo_hookean.h"
#include "shapes/shapes.h"
#include "softbody.h"
#include "solver/soft_body.h"

using namespace sb;

namespace {

struct Tets {
  std::vector<float> rest, B, volume;
  std::vector<uint32_t> ids;
};

Tets tets_of(const TetMesh& m) {
  Tets t;
  t.rest = m.positions;
  t.ids = m.tets;
  const size_t n = m.tets.size() / 4;
  t.B.resize(9 * n);
  t.volume.resize(n);
  for (size_t k = 0; k < n; ++k) {
    REQUIRE(rest_shape_inverse(m.positions.data(), &m.tets[4 * k], &t.B[9 * k]));
    const float* p = m.positions.data();
    const uint32_t* id = &m.tets[4 * k];
    double d[3][3];
    for (int i = 0; i < 3; ++i)
      for (int c = 0; c < 3; ++c) d[i][c] = double(p[3 * id[i + 1] + c]) - p[3 * id[0] + c];
    t.volume[k] = float((d[0][0] * (d[1][1] * d[2][2] - d[1][2] * d[2][1]) - d[0][1] * (d[1][0] * d[2][2] - d[1][2] * d[2][0]) +
                         d[0][2] * (d[1][0] * d[2][1] - d[1][1] * d[2][0])) / 6.0);
  }
  return t;
}

// Energy per unit volume of the box stretched homogeneously by diag(1 + ex, 1 + ey, 1 + ey), J/m^3.
double energy_density(const NeoHookean& m, const Tets& t, double ex, double ey) {
  std::vector<float> x(t.rest.size());
  for (size_t i = 0; i < x.size(); i += 3) {
    x[i] = float(t.rest[i] * (1 + ex));
    x[i + 1] = float(t.rest[i + 1] * (1 + ey));
    x[i + 2] = float(t.rest[i + 2] * (1 + ey));
  }
  double v = 0;
  for (float vol : t.volume) v += vol;
  return neo_hookean_energy(m, x.data(), t.ids.data(), t.B.data(), t.volume.data(), uint32_t(t.volume.size())) / v;
}

}  // namespace

TEST_CASE("Neo-Hookean: a small uniaxial stretch gives back Young's modulus and Poisson's ratio") {
  // Uniaxial stress: at axial strain e the free lateral strain minimises the energy at -nu e, and the
  // energy density there is E e^2 / 2. Homogeneous strain is exact on linear tets, so what is left is
  // the O(e) nonlinearity of the material: at e = 1e-3, 1 % of tolerance covers it and float rounding.
  const Tets t = tets_of(make_box(2, 2, 2, 1, 1, 1, 0.5f, 0.5f, 0.5f));
  for (float nu : {0.0f, 0.3f, 0.45f, 0.49f}) {
    CAPTURE(nu);
    const float E = 1e6f;
    const NeoHookean m = neo_hookean_from(E, nu);
    const double e = 1e-3;
    // The energy is quadratic in the lateral strain near its minimum: fit it through three points.
    const double y0 = -0.6 * e, y1 = -0.3 * e, y2 = 0.0;
    const double w0 = energy_density(m, t, e, y0), w1 = energy_density(m, t, e, y1), w2 = energy_density(m, t, e, y2);
    const double a = ((w2 - w1) / (y2 - y1) - (w1 - w0) / (y1 - y0)) / (y2 - y0);
    const double b = (w1 - w0) / (y1 - y0) - a * (y0 + y1);
    const double y_min = -b / (2 * a);
    const double w_min = w0 + (y_min - y0) * ((w1 - w0) / (y1 - y0) + a * (y_min - y1));
    CHECK(-y_min / e == doctest::Approx(nu).epsilon(0.01).scale(1.0));
    CHECK(w_min == doctest::Approx(0.5 * E * e * e).epsilon(0.01));
  }
  CHECK(energy_density(neo_hookean_from(1e6f, 0.3f), t, 0, 0) == doctest::Approx(0).scale(1e-3));  // rest: 0
}

TEST_CASE("Neo-Hookean: forces are minus the energy's gradient, also for an inverted tet") {
  // Central differences of the energy (in double from float positions, step 1e-3 m) against the
  // forces: they agree to 0.5 % of the largest force (the step's truncation is O(h^2) ~ 1e-6 relative).
  const TetMesh mesh = make_box(2, 2, 2, 1, 1, 1, 0.5f, 0.5f, 0.5f);
  const Tets t = tets_of(mesh);
  const NeoHookean m = neo_hookean_from(1e5f, 0.4f);
  std::vector<float> x = mesh.positions;
  uint32_t seed = 12345;
  for (float& v : x) {
    seed = seed * 1664525u + 1013904223u;
    v += 0.15f * (float(seed >> 8) / float(1u << 24) - 0.5f);
  }
  std::swap(x[0], x[3]);  // a vertex moved across its neighbour: some tets inverted
  const uint32_t n = uint32_t(t.volume.size());
  std::vector<float> f(x.size(), 0.0f);
  add_neo_hookean_forces(m, x.data(), t.ids.data(), t.B.data(), t.volume.data(), n, f.data());
  float largest = 0;
  for (float v : f) largest = std::max(largest, std::fabs(v));
  REQUIRE(largest > 0);
  for (size_t i = 0; i < x.size(); i += 7) {
    CAPTURE(i);
    const float keep = x[i], h = 1e-3f;
    x[i] = keep + h;
    const double up = neo_hookean_energy(m, x.data(), t.ids.data(), t.B.data(), t.volume.data(), n);
    x[i] = keep - h;
    const double down = neo_hookean_energy(m, x.data(), t.ids.data(), t.B.data(), t.volume.data(), n);
    x[i] = keep;
    CHECK(f[i] == doctest::Approx(-(up - down) / (2.0 * h)).scale(largest).epsilon(5e-3));
  }
}

TEST_CASE("Neo-Hookean under implicit Euler: a cantilever is stiffer than beam theory by the linear tets' locking, less so when refined") {
  // A 1 m x 0.1 m x 0.1 m beam clamped at x = 0, E = 10 MPa, nu = 0.3, density 1000, g = 9.81:
  // Euler-Bernoulli gives the tip q L^4 / (8 E I) = 147 mm. Linear tets lock in bending, so the
  // static tip is smaller and approaches it with refinement (measured 0.30 and 0.61 of it at 10x1x1
  // and 20x2x2 cells; 0.85 at 40x4x4 and 0.94 at 80x8x8, too slow to settle here: the static solver
  // reaches those meshes, test_beam_theory.cpp).
  const double expected = 1000 * 9.81 * 0.01 / (8 * 1e7 * 1e-4 / 12.0);
  double last = 0;
  for (int cells : {10, 20}) {
    CAPTURE(cells);
    BodyParams p;
    p.material = Material::NeoHookean;
    p.youngs_modulus = 1e7f;
    p.poisson_ratio = 0.3f;
    p.damping = 10.0f;  // about the first mode's angular frequency: settled in ~1 s
    const auto body = testing_cantilever::settled(p, cells, Solver::ImplicitEuler, 150);
    const SoftBody& b = *body;
    const double tip = testing_cantilever::tip_sag(b);
    MESSAGE("cells " << cells << ": tip " << tip * 1000 << " mm, " << tip / expected << " of beam theory");
    CHECK(tip < expected);
    CHECK(tip > 1.5 * last);  // refinement relieves the locking markedly
    CHECK(b.stats().volume_ratio == doctest::Approx(1).epsilon(1e-3));
    last = tip;
  }
  CHECK(last > 0.5 * expected);
}

TEST_CASE("XPBD iterations: the residual falls with more passes, and a stiff body's sag approaches implicit Euler's") {
  // A stiff simple-model cantilever (edge compliance 1e-6 m/N, volume 1e-3): one pass per substep
  // leaves it far softer than the implicit Euler answer for the same energy (the issue measured 145
  // vs 12.1 mm); more passes per substep converge each implicit step and close most of the gap.
  auto sag = [](Solver solver, int iterations, double* residual) {
    BodyParams p;
    p.edge_compliance = 1e-6f;
    p.volume_compliance = 1e-3f;
    p.iterations = iterations;
    p.damping = 10.0f;
    const auto b = testing_cantilever::settled(p, 10, solver, 180);
    if (residual) *residual = b->stats().residual;
    return testing_cantilever::lowest_sag(*b);
  };
  const double implicit = sag(Solver::ImplicitEuler, 1, nullptr);
  double r1 = 0, r8 = 0, r32 = 0;
  const double one = sag(Solver::Xpbd, 1, &r1), eight = sag(Solver::Xpbd, 8, &r8), many = sag(Solver::Xpbd, 32, &r32);
  MESSAGE("implicit Euler " << implicit * 1000 << " mm; XPBD 1, 8, 32 passes: " << one * 1000 << ", " << eight * 1000 << ", "
                            << many * 1000 << " mm; residuals " << r1 << ", " << r8 << ", " << r32);
  CHECK(one > 3 * implicit);
  CHECK(std::fabs(eight - implicit) < std::fabs(one - implicit));
  CHECK(std::fabs(many - implicit) < std::fabs(eight - implicit));
  CHECK(r8 < r1);
  CHECK(r32 < r8);
}

TEST_CASE("C API: iterations are whole passes in 1..100, refused otherwise with nothing changed; the residual is in the stats") {
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_box(w, 4, 4, 4, 0.4f, 0.4f, 0.4f, 0.0f, 0.5f, 0.0f);
  REQUIRE(b != 0);
  CHECK(sb_body_get_param(w, b, SB_PARAM_ITERATIONS) == 1.0f);  // documented default
  CHECK(sb_body_set_param(w, b, SB_PARAM_ITERATIONS, 2.5f) == SB_ERR_OUT_OF_RANGE);
  CHECK(std::string(sb_last_error()).find("whole number") != std::string::npos);
  CHECK(sb_body_set_param(w, b, SB_PARAM_ITERATIONS, 0.0f) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_body_set_param(w, b, SB_PARAM_ITERATIONS, 101.0f) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_body_get_param(w, b, SB_PARAM_ITERATIONS) == 1.0f);
  CHECK(sb_body_set_param(w, b, SB_PARAM_ITERATIONS, 4.0f) == SB_OK);
  CHECK(sb_body_get_param(w, b, SB_PARAM_ITERATIONS) == 4.0f);
  CHECK(sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, 1e-4f) == SB_OK);
  for (int f = 0; f < 30; ++f) REQUIRE(sb_world_step(w, 1.0f / 60) == SB_OK);
  sb_body_stats st;
  REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
  CHECK(st.residual >= 0.0f);
  CHECK(st.residual < 0.1f);  // a soft box resting on the ground: each substep nearly solved
  sb_world_destroy(w);
}

TEST_CASE("C API: the material's parameters are validated, and Neo-Hookean refuses PBD both ways") {
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_box(w, 3, 3, 3, 0.3f, 0.3f, 0.3f, 0.0f, 0.5f, 0.0f);
  REQUIRE(b != 0);
  CHECK(sb_body_get_param(w, b, SB_PARAM_MATERIAL) == float(SB_MATERIAL_SIMPLE));
  CHECK(sb_body_get_param(w, b, SB_PARAM_YOUNGS_MODULUS) == 1e5f);
  CHECK(sb_body_get_param(w, b, SB_PARAM_POISSON_RATIO) == 0.45f);
  CHECK(sb_body_set_param(w, b, SB_PARAM_POISSON_RATIO, 0.5f) == SB_ERR_OUT_OF_RANGE);
  CHECK(std::string(sb_last_error()).find("0.49") != std::string::npos);
  CHECK(sb_body_set_param(w, b, SB_PARAM_YOUNGS_MODULUS, 0.0f) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_body_set_param(w, b, SB_PARAM_YOUNGS_MODULUS, NAN) == SB_ERR_NOT_FINITE);
  CHECK(sb_body_set_param(w, b, SB_PARAM_MATERIAL, 0.5f) == SB_ERR_OUT_OF_RANGE);
  // Under PBD: refused, nothing changed.
  CHECK(sb_body_set_solver(w, b, SB_SOLVER_PBD) == SB_OK);
  CHECK(sb_body_set_param(w, b, SB_PARAM_MATERIAL, float(SB_MATERIAL_NEO_HOOKEAN)) == SB_ERR_MATERIAL_SOLVER);
  CHECK(std::string(sb_last_error()).find("PBD") != std::string::npos);
  CHECK(sb_body_get_param(w, b, SB_PARAM_MATERIAL) == float(SB_MATERIAL_SIMPLE));
  CHECK(sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, 1e-4f) == SB_OK);
  CHECK(sb_body_set_param(w, b, SB_PARAM_VOLUME_COMPLIANCE, 1e-6f) == SB_OK);
  for (int32_t solver : {SB_SOLVER_VBD, SB_SOLVER_IMPLICIT_EULER, SB_SOLVER_SEMI_IMPLICIT_EULER}) {
    CAPTURE(solver);
    CHECK(sb_body_set_solver(w, b, solver) == SB_OK);
    CHECK(sb_body_set_param(w, b, SB_PARAM_MATERIAL, float(SB_MATERIAL_NEO_HOOKEAN)) == SB_OK);
    CHECK(sb_body_set_solver(w, b, SB_SOLVER_PBD) == SB_ERR_MATERIAL_SOLVER);
    CHECK(sb_body_get_solver(w, b) == solver);
    // The Neo-Hookean body has no springs: compliance 0 is no longer a problem for these solvers.
    CHECK(sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, 0.0f) == SB_OK);
    CHECK(sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, 1e-4f) == SB_OK);
    for (int f = 0; f < 20; ++f) REQUIRE(sb_world_step(w, 1.0f / 60) == SB_OK);
    CHECK(sb_body_set_param(w, b, SB_PARAM_MATERIAL, float(SB_MATERIAL_SIMPLE)) == SB_OK);
    CHECK(sb_body_reset(w, b) == SB_OK);
  }
  // Back to the simple material under VBD with a compliance of 0: refused, saying what it needs.
  CHECK(sb_body_set_solver(w, b, SB_SOLVER_VBD) == SB_OK);
  CHECK(sb_body_set_param(w, b, SB_PARAM_MATERIAL, float(SB_MATERIAL_NEO_HOOKEAN)) == SB_OK);
  CHECK(sb_body_set_param(w, b, SB_PARAM_VOLUME_COMPLIANCE, 0.0f) == SB_OK);  // no volume terms in Neo-Hookean
  CHECK(sb_body_set_param(w, b, SB_PARAM_MATERIAL, float(SB_MATERIAL_SIMPLE)) == SB_ERR_NEEDS_COMPLIANCE);
  CHECK(std::string(sb_last_error()).find("simple material needs") != std::string::npos);
  CHECK(sb_body_get_param(w, b, SB_PARAM_MATERIAL) == float(SB_MATERIAL_NEO_HOOKEAN));
  const sb_body rope = sb_body_create_rope(w, 8, 1.0f, 0, 2, 0);
  CHECK(sb_body_set_param(w, rope, SB_PARAM_EDGE_COMPLIANCE, 1e-4f) == SB_OK);
  CHECK(sb_body_set_solver(w, rope, SB_SOLVER_VBD) == SB_OK);
  CHECK(sb_body_set_param(w, rope, SB_PARAM_MATERIAL, float(SB_MATERIAL_NEO_HOOKEAN)) == SB_ERR_OUT_OF_RANGE);
  CHECK(std::string(sb_last_error()).find("tets") != std::string::npos);
  sb_world_destroy(w);
}

namespace {

// The substep count a refusal names ("use N or more substeps"), or 0.
int named_substeps(const std::string& message) {
  const size_t at = message.find("use ");
  return at == std::string::npos ? 0 : std::atoi(message.c_str() + at + 4);
}

}  // namespace

TEST_CASE("C API: Neo-Hookean runs under XPBD up to its stiffness number; every call that would exceed it is refused, naming the substeps that work") {
  // A 0.3 m box of 3^3 cells (10 cm), 1000 kg/m^3, nu = 0.45: E = 100 kPa is a stiffness number of
  // 0.68 per substep at 1/60 s and 10 substeps; 1 GPa is 10^4 times that, far above the limit of 500
  // (neo_hookean_xpbd.h: measured failures from 1140 on). The refusal names the substeps that bring
  // it back under the limit, and those work; each way of getting there (E, density, the material,
  // the solver, fewer substeps, a larger dt) is refused with nothing changed.
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_box(w, 3, 3, 3, 0.3f, 0.3f, 0.3f, 0.0f, 0.5f, 0.0f);
  REQUIRE(b != 0);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_MATERIAL, float(SB_MATERIAL_NEO_HOOKEAN)) == SB_OK);  // under XPBD
  for (int f = 0; f < 10; ++f) REQUIRE(sb_world_step(w, 1.0f / 60) == SB_OK);
  sb_body_stats st;
  REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
  CHECK(st.stiffness_number > 0.0f);
  CHECK(st.stiffness_number < 1.0f);
  CHECK(st.volume_ratio == doctest::Approx(1).epsilon(0.01));
  // E: refused, E unchanged, the message names the substeps.
  CHECK(sb_body_set_param(w, b, SB_PARAM_YOUNGS_MODULUS, 1e9f) == SB_ERR_MATERIAL_SOLVER);
  const std::string message = sb_last_error();
  MESSAGE(message);
  CHECK(sb_body_get_param(w, b, SB_PARAM_YOUNGS_MODULUS) == 1e5f);
  const int need = named_substeps(message);
  REQUIRE(need > 10);
  REQUIRE(need <= SB_MAX_SUBSTEPS);
  CHECK(sb_world_set_substeps(w, need) == SB_OK);
  CHECK(sb_body_set_param(w, b, SB_PARAM_YOUNGS_MODULUS, 1e9f) == SB_OK);
  for (int f = 0; f < 5; ++f) REQUIRE(sb_world_step(w, 1.0f / 60) == SB_OK);
  REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
  CHECK(st.stiffness_number <= SB_XPBD_NEO_HOOKEAN_MAX_STIFFNESS);
  CHECK(st.stiffness_number > 0.8f * SB_XPBD_NEO_HOOKEAN_MAX_STIFFNESS);  // the fewest that work: close to the limit
  // Lighter vertices (vertex groups) raise it too: refused, every scale as it was (a vertex listed
  // twice included).
  const uint32_t some[4] = {0, 5, 5, 17};
  CHECK(sb_body_set_vertex_scales(w, b, some, 4, 0.01f, 1.0f) == SB_ERR_MATERIAL_SOLVER);
  for (uint32_t v : some) {
    float mass = 0, stiffness = 0;
    REQUIRE(sb_body_get_vertex_scales(w, b, int32_t(v), &mass, &stiffness) == SB_OK);
    CHECK(mass == 1.0f);
    CHECK(stiffness == 1.0f);
  }
  // Past what any substep count allows at this dt: said so, without a count to set.
  CHECK(sb_body_set_param(w, b, SB_PARAM_YOUNGS_MODULUS, 1e12f) == SB_ERR_MATERIAL_SOLVER);
  CHECK(std::string(sb_last_error()).find("more than the 200 allowed") != std::string::npos);
  CHECK(sb_body_get_param(w, b, SB_PARAM_YOUNGS_MODULUS) == 1e9f);
  // Fewer substeps: refused, unchanged. A larger dt: the step is refused and nothing moves.
  CHECK(sb_world_set_substeps(w, need - 1) == SB_ERR_MATERIAL_SOLVER);
  CHECK(named_substeps(sb_last_error()) == need);
  CHECK(sb_world_get_substeps(w) == need);
  const float y = sb_body_positions(w, b)[1];
  CHECK(sb_world_step(w, 1.0f / 30) == SB_ERR_MATERIAL_SOLVER);
  CHECK(std::string(sb_last_error()).find("nothing moved") != std::string::npos);
  CHECK(sb_body_positions(w, b)[1] == y);
  // A lighter body (density) and a switch back from another solver: refused the same way.
  CHECK(sb_body_set_param(w, b, SB_PARAM_DENSITY, 100.0f) == SB_ERR_MATERIAL_SOLVER);
  CHECK(sb_body_get_param(w, b, SB_PARAM_DENSITY) == 1000.0f);
  REQUIRE(sb_body_set_solver(w, b, SB_SOLVER_VBD) == SB_OK);
  REQUIRE(sb_world_set_substeps(w, 10) == SB_OK);  // VBD has no such limit
  CHECK(sb_body_set_solver(w, b, SB_SOLVER_XPBD) == SB_ERR_MATERIAL_SOLVER);
  CHECK(sb_body_get_solver(w, b) == SB_SOLVER_VBD);
  // The simple material has no limit; switching to Neo-Hookean under XPBD is checked too.
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, 1e-4f) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_VOLUME_COMPLIANCE, 1e-6f) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_MATERIAL, float(SB_MATERIAL_SIMPLE)) == SB_OK);
  REQUIRE(sb_body_set_solver(w, b, SB_SOLVER_XPBD) == SB_OK);
  CHECK(sb_body_set_param(w, b, SB_PARAM_MATERIAL, float(SB_MATERIAL_NEO_HOOKEAN)) == SB_ERR_MATERIAL_SOLVER);
  CHECK(sb_body_get_param(w, b, SB_PARAM_MATERIAL) == float(SB_MATERIAL_SIMPLE));
  CHECK(sb_world_step(w, 1.0f / 60) == SB_OK);
  sb_world_destroy(w);
}

TEST_CASE("Neo-Hookean in pascals: a block sags the same under its own weight at any resolution; a compliance does not") {
  // A 0.4 m block of E = 100 kPa (soft silicone), nu = 0.3, 1000 kg/m^3 standing on the ground under
  // VBD (8 sweeps): its top settles by about rho g H^2 / (2E) = 7.8 mm (uniaxial, free sides; the
  // ground's friction holds the base, so a little less). At 4^3 and 8^3 cells the drop agrees within
  // 1 % (compression does not lock; measured 6.902 and 6.903 mm). The simple model (XPBD, 8 passes, incompressible
  // tets) with one edge compliance for both meshes does not: its stiffness is per edge, so the mesh
  // changes the body (measured 13 % more sag on the finer mesh; bounded at 5 %).
  auto drop = [](int cells, bool neo_hookean) {
    const sb_world w = sb_world_create();
    const sb_body b = sb_body_create_box(w, cells, cells, cells, 0.4f, 0.4f, 0.4f, 0.0f, 0.2f, 0.0f);
    REQUIRE(b != 0);
    REQUIRE(sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, 2e-5f) == SB_OK);
    REQUIRE(sb_body_set_param(w, b, SB_PARAM_DAMPING, 20.0f) == SB_OK);
    REQUIRE(sb_body_set_param(w, b, SB_PARAM_ITERATIONS, 8.0f) == SB_OK);
    if (neo_hookean) {
      REQUIRE(sb_body_set_param(w, b, SB_PARAM_VOLUME_COMPLIANCE, 1e-6f) == SB_OK);
      REQUIRE(sb_body_set_solver(w, b, SB_SOLVER_VBD) == SB_OK);
      REQUIRE(sb_body_set_param(w, b, SB_PARAM_MATERIAL, float(SB_MATERIAL_NEO_HOOKEAN)) == SB_OK);
      REQUIRE(sb_body_set_param(w, b, SB_PARAM_YOUNGS_MODULUS, 1e5f) == SB_OK);
      REQUIRE(sb_body_set_param(w, b, SB_PARAM_POISSON_RATIO, 0.3f) == SB_OK);
    }
    for (int f = 0; f < 90; ++f) REQUIRE(sb_world_step(w, 1.0f / 60) == SB_OK);
    const float* x = sb_body_positions(w, b);
    float top = 0;
    for (int32_t i = 0; i < sb_body_vertex_count(w, b); ++i) top = std::max(top, x[3 * i + 1]);
    sb_world_destroy(w);
    return 0.4 - double(top);
  };
  const double coarse = drop(4, true), fine = drop(8, true);
  const double simple_coarse = drop(4, false), simple_fine = drop(8, false);
  MESSAGE("Neo-Hookean: " << coarse * 1000 << " and " << fine * 1000 << " mm; simple model: " << simple_coarse * 1000
                          << " and " << simple_fine * 1000 << " mm (4^3 and 8^3 cells)");
  CHECK(fine == doctest::Approx(coarse).epsilon(0.01));
  CHECK(coarse > 0.5 * 7.8e-3);
  CHECK(coarse < 1.1 * 7.8e-3);
  CHECK(std::fabs(simple_fine / simple_coarse - 1) > 0.05);
}

namespace {

// The drop tests' 0.4 m block (cells^3 cells) on the ground under its own weight, 1000 kg/m^3,
// damping 20/s, 90 frames of 1/60 s at 10 substeps: how far its top sank, m, and its volume ratio.
struct Settled {
  double sag = 0.0, volume = 0.0;
};
Settled settle_block(int cells, sb_solver solver, int passes, float youngs_modulus, float poisson_ratio) {
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_box(w, cells, cells, cells, 0.4f, 0.4f, 0.4f, 0.0f, 0.2f, 0.0f);
  REQUIRE(b != 0);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, 1e-4f) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_VOLUME_COMPLIANCE, 1e-6f) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_DAMPING, 20.0f) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_ITERATIONS, float(passes)) == SB_OK);
  REQUIRE(sb_body_set_solver(w, b, solver) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_MATERIAL, float(SB_MATERIAL_NEO_HOOKEAN)) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_YOUNGS_MODULUS, youngs_modulus) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_POISSON_RATIO, poisson_ratio) == SB_OK);
  for (int f = 0; f < 90; ++f) REQUIRE(sb_world_step(w, 1.0f / 60) == SB_OK);
  sb_body_stats st;
  REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
  const float* x = sb_body_positions(w, b);
  float top = 0;
  for (int32_t i = 0; i < sb_body_vertex_count(w, b); ++i) top = std::max(top, x[3 * i + 1]);
  sb_world_destroy(w);
  return {0.4 - double(top), double(st.volume_ratio)};
}

}  // namespace

TEST_CASE("Neo-Hookean at nu = 0.49 keeps its volume within 1 % under load; at nu = 0.3 it does not") {
  // A 0.4 m block of E = 20 kPa (gelatin) on the ground under its own weight, VBD 8 sweeps: the base
  // carries rho g H = 3.9 kPa, a fifth of E (measured: the top sinks 2.6 cm). Its volume changes by
  // about (1 - 2 nu) times the axial strain: a fiftieth of it at nu = 0.49, 40 % at 0.3. Measured
  // volume ratios 0.9966 and 0.950.
  auto volume_after = [](float nu) {
    const Settled block = settle_block(4, SB_SOLVER_VBD, 8, 2e4f, nu);
    MESSAGE("nu " << nu << ": volume ratio " << block.volume << ", top sank " << block.sag << " m");
    CHECK(block.sag > 0.01);  // loaded: at least 1 cm of sag
    return block.volume;
  };
  CHECK(std::fabs(volume_after(0.49f) - 1) < 0.01);
  CHECK(std::fabs(volume_after(0.3f) - 1) > 0.01);
}

// ---- Neo-Hookean under XPBD: one block constraint per tet (materials/neo_hookean_xpbd.h) ----

// The static answer for settle_block's block: its bottom layer held where it is (the ground holds it
// up, static friction holds it from sliding), the sag of its top under gravity, m.
static double static_block_sag(int cells, float youngs_modulus, float poisson_ratio) {
  BodyParams p;
  p.material = Material::NeoHookean;
  p.youngs_modulus = youngs_modulus;
  p.poisson_ratio = poisson_ratio;
  SoftBody b(make_box(cells, cells, cells, 0.4f, 0.4f, 0.4f, 0.0f, 0.2f, 0.0f), p);
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    if (b.positions()[3 * i + 1] < 1e-6f) b.set_pinned(i, true);
  const float g[3] = {0.0f, -9.81f, 0.0f};
  REQUIRE(b.settle_static(g).status == StaticStatus::Converged);
  float top = 0.0f;
  for (uint32_t i = 0; i < b.vertex_count(); ++i) top = std::max(top, b.positions()[3 * i + 1]);
  return 0.4 - double(top);
}

TEST_CASE("Neo-Hookean on the ground: VBD and XPBD settle at the static sag") {
  // The block of "Neo-Hookean in pascals" (E = 100 kPa, nu = 0.3) on the ground at 4^3 and 8^3 cells;
  // the static solver with the bottom layer held gives 6.868 and 6.711 mm. VBD (8 sweeps) holds the
  // vertices on the ground inside its sweeps (vbd.h), XPBD (8 passes) inside its block passes, static
  // friction included (neo_hookean_xpbd.h), so each implicit step is the constrained one and both
  // settle on the static answer up to what 8 sweeps or passes leave unsolved: measured VBD 0.1 % and
  // 1.1 % off, XPBD 0.00 % at both (with the ground after the passes XPBD was 4 % and 8 % soft, and
  // with only the friction after them, 5 %); bound 2 %.
  for (int cells : {4, 8}) {
    CAPTURE(cells);
    const double exact = static_block_sag(cells, 1e5f, 0.3f);
    const Settled vbd = settle_block(cells, SB_SOLVER_VBD, 8, 1e5f, 0.3f), xpbd = settle_block(cells, SB_SOLVER_XPBD, 8, 1e5f, 0.3f);
    MESSAGE("static " << exact * 1000 << " mm, VBD " << vbd.sag * 1000 << " mm, XPBD " << xpbd.sag * 1000 << " mm");
    CHECK(std::fabs(vbd.sag / exact - 1) < 0.02);
    CHECK(std::fabs(xpbd.sag / exact - 1) < 0.02);
  }
}

TEST_CASE("Neo-Hookean under XPBD at nu = 0.49 keeps its volume within 1 % under load") {
  // The gelatin block of the VBD test above (E = 20 kPa, the base loaded to a fifth of E), one
  // pass per substep, the demo's default: measured volume ratio below.
  const Settled one = settle_block(4, SB_SOLVER_XPBD, 1, 2e4f, 0.49f);
  MESSAGE("XPBD 1 pass, nu 0.49: volume ratio " << one.volume << ", sag " << one.sag * 1000 << " mm");
  CHECK(one.sag > 0.01);  // loaded: at least 1 cm of sag
  CHECK(std::fabs(one.volume - 1) < 0.01);
}

TEST_CASE("Neo-Hookean under XPBD: a gelatin cube dropped on the ground lands, keeps its volume and comes to rest") {
  // The demo's gelatin preset (10 kPa, nu = 0.49, one pass, 10 substeps at 1/60 s) on a 0.4 m cube of
  // 4^3 cells dropped from 0.5 m (314 J of potential energy to lose): nothing blows up (the energy
  // never rises by more than 2 % after the impact), it stays above the ground, it is back within 1 %
  // of its volume once it rests, and the impact does not crush it. The impact compresses it for a
  // moment as it should: at 3.1 m/s into a bulk modulus of E / (3 (1 - 2 nu)) = 167 kPa the pressure
  // wave (rho c v, c = 13 m/s) is 40 kPa (measured lowest volume 0.954; VBD on the demo's 1 m box,
  // 0.949; bounded at 0.9).
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_box(w, 4, 4, 4, 0.4f, 0.4f, 0.4f, 0.0f, 0.7f, 0.0f);
  REQUIRE(b != 0);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_MATERIAL, float(SB_MATERIAL_NEO_HOOKEAN)) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_YOUNGS_MODULUS, 1e4f) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_POISSON_RATIO, 0.49f) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_DAMPING, 1.0f) == SB_OK);
  double lowest_volume = 1.0, energy_after_impact = INFINITY;
  sb_body_stats st;
  for (int f = 0; f < 240; ++f) {
    REQUIRE(sb_world_step(w, 1.0f / 60) == SB_OK);
    REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
    REQUIRE(st.finite == 1);
    lowest_volume = std::min(lowest_volume, double(st.volume_ratio));
    CHECK(st.min_y > -1e-3f);
    const double energy = st.kinetic_energy + st.potential_energy + st.elastic_energy;
    if (f >= 30) {  // landed (the fall takes ~0.3 s)
      CHECK(energy < energy_after_impact * 1.02 + 1e-3);  // no energy from nowhere (2 %: elastic energy is an estimate)
      energy_after_impact = std::min(energy_after_impact, energy);
    }
  }
  MESSAGE("gelatin: lowest volume ratio " << lowest_volume << ", at 4 s " << st.volume_ratio << ", kinetic energy " << st.kinetic_energy
                                          << " J, residual " << st.residual << ", stiffness number " << st.stiffness_number);
  CHECK(lowest_volume > 0.9);
  CHECK(std::fabs(st.volume_ratio - 1) < 0.01);
  CHECK(st.kinetic_energy < 0.3);  // a thousandth of what the fall released (measured 0.045 J)
  sb_world_destroy(w);
}

TEST_CASE("Neo-Hookean under XPBD: the 20 x 2 x 2 cantilever keeps its volume at 1 and 10 MPa and converges to the static answer") {
  // Where the old constraint pair (C_D = |F|, C_H = det F - gamma) kept 6 % of the volume at 10 MPa
  // and 10 substeps (docs). One pass per substep is soft, as XPBD always is for a stiff body (the
  // residual says so), and more passes approach the static answer on the same mesh: measured 597 %,
  // 172 %, 15.5 % off at 1, 4, 16 passes at 10 MPa (stiffness number 56), 22.2 % and 0.40 % at 1 and
  // 4 passes at 1 MPa (still creeping at 1.5 s: its slow mode is overdamped), the volume within 0.2 %
  // throughout. The reference is the static solver's answer under g (89.19 mm at 10 MPa): the
  // loop's damping (10/s here, to settle) acts before gravity's increment, so it leaves the weight
  // a resting body balances alone (Converged statics, test_xpbd_statics.cpp).
  for (float E : {1e6f, 1e7f}) {
    CAPTURE(E);
    BodyParams p = testing_cantilever::neo_hookean_params(E);
    const float gravity[3] = {0.0f, -9.81f, 0.0f};
    auto reference_body = testing_cantilever::clamped(p, 20);
    REQUIRE(reference_body->settle_static(gravity).status == StaticStatus::Converged);
    const double reference = testing_cantilever::tip_sag(*reference_body);
    double last_error = INFINITY;
    for (int passes : {1, 4, 16}) {
      if (E < 5e6f && passes > 4) break;  // within 0.5 % at 4 already; spares the suite 3 s
      CAPTURE(passes);
      p.iterations = passes;
      const auto b = testing_cantilever::settled(p, 20, Solver::Xpbd, 90);
      const double error = std::fabs(testing_cantilever::tip_sag(*b) / reference - 1);
      MESSAGE("E " << E << ", " << passes << " passes: tip " << testing_cantilever::tip_sag(*b) * 1000 << " mm (static "
                   << reference * 1000 << "), " << error * 100 << " % off, volume " << b->stats().volume_ratio << ", residual "
                   << b->stats().residual << ", stiffness number " << b->stats().stiffness_number);
      CHECK(b->stats().volume_ratio == doctest::Approx(1).epsilon(0.01));
      CHECK(b->stats().stiffness_number < kXpbdNeoHookeanMaxStiffness);
      CHECK(error < last_error);
      last_error = error;
    }
    CHECK(last_error < (E < 5e6f ? 0.01 : 0.2));
  }
}

TEST_CASE("Neo-Hookean under XPBD: the static answer is its converged passes' rest state") {
  // The 20 x 2 x 2 cantilever put at the static solver's answer (10 MPa, 89.19 mm; 1 MPa, 618.6 mm)
  // at rest, undamped: implicit Euler's step from an equilibrium is the equilibrium, and XPBD's
  // block constraints have constant gradients, so with the passes converged it stays (measured
  // 89.199 and 618.594 mm after 2 frames at 128 passes, residual 7e-5). This needs the positions
  // rebuilt from the multipliers after each pass (neo_hookean_positions): accumulated in float they
  // drifted 1 % off in 5 frames at 256 passes with the residual at 1e-6.
  const float gravity[3] = {0.0f, -9.81f, 0.0f};
  for (float E : {1e6f, 1e7f}) {
    CAPTURE(E);
    BodyParams p = testing_cantilever::neo_hookean_params(E);
    p.damping = 0.0f;  // undamped
    p.iterations = 128;
    auto b = testing_cantilever::clamped(p, 20);
    REQUIRE(b->settle_static(gravity).status == StaticStatus::Converged);
    const double reference = testing_cantilever::tip_sag(*b);
    REQUIRE(b->set_solver(Solver::Xpbd));
    StepSettings s;
    s.ground = false;
    for (int f = 0; f < 2; ++f) REQUIRE(b->step(1.0f / 60, s));
    const double stay = testing_cantilever::tip_sag(*b);
    MESSAGE("E " << E << ": static " << reference * 1000 << " mm, after 2 frames of 128 passes " << stay * 1000 << " mm, residual "
                 << b->stats().residual);
    CHECK(std::fabs(stay / reference - 1) < 1e-3);
    CHECK(b->stats().residual < 1e-3);
  }
}
