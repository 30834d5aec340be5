// VBD's spring damping (solver/vbd.h: the force model's edge dashpots, f = -c dl/dt, as a Rayleigh
// term (c/h) n n^T in each vertex's block): it takes energy out of an oscillation, never puts it in,
// leaves rigid motion alone, and does not change where a body comes to rest.
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "shapes/shapes.h"
#include "solver/soft_body.h"

using namespace sb;

namespace {

// A 0.4 m block of 4^3 cells (vertex masses ~1 kg), simple model with k = 1e4 N/m springs (edge
// oscillation ~100 rad/s) and stiff volume terms, or Neo-Hookean at E = 100 kPa, nu = 0.3 (a 0.1 m
// edge's stiffness E l ~ 1e4 N/m alike; its edges carry dashpots but no springs), VBD at 8 sweeps.
BodyParams block_params(float spring_damping, int sweeps = 8, bool neo_hookean = false) {
  BodyParams p;
  if (neo_hookean) {
    p.material = Material::NeoHookean;
    p.youngs_modulus = 1e5f;
    p.poisson_ratio = 0.3f;
  }
  p.edge_compliance = 1e-4f;
  p.volume_compliance = 1e-2f;
  p.iterations = sweeps;
  p.spring_damping = spring_damping;
  return p;
}

StepSettings floating() {
  StepSettings s;
  s.ground = false;
  s.gravity[1] = 0.0f;
  return s;
}

double mechanical_energy(const SoftBody& b) {
  const BodyStats st = b.stats();
  return st.kinetic_energy + st.elastic_energy;  // J (no gravity here)
}

// Energy after each of `frames` frames of 1/60 s, starting from the block stretched by 20 % along x.
std::vector<double> stretched_block_energy(float spring_damping, int frames, bool neo_hookean) {
  SoftBody b(make_box(4, 4, 4, 0.4f, 0.4f, 0.4f, 0.0f, 0.0f, 0.0f), block_params(spring_damping, 8, neo_hookean));
  REQUIRE(b.set_solver(Solver::Vbd));
  for (uint32_t i = 0; i < b.vertex_count(); ++i) b.positions()[3 * i] *= 1.2f;
  std::vector<double> energy{mechanical_energy(b)};
  for (int f = 0; f < frames; ++f) {
    REQUIRE(b.step(1.0f / 60, floating()));
    energy.push_back(mechanical_energy(b));
  }
  return energy;
}

}  // namespace

TEST_CASE("VBD spring damping: a stretched block's oscillation loses energy faster, and damping never adds any") {
  // Undamped, VBD is implicit Euler's step and dissipates by itself (h = 1/600 s against the edges'
  // ~100 rad/s); c = 20 N s/m on every edge (damping ratio ~ c / (2 sqrt(k m)) = 0.1 per edge) must
  // take much more: at 0.25 s, under a tenth of the undamped run's energy (measured 0.031 J against
  // 2.12 J, from 423 J). Damping only removes: the damped run's energy never exceeds the undamped
  // run's at any frame, and never rises from one frame to the next, beyond 1e-6 of the initial
  // energy (both settle at a ~1e-4 J floor, 2e-7 of it: the float state's rounding). The same for
  // a Neo-Hookean block, whose edges carry the dashpots without springs (measured 0.053 J against
  // 7.2 J at 0.25 s, from 172 J).
  for (const bool nh : {false, true}) {
    CAPTURE(nh);
    const std::vector<double> undamped = stretched_block_energy(0.0f, 60, nh), damped = stretched_block_energy(20.0f, 60, nh);
    for (int f : {0, 1, 4, 15, 30, 60}) MESSAGE(std::string(nh ? "Neo-Hookean" : "simple") << " frame " << f << ": undamped " << undamped[f] << " J, damped " << damped[f] << " J");
    CHECK(damped[0] == undamped[0]);
    CHECK(damped[15] < undamped[15] / 10);
    const double slack = 1e-6 * damped[0];
    for (size_t f = 1; f < damped.size(); ++f) {
      CAPTURE(f);
      CHECK(damped[f] <= undamped[f] + slack);
      CHECK(damped[f] <= damped[f - 1] + slack);
    }
  }
}

