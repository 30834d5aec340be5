// Cloth under the force-based integrators and VBD (solver/cloth_forces.h): the forces are the
// energy's gradient, the Hessian product is the forces' derivative, the integrators keep their
// energy behaviour and their orders on a sheet, and a clamped sheet settles to the same shape under
// implicit Euler, VBD and XPBD.
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "shapes/cloth_mesh.h"
#include "solver/cloth_forces.h"
#include "solver/soft_body.h"
#include "solver/spring_forces.h"

using namespace sb;

namespace {

const float kNoGravity[3] = {0.0f, 0.0f, 0.0f};

StepSettings no_ground(int substeps, bool gravity = true) {
  StepSettings s;
  s.ground = false;
  s.substeps = substeps;
  if (!gravity) s.gravity[1] = 0.0f;
  return s;
}

template <typename Pick>
void pin_where(SoftBody& b, Pick pick) {
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    if (pick(b.rest_positions() + 3 * i)) b.set_pinned(i, true);
}

// A deterministic pseudo-random number in [-1, 1).
float jitter(uint32_t i) {
  i = i * 2654435761u + 12345u;
  i ^= i >> 15;
  i *= 2246822519u;
  i ^= i >> 13;
  return float(i & 0xFFFFu) / 32768.0f - 1.0f;
}

// A 0.4 m sheet of 6 x 6 cells moved out of shape: every vertex off by up to 15 % of a cell in-plane
// and out of it, so springs are stretched and compressed and every hinge bent.
ClothMesh bent_sheet() {
  ClothMesh m = make_cloth_rectangle(6, 6, 0.4f, 0.4f, 0, 0, 0, false);
  return m;
}
void disturb(float* x, uint32_t n, float amount) {
  for (uint32_t j = 0; j < 3 * n; ++j) x[j] += amount * jitter(j);
}

// Largest |f + dU/dx| over the coordinates, central differences of U, relative to the largest |f|.
template <typename Energy, typename Forces>
double gradient_error(std::vector<float> x, Energy energy, Forces forces, double* largest) {
  std::vector<float> f(x.size(), 0.0f);
  forces(x.data(), f.data());
  double worst = 0.0, top = 0.0;
  for (float v : f) top = std::max(top, double(std::fabs(v)));
  for (size_t j = 0; j < x.size(); ++j) {
    const float x0 = x[j], eps = 1e-3f;  // m: on a 67 mm cell
    x[j] = x0 + eps;
    const double up = energy(x.data()), step_up = double(x[j]) - x0;
    x[j] = x0 - eps;
    const double down = energy(x.data()), step_down = double(x0) - x[j];
    x[j] = x0;
    const double dudx = (up - down) / (step_up + step_down);
    worst = std::max(worst, std::fabs(dudx + f[j]));
  }
  *largest = top;
  return worst / top;
}

}  // namespace

TEST_CASE("Cloth forces: stretch and bending forces are minus the gradient of their energies (finite differences)") {
  // Central differences at 1 mm on 67 mm cells: the truncation error is eps^2/6 U''' ~ 1e-4 of the
  // force for these smooth energies, float positions add ~1e-7 m / 1 mm = 1e-4 of it. 2e-3 of the
  // largest force covers both with room, and a wrong sign, factor or missing term is O(1) off.
  BodyParams p;
  p.edge_compliance = 1.0f / 50.0f;  // Y = 50 N/m
  p.bending_stiffness = 2e-3f;       // N m
  {  // stretch: the springs with their area weights
    SoftBody b(bent_sheet(), p);
    disturb(b.positions(), b.vertex_count(), 0.01f);
    ForceModel m = b.force_model(kNoGravity);
    m.bending = BendingForces{};
    const std::vector<float> zero(3 * b.vertex_count(), 0.0f);
    double top = 0;
    const double err = gradient_error(
        std::vector<float>(b.positions(), b.positions() + 3 * b.vertex_count()),
        [&](const float* x) { return elastic_energy(m, x); },
        [&](const float* x, float* f) { compute_forces(m, x, zero.data(), f); }, &top);
    MESSAGE("stretch: largest force " << top << " N, gradient error " << err);
    CHECK(top > 1e-3);
    CHECK(err < 2e-3);
  }
  for (bool curved : {false, true}) {
    CAPTURE(curved);
    ClothMesh mesh = bent_sheet();
    if (curved)  // a 60-degree arc of radius 0.4 m: rest curvature in every hinge, so the frame's term counts
      for (size_t i = 0; i < mesh.positions.size() / 3; ++i) {
        const float s = mesh.positions[3 * i] / 0.4f;
        mesh.positions[3 * i] = 0.4f * std::sin(s);
        mesh.positions[3 * i + 1] = 0.4f * (1 - std::cos(s));
      }
    SoftBody b(mesh, p);
    REQUIRE(b.cloth().hinge_rest.empty() == !curved);
    disturb(b.positions(), b.vertex_count(), 0.01f);
    const BendingForces bend = bending_forces(b.cloth(), p.bending_stiffness);
    double top = 0;
    const double err = gradient_error(
        std::vector<float>(b.positions(), b.positions() + 3 * b.vertex_count()),
        [&](const float* x) { return bending_energy(bend, x); },
        [&](const float* x, float* f) { add_bending_forces(bend, x, f); }, &top);
    MESSAGE(std::string(curved ? "curved" : "flat") << " bending: largest force " << top << " N, gradient error " << err);
    CHECK(top > 1e-4);
    CHECK(err < 2e-3);
    // The same energy as XPBD's bending constraint is the compliance form of.
    CHECK(bending_energy(bend, b.positions()) ==
          doctest::Approx(cloth_bending_energy(b.cloth(), p.bending_stiffness, b.positions())).epsilon(1e-4));
  }
}

