// Converged statics (solver/static_solver.h) and the cantilever against Euler-Bernoulli beam theory:
// the static solver's model is the force model's, it converges, the tip deflection approaches beam
// theory as the mesh is refined, and each dynamic solver's settled answer approaches the static one.
// The finest resolution (160 x 16 x 16, minutes) is the soak case at the end (`npm run soak:beam`).
#include <doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "cantilever.h"
#include "materials/neo_hookean.h"
#include "shapes/shapes.h"
#include "softbody.h"
#include "solver/soft_body.h"
#include "solver/spring_forces.h"
#include "solver/static_matrix.h"
#include "solver/static_model.h"
#include "solver/static_solver.h"

using namespace sb;
using testing_cantilever::beam_theory_sag;
using testing_cantilever::clamped;
using testing_cantilever::neo_hookean_params;
using testing_cantilever::tip_sag;

namespace {

// The gravity, m/s^2, under which beam theory's tip deflection is 1 % of the length. Beam theory is
// linear (small deflection): under full gravity the 1 m beam at E = 0.1 MPa would sag 15 m on paper
// (it hangs), and even at 10 MPa (147 mm, 15 % of L) the geometric nonlinearity the Neo-Hookean
// solve includes would be part of the comparison. At 1 % the rotation at the tip is ~0.013 rad and
// the nonlinear correction is of its square's order, 1e-4: negligible against the 10 % asked.
double small_deflection_gravity(double youngs_modulus_pa) { return 0.01 / beam_theory_sag(1000.0, 1.0, youngs_modulus_pa); }

struct StaticTip {
  double sag = 0.0;  // m
  StaticReport report;
};

StaticTip static_tip(const BodyParams& params, int cells, double gravity) {
  auto body = clamped(params, cells);
  const float g[3] = {0.0f, float(-gravity), 0.0f};
  StaticTip out;
  out.report = body->settle_static(g);
  out.sag = tip_sag(*body);
  return out;
}

// The cantilever's converged static tip sag (m) at `cells` along, and implicit Euler's settled sag
// after `frames` frames within 1 % of it: the reference the dynamic solvers are measured against.
double static_sag_checked_by_implicit_euler(const BodyParams& p, int cells, int frames) {
  const float gravity[3] = {0.0f, -9.81f, 0.0f};
  auto reference_body = clamped(p, cells);
  REQUIRE(reference_body->settle_static(gravity).status == StaticStatus::Converged);
  const double reference = tip_sag(*reference_body);
  const double implicit = tip_sag(*testing_cantilever::settled(p, cells, Solver::ImplicitEuler, frames));
  MESSAGE("static " << reference * 1000 << " mm, implicit Euler settled " << implicit * 1000 << " mm");
  CHECK(std::fabs(implicit / reference - 1) < 0.01);  // relative (doctest's Approx adds a scale of 1 m)
  return reference;
}

}  // namespace

