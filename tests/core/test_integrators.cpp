// The force-based integrators and the position-based solvers on problems with known answers:
// an undamped spring-mass oscillator (x(t) = l0 + A cos(w t)), its energy, and stiffness in statics.
#include <doctest.h>

#include <cmath>
#include <vector>

#include "shapes/shapes.h"
#include "solver/world.h"

using namespace sb;

namespace {

const double kPi = 3.14159265358979323846;
// 0.8 Hz: t = 1 s is then near an extremum, not a zero crossing, so amplitude errors show as well as
// phase errors (at a zero crossing first-order amplitude drift would hide).
const double kOmega = 2.0 * kPi * 0.8;  // rad/s
const float kMass = 1.0f;              // kg
const float kStiffness = float(kOmega * kOmega);  // N/m, k = m w^2
const float kRest = 1.0f;              // m
const float kAmplitude = 0.1f;         // m

// A particle on a spring whose other end is pinned, pulled A along the spring and let go: it moves
// along x only, where the force -k (x - l0) is exactly linear, so x(t) = l0 + A cos(w t).
struct Oscillator {
  World world;
  SoftBody* body;
  explicit Oscillator(Solver solver, int substeps = 1) {
    world.settings.gravity[1] = 0.0f;
    world.settings.ground = false;
    world.settings.substeps = substeps;
    TetMesh mesh;
    // The anchor sits at x = -l0 so the particle moves about 0, where float32 spacing is finest.
    mesh.positions = {-kRest, 0, 0, 0, 0, 0};
    mesh.springs = {0, 1};
    mesh.point_volumes = {1e-3f, kMass / 1000.0f};  // m^3 at the default 1000 kg/m^3
    BodyParams p;
    p.edge_compliance = 1.0f / kStiffness;
    body = world.body(world.add_body(mesh, p));
    body->set_pinned(0, true);
    body->positions()[3] = kAmplitude;  // rest length is taken at creation; stretch it afterwards
    REQUIRE(body->set_solver(solver));
  }
  double x() const { return body->positions()[3] + kRest; }  // spring length, m
  double v() const { return body->velocities()[3]; }
  double energy() const {  // J
    const double s = x() - kRest;
    return 0.5 * kMass * v() * v() + 0.5 * kStiffness * s * s;
  }
  void run(double seconds, float dt) {
    const int steps = int(std::lround(seconds / dt));
    for (int i = 0; i < steps; ++i) REQUIRE(world.step(dt, nullptr) == 0);
  }
};

double exact_x(double t) { return kRest + kAmplitude * std::cos(kOmega * t); }

// Least-squares slope of log(error) against log(h): the measured convergence order.
double fitted_order(const std::vector<double>& h, const std::vector<double>& err) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = double(h.size());
  for (size_t i = 0; i < h.size(); ++i) {
    const double lx = std::log(h[i]), ly = std::log(err[i]);
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

double global_error(Solver solver, float h) {
  Oscillator o(solver);
  o.run(1.0, h);
  return std::fabs(o.x() - exact_x(1.0));
}

}  // namespace

TEST_CASE("each integrator converges to the analytic oscillator at its textbook order") {
  struct Case {
    Solver solver;
    double order;
    std::vector<float> steps;  // s; errors stay far above float32 rounding (~1e-6 m) at the finest
  };
  const std::vector<float> fine = {1 / 100.f, 1 / 200.f, 1 / 400.f, 1 / 800.f};
  const std::vector<float> mid = {1 / 25.f, 1 / 50.f, 1 / 100.f, 1 / 200.f};
  const std::vector<float> coarse = {1 / 8.f, 1 / 12.f, 1 / 16.f, 1 / 24.f};
  const Case cases[] = {
      {Solver::ExplicitEuler, 1, fine}, {Solver::SemiImplicitEuler, 1, fine}, {Solver::ImplicitEuler, 1, fine},
      {Solver::Verlet, 2, mid},         {Solver::Midpoint, 2, mid},          {Solver::Heun, 2, mid},
      {Solver::Rk4, 4, coarse},
  };
  for (const Case& c : cases) {
    std::vector<double> h, err;
    for (float step : c.steps) {
      h.push_back(step);
      err.push_back(global_error(c.solver, step));
    }
    const double order = fitted_order(h, err);
    CAPTURE(int(c.solver));
    CAPTURE(order);
    CAPTURE(err.front());
    CAPTURE(err.back());
    CHECK(std::fabs(order - c.order) <= 0.3);
    MESSAGE("solver " << int(c.solver) << ": order " << order << ", error " << err.front() << " .. " << err.back());
  }
}

TEST_CASE("energy: explicit Euler gains it, symplectic Euler keeps it bounded, implicit Euler loses it") {
  const float h = 0.01f;  // w h = 0.063, well inside every stability limit
  Oscillator ex(Solver::ExplicitEuler), se(Solver::SemiImplicitEuler), im(Solver::ImplicitEuler);
  const double e0 = ex.energy();
  double se_min = e0, se_max = e0;
  for (int i = 0; i < 10000; ++i) {
    REQUIRE(se.world.step(h, nullptr) == 0);
    se_min = std::min(se_min, se.energy());
    se_max = std::max(se_max, se.energy());
  }
  ex.run(10.0, h);
  im.run(10.0, h);
  // On a linear oscillator explicit Euler multiplies the energy by exactly 1 + (w h)^2 per step and
  // implicit Euler divides it by the same: after 1000 steps x12.4 and /12.4 (1 % covers float32).
  // Symplectic Euler conserves a nearby energy: the true one oscillates by O(w h) = 5 % and does
  // not drift, even over 10^4 steps.
  const double factor = std::pow(1.0 + kOmega * kOmega * h * h, 1000);
  CHECK(ex.energy() == doctest::Approx(e0 * factor).epsilon(0.01));
  CHECK(im.energy() == doctest::Approx(e0 / factor).epsilon(0.01));
  CHECK(se_max < 1.06 * e0);
  CHECK(se_min > 0.94 * e0);
}

TEST_CASE("symplectic Euler is stable just below h = 2/w and unstable just above") {
  Oscillator below(Solver::SemiImplicitEuler), above(Solver::SemiImplicitEuler);
  const double e0 = below.energy();
  double below_max = e0, above_max = e0;
  bool above_diverged = false;
  for (int i = 0; i < 1000; ++i) {
    REQUIRE(below.world.step(float(0.98 * 2.0 / kOmega), nullptr) == 0);
    below_max = std::max(below_max, below.energy());
    if (above.world.step(float(1.02 * 2.0 / kOmega), nullptr) != 0) above_diverged = true;
    above_max = std::max(above_max, above.energy());
  }
  // Below the limit the oscillation is bounded (its energy envelope grows like 1/(1 - (w h / 2)^2),
  // 25x at 0.98); above it the amplitude grows by a fixed factor (> 1.2) every step until it overflows.
  CHECK(below_max < 100.0 * e0);
  CHECK((above_diverged || above_max > 1e6 * e0));
}

TEST_CASE("XPBD with compliance 1/k converges to the RK4 reference as substeps grow, at first order") {
  Oscillator reference(Solver::Rk4);
  reference.run(1.0, 1e-3f);
  REQUIRE(reference.x() == doctest::Approx(exact_x(1.0)).epsilon(1e-5));
  std::vector<double> h, err;
  for (int substeps : {4, 8, 16, 32}) {
    Oscillator o(Solver::Xpbd, substeps);
    o.run(1.0, 1.0f / 60.0f);
    h.push_back(1.0 / 60.0 / substeps);
    err.push_back(std::fabs(o.x() - reference.x()));
  }
  CAPTURE(err.front());
  CAPTURE(err.back());
  CHECK(err.back() < err.front() / 4.0);
  CHECK(fitted_order(h, err) == doctest::Approx(1.0).epsilon(0.3));
}

TEST_CASE("PBD's stiffness depends on the substep count, XPBD's does not (static sag)") {
  auto sag = [](Solver solver, int substeps) {
    World w;
    w.settings.ground = false;
    w.settings.substeps = substeps;
    TetMesh mesh;  // a 1 kg weight hanging from a pinned point on a 100 N/m spring: sag m g / k = 9.8 cm
    mesh.positions = {0, 2, 0, 0, 1, 0};
    mesh.springs = {0, 1};
    mesh.point_volumes = {1e-3f, 1e-3f};  // 1 kg each at 1000 kg/m^3
    BodyParams p;
    p.edge_compliance = 0.01f;  // m/N
    p.pbd_stiffness = 0.5f;
    p.damping = 4.0f;  // 1/s: settles within the 5 s below
    SoftBody* b = w.body(w.add_body(mesh, p));
    b->set_pinned(0, true);
    REQUIRE(b->set_solver(solver));
    for (int f = 0; f < 300; ++f) REQUIRE(w.step(1.0f / 60.0f, nullptr) == 0);
    return 1.0 - b->positions()[4];
  };
  const double xpbd5 = sag(Solver::Xpbd, 5), xpbd50 = sag(Solver::Xpbd, 50);
  const double pbd5 = sag(Solver::Pbd, 5), pbd50 = sag(Solver::Pbd, 50);
  CAPTURE(xpbd5);
  CAPTURE(xpbd50);
  CAPTURE(pbd5);
  CAPTURE(pbd50);
  // .scale(0): doctest's epsilon is then a fraction of the larger side alone; by default it adds an
  // absolute epsilon too, which swamps quantities well below 1 (m, m^3).
  CHECK(xpbd5 == doctest::Approx(9.81 / 100.0).epsilon(0.02).scale(0));  // the physical sag, within 2 %
  CHECK(xpbd50 == doctest::Approx(xpbd5).epsilon(0.02).scale(0));
  CHECK(pbd5 > 20.0 * pbd50);  // PBD: sag ~ g h^2 / stiffness, 100x smaller with 10x the substeps
}

TEST_CASE("implicit Euler's conjugate gradient reaches its tolerance on the 10k-tet box") {
  World w;
  BodyParams p;
  p.edge_compliance = 1e-5f;
  p.volume_compliance = 1e-4f;
  p.spring_damping = 5.0f;
  SoftBody* b = w.body(w.add_body(make_box(12, 12, 12, 1, 1, 1, 0, 0.6f, 0), p));
  REQUIRE(b->tet_count() == 10368);
  REQUIRE(b->set_solver(Solver::ImplicitEuler));
  b->squash(0.7f);  // a strongly deformed start: the hardest solve
  for (int f = 0; f < 5; ++f) {
    REQUIRE(w.step(1.0f / 60.0f, nullptr) == 0);
    CAPTURE(b->last_cg().iterations);
    CAPTURE(b->last_cg().relative_residual);
    CHECK(b->last_cg().converged);
    CHECK(b->last_cg().relative_residual <= kCgTolerance);
    CHECK(b->last_cg().iterations < kCgMaxIterations);
    MESSAGE("CG: " << b->last_cg().iterations << " iterations, residual " << b->last_cg().relative_residual);
  }
  CHECK(b->stats().finite);
}

TEST_CASE("force-based solvers refuse infinite stiffness, and accept it back under XPBD") {
  World w;
  SoftBody* b = w.body(w.add_body(make_box(2, 2, 2, 1, 1, 1, 0, 1, 0), BodyParams{}));
  CHECK_FALSE(b->set_solver(Solver::Rk4));  // compliance 0 = k infinite: no force form
  CHECK(b->solver() == Solver::Xpbd);
  BodyParams p;
  p.edge_compliance = 1e-4f;
  p.volume_compliance = 1e-4f;
  REQUIRE(b->set_params(p));
  REQUIRE(b->set_solver(Solver::Rk4));
  p.volume_compliance = 0.0f;
  CHECK_FALSE(b->set_params(p));
  CHECK(b->params().volume_compliance == 1e-4f);
  REQUIRE(b->set_solver(Solver::Xpbd));
  CHECK(b->set_params(p));
}

TEST_CASE("every solver but explicit Euler drops a box onto the ground and keeps it there") {
  for (int s = 0; s < kSolverCount; ++s) {
    if (Solver(s) == Solver::ExplicitEuler) continue;  // gains energy every step: that is its lesson
    World w;
    BodyParams p;
    p.edge_compliance = 1e-3f;    // k = 1000 N/m per spring: explicit schemes are stable at h = 1/600 s
    p.volume_compliance = 1e-6f;  // kV = 1e6 N/m^5: on these 1/6 m cells about as stiff as the springs
    p.spring_damping = 2.0f;
    SoftBody* b = w.body(w.add_body(make_box(3, 3, 3, 0.5f, 0.5f, 0.5f, 0, 0.5f, 0), p));
    REQUIRE(b->set_solver(Solver(s)));
    int diverged = 0;
    for (int f = 0; f < 120; ++f) diverged += w.step(1.0f / 60.0f, nullptr);
    const BodyStats st = b->stats();
    CAPTURE(s);
    CHECK(diverged == 0);
    CHECK(st.finite);
    CHECK(st.min_y >= 0.0);
    CHECK(st.min_y < 0.01);                                       // landed
    CHECK(st.volume_ratio == doctest::Approx(1.0).epsilon(0.1));  // and still box-sized
  }
}

TEST_CASE("ground friction reaches every force-based solver, Verlet's position history included") {
  for (Solver solver : {Solver::SemiImplicitEuler, Solver::Verlet, Solver::Midpoint, Solver::Heun, Solver::Rk4,
                        Solver::ImplicitEuler}) {
    World w;
    BodyParams p;
    p.edge_compliance = 1e-3f;
    p.volume_compliance = 1e-6f;
    p.spring_damping = 2.0f;
    p.friction = 0.6f;
    p.restitution = 0.0f;
    SoftBody* b = w.body(w.add_body(make_box(3, 2, 3, 0.6f, 0.2f, 0.6f, 0, 0.1f, 0), p));
    REQUIRE(b->set_solver(solver));
    for (int f = 0; f < 10; ++f) REQUIRE(w.step(1.0f / 60.0f, nullptr) == 0);
    for (uint32_t i = 0; i < b->vertex_count(); ++i) b->velocities()[3 * i] = 3.0f;  // m/s
    for (int f = 0; f < 120; ++f) REQUIRE(w.step(1.0f / 60.0f, nullptr) == 0);
    const BodyStats s = b->stats();
    CAPTURE(int(solver));
    // It took the kick (Verlet used to ignore changes to v) and stopped after v^2 / (2 mu g) = 0.76 m
    // (measured 0.77 for all six), within 0.5 s; after 2 s it is at rest.
    CHECK(std::fabs(s.momentum[0] / s.mass) < 0.05);
    CHECK(s.center[0] == doctest::Approx(3.0 * 3.0 / (2.0 * 0.6 * 9.81)).epsilon(0.15));
  }
}