TEST_CASE("Cloth forces: the bending Hessian product is the forces' derivative (flat rest: exact) and never adds energy") {
  // Flat rest shape: U is quadratic, so (f(x + e p) - f(x - e p)) / 2e equals -H p up to float
  // rounding of f (~1e-7 relative / e = 1e-3 in units of |x|: 1e-4 of |H p| with room at 1e-3).
  // p . H p >= 0 for any p: the Hessian is a Gram matrix (PSD), as implicit Euler's CG needs.
  BodyParams p;
  p.edge_compliance = 1.0f / 50.0f;
  p.bending_stiffness = 2e-3f;
  SoftBody b(bent_sheet(), p);
  disturb(b.positions(), b.vertex_count(), 0.01f);
  const BendingForces bend = bending_forces(b.cloth(), p.bending_stiffness);
  const size_t n3 = 3 * size_t(b.vertex_count());
  std::vector<float> dir(n3), hp(n3, 0.0f), up(n3, 0.0f), down(n3, 0.0f), x(b.positions(), b.positions() + n3);
  for (size_t j = 0; j < n3; ++j) dir[j] = jitter(uint32_t(j + 7919));
  add_bending_jacobian_product(bend, dir.data(), 1.0f, hp.data());  // (df/dx) p = -H p
  const float e = 1e-3f;
  std::vector<float> xs = x;
  for (size_t j = 0; j < n3; ++j) xs[j] = x[j] + e * dir[j];
  add_bending_forces(bend, xs.data(), up.data());
  for (size_t j = 0; j < n3; ++j) xs[j] = x[j] - e * dir[j];
  add_bending_forces(bend, xs.data(), down.data());
  double worst = 0, top = 0, php = 0;
  for (size_t j = 0; j < n3; ++j) {
    worst = std::max(worst, std::fabs(double(up[j] - down[j]) / (2 * e) - hp[j]));
    top = std::max(top, double(std::fabs(hp[j])));
    php -= double(dir[j]) * hp[j];
  }
  MESSAGE("Hessian product: largest " << top << " N/m, difference " << worst / top << ", p.Hp " << php);
  CHECK(worst < 1e-3 * top);
  CHECK(php > 0.0);
  // The diagonal is the blocks' (D/A K_i^2 summed), so the Jacobi preconditioner sees bending.
  std::vector<float> diag(b.vertex_count(), 0.0f), unit(n3, 0.0f), col(n3, 0.0f);
  add_bending_diagonal(bend, 1.0f, diag.data());
  const uint32_t v = b.vertex_count() / 2;
  unit[3 * v + 1] = 1.0f;
  add_bending_jacobian_product(bend, unit.data(), 1.0f, col.data());
  CHECK(-col[3 * v + 1] == doctest::Approx(diag[v]).epsilon(1e-5));
}