TEST_CASE("VBD spring damping acts on stretching only: a block moving rigidly keeps its speed") {
  // The dashpot is driven by each edge's relative displacement over the substep (not a vertex's own,
  // which would brake a thrown body as air drag): a block sent at 1 m/s with heavy damping (c = 200
  // N s/m) still moves at 1 m/s after 1 s, to float rounding.
  SoftBody b(make_box(4, 4, 4, 0.4f, 0.4f, 0.4f, 0.0f, 0.0f, 0.0f), block_params(200.0f));
  REQUIRE(b.set_solver(Solver::Vbd));
  for (uint32_t i = 0; i < b.vertex_count(); ++i) b.velocities()[3 * i] = 1.0f;
  for (int f = 0; f < 60; ++f) REQUIRE(b.step(1.0f / 60, floating()));
  const BodyStats st = b.stats();
  CHECK(st.momentum[0] / st.mass == doctest::Approx(1.0).epsilon(1e-4));
  CHECK(st.center[0] == doctest::Approx(1.0).epsilon(1e-3));
  CHECK(st.elastic_energy < 1e-6);
}

TEST_CASE("VBD spring damping: a hanging block settles sooner, where it settles without damping, at the static equilibrium") {
  // The block hung from its top face under gravity, VBD at 16 sweeps (its lowest point sags 3.3 mm).
  // Damping changes no static force, so after 2.5 s (both settled, kinetic energy ~1e-8 J) the
  // lowest point is where it is without damping within 0.1 % of the sag (measured 3.30460 and
  // 3.30466 mm), and where the static solver puts it within 0.5 % (3.30293 mm: 0.05 %). With c = 20
  // N s/m it gets there sooner: at 1 s it is 0.01 % short of its final sag, the undamped block 4 %
  // (checked: under a quarter of the undamped block's distance). Fewer sweeps move the damped
  // answer: at 8 sweeps the truncated solve settled 0.8 % higher than the undamped one (the dashpots
  // couple neighbours like stiffer springs, which a Gauss-Seidel sweep resolves more slowly).
  auto hang = [](float spring_damping) {
    auto b = std::make_unique<SoftBody>(make_box(4, 4, 4, 0.4f, 0.4f, 0.4f, 0.0f, 1.0f, 0.0f), block_params(spring_damping, 16));
    for (uint32_t i = 0; i < b->vertex_count(); ++i)
      if (b->rest_positions()[3 * i + 1] > 1.2f - 1e-5f) b->set_pinned(i, true);
    return b;
  };
  StepSettings s;
  s.ground = false;
  auto sag = [](const SoftBody& b) {
    double lowest = 0;
    for (uint32_t i = 0; i < b.vertex_count(); ++i) lowest = std::max(lowest, double(b.rest_positions()[3 * i + 1] - b.positions()[3 * i + 1]));
    return lowest;
  };
  auto plain = hang(0.0f), damped = hang(20.0f);
  REQUIRE(plain->set_solver(Solver::Vbd));
  REQUIRE(damped->set_solver(Solver::Vbd));
  double plain_early = 0, damped_early = 0;
  for (int f = 1; f <= 150; ++f) {
    REQUIRE(plain->step(1.0f / 60, s));
    REQUIRE(damped->step(1.0f / 60, s));
    if (f == 60) plain_early = sag(*plain), damped_early = sag(*damped);
  }
  auto reference = hang(0.0f);
  REQUIRE(reference->settle_static(s.gravity).status == StaticStatus::Converged);
  const double plain_final = sag(*plain), damped_final = sag(*damped), exact = sag(*reference);
  MESSAGE("lowest point's sag at 1 s / 2.5 s: without damping " << plain_early * 1000 << " / " << plain_final * 1000 << " mm, with "
                                                                << damped_early * 1000 << " / " << damped_final * 1000 << " mm; static "
                                                                << exact * 1000 << " mm");
  CHECK(std::fabs(damped_final / plain_final - 1) < 1e-3);
  CHECK(std::fabs(damped_final / exact - 1) < 5e-3);
  CHECK(std::fabs(damped_early - damped_final) < 0.25 * std::fabs(plain_early - plain_final));
}
