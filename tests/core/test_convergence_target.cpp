// Convergence by target (convergence.h): passes run until the stiffness reached meets the target or
// the budget is spent, the body says which, and the number means what it says.
#include <doctest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "shapes/shapes.h"
#include "solver/soft_body.h"
#include "solver/worker_pool.h"
#include "solver/world.h"
#include "softbody.h"

using namespace sb;

namespace {

// A 0.5 m x 0.1 m x 0.05 m Neo-Hookean cantilever (nu = 0.3), 10 x 4 x 1 cells, clamped at x = 0,
// no ground. Damping 40/s: about the first mode's angular frequency at 5 MPa (~29 rad/s), so it
// comes to rest within 0.5 s; damping does not move the rest state (the prediction adds gravity
// after it, soft_body_position_based.cpp).
std::unique_ptr<SoftBody> beam(float youngs_pa, float target, int budget) {
  BodyParams p;
  p.material = Material::NeoHookean;
  p.youngs_modulus = youngs_pa;
  p.poisson_ratio = 0.3f;
  p.damping = 40.0f;
  p.stiffness_target = target;
  p.max_iterations = budget;
  auto b = std::make_unique<SoftBody>(make_box(10, 4, 1, 0.5f, 0.1f, 0.05f, 0.25f, 1.0f, 0.0f), p);
  for (uint32_t i = 0; i < b->vertex_count(); ++i)
    if (b->rest_positions()[3 * i] < 1e-5f) b->set_pinned(i, true);
  return b;
}

double tip_sag(const SoftBody& b) {
  double sum = 0;
  int n = 0;
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    if (b.rest_positions()[3 * i] > 0.5f - 1e-5f) sum += b.rest_positions()[3 * i + 1] - b.positions()[3 * i + 1], ++n;
  return sum / n;
}

double static_tip(float youngs_pa) {
  auto b = beam(youngs_pa, 0.0f, 16);
  const float g[3] = {0.0f, -9.81f, 0.0f};
  REQUIRE(b->settle_static(g).status == StaticStatus::Converged);
  return tip_sag(*b);
}

// Settles the beam for `frames` frames of 1/60 s; returns the tip sag, m.
double settled_tip(SoftBody& b, Solver solver, int substeps, int frames) {
  REQUIRE(b.set_solver(solver));
  StepSettings s;
  s.ground = false;
  s.substeps = substeps;
  for (int f = 0; f < frames; ++f) REQUIRE(b.step(1.0f / 60, s));
  return tip_sag(b);
}

}  // namespace

TEST_CASE("Convergence target: XPBD at 95 % settles within 10 % of the static answer at 10 and 40 substeps") {
  for (float youngs : {1e6f, 5e6f}) {
    CAPTURE(youngs);
    const double reference = static_tip(youngs);
    double tips[2];
    int k = 0;
    for (int substeps : {10, 40}) {
      CAPTURE(substeps);
      auto b = beam(youngs, 0.95f, 32);
      tips[k] = settled_tip(*b, Solver::Xpbd, substeps, 40);
      const ConvergenceReport& c = b->convergence();
      // The budget of 32 passes suffices on this beam (measured 3-12 passes per substep): so the body
      // must say the target was met, and then its sag is within 1/0.95 of the static one, which the
      // 10 % the issue asks for contains.
      CHECK(c.status == ConvergenceStatus::Met);
      CHECK(c.stiffness_reached >= 0.95);
      CHECK(c.passes <= 32 * substeps);
      CHECK(tips[k] / reference == doctest::Approx(1.0).epsilon(0.10));
      ++k;
    }
    // And the substeps no longer set the stiffness: <= 5 % apart (at 1 pass they were 3.3 and 1.5
    // times the static sag, issue 28).
    CHECK(tips[0] / tips[1] == doctest::Approx(1.0).epsilon(0.05));
  }
}

TEST_CASE("Convergence target: a budget too small is reported, with a stiffness that predicts the sag") {
  const double reference = static_tip(5e6f);
  for (Solver solver : {Solver::Xpbd, Solver::Vbd}) {
    CAPTURE(int(solver));
    auto b = beam(5e6f, 0.95f, 2);
    const double tip = settled_tip(*b, solver, 10, 40);
    const ConvergenceReport& c = b->convergence();
    CHECK(c.status == ConvergenceStatus::BudgetSpent);
    CHECK(c.passes == 2 * 10);
    CHECK(c.stiffness_reached < 0.95);
    // The reported stiffness reads as one: the sag is 1/s of the static answer, within 20 % (the
    // measure is calibrated on shapes, convergence.h; the bench's table shows the spread). XPBD only:
    // VBD at one pair is still sagging after these 40 frames.
    if (solver == Solver::Xpbd) CHECK(tip / reference == doctest::Approx(1.0 / c.stiffness_reached).epsilon(0.20));
    // Visibly off, so the report is not a formality: XPBD too soft; VBD, whose sweeps start no
    // higher on G than the substep's start (soft_body_vbd.cpp), still on its way down (measured
    // 0.18 of the sag after these 40 frames; from y it was too soft as well).
    if (solver == Solver::Xpbd) CHECK(tip / reference > 1.2);
    else CHECK(std::fabs(tip / reference - 1.0) > 0.2);
  }
}