namespace {

// A free 0.5 m sheet (12 x 14 cells, Y = 10 N/m, D = 1e-4 N m) thrown out of shape: an out-of-plane
// velocity wave and an in-plane shear, as the XPBD energy test in test_cloth.cpp.
SoftBody thrown_sheet(Solver solver) {
  BodyParams p;
  p.edge_compliance = 1.0f / 10.0f;
  p.bending_stiffness = 1e-4f;
  SoftBody b(make_cloth_rectangle(12, 14, 0.5f, 0.5f, 0, 0, 0, false), p);
  for (uint32_t i = 0; i < b.vertex_count(); ++i) {
    const float* x = b.rest_positions() + 3 * i;
    b.velocities()[3 * i + 1] = 0.5f * std::sin(12.0f * x[0]) * std::cos(9.0f * x[2]);
    b.velocities()[3 * i] = 0.2f * x[2];
  }
  REQUIRE(b.set_solver(solver));
  return b;
}

double total_energy(const SoftBody& b) {
  const BodyStats s = b.stats();
  return s.kinetic_energy + s.elastic_energy;
}

}  // namespace

TEST_CASE("Cloth energy: without damping or gravity the symplectic integrators keep it bounded, implicit Euler never gains") {
  // Symplectic Euler and Verlet, 10 substeps of 1/60 s: w h ~ 0.3 for the stiffest stretch mode.
  for (Solver solver : {Solver::SemiImplicitEuler, Solver::Verlet, Solver::ImplicitEuler}) {
    CAPTURE(int(solver));
    SoftBody b = thrown_sheet(solver);
    const StepSettings s = no_ground(10, false);
    const double e0 = total_energy(b);
    double lo = e0, hi = e0, bend = 0;
    for (int f = 0; f < 120; ++f) {
      REQUIRE(b.step(1.0f / 60, s));
      const double e = total_energy(b);
      lo = std::min(lo, e);
      hi = std::max(hi, e);
      bend = std::max(bend, cloth_bending_energy(b.cloth(), b.params().bending_stiffness, b.positions()));
    }
    const double last = total_energy(b);
    MESSAGE("solver " << int(solver) << ": " << e0 << " J -> " << last << " J, range " << lo << " .. " << hi << ", bending up to " << bend);
    CHECK(bend > 0.01 * e0);
    if (solver == Solver::ImplicitEuler) {
      CHECK(hi <= e0 * (1 + 1e-6));
      CHECK(last < e0);
    } else {
      // A nearby energy is conserved; the true one oscillates by O(w h) (measured +-0.7 %), no drift.
      CHECK(hi < 1.02 * e0);
      CHECK(lo > 0.98 * e0);
    }
  }
}

TEST_CASE("Cloth statics: a sheet clamped along one edge bends to the same shape under implicit Euler, VBD and XPBD") {
  // test_cloth.cpp's clamped strip (0.4 m x 1 m, 0.2 kg/m^2, D set for a 5 % tip deflection) at
  // Y = 1000 N/m, settled with air damping: the static shape minimises the same energy under every
  // solver (XPBD's converged substep is implicit Euler's step; VBD minimises its incremental
  // potential), so the solvers differ only by what is left unconverged. Substeps and passes are
  // raised until the body is still (kinetic energy < 1e-9 J, measured 2e-11 .. 8e-10) and VBD's
  // sweeps until it no longer creeps (10 sweeps stopped 0.5 % short, 24: 0.12 %). Every vertex within
  // 0.5 % of the tip deflection of implicit Euler's (measured: VBD 0.12 %, XPBD 0.03 %).
  const float L = 1.0f, W = 0.4f, rho = 0.2f, clamp = 0.125f, Le = L - clamp;
  const float D = rho * 9.81f * Le * Le * Le / (8 * 0.05f);
  std::vector<std::vector<float>> shapes;
  double tips[3];
  int k = 0;
  for (Solver solver : {Solver::ImplicitEuler, Solver::Vbd, Solver::Xpbd}) {
    BodyParams p;
    p.areal_density = rho;
    p.edge_compliance = 1e-3f;
    p.bending_stiffness = D;
    p.damping = 5.0f;
    p.iterations = solver == Solver::Vbd ? 24 : 10;  // VBD sweeps, XPBD passes
    SoftBody b(make_cloth_rectangle(3, 8, W, L, 0, 0, 0, false), p);
    pin_where(b, [&](const float* x) { return -x[2] < -L / 2 + clamp + 1e-5f; });
    REQUIRE(b.set_solver(solver));
    const StepSettings s = no_ground(20);
    for (int f = 0; f < 180; ++f) REQUIRE(b.step(1.0f / 60, s));
    double tip = 0;
    int count = 0;
    for (uint32_t i = 0; i < b.vertex_count(); ++i)
      if (-b.rest_positions()[3 * i + 2] > L / 2 - 1e-5f) tip -= b.positions()[3 * i + 1], ++count;
    tips[k] = tip / count;
    shapes.emplace_back(b.positions(), b.positions() + 3 * b.vertex_count());
    MESSAGE("solver " << int(solver) << ": tip " << tips[k] * 1e3 << " mm, kinetic " << b.stats().kinetic_energy << " J");
    CHECK(b.stats().kinetic_energy < 1e-9);
    ++k;
  }
  for (int j = 1; j < 3; ++j) {
    double worst = 0;
    for (size_t c = 0; c < shapes[0].size(); ++c) worst = std::max(worst, double(std::fabs(shapes[j][c] - shapes[0][c])));
    MESSAGE("solver " << j << ": farthest vertex " << worst * 1e3 << " mm from implicit Euler's, " << worst / tips[0] * 100 << " % of the tip");
    CHECK(worst < 0.005 * tips[0]);
  }
}

