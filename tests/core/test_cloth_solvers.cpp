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