TEST_CASE("Convergence target: no target runs `iterations` passes and still reports what they reached") {
  auto b = beam(5e6f, 0.0f, 16);
  b->set_params([&] { BodyParams p = b->params(); p.iterations = 3; return p; }());
  settled_tip(*b, Solver::Xpbd, 10, 2);
  CHECK(b->convergence().status == ConvergenceStatus::Fixed);
  CHECK(b->convergence().passes == 30);
  CHECK(b->convergence().stiffness_reached > 0.0);
  CHECK(b->convergence().stiffness_reached < 1.0);
  // The simple material under XPBD has no measure: said so.
  BodyParams simple;
  simple.stiffness_target = 0.95f;
  SoftBody box(make_box(2, 2, 2, 0.2f, 0.2f, 0.2f, 0.0f, 0.5f, 0.0f), simple);
  StepSettings s;
  REQUIRE(box.step(1.0f / 60, s));
  CHECK(box.convergence().status == ConvergenceStatus::NotMeasured);
}

TEST_CASE("Convergence target: identical bytes for identical runs and on 1, 2 and 3 threads") {
  // On the ground (cold passes), and clamped in the air (warm-started multipliers).
  for (bool ground : {true, false}) {
    CAPTURE(ground);
    std::vector<float> seen[4];
    for (int run = 0; run < 4; ++run) {
      World w;
      // Runs 1-3 on 1, 2 and 3 threads where threads exist (the wasm build without -pthread: all on one).
      REQUIRE(w.set_threads(run == 0 || !WorkerPool::available() ? 1 : run));
      w.settings.ground = ground;
      BodyParams p;
      p.material = Material::NeoHookean;
      p.youngs_modulus = 1e6f;
      p.poisson_ratio = 0.45f;
      p.stiffness_target = 0.9f;
      p.max_iterations = 8;
      SoftBody* b = w.body(w.add_body(make_box(4, 4, 4, 0.3f, 0.3f, 0.3f, 0.0f, 0.4f, 0.0f), p));
      if (!ground)
        for (uint32_t i = 0; i < b->vertex_count(); ++i)
          if (b->rest_positions()[3 * i] < -0.15f + 1e-5f) b->set_pinned(i, true);
      for (int f = 0; f < 40; ++f) REQUIRE(w.step(1.0f / 60, nullptr) == 0);
      // The target drove the passes: more than one per substep on the ground; clamped and at rest the
      // warm start meets it in one.
      if (ground) CHECK(b->convergence().passes > b->convergence().substeps);
      CHECK(b->convergence().status == ConvergenceStatus::Met);
      seen[run].assign(b->positions(), b->positions() + 3 * b->vertex_count());
    }
    for (int run = 1; run < 4; ++run) {
      CAPTURE(run);
      CHECK(std::memcmp(seen[0].data(), seen[run].data(), seen[0].size() * sizeof(float)) == 0);
    }
  }
}

TEST_CASE("Convergence target: the C API validates the target and the budget and reports") {
  sb_world w = sb_world_create();
  sb_body b = sb_body_create_box(w, 2, 2, 2, 0.2f, 0.2f, 0.2f, 0, 0.5f, 0);
  REQUIRE(b > 0);
  CHECK(sb_body_get_param(w, b, SB_PARAM_STIFFNESS_TARGET) == 0.0f);  // documented defaults
  CHECK(sb_body_get_param(w, b, SB_PARAM_MAX_ITERATIONS) == 16.0f);
  for (float bad : {0.005f, 1.0f, -0.5f}) {
    CHECK(sb_body_set_param(w, b, SB_PARAM_STIFFNESS_TARGET, bad) == SB_ERR_OUT_OF_RANGE);
    CHECK(std::strstr(sb_last_error(), "stiffness target") != nullptr);
  }
  CHECK(sb_body_set_param(w, b, SB_PARAM_STIFFNESS_TARGET, NAN) == SB_ERR_NOT_FINITE);
  CHECK(sb_body_set_param(w, b, SB_PARAM_MAX_ITERATIONS, 2.5f) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_body_set_param(w, b, SB_PARAM_MAX_ITERATIONS, 0.0f) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_body_get_param(w, b, SB_PARAM_STIFFNESS_TARGET) == 0.0f);  // unchanged by the failures
  CHECK(sb_body_get_param(w, b, SB_PARAM_MAX_ITERATIONS) == 16.0f);
  CHECK(sb_body_set_param(w, b, SB_PARAM_MATERIAL, float(SB_MATERIAL_NEO_HOOKEAN)) == SB_OK);
  CHECK(sb_body_set_param(w, b, SB_PARAM_STIFFNESS_TARGET, 0.95f) == SB_OK);
  CHECK(sb_body_set_param(w, b, SB_PARAM_MAX_ITERATIONS, 4.0f) == SB_OK);
  CHECK(sb_body_get_convergence(w, b, nullptr) == SB_ERR_NULL_POINTER);
  sb_convergence c;
  CHECK(sb_body_get_convergence(w, b, &c) == SB_OK);
  CHECK(c.status == SB_CONVERGENCE_NOT_MEASURED);  // no step yet
  REQUIRE(sb_world_step(w, 1.0f / 60) == SB_OK);
  CHECK(sb_body_get_convergence(w, b, &c) == SB_OK);
  CHECK((c.status == SB_CONVERGENCE_MET || c.status == SB_CONVERGENCE_BUDGET_SPENT));
  CHECK(c.substeps == 10);
  CHECK(c.passes >= 10);
  CHECK(c.passes <= 40);
  CHECK(sb_body_get_convergence(w, b + 1, &c) == SB_ERR_INVALID_BODY);
  sb_world_destroy(w);
}