TEST_CASE("Static solver: its forces are the force model's, and its Hessian (matrix-free and assembled) is the derivative of its forces") {
  // The static solver evaluates the energy in double (static_model.h); it must be the same energy
  // the dynamic solvers integrate in float. At a randomly perturbed 3 x 2 x 2 box (strains ~10 %,
  // both materials, pinned and free vertices alike), -dPhi/dx must equal compute_forces to float
  // rounding (1e-4 of the largest force: float sums of a few tets' terms, each ~1e-7 relative), and
  // H p must equal the central difference of the gradient along p (step 1e-6 m: truncation ~1e-12,
  // rounding ~1e-10 of the force; bounded at 1e-5 of the largest).
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> jitter(-0.01f, 0.01f);
  for (const bool nh : {true, false}) {
    CAPTURE(nh);
    BodyParams p;
    p.material = nh ? Material::NeoHookean : Material::Simple;
    p.youngs_modulus = 1e6f;
    p.edge_compliance = 1e-4f;
    p.volume_compliance = 1e-2f;
    SoftBody body(make_box(3, 2, 2, 0.3f, 0.2f, 0.2f, 0.0f, 1.0f, 0.0f), p);
    REQUIRE(body.set_solver(Solver::ImplicitEuler));
    float* x = body.positions();
    for (uint32_t i = 0; i < 3 * body.vertex_count(); ++i) x[i] += jitter(rng);
    // A force model of the body, as SoftBody::force_model builds it (private): the same buffers.
    ForceModel m;
    const uint32_t n = body.vertex_count();
    std::vector<float> mass(n, 0.1f), inv_mass(n, 10.0f), rest6(body.tet_count()), volume(body.tet_count());
    for (uint32_t t = 0; t < body.tet_count(); ++t) {
      rest6[t] = float(tet_volume6(body.rest_positions(), body.tets() + 4 * t));
      volume[t] = rest6[t] / 6.0f;
    }
    const NeoHookean material = neo_hookean_from(p.youngs_modulus, p.poisson_ratio);
    m.particle_count = n;
    m.mass = mass.data();
    m.inv_mass = inv_mass.data();
    m.edges = body.edges();
    m.edge_rest = body.edge_rest_lengths();
    m.edge_count = body.edge_count();
    m.tets = body.tets();
    m.tet_count = body.tet_count();
    m.tet_rest6 = rest6.data();
    m.gravity[1] = -9.81f;
    if (nh) {
      m.neo_hookean = &material;
      m.tet_inverse_rest = body.inverse_rest_shapes();
      m.tet_rest_volume = volume.data();
    } else {
      m.edge_stiffness = 1.0f / p.edge_compliance;
      m.volume_stiffness = 1.0f / p.volume_compliance;
    }
    std::vector<float> f(3 * n), v(3 * n, 0.0f);
    compute_forces(m, x, v.data(), f.data());
    const std::vector<double> X(x, x + 3 * n);
    std::vector<double> g(3 * n), hp(3 * n), up(3 * n), down(3 * n), dir(3 * n), shifted(3 * n);
    static_gradient(m, StaticState{X.data(), nullptr}, g.data());
    double largest = 0;
    for (float fi : f) largest = std::max(largest, double(std::fabs(fi)));
    REQUIRE(largest > 0);
    for (size_t i = 0; i < f.size(); ++i) CHECK(-g[i] == doctest::Approx(f[i]).scale(largest).epsilon(1e-4));
    for (double& d : dir) d = jitter(rng) * 100.0;  // |d| ~ 1
    static_hessian_product(m, StaticState{X.data(), nullptr}, dir.data(), hp.data());
    const double h = 1e-6;
    for (size_t i = 0; i < dir.size(); ++i) shifted[i] = h * dir[i];
    static_gradient(m, StaticState{X.data(), shifted.data()}, up.data());
    for (double& s : shifted) s = -s;
    static_gradient(m, StaticState{X.data(), shifted.data()}, down.data());
    double hp_largest = 0;
    for (double e : hp) hp_largest = std::max(hp_largest, std::fabs(e));
    for (size_t i = 0; i < hp.size(); ++i) CHECK(hp[i] == doctest::Approx((up[i] - down[i]) / (2 * h)).scale(hp_largest).epsilon(1e-5));
    // The assembled matrix the solver's CG uses gives the same product (sums in another order: 1e-12).
    BlockSparse K = static_matrix_pattern(m);
    static_matrix_assemble(m, StaticState{X.data(), nullptr}, K);
    std::vector<double> kp(3 * n);
    static_matrix_product(K, dir.data(), kp.data());
    for (size_t i = 0; i < hp.size(); ++i) CHECK(kp[i] == doctest::Approx(hp[i]).scale(hp_largest).epsilon(1e-12));
  }
}