namespace {

// A 0.2 m sheet of 4 x 4 cells hanging from its clamped edge (Y = 2 N/m, D = 1e-5 N m), let go flat
// under gravity: T = 0.2 s of swinging, bending and stretching, every force nonlinear. Its vertices'
// positions at T, stepping h with one substep.
std::vector<float> swung_sheet(Solver solver, float h) {
  BodyParams p;
  p.edge_compliance = 1.0f / 2.0f;
  p.bending_stiffness = 1e-5f;
  SoftBody b(make_cloth_rectangle(4, 4, 0.2f, 0.2f, 0, 0, 0, false), p);
  pin_where(b, [](const float* x) { return x[0] < -0.1f + 1e-5f; });
  REQUIRE(b.set_solver(solver));
  const StepSettings s = no_ground(1);
  const int steps = int(std::lround(0.2 / h));
  for (int k = 0; k < steps; ++k) REQUIRE(b.step(h, s));
  return std::vector<float>(b.positions(), b.positions() + 3 * b.vertex_count());
}

double farthest(const std::vector<float>& a, const std::vector<float>& b) {
  double d = 0;
  for (size_t j = 0; j < a.size(); ++j) d = std::max(d, double(std::fabs(a[j] - b[j])));
  return d;
}

double fitted_order(const std::vector<double>& h, const std::vector<double>& err) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = double(h.size());
  for (size_t i = 0; i < h.size(); ++i) {
    const double lx = std::log(h[i]), ly = std::log(err[i]);
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace

TEST_CASE("Cloth orders: each integrator converges at its textbook order on a swinging sheet") {
  // As test_integrators.cpp's oscillator, on cloth's nonlinear forces: the largest vertex error at T
  // against RK4 at h = 1/12800 s, its slope over four steps within 0.3 of the textbook order. Steps
  // are stable (the stiffest mode w ~ 130 rad/s: RK2 blew up at 1/100 s, RK4 at 1/50 s), in the
  // asymptotic range (explicit Euler read 1.25 from 1/400 s) and above float32's floor (Verlet's
  // x - x_prev lost its order below 1/1600 s, RK4 below 1/300 s: errors of 1e-6 m).
  const std::vector<float> reference = swung_sheet(Solver::Rk4, 1.0f / 12800);
  struct Case {
    Solver solver;
    double order;
    std::vector<float> steps;
  };
  const std::vector<float> fine = {1 / 800.f, 1 / 1600.f, 1 / 3200.f, 1 / 6400.f};
  const std::vector<float> mid = {1 / 200.f, 1 / 400.f, 1 / 800.f, 1 / 1600.f};
  const std::vector<float> verlet = {1 / 100.f, 1 / 200.f, 1 / 400.f, 1 / 800.f};
  const std::vector<float> coarse = {1 / 120.f, 1 / 160.f, 1 / 200.f, 1 / 240.f};
  const Case cases[] = {
      {Solver::ExplicitEuler, 1, fine}, {Solver::SemiImplicitEuler, 1, fine}, {Solver::ImplicitEuler, 1, fine},
      {Solver::Verlet, 2, verlet},         {Solver::Midpoint, 2, mid},          {Solver::Heun, 2, mid},
      {Solver::Rk4, 4, coarse},
  };
  for (const Case& c : cases) {
    std::vector<double> h, err;
    for (float step : c.steps) {
      h.push_back(step);
      err.push_back(farthest(swung_sheet(c.solver, step), reference));
    }
    const double order = fitted_order(h, err);
    CAPTURE(int(c.solver));
    MESSAGE("solver " << int(c.solver) << ": order " << order << ", error " << err.front() << " .. " << err.back() << " m");
    CHECK(std::fabs(order - c.order) <= 0.3);
  }
}