TEST_CASE("Static solver: converges to its relative residual, and refuses what it cannot solve with nothing changed") {
  // The 20 x 2 x 2 Neo-Hookean beam under full gravity (E = 10 MPa: 9 % of its length, geometrically
  // nonlinear): Newton with its line search reaches the default 1e-8 (measured 11 iterations).
  auto body = clamped(neo_hookean_params(1e7f), 20);
  const float g[3] = {0.0f, -9.81f, 0.0f};
  const StaticReport r = body->settle_static(g);
  MESSAGE("Newton " << r.newton_iterations << ", CG " << r.cg_iterations << ", residual " << r.relative_residual);
  CHECK(r.status == StaticStatus::Converged);
  CHECK(r.relative_residual <= 1e-8);
  CHECK(r.energy < 0.0);  // the load did work: Phi went down
  CHECK(body->stats().kinetic_energy == 0.0);
  // Solving again from the answer (rounded to the body's float positions, which leaves ~1e-5 of
  // the load unbalanced): a few Newton steps back to the tolerance (measured 4), the same shape.
  const double sag = tip_sag(*body);
  const StaticReport again = body->settle_static(g);
  CHECK(again.status == StaticStatus::Converged);
  CHECK(again.newton_iterations <= 6);
  CHECK(std::fabs(tip_sag(*body) / sag - 1) < 1e-6);
  // No load, a pressure body, a simple body with compliance 0: refused, positions untouched.
  const float none[3] = {0.0f, 0.0f, 0.0f};
  CHECK(body->settle_static(none).status == StaticStatus::NoLoad);
  CHECK(tip_sag(*body) == sag);
  BodyParams stiff;  // simple model, compliances 0 (XPBD's inextensible default)
  auto rigid = clamped(stiff, 10);
  CHECK(rigid->settle_static(g).status == StaticStatus::Unsupported);
  CHECK(tip_sag(*rigid) == 0.0);
  stiff.edge_compliance = 1e-4f;
  stiff.volume_compliance = 1e-2f;
  stiff.pressure = 100.0f;
  auto balloon = clamped(stiff, 10);
  CHECK(balloon->settle_static(g).status == StaticStatus::Unsupported);
  CHECK(tip_sag(*balloon) == 0.0);
  // Nothing holds it: a free body falls, so there is no equilibrium to find. Refused before any
  // Newton iteration (they used to run all 60 after it), positions untouched.
  stiff.pressure = 0.0f;
  SoftBody free_body(make_box(3, 3, 3, 1.0f, 1.0f, 1.0f, 0.0f, 1.0f, 0.0f), stiff);
  const std::vector<float> start(free_body.positions(), free_body.positions() + 3 * free_body.vertex_count());
  const StaticReport falling = free_body.settle_static(g);
  CHECK(falling.status == StaticStatus::Unheld);
  CHECK(falling.newton_iterations == 0);
  CHECK(std::equal(start.begin(), start.end(), free_body.positions()));
  // Two separate tets, one pinned: the other part still falls. Pinning a vertex of each: solved.
  const float two_tets[] = {0, 1, 0, 1, 1, 0, 0, 2, 0, 0, 1, 1, 3, 1, 0, 4, 1, 0, 3, 2, 0, 3, 1, 1};
  const uint32_t ids[] = {0, 1, 2, 3, 4, 5, 6, 7};
  TetMesh pair;
  pair.positions.assign(two_tets, two_tets + 24);
  pair.tets.assign(ids, ids + 8);
  SoftBody parts(pair, stiff);
  parts.set_pinned(0, true);
  CHECK(parts.settle_static(g).status == StaticStatus::Unheld);
  parts.set_pinned(4, true);
  CHECK(parts.settle_static(g).status == StaticStatus::Converged);
}

TEST_CASE("Beam theory: the static tip deflection approaches Euler-Bernoulli as the mesh is refined, the same at E = 0.1, 1 and 10 MPa") {
  // The 1 m x 0.1 m x 0.1 m Neo-Hookean cantilever (nu = 0.3, 1000 kg/m^3), solved statically under
  // the gravity that makes beam theory's tip 10 mm (1 % of L: small deflection; see
  // small_deflection_gravity). Linear tets lock in bending, so the discrete beam is stiffer than the
  // continuum and approaches it from below as the cells shrink: measured 0.295, 0.610, 0.857 and
  // 0.959 of beam theory at 10 x 1 x 1, 20 x 2 x 2, 40 x 4 x 4 and 80 x 8 x 8 cells.
  // Why 10 % can be asked of beam theory at all: the continuum beam differs from Euler-Bernoulli by
  // shear (Timoshenko adds E h^2 / (3 kappa G L^2) = 1.0 % at nu = 0.3, kappa = 5/6) and by the clamp
  // holding the root's Poisson contraction (a local stiffening of the same order), so the converged
  // answer lies within ~2 % of the formula and the 10 % is the mesh's to spend.
  // Why the three moduli agree to rounding: Psi is linear in E at fixed nu, and the load is scaled
  // with E, so the equilibrium shape is the same; the check (1e-6) says that E in pascals means the
  // same thing at every stiffness, and that the solver's tolerance (1e-8 of the load) is met alike.
  // The finest case the suite affords is 80 x 8 x 8 (30 720 tets, ~0.8 s natively per modulus); the
  // 2x-refinement fact (< 5 % change) needs 160 x 16 x 16: the soak case below.
  const double moduli[3] = {1e5, 1e6, 1e7};  // Pa
  double ratio[4][3] = {};
  const int resolutions[4] = {10, 20, 40, 80};
  for (int r = 0; r < 4; ++r)
    for (int e = 0; e < 3; ++e) {
      CAPTURE(resolutions[r]);
      CAPTURE(moduli[e]);
      const double g = small_deflection_gravity(moduli[e]);
      const StaticTip tip = static_tip(neo_hookean_params(float(moduli[e])), resolutions[r], g);
      REQUIRE(tip.report.status == StaticStatus::Converged);
      ratio[r][e] = tip.sag / beam_theory_sag(1000.0, g, moduli[e]);
      MESSAGE(resolutions[r] << " cells, E " << moduli[e] << " Pa: " << tip.sag * 1000 << " mm = " << ratio[r][e]
                             << " of beam theory; Newton " << tip.report.newton_iterations << ", CG "
                             << tip.report.cg_iterations << ", " << tip.report.seconds << " s");
      CHECK(std::fabs(ratio[r][e] / ratio[r][0] - 1) < 1e-6);
      CHECK(ratio[r][e] < 1.0);  // locking: always stiffer than the continuum here
      if (r > 0) CHECK(ratio[r][e] > ratio[r - 1][e]);
    }
  // Within 10 % at the finest resolution run here (measured 4.1 % short).
  for (int e = 0; e < 3; ++e) CHECK(std::fabs(ratio[3][e] - 1.0) < 0.10);
  // Converging, not just growing: each 2x refinement changes the answer less than the one before,
  // and the last by less than half the one before (measured 0.315, 0.247, 0.102 of beam theory).
  const double change[3] = {ratio[1][0] - ratio[0][0], ratio[2][0] - ratio[1][0], ratio[3][0] - ratio[2][0]};
  CHECK(change[1] < change[0]);
  CHECK(change[2] < 0.5 * change[1]);
  MESSAGE("changes per refinement " << change[0] << ", " << change[1] << ", " << change[2] << "; observed order log2 of their ratio "
                                    << std::log2(change[1] / change[2]));
}

TEST_CASE("Converged statics: each dynamic solver's settled cantilever approaches the static solver's answer on the same mesh") {
  // The "each solver's static answer approaches implicit Euler's as its iterations grow",
  // measured against the converged static answer instead (static_solver.h, relative residual 1e-8).
  // Neo-Hookean, E = 10 MPa, 20 x 2 x 2 cells, full gravity (89.1 mm, geometrically nonlinear: the
  // static solve includes that too), 150 frames of 10 substeps with damping 10/s (settled: the first
  // mode's amplitude is down by e^-25). Implicit Euler solves each step (CG to 1e-5 of its right-hand
  // side, float state), so its settled state is the equilibrium to ~1e-4 of the sag, but its
  // damping 10/s leaves a little motion at 2.5 s: within 1 % asked (measured 88.97 mm against 89.19,
  // 0.24 %). VBD minimises the same step with `iterations` sweeps: its error must fall as they grow
  // and be within 2 % at 48, after 90 frames (VBD's Chebyshev-accelerated sweeps settle sooner than
  // implicit Euler's over-damped steps; measured 244 %, 23 %, 0.53 % at 4, 16, 48; before the damping
  // acted ahead of gravity's increment, 240 %, 21 %, 0.35 %: a 1.6 % stiffer fixed point hid part of
  // the sweeps' softness). Below 8 sweeps they run as forward-backward pairs, far from converged on
  // this stiff beam: 4 sweeps are 192.5 mm at 1.5 s (2.2 times the answer), the body having turned
  // its fall into bending without gaining energy (soft_body_vbd.cpp); a step that may gain it crept
  // through the answer (91.6 mm at 1.5 s) on its way to 464 mm at 15 s, 36 % above the energy it
  // started with. So at 4 sweeps the check is the energy. From 8 on,
  // forward sweeps: 16 % at 16, 1.3 % at 48. The forward sweeps' error falls as they grow.
  BodyParams p = neo_hookean_params(1e7f);
  const double reference = static_sag_checked_by_implicit_euler(p, 20, 150);
  double error[3];
  const int counts[3] = {4, 16, 48};
  for (int k = 0; k < 3; ++k) {
    const int sweeps = counts[k];
    CAPTURE(sweeps);
    p.iterations = sweeps;
    const StepSettings s;
    auto energy = [&](const SoftBody& b) {  // J: kinetic + gravity + elastic
      const BodyStats st = b.stats(s.gravity);
      return st.kinetic_energy + st.potential_energy + st.elastic_energy;
    };
    const double start = energy(*clamped(p, 20));  // at rest
    const auto body = testing_cantilever::settled(p, 20, Solver::Vbd, 90);
    const double vbd = tip_sag(*body), end = energy(*body);
    error[k] = std::fabs(vbd / reference - 1.0);
    MESSAGE("VBD " << sweeps << " sweeps: " << vbd * 1000 << " mm, " << error[k] * 100 << " % off; energy " << end - start << " J from the start");
    // Nothing drives the clamped beam. A held body's bound is G's (soft_body_vbd.cpp): each step's
    // potential energy at most the energy its substep began with, kinetic energy from the predicted
    // velocity, so it may gain a little: measured +1.0 J of ~98 at 4 sweeps (at rest at 2.2 times the
    // sag), under 0 at 16 and 48; the creeping step was +2.8 J by 1.5 s and +36 J by 15 s.
    CHECK(end <= start + 0.02 * std::fabs(start));
  }
  CHECK(error[2] < error[1]);
  CHECK(error[2] < 0.02);
}

TEST_CASE("Converged statics, simple model: implicit Euler, XPBD and VBD approach the static answer as their iterations grow") {
  // The stiff simple-model cantilever of test_vbd.cpp (10 x 1 x 1 cells, edge compliance 1e-6 m/N,
  // volume 1e-3 m^5/N, damping 10/s, 180 frames): the static solver minimises the same springs and
  // volume terms with k = 1/compliance. Implicit Euler within 1 % (measured 12.1237 mm against
  // 12.1237). VBD's sweeps close in on it: 2.3 %, 0.015 %, 0.019 % off at 4, 16 and 64 sweeps; XPBD's
  // passes too: 250 %, 36 %, 0.16 % at 4, 16, 96. Both < 1 % asked at the most. (Until the damping
  // acted ahead of gravity's increment and the passes and sweeps ran relative to the body's middle,
  // XPBD converged 2 % off and VBD 1.2 % soft: test_xpbd_statics.cpp.)
  BodyParams p;
  p.edge_compliance = 1e-6f;
  p.volume_compliance = 1e-3f;
  p.damping = 10.0f;
  const double reference = static_sag_checked_by_implicit_euler(p, 10, 180);
  for (Solver solver : {Solver::Xpbd, Solver::Vbd}) {
    CAPTURE(int(solver));
    double last_error = INFINITY;
    for (int n : {4, 16, solver == Solver::Xpbd ? 96 : 64}) {
      p.iterations = n;
      const double sag = tip_sag(*testing_cantilever::settled(p, 10, solver, 180));
      const double error = std::fabs(sag / reference - 1.0);
      MESSAGE(std::string(solver == Solver::Xpbd ? "XPBD passes " : "VBD sweeps ") << n << ": " << sag * 1000 << " mm, " << error * 100 << " % off");
      // Falling, or already at the float rounding of a settled sag (0.1 %): VBD at 16 and 64 sweeps
      // is 0.015 % and 0.019 % off since its sweeps start no higher on G than the substep's start.
      CHECK((error < last_error || error < 1e-3));
      last_error = error;
    }
    CHECK(last_error < 0.01);
  }
}

TEST_CASE("Soak: beam theory at 160 x 16 x 16 cells: within 10 % of Euler-Bernoulli and within 5 % of 80 x 8 x 8" * doctest::skip()) {
  // `npm run soak:beam` (skipped in the suite: 18 s natively on a free core, 245 760 tets). The
  // issue's two facts at a resolution where linear tets have mostly unlocked: the tip within 10 % of
  // beam theory (measured 0.990) and a 2x refinement changing it by less than 5 % (measured 3.2 %
  // from 0.959 at 80 x 8 x 8). Small-deflection load as in the suite's case; one modulus (10 MPa),
  // since with the load scaled with E the three moduli give the same shape (checked there to 1e-6).
  const double E = 1e7, g = small_deflection_gravity(E), theory = beam_theory_sag(1000.0, g, E);
  const StaticTip coarse = static_tip(neo_hookean_params(float(E)), 80, g);
  const StaticTip fine = static_tip(neo_hookean_params(float(E)), 160, g);
  REQUIRE(coarse.report.status == StaticStatus::Converged);
  REQUIRE(fine.report.status == StaticStatus::Converged);
  for (const StaticTip* t : {&coarse, &fine})
    MESSAGE("tip " << t->sag * 1000 << " mm = " << t->sag / theory << " of beam theory; Newton " << t->report.newton_iterations << ", CG "
                          << t->report.cg_iterations << ", " << t->report.seconds << " s");
  CHECK(std::fabs(fine.sag / theory - 1) < 0.10);
  CHECK(std::fabs(fine.sag / coarse.sag - 1) < 0.05);
}

TEST_CASE("C API: sb_body_solve_static balances gravity whatever the solver, and refuses what it cannot solve with nothing changed") {
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_box(w, 10, 1, 1, 1.0f, 0.1f, 0.1f, 0.5f, 1.0f, 0.0f);
  REQUIRE(b > 0);
  const int32_t n = sb_body_vertex_count(w, b);
  for (int32_t i = 0; i < n; ++i)
    if (sb_body_positions(w, b)[3 * i] < 1e-5f) REQUIRE(sb_body_pin(w, b, i, 1) == SB_OK);
  auto positions = [&] { return std::vector<float>(sb_body_positions(w, b), sb_body_positions(w, b) + 3 * n); };
  const std::vector<float> rest = positions();
  auto said = [](const char* part) { return std::string(sb_last_error()).find(part) != std::string::npos; };
  // The default simple material is inextensible (compliance 0): no finite stiffness to balance with.
  CHECK(sb_body_solve_static(w, b, 1e-8f) == SB_ERR_NEEDS_COMPLIANCE);
  CHECK(positions() == rest);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, 1e-6f) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_VOLUME_COMPLIANCE, 1e-3f) == SB_OK);
  CHECK(sb_body_solve_static(0, b, 1e-8f) == SB_ERR_INVALID_WORLD);
  CHECK(sb_body_solve_static(w, 0, 1e-8f) == SB_ERR_INVALID_BODY);
  CHECK(sb_body_solve_static(w, b, NAN) == SB_ERR_NOT_FINITE);
  CHECK(sb_body_solve_static(w, b, 0.0f) == SB_ERR_OUT_OF_RANGE);
  CHECK(said("tolerance"));
  CHECK(sb_body_solve_static(w, b, 0.1f) == SB_ERR_OUT_OF_RANGE);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_PRESSURE, 10.0f) == SB_OK);
  CHECK(sb_body_solve_static(w, b, 1e-8f) == SB_ERR_OUT_OF_RANGE);
  CHECK(said("pressure"));
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_PRESSURE, 0.0f) == SB_OK);
  REQUIRE(sb_world_set_gravity(w, 0, 0, 0) == SB_OK);
  CHECK(sb_body_solve_static(w, b, 1e-8f) == SB_ERR_OUT_OF_RANGE);
  CHECK(said("nothing to balance"));
  CHECK(positions() == rest);
  // Unpinned, the beam would fall: no equilibrium, refused at once.
  REQUIRE(sb_world_set_gravity(w, 0, -9.81f, 0) == SB_OK);
  for (int32_t i = 0; i < n; ++i)
    if (rest[3 * i] < 1e-5f) REQUIRE(sb_body_pin(w, b, i, 0) == SB_OK);
  CHECK(sb_body_solve_static(w, b, 1e-8f) == SB_ERR_OUT_OF_RANGE);
  CHECK(said("no pinned vertex"));
  CHECK(positions() == rest);
  for (int32_t i = 0; i < n; ++i)
    if (rest[3 * i] < 1e-5f) REQUIRE(sb_body_pin(w, b, i, 1) == SB_OK);
  // Under the default XPBD solver too: the stiff simple-model beam's equilibrium (12.12 mm at the tip,
  // test "Converged statics, simple model"), at rest.
  REQUIRE(sb_world_set_gravity(w, 0, -9.81f, 0) == SB_OK);
  const int32_t iterations = sb_body_solve_static(w, b, 1e-8f);
  CHECK(iterations >= 1);
  CHECK(iterations <= 60);
  double tip = 0;
  int tip_count = 0;
  const std::vector<float> solved = positions();
  for (int32_t i = 0; i < n; ++i)
    if (rest[3 * i] > 1 - 1e-5f) tip += rest[3 * i + 1] - solved[3 * i + 1], ++tip_count;
  tip /= tip_count;
  MESSAGE("tip " << tip * 1000 << " mm in " << iterations << " Newton iterations");
  CHECK(std::fabs(tip / 0.0121237 - 1) < 1e-3);
  sb_body_stats st;
  REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
  CHECK(st.kinetic_energy == 0.0);
  // A frozen body (NaN written into its buffer, then a step) is refused until reset.
  sb_body_positions(w, b)[3 * (n - 1)] = NAN;
  CHECK(sb_world_step(w, 1.0f / 60) == SB_ERR_DIVERGED);
  const std::vector<float> frozen = positions();
  CHECK(sb_body_solve_static(w, b, 1e-8f) == SB_ERR_DIVERGED);
  CHECK(said("frozen"));
  CHECK(positions() == frozen);
  sb_world_destroy(w);
}
